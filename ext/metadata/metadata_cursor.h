// The state of the metadata table-valued functions (metadata_functions.cc) shared with
// the code that turns a cursor's current row into column values (metadata_columns.cc):
// the function specs, the vtab and cursor structs, and the column producers.
#pragma once

#include <cstdint>
#include <memory>
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
#include "ext/table/constraints.h"
#include "ext/table/parquet_table.h"
#include "ext/table/row_group_pruning.h"
#include "format/index/bloom_filter.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/values/json_text.h"
#include "format/metadata/metadata.h"
#include "format/io/random_access_file.h"
#include "format/index/statistics.h"
#include "format/values/text.h"

namespace sqlite_parquet::metadata {

enum class FunctionKind { kMetadata, kSchema, kFileMetadata, kKvMetadata, kBloomProbe, kFullMetadata };

struct FunctionSpec {
  const char* name;
  FunctionKind kind;
  const char* columns;  // the declared columns, without the HIDDEN argument columns
  int num_columns;
  int num_arguments = 1;  // HIDDEN argument columns (path, then kBloomProbe's column_name and value), all required
};

inline const FunctionSpec kFunctions[] = {
    {"parquet_metadata", FunctionKind::kMetadata,
     "file_name TEXT, row_group_id INTEGER, row_group_num_rows INTEGER, row_group_num_columns INTEGER, "
     "row_group_bytes INTEGER, column_id INTEGER, file_offset INTEGER, num_values INTEGER, path_in_schema TEXT, "
     "type TEXT, stats_min, stats_max, stats_null_count INTEGER, stats_distinct_count INTEGER, stats_min_value, "
     "stats_max_value, compression TEXT, encodings TEXT, index_page_offset INTEGER, dictionary_page_offset INTEGER, "
     "data_page_offset INTEGER, total_compressed_size INTEGER, total_uncompressed_size INTEGER, "
     "key_value_metadata TEXT, bloom_filter_offset INTEGER, bloom_filter_length INTEGER, min_is_exact INTEGER, "
     "max_is_exact INTEGER, row_group_compressed_bytes INTEGER, stats_nan_count INTEGER, stats_sort_order TEXT, "
     "stats_lower_bound, stats_upper_bound, column_index_offset INTEGER, column_index_length INTEGER, "
     "offset_index_offset INTEGER, offset_index_length INTEGER, row_group_sorting_columns TEXT, geo_bbox TEXT, "
     "geo_types TEXT",
     40},
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
    {"parquet_bloom_probe", FunctionKind::kBloomProbe, "file_name TEXT, row_group_id INTEGER, bloom_filter_excludes INTEGER",
     3, 3},
    {"parquet_full_metadata", FunctionKind::kFullMetadata,
     "file_name TEXT, file_metadata TEXT, schema TEXT, row_groups TEXT, key_value_metadata TEXT", 5},
};

// The names of a FunctionSpec's hidden argument columns after `path`, in order.
inline const char* const kBloomProbeArguments[] = {"column_name", "value"};

// Column numbers of parquet_metadata.
enum MetadataColumn {
  kMdFileName, kMdRowGroupId, kMdRowGroupNumRows, kMdRowGroupNumColumns, kMdRowGroupBytes, kMdColumnId,
  kMdFileOffset, kMdNumValues, kMdPathInSchema, kMdType, kMdStatsMin, kMdStatsMax, kMdStatsNullCount,
  kMdStatsDistinctCount, kMdStatsMinValue, kMdStatsMaxValue, kMdCompression, kMdEncodings, kMdIndexPageOffset,
  kMdDictionaryPageOffset, kMdDataPageOffset, kMdTotalCompressedSize, kMdTotalUncompressedSize,
  kMdKeyValueMetadata, kMdBloomFilterOffset, kMdBloomFilterLength, kMdMinIsExact, kMdMaxIsExact,
  kMdRowGroupCompressedBytes, kMdStatsNanCount, kMdStatsSortOrder, kMdStatsLowerBound, kMdStatsUpperBound,
  kMdColumnIndexOffset, kMdColumnIndexLength, kMdOffsetIndexOffset, kMdOffsetIndexLength,
  kMdRowGroupSortingColumns, kMdGeoBbox, kMdGeoTypes,
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
  ColumnMapping probe_mapping;             // parquet_bloom_probe: the probed column in this file
  ColumnFilter probe_filter;               // parquet_bloom_probe: `column = value` as pushdown builds it
};

// parquet_full_metadata's documents of one file: the rows the other four functions give
// for it, as JSON.
struct FullMetadataDocuments {
  std::string file_metadata;  // parquet_file_metadata's row as an object
  std::string schema;         // parquet_schema's rows, an array of objects
  std::string row_groups;     // parquet_metadata's rows, grouped into row group objects with "columns"
  std::string key_value_metadata;  // parquet_kv_metadata's rows, an array of objects
  int64_t last_row_group = -1;     // while building row_groups
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
  // parquet_bloom_probe's arguments after the path.
  std::string probe_column;
  sqlite3_value* probe_value = nullptr;  // owned (sqlite3_value_dup)
  std::unique_ptr<NumericAffinity> probe_affinity;
  // parquet_full_metadata: the documents of files[i].
  std::vector<FullMetadataDocuments> documents;

  MetadataCursor() = default;
  MetadataCursor(const MetadataCursor&) = delete;
  MetadataCursor& operator=(const MetadataCursor&) = delete;
  ~MetadataCursor() { sqlite3_value_free(probe_value); }
};

inline MetadataTable* TableOf(sqlite3_vtab_cursor* cursor) { return reinterpret_cast<MetadataTable*>(cursor->pVtab); }

// Sets `ctx` to `text` (copied).
void ResultText(sqlite3_context* ctx, const std::string& text);

// Where a column producer puts its value: xColumn's SQLite result, or (made without a
// context) a value kept here, from which parquet_full_metadata builds its documents with
// the same producers and no SQL statement (a statement naming the functions would find
// whatever a database calls by those names).
class ColumnOut {
 public:
  ColumnOut() = default;
  explicit ColumnOut(sqlite3_context* ctx) : ctx_(ctx) {}
  ColumnOut(const ColumnOut&) = delete;
  ColumnOut& operator=(const ColumnOut&) = delete;

  void Null();
  void Integer(int64_t value);
  void Text(const std::string& text);   // copied
  void Blob(const std::string& bytes);  // copied
  void MarkJson();                      // the JSON subtype on a result; nothing kept
  // `value` converted as `mapping` prescribes (ToSqlValue); an error when it cannot be.
  void Parquet(const ColumnMapping& mapping, const ParquetValue& value, FormatBuffer* buffer);

  // The value kept (without a context), valid until the next call.
  const SqlValue& value() const { return value_; }

 private:
  void Keep(SqlValue value);

  sqlite3_context* ctx_ = nullptr;
  SqlValue value_;
  std::string bytes_;  // value_'s TEXT or BLOB bytes
};

// The value of column `column` of the cursor's current row, one producer per function.
void MetadataColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column);
void SchemaColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column);
void FileMetadataColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column);
void KvColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column);
void BloomProbeColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column);
void FullMetadataColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column);

}  // namespace sqlite_parquet::metadata
