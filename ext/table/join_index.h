// The join index of the parquet table (issue 18): for a column that is looked up again and
// again in one statement (the inner side of a join, `IN (SELECT ...)` run as one lookup per
// value), or once when the files cannot prune it (not sorted, no statistics, dictionary or
// bloom filter that rules out row groups), the rows of each of the column's values, built
// once by reading that one column of every file (LAYOUT below). Each lookup then visits
// only the rows it names, so the scan reads only the pages of matching rows.
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
#include <utility>
#include <vector>

#include "ext/common/column_mapping.h"
#include "ext/common/sql_value.h"
#include "ext/table/large_array_allocator.h"
#include "format/crypto/encryption.h"
#include "format/read/file_reader.h"

namespace sqlite_parquet {

// join_index_memory's default: 256 MiB, about sixty million rows of one key column.
constexpr int64_t kDefaultJoinIndexMemory = int64_t{256} << 20;

// A row of the table: its file (the table's file order) and its row within that file.
struct RowPosition {
  static constexpr int kRowBits = 40;  // rows per file < 2^40
  static constexpr size_t kMaxFiles = size_t{1} << (64 - kRowBits);  // files < 2^24
  static uint64_t Pack(size_t file, int64_t row) {
    return (static_cast<uint64_t>(file) << kRowBits) | static_cast<uint64_t>(row);
  }
  static size_t File(uint64_t packed) { return static_cast<size_t>(packed >> kRowBits); }
  static int64_t Row(uint64_t packed) { return static_cast<int64_t>(packed & ((uint64_t{1} << kRowBits) - 1)); }
};

template <typename T>
using LargeVector = std::vector<T, LargeArrayAllocator<T>>;
// A large array each element of which is written once it is made (mapped populated).
template <typename T>
using FilledVector = std::vector<T, LargeArrayAllocator<T, true>>;

// The keys of a sorted column (integers in ascending order) in row order, compact: in
// blocks of kBlock keys, each key as its 16-bit offset from its block's first key while
// every block spans less than 65536 (a key column: 2 bytes a key), else as plain 64-bit
// keys; beside them the table row of each key, unless key i is row i (no NULL so far).
// The arrays grow only within a limit of bytes (as bytes() counts them): Reserve, and the
// switches that allocate a wider array (to plain keys, to keeping rows), return false
// instead of going past it, without allocating; after a false append the keys may hold
// fewer than were appended and are to be let go.
class SortedKeys {
 public:
  static constexpr size_t kBlock = 256;
  size_t size() const { return size_; }
  int64_t key(size_t i) const { return plain_ ? keys_[i] : bases_[i / kBlock] + offsets_[i]; }
  uint32_t row(size_t i) const { return has_rows_ ? rows_[i] : static_cast<uint32_t>(i); }
  bool plain() const { return plain_; }
  bool has_rows() const { return has_rows_; }
  // Keys [from, to) equal `key`.
  std::pair<size_t, size_t> EqualRange(int64_t key) const;
  // The most bytes the arrays may hold (none: no limit).
  void set_byte_limit(uint64_t bytes) { byte_limit_ = bytes; }
  // Room for `keys` keys in all, in the form the keys have now.
  bool Reserve(uint64_t keys);
  // Reserve room first: past it the arrays grow unchecked (an append checks only where it
  // switches to a wider form).
  bool Append(int64_t key, uint32_t row);
  // The keys of table rows first_row, first_row + 1, ...
  bool AppendConsecutive(const int64_t* keys, size_t count, uint32_t first_row);
  uint64_t bytes() const;  // allocated

 private:
  bool MayAllocate(uint64_t more) const;
  bool KeepRows();
  bool GoPlain();
  bool plain_ = false;
  bool has_rows_ = false;
  size_t size_ = 0;
  uint64_t byte_limit_ = UINT64_MAX;
  LargeVector<int64_t> bases_;     // compact: each block's first key
  LargeVector<uint16_t> offsets_;  // compact: each key's offset from its block's first
  LargeVector<int64_t> keys_;      // plain
  LargeVector<uint32_t> rows_;     // has_rows_
};

// LAYOUT. Rows are numbered across the files (the table's row number, < 2^32 - 1). Each
// distinct key holds the last row with that key, and each row the row before it with the
// same key (a chain through one 4-byte array), so building is one pass over the column
// with no sort and no scatter: per row one probe and one sequential store. Integer keys
// (the common case) live in a direct table (an array over their range) while the range is
// at most twice the rows, else in an open-addressing table; the others in a map keyed by
// a type byte and their bytes ('r' + the 8 bytes of a real, 't' + text, 'b' + blob). A
// column whose non-null values are integers in ascending order (a sorted key) keeps them
// as a sorted array beside their rows instead and is searched by bisection.
class JoinIndex {
 public:
  // Appends the packed positions (RowPosition) of the rows whose value equals `value`, in
  // ascending order; counts a hit.
  void Lookup(const SqlValue& value, std::vector<uint64_t>* positions) const;
  uint64_t bytes() const { return bytes_; }
  uint64_t distinct_keys() const { return distinct_; }
  uint64_t rows() const { return rows_; }
  int64_t hits() const { return hits_; }

 private:
  friend class JoinIndexBuilder;
  static constexpr uint32_t kNoRow = UINT32_MAX;
  struct IntSlot {
    int64_t key;
    uint32_t last_row;  // kNoRow: a free slot
  };
  // Appends the positions of the chain ending at `last_row`, ascending.
  void AppendChain(uint32_t last_row, std::vector<uint64_t>* positions) const;
  uint64_t PositionOf(uint32_t row) const;

  // Integer keys in a range at most twice the table's rows (surrogate keys: 1..N) index a
  // direct table, keys from direct_base_ on; the others hash.
  bool direct_ = false;
  int64_t direct_base_ = 0;
  FilledVector<uint32_t> direct_last_row_;  // kNoRow: no such key
  FilledVector<IntSlot> int_slots_;  // a power of two, at most half full
  std::map<std::string, uint32_t, std::less<>> other_last_rows_;
  FilledVector<uint32_t> previous_row_;   // per table row: the row before it with its key (kNoRow)
  std::vector<uint64_t> file_first_row_;  // the table row number of each file's first row
  bool sorted_ = false;
  SortedKeys sorted_keys_;  // sorted_
  uint64_t rows_ = 0;  // rows indexed (a key that can equal something)
  uint64_t distinct_ = 0;
  uint64_t bytes_ = 0;
  mutable int64_t hits_ = 0;
};

// Collects the keys of the table's rows, file after file and in row order, and makes the
// index. Every method returns false once the index would exceed the budget (then the
// builder is useless).
class JoinIndexBuilder {
 public:
  explicit JoinIndexBuilder(uint64_t budget_bytes);
  // The next file, of `rows` rows (its rows follow the previous file's).
  bool StartFile(uint64_t rows);
  // The key of row `row` of the current file (NULL and NaN are not indexed).
  bool Add(int64_t row, const SqlValue& value);
  // The integer keys of `count` consecutive rows from `first_row` of the current file
  // (the common case, without SqlValues, with the hash slots prefetched).
  bool AddIntegers(int64_t first_row, const int64_t* keys, size_t count);
  std::shared_ptr<JoinIndex> Finish();

 private:
  bool CheckBudget();
  bool GiveUp();  // empties the builder; false
  bool Fits(uint64_t more) const;
  void LimitSortedKeys();
  uint64_t Estimate() const;
  bool GrowIntTable(uint64_t keys);
  void LinkHashed(int64_t key, uint32_t row);
  bool WidenDirect(int64_t key);
  bool DirectToHash();
  bool LinkIntegers(const int64_t* keys, size_t count, uint32_t first_row);
  bool Unsort();
  uint64_t budget_;
  std::unique_ptr<JoinIndex> index_;
  uint64_t table_rows_ = 0;  // rows of the files started so far
  uint64_t int_keys_ = 0;    // distinct integer keys
  uint64_t other_bytes_ = 0;
};

// Where the column's values come from: the table's files and how to map the column in each.
struct JoinIndexSource {
  const std::vector<std::string>* files = nullptr;
  const parquet::FileDecryptionProperties* decryption = nullptr;
  bool verify_crc = true;
  // A file already open (the scan's), used instead of opening files[open_index] again.
  const parquet::ParquetFileReader* open_file = nullptr;
  size_t open_index = 0;
  // The column's mapping in an opened file (throws when the file does not fit the table).
  std::function<ColumnMapping(const parquet::ParquetFileReader& file, size_t index)> mapping_of;
  // Called before each row group is read and every rows_per_interrupt_check rows within
  // one (a row group may hold a million rows of long keys; 0: per row group only): throws
  // to stop the build (sqlite3_interrupt).
  std::function<void()> check_interrupt;
  int64_t rows_per_interrupt_check = 0;
};

// Reads the column of every file into an index; null when it would take more than
// `budget_bytes` or a value cannot be read as xColumn would (then row filters decide).
// Throws parquet::ParquetError for a file it cannot read (JoinIndexCache::Get: no index).
std::shared_ptr<JoinIndex> BuildJoinIndex(const JoinIndexSource& source, uint64_t budget_bytes);

// The indexes of one table, by column, while its files are unchanged, within one budget for
// all of them. Once the files change, every column's index of the files as they were is let
// go before anything is built; one a running statement still holds (its cursor's
// shared_ptr) counts against the budget until that statement lets go of it, so the table's
// indexes together stay within the budget. A build that does not fit beside the other
// columns' indexes lets go of those no statement is using.
class JoinIndexCache {
 public:
  // The index of `column` for the files as they are now: kept, or built (*built set) when
  // `may_build`; null when none can be had (over budget, a file unreadable, or !may_build;
  // tried again later when it was over the budget left by indexes statements still held).
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
    // Indexes of the column let go of that may still be held elsewhere.
    std::vector<std::weak_ptr<JoinIndex>> released;
    void Release();
    uint64_t ReleasedBytesHeld();  // of the released indexes still held
  };
  // BuildJoinIndex, null when it fails (*unreadable set when a file cannot be read).
  static std::shared_ptr<JoinIndex> TryBuild(const JoinIndexSource& source, uint64_t budget_bytes, bool* unreadable);
  // Bytes of the table's indexes: kept, or let go but still held by a running statement.
  uint64_t HeldBytes();
  // Lets go of the kept indexes of columns other than `column` that no statement holds;
  // whether there was one.
  bool ReleaseIdle(int column);

  std::map<int, Slot> slots_;
};

}  // namespace sqlite_parquet
