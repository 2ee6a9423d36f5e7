// The `parquet` table's cursor (table_cursor.h): xOpen/xClose, and the scan: xFilter turns
// the plan's arguments into filters, then the scan walks row groups (pruned by row
// position, statistics, bloom filters and the page index: EnterRowGroup) and rows (tested
// on the decoded filter columns first: late materialization), noticing interrupts and
// recording the scan's stats; xNext, xEof, xRowid. The files it opens are
// table_cursor_files.cc's, the cells it serves table_cursor_columns.cc's. How a scan works
// is in the manual (parquet_vtab.cc).
#include "ext/table/table_cursor.h"

#include <cstring>
#include <utility>
#include "ext/common/sqlite_values.h"
#include "ext/table/lake_table.h"
#include "ext/table/listing_pruning.h"
#include "ext/common/vtab_errors.h"
#include "format/common/error.h"
#include "format/io/remote_file.h"

namespace sqlite_parquet {

namespace {

// Empties the batch range of every column (batch_end 0) when the cursor moves to another
// row group or file, so that xColumn's fast path (Column) needs only `row < batch_end` to
// know that a column's batch holds the cursor's row; LoadBatch then (re)positions the reader.
void ForgetBatches(ParquetCursor* cursor) {
  for (ColumnState& state : cursor->states) state.batch_end = 0;
}

}  // namespace

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
    cursor->stats.http_read_ahead_peak =
        std::max(cursor->stats.http_read_ahead_peak, static_cast<int64_t>(now.read_ahead_peak));
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

namespace {

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
  // The statement's scan ends: its checks of the remote files' versions no longer hold, and
  // the next statement checks each file it opens once again (remote_file.h).
  const ParquetTable& table = *TableOf(base);
  if (table.options.remote && table.options.remote->statement_checks) table.options.remote->statement_checks->EndStatement();
  delete cursor;
  return SQLITE_OK;
}

}  // namespace vtab

namespace {

int64_t SaturatingSub(int64_t a, int64_t b) {
  if (b > 0 && a < INT64_MIN + b) return INT64_MIN;
  if (b < 0 && a > INT64_MAX + b) return INT64_MAX;
  return a - b;
}

}  // namespace

bool Interrupted(const ParquetTable& table) { return ConnectionInterrupted(table.db); }

void CheckInterrupt(ParquetCursor* cursor, const ParquetTable& table) {
  cursor->rows_since_probe = 0;
  if (Interrupted(table)) throw ScanInterrupted();
}

namespace {

// Queues the row groups after the cursor's for the remote file's read-ahead, the deeper the
// longer the streak, no further than a known LIMIT needs.
void ReadAhead(ParquetCursor* cursor) {
  cursor->ahead_start_row = -1;
  const int depth = std::min(kMaxReadAheadGroups, kFirstReadAheadGroups << std::min(cursor->ahead_streak - 1, 5));
  int64_t rows_wanted = -1;
  if (cursor->limit_remaining >= 0 && cursor->row_filters.empty() && cursor->rowid_filters.empty() &&
      cursor->file_row_filters.empty()) {
    rows_wanted = std::max<int64_t>(0, cursor->limit_remaining - (cursor->rows_in_group - cursor->row));
  }
  if (rows_wanted != 0) {
    ReadAheadRowGroups(*cursor->file, cursor->row_group, depth, cursor->prefetch_leaves, rows_wanted,
                       &cursor->ahead_through);
  }
}

// Checks the cursor's row group against the constraints: the rows it may return
// ([row, row_end)) by row position, then statistics and bloom filters. False
// when nothing in it can match.
bool EnterRowGroupChecked(ParquetCursor* cursor, const ParquetTable& table) {
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
  parquet::RowRanges candidates = cursor->indexed_filter >= 0
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
  cursor->ranges = cursor->pruner->MatchingRows(rg, std::move(candidates), &cursor->stats.pages_pruned_by_page_index);
  // Deleted rows never come back, whatever pruned what: they are physical positions.
  if (cursor->deleted) cursor->ranges = RemoveDeletedRows(cursor->ranges, *cursor->deleted, first, &cursor->stats.rows_deleted);
  if (cursor->ranges.empty()) {
    cursor->stats.row_groups_pruned_by_page_index++;
    return false;
  }
  cursor->range_index = 0;
  cursor->row = cursor->ranges.range(0).begin;
  cursor->row_end = cursor->ranges.last_end();
  cursor->group_entered = true;
  PrefetchRowGroup(file, rg, cursor->prefetch_leaves, cursor->ranges);
  // A remote scan that reads whole row groups one after another fetches the next ones
  // while it decodes this one, further ahead the longer it goes on (remote_prefetch.h).
  const bool whole = cursor->ranges.num_ranges() == 1 && cursor->ranges.range(0).begin == 0 &&
                     cursor->ranges.range(0).end >= cursor->rows_in_group;
  if (!whole || cursor->indexed_filter >= 0) {
    cursor->ahead_streak = 0;
  } else if (file.file().IsRemote()) {
    cursor->ahead_streak++;
    // Without a LIMIT the scan knows of (none, or one SQLite before 3.38 does not pass),
    // the first row group of a streak reads ahead from half-way: a LIMIT that ends inside
    // it fetches nothing ahead, on every SQLite.
    if (cursor->ahead_streak == 1 && cursor->limit_remaining < 0) {
      cursor->ahead_start_row = cursor->rows_in_group / 2;
    } else {
      ReadAhead(cursor);
    }
  }
  return true;
}

// Waits for the statement's check of the cursor's file when it is in flight (throws
// RemoteFileReplaced when the file was replaced), then notes its rows in the scan's files.
void ConfirmFile(ParquetCursor* cursor) {
  const parquet::ParquetFileReader& file = *cursor->file;
  if (!file.file().VersionPending()) return;
  file.file().ConfirmVersion();
  cursor->files->rows[cursor->file_index] = file.num_rows();
}

// EnterRowGroupChecked, keeping the read-ahead in step: the unclaimed bytes of the row
// groups passed over go, and a row group not entered whole ends the streak.
bool EnterRowGroup(ParquetCursor* cursor, const ParquetTable& table) {
  const parquet::ParquetFileReader& file = *cursor->file;
  const int rg = cursor->row_group;
  if (file.file().IsRemote()) {
    // A scan that starts over drops everything fetched ahead (and learns its pace again).
    if (rg <= cursor->ahead_last_entered) {
      file.file().DropAheadBefore(UINT64_MAX);
      cursor->ahead_through = -1;
      cursor->ahead_streak = 0;
    } else {
      file.file().DropAheadBefore(static_cast<uint64_t>(rg));
    }
    cursor->ahead_last_entered = rg;
    cursor->ahead_start_row = -1;
  }
  const bool entered = EnterRowGroupChecked(cursor, table);
  if (!entered) cursor->ahead_streak = 0;
  // The first row group entered of a file opened with its statement's check in flight
  // waits for that check here, after sending its own requests (the check and the pages are
  // one round trip), before any of its rows is returned (RemoteFileReplaced: SettleOnRow).
  if (entered) ConfirmFile(cursor);
  return entered;
}

// Enters a counted file (ParquetCursor::counted) as one row group: its rows are the
// metadata's record count less the deletion vector's cardinality, numbered as live rows
// until a row position is asked (CountedRowInFile); false when none is left.
bool EnterCountedFile(ParquetCursor* cursor, const ParquetTable& table) {
  const parquet::lake::LakeDataFile& file = cursor->files->lake->files[cursor->file_index];
  cursor->rows_in_group = cursor->counted_rows;
  int64_t live = cursor->counted_rows;
  cursor->counted_ordinals = false;
  if (file.deleted && file.deleted->claimed_count() > 0) {
    live -= file.deleted->claimed_count();
    cursor->stats.rows_deleted += file.deleted->claimed_count();
    cursor->counted_ordinals = true;
  }
  cursor->rows_since_probe += kProbeRowsPerRowGroup;
  if (cursor->rows_since_probe >= kRowsPerInterruptProbe) CheckInterrupt(cursor, table);
  if (live <= 0) return false;
  cursor->ranges = parquet::RowRanges::FromRanges({parquet::RowRange{0, live}});
  cursor->range_index = 0;
  cursor->row = 0;
  cursor->row_end = live;
  cursor->group_entered = true;
  return true;
}

// A join-index scan at the start of a row group passes over those before the next row the
// index names without entering them, counting each as EnterRowGroupChecked would (pruned
// by the join index), when nothing else bounds the rows (file row numbers, rowids). A
// lookup names a few rows among many row groups: entering each costs more than its rows.
void SkipToIndexedRowGroup(ParquetCursor* cursor) {
  const parquet::ParquetFileReader& file = *cursor->file;
  if (cursor->row != 0 || !cursor->rowid_filters.empty() || cursor->file_row_lo > 0 ||
      cursor->file_row_hi < file.num_rows()) {
    return;
  }
  const int target = NextIndexedRowGroup(*cursor, file.row_group_first_row(cursor->row_group));
  if (target <= cursor->row_group) return;
  const int skipped = target - cursor->row_group;
  cursor->stats.row_groups_total += skipped;
  cursor->stats.row_groups_pruned_by_join_index += skipped;
  cursor->row_group = target;
  ForgetBatches(cursor);
}

// Moves to the first row at or after (file, row_group, row) that exists in a row group the
// constraints keep, going on to the next files as needed.
// A file whose statement check was in flight is confirmed before its first row (EnterRowGroup)
// or before the scan leaves it having returned none; a file found replaced then is opened
// again and scanned from its start (ReopenReplacedFile).
void SettleOnRow(ParquetCursor* cursor, const ParquetTable& table) {
  while (cursor->file || cursor->counted) {
    try {
      const int row_groups = cursor->counted ? 1 : cursor->file->num_row_groups();
      while (cursor->row_group < row_groups) {
        if (cursor->group_entered && cursor->row < cursor->row_end) {
          cursor->eof = false;
          return;
        }
        if (!cursor->group_entered && !cursor->counted && cursor->indexed_filter >= 0) {
          SkipToIndexedRowGroup(cursor);
          if (cursor->row_group >= row_groups) break;
        }
        if (!cursor->group_entered &&
            (cursor->counted ? EnterCountedFile(cursor, table) : EnterRowGroup(cursor, table))) {
          continue;
        }
        cursor->row_group++;
        cursor->group_entered = false;
        cursor->row = 0;
        ForgetBatches(cursor);
      }
      if (!cursor->counted) ConfirmFile(cursor);
    } catch (const parquet::RemoteFileReplaced&) {
      ReopenReplacedFile(cursor, table);
      ForgetBatches(cursor);
      continue;
    }
    if (!OpenNextFile(cursor, table, cursor->file_index + 1)) break;
  }
  cursor->eof = true;
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
    } else if (mapping.constant) {
      value = mapping.constant->value();
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
    if (cursor->row >= cursor->ahead_start_row && cursor->ahead_start_row >= 0) ReadAhead(cursor);
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
      if (cursor->ahead_start_row > cursor->row) cursor->fast_next_end = std::min(cursor->fast_next_end, cursor->ahead_start_row);
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
    cursor->counted = false;  // (a counted file has no reader to keep for the next scan)
    cursor->counting = false;
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
    // The scan's files: a table planned without I/O lists them at its first scan, a
    // dataset with partition keys possibly only those its constraints leave
    // (listing_pruning.h). The same files as the previous scan keep its kept files.
    ParquetTable* mutable_table = TableOf(base);
    std::shared_ptr<const FileSet> files = ScanFiles(mutable_table, cursor->filters, !cursor->rowid_filters.empty());
    if (cursor->files && files != cursor->files && files->paths == cursor->files->paths) files = cursor->files;
    const bool same_files = files == cursor->files;
    cursor->files = std::move(files);
    cursor->validated_files.clear();  // by index in the scan's files
    if (table.metadata_store && !cursor->metadata_cache_checked) {
      // Once per statement (a cursor's life): what the name holds now, and what an earlier
      // statement's scan left unwritten (a LIMIT ends a scan before its end).
      cursor->metadata_cache_checked = true;
      std::string problem;
      if (table.metadata_store->Check(&problem) == SqliteMetadataStore::State::kInvalid) {
        SetVtabError(base->pVtab, "parquet table " + table.name + ": " + problem);
        return SQLITE_ERROR;
      }
      table.metadata_store->Flush();
    }
    ScanStats stats;
    ChooseJoinIndex(cursor, table, &stats);
    cursor->counting = CountsFiles(*cursor, table, table.columns_used_handles.ColumnsUsedOf(idx_num));
    cursor->stats = stats;
    cursor->stats.files_total = static_cast<int64_t>(cursor->files->paths.size());
    cursor->group_state.clear();
    if (cursor->files->lake) cursor->stats.manifests_total = static_cast<int64_t>(cursor->files->lake->file_groups.size());
    cursor->stats.list_requests = static_cast<int64_t>(mutable_table->unreported_listing.requests);
    cursor->stats.objects_listed = static_cast<int64_t>(mutable_table->unreported_listing.entries);
    cursor->stats.listing_fallbacks = static_cast<int64_t>(mutable_table->unreported_listing.fallbacks);
    mutable_table->unreported_listing = ListingCounts();
    cursor->stats_pending = true;
    cursor->rows_before_file = cursor->files == table.files ? 0 : -1;
    bool reuse = same_files && cursor->file && cursor->file_index == 0;
    for (size_t i : cursor->file_filters) {
      reuse = reuse && RowMatches(cursor->filters[i], FileConstant(table, *cursor->files, cursor->filters[i].column, 0));
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
      if (!same_files) {
        // Kept files and batches are known by their index in the previous files.
        cursor->kept_files.Clear();
        cursor->batch_cache.reset();
      }
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
