// Names of the parquet.thrift enumerations, for error messages and metadata functions.
#include "format/metadata/enums.h"

namespace parquet {

namespace {
std::string Unknown(const char* enum_name, int32_t value) {
  return std::string("UNKNOWN_") + enum_name + "(" + std::to_string(value) + ")";
}
}  // namespace

std::string ToString(Type value) {
  switch (value) {
    case Type::BOOLEAN: return "BOOLEAN";
    case Type::INT32: return "INT32";
    case Type::INT64: return "INT64";
    case Type::INT96: return "INT96";
    case Type::FLOAT: return "FLOAT";
    case Type::DOUBLE: return "DOUBLE";
    case Type::BYTE_ARRAY: return "BYTE_ARRAY";
    case Type::FIXED_LEN_BYTE_ARRAY: return "FIXED_LEN_BYTE_ARRAY";
  }
  return Unknown("TYPE", static_cast<int32_t>(value));
}

std::string ToString(ConvertedType value) {
  switch (value) {
    case ConvertedType::UTF8: return "UTF8";
    case ConvertedType::MAP: return "MAP";
    case ConvertedType::MAP_KEY_VALUE: return "MAP_KEY_VALUE";
    case ConvertedType::LIST: return "LIST";
    case ConvertedType::ENUM: return "ENUM";
    case ConvertedType::DECIMAL: return "DECIMAL";
    case ConvertedType::DATE: return "DATE";
    case ConvertedType::TIME_MILLIS: return "TIME_MILLIS";
    case ConvertedType::TIME_MICROS: return "TIME_MICROS";
    case ConvertedType::TIMESTAMP_MILLIS: return "TIMESTAMP_MILLIS";
    case ConvertedType::TIMESTAMP_MICROS: return "TIMESTAMP_MICROS";
    case ConvertedType::UINT_8: return "UINT_8";
    case ConvertedType::UINT_16: return "UINT_16";
    case ConvertedType::UINT_32: return "UINT_32";
    case ConvertedType::UINT_64: return "UINT_64";
    case ConvertedType::INT_8: return "INT_8";
    case ConvertedType::INT_16: return "INT_16";
    case ConvertedType::INT_32: return "INT_32";
    case ConvertedType::INT_64: return "INT_64";
    case ConvertedType::JSON: return "JSON";
    case ConvertedType::BSON: return "BSON";
    case ConvertedType::INTERVAL: return "INTERVAL";
  }
  return Unknown("CONVERTED_TYPE", static_cast<int32_t>(value));
}

std::string ToString(FieldRepetitionType value) {
  switch (value) {
    case FieldRepetitionType::REQUIRED: return "REQUIRED";
    case FieldRepetitionType::OPTIONAL: return "OPTIONAL";
    case FieldRepetitionType::REPEATED: return "REPEATED";
    case FieldRepetitionType::VECTOR: return "VECTOR";
  }
  return Unknown("REPETITION", static_cast<int32_t>(value));
}

std::string ToString(Encoding value) {
  switch (value) {
    case Encoding::PLAIN: return "PLAIN";
    case Encoding::PLAIN_DICTIONARY: return "PLAIN_DICTIONARY";
    case Encoding::RLE: return "RLE";
    case Encoding::BIT_PACKED: return "BIT_PACKED";
    case Encoding::DELTA_BINARY_PACKED: return "DELTA_BINARY_PACKED";
    case Encoding::DELTA_LENGTH_BYTE_ARRAY: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::DELTA_BYTE_ARRAY: return "DELTA_BYTE_ARRAY";
    case Encoding::RLE_DICTIONARY: return "RLE_DICTIONARY";
    case Encoding::BYTE_STREAM_SPLIT: return "BYTE_STREAM_SPLIT";
  }
  return Unknown("ENCODING", static_cast<int32_t>(value));
}

std::string ToString(CompressionCodec value) {
  switch (value) {
    case CompressionCodec::UNCOMPRESSED: return "UNCOMPRESSED";
    case CompressionCodec::SNAPPY: return "SNAPPY";
    case CompressionCodec::GZIP: return "GZIP";
    case CompressionCodec::LZO: return "LZO";
    case CompressionCodec::BROTLI: return "BROTLI";
    case CompressionCodec::LZ4: return "LZ4";
    case CompressionCodec::ZSTD: return "ZSTD";
    case CompressionCodec::LZ4_RAW: return "LZ4_RAW";
  }
  return Unknown("CODEC", static_cast<int32_t>(value));
}

std::string ToString(PageType value) {
  switch (value) {
    case PageType::DATA_PAGE: return "DATA_PAGE";
    case PageType::INDEX_PAGE: return "INDEX_PAGE";
    case PageType::DICTIONARY_PAGE: return "DICTIONARY_PAGE";
    case PageType::DATA_PAGE_V2: return "DATA_PAGE_V2";
  }
  return Unknown("PAGE_TYPE", static_cast<int32_t>(value));
}

std::string ToString(BoundaryOrder value) {
  switch (value) {
    case BoundaryOrder::UNORDERED: return "UNORDERED";
    case BoundaryOrder::ASCENDING: return "ASCENDING";
    case BoundaryOrder::DESCENDING: return "DESCENDING";
  }
  return Unknown("BOUNDARY_ORDER", static_cast<int32_t>(value));
}

std::string ToString(TimeUnit value) {
  switch (value) {
    case TimeUnit::MILLIS: return "MILLIS";
    case TimeUnit::MICROS: return "MICROS";
    case TimeUnit::NANOS: return "NANOS";
  }
  return Unknown("TIME_UNIT", static_cast<int32_t>(value));
}

}  // namespace parquet
