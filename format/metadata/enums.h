// The enumerations of parquet.thrift (apache/parquet-format), with the numeric values the
// format assigns. Values a newer writer may add are representable: every enum is an
// `enum class` over int32_t, so an unknown number read from a file is kept as-is and
// reported by name lookups as e.g. "UNKNOWN_ENCODING(12)".
#pragma once

#include <cstdint>
#include <string>

namespace parquet {

enum class Type : int32_t {
  BOOLEAN = 0,
  INT32 = 1,
  INT64 = 2,
  INT96 = 3,
  FLOAT = 4,
  DOUBLE = 5,
  BYTE_ARRAY = 6,
  FIXED_LEN_BYTE_ARRAY = 7,
};

enum class ConvertedType : int32_t {
  UTF8 = 0,
  MAP = 1,
  MAP_KEY_VALUE = 2,
  LIST = 3,
  ENUM = 4,
  DECIMAL = 5,
  DATE = 6,
  TIME_MILLIS = 7,
  TIME_MICROS = 8,
  TIMESTAMP_MILLIS = 9,
  TIMESTAMP_MICROS = 10,
  UINT_8 = 11,
  UINT_16 = 12,
  UINT_32 = 13,
  UINT_64 = 14,
  INT_8 = 15,
  INT_16 = 16,
  INT_32 = 17,
  INT_64 = 18,
  JSON = 19,
  BSON = 20,
  INTERVAL = 21,
};

enum class FieldRepetitionType : int32_t {
  REQUIRED = 0,
  OPTIONAL = 1,
  REPEATED = 2,
  VECTOR = 3,
};

enum class Encoding : int32_t {
  PLAIN = 0,
  PLAIN_DICTIONARY = 2,
  RLE = 3,
  BIT_PACKED = 4,
  DELTA_BINARY_PACKED = 5,
  DELTA_LENGTH_BYTE_ARRAY = 6,
  DELTA_BYTE_ARRAY = 7,
  RLE_DICTIONARY = 8,
  BYTE_STREAM_SPLIT = 9,
};

enum class CompressionCodec : int32_t {
  UNCOMPRESSED = 0,
  SNAPPY = 1,
  GZIP = 2,
  LZO = 3,
  BROTLI = 4,
  LZ4 = 5,  // deprecated: Hadoop-framed LZ4 (or a raw block from old parquet-cpp)
  ZSTD = 6,
  LZ4_RAW = 7,
};

enum class PageType : int32_t {
  DATA_PAGE = 0,
  INDEX_PAGE = 1,
  DICTIONARY_PAGE = 2,
  DATA_PAGE_V2 = 3,
};

enum class BoundaryOrder : int32_t {
  UNORDERED = 0,
  ASCENDING = 1,
  DESCENDING = 2,
};

enum class EdgeInterpolationAlgorithm : int32_t {
  SPHERICAL = 0,
  VINCENTY = 1,
  THOMAS = 2,
  ANDOYER = 3,
  KARNEY = 4,
};

// Units of TIME and TIMESTAMP logical types (the thrift union TimeUnit, by field id).
enum class TimeUnit : int32_t {
  MILLIS = 1,
  MICROS = 2,
  NANOS = 3,
};

// Names as parquet.thrift spells them; unknown values as "UNKNOWN_<ENUM>(<n>)".
std::string ToString(Type value);
std::string ToString(ConvertedType value);
std::string ToString(FieldRepetitionType value);
std::string ToString(Encoding value);
std::string ToString(CompressionCodec value);
std::string ToString(PageType value);
std::string ToString(BoundaryOrder value);
std::string ToString(TimeUnit value);

}  // namespace parquet
