// The automatic choice of a column chunk's value encoding (WriterOptions::automatic_encoding
// in file_writer.h): the phases a chunk's encoding goes through, the extrapolation of its
// distinct count, the sample of first values that candidate encodings are tried on, and the
// estimate of the DELTA_BINARY_PACKED size. The typed column writer makes the decisions.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "format/write/page_encoders.h"
#include "format/common/physical_values.h"

namespace parquet {

// How a column chunk's value encoding evolves (see WriterOptions::automatic_encoding).
enum class EncodingPhase {
  kDictionary,  // dictionary-encoded, watching for the point to give up on it
  kProbe,       // the values of a first page (kFirstWindowValues of them at most) are kept
                // back, to pick the encoding of the chunk, this page included
  kSettled,     // the encoding stays
};

// The dictionary is weighed against the alternative encoding after the first
// kFirstWindowValues values, then each time their number doubled.
constexpr size_t kFirstWindowValues = 4096;

// The expected number of distinct values among `total` values, when `distinct` of the
// first `seen` were distinct: the values taken as drawn uniformly from a fixed set of D,
// D solved from distinct = D (1 - e^(-seen / D)).
double ExtrapolateDistinct(double seen, double distinct, double total);

// Values of a column chunk copied to try encodings on: the first ones of a dictionary-
// encoded chunk (Add: at most kFirstWindowValues values and, of byte arrays, kMaxSampleBytes
// bytes), or every value of a probe page (AddAll).
constexpr size_t kMaxSampleBytes = 256 * 1024;

template <typename T>
class ValueSample {
 public:
  void Add(const T* values, size_t count) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      for (size_t i = 0; i < count && !full_ && lengths_.size() < kFirstWindowValues; i++) {
        if (bytes_.size() + values[i].len > kMaxSampleBytes) {
          full_ = true;
          return;
        }
        Append(values[i]);
      }
    } else if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, Int96>) {
      AddAll(values, std::min(count, kFirstWindowValues - std::min(kFirstWindowValues, values_.size())));
    } else {
      (void)values, (void)count;
    }
  }

  void AddAll(const T* values, size_t count) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      for (size_t i = 0; i < count; i++) Append(values[i]);
    } else if constexpr (!std::is_same_v<T, bool>) {
      values_.insert(values_.end(), values, values + count);
    } else {
      (void)values, (void)count;
    }
  }

  size_t size() const {
    if constexpr (std::is_same_v<T, ByteArray>) return lengths_.size();
    return values_.size();
  }
  bool empty() const { return size() == 0; }
  // The PLAIN size of the values (byte arrays with their 4-byte lengths).
  size_t plain_bytes() const {
    if constexpr (std::is_same_v<T, ByteArray>) return bytes_.size() + 4 * lengths_.size();
    return values_.size() * sizeof(T);
  }

  void PutInto(PageValueEncoder<T>* encoder) const {
    if constexpr (std::is_same_v<T, ByteArray>) {
      std::vector<ByteArray> views;
      views.reserve(lengths_.size());
      size_t offset = 0;
      for (uint32_t length : lengths_) {
        views.push_back(ByteArray{reinterpret_cast<const uint8_t*>(bytes_.data()) + offset, length});
        offset += length;
      }
      encoder->Put(views.data(), views.size());
    } else if constexpr (!std::is_same_v<T, bool>) {
      encoder->Put(values_.data(), values_.size());
    }
  }

  void Clear() {
    std::vector<Stored>().swap(values_);
    std::string().swap(bytes_);
    std::vector<uint32_t>().swap(lengths_);
  }

 private:
  void Append(const ByteArray& value) {
    bytes_.append(reinterpret_cast<const char*>(value.ptr), value.len);
    lengths_.push_back(value.len);
  }

  using Stored = std::conditional_t<std::is_same_v<T, bool>, char, T>;
  std::vector<Stored> values_;
  std::string bytes_;
  std::vector<uint32_t> lengths_;
  bool full_ = false;  // a byte array would have passed kMaxSampleBytes
};

// Estimates the DELTA_BINARY_PACKED size of a stream of integers, as the encoding packs
// them: each miniblock of 32 deltas takes the bit width of its largest delta minus its
// smallest, plus about a bit per value of block headers.
template <typename T>
class DeltaSizeEstimate {
 public:
  void Put(const T* values, size_t count) {
    using Unsigned = std::make_unsigned_t<T>;
    for (size_t i = 0; i < count; i++) {
      const T value = values[i];
      if (!has_previous_) {
        has_previous_ = true;
        previous_ = value;
        continue;
      }
      const T delta = static_cast<T>(static_cast<Unsigned>(value) - static_cast<Unsigned>(previous_));
      previous_ = value;
      if (in_miniblock_ == 0) {
        min_delta_ = max_delta_ = delta;
      } else {
        min_delta_ = std::min(min_delta_, delta);
        max_delta_ = std::max(max_delta_, delta);
      }
      if (++in_miniblock_ == kMiniblock) {
        const Unsigned range = static_cast<Unsigned>(static_cast<Unsigned>(max_delta_) - static_cast<Unsigned>(min_delta_));
        bits_ += kMiniblock * (static_cast<uint64_t>(std::bit_width(range)) + 1);
        miniblocks_++;
        in_miniblock_ = 0;
      }
    }
  }

  double BitsPerValue() const {
    return miniblocks_ == 0 ? sizeof(T) * 8 : static_cast<double>(bits_) / static_cast<double>(miniblocks_ * kMiniblock);
  }


 private:
  static constexpr uint64_t kMiniblock = 32;
  bool has_previous_ = false;
  T previous_{};
  T min_delta_{}, max_delta_{};
  uint64_t in_miniblock_ = 0;
  uint64_t miniblocks_ = 0;
  uint64_t bits_ = 0;
};

}  // namespace parquet
