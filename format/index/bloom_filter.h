// Split-block bloom filters (the spec's "Bloom Filter" section): building one for a column
// chunk (sized from the chunk's distinct values), serializing it, and reading one back from
// a file for pruning.
//
// In our words: the filter is z blocks of 256 bits, each block eight 32-bit words. A value
// is hashed with XXH64 (seed 0) over its PLAIN encoding (a BYTE_ARRAY without its 4-byte
// length prefix). The upper 32 bits of the hash pick a block, ((h >> 32) * z) >> 32; the
// lower 32 bits, multiplied by eight fixed odd "salt" constants, pick one bit per word (the
// top five bits of each 32-bit product). Inserting sets those eight bits; a lookup answers
// "maybe present" only when all eight are set, so there are no false negatives.
//
// On disk: a BloomFilterHeader (thrift compact: num_bytes, algorithm BLOCK, hash XXHASH,
// compression UNCOMPRESSED) followed by num_bytes of bitset, each word little-endian.
// ColumnMetaData.bloom_filter_offset points at the header; bloom_filter_length, when
// present, covers header and bitset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/crypto/encryption.h"
#include "format/read/file_reader.h"
#include "format/metadata/metadata.h"
#include "format/common/physical_values.h"
#include "format/io/random_access_file.h"

namespace parquet {

// XXH64 with seed 0 over `size` bytes: the hash every Parquet bloom filter uses.
uint64_t BloomHash(const void* data, size_t size);

// The hash of one value of a physical type: its PLAIN bytes (little-endian numbers, Int96
// as 12 bytes, byte arrays without length). BOOLEAN columns have no bloom filters.
inline uint64_t BloomHashOf(int32_t value) { return BloomHash(&value, sizeof(value)); }
inline uint64_t BloomHashOf(int64_t value) { return BloomHash(&value, sizeof(value)); }
inline uint64_t BloomHashOf(const Int96& value) { return BloomHash(value.words, sizeof(value.words)); }
inline uint64_t BloomHashOf(float value) { return BloomHash(&value, sizeof(value)); }
inline uint64_t BloomHashOf(double value) { return BloomHash(&value, sizeof(value)); }
inline uint64_t BloomHashOf(const ByteArray& value) { return BloomHash(value.ptr, value.len); }
inline uint64_t BloomHashOf(std::string_view value) { return BloomHash(value.data(), value.size()); }

class BloomFilter {
 public:
  static constexpr uint32_t kBytesPerBlock = 32;
  static constexpr uint32_t kMinBytes = 32;                  // one block
  static constexpr uint32_t kMaxBytes = 128u * 1024 * 1024;  // what writers size up to

  // Bitset bytes for `ndv` distinct values at false-positive probability `fpp` (in (0, 1)):
  // bits per value from the spec's sizing table (6.0 bits at 10 %, 10.5 at 1 %, 16.9 at
  // 0.1 %, 26.4 at 0.01 %, 41 at 0.001 %), interpolated linearly in log10(fpp) and
  // extrapolated from the end segments; then rounded up to a power of two and clamped to
  // [kMinBytes, kMaxBytes]. Throws ParquetError for an fpp outside (0, 1).
  static uint32_t OptimalNumBytes(uint64_t ndv, double fpp);

  // An empty filter of num_bytes (a positive multiple of kBytesPerBlock, at most kMaxBytes).
  explicit BloomFilter(uint32_t num_bytes);

  // A filter over a bitset read from a file (size: a positive multiple of kBytesPerBlock,
  // at most kMaxBytes; otherwise ParquetError).
  static BloomFilter FromBitset(const uint8_t* data, size_t size);

  void Insert(uint64_t hash);
  // False: the value with this hash is certainly absent. True: it may be present.
  bool MightContain(uint64_t hash) const;

  uint32_t num_bytes() const { return static_cast<uint32_t>(words_.size() * 4); }
  uint32_t num_blocks() const { return static_cast<uint32_t>(words_.size() / 8); }

  // Appends the header and the bitset, as stored in a file.
  void Serialize(std::string* out) const;

 private:
  BloomFilter() = default;
  size_t BlockStart(uint64_t hash) const {
    return static_cast<size_t>(((hash >> 32) * static_cast<uint64_t>(num_blocks())) >> 32) * 8;
  }

  std::vector<uint32_t> words_;  // num_blocks() blocks of 8 words
};

// Bloom filter input of one column chunk being written: the hashes of its values,
// deduplicated now and then, so that the filter can be sized from the exact number of
// distinct values. Past kExactLimit distinct hashes the filter is made at once (sized for
// kOverflowValues distinct values) and takes the hashes directly; memory stays bounded
// either way.
class BloomFilterBuilder {
 public:
  explicit BloomFilterBuilder(double fpp) : fpp_(fpp) {}

  void Add(uint64_t hash) {
    if (filter_) {
      filter_->Insert(hash);
      return;
    }
    hashes_.push_back(hash);
    if (hashes_.size() >= next_dedup_) Deduplicate();
  }

  // The serialized filter of everything added.
  std::string Build();

 private:
  static constexpr size_t kExactLimit = size_t{1} << 21;
  static constexpr uint64_t kOverflowValues = uint64_t{1} << 24;

  void Deduplicate();

  double fpp_;
  std::vector<uint64_t> hashes_;
  size_t next_dedup_ = size_t{1} << 16;
  std::unique_ptr<BloomFilter> filter_;
};

// Reads the bloom filter of a column chunk from `file`. nullopt when the chunk has none
// (no bloom_filter_offset) or it uses an algorithm, hash or compression other than split
// block / XXH64 / uncompressed (a filter we cannot use). Throws ParquetError for offsets or
// lengths outside the file, a malformed header or a bitset of an invalid size.
// In an encrypted column (`cipher` not null) the header and the bitset are two encrypted
// modules, authenticated with the chunk's row group and column ordinals.
std::optional<BloomFilter> ReadBloomFilter(RandomAccessFile& file, const ColumnMetaData& meta,
                                           const ModuleCipher* cipher = nullptr, int row_group = 0,
                                           int column = 0);

// The bloom filter of column `column` in `row_group` of an open file, as ReadBloomFilter;
// errors name the file, column and row group.
std::optional<BloomFilter> ReadBloomFilter(const ParquetFileReader& file, int row_group, int column);

// False when `value` (a physical value: int32_t, int64_t, Int96, float, double, ByteArray
// or std::string_view) is certainly not in the chunk the filter was built for.
template <typename T>
bool BloomFilterMightContain(const BloomFilter& filter, const T& value) {
  return filter.MightContain(BloomHashOf(value));
}

// The same from the header + bitset bytes themselves (e.g. a file holding just a filter).
// `consumed` (optional) receives the bytes used.
std::optional<BloomFilter> ParseBloomFilter(const uint8_t* data, size_t size, size_t* consumed = nullptr);

}  // namespace parquet
