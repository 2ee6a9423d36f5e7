// Dictionary encoding: decoding indices (1-byte bit width + RLE/bit-packed hybrid) into
// dictionary values, and building a dictionary plus its indices when writing. Layout in
// dictionary.h.
#include "format/encoding/dictionary.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "format/encoding/bit_packing.h"
#include "format/encoding/plain.h"
#include "format/common/error.h"

namespace parquet {

// ---------------------------------------------------------------------------------------
// Decoder

template <typename T>
void DictionaryDecoder<T>::SetDictionary(const T* values, size_t count) {
  dictionary_.assign(values, values + count);
}

template <typename T>
void DictionaryDecoder<T>::SetData(const uint8_t* data, size_t size, size_t num_values) {
  num_values_ = num_values;
  values_left_ = num_values;
  if (size == 0) {
    if (num_values > 0) {
      throw ParquetError("dictionary-encoded data of " + std::to_string(num_values) +
                         " values is empty: the index bit width byte is missing");
    }
    index_decoder_.Reset(data, 0, 0);
    return;
  }
  const int bit_width = data[0];
  if (bit_width > 32) {
    throw ParquetError("dictionary index bit width " + std::to_string(bit_width) + " exceeds 32");
  }
  index_decoder_.Reset(data + 1, size - 1, bit_width);
  if (index_buffer_.size() < kIndexBatch) index_buffer_.resize(kIndexBatch);
}

template <typename T>
void DictionaryDecoder<T>::ThrowIndexOutOfRange(uint32_t index) const {
  throw ParquetError("dictionary index " + std::to_string(index) +
                     " out of range for a dictionary of " + std::to_string(dictionary_.size()) +
                     " values");
}

template <typename T>
void DictionaryDecoder<T>::ThrowTruncated(size_t decoded_in_call) const {
  throw ParquetError("dictionary indices end after " +
                     std::to_string(num_values_ - values_left_ + decoded_in_call) + " of " +
                     std::to_string(num_values_) + " values");
}

// 16 bytes of indices at a time (GCC -O2 leaves the plain max loop scalar: about 5
// instructions an index, a third of a dictionary-encoded column's decoding); the largest
// index is looked for only to name it when one is out of range.
template <typename T>
template <typename I>
void DictionaryDecoder<T>::CheckIndexBatch(const I* indices, size_t count) const {
  const size_t size = dictionary_.size();
  if (uint64_t{size} >= uint64_t{1} << (8 * sizeof(I))) return;  // every I is in range
  typedef I Lanes __attribute__((vector_size(16)));
  constexpr size_t kLanes = 16 / sizeof(I);
  const Lanes size_lanes = Lanes{} + static_cast<I>(size);
  Lanes bad{};
  size_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    Lanes lanes;
    std::memcpy(&lanes, indices + i, sizeof lanes);
    bad |= reinterpret_cast<Lanes>(lanes >= size_lanes);
  }
  bool any_bad = false;
  for (size_t lane = 0; lane < kLanes; ++lane) any_bad |= bad[lane] != 0;
  for (; i < count; ++i) any_bad |= indices[i] >= size;
  if (!any_bad) return;
  I max_index = 0;
  for (i = 0; i < count; ++i) max_index = std::max(max_index, indices[i]);
  ThrowIndexOutOfRange(max_index);
}

template <typename T>
size_t DictionaryDecoder<T>::Decode(T* out, size_t n) {
  n = std::min(n, values_left_);
  const T* dictionary = dictionary_.data();
  uint32_t* indices = index_buffer_.data();
  size_t done = 0;
  while (done < n) {
    bool is_rle = false;
    uint32_t rle_index = 0;
    const size_t run = index_decoder_.PeekRun(&is_rle, &rle_index);
    if (run == 0) ThrowTruncated(done);
    if (is_rle) {
      const size_t take = std::min(run, n - done);
      if (rle_index >= dictionary_.size()) ThrowIndexOutOfRange(rle_index);
      std::fill_n(out + done, take, dictionary[rle_index]);
      index_decoder_.Skip(take);
      done += take;
    } else {
      const size_t take = std::min({run, n - done, kIndexBatch});
      const size_t got = index_decoder_.Decode(indices, take);
      if (got < take) ThrowTruncated(done + got);
      CheckIndexBatch(indices, got);
      for (size_t i = 0; i < got; ++i) out[done + i] = dictionary[indices[i]];
      done += got;
    }
  }
  values_left_ -= n;
  return n;
}

template <typename T>
size_t DictionaryDecoder<T>::Skip(size_t n) {
  n = std::min(n, values_left_);
  const size_t skipped = index_decoder_.Skip(n);
  if (skipped < n) ThrowTruncated(skipped);
  values_left_ -= n;
  return n;
}

template <typename T>
template <typename I>
size_t DictionaryDecoder<T>::DecodeIndices(I* out, size_t n) {
  n = std::min(n, values_left_);
  if (uint64_t{dictionary_.size()} > uint64_t{1} << (8 * sizeof(I))) {
    throw ParquetError("a dictionary of " + std::to_string(dictionary_.size()) + " entries has indices wider than " +
                       std::to_string(8 * sizeof(I)) + " bits");
  }
  if (index_decoder_.bit_width() <= static_cast<int>(8 * sizeof(I))) {
    const size_t got = index_decoder_.Decode(out, n);
    if (got < n) ThrowTruncated(got);
    CheckIndexBatch(out, n);
  } else {
    // Runs wider than the indices need (allowed, if wasteful; never for uint32_t): decoded
    // whole, checked against the dictionary's size (so that each fits I), then narrowed.
    for (size_t done = 0; done < n;) {
      const size_t take = std::min(n - done, kIndexBatch);
      uint32_t* indices = index_buffer_.data();
      const size_t got = index_decoder_.Decode(indices, take);
      if (got < take) ThrowTruncated(done + got);
      CheckIndexBatch(indices, take);
      for (size_t i = 0; i < take; ++i) out[done + i] = static_cast<I>(indices[i]);
      done += take;
    }
  }
  values_left_ -= n;
  return n;
}

// ---------------------------------------------------------------------------------------
// Encoder

namespace {

template <typename T>
std::string_view ValueBytes(const T& value) {
  return {reinterpret_cast<const char*>(&value), sizeof(T)};
}

std::string_view ValueBytes(const ByteArray& value) { return value.view(); }

// Hash of a value's bytes: a multiply-xorshift mix for 4- and 8-byte values, XXH3 otherwise.
inline uint64_t HashValueBytes(std::string_view bytes) {
  uint64_t x;
  if (bytes.size() == 8) {
    std::memcpy(&x, bytes.data(), 8);
  } else if (bytes.size() == 4) {
    uint32_t v;
    std::memcpy(&v, bytes.data(), 4);
    x = v;
  } else {
    return XXH3_64bits(bytes.data(), bytes.size());
  }
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

constexpr size_t kInitialSlots = 1024;
constexpr size_t kByteBlockSize = 64 * 1024;

}  // namespace

template <typename T>
DictionaryEncoder<T>::DictionaryEncoder(int fixed_type_length)
    : fixed_type_length_(fixed_type_length), slots_(kInitialSlots, 0) {}

template <typename T>
const uint8_t* DictionaryEncoder<T>::StoreBytes(std::string_view bytes) {
  if (bytes.size() > block_left_) {
    const size_t size = std::max(kByteBlockSize, bytes.size());
    byte_blocks_.push_back(std::make_unique<uint8_t[]>(size));
    block_next_ = byte_blocks_.back().get();
    block_left_ = size;
  }
  uint8_t* stored = block_next_;
  if (!bytes.empty()) std::memcpy(stored, bytes.data(), bytes.size());
  block_next_ += bytes.size();
  block_left_ -= bytes.size();
  return stored;
}

template <typename T>
void DictionaryEncoder<T>::GrowTable() {
  std::vector<uint32_t> slots(slots_.size() * 2, 0);
  const size_t mask = slots.size() - 1;
  for (size_t entry = 0; entry < entry_hashes_.size(); ++entry) {
    size_t pos = static_cast<size_t>(entry_hashes_[entry]) & mask;
    while (slots[pos] != 0) pos = (pos + 1) & mask;
    slots[pos] = static_cast<uint32_t>(entry + 1);
  }
  slots_.swap(slots);
}

template <typename T>
uint32_t DictionaryEncoder<T>::IndexOf(std::string_view bytes, uint64_t hash) {
  const size_t mask = slots_.size() - 1;
  size_t pos = static_cast<size_t>(hash) & mask;
  for (uint32_t slot; (slot = slots_[pos]) != 0; pos = (pos + 1) & mask) {
    const uint32_t entry = slot - 1;
    if (entry_hashes_[entry] != hash) continue;
    if constexpr (std::is_same_v<T, ByteArray>) {
      const ByteArray& stored = dictionary_[entry];
      if (stored.len == bytes.size() && (bytes.empty() || std::memcmp(stored.ptr, bytes.data(), bytes.size()) == 0)) {
        return entry;
      }
    } else {
      if (std::memcmp(&dictionary_[entry], bytes.data(), sizeof(T)) == 0) return entry;
    }
  }
  // Not found: a new entry in the empty slot the probe ended at.
  if (dictionary_.size() >= std::numeric_limits<uint32_t>::max() - 1) {
    throw ParquetError("dictionary has too many entries (" + std::to_string(dictionary_.size()) + ")");
  }
  if constexpr (std::is_same_v<T, ByteArray>) {
    if (fixed_type_length_ >= 0 && bytes.size() != static_cast<size_t>(fixed_type_length_)) {
      throw ParquetError("fixed-length value of " + std::to_string(bytes.size()) +
                         " bytes does not match type length " + std::to_string(fixed_type_length_));
    }
    dictionary_.push_back(ByteArray{StoreBytes(bytes), static_cast<uint32_t>(bytes.size())});
    dictionary_page_bytes_ += bytes.size() + (fixed_type_length_ >= 0 ? 0 : 4);
  } else {
    T value;
    std::memcpy(&value, bytes.data(), sizeof(T));
    dictionary_.push_back(value);
    dictionary_page_bytes_ += sizeof(T);
  }
  const uint32_t index = static_cast<uint32_t>(dictionary_.size() - 1);
  entry_hashes_.push_back(hash);
  slots_[pos] = index + 1;
  if (dictionary_.size() * 2 > slots_.size()) GrowTable();
  return index;
}

template <typename T>
void DictionaryEncoder<T>::Put(const T* values, size_t count) {
  const size_t needed = (index_count_ + count) * static_cast<size_t>(index_width_);
  if (needed > index_bytes_.capacity()) {
    size_t capacity = std::max(needed, index_bytes_.capacity() * 2);
    const size_t hint = page_index_hint_ * static_cast<size_t>(index_width_);
    if (needed <= hint) capacity = std::min(capacity, hint);
    index_bytes_.reserve(capacity);
  }
  index_bytes_.resize(needed);  // room for the batch; the loop fills it
  for (size_t i = 0; i < count; ++i) {
    const std::string_view bytes = ValueBytes(values[i]);
    const uint32_t index = IndexOf(bytes, HashValueBytes(bytes));
    if (index > max_index_for_width_) WidenIndices(count - i);
    const size_t at = index_count_ * static_cast<size_t>(index_width_);
    switch (index_width_) {
      case 1: index_bytes_[at] = static_cast<uint8_t>(index); break;
      case 2: {
        const auto narrow = static_cast<uint16_t>(index);
        std::memcpy(index_bytes_.data() + at, &narrow, 2);
        break;
      }
      default: std::memcpy(index_bytes_.data() + at, &index, 4); break;
    }
    ++index_count_;
  }
}

template <typename T>
uint32_t DictionaryEncoder<T>::BufferedIndex(size_t i) const {
  switch (index_width_) {
    case 1: return index_bytes_[i];
    case 2: {
      uint16_t narrow;
      std::memcpy(&narrow, index_bytes_.data() + 2 * i, 2);
      return narrow;
    }
    default: {
      uint32_t wide;
      std::memcpy(&wide, index_bytes_.data() + 4 * i, 4);
      return wide;
    }
  }
}

template <typename T>
void DictionaryEncoder<T>::WidenIndices(size_t room) {
  // One step at a time: 1 -> 2 bytes at 256 entries, 2 -> 4 at 65536 (the dictionary grows
  // by one entry per new value, so a step is never skipped).
  std::vector<uint8_t> wider;
  const int width = index_width_ == 1 ? 2 : 4;
  const size_t total = index_count_ + room;
  wider.reserve(std::max(index_bytes_.capacity() / static_cast<size_t>(index_width_), total) *
                static_cast<size_t>(width));
  wider.resize(total * static_cast<size_t>(width));
  for (size_t i = 0; i < index_count_; ++i) {
    const uint32_t index = BufferedIndex(i);
    if (width == 2) {
      const auto narrow = static_cast<uint16_t>(index);
      std::memcpy(wider.data() + 2 * i, &narrow, 2);
    } else {
      std::memcpy(wider.data() + 4 * i, &index, 4);
    }
  }
  index_bytes_.swap(wider);
  index_width_ = width;
  max_index_for_width_ = width == 2 ? 0xFFFF : 0xFFFFFFFF;
}

template <typename T>
void DictionaryEncoder<T>::WriteDictionaryPage(std::string* out) const {
  if constexpr (std::is_same_v<T, ByteArray>) {
    if (fixed_type_length_ >= 0) {
      PlainFixedLenEncoder encoder(fixed_type_length_);
      encoder.Put(dictionary_.data(), dictionary_.size());
      encoder.Flush(out);
      return;
    }
  }
  PlainEncoder<T> encoder;
  encoder.Put(dictionary_.data(), dictionary_.size());
  encoder.Flush(out);
}

template <typename T>
void DictionaryEncoder<T>::FlushIndices(std::string* out) {
  const int bit_width =
      dictionary_.empty() ? 0 : MinimalBitWidth(static_cast<uint64_t>(dictionary_.size() - 1));
  out->push_back(static_cast<char>(bit_width));
  RleBitPackedEncoder encoder(bit_width);
  uint32_t chunk[256];  // a multiple of 8: the encoder's groups do not straddle chunks
  for (size_t first = 0; first < index_count_; first += std::size(chunk)) {
    const size_t n = std::min(std::size(chunk), index_count_ - first);
    for (size_t i = 0; i < n; ++i) chunk[i] = BufferedIndex(first + i);
    encoder.Put(chunk, n);
  }
  encoder.Flush(out);
  index_bytes_.clear();
  index_count_ = 0;
}

template class DictionaryDecoder<int32_t>;
template class DictionaryDecoder<int64_t>;
template class DictionaryDecoder<Int96>;
template class DictionaryDecoder<float>;
template class DictionaryDecoder<double>;
template class DictionaryDecoder<ByteArray>;

#define SQLITE_PARQUET_INDICES(T)                                                 \
  template size_t DictionaryDecoder<T>::DecodeIndices<uint8_t>(uint8_t*, size_t);   \
  template size_t DictionaryDecoder<T>::DecodeIndices<uint16_t>(uint16_t*, size_t); \
  template size_t DictionaryDecoder<T>::DecodeIndices<uint32_t>(uint32_t*, size_t);
SQLITE_PARQUET_INDICES(int32_t)
SQLITE_PARQUET_INDICES(int64_t)
SQLITE_PARQUET_INDICES(Int96)
SQLITE_PARQUET_INDICES(float)
SQLITE_PARQUET_INDICES(double)
SQLITE_PARQUET_INDICES(ByteArray)
#undef SQLITE_PARQUET_INDICES

template class DictionaryEncoder<int32_t>;
template class DictionaryEncoder<int64_t>;
template class DictionaryEncoder<Int96>;
template class DictionaryEncoder<float>;
template class DictionaryEncoder<double>;
template class DictionaryEncoder<ByteArray>;

}  // namespace parquet
