// Page compression codecs on top of zlib, snappy, brotli, zstd and lz4. Every decompressor
// writes into the caller's fixed-size buffer and treats any output beyond it as an error;
// codec contexts are reused between calls (ContextPool).
#include "format/codec/compression.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <lz4frame.h>
#include <lz4hc.h>
#include <snappy.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_decompressBound (exported by libzstd 1.5)
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "format/common/error.h"
#include "format/common/physical_values.h"
#include "format/codec/snappy_pieces.h"

namespace parquet {

namespace {

// Largest piece handed to zlib in one call (its counters are 32-bit).
constexpr size_t kMaxZlibChunk = size_t{1} << 30;

// Hadoop's Lz4Codec reads blocks through a 256 KiB buffer and compresses at most this many
// bytes per block so that an incompressible block still fits that buffer.
constexpr size_t kHadoopLz4BufferSize = 256 * 1024;
constexpr size_t kHadoopLz4MaxBlockInput = kHadoopLz4BufferSize - (kHadoopLz4BufferSize / 255 + 16);

constexpr uint32_t kLz4FrameMagic = 0x184D2204;

// Codec contexts (zlib inflate streams, zstd and lz4 frame contexts), reused between calls:
// each call takes one for its duration and gives it back, whichever thread it runs on.
// Not thread_local objects: a thread_local with a destructor is destroyed at thread exit,
// and with mingw-w64 (emulated TLS, libstdc++'s pthread-key fallback for thread_local
// destructors) that runs after the thread's TLS memory is freed, so the destructor freed
// garbage and parquet.dll crashed when parquet_copy's writer thread or a scan's
// decompress-ahead worker ended (tests/windows/run.sh). Holds at most as many contexts as
// threads ever used one at once; they are freed when the library is unloaded.
template <class Context>
class ContextPool {
 public:
  class Lease {
   public:
    Lease(ContextPool* pool, std::unique_ptr<Context> context) : pool_(pool), context_(std::move(context)) {}
    ~Lease() { pool_->GiveBack(std::move(context_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Context* operator->() const { return context_.get(); }

   private:
    ContextPool* pool_;
    std::unique_ptr<Context> context_;
  };

  Lease Take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        std::unique_ptr<Context> context = std::move(idle_.back());
        idle_.pop_back();
        return Lease(this, std::move(context));
      }
    }
    return Lease(this, std::make_unique<Context>());
  }

 private:
  void GiveBack(std::unique_ptr<Context> context) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    try {
      idle_.push_back(std::move(context));
    } catch (...) {
      // No memory to keep it: it is freed here instead.
    }
  }

  std::mutex mutex_;
  std::vector<std::unique_ptr<Context>> idle_;
};

constexpr int kDefaultBrotliQuality = 8;
constexpr int kDefaultLz4Level = 1;
constexpr int kMinLz4HcLevel = 3;

[[noreturn]] void ThrowSizeMismatch(const char* codec_name, size_t actual, size_t expected) {
  throw ParquetError(std::string(codec_name) + " data decompresses to " + std::to_string(actual) +
                     " bytes, expected " + std::to_string(expected));
}

[[noreturn]] void ThrowTooLarge(const char* codec_name, size_t expected) {
  throw ParquetError(std::string(codec_name) + " data decompresses to more than " +
                     std::to_string(expected) + " bytes, expected " + std::to_string(expected));
}

[[noreturn]] void ThrowTruncated(const char* codec_name, size_t produced, size_t expected) {
  throw ParquetError(std::string(codec_name) + " data is truncated after " + std::to_string(produced) +
                     " of " + std::to_string(expected) + " decompressed bytes");
}

[[noreturn]] void ThrowTrailingBytes(const char* codec_name, size_t count) {
  throw ParquetError(std::string(codec_name) + " data has " + std::to_string(count) +
                     " unexpected bytes after the end of the compressed stream");
}

void RequireLevelInRange(const char* codec_name, int level, int min_level, int max_level) {
  if (level < min_level || level > max_level) {
    throw ParquetError(std::string(codec_name) + " compression level " + std::to_string(level) +
                       " is out of range " + std::to_string(min_level) + ".." +
                       std::to_string(max_level));
  }
}

void StoreBigEndian32(uint32_t value, char* bytes) {
  bytes[0] = static_cast<char>(value >> 24);
  bytes[1] = static_cast<char>(value >> 16);
  bytes[2] = static_cast<char>(value >> 8);
  bytes[3] = static_cast<char>(value);
}

void AppendBigEndian32(uint32_t value, std::string* out) {
  char bytes[4];
  StoreBigEndian32(value, bytes);
  out->append(bytes, 4);
}

// ---------------------------------------------------------------------------------------------
// UNCOMPRESSED

void CopyUncompressed(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size) {
  if (src_size != dst_size) {
    throw ParquetError("uncompressed page has " + std::to_string(src_size) + " bytes, expected " +
                       std::to_string(dst_size));
  }
  if (dst_size > 0) std::memcpy(dst, src, dst_size);
}

// ---------------------------------------------------------------------------------------------
// SNAPPY

void DecompressSnappy(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size) {
  const char* input = reinterpret_cast<const char*>(src);
  size_t declared_size = 0;
  if (!snappy::GetUncompressedLength(input, src_size, &declared_size)) {
    throw ParquetError("snappy data is corrupt: invalid length header in " +
                       std::to_string(src_size) + " bytes");
  }
  if (declared_size != dst_size) ThrowSizeMismatch("snappy", declared_size, dst_size);
  // RawUncompress writes exactly the declared size, which is dst_size.
  if (!snappy::RawUncompress(input, src_size, reinterpret_cast<char*>(dst))) {
    throw ParquetError("snappy data is corrupt");
  }
}

void DecompressSnappyPieces(CompressedPieces& pieces, size_t src_size, uint8_t* dst, size_t dst_size) {
  size_t declared_size = 0;
  switch (SnappyUncompressPieces(pieces, src_size, dst, dst_size, &declared_size)) {
    case SnappyPiecesResult::kOk: return;
    case SnappyPiecesResult::kBadHeader:
      throw ParquetError("snappy data is corrupt: invalid length header in " + std::to_string(src_size) + " bytes");
    case SnappyPiecesResult::kOtherSize: ThrowSizeMismatch("snappy", declared_size, dst_size);
    case SnappyPiecesResult::kCorrupt: break;
  }
  throw ParquetError("snappy data is corrupt");
}

void CompressSnappy(const uint8_t* src, size_t src_size, std::string* out) {
  const size_t start = out->size();
  ReserveExactly(out, start + snappy::MaxCompressedLength(src_size));
  out->resize(start + snappy::MaxCompressedLength(src_size));
  size_t compressed_size = 0;
  snappy::RawCompress(reinterpret_cast<const char*>(src), src_size, out->data() + start,
                      &compressed_size);
  out->resize(start + compressed_size);
}

// ---------------------------------------------------------------------------------------------
// GZIP (and the zlib / raw deflate variants accepted when reading)

enum class DeflateWrapper { kGzip, kZlib, kRaw };

int WindowBitsFor(DeflateWrapper wrapper) {
  switch (wrapper) {
    case DeflateWrapper::kGzip: return 16 + MAX_WBITS;
    case DeflateWrapper::kZlib: return MAX_WBITS;
    case DeflateWrapper::kRaw: return -MAX_WBITS;
  }
  return MAX_WBITS;
}

bool StartsWithGzipMagic(const uint8_t* data, size_t size) {
  return size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

// RFC 1950 header: deflate method, window at most 32 KiB, and the header check bits.
bool StartsWithZlibHeader(const uint8_t* data, size_t size) {
  if (size < 2) return false;
  const unsigned method_and_window = data[0];
  const unsigned flags = data[1];
  return (method_and_window & 0x0f) == Z_DEFLATED && (method_and_window >> 4) <= 7 &&
         ((method_and_window << 8) | flags) % 31 == 0;
}

// An inflate stream, reset for each page.
class InflateStream {
 public:
  InflateStream() = default;
  InflateStream(const InflateStream&) = delete;
  InflateStream& operator=(const InflateStream&) = delete;
  ~InflateStream() {
    if (initialized_) inflateEnd(&stream_);
  }

  z_stream* Start(int window_bits) {
    if (!initialized_) {
      stream_ = z_stream{};
      if (inflateInit2(&stream_, window_bits) != Z_OK) {
        throw ParquetError("cannot initialize zlib decompression");
      }
      initialized_ = true;
    } else if (inflateReset2(&stream_, window_bits) != Z_OK) {
      throw ParquetError("cannot reset zlib decompression");
    }
    return &stream_;
  }

 private:
  z_stream stream_{};
  bool initialized_ = false;
};

ContextPool<InflateStream> inflate_streams;

void Inflate(DeflateWrapper wrapper, const uint8_t* src, size_t src_size, uint8_t* dst,
             size_t dst_size) {
  const ContextPool<InflateStream>::Lease lease = inflate_streams.Take();
  z_stream* stream = lease->Start(WindowBitsFor(wrapper));
  size_t input_pos = 0;
  size_t output_pos = 0;
  uint8_t overflow_byte = 0;
  while (true) {
    const size_t input_chunk = std::min(src_size - input_pos, kMaxZlibChunk);
    // Once dst is full, a one-byte scratch target detects any further output.
    const bool dst_full = output_pos == dst_size;
    const size_t output_chunk = dst_full ? 1 : std::min(dst_size - output_pos, kMaxZlibChunk);
    stream->next_in = const_cast<Bytef*>(src + input_pos);
    stream->avail_in = static_cast<uInt>(input_chunk);
    stream->next_out = dst_full ? &overflow_byte : dst + output_pos;
    stream->avail_out = static_cast<uInt>(output_chunk);

    const int result = inflate(stream, Z_NO_FLUSH);
    const size_t consumed = input_chunk - stream->avail_in;
    const size_t produced = output_chunk - stream->avail_out;
    input_pos += consumed;
    if (dst_full && produced > 0) ThrowTooLarge("gzip", dst_size);
    if (!dst_full) output_pos += produced;

    if (result == Z_STREAM_END) {
      if (input_pos == src_size) break;
      // Readers must accept several concatenated gzip members.
      if (wrapper == DeflateWrapper::kGzip &&
          StartsWithGzipMagic(src + input_pos, src_size - input_pos)) {
        if (inflateReset(stream) != Z_OK) throw ParquetError("cannot reset zlib decompression");
        continue;
      }
      ThrowTrailingBytes("gzip", src_size - input_pos);
    }
    if (result == Z_OK || result == Z_BUF_ERROR) {
      if (consumed == 0 && produced == 0) {
        if (input_pos == src_size) ThrowTruncated("gzip", output_pos, dst_size);
        throw ParquetError("gzip decompression made no progress");
      }
      continue;
    }
    std::string detail = stream->msg != nullptr ? stream->msg : "error " + std::to_string(result);
    if (result == Z_NEED_DICT) detail = "it requires a preset dictionary";
    throw ParquetError("gzip data is corrupt: " + detail);
  }
  if (output_pos != dst_size) ThrowSizeMismatch("gzip", output_pos, dst_size);
}

void DecompressGzip(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size) {
  if (StartsWithGzipMagic(src, src_size)) {
    Inflate(DeflateWrapper::kGzip, src, src_size, dst, dst_size);
    return;
  }
  // Some writers emit a zlib stream or bare deflate data under the GZIP codec. A raw deflate
  // stream can begin with bytes that pass the zlib header check, so retry it raw on failure.
  if (StartsWithZlibHeader(src, src_size)) {
    try {
      Inflate(DeflateWrapper::kZlib, src, src_size, dst, dst_size);
      return;
    } catch (const ParquetError& zlib_error) {
      try {
        Inflate(DeflateWrapper::kRaw, src, src_size, dst, dst_size);
        return;
      } catch (const ParquetError&) {
        throw zlib_error;
      }
    }
  }
  Inflate(DeflateWrapper::kRaw, src, src_size, dst, dst_size);
}

void CompressGzip(const uint8_t* src, size_t src_size, std::optional<int> level, std::string* out) {
  if (level) RequireLevelInRange("gzip", *level, 0, 9);
  z_stream stream{};
  if (deflateInit2(&stream, level.value_or(Z_DEFAULT_COMPRESSION), Z_DEFLATED,
                   WindowBitsFor(DeflateWrapper::kGzip), 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw ParquetError("cannot initialize gzip compression");
  }
  std::unique_ptr<z_stream, int (*)(z_stream*)> stream_guard(&stream, deflateEnd);

  const size_t start = out->size();
  out->resize(start + deflateBound(&stream, src_size));
  size_t input_pos = 0;
  size_t output_pos = start;
  int result = Z_OK;
  do {
    if (output_pos == out->size()) out->resize(out->size() + 64 * 1024);
    const size_t input_chunk = std::min(src_size - input_pos, kMaxZlibChunk);
    const size_t output_chunk = std::min(out->size() - output_pos, kMaxZlibChunk);
    stream.next_in = const_cast<Bytef*>(src + input_pos);
    stream.avail_in = static_cast<uInt>(input_chunk);
    stream.next_out = reinterpret_cast<Bytef*>(out->data() + output_pos);
    stream.avail_out = static_cast<uInt>(output_chunk);
    const bool last_input = input_pos + input_chunk == src_size;
    result = deflate(&stream, last_input ? Z_FINISH : Z_NO_FLUSH);
    if (result == Z_STREAM_ERROR) throw ParquetError("gzip compression failed");
    input_pos += input_chunk - stream.avail_in;
    output_pos += output_chunk - stream.avail_out;
  } while (result != Z_STREAM_END);
  out->resize(output_pos);
}

// ---------------------------------------------------------------------------------------------
// BROTLI

void DecompressBrotliPieces(CompressedPieces& pieces, size_t src_size, uint8_t* dst, size_t dst_size) {
  // The brotli decoder cannot be reset, so each page gets a fresh one.
  std::unique_ptr<BrotliDecoderState, void (*)(BrotliDecoderState*)> decoder(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), BrotliDecoderDestroyInstance);
  if (!decoder) throw ParquetError("cannot allocate a brotli decoder");

  static const uint8_t kNoInput = 0;
  const uint8_t* next_in = &kNoInput;  // brotli gets a valid pointer even without input
  size_t available_in = 0;
  size_t src_left = src_size;  // not yet taken from `pieces`
  size_t output_pos = 0;
  uint8_t overflow_byte = 0;
  while (true) {
    if (available_in == 0 && src_left > 0) {
      available_in = std::min(pieces.Next(&next_in), src_left);
      src_left = available_in == 0 ? 0 : src_left - available_in;  // none to be had: truncated
    }
    const bool dst_full = output_pos == dst_size;
    uint8_t* next_out = dst_full ? &overflow_byte : dst + output_pos;
    const size_t output_chunk = dst_full ? 1 : dst_size - output_pos;
    size_t available_out = output_chunk;
    const size_t input_before = available_in;
    const BrotliDecoderResult result = BrotliDecoderDecompressStream(
        decoder.get(), &available_in, &next_in, &available_out, &next_out, nullptr);
    const size_t produced = output_chunk - available_out;
    if (dst_full && produced > 0) ThrowTooLarge("brotli", dst_size);
    if (!dst_full) output_pos += produced;

    switch (result) {
      case BROTLI_DECODER_RESULT_SUCCESS:
        if (available_in + src_left != 0) ThrowTrailingBytes("brotli", available_in + src_left);
        if (output_pos != dst_size) ThrowSizeMismatch("brotli", output_pos, dst_size);
        return;
      case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
        if (src_left > 0) continue;  // the next piece (brotli took all of this one)
        ThrowTruncated("brotli", output_pos, dst_size);
      case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
        if (produced == 0 && available_in == input_before) {
          throw ParquetError("brotli decompression made no progress");
        }
        continue;
      case BROTLI_DECODER_RESULT_ERROR:
        break;
    }
    throw ParquetError(std::string("brotli data is corrupt: ") +
                       BrotliDecoderErrorString(BrotliDecoderGetErrorCode(decoder.get())));
  }
}

// A buffer at one address, as one piece.
class WholePiece : public CompressedPieces {
 public:
  WholePiece(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  size_t Next(const uint8_t** piece) override {
    *piece = data_;
    return std::exchange(size_, 0);
  }

 private:
  const uint8_t* data_;
  size_t size_;
};

void DecompressBrotli(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size) {
  WholePiece whole(src, src_size);
  DecompressBrotliPieces(whole, src_size, dst, dst_size);
}

void CompressBrotli(const uint8_t* src, size_t src_size, std::optional<int> level,
                    std::string* out) {
  const int quality = level.value_or(kDefaultBrotliQuality);
  RequireLevelInRange("brotli", quality, BROTLI_MIN_QUALITY, BROTLI_MAX_QUALITY);
  const size_t max_size = BrotliEncoderMaxCompressedSize(src_size);
  if (max_size == 0) {
    throw ParquetError("brotli cannot compress " + std::to_string(src_size) + " bytes at once");
  }
  const size_t start = out->size();
  out->resize(start + max_size);
  // The smallest window that holds the whole input (brotli's window is 2^bits - 16 bytes)
  // finds the same matches as the default one, and spares allocating the default's 4 MiB
  // of encoder state for each small page.
  int window_bits = BROTLI_MIN_WINDOW_BITS;
  while (window_bits < BROTLI_DEFAULT_WINDOW && (size_t{1} << window_bits) - 16 < src_size) window_bits++;
  size_t compressed_size = max_size;
  if (!BrotliEncoderCompress(quality, window_bits, BROTLI_MODE_GENERIC, src_size, src,
                             &compressed_size, reinterpret_cast<uint8_t*>(out->data() + start))) {
    throw ParquetError("brotli compression of " + std::to_string(src_size) + " bytes failed");
  }
  out->resize(start + compressed_size);
}

// ---------------------------------------------------------------------------------------------
// ZSTD

class ZstdContexts {
 public:
  ZstdContexts() = default;
  ZstdContexts(const ZstdContexts&) = delete;
  ZstdContexts& operator=(const ZstdContexts&) = delete;
  ~ZstdContexts() {
    ZSTD_freeDCtx(decompression_);
    ZSTD_freeDCtx(stream_decompression_);
    ZSTD_freeCCtx(compression_);
  }

  ZSTD_DCtx* Decompression() {
    if (decompression_ == nullptr) decompression_ = ZSTD_createDCtx();
    if (decompression_ == nullptr) throw ParquetError("cannot allocate a zstd decompression context");
    return decompression_;
  }

  // A context for input in pieces, reset for a new page, that decodes straight into the
  // caller's buffer (ZSTD_d_stableOutBuffer) instead of through a window buffer of its own.
  ZSTD_DCtx* StreamDecompression() {
    if (stream_decompression_ == nullptr) {
      stream_decompression_ = ZSTD_createDCtx();
      if (stream_decompression_ == nullptr) throw ParquetError("cannot allocate a zstd decompression context");
      const size_t result = ZSTD_DCtx_setParameter(stream_decompression_, ZSTD_d_stableOutBuffer, 1);
      if (ZSTD_isError(result)) {
        ZSTD_freeDCtx(std::exchange(stream_decompression_, nullptr));
        throw ParquetError(std::string("zstd rejected a decompression parameter: ") + ZSTD_getErrorName(result));
      }
    }
    ZSTD_DCtx_reset(stream_decompression_, ZSTD_reset_session_only);
    return stream_decompression_;
  }

  // The compression context set up for `level` with the parameters zstd gives that level
  // for an input of unknown size (its large-input table), whatever the page's size. zstd's
  // own choice for a known size switches tables at 256, 128 and 16 KiB; at level 3 its
  // table for inputs up to 256 KiB lowers the minimum match to 4 bytes, which on
  // high-entropy text (random comments, ids) found spurious matches at a seventh of the
  // speed and gave 3% larger pages than the large-input parameters (measured on 26 MB of
  // random text in 256 KiB pages). With these a page compresses the same whether the
  // page size limit lands just under or just over a table boundary; the window still
  // shrinks to the page.
  ZSTD_CCtx* CompressionAtLevel(int level) {
    if (compression_ == nullptr) compression_ = ZSTD_createCCtx();
    if (compression_ == nullptr) throw ParquetError("cannot allocate a zstd compression context");
    if (compression_level_ != level) {
      compression_level_.reset();
      const ZSTD_compressionParameters params = ZSTD_getCParams(level, ZSTD_CONTENTSIZE_UNKNOWN, 0);
      const std::pair<ZSTD_cParameter, int> settings[] = {
          {ZSTD_c_compressionLevel, level},
          {ZSTD_c_windowLog, static_cast<int>(params.windowLog)},
          {ZSTD_c_hashLog, static_cast<int>(params.hashLog)},
          {ZSTD_c_chainLog, static_cast<int>(params.chainLog)},
          {ZSTD_c_searchLog, static_cast<int>(params.searchLog)},
          {ZSTD_c_minMatch, static_cast<int>(params.minMatch)},
          {ZSTD_c_targetLength, static_cast<int>(params.targetLength)},
          {ZSTD_c_strategy, static_cast<int>(params.strategy)},
          {ZSTD_c_contentSizeFlag, 1},
          {ZSTD_c_checksumFlag, 0},
      };
      ZSTD_CCtx_reset(compression_, ZSTD_reset_session_and_parameters);
      for (const auto& [parameter, value] : settings) {
        const size_t result = ZSTD_CCtx_setParameter(compression_, parameter, value);
        if (ZSTD_isError(result)) {
          throw ParquetError(std::string("zstd rejected a compression parameter: ") + ZSTD_getErrorName(result));
        }
      }
      compression_level_ = level;
    }
    return compression_;
  }

 private:
  ZSTD_DCtx* decompression_ = nullptr;
  ZSTD_DCtx* stream_decompression_ = nullptr;
  ZSTD_CCtx* compression_ = nullptr;
  std::optional<int> compression_level_;  // the level compression_ is set up for
};

ContextPool<ZstdContexts> zstd_contexts;

void DecompressZstd(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size) {
  // Decodes every concatenated frame straight into dst; zstd stops at dst_size.
  const ContextPool<ZstdContexts>::Lease contexts = zstd_contexts.Take();
  const size_t result = ZSTD_decompressDCtx(contexts->Decompression(), dst, dst_size, src, src_size);
  if (ZSTD_isError(result)) {
    if (ZSTD_getErrorCode(result) == ZSTD_error_dstSize_tooSmall) ThrowTooLarge("zstd", dst_size);
    throw ParquetError(std::string("zstd data is corrupt: ") + ZSTD_getErrorName(result));
  }
  if (result != dst_size) ThrowSizeMismatch("zstd", result, dst_size);
}

[[noreturn]] void ThrowZstdError(size_t result, size_t dst_size) {
  if (ZSTD_getErrorCode(result) == ZSTD_error_dstSize_tooSmall) ThrowTooLarge("zstd", dst_size);
  throw ParquetError(std::string("zstd data is corrupt: ") + ZSTD_getErrorName(result));
}

void DecompressZstdPieces(CompressedPieces& pieces, size_t src_size, uint8_t* dst, size_t dst_size) {
  const ContextPool<ZstdContexts>::Lease contexts = zstd_contexts.Take();
  ZSTD_DCtx* context = contexts->StreamDecompression();
  ZSTD_outBuffer out{dst, dst_size, 0};
  size_t src_left = src_size;
  size_t hint = 1;  // zstd's: 0 once a frame is complete (skippable frames included)
  while (src_left > 0) {
    const uint8_t* piece = nullptr;
    const size_t size = std::min(pieces.Next(&piece), src_left);
    if (size == 0) ThrowTruncated("zstd", out.pos, dst_size);
    src_left -= size;
    ZSTD_inBuffer in{piece, size, 0};
    while (in.pos < in.size) {
      const size_t in_before = in.pos, out_before = out.pos;
      hint = ZSTD_decompressStream(context, &out, &in);
      if (ZSTD_isError(hint)) ThrowZstdError(hint, dst_size);
      if (in.pos == in_before && out.pos == out_before) ThrowTooLarge("zstd", dst_size);
    }
  }
  while (hint != 0) {  // every byte given: what zstd holds of the last block
    ZSTD_inBuffer in{nullptr, 0, 0};
    const size_t out_before = out.pos;
    hint = ZSTD_decompressStream(context, &out, &in);
    if (ZSTD_isError(hint)) ThrowZstdError(hint, dst_size);
    if (hint != 0 && out.pos == out_before) ThrowTruncated("zstd", out.pos, dst_size);
  }
  if (out.pos != dst_size) ThrowSizeMismatch("zstd", out.pos, dst_size);
}

void CompressZstd(const uint8_t* src, size_t src_size, std::optional<int> level, std::string* out) {
  const int compression_level = level.value_or(ZSTD_CLEVEL_DEFAULT);
  RequireLevelInRange("zstd", compression_level, ZSTD_minCLevel(), ZSTD_maxCLevel());
  const size_t start = out->size();
  ReserveExactly(out, start + ZSTD_compressBound(src_size));
  out->resize(start + ZSTD_compressBound(src_size));
  const ContextPool<ZstdContexts>::Lease contexts = zstd_contexts.Take();
  const size_t result = ZSTD_compress2(contexts->CompressionAtLevel(compression_level),
                                       out->data() + start, out->size() - start, src, src_size);
  if (ZSTD_isError(result)) {
    out->resize(start);
    throw ParquetError(std::string("zstd compression failed: ") + ZSTD_getErrorName(result));
  }
  out->resize(start + result);
}

// ---------------------------------------------------------------------------------------------
// LZ4_RAW and LZ4

// Decodes one raw LZ4 block into at most capacity bytes; returns the decoded size, or -1 when
// the block is corrupt, would exceed capacity, or is too large for the lz4 API.
int64_t DecodeLz4Block(const uint8_t* src, size_t src_size, uint8_t* dst, size_t capacity) {
  if (src_size > static_cast<size_t>(INT_MAX) || capacity > static_cast<size_t>(INT_MAX)) return -1;
  return LZ4_decompress_safe(reinterpret_cast<const char*>(src), reinterpret_cast<char*>(dst),
                             static_cast<int>(src_size), static_cast<int>(capacity));
}

void RequireLz4BlockSizes(size_t src_size, size_t dst_size) {
  if (src_size > static_cast<size_t>(INT_MAX)) {
    throw ParquetError("lz4 block of " + std::to_string(src_size) + " bytes is too large");
  }
  if (dst_size > static_cast<size_t>(INT_MAX)) {
    throw ParquetError("lz4 block decompressing to " + std::to_string(dst_size) +
                       " bytes is too large");
  }
}

void DecompressLz4Raw(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size) {
  RequireLz4BlockSizes(src_size, dst_size);
  const int64_t decoded = DecodeLz4Block(src, src_size, dst, dst_size);
  if (decoded < 0) {
    throw ParquetError("lz4 data is corrupt or decompresses to more than " +
                       std::to_string(dst_size) + " bytes");
  }
  if (static_cast<size_t>(decoded) != dst_size) {
    ThrowSizeMismatch("lz4", static_cast<size_t>(decoded), dst_size);
  }
}

// Hadoop framing: blocks of [big-endian uncompressed size][one or more chunks of
// [big-endian compressed size][raw lz4 block]] whose output adds up to the block's size.
// Returns false unless the whole input parses this way and fills exactly dst_size bytes.
bool TryDecompressHadoopLz4(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size) {
  size_t input_pos = 0;
  size_t output_pos = 0;
  while (input_pos < src_size) {
    if (src_size - input_pos < 4) return false;
    const uint32_t block_size = LoadBigEndian32(src + input_pos);
    input_pos += 4;
    if (block_size > dst_size - output_pos) return false;
    const size_t block_end = output_pos + block_size;
    // Hadoop's writer ends an empty stream with a bare zero size; parquet-cpp follows it
    // with one chunk decoding to nothing.
    if (block_size == 0 && input_pos == src_size) break;
    do {
      if (src_size - input_pos < 4) return false;
      const uint32_t chunk_size = LoadBigEndian32(src + input_pos);
      input_pos += 4;
      if (chunk_size > src_size - input_pos) return false;
      const int64_t decoded =
          DecodeLz4Block(src + input_pos, chunk_size, dst + output_pos, block_end - output_pos);
      if (decoded < 0 || (decoded == 0 && block_size != 0)) return false;
      input_pos += chunk_size;
      output_pos += static_cast<size_t>(decoded);
    } while (output_pos < block_end);
  }
  return output_pos == dst_size;
}

class Lz4FrameContext {
 public:
  Lz4FrameContext() = default;
  Lz4FrameContext(const Lz4FrameContext&) = delete;
  Lz4FrameContext& operator=(const Lz4FrameContext&) = delete;
  ~Lz4FrameContext() { LZ4F_freeDecompressionContext(context_); }

  LZ4F_dctx* Start() {
    if (context_ == nullptr) {
      if (LZ4F_isError(LZ4F_createDecompressionContext(&context_, LZ4F_VERSION))) {
        context_ = nullptr;
        throw ParquetError("cannot allocate an lz4 frame decompression context");
      }
    } else {
      LZ4F_resetDecompressionContext(context_);
    }
    return context_;
  }

 private:
  LZ4F_dctx* context_ = nullptr;
};

ContextPool<Lz4FrameContext> lz4_frame_contexts;

// Returns false unless the input is one or more LZ4 frames decoding to exactly dst_size bytes.
bool TryDecompressLz4Frame(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size) {
  if (src_size < 4 || LoadLittleEndian32(src) != kLz4FrameMagic) return false;
  const ContextPool<Lz4FrameContext>::Lease lease = lz4_frame_contexts.Take();
  LZ4F_dctx* context = lease->Start();
  size_t input_pos = 0;
  size_t output_pos = 0;
  uint8_t overflow_byte = 0;
  while (true) {
    const bool dst_full = output_pos == dst_size;
    size_t produced = dst_full ? 1 : dst_size - output_pos;
    size_t consumed = src_size - input_pos;
    const size_t hint = LZ4F_decompress(context, dst_full ? &overflow_byte : dst + output_pos,
                                        &produced, src + input_pos, &consumed, nullptr);
    if (LZ4F_isError(hint)) return false;
    if (dst_full && produced > 0) return false;
    input_pos += consumed;
    if (!dst_full) output_pos += produced;
    if (hint == 0) {
      if (input_pos == src_size) break;
      continue;  // another frame follows
    }
    if (consumed == 0 && produced == 0) return false;  // truncated frame
  }
  return output_pos == dst_size;
}

void DecompressLz4Hadoop(const uint8_t* src, size_t src_size, uint8_t* dst, size_t dst_size) {
  if (TryDecompressHadoopLz4(src, src_size, dst, dst_size)) return;
  // Old parquet-cpp wrote a bare LZ4 block under this codec; some writers used LZ4 frames.
  const int64_t decoded = DecodeLz4Block(src, src_size, dst, dst_size);
  if (decoded >= 0 && static_cast<size_t>(decoded) == dst_size) return;
  if (TryDecompressLz4Frame(src, src_size, dst, dst_size)) return;
  throw ParquetError("lz4 data is corrupt or does not decompress to " + std::to_string(dst_size) +
                     " bytes as hadoop-framed lz4, a raw lz4 block or an lz4 frame");
}

int Lz4LevelFrom(std::optional<int> level) {
  const int lz4_level = level.value_or(kDefaultLz4Level);
  RequireLevelInRange("lz4", lz4_level, 1, LZ4HC_CLEVEL_MAX);
  return lz4_level;
}

// Appends one raw LZ4 block; returns its size.
size_t AppendLz4Block(const uint8_t* src, size_t src_size, int lz4_level, std::string* out) {
  if (src_size > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) {
    throw ParquetError("lz4 cannot compress " + std::to_string(src_size) + " bytes in one block");
  }
  const int bound = LZ4_compressBound(static_cast<int>(src_size));
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(bound));
  const char* input = reinterpret_cast<const char*>(src);
  char* output = out->data() + start;
  const int compressed_size =
      lz4_level < kMinLz4HcLevel
          ? LZ4_compress_default(input, output, static_cast<int>(src_size), bound)
          : LZ4_compress_HC(input, output, static_cast<int>(src_size), bound, lz4_level);
  if (compressed_size <= 0) {
    out->resize(start);
    throw ParquetError("lz4 compression of " + std::to_string(src_size) + " bytes failed");
  }
  out->resize(start + static_cast<size_t>(compressed_size));
  return static_cast<size_t>(compressed_size);
}

void CompressLz4Hadoop(const uint8_t* src, size_t src_size, int lz4_level, std::string* out) {
  size_t input_pos = 0;
  do {  // an empty input still gets one (empty) block
    const size_t block_size = std::min(src_size - input_pos, kHadoopLz4MaxBlockInput);
    AppendBigEndian32(static_cast<uint32_t>(block_size), out);
    const size_t compressed_size_field = out->size();
    AppendBigEndian32(0, out);  // patched below
    const size_t compressed_size = AppendLz4Block(src + input_pos, block_size, lz4_level, out);
    StoreBigEndian32(static_cast<uint32_t>(compressed_size), out->data() + compressed_size_field);
    input_pos += block_size;
  } while (input_pos < src_size);
}

// ---------------------------------------------------------------------------------------------

void RequireSupported(CompressionCodec codec) {
  if (IsSupported(codec)) return;
  if (codec == CompressionCodec::LZO) throw ParquetError("codec LZO is not supported");
  throw ParquetError("unsupported compression codec " + ToString(codec));
}

}  // namespace

std::string CodecLibraryVersion(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::SNAPPY:
      // snappy has no run-time version call: the version of the headers it was built with.
      return "snappy " + std::to_string(SNAPPY_MAJOR) + "." + std::to_string(SNAPPY_MINOR) + "." +
             std::to_string(SNAPPY_PATCHLEVEL);
    case CompressionCodec::GZIP:
      return std::string("zlib ") + zlibVersion();
    case CompressionCodec::BROTLI: {
      const uint32_t version = BrotliDecoderVersion();  // 0xMMMmmmppp
      return "brotli " + std::to_string(version >> 24) + "." + std::to_string((version >> 12) & 0xFFF) + "." +
             std::to_string(version & 0xFFF);
    }
    case CompressionCodec::LZ4:
    case CompressionCodec::LZ4_RAW:
      return std::string("lz4 ") + LZ4_versionString();
    case CompressionCodec::ZSTD:
      return std::string("zstd ") + ZSTD_versionString();
    case CompressionCodec::UNCOMPRESSED:
    case CompressionCodec::LZO:
      break;
  }
  return "";
}

uint64_t MaxDecompressedSize(CompressionCodec codec, const uint8_t* src, size_t src_size) {
  constexpr uint64_t kBrotliFreeSize = uint64_t{16} << 20;
  constexpr uint64_t kBrotliMaxRatio = 65536;
  // Slack for container headers and trailers that compress nothing.
  constexpr uint64_t kSlack = 64;
  const uint64_t size = src_size;
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED:
      return size;
    case CompressionCodec::SNAPPY: {
      size_t declared = 0;
      if (!snappy::GetUncompressedLength(reinterpret_cast<const char*>(src), src_size, &declared)) {
        throw ParquetError("snappy data is corrupt: invalid length header in " + std::to_string(src_size) + " bytes");
      }
      return declared;
    }
    case CompressionCodec::GZIP:
      // A deflate block turns at most 258 bytes out per 2 bits of input (RFC 1951).
      return size * 1032 + kSlack;
    case CompressionCodec::LZ4:
    case CompressionCodec::LZ4_RAW:
      // Each input byte of a length run adds at most 255 bytes of output.
      return size * 256 + kSlack;
    case CompressionCodec::BROTLI:
      // The format has no limit short of about 2^24:1, so brotli bombs are cut off by a
      // policy instead: pages up to kBrotliFreeSize, beyond that at most the ratio zstd can
      // reach (about 2^15:1, one 128 KiB block per 4 bytes), doubled.
      return std::max<uint64_t>(kBrotliFreeSize, size * kBrotliMaxRatio);
    case CompressionCodec::ZSTD: {
      unsigned long long bound = ZSTD_decompressBound(src, src_size);
      if (bound == ZSTD_CONTENTSIZE_ERROR) {
        throw ParquetError("zstd data is corrupt: its " + std::to_string(src_size) + " bytes are not zstd frames");
      }
      return static_cast<uint64_t>(bound);
    }
    default:
      return UINT64_MAX;
  }
}

uint64_t MaxDecompressedSize(CompressionCodec codec, const uint8_t* src, size_t available, size_t src_size) {
  if (available >= src_size) return MaxDecompressedSize(codec, src, src_size);
  // A zstd block (at most 128 KiB) takes at least 4 bytes: a 3-byte header and one byte.
  constexpr uint64_t kZstdMaxRatio = uint64_t{128 * 1024} / 4;
  constexpr uint64_t kSlack = 64;
  switch (codec) {
    case CompressionCodec::SNAPPY:
      return MaxDecompressedSize(codec, src, available);  // the header is in the first bytes
    case CompressionCodec::ZSTD:
      return uint64_t{src_size} * kZstdMaxRatio + kSlack;
    default:
      return MaxDecompressedSize(codec, nullptr, src_size);  // by size alone
  }
}

bool DecompressesInPieces(CompressionCodec codec) {
  return codec == CompressionCodec::SNAPPY || codec == CompressionCodec::ZSTD || codec == CompressionCodec::BROTLI;
}

void DecompressPieces(CompressionCodec codec, CompressedPieces& pieces, size_t src_size, uint8_t* dst,
                      size_t dst_size) {
  if (src_size == 0 && dst_size == 0) return;
  uint8_t empty_buffer = 0;
  if (dst_size == 0) dst = &empty_buffer;
  switch (codec) {
    case CompressionCodec::SNAPPY: return DecompressSnappyPieces(pieces, src_size, dst, dst_size);
    case CompressionCodec::ZSTD: return DecompressZstdPieces(pieces, src_size, dst, dst_size);
    case CompressionCodec::BROTLI: return DecompressBrotliPieces(pieces, src_size, dst, dst_size);
    default: break;
  }
  throw ParquetError("compression codec " + ToString(codec) + " is not decompressed in pieces");
}

bool IsSupported(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED:
    case CompressionCodec::SNAPPY:
    case CompressionCodec::GZIP:
    case CompressionCodec::BROTLI:
    case CompressionCodec::LZ4:
    case CompressionCodec::ZSTD:
    case CompressionCodec::LZ4_RAW:
      return true;
    case CompressionCodec::LZO:
      return false;
  }
  return false;
}

void Decompress(CompressionCodec codec, const uint8_t* src, size_t src_size, uint8_t* dst,
                size_t dst_size) {
  RequireSupported(codec);
  if (src_size == 0 && dst_size == 0) return;
  // The libraries get valid pointers even for empty buffers.
  uint8_t empty_buffer = 0;
  if (src_size == 0) src = &empty_buffer;
  if (dst_size == 0) dst = &empty_buffer;
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED: return CopyUncompressed(src, src_size, dst, dst_size);
    case CompressionCodec::SNAPPY: return DecompressSnappy(src, src_size, dst, dst_size);
    case CompressionCodec::GZIP: return DecompressGzip(src, src_size, dst, dst_size);
    case CompressionCodec::BROTLI: return DecompressBrotli(src, src_size, dst, dst_size);
    case CompressionCodec::LZ4: return DecompressLz4Hadoop(src, src_size, dst, dst_size);
    case CompressionCodec::ZSTD: return DecompressZstd(src, src_size, dst, dst_size);
    case CompressionCodec::LZ4_RAW: return DecompressLz4Raw(src, src_size, dst, dst_size);
    case CompressionCodec::LZO: break;
  }
  throw ParquetError("unsupported compression codec " + ToString(codec));
}

void Compress(CompressionCodec codec, const uint8_t* src, size_t src_size,
              std::optional<int> level, std::string* out) {
  RequireSupported(codec);
  uint8_t empty_buffer = 0;
  if (src_size == 0) src = &empty_buffer;
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED:
      out->append(reinterpret_cast<const char*>(src), src_size);
      return;
    case CompressionCodec::SNAPPY: return CompressSnappy(src, src_size, out);
    case CompressionCodec::GZIP: return CompressGzip(src, src_size, level, out);
    case CompressionCodec::BROTLI: return CompressBrotli(src, src_size, level, out);
    case CompressionCodec::LZ4: return CompressLz4Hadoop(src, src_size, Lz4LevelFrom(level), out);
    case CompressionCodec::ZSTD: return CompressZstd(src, src_size, level, out);
    case CompressionCodec::LZ4_RAW: {
      AppendLz4Block(src, src_size, Lz4LevelFrom(level), out);
      return;
    }
    case CompressionCodec::LZO: break;
  }
  throw ParquetError("unsupported compression codec " + ToString(codec));
}

void ReserveExactly(std::string* out, size_t size) {
  if (out->capacity() >= size) return;
  std::string grown;
  grown.reserve(size);  // from an empty string: exactly `size`
  grown.append(*out);
  out->swap(grown);
}

}  // namespace parquet
