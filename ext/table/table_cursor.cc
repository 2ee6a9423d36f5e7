// The `parquet` table's cursor: xFilter turns the plan's arguments into filters, then the
// scan walks files, row groups (pruned by row position, statistics, bloom filters and the
// page index) and rows (tested on the decoded filter columns first: late
// materialization); xColumn serves cells from each column's decoded batch. How a scan
// works is in the manual (parquet_vtab.cc).
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ext/common/connection_interrupt.h"
#include "ext/common/nested_json.h"
#include "ext/table/join_index.h"
#include "ext/table/kept_files.h"
#include "ext/table/lookup_batch_cache.h"
#include "ext/table/parquet_table.h"
#include "ext/common/parquet_to_sql.h"
#include "ext/table/remote_prefetch.h"
#include "ext/table/row_group_pruning.h"
#include "ext/table/scan_stats.h"
#include "ext/common/sql_value.h"
#include "ext/common/sqlite_values.h"
#include "ext/common/vtab_errors.h"
#include "format/read/column_reader.h"
#include "format/read/decompress_ahead.h"
#include "format/common/error.h"
#include "format/io/http_client.h"
#include "format/common/levels.h"
#include "format/values/logical_values.h"
#include "format/read/record_assembler.h"
#include "format/io/remote_file.h"

namespace sqlite_parquet {

namespace {

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
constexpr int32_t kFirstFourDigitYearDay = -719528;  // 0000-01-01
constexpr int32_t kLastFourDigitYearDay = 2932896;   // 9999-12-31

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
  uint64_t columns_used = 0;         // remote files: the plan's colUsed (idxNum, ColumnsUsedHandles)
  bool remote = false;                      // the table reads remote URLs (transfers are interruptible)
  int64_t rows_since_probe = 0;
  // Next only counts while the row it moves to lies below this: set by Advance when nothing
  // is tested per row (no row filters, no LIMIT), to the end of the row's range or the row
  // where the interrupt probe is due, whichever comes first (0: Next goes through Advance).
  int64_t fast_next_end = 0;

  size_t file_index = 0;
  std::unique_ptr<parquet::ParquetFileReader> file;  // the current file, or null
  // The current file's worker decompressing the next pages of each column a full scan
  // reads (decompress_ahead.h; null for other scans). Its readers share it; it goes
  // (joining its thread) before `file`.
  std::shared_ptr<parquet::DecompressAhead> decompress_ahead;
  // Local files of a multi-file table this cursor opened and moved past, kept open for the
  // statement's next scans (kept_files.h), by file index.
  KeptFiles kept_files;
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
bool AddPrefetchLeaf(ParquetCursor* cursor, int leaf) {
  std::vector<int>& leaves = cursor->prefetch_leaves;
  if (std::find(leaves.begin(), leaves.end(), leaf) != leaves.end()) return false;
  leaves.push_back(leaf);
  return true;
}

// Empties the batch range of every column (batch_end 0) when the cursor moves to another
// row group or file, so that xColumn's fast path (Column) needs only `row < batch_end` to
// know that a column's batch holds the cursor's row; LoadBatch then (re)positions the reader.
void ForgetBatches(ParquetCursor* cursor) {
  for (ColumnState& state : cursor->states) state.batch_end = 0;
}

ParquetTable* TableOf(sqlite3_vtab_cursor* cursor) { return reinterpret_cast<ParquetTable*>(cursor->pVtab); }

int64_t PositionColumn(ParquetCursor* cursor, const ParquetTable& table, int leaf, ColumnState* state);

// Adds what the column readers did since the last call to the scan's stats.
void CollectReaderCounters(ParquetCursor* cursor) {
  for (ColumnState& state : cursor->states) {
    if (!state.reader) continue;
    const parquet::ColumnReadCounters& now = state.reader->counters();
    cursor->stats.pages_read += static_cast<int64_t>(now.pages_read - state.counted.pages_read);
    cursor->stats.pages_skipped += static_cast<int64_t>(now.pages_skipped - state.counted.pages_skipped);
    cursor->stats.bytes_read += static_cast<int64_t>(now.bytes_read - state.counted.bytes_read);
    cursor->stats.dictionary_pages_read +=
        static_cast<int64_t>(now.dictionary_pages_read - state.counted.dictionary_pages_read);
    cursor->stats.pages_decompressed_ahead +=
        static_cast<int64_t>(now.pages_decompressed_ahead - state.counted.pages_decompressed_ahead);
    state.counted = now;
  }
  if (cursor->file) {
    const parquet::TransferCounters now = cursor->file->file().Transfer();
    cursor->stats.http_requests += static_cast<int64_t>(now.requests - cursor->transfer_counted.requests);
    cursor->stats.http_bytes_fetched += static_cast<int64_t>(now.bytes_fetched - cursor->transfer_counted.bytes_fetched);
    cursor->transfer_counted = now;
  }
  if (cursor->batch_cache) {
    const parquet::ColumnReadCounters kept = cursor->batch_cache->TakeCounters();
    cursor->stats.pages_read += static_cast<int64_t>(kept.pages_read);
    cursor->stats.pages_skipped += static_cast<int64_t>(kept.pages_skipped);
    cursor->stats.bytes_read += static_cast<int64_t>(kept.bytes_read);
    cursor->stats.dictionary_pages_read += static_cast<int64_t>(kept.dictionary_pages_read);
  }
  cursor->stats.bytes_read += static_cast<int64_t>(cursor->pruning_counters.bytes_read);
  cursor->stats.dictionary_pages_read += static_cast<int64_t>(cursor->pruning_counters.dictionary_pages_read);
  cursor->pruning_counters = parquet::ColumnReadCounters();
}

// Records the stats of the cursor's scan as the table's last (once per scan).
void FinishScan(ParquetCursor* cursor) {
  if (!cursor->stats_pending) return;
  cursor->stats_pending = false;
  CollectReaderCounters(cursor);
  const ParquetTable& table = *TableOf(&cursor->base);
  RecordScanStats(table.db, table.name, cursor->stats);
}

}  // namespace

namespace vtab {

int Close(sqlite3_vtab_cursor* base) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  try {
    FinishScan(cursor);
  } catch (...) {
  }
  delete cursor;
  return SQLITE_OK;
}

}  // namespace vtab

namespace {

// Rows of the files before the current one (counted from their footers when a scan skipped
// them unopened).
int64_t RowsBeforeFile(ParquetCursor* cursor, const ParquetTable& table) {
  if (cursor->rows_before_file >= 0) return cursor->rows_before_file;
  int64_t rows = 0;
  for (size_t f = 0; f < cursor->file_index; f++) {
    if (table.file_rows[f] < 0) {
      table.file_rows[f] =
          parquet::ParquetFileReader::Open(table.files[f], table.options.decryption.get(), table.options.remote.get())
              ->num_rows();
      cursor->stats.files_opened++;
    }
    rows += table.file_rows[f];
  }
  cursor->rows_before_file = rows;
  return rows;
}

// The value of partition key or filename column `column` for file `index`.
SqlValue FileConstant(const ParquetTable& table, int column, size_t index) {
  if (column == table.filename_column()) return SqlValue::Text(table.files[index]);
  const size_t key = static_cast<size_t>(column - table.hive_column());
  const HiveValue& value = table.hive_values[index][key];
  if (value.is_null) return SqlValue::Null();
  switch (table.hive_keys[key].type) {
    case HiveType::kInteger: return SqlValue::Integer(value.integer);
    case HiveType::kReal: return SqlValue::Real(value.real);
    case HiveType::kText: break;
  }
  return SqlValue::Text(value.text);
}

// Sets range->lo and hi for comparison `op` from `at_least` and `above`, the first values
// of the window [valid_lo, valid_hi] that compare >= and > the constant (valid_hi + 1 when
// none does); an empty range (no value passes) when the comparison holds for none.
void SetComparisonRange(ConstraintOp op, __int128 at_least, __int128 above, IntegerRange* range) {
  __int128 lo = range->valid_lo, hi = range->valid_hi;
  switch (op) {
    case ConstraintOp::kNe: range->outside = true; [[fallthrough]];
    case ConstraintOp::kEq: lo = at_least; hi = above - 1; break;
    case ConstraintOp::kLt: hi = at_least - 1; break;
    case ConstraintOp::kLe: hi = above - 1; break;
    case ConstraintOp::kGt: lo = above; break;
    default: lo = at_least; break;  // kGe
  }
  if (lo > hi) lo = 0, hi = -1;  // (within the window otherwise: int64_t holds both)
  range->lo = static_cast<int64_t>(lo);
  range->hi = static_cast<int64_t>(hi);
}

// The range of stored integers equivalent to `filter` on a column mapped by `mapping`
// (IntegerRange); inactive when there is none. For DATE text, found by binary search over
// the days of years 0000..9999 with the same comparison RowMatches makes on their text.
IntegerRange IntegerRangeOf(const ColumnFilter& filter, const ColumnMapping& mapping) {
  IntegerRange range;
  if (!filter.active || mapping.leaf_column < 0) return range;
  switch (filter.op) {
    case ConstraintOp::kEq: case ConstraintOp::kNe: case ConstraintOp::kLt:
    case ConstraintOp::kLe: case ConstraintOp::kGt: case ConstraintOp::kGe: break;
    default: return range;
  }
  const SqlValue& constant = filter.values[0];
  if (constant.is_null()) return range;
  if (mapping.kind == ValueKind::kInt32 || mapping.kind == ValueKind::kInt64) {
    // INTEGER against an integer constant: SQLite's comparison is the integers' order.
    if (constant.type != SqlValue::Type::kInteger) return range;
    range.active = true;
    range.is64 = mapping.kind == ValueKind::kInt64;
    SetComparisonRange(filter.op, constant.integer, __int128{constant.integer} + 1, &range);
    return range;
  }
  if (mapping.kind != ValueKind::kDate || mapping.timestamp_form != TimestampForm::kText) return range;
  FormatBuffer buffer;
  auto compare = [&constant, &mapping, &buffer](int64_t day) {
    ParquetValue date;
    date.integer = day;
    SqlValue text;
    ToSqlValue(mapping, date, &buffer, &text);  // text: cannot fail
    return CompareSqlValues(text, constant);
  };
  // The first day whose text compares >= (or, strictly, >) the constant; one past the last
  // day when there is none.
  auto first_day = [&compare](bool strictly) {
    int64_t lo = kFirstFourDigitYearDay, hi = int64_t{kLastFourDigitYearDay} + 1;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      const int cmp = compare(mid);
      if (strictly ? cmp > 0 : cmp >= 0) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  };
  range.active = true;
  range.valid_lo = kFirstFourDigitYearDay;
  range.valid_hi = kLastFourDigitYearDay;
  SetComparisonRange(filter.op, first_day(false), first_day(true), &range);
  return range;
}

// The filters of the current file: which run per row, and the row-group pruner. A filter on
// a column whose values in this file are not of the table's class (union_by_name) is left
// to SQLite, except NULL tests.
void SetUpFileFilters(ParquetCursor* cursor, const ParquetTable& table) {
  cursor->row_filters.clear();
  cursor->row_filter_ranges.clear();
  std::vector<FileColumnFilter> prunable;
  for (size_t i = 0; i < cursor->filters.size(); i++) {
    const ColumnFilter& filter = cursor->filters[i];
    if (filter.column < 0 || filter.column >= table.hive_column() || !filter.active) continue;
    if (static_cast<int>(i) == cursor->indexed_filter) continue;  // the join index found its rows
    const ColumnMapping& mapping = cursor->mappings[static_cast<size_t>(filter.column)];
    if (mapping.kind == ValueKind::kNested) continue;
    const bool always_null = mapping.kind == ValueKind::kNull || mapping.leaf_column < 0;
    const bool null_test = filter.op == ConstraintOp::kIsNull || filter.op == ConstraintOp::kIsNotNull;
    if (!always_null && !null_test &&
        ValueClassOfKind(mapping) != table.pushdown[static_cast<size_t>(filter.column)].value_class) {
      continue;
    }
    cursor->row_filters.push_back(i);
    cursor->row_filter_ranges.push_back(always_null ? IntegerRange() : IntegerRangeOf(filter, mapping));
    prunable.push_back(FileColumnFilter{&filter, &mapping});
  }
  cursor->pruner = std::make_unique<RowGroupPruner>(*cursor->file, std::move(prunable));
}

// Moves the cursor's current file (if any) to its kept files, or closes it (KeptFiles::Put).
// The caller has collected its counters (CollectReaderCounters); its column readers stay
// until OpenFile replaces them.
void KeepCurrentFile(ParquetCursor* cursor) {
  if (cursor->decompress_ahead) {
    cursor->decompress_ahead->Stop();  // its readers may still hold it; the file moves on
    cursor->decompress_ahead.reset();
  }
  if (cursor->file) cursor->kept_files.Put(cursor->file_index, std::move(cursor->file));
  cursor->file.reset();
}

// Opens file `index` of the table (its footer read). When that fails while the cursor keeps
// files, they are closed and the opening is tried once more: each kept file holds a file
// descriptor, and the process may have run out of them.
std::unique_ptr<parquet::ParquetFileReader> OpenTableFile(ParquetCursor* cursor, const ParquetTable& table,
                                                          size_t index) {
  auto open = [&] {
    return parquet::ParquetFileReader::Open(table.files[index], table.options.decryption.get(),
                                            table.options.remote.get());
  };
  if (!cursor->kept_files.empty()) {
    try {
      return open();
    } catch (const parquet::ParquetError&) {
      cursor->kept_files.Clear();
    }
  }
  return open();
}

// Files smaller than this are decompressed by the scan itself: starting and joining the
// worker thread costs tens of microseconds, about what decompressing a megabyte saves, and a
// nested loop rescans its inner table once per outer row.
constexpr uint64_t kDecompressAheadMinFileBytes = 1 << 20;

// Whether the cursor's scan of its current file decompresses ahead: a scan of every row
// (no constraint, no LIMIT) of a local, unencrypted file of at least a megabyte, where every
// page is sure to be read, so the worker's work is never wasted.
bool DecompressesAhead(const ParquetCursor& cursor, const ParquetTable& table) {
  return table.options.decompress_ahead && !table.options.decryption && !cursor.file->file().IsRemote() &&
         cursor.file->file().Size() >= kDecompressAheadMinFileBytes && cursor.filters.empty() &&
         cursor.rowid_filters.empty() && cursor.limit_remaining < 0 && cursor.indexed_filter < 0;
}

// Makes file `index` the cursor's current file, from the kept files or opened (its footer
// read). The readers of the previous file are closed first, and the file itself is kept.
void OpenFile(ParquetCursor* cursor, const ParquetTable& table, size_t index) {
  CollectReaderCounters(cursor);
  cursor->pruner.reset();
  for (ColumnState& state : cursor->states) state = ColumnState();
  if (cursor->batch_cache) cursor->batch_cache->ForgetReaders();
  KeepCurrentFile(cursor);
  cursor->mappings.clear();
  cursor->file_index = index;
  cursor->row_group = 0;
  cursor->group_entered = false;
  cursor->row = 0;
  cursor->file = cursor->kept_files.Take(index);
  if (cursor->file) {
    cursor->transfer_counted = cursor->file->file().Transfer();  // its opening was counted then
  } else {
    cursor->transfer_counted = parquet::TransferCounters();
    cursor->file = OpenTableFile(cursor, table, index);
    cursor->stats.files_opened++;
  }
  cursor->mappings = MapFileColumns(table, *cursor->file, table.files[index]);
  table.file_rows[index] = cursor->file->num_rows();
  SetUpFileFilters(cursor, table);
  if (DecompressesAhead(*cursor, table)) {
    cursor->decompress_ahead = std::make_shared<parquet::DecompressAhead>(*cursor->file, cursor->memory_budget,
                                                                          table.options.verify_crc);
  }
}

// The join index's rows of the cursor's scan in file `index`, rows [begin, end).
std::pair<const uint64_t*, const uint64_t*> IndexedRowSpan(const ParquetCursor& cursor, size_t index, int64_t begin,
                                                           int64_t end) {
  const std::vector<uint64_t>& rows = cursor.indexed_positions;
  const uint64_t lo = RowPosition::Pack(index, std::max<int64_t>(begin, 0));
  const uint64_t hi = RowPosition::Pack(index, std::min<int64_t>(end, (int64_t{1} << RowPosition::kRowBits) - 1));
  const uint64_t* data = rows.data();
  return {data + (std::lower_bound(rows.begin(), rows.end(), lo) - rows.begin()),
          data + (std::lower_bound(rows.begin(), rows.end(), hi) - rows.begin())};
}

bool HasIndexedRowsIn(const ParquetCursor& cursor, size_t index, int64_t begin, int64_t end) {
  const auto [from, to] = IndexedRowSpan(cursor, index, begin, end);
  return from != to;
}

// The join index's rows of the current file in [begin, end), as rows of the row group
// starting at file row `first`.
parquet::RowRanges IndexedRows(const ParquetCursor& cursor, int64_t begin, int64_t end, int64_t first) {
  parquet::RowRanges ranges;
  const auto [from, to] = IndexedRowSpan(cursor, cursor.file_index, begin, end);
  for (const uint64_t* p = from; p != to; p++) {
    const int64_t row = RowPosition::Row(*p) - first;
    ranges.Append(row, row + 1);
  }
  return ranges;
}

// Opens the first file at or after `from` that the constraints on partition keys,
// filename and rowid leave in the scan; false when there is none.
bool OpenNextFile(ParquetCursor* cursor, const ParquetTable& table, size_t from) {
  // Rows before `from`, while they are known without opening skipped files.
  int64_t before = cursor->rows_before_file;
  if (cursor->file && before >= 0) before += cursor->file->num_rows();
  if (!cursor->file) before = from == 0 ? 0 : -1;
  for (size_t index = from; index < table.files.size(); index++) {
    bool keep = true;
    for (size_t i : cursor->file_filters) {
      const ColumnFilter& filter = cursor->filters[i];
      keep = keep && RowMatches(filter, FileConstant(table, filter.column, index));
    }
    if (keep && cursor->indexed_filter >= 0) keep = HasIndexedRowsIn(*cursor, index, 0, INT64_MAX);
    if (keep && !cursor->rowid_filters.empty()) {
      // Row positions need the rows of every earlier file (file_index moves to `index` for
      // RowsBeforeFile, so the current file is put away under its own index first).
      CollectReaderCounters(cursor);
      KeepCurrentFile(cursor);
      cursor->file_index = index;
      cursor->rows_before_file = before;
      before = RowsBeforeFile(cursor, table);
      if (before >= cursor->rowid_hi) {
        cursor->stats.files_pruned += static_cast<int64_t>(table.files.size() - index);
        return false;
      }
      if (table.file_rows[index] >= 0 && before + table.file_rows[index] <= cursor->rowid_lo) keep = false;
    }
    if (!keep) {
      cursor->stats.files_pruned++;
      if (before >= 0) before = table.file_rows[index] >= 0 ? before + table.file_rows[index] : -1;
      continue;
    }
    OpenFile(cursor, table, index);
    cursor->rows_before_file = before;
    return true;
  }
  return false;
}

int64_t SaturatingSub(int64_t a, int64_t b) {
  if (b > 0 && a < INT64_MIN + b) return INT64_MIN;
  if (b < 0 && a > INT64_MAX + b) return INT64_MAX;
  return a - b;
}

// A scan may pass over many row groups and rows between two rows it returns, so it looks
// for sqlite3_interrupt() every kRowsPerInterruptProbe rows looked at, a row group pruned
// counting as kProbeRowsPerRowGroup rows (every 64 row groups at most); a join index build
// before each row group and every kRowsPerInterruptProbe rows it reads. SQLite 3.41
// and later say so directly; before, a probe statement is prepared (ConnectionInterrupted).
constexpr int64_t kRowsPerInterruptProbe = 65536;
constexpr int64_t kProbeRowsPerRowGroup = 1024;

bool Interrupted(const ParquetTable& table) { return ConnectionInterrupted(table.db); }

void CheckInterrupt(ParquetCursor* cursor, const ParquetTable& table) {
  cursor->rows_since_probe = 0;
  if (Interrupted(table)) throw ScanInterrupted();
}

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

// Checks the cursor's row group against the constraints: the rows it may return
// ([row, row_end)) by row position, then statistics and bloom filters. False
// when nothing in it can match.
bool EnterRowGroup(ParquetCursor* cursor, const ParquetTable& table) {
  const parquet::ParquetFileReader& file = *cursor->file;
  const int rg = cursor->row_group;
  cursor->stats.row_groups_total++;
  cursor->rows_in_group = file.row_group_num_rows(rg);
  const int64_t first = file.row_group_first_row(rg);
  int64_t lo = 0, hi = cursor->rows_in_group;
  lo = std::max(lo, SaturatingSub(cursor->file_row_lo, first));
  hi = std::min(hi, SaturatingSub(cursor->file_row_hi, first));
  if (!cursor->rowid_filters.empty()) {
    const int64_t base = RowsBeforeFile(cursor, table) + first;
    lo = std::max(lo, SaturatingSub(cursor->rowid_lo, base));
    hi = std::min(hi, SaturatingSub(cursor->rowid_hi, base));
  }
  lo = std::max(lo, cursor->row);
  if (lo >= hi) {
    cursor->stats.row_groups_pruned_by_row_position++;
    return false;
  }
  const parquet::RowRanges candidates = cursor->indexed_filter >= 0
                                            ? IndexedRows(*cursor, first + lo, first + hi, first)
                                            : parquet::RowRanges::FromRanges({parquet::RowRange{lo, hi}});
  if (cursor->indexed_filter >= 0 && candidates.empty()) {
    cursor->stats.row_groups_pruned_by_join_index++;
    return false;
  }
  // Pruning may read bloom filters and dictionaries: a row group counts as a share of the
  // rows between two interrupt probes (a probe costs a statement step before SQLite 3.41,
  // too much for every row group of every lookup of a join).
  cursor->rows_since_probe += kProbeRowsPerRowGroup;
  if (cursor->rows_since_probe >= kRowsPerInterruptProbe) CheckInterrupt(cursor, table);
  parquet::ColumnReaderOptions options;
  options.verify_crc = table.options.verify_crc;
  switch (cursor->pruner->Check(rg, options, &cursor->pruning_counters)) {
    case PruneReason::kStatistics: cursor->stats.row_groups_pruned_by_statistics++; return false;
    case PruneReason::kBloomFilter: cursor->stats.row_groups_pruned_by_bloom_filter++; return false;
    case PruneReason::kDictionary: cursor->stats.row_groups_pruned_by_dictionary++; return false;
    case PruneReason::kPageIndex:
    case PruneReason::kKeep: break;
  }
  // A remote file fetches the row group's bytes the query reads in two parallel rounds:
  // the page indexes (PrefetchPageIndexes) and then the kept pages of the columns it reads
  // (the plan's columns_used, the filter columns, the columns read so far); LoadBatch adds
  // any other.
  auto prefetch = [cursor](int leaf) { AddPrefetchLeaf(cursor, leaf); };
  for (size_t k : cursor->row_filters) prefetch(cursor->mappings[static_cast<size_t>(cursor->filters[k].column)].leaf_column);
  for (size_t c = 0; c < cursor->mappings.size(); c++) {
    if (UsesColumn(cursor->columns_used, c)) prefetch(cursor->mappings[c].leaf_column);
  }
  PrefetchPageIndexes(file, rg, cursor->pruner->PageIndexLeaves(), cursor->prefetch_leaves);
  cursor->ranges = cursor->pruner->MatchingRows(rg, candidates, &cursor->stats.pages_pruned_by_page_index);
  if (cursor->ranges.empty()) {
    cursor->stats.row_groups_pruned_by_page_index++;
    return false;
  }
  cursor->range_index = 0;
  cursor->row = cursor->ranges.range(0).begin;
  cursor->row_end = cursor->ranges.last_end();
  cursor->group_entered = true;
  PrefetchRowGroup(file, rg, cursor->prefetch_leaves, cursor->ranges);
  return true;
}

// Moves to the first row at or after (file, row_group, row) that exists in a row group the
// constraints keep, going on to the next files as needed.
void SettleOnRow(ParquetCursor* cursor, const ParquetTable& table) {
  while (cursor->file) {
    const parquet::ParquetFileReader& file = *cursor->file;
    while (cursor->row_group < file.num_row_groups()) {
      if (cursor->group_entered && cursor->row < cursor->row_end) {
        cursor->eof = false;
        return;
      }
      if (!cursor->group_entered && EnterRowGroup(cursor, table)) continue;
      cursor->row_group++;
      cursor->group_entered = false;
      cursor->row = 0;
      ForgetBatches(cursor);
    }
    if (!OpenNextFile(cursor, table, cursor->file_index + 1)) break;
  }
  cursor->eof = true;
}

int64_t RowInFile(const ParquetCursor* cursor) {
  return cursor->file->row_group_first_row(cursor->row_group) + cursor->row;
}

// Whether the cursor's row passes the filters evaluated per row (late materialization:
// only the filter columns are decoded, as typed values).
bool RowPasses(ParquetCursor* cursor, const ParquetTable& table) {
  for (size_t k = 0; k < cursor->row_filters.size(); k++) {
    const ColumnFilter& filter = cursor->filters[cursor->row_filters[k]];
    const ColumnMapping& mapping = cursor->mappings[static_cast<size_t>(filter.column)];
    SqlValue value;
    if (mapping.kind != ValueKind::kNull && mapping.leaf_column >= 0) {
      ColumnState& state = cursor->states[static_cast<size_t>(filter.column)];
      const int64_t index = PositionColumn(cursor, table, mapping.leaf_column, &state);
      const IntegerRange& range = cursor->row_filter_ranges[k];
      if (range.active && index >= 0) {
        const int64_t v = range.is64 ? state.batch.values<int64_t>()[index] : state.batch.values<int32_t>()[index];
        const int test = RangeTest(range, v);
        if (test == 0) return false;
        if (test == 1) continue;
      }
      if (index >= 0 &&
          !BatchSqlValue(mapping, state.batch, static_cast<size_t>(index), &cursor->format_buffer, &value)) {
        continue;  // xColumn will report the error: keep the row
      }
    }
    if (!RowMatches(filter, value)) return false;
  }
  if (!cursor->rowid_filters.empty()) {
    const SqlValue rowid = SqlValue::Integer(RowsBeforeFile(cursor, table) + RowInFile(cursor));
    for (size_t i : cursor->rowid_filters) {
      if (!RowMatches(cursor->filters[i], rowid)) return false;
    }
  }
  if (!cursor->file_row_filters.empty()) {
    const SqlValue row = SqlValue::Integer(RowInFile(cursor));
    for (size_t i : cursor->file_row_filters) {
      if (!RowMatches(cursor->filters[i], row)) return false;
    }
  }
  return true;
}

// With a single row filter that has an integer range (IntegerRange) on a batch without
// nulls: passes over the rows of the current batch and range of rows that the range
// rejects, in one loop over the stored values. True when it moved the cursor to the end
// of the batch or range (the caller goes on from there), false when the cursor's row is to
// be tested as usual.
bool SkipRejectedRows(ParquetCursor* cursor, const ParquetTable& table) {
  if (cursor->row_filters.size() != 1 || !cursor->row_filter_ranges[0].active || !cursor->rowid_filters.empty() ||
      !cursor->file_row_filters.empty()) {
    return false;
  }
  const IntegerRange& range = cursor->row_filter_ranges[0];
  const ColumnFilter& filter = cursor->filters[cursor->row_filters[0]];
  const ColumnMapping& mapping = cursor->mappings[static_cast<size_t>(filter.column)];
  ColumnState& state = cursor->states[static_cast<size_t>(filter.column)];
  PositionColumn(cursor, table, mapping.leaf_column, &state);
  if (!state.dense) return false;
  const int64_t first = cursor->row;
  const int64_t end = std::min(state.batch_end, cursor->ranges.range(cursor->range_index).end);
  const size_t base = static_cast<size_t>(first - state.batch_first_row);
  const size_t n = static_cast<size_t>(end - first);
  size_t i = 0;
  if (range.is64) {
    const int64_t* v = state.batch.values<int64_t>() + base;
    while (i < n && RangeTest(range, v[i]) == 0) i++;
  } else {
    const int32_t* v = state.batch.values<int32_t>() + base;
    while (i < n && RangeTest(range, v[i]) == 0) i++;
  }
  if (i == 0) return false;
  cursor->row = first + static_cast<int64_t>(i);
  cursor->stats.rows_decoded += static_cast<int64_t>(i);
  cursor->rows_since_probe += static_cast<int64_t>(i);
  if (cursor->rows_since_probe >= kRowsPerInterruptProbe) CheckInterrupt(cursor, table);
  return i == n;
}

// From the cursor's position (possibly past its row group), moves to the first row that
// passes every filter, or to EOF. The loop returns to SQLite only with a
// row, so a selective filter may scan many row groups in one call: CheckInterrupt keeps
// it interruptible.
void Advance(ParquetCursor* cursor, const ParquetTable& table) {
  cursor->fast_next_end = 0;
  while (true) {
    if (cursor->limit_remaining == 0) {
      cursor->eof = true;
      break;
    }
    if (cursor->group_entered && cursor->row < cursor->row_end) {
      // Past the current range of rows that may match: on to the next one.
      while (cursor->row >= cursor->ranges.range(cursor->range_index).end) cursor->range_index++;
      cursor->row = std::max(cursor->row, cursor->ranges.range(cursor->range_index).begin);
    }
    if (!cursor->group_entered || cursor->row >= cursor->row_end) {
      SettleOnRow(cursor, table);
      if (cursor->eof) break;
    }
    if (SkipRejectedRows(cursor, table)) continue;
    cursor->stats.rows_decoded++;
    if (++cursor->rows_since_probe >= kRowsPerInterruptProbe) CheckInterrupt(cursor, table);
    if (!RowPasses(cursor, table)) {
      cursor->row++;
      continue;
    }
    cursor->stats.rows_returned++;
    if (cursor->limit_remaining > 0) cursor->limit_remaining--;
    if (cursor->limit_remaining < 0 && cursor->row_filters.empty() && cursor->rowid_filters.empty() &&
        cursor->file_row_filters.empty()) {
      cursor->fast_next_end = std::min(cursor->ranges.range(cursor->range_index).end,
                                       cursor->row + (kRowsPerInterruptProbe - cursor->rows_since_probe));
    }
    return;
  }
  FinishScan(cursor);
}

// The value class a filter on `column` compares in.
ValueClass ClassOfColumn(const ParquetTable& table, int column) {
  if (column < 0) return ValueClass::kNumeric;
  return table.pushdown[static_cast<size_t>(column)].value_class;
}

// Sets up the join index for the scan xFilter starts (*stats: the new scan's): which filter
// it answers and the rows it names. A kept index (files unchanged) is used from the first
// lookup. Otherwise one is built at the first lookup of a column whose lookups statistics
// cannot prune (ColumnPushdown::unprunable: that lookup would decode a quarter of the rows
// or more, and building costs less than such a scan), else once this statement's lookups of
// the column have decoded a quarter of the table's rows without one (a sorted column's
// lookups decode a page each): building reads the column once, so lookups never cost much
// more than with the index from the start.
void ChooseJoinIndex(ParquetCursor* cursor, const ParquetTable& table, ScanStats* stats) {
  const int previous_lookup = cursor->unindexed_lookup_column;
  cursor->unindexed_lookup_column = -1;
  cursor->indexed_filter = -1;
  cursor->indexed_positions.clear();
  for (size_t i = 0; i < cursor->filters.size(); i++) {
    const ColumnFilter& filter = cursor->filters[i];
    if (!filter.active || !JoinIndexApplies(table, filter.column, filter.op)) continue;
    if (filter.op == ConstraintOp::kIs && filter.values[0].is_null()) continue;
    const size_t column = static_cast<size_t>(filter.column);
    if (cursor->lookup_state.empty()) {
      cursor->lookup_rows.assign(table.file_columns.size(), 0);
      cursor->lookup_state.assign(table.file_columns.size(), 0);
      cursor->join_indexes.resize(table.file_columns.size());
    }
    std::shared_ptr<JoinIndex>& index = cursor->join_indexes[column];
    if (!index) {
      // cursor->stats are still the previous scan's.
      if (previous_lookup == filter.column) cursor->lookup_rows[column] += cursor->stats.rows_decoded;
      const bool asked = cursor->lookup_state[column] & 1, refused = cursor->lookup_state[column] & 2;
      const bool may_build = !refused && (asked ? cursor->lookup_rows[column] * 4 >= table.estimated_rows
                                                : table.pushdown[column].unprunable);
      // (The first lookup asks only when the table keeps an index of the column: asking
      // checks every file's size and time.)
      if ((!asked && table.join_indexes.Has(filter.column)) || may_build) {
        JoinIndexSource source;
        source.files = &table.files;
        source.decryption = table.options.decryption.get();
        source.verify_crc = table.options.verify_crc;
        source.open_file = cursor->file.get();
        source.open_index = cursor->file_index;
        source.mapping_of = [&table, column](const parquet::ParquetFileReader& file, size_t f) {
          return MapFileColumns(table, file, table.files[f])[column];
        };
        source.check_interrupt = [cursor, &table] { CheckInterrupt(cursor, table); };
        source.rows_per_interrupt_check = kRowsPerInterruptProbe;
        bool built = false;
        index = table.join_indexes.Get(filter.column, source, static_cast<uint64_t>(table.options.join_index_memory),
                                       may_build, &built);
        stats->join_index_built = built ? 1 : 0;
      }
      cursor->lookup_state[column] |= may_build && !index ? 3 : 1;
    }
    if (!index) {
      cursor->unindexed_lookup_column = filter.column;
      continue;
    }
    for (const SqlValue& value : filter.values) index->Lookup(value, &cursor->indexed_positions);
    if (filter.values.size() > 1) {
      std::sort(cursor->indexed_positions.begin(), cursor->indexed_positions.end());
      cursor->indexed_positions.erase(
          std::unique(cursor->indexed_positions.begin(), cursor->indexed_positions.end()),
          cursor->indexed_positions.end());
    }
    cursor->indexed_filter = static_cast<int>(i);
    stats->join_index_bytes = static_cast<int64_t>(index->bytes());
    stats->join_index_hits = index->hits();
    return;
  }
}

}  // namespace

namespace vtab {

int Filter(sqlite3_vtab_cursor* base, int idx_num, const char* idx_str, int argc, sqlite3_value** argv) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  const ParquetTable& table = *TableOf(base);
  cursor->remote = parquet::IsRemoteUrl(table.options.filename);
  TransferInterruptScope interruptible(cursor, table);
  try {
    FinishScan(cursor);
    cursor->eof = true;
    cursor->fast_next_end = 0;
    cursor->columns_used = cursor->remote ? table.columns_used_handles.ColumnsUsedOf(idx_num) : 0;
    std::vector<PlanTerm> terms;
    if (!DecodePlan(idx_str, table.column_names, &terms)) {
      SetVtabError(base->pVtab, std::string("parquet: malformed scan plan '") + (idx_str ? idx_str : "") + "'");
      return SQLITE_ERROR;
    }
    cursor->filters.clear();
    cursor->rowid_filters.clear();
    cursor->file_row_filters.clear();
    cursor->file_filters.clear();
    cursor->limit_remaining = -1;
    int64_t limit = -1, offset = 0;
    int next_arg = 0;
    for (const PlanTerm& term : terms) {
      sqlite3_value* arg = nullptr;
      if (TermHasArgument(term.op)) {
        if (next_arg >= argc) {
          SetVtabError(base->pVtab, "parquet: scan plan and arguments disagree");
          return SQLITE_ERROR;
        }
        arg = argv[next_arg++];
      }
      if (term.op == ConstraintOp::kLimit) {
        limit = sqlite3_value_int64(arg);
        continue;
      }
      if (term.op == ConstraintOp::kOffset) {
        offset = std::max<int64_t>(0, sqlite3_value_int64(arg));
        continue;
      }
      cursor->filters.push_back(
          MakeColumnFilter(table.numeric_affinity.get(), term, arg, ClassOfColumn(table, term.column)));
    }
    // SQLite skips the OFFSET rows itself: return up to LIMIT + OFFSET rows.
    if (limit >= 0) cursor->limit_remaining = limit > INT64_MAX - offset ? INT64_MAX : limit + offset;
    cursor->rowid_lo = cursor->file_row_lo = INT64_MIN;
    cursor->rowid_hi = cursor->file_row_hi = INT64_MAX;
    for (size_t i = 0; i < cursor->filters.size(); i++) {
      const ColumnFilter& filter = cursor->filters[i];
      if (!filter.active) continue;
      if (filter.column == kRowidColumn) {
        cursor->rowid_filters.push_back(i);
        NarrowIntegerRange(filter, &cursor->rowid_lo, &cursor->rowid_hi);
      } else if (filter.column == table.file_row_number_column()) {
        cursor->file_row_filters.push_back(i);
        NarrowIntegerRange(filter, &cursor->file_row_lo, &cursor->file_row_hi);
      } else if (filter.column >= table.hive_column()) {
        cursor->file_filters.push_back(i);
      }
    }
    ScanStats stats;
    ChooseJoinIndex(cursor, table, &stats);
    cursor->stats = stats;
    cursor->stats.files_total = static_cast<int64_t>(table.files.size());
    cursor->stats_pending = true;
    cursor->rows_before_file = 0;
    bool reuse = cursor->file && cursor->file_index == 0;
    for (size_t i : cursor->file_filters) {
      reuse = reuse && RowMatches(cursor->filters[i], FileConstant(table, cursor->filters[i].column, 0));
    }
    if (reuse) {
      // Still the first file: keep its footer and readers.
      cursor->row_group = 0;
      cursor->group_entered = false;
      cursor->row = 0;
      for (ColumnState& state : cursor->states) {
        if (state.reader_end > 0) {
          state.resume = true;
        } else {
          state.row_group = -1;  // where its reader stands is not known: start over
        }
      }
      ForgetBatches(cursor);
      SetUpFileFilters(cursor, table);
    } else {
      CollectReaderCounters(cursor);
      for (ColumnState& state : cursor->states) state = ColumnState();
      cursor->pruner.reset();
      if (cursor->batch_cache) cursor->batch_cache->ForgetReaders();
      KeepCurrentFile(cursor);
      if (!OpenNextFile(cursor, table, 0)) {
        FinishScan(cursor);
        return SQLITE_OK;
      }
    }
    Advance(cursor, table);
    return SQLITE_OK;
  } catch (...) {
    return CursorCallbackError(base->pVtab, &cursor->eof);
  }
}


int Next(sqlite3_vtab_cursor* base) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  // The common case of a scan: the next row lies in the current range of the row group and
  // nothing is tested per row (no row filters, no LIMIT, no interrupt check due: Advance
  // worked out up to where). The columns are positioned lazily by xColumn.
  const int64_t row = ++cursor->row;
  if (row < cursor->fast_next_end) {
    cursor->rows_since_probe++;
    cursor->stats.rows_decoded++;
    cursor->stats.rows_returned++;
    return SQLITE_OK;
  }
  try {
    TransferInterruptScope interruptible(cursor, *TableOf(base));
    Advance(cursor, *TableOf(base));
    return SQLITE_OK;
  } catch (...) {
    return CursorCallbackError(base->pVtab, &cursor->eof);
  }
}


int Eof(sqlite3_vtab_cursor* base) { return reinterpret_cast<ParquetCursor*>(base)->eof ? 1 : 0; }


int Rowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  try {
    *rowid = RowsBeforeFile(cursor, *TableOf(base)) + RowInFile(cursor);
    return SQLITE_OK;
  } catch (...) {
    return CursorCallbackError(base->pVtab, nullptr);
  }
}

}  // namespace vtab

namespace {

[[noreturn, gnu::cold, gnu::noinline]] void ThrowShortColumn(const ParquetCursor* cursor, int leaf) {
  throw parquet::ParquetError(cursor->file->Describe(cursor->row_group, leaf) +
                              ": column has fewer values than the row group's " +
                              std::to_string(cursor->rows_in_group) + " rows");
}

// How xColumn can serve the cells of a batch without nulls of a column mapped by `mapping`.
DirectCell DirectCellOf(const ColumnMapping& mapping, const parquet::ColumnBatch& batch) {
  switch (mapping.kind) {
    case ValueKind::kInt32: return DirectCell::kInt32;
    case ValueKind::kInt64: return DirectCell::kInt64;
    case ValueKind::kDouble: return DirectCell::kDouble;
    case ValueKind::kText: return batch.text_terminated ? DirectCell::kTerminatedText : DirectCell::kText;
    case ValueKind::kDate:
      return mapping.timestamp_form == TimestampForm::kText ? DirectCell::kDateText : DirectCell::kNone;
    default: return DirectCell::kNone;
  }
}

// Makes `state`'s freshly filled batch the slots from `row` on.
void StartBatch(ParquetCursor* cursor, ColumnState* state, int64_t row) {
  state->batch_first_row = row;
  state->batch_end = row + static_cast<int64_t>(state->batch.num_levels);
  state->slot = 0;
  state->value = 0;
  state->dense = state->max_def == 0 || state->batch.num_values == state->batch.num_levels;
  const ColumnMapping& mapping = cursor->mappings[static_cast<size_t>(state - cursor->states.data())];
  state->direct = state->dense ? DirectCellOf(mapping, state->batch) : DirectCell::kNone;
  state->direct_values = state->batch.values<uint8_t>();
}

// LoadBatch in a scan whose rows a join index named (lookup_batch_cache.h): the slots from
// the cursor's row to the end of its range, copied from the batch the cursor keeps.
[[gnu::noinline]] void LoadKeptBatch(ParquetCursor* cursor, const ParquetTable& table, int leaf, ColumnState* state) {
  if (!cursor->batch_cache) {
    cursor->batch_cache =
        std::make_unique<LookupBatchCache>(static_cast<uint64_t>(table.options.join_index_memory));
  }
  parquet::ColumnReaderOptions options;
  options.verify_crc = table.options.verify_crc;
  options.memory_budget = cursor->memory_budget;
  const int64_t row = cursor->row;
  size_t slots = kBatchSlots;
  if (cursor->range_index < cursor->ranges.num_ranges() && cursor->ranges.range(cursor->range_index).end > row) {
    slots = static_cast<size_t>(std::min<int64_t>(kBatchSlots, cursor->ranges.range(cursor->range_index).end - row));
  }
  cursor->batch_cache->Copy(*cursor->file, cursor->file_index, cursor->row_group, leaf, row, slots, options,
                            &state->batch);
  state->row_group = cursor->row_group;
  state->max_def = cursor->file->schema().column(leaf).max_definition_level;
  StartBatch(cursor, state, row);
  state->batch_from_reader = false;
  state->reader_end = 0;
}

// The slow part of PositionColumn: (re)opens the column's reader on the cursor's row group
// and decodes the batch holding the cursor's row, skipping the rows before it undecoded.
[[gnu::noinline]] void LoadBatch(ParquetCursor* cursor, const ParquetTable& table, int leaf, ColumnState* state) {
  if (cursor->indexed_filter >= 0 && LookupBatchCache::Cacheable(cursor->file->schema().column(leaf).physical_type)) {
    LoadKeptBatch(cursor, table, leaf, state);
    return;
  }
  if (state->resume) {
    // The reader and batch an earlier scan of this file left (Filter): a row before that
    // batch starts the row group over; one in the same row group goes on from the batch.
    state->resume = false;
    if (cursor->row < state->reader_first) {
      state->row_group = -1;
    } else if (state->row_group == cursor->row_group) {
      StartBatch(cursor, state, state->reader_first);
    }
  }
  if (state->row_group != cursor->row_group) {
    state->reader_end = 0;
    if (AddPrefetchLeaf(cursor, leaf)) PrefetchRowGroup(*cursor->file, cursor->row_group, {leaf}, cursor->ranges);
    if (!state->reader) {
      parquet::ColumnReaderOptions options;
      options.verify_crc = table.options.verify_crc;
      options.memory_budget = cursor->memory_budget;
      options.decompress_ahead = cursor->decompress_ahead;
      state->reader = parquet::ColumnChunkReader::Make(*cursor->file, cursor->row_group, leaf, options);
    } else {
      state->reader->Reset(cursor->row_group);
    }
    state->row_group = cursor->row_group;
    state->max_def = state->reader->descriptor().max_definition_level;
    state->batch.num_levels = 0;
    state->batch.num_values = 0;
    state->batch_first_row = 0;
    state->batch_end = 0;
  }
  const int64_t row = cursor->row;
  if (row < state->batch_end) return;
  state->reader_end = 0;  // the reader moves (set again once the batch is read)
  if (row > state->batch_end) {
    const size_t gap = static_cast<size_t>(row - state->batch_end);
    if (state->reader->Skip(gap) != gap) ThrowShortColumn(cursor, leaf);
  }
  if (state->reader->ReadBatch(kBatchSlots, &state->batch) == 0) ThrowShortColumn(cursor, leaf);
  StartBatch(cursor, state, row);
  state->batch_from_reader = true;
  state->reader_first = row;
  state->reader_end = state->batch_end;
}

// Before xColumn serves the first text cell of a batch: a batch the column's reader read
// from PLAIN or DELTA_LENGTH_BYTE_ARRAY pages is NUL-terminated by the reader (one copy per
// batch; TerminateText), so that its cells go to SQLite as C strings, which SQLite does
// not re-allocate to terminate. Only batches xColumn serves pay for the copy: row filters
// and join-index builds read values where the page holds them. A batch that stays
// unterminated (a value holds a NUL, long values, no memory) is served through ResultText.
[[gnu::noinline]] void TerminateServedText(ColumnState* state) {
  if (state->batch_from_reader && state->reader) {
    state->batch_from_reader = false;
    try {
      state->reader->TerminateText(&state->batch);
    } catch (...) {
      // Only a saving: the cells are copied one by one instead.
    }
  }
  if (state->direct == DirectCell::kText) {
    state->direct = state->batch.text_terminated ? DirectCell::kTerminatedText : DirectCell::kCopiedText;
  }
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

// Assembles the cursor's current row of a nested field into state->json (unless it is
// there already); sets state->json_is_null for a null value.
void PositionNestedColumn(ParquetCursor* cursor, const ParquetTable& table, int field, ColumnState* state) {
  if (!state->assembler) {
    parquet::ColumnReaderOptions options;
    options.verify_crc = table.options.verify_crc;
    options.memory_budget = cursor->memory_budget;
    state->assembler = std::make_unique<parquet::RecordAssembler>(*cursor->file, field, options, kBatchSlots);
    state->renderer = std::make_unique<NestedJsonRenderer>(cursor->file->schema(), state->assembler->shape(),
                                                           table.options.mapping);
  }
  if (state->row_group == cursor->row_group && state->json_row == cursor->row) return;
  if (state->row_group != cursor->row_group || cursor->row < state->assembler->next_row()) {
    state->assembler->Reset(cursor->row_group);
    state->row_group = cursor->row_group;
  }
  state->json_row = -1;
  try {
    state->assembler->SkipRows(cursor->row - state->assembler->next_row());
    state->assembler->ReadRow();
    state->json_is_null = !state->renderer->Render(*state->assembler, &state->json);
  } catch (...) {
    state->row_group = -1;  // start afresh next time
    throw;
  }
  state->json_row = cursor->row;
}

int NestedColumn(ParquetCursor* cursor, ParquetTable* table, sqlite3_context* ctx, const ColumnMapping& mapping,
                 ColumnState* state) {
  PositionNestedColumn(cursor, *table, mapping.nested_field, state);
  if (state->json_is_null) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  const int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
  if (state->json.size() > static_cast<size_t>(limit)) {
    const parquet::Schema& schema = cursor->file->schema();
    std::string message = "the value of nested column '" +
                          schema.node(schema.top_level_fields()[static_cast<size_t>(mapping.nested_field)]).name +
                          "' in row " + std::to_string(RowInFile(cursor)) + " of " +
                          parquet::PathForDisplay(table->files[cursor->file_index]) +
                          " is " + std::to_string(state->json.size()) +
                          " bytes of JSON, more than SQLite's maximum length of " + std::to_string(limit) +
                          " bytes (SQLITE_MAX_LENGTH)";
    SetVtabError(cursor->base.pVtab, message);
    sqlite3_result_error(ctx, message.c_str(), -1);
    return SQLITE_ERROR;
  }
  sqlite3_result_text64(ctx, state->json.data(), state->json.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  sqlite3_result_subtype(ctx, kJsonSubtype);
  return SQLITE_OK;
}

// xColumn for the hidden columns and the hive partition keys.
[[gnu::noinline]] int FileConstantColumn(ParquetCursor* cursor, const ParquetTable* table, sqlite3_context* ctx,
                                         int column) {
  if (column == table->file_row_number_column()) {
    sqlite3_result_int64(ctx, RowInFile(cursor));
  } else {
    ResultSqlValue(ctx, FileConstant(*table, column, cursor->file_index));
  }
  return SQLITE_OK;
}

// xColumn's error path: the message goes to the table and to the result.
// Out of line, so that xColumn's fast path stays small.
[[gnu::noinline, gnu::cold]] int ColumnError(sqlite3_vtab_cursor* base, sqlite3_context* ctx) {
  return ColumnCallbackError(base->pVtab, ctx);
}

// xColumn for a column whose value is not a plain leaf value: nested JSON, or always NULL.
[[gnu::noinline]] int OtherColumn(ParquetCursor* cursor, ParquetTable* table, sqlite3_context* ctx,
                                  const ColumnMapping& mapping, ColumnState* state) {
  if (mapping.kind != ValueKind::kNested) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  TransferInterruptScope interruptible(cursor, *table);  // the only paths that can fetch: here and LoadAndResultCell
  try {
    return NestedColumn(cursor, table, ctx, mapping, state);
  } catch (...) {
    return ColumnError(&cursor->base, ctx);
  }
}

// ResultCell for a batch with nulls: counts definition levels from the previous position
// (each slot once per batch).
[[gnu::noinline]] int ResultSparseCell(ParquetCursor* cursor, sqlite3_context* ctx, const ColumnMapping& mapping,
                                       ColumnState* state) {
  const size_t slot = static_cast<size_t>(cursor->row - state->batch_first_row);
  if (!MoveToSlot(state, slot)) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  return ResultBatchValue(ctx, mapping, state->batch, state->value, &cursor->format_buffer);
}

// Sets the result to the value of `state`'s column in the cursor's row, which lies in the
// loaded batch.
inline int ResultCell(ParquetCursor* cursor, sqlite3_context* ctx, const ColumnMapping& mapping, ColumnState* state) {
  if (mapping.kind == ValueKind::kText && state->batch_from_reader) TerminateServedText(state);
  if (!state->dense) return ResultSparseCell(cursor, ctx, mapping, state);
  const size_t index = static_cast<size_t>(cursor->row - state->batch_first_row);
  return ResultBatchValue(ctx, mapping, state->batch, index, &cursor->format_buffer);
}

// xColumn when the column's batch does not hold the cursor's row: decode it first.
[[gnu::noinline]] int LoadAndResultCell(ParquetCursor* cursor, sqlite3_context* ctx, const ColumnMapping& mapping,
                                        ColumnState* state) {
  TransferInterruptScope interruptible(cursor, *TableOf(&cursor->base));
  try {
    LoadBatch(cursor, *TableOf(&cursor->base), mapping.leaf_column, state);
  } catch (...) {
    return ColumnError(&cursor->base, ctx);
  }
  return ResultCell(cursor, ctx, mapping, state);
}

// xColumn for every cell that Column does not serve directly (DirectCell).
[[gnu::noinline]] int IndirectColumn(ParquetCursor* cursor, sqlite3_context* ctx, int column) {
  sqlite3_vtab_cursor* base = &cursor->base;
  // One mapping per file column: past them come the partition keys and hidden columns.
  if (static_cast<size_t>(column) >= cursor->mappings.size()) [[unlikely]] {
    return FileConstantColumn(cursor, TableOf(base), ctx, column);
  }
  const ColumnMapping& mapping = cursor->mappings[static_cast<size_t>(column)];
  ColumnState* state = &cursor->states[static_cast<size_t>(column)];
  if (mapping.leaf_column < 0 || mapping.kind == ValueKind::kNull) [[unlikely]] {
    return OtherColumn(cursor, TableOf(base), ctx, mapping, state);
  }
  if (state->row_group != cursor->row_group || cursor->row >= state->batch_end) [[unlikely]] {
    return LoadAndResultCell(cursor, ctx, mapping, state);
  }
  return ResultCell(cursor, ctx, mapping, state);
}

// Column's cells that take two calls, out of line (tail calls), so that Column itself
// needs no stack frame of its own for them.
[[gnu::noinline]] int DirectText(sqlite3_context* ctx, const parquet::ByteArray& value) {
  ResultText(ctx, reinterpret_cast<const char*>(value.ptr), value.len);
  return SQLITE_OK;
}

// The first text cell xColumn serves from a batch: offers the batch to TerminateText
// (TerminateServedText), then serves the cell the way Column serves the batch's others.
[[gnu::noinline]] int FirstTextCell(sqlite3_context* ctx, ColumnState* state, size_t i) {
  TerminateServedText(state);
  const parquet::ByteArray& value = static_cast<const parquet::ByteArray*>(state->direct_values)[i];
  if (state->direct == DirectCell::kTerminatedText) {
    ResultTerminatedText(ctx, reinterpret_cast<const char*>(value.ptr));
    return SQLITE_OK;
  }
  return DirectText(ctx, value);
}

[[gnu::noinline]] int DirectDateText(ParquetCursor* cursor, sqlite3_context* ctx, int32_t days) {
  size_t length = 0;
  ResultTerminatedText(ctx, cursor->dates.Format(days, &length));
  return SQLITE_OK;
}

}  // namespace

namespace vtab {

// Called once per cell. The hot path: a plain leaf column whose decoded batch (without
// nulls) holds the row: two comparisons, an index and one sqlite3_result_* call on the value
// (DirectCell). Everything else is out of line (IndirectColumn). A column that is not a
// plain leaf never has its batch range set (batch_end stays 0), nor a DirectCell.
int Column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  if (static_cast<size_t>(column) < cursor->num_states) [[likely]] {
    const ColumnState& state = cursor->states[static_cast<size_t>(column)];
    const int64_t row = cursor->row;
    // A batch of another row group has an empty range (ForgetBatches).
    if (row < state.batch_end) [[likely]] {
      const size_t i = static_cast<size_t>(row - state.batch_first_row);
      switch (state.direct) {
        case DirectCell::kInt32:
          sqlite3_result_int64(ctx, static_cast<const int32_t*>(state.direct_values)[i]);
          return SQLITE_OK;
        case DirectCell::kInt64:
          sqlite3_result_int64(ctx, static_cast<const int64_t*>(state.direct_values)[i]);
          return SQLITE_OK;
        case DirectCell::kDouble:
          sqlite3_result_double(ctx, static_cast<const double*>(state.direct_values)[i]);
          return SQLITE_OK;
        case DirectCell::kTerminatedText:
          ResultTerminatedText(ctx, reinterpret_cast<const char*>(static_cast<const parquet::ByteArray*>(state.direct_values)[i].ptr));
          return SQLITE_OK;
        case DirectCell::kCopiedText:
          return DirectText(ctx, static_cast<const parquet::ByteArray*>(state.direct_values)[i]);
        case DirectCell::kText:
          return FirstTextCell(ctx, &cursor->states[static_cast<size_t>(column)], i);
        case DirectCell::kDateText: {
          const int32_t days = static_cast<const int32_t*>(state.direct_values)[i];
          if (const char* text = cursor->dates.Find(days)) [[likely]] {
            ResultTerminatedText(ctx, text);
            return SQLITE_OK;
          }
          return DirectDateText(cursor, ctx, days);
        }
        case DirectCell::kNone: break;
      }
    }
  }
  return IndirectColumn(cursor, ctx, column);
}



int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  try {
    ParquetTable* table = reinterpret_cast<ParquetTable*>(vtab);
    auto cursor = std::make_unique<ParquetCursor>();
    std::memset(&cursor->base, 0, sizeof(cursor->base));
    cursor->states.resize(table->file_columns.size());
    cursor->num_states = cursor->states.size();
    cursor->format_buffer.dates = &cursor->dates;
    cursor->memory_budget =
        std::make_shared<parquet::MemoryBudget>(static_cast<uint64_t>(table->options.max_memory), "max_memory");
    *out = &cursor.release()->base;
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

}  // namespace vtab

}  // namespace sqlite_parquet
