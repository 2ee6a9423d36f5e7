// The files of a `parquet` table's scan (table_cursor.h): which files the constraints on
// partition keys, filename and rowid leave in it (OpenNextFile), opening them or taking
// them from the cursor's kept files, the filters a file tests per row and its row-group
// pruner (SetUpFileFilters), the rows the join index names (ChooseJoinIndex, IndexedRows),
// and the rows before a file (RowsBeforeFile, for rowids).
#include "ext/table/table_cursor.h"

#include <algorithm>

#include "ext/common/sql_value.h"
#include "ext/table/lake_table.h"
#include "format/common/error.h"
#include "format/common/threads.h"
#include "format/values/logical_values.h"

namespace sqlite_parquet {

namespace {

// The day numbers of the years 0000..9999, whose DATE text is "YYYY-MM-DD" (IntegerRangeOf).
constexpr int32_t kFirstFourDigitYearDay = -719528;  // 0000-01-01
constexpr int32_t kLastFourDigitYearDay = 2932896;   // 9999-12-31

}  // namespace

// Rows of the files before the current one, in the table's whole listing (counted from
// their footers when a scan skipped them unopened). A scan of a narrowed listing has its
// file's place in the whole listing found first (only xRowid asks: constraints on the rowid
// make the scan read the whole listing).
int64_t RowsBeforeFile(ParquetCursor* cursor, const ParquetTable& table) {
  if (cursor->rows_before_file >= 0) return cursor->rows_before_file;
  size_t position = cursor->file_index;
  if (cursor->files != table.files) {
    ListTableFiles(TableOf(&cursor->base));
    const std::vector<std::string>& paths = table.files->paths;
    position = static_cast<size_t>(
        std::lower_bound(paths.begin(), paths.end(), cursor->files->paths[cursor->file_index]) - paths.begin());
  }
  const FileSet& whole = *table.files;
  int64_t rows = 0;
  for (size_t f = 0; f < position; f++) {
    if (whole.rows[f] < 0) {
      whole.rows[f] = parquet::ParquetFileReader::OpenWithStore(whole.paths[f], table.options.decryption.get(),
                                                                table.options.remote.get(), table.metadata_store.get())
                          ->num_rows();
      cursor->stats.files_opened++;
    }
    rows += whole.rows[f];
  }
  cursor->rows_before_file = rows;
  return rows;
}

// The value of partition key or filename column `column` for file `index` of `files`.
SqlValue FileConstant(const ParquetTable& table, const FileSet& files, int column, size_t index) {
  if (column == table.filename_column()) return SqlValue::Text(files.paths[index]);
  const size_t key = static_cast<size_t>(column - table.hive_column());
  return HiveSqlValue(table.hive_keys[key], files.hive_values[index][key]);
}

namespace {

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

}  // namespace

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
    if (mapping.constant) {
      // The same value in every row of the file (a lake column's default): a filter it
      // passes is dropped, one it fails rejects every row (tested per row, never pruned by
      // the file's statistics, which know nothing of the column).
      if (RowMatches(filter, mapping.constant->value())) continue;
      cursor->row_filters.push_back(i);
      cursor->row_filter_ranges.push_back(IntegerRange());
      continue;
    }
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

namespace {

// Remote files opened ahead in one parallel round (ValidateRemoteFiles): the opening requests
// of the next files a scan of a table with a metadata cache opens.
constexpr size_t kValidatedAhead = 64;

bool HasIndexedRowsIn(const ParquetCursor& cursor, size_t index, int64_t begin, int64_t end);

// Why a file is left out of a scan before opening it (FileMayBeScanned).
enum class FileSkip : uint8_t { kNone, kPartition, kLakeStatistics, kOther };

// Whether the constraints on partition keys and filename, a lake table's statistics of
// the file and the join index's rows leave file `index` of the scan's files in it (row
// positions aside); *why says what left it out.
bool FileMayBeScanned(const ParquetCursor& cursor, const ParquetTable& table, size_t index, FileSkip* why = nullptr) {
  FileSkip ignored;
  if (why == nullptr) why = &ignored;
  *why = FileSkip::kNone;
  for (size_t i : cursor.file_filters) {
    const ColumnFilter& filter = cursor.filters[i];
    if (!RowMatches(filter, FileConstant(table, *cursor.files, filter.column, index))) {
      *why = filter.column == table.filename_column() ? FileSkip::kOther : FileSkip::kPartition;
      return false;
    }
  }
  if (cursor.files->lake) {
    for (const ColumnFilter& filter : cursor.filters) {
      if (!LakeStatisticsMayMatch(table, *cursor.files, index, filter)) {
        *why = FileSkip::kLakeStatistics;
        return false;
      }
    }
  }
  if (cursor.indexed_filter >= 0 && !HasIndexedRowsIn(cursor, index, 0, INT64_MAX)) {
    *why = FileSkip::kOther;
    return false;
  }
  return true;
}

// Whether the group of file `index` of a lake table (its Iceberg manifest) may hold a row
// the scan's constraints leave, by the group's summary: decided once per group and scan
// (the decision counted in manifests_pruned).
bool GroupMayBeScanned(ParquetCursor* cursor, const ParquetTable& table, size_t index) {
  const FileSet& files = *cursor->files;
  if (!files.lake || cursor->filters.empty()) return true;
  const int32_t group = files.lake->files[index].group;
  if (group < 0 || static_cast<size_t>(group) >= files.lake->file_groups.size()) return true;
  if (cursor->group_state.size() != files.lake->file_groups.size()) {
    cursor->group_state.assign(files.lake->file_groups.size(), 0);
  }
  int8_t& state = cursor->group_state[static_cast<size_t>(group)];
  if (state == 0) {
    state = LakeGroupMayMatch(table, files, group, cursor->filters) ? 1 : 2;
    if (state == 2) cursor->stats.manifests_pruned++;
  }
  return state == 1;
}

// Remote file `index` of the scan of a table whose metadata cache is ready, its opening
// request made: taken from the files opened ahead, else opened with the next files the scan
// may open (up to kValidatedAhead, kParallelRequests at a time), so that a scan of many
// cached objects waits for one round trip per kParallelRequests of them.
parquet::ValidatedRemoteFile TakeValidatedFile(ParquetCursor* cursor, const ParquetTable& table, size_t index) {
  const FileSet& files = *cursor->files;
  if (cursor->validated_files.find(index) == cursor->validated_files.end()) {
    cursor->validated_files.clear();
    std::vector<size_t> indexes{index};
    for (size_t f = index + 1; f < files.paths.size() && indexes.size() < kValidatedAhead && cursor->rowid_filters.empty();
         f++) {
      if (FileMayBeScanned(*cursor, table, f)) indexes.push_back(f);
    }
    std::vector<std::string> urls;
    for (size_t f : indexes) urls.push_back(files.paths[f]);
    std::vector<parquet::ValidatedRemoteFile> validated =
        parquet::ValidateRemoteFiles(urls, table.options.remote.get(), table.metadata_store.get());
    for (size_t i = 0; i < indexes.size(); i++) cursor->validated_files[indexes[i]] = std::move(validated[i]);
  }
  auto it = cursor->validated_files.find(index);
  parquet::ValidatedRemoteFile file = std::move(it->second);
  cursor->validated_files.erase(it);
  return file;
}

// Opens file `index` of the table (its footer read). When that fails while the cursor keeps
// files, they are closed and the opening is tried once more: each kept file holds a file
// descriptor, and the process may have run out of them. With `overlap_check`, a remote file
// whose footer is cached (and no metadata cache) starts its statement's check in the
// background (RemoteOptions::overlap_statement_check): the scan confirms it when it enters
// a row group or leaves the file (SettleOnRow), and reopens the file if it was replaced.
std::unique_ptr<parquet::ParquetFileReader> OpenTableFile(ParquetCursor* cursor, const ParquetTable& table,
                                                          size_t index, bool overlap_check) {
  SqliteMetadataStore* store = table.metadata_store.get();
  const std::string& path = cursor->files->paths[index];
  const parquet::RemoteOptions* remote = table.options.remote.get();
  parquet::RemoteOptions overlapped;
  if (overlap_check && remote != nullptr && store == nullptr && parquet::IsRemoteUrl(path)) {
    overlapped = *remote;
    overlapped.overlap_statement_check = true;
    remote = &overlapped;
  }
  auto open = [&] {
    std::unique_ptr<parquet::RandomAccessFile> validated;
    if (store != nullptr && store->ready() && parquet::IsRemoteUrl(path)) {
      validated = parquet::FinishRemoteOpen(TakeValidatedFile(cursor, table, index));
    }
    return parquet::ParquetFileReader::OpenWithStore(path, table.options.decryption.get(), remote, store,
                                                     std::move(validated));
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
  // Without threads (the WebAssembly build) the scan decompresses each page itself.
  return parquet::kThreadsEnabled && table.options.decompress_ahead && !table.options.decryption && !cursor.file->file().IsRemote() &&
         cursor.file->file().Size() >= kDecompressAheadMinFileBytes && cursor.filters.empty() &&
         cursor.rowid_filters.empty() && cursor.limit_remaining < 0 && cursor.indexed_filter < 0;
}

// Puts the cursor's current file away (its readers closed, the file itself kept) and points
// the cursor at the start of file `index` (OpenFile and CountFile then make it current).
void MoveToFile(ParquetCursor* cursor, size_t index) {
  CollectReaderCounters(cursor);
  cursor->pruner.reset();
  for (ColumnState& state : cursor->states) state = ColumnState();
  if (cursor->batch_cache) cursor->batch_cache->ForgetReaders();
  KeepCurrentFile(cursor);
  cursor->mappings.clear();
  cursor->file_index = index;
  cursor->row_group = 0;
  cursor->group_entered = false;
  cursor->ahead_streak = 0;
  cursor->ahead_through = -1;
  cursor->ahead_last_entered = -1;
  cursor->ahead_start_row = -1;
  cursor->row = 0;
}

// Makes file `index` the cursor's current file, from the kept files or opened (its footer
// read). The readers of the previous file are closed first, and the file itself is kept.
// `overlap_check`: see OpenTableFile (not with rowid filters: the rows of earlier files
// count, and they are not confirmed).
void OpenFile(ParquetCursor* cursor, const ParquetTable& table, size_t index, bool overlap_check = true) {
  MoveToFile(cursor, index);
  cursor->file = cursor->kept_files.Take(index);
  if (cursor->file) {
    cursor->transfer_counted = cursor->file->file().Transfer();  // its opening was counted then
  } else {
    cursor->transfer_counted = parquet::TransferCounters();
    cursor->file = OpenTableFile(cursor, table, index, overlap_check && cursor->rowid_filters.empty());
    cursor->stats.files_opened++;
    if (table.metadata_store && table.metadata_store->pending() >= kFlushFiles) table.metadata_store->Flush();
  }
  cursor->counted = false;
  cursor->mappings = MapFileColumns(table, *cursor->file, cursor->files->paths[index]);
  if (cursor->files->lake) {
    // The metadata's count of the file's rows stands for it in scans that count rather
    // than open (CountFile) and in rowids: a file that disagrees is an error.
    const int64_t claimed = cursor->files->lake->files[index].record_count;
    if (claimed >= 0 && claimed != cursor->file->num_rows()) {
      throw parquet::ParquetError("the table's metadata says data file " +
                                  parquet::PathForDisplay(cursor->files->paths[index]) + " holds " +
                                  std::to_string(claimed) + " rows, but it holds " +
                                  std::to_string(cursor->file->num_rows()));
    }
  }
  // (A file whose check is in flight has its rows noted once confirmed: ConfirmFile.)
  if (!cursor->file->file().VersionPending()) cursor->files->rows[index] = cursor->file->num_rows();
  cursor->deleted.reset();
  if (cursor->files->lake && cursor->files->lake->files[index].deleted) {
    cursor->deleted = cursor->files->lake->files[index].deleted->Load();
    if (!cursor->deleted->empty() &&
        cursor->deleted->ranges().back().end > static_cast<uint64_t>(cursor->file->num_rows())) {
      throw parquet::ParquetError("the deletion vector of " + parquet::PathForDisplay(cursor->files->paths[index]) +
                                  " deletes row " + std::to_string(cursor->deleted->ranges().back().end - 1) +
                                  " of a file of " + std::to_string(cursor->file->num_rows()) + " rows");
    }
    if (cursor->deleted->empty()) cursor->deleted.reset();
  }
  SetUpFileFilters(cursor, table);
  if (DecompressesAhead(*cursor, table)) {
    cursor->decompress_ahead = std::make_shared<parquet::DecompressAhead>(*cursor->file, cursor->memory_budget,
                                                                          table.options.verify_crc);
  }
}

// Whether the rows of lake file `index` can be counted from the table's metadata: its
// record count is known, and so is the cardinality of its deleted rows, if any (a Delta
// deletion vector's; positional or equality deletes whose count is not known are read).
bool CountableFile(const ParquetCursor& cursor, size_t index) {
  const parquet::lake::LakeDataFile& file = cursor.files->lake->files[index];
  if (file.record_count < 0 || file.record_count > kMaxTrustedRecordCount) return false;
  if (!file.deleted) return true;
  const int64_t deleted = file.deleted->claimed_count();
  return deleted >= 0 && deleted <= file.record_count;
}

// Makes lake file `index` the cursor's current file without opening it: its rows are
// counted from the metadata (ParquetCursor::counted). The previous file is put away as
// OpenFile does.
void CountFile(ParquetCursor* cursor, size_t index) {
  MoveToFile(cursor, index);
  cursor->transfer_counted = parquet::TransferCounters();
  cursor->deleted.reset();
  cursor->row_filters.clear();  // (the scan tests nothing per row: CountsFiles)
  cursor->row_filter_ranges.clear();
  cursor->counted = true;
  cursor->counted_ordinals = false;
  cursor->counted_rows = cursor->files->lake->files[index].record_count;
  cursor->files->rows[index] = cursor->counted_rows;
  cursor->stats.files_counted++;
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

}  // namespace

void ReopenReplacedFile(ParquetCursor* cursor, const ParquetTable& table) {
  const int64_t before = cursor->rows_before_file;
  CollectReaderCounters(cursor);  // the replaced file's requests count in the scan's
  for (ColumnState& state : cursor->states) state = ColumnState();
  cursor->pruner.reset();
  if (cursor->batch_cache) cursor->batch_cache->ForgetReaders();
  if (cursor->decompress_ahead) {
    cursor->decompress_ahead->Stop();
    cursor->decompress_ahead.reset();
  }
  cursor->file.reset();  // not kept: what it holds is of the old version
  // The new version is in the footer cache and checked for the statement: no request, and
  // no check in the background again.
  OpenFile(cursor, table, cursor->file_index, /*overlap_check=*/false);
  cursor->rows_before_file = before;
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

int NextIndexedRowGroup(const ParquetCursor& cursor, int64_t begin) {
  const parquet::ParquetFileReader& file = *cursor.file;
  const int row_groups = file.num_row_groups();
  const auto [from, to] = IndexedRowSpan(cursor, cursor.file_index, begin, file.num_rows());
  if (from == to) return row_groups;
  return file.row_group_of_row(RowPosition::Row(*from));
}

namespace {

// The scan opens no more files: the footers it read go to the metadata cache.
void FinishFileScan(ParquetCursor* cursor, const ParquetTable& table) {
  cursor->validated_files.clear();
  if (table.metadata_store) table.metadata_store->Flush();
}

}  // namespace

int64_t CountedRowInFile(ParquetCursor* cursor) {
  if (!cursor->counted_ordinals) return cursor->row;
  // `row` is the ordinal of a live row: its physical position needs the deleted rows.
  const std::string& path = cursor->files->paths[cursor->file_index];
  std::shared_ptr<const parquet::lake::DeletedRows> deleted = cursor->files->lake->files[cursor->file_index].deleted->Load();
  if (!deleted->empty() && deleted->ranges().back().end > static_cast<uint64_t>(cursor->counted_rows)) {
    throw parquet::ParquetError("the deletion vector of " + parquet::PathForDisplay(path) + " deletes row " +
                                std::to_string(deleted->ranges().back().end - 1) + " of a file of " +
                                std::to_string(cursor->counted_rows) + " rows");
  }
  int64_t removed = 0;
  const parquet::RowRanges live = RemoveDeletedRows(
      parquet::RowRanges::FromRanges({parquet::RowRange{0, cursor->counted_rows}}), *deleted, 0, &removed);
  // The live rows' count is the one the metadata claimed (Load checks the cardinality).
  int64_t ordinal = cursor->row;
  size_t r = 0;
  for (; r < live.num_ranges(); r++) {
    const int64_t length = live.range(r).end - live.range(r).begin;
    if (ordinal < length) break;
    ordinal -= length;
  }
  if (r >= live.num_ranges()) {
    throw parquet::ParquetError("the deletion vector of " + parquet::PathForDisplay(path) +
                                " leaves fewer rows than the table's metadata counts");
  }
  cursor->ranges = live;
  cursor->range_index = r;
  cursor->row = live.range(r).begin + ordinal;
  cursor->row_end = live.last_end();
  cursor->counted_ordinals = false;
  cursor->fast_next_end = 0;  // Next goes through Advance, along the ranges
  return cursor->row;
}

// Whether the scan may count lake files rather than open them (ParquetCursor::counting):
// it reads no file column (`columns_used`, the plan's colUsed: partition keys, filename
// and file_row_number come from the file set and the row positions), tests nothing per
// row and no row positions, and uses no join index.
bool CountsFiles(const ParquetCursor& cursor, const ParquetTable& table, uint64_t columns_used) {
  if (!cursor.files || !cursor.files->lake || !cursor.rowid_filters.empty() || !cursor.file_row_filters.empty() ||
      cursor.indexed_filter >= 0) {
    return false;
  }
  for (size_t c = 0; c < table.file_columns.size(); c++) {
    if (UsesColumn(columns_used, c)) return false;
  }
  for (const ColumnFilter& filter : cursor.filters) {
    if (filter.column >= 0 && filter.column < table.hive_column()) return false;
  }
  return true;
}

// Opens the first file at or after `from` that the constraints on partition keys,
// filename and rowid leave in the scan; false when there is none. A scan that counts
// (ParquetCursor::counting) counts the lake files it can instead of opening them.
bool OpenNextFile(ParquetCursor* cursor, const ParquetTable& table, size_t from) {
  // Rows before `from`, while they are known without opening skipped files.
  int64_t before = cursor->rows_before_file;
  if (cursor->counted) {
    if (before >= 0) before += cursor->counted_rows;
  } else if (cursor->file) {
    if (before >= 0) before += cursor->file->num_rows();
  } else {
    before = from == 0 ? 0 : -1;
  }
  if (cursor->files != table.files) before = -1;  // a narrowed listing: counted in the whole one when asked
  const FileSet& files = *cursor->files;
  for (size_t index = from; index < files.paths.size(); index++) {
    FileSkip why = FileSkip::kNone;
    bool keep = GroupMayBeScanned(cursor, table, index);
    if (keep) {
      keep = FileMayBeScanned(*cursor, table, index, &why);
    } else {
      cursor->stats.files_pruned_by_manifest++;
    }
    if (why == FileSkip::kPartition && files.lake) cursor->stats.files_pruned_by_partition++;
    if (why == FileSkip::kLakeStatistics) cursor->stats.files_pruned_by_lake_statistics++;
    if (keep && !cursor->rowid_filters.empty()) {
      // Row positions need the rows of every earlier file (file_index moves to `index` for
      // RowsBeforeFile, so the current file is put away under its own index first).
      CollectReaderCounters(cursor);
      KeepCurrentFile(cursor);
      cursor->file_index = index;
      cursor->rows_before_file = before;
      before = RowsBeforeFile(cursor, table);
      if (before >= cursor->rowid_hi) {
        cursor->stats.files_pruned += static_cast<int64_t>(files.paths.size() - index);
        FinishFileScan(cursor, table);
        return false;
      }
      if (files.rows[index] >= 0 && before + files.rows[index] <= cursor->rowid_lo) keep = false;
    }
    if (!keep) {
      cursor->stats.files_pruned++;
      if (before >= 0) before = files.rows[index] >= 0 ? before + files.rows[index] : -1;
      continue;
    }
    if (cursor->counting && CountableFile(*cursor, index)) {
      CountFile(cursor, index);
    } else {
      OpenFile(cursor, table, index);
    }
    cursor->rows_before_file = before;
    return true;
  }
  FinishFileScan(cursor, table);
  return false;
}

// Sets up the join index for the scan xFilter starts (*stats: the new scan's): which filter
// it answers and the rows it names. A kept index (files unchanged) is used from the first
// lookup. Otherwise one is built at the first lookup of a column whose lookups statistics
// cannot prune (ColumnPushdown::unprunable: that lookup would decode a quarter of the rows
// or more, and building costs less than such a scan) or of an IN list on an ordered column
// whose values' pages (ColumnPushdown::rows_per_page each) add up to a quarter, else once this statement's lookups of
// the column have decoded a quarter of the table's rows without one (a sorted column's
// lookups decode a page each): building reads the column once, so lookups never cost much
// more than with the index from the start.
void ChooseJoinIndex(ParquetCursor* cursor, const ParquetTable& table, ScanStats* stats) {
  const int previous_lookup = cursor->unindexed_lookup_column;
  cursor->unindexed_lookup_column = -1;
  cursor->indexed_filter = -1;
  cursor->indexed_positions.clear();
  // An index numbers the rows of the whole listing.
  if (cursor->files != table.files) return;
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
      // An IN list on an ordered column is as many lookups at once, a page each.
      const int64_t list_rows = filter.op == ConstraintOp::kIn
                                    ? static_cast<int64_t>(filter.values.size()) * table.pushdown[column].rows_per_page
                                    : 0;
      const bool may_build =
          !refused && (asked ? cursor->lookup_rows[column] * 4 >= table.estimated_rows
                             : table.pushdown[column].unprunable || (list_rows > 0 && list_rows * 4 >= table.estimated_rows));
      // (The first lookup asks only when the table keeps an index of the column: asking
      // checks every file's size and time.)
      if ((!asked && table.join_indexes.Has(filter.column)) || may_build) {
        JoinIndexSource source;
        source.files = &table.files->paths;
        source.decryption = table.options.decryption.get();
        source.verify_crc = table.options.verify_crc;
        // (Not a file whose statement check is still in flight: what it reads is unconfirmed.)
        source.open_file = cursor->file && !cursor->file->file().VersionPending() ? cursor->file.get() : nullptr;
        source.open_index = cursor->file_index;
        source.mapping_of = [&table, column](const parquet::ParquetFileReader& file, size_t f) {
          return MapFileColumns(table, file, table.files->paths[f])[column];
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

}  // namespace sqlite_parquet
