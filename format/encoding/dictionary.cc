// Dictionary encoding: decoding indices (1-byte bit width + RLE/bit-packed hybrid) into
// dictionary values, and building a dictionary plus its indices when writing. Layout in
// dictionary.h.
#include "format/encoding/dictionary.h"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "format/encoding/bit_packing.h"
#include "format/encoding/plain.h"
#include "format/error.h"

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

template <typename T>
void DictionaryDecoder<T>::CheckIndexBatch(const uint32_t* indices, size_t count) const {
  uint32_t max_index = 0;
  for (size_t i = 0; i < count; ++i) max_index = std::max(max_index, indices[i]);
  if (count > 0 && max_index >= dictionary_.size()) ThrowIndexOutOfRange(max_index);
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
size_t DictionaryDecoder<T>::DecodeIndices(uint32_t* out, size_t n) {
  n = std::min(n, values_left_);
  const size_t got = index_decoder_.Decode(out, n);
  if (got < n) ThrowTruncated(got);
  CheckIndexBatch(out, n);
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

}  // namespace

template <typename T>
DictionaryEncoder<T>::DictionaryEncoder(int fixed_type_length)
    : fixed_type_length_(fixed_type_length) {}

template <typename T>
void DictionaryEncoder<T>::Put(const T* values, size_t count) {
  indices_.reserve(indices_.size() + count);
  for (size_t i = 0; i < count; ++i) {
    const std::string_view bytes = ValueBytes(values[i]);
    auto found = index_of_.find(bytes);
    if (found != index_of_.end()) {
      indices_.push_back(found->second);
      continue;
    }
    if (dictionary_.size() >= std::numeric_limits<uint32_t>::max()) {
      throw ParquetError("dictionary has too many entries (" + std::to_string(dictionary_.size()) +
                         ")");
    }
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (fixed_type_length_ >= 0 && bytes.size() != static_cast<size_t>(fixed_type_length_)) {
        throw ParquetError("fixed-length value of " + std::to_string(bytes.size()) +
                           " bytes does not match type length " +
                           std::to_string(fixed_type_length_));
      }
    }
    const uint32_t index = static_cast<uint32_t>(dictionary_.size());
    auto inserted = index_of_.emplace(std::string(bytes), index).first;
    if constexpr (std::is_same_v<T, ByteArray>) {
      const std::string& stored = inserted->first;
      dictionary_.push_back(
          ByteArray{reinterpret_cast<const uint8_t*>(stored.data()), static_cast<uint32_t>(stored.size())});
      dictionary_page_bytes_ += stored.size() + (fixed_type_length_ >= 0 ? 0 : 4);
    } else {
      (void)inserted;
      dictionary_.push_back(values[i]);
      dictionary_page_bytes_ += sizeof(T);
    }
    indices_.push_back(index);
  }
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
  encoder.Put(indices_.data(), indices_.size());
  encoder.Flush(out);
  indices_.clear();
}

template class DictionaryDecoder<int32_t>;
template class DictionaryDecoder<int64_t>;
template class DictionaryDecoder<Int96>;
template class DictionaryDecoder<float>;
template class DictionaryDecoder<double>;
template class DictionaryDecoder<ByteArray>;

template class DictionaryEncoder<int32_t>;
template class DictionaryEncoder<int64_t>;
template class DictionaryEncoder<Int96>;
template class DictionaryEncoder<float>;
template class DictionaryEncoder<double>;
template class DictionaryEncoder<ByteArray>;

}  // namespace parquet
