// parquet_copy's check of a sorting_columns claim (see copy_sort_check.h).
#include "ext/copy/copy_sort_check.h"

#include <cmath>
#include <cstring>

#include "format/values/logical_values.h"

namespace sqlite_parquet {

SortedRowsCheck::Value SortedRowsCheck::ValueAt(const LeafData& leaf, size_t value_index, bool float16) {
  Value v;
  v.is_null = false;
  switch (leaf.physical_type) {
    case parquet::Type::BOOLEAN: v.integer = leaf.bools()[value_index] ? 1 : 0; break;
    case parquet::Type::INT32: v.integer = leaf.int32s[value_index]; break;
    case parquet::Type::INT64: v.integer = leaf.int64s[value_index]; break;
    case parquet::Type::FLOAT: v.real = leaf.floats[value_index]; break;
    case parquet::Type::DOUBLE: v.real = leaf.doubles[value_index]; break;
    default: {
      const parquet::ByteArray& bytes = leaf.byte_arrays[value_index];
      v.bytes = bytes.view();
      if (float16 && bytes.len == 2) {
        v.real = parquet::HalfToDouble(static_cast<uint16_t>(bytes.ptr[0] | (bytes.ptr[1] << 8)));
      }
      break;
    }
  }
  return v;
}

// <0, 0 or >0 as row value `a` sorts before, with or after `b` under the key: NULLs where
// the key puts them whatever the direction, NaN above every number (Parquet leaves its
// place open; this is where SQL engines sort it).
int SortedRowsCheck::Compare(const SortKey& key, const Value& a, const Value& b) const {
  if (a.is_null || b.is_null) {
    if (a.is_null && b.is_null) return 0;
    return a.is_null == key.nulls_first ? -1 : 1;
  }
  int c = 0;
  using parquet::ValueComparison;
  switch (key.comparison) {
    case ValueComparison::kBoolean:
    case ValueComparison::kSignedInteger:
      c = a.integer < b.integer ? -1 : (a.integer > b.integer ? 1 : 0);
      break;
    case ValueComparison::kUnsignedInteger: {
      // INT32 values come sign-extended: as uint64_t they keep their order as uint32_t.
      const uint64_t x = static_cast<uint64_t>(a.integer), y = static_cast<uint64_t>(b.integer);
      c = x < y ? -1 : (x > y ? 1 : 0);
      break;
    }
    case ValueComparison::kFloatingPoint: {
      const bool a_nan = std::isnan(a.real), b_nan = std::isnan(b.real);
      if (a_nan || b_nan) {
        c = a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
      } else {
        c = a.real < b.real ? -1 : (a.real > b.real ? 1 : 0);
      }
      break;
    }
    case ValueComparison::kSignedBigEndian: c = parquet::CompareSignedBigEndian(a.bytes, b.bytes); break;
    case ValueComparison::kUnsignedBytes: c = parquet::CompareUnsignedBytes(a.bytes, b.bytes); break;
    case ValueComparison::kInt96Timestamp:
    case ValueComparison::kNone: c = 0; break;  // refused as sorting columns (copy_layout.cc)
  }
  return key.descending ? -c : c;
}

int64_t SortedRowsCheck::Check(const std::vector<const LeafData*>& leaves, size_t rows, size_t* key) {
  const size_t num_keys = keys_.size();
  if (num_keys == 0 || rows == 0) return -1;
  previous_.resize(num_keys);
  previous_bytes_.resize(num_keys);
  current_.resize(num_keys);
  next_value_.assign(num_keys, 0);
  for (size_t r = 0; r < rows; r++) {
    for (size_t k = 0; k < num_keys; k++) {
      const LeafData& leaf = *leaves[k];
      const bool present = r < leaf.def_levels().size() && leaf.def_levels()[r] == leaf.max_definition_level &&
                           next_value_[k] < leaf.num_values();
      current_[k] = present ? ValueAt(leaf, next_value_[k]++, keys_[k].float16) : Value();
    }
    if (have_previous_) {
      for (size_t k = 0; k < num_keys; k++) {
        const int c = Compare(keys_[k], previous_[k], current_[k]);
        if (c < 0) break;
        if (c > 0) {
          *key = k;
          return static_cast<int64_t>(r);
        }
      }
    }
    previous_.swap(current_);
    have_previous_ = true;
  }
  // The last row's byte arrays live in the batch's buffers: keep copies for the next batch.
  for (size_t k = 0; k < num_keys; k++) {
    if (previous_[k].is_null || previous_[k].bytes.data() == nullptr) continue;
    previous_bytes_[k].assign(previous_[k].bytes);
    previous_[k].bytes = previous_bytes_[k];
  }
  return -1;
}

}  // namespace sqlite_parquet
