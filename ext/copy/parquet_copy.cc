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
//   file_size_bytes=N, row_groups_per_file=N   rollover: a directory of files, each closed
//                            at the first row-group boundary past the limit
//   filename_pattern=NAME    file names of a directory output ({i}, {uuid}; default part-{i})
//   append=0|1               add files to an existing directory output (schema checked)
//   return_stats=0|1         return a JSON array describing each file written
//   verify=0|1               read every file back and check it before publishing
//   cdc=0|1                  content-defined chunking of data pages (with cdc_min_chunk_size,
//                            cdc_max_chunk_size, cdc_norm_level; pyarrow's defaults)
//   geometry='COL[:crs],...', geography='COL[:crs][:algorithm],...'   WKB columns written
//                            as GEOMETRY / GEOGRAPHY with GeospatialStatistics
//   geoparquet_version=none|v1|v2|both   the GeoParquet `geo` metadata (default both)
//   variant=COL,...          JSON text written as VARIANT
//   shredding=auto|'COL:SHAPE,...'   VARIANT columns shredded into typed_value columns
//                            (auto: chosen from the first row group; syntax in copy_schema.h)
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
// cannot be wrapped, such as a PRAGMA, is stepped row by row instead: copy_query.h). The
// result columns and the options give the output's layout: stored and partition columns,
// types, schema and per-leaf writer options (copy_layout.h). Once every
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
// part-N file: copy_partitions.h).
#include "ext/common/connection_interrupt.h"
#include "ext/copy/parquet_copy.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ext/copy/copy_layout.h"
#include "ext/copy/copy_output.h"
#include "ext/copy/copy_partitions.h"
#include "ext/copy/copy_query.h"
#include "ext/copy/copy_remote.h"
#include "ext/copy/copy_report.h"
#include "ext/copy/copy_schema.h"
#include "ext/copy/copy_settings.h"
#include "ext/copy/copy_sort_check.h"
#include "ext/copy/copy_values.h"
#include "ext/copy/copy_writer_thread.h"
#include "ext/common/file_list.h"
#include "ext/common/schema_guard.h"
#include "ext/common/sql_value.h"
#include "ext/common/sqlite_values.h"
#include "format/io/random_access_file.h"
#include "format/read/file_reader.h"
#include "format/platform/system.h"
#include "format/read/file_verifier.h"
#include "format/write/file_writer.h"
#include "format/values/logical_values.h"
#include "format/crypto/secret.h"

namespace sqlite_parquet {

namespace {

// Once the column types are fixed, buffered rows go to the writer's open row group in
// batches of this many (its pages are encoded and compressed as they fill).
constexpr size_t kStreamBatchRows = 1024;

// What a cell adds to its row's estimated buffered size beyond the 9 bytes every cell
// counts: a TEXT or BLOB its bytes and their 4-byte length (AppendFlatCell's text path
// adds the same inline).
size_t BufferedBytes(const SqlValue& value) {
  return value.type == SqlValue::Type::kText || value.type == SqlValue::Type::kBlob ? value.bytes.size() + 4 : 0;
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

// One run of parquet_copy: takes the query's rows (CopyQuery::Run calls ReceiveRow),
// buffers and converts them per partition, and gives them in batches to the writer thread.
class Copier {
 public:
  // Prepares the query and works out the layout (both throw for a bad query or option).
  Copier(sqlite3* db, std::string path, CopySettings settings, const std::string& query)
      : path_(std::move(path)),
        settings_(std::move(settings)),
        query_(db, query),
        layout_(query_.columns(), settings_),
        partitions_(layout_, FileNaming{settings_.directory_output(), settings_.filename_pattern, std::string()}) {
    if (settings_.return_stats || settings_.verify) {
      partitions_.ReadBackWhenClosed([this](WrittenFile& file) { ReadBack(file); });
    }
  }

  // The rows written; with return_stats, *report gets the JSON array of the files.
  int64_t Run(std::string* report) {
    // With every column's type known before the first row, rows stream to the writer from
    // the start; otherwise the first row group is buffered whole to see its values' classes.
    if (layout_.all_typed()) ResolveTypes();
    std::string local_path = path_;
    if (parquet::IsRemoteUrl(path_)) {
      if (settings_.append) throw CopyError("append=1 is not supported for remote targets");
      remote_target_ = std::make_unique<RemoteCopyTarget>(path_, settings_.directory_output(), settings_.overwrite,
                                                          settings_.remote);
      local_path = remote_target_->local_target();
    }
    if (settings_.append) partitions_.SetExistingRoot(local_path);
    staged_ = std::make_unique<StagedOutput>(local_path,
                                             !settings_.directory_output() ? StagedOutput::Kind::kFile
                                             : settings_.append            ? StagedOutput::Kind::kAppend
                                                                           : StagedOutput::Kind::kDirectory,
                                             settings_.overwrite);
    query_.Run(*this);
    Finish(report);
    if (remote_target_) remote_target_->Upload();
    return row_number_;
  }

  // One result row, its cells in result column order.
  void ReceiveRow(sqlite3_value* const* cells) {
    ++row_number_;
    CopyPartition& partition = partitions_.OfRow(cells);
    AppendRow(partition, row_number_, cells);
    if (partition.rows >= static_cast<size_t>(settings_.row_group_size) ||
        partition.bytes >= static_cast<size_t>(settings_.row_group_bytes)) {
      Flush(partition);
    } else if (partition.buffered >= kStreamBatchRows && layout_.resolved()) {
      WriteBuffered(partition);
    }
    if (partitions_.partitioned() && (total_rows_ >= static_cast<size_t>(settings_.row_group_size) ||
                                      total_bytes_ >= static_cast<size_t>(settings_.row_group_bytes))) {
      FlushLargestPartitions();
    }
  }

 private:
  void AppendRow(CopyPartition& partition, int64_t row_number, sqlite3_value* const* cells) {
    if (partition.buffered == 0) partition.first_row_number = row_number;
    if (partitions_.partitioned()) partition.row_numbers.push_back(row_number);
    const size_t num_columns = layout_.num_data_columns();
    size_t bytes = 9 * num_columns;
    const bool resolved = layout_.resolved();
    if (resolved && partition.leaves.size() != num_columns) PrepareFlatLeaves(partition);
    if (resolved && all_flat_) {
      bytes += AppendFlatRow(partition.leaves.data(), row_number, cells);
    } else {
      AppendMixedRow(partition, row_number, cells, &bytes);
    }
    ++partition.buffered;
    ++partition.rows;
    partition.bytes += bytes;
    ++total_rows_;
    total_bytes_ += bytes;
  }

  // Converts one cell of flat column `i` (types fixed) into its leaf: the common pairs of
  // column type and storage class inline, the rest through AppendFlat (the same
  // conversions). Returns the bytes it adds to the row's estimated size.
  [[gnu::always_inline]] size_t AppendFlatCell(size_t i, FlatKind kind, sqlite3_value* value, int64_t row_number,
                                               LeafData& leaf) {
    const int storage = sqlite3_value_type(value);
    if (storage == SQLITE_NULL) {
      leaf.AppendLevel(0);
      return 0;
    }
    switch (kind) {
      case FlatKind::kInt64:
        if (storage != SQLITE_INTEGER) break;
        leaf.int64s.push_back(sqlite3_value_int64(value));
        leaf.CountDefined();
        return 0;
      case FlatKind::kDouble:
        if (storage != SQLITE_FLOAT) break;
        leaf.doubles.push_back(sqlite3_value_double(value));
        leaf.CountDefined();
        return 0;
      case FlatKind::kText:
      case FlatKind::kDate: {
        if (storage != SQLITE_TEXT) break;
        const unsigned char* text = sqlite3_value_text(value);
        if (text == nullptr) throw std::bad_alloc();
        const size_t size = static_cast<size_t>(sqlite3_value_bytes(value));
        if (kind == FlatKind::kDate) {
          int32_t days = 0;
          if (!date_parser_.Parse(std::string_view(reinterpret_cast<const char*>(text), size), &days)) break;
          leaf.int32s.push_back(days);
        } else {
          const uint8_t* copy = size > 0 ? leaf.arena.Append(text, size) : nullptr;
          leaf.byte_arrays.push_back(parquet::ByteArray{copy, static_cast<uint32_t>(size)});
        }
        leaf.CountDefined();
        return size + 4;
      }
      default:
        break;
    }
    return AppendFlat(i, value, row_number, &leaf);
  }

  // AppendRow once the types are fixed and every column is flat (the usual copy): one
  // tight loop over flat_cells_. Returns the bytes the row adds beyond 9 per column.
  size_t AppendFlatRow(LeafData* leaves, int64_t row_number, sqlite3_value* const* cells) {
    size_t bytes = 0;
    const FlatCell* const first = flat_cells_.data();
    const FlatCell* const end = first + flat_cells_.size();
    LeafData* leaf = leaves;
    for (const FlatCell* column = first; column != end; ++column, ++leaf) {
      bytes += AppendFlatCell(static_cast<size_t>(column - first), column->kind, cells[column->result_index], row_number,
                              *leaf);
    }
    return bytes;
  }

  // AppendRow before the types are fixed, or with nested columns: cells of columns whose
  // type is not fixed yet or that are nested are buffered as SQLite gave them.
  void AppendMixedRow(CopyPartition& partition, int64_t row_number, sqlite3_value* const* cells, size_t* row_bytes) {
    const size_t num_columns = layout_.num_data_columns();
    const bool resolved = layout_.resolved();
    size_t bytes = 0;
    // Read with the sqlite3_value_* accessors, which take no connection mutex.
    for (size_t i = 0; i < num_columns; ++i) {
      sqlite3_value* value = cells[layout_.data_column(i).result_index];
      if (resolved && flat_[i] != FlatKind::kNested) {
        bytes += AppendFlatCell(i, flat_[i], value, row_number, partition.leaves[i]);
        continue;
      }
      const SqlValue v = ReadSqlValue(value);
      partition.values[i].Append(v);
      bytes += BufferedBytes(v);
    }
    *row_bytes += bytes;
  }

  // Converts one cell of flat column `i` into its leaf; returns the bytes it adds to the
  // row's estimated size (the same estimate as for buffered values).
  size_t AppendFlat(size_t i, sqlite3_value* value, int64_t row_number, LeafData* leaf) {
    const SqlValue v = ReadSqlValue(value);
    const size_t bytes = BufferedBytes(v);
    const CopyColumn& column = layout_.data_column(i);
    if (!AppendFlatValue(*column.type, v, settings_.null_on_type_error, leaf, &message_)) {
      throw CopyError("column " + column.name + ", row " + std::to_string(row_number) + ": " + message_);
    }
    return bytes;
  }

  void PrepareFlatLeaves(CopyPartition& partition) { partition.leaves = SpareLeaves(); }

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
    std::vector<LeafData> leaves(layout_.num_data_columns());
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (flat_[i] == FlatKind::kNested) continue;
      leaf_scratch_.resize(1);
      PrepareLeaves(*layout_.data_column(i).type, &leaf_scratch_);
      leaves[i] = std::move(leaf_scratch_[0]);
    }
    return leaves;
  }

  // Fixes every column's type (before the first row group is written), from the storage
  // classes buffered so far where neither schema= nor the declared type gave it.
  void ResolveTypes() {
    if (layout_.resolved()) return;
    std::vector<unsigned> seen(layout_.num_data_columns(), 0);
    partitions_.ForEach([&](const CopyPartition& partition) {
      for (size_t i = 0; i < seen.size(); ++i) seen[i] |= partition.values[i].seen();
    });
    for (size_t i = 0; i < layout_.num_data_columns(); ++i) {
      const std::optional<CopyType>& type = layout_.data_column(i).type;
      if (!type || !type->shred_auto) continue;
      std::vector<const ValueColumn*> samples;
      partitions_.ForEach([&](const CopyPartition& partition) { samples.push_back(&partition.values[i]); });
      layout_.SetVariantShredding(i, ChooseVariantShredding(samples));
    }
    layout_.Resolve(seen);
    flat_.clear();
    flat_cells_.clear();
    for (size_t i = 0; i < layout_.num_data_columns(); ++i) {
      const CopyColumn& column = layout_.data_column(i);
      flat_.push_back(FlatKindOf(*column.type));
      flat_cells_.push_back(FlatCell{column.result_index, flat_.back()});
    }
    all_flat_ = std::find(flat_.begin(), flat_.end(), FlatKind::kNested) == flat_.end();
  }

  // The partition's writer, opening its next file when it has none (closing the least
  // recently used file first when too many are open).
  parquet::ParquetFileWriter& WriterFor(CopyPartition& partition) {
    partitions_.Touch(partition);
    if (partition.writer) return *partition.writer;
    if (CopyPartition* oldest = partitions_.FileToClose()) {
      Flush(*oldest);
      writer_thread_.Drain();
      if (oldest->writer) partitions_.CloseWriter(*oldest);  // (rollover may have closed it)
    }
    if (settings_.append && !append_checked_) {
      CheckAppendSchema();
      append_checked_ = true;
    }
    return partitions_.OpenWriter(partition, *staged_, layout_);
  }

  static void WriteLeaf(parquet::ParquetFileWriter& writer, int column, const LeafData& leaf) {
    const size_t levels = leaf.def_levels().size();
    const int16_t* def = leaf.def_levels().data();
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
  int64_t RowNumber(const CopyPartition& partition, size_t index) const {
    return partitions_.partitioned() ? partition.row_numbers[index]
                                     : partition.first_row_number + static_cast<int64_t>(index);
  }

  // Converts the values of data column `i` buffered before the types were fixed into
  // `leaves` (prepared here).
  void ConvertBuffered(const CopyPartition& partition, size_t i, std::vector<LeafData>* leaves) {
    const CopyColumn& column = layout_.data_column(i);
    PrepareLeaves(*column.type, leaves);
    ConversionFailure failure;
    if (!ConvertColumn(*column.type, partition.values[i], settings_.null_on_type_error, leaves, &failure)) {
      throw CopyError("column " + column.name + ", row " + std::to_string(RowNumber(partition, failure.row)) + ": " +
                      failure.message);
    }
  }

  // Checks that the partition's buffered rows continue its row group in the order
  // sorting_columns declares (copy_sort_check.h); a row out of order fails the copy.
  void CheckSorted(CopyPartition& partition) {
    const std::vector<SortKey>& sort_keys = layout_.sort_keys();
    const std::vector<size_t>& sort_columns = layout_.sort_columns();
    if (sort_keys.empty()) return;
    if (partition.sorted.num_keys() != sort_keys.size()) partition.sorted = SortedRowsCheck(sort_keys);
    std::vector<const LeafData*> keys(sort_keys.size());
    auto check = [&](size_t rows, size_t first) {
      size_t key = 0;
      const int64_t out_of_order = partition.sorted.Check(keys, rows, &key);
      if (out_of_order < 0) return;
      const SortKey& k = sort_keys[key];
      const CopyColumn& column = layout_.data_column(sort_columns[key]);
      throw CopyError("sorting_columns: row " + std::to_string(RowNumber(partition, first + static_cast<size_t>(out_of_order))) +
                      " sorts before the row above it by " + k.name + (k.descending ? " DESC" : " ASC") +
                      (k.nulls_first ? " NULLS FIRST" : " NULLS LAST") + " (compared as the " +
                      DescribeCopyType(*column.type) + " values written)");
    };
    // Values buffered before the types were fixed come first, then the converted cells.
    const size_t buffered_values = partition.values[sort_columns[0]].size();
    if (buffered_values > 0) {
      sort_scratch_.resize(sort_keys.size());
      for (size_t k = 0; k < sort_keys.size(); ++k) {
        ConvertBuffered(partition, sort_columns[k], &sort_scratch_[k]);
        keys[k] = &sort_scratch_[k][0];
      }
      check(buffered_values, 0);
    }
    const size_t i0 = sort_columns[0];
    const size_t converted = i0 < partition.leaves.size() ? partition.leaves[i0].def_levels().size() : 0;
    if (converted > 0) {
      for (size_t k = 0; k < sort_keys.size(); ++k) keys[k] = &partition.leaves[sort_columns[k]];
      check(converted, buffered_values);
    }
  }

  // Gives the partition's buffered rows to its writer's open row group (starting one if
  // needed) and empties the buffers. When every column's rows are converted cells (flat
  // columns, types fixed), the batch goes to the writer thread and the partition gets
  // spare leaves to go on with; otherwise (nested columns, rows buffered before the types
  // were fixed) the query thread writes it itself, once the writer thread is idle.
  void WriteBuffered(CopyPartition& partition) {
    if (partition.buffered == 0) return;
    ResolveTypes();
    CheckSorted(partition);
    const size_t num_columns = layout_.num_data_columns();
    bool all_converted = partition.leaves.size() == num_columns;
    for (size_t i = 0; i < num_columns && all_converted; ++i) all_converted = partition.values[i].size() == 0;
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
          // def_levels() appends the levels the query thread only counted: here, on this thread.
          if (flat_[i] == FlatKind::kNested || leaf.def_levels().empty()) continue;
          WriteLeaf(writer, layout_.data_column(i).first_leaf, leaf);
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
    for (size_t i = 0; i < num_columns; ++i) {
      const CopyColumn& column = layout_.data_column(i);
      // Values buffered before the types were fixed come first, then the converted cells.
      if (partition.values[i].size() > 0) {
        ConvertBuffered(partition, i, &leaves_);
        for (size_t l = 0; l < leaves_.size(); ++l) WriteLeaf(writer, column.first_leaf + static_cast<int>(l), leaves_[l]);
        partition.values[i].Clear();
      }
      if (i < partition.leaves.size() && flat_[i] != FlatKind::kNested && !partition.leaves[i].def_levels().empty()) {
        WriteLeaf(writer, column.first_leaf, partition.leaves[i]);
        partition.leaves[i].Clear();  // keeps the levels and type
      }
    }
    partition.buffered = 0;
    partition.row_numbers.clear();
  }

  // Ends the partition's open row group (its buffered rows included).
  void Flush(CopyPartition& partition) {
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
    RollOverIfFull(partition);
  }

  // Rollover: closes the partition's file once it holds row_groups_per_file row groups or
  // file_size_bytes bytes (its next rows go to a new file).
  void RollOverIfFull(CopyPartition& partition) {
    if (!settings_.rollover() || !partition.writer) return;
    writer_thread_.Drain();
    const parquet::ParquetFileWriter& writer = *partition.writer;
    const bool enough_groups = settings_.row_groups_per_file > 0 &&
                               writer.metadata().row_groups.size() >= static_cast<size_t>(settings_.row_groups_per_file);
    const bool enough_bytes = settings_.file_size_bytes > 0 &&
                              writer.bytes_written() >= static_cast<uint64_t>(settings_.file_size_bytes);
    if (enough_groups || enough_bytes) partitions_.CloseWriter(partition);
  }

  // append=1: the new files must have the schema of the files already in the target (the
  // first one, in sorted order, is read); an error names the first column that differs.
  void CheckAppendSchema() {
    std::vector<std::string> existing;
    try {
      existing = ExpandFilePath(staged_->target());
    } catch (const std::exception&) {
      return;  // no target yet, or no parquet files in it: nothing to match
    }
    if (existing.empty()) return;
    std::unique_ptr<parquet::ParquetFileReader> first = parquet::ParquetFileReader::Open(existing[0]);
    const std::vector<parquet::SchemaElement>& old_schema = first->metadata().schema;
    const std::vector<parquet::SchemaElement>& new_schema = layout_.schema();
    auto describe = [](const parquet::SchemaElement& e) {
      std::string text = e.type ? parquet::ToString(*e.type) : std::string("group");
      if (e.converted_type) text += " " + parquet::ToString(*e.converted_type);
      if (e.repetition_type) text += " " + parquet::ToString(*e.repetition_type);
      return text;
    };
    for (size_t i = 1; i < std::max(old_schema.size(), new_schema.size()); ++i) {
      if (i >= old_schema.size()) {
        throw CopyError("append: column " + new_schema[i].name + " is not in the existing file " + existing[0]);
      }
      if (i >= new_schema.size()) {
        throw CopyError("append: column " + old_schema[i].name + " of the existing file " + existing[0] +
                        " is not in the query's result");
      }
      const parquet::SchemaElement& a = old_schema[i];
      const parquet::SchemaElement& b = new_schema[i];
      if (a.name != b.name) {
        throw CopyError("append: column " + std::to_string(i) + " is " + b.name + " in the new files but " + a.name +
                        " in the existing file " + existing[0]);
      }
      if (describe(a) != describe(b) || a.type_length != b.type_length || a.num_children != b.num_children) {
        throw CopyError("append: column " + b.name + " is " + describe(b) + " in the new files but " + describe(a) +
                        " in the existing file " + existing[0]);
      }
    }
  }

  // Over the budget with many partitions: flush the biggest until half the budget is free.
  void FlushLargestPartitions() {
    const size_t row_target = static_cast<size_t>(settings_.row_group_size) / 2;
    const size_t byte_target = static_cast<size_t>(settings_.row_group_bytes) / 2;
    for (CopyPartition* partition : partitions_.LargestFirst()) {
      if (total_rows_ <= row_target && total_bytes_ <= byte_target) break;
      Flush(*partition);
    }
  }

  void Finish(std::string* report) {
    if (!partitions_.partitioned()) {
      Flush(partitions_.single());
      writer_thread_.Drain();
      ResolveTypes();
      // A result without rows still gets a file with the schema.
      if (partitions_.single().writer || partitions_.files().empty()) {
        WriterFor(partitions_.single());
        partitions_.CloseWriter(partitions_.single());
      }
    } else {
      partitions_.ForEach([&](CopyPartition& partition) { Flush(partition); });
      writer_thread_.Drain();
      partitions_.ForEach([&](CopyPartition& partition) {
        if (partition.writer) partitions_.CloseWriter(partition);
      });
    }
    if (settings_.return_stats) {
      // In the order the files were created (each was read back when it was closed).
      report->assign("[");
      for (const WrittenFile& file : partitions_.files()) {
        if (report->size() > 1) *report += ',';
        *report += file.report;
      }
      *report += ']';
    }
    staged_->Commit();
  }

  // The name a written file will have once published.
  std::string FinalName(const WrittenFile& file) const {
    return file.relative.empty() ? path_ : (path_.back() == '/' ? path_ : path_ + "/") + file.relative;
  }

  // Reads a file just closed back through the duplicate of its descriptor (never by name):
  // verify=1 checks it, return_stats=1 describes it (file.report).
  void ReadBack(WrittenFile& file) {
    if (!read_keys_ && settings_.writer.encryption) {
      const auto& encryption = settings_.writer.encryption;
      read_keys_ = std::make_shared<parquet::FileDecryptionProperties>();
      read_keys_->footer_key = encryption->footer_key;
      read_keys_->column_keys = encryption->column_keys;
      read_keys_->aad_prefix = encryption->aad_prefix;
    }
    const std::string name = FinalName(file);
    std::unique_ptr<parquet::ParquetFileReader> reader =
        parquet::ParquetFileReader::Open(parquet::OpenLocalFile(std::move(file.read_file), name), read_keys_.get());
    if (settings_.verify) parquet::VerifyFile(*reader);
    if (settings_.return_stats) AppendFileReport(*reader, name, file.relative, &file.report);
  }

  std::string path_;
  CopySettings settings_;
  std::shared_ptr<parquet::FileDecryptionProperties> read_keys_;  // encrypted output read back
  bool append_checked_ = false;
  CopyQuery query_;
  CopyLayout layout_;  // refers to settings_
  int64_t row_number_ = 0;  // rows received so far
  // Declared before the staged output, whose temporary files live in its staging directory.
  std::unique_ptr<RemoteCopyTarget> remote_target_;
  // Declared before the partitions, so that their files are closed before the temporary
  // output is removed on an error.
  std::unique_ptr<StagedOutput> staged_;
  CopyPartitions partitions_;
  std::vector<FlatKind> flat_;  // per data column, once the types are fixed
  // The same with each column's cell in a result row, for AppendFlatRow; all_flat_: no
  // column is nested.
  struct FlatCell {
    int result_index;
    FlatKind kind;
  };
  std::vector<FlatCell> flat_cells_;
  bool all_flat_ = false;
  std::vector<std::vector<LeafData>> sort_scratch_;  // converted buffered values of each sort key
  std::vector<LeafData> leaf_scratch_;
  std::string message_;
  DateParseCache date_parser_;  // DATE columns' text
  size_t total_rows_ = 0;   // rows and bytes buffered over all partitions
  size_t total_bytes_ = 0;
  std::vector<LeafData> leaves_;
  std::mutex spare_mutex_;
  std::vector<std::vector<LeafData>> spare_leaves_;  // batches the writer thread is done with
  // Last: destroyed first, so that no task runs once the writers and buffers it uses go.
  CopyWriterThread writer_thread_{2};
};

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
      const bool return_stats = settings.return_stats;
      // Uploads and listings (S3) end at sqlite3_interrupt() too.
      const ConnectionInterruptScope interruptible(sqlite3_context_db_handle(ctx));
      Copier copier(sqlite3_context_db_handle(ctx), path, std::move(settings), query);
      std::string report;
      const int64_t rows = copier.Run(&report);
      if (return_stats) {
        sqlite3_result_text64(ctx, report.data(), report.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
        sqlite3_result_subtype(ctx, kJsonSubtype);
      } else {
        sqlite3_result_int64(ctx, rows);
      }
    }
    // The copy's buffers were freed; give their pages back to the system rather than leave
    // them in the allocator's free lists (where a next copy would fragment them further).
    parquet::platform::ReleaseFreeMemory();
  } catch (const QueryError& e) {
    if (e.code() == SQLITE_NOMEM) {
      sqlite3_result_error_nomem(ctx);
    } else {
      sqlite3_result_error(ctx, e.what(), -1);
      sqlite3_result_error_code(ctx, e.code());
    }
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  } catch (const parquet::HttpInterrupted&) {
    sqlite3_result_error(ctx, "parquet_copy: interrupted", -1);
    sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
  } catch (const std::exception& e) {
    sqlite3_result_error(ctx, (std::string("parquet_copy: ") + e.what()).c_str(), -1);
  }
}

}  // namespace

int RegisterParquetCopy(sqlite3* db) {
  int rc = sqlite3_create_function_v2(db, "parquet_copy", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, nullptr,
                                      ParquetCopyFunction, nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) rc = RegisterCopyRowSink<Copier>(db);
  return rc;
}

}  // namespace sqlite_parquet
