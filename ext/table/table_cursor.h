// The `parquet` table's cursor, shared by the three files that implement it:
// table_cursor.cc (xOpen/xClose, xFilter/xNext/xEof/xRowid: the scan over row groups and
// rows, the row filters, interrupts, the scan's stats), table_cursor_files.cc (which files
// and row groups' rows a scan visits: opening and keeping files, the filters of a file, the
// join index's rows) and table_cursor_columns.cc (xColumn: the column readers' batches and
// the cells served from them). Here: the cursor's state and the few inline steps on it
// that more than one of them takes. How a scan works is in the manual (parquet_vtab.cc).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ext/common/connection_interrupt.h"
#include "ext/common/nested_json.h"
#include "ext/common/parquet_to_sql.h"
#include "ext/common/sql_value.h"
#include "ext/table/kept_files.h"
#include "format/io/remote_file.h"
#include "ext/table/lookup_batch_cache.h"
#include "ext/table/parquet_table.h"
#include "ext/table/row_group_pruning.h"
#include "ext/table/scan_stats.h"
#include "format/common/levels.h"
#include "format/io/http_client.h"
#include "format/read/column_reader.h"
#include "format/read/decompress_ahead.h"
#include "format/read/record_assembler.h"
#include "format/read/row_ranges.h"

namespace sqlite_parquet {

// How xColumn serves a cell of a column's loaded batch without going through the general
// conversion (ResultBatchValue, parquet_to_sql.h): the common mappings of a batch without
// nulls, one sqlite3_result_* call on the value, giving what ToSqlValue gives. Worth it:
// without it a full scan of the bench (q1, 1M rows) takes 10-20% more CPU time.
enum class DirectCell : uint8_t {
  kNone,            // through ResultCell / ResultBatchValue
  kInt32,           // ValueKind::kInt32
  kInt64,           // ValueKind::kInt64
  kDouble,          // ValueKind::kDouble
  kText,            // ValueKind::kText, not terminated yet: TerminateServedText first
  kTerminatedText,  // ValueKind::kText, batch.text_terminated: the value itself, length -1
  kCopiedText,      // ValueKind::kText that stays unterminated (ResultText's terminated copy)
  kDateText,        // ValueKind::kDate as text, from the cursor's DateTextCache
};

// Per-column decoding state of a cursor.
struct ColumnState {
  std::unique_ptr<parquet::ColumnChunkReader> reader;
  int row_group = -1;           // row group the reader is positioned in
  parquet::ColumnBatch batch;   // the slots [batch_first_row, batch_first_row + batch.num_levels)
  int64_t batch_first_row = 0;  // row (within the row group) of slot 0 of the batch
  int64_t batch_end = 0;        // batch_first_row + batch.num_levels
  size_t slot = 0;              // slot the value cursor stands at
  size_t value = 0;             // index into the batch's values of the first value at or after `slot`
  int16_t max_def = 0;          // the leaf column's maximum definition level
  bool dense = true;            // the batch has no nulls: a slot is its own value index
  DirectCell direct = DirectCell::kNone;  // how xColumn serves this batch's cells (LoadBatch)
  // The batch is the one `reader` read last and its text has not been offered to
  // TerminateText yet (TerminateServedText). (Next to `direct`: in its padding.)
  bool batch_from_reader = false;
  const void* direct_values = nullptr;    // the batch's values, typed by `direct`
  // The rows [reader_first, reader_end) of row_group that `batch` holds as `reader` read
  // them last, the reader standing after them (reader_end 0: not so, e.g. a batch
  // LoadKeptBatch copied). They outlive ForgetBatches: when Filter starts a new scan of the
  // same file, it sets `resume`, and a lookup at or after reader_first in that row group
  // goes on from that batch and reader; an earlier one starts the row group over (LoadBatch).
  int64_t reader_first = 0;
  int64_t reader_end = 0;
  bool resume = false;

  // Nested fields: rows are assembled from all the field's leaf columns and rendered as
  // JSON; the text of the last row rendered is kept for repeated xColumn calls.
  std::unique_ptr<parquet::RecordAssembler> assembler;
  std::unique_ptr<NestedJsonRenderer> renderer;
  int64_t json_row = -1;        // row (within row_group) whose JSON `json` holds
  bool json_is_null = false;
  std::string json;

  parquet::ColumnReadCounters counted;  // of `reader`, already added to the scan's stats
};

// A row filter turned into a test on the column's stored integers, without making a
// SqlValue per row: rows pass when their value lies in [lo, hi] (outside it with
// `outside`), for values in [valid_lo, valid_hi]; values outside that window, and filters
// without a range, take the SqlValue comparison. Two kinds (IntegerRangeOf):
//   - a comparison of an INT32 or INT64 column mapped to INTEGER with an integer constant
//     (`l_orderkey = 42`), valid for every value;
//   - a comparison of DATE text (`l_shipdate <= '1998-09-02'`) as a range of day numbers,
//     valid for the days whose text is "YYYY-MM-DD" (years 0000..9999), where text order is
//     day order.
struct IntegerRange {
  bool active = false;
  bool outside = false;  // != : the values passing are those outside [lo, hi]
  bool is64 = false;     // the values are INT64 (else INT32)
  int64_t lo = 0, hi = -1;
  int64_t valid_lo = INT64_MIN, valid_hi = INT64_MAX;
};

// Whether a row whose value is `v` passes: 1 yes, 0 no, -1 not decided here.
inline int RangeTest(const IntegerRange& range, int64_t v) {
  if (v < range.valid_lo || v > range.valid_hi) return -1;
  return (v >= range.lo && v <= range.hi) != range.outside ? 1 : 0;
}

struct ParquetCursor {
  sqlite3_vtab_cursor base;  // must come first
  // The scan's constraints (xFilter): filters by column, LIMIT / OFFSET.
  std::vector<ColumnFilter> filters;
  std::vector<size_t> row_filters;   // filters evaluated per row in the current file (file columns)
  std::vector<IntegerRange> row_filter_ranges;  // per row filter: its test on stored integers, when it has one
  std::vector<size_t> rowid_filters, file_row_filters;
  std::vector<size_t> file_filters;  // on hive keys and filename: decide whole files
  int64_t rowid_lo = INT64_MIN, rowid_hi = INT64_MAX;        // [lo, hi) superset of rowids wanted
  int64_t file_row_lo = INT64_MIN, file_row_hi = INT64_MAX;  // the same for file_row_number
  int64_t limit_remaining = -1;      // rows still to return, OFFSET included (-1: no LIMIT)
  std::unique_ptr<RowGroupPruner> pruner;  // for the current file
  FormatBuffer format_buffer;        // values converted by xColumn and the row filters; its `dates` is `dates`
  DateTextCache dates;               // DATE text of xColumn and the row filters
  ScanStats stats;
  bool stats_pending = false;        // a scan began whose stats are not recorded yet
  int64_t row_end = 0;               // end (exclusive) of the rows to visit in the row group
  parquet::RowRanges ranges;         // the rows of the row group that may match (page index)
  size_t range_index = 0;            // the range `row` is in or before
  parquet::ColumnReadCounters pruning_counters;  // dictionary pages and bloom filters read
  parquet::TransferCounters transfer_counted;    // of `file`, already added to the scan's stats
  std::vector<int> prefetch_leaves;  // leaf columns the scan reads, prefetched per row group (remote files)
  // Read-ahead of a remote file (ReadAheadRowGroups): row groups entered whole in a row
  // (the depth doubles with each, from kFirstReadAheadGroups to kMaxReadAheadGroups), the last row group queued,
  // and the last entered (a smaller one: the scan started over, what was ahead is dropped).
  int ahead_streak = 0;
  int ahead_through = -1;
  int ahead_last_entered = -1;
  int64_t ahead_start_row = -1;      // the row of the current row group where its read-ahead starts (-1: none due)
  uint64_t columns_used = 0;         // remote files: the plan's colUsed (idxNum, ColumnsUsedHandles)
  bool remote = false;                      // the table reads remote URLs (transfers are interruptible)
  int64_t rows_since_probe = 0;
  // Next only counts while the row it moves to lies below this: set by Advance when nothing
  // is tested per row (no row filters, no LIMIT), to the end of the row's range or the row
  // where the interrupt probe is due, whichever comes first (0: Next goes through Advance).
  int64_t fast_next_end = 0;

  // The files of the scan (the table's whole listing, or one its partition constraints
  // narrowed) and the current one's index in them.
  std::shared_ptr<const FileSet> files;
  size_t file_index = 0;
  std::unique_ptr<parquet::ParquetFileReader> file;  // the current file, or null
  // The rows deleted from the current file (a lake table's deletion vector or positional
  // deletes, lake_table.h), removed from each row group's ranges; null when none.
  std::shared_ptr<const parquet::lake::DeletedRows> deleted;
  // A lake file counted, not opened (CountFile): a scan that reads no column of the files
  // (count(*); partition keys, filename, rowid and file_row_number need none) walks the
  // rows the table's metadata counts (LakeDataFile::record_count, less the deletion
  // vector's cardinality) without reading the file. xFilter decides whether the scan may
  // (`counting`); `counted` says the current file is such a file (`file` is null; its one
  // "row group" holds counted_rows rows). While `counted_ordinals`, `row` numbers the
  // file's live rows (its deletion vector not loaded yet): the first xRowid or
  // file_row_number loads it and turns `row` into the physical position (CountedRowInFile).
  bool counting = false;
  bool counted = false;
  bool counted_ordinals = false;
  int64_t counted_rows = 0;
  // Per file group of a lake table (an Iceberg manifest): 0 not decided yet in this scan,
  // 1 its summary leaves the scan's constraints possible, 2 it rules them out.
  std::vector<int8_t> group_state;
  // The current file's worker decompressing the next pages of each column a full scan
  // reads (decompress_ahead.h; null for other scans). Its readers share it; it goes
  // (joining its thread) before `file`.
  std::shared_ptr<parquet::DecompressAhead> decompress_ahead;
  // Local files of a multi-file table this cursor opened and moved past, kept open for the
  // statement's next scans (kept_files.h), by file index.
  KeptFiles kept_files;
  // Remote files of a table with a metadata cache whose first request (the validation: size
  // and version) was made ahead, in parallel, for the scan to open next (by file index).
  std::map<size_t, parquet::ValidatedRemoteFile> validated_files;
  bool metadata_cache_checked = false;  // the table's metadata cache was checked for this statement
  std::vector<ColumnMapping> mappings;  // per file column, for the current file (kNull: absent)
  int64_t rows_before_file = 0;         // rows of the files before the current one (-1: not counted yet)
  int row_group = 0;
  bool group_entered = false; // row_group was checked against the constraints, row_end set
  int64_t row = 0;            // row within the row group
  int64_t rows_in_group = 0;
  bool eof = true;
  // The page buffers of all the cursor's column readers (max_memory).
  std::shared_ptr<parquet::MemoryBudget> memory_budget;
  std::vector<ColumnState> states;  // per file column
  size_t num_states = 0;            // states.size(), for xColumn
  // The join index (join_index.h), per file column: the rows this statement's lookups
  // decoded without an index, whether the table's cache was asked (1) and refused a build
  // (2), the index found. Then the filter it answers in the current scan (-1: none), the
  // positions of the rows it names (RowPosition, ascending), and the column of the last
  // scan's lookup that had no index (-1: none).
  std::vector<int64_t> lookup_rows;
  std::vector<uint8_t> lookup_state;
  std::vector<std::shared_ptr<JoinIndex>> join_indexes;
  int indexed_filter = -1;
  int unindexed_lookup_column = -1;
  std::unique_ptr<LookupBatchCache> batch_cache;  // batches read at indexed rows (null until then)
  std::vector<uint64_t> indexed_positions;
};

// Adds `leaf` to the columns a remote scan prefetches per row group; false when it is
// there already.
inline bool AddPrefetchLeaf(ParquetCursor* cursor, int leaf) {
  std::vector<int>& leaves = cursor->prefetch_leaves;
  if (std::find(leaves.begin(), leaves.end(), leaf) != leaves.end()) return false;
  leaves.push_back(leaf);
  return true;
}

inline ParquetTable* TableOf(sqlite3_vtab_cursor* cursor) { return reinterpret_cast<ParquetTable*>(cursor->pVtab); }

// Defined in table_cursor.cc (the scan):
void CollectReaderCounters(ParquetCursor* cursor);
bool Interrupted(const ParquetTable& table);
void CheckInterrupt(ParquetCursor* cursor, const ParquetTable& table);

// Defined in table_cursor_files.cc (the files and rows a scan visits):
int64_t RowsBeforeFile(ParquetCursor* cursor, const ParquetTable& table);
SqlValue FileConstant(const ParquetTable& table, const FileSet& files, int column, size_t index);
void SetUpFileFilters(ParquetCursor* cursor, const ParquetTable& table);
void KeepCurrentFile(ParquetCursor* cursor);
parquet::RowRanges IndexedRows(const ParquetCursor& cursor, int64_t begin, int64_t end, int64_t first);
// The row group of the current file holding the first row at or after file row `begin`
// that the join index names; the file's row group count when there is none.
int NextIndexedRowGroup(const ParquetCursor& cursor, int64_t begin);
bool OpenNextFile(ParquetCursor* cursor, const ParquetTable& table, size_t from);
bool CountsFiles(const ParquetCursor& cursor, const ParquetTable& table, uint64_t columns_used);
// The cursor's current file was replaced since the cached footer its scan began with (the
// statement's check, in flight meanwhile, says so when confirmed: RemoteFileReplaced): opens
// it again, its new version, from its first row group.
void ReopenReplacedFile(ParquetCursor* cursor, const ParquetTable& table);
void ChooseJoinIndex(ParquetCursor* cursor, const ParquetTable& table, ScanStats* stats);

// Defined in table_cursor_columns.cc (xColumn):
[[gnu::noinline]] void LoadBatch(ParquetCursor* cursor, const ParquetTable& table, int leaf, ColumnState* state);

// A scan may pass over many row groups and rows between two rows it returns, so it looks
// for sqlite3_interrupt() every kRowsPerInterruptProbe rows looked at, a row group pruned
// counting as kProbeRowsPerRowGroup rows (every 64 row groups at most); a join index build
// before each row group and every kRowsPerInterruptProbe rows it reads. SQLite 3.41
// and later say so directly; before, a probe statement is prepared (ConnectionInterrupted).
constexpr int64_t kRowsPerInterruptProbe = 65536;
constexpr int64_t kProbeRowsPerRowGroup = 1024;
// How many row groups a remote scan reads ahead after the first row group it entered whole
// (doubling with each further one), and the most (the file's byte window bounds it too).
constexpr int kFirstReadAheadGroups = 4;
constexpr int kMaxReadAheadGroups = 32;

// For a remote table, lets the HTTP transfers of one callback notice sqlite3_interrupt()
// while they wait (a stalled server): they end with parquet::HttpInterrupted. The check
// runs on the callback's thread only (http_client.h).
class TransferInterruptScope {
 public:
  TransferInterruptScope(ParquetCursor* cursor, const ParquetTable& table) {
    if (cursor->remote) scope_.emplace(table.db);
  }

 private:
  std::optional<ConnectionInterruptScope> scope_;
};

// Defined in table_cursor_files.cc: RowInFile of a counted file (loads its deleted rows
// while `row` numbers live rows).
int64_t CountedRowInFile(ParquetCursor* cursor);

inline int64_t RowInFile(ParquetCursor* cursor) {
  if (cursor->counted) return CountedRowInFile(cursor);
  return cursor->file->row_group_first_row(cursor->row_group) + cursor->row;
}

// Moves the value cursor of `state`'s batch (with nulls) forward to `slot`, counting the
// values of the slots passed (each slot once per batch); whether `slot` holds a value
// (then state->value is its index).
inline bool MoveToSlot(ColumnState* state, size_t slot) {
  const int16_t* def = state->batch.def_levels.data();
  if (slot > state->slot) {
    state->value += parquet::CountDefinedLevels(def + state->slot, slot - state->slot, state->max_def);
  }
  state->slot = slot;
  return def[slot] == state->max_def;
}

// Positions `state` on the cursor's current row; returns the value index of that row in the
// batch, or -1 when the row is NULL. Rows only move forward within a row group, so the
// common case is a row inside the current batch: one comparison, and the slot is the value
// index when the batch has no nulls; otherwise definition levels are counted from the
// previous position (each slot once per batch).
inline int64_t PositionColumn(ParquetCursor* cursor, const ParquetTable& table, int leaf, ColumnState* state) {
  const int64_t row = cursor->row;
  if (state->row_group != cursor->row_group || row >= state->batch_end) LoadBatch(cursor, table, leaf, state);
  const size_t slot = static_cast<size_t>(row - state->batch_first_row);
  if (state->dense) return static_cast<int64_t>(slot);
  return MoveToSlot(state, slot) ? static_cast<int64_t>(state->value) : -1;
}

}  // namespace sqlite_parquet
