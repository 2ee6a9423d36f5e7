// parquet_copy's check of a sorting_columns claim: the rows of every row group must be in
// the declared order, compared as the Parquet values written (the column's type-defined
// order: signed or unsigned integers, decimals by value, byte arrays as unsigned bytes),
// so that no reader that trusts RowGroup.sorting_columns is misled. The rows arrive in
// batches of converted leaf values (copy_values.h); the last row of a batch is kept to be
// compared with the first of the next.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ext/copy/copy_values.h"
#include "format/index/statistics.h"

namespace sqlite_parquet {

// One sorting column: its comparison (TypeDefinedComparison of its leaf), direction and
// place of NULLs. `float16` marks a FIXED_LEN_BYTE_ARRAY(2) FLOAT16 leaf.
struct SortKey {
  std::string name;
  parquet::ValueComparison comparison = parquet::ValueComparison::kNone;
  bool float16 = false;
  bool descending = false;
  bool nulls_first = false;
};

class SortedRowsCheck {
 public:
  explicit SortedRowsCheck(std::vector<SortKey> keys = {}) : keys_(std::move(keys)) {}

  size_t num_keys() const { return keys_.size(); }

  // A new row group: the next row is compared with nothing.
  void StartRowGroup() { have_previous_ = false; }

  // Checks `rows` rows of flat leaves, leaves[k] holding key k's values (one definition
  // level per row, level 0 meaning NULL). Returns the index (within the batch) of the
  // first row that sorts before the row above it, with *key set to the sorting column that
  // decided it; -1 when every row is in order.
  int64_t Check(const std::vector<const LeafData*>& leaves, size_t rows, size_t* key);

 private:
  struct Value {
    bool is_null = true;
    int64_t integer = 0;     // BOOLEAN, INT32 (zero-extended when unsigned), INT64
    double real = 0;         // FLOAT, DOUBLE, FLOAT16
    std::string_view bytes;  // byte arrays
  };
  static Value ValueAt(const LeafData& leaf, size_t value_index, bool float16);
  int Compare(const SortKey& key, const Value& a, const Value& b) const;

  std::vector<SortKey> keys_;
  bool have_previous_ = false;
  std::vector<Value> previous_;              // the last row checked, per key
  std::vector<std::string> previous_bytes_;  // what previous_[k].bytes views across batches
  std::vector<Value> current_;
  std::vector<size_t> next_value_;           // per key: index of the next value in its leaf
};

}  // namespace sqlite_parquet
