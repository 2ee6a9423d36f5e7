// Page compression: decompresses and compresses the body of a data or dictionary page with
// each codec Parquet defines (the LZ4 codec's Hadoop framing and its legacy variants
// included). Decompression is bounded by the caller's expected size, so corrupt or
// malicious input fails with ParquetError instead of filling memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "format/metadata/enums.h"

namespace parquet {

// Decompresses src into exactly dst_size bytes at dst (the page header's uncompressed size,
// which the caller has already checked against the file and a per-page maximum). Never
// writes more than dst_size bytes. Throws ParquetError when the data is corrupt, truncated,
// decompresses to a different size, or the codec is unsupported. An empty src is accepted
// for dst_size == 0 with every codec.
//
// Accepted inputs beyond the plain codec formats:
//   GZIP: several concatenated gzip members; a zlib stream; a raw deflate stream.
//   ZSTD: one or more concatenated frames (skippable frames ignored).
//   LZ4:  Hadoop framing, else a raw LZ4 block (old parquet-cpp), else the LZ4 frame format.
void Decompress(CompressionCodec codec, const uint8_t* src, size_t src_size, uint8_t* dst,
                size_t dst_size);

// Appends the compressed form of src to *out. level is codec-specific; std::nullopt picks the
// default. Ranges: GZIP 0..9 (default 6), BROTLI 0..11 (default 8: the library's own
// default 11 is too slow for writing pages), ZSTD as the library allows (default 3),
// LZ4 and LZ4_RAW 1..12 (default 1; 1 and 2 are the fast compressor, 3..12 LZ4HC).
// UNCOMPRESSED and SNAPPY ignore level. LZ4 is written with Hadoop framing in blocks small
// enough for Hadoop's reader. Throws ParquetError for an unsupported codec or a level out
// of range.
void Compress(CompressionCodec codec, const uint8_t* src, size_t src_size,
              std::optional<int> level, std::string* out);

// The most bytes src can decompress to, where the codec's format bounds it: snappy's and
// zstd's declared content sizes (zstd frames without one: ZSTD_decompressBound), deflate's
// maximum ratio of 1032:1 (GZIP), LZ4's of 255:1; BROTLI, whose format allows ratios near
// 2^24:1, by policy: 16 MiB, or 65536 times the compressed size when that is more (a brotli
// page beyond both is rejected as a bomb). UINT64_MAX for unsupported codecs. Throws ParquetError when snappy's length header or zstd's frame
// headers are corrupt (a page that would fail to decompress anyway). Lets
// a caller reject a page that claims more uncompressed bytes than its body can hold before
// allocating for the claim: a 10 KB page claiming 1 GB fails without touching 1 GB.
uint64_t MaxDecompressedSize(CompressionCodec codec, const uint8_t* src, size_t src_size);
// The same when only the first `available` of the `src_size` bytes are at hand (a body read
// in pieces): snappy's length header is among them; zstd's bound is then its largest ratio
// (a 128 KiB block from 4 bytes, 2^15:1); the other codecs' bounds need only src_size.
uint64_t MaxDecompressedSize(CompressionCodec codec, const uint8_t* src, size_t available, size_t src_size);

// Compressed bytes that arrive a piece at a time, such as a page body read from a file a
// window at a time (DecompressPieces).
class CompressedPieces {
 public:
  virtual ~CompressedPieces() = default;
  // The next piece, valid until the next call: at least one byte while any remain; 0 when
  // none remain or they cannot be had (the source keeps its error for its owner to raise
  // afterwards). Must not throw: a codec library may be in the call stack.
  virtual size_t Next(const uint8_t** piece) = 0;
};

// True for the codecs DecompressPieces takes: SNAPPY, ZSTD and BROTLI, whose libraries
// decode input given in pieces straight into the output. (GZIP's and LZ4's formats are
// decoded here from their input whole.)
bool DecompressesInPieces(CompressionCodec codec);

// As Decompress, with the `src_size` compressed bytes coming from `pieces` rather than from
// one address: the libraries hold at most a piece of input (zstd: a block) of their own,
// so a large page needs no buffer of its stored size. Throws ParquetError as Decompress
// does, and for a codec DecompressesInPieces refuses.
void DecompressPieces(CompressionCodec codec, CompressedPieces& pieces, size_t src_size, uint8_t* dst,
                      size_t dst_size);

// True for the codecs Decompress and Compress handle (all but LZO and unknown numbers).
bool IsSupported(CompressionCodec codec);

// The library behind a supported codec and its version as linked, e.g. "zlib 1.2.13" for
// GZIP ("" for UNCOMPRESSED and unsupported codecs). For bug reports (parquet_version()).
std::string CodecLibraryVersion(CompressionCodec codec);

// Makes room for `size` bytes in *out without the string's usual growth to twice its
// capacity (a writer keeps its page buffers: they stay at the largest page's bound
// instead of up to twice it).
void ReserveExactly(std::string* out, size_t size);

}  // namespace parquet
