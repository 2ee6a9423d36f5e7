// Statistics as the writer gathers them (format/write/file_writer.h describes what is written):
// the running min/max of a page or column chunk under the column's comparison, the PLAIN
// encoding of the bounds, their truncation to statistics_truncate_length, and the order of
// two encoded bounds (for the page index's boundary_order). Which comparison applies is
// statistics.h's TypeDefinedComparison, the one sort order reader and writer share.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "format/metadata/enums.h"
#include "format/common/physical_values.h"
#include "format/metadata/schema.h"
#include "format/index/statistics.h"

namespace parquet {

// The comparison the writer gathers min/max under: the type-defined one, except kNone for
// FLOAT16 (half-float bounds are not computed: such columns get no min/max and no
// ColumnIndex, as for types without an order).
ValueComparison WrittenStatisticsComparison(const SchemaNode& node);

// Whether a byte-array column holds UTF-8 text (its bounds are then cut at characters).
bool IsTextColumn(const SchemaNode& node);

// Bounds of a page or column chunk, encoded as statistics store them (PLAIN, no length
// prefix), with whether each is the actual value.
struct EncodedBounds {
  std::string min, max;
  bool min_exact = true, max_exact = true;
};

// Shortens byte-array bounds longer than `limit` (0: no limit) where the comparison allows
// (unsigned bytes; decimals are left whole). A max with no shorter upper bound stays whole.
void TruncateBounds(EncodedBounds* bounds, size_t limit, ValueComparison comparison, bool text);

// Compares two encoded bounds of a column of physical type `type` under `comparison`:
// <0, 0 or >0.
int CompareEncoded(Type type, ValueComparison comparison, const std::string& a, const std::string& b);

// Running min and max of non-null values under the column's comparison (kNone: none are
// kept), and the NaN count.
template <typename T>
class MinMax {
 public:
  explicit MinMax(ValueComparison comparison) : comparison_(comparison) {}

  void Update(const T* values, size_t count) {
    if constexpr (std::is_same_v<T, Int96>) {
      (void)values, (void)count;  // INT96 has no defined order
    } else {
      if (comparison_ == ValueComparison::kNone) return;
      for (size_t i = 0; i < count; i++) {
        const T& value = values[i];
        if constexpr (std::is_floating_point_v<T>) {
          if (std::isnan(value)) {
            nan_count_++;
            continue;
          }
        }
        if (!has_value_) {
          min_ = value;
          max_ = value;
          has_value_ = true;
        } else if (Less(value, min_)) {
          min_ = value;
        } else if (Less(max_, value)) {
          max_ = value;
        }
      }
    }
  }

  // Folds another range (a page's) into this one (the chunk's).
  void Merge(const MinMax& other) {
    nan_count_ += other.nan_count_;
    if (other.has_value_) {
      Update(&other.min_, 1);
      Update(&other.max_, 1);
    }
  }

  void Reset() {
    has_value_ = false;
    nan_count_ = 0;
  }

  bool has_value() const { return has_value_; }
  int64_t nan_count() const { return nan_count_; }

  // The PLAIN encoding of min and max (no length prefix), as Statistics stores them.
  void Encode(std::string* min, std::string* max) const {
    if constexpr (std::is_same_v<T, bool>) {
      min->assign(1, static_cast<char>(min_ ? 1 : 0));
      max->assign(1, static_cast<char>(max_ ? 1 : 0));
    } else {
      T low = min_, high = max_;
      if constexpr (std::is_floating_point_v<T>) {
        // Zeros of either sign compare equal; the spec asks for -0 as min and +0 as max.
        if (low == 0) low = std::copysign(T(0), T(-1));
        if (high == 0) high = T(0);
      }
      min->assign(reinterpret_cast<const char*>(&low), sizeof(T));
      max->assign(reinterpret_cast<const char*>(&high), sizeof(T));
    }
  }

 private:
  bool Less(const T& a, const T& b) const {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (comparison_ == ValueComparison::kUnsignedInteger) {
        using Unsigned = std::make_unsigned_t<T>;
        return static_cast<Unsigned>(a) < static_cast<Unsigned>(b);
      }
    }
    return a < b;
  }

  ValueComparison comparison_;
  bool has_value_ = false;
  int64_t nan_count_ = 0;
  T min_{};
  T max_{};
};

// Byte arrays: the extremes are copied (reusing the strings' capacity), the values compared
// as views.
template <>
class MinMax<ByteArray> {
 public:
  explicit MinMax(ValueComparison comparison) : comparison_(comparison) {}

  void Update(const ByteArray* values, size_t count) {
    if (comparison_ == ValueComparison::kNone) return;
    if (comparison_ == ValueComparison::kSignedBigEndian) {
      for (size_t i = 0; i < count; i++) Update(values[i].view());
      return;
    }
    // Unsigned bytes: most values fall strictly between the bounds' first 8 bytes, which
    // settles them without a full comparison.
    for (size_t i = 0; i < count; i++) {
      const std::string_view value = values[i].view();
      if (has_value_) {
        const uint64_t prefix = PrefixOf(value);
        if (prefix > min_prefix_ && prefix < max_prefix_) continue;
        // Up to 8 bytes, equal prefix and length: the value is that bound.
        if (value.size() <= 8 && ((prefix == min_prefix_ && value.size() == min_.size()) ||
                                  (prefix == max_prefix_ && value.size() == max_.size()))) {
          continue;
        }
      }
      Update(value);
    }
  }

  void Merge(const MinMax& other) {
    if (other.has_value_) {
      Update(other.min_);
      Update(other.max_);
    }
  }

  void Reset() { has_value_ = false; }

  bool has_value() const { return has_value_; }
  int64_t nan_count() const { return 0; }

  void Encode(std::string* min, std::string* max) const {
    *min = min_;
    *max = max_;
  }

 private:
  void Update(std::string_view value) {
    if (!has_value_) {
      min_.assign(value);
      max_.assign(value);
      has_value_ = true;
    } else if (Compare(value, min_) < 0) {
      min_.assign(value);
    } else if (Compare(value, max_) > 0) {
      max_.assign(value);
    } else {
      return;
    }
    min_prefix_ = PrefixOf(min_);
    max_prefix_ = PrefixOf(max_);
  }

  // The first 8 bytes as a big-endian number, zero-padded: a < b for two prefixes implies
  // the same order of the values (equal prefixes settle nothing).
  static uint64_t PrefixOf(std::string_view value) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(value.data());
    if (value.size() >= 8) {
      uint64_t word;
      std::memcpy(&word, bytes, 8);
      return std::endian::native == std::endian::little ? __builtin_bswap64(word) : word;
    }
    uint64_t prefix = 0;
    for (size_t i = 0; i < value.size(); i++) prefix |= uint64_t{bytes[i]} << (56 - 8 * i);
    return prefix;
  }

  int Compare(std::string_view a, std::string_view b) const {
    return comparison_ == ValueComparison::kSignedBigEndian ? CompareSignedBigEndian(a, b) : CompareUnsignedBytes(a, b);
  }

  ValueComparison comparison_;
  bool has_value_ = false;
  std::string min_;
  std::string max_;
  uint64_t min_prefix_ = 0;  // PrefixOf(min_), PrefixOf(max_)
  uint64_t max_prefix_ = 0;
};

}  // namespace parquet
