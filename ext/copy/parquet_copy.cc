// The parquet_copy() SQL function: runs a query and writes its result as a Parquet file.
//
// USAGE
//
//   SELECT parquet_copy('SELECT ... FROM ...', 'out.parquet' [, 'key=value', ...]);
//
// Runs the query on the calling connection and writes every row it returns; the result is
// the number of rows written. Each option is one argument in the key=value spelling of the
// virtual table's arguments (values may be quoted; an unknown or repeated key is an error
// naming it):
//
//   compression=uncompressed|snappy|gzip|brotli|zstd|lz4_raw   codec (default snappy)
//   compression_level=N      codec level (gzip 0..9, brotli 0..11, zstd -131072..22)
//   compression.COL=...      codec of one column
//   compression_level.COL=N  codec level of one column (default: compression_level when
//                            the column's codec is the file's, else the codec's default)
//   encoding.COL=plain|dictionary|delta_binary_packed|delta_length_byte_array|
//                delta_byte_array|byte_stream_split|rle      value encoding of one column
//   dictionary=0|1           dictionary encoding with fallback (default 1)
//   dictionary_size_limit=N  bytes a dictionary may reach before the fallback (default 1 MiB)
//   automatic_encoding=0|1   pick the fallback encoding per column (default 1)
//   data_page_version=1|2    (default 1)
//   page_size=N              bytes of encoded values per data page (default 256 KiB)
//   row_group_size=N         rows per row group (default 122880)
//   row_group_bytes=N        also cut a row group when its buffered values pass N bytes
//                            (default 128 MiB)
//   statistics=0|1           min/max/null_count statistics (default 1)
//   statistics_truncate_length=N   byte-array bounds longer than N are truncated (default 64)
//   write_crc=0|1            page CRCs (default 1)
//   write_page_index=0|1     ColumnIndex and OffsetIndex (default 1)
//   bloom_filter=COL,...|*   bloom filters for these columns
//   bloom_fpp=P              their false-positive probability (default 0.01)
//   sorting_columns='COL [ASC|DESC] [NULLS FIRST|NULLS LAST], ...'  recorded in row groups,
//                            after checking that the rows are in that order (NULLs by
//                            default where SQLite sorts them: first ascending, last descending)
//   kv_metadata='key=value;...'    key/value metadata in the footer
//   field_ids=none|auto      auto: field_id 1, 2, ... on every schema element
//   schema='COL TYPE, ...'   the Parquet type of some columns (syntax in copy_schema.h)
//   on_type_error=error|null a value that does not fit its column fails the copy or is NULL
//   overwrite=0|1            replace an existing target (default 1)
//   partition_by=COL,...     hive-partitioned directory tree COL=value/.../part-N.parquet
//   s3_region, s3_endpoint, s3_url_style, s3_access_key_id, s3_secret_access_key,
//   s3_session_token, http_retries   for an s3:// target (copy_remote.h, remote_options.h)
//   encryption=aes_gcm|aes_gcm_ctr   Parquet modular encryption (the options below need it)
//   footer_key=KEY           key of the footer and of every column without its own key;
//                            KEY is hex:..., base64:... or raw text of 16, 24 or 32 bytes
//   column_keys='PATH:KEY,...'       columns (dotted leaf paths) with their own key
//   plaintext_columns=PATH,...       columns left unencrypted
//   plaintext_footer=0|1     readable footer signed with the footer key (default 0: PARE)
//   aad_prefix=TEXT          AAD prefix binding the file's modules to TEXT
//   store_aad_prefix=0|1     store it in the file (default 1; 0: readers must supply it)
//   footer_key_metadata=TEXT key_metadata stored for the footer key
//   column_key_metadata='PATH:TEXT,...'  key_metadata stored for column keys
//
// The function is SQLITE_DIRECTONLY: views, triggers and schema expressions cannot call it,
// so a database file made by someone else cannot make the extension write files.
//
// HOW IT WORKS
//
// The query is prepared on the same connection (it must be one read-only statement) and
// run as the argument list of the internal aggregate parquet_copy_rows, so that each row
// arrives as an array of sqlite3_values from inside a single sqlite3_step (a query that
// cannot be wrapped, such as a PRAGMA, is stepped row by row instead). Once every
// column's type is fixed (before the first row with schema= or declared types), each cell
// of a flat column is converted as it is read into its column's typed level and value
// buffers (copy_values.h AppendFlatValue; INTEGER into INT64, REAL into DOUBLE, TEXT into
// STRING or DATE inline),
// and every 1024 rows these go to the writer's open row group, whose pages the writer
// encodes and compresses as they fill (finished pages wait in a spill file beside the
// output, not in memory: file_writer.h); the row group ends at row_group_size rows or
// row_group_bytes bytes. Nested columns, and every column until the types are fixed, are
// buffered as SQLite gave them (ValueColumn) and converted per batch. A column whose type
// comes from its values (see copy_schema.h) makes the first row group buffer whole until
// its types are fixed; then the rest streams the same way. Memory is therefore the open
// pages and dictionaries of one row group (plus the first row group's values as SQLite gave
// them, for untyped columns) whatever the result size.
//
// Output is atomic (copy_output.h): everything is written to a temporary file (or
// directory, with partition_by) beside the target and moved into place at the end; on any
// error — a bad option, a failing query, a type error, a full disk, an interrupt — the
// target is left as it was and the temporary output is removed.
//
// With partition_by, each distinct combination of partition values gets a directory
// "col=value/..." (values percent-escaped as Hive does; NULL and '' become
// __HIVE_DEFAULT_PARTITION__) holding part-0.parquet, part-1.parquet, ...; the partition
// columns are not stored in the files. Rows are buffered per partition within the same
// overall budget (so with many partitions the row groups get small); at most 256 partition
// files are open at once (a partition whose file had to be closed continues in its next
// part-N file).
#include "ext/copy/parquet_copy.h"

#include <sys/stat.h>
#ifdef __GLIBC__
#include <malloc.h>  // malloc_trim
#endif

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ext/copy/copy_output.h"
#include "ext/copy/copy_remote.h"
#include "ext/copy/copy_schema.h"
#include "ext/copy/copy_settings.h"
#include "ext/copy/copy_sort_check.h"
#include "ext/copy/copy_values.h"
#include "ext/copy/copy_writer_thread.h"
#include "ext/common/encryption_options.h"
#include "ext/common/hive_partitions.h"
#include "ext/common/options.h"
#include "ext/common/schema_guard.h"
#include "format/compression.h"
#include "format/error.h"
#include "format/file_writer.h"
#include "format/logical_values.h"
#include "format/statistics.h"
#include "format/text.h"

namespace sqlite_parquet {

namespace {

constexpr size_t kMaxOpenPartitionFiles = 256;
// Once the column types are fixed, buffered rows go to the writer's open row group in
// batches of this many (its pages are encoded and compressed as they fill).
constexpr size_t kStreamBatchRows = 1024;
// The pointer type under which parquet_copy hands its Copier to parquet_copy_rows.
constexpr const char* kCopierPointerType = "sqlite_parquet_copier";

// An error of the query itself, reported with its own SQLite result code.
class QueryError : public std::runtime_error {
 public:
  QueryError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

void MakeDirectories(const std::string& root, const std::string& relative) {
  std::string path = root;
  size_t start = 0;
  while (start < relative.size()) {
    size_t end = relative.find('/', start);
    if (end == std::string::npos) end = relative.size();
    path += "/" + relative.substr(start, end - start);
    if (::mkdir(path.c_str(), 0777) != 0 && errno != EEXIST) {
      throw CopyError("cannot create directory '" + path + "': " + std::strerror(errno));
    }
    start = end + 1;
  }
}

// How parquet_copy converts the cells of a column once its type is fixed: the kinds with
// an inline path for their usual storage class, other flat kinds, nested (buffered as
// SQLite gave them, converted from JSON per batch).
enum class FlatKind : uint8_t { kInt64, kDouble, kText, kDate, kOther, kNested };

FlatKind FlatKindOf(const CopyType& type) {
  if (type.is_nested()) return FlatKind::kNested;
  switch (type.kind) {
    case CopyKind::kInt64: return FlatKind::kInt64;
    case CopyKind::kDouble: return FlatKind::kDouble;
    case CopyKind::kString:
    case CopyKind::kEnum:
    case CopyKind::kJson: return FlatKind::kText;
    case CopyKind::kDate: return FlatKind::kDate;
    default: return FlatKind::kOther;
  }
}

// One run of parquet_copy.
class Copier {
 public:
  Copier(sqlite3* db, std::string path, CopySettings settings)
      : db_(db), path_(std::move(path)), settings_(std::move(settings)) {}

  int64_t Run(const std::string& query) {
    Prepare(query);
    ResolveColumnOptions();
    // With every column's type known before the first row, rows stream to the writer from
    // the start; otherwise the first row group is buffered whole to see its values' classes.
    bool all_typed = true;
    for (const Column* column : data_columns_) all_typed = all_typed && column->type.has_value();
    if (all_typed) ResolveTypes();
    std::string local_path = path_;
    if (parquet::IsRemoteUrl(path_)) {
      remote_target_ = std::make_unique<RemoteCopyTarget>(path_, partitioned(), settings_.overwrite, settings_.remote);
      local_path = remote_target_->local_target();
    }
    staged_ = std::make_unique<StagedOutput>(
        local_path, partitioned() ? StagedOutput::Kind::kDirectory : StagedOutput::Kind::kFile, settings_.overwrite);
    if (!partitioned()) single_ = NewPartition("");

    if (!RunThroughRowSink()) StepQuery();
    Finish();
    if (remote_target_) remote_target_->Upload();
    return row_number_;
  }

  // The row sink's step (see RunThroughRowSink): takes one result row, its cells in result
  // column order. Exceptions stay here, for Run to rethrow once SQLite has stopped.
  bool ReceiveRowFromSink(sqlite3_value* const* cells, int count) noexcept {
    try {
      if (count != static_cast<int>(columns_.size())) throw CopyError("the row sink got a row of the wrong width");
      ReceiveRow(cells);
      return true;
    } catch (...) {
      sink_error_ = std::current_exception();
      return false;
    }
  }

 private:
  // Runs the query as the argument list of the parquet_copy_rows aggregate:
  //
  //   WITH "parquet_copy query"(c0, c1, ...) AS (<query>)
  //   SELECT parquet_copy_rows(:parquet_copy_rows_copier, c0, c1, ...) FROM "parquet_copy query"
  //
  // so that each row reaches ReceiveRow as the aggregate's argument array, from inside one
  // sqlite3_step: no step per row and no sqlite3_column_value per cell, which take the
  // connection's mutex and together cost SQLite about as much as producing the row (on the
  // 14-column benchmark table, 1M rows: 0.43 s through the aggregate against 0.75-0.99 s
  // stepped). SQLite keeps the rows in the query's order: a FROM clause with one
  // subquery and no ORDER BY of its own neither drops nor reorders the subquery's ORDER BY.
  // Returns false, having run nothing, when the query names "parquet_copy query" or the
  // wrapped query does not prepare (a PRAGMA, EXPLAIN, more columns than a function takes
  // arguments): StepQuery then runs it as is.
  bool RunThroughRowSink() {
    // A query naming a table like the wrapper's subquery would see the subquery instead.
    std::string lowered = query_text_;
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lowered.find("parquet_copy query") != std::string::npos) return false;
    std::string sql = "WITH \"parquet_copy query\"(";
    std::string arguments = ":parquet_copy_rows_copier";
    for (size_t i = 0; i < columns_.size(); ++i) {
      const std::string name = "c" + std::to_string(i);
      sql += (i > 0 ? ", " : "") + name;
      arguments += ", " + name;
    }
    // The newline ends a trailing "--" comment of the query.
    sql += ") AS (\n" + query_text_ + "\n) SELECT parquet_copy_rows(" + arguments + ") FROM \"parquet_copy query\"";
    StatementGuard sink;
    if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &sink.stmt, nullptr) != SQLITE_OK ||
        sink.stmt == nullptr) {
      return false;
    }
    const int copier = sqlite3_bind_parameter_index(sink.stmt, ":parquet_copy_rows_copier");
    if (copier == 0 || sqlite3_bind_pointer(sink.stmt, copier, this, kCopierPointerType, nullptr) != SQLITE_OK) {
      return false;
    }
    int rc = sqlite3_step(sink.stmt);
    if (rc == SQLITE_ROW) rc = sqlite3_step(sink.stmt);  // the aggregate's one row, then done
    if (sink_error_) std::rethrow_exception(sink_error_);
    if (rc != SQLITE_DONE) ThrowQueryError(rc);
    return true;
  }

  // Steps the query itself, row by row.
  void StepQuery() {
    std::vector<sqlite3_value*> cells(columns_.size());
    for (;;) {
      const int rc = sqlite3_step(statement_.stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) ThrowQueryError(rc);
      for (size_t i = 0; i < cells.size(); ++i) cells[i] = sqlite3_column_value(statement_.stmt, static_cast<int>(i));
      ReceiveRow(cells.data());
    }
  }

  [[noreturn]] void ThrowQueryError(int rc) {
    const std::string message = sqlite3_errmsg(db_);
    throw QueryError(rc, rc == SQLITE_INTERRUPT ? std::string("interrupted") : "parquet_copy: query failed: " + message);
  }

  // One result row, its cells in result column order.
  void ReceiveRow(sqlite3_value* const* cells) {
    ++row_number_;
    Partition& partition = partitioned() ? PartitionOfRow(cells) : *single_;
    AppendRow(partition, row_number_, cells);
    if (partition.rows >= static_cast<size_t>(settings_.row_group_size) ||
        partition.bytes >= static_cast<size_t>(settings_.row_group_bytes)) {
      Flush(partition);
    } else if (partition.buffered >= kStreamBatchRows && types_resolved_) {
      WriteBuffered(partition);
    }
    if (partitioned() && (total_rows_ >= static_cast<size_t>(settings_.row_group_size) ||
                          total_bytes_ >= static_cast<size_t>(settings_.row_group_bytes))) {
      FlushLargestPartitions();
    }
  }

  struct Column {
    std::string name;
    int result_index = 0;
    bool is_partition = false;
    std::optional<CopyType> type;  // fixed by schema= or the declared type, else at the first flush
    int first_leaf = 0;
  };

  struct Partition {
    std::string directory;                // relative to the output root ("" unpartitioned)
    std::vector<ValueColumn> values;      // one per data column: rows not given to the writer yet
    // Once the types are fixed, flat columns skip `values`: each cell is converted as it is
    // read, into its column's leaf (one per data column; unused for nested ones).
    std::vector<LeafData> leaves;
    std::vector<int64_t> row_numbers;     // partitioned only: query row of each buffered row
    int64_t first_row_number = 0;         // unpartitioned: query row of the first buffered row
    size_t buffered = 0;                  // rows in `values`
    size_t rows = 0;                      // rows of the open row group (given to the writer or buffered)
    size_t bytes = 0;                     // their approximate size as SQLite gave them
    bool group_open = false;              // the writer has an open row group
    std::unique_ptr<parquet::ParquetFileWriter> writer;
    int next_file = 0;
    uint64_t last_used = 0;
    SortedRowsCheck sorted;               // the rows of the open row group follow sorting_columns
  };

  bool partitioned() const { return !settings_.partition_by.empty(); }

  void Prepare(const std::string& query) {
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(db_, query.c_str(), static_cast<int>(query.size()), &statement_.stmt, &tail) != SQLITE_OK) {
      throw CopyError(sqlite3_errmsg(db_));
    }
    if (statement_.stmt == nullptr) throw CopyError("the query is empty");
    query_text_.assign(query.c_str(), tail != nullptr ? static_cast<size_t>(tail - query.c_str()) : query.size());
    while (!query_text_.empty() && (query_text_.back() == ';' || std::isspace(static_cast<unsigned char>(query_text_.back())))) {
      query_text_.pop_back();
    }
    if (tail != nullptr && *tail != '\0') {
      StatementGuard rest;
      if (sqlite3_prepare_v2(db_, tail, -1, &rest.stmt, nullptr) != SQLITE_OK || rest.stmt != nullptr) {
        throw CopyError("the query must be a single statement");
      }
    }
    if (!sqlite3_stmt_readonly(statement_.stmt)) throw CopyError("the query must not modify the database");
    // Nothing would bind a parameter: SQLite would read it as NULL and write the wrong rows.
    if (const int parameters = sqlite3_bind_parameter_count(statement_.stmt); parameters > 0) {
      const char* name = nullptr;  // NULL for a plain "?" (and for the gaps before a "?N")
      for (int i = 1; i <= parameters && name == nullptr; ++i) name = sqlite3_bind_parameter_name(statement_.stmt, i);
      throw CopyError("the query has a parameter (" + std::string(name ? name : "?") +
                      ") that nothing binds: write its value into the query");
    }
    const int count = sqlite3_column_count(statement_.stmt);
    if (count == 0) throw CopyError("the query returns no columns");

    std::vector<std::string> used;
    for (int i = 0; i < count; ++i) {
      const char* raw = sqlite3_column_name(statement_.stmt, i);
      if (raw == nullptr) throw std::bad_alloc();
      std::string name = raw;
      std::string unique = name;
      for (int suffix = 1;; ++suffix) {
        bool clash = false;
        for (const std::string& earlier : used) clash = clash || SameName(earlier, unique);
        if (!clash) break;
        unique = name + "_" + std::to_string(suffix);
      }
      used.push_back(unique);
      Column column;
      column.name = unique;
      column.result_index = i;
      if (const char* declared = sqlite3_column_decltype(statement_.stmt, i)) {
        column.type = TypeFromDeclaredType(declared);
      }
      columns_.push_back(std::move(column));
    }
  }

  Column* FindColumn(std::string_view name) {
    for (Column& column : columns_) {
      if (SameName(column.name, name)) return &column;
    }
    return nullptr;
  }

  // A data (non-partition) column named by an option.
  Column& DataColumn(const std::string& option, const std::string& name) {
    Column* column = FindColumn(name);
    if (column == nullptr) throw CopyError(option + ": the query has no column named " + name);
    if (column->is_partition) throw CopyError(option + ": " + name + " is a partition column (not stored in the files)");
    return *column;
  }

  void ResolveColumnOptions() {
    for (const std::string& name : settings_.partition_by) {
      Column* column = FindColumn(name);
      if (column == nullptr) throw CopyError("partition_by: the query has no column named " + name);
      if (column->is_partition) throw CopyError("partition_by: " + name + " is named twice");
      column->is_partition = true;
      partition_columns_.push_back(column->result_index);
    }
    for (Column& column : columns_) {
      if (!column.is_partition) data_columns_.push_back(&column);
    }
    if (data_columns_.empty()) throw CopyError("partition_by: no column is left to write into the files");
    for (const CopyField& field : settings_.schema) {
      Column* column = FindColumn(field.name);
      if (column == nullptr) throw CopyError("schema: the query has no column named " + field.name);
      column->type = field.type;
    }
    for (const CopySettings::ColumnCompression& entry : settings_.codecs) {
      DataColumn(entry.codec ? "compression." + entry.name : "compression_level." + entry.name, entry.name);
    }
    for (const auto& [name, encoding] : settings_.encodings) DataColumn("encoding." + name, name);
    for (const std::string& name : settings_.bloom_columns) DataColumn("bloom_filter", name);
    for (const SortingSpec& spec : settings_.sorting) DataColumn("sorting_columns", spec.name);
  }

  std::unique_ptr<Partition> NewPartition(std::string directory) {
    auto partition = std::make_unique<Partition>();
    partition->directory = std::move(directory);
    partition->values.resize(data_columns_.size());
    return partition;
  }

  Partition& PartitionOfRow(sqlite3_value* const* cells) {
    key_.clear();
    for (int index : partition_columns_) {
      if (!key_.empty()) key_ += '/';
      key_ += EscapePartitionText(columns_[static_cast<size_t>(index)].name);
      key_ += '=';
      sqlite3_value* cell = cells[index];
      const int type = sqlite3_value_type(cell);
      std::string_view value;
      if (type == SQLITE_BLOB) {
        const void* blob = sqlite3_value_blob(cell);
        value = std::string_view(static_cast<const char*>(blob), blob ? static_cast<size_t>(sqlite3_value_bytes(cell)) : 0);
      } else if (type != SQLITE_NULL) {
        const unsigned char* text = sqlite3_value_text(cell);
        if (text == nullptr) throw std::bad_alloc();
        value = std::string_view(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(cell)));
      }
      key_ += value.empty() ? std::string(kHiveNullValue) : EscapePartitionText(value);
    }
    auto found = partitions_.find(key_);
    if (found != partitions_.end()) return *found->second;
    std::unique_ptr<Partition>& slot = partitions_[key_];
    slot = NewPartition(key_);
    return *slot;
  }

  void AppendRow(Partition& partition, int64_t row_number, sqlite3_value* const* cells) {
    if (partition.buffered == 0) partition.first_row_number = row_number;
    if (partitioned()) partition.row_numbers.push_back(row_number);
    size_t bytes = 9 * data_columns_.size();
    if (types_resolved_ && partition.leaves.size() != data_columns_.size()) PrepareFlatLeaves(partition);
    // Read with the sqlite3_value_* accessors, which take no connection mutex.
    for (size_t i = 0; i < data_columns_.size(); ++i) {
      sqlite3_value* value = cells[data_columns_[i]->result_index];
      if (types_resolved_ && flat_[i] != FlatKind::kNested) {
        // The common pairs of column type and storage class inline; the rest through
        // AppendFlatValue (the same conversions).
        LeafData& leaf = partition.leaves[i];
        const int storage = sqlite3_value_type(value);
        if (storage == SQLITE_NULL) {
          leaf.def_levels.push_back(0);
          continue;
        }
        switch (flat_[i]) {
          case FlatKind::kInt64:
            if (storage != SQLITE_INTEGER) break;
            leaf.int64s.push_back(sqlite3_value_int64(value));
            leaf.def_levels.push_back(1);
            continue;
          case FlatKind::kDouble:
            if (storage != SQLITE_FLOAT) break;
            leaf.doubles.push_back(sqlite3_value_double(value));
            leaf.def_levels.push_back(1);
            continue;
          case FlatKind::kText:
          case FlatKind::kDate: {
            if (storage != SQLITE_TEXT) break;
            const unsigned char* text = sqlite3_value_text(value);
            if (text == nullptr) throw std::bad_alloc();
            const size_t size = static_cast<size_t>(sqlite3_value_bytes(value));
            if (flat_[i] == FlatKind::kDate) {
              int32_t days = 0;
              if (!parquet::ParseDate(std::string_view(reinterpret_cast<const char*>(text), size), &days)) break;
              leaf.int32s.push_back(days);
            } else {
              const uint8_t* copy = size > 0 ? leaf.arena.Append(text, size) : nullptr;
              leaf.byte_arrays.push_back(parquet::ByteArray{copy, static_cast<uint32_t>(size)});
            }
            leaf.def_levels.push_back(1);
            bytes += size + 4;
            continue;
          }
          default:
            break;
        }
        bytes += AppendFlat(i, value, row_number, &leaf);
        continue;
      }
      ValueColumn& values = partition.values[i];
      switch (sqlite3_value_type(value)) {
        case SQLITE_INTEGER:
          values.AppendInteger(sqlite3_value_int64(value));
          break;
        case SQLITE_FLOAT:
          values.AppendReal(sqlite3_value_double(value));
          break;
        case SQLITE_TEXT: {
          const unsigned char* text = sqlite3_value_text(value);
          if (text == nullptr) throw std::bad_alloc();
          const size_t size = static_cast<size_t>(sqlite3_value_bytes(value));
          values.AppendText(text, size);
          bytes += size + 4;
          break;
        }
        case SQLITE_BLOB: {
          const void* blob = sqlite3_value_blob(value);
          const size_t size = static_cast<size_t>(sqlite3_value_bytes(value));
          if (blob == nullptr && size > 0) throw std::bad_alloc();
          values.AppendBlob(blob, size);
          bytes += size + 4;
          break;
        }
        default:
          values.AppendNull();
          break;
      }
    }
    ++partition.buffered;
    ++partition.rows;
    partition.bytes += bytes;
    ++total_rows_;
    total_bytes_ += bytes;
  }

  // Converts one cell of flat column `i` into its leaf; returns the bytes it adds to the
  // row's estimated size (the same estimate as for buffered values).
  size_t AppendFlat(size_t i, sqlite3_value* value, int64_t row_number, LeafData* leaf) {
    SqlCell v;
    size_t bytes = 0;
    switch (sqlite3_value_type(value)) {
      case SQLITE_INTEGER:
        v.cls = SqlClass::kInteger;
        v.integer = sqlite3_value_int64(value);
        break;
      case SQLITE_FLOAT:
        v.cls = SqlClass::kReal;
        v.real = sqlite3_value_double(value);
        break;
      case SQLITE_TEXT: {
        const unsigned char* text = sqlite3_value_text(value);
        if (text == nullptr) throw std::bad_alloc();
        const size_t size = static_cast<size_t>(sqlite3_value_bytes(value));
        v.cls = SqlClass::kText;
        v.bytes = std::string_view(reinterpret_cast<const char*>(text), size);
        bytes = size + 4;
        break;
      }
      case SQLITE_BLOB: {
        const void* blob = sqlite3_value_blob(value);
        const size_t size = static_cast<size_t>(sqlite3_value_bytes(value));
        if (blob == nullptr && size > 0) throw std::bad_alloc();
        v.cls = SqlClass::kBlob;
        v.bytes = size > 0 ? std::string_view(static_cast<const char*>(blob), size) : std::string_view();
        bytes = size + 4;
        break;
      }
      default:
        break;
    }
    const Column& column = *data_columns_[i];
    if (!AppendFlatValue(*column.type, v, settings_.null_on_type_error, leaf, &message_)) {
      throw CopyError("column " + column.name + ", row " + std::to_string(row_number) + ": " + message_);
    }
    return bytes;
  }

  void PrepareFlatLeaves(Partition& partition) { partition.leaves = SpareLeaves(); }

  // Empty leaves for a batch of the flat columns (one per data column, prepared for its
  // type; unused for nested ones): one the writer thread gave back, else new ones.
  std::vector<LeafData> SpareLeaves() {
    {
      std::lock_guard<std::mutex> lock(spare_mutex_);
      if (!spare_leaves_.empty()) {
        std::vector<LeafData> leaves = std::move(spare_leaves_.back());
        spare_leaves_.pop_back();
        return leaves;
      }
    }
    std::vector<LeafData> leaves(data_columns_.size());
    for (size_t i = 0; i < data_columns_.size(); ++i) {
      if (flat_[i] == FlatKind::kNested) continue;
      leaf_scratch_.resize(1);
      PrepareLeaves(*data_columns_[i]->type, &leaf_scratch_);
      leaves[i] = std::move(leaf_scratch_[0]);
    }
    return leaves;
  }

  // Fixes every column's type (before the first row group is written) and derives the
  // schema and the writer options that depend on it.
  void ResolveTypes() {
    if (types_resolved_) return;
    int leaf = 0;
    std::vector<parquet::SchemaElement> elements(1);
    elements[0].name = "schema";
    elements[0].num_children = static_cast<int32_t>(data_columns_.size());
    int32_t next_field_id = 1;
    for (size_t i = 0; i < data_columns_.size(); ++i) {
      Column& column = *data_columns_[i];
      if (!column.type) {
        unsigned seen = 0;
        if (single_) seen |= single_->values[i].seen();
        for (const auto& [key, partition] : partitions_) seen |= partition->values[i].seen();
        column.type = TypeFromStorageClasses(seen);
      }
      column.first_leaf = leaf;
      leaf += LeafCount(*column.type);
      CopyField field;
      field.name = column.name;
      field.type = *column.type;
      AppendSchemaElements(field, settings_.field_ids ? &next_field_id : nullptr, &elements);
    }
    schema_ = std::move(elements);
    flat_.clear();
    for (Column* column : data_columns_) flat_.push_back(FlatKindOf(*column->type));
    leaf_types_.clear();
    for (Column* column : data_columns_) CollectLeafTypes(*column->type);

    parquet::WriterOptions& w = settings_.writer;
    for (const auto& [name, encoding] : settings_.encodings) {
      const Column& column = DataColumn("encoding." + name, name);
      const int count = LeafCount(*column.type);
      bool applied = false;
      for (int l = column.first_leaf; l < column.first_leaf + count; ++l) {
        if (parquet::EncodingApplies(encoding, leaf_types_[static_cast<size_t>(l)])) {
          w.column_encoding[l] = encoding;
          applied = true;
        }
      }
      if (!applied) {
        throw CopyError("encoding." + name + ": " + parquet::AsciiLowercase(parquet::ToString(encoding)) + " does not apply to column " +
                        column.name + " (" + DescribeCopyType(*column.type) + ")");
      }
    }
    for (const CopySettings::ColumnCompression& entry : settings_.codecs) {
      const Column& column = DataColumn("compression." + entry.name, entry.name);
      parquet::WriterOptions::ColumnCompression compression;
      compression.codec = entry.codec.value_or(w.codec);
      // Without its own level, a column with the file's codec keeps the file's level.
      compression.level = entry.level ? entry.level : compression.codec == w.codec ? w.compression_level : std::nullopt;
      for (int l = column.first_leaf; l < column.first_leaf + LeafCount(*column.type); ++l) {
        w.column_compression[l] = compression;
      }
    }
    w.bloom_filter_columns.clear();
    if (settings_.bloom_all) {
      for (int l = 0; l < leaf; ++l) w.bloom_filter_columns.push_back(l);
    } else {
      for (const std::string& name : settings_.bloom_columns) {
        const Column& column = DataColumn("bloom_filter", name);
        for (int l = column.first_leaf; l < column.first_leaf + LeafCount(*column.type); ++l) {
          if (std::find(w.bloom_filter_columns.begin(), w.bloom_filter_columns.end(), l) == w.bloom_filter_columns.end()) {
            w.bloom_filter_columns.push_back(l);
          }
        }
      }
    }
    w.sorting_columns.clear();
    sort_keys_.clear();
    sort_columns_.clear();
    const parquet::Schema schema = settings_.sorting.empty() ? parquet::Schema() : parquet::Schema::FromElements(schema_);
    for (const SortingSpec& spec : settings_.sorting) {
      const Column& column = DataColumn("sorting_columns", spec.name);
      if (column.type->is_nested()) {
        throw CopyError("sorting_columns: " + column.name + " is a nested column (" + DescribeCopyType(*column.type) + ")");
      }
      const parquet::SchemaNode& leaf_node = schema.node(schema.column(column.first_leaf).node);
      SortKey key;
      key.name = column.name;
      key.comparison = parquet::TypeDefinedComparison(leaf_node);
      key.float16 = leaf_node.logical_type && leaf_node.logical_type->kind == parquet::LogicalType::Kind::FLOAT16;
      key.descending = spec.descending;
      key.nulls_first = spec.nulls_first;
      if (key.comparison == parquet::ValueComparison::kNone) {
        throw CopyError("sorting_columns: column " + column.name + " (" + DescribeCopyType(*column.type) +
                        ") has no sort order in Parquet");
      }
      sort_keys_.push_back(key);
      sort_columns_.push_back(static_cast<size_t>(std::find(data_columns_.begin(), data_columns_.end(), &column) -
                                                  data_columns_.begin()));
      parquet::SortingColumn sorting;
      sorting.column_idx = column.first_leaf;
      sorting.descending = spec.descending;
      sorting.nulls_first = spec.nulls_first;
      w.sorting_columns.push_back(sorting);
    }
    types_resolved_ = true;
  }

  void CollectLeafTypes(const CopyType& type) {
    if (!type.is_nested()) {
      leaf_types_.push_back(PhysicalTypeOf(type));
      return;
    }
    for (const CopyField& child : type.children) CollectLeafTypes(child.type);
  }

  parquet::ParquetFileWriter& WriterFor(Partition& partition) {
    partition.last_used = ++use_clock_;
    if (partition.writer) return *partition.writer;
    // Files are created exclusively and written through that descriptor, never reopened
    // by name (copy_output.h).
    std::string file;
    int fd = -1;
    if (partitioned()) {
      if (open_writers_ >= kMaxOpenPartitionFiles) CloseLeastRecentlyUsed();
      MakeDirectories(staged_->temp_path(), partition.directory);
      file = staged_->temp_path() + "/" + partition.directory + "/part-" + std::to_string(partition.next_file++) + ".parquet";
      fd = CreateExclusiveFile(file);
    } else {
      file = staged_->temp_path();
      fd = staged_->DuplicateTempFile();
    }
    partition.writer = std::make_unique<parquet::ParquetFileWriter>(fd, file, schema_, settings_.writer);
    ++open_writers_;
    return *partition.writer;
  }

  void CloseLeastRecentlyUsed() {
    Partition* oldest = nullptr;
    for (auto& [key, partition] : partitions_) {
      if (partition->writer && (oldest == nullptr || partition->last_used < oldest->last_used)) oldest = partition.get();
    }
    if (oldest == nullptr) return;
    Flush(*oldest);
    writer_thread_.Drain();
    oldest->writer->Close();
    oldest->writer.reset();
    --open_writers_;
  }

  static void WriteLeaf(parquet::ParquetFileWriter& writer, int column, const LeafData& leaf) {
    const size_t levels = leaf.def_levels.size();
    const int16_t* def = leaf.def_levels.data();
    const int16_t* rep = leaf.max_repetition_level > 0 ? leaf.rep_levels.data() : nullptr;
    switch (leaf.physical_type) {
      case parquet::Type::BOOLEAN:
        writer.WriteBatch<bool>(column, levels, def, rep, leaf.bools(), leaf.num_bools());
        break;
      case parquet::Type::INT32:
        writer.WriteBatch<int32_t>(column, levels, def, rep, leaf.int32s.data(), leaf.int32s.size());
        break;
      case parquet::Type::INT64:
        writer.WriteBatch<int64_t>(column, levels, def, rep, leaf.int64s.data(), leaf.int64s.size());
        break;
      case parquet::Type::FLOAT:
        writer.WriteBatch<float>(column, levels, def, rep, leaf.floats.data(), leaf.floats.size());
        break;
      case parquet::Type::DOUBLE:
        writer.WriteBatch<double>(column, levels, def, rep, leaf.doubles.data(), leaf.doubles.size());
        break;
      default:
        writer.WriteBatch<parquet::ByteArray>(column, levels, def, rep, leaf.byte_arrays.data(), leaf.byte_arrays.size());
        break;
    }
  }

  // The query row number of buffered row `index` of the partition.
  int64_t RowNumber(const Partition& partition, size_t index) const {
    return partitioned() ? partition.row_numbers[index] : partition.first_row_number + static_cast<int64_t>(index);
  }

  // Converts the values of data column `i` buffered before the types were fixed into
  // `leaves` (prepared here).
  void ConvertBuffered(const Partition& partition, size_t i, std::vector<LeafData>* leaves) {
    const Column& column = *data_columns_[i];
    PrepareLeaves(*column.type, leaves);
    ConversionFailure failure;
    if (!ConvertColumn(*column.type, partition.values[i], settings_.null_on_type_error, leaves, &failure)) {
      throw CopyError("column " + column.name + ", row " + std::to_string(RowNumber(partition, failure.row)) + ": " +
                      failure.message);
    }
  }

  // Checks that the partition's buffered rows continue its row group in the order
  // sorting_columns declares (copy_sort_check.h); a row out of order fails the copy.
  void CheckSorted(Partition& partition) {
    if (sort_keys_.empty()) return;
    if (partition.sorted.num_keys() != sort_keys_.size()) partition.sorted = SortedRowsCheck(sort_keys_);
    std::vector<const LeafData*> keys(sort_keys_.size());
    auto check = [&](size_t rows, size_t first) {
      size_t key = 0;
      const int64_t out_of_order = partition.sorted.Check(keys, rows, &key);
      if (out_of_order < 0) return;
      const SortKey& k = sort_keys_[key];
      const Column& column = *data_columns_[sort_columns_[key]];
      throw CopyError("sorting_columns: row " + std::to_string(RowNumber(partition, first + static_cast<size_t>(out_of_order))) +
                      " sorts before the row above it by " + k.name + (k.descending ? " DESC" : " ASC") +
                      (k.nulls_first ? " NULLS FIRST" : " NULLS LAST") + " (compared as the " +
                      DescribeCopyType(*column.type) + " values written)");
    };
    // Values buffered before the types were fixed come first, then the converted cells.
    const size_t buffered_values = partition.values[sort_columns_[0]].size();
    if (buffered_values > 0) {
      sort_scratch_.resize(sort_keys_.size());
      for (size_t k = 0; k < sort_keys_.size(); ++k) {
        ConvertBuffered(partition, sort_columns_[k], &sort_scratch_[k]);
        keys[k] = &sort_scratch_[k][0];
      }
      check(buffered_values, 0);
    }
    const size_t i0 = sort_columns_[0];
    const size_t converted = i0 < partition.leaves.size() ? partition.leaves[i0].def_levels.size() : 0;
    if (converted > 0) {
      for (size_t k = 0; k < sort_keys_.size(); ++k) keys[k] = &partition.leaves[sort_columns_[k]];
      check(converted, buffered_values);
    }
  }

  // Gives the partition's buffered rows to its writer's open row group (starting one if
  // needed) and empties the buffers. When every column's rows are converted cells (flat
  // columns, types fixed), the batch goes to the writer thread and the partition gets
  // spare leaves to go on with; otherwise (nested columns, rows buffered before the types
  // were fixed) the query thread writes it itself, once the writer thread is idle.
  void WriteBuffered(Partition& partition) {
    if (partition.buffered == 0) return;
    ResolveTypes();
    CheckSorted(partition);
    bool all_converted = partition.leaves.size() == data_columns_.size();
    for (size_t i = 0; i < data_columns_.size() && all_converted; ++i) all_converted = partition.values[i].size() == 0;
    if (!all_converted || !partition.writer) writer_thread_.Drain();
    parquet::ParquetFileWriter& writer = WriterFor(partition);
    const bool start_group = !partition.group_open;
    partition.group_open = true;
    if (all_converted) {
      auto batch = std::make_shared<std::vector<LeafData>>(SpareLeaves());
      batch->swap(partition.leaves);
      writer_thread_.Submit([this, &writer, batch, start_group] {
        if (start_group) writer.StartRowGroup();
        for (size_t i = 0; i < batch->size(); ++i) {
          LeafData& leaf = (*batch)[i];
          if (flat_[i] == FlatKind::kNested || leaf.def_levels.empty()) continue;
          WriteLeaf(writer, data_columns_[i]->first_leaf, leaf);
          leaf.Clear();  // keeps the levels and type
        }
        std::lock_guard<std::mutex> lock(spare_mutex_);
        spare_leaves_.push_back(std::move(*batch));
      });
      partition.buffered = 0;
      partition.row_numbers.clear();
      return;
    }
    if (start_group) writer.StartRowGroup();
    for (size_t i = 0; i < data_columns_.size(); ++i) {
      const Column& column = *data_columns_[i];
      // Values buffered before the types were fixed come first, then the converted cells.
      if (partition.values[i].size() > 0) {
        ConvertBuffered(partition, i, &leaves_);
        for (size_t l = 0; l < leaves_.size(); ++l) WriteLeaf(writer, column.first_leaf + static_cast<int>(l), leaves_[l]);
        partition.values[i].Clear();
      }
      if (i < partition.leaves.size() && flat_[i] != FlatKind::kNested && !partition.leaves[i].def_levels.empty()) {
        WriteLeaf(writer, column.first_leaf, partition.leaves[i]);
        partition.leaves[i].Clear();  // keeps the levels and type
      }
    }
    partition.buffered = 0;
    partition.row_numbers.clear();
  }

  // Ends the partition's open row group (its buffered rows included).
  void Flush(Partition& partition) {
    if (partition.rows == 0) return;
    WriteBuffered(partition);
    parquet::ParquetFileWriter* writer = &WriterFor(partition);
    const auto rows = static_cast<int64_t>(partition.rows);
    writer_thread_.Submit([writer, rows] { writer->EndRowGroup(rows); });
    partition.group_open = false;
    partition.sorted.StartRowGroup();
    total_rows_ -= partition.rows;
    total_bytes_ -= partition.bytes;
    partition.rows = 0;
    partition.bytes = 0;
  }

  // Over the budget with many partitions: flush the biggest until half the budget is free.
  void FlushLargestPartitions() {
    std::vector<Partition*> order;
    for (auto& [key, partition] : partitions_) {
      if (partition->rows > 0) order.push_back(partition.get());
    }
    std::sort(order.begin(), order.end(), [](const Partition* a, const Partition* b) { return a->bytes > b->bytes; });
    const size_t row_target = static_cast<size_t>(settings_.row_group_size) / 2;
    const size_t byte_target = static_cast<size_t>(settings_.row_group_bytes) / 2;
    for (Partition* partition : order) {
      if (total_rows_ <= row_target && total_bytes_ <= byte_target) break;
      Flush(*partition);
    }
  }

  void Finish() {
    if (!partitioned()) {
      Flush(*single_);
      writer_thread_.Drain();
      ResolveTypes();
      WriterFor(*single_).Close();  // a result without rows still gets a file with the schema
    } else {
      for (auto& [key, partition] : partitions_) Flush(*partition);
      writer_thread_.Drain();
      for (auto& [key, partition] : partitions_) {
        if (partition->writer) partition->writer->Close();
      }
    }
    staged_->Commit();
  }

  sqlite3* db_;
  std::string path_;
  CopySettings settings_;
  // Declared before the staged output, whose temporary files live in its staging directory.
  std::unique_ptr<RemoteCopyTarget> remote_target_;
  // Declared before the partitions, so that their files are closed before the temporary
  // output is removed on an error.
  std::unique_ptr<StagedOutput> staged_;
  StatementGuard statement_;       // the query (run by StepQuery when the row sink cannot take it)
  std::string query_text_;         // its text, without a trailing ';'
  int64_t row_number_ = 0;         // rows received so far
  std::exception_ptr sink_error_;  // what ReceiveRowFromSink caught
  std::vector<Column> columns_;
  std::vector<Column*> data_columns_;   // the columns stored in the files, in order
  std::vector<int> partition_columns_;  // result indices, in partition_by order
  std::vector<parquet::SchemaElement> schema_;
  std::vector<SortKey> sort_keys_;     // sorting_columns, checked on every row group
  std::vector<size_t> sort_columns_;   // the data column of each
  std::vector<std::vector<LeafData>> sort_scratch_;  // converted buffered values of each
  std::vector<parquet::Type> leaf_types_;
  bool types_resolved_ = false;
  std::vector<FlatKind> flat_;  // per data column, once the types are fixed
  std::vector<LeafData> leaf_scratch_;
  std::string message_;
  std::unique_ptr<Partition> single_;
  std::unordered_map<std::string, std::unique_ptr<Partition>> partitions_;
  std::string key_;
  size_t total_rows_ = 0;
  size_t total_bytes_ = 0;
  size_t open_writers_ = 0;
  uint64_t use_clock_ = 0;
  std::vector<LeafData> leaves_;
  std::mutex spare_mutex_;
  std::vector<std::vector<LeafData>> spare_leaves_;  // batches the writer thread is done with
  // Last: destroyed first, so that no task runs once the writers and buffers it uses go.
  CopyWriterThread writer_thread_{2};
};

// parquet_copy_rows(copier, cell, ...): the row sink's step (Copier::RunThroughRowSink).
// Only parquet_copy can call it usefully: its first argument must be the Copier pointer
// parquet_copy binds; any other value makes it fail.
void CopyRowsStep(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto* copier = argc > 0 ? static_cast<Copier*>(sqlite3_value_pointer(argv[0], kCopierPointerType)) : nullptr;
  if (copier == nullptr) {
    sqlite3_result_error(ctx, "parquet_copy_rows: internal to parquet_copy, not for direct use", -1);
    return;
  }
  if (!copier->ReceiveRowFromSink(argv + 1, argc - 1)) {
    sqlite3_result_error(ctx, "parquet_copy_rows: the row was not written", -1);
  }
}

void CopyRowsFinal(sqlite3_context* ctx) { sqlite3_result_null(ctx); }

void ParquetCopyFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  try {
    // SQLITE_DIRECTONLY does not cover every schema object in every load order and SQLite
    // version (schema_guard.h): refuse while a table or index of a database file names us.
    if (const std::string object = FindSchemaObjectCalling(sqlite3_context_db_handle(ctx), "parquet_copy");
        !object.empty()) {
      sqlite3_result_error(ctx, ("parquet_copy: refusing to write files while " + object +
                                 " calls parquet_copy in its schema (a database file's schema must not be "
                                 "able to make the extension write files)").c_str(), -1);
      return;
    }
    if (argc < 2) {
      sqlite3_result_error(ctx, "parquet_copy: expected a query, a path and options: parquet_copy('SELECT ...', 'out.parquet', 'key=value', ...)", -1);
      return;
    }
    for (int i = 0; i < argc; ++i) {
      if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {
        const char* what = i == 0 ? "the query" : i == 1 ? "the path" : "an option";
        sqlite3_result_error(ctx, (std::string("parquet_copy: ") + what + " is NULL").c_str(), -1);
        return;
      }
    }
    auto view = [&](int i) {
      const unsigned char* value = sqlite3_value_text(argv[i]);
      if (value == nullptr) throw std::bad_alloc();
      return std::string_view(reinterpret_cast<const char*>(value), static_cast<size_t>(sqlite3_value_bytes(argv[i])));
    };
    auto text = [&](int i) { return std::string(view(i)); };
    const std::string query = text(0);
    const std::string path = text(1);
    if (path.empty()) {
      sqlite3_result_error(ctx, "parquet_copy: the path is empty", -1);
      return;
    }
    std::vector<parquet::SecretString> arguments;  // options may hold keys: wiped when freed
    for (int i = 2; i < argc; ++i) arguments.emplace_back(view(i));
    CopySettings settings;
    ParseSettings(arguments, &settings);
    {
      Copier copier(sqlite3_context_db_handle(ctx), path, std::move(settings));
      sqlite3_result_int64(ctx, copier.Run(query));
    }
#ifdef __GLIBC__
    // The copy's buffers were freed; give their pages back to the system rather than leave
    // them in the allocator's free lists (where a next copy would fragment them further).
    malloc_trim(0);
#endif
  } catch (const QueryError& e) {
    if (e.code() == SQLITE_NOMEM) {
      sqlite3_result_error_nomem(ctx);
    } else {
      sqlite3_result_error(ctx, e.what(), -1);
      sqlite3_result_error_code(ctx, e.code());
    }
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  } catch (const std::exception& e) {
    sqlite3_result_error(ctx, (std::string("parquet_copy: ") + e.what()).c_str(), -1);
  }
}

}  // namespace

int RegisterParquetCopy(sqlite3* db) {
  int rc = sqlite3_create_function_v2(db, "parquet_copy", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, nullptr,
                                      ParquetCopyFunction, nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "parquet_copy_rows", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, nullptr, nullptr,
                                    CopyRowsStep, CopyRowsFinal, nullptr);
  }
  return rc;
}

}  // namespace sqlite_parquet
