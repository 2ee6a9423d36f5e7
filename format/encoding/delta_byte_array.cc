// DELTA_BYTE_ARRAY decoder and encoder (grammar and value lifetime in delta_byte_array.h).
//
// Decode works in two passes over a batch: the first checks every prefix against the
// previous value's length and adds up the bytes to assemble, so the buffer is sized once;
// the second builds the values. The previous batch's last value is copied to the front of
// the buffer so that no view ever points into storage changed during the batch.
#include "format/encoding/delta_byte_array.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "format/common/error.h"

namespace parquet {

namespace {

[[noreturn]] void FailDeltaByteArray(const std::string& message) {
  throw ParquetError("delta byte array: " + message);
}

constexpr size_t kSkipChunk = 1024;

}  // namespace

void DeltaByteArrayDecoder::SetData(const uint8_t* data, size_t size, size_t num_values) {
  next_value_ = 0;
  previous_.clear();
  prefix_lengths_.clear();

  prefix_decoder_.SetData(data, size, num_values);
  // num_values is an upper bound (a v1 data page counts its nulls too); the stream's own
  // count is exact.
  if (prefix_decoder_.TotalValueCount() > num_values) {
    FailDeltaByteArray("stream holds " + std::to_string(prefix_decoder_.TotalValueCount()) +
         " prefix lengths but the page has only " + std::to_string(num_values) + " values");
  }
  num_values = prefix_decoder_.TotalValueCount();
  prefix_decoder_.SetData(data, size, num_values);
  // The prefix decoder's SetData has checked that num_values can fit the data's size.
  prefix_lengths_.resize(num_values);
  prefix_decoder_.Decode(prefix_lengths_.data(), num_values);
  int32_t smallest = 0;
  for (int32_t length : prefix_lengths_) smallest = std::min(smallest, length);
  if (smallest < 0) {
    const auto negative = std::find_if(prefix_lengths_.begin(), prefix_lengths_.end(),
                                       [](int32_t length) { return length < 0; });
    FailDeltaByteArray("negative prefix length " + std::to_string(*negative) + " of value " +
         std::to_string(negative - prefix_lengths_.begin()));
  }
  const size_t suffixes_start = prefix_decoder_.BytesConsumed();
  suffix_decoder_.SetData(data + suffixes_start, size - suffixes_start, num_values);
  if (suffix_decoder_.ValueCount() != num_values) {
    FailDeltaByteArray("stream holds " + std::to_string(num_values) + " prefix lengths but " +
         std::to_string(suffix_decoder_.ValueCount()) + " suffixes");
  }
}

void DeltaByteArrayDecoder::CheckLength(uint64_t length, size_t index) const {
  if (fixed_length_ && length != *fixed_length_) {
    FailDeltaByteArray("value " + std::to_string(index) + " is " + std::to_string(length) +
         " bytes long, not the column's fixed length " + std::to_string(*fixed_length_));
  }
  if (length > std::numeric_limits<uint32_t>::max()) {
    FailDeltaByteArray("value " + std::to_string(index) + " of " + std::to_string(length) +
         " bytes is too long");
  }
}

size_t DeltaByteArrayDecoder::Decode(ByteArray* out, size_t n) {
  n = std::min(n, prefix_lengths_.size() - next_value_);
  if (n == 0) return 0;
  suffixes_.resize(n);
  suffix_decoder_.Decode(suffixes_.data(), n);
  const int32_t* prefixes = prefix_lengths_.data() + next_value_;

  // Pass 1: check, and count the bytes to assemble.
  uint64_t previous_length = previous_.size();
  uint64_t to_assemble = previous_.size();
  for (size_t i = 0; i < n; ++i) {
    const uint64_t prefix = uint64_t(prefixes[i]);
    if (prefix > previous_length) {
      FailDeltaByteArray("prefix length " + std::to_string(prefix) + " of value " +
           std::to_string(next_value_ + i) + " exceeds the previous value's length " +
           std::to_string(previous_length));
    }
    const uint64_t length = prefix + suffixes_[i].len;
    CheckLength(length, next_value_ + i);
    if (prefix > 0 && suffixes_[i].len > 0) to_assemble += length;
    previous_length = length;
  }
  if (to_assemble > kDeltaByteArrayMaxBatchBytes) {
    FailDeltaByteArray("a batch of " + std::to_string(n) + " values needs " + std::to_string(to_assemble) +
         " bytes, more than the limit of " + std::to_string(kDeltaByteArrayMaxBatchBytes));
  }
  if (assembled_.size() < to_assemble) assembled_.resize(size_t(to_assemble));

  // Pass 2: build the values.
  uint8_t* write = assembled_.data();
  ByteArray previous{write, uint32_t(previous_.size())};
  if (!previous_.empty()) {
    std::memcpy(write, previous_.data(), previous_.size());
    write += previous_.size();
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t prefix = uint32_t(prefixes[i]);
    const ByteArray suffix = suffixes_[i];
    ByteArray value;
    if (prefix == 0) {
      value = suffix;
    } else if (suffix.len == 0) {
      value = ByteArray{previous.ptr, prefix};
    } else {
      std::memcpy(write, previous.ptr, prefix);
      std::memcpy(write + prefix, suffix.ptr, suffix.len);
      value = ByteArray{write, prefix + suffix.len};
      write += value.len;
    }
    out[i] = value;
    previous = value;
  }
  if (previous.len > 0) {
    previous_.assign(previous.ptr, previous.ptr + previous.len);
  } else {
    previous_.clear();
  }
  next_value_ += n;
  return n;
}

size_t DeltaByteArrayDecoder::Skip(size_t n) {
  n = std::min(n, prefix_lengths_.size() - next_value_);
  for (size_t done = 0; done < n;) {
    const size_t chunk = std::min(n - done, kSkipChunk);
    suffixes_.resize(chunk);
    suffix_decoder_.Decode(suffixes_.data(), chunk);
    const int32_t* prefixes = prefix_lengths_.data() + next_value_;
    for (size_t i = 0; i < chunk; ++i) {
      const size_t prefix = size_t(prefixes[i]);
      if (prefix > previous_.size()) {
        FailDeltaByteArray("prefix length " + std::to_string(prefix) + " of value " +
             std::to_string(next_value_ + i) + " exceeds the previous value's length " +
             std::to_string(previous_.size()));
      }
      CheckLength(uint64_t(prefix) + suffixes_[i].len, next_value_ + i);
      previous_.resize(prefix);
      if (suffixes_[i].len > 0) {
        previous_.insert(previous_.end(), suffixes_[i].ptr, suffixes_[i].ptr + suffixes_[i].len);
      }
    }
    next_value_ += chunk;
    done += chunk;
  }
  return n;
}

void DeltaByteArrayEncoder::Put(const ByteArray* values, size_t count) {
  prefix_batch_.resize(count);
  suffix_batch_.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const ByteArray value = values[i];
    if (value.len > uint32_t(std::numeric_limits<int32_t>::max())) {
      FailDeltaByteArray("value of " + std::to_string(value.len) + " bytes is longer than INT32 allows");
    }
    const size_t limit = std::min<size_t>(previous_.size(), value.len);
    const auto* previous = reinterpret_cast<const uint8_t*>(previous_.data());
    const size_t common =
        size_t(std::mismatch(previous, previous + limit, value.ptr).first - previous);
    prefix_batch_[i] = int32_t(common);
    suffix_batch_[i] = ByteArray{value.ptr + common, uint32_t(value.len - common)};
    if (value.len > 0) {
      previous_.assign(reinterpret_cast<const char*>(value.ptr), value.len);
    } else {
      previous_.clear();
    }
  }
  prefix_lengths_.Put(prefix_batch_.data(), count);
  suffixes_.Put(suffix_batch_.data(), count);
}

void DeltaByteArrayEncoder::Finish(std::string& out) {
  prefix_lengths_.Finish(out);
  suffixes_.Finish(out);
  previous_.clear();
}

}  // namespace parquet
