// The join index of the parquet table (issue 18): for a column that is looked up again and
// again in one statement (the inner side of a join, `IN (SELECT ...)` run as one lookup per
// value) and that the files cannot prune (not sorted, no statistics, dictionary or bloom
// filter that rules out row groups), a hash from the column's values to the positions of
// their rows, built once by reading that one column of every file. Each lookup then visits
// only the rows it names, so the scan reads only the pages of matching rows. A column whose
// integer values come in ascending order (a sorted key) is kept as a sorted array of keys
// beside their positions and searched by bisection, which costs no hashing to build.
//
// EQUALITY. Keys are the values a row filter would compare (BatchSqlValue, the values
// xColumn returns) and lookups the filter's values after SQLite's affinity (constraints.h),
// so equality is SQLite's: integers and reals compare exactly (a real with an integral value
// in int64 range is keyed as that integer, so 3 finds 3.0 and 3.0 finds 3), TEXT and BLOB
// compare bytes (BINARY) and never equal each other or numbers; NULL and NaN equal nothing.
//
// LIFETIME. An index belongs to a table and one column and is kept while the files are
// unchanged (same list, sizes and modification times, checked once per statement); a build
// that would exceed the table's join_index_memory stops, and that column is not tried again
// while the files are unchanged. Nothing here calls SQLite.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ext/common/column_mapping.h"
#include "ext/common/sql_value.h"
#include "format/encryption.h"
#include "format/file_reader.h"

namespace sqlite_parquet {

// join_index_memory's default: 256 MiB, about ten million rows of one key column.
constexpr int64_t kDefaultJoinIndexMemory = int64_t{256} << 20;

// A row of the table: its file (the table's file order) and its row within that file.
struct RowPosition {
  static constexpr int kRowBits = 40;  // rows per file < 2^40; files < 2^24
  static uint64_t Pack(size_t file, int64_t row) {
    return (static_cast<uint64_t>(file) << kRowBits) | static_cast<uint64_t>(row);
  }
  static size_t File(uint64_t packed) { return static_cast<size_t>(packed >> kRowBits); }
  static int64_t Row(uint64_t packed) { return static_cast<int64_t>(packed & ((uint64_t{1} << kRowBits) - 1)); }
};

class JoinIndex {
 public:
  // Appends the packed positions (RowPosition) of the rows whose value equals `value`, in
  // ascending order when the caller sorts nothing else in; counts a hit.
  void Lookup(const SqlValue& value, std::vector<uint64_t>* positions) const;
  uint64_t bytes() const { return bytes_; }
  uint64_t distinct_keys() const { return distinct_; }
  uint64_t rows() const { return positions_.size(); }
  int64_t hits() const { return hits_; }

 private:
  friend class JoinIndexBuilder;
  // Open addressing over integer keys (the common case) and a map for the others (a type
  // byte and the bytes: 'r' + the 8 bytes of a real, 't' + text, 'b' + blob).
  struct IntSlot {
    int64_t key;
    uint32_t group;  // UINT32_MAX: free
  };
  std::vector<IntSlot> int_slots_;  // a power of two, at most half full
  std::map<std::string, uint32_t, std::less<>> other_groups_;
  std::vector<uint64_t> group_start_;  // group g's positions: [group_start_[g], group_start_[g + 1])
  std::vector<uint64_t> positions_;
  // A column whose non-null values are integers in ascending order (a sorted key): no hash,
  // the keys of positions_ side by side, searched by bisection.
  bool sorted_ = false;
  std::vector<int64_t> sorted_keys_;
  uint64_t distinct_ = 0;
  uint64_t bytes_ = 0;
  mutable int64_t hits_ = 0;
};

// Collects (position, value) pairs in position order and makes the index.
class JoinIndexBuilder {
 public:
  explicit JoinIndexBuilder(uint64_t budget_bytes);
  // False once the index would exceed the budget (then the builder is useless).
  bool Add(uint64_t position, const SqlValue& value);
  // Room for `more_rows` more rows, when the budget allows (false: over budget).
  bool Reserve(uint64_t more_rows);
  // The same for `count` integer keys of consecutive positions from `first_position`
  // (the common case, without SqlValues, with the hash slots prefetched).
  bool AddIntegers(uint64_t first_position, const int64_t* keys, size_t count);
  std::shared_ptr<JoinIndex> Finish();

 private:
  uint32_t GroupOf(const SqlValue& value);
  uint32_t IntGroupOf(int64_t key);
  bool CheckBudget();
  uint64_t Estimate() const;
  void GrowIntTable(size_t keys);
  void Unsort();
  uint64_t budget_;
  std::unique_ptr<JoinIndex> index_;
  // While every key so far was an integer not below the one before: the keys, not hashed
  // (Unsort hashes them when one is not).
  bool sorted_ = true;
  std::vector<int64_t> sorted_keys_;
  std::vector<uint32_t> group_of_row_;
  std::vector<uint64_t> row_positions_;
  uint64_t int_count_ = 0;
  uint64_t other_bytes_ = 0;
  uint32_t groups_ = 0;
};

// Where the column's values come from: the table's files and how to map the column in each.
struct JoinIndexSource {
  const std::vector<std::string>* files = nullptr;
  const parquet::FileDecryptionProperties* decryption = nullptr;
  bool verify_crc = true;
  // The column's mapping in an opened file (throws when the file does not fit the table).
  std::function<ColumnMapping(const parquet::ParquetFileReader& file, size_t index)> mapping_of;
};

// Reads the column of every file into an index; null when it would take more than
// `budget_bytes` or a value cannot be read as xColumn would (then row filters decide).
std::shared_ptr<JoinIndex> BuildJoinIndex(const JoinIndexSource& source, uint64_t budget_bytes);

// The indexes of one table, by column, while its files are unchanged.
class JoinIndexCache {
 public:
  // The index of `column` for the files as they are now: kept, or built (*built set) when
  // `may_build`; null when none can be had (over budget, unreadable, or !may_build).
  std::shared_ptr<JoinIndex> Get(int column, const JoinIndexSource& source, uint64_t budget_bytes, bool may_build,
                                 bool* built);
  // Whether an index of `column` is kept (for files as they were when it was built).
  bool Has(int column) const;
  // Rows per distinct value of `column`'s kept index (for plan estimates; files unchecked);
  // 0 when there is none.
  double RowsPerKey(int column) const;

 private:
  struct Slot {
    std::vector<int64_t> signature;  // per file: size, modification time (ns)
    std::shared_ptr<JoinIndex> index;
    bool unusable = false;  // the build failed for these files: not tried again
  };
  std::map<int, Slot> slots_;
};

}  // namespace sqlite_parquet
