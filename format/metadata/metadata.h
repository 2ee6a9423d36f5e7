// In-memory forms of the parquet.thrift structs (file footer, page headers, page index,
// bloom filter header, encryption metadata) and the functions that read them from and
// write them to the Thrift compact protocol.
//
// Naming: every field carries the thrift name; thrift's camelCase names become snake_case
// (isAdjustedToUTC -> is_adjusted_to_utc, numBytes -> num_bytes, logicalType -> logical_type).
// Optional thrift fields are std::optional (an optional list is std::optional<std::vector>,
// so "absent" and "empty" stay distinct); required fields are plain members.
// Thrift unions are flattened into a `kind` plus the members' fields.
//
// Reading skips fields it does not know; a union member it does not know gives
// kind UNRECOGNIZED. A missing required field is a ParquetError naming struct and field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "format/metadata/enums.h"

namespace parquet {

struct Statistics {
  std::optional<std::string> max;  // deprecated: signed-order max/min
  std::optional<std::string> min;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;
  bool operator==(const Statistics&) const = default;
};

struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::optional<std::vector<int64_t>> repetition_level_histogram;
  std::optional<std::vector<int64_t>> definition_level_histogram;
  bool operator==(const SizeStatistics&) const = default;
};

struct BoundingBox {
  double xmin = 0, xmax = 0, ymin = 0, ymax = 0;
  std::optional<double> zmin, zmax, mmin, mmax;
  bool operator==(const BoundingBox&) const = default;
};

struct GeospatialStatistics {
  std::optional<BoundingBox> bbox;
  std::optional<std::vector<int32_t>> geospatial_types;
  bool operator==(const GeospatialStatistics&) const = default;
};

// The thrift union LogicalType, flattened. `kind` is the union's field id.
struct LogicalType {
  enum class Kind : int32_t {
    STRING = 1, MAP = 2, LIST = 3, ENUM = 4, DECIMAL = 5, DATE = 6, TIME = 7, TIMESTAMP = 8,
    INTEGER = 10, UNKNOWN = 11, JSON = 12, BSON = 13, UUID = 14, FLOAT16 = 15, VARIANT = 16,
    GEOMETRY = 17, GEOGRAPHY = 18, VECTOR = 19, UNRECOGNIZED = -1
  };
  // UNRECOGNIZED: a union member this reader does not know, or a TIME/TIMESTAMP whose unit
  // it does not know (the reader then falls back to converted/physical type).
  Kind kind = Kind::UNRECOGNIZED;
  int32_t decimal_scale = 0, decimal_precision = 0;                         // DECIMAL
  TimeUnit time_unit = TimeUnit::MILLIS; bool is_adjusted_to_utc = false;   // TIME, TIMESTAMP
  int8_t int_bit_width = 0; bool int_is_signed = true;                       // INTEGER
  std::optional<int8_t> variant_specification_version;                       // VARIANT
  std::optional<std::string> crs;                                            // GEOMETRY, GEOGRAPHY
  std::optional<EdgeInterpolationAlgorithm> edge_algorithm;                  // GEOGRAPHY
  bool operator==(const LogicalType&) const = default;
};

struct SchemaElement {
  std::optional<Type> type;
  std::optional<int32_t> type_length;
  std::optional<FieldRepetitionType> repetition_type;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logical_type;
  std::optional<int32_t> vector_length;
  bool operator==(const SchemaElement&) const = default;
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  Encoding definition_level_encoding = Encoding::RLE;
  Encoding repetition_level_encoding = Encoding::RLE;
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeader&) const = default;
};

struct IndexPageHeader {
  bool operator==(const IndexPageHeader&) const = default;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  std::optional<bool> is_sorted;
  bool operator==(const DictionaryPageHeader&) const = default;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::PLAIN;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;  // thrift default when the field is absent
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeaderV2&) const = default;
};

// The three unions of the header each have a single member today; the flags say whether
// that member was the one set (false: an unrecognized member, the filter is unusable).
struct BloomFilterHeader {
  int32_t num_bytes = 0;
  bool algorithm_is_block = true;           // BloomFilterAlgorithm.BLOCK (split block)
  bool hash_is_xxhash = true;               // BloomFilterHash.XXHASH
  bool compression_is_uncompressed = true;  // BloomFilterCompression.UNCOMPRESSED
  bool operator==(const BloomFilterHeader&) const = default;
};

struct PageHeader {
  PageType type = PageType::DATA_PAGE;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<IndexPageHeader> index_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
  bool operator==(const PageHeader&) const = default;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
  bool operator==(const KeyValue&) const = default;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
  bool operator==(const SortingColumn&) const = default;
};

struct PageEncodingStats {
  PageType page_type = PageType::DATA_PAGE;
  Encoding encoding = Encoding::PLAIN;
  int32_t count = 0;
  bool operator==(const PageEncodingStats&) const = default;
};

struct ColumnMetaData {
  Type type = Type::BOOLEAN;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  CompressionCodec codec = CompressionCodec::UNCOMPRESSED;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::optional<std::vector<KeyValue>> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::optional<std::vector<PageEncodingStats>> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;
  std::optional<GeospatialStatistics> geospatial_statistics;
  bool operator==(const ColumnMetaData&) const = default;
};

struct EncryptionWithColumnKey {
  std::vector<std::string> path_in_schema;
  std::optional<std::string> key_metadata;
  bool operator==(const EncryptionWithColumnKey&) const = default;
};

// The thrift union ColumnCryptoMetaData, flattened: path_in_schema and key_metadata are
// those of ENCRYPTION_WITH_COLUMN_KEY (empty / absent for WITH_FOOTER_KEY).
struct ColumnCryptoMetaData {
  enum class Kind : int32_t { WITH_FOOTER_KEY = 1, WITH_COLUMN_KEY = 2, UNRECOGNIZED = -1 };
  Kind kind = Kind::WITH_FOOTER_KEY;
  std::vector<std::string> path_in_schema;
  std::optional<std::string> key_metadata;
  bool operator==(const ColumnCryptoMetaData&) const = default;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  int64_t file_offset = 0;  // required in thrift with default 0; absent is read as 0
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  std::optional<ColumnCryptoMetaData> crypto_metadata;
  std::optional<std::string> encrypted_column_metadata;
  bool operator==(const ColumnChunk&) const = default;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<std::vector<SortingColumn>> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
  bool operator==(const RowGroup&) const = default;
};

// The thrift union ColumnOrder; `kind` is the union's field id.
struct ColumnOrder {
  enum class Kind : int32_t {
    TYPE_DEFINED_ORDER = 1,
    IEEE_754_TOTAL_ORDER = 2,
    INT96_TIMESTAMP_ORDER = 3,
    UNRECOGNIZED = -1
  };
  Kind kind = Kind::TYPE_DEFINED_ORDER;
  bool operator==(const ColumnOrder&) const = default;
};

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
  bool operator==(const PageLocation&) const = default;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::optional<std::vector<int64_t>> unencoded_byte_array_data_bytes;
  bool operator==(const OffsetIndex&) const = default;
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::UNORDERED;
  std::optional<std::vector<int64_t>> null_counts;
  std::optional<std::vector<int64_t>> repetition_level_histograms;
  std::optional<std::vector<int64_t>> definition_level_histograms;
  std::optional<std::vector<int64_t>> nan_counts;
  bool operator==(const ColumnIndex&) const = default;
};

struct AesGcmV1 {
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const AesGcmV1&) const = default;
};

struct AesGcmCtrV1 {
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const AesGcmCtrV1&) const = default;
};

// The thrift union EncryptionAlgorithm, flattened (both members have the same fields).
struct EncryptionAlgorithm {
  enum class Kind : int32_t { AES_GCM_V1 = 1, AES_GCM_CTR_V1 = 2, UNRECOGNIZED = -1 };
  Kind kind = Kind::AES_GCM_V1;
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const EncryptionAlgorithm&) const = default;
};

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::optional<std::vector<KeyValue>> key_value_metadata;
  std::optional<std::string> created_by;
  std::optional<std::vector<ColumnOrder>> column_orders;
  std::optional<EncryptionAlgorithm> encryption_algorithm;
  std::optional<std::string> footer_signing_key_metadata;
  bool operator==(const FileMetaData&) const = default;
};

struct FileCryptoMetaData {
  EncryptionAlgorithm encryption_algorithm;
  std::optional<std::string> key_metadata;
  bool operator==(const FileCryptoMetaData&) const = default;
};

// Parsing. Each reads one compact-protocol struct from the start of [data, data + size) and
// throws ParquetError on malformed input. Bytes after the struct are ignored; where a
// `consumed` out-parameter exists it receives the number of bytes the struct occupied.
FileMetaData ParseFileMetaData(const uint8_t* data, size_t size);
PageHeader ParsePageHeader(const uint8_t* data, size_t size, size_t* consumed);
ColumnMetaData ParseColumnMetaData(const uint8_t* data, size_t size);
ColumnIndex ParseColumnIndex(const uint8_t* data, size_t size);
OffsetIndex ParseOffsetIndex(const uint8_t* data, size_t size);
BloomFilterHeader ParseBloomFilterHeader(const uint8_t* data, size_t size, size_t* consumed);
FileCryptoMetaData ParseFileCryptoMetaData(const uint8_t* data, size_t size, size_t* consumed);

// Serialization to the compact protocol. Throws ParquetError for values that cannot be
// written (a union of kind UNRECOGNIZED, a list longer than INT32_MAX).
std::string Serialize(const FileMetaData& value);
std::string Serialize(const PageHeader& value);
std::string Serialize(const ColumnMetaData& value);
std::string Serialize(const ColumnIndex& value);
std::string Serialize(const OffsetIndex& value);
std::string Serialize(const BloomFilterHeader& value);
std::string Serialize(const FileCryptoMetaData& value);

}  // namespace parquet
