// Split-block bloom filters (see bloom_filter.h): sizing, insert/check, serialization and
// reading a column chunk's filter back with every offset and length checked.
#include "format/index/bloom_filter.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "format/common/error.h"

namespace parquet {

static_assert(std::endian::native == std::endian::little,
              "bloom filter words and hashed values are taken as little-endian bytes");

namespace {

// The salt of the spec: eight odd constants, one per word of a block.
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

// The spec's sizing table: bits of bitset per distinct value for a false-positive rate of
// 10^-k, k = 1..5.
constexpr double kBitsPerValue[5] = {6.0, 10.5, 16.9, 26.4, 41.0};

// Largest header we accept when the column does not give bloom_filter_length: the header
// is four small fields, well under this.
constexpr size_t kMaxHeaderBytes = 256;

double BitsPerValue(double fpp) {
  // k = -log10(fpp): 1 at 10 %, 5 at 0.001 %. Piecewise linear in k over the table; the
  // end segments extend beyond it.
  const double k = -std::log10(fpp);
  size_t segment = 0;  // between table entries segment and segment + 1 (k = segment + 1 ..)
  if (k >= 2) segment = std::min<size_t>(static_cast<size_t>(k) - 1, 3);
  const double k0 = static_cast<double>(segment) + 1;
  const double slope = kBitsPerValue[segment + 1] - kBitsPerValue[segment];
  return std::max(1.0, kBitsPerValue[segment] + slope * (k - k0));
}

}  // namespace

uint64_t BloomHash(const void* data, size_t size) { return XXH64(data, size, 0); }

uint32_t BloomFilter::OptimalNumBytes(uint64_t ndv, double fpp) {
  if (!(fpp > 0.0 && fpp < 1.0)) {
    throw ParquetError("bloom filter false-positive probability " + std::to_string(fpp) +
                       " is not between 0 and 1");
  }
  const double bits = static_cast<double>(ndv) * BitsPerValue(fpp);
  const double bytes = std::ceil(bits / 8);
  if (bytes >= kMaxBytes) return kMaxBytes;
  return std::max(kMinBytes, std::bit_ceil(static_cast<uint32_t>(std::max(1.0, bytes))));
}

BloomFilter::BloomFilter(uint32_t num_bytes) {
  if (num_bytes == 0 || num_bytes % kBytesPerBlock != 0 || num_bytes > kMaxBytes) {
    throw ParquetError("bloom filter of " + std::to_string(num_bytes) +
                       " bytes: the size must be a positive multiple of 32 up to 128 MiB");
  }
  words_.assign(num_bytes / 4, 0);
}

BloomFilter BloomFilter::FromBitset(const uint8_t* data, size_t size) {
  if (size == 0 || size % kBytesPerBlock != 0 || size > kMaxBytes) {
    throw ParquetError("bloom filter bitset of " + std::to_string(size) +
                       " bytes: the size must be a positive multiple of 32 up to 128 MiB");
  }
  BloomFilter filter;
  filter.words_.resize(size / 4);
  std::memcpy(filter.words_.data(), data, size);
  return filter;
}

void BloomFilter::Insert(uint64_t hash) {
  uint32_t* block = words_.data() + BlockStart(hash);
  const uint32_t key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; i++) block[i] |= uint32_t{1} << ((key * kSalt[i]) >> 27);
}

bool BloomFilter::MightContain(uint64_t hash) const {
  const uint32_t* block = words_.data() + BlockStart(hash);
  const uint32_t key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; i++) {
    if ((block[i] & (uint32_t{1} << ((key * kSalt[i]) >> 27))) == 0) return false;
  }
  return true;
}

void BloomFilter::Serialize(std::string* out) const {
  BloomFilterHeader header;
  header.num_bytes = static_cast<int32_t>(num_bytes());
  out->append(parquet::Serialize(header));
  out->append(reinterpret_cast<const char*>(words_.data()), num_bytes());
}

std::optional<BloomFilter> ParseBloomFilter(const uint8_t* data, size_t size, size_t* consumed) {
  size_t header_size = 0;
  const BloomFilterHeader header = ParseBloomFilterHeader(data, size, &header_size);
  if (header.num_bytes <= 0 || static_cast<uint32_t>(header.num_bytes) % BloomFilter::kBytesPerBlock != 0 ||
      static_cast<uint32_t>(header.num_bytes) > BloomFilter::kMaxBytes) {
    throw ParquetError("bloom filter header gives a bitset of " + std::to_string(header.num_bytes) +
                       " bytes: not a positive multiple of 32 up to 128 MiB");
  }
  const size_t bitset_size = static_cast<size_t>(header.num_bytes);
  if (bitset_size > size - header_size) {
    throw ParquetError("bloom filter bitset of " + std::to_string(bitset_size) + " bytes needs " +
                       std::to_string(bitset_size - (size - header_size)) + " bytes more than are there");
  }
  if (consumed != nullptr) *consumed = header_size + bitset_size;
  if (!header.algorithm_is_block || !header.hash_is_xxhash || !header.compression_is_uncompressed) {
    return std::nullopt;
  }
  return BloomFilter::FromBitset(data + header_size, bitset_size);
}

namespace {

// Reads the encrypted module at `offset` (4-byte length, then the module) and decrypts it.
uint64_t ReadEncryptedModule(RandomAccessFile& file, uint64_t offset, const ModuleCipher& cipher, ModuleType type,
                             int row_group, int column, std::vector<uint8_t>* out) {
  const uint64_t file_size = file.Size();
  if (offset > file_size || file_size - offset < kModuleLengthPrefix) {
    throw ParquetError(std::string("encrypted ") + ModuleTypeName(type) + " at offset " + std::to_string(offset) +
                       " lies outside the file");
  }
  uint8_t prefix[kModuleLengthPrefix];
  file.ReadAt(offset, kModuleLengthPrefix, prefix);
  const uint64_t length = static_cast<uint64_t>(prefix[0]) | (static_cast<uint64_t>(prefix[1]) << 8) |
                          (static_cast<uint64_t>(prefix[2]) << 16) | (static_cast<uint64_t>(prefix[3]) << 24);
  if (length > file_size - offset - kModuleLengthPrefix) {
    throw ParquetError(std::string("encrypted ") + ModuleTypeName(type) + " of " + std::to_string(length) +
                       " bytes at offset " + std::to_string(offset) + " does not fit the file");
  }
  std::vector<uint8_t> module;
  file.ReadAt(offset, kModuleLengthPrefix + static_cast<size_t>(length), &module);
  return cipher.Decrypt(type, module.data(), module.size(), row_group, column, -1, out);
}

}  // namespace

std::optional<BloomFilter> ReadBloomFilter(RandomAccessFile& file, const ColumnMetaData& meta,
                                           const ModuleCipher* cipher, int row_group, int column) {
  if (!meta.bloom_filter_offset.has_value()) return std::nullopt;
  const int64_t offset = *meta.bloom_filter_offset;
  const uint64_t file_size = file.Size();
  if (offset < 0 || static_cast<uint64_t>(offset) >= file_size) {
    throw ParquetError("bloom filter offset " + std::to_string(offset) + " is outside the file of " +
                       std::to_string(file_size) + " bytes");
  }
  if (cipher != nullptr) {
    std::vector<uint8_t> header_bytes, bitset;
    const uint64_t used = ReadEncryptedModule(file, static_cast<uint64_t>(offset), *cipher,
                                              ModuleType::kBloomFilterHeader, row_group, column, &header_bytes);
    size_t header_size = 0;
    const BloomFilterHeader header = ParseBloomFilterHeader(header_bytes.data(), header_bytes.size(), &header_size);
    ReadEncryptedModule(file, static_cast<uint64_t>(offset) + used, *cipher, ModuleType::kBloomFilterBitset,
                        row_group, column, &bitset);
    if (header.num_bytes <= 0 || static_cast<size_t>(header.num_bytes) != bitset.size()) {
      throw ParquetError("bloom filter header announces " + std::to_string(header.num_bytes) +
                         " bytes but its encrypted bitset holds " + std::to_string(bitset.size()));
    }
    header_bytes.resize(header_size);
    header_bytes.insert(header_bytes.end(), bitset.begin(), bitset.end());
    return ParseBloomFilter(header_bytes.data(), header_bytes.size());
  }
  const uint64_t available = file_size - static_cast<uint64_t>(offset);
  std::vector<uint8_t> bytes;
  if (meta.bloom_filter_length.has_value()) {
    const int32_t length = *meta.bloom_filter_length;
    if (length <= 0 || static_cast<uint64_t>(length) > available) {
      throw ParquetError("bloom filter of " + std::to_string(length) + " bytes at offset " +
                         std::to_string(offset) + " does not fit the file of " + std::to_string(file_size) +
                         " bytes");
    }
    file.ReadAt(static_cast<uint64_t>(offset), static_cast<size_t>(length), &bytes);
    return ParseBloomFilter(bytes.data(), bytes.size());
  }
  // No length: read the header first, then exactly the bitset it announces.
  file.ReadAt(static_cast<uint64_t>(offset), static_cast<size_t>(std::min<uint64_t>(available, kMaxHeaderBytes)),
              &bytes);
  size_t header_size = 0;
  const BloomFilterHeader header = ParseBloomFilterHeader(bytes.data(), bytes.size(), &header_size);
  if (header.num_bytes <= 0 || static_cast<uint64_t>(header.num_bytes) > available - header_size) {
    throw ParquetError("bloom filter header at offset " + std::to_string(offset) + " gives a bitset of " +
                       std::to_string(header.num_bytes) + " bytes, which does not fit the file");
  }
  file.ReadAt(static_cast<uint64_t>(offset), header_size + static_cast<size_t>(header.num_bytes), &bytes);
  return ParseBloomFilter(bytes.data(), bytes.size());
}

std::optional<BloomFilter> ReadBloomFilter(const ParquetFileReader& file, int row_group, int column) {
  const ColumnMetaData& meta = file.column_metadata(row_group, column);
  const ModuleCipher* cipher = file.column_cipher(row_group, column);
  try {
    return ReadBloomFilter(file.file(), meta, cipher, row_group, column);
  } catch (const ParquetError& e) {
    throw ParquetError(file.Describe(row_group, column) + ": " + e.what());
  }
}

std::string BloomFilterBuilder::Build() {
  if (!filter_) {
    Deduplicate();
    filter_ = std::make_unique<BloomFilter>(BloomFilter::OptimalNumBytes(hashes_.size(), fpp_));
    for (uint64_t hash : hashes_) filter_->Insert(hash);
    std::vector<uint64_t>().swap(hashes_);
  }
  std::string out;
  filter_->Serialize(&out);
  return out;
}

void BloomFilterBuilder::Deduplicate() {
  std::sort(hashes_.begin(), hashes_.end());
  hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
  if (hashes_.size() > kExactLimit) {
    filter_ = std::make_unique<BloomFilter>(BloomFilter::OptimalNumBytes(kOverflowValues, fpp_));
    for (uint64_t hash : hashes_) filter_->Insert(hash);
    std::vector<uint64_t>().swap(hashes_);
    return;
  }
  next_dedup_ = std::max<size_t>(hashes_.size() * 2, size_t{1} << 16);
}

}  // namespace parquet
