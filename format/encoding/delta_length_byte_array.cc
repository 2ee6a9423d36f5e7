// DELTA_LENGTH_BYTE_ARRAY decoder and encoder (grammar in delta_length_byte_array.h).
// SetData decodes the whole lengths stream (a page's worth), validates it once, and
// Decode then only hands out views into the concatenated bytes.
#include "format/encoding/delta_length_byte_array.h"

#include <algorithm>
#include <limits>

#include "format/common/error.h"

namespace parquet {

namespace {

[[noreturn]] void FailDeltaLengthByteArray(const std::string& message) {
  throw ParquetError("delta length byte array: " + message);
}

}  // namespace

void DeltaLengthByteArrayDecoder::SetData(const uint8_t* data, size_t size, size_t num_values) {
  bytes_ = nullptr;
  next_value_ = 0;
  next_byte_ = 0;
  lengths_.clear();

  length_decoder_.SetData(data, size, num_values);
  // num_values is an upper bound (a v1 data page counts its nulls too); the stream's own
  // count is exact.
  if (length_decoder_.TotalValueCount() > num_values) {
    FailDeltaLengthByteArray("stream holds " + std::to_string(length_decoder_.TotalValueCount()) +
         " lengths but the page has only " + std::to_string(num_values) + " values");
  }
  num_values = length_decoder_.TotalValueCount();
  length_decoder_.SetData(data, size, num_values);
  // SetData has checked that num_values can fit the data's size.
  lengths_.resize(num_values);
  length_decoder_.Decode(lengths_.data(), num_values);
  const size_t lengths_end = length_decoder_.BytesConsumed();
  const size_t available = size - lengths_end;

  // Sum in chunks small enough that a chunk's sum cannot overflow, stopping as soon as
  // the total passes what the data holds.
  constexpr size_t kChunk = 4096;
  uint64_t total = 0;
  for (size_t begin = 0; begin < num_values; begin += kChunk) {
    const size_t end = std::min(num_values, begin + kChunk);
    int64_t chunk_sum = 0;
    int32_t chunk_min = 0;
    for (size_t i = begin; i < end; ++i) {
      chunk_sum += lengths_[i];
      chunk_min = std::min(chunk_min, lengths_[i]);
    }
    if (chunk_min < 0) {
      const auto negative = std::find_if(lengths_.begin() + begin, lengths_.begin() + end,
                                         [](int32_t length) { return length < 0; });
      FailDeltaLengthByteArray("negative length " + std::to_string(*negative) + " of value " +
           std::to_string(negative - lengths_.begin()));
    }
    total += uint64_t(chunk_sum);
    if (total > available) {
      FailDeltaLengthByteArray("lengths add up to more than the " + std::to_string(available) +
           " bytes of data after them");
    }
  }
  bytes_ = data + lengths_end;
}

size_t DeltaLengthByteArrayDecoder::Decode(ByteArray* out, size_t n) {
  n = std::min(n, lengths_.size() - next_value_);
  const int32_t* lengths = lengths_.data() + next_value_;
  size_t byte = next_byte_;
  for (size_t i = 0; i < n; ++i) {
    out[i].ptr = bytes_ + byte;
    out[i].len = uint32_t(lengths[i]);
    byte += size_t(lengths[i]);
  }
  next_byte_ = byte;
  next_value_ += n;
  return n;
}

size_t DeltaLengthByteArrayDecoder::Skip(size_t n) {
  n = std::min(n, lengths_.size() - next_value_);
  const int32_t* lengths = lengths_.data() + next_value_;
  size_t bytes = 0;
  for (size_t i = 0; i < n; ++i) bytes += size_t(lengths[i]);
  next_byte_ += bytes;
  next_value_ += n;
  return n;
}

void DeltaLengthByteArrayEncoder::Put(const ByteArray* values, size_t count) {
  length_batch_.resize(count);
  for (size_t i = 0; i < count; ++i) {
    if (values[i].len > uint32_t(std::numeric_limits<int32_t>::max())) {
      FailDeltaLengthByteArray("value of " + std::to_string(values[i].len) + " bytes is longer than INT32 allows");
    }
    length_batch_[i] = int32_t(values[i].len);
    if (values[i].len > 0) {
      bytes_.append(reinterpret_cast<const char*>(values[i].ptr), values[i].len);
    }
  }
  lengths_.Put(length_batch_.data(), count);
}

void DeltaLengthByteArrayEncoder::Finish(std::string& out) {
  lengths_.Finish(out);
  out += bytes_;
  bytes_.clear();
}

}  // namespace parquet
