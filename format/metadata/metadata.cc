// Reading and writing the parquet.thrift structs of metadata.h in the compact protocol.
//
// Each struct is described once, by a `Fields` function that lists its fields as
// (thrift field id, name, member). Three visitors walk that list: FieldReader (reads the
// member whose id matches the field header just read), RequiredFieldCheck (after the
// struct's STOP, reports the first required member that never arrived) and FieldWriter
// (writes every required member and every optional member that is set). Thrift unions,
// which metadata.h flattens into a `kind` plus fields, have hand-written codecs below.
#include "format/metadata/metadata.h"

#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "format/common/error.h"
#include "format/metadata/thrift_compact.h"

namespace parquet {

namespace {

using Writer = ThriftCompactWriter;

// The thrift reader of one parse, with the bounds that need more than one value's context.
//
// Memory: a list's elements are charged, at the list header and before anything is
// reserved, at their in-memory size against a budget of kBudgetBase plus kBudgetPerByte
// bytes per input byte. Every element occupies at least one input byte, but a nearly empty
// ColumnChunk (3 bytes) is a 896-byte struct: without the budget a footer of a few MB could
// demand gigabytes. A real ColumnChunk takes 19 bytes or more (ColumnMetaData's required
// fields), so real footers stay well within 64 bytes of structs per input byte.
//
// Columns: once FileMetaData.schema has been read, a row group's column list may announce
// at most the schema's number of leaf columns; a longer one is refused at its header, before
// any element is read. (Fewer is refused by ParquetFileReader, which sees the whole footer.)
class Reader : public ThriftCompactReader {
 public:
  static constexpr size_t kBudgetBase = size_t{16} << 20;
  static constexpr size_t kBudgetPerByte = 64;

  Reader(const uint8_t* data, size_t size)
      : ThriftCompactReader(data, size), budget_(kBudgetBase + kBudgetPerByte * size) {}

  void ChargeList(size_t count, size_t element_size) {
    const size_t bytes = count * element_size;  // count < 2^31, element_size < 2^16
    if (bytes > budget_) {
      throw ParquetError("thrift list of " + std::to_string(count) + " elements would take " +
                         std::to_string(bytes) + " bytes of memory, more than a structure of " +
                         std::to_string(position() + remaining()) + " bytes may use");
    }
    budget_ -= bytes;
  }

  std::optional<uint32_t> schema_columns;  // leaf columns of FileMetaData.schema, once read

 private:
  size_t budget_;
};

// ---------------------------------------------------------------------------------------
// Type traits: which wire type a C++ member has.

template <class T> struct IsOptional : std::false_type {};
template <class T> struct IsOptional<std::optional<T>> : std::true_type {};
template <class T> struct IsVector : std::false_type {};
template <class T> struct IsVector<std::vector<T>> : std::true_type {};

template <class T> struct StripOptional { using type = T; };
template <class T> struct StripOptional<std::optional<T>> { using type = T; };

// Wire type of a value of C++ type T. Everything that is not a scalar, an enum, a string
// or a vector is a struct (this includes the flattened unions).
template <class T> constexpr CompactType WireTypeOf() {
  if constexpr (std::is_same_v<T, bool>) return CompactType::BOOLEAN_TRUE;
  else if constexpr (std::is_same_v<T, int8_t>) return CompactType::BYTE;
  else if constexpr (std::is_same_v<T, int16_t>) return CompactType::I16;
  else if constexpr (std::is_same_v<T, int32_t>) return CompactType::I32;
  else if constexpr (std::is_same_v<T, int64_t>) return CompactType::I64;
  else if constexpr (std::is_same_v<T, double>) return CompactType::DOUBLE;
  else if constexpr (std::is_same_v<T, std::string>) return CompactType::BINARY;
  else if constexpr (std::is_enum_v<T>) return CompactType::I32;
  else if constexpr (IsVector<T>::value) return CompactType::LIST;
  else return CompactType::STRUCT;
}

bool WireTypeMatches(CompactType actual, CompactType expected) {
  if (expected == CompactType::BOOLEAN_TRUE) {
    return actual == CompactType::BOOLEAN_TRUE || actual == CompactType::BOOLEAN_FALSE;
  }
  if (expected == CompactType::LIST) {
    return actual == CompactType::LIST || actual == CompactType::SET;
  }
  return actual == expected;
}

// ---------------------------------------------------------------------------------------
// Internal wire-only structs: union members that metadata.h flattens.

struct Empty {};

// A union whose members are all empty structs (TimeUnit, ColumnOrder, the bloom filter
// unions): remembered as the id of the member that was set, 0 when none was.
struct EmptyUnion {
  int16_t member_id = 0;
};

struct DecimalTypeWire {
  int32_t scale = 0;
  int32_t precision = 0;
};

struct TimeTypeWire {  // TimeType and TimestampType have the same fields
  bool is_adjusted_to_utc = false;
  EmptyUnion unit;
};

struct IntTypeWire {
  int8_t bit_width = 0;
  bool is_signed = false;
};

struct VariantTypeWire {
  std::optional<int8_t> specification_version;
};

struct GeometryTypeWire {
  std::optional<std::string> crs;
};

struct GeographyTypeWire {
  std::optional<std::string> crs;
  std::optional<EdgeInterpolationAlgorithm> algorithm;
};

struct BloomFilterHeaderWire {
  int32_t num_bytes = 0;
  EmptyUnion algorithm;
  EmptyUnion hash;
  EmptyUnion compression;
};

// ---------------------------------------------------------------------------------------
// Struct names for error messages.

template <class T> constexpr const char* kStructName = "struct";
template <> constexpr const char* kStructName<Statistics> = "statistics";
template <> constexpr const char* kStructName<SizeStatistics> = "size statistics";
template <> constexpr const char* kStructName<BoundingBox> = "bounding box";
template <> constexpr const char* kStructName<GeospatialStatistics> = "geospatial statistics";
template <> constexpr const char* kStructName<SchemaElement> = "schema element";
template <> constexpr const char* kStructName<DataPageHeader> = "data page header";
template <> constexpr const char* kStructName<IndexPageHeader> = "index page header";
template <> constexpr const char* kStructName<DictionaryPageHeader> = "dictionary page header";
template <> constexpr const char* kStructName<DataPageHeaderV2> = "data page header v2";
template <> constexpr const char* kStructName<BloomFilterHeaderWire> = "bloom filter header";
template <> constexpr const char* kStructName<PageHeader> = "page header";
template <> constexpr const char* kStructName<KeyValue> = "key value";
template <> constexpr const char* kStructName<SortingColumn> = "sorting column";
template <> constexpr const char* kStructName<PageEncodingStats> = "page encoding stats";
template <> constexpr const char* kStructName<ColumnMetaData> = "column metadata";
template <> constexpr const char* kStructName<EncryptionWithColumnKey> =
    "encryption with column key";
template <> constexpr const char* kStructName<ColumnChunk> = "column chunk";
template <> constexpr const char* kStructName<RowGroup> = "row group";
template <> constexpr const char* kStructName<PageLocation> = "page location";
template <> constexpr const char* kStructName<OffsetIndex> = "offset index";
template <> constexpr const char* kStructName<ColumnIndex> = "column index";
template <> constexpr const char* kStructName<AesGcmV1> = "aes gcm v1";
template <> constexpr const char* kStructName<AesGcmCtrV1> = "aes gcm ctr v1";
template <> constexpr const char* kStructName<FileMetaData> = "file metadata";
template <> constexpr const char* kStructName<FileCryptoMetaData> = "file crypto metadata";
template <> constexpr const char* kStructName<DecimalTypeWire> = "decimal type";
template <> constexpr const char* kStructName<TimeTypeWire> = "time or timestamp type";
template <> constexpr const char* kStructName<IntTypeWire> = "integer type";

// ---------------------------------------------------------------------------------------
// The field tables. `v(id, name, member)` for required members and std::optional members;
// `v.Defaulted(...)` for a plain member that thrift gives a default and may be absent.

template <class V> void Fields(V&, Empty&) {}
template <class V> void Fields(V&, IndexPageHeader&) {}

template <class V> void Fields(V& v, DecimalTypeWire& s) {
  v(1, "scale", s.scale);
  v(2, "precision", s.precision);
}

template <class V> void Fields(V& v, TimeTypeWire& s) {
  v(1, "is_adjusted_to_utc", s.is_adjusted_to_utc);
  v(2, "unit", s.unit);
}

template <class V> void Fields(V& v, IntTypeWire& s) {
  v(1, "bit_width", s.bit_width);
  v(2, "is_signed", s.is_signed);
}

template <class V> void Fields(V& v, VariantTypeWire& s) {
  v(1, "specification_version", s.specification_version);
}

template <class V> void Fields(V& v, GeometryTypeWire& s) { v(1, "crs", s.crs); }

template <class V> void Fields(V& v, GeographyTypeWire& s) {
  v(1, "crs", s.crs);
  v(2, "algorithm", s.algorithm);
}

template <class V> void Fields(V& v, Statistics& s) {
  v(1, "max", s.max);
  v(2, "min", s.min);
  v(3, "null_count", s.null_count);
  v(4, "distinct_count", s.distinct_count);
  v(5, "max_value", s.max_value);
  v(6, "min_value", s.min_value);
  v(7, "is_max_value_exact", s.is_max_value_exact);
  v(8, "is_min_value_exact", s.is_min_value_exact);
  v(9, "nan_count", s.nan_count);
}

template <class V> void Fields(V& v, SizeStatistics& s) {
  v(1, "unencoded_byte_array_data_bytes", s.unencoded_byte_array_data_bytes);
  v(2, "repetition_level_histogram", s.repetition_level_histogram);
  v(3, "definition_level_histogram", s.definition_level_histogram);
}

template <class V> void Fields(V& v, BoundingBox& s) {
  v(1, "xmin", s.xmin);
  v(2, "xmax", s.xmax);
  v(3, "ymin", s.ymin);
  v(4, "ymax", s.ymax);
  v(5, "zmin", s.zmin);
  v(6, "zmax", s.zmax);
  v(7, "mmin", s.mmin);
  v(8, "mmax", s.mmax);
}

template <class V> void Fields(V& v, GeospatialStatistics& s) {
  v(1, "bbox", s.bbox);
  v(2, "geospatial_types", s.geospatial_types);
}

template <class V> void Fields(V& v, SchemaElement& s) {
  v(1, "type", s.type);
  v(2, "type_length", s.type_length);
  v(3, "repetition_type", s.repetition_type);
  v(4, "name", s.name);
  v(5, "num_children", s.num_children);
  v(6, "converted_type", s.converted_type);
  v(7, "scale", s.scale);
  v(8, "precision", s.precision);
  v(9, "field_id", s.field_id);
  v(10, "logical_type", s.logical_type);
  v(11, "vector_length", s.vector_length);
}

template <class V> void Fields(V& v, DataPageHeader& s) {
  v(1, "num_values", s.num_values);
  v(2, "encoding", s.encoding);
  v(3, "definition_level_encoding", s.definition_level_encoding);
  v(4, "repetition_level_encoding", s.repetition_level_encoding);
  v(5, "statistics", s.statistics);
}

template <class V> void Fields(V& v, DictionaryPageHeader& s) {
  v(1, "num_values", s.num_values);
  v(2, "encoding", s.encoding);
  v(3, "is_sorted", s.is_sorted);
}

template <class V> void Fields(V& v, DataPageHeaderV2& s) {
  v(1, "num_values", s.num_values);
  v(2, "num_nulls", s.num_nulls);
  v(3, "num_rows", s.num_rows);
  v(4, "encoding", s.encoding);
  v(5, "definition_levels_byte_length", s.definition_levels_byte_length);
  v(6, "repetition_levels_byte_length", s.repetition_levels_byte_length);
  v.Defaulted(7, "is_compressed", s.is_compressed);
  v(8, "statistics", s.statistics);
}

template <class V> void Fields(V& v, BloomFilterHeaderWire& s) {
  v(1, "num_bytes", s.num_bytes);
  v(2, "algorithm", s.algorithm);
  v(3, "hash", s.hash);
  v(4, "compression", s.compression);
}

template <class V> void Fields(V& v, PageHeader& s) {
  v(1, "type", s.type);
  v(2, "uncompressed_page_size", s.uncompressed_page_size);
  v(3, "compressed_page_size", s.compressed_page_size);
  v(4, "crc", s.crc);
  v(5, "data_page_header", s.data_page_header);
  v(6, "index_page_header", s.index_page_header);
  v(7, "dictionary_page_header", s.dictionary_page_header);
  v(8, "data_page_header_v2", s.data_page_header_v2);
}

template <class V> void Fields(V& v, KeyValue& s) {
  v(1, "key", s.key);
  v(2, "value", s.value);
}

template <class V> void Fields(V& v, SortingColumn& s) {
  v(1, "column_idx", s.column_idx);
  v(2, "descending", s.descending);
  v(3, "nulls_first", s.nulls_first);
}

template <class V> void Fields(V& v, PageEncodingStats& s) {
  v(1, "page_type", s.page_type);
  v(2, "encoding", s.encoding);
  v(3, "count", s.count);
}

template <class V> void Fields(V& v, ColumnMetaData& s) {
  v(1, "type", s.type);
  v(2, "encodings", s.encodings);
  v(3, "path_in_schema", s.path_in_schema);
  v(4, "codec", s.codec);
  v(5, "num_values", s.num_values);
  v(6, "total_uncompressed_size", s.total_uncompressed_size);
  v(7, "total_compressed_size", s.total_compressed_size);
  v(8, "key_value_metadata", s.key_value_metadata);
  v(9, "data_page_offset", s.data_page_offset);
  v(10, "index_page_offset", s.index_page_offset);
  v(11, "dictionary_page_offset", s.dictionary_page_offset);
  v(12, "statistics", s.statistics);
  v(13, "encoding_stats", s.encoding_stats);
  v(14, "bloom_filter_offset", s.bloom_filter_offset);
  v(15, "bloom_filter_length", s.bloom_filter_length);
  v(16, "size_statistics", s.size_statistics);
  v(17, "geospatial_statistics", s.geospatial_statistics);
}

template <class V> void Fields(V& v, EncryptionWithColumnKey& s) {
  v(1, "path_in_schema", s.path_in_schema);
  v(2, "key_metadata", s.key_metadata);
}

template <class V> void Fields(V& v, ColumnChunk& s) {
  v(1, "file_path", s.file_path);
  v.Defaulted(2, "file_offset", s.file_offset);  // deprecated; some writers omit it
  v(3, "meta_data", s.meta_data);
  v(4, "offset_index_offset", s.offset_index_offset);
  v(5, "offset_index_length", s.offset_index_length);
  v(6, "column_index_offset", s.column_index_offset);
  v(7, "column_index_length", s.column_index_length);
  v(8, "crypto_metadata", s.crypto_metadata);
  v(9, "encrypted_column_metadata", s.encrypted_column_metadata);
}

template <class V> void Fields(V& v, RowGroup& s) {
  v(1, "columns", s.columns);
  v(2, "total_byte_size", s.total_byte_size);
  v(3, "num_rows", s.num_rows);
  v(4, "sorting_columns", s.sorting_columns);
  v(5, "file_offset", s.file_offset);
  v(6, "total_compressed_size", s.total_compressed_size);
  v(7, "ordinal", s.ordinal);
}

template <class V> void Fields(V& v, PageLocation& s) {
  v(1, "offset", s.offset);
  v(2, "compressed_page_size", s.compressed_page_size);
  v(3, "first_row_index", s.first_row_index);
}

template <class V> void Fields(V& v, OffsetIndex& s) {
  v(1, "page_locations", s.page_locations);
  v(2, "unencoded_byte_array_data_bytes", s.unencoded_byte_array_data_bytes);
}

template <class V> void Fields(V& v, ColumnIndex& s) {
  v(1, "null_pages", s.null_pages);
  v(2, "min_values", s.min_values);
  v(3, "max_values", s.max_values);
  v(4, "boundary_order", s.boundary_order);
  v(5, "null_counts", s.null_counts);
  v(6, "repetition_level_histograms", s.repetition_level_histograms);
  v(7, "definition_level_histograms", s.definition_level_histograms);
  v(8, "nan_counts", s.nan_counts);
}

template <class V> void Fields(V& v, AesGcmV1& s) {
  v(1, "aad_prefix", s.aad_prefix);
  v(2, "aad_file_unique", s.aad_file_unique);
  v(3, "supply_aad_prefix", s.supply_aad_prefix);
}

template <class V> void Fields(V& v, AesGcmCtrV1& s) {
  v(1, "aad_prefix", s.aad_prefix);
  v(2, "aad_file_unique", s.aad_file_unique);
  v(3, "supply_aad_prefix", s.supply_aad_prefix);
}

template <class V> void Fields(V& v, FileMetaData& s) {
  v(1, "version", s.version);
  v(2, "schema", s.schema);
  v(3, "num_rows", s.num_rows);
  v(4, "row_groups", s.row_groups);
  v(5, "key_value_metadata", s.key_value_metadata);
  v(6, "created_by", s.created_by);
  v(7, "column_orders", s.column_orders);
  v(8, "encryption_algorithm", s.encryption_algorithm);
  v(9, "footer_signing_key_metadata", s.footer_signing_key_metadata);
}

template <class V> void Fields(V& v, FileCryptoMetaData& s) {
  v(1, "encryption_algorithm", s.encryption_algorithm);
  v(2, "key_metadata", s.key_metadata);
}

// ---------------------------------------------------------------------------------------
// Value codecs. The generic ReadValue/WriteValue handle scalars, enums, strings, optionals,
// lists and table-described structs; the overloads declared here handle the unions.

template <class T> void ReadValue(Reader& reader, T& value);
template <class T> void WriteValue(Writer& writer, const T& value);
template <class T> void ReadStruct(Reader& reader, T& value);
template <class T> void WriteStruct(Writer& writer, const T& value);

void ReadValue(Reader& reader, EmptyUnion& value);
void WriteValue(Writer& writer, const EmptyUnion& value);
void ReadValue(Reader& reader, LogicalType& value);
void WriteValue(Writer& writer, const LogicalType& value);
void ReadValue(Reader& reader, ColumnOrder& value);
void WriteValue(Writer& writer, const ColumnOrder& value);
void ReadValue(Reader& reader, EncryptionAlgorithm& value);
void WriteValue(Writer& writer, const EncryptionAlgorithm& value);
void ReadValue(Reader& reader, ColumnCryptoMetaData& value);
void WriteValue(Writer& writer, const ColumnCryptoMetaData& value);

// Reads the member whose id matches the field header just read.
class FieldReader {
 public:
  FieldReader(Reader& reader, ThriftFieldHeader header) : reader_(reader), header_(header) {}

  template <class T> void operator()(int16_t id, const char*, T& member) { Match(id, member); }
  template <class T> void Defaulted(int16_t id, const char*, T& member) { Match(id, member); }

  bool consumed() const { return consumed_; }  // the field's value has been read or skipped
  bool matched() const { return matched_; }    // ... and stored in a member

 private:
  template <class T> void Match(int16_t id, T& member) {
    if (consumed_ || id != header_.id) return;
    consumed_ = true;
    if (!WireTypeMatches(header_.type, WireTypeOf<typename StripOptional<T>::type>())) {
      reader_.Skip(header_.type);  // same id, other type: not the field we know
      return;
    }
    ReadValue(reader_, member);
    matched_ = true;
    if constexpr (std::is_same_v<T, std::vector<SchemaElement>>) {
      uint32_t leaves = 0;
      for (size_t i = 1; i < member.size(); ++i) leaves += member[i].type.has_value() ? 1 : 0;
      reader_.schema_columns = leaves;
    }
  }

  Reader& reader_;
  ThriftFieldHeader header_;
  bool consumed_ = false;
  bool matched_ = false;
};

// Throws for the first required member whose id is not in `seen`.
class RequiredFieldCheck {
 public:
  RequiredFieldCheck(uint64_t seen, const char* struct_name)
      : seen_(seen), struct_name_(struct_name) {}

  template <class T> void operator()(int16_t id, const char* name, T&) {
    if constexpr (!IsOptional<T>::value) {
      if (((seen_ >> id) & 1) == 0) {
        throw ParquetError(std::string(struct_name_) + " is missing required field " + name);
      }
    }
  }
  template <class T> void Defaulted(int16_t, const char*, T&) {}

 private:
  uint64_t seen_;
  const char* struct_name_;
};

class FieldWriter {
 public:
  explicit FieldWriter(Writer& writer) : writer_(writer) {}

  template <class T> void operator()(int16_t id, const char*, const T& member) {
    if constexpr (IsOptional<T>::value) {
      if (member.has_value()) WriteField(id, *member);
    } else {
      WriteField(id, member);
    }
  }
  template <class T> void Defaulted(int16_t id, const char* name, const T& member) {
    (*this)(id, name, member);
  }

 private:
  template <class T> void WriteField(int16_t id, const T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      writer_.WriteBoolField(id, value);
    } else {
      writer_.WriteFieldHeader(WireTypeOf<T>(), id);
      WriteValue(writer_, value);
    }
  }

  Writer& writer_;
};

template <class T> void ReadStruct(Reader& reader, T& value) {
  reader.BeginStruct();
  uint64_t seen = 0;  // bit i: field id i was read (all known ids are below 64)
  while (true) {
    const ThriftFieldHeader header = reader.ReadFieldHeader();
    if (header.type == CompactType::STOP) break;
    FieldReader field_reader(reader, header);
    Fields(field_reader, value);
    if (!field_reader.consumed()) {
      reader.Skip(header.type);
    } else if (field_reader.matched()) {
      seen |= uint64_t{1} << header.id;
    }
  }
  reader.EndStruct();
  RequiredFieldCheck check(seen, kStructName<T>);
  Fields(check, value);
}

template <class T> void WriteStruct(Writer& writer, const T& value) {
  writer.BeginStruct();
  FieldWriter field_writer(writer);
  // The field tables take a mutable reference; FieldWriter only reads through it.
  Fields(field_writer, const_cast<T&>(value));
  writer.EndStruct();
}

template <class T> void ReadList(Reader& reader, std::vector<T>& list) {
  const ThriftListHeader header = reader.ReadListHeader();
  list.clear();
  if (header.size == 0) return;
  constexpr CompactType expected = WireTypeOf<T>();
  if (!WireTypeMatches(header.element_type, expected)) {
    throw ParquetError("thrift list of " + ToString(header.element_type) +
                       " elements where " + ToString(expected) + " elements were expected");
  }
  if constexpr (std::is_same_v<T, ColumnChunk>) {
    if (reader.schema_columns.has_value() && header.size > *reader.schema_columns) {
      throw ParquetError("row group lists " + std::to_string(header.size) + " column chunks, the schema has " +
                         std::to_string(*reader.schema_columns) + " columns");
    }
  }
  // The size is bounded by the input bytes and, in memory, by the reader's budget.
  reader.ChargeList(header.size, sizeof(T));
  list.reserve(header.size);
  for (uint32_t i = 0; i < header.size; ++i) {
    T element{};
    ReadValue(reader, element);
    list.push_back(std::move(element));
  }
}

template <class T> void WriteList(Writer& writer, const std::vector<T>& list) {
  if (list.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    throw ParquetError("cannot serialize a thrift list of " + std::to_string(list.size()) +
                       " elements");
  }
  writer.WriteListHeader(WireTypeOf<T>(), static_cast<uint32_t>(list.size()));
  for (const T& element : list) WriteValue(writer, element);
}

template <class T> void ReadValue(Reader& reader, T& value) {
  if constexpr (std::is_same_v<T, bool>) value = reader.ReadBool();
  else if constexpr (std::is_same_v<T, int8_t>) value = reader.ReadByte();
  else if constexpr (std::is_same_v<T, int16_t>) value = reader.ReadI16();
  else if constexpr (std::is_same_v<T, int32_t>) value = reader.ReadI32();
  else if constexpr (std::is_same_v<T, int64_t>) value = reader.ReadI64();
  else if constexpr (std::is_same_v<T, double>) value = reader.ReadDouble();
  else if constexpr (std::is_same_v<T, std::string>) value = reader.ReadBinary();
  else if constexpr (std::is_enum_v<T>) value = static_cast<T>(reader.ReadI32());
  else if constexpr (IsOptional<T>::value) ReadValue(reader, value.emplace());
  else if constexpr (IsVector<T>::value) ReadList(reader, value);
  else {
    value = T{};
    ReadStruct(reader, value);
  }
}

template <class T> void WriteValue(Writer& writer, const T& value) {
  if constexpr (std::is_same_v<T, bool>) writer.WriteBool(value);
  else if constexpr (std::is_same_v<T, int8_t>) writer.WriteByte(value);
  else if constexpr (std::is_same_v<T, int16_t>) writer.WriteI16(value);
  else if constexpr (std::is_same_v<T, int32_t>) writer.WriteI32(value);
  else if constexpr (std::is_same_v<T, int64_t>) writer.WriteI64(value);
  else if constexpr (std::is_same_v<T, double>) writer.WriteDouble(value);
  else if constexpr (std::is_same_v<T, std::string>) writer.WriteBinary(value);
  else if constexpr (std::is_enum_v<T>) writer.WriteI32(static_cast<int32_t>(value));
  else if constexpr (IsVector<T>::value) WriteList(writer, value);
  else WriteStruct(writer, value);
}

// ---------------------------------------------------------------------------------------
// Unions. On the wire a union is a struct with exactly one field set; a reader takes the
// first member it knows and skips the rest.

// `read_member(id)` reads the member with that id and returns true, or returns false
// without reading anything when it does not know the id.
template <class ReadMember> void ReadUnion(Reader& reader, ReadMember read_member) {
  reader.BeginStruct();
  bool chosen = false;
  while (true) {
    const ThriftFieldHeader header = reader.ReadFieldHeader();
    if (header.type == CompactType::STOP) break;
    if (!chosen && header.type == CompactType::STRUCT && read_member(header.id)) {
      chosen = true;
    } else {
      reader.Skip(header.type);
    }
  }
  reader.EndStruct();
}

template <class Member> void WriteUnion(Writer& writer, int16_t id, const Member& member) {
  writer.BeginStruct();
  writer.WriteFieldHeader(CompactType::STRUCT, id);
  WriteValue(writer, member);
  writer.EndStruct();
}

void ReadValue(Reader& reader, EmptyUnion& value) {
  value = EmptyUnion{};
  ReadUnion(reader, [&](int16_t id) {
    Empty member;
    ReadStruct(reader, member);
    value.member_id = id;
    return true;
  });
}

void WriteValue(Writer& writer, const EmptyUnion& value) {
  WriteUnion(writer, value.member_id, Empty{});
}

bool IsKnownTimeUnit(int16_t id) {
  return id == static_cast<int16_t>(TimeUnit::MILLIS) ||
         id == static_cast<int16_t>(TimeUnit::MICROS) ||
         id == static_cast<int16_t>(TimeUnit::NANOS);
}

void ReadValue(Reader& reader, LogicalType& value) {
  using Kind = LogicalType::Kind;
  value = LogicalType{};
  ReadUnion(reader, [&](int16_t id) {
    switch (static_cast<Kind>(id)) {
      case Kind::STRING: case Kind::MAP: case Kind::LIST: case Kind::ENUM: case Kind::DATE:
      case Kind::UNKNOWN: case Kind::JSON: case Kind::BSON: case Kind::UUID:
      case Kind::FLOAT16: case Kind::VECTOR: {
        Empty member;
        ReadStruct(reader, member);
        break;
      }
      case Kind::DECIMAL: {
        DecimalTypeWire member;
        ReadStruct(reader, member);
        value.decimal_scale = member.scale;
        value.decimal_precision = member.precision;
        break;
      }
      case Kind::TIME:
      case Kind::TIMESTAMP: {
        TimeTypeWire member;
        ReadStruct(reader, member);
        value.is_adjusted_to_utc = member.is_adjusted_to_utc;
        // A unit this reader does not know makes the whole type unrecognized.
        if (!IsKnownTimeUnit(member.unit.member_id)) return true;
        value.time_unit = static_cast<TimeUnit>(member.unit.member_id);
        break;
      }
      case Kind::INTEGER: {
        IntTypeWire member;
        ReadStruct(reader, member);
        value.int_bit_width = member.bit_width;
        value.int_is_signed = member.is_signed;
        break;
      }
      case Kind::VARIANT: {
        VariantTypeWire member;
        ReadStruct(reader, member);
        value.variant_specification_version = member.specification_version;
        break;
      }
      case Kind::GEOMETRY: {
        GeometryTypeWire member;
        ReadStruct(reader, member);
        value.crs = std::move(member.crs);
        break;
      }
      case Kind::GEOGRAPHY: {
        GeographyTypeWire member;
        ReadStruct(reader, member);
        value.crs = std::move(member.crs);
        value.edge_algorithm = member.algorithm;
        break;
      }
      default:
        return false;
    }
    value.kind = static_cast<Kind>(id);
    return true;
  });
}

void WriteValue(Writer& writer, const LogicalType& value) {
  using Kind = LogicalType::Kind;
  const int16_t id = static_cast<int16_t>(value.kind);
  switch (value.kind) {
    case Kind::STRING: case Kind::MAP: case Kind::LIST: case Kind::ENUM: case Kind::DATE:
    case Kind::UNKNOWN: case Kind::JSON: case Kind::BSON: case Kind::UUID:
    case Kind::FLOAT16: case Kind::VECTOR:
      WriteUnion(writer, id, Empty{});
      return;
    case Kind::DECIMAL:
      WriteUnion(writer, id, DecimalTypeWire{value.decimal_scale, value.decimal_precision});
      return;
    case Kind::TIME:
    case Kind::TIMESTAMP:
      if (!IsKnownTimeUnit(static_cast<int16_t>(value.time_unit))) {
        throw ParquetError("cannot serialize time unit " + ToString(value.time_unit));
      }
      WriteUnion(writer, id,
                 TimeTypeWire{value.is_adjusted_to_utc,
                              EmptyUnion{static_cast<int16_t>(value.time_unit)}});
      return;
    case Kind::INTEGER:
      WriteUnion(writer, id, IntTypeWire{value.int_bit_width, value.int_is_signed});
      return;
    case Kind::VARIANT:
      WriteUnion(writer, id, VariantTypeWire{value.variant_specification_version});
      return;
    case Kind::GEOMETRY:
      WriteUnion(writer, id, GeometryTypeWire{value.crs});
      return;
    case Kind::GEOGRAPHY:
      WriteUnion(writer, id, GeographyTypeWire{value.crs, value.edge_algorithm});
      return;
    case Kind::UNRECOGNIZED:
      break;
  }
  throw ParquetError("cannot serialize logical type of unrecognized kind " +
                     std::to_string(static_cast<int32_t>(value.kind)));
}

void ReadValue(Reader& reader, ColumnOrder& value) {
  EmptyUnion wire;
  ReadValue(reader, wire);
  switch (static_cast<ColumnOrder::Kind>(wire.member_id)) {
    case ColumnOrder::Kind::TYPE_DEFINED_ORDER:
    case ColumnOrder::Kind::IEEE_754_TOTAL_ORDER:
    case ColumnOrder::Kind::INT96_TIMESTAMP_ORDER:
      value.kind = static_cast<ColumnOrder::Kind>(wire.member_id);
      return;
    case ColumnOrder::Kind::UNRECOGNIZED:
      break;
  }
  value.kind = ColumnOrder::Kind::UNRECOGNIZED;
}

void WriteValue(Writer& writer, const ColumnOrder& value) {
  switch (value.kind) {
    case ColumnOrder::Kind::TYPE_DEFINED_ORDER:
    case ColumnOrder::Kind::IEEE_754_TOTAL_ORDER:
    case ColumnOrder::Kind::INT96_TIMESTAMP_ORDER:
      WriteValue(writer, EmptyUnion{static_cast<int16_t>(value.kind)});
      return;
    case ColumnOrder::Kind::UNRECOGNIZED:
      break;
  }
  throw ParquetError("cannot serialize column order of unrecognized kind " +
                     std::to_string(static_cast<int32_t>(value.kind)));
}

template <class Aes> void CopyAesFields(const Aes& from, EncryptionAlgorithm& to) {
  to.aad_prefix = from.aad_prefix;
  to.aad_file_unique = from.aad_file_unique;
  to.supply_aad_prefix = from.supply_aad_prefix;
}

void ReadValue(Reader& reader, EncryptionAlgorithm& value) {
  using Kind = EncryptionAlgorithm::Kind;
  value = EncryptionAlgorithm{};
  value.kind = Kind::UNRECOGNIZED;
  ReadUnion(reader, [&](int16_t id) {
    if (id == static_cast<int16_t>(Kind::AES_GCM_V1)) {
      AesGcmV1 member;
      ReadStruct(reader, member);
      CopyAesFields(member, value);
    } else if (id == static_cast<int16_t>(Kind::AES_GCM_CTR_V1)) {
      AesGcmCtrV1 member;
      ReadStruct(reader, member);
      CopyAesFields(member, value);
    } else {
      return false;
    }
    value.kind = static_cast<Kind>(id);
    return true;
  });
}

void WriteValue(Writer& writer, const EncryptionAlgorithm& value) {
  using Kind = EncryptionAlgorithm::Kind;
  switch (value.kind) {
    case Kind::AES_GCM_V1:
      WriteUnion(writer, 1,
                 AesGcmV1{value.aad_prefix, value.aad_file_unique, value.supply_aad_prefix});
      return;
    case Kind::AES_GCM_CTR_V1:
      WriteUnion(writer, 2,
                 AesGcmCtrV1{value.aad_prefix, value.aad_file_unique, value.supply_aad_prefix});
      return;
    case Kind::UNRECOGNIZED:
      break;
  }
  throw ParquetError("cannot serialize encryption algorithm of unrecognized kind " +
                     std::to_string(static_cast<int32_t>(value.kind)));
}

void ReadValue(Reader& reader, ColumnCryptoMetaData& value) {
  using Kind = ColumnCryptoMetaData::Kind;
  value = ColumnCryptoMetaData{};
  value.kind = Kind::UNRECOGNIZED;
  ReadUnion(reader, [&](int16_t id) {
    if (id == static_cast<int16_t>(Kind::WITH_FOOTER_KEY)) {
      Empty member;
      ReadStruct(reader, member);
    } else if (id == static_cast<int16_t>(Kind::WITH_COLUMN_KEY)) {
      EncryptionWithColumnKey member;
      ReadStruct(reader, member);
      value.path_in_schema = std::move(member.path_in_schema);
      value.key_metadata = std::move(member.key_metadata);
    } else {
      return false;
    }
    value.kind = static_cast<Kind>(id);
    return true;
  });
}

void WriteValue(Writer& writer, const ColumnCryptoMetaData& value) {
  using Kind = ColumnCryptoMetaData::Kind;
  switch (value.kind) {
    case Kind::WITH_FOOTER_KEY:
      WriteUnion(writer, 1, Empty{});
      return;
    case Kind::WITH_COLUMN_KEY:
      WriteUnion(writer, 2, EncryptionWithColumnKey{value.path_in_schema, value.key_metadata});
      return;
    case Kind::UNRECOGNIZED:
      break;
  }
  throw ParquetError("cannot serialize column crypto metadata of unrecognized kind " +
                     std::to_string(static_cast<int32_t>(value.kind)));
}

// ---------------------------------------------------------------------------------------
// Entry points.

template <class T> T Parse(const uint8_t* data, size_t size, size_t* consumed) {
  Require(data != nullptr || size == 0, "thrift input buffer is null");
  Reader reader(data, size);
  T value{};
  ReadValue(reader, value);
  if (consumed != nullptr) *consumed = reader.position();
  return value;
}

template <class T> std::string SerializeValue(const T& value) {
  std::string out;
  Writer writer(&out);
  WriteValue(writer, value);
  return out;
}

}  // namespace

FileMetaData ParseFileMetaData(const uint8_t* data, size_t size) {
  return Parse<FileMetaData>(data, size, nullptr);
}

PageHeader ParsePageHeader(const uint8_t* data, size_t size, size_t* consumed) {
  return Parse<PageHeader>(data, size, consumed);
}

ColumnMetaData ParseColumnMetaData(const uint8_t* data, size_t size) {
  return Parse<ColumnMetaData>(data, size, nullptr);
}

ColumnIndex ParseColumnIndex(const uint8_t* data, size_t size) {
  return Parse<ColumnIndex>(data, size, nullptr);
}

OffsetIndex ParseOffsetIndex(const uint8_t* data, size_t size) {
  return Parse<OffsetIndex>(data, size, nullptr);
}

BloomFilterHeader ParseBloomFilterHeader(const uint8_t* data, size_t size, size_t* consumed) {
  const auto wire = Parse<BloomFilterHeaderWire>(data, size, consumed);
  BloomFilterHeader header;
  header.num_bytes = wire.num_bytes;
  header.algorithm_is_block = wire.algorithm.member_id == 1;
  header.hash_is_xxhash = wire.hash.member_id == 1;
  header.compression_is_uncompressed = wire.compression.member_id == 1;
  return header;
}

FileCryptoMetaData ParseFileCryptoMetaData(const uint8_t* data, size_t size, size_t* consumed) {
  return Parse<FileCryptoMetaData>(data, size, consumed);
}

std::string Serialize(const FileMetaData& value) { return SerializeValue(value); }
std::string Serialize(const PageHeader& value) { return SerializeValue(value); }
std::string Serialize(const ColumnMetaData& value) { return SerializeValue(value); }
std::string Serialize(const ColumnIndex& value) { return SerializeValue(value); }
std::string Serialize(const OffsetIndex& value) { return SerializeValue(value); }
std::string Serialize(const FileCryptoMetaData& value) { return SerializeValue(value); }

std::string Serialize(const BloomFilterHeader& value) {
  Require(value.algorithm_is_block && value.hash_is_xxhash && value.compression_is_uncompressed,
          "cannot serialize a bloom filter header with an unrecognized algorithm, hash or "
          "compression");
  BloomFilterHeaderWire wire;
  wire.num_bytes = value.num_bytes;
  wire.algorithm.member_id = 1;
  wire.hash.member_id = 1;
  wire.compression.member_id = 1;
  return SerializeValue(wire);
}

}  // namespace parquet
