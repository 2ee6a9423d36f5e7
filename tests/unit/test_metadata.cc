// Unit tests of the parquet.thrift structs (format/metadata/metadata.h): footers, page headers, page
// index and bloom filter headers of real files, round trips of fully populated structs,
// unknown fields and union members, missing required fields, truncated input.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "format/common/error.h"
#include "format/metadata/metadata.h"
#include "format/metadata/thrift_compact.h"

namespace parquet {
namespace {

const std::string kDataDir = "../shared/parquet-testing/data/";

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const uint8_t* BytesAt(const std::string& file, size_t offset) {
  return reinterpret_cast<const uint8_t*>(file.data()) + offset;
}

// The footer of a Parquet file: [metadata][4-byte little-endian length][magic].
struct Footer {
  size_t offset = 0;
  size_t length = 0;
  std::string magic;
};

Footer LocateFooter(const std::string& file) {
  REQUIRE(file.size() >= 12);
  Footer footer;
  footer.magic = file.substr(file.size() - 4);
  const uint8_t* length_bytes = BytesAt(file, file.size() - 8);
  footer.length = static_cast<size_t>(length_bytes[0]) | static_cast<size_t>(length_bytes[1]) << 8 |
                  static_cast<size_t>(length_bytes[2]) << 16 |
                  static_cast<size_t>(length_bytes[3]) << 24;
  REQUIRE(footer.length <= file.size() - 8);
  footer.offset = file.size() - 8 - footer.length;
  return footer;
}

FileMetaData ReadFooter(const std::string& file) {
  const Footer footer = LocateFooter(file);
  REQUIRE(footer.magic == "PAR1");
  return ParseFileMetaData(BytesAt(file, footer.offset), footer.length);
}

// --- fully populated structs for the round trips ---

Statistics FullStatistics() {
  Statistics s;
  s.max = std::string("\x05\x00\x00\x00", 4);
  s.min = std::string("\xfb\xff\xff\xff", 4);
  s.null_count = 3;
  s.distinct_count = 17;
  s.max_value = "zebra";
  s.min_value = std::string("a\0b", 3);
  s.is_max_value_exact = true;
  s.is_min_value_exact = false;
  s.nan_count = 2;
  return s;
}

SizeStatistics FullSizeStatistics() {
  SizeStatistics s;
  s.unencoded_byte_array_data_bytes = 123456789012;
  s.repetition_level_histogram = std::vector<int64_t>{10, 20};
  s.definition_level_histogram = std::vector<int64_t>{1, 2, 3};
  return s;
}

GeospatialStatistics FullGeospatialStatistics() {
  GeospatialStatistics g;
  BoundingBox box;
  box.xmin = -180;
  box.xmax = 180;
  box.ymin = -90.5;
  box.ymax = 90.25;
  box.zmin = -1e300;
  box.zmax = 1e300;
  box.mmin = 0.125;
  box.mmax = 7;
  g.bbox = box;
  g.geospatial_types = std::vector<int32_t>{1, 1003, 3001};
  return g;
}

std::vector<LogicalType> EveryLogicalType() {
  using Kind = LogicalType::Kind;
  std::vector<LogicalType> types;
  for (Kind kind : {Kind::STRING, Kind::MAP, Kind::LIST, Kind::ENUM, Kind::DATE, Kind::UNKNOWN,
                    Kind::JSON, Kind::BSON, Kind::UUID, Kind::FLOAT16, Kind::VECTOR}) {
    LogicalType t;
    t.kind = kind;
    types.push_back(t);
  }
  LogicalType decimal;
  decimal.kind = Kind::DECIMAL;
  decimal.decimal_scale = 2;
  decimal.decimal_precision = 38;
  types.push_back(decimal);
  for (Kind kind : {Kind::TIME, Kind::TIMESTAMP}) {
    for (TimeUnit unit : {TimeUnit::MILLIS, TimeUnit::MICROS, TimeUnit::NANOS}) {
      for (bool utc : {false, true}) {
        LogicalType t;
        t.kind = kind;
        t.time_unit = unit;
        t.is_adjusted_to_utc = utc;
        types.push_back(t);
      }
    }
  }
  for (int8_t width : {int8_t{8}, int8_t{16}, int8_t{32}, int8_t{64}}) {
    for (bool is_signed : {false, true}) {
      LogicalType t;
      t.kind = Kind::INTEGER;
      t.int_bit_width = width;
      t.int_is_signed = is_signed;
      types.push_back(t);
    }
  }
  LogicalType variant;
  variant.kind = Kind::VARIANT;
  types.push_back(variant);
  variant.variant_specification_version = 1;
  types.push_back(variant);
  LogicalType geometry;
  geometry.kind = Kind::GEOMETRY;
  types.push_back(geometry);
  geometry.crs = "OGC:CRS84";
  types.push_back(geometry);
  LogicalType geography;
  geography.kind = Kind::GEOGRAPHY;
  types.push_back(geography);
  geography.crs = "srid:4326";
  geography.edge_algorithm = EdgeInterpolationAlgorithm::KARNEY;
  types.push_back(geography);
  return types;
}

SchemaElement FullSchemaElement() {
  SchemaElement e;
  e.type = Type::FIXED_LEN_BYTE_ARRAY;
  e.type_length = 16;
  e.repetition_type = FieldRepetitionType::VECTOR;
  e.name = "amount";
  e.num_children = 0;
  e.converted_type = ConvertedType::DECIMAL;
  e.scale = 2;
  e.precision = 38;
  e.field_id = 42;
  LogicalType decimal;
  decimal.kind = LogicalType::Kind::DECIMAL;
  decimal.decimal_scale = 2;
  decimal.decimal_precision = 38;
  e.logical_type = decimal;
  e.vector_length = 4;
  return e;
}

ColumnMetaData FullColumnMetaData() {
  ColumnMetaData m;
  m.type = Type::BYTE_ARRAY;
  m.encodings = {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY};
  m.path_in_schema = {"outer", "inner", "leaf"};
  m.codec = CompressionCodec::ZSTD;
  m.num_values = 1000;
  m.total_uncompressed_size = 50000;
  m.total_compressed_size = 20000;
  m.key_value_metadata = std::vector<KeyValue>{{"k1", "v1"}, {"k2", std::nullopt}};
  m.data_page_offset = 4100;
  m.index_page_offset = 4050;
  m.dictionary_page_offset = 4;
  m.statistics = FullStatistics();
  m.encoding_stats = std::vector<PageEncodingStats>{
      {PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1},
      {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 7}};
  m.bloom_filter_offset = 90000;
  m.bloom_filter_length = 1040;
  m.size_statistics = FullSizeStatistics();
  m.geospatial_statistics = FullGeospatialStatistics();
  return m;
}

ColumnChunk FullColumnChunk() {
  ColumnChunk c;
  c.file_path = "other.parquet";
  c.file_offset = 24100;
  c.meta_data = FullColumnMetaData();
  c.offset_index_offset = 100000;
  c.offset_index_length = 55;
  c.column_index_offset = 99000;
  c.column_index_length = 77;
  ColumnCryptoMetaData crypto;
  crypto.kind = ColumnCryptoMetaData::Kind::WITH_COLUMN_KEY;
  crypto.path_in_schema = {"outer", "inner", "leaf"};
  crypto.key_metadata = "column key";
  c.crypto_metadata = crypto;
  c.encrypted_column_metadata = std::string("\x01\x02\x00\xff", 4);
  return c;
}

FileMetaData FullFileMetaData() {
  FileMetaData f;
  f.version = 2;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  f.schema = {root, FullSchemaElement()};
  for (const LogicalType& t : EveryLogicalType()) {
    SchemaElement e;
    e.name = "typed";
    e.type = Type::INT64;
    e.repetition_type = FieldRepetitionType::OPTIONAL;
    e.logical_type = t;
    f.schema.push_back(e);
  }
  f.num_rows = 5000000000;
  RowGroup group;
  group.columns = {FullColumnChunk(), FullColumnChunk()};
  group.columns[1].crypto_metadata->kind = ColumnCryptoMetaData::Kind::WITH_FOOTER_KEY;
  group.columns[1].crypto_metadata->path_in_schema.clear();
  group.columns[1].crypto_metadata->key_metadata.reset();
  group.total_byte_size = 100000;
  group.num_rows = 5000000000;
  group.sorting_columns = std::vector<SortingColumn>{{0, true, false}, {1, false, true}};
  group.file_offset = 4;
  group.total_compressed_size = 40000;
  group.ordinal = -3;
  f.row_groups = {group, group};
  f.row_groups[1].ordinal = 1;
  f.key_value_metadata = std::vector<KeyValue>{{"ARROW:schema", "abc"}, {"empty", ""}};
  f.created_by = "sqlite-parquet test";
  f.column_orders = std::vector<ColumnOrder>{{ColumnOrder::Kind::TYPE_DEFINED_ORDER},
                                             {ColumnOrder::Kind::IEEE_754_TOTAL_ORDER},
                                             {ColumnOrder::Kind::INT96_TIMESTAMP_ORDER}};
  EncryptionAlgorithm algorithm;
  algorithm.kind = EncryptionAlgorithm::Kind::AES_GCM_CTR_V1;
  algorithm.aad_prefix = "prefix";
  algorithm.aad_file_unique = std::string("\x00\x01\x02\x03\x04\x05\x06\x07", 8);
  algorithm.supply_aad_prefix = true;
  f.encryption_algorithm = algorithm;
  f.footer_signing_key_metadata = "footer key";
  return f;
}

std::vector<PageHeader> OnePageHeaderOfEachType() {
  std::vector<PageHeader> headers;

  PageHeader data;
  data.type = PageType::DATA_PAGE;
  data.uncompressed_page_size = 1024;
  data.compressed_page_size = 512;
  data.crc = -123456789;
  DataPageHeader v1;
  v1.num_values = 100;
  v1.encoding = Encoding::RLE_DICTIONARY;
  v1.definition_level_encoding = Encoding::RLE;
  v1.repetition_level_encoding = Encoding::BIT_PACKED;
  v1.statistics = FullStatistics();
  data.data_page_header = v1;
  headers.push_back(data);

  PageHeader index;
  index.type = PageType::INDEX_PAGE;
  index.uncompressed_page_size = 10;
  index.compressed_page_size = 10;
  index.index_page_header = IndexPageHeader{};
  headers.push_back(index);

  PageHeader dictionary;
  dictionary.type = PageType::DICTIONARY_PAGE;
  dictionary.uncompressed_page_size = 80;
  dictionary.compressed_page_size = 60;
  DictionaryPageHeader dict;
  dict.num_values = 20;
  dict.encoding = Encoding::PLAIN;
  dict.is_sorted = true;
  dictionary.dictionary_page_header = dict;
  headers.push_back(dictionary);

  PageHeader data_v2;
  data_v2.type = PageType::DATA_PAGE_V2;
  data_v2.uncompressed_page_size = 4096;
  data_v2.compressed_page_size = 2000;
  data_v2.crc = 7;
  DataPageHeaderV2 v2;
  v2.num_values = 300;
  v2.num_nulls = 12;
  v2.num_rows = 250;
  v2.encoding = Encoding::DELTA_BINARY_PACKED;
  v2.definition_levels_byte_length = 40;
  v2.repetition_levels_byte_length = 30;
  v2.is_compressed = false;
  v2.statistics = FullStatistics();
  data_v2.data_page_header_v2 = v2;
  headers.push_back(data_v2);
  return headers;
}

// A FileMetaData written field by field, with hooks to add hand-made fields to the one
// schema element and to the struct itself.
template <class SchemaExtra, class FileExtra>
std::string HandWrittenFileMetaData(SchemaExtra schema_extra, FileExtra file_extra) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::I32, 1);
  w.WriteI32(1);
  w.WriteFieldHeader(CompactType::LIST, 2);
  w.WriteListHeader(CompactType::STRUCT, 1);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::BINARY, 4);
  w.WriteBinary("col");
  schema_extra(w);
  w.EndStruct();
  w.WriteFieldHeader(CompactType::I64, 3);
  w.WriteI64(9);
  w.WriteFieldHeader(CompactType::LIST, 4);
  w.WriteListHeader(CompactType::STRUCT, 0);
  file_extra(w);
  w.EndStruct();
  return out;
}

void NoExtra(ThriftCompactWriter&) {}

FileMetaData ParseString(const std::string& bytes) {
  return ParseFileMetaData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

TEST_CASE("footer of alltypes_plain.parquet") {
  const std::string file = ReadWholeFile(kDataDir + "alltypes_plain.parquet");
  CHECK(file.substr(0, 4) == "PAR1");
  const FileMetaData md = ReadFooter(file);
  CHECK(md.version == 1);
  CHECK(md.num_rows == 8);
  REQUIRE(md.created_by.has_value());
  CHECK(md.created_by->rfind("impala version 1.3.0", 0) == 0);
  CHECK_FALSE(md.column_orders.has_value());
  CHECK_FALSE(md.encryption_algorithm.has_value());

  REQUIRE(md.schema.size() == 12);
  CHECK(md.schema[0].name == "schema");
  CHECK(md.schema[0].num_children == 11);
  CHECK_FALSE(md.schema[0].type.has_value());
  const std::vector<std::pair<std::string, Type>> columns = {
      {"id", Type::INT32},          {"bool_col", Type::BOOLEAN},
      {"tinyint_col", Type::INT32}, {"smallint_col", Type::INT32},
      {"int_col", Type::INT32},     {"bigint_col", Type::INT64},
      {"float_col", Type::FLOAT},   {"double_col", Type::DOUBLE},
      {"date_string_col", Type::BYTE_ARRAY}, {"string_col", Type::BYTE_ARRAY},
      {"timestamp_col", Type::INT96}};
  for (size_t i = 0; i < columns.size(); ++i) {
    const SchemaElement& e = md.schema[i + 1];
    CAPTURE(i);
    CHECK(e.name == columns[i].first);
    CHECK(e.type == columns[i].second);
    CHECK(e.repetition_type == FieldRepetitionType::OPTIONAL);
    CHECK_FALSE(e.num_children.has_value());
    CHECK_FALSE(e.logical_type.has_value());
  }

  REQUIRE(md.row_groups.size() == 1);
  const RowGroup& group = md.row_groups[0];
  CHECK(group.num_rows == 8);
  CHECK(group.total_byte_size == 671);
  REQUIRE(group.columns.size() == 11);
  for (size_t i = 0; i < group.columns.size(); ++i) {
    CAPTURE(i);
    REQUIRE(group.columns[i].meta_data.has_value());
    const ColumnMetaData& m = *group.columns[i].meta_data;
    CHECK(m.codec == CompressionCodec::UNCOMPRESSED);
    CHECK(m.num_values == 8);
    CHECK(m.type == columns[i].second);
    CHECK(m.path_in_schema == std::vector<std::string>{columns[i].first});
  }
  const ColumnMetaData& id = *group.columns[0].meta_data;
  CHECK(id.dictionary_page_offset == 4);
  CHECK(id.data_page_offset == 49);
  CHECK(id.total_compressed_size == 73);
  CHECK_FALSE(group.columns[1].meta_data->dictionary_page_offset.has_value());

  // The first page of the id column: its dictionary.
  size_t consumed = 0;
  const PageHeader dict = ParsePageHeader(BytesAt(file, 4), file.size() - 4, &consumed);
  CHECK(consumed == 13);
  CHECK(dict.type == PageType::DICTIONARY_PAGE);
  CHECK(dict.uncompressed_page_size == 32);
  CHECK(dict.compressed_page_size == 32);
  REQUIRE(dict.dictionary_page_header.has_value());
  CHECK(dict.dictionary_page_header->num_values == 8);
  CHECK_FALSE(dict.data_page_header.has_value());
  // The data page follows the dictionary directly.
  CHECK(4 + consumed + 32 == 49);
  const PageHeader data = ParsePageHeader(BytesAt(file, 49), file.size() - 49, &consumed);
  CHECK(data.type == PageType::DATA_PAGE);
  REQUIRE(data.data_page_header.has_value());
  CHECK(data.data_page_header->num_values == 8);
}

TEST_CASE("footer, bloom filter and page index of data_index_bloom_encoding_stats.parquet") {
  const std::string file = ReadWholeFile(kDataDir + "data_index_bloom_encoding_stats.parquet");
  const FileMetaData md = ReadFooter(file);
  CHECK(md.num_rows == 14);
  REQUIRE(md.schema.size() == 2);
  CHECK(md.schema[0].num_children == 1);
  CHECK(md.schema[1].name == "String");
  CHECK(md.schema[1].type == Type::BYTE_ARRAY);
  REQUIRE(md.schema[1].logical_type.has_value());
  CHECK(md.schema[1].logical_type->kind == LogicalType::Kind::STRING);
  REQUIRE(md.column_orders.has_value());
  REQUIRE(md.column_orders->size() == 1);
  CHECK((*md.column_orders)[0].kind == ColumnOrder::Kind::TYPE_DEFINED_ORDER);
  REQUIRE(md.row_groups.size() == 1);
  REQUIRE(md.row_groups[0].columns.size() == 1);

  const ColumnChunk& chunk = md.row_groups[0].columns[0];
  const ColumnMetaData& m = *chunk.meta_data;
  CHECK(m.codec == CompressionCodec::GZIP);
  CHECK(m.num_values == 14);
  CHECK(m.bloom_filter_offset == 192);
  CHECK_FALSE(m.bloom_filter_length.has_value());
  REQUIRE(m.encoding_stats.has_value());
  REQUIRE(m.encoding_stats->size() == 1);
  CHECK((*m.encoding_stats)[0] == PageEncodingStats{PageType::DATA_PAGE, Encoding::PLAIN, 1});
  REQUIRE(m.statistics.has_value());
  CHECK(m.statistics->null_count == 0);
  CHECK(m.statistics->min_value.has_value());

  size_t consumed = 0;
  const BloomFilterHeader bloom =
      ParseBloomFilterHeader(BytesAt(file, 192), file.size() - 192, &consumed);
  CHECK(bloom.num_bytes == 1024);
  CHECK(bloom.algorithm_is_block);
  CHECK(bloom.hash_is_xxhash);
  CHECK(bloom.compression_is_uncompressed);
  CHECK(consumed == 16);

  REQUIRE(chunk.column_index_offset.has_value());
  const ColumnIndex ci =
      ParseColumnIndex(BytesAt(file, static_cast<size_t>(*chunk.column_index_offset)),
                       static_cast<size_t>(*chunk.column_index_length));
  CHECK(ci.null_pages == std::vector<bool>{false});
  CHECK(ci.min_values.size() == 1);
  CHECK(ci.max_values.size() == 1);
  CHECK(ci.boundary_order == BoundaryOrder::ASCENDING);
  CHECK(ci.null_counts == std::vector<int64_t>{0});

  REQUIRE(chunk.offset_index_offset.has_value());
  const OffsetIndex oi =
      ParseOffsetIndex(BytesAt(file, static_cast<size_t>(*chunk.offset_index_offset)),
                       static_cast<size_t>(*chunk.offset_index_length));
  REQUIRE(oi.page_locations.size() == 1);
  CHECK(oi.page_locations[0] == PageLocation{4, 152, 0});
}

TEST_CASE("unknown logical type in a real file is UNRECOGNIZED, not an error") {
  const FileMetaData md = ReadFooter(ReadWholeFile(kDataDir + "unknown-logical-type.parquet"));
  REQUIRE(md.schema.size() == 3);
  CHECK(md.schema[1].logical_type->kind == LogicalType::Kind::STRING);
  CHECK(md.schema[2].name == "column with unknown type");
  REQUIRE(md.schema[2].logical_type.has_value());
  CHECK(md.schema[2].logical_type->kind == LogicalType::Kind::UNRECOGNIZED);
}

TEST_CASE("geospatial logical types and statistics of real files") {
  const FileMetaData projjson =
      ReadFooter(ReadWholeFile(kDataDir + "geospatial/crs-projjson.parquet"));
  bool found_geometry = false;
  for (const SchemaElement& e : projjson.schema) {
    if (e.logical_type && e.logical_type->kind == LogicalType::Kind::GEOMETRY) {
      found_geometry = true;
      CHECK(e.logical_type->crs == "projjson:projjson_epsg_5070");
    }
  }
  CHECK(found_geometry);

  const FileMetaData points =
      ReadFooter(ReadWholeFile(kDataDir + "geospatial/geography-points.parquet"));
  bool found_geography = false;
  for (const SchemaElement& e : points.schema) {
    if (e.logical_type && e.logical_type->kind == LogicalType::Kind::GEOGRAPHY) {
      found_geography = true;
      CHECK(e.logical_type->edge_algorithm == EdgeInterpolationAlgorithm::SPHERICAL);
    }
  }
  CHECK(found_geography);

  const FileMetaData geo = ReadFooter(ReadWholeFile(kDataDir + "geospatial/geospatial.parquet"));
  bool found_bbox = false;
  for (const ColumnChunk& c : geo.row_groups[0].columns) {
    if (c.meta_data && c.meta_data->geospatial_statistics) {
      const auto& stats = *c.meta_data->geospatial_statistics;
      REQUIRE(stats.bbox.has_value());
      found_bbox = true;
      CHECK(stats.bbox->xmin == 10);
      CHECK(stats.bbox->xmax == 40);
      CHECK(stats.bbox->zmin.has_value());
      REQUIRE(stats.geospatial_types.has_value());
      CHECK(stats.geospatial_types->front() == 1);
    }
  }
  CHECK(found_bbox);
}

TEST_CASE("encryption metadata of real files") {
  // Encrypted footer: the footer bytes start with a plaintext FileCryptoMetaData.
  const std::string ctr =
      ReadWholeFile(kDataDir + "encrypt_columns_and_footer_ctr.parquet.encrypted");
  const Footer footer = LocateFooter(ctr);
  CHECK(footer.magic == "PARE");
  size_t consumed = 0;
  const FileCryptoMetaData crypto =
      ParseFileCryptoMetaData(BytesAt(ctr, footer.offset), footer.length, &consumed);
  CHECK(crypto.encryption_algorithm.kind == EncryptionAlgorithm::Kind::AES_GCM_CTR_V1);
  CHECK(crypto.key_metadata.has_value());
  CHECK(consumed > 0);
  CHECK(consumed < footer.length);

  // Plaintext footer: FileMetaData with the algorithm, followed by a signature it ignores.
  const FileMetaData md =
      ReadFooter(ReadWholeFile(kDataDir + "encrypt_columns_plaintext_footer.parquet.encrypted"));
  CHECK(md.num_rows == 50);
  REQUIRE(md.encryption_algorithm.has_value());
  CHECK(md.encryption_algorithm->kind == EncryptionAlgorithm::Kind::AES_GCM_V1);
  REQUIRE(md.encryption_algorithm->aad_file_unique.has_value());
  CHECK(md.encryption_algorithm->aad_file_unique->size() == 8);
  CHECK(md.footer_signing_key_metadata == "kf");
  const ColumnChunk& float_column = md.row_groups[0].columns[4];
  REQUIRE(float_column.crypto_metadata.has_value());
  CHECK(float_column.crypto_metadata->kind == ColumnCryptoMetaData::Kind::WITH_COLUMN_KEY);
  CHECK(float_column.crypto_metadata->path_in_schema == std::vector<std::string>{"float_field"});
  CHECK(float_column.crypto_metadata->key_metadata == "kc2");
  CHECK(float_column.encrypted_column_metadata.has_value());
  CHECK_FALSE(md.row_groups[0].columns[0].crypto_metadata.has_value());
}

TEST_CASE("a FileMetaData with every optional field set round-trips") {
  const FileMetaData original = FullFileMetaData();
  const std::string bytes = Serialize(original);
  const FileMetaData parsed = ParseString(bytes);
  CHECK(parsed == original);
  CHECK(Serialize(parsed) == bytes);
  // Spot checks, so that equality is not vacuous.
  CHECK(parsed.row_groups[0].columns[0].meta_data->geospatial_statistics->bbox->mmax == 7);
  CHECK(parsed.schema[1].vector_length == 4);
  CHECK(parsed.row_groups[0].ordinal == -3);
  CHECK(parsed.encryption_algorithm->kind == EncryptionAlgorithm::Kind::AES_GCM_CTR_V1);
}

TEST_CASE("every logical type round-trips") {
  for (const LogicalType& type : EveryLogicalType()) {
    CAPTURE(static_cast<int>(type.kind));
    FileMetaData md;
    SchemaElement e;
    e.name = "x";
    e.logical_type = type;
    md.schema = {e};
    const FileMetaData parsed = ParseString(Serialize(md));
    REQUIRE(parsed.schema[0].logical_type.has_value());
    CHECK(*parsed.schema[0].logical_type == type);
  }
}

TEST_CASE("a page header of each page type round-trips") {
  for (const PageHeader& header : OnePageHeaderOfEachType()) {
    CAPTURE(ToString(header.type));
    std::string bytes = Serialize(header);
    const size_t header_size = bytes.size();
    bytes += "page payload follows";
    size_t consumed = 0;
    const PageHeader parsed = ParsePageHeader(reinterpret_cast<const uint8_t*>(bytes.data()),
                                              bytes.size(), &consumed);
    CHECK(parsed == header);
    CHECK(consumed == header_size);
  }
}

TEST_CASE("page index, bloom filter header and crypto metadata round-trip") {
  ColumnIndex ci;
  ci.null_pages = {false, true, false};
  ci.min_values = {"a", "", "m"};
  ci.max_values = {"f", "", "z"};
  ci.boundary_order = BoundaryOrder::DESCENDING;
  ci.null_counts = std::vector<int64_t>{0, 10, 1};
  ci.repetition_level_histograms = std::vector<int64_t>{1, 2, 3, 4, 5, 6};
  ci.definition_level_histograms = std::vector<int64_t>{6, 5, 4, 3, 2, 1};
  ci.nan_counts = std::vector<int64_t>{0, 0, 0};
  std::string bytes = Serialize(ci);
  CHECK(ParseColumnIndex(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) == ci);

  OffsetIndex oi;
  oi.page_locations = {{4, 100, 0}, {104, 200, 50}, {304, 50, 120}};
  oi.unencoded_byte_array_data_bytes = std::vector<int64_t>{1000, 2000, 30};
  bytes = Serialize(oi);
  CHECK(ParseOffsetIndex(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) == oi);

  ColumnMetaData cm = FullColumnMetaData();
  bytes = Serialize(cm);
  CHECK(ParseColumnMetaData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) == cm);

  BloomFilterHeader bloom;
  bloom.num_bytes = 4096;
  bytes = Serialize(bloom);
  size_t consumed = 0;
  CHECK(ParseBloomFilterHeader(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                               &consumed) == bloom);
  CHECK(consumed == bytes.size());

  FileCryptoMetaData crypto;
  crypto.encryption_algorithm.kind = EncryptionAlgorithm::Kind::AES_GCM_V1;
  crypto.encryption_algorithm.aad_prefix = "p";
  crypto.encryption_algorithm.supply_aad_prefix = false;
  crypto.key_metadata = "footer key id";
  bytes = Serialize(crypto);
  CHECK(ParseFileCryptoMetaData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                                &consumed) == crypto);
  CHECK(consumed == bytes.size());
}

TEST_CASE("absent optional lists stay distinct from empty ones") {
  FileMetaData md;
  md.schema = {SchemaElement{}};
  md.key_value_metadata = std::vector<KeyValue>{};
  const FileMetaData parsed = ParseString(Serialize(md));
  CHECK(parsed.key_value_metadata.has_value());
  CHECK(parsed.key_value_metadata->empty());
  CHECK_FALSE(parsed.column_orders.has_value());
}

TEST_CASE("DataPageHeaderV2.is_compressed defaults to true when absent") {
  std::string bytes;
  ThriftCompactWriter w(&bytes);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::I32, 1);
  w.WriteI32(static_cast<int32_t>(PageType::DATA_PAGE_V2));
  w.WriteFieldHeader(CompactType::I32, 2);
  w.WriteI32(100);
  w.WriteFieldHeader(CompactType::I32, 3);
  w.WriteI32(90);
  w.WriteFieldHeader(CompactType::STRUCT, 8);
  w.BeginStruct();
  for (int16_t id = 1; id <= 6; ++id) {
    w.WriteFieldHeader(CompactType::I32, id);
    w.WriteI32(id);
  }
  w.EndStruct();
  w.EndStruct();
  size_t consumed = 0;
  const PageHeader header =
      ParsePageHeader(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &consumed);
  REQUIRE(header.data_page_header_v2.has_value());
  CHECK(header.data_page_header_v2->is_compressed);
  CHECK(header.data_page_header_v2->num_rows == 3);
  CHECK(header.data_page_header_v2->encoding == Encoding::BIT_PACKED);  // field 4 held 4
}

TEST_CASE("unknown fields are skipped and known ones still read") {
  std::string bytes;
  ThriftCompactWriter w(&bytes);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::I32, 1);
  w.WriteI32(static_cast<int32_t>(PageType::DICTIONARY_PAGE));
  w.WriteFieldHeader(CompactType::I32, 2);
  w.WriteI32(64);
  w.WriteFieldHeader(CompactType::I32, 3);
  w.WriteI32(32);
  // Unknown field 20: a struct holding a list of structs and a map.
  w.WriteFieldHeader(CompactType::STRUCT, 20);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::LIST, 1);
  w.WriteListHeader(CompactType::STRUCT, 2);
  for (int i = 0; i < 2; ++i) {
    w.BeginStruct();
    w.WriteBoolField(3, true);
    w.WriteFieldHeader(CompactType::DOUBLE, 4);
    w.WriteDouble(0.5);
    w.EndStruct();
  }
  w.WriteFieldHeader(CompactType::MAP, 2);
  w.WriteMapHeader(CompactType::BINARY, CompactType::I64, 1);
  w.WriteBinary("key");
  w.WriteI64(-9);
  w.EndStruct();
  // Known field 7 after the unknown one (long-form header from 20 back to 7).
  w.WriteFieldHeader(CompactType::STRUCT, 7);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::I32, 1);
  w.WriteI32(8);
  w.WriteFieldHeader(CompactType::I32, 2);
  w.WriteI32(static_cast<int32_t>(Encoding::PLAIN));
  w.WriteFieldHeader(CompactType::BINARY, 99);  // unknown field inside a known struct
  w.WriteBinary("ignored");
  w.EndStruct();
  w.WriteBoolField(30, false);  // unknown trailing boolean
  w.EndStruct();

  size_t consumed = 0;
  const PageHeader header =
      ParsePageHeader(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &consumed);
  CHECK(consumed == bytes.size());
  CHECK(header.type == PageType::DICTIONARY_PAGE);
  CHECK(header.uncompressed_page_size == 64);
  CHECK(header.compressed_page_size == 32);
  REQUIRE(header.dictionary_page_header.has_value());
  CHECK(header.dictionary_page_header->num_values == 8);
  CHECK(header.dictionary_page_header->encoding == Encoding::PLAIN);
  CHECK_FALSE(header.dictionary_page_header->is_sorted.has_value());
}

TEST_CASE("unknown union members give UNRECOGNIZED kinds") {
  const std::string bytes = HandWrittenFileMetaData(
      [](ThriftCompactWriter& w) {
        // logicalType: a member id this reader does not know.
        w.WriteFieldHeader(CompactType::STRUCT, 10);
        w.BeginStruct();
        w.WriteFieldHeader(CompactType::STRUCT, 40);
        w.BeginStruct();
        w.WriteFieldHeader(CompactType::I32, 1);
        w.WriteI32(5);
        w.EndStruct();
        w.EndStruct();
      },
      [](ThriftCompactWriter& w) {
        // column_orders: an unknown member, then a known one.
        w.WriteFieldHeader(CompactType::LIST, 7);
        w.WriteListHeader(CompactType::STRUCT, 2);
        w.BeginStruct();
        w.WriteFieldHeader(CompactType::STRUCT, 9);
        w.BeginStruct();
        w.EndStruct();
        w.EndStruct();
        w.BeginStruct();
        w.WriteFieldHeader(CompactType::STRUCT, 2);
        w.BeginStruct();
        w.EndStruct();
        w.EndStruct();
        // encryption_algorithm: unknown member 3.
        w.WriteFieldHeader(CompactType::STRUCT, 8);
        w.BeginStruct();
        w.WriteFieldHeader(CompactType::STRUCT, 3);
        w.BeginStruct();
        w.EndStruct();
        w.EndStruct();
      });
  const FileMetaData md = ParseString(bytes);
  REQUIRE(md.schema.size() == 1);
  CHECK(md.schema[0].name == "col");
  CHECK(md.schema[0].logical_type->kind == LogicalType::Kind::UNRECOGNIZED);
  REQUIRE(md.column_orders.has_value());
  REQUIRE(md.column_orders->size() == 2);
  CHECK((*md.column_orders)[0].kind == ColumnOrder::Kind::UNRECOGNIZED);
  CHECK((*md.column_orders)[1].kind == ColumnOrder::Kind::IEEE_754_TOTAL_ORDER);
  CHECK(md.encryption_algorithm->kind == EncryptionAlgorithm::Kind::UNRECOGNIZED);
}

TEST_CASE("a TIMESTAMP with an unknown unit is an unrecognized logical type") {
  const std::string bytes = HandWrittenFileMetaData(
      [](ThriftCompactWriter& w) {
        w.WriteFieldHeader(CompactType::STRUCT, 10);
        w.BeginStruct();
        w.WriteFieldHeader(CompactType::STRUCT, 8);  // TIMESTAMP
        w.BeginStruct();
        w.WriteBoolField(1, true);
        w.WriteFieldHeader(CompactType::STRUCT, 2);
        w.BeginStruct();
        w.WriteFieldHeader(CompactType::STRUCT, 4);  // a fourth time unit
        w.BeginStruct();
        w.EndStruct();
        w.EndStruct();
        w.EndStruct();
        w.EndStruct();
      },
      NoExtra);
  CHECK(ParseString(bytes).schema[0].logical_type->kind == LogicalType::Kind::UNRECOGNIZED);
}

TEST_CASE("missing required fields are errors naming struct and field") {
  std::string bytes;
  ThriftCompactWriter w(&bytes);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::I32, 1);
  w.WriteI32(0);
  w.WriteFieldHeader(CompactType::I32, 2);
  w.WriteI32(10);
  w.EndStruct();
  size_t consumed = 0;
  CHECK_THROWS_WITH_AS(
      ParsePageHeader(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &consumed),
      "page header is missing required field compressed_page_size", ParquetError);

  // A known id with the wrong wire type does not count as present.
  bytes.clear();
  ThriftCompactWriter w2(&bytes);
  w2.BeginStruct();
  w2.WriteFieldHeader(CompactType::I32, 1);
  w2.WriteI32(0);
  w2.WriteFieldHeader(CompactType::BINARY, 2);
  w2.WriteBinary("ten");
  w2.WriteFieldHeader(CompactType::I32, 3);
  w2.WriteI32(10);
  w2.EndStruct();
  CHECK_THROWS_WITH_AS(
      ParsePageHeader(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &consumed),
      "page header is missing required field uncompressed_page_size", ParquetError);

  // Nested: a schema element without a name.
  std::string schema_without_name;
  ThriftCompactWriter w3(&schema_without_name);
  w3.BeginStruct();
  w3.WriteFieldHeader(CompactType::I32, 1);
  w3.WriteI32(1);
  w3.WriteFieldHeader(CompactType::LIST, 2);
  w3.WriteListHeader(CompactType::STRUCT, 1);
  w3.BeginStruct();
  w3.WriteFieldHeader(CompactType::I32, 1);
  w3.WriteI32(1);
  w3.EndStruct();
  w3.EndStruct();
  CHECK_THROWS_WITH_AS(ParseString(schema_without_name),
                       "schema element is missing required field name", ParquetError);

  // The top-level struct: file metadata without num_rows (and row_groups).
  std::string file_without_num_rows;
  ThriftCompactWriter w5(&file_without_num_rows);
  w5.BeginStruct();
  w5.WriteFieldHeader(CompactType::I32, 1);
  w5.WriteI32(1);
  w5.WriteFieldHeader(CompactType::LIST, 2);
  w5.WriteListHeader(CompactType::STRUCT, 0);
  w5.EndStruct();
  CHECK_THROWS_WITH_AS(ParseString(file_without_num_rows),
                       "file metadata is missing required field num_rows", ParquetError);

  // The bloom filter header's unions are required too.
  std::string bloom;
  ThriftCompactWriter w4(&bloom);
  w4.BeginStruct();
  w4.WriteFieldHeader(CompactType::I32, 1);
  w4.WriteI32(32);
  w4.EndStruct();
  CHECK_THROWS_WITH_AS(
      ParseBloomFilterHeader(reinterpret_cast<const uint8_t*>(bloom.data()), bloom.size(),
                             &consumed),
      "bloom filter header is missing required field algorithm", ParquetError);
}

TEST_CASE("truncated metadata at every byte position gives ParquetError") {
  const std::string bytes = Serialize(FullFileMetaData());
  for (size_t length = 0; length < bytes.size(); ++length) {
    const std::vector<uint8_t> prefix(bytes.begin(),
                                      bytes.begin() + static_cast<ptrdiff_t>(length));
    CAPTURE(length);
    CHECK_THROWS_AS(ParseFileMetaData(prefix.data(), prefix.size()), ParquetError);
  }
  for (const PageHeader& header : OnePageHeaderOfEachType()) {
    const std::string page = Serialize(header);
    for (size_t length = 0; length < page.size(); ++length) {
      const std::vector<uint8_t> prefix(page.begin(),
                                        page.begin() + static_cast<ptrdiff_t>(length));
      size_t consumed = 0;
      CHECK_THROWS_AS(ParsePageHeader(prefix.data(), prefix.size(), &consumed), ParquetError);
    }
  }
}

TEST_CASE("a real footer with any single byte corrupted never crashes") {
  const std::string file = ReadWholeFile(kDataDir + "alltypes_plain.parquet");
  const Footer footer = LocateFooter(file);
  std::vector<uint8_t> bytes(file.begin() + static_cast<ptrdiff_t>(footer.offset),
                             file.begin() + static_cast<ptrdiff_t>(footer.offset + footer.length));
  int errors = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t replacement : {uint8_t{0x00}, uint8_t{0xff}, uint8_t{0x19}}) {
      std::vector<uint8_t> corrupt = bytes;
      corrupt[i] = replacement;
      try {
        ParseFileMetaData(corrupt.data(), corrupt.size());
      } catch (const ParquetError&) {
        ++errors;
      }
    }
  }
  CHECK(errors > 0);
}

TEST_CASE("huge claimed list sizes in metadata are rejected") {
  std::string bytes;
  ThriftCompactWriter w(&bytes);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::I32, 1);
  w.WriteI32(1);
  w.WriteFieldHeader(CompactType::LIST, 2);
  w.WriteListHeader(CompactType::STRUCT, 2000000000);
  w.EndStruct();
  CHECK_THROWS_WITH_AS(ParseString(bytes), doctest::Contains("exceeds the 1 bytes remaining"),
                       ParquetError);
}

TEST_CASE("list element types must match the field") {
  std::string bytes;
  ThriftCompactWriter w(&bytes);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::LIST, 1);  // null_pages as a list of i32
  w.WriteListHeader(CompactType::I32, 1);
  w.WriteI32(1);
  w.EndStruct();
  CHECK_THROWS_WITH_AS(
      ParseColumnIndex(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
      doctest::Contains("list of i32 elements"), ParquetError);
}

TEST_CASE("unserializable values are rejected") {
  FileMetaData md;
  SchemaElement e;
  e.name = "x";
  e.logical_type = LogicalType{};  // kind UNRECOGNIZED
  md.schema = {e};
  CHECK_THROWS_AS(Serialize(md), ParquetError);

  md.schema[0].logical_type.reset();
  md.column_orders = std::vector<ColumnOrder>{{ColumnOrder::Kind::UNRECOGNIZED}};
  CHECK_THROWS_AS(Serialize(md), ParquetError);

  BloomFilterHeader bloom;
  bloom.hash_is_xxhash = false;
  CHECK_THROWS_AS(Serialize(bloom), ParquetError);
}

}  // namespace parquet
