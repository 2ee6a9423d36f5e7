// Table-valued functions that show what is inside Parquet files without reading their data.
//
// USAGE
//
//   SELECT * FROM parquet_metadata('file.parquet');        -- row group x column chunk
//   SELECT * FROM parquet_schema('data/*.parquet');        -- schema elements
//   SELECT * FROM parquet_file_metadata('data/');          -- one row per file
//   SELECT * FROM parquet_kv_metadata('file.parquet');     -- footer key/value pairs
//
// The argument is a file, a directory or a glob (ext/common/file_list.h: `*`, `?`, `[...]`,
// `**`); every file it names is read in sorted order and `file_name` says which file a
// row comes from. The argument is the HIDDEN column `path`, so
// `SELECT * FROM parquet_schema WHERE path = 'x.parquet'` works too. Only footers are
// read: one file is open at a time.
//
// COLUMNS (docs/metadata-functions.md has the same lists)
//
// parquet_metadata: file_name, row_group_id, row_group_num_rows, row_group_num_columns,
//   row_group_bytes, column_id, file_offset, num_values, path_in_schema, type, stats_min,
//   stats_max, stats_null_count, stats_distinct_count, stats_min_value, stats_max_value,
//   compression, encodings, index_page_offset, dictionary_page_offset, data_page_offset,
//   total_compressed_size, total_uncompressed_size, key_value_metadata,
//   bloom_filter_offset, bloom_filter_length, min_is_exact, max_is_exact,
//   row_group_compressed_bytes, stats_nan_count, stats_sort_order, stats_lower_bound,
//   stats_upper_bound, column_index_offset, column_index_length, offset_index_offset,
//   offset_index_length, row_group_sorting_columns.
//   stats_min/stats_max are the deprecated Statistics.min/max fields, stats_min_value/
//   stats_max_value the current ones, each decoded as the column's values are (the
//   parquet table's default type mapping), or the raw bytes as a BLOB when they cannot
//   be (wrong size). stats_lower_bound/stats_upper_bound are the bounds this reader
//   trusts (format/index/statistics.h: NaN ignored, deprecated fields only where their signed
//   order is the column's order, ...), NULL when there is none.
//
// parquet_schema: file_name, name, type, type_length, repetition_type, num_children,
//   converted_type, scale, precision, field_id, logical_type, sqlite_type, column_id.
//   One row per schema element, depth first (the root first). sqlite_type is the declared
//   type of the parquet table's column for top-level fields ('' for none), NULL for the
//   root and inner nodes; column_id is the leaf's column number (parquet_metadata's
//   column_id), NULL for groups.
//
// parquet_file_metadata: file_name, created_by, num_rows, num_row_groups, format_version,
//   encryption_algorithm, footer_signing_key_metadata, file_size_bytes, footer_size,
//   column_orders, footer_encrypted. A file with an encrypted footer ("PARE") gives one
//   row with what is readable without a key: the algorithm, sizes, footer_encrypted = 1,
//   and NULL for the rest.
//
// parquet_kv_metadata: file_name, key, value. Keys and values are TEXT when they are
//   valid UTF-8, BLOB otherwise; a value the file leaves out is NULL.
//
// Encrypted files: after the path, up to five 'key=value' arguments take the parquet
// table's key options (footer_key, column_keys, aad_prefix, key_table,
// verify_footer_signature), e.g. parquet_metadata('f.parquet', 'footer_key=...',
// 'column_keys=a:...'). With them the footer and the column metadata are decrypted
// (statistics of encrypted columns included).
//
// Errors name the file or the path: "no files match 'x'", "cannot open 'x': ...",
// "not a parquet file: x ...", "x has an encrypted footer: a footer key is needed to read
// it" (every function but parquet_file_metadata).
//
// The functions are registered SQLITE_VTAB_DIRECTONLY: views and triggers cannot use
// them, so a database someone else made cannot make the extension read files.
#include "ext/metadata/metadata_functions.h"

#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "ext/common/column_mapping.h"
#include "ext/common/encryption_options.h"
#include "ext/common/file_list.h"
#include "ext/common/remote_options.h"
#include "ext/common/options.h"
#include "ext/common/parquet_to_sql.h"
#include "ext/common/sqlite_values.h"
#include "ext/common/vtab_errors.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/values/json_text.h"
#include "format/metadata/metadata.h"
#include "format/io/random_access_file.h"
#include "format/index/statistics.h"
#include "format/values/text.h"

namespace sqlite_parquet {

namespace {

enum class FunctionKind { kMetadata, kSchema, kFileMetadata, kKvMetadata };

struct FunctionSpec {
  const char* name;
  FunctionKind kind;
  const char* columns;  // the declared columns, without the HIDDEN path column
  int num_columns;
};

const FunctionSpec kFunctions[] = {
    {"parquet_metadata", FunctionKind::kMetadata,
     "file_name TEXT, row_group_id INTEGER, row_group_num_rows INTEGER, row_group_num_columns INTEGER, "
     "row_group_bytes INTEGER, column_id INTEGER, file_offset INTEGER, num_values INTEGER, path_in_schema TEXT, "
     "type TEXT, stats_min, stats_max, stats_null_count INTEGER, stats_distinct_count INTEGER, stats_min_value, "
     "stats_max_value, compression TEXT, encodings TEXT, index_page_offset INTEGER, dictionary_page_offset INTEGER, "
     "data_page_offset INTEGER, total_compressed_size INTEGER, total_uncompressed_size INTEGER, "
     "key_value_metadata TEXT, bloom_filter_offset INTEGER, bloom_filter_length INTEGER, min_is_exact INTEGER, "
     "max_is_exact INTEGER, row_group_compressed_bytes INTEGER, stats_nan_count INTEGER, stats_sort_order TEXT, "
     "stats_lower_bound, stats_upper_bound, column_index_offset INTEGER, column_index_length INTEGER, "
     "offset_index_offset INTEGER, offset_index_length INTEGER, row_group_sorting_columns TEXT",
     38},
    {"parquet_schema", FunctionKind::kSchema,
     "file_name TEXT, name TEXT, type TEXT, type_length INTEGER, repetition_type TEXT, num_children INTEGER, "
     "converted_type TEXT, scale INTEGER, precision INTEGER, field_id INTEGER, logical_type TEXT, sqlite_type TEXT, "
     "column_id INTEGER",
     13},
    {"parquet_file_metadata", FunctionKind::kFileMetadata,
     "file_name TEXT, created_by TEXT, num_rows INTEGER, num_row_groups INTEGER, format_version INTEGER, "
     "encryption_algorithm TEXT, footer_signing_key_metadata BLOB, file_size_bytes INTEGER, footer_size INTEGER, "
     "column_orders TEXT, footer_encrypted INTEGER",
     11},
    {"parquet_kv_metadata", FunctionKind::kKvMetadata, "file_name TEXT, key, value", 3},
};

// Column numbers of parquet_metadata.
enum MetadataColumn {
  kMdFileName, kMdRowGroupId, kMdRowGroupNumRows, kMdRowGroupNumColumns, kMdRowGroupBytes, kMdColumnId,
  kMdFileOffset, kMdNumValues, kMdPathInSchema, kMdType, kMdStatsMin, kMdStatsMax, kMdStatsNullCount,
  kMdStatsDistinctCount, kMdStatsMinValue, kMdStatsMaxValue, kMdCompression, kMdEncodings, kMdIndexPageOffset,
  kMdDictionaryPageOffset, kMdDataPageOffset, kMdTotalCompressedSize, kMdTotalUncompressedSize,
  kMdKeyValueMetadata, kMdBloomFilterOffset, kMdBloomFilterLength, kMdMinIsExact, kMdMaxIsExact,
  kMdRowGroupCompressedBytes, kMdStatsNanCount, kMdStatsSortOrder, kMdStatsLowerBound, kMdStatsUpperBound,
  kMdColumnIndexOffset, kMdColumnIndexLength, kMdOffsetIndexOffset, kMdOffsetIndexLength,
  kMdRowGroupSortingColumns,
};

enum SchemaColumn {
  kScFileName, kScName, kScType, kScTypeLength, kScRepetitionType, kScNumChildren, kScConvertedType, kScScale,
  kScPrecision, kScFieldId, kScLogicalType, kScSqliteType, kScColumnId,
};

enum FileMetadataColumn {
  kFmFileName, kFmCreatedBy, kFmNumRows, kFmNumRowGroups, kFmFormatVersion, kFmEncryptionAlgorithm,
  kFmFooterSigningKeyMetadata, kFmFileSizeBytes, kFmFooterSize, kFmColumnOrders, kFmFooterEncrypted,
};

struct MetadataTable {
  sqlite3_vtab base;  // must come first
  const FunctionSpec* spec = nullptr;
  sqlite3* db = nullptr;  // for key_table
};

// Hidden columns after `path` that take 'key=value' option arguments (the key options of
// the parquet table: footer_key, column_keys, aad_prefix, key_table,
// verify_footer_signature).
constexpr int kOptionArguments = 5;

// What parquet_metadata needs per leaf column of the current file.
struct LeafInfo {
  parquet::StatisticsContext context;
  ColumnMapping mapping;
};

// The file a cursor is reading.
struct OpenFile {
  std::string name;
  std::unique_ptr<parquet::ParquetFileReader> reader;  // null when the footer is encrypted
  // Encrypted footer (parquet_file_metadata only).
  std::optional<parquet::FileCryptoMetaData> crypto;
  uint64_t file_size = 0;
  uint32_t footer_length = 0;
  std::vector<LeafInfo> leaves;            // parquet_metadata
  std::vector<int> top_level_field_of;     // parquet_schema: element index -> field, or -1
  std::vector<std::string> sqlite_types;   // parquet_schema: declared type per top-level field
};

struct MetadataCursor {
  sqlite3_vtab_cursor base;  // must come first
  std::string path;
  std::vector<std::string> files;
  size_t next_file = 0;
  OpenFile file;
  int64_t row = 0;            // row within the current file
  int64_t rows_in_file = 0;
  int64_t rowid = 0;
  bool eof = true;
  FormatBuffer format_buffer;  // statistics values converted to SQLite values
  std::shared_ptr<const parquet::FileDecryptionProperties> decryption;  // null: no key options
  std::shared_ptr<const parquet::RemoteOptions> remote;  // https:// and s3:// paths
};

MetadataTable* TableOf(sqlite3_vtab_cursor* cursor) { return reinterpret_cast<MetadataTable*>(cursor->pVtab); }

// ---- Text forms ------------------------------------------------------------------------

// `s` with each byte that does not begin a valid UTF-8 sequence replaced by U+FFFD, so
// key/value metadata of any bytes can go into a JSON document.
std::string WithInvalidUtf8Replaced(const std::string& s) {
  if (parquet::IsValidUtf8(s)) return s;
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (c < 0x80 || (length > 1 && i + length <= s.size() && parquet::IsValidUtf8(s.substr(i, length)))) {
      out.append(s, i, length);
      i += length;
    } else {
      out += "\xEF\xBF\xBD";
      i++;
    }
  }
  return out;
}

const char* TimeUnitName(parquet::TimeUnit unit) {
  switch (unit) {
    case parquet::TimeUnit::MILLIS: return "MILLIS";
    case parquet::TimeUnit::MICROS: return "MICROS";
    case parquet::TimeUnit::NANOS: return "NANOS";
  }
  return "UNKNOWN";
}

const char* EdgeAlgorithmName(parquet::EdgeInterpolationAlgorithm algorithm) {
  switch (algorithm) {
    case parquet::EdgeInterpolationAlgorithm::SPHERICAL: return "SPHERICAL";
    case parquet::EdgeInterpolationAlgorithm::VINCENTY: return "VINCENTY";
    case parquet::EdgeInterpolationAlgorithm::THOMAS: return "THOMAS";
    case parquet::EdgeInterpolationAlgorithm::ANDOYER: return "ANDOYER";
    case parquet::EdgeInterpolationAlgorithm::KARNEY: return "KARNEY";
  }
  return "UNKNOWN";
}

// The LogicalType union as text, named after the thrift structs:
// "TimestampType(isAdjustedToUTC=1, unit=MICROS)", "DecimalType(scale=2, precision=10)".
std::string LogicalTypeText(const parquet::LogicalType& t) {
  using Kind = parquet::LogicalType::Kind;
  switch (t.kind) {
    case Kind::STRING: return "StringType()";
    case Kind::MAP: return "MapType()";
    case Kind::LIST: return "ListType()";
    case Kind::ENUM: return "EnumType()";
    case Kind::DECIMAL:
      return "DecimalType(scale=" + std::to_string(t.decimal_scale) + ", precision=" +
             std::to_string(t.decimal_precision) + ")";
    case Kind::DATE: return "DateType()";
    case Kind::TIME:
      return std::string("TimeType(isAdjustedToUTC=") + (t.is_adjusted_to_utc ? "1" : "0") +
             ", unit=" + TimeUnitName(t.time_unit) + ")";
    case Kind::TIMESTAMP:
      return std::string("TimestampType(isAdjustedToUTC=") + (t.is_adjusted_to_utc ? "1" : "0") +
             ", unit=" + TimeUnitName(t.time_unit) + ")";
    case Kind::INTEGER:
      return "IntType(bitWidth=" + std::to_string(t.int_bit_width) + ", isSigned=" + (t.int_is_signed ? "1" : "0") + ")";
    case Kind::UNKNOWN: return "NullType()";
    case Kind::JSON: return "JsonType()";
    case Kind::BSON: return "BsonType()";
    case Kind::UUID: return "UUIDType()";
    case Kind::FLOAT16: return "Float16Type()";
    case Kind::VARIANT:
      if (t.variant_specification_version.has_value()) {
        return "VariantType(specification_version=" + std::to_string(*t.variant_specification_version) + ")";
      }
      return "VariantType()";
    case Kind::GEOMETRY:
    case Kind::GEOGRAPHY: {
      std::string text = t.kind == Kind::GEOMETRY ? "GeometryType(" : "GeographyType(";
      bool first = true;
      if (t.crs.has_value()) {
        text += "crs=" + *t.crs;
        first = false;
      }
      if (t.edge_algorithm.has_value()) {
        text += std::string(first ? "" : ", ") + "algorithm=" + EdgeAlgorithmName(*t.edge_algorithm);
      }
      return text + ")";
    }
    case Kind::VECTOR: return "VectorType()";
    case Kind::UNRECOGNIZED: break;
  }
  return "unrecognized";
}

const char* EncryptionAlgorithmName(const parquet::EncryptionAlgorithm& algorithm) {
  switch (algorithm.kind) {
    case parquet::EncryptionAlgorithm::Kind::AES_GCM_V1: return "AES_GCM_V1";
    case parquet::EncryptionAlgorithm::Kind::AES_GCM_CTR_V1: return "AES_GCM_CTR_V1";
    case parquet::EncryptionAlgorithm::Kind::UNRECOGNIZED: break;
  }
  return "unrecognized";
}

const char* ColumnOrderName(const parquet::ColumnOrder& order) {
  switch (order.kind) {
    case parquet::ColumnOrder::Kind::TYPE_DEFINED_ORDER: return "TYPE_DEFINED_ORDER";
    case parquet::ColumnOrder::Kind::IEEE_754_TOTAL_ORDER: return "IEEE_754_TOTAL_ORDER";
    case parquet::ColumnOrder::Kind::INT96_TIMESTAMP_ORDER: return "INT96_TIMESTAMP_ORDER";
    case parquet::ColumnOrder::Kind::UNRECOGNIZED: break;
  }
  return "unrecognized";
}

// ---- Results ---------------------------------------------------------------------------

void ResultText(sqlite3_context* ctx, const std::string& text) {
  sqlite3_result_text64(ctx, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

void ResultBlob(sqlite3_context* ctx, const std::string& bytes) {
  if (bytes.empty()) {
    sqlite3_result_zeroblob(ctx, 0);
  } else {
    sqlite3_result_blob64(ctx, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
  }
}

// TEXT when valid UTF-8, else BLOB.
void ResultTextOrBlob(sqlite3_context* ctx, const std::string& bytes) {
  if (parquet::IsValidUtf8(bytes)) {
    ResultText(ctx, bytes);
  } else {
    ResultBlob(ctx, bytes);
  }
}

template <typename T>
void ResultOptionalInt(sqlite3_context* ctx, const std::optional<T>& value) {
  if (value.has_value()) {
    sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(*value));
  } else {
    sqlite3_result_null(ctx);
  }
}

void ResultOptionalBool(sqlite3_context* ctx, const std::optional<bool>& value) {
  if (value.has_value()) {
    sqlite3_result_int(ctx, *value ? 1 : 0);
  } else {
    sqlite3_result_null(ctx);
  }
}

// A decoded statistics value as a SQLite value, converted as the column's values are.
void ResultStatisticsValue(sqlite3_context* ctx, const LeafInfo& leaf, const parquet::StatisticsValue& value,
                           const std::string& raw, FormatBuffer* buffer) {
  const ColumnMapping& m = leaf.mapping;
  if (m.kind == ValueKind::kNull || m.kind == ValueKind::kNested) {
    ResultBlob(ctx, raw);
    return;
  }
  ParquetValue parquet_value;
  if (!StatisticsParquetValue(m, value, &parquet_value)) {
    ResultBlob(ctx, value.bytes);
    return;
  }
  ResultParquetValue(ctx, m, parquet_value, buffer);
}

// A raw statistics field: NULL when absent, the decoded value, or its bytes as a BLOB.
void ResultRawStatistics(sqlite3_context* ctx, const LeafInfo& leaf, const std::optional<std::string>& raw,
                         FormatBuffer* buffer) {
  if (!raw.has_value()) {
    sqlite3_result_null(ctx);
    return;
  }
  parquet::StatisticsValue value;
  if (!parquet::DecodeStatisticsValue(*raw, leaf.context, &value)) {
    ResultBlob(ctx, *raw);
    return;
  }
  ResultStatisticsValue(ctx, leaf, value, *raw, buffer);
}

void ResultBound(sqlite3_context* ctx, const LeafInfo& leaf, const std::optional<parquet::StatisticsBound>& bound,
                 FormatBuffer* buffer) {
  if (!bound.has_value()) {
    sqlite3_result_null(ctx);
    return;
  }
  ResultStatisticsValue(ctx, leaf, bound->value, bound->value.bytes, buffer);
}

// ---- Opening files ---------------------------------------------------------------------

// Reads the FileCryptoMetaData of a file whose footer is encrypted ("PARE" magic); the
// encrypted FileMetaData after it needs a key.
void OpenEncryptedFooter(OpenFile* file, parquet::RandomAccessFile* handle) {
  file->file_size = handle->Size();
  if (file->file_size < 12) throw parquet::ParquetError("not a parquet file: " + parquet::PathForDisplay(file->name) + " is too small");
  uint8_t trailer[8];
  handle->ReadAt(file->file_size - 8, 8, trailer);
  const uint32_t length = static_cast<uint32_t>(trailer[0]) | (static_cast<uint32_t>(trailer[1]) << 8) |
                          (static_cast<uint32_t>(trailer[2]) << 16) | (static_cast<uint32_t>(trailer[3]) << 24);
  if (length == 0 || length > file->file_size - 12) {
    throw parquet::ParquetError("corrupt parquet file " + parquet::PathForDisplay(file->name) + ": footer length " + std::to_string(length) +
                                " does not fit in a file of " + std::to_string(file->file_size) + " bytes");
  }
  std::vector<uint8_t> footer;
  handle->ReadAt(file->file_size - 8 - length, length, &footer);
  size_t consumed = 0;
  try {
    file->crypto = parquet::ParseFileCryptoMetaData(footer.data(), footer.size(), &consumed);
  } catch (const parquet::ParquetError& e) {
    throw parquet::ParquetError("corrupt encrypted footer in " + parquet::PathForDisplay(file->name) + ": " + e.what());
  }
  file->footer_length = length;
}

bool HasEncryptedFooter(parquet::RandomAccessFile* handle) {
  const uint64_t size = handle->Size();
  if (size < 12) return false;
  uint8_t magic[4];
  handle->ReadAt(size - 4, 4, magic);
  return std::memcmp(magic, "PARE", 4) == 0;
}

// Opens files[next_file] and sets rows_in_file.
void OpenCurrentFile(MetadataCursor* cursor, FunctionKind kind) {
  OpenFile& file = cursor->file;
  file = OpenFile();
  file.name = cursor->files[cursor->next_file];
  std::unique_ptr<parquet::RandomAccessFile> handle = parquet::OpenFileOrUrl(file.name, cursor->remote.get());
  if (kind == FunctionKind::kFileMetadata && !cursor->decryption && HasEncryptedFooter(handle.get())) {
    OpenEncryptedFooter(&file, handle.get());
    cursor->rows_in_file = 1;
    return;
  }
  file.reader = parquet::ParquetFileReader::Open(std::move(handle), cursor->decryption.get());
  const parquet::FileMetaData& metadata = file.reader->metadata();
  const parquet::Schema& schema = file.reader->schema();
  file.file_size = file.reader->file().Size();
  file.footer_length = file.reader->footer_length();
  switch (kind) {
    case FunctionKind::kMetadata:
      file.leaves.resize(static_cast<size_t>(schema.num_columns()));
      for (int c = 0; c < schema.num_columns(); c++) {
        LeafInfo& leaf = file.leaves[static_cast<size_t>(c)];
        leaf.context = parquet::MakeStatisticsContext(metadata, schema, c);
        leaf.mapping = MapLeaf(schema, schema.column(c).node, MappingOptions());
      }
      cursor->rows_in_file = static_cast<int64_t>(file.reader->num_row_groups()) * schema.num_columns();
      break;
    case FunctionKind::kSchema: {
      file.top_level_field_of.assign(metadata.schema.size(), -1);
      const std::vector<int>& fields = schema.top_level_fields();
      for (size_t f = 0; f < fields.size(); f++) {
        file.top_level_field_of[static_cast<size_t>(schema.node(fields[f]).index)] = static_cast<int>(f);
        file.sqlite_types.push_back(MapTopLevelField(schema, static_cast<int>(f), MappingOptions()).declared_type);
      }
      cursor->rows_in_file = static_cast<int64_t>(metadata.schema.size());
      break;
    }
    case FunctionKind::kFileMetadata:
      cursor->rows_in_file = 1;
      break;
    case FunctionKind::kKvMetadata:
      cursor->rows_in_file = metadata.key_value_metadata.has_value()
                                 ? static_cast<int64_t>(metadata.key_value_metadata->size())
                                 : 0;
      break;
  }
}

// Moves to the next row, opening files as needed; skips files without rows.
void Advance(MetadataCursor* cursor, FunctionKind kind) {
  cursor->row++;
  cursor->rowid++;
  while (cursor->row >= cursor->rows_in_file) {
    if (cursor->next_file >= cursor->files.size()) {
      cursor->eof = true;
      cursor->file = OpenFile();
      return;
    }
    OpenCurrentFile(cursor, kind);
    cursor->next_file++;
    cursor->row = 0;
  }
  cursor->eof = false;
}

// ---- Columns ---------------------------------------------------------------------------

void MetadataColumnValue(MetadataCursor* cursor, sqlite3_context* ctx, int column) {
  const OpenFile& file = cursor->file;
  const parquet::ParquetFileReader& reader = *file.reader;
  const int num_columns = reader.schema().num_columns();
  const int rg_index = static_cast<int>(cursor->row / num_columns);
  const int col = static_cast<int>(cursor->row % num_columns);
  const parquet::RowGroup& rg = reader.row_group(rg_index);
  const parquet::ColumnChunk& chunk = rg.columns[static_cast<size_t>(col)];
  const parquet::ColumnMetaData* meta = chunk.meta_data.has_value() ? &*chunk.meta_data : nullptr;
  const parquet::Statistics* stats = meta && meta->statistics.has_value() ? &*meta->statistics : nullptr;
  const LeafInfo& leaf = file.leaves[static_cast<size_t>(col)];
  const parquet::ColumnDescriptor& descriptor = reader.schema().column(col);

  auto decoded = [&]() { return parquet::DecodeStatistics(*stats, leaf.context); };
  switch (column) {
    case kMdFileName: ResultText(ctx, file.name); return;
    case kMdRowGroupId: sqlite3_result_int64(ctx, rg_index); return;
    case kMdRowGroupNumRows: sqlite3_result_int64(ctx, rg.num_rows); return;
    case kMdRowGroupNumColumns: sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(rg.columns.size())); return;
    case kMdRowGroupBytes: sqlite3_result_int64(ctx, rg.total_byte_size); return;
    case kMdColumnId: sqlite3_result_int64(ctx, col); return;
    case kMdFileOffset: sqlite3_result_int64(ctx, chunk.file_offset); return;
    case kMdPathInSchema: ResultText(ctx, descriptor.dotted_path); return;
    case kMdType: ResultText(ctx, parquet::ToString(descriptor.physical_type)); return;
    case kMdRowGroupCompressedBytes: ResultOptionalInt(ctx, rg.total_compressed_size); return;
    case kMdStatsSortOrder: ResultText(ctx, parquet::ToString(leaf.context.sort_order)); return;
    case kMdColumnIndexOffset: ResultOptionalInt(ctx, chunk.column_index_offset); return;
    case kMdColumnIndexLength: ResultOptionalInt(ctx, chunk.column_index_length); return;
    case kMdOffsetIndexOffset: ResultOptionalInt(ctx, chunk.offset_index_offset); return;
    case kMdOffsetIndexLength: ResultOptionalInt(ctx, chunk.offset_index_length); return;
    case kMdRowGroupSortingColumns: {
      if (!rg.sorting_columns.has_value()) {
        sqlite3_result_null(ctx);
        return;
      }
      std::string text;
      for (const parquet::SortingColumn& sc : *rg.sorting_columns) {
        if (!text.empty()) text += ", ";
        if (sc.column_idx >= 0 && sc.column_idx < num_columns) {
          text += reader.schema().column(sc.column_idx).dotted_path;
        } else {
          text += "column " + std::to_string(sc.column_idx);
        }
        text += sc.descending ? " DESC" : " ASC";
        text += sc.nulls_first ? " NULLS FIRST" : " NULLS LAST";
      }
      ResultText(ctx, text);
      return;
    }
    default: break;
  }
  // The rest comes from the column metadata, absent for some encrypted columns.
  if (meta == nullptr) {
    sqlite3_result_null(ctx);
    return;
  }
  switch (column) {
    case kMdNumValues: sqlite3_result_int64(ctx, meta->num_values); return;
    case kMdCompression: ResultText(ctx, parquet::ToString(meta->codec)); return;
    case kMdEncodings: {
      std::string text;
      for (size_t i = 0; i < meta->encodings.size(); i++) {
        if (i) text += ", ";
        text += parquet::ToString(meta->encodings[i]);
      }
      ResultText(ctx, text);
      return;
    }
    case kMdIndexPageOffset: ResultOptionalInt(ctx, meta->index_page_offset); return;
    case kMdDictionaryPageOffset: ResultOptionalInt(ctx, meta->dictionary_page_offset); return;
    case kMdDataPageOffset: sqlite3_result_int64(ctx, meta->data_page_offset); return;
    case kMdTotalCompressedSize: sqlite3_result_int64(ctx, meta->total_compressed_size); return;
    case kMdTotalUncompressedSize: sqlite3_result_int64(ctx, meta->total_uncompressed_size); return;
    case kMdKeyValueMetadata: {
      if (!meta->key_value_metadata.has_value()) {
        sqlite3_result_null(ctx);
        return;
      }
      std::string json = "{";
      for (size_t i = 0; i < meta->key_value_metadata->size(); i++) {
        const parquet::KeyValue& kv = (*meta->key_value_metadata)[i];
        if (i) json += ",";
        parquet::AppendJsonString(WithInvalidUtf8Replaced(kv.key), &json);
        json += ":";
        if (kv.value.has_value()) {
          parquet::AppendJsonString(WithInvalidUtf8Replaced(*kv.value), &json);
        } else {
          json += "null";
        }
      }
      json += "}";
      ResultText(ctx, json);
      sqlite3_result_subtype(ctx, kJsonSubtype);
      return;
    }
    case kMdBloomFilterOffset: ResultOptionalInt(ctx, meta->bloom_filter_offset); return;
    case kMdBloomFilterLength: ResultOptionalInt(ctx, meta->bloom_filter_length); return;
    default: break;
  }
  if (stats == nullptr) {
    sqlite3_result_null(ctx);
    return;
  }
  switch (column) {
    case kMdStatsMin: ResultRawStatistics(ctx, leaf, stats->min, &cursor->format_buffer); return;
    case kMdStatsMax: ResultRawStatistics(ctx, leaf, stats->max, &cursor->format_buffer); return;
    case kMdStatsMinValue: ResultRawStatistics(ctx, leaf, stats->min_value, &cursor->format_buffer); return;
    case kMdStatsMaxValue: ResultRawStatistics(ctx, leaf, stats->max_value, &cursor->format_buffer); return;
    case kMdStatsNullCount: ResultOptionalInt(ctx, stats->null_count); return;
    case kMdStatsDistinctCount: ResultOptionalInt(ctx, stats->distinct_count); return;
    case kMdStatsNanCount: ResultOptionalInt(ctx, stats->nan_count); return;
    case kMdMinIsExact: ResultOptionalBool(ctx, stats->is_min_value_exact); return;
    case kMdMaxIsExact: ResultOptionalBool(ctx, stats->is_max_value_exact); return;
    case kMdStatsLowerBound: ResultBound(ctx, leaf, decoded().min, &cursor->format_buffer); return;
    case kMdStatsUpperBound: ResultBound(ctx, leaf, decoded().max, &cursor->format_buffer); return;
    default: break;
  }
  sqlite3_result_null(ctx);
}

void SchemaColumnValue(MetadataCursor* cursor, sqlite3_context* ctx, int column) {
  const OpenFile& file = cursor->file;
  const size_t index = static_cast<size_t>(cursor->row);
  const parquet::SchemaElement& e = file.reader->metadata().schema[index];
  switch (column) {
    case kScFileName: ResultText(ctx, file.name); return;
    case kScName: ResultTextOrBlob(ctx, e.name); return;
    case kScType:
      if (e.type.has_value()) {
        ResultText(ctx, parquet::ToString(*e.type));
      } else {
        sqlite3_result_null(ctx);
      }
      return;
    case kScTypeLength: ResultOptionalInt(ctx, e.type_length); return;
    case kScRepetitionType:
      if (e.repetition_type.has_value()) {
        ResultText(ctx, parquet::ToString(*e.repetition_type));
      } else {
        sqlite3_result_null(ctx);
      }
      return;
    case kScNumChildren: ResultOptionalInt(ctx, e.num_children); return;
    case kScConvertedType:
      if (e.converted_type.has_value()) {
        ResultText(ctx, parquet::ToString(*e.converted_type));
      } else {
        sqlite3_result_null(ctx);
      }
      return;
    case kScScale: ResultOptionalInt(ctx, e.scale); return;
    case kScPrecision: ResultOptionalInt(ctx, e.precision); return;
    case kScFieldId: ResultOptionalInt(ctx, e.field_id); return;
    case kScLogicalType:
      if (e.logical_type.has_value()) {
        ResultText(ctx, LogicalTypeText(*e.logical_type));
      } else {
        sqlite3_result_null(ctx);
      }
      return;
    case kScSqliteType: {
      const int field = file.top_level_field_of[index];
      if (field < 0) {
        sqlite3_result_null(ctx);
      } else {
        ResultText(ctx, file.sqlite_types[static_cast<size_t>(field)]);
      }
      return;
    }
    case kScColumnId: {
      const parquet::SchemaNode& node = file.reader->schema().node(static_cast<int>(index));
      if (node.leaf_index >= 0) {
        sqlite3_result_int64(ctx, node.leaf_index);
      } else {
        sqlite3_result_null(ctx);
      }
      return;
    }
    default: break;
  }
  sqlite3_result_null(ctx);
}

void FileMetadataColumnValue(MetadataCursor* cursor, sqlite3_context* ctx, int column) {
  const OpenFile& file = cursor->file;
  switch (column) {
    case kFmFileName: ResultText(ctx, file.name); return;
    case kFmFileSizeBytes: sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(file.file_size)); return;
    case kFmFooterSize: sqlite3_result_int64(ctx, file.footer_length); return;
    case kFmFooterEncrypted: sqlite3_result_int(ctx, !file.reader || file.reader->footer_encrypted() ? 1 : 0); return;
    default: break;
  }
  if (!file.reader) {
    if (column == kFmEncryptionAlgorithm && file.crypto.has_value()) {
      ResultText(ctx, EncryptionAlgorithmName(file.crypto->encryption_algorithm));
    } else {
      sqlite3_result_null(ctx);
    }
    return;
  }
  const parquet::FileMetaData& m = file.reader->metadata();
  switch (column) {
    case kFmCreatedBy:
      if (m.created_by.has_value()) {
        ResultTextOrBlob(ctx, *m.created_by);
      } else {
        sqlite3_result_null(ctx);
      }
      return;
    case kFmNumRows: sqlite3_result_int64(ctx, m.num_rows); return;
    case kFmNumRowGroups: sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(m.row_groups.size())); return;
    case kFmFormatVersion: sqlite3_result_int64(ctx, m.version); return;
    case kFmEncryptionAlgorithm:
      if (file.reader->encryption_algorithm().has_value()) {  // also for a decrypted PARE footer
        ResultText(ctx, EncryptionAlgorithmName(*file.reader->encryption_algorithm()));
      } else {
        sqlite3_result_null(ctx);
      }
      return;
    case kFmFooterSigningKeyMetadata:
      if (m.footer_signing_key_metadata.has_value()) {
        ResultBlob(ctx, *m.footer_signing_key_metadata);
      } else {
        sqlite3_result_null(ctx);
      }
      return;
    case kFmColumnOrders: {
      if (!m.column_orders.has_value()) {
        sqlite3_result_null(ctx);
        return;
      }
      std::string text;
      for (size_t i = 0; i < m.column_orders->size(); i++) {
        if (i) text += ", ";
        text += ColumnOrderName((*m.column_orders)[i]);
      }
      ResultText(ctx, text);
      return;
    }
    default: break;
  }
  sqlite3_result_null(ctx);
}

void KvColumnValue(MetadataCursor* cursor, sqlite3_context* ctx, int column) {
  const OpenFile& file = cursor->file;
  const parquet::KeyValue& kv = (*file.reader->metadata().key_value_metadata)[static_cast<size_t>(cursor->row)];
  switch (column) {
    case 0: ResultText(ctx, file.name); return;
    case 1: ResultTextOrBlob(ctx, kv.key); return;
    case 2:
      if (kv.value.has_value()) {
        ResultTextOrBlob(ctx, *kv.value);
      } else {
        sqlite3_result_null(ctx);
      }
      return;
    default: break;
  }
  sqlite3_result_null(ctx);
}

// ---- The module ------------------------------------------------------------------------

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char** error_out) {
  *out = nullptr;
  const FunctionSpec* spec = static_cast<const FunctionSpec*>(aux);
  try {
    std::string sql = std::string("CREATE TABLE x(") + spec->columns + ", path HIDDEN";
    for (int i = 1; i <= kOptionArguments; i++) sql += ", option" + std::to_string(i) + " HIDDEN";
    sql += ")";
    int rc = sqlite3_declare_vtab(db, sql.c_str());
    if (rc != SQLITE_OK) {
      *error_out = sqlite3_mprintf("cannot declare %s: %s", spec->name, sqlite3_errmsg(db));
      return rc;
    }
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    auto table = std::make_unique<MetadataTable>();
    std::memset(&table->base, 0, sizeof(table->base));
    table->spec = spec;
    table->db = db;
    *out = &table.release()->base;
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

int Disconnect(sqlite3_vtab* vtab) {
  delete reinterpret_cast<MetadataTable*>(vtab);
  return SQLITE_OK;
}

// The path argument is an equality constraint on the hidden column. Without one the plan
// still succeeds (idxNum 0) so that xFilter can say what is missing; an unusable one
// (a join order where the path is not known yet) is refused.
int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  const MetadataTable* table = reinterpret_cast<MetadataTable*>(vtab);
  const int path_column = table->spec->num_columns;
  int usable = -1;
  bool unusable = false;
  int options[kOptionArguments];
  for (int& option : options) option = -1;
  for (int i = 0; i < info->nConstraint; i++) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn < path_column || c.iColumn > path_column + kOptionArguments || c.op != SQLITE_INDEX_CONSTRAINT_EQ) {
      continue;
    }
    if (!c.usable) {
      unusable = true;
    } else if (c.iColumn == path_column) {
      usable = i;
    } else {
      options[c.iColumn - path_column - 1] = i;
    }
  }
  if (usable >= 0 && !unusable) {
    info->aConstraintUsage[usable].argvIndex = 1;
    info->aConstraintUsage[usable].omit = 1;
    int next = 2;
    for (int option : options) {
      if (option < 0) continue;
      info->aConstraintUsage[option].argvIndex = next++;
      info->aConstraintUsage[option].omit = 1;
    }
    info->idxNum = 1;
    info->estimatedCost = 1000;
    info->estimatedRows = 100;
    return SQLITE_OK;
  }
  if (unusable) return SQLITE_CONSTRAINT;
  info->idxNum = 0;
  info->estimatedCost = 1e12;
  info->estimatedRows = 1;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  try {
    auto cursor = std::make_unique<MetadataCursor>();
    std::memset(&cursor->base, 0, sizeof(cursor->base));
    *out = &cursor.release()->base;
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

int Close(sqlite3_vtab_cursor* cursor) {
  delete reinterpret_cast<MetadataCursor*>(cursor);
  return SQLITE_OK;
}

int Filter(sqlite3_vtab_cursor* base, int idx_num, const char*, int argc, sqlite3_value** argv) {
  MetadataCursor* cursor = reinterpret_cast<MetadataCursor*>(base);
  const FunctionSpec* spec = TableOf(base)->spec;
  cursor->eof = true;
  cursor->files.clear();
  cursor->file = OpenFile();
  cursor->next_file = 0;
  cursor->rows_in_file = 0;
  cursor->row = -1;
  cursor->rowid = -1;
  try {
    if (idx_num != 1 || argc < 1) {
      SetVtabError(base->pVtab, std::string(spec->name) + " needs a path: SELECT * FROM " + spec->name + "('file.parquet')");
      return SQLITE_ERROR;
    }
    const unsigned char* text = sqlite3_value_text(argv[0]);
    if (text == nullptr) {
      SetVtabError(base->pVtab, std::string(spec->name) + ": the path is NULL");
      return SQLITE_ERROR;
    }
    // All of its bytes: a NUL inside is refused by ExpandFilePath, not silently cut there.
    cursor->path.assign(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(argv[0])));
    std::vector<parquet::SecretString> arguments;  // options may hold keys: wiped when freed
    for (int i = 1; i < argc; i++) {
      const unsigned char* option = sqlite3_value_text(argv[i]);
      if (option != nullptr) arguments.emplace_back(reinterpret_cast<const char*>(option));
    }
    cursor->decryption.reset();
    cursor->remote = std::make_shared<const parquet::RemoteOptions>();
    if (!arguments.empty()) {
      OptionSet set;
      AddDecryptionOptions(&set);
      AddRemoteOptions(&set);
      std::vector<std::string_view> views(arguments.begin(), arguments.end());
      ParsedOptions parsed;
      std::string error;
      if (!set.Parse(views, &parsed, &error) ||
          !MakeDecryptionProperties(TableOf(base)->db, parsed, &cursor->decryption, &error) ||
          !MakeRemoteOptions(parsed, &cursor->remote, &error)) {
        SetVtabError(base->pVtab, std::string(spec->name) + ": " + error);
        return SQLITE_ERROR;
      }
    }
    cursor->files = parquet::IsRemoteUrl(cursor->path) ? ExpandRemotePath(cursor->path, *cursor->remote)
                                                       : ExpandFilePath(cursor->path);
    Advance(cursor, spec->kind);
    return SQLITE_OK;
  } catch (...) {
    return CursorCallbackError(base->pVtab, &cursor->eof);
  }
}

int Next(sqlite3_vtab_cursor* base) {
  MetadataCursor* cursor = reinterpret_cast<MetadataCursor*>(base);
  try {
    Advance(cursor, TableOf(base)->spec->kind);
    return SQLITE_OK;
  } catch (...) {
    return CursorCallbackError(base->pVtab, &cursor->eof);
  }
}

int Eof(sqlite3_vtab_cursor* base) { return reinterpret_cast<MetadataCursor*>(base)->eof ? 1 : 0; }

int Rowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = reinterpret_cast<MetadataCursor*>(base)->rowid;
  return SQLITE_OK;
}

int Column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  MetadataCursor* cursor = reinterpret_cast<MetadataCursor*>(base);
  const FunctionSpec* spec = TableOf(base)->spec;
  try {
    if (column == spec->num_columns) {
      ResultText(ctx, cursor->path);
      return SQLITE_OK;
    }
    switch (spec->kind) {
      case FunctionKind::kMetadata: MetadataColumnValue(cursor, ctx, column); break;
      case FunctionKind::kSchema: SchemaColumnValue(cursor, ctx, column); break;
      case FunctionKind::kFileMetadata: FileMetadataColumnValue(cursor, ctx, column); break;
      case FunctionKind::kKvMetadata: KvColumnValue(cursor, ctx, column); break;
    }
    return SQLITE_OK;
  } catch (...) {
    return ColumnCallbackError(base->pVtab, ctx);
  }
}

// xCreate is null: the tables are eponymous only (they exist under their own name and
// CREATE VIRTUAL TABLE cannot make more of them).
sqlite3_module metadata_module = {
    /* iVersion    */ 0,
    /* xCreate     */ nullptr,
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

int RegisterMetadataFunctions(sqlite3* db) {
  for (const FunctionSpec& spec : kFunctions) {
    int rc = sqlite3_create_module_v2(db, spec.name, &metadata_module, const_cast<FunctionSpec*>(&spec), nullptr);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

}  // namespace sqlite_parquet
