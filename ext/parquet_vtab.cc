// The `parquet` virtual table: one Parquet file, or a dataset of many, presented as a
// read-only SQLite table.
//
// USAGE
//
//   CREATE VIRTUAL TABLE t USING parquet('path' [, key=value ...]);
//   CREATE VIRTUAL TABLE t USING parquet(filename='path', ...);
//
// PATH is a file, a directory (every *.parquet file below it, recursively) or a glob
// (`*`, `?`, `[...]` within a path segment, `**` for any number of directories); the rules
// are in file_list.h. The files are read in sorted path order as one table.
//
// Options (values may be quoted with '...' or "..."; keys are case-insensitive; an unknown
// or repeated key is an error naming it):
//
//   filename=PATH          the file, directory or glob (also the first, unnamed argument)
//   binary_as_string=0|1   unannotated BYTE_ARRAY columns as TEXT instead of BLOB (default 0)
//   decimal_as=real|text   DECIMAL columns as REAL (default) or as exact decimal TEXT
//   timestamp_as=text|unixepoch|unixepoch_ms|unixepoch_us|julianday
//                          how DATE, TIMESTAMP and INT96 columns are presented (default text)
//   verify_crc=0|1         check page CRCs where the writer stored them (default 1)
//   max_memory=BYTES       page buffers one scan may hold across its columns (default 2 GiB)
//   union_by_name=0|1      combine files whose columns differ, by column name (default 0)
//   hive_partitioning=0|1  key=value directories as columns (default: on when the first
//                          file's path has a key=value directory)
//   footer_key=KEY         key of an encrypted file's footer (and of the columns encrypted
//                          with it); KEY is hex:..., base64:... or the raw text (16, 24 or
//                          32 bytes), see encryption_options.h
//   column_keys='PATH:KEY,...'  keys of columns encrypted with their own key (dotted path)
//   aad_prefix=TEXT        the AAD prefix of files written without storing it
//   key_table=NAME         a table (key_metadata, key) to find keys by the key_metadata
//                          the file stores; read when the table is created or connected
//   kms_master_keys='ID:KEY,...'  master keys unwrapping parquet-mr key material
//   verify_footer_signature=0|1  check a plaintext footer's signature (default 1; needs
//                          the footer key)
//   allow_plaintext_files=0|1  with key options, read files that are not encrypted
//                          (default 0: refused)
//
// COLUMNS
//
// One column per top-level field, named as in the file (a name that repeats
// case-insensitively gets a suffix _1, _2, ...), with the declared types of
// column_mapping.h. A nested field (group, LIST, MAP or repeated field) is one column of
// JSON text with the JSON subtype (nested_json.h). Then the hive partition keys, then two
// HIDDEN columns (not in SELECT *): filename (TEXT, the file's path as the file list gave
// it) and file_row_number (INTEGER, 0-based row within its file). The rowid is the row's
// 0-based position in the whole dataset (rows of earlier files first).
//
// SCHEMAS OF MANY FILES
//
// By default every file must have the first file's top-level fields: same names, same order,
// same SQLite types (the first word of the declared type, so DECIMAL(4,2) and DECIMAL(10,2)
// match as REAL; each file's values are converted by its own mapping), nested in both or
// in neither; the first file that differs is an error naming it and the first file
// (checked when a scan reaches it). With union_by_name=1 every file's footer is read at
// CREATE time: the columns are the first file's, then each name first seen in a later file,
// in file order (names match exactly); a file without a column reads NULL there. A column
// whose type differs between files is declared with the type of the first file that has
// it; each file's values are converted by that file's own mapping (so an INTEGER column
// may hold the REAL or TEXT values of another file; SQLite's column affinity applies to
// comparisons). A column nested (JSON) in one file and flat in another is an error.
//
// HIVE PARTITIONING
//
// Every directory segment `key=value` of a file's path (percent-escapes decoded) gives a
// partition column `key`, in order of first appearance over the files; a file without the
// key reads NULL, as does the value __HIVE_DEFAULT_PARTITION__. A key's declared type is
// INTEGER when all its values are 64-bit integers, else REAL when all are numbers, else
// TEXT; values are converted to that type. A key whose name equals a file column gets the
// usual suffix.
//
// HOW A SCAN WORKS
//
// A cursor opens one file at a time, in order: it opens the next file only after closing
// the previous one, so a scan holds at most one file descriptor whatever the number of
// files. No footer is cached beyond the cursor's current file (the table keeps only paths,
// the column list and the partition values). The cursor walks the file's row groups in
// order. Columns are decoded lazily: the first time xColumn asks for column i in a row
// group, that column's chunk is read and decoded in batches of up to kBatchSlots values;
// columns the query never asks for are never read, and rows a column is not asked for are
// skipped (whole pages without decompression). Memory is bounded by one row group's chunks
// of the columns in use.
//
// CONSTRAINTS
//
// xBestIndex takes the WHERE terms it can reproduce exactly (constraints.h has the rules
// and the idxStr encoding, e.g. `id=? AND s LIKE ?`), LIMIT/OFFSET when nothing is left
// for SQLite to filter, and ORDER BY of the one column a single file is proven sorted by.
// xFilter turns the arguments into ColumnFilters; then files are skipped by partition
// values and filename, row groups by row position (rowid, file_row_number), by
// statistics and bloom filters (row_group_pruning.h), and xNext tests every remaining row
// on the decoded filter columns before any other column is converted (late
// materialization). What the scan did is kept for parquet_scan_stats (scan_stats.h).
// xBestIndex's costs come from plan_cost.h; an equality a statement looks up again and
// again is answered by the table's join index (join_index.h, ChooseJoinIndex), whose scans
// visit only the rows it names and keep their decoded batches (lookup_batch_cache.h).
//
// The module is registered with SQLITE_VTAB_DIRECTONLY, so views and triggers of a
// database someone else made cannot make it read files. SQLite connects a table before it
// can check that (and for PRAGMA table_info and the like), so connecting does only what
// the column list needs: list the files and read the first footer (every footer with
// union_by_name); only regular files are opened, without blocking (OpenLocalFile). Row-group
// order statistics wait for the first planning.
#include "ext/parquet_vtab.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ext/column_mapping.h"
#include "ext/constraints.h"
#include "ext/encryption_options.h"
#include "ext/file_list.h"
#include "ext/join_index.h"
#include "ext/lookup_batch_cache.h"
#include "ext/nested_json.h"
#include "ext/sqlite_values.h"
#include "ext/options.h"
#include "ext/plan_cost.h"
#include "ext/row_group_pruning.h"
#include "ext/scan_stats.h"
#include "ext/sql_value.h"
#include "ext/vtab_errors.h"
#include "format/column_reader.h"
#include "format/error.h"
#include "format/file_reader.h"
#include "format/logical_values.h"
#include "format/record_assembler.h"

namespace sqlite_parquet {

namespace {

constexpr size_t kBatchSlots = 2048;
// max_memory's default: a page may claim up to 1 GiB (column_reader.cc), so the default
// holds one such page with its compressed body and the pages of other columns, or a
// thousand columns of 1 MB pages; a small hostile file (wide rows of highly compressed
// pages) cannot make one query take more.
constexpr int64_t kDefaultMaxMemory = int64_t{2} << 30;
constexpr const char* kHiveNullValue = "__HIVE_DEFAULT_PARTITION__";

struct TableOptions {
  std::string filename;
  MappingOptions mapping;
  bool verify_crc = true;
  int64_t max_memory = kDefaultMaxMemory;  // bytes of page buffers per cursor
  bool union_by_name = false;
  std::optional<bool> hive_partitioning;  // unset: automatic
  std::shared_ptr<const parquet::FileDecryptionProperties> decryption;  // null: no key options
  int64_t join_index_memory = kDefaultJoinIndexMemory;  // 0: no join index (join_index.h)
};

// A table column that comes from the files' top-level fields.
struct FileColumn {
  std::string name;           // as in the file
  std::string declared_type;  // from the first file that has it
  bool nested = false;
};

enum class HiveType : uint8_t { kInteger, kReal, kText };

struct HiveKey {
  std::string name;
  HiveType type = HiveType::kText;
};

struct HiveValue {
  bool is_null = true;
  int64_t integer = 0;
  double real = 0;
  std::string text;
};

// What xBestIndex may do with constraints on one column of the table.
struct ColumnPushdown {
  bool pushable = false;      // constraints on it may be pushed (not nested JSON)
  ValueClass value_class = ValueClass::kNull;
  bool exact = false;         // every file gives values of value_class (not union_by_name), so
                              // a pushed comparison can be omitted
  bool ordered = false;       // first file: row groups in ascending order of it (cost, ORDER BY)
};

struct ParquetTable {
  sqlite3_vtab base;  // must come first
  sqlite3* db = nullptr;
  std::string name;   // the table's name, for parquet_scan_stats
  TableOptions options;
  std::vector<std::string> files;
  mutable std::vector<int64_t> file_rows;  // rows of each file, -1 until a scan opened it
  std::vector<FileColumn> file_columns;
  std::vector<HiveKey> hive_keys;
  std::vector<std::vector<HiveValue>> hive_values;  // [file][key]
  std::vector<std::string> column_names;            // every column, as declared
  std::vector<ColumnPushdown> pushdown;             // every column
  // ORDER BY: a single file whose row groups' sorting_columns declare this column
  // ascending, and whose statistics show the row groups in order without NULL or NaN. The
  // declaration is only believed once the column's values were read and found ascending in
  // SQLite's order (OrderVerified, on the first ORDER BY that could use it).
  int order_candidate_column = -1;
  enum class OrderCheck : uint8_t { kUnchecked, kAscending, kNotAscending };
  OrderCheck order_check = OrderCheck::kUnchecked;
  bool order_statistics_read = false;  // FindOrderedColumns ran (ReadOrderStatistics)
  int64_t estimated_rows = 0;
  std::unique_ptr<NumericAffinity> numeric_affinity;  // converts text compared with numbers
  mutable JoinIndexCache join_indexes;                // by column, while the files are unchanged
  // Column numbers: [0, file_columns) file columns, then hive keys, then the hidden two.
  int hive_column() const { return static_cast<int>(file_columns.size()); }
  int filename_column() const { return hive_column() + static_cast<int>(hive_keys.size()); }
  int file_row_number_column() const { return filename_column() + 1; }
};

// How xColumn serves a cell of a column's loaded batch without going through ResultValue:
// the common mappings of a batch without nulls, one sqlite3_result_* call on the value.
enum class DirectCell : uint8_t {
  kNone,            // through ResultCell / ResultValue
  kInt32,           // ValueKind::kInt32
  kInt64,           // ValueKind::kInt64
  kDouble,          // ValueKind::kDouble
  kText,            // ValueKind::kText (ResultText's terminated copy)
  kTerminatedText,  // ValueKind::kText, batch.text_terminated: the value itself, length -1
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
  const void* direct_values = nullptr;    // the batch's values, typed by `direct`

  // Nested fields: rows are assembled from all the field's leaf columns and rendered as
  // JSON; the text of the last row rendered is kept for repeated xColumn calls.
  std::unique_ptr<parquet::RecordAssembler> assembler;
  std::unique_ptr<NestedJsonRenderer> renderer;
  int64_t json_row = -1;        // row (within row_group) whose JSON `json` holds
  bool json_is_null = false;
  std::string json;

  parquet::ColumnReadCounters counted;  // of `reader`, already added to the scan's stats
};

// A row filter comparing DATE text (`l_shipdate <= '1998-09-02'`), turned into a test on
// the day number: rows pass when their day lies in [lo, hi] (outside it with `outside`).
// Valid for the days whose text is "YYYY-MM-DD" (years 0000..9999), where text order is day
// order; other days, and filters without a day range, take the text comparison.
struct DayRange {
  bool active = false;
  bool outside = false;  // != : the days passing are those outside [lo, hi]
  int64_t lo = 0, hi = -1;
};
constexpr int32_t kFirstFourDigitYearDay = -719528;  // 0000-01-01
constexpr int32_t kLastFourDigitYearDay = 2932896;   // 9999-12-31

struct ParquetCursor {
  sqlite3_vtab_cursor base;  // must come first
  // The scan's constraints (xFilter): filters by column, LIMIT / OFFSET.
  std::vector<ColumnFilter> filters;
  std::vector<size_t> row_filters;   // filters evaluated per row in the current file (file columns)
  std::vector<DayRange> row_filter_days;  // per row filter: its test by day number, when it has one
  std::vector<size_t> rowid_filters, file_row_filters;
  std::vector<size_t> file_filters;  // on hive keys and filename: decide whole files
  int64_t rowid_lo = INT64_MIN, rowid_hi = INT64_MAX;        // [lo, hi) superset of rowids wanted
  int64_t file_row_lo = INT64_MIN, file_row_hi = INT64_MAX;  // the same for file_row_number
  int64_t limit_remaining = -1;      // rows still to return, OFFSET included (-1: no LIMIT)
  std::unique_ptr<RowGroupPruner> pruner;  // for the current file
  FormatBuffer format_buffer;        // its `dates` is `dates`
  DateTextCache dates;               // DATE text of xColumn and the row filters
  ScanStats stats;
  bool stats_pending = false;        // a scan began whose stats are not recorded yet
  int64_t row_end = 0;               // end (exclusive) of the rows to visit in the row group
  parquet::RowRanges ranges;         // the rows of the row group that may match (page index)
  size_t range_index = 0;            // the range `row` is in or before
  parquet::ColumnReadCounters pruning_counters;  // dictionary pages and bloom filters read
  sqlite3_stmt* interrupt_probe = nullptr;  // "SELECT 1", stepped to notice sqlite3_interrupt before 3.41
  int64_t rows_since_probe = 0;

  size_t file_index = 0;
  std::unique_ptr<parquet::ParquetFileReader> file;  // the current file, or null
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
  std::string text;           // scratch for formatted values
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

ParquetTable* TableOf(sqlite3_vtab_cursor* cursor) { return reinterpret_cast<ParquetTable*>(cursor->pVtab); }

std::string Lowercase(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// Parses the CREATE VIRTUAL TABLE arguments (argv[3..]) into *options.
bool ParseTableOptions(sqlite3* db, int argc, const char* const* argv, TableOptions* options, std::string* error) {
  OptionSet set;
  set.AddString("filename")
      .SetPositional("filename")
      .AddBoolean("binary_as_string")
      .AddEnum("decimal_as", {"real", "text"})
      .AddEnum("timestamp_as", {"text", "unixepoch", "unixepoch_ms", "unixepoch_us", "julianday"})
      .AddBoolean("verify_crc")
      .AddInteger("max_memory", 1, std::numeric_limits<int64_t>::max())
      .AddBoolean("union_by_name")
      .AddBoolean("hive_partitioning")
      .AddInteger("join_index_memory", 0, std::numeric_limits<int64_t>::max());
  AddDecryptionOptions(&set);
  ParsedOptions parsed;
  if (!set.Parse(argc - 3, argv + 3, &parsed, error)) return false;
  options->filename = std::string(parsed.GetString("filename", ""));
  if (!parsed.Has("filename")) {
    *error = "missing file name: use parquet('file.parquet') or parquet(filename='file.parquet')";
    return false;
  }
  if (options->filename.empty()) {
    *error = "empty file name";
    return false;
  }
  options->mapping.binary_as_string = parsed.GetBool("binary_as_string", false);
  options->mapping.decimal_as_text = parsed.GetEnumIndex("decimal_as", 0) == 1;
  static const TimestampForm kForms[] = {TimestampForm::kText, TimestampForm::kUnixEpoch, TimestampForm::kUnixEpochMs,
                                         TimestampForm::kUnixEpochUs, TimestampForm::kJulianDay};
  options->mapping.timestamp_form = kForms[parsed.GetEnumIndex("timestamp_as", 0)];
  options->verify_crc = parsed.GetBool("verify_crc", true);
  options->max_memory = parsed.GetInteger("max_memory", kDefaultMaxMemory);
  options->join_index_memory = parsed.GetInteger("join_index_memory", kDefaultJoinIndexMemory);
  options->union_by_name = parsed.GetBool("union_by_name", false);
  if (parsed.Has("hive_partitioning")) options->hive_partitioning = parsed.GetBool("hive_partitioning", false);
  return MakeDecryptionProperties(db, parsed, &options->decryption, error);
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string PercentDecode(std::string_view text) {
  std::string decoded;
  decoded.reserve(text.size());
  for (size_t i = 0; i < text.size(); i++) {
    if (text[i] == '%' && i + 2 < text.size() && HexDigit(text[i + 1]) >= 0 && HexDigit(text[i + 2]) >= 0) {
      decoded += static_cast<char>(HexDigit(text[i + 1]) * 16 + HexDigit(text[i + 2]));
      i += 2;
    } else {
      decoded += text[i];
    }
  }
  return decoded;
}

// The key=value directory segments of `path` (not its last segment), decoded; a NULL
// partition value is nullopt.
std::vector<std::pair<std::string, std::optional<std::string>>> HivePairs(const std::string& path) {
  std::vector<std::pair<std::string, std::optional<std::string>>> pairs;
  size_t start = 0;
  while (true) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) break;  // the last segment is the file name
    std::string_view segment(path.data() + start, slash - start);
    size_t equals = segment.find('=');
    if (equals != std::string_view::npos && equals > 0) {
      std::string key = PercentDecode(segment.substr(0, equals));
      std::string_view raw = segment.substr(equals + 1);
      std::optional<std::string> value;
      if (raw != kHiveNullValue) value = PercentDecode(raw);
      bool replaced = false;
      for (auto& pair : pairs) {
        if (pair.first == key) {
          pair.second = value;
          replaced = true;
        }
      }
      if (!replaced) pairs.emplace_back(std::move(key), std::move(value));
    }
    start = slash + 1;
  }
  return pairs;
}

bool ParseInteger(const std::string& text, int64_t* out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  errno = 0;
  char* end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size()) return false;
  *out = value;
  return true;
}

bool ParseReal(const std::string& text, double* out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  // Only decimal notation: no hex floats, inf or nan.
  for (char c : text) {
    if (!std::strchr("0123456789+-.eE", c)) return false;
  }
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) return false;
  *out = value;
  return true;
}

// Fills table->hive_keys and table->hive_values from the file paths.
void CollectHivePartitions(ParquetTable* table) {
  std::vector<std::vector<std::pair<std::string, std::optional<std::string>>>> per_file;
  per_file.reserve(table->files.size());
  for (const std::string& path : table->files) {
    per_file.push_back(HivePairs(path));
    for (const auto& pair : per_file.back()) {
      bool known = false;
      for (const HiveKey& key : table->hive_keys) known = known || key.name == pair.first;
      if (!known) table->hive_keys.push_back(HiveKey{pair.first, HiveType::kInteger});
    }
  }
  for (HiveKey& key : table->hive_keys) {
    bool all_integer = true, all_real = true, any_value = false;
    for (const auto& pairs : per_file) {
      for (const auto& pair : pairs) {
        if (pair.first != key.name || !pair.second) continue;
        any_value = true;
        int64_t integer;
        double real;
        all_integer = all_integer && ParseInteger(*pair.second, &integer);
        all_real = all_real && ParseReal(*pair.second, &real);
      }
    }
    key.type = !any_value ? HiveType::kText : all_integer ? HiveType::kInteger : all_real ? HiveType::kReal : HiveType::kText;
  }
  table->hive_values.resize(table->files.size());
  for (size_t f = 0; f < table->files.size(); f++) {
    table->hive_values[f].resize(table->hive_keys.size());
    for (size_t k = 0; k < table->hive_keys.size(); k++) {
      HiveValue& value = table->hive_values[f][k];
      for (const auto& pair : per_file[f]) {
        if (pair.first != table->hive_keys[k].name || !pair.second) continue;
        value.is_null = false;
        value.text = *pair.second;
        if (table->hive_keys[k].type == HiveType::kInteger) ParseInteger(value.text, &value.integer);
        if (table->hive_keys[k].type == HiveType::kReal) ParseReal(value.text, &value.real);
      }
    }
  }
}

std::string FieldName(const parquet::Schema& schema, size_t field) {
  return schema.node(schema.top_level_fields()[field]).name;
}

// The mappings of the table's file columns for one file; throws (naming the file) when the
// file does not fit the table (see the manual: schemas of many files).
std::vector<ColumnMapping> MapFileColumns(const ParquetTable& table, const parquet::ParquetFileReader& file,
                                          const std::string& path) {
  const parquet::Schema& schema = file.schema();
  const size_t num_fields = schema.top_level_fields().size();
  std::vector<ColumnMapping> mappings(table.file_columns.size());
  if (!table.options.union_by_name) {
    // Files match when each column has the same name, the same SQLite type (the first word
    // of the declared type: DECIMAL(4,2) and DECIMAL(10,2) are both REAL) and is nested in
    // both or in neither.
    auto sqlite_type = [](const std::string& declared) { return declared.substr(0, declared.find(' ')); };
    for (size_t c = 0; c < std::max(num_fields, table.file_columns.size()); c++) {
      const FileColumn* expected = c < table.file_columns.size() ? &table.file_columns[c] : nullptr;
      std::string found = "no column";
      bool same = false;
      if (c < num_fields) {
        ColumnMapping mapping = MapTopLevelField(schema, static_cast<int>(c), table.options.mapping);
        const std::string name = FieldName(schema, c);
        found = "'" + name + " " + mapping.declared_type + "'";
        same = expected && expected->name == name && (mapping.kind == ValueKind::kNested) == expected->nested &&
               sqlite_type(mapping.declared_type) == sqlite_type(expected->declared_type);
        if (same) mappings[c] = std::move(mapping);
      }
      if (!same) {
        throw parquet::ParquetError(
            "parquet file " + path + " does not match the schema of " + table.files[0] + ": column " +
            std::to_string(c + 1) + " is " + found + " in that file but " +
            (expected ? "'" + expected->name + " " + expected->declared_type + "'" : std::string("no column")) +
            " in the first file (union_by_name=1 combines files by column name)");
      }
    }
    return mappings;
  }
  for (size_t c = 0; c < table.file_columns.size(); c++) {
    for (size_t f = 0; f < num_fields; f++) {
      if (FieldName(schema, f) != table.file_columns[c].name) continue;
      mappings[c] = MapTopLevelField(schema, static_cast<int>(f), table.options.mapping);
      break;
    }
  }
  return mappings;
}

// Adds the fields of one file to table->file_columns by name (union_by_name=1).
void UnionFileColumns(ParquetTable* table, const parquet::ParquetFileReader& file, const std::string& path) {
  const parquet::Schema& schema = file.schema();
  for (size_t f = 0; f < schema.top_level_fields().size(); f++) {
    ColumnMapping mapping = MapTopLevelField(schema, static_cast<int>(f), table->options.mapping);
    const std::string name = FieldName(schema, f);
    const bool nested = mapping.kind == ValueKind::kNested;
    bool found = false;
    for (const FileColumn& column : table->file_columns) {
      if (column.name != name) continue;
      found = true;
      if (column.nested != nested) {
        throw parquet::ParquetError("column '" + name + "' is " + (nested ? "nested" : "not nested") + " in parquet file " +
                                    path + " but " + (column.nested ? "nested" : "not nested") +
                                    " in an earlier file: union_by_name cannot combine them");
      }
    }
    if (!found) table->file_columns.push_back(FileColumn{name, mapping.declared_type, nested});
  }
}

// Marks the file columns whose row groups in `file` (the first file) are in ascending order
// by statistics (max of each <= min of the next, all bounds usable); with
// `order_candidate`, also picks table->order_candidate_column: the first such column that
// the row groups' sorting_columns declare sorted ascending and that has no NULL or NaN.
// Nothing here looks inside a row group: OrderVerified does, before ORDER BY relies on it.
void FindOrderedColumns(ParquetTable* table, const parquet::ParquetFileReader& file, bool order_candidate) {
  const parquet::Schema& schema = file.schema();
  const size_t num_fields = std::min(schema.top_level_fields().size(), table->file_columns.size());
  for (size_t c = 0; c < num_fields; c++) {
    ColumnMapping mapping = MapTopLevelField(schema, static_cast<int>(c), table->options.mapping);
    if (mapping.kind == ValueKind::kNested || mapping.leaf_column < 0 || file.num_row_groups() == 0) continue;
    const parquet::StatisticsContext context = parquet::MakeStatisticsContext(file.metadata(), schema, mapping.leaf_column);
    bool ordered = true, no_nulls = true, declared_sorted = true;
    ValueBounds previous;
    std::string previous_bytes;
    for (int rg = 0; rg < file.num_row_groups() && ordered; rg++) {
      const parquet::ColumnMetaData* meta = nullptr;
      try {
        meta = &file.column_metadata(rg, mapping.leaf_column);
      } catch (const parquet::ParquetError&) {
        ordered = false;  // e.g. encrypted: the scan reports it if it gets there
        break;
      }
      ValueBounds bounds;
      if (meta->statistics) {
        BoundsFromStatistics(parquet::DecodeStatistics(*meta->statistics, context), mapping, file.row_group_num_rows(rg),
                             &bounds);
      }
      if (!bounds.min || !bounds.max) {
        ordered = false;
        break;
      }
      if (rg > 0 && CompareSqlValues(*previous.max, *bounds.min) > 0) ordered = false;
      no_nulls = no_nulls && !bounds.may_have_null;
      const auto& sorting = file.row_group(rg).sorting_columns;
      declared_sorted = declared_sorted && sorting && !sorting->empty() &&
                        (*sorting)[0].column_idx == mapping.leaf_column && !(*sorting)[0].descending;
      previous.max_bytes = bounds.max_bytes;
      previous.max = bounds.max;
      if (previous.max->type == SqlValue::Type::kText || previous.max->type == SqlValue::Type::kBlob) {
        previous.max->bytes = previous.max_bytes;
      }
    }
    table->pushdown[c].ordered = ordered;
    if (order_candidate && ordered && no_nulls && declared_sorted && table->order_candidate_column < 0) {
      table->order_candidate_column = static_cast<int>(c);
    }
  }
}

// Whether every value of the table's order candidate column, read in file order, is at or
// above the one before it in SQLite's order (BINARY collation) and none is NULL: only then
// does a scan return rows in ORDER BY order. sorting_columns is a writer's claim that no
// reader checks, and statistics only order the row groups, not the rows inside them, so
// the column is decoded once (one column chunk per row group, about a row group's worth of
// memory) and the answer kept for the table's lifetime. A file that cannot be read is not
// known to be in order: the scan reports its error.
bool OrderVerified(ParquetTable* table) {
  if (table->order_check != ParquetTable::OrderCheck::kUnchecked) {
    return table->order_check == ParquetTable::OrderCheck::kAscending;
  }
  bool ascending = table->order_candidate_column >= 0 && table->files.size() == 1;
  try {
    std::unique_ptr<parquet::ParquetFileReader> file;
    ColumnMapping mapping;
    if (ascending) {
      file = parquet::ParquetFileReader::Open(table->files[0], table->options.decryption.get());
      mapping = MapTopLevelField(file->schema(), table->order_candidate_column, table->options.mapping);
      ascending = mapping.kind != ValueKind::kNested && mapping.kind != ValueKind::kNull && mapping.leaf_column >= 0;
    }
    DateTextCache dates;
    FormatBuffer buffer;
    buffer.dates = &dates;
    std::string previous_bytes;
    SqlValue previous;
    bool have_previous = false;
    parquet::ColumnReaderOptions options;
    options.verify_crc = table->options.verify_crc;
    parquet::ColumnBatch batch;
    for (int rg = 0; ascending && rg < file->num_row_groups(); rg++) {
      auto reader = parquet::ColumnChunkReader::Make(*file, rg, mapping.leaf_column, options);
      int64_t rows = 0;
      while (ascending && rows < file->row_group_num_rows(rg)) {
        if (reader->ReadBatch(kBatchSlots, &batch) == 0) break;
        rows += static_cast<int64_t>(batch.num_levels);
        SqlValue value;
        // A NULL (fewer values than slots) sorts first: not where a scan would return it.
        ascending = batch.num_values == batch.num_levels;
        for (size_t i = 0; ascending && i < batch.num_values; i++) {
          ascending = ColumnSqlValue(mapping, batch, i, &buffer, &value) && !value.is_null() &&
                      (!have_previous || CompareSqlValues(previous, value) <= 0);
          if (!ascending) break;
          previous = value;
          if (value.type == SqlValue::Type::kText || value.type == SqlValue::Type::kBlob) {
            previous_bytes.assign(value.bytes);
            previous.bytes = previous_bytes;
          }
          have_previous = true;
        }
      }
    }
  } catch (const std::exception&) {  // also bad_alloc: xBestIndex must not throw
    ascending = false;
  }
  table->order_check = ascending ? ParquetTable::OrderCheck::kAscending : ParquetTable::OrderCheck::kNotAscending;
  return ascending;
}

// Whether `path` names a set of files (a glob or a directory) rather than one file.
bool IsDataset(const std::string& path) {
  struct stat info;
  if (::stat(path.c_str(), &info) == 0) return S_ISDIR(info.st_mode);
  return HasGlobCharacters(path);
}

// The files of the table (file_list.h). A plain path that does not exist is passed on as
// it is, so that opening it reports the system's error; a directory without Parquet files
// says it is a directory.
std::vector<std::string> ListFiles(const std::string& path) {
  struct stat info;
  const bool exists = ::stat(path.c_str(), &info) == 0;
  if (!exists && !HasGlobCharacters(path)) return {path};
  try {
    return ExpandFilePath(path);
  } catch (const FileListError&) {
    if (exists && S_ISDIR(info.st_mode)) {
      throw FileListError("'" + path + "' is a directory with no .parquet files below it");
    }
    throw;
  }
}

// xCreate and xConnect: list the files, read the schema, declare the table (nothing more:
// see the top of this file).
int Connect(sqlite3* db, void*, int argc, const char* const* argv, sqlite3_vtab** out, char** error_out) {
  *out = nullptr;
  std::unique_ptr<ParquetTable> table;
  try {
    table = std::make_unique<ParquetTable>();
    std::memset(&table->base, 0, sizeof(table->base));
    std::string error;
    if (!ParseTableOptions(db, argc, argv, &table->options, &error)) {
      *error_out = sqlite3_mprintf("%s", error.c_str());
      return SQLITE_ERROR;
    }
    table->files = ListFiles(table->options.filename);
    {
      // Only the first file's footer is needed (all of them with union_by_name); each is
      // closed before the next is opened.
      auto first = parquet::ParquetFileReader::Open(table->files[0], table->options.decryption.get());
      const parquet::Schema& schema = first->schema();
      const size_t num_fields = schema.top_level_fields().size();
      if (num_fields == 0) {
        *error_out = sqlite3_mprintf("parquet file %s has no columns", table->files[0].c_str());
        return SQLITE_ERROR;
      }
      if (table->options.union_by_name) {
        UnionFileColumns(table.get(), *first, table->files[0]);
      } else {
        for (size_t f = 0; f < num_fields; f++) {
          ColumnMapping mapping = MapTopLevelField(schema, static_cast<int>(f), table->options.mapping);
          table->file_columns.push_back(
              FileColumn{FieldName(schema, f), mapping.declared_type, mapping.kind == ValueKind::kNested});
        }
      }
      table->estimated_rows = first->num_rows() * static_cast<int64_t>(table->files.size());
    }
    if (table->options.union_by_name) {
      for (size_t i = 1; i < table->files.size(); i++) {
        auto file = parquet::ParquetFileReader::Open(table->files[i], table->options.decryption.get());
        UnionFileColumns(table.get(), *file, table->files[i]);
      }
    }
    // Automatic only for a directory or glob: a single named file is read as it is.
    const bool hive = table->options.hive_partitioning
                          ? *table->options.hive_partitioning
                          : IsDataset(table->options.filename) && !HivePairs(table->files[0]).empty();
    if (hive) CollectHivePartitions(table.get());

    std::string sql = "CREATE TABLE x(";
    std::vector<std::string> used_names;
    auto add_column = [&](const std::string& name, const std::string& type) {
      std::string unique = name;
      for (int suffix = 1;; suffix++) {
        bool clash = false;
        for (const std::string& used : used_names) clash = clash || Lowercase(used) == Lowercase(unique);
        if (!clash) break;
        unique = name + "_" + std::to_string(suffix);
      }
      if (!used_names.empty()) sql += ", ";
      used_names.push_back(unique);
      sql += QuoteIdentifier(unique);
      if (!type.empty()) sql += " " + type;
    };
    for (const FileColumn& column : table->file_columns) add_column(column.name, column.declared_type);
    static const char* const kHiveTypes[] = {"INTEGER", "REAL", "TEXT"};
    for (const HiveKey& key : table->hive_keys) add_column(key.name, kHiveTypes[static_cast<int>(key.type)]);
    add_column("filename", "TEXT HIDDEN");
    add_column("file_row_number", "INTEGER HIDDEN");
    sql += ")";
    int rc = sqlite3_declare_vtab(db, sql.c_str());
    if (rc != SQLITE_OK) {
      *error_out = sqlite3_mprintf("cannot declare the table for %s: %s", table->options.filename.c_str(),
                                   sqlite3_errmsg(db));
      return rc;
    }
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    table->db = db;
    table->numeric_affinity = std::make_unique<NumericAffinity>(db);
    table->name = argv[2];
    table->column_names = used_names;
    table->file_rows.assign(table->files.size(), -1);
    table->pushdown.resize(used_names.size());
    for (size_t c = 0; c < table->file_columns.size(); c++) {
      ColumnPushdown& p = table->pushdown[c];
      p.pushable = !table->file_columns[c].nested;
      p.value_class = ValueClassOfDeclaredType(table->file_columns[c].declared_type);
      p.exact = !table->options.union_by_name;
    }
    for (size_t k = 0; k < table->hive_keys.size(); k++) {
      ColumnPushdown& p = table->pushdown[static_cast<size_t>(table->hive_column()) + k];
      p.pushable = p.exact = true;
      p.value_class = table->hive_keys[k].type == HiveType::kText ? ValueClass::kText : ValueClass::kNumeric;
    }
    table->pushdown[static_cast<size_t>(table->filename_column())] = ColumnPushdown{true, ValueClass::kText, true, false};
    table->pushdown[static_cast<size_t>(table->file_row_number_column())] =
        ColumnPushdown{true, ValueClass::kNumeric, true, false};
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    *error_out = sqlite3_mprintf("%s", e.what());
    return SQLITE_ERROR;
  }
  *out = &table.release()->base;
  return SQLITE_OK;
}

// A distinct xCreate (rather than xConnect itself) keeps the module from being eponymous:
// a bare `SELECT * FROM parquet` has no file to read.
int Create(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** error_out) {
  return Connect(db, aux, argc, argv, out, error_out);
}

int Disconnect(sqlite3_vtab* vtab) {
  ParquetTable* table = reinterpret_cast<ParquetTable*>(vtab);
  if (table->db) ForgetScanStats(table->db, table->name);
  delete table;
  return SQLITE_OK;
}

// The operator of an xBestIndex constraint, or nullopt when it is not one we push.
std::optional<ConstraintOp> OperatorOf(sqlite3_index_info* info, int i) {
  switch (info->aConstraint[i].op) {
    case SQLITE_INDEX_CONSTRAINT_EQ: return sqlite3_vtab_in(info, i, -1) ? ConstraintOp::kIn : ConstraintOp::kEq;
    case SQLITE_INDEX_CONSTRAINT_NE: return ConstraintOp::kNe;
    case SQLITE_INDEX_CONSTRAINT_LT: return ConstraintOp::kLt;
    case SQLITE_INDEX_CONSTRAINT_LE: return ConstraintOp::kLe;
    case SQLITE_INDEX_CONSTRAINT_GT: return ConstraintOp::kGt;
    case SQLITE_INDEX_CONSTRAINT_GE: return ConstraintOp::kGe;
    case SQLITE_INDEX_CONSTRAINT_IS: return ConstraintOp::kIs;
    case SQLITE_INDEX_CONSTRAINT_ISNOT: return ConstraintOp::kIsNot;
    case SQLITE_INDEX_CONSTRAINT_ISNULL: return ConstraintOp::kIsNull;
    case SQLITE_INDEX_CONSTRAINT_ISNOTNULL: return ConstraintOp::kIsNotNull;
    case SQLITE_INDEX_CONSTRAINT_LIKE: return ConstraintOp::kLike;
    case SQLITE_INDEX_CONSTRAINT_GLOB: return ConstraintOp::kGlob;
    case SQLITE_INDEX_CONSTRAINT_LIMIT: return ConstraintOp::kLimit;
    case SQLITE_INDEX_CONSTRAINT_OFFSET: return ConstraintOp::kOffset;
    default: return std::nullopt;
  }
}

// Whether usable constraint i (not LIMIT/OFFSET) can be pushed, and whether our filtering
// of it is exactly SQLite's (*omit). See constraints.h for the rules.
bool AcceptConstraint(const ParquetTable& table, sqlite3_index_info* info, int i, ConstraintOp op, bool* omit) {
  const int column = info->aConstraint[i].iColumn;
  ColumnPushdown p{true, ValueClass::kNumeric, true, false};  // the rowid
  if (column >= 0) {
    if (static_cast<size_t>(column) >= table.pushdown.size()) return false;
    p = table.pushdown[static_cast<size_t>(column)];
  }
  if (!p.pushable) return false;
  *omit = false;
  switch (op) {
    case ConstraintOp::kIsNull:
    case ConstraintOp::kIsNotNull:
      *omit = true;  // NULL tests mean the same in every storage class
      return true;
    case ConstraintOp::kLike:
    case ConstraintOp::kGlob:
      return p.value_class == ValueClass::kText;  // a prefix range only: SQLite checks the pattern
    default: break;
  }
  if (p.value_class == ValueClass::kText) {
    const char* collation = sqlite3_vtab_collation(info, i);
    if (collation && sqlite3_stricmp(collation, "BINARY") != 0) return false;
    // No IN on TEXT columns: SQLite turns `c = 'a' COLLATE NOCASE OR c = 'b' COLLATE NOCASE`
    // into `c IN ('a', 'b')` and then reports the column's collation (BINARY) for that IN,
    // while its own evaluation keeps NOCASE, so our BINARY test would drop matching rows.
    // The values of an IN list carry no collation we could check.
    if (op == ConstraintOp::kIn) return false;
    sqlite3_value* rhs = nullptr;
    if (sqlite3_vtab_rhs_value(info, i, &rhs) != SQLITE_OK || rhs == nullptr) return false;
    const int type = sqlite3_value_type(rhs);
    if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) return false;
  }
  // Columns whose conversion can fail (timestamps to epoch units) keep SQLite's check, so
  // that the error is not lost with the row.
  bool can_fail = false;
  if (column >= 0 && static_cast<size_t>(column) < table.file_columns.size()) {
    const std::string& declared = table.file_columns[static_cast<size_t>(column)].declared_type;
    can_fail = declared.rfind("INTEGER", 0) == 0 && declared.find("TIME") != std::string::npos;
  }
  *omit = p.exact && !can_fail;
  return true;
}

// The row-group order of the first file's columns, read at the first planning rather than
// at connect: a table stored in a database file is connected by PRAGMA table_info, `.schema`
// and uses through views (before SQLite refuses those), which need only its columns.
void ReadOrderStatistics(ParquetTable* table) {
  if (table->order_statistics_read) return;
  table->order_statistics_read = true;
  try {
    // Only an aid to planning: a file whose statistics cannot be read is simply not known
    // to be ordered (a scan reports real errors).
    auto first = parquet::ParquetFileReader::Open(table->files[0]);
    FindOrderedColumns(table, *first, table->files.size() == 1);
  } catch (const std::exception&) {  // also bad_alloc: xBestIndex must not throw
  }
}

// Whether an equality (=, IS, IN) on `column` can be answered by a join index: a plain
// file column, with join_index_memory above 0. (A sorted column's lookups are costed as
// sorted: see CostOf.)
bool JoinIndexApplies(const ParquetTable& table, int column, ConstraintOp op) {
  if (table.options.join_index_memory <= 0 || table.options.union_by_name) return false;
  if (column < 0 || column >= table.hive_column()) return false;
  if (op != ConstraintOp::kEq && op != ConstraintOp::kIs && op != ConstraintOp::kIn) return false;
  const ColumnPushdown& p = table.pushdown[static_cast<size_t>(column)];
  return p.pushable && p.value_class != ValueClass::kNull;
}

// What the file can do with a constraint on `column` (plan_cost.h).
CostedConstraint CostOf(const ParquetTable& table, int column, ConstraintOp op) {
  CostedConstraint c;
  c.op = op;
  c.row_position = column < 0 || column == table.file_row_number_column();
  if (c.row_position || (column < static_cast<int>(table.pushdown.size()) &&
                         table.pushdown[static_cast<size_t>(column)].ordered)) {
    c.reach = ConstraintReach::kSorted;
  } else if (JoinIndexApplies(table, column, op)) {
    c.reach = ConstraintReach::kJoinIndex;
    c.rows_per_key = table.join_indexes.RowsPerKey(column);
  }
  return c;
}

int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  ParquetTable* table = reinterpret_cast<ParquetTable*>(vtab);
  ReadOrderStatistics(table);
  const double rows = static_cast<double>(std::max<int64_t>(table->estimated_rows, 1));
  std::vector<PlanTerm> terms;
  int limit_index = -1, offset_index = -1;
  bool all_omitted = true;
  std::vector<CostedConstraint> costed;  // plan_cost.h
  uint64_t filter_columns = 0;  // bit per column a pushed constraint decodes
  std::vector<int> argv_of_constraint(static_cast<size_t>(info->nConstraint), 0);
  for (int i = 0; i < info->nConstraint; i++) {
    const auto& constraint = info->aConstraint[i];
    std::optional<ConstraintOp> op = OperatorOf(info, i);
    if (op == ConstraintOp::kLimit || op == ConstraintOp::kOffset) {
      if (constraint.usable) (op == ConstraintOp::kLimit ? limit_index : offset_index) = i;
      continue;
    }
    bool omit = false;
    if (op == ConstraintOp::kIn && !sqlite3_vtab_in(info, i, 1)) {
      // SQLite cannot hand over the list at once: it runs the scan once per value, as =
      // (and then refuses a plan that takes LIMIT).
      op = ConstraintOp::kEq;
      all_omitted = false;
    }
    if (!constraint.usable || !op || !AcceptConstraint(*table, info, i, *op, &omit)) {
      all_omitted = false;
      continue;
    }
    terms.push_back(PlanTerm{constraint.iColumn, *op});
    argv_of_constraint[static_cast<size_t>(i)] = TermHasArgument(*op) ? 1 : 0;
    info->aConstraintUsage[i].omit = omit ? 1 : 0;
    all_omitted = all_omitted && omit;
    costed.push_back(CostOf(*table, constraint.iColumn, *op));
    if (constraint.iColumn >= 0 && constraint.iColumn < 64) filter_columns |= uint64_t{1} << constraint.iColumn;
  }
  // ORDER BY one column the single file is sorted by, ascending (checked on first use).
  const bool order_consumed = info->nOrderBy == 1 && info->aOrderBy[0].desc == 0 &&
                              table->order_candidate_column >= 0 &&
                              info->aOrderBy[0].iColumn == table->order_candidate_column && OrderVerified(table);
  if (order_consumed) info->orderByConsumed = 1;
  // LIMIT and OFFSET only when SQLite filters and sorts nothing after us.
  if (all_omitted && limit_index >= 0 && (info->nOrderBy == 0 || order_consumed)) {
    terms.push_back(PlanTerm{kRowidColumn, ConstraintOp::kLimit});
    argv_of_constraint[static_cast<size_t>(limit_index)] = 1;
    info->aConstraintUsage[limit_index].omit = 1;
    if (offset_index >= 0) {
      // The LIMIT value excludes the OFFSET, which SQLite still applies (omit would make
      // the table skip it, but SQLite 3.40 then shares one offset counter between the
      // members of a compound SELECT and each member would skip the whole offset).
      terms.push_back(PlanTerm{kRowidColumn, ConstraintOp::kOffset});
      argv_of_constraint[static_cast<size_t>(offset_index)] = 1;
    }
  }
  // xFilter arguments in the order of `terms` (which follow the constraint order, LIMIT and
  // OFFSET last).
  int next_argv = 1;
  for (int i = 0; i < info->nConstraint; i++) {
    if (!argv_of_constraint[static_cast<size_t>(i)]) continue;
    const std::optional<ConstraintOp> op = OperatorOf(info, i);
    if (op == ConstraintOp::kLimit || op == ConstraintOp::kOffset) continue;
    info->aConstraintUsage[i].argvIndex = next_argv++;
  }
  if (limit_index >= 0 && argv_of_constraint[static_cast<size_t>(limit_index)]) {
    info->aConstraintUsage[limit_index].argvIndex = next_argv++;
    if (offset_index >= 0) info->aConstraintUsage[offset_index].argvIndex = next_argv++;
  }
  int used = 0;
  for (int i = 0; i < 64; i++) used += (info->colUsed >> i) & 1;
  int filtered = 0;
  for (int i = 0; i < 64; i++) filtered += (filter_columns >> i) & 1;
  const PlanEstimate estimate = EstimateScan(rows, costed, used, filtered);
  info->estimatedRows = static_cast<sqlite3_int64>(estimate.rows);
  info->estimatedCost = estimate.cost;
  info->idxNum = 0;
  if (!terms.empty()) {
    const std::string plan = EncodePlan(terms, table->column_names);
    info->idxStr = sqlite3_mprintf("%s", plan.c_str());
    if (!info->idxStr) return SQLITE_NOMEM;
    info->needToFreeIdxStr = 1;
  }
  return SQLITE_OK;
}

int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  try {
    ParquetTable* table = reinterpret_cast<ParquetTable*>(vtab);
    auto cursor = std::make_unique<ParquetCursor>();
    std::memset(&cursor->base, 0, sizeof(cursor->base));
    cursor->states.resize(table->file_columns.size());
    cursor->format_buffer.dates = &cursor->dates;
    cursor->memory_budget =
        std::make_shared<parquet::MemoryBudget>(static_cast<uint64_t>(table->options.max_memory), "max_memory");
    *out = &cursor.release()->base;
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

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
    state.counted = now;
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

int Close(sqlite3_vtab_cursor* base) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  try {
    FinishScan(cursor);
  } catch (...) {
  }
  sqlite3_finalize(cursor->interrupt_probe);
  delete cursor;
  return SQLITE_OK;
}

// Rows of the files before the current one (counted from their footers when a scan skipped
// them unopened).
int64_t RowsBeforeFile(ParquetCursor* cursor, const ParquetTable& table) {
  if (cursor->rows_before_file >= 0) return cursor->rows_before_file;
  int64_t rows = 0;
  for (size_t f = 0; f < cursor->file_index; f++) {
    if (table.file_rows[f] < 0) {
      table.file_rows[f] = parquet::ParquetFileReader::Open(table.files[f], table.options.decryption.get())->num_rows();
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

// The day range equivalent to `filter` on a column mapped by `mapping` (DayRange), found by
// binary search over the days of years 0000..9999 with the same comparison RowMatches makes
// on their text; inactive when the filter is not a comparison of DATE text.
DayRange DayRangeOf(const ColumnFilter& filter, const ColumnMapping& mapping) {
  DayRange range;
  if (!filter.active || mapping.kind != ValueKind::kDate || mapping.timestamp_form != TimestampForm::kText) return range;
  switch (filter.op) {
    case ConstraintOp::kEq: case ConstraintOp::kNe: case ConstraintOp::kLt:
    case ConstraintOp::kLe: case ConstraintOp::kGt: case ConstraintOp::kGe: break;
    default: return range;
  }
  const SqlValue& constant = filter.values[0];
  if (constant.is_null()) return range;
  auto compare = [&constant](int64_t day) {
    char text[64];
    const size_t n = parquet::FormatDate(static_cast<int32_t>(day), text);
    return CompareSqlValues(SqlValue::Text(std::string_view(text, n)), constant);
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
  const int64_t at_least = first_day(false), above = first_day(true);
  range.active = true;
  switch (filter.op) {
    case ConstraintOp::kNe: range.outside = true; [[fallthrough]];
    case ConstraintOp::kEq: range.lo = at_least; range.hi = above - 1; break;
    case ConstraintOp::kLt: range.lo = kFirstFourDigitYearDay; range.hi = at_least - 1; break;
    case ConstraintOp::kLe: range.lo = kFirstFourDigitYearDay; range.hi = above - 1; break;
    case ConstraintOp::kGt: range.lo = above; range.hi = kLastFourDigitYearDay; break;
    default: range.lo = at_least; range.hi = kLastFourDigitYearDay; break;  // kGe
  }
  return range;
}

// The filters of the current file: which run per row, and the row-group pruner. A filter on
// a column whose values in this file are not of the table's class (union_by_name) is left
// to SQLite, except NULL tests.
void SetUpFileFilters(ParquetCursor* cursor, const ParquetTable& table) {
  cursor->row_filters.clear();
  cursor->row_filter_days.clear();
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
    cursor->row_filter_days.push_back(always_null ? DayRange() : DayRangeOf(filter, mapping));
    prunable.push_back(FileColumnFilter{&filter, &mapping});
  }
  cursor->pruner = std::make_unique<RowGroupPruner>(*cursor->file, std::move(prunable));
}

// Makes file `index` the cursor's current file: the readers of the previous file and the
// file itself are closed first, so at most one file is open.
void OpenFile(ParquetCursor* cursor, const ParquetTable& table, size_t index) {
  CollectReaderCounters(cursor);
  cursor->pruner.reset();
  for (ColumnState& state : cursor->states) state = ColumnState();
  if (cursor->batch_cache) cursor->batch_cache->ForgetReaders();
  cursor->file.reset();
  cursor->mappings.clear();
  cursor->file_index = index;
  cursor->row_group = 0;
  cursor->group_entered = false;
  cursor->row = 0;
  cursor->file = parquet::ParquetFileReader::Open(table.files[index], table.options.decryption.get());
  cursor->mappings = MapFileColumns(table, *cursor->file, table.files[index]);
  table.file_rows[index] = cursor->file->num_rows();
  SetUpFileFilters(cursor, table);
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
      // Row positions need the rows of every earlier file.
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
// for sqlite3_interrupt() at every row group and every 65536 rows looked at. SQLite 3.41
// and later say so directly (sqlite3_is_interrupted). Before 3.41, a statement stepped
// while another runs on the same connection fails with SQLITE_INTERRUPT once
// sqlite3_interrupt() was called (the flag is cleared only when no statement is active),
// so a trivial one is stepped instead.
void CheckInterrupt(ParquetCursor* cursor, const ParquetTable& table) {
  cursor->rows_since_probe = 0;
  if (RunningSqliteAtLeast(kSqliteWithIsInterrupted)) {
    if (sqlite3_is_interrupted(table.db)) throw ScanInterrupted();
    return;
  }
  if (!cursor->interrupt_probe &&
      sqlite3_prepare_v2(table.db, "SELECT 1", -1, &cursor->interrupt_probe, nullptr) != SQLITE_OK) {
    return;
  }
  const int rc = sqlite3_step(cursor->interrupt_probe);
  sqlite3_reset(cursor->interrupt_probe);
  if (rc == SQLITE_INTERRUPT) throw ScanInterrupted();
}

// Checks the cursor's row group against the constraints: the rows it may return
// ([row, row_end)) by row position, then statistics and bloom filters. False
// when nothing in it can match.
bool EnterRowGroup(ParquetCursor* cursor, const ParquetTable& table) {
  const parquet::ParquetFileReader& file = *cursor->file;
  const int rg = cursor->row_group;
  CheckInterrupt(cursor, table);
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
  parquet::RowRanges candidates = parquet::RowRanges::FromRanges({parquet::RowRange{lo, hi}});
  if (cursor->indexed_filter >= 0) {
    candidates = IndexedRows(*cursor, first + lo, first + hi, first);
    if (candidates.empty()) {
      cursor->stats.row_groups_pruned_by_join_index++;
      return false;
    }
  }
  parquet::ColumnReaderOptions options;
  options.verify_crc = table.options.verify_crc;
  switch (cursor->pruner->Check(rg, options, &cursor->pruning_counters)) {
    case PruneReason::kStatistics: cursor->stats.row_groups_pruned_by_statistics++; return false;
    case PruneReason::kBloomFilter: cursor->stats.row_groups_pruned_by_bloom_filter++; return false;
    case PruneReason::kDictionary: cursor->stats.row_groups_pruned_by_dictionary++; return false;
    case PruneReason::kPageIndex:
    case PruneReason::kKeep: break;
  }
  cursor->ranges = cursor->pruner->MatchingRows(rg, candidates, &cursor->stats.pages_pruned_by_page_index);
  if (cursor->ranges.empty()) {
    cursor->stats.row_groups_pruned_by_page_index++;
    return false;
  }
  cursor->range_index = 0;
  cursor->row = cursor->ranges.range(0).begin;
  cursor->row_end = cursor->ranges.last_end();
  cursor->group_entered = true;
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
      const DayRange& days = cursor->row_filter_days[k];
      if (days.active && index >= 0) {
        const int32_t day = state.batch.values<int32_t>()[index];
        if (day >= kFirstFourDigitYearDay && day <= kLastFourDigitYearDay) {
          if ((day >= days.lo && day <= days.hi) == days.outside) return false;
          continue;
        }
      }
      if (index >= 0 &&
          !ColumnSqlValue(mapping, state.batch, static_cast<size_t>(index), &cursor->format_buffer, &value)) {
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

// From the cursor's position (possibly past its row group), moves to the first row that
// passes every filter, or to EOF. The loop returns to SQLite only with a
// row, so a selective filter may scan many row groups in one call: CheckInterrupt keeps
// it interruptible.
void Advance(ParquetCursor* cursor, const ParquetTable& table) {
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
    cursor->stats.rows_decoded++;
    if (++cursor->rows_since_probe >= 65536) CheckInterrupt(cursor, table);
    if (!RowPasses(cursor, table)) {
      cursor->row++;
      continue;
    }
    cursor->stats.rows_returned++;
    if (cursor->limit_remaining > 0) cursor->limit_remaining--;
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
// lookup. Otherwise one is built once this statement's lookups of the column have decoded a
// quarter of the table's rows without one (the first lookup of an unprunable column decodes
// them all; a sorted column's lookups a page each): building reads the column once, so
// lookups never cost much more than with the index from the start.
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
      const bool may_build = asked && !refused && cursor->lookup_rows[column] * 4 >= table.estimated_rows;
      // (The first lookup asks only when the table keeps an index of the column: asking
      // checks every file's size and time.)
      if ((!asked && table.join_indexes.Has(filter.column)) || may_build) {
        JoinIndexSource source;
        source.files = &table.files;
        source.decryption = table.options.decryption.get();
        source.verify_crc = table.options.verify_crc;
        source.mapping_of = [&table, column](const parquet::ParquetFileReader& file, size_t f) {
          return MapFileColumns(table, file, table.files[f])[column];
        };
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

int Filter(sqlite3_vtab_cursor* base, int, const char* idx_str, int argc, sqlite3_value** argv) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  const ParquetTable& table = *TableOf(base);
  try {
    FinishScan(cursor);
    cursor->eof = true;
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
      for (ColumnState& state : cursor->states) state.row_group = -1;
      SetUpFileFilters(cursor, table);
    } else {
      CollectReaderCounters(cursor);
      for (ColumnState& state : cursor->states) state = ColumnState();
      cursor->pruner.reset();
      if (cursor->batch_cache) cursor->batch_cache->ForgetReaders();
      cursor->file.reset();
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
  // nothing is tested per row (no row filters, no LIMIT, no interrupt check due). The
  // columns are positioned lazily by xColumn.
  const int64_t row = ++cursor->row;
  if (cursor->group_entered && cursor->limit_remaining < 0 && cursor->row_filters.empty() &&
      cursor->rowid_filters.empty() && cursor->file_row_filters.empty() &&
      row < cursor->ranges.range(cursor->range_index).end && cursor->rows_since_probe + 1 < 65536) {
    cursor->rows_since_probe++;
    cursor->stats.rows_decoded++;
    cursor->stats.rows_returned++;
    return SQLITE_OK;
  }
  try {
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
}

// The slow part of PositionColumn: (re)opens the column's reader on the cursor's row group
// and decodes the batch holding the cursor's row, skipping the rows before it undecoded.
[[gnu::noinline]] void LoadBatch(ParquetCursor* cursor, const ParquetTable& table, int leaf, ColumnState* state) {
  if (cursor->indexed_filter >= 0 && LookupBatchCache::Cacheable(cursor->file->schema().column(leaf).physical_type)) {
    LoadKeptBatch(cursor, table, leaf, state);
    return;
  }
  if (state->row_group != cursor->row_group) {
    if (!state->reader) {
      parquet::ColumnReaderOptions options;
      options.verify_crc = table.options.verify_crc;
      options.memory_budget = cursor->memory_budget;
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
  if (row > state->batch_end) {
    const size_t gap = static_cast<size_t>(row - state->batch_end);
    if (state->reader->Skip(gap) != gap) ThrowShortColumn(cursor, leaf);
  }
  if (state->reader->ReadBatch(kBatchSlots, &state->batch) == 0) ThrowShortColumn(cursor, leaf);
  StartBatch(cursor, state, row);
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
  const int16_t max_def = state->max_def;
  const int16_t* def = state->batch.def_levels.data();
  size_t value = state->value;
  for (size_t j = state->slot; j < slot; j++) value += (def[j] == max_def);
  state->slot = slot;
  state->value = value;
  return def[slot] == max_def ? static_cast<int64_t>(value) : -1;
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
                          table->files[cursor->file_index] +
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
  if (column == table->filename_column()) {
    const std::string& path = table->files[cursor->file_index];
    sqlite3_result_text64(ctx, path.data(), path.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  } else if (column == table->file_row_number_column()) {
    sqlite3_result_int64(ctx, RowInFile(cursor));
  } else {
    const size_t key = static_cast<size_t>(column - table->hive_column());
    const HiveValue& value = table->hive_values[cursor->file_index][key];
    if (value.is_null) {
      sqlite3_result_null(ctx);
    } else if (table->hive_keys[key].type == HiveType::kInteger) {
      sqlite3_result_int64(ctx, value.integer);
    } else if (table->hive_keys[key].type == HiveType::kReal) {
      sqlite3_result_double(ctx, value.real);
    } else {
      sqlite3_result_text64(ctx, value.text.data(), value.text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    }
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
  const int16_t max_def = state->max_def;
  const int16_t* def = state->batch.def_levels.data();
  size_t value = state->value;
  for (size_t j = state->slot; j < slot; j++) value += (def[j] == max_def);
  state->slot = slot;
  state->value = value;
  if (def[slot] != max_def) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  return ResultValue(ctx, mapping, state->batch, value, &cursor->text, &cursor->dates);
}

// Sets the result to the value of `state`'s column in the cursor's row, which lies in the
// loaded batch.
inline int ResultCell(ParquetCursor* cursor, sqlite3_context* ctx, const ColumnMapping& mapping, ColumnState* state) {
  if (!state->dense) return ResultSparseCell(cursor, ctx, mapping, state);
  const size_t index = static_cast<size_t>(cursor->row - state->batch_first_row);
  return ResultValue(ctx, mapping, state->batch, index, &cursor->text, &cursor->dates);
}

// xColumn when the column's batch does not hold the cursor's row: decode it first.
[[gnu::noinline]] int LoadAndResultCell(ParquetCursor* cursor, sqlite3_context* ctx, const ColumnMapping& mapping,
                                        ColumnState* state) {
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

// Called once per cell. The hot path: a plain leaf column whose decoded batch (without
// nulls) holds the row: two comparisons, an index and one sqlite3_result_* call on the value
// (DirectCell). Everything else is out of line (IndirectColumn). A column that is not a
// plain leaf never has its batch range set (batch_end stays 0), nor a DirectCell.
int Column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  if (static_cast<size_t>(column) < cursor->states.size()) [[likely]] {
    const ColumnState& state = cursor->states[static_cast<size_t>(column)];
    const int64_t row = cursor->row;
    if (state.row_group == cursor->row_group && row < state.batch_end) [[likely]] {
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
          sqlite3_result_text(ctx, reinterpret_cast<const char*>(static_cast<const parquet::ByteArray*>(state.direct_values)[i].ptr),
                              -1, SQLITE_TRANSIENT);
          return SQLITE_OK;
        case DirectCell::kText: {
          const parquet::ByteArray& v = static_cast<const parquet::ByteArray*>(state.direct_values)[i];
          ResultText(ctx, reinterpret_cast<const char*>(v.ptr), v.len);
          return SQLITE_OK;
        }
        case DirectCell::kDateText: {
          size_t length = 0;
          sqlite3_result_text(ctx, cursor->dates.Format(static_cast<const int32_t*>(state.direct_values)[i], &length), -1,
                              SQLITE_TRANSIENT);
          return SQLITE_OK;
        }
        case DirectCell::kNone: break;
      }
    }
  }
  return IndirectColumn(cursor, ctx, column);
}

sqlite3_module parquet_module = {
    /* iVersion    */ 0,
    /* xCreate     */ Create,
    /* xConnect    */ Connect,
    /* xBestIndex  */ BestIndex,
    /* xDisconnect */ Disconnect,
    /* xDestroy    */ Disconnect,
    /* xOpen       */ Open,
    /* xClose      */ Close,
    /* xFilter     */ Filter,
    /* xNext       */ Next,
    /* xEof        */ Eof,
    /* xColumn     */ Column,
    /* xRowid      */ Rowid,
    /* xUpdate     */ nullptr,
    /* xBegin      */ nullptr,
    /* xSync       */ nullptr,
    /* xCommit     */ nullptr,
    /* xRollback   */ nullptr,
    /* xFindMethod */ nullptr,
    /* xRename     */ nullptr,
    /* xSavepoint  */ nullptr,
    /* xRelease    */ nullptr,
    /* xRollbackTo */ nullptr,
    /* xShadowName */ nullptr,
    /* xIntegrity  */ nullptr,  // SQLite 3.44+; not read at iVersion 0
};

}  // namespace

int RegisterParquetModule(sqlite3* db) { return sqlite3_create_module_v2(db, "parquet", &parquet_module, nullptr, nullptr); }

}  // namespace sqlite_parquet
