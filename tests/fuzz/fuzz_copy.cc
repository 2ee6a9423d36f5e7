// Fuzz target: parquet_copy() through SQL, fed random SQLite values and random options.
// The input chooses a table (1-5 columns with random declared types, 0..~300 rows), its
// values (NULL, INTEGER with extremes, REAL with inf/-0.0/raw bits, TEXT with invalid UTF-8
// and NULs, BLOB, JSON text, long values, mixed storage classes in one column; a column
// may draw its values from a small PRNG so that short inputs make long tables) and an
// option list (codecs and levels, per-column codecs and encodings, row group and page
// sizes, dictionary, page versions, statistics, page index, bloom filters, CRCs,
// schema= with scalar and nested types, on_type_error=null, partition_by, kv_metadata,
// field_ids, encryption). The table lives in an in-memory database with the extension
// linked in (sqlite3_auto_extension), and parquet_copy writes into a per-process temporary
// directory.
//
// Oracle:
//  - parquet_copy succeeds with the source's row count, or fails with a non-empty error
//    message; after a failure the directory is empty (no target, no temporary file). A
//    failure "column C, row N: cannot convert ..." must name a value the model below
//    rejects, and never happens with on_type_error=null. A target that existed is left
//    as it was by a failure, and by overwrite=0 always (which must fail). The input may
//    interrupt the copy at any point (progress handler): the same holds.
//  - On success the directory holds only the target. Its schema has the type each column
//    was given (schema=, the declared-type table of docs/parquet-copy.md, or the storage classes of
//    the first row group), and the parquet table reads back every row: for the scalar
//    types with an exact documented mapping (integers, BOOLEAN, FLOAT, DOUBLE, FLOAT16,
//    STRING, ENUM, JSON, BINARY, FIXED, UUID) each value equals the model's (bitwise for
//    REAL), or NULL where the model rejects it and on_type_error=null; for the others
//    (DECIMAL, DATE, TIME, TIMESTAMP, LIST, MAP, STRUCT) INTEGER sources of the first four
//    against SQLite's date functions and the decimal text, else NULL exactly where the
//    source is NULL (or JSON null, or rejected), and copying the table read back (decimals
//    as text) again gives the
//    same types and the same values (the documented "copying a Parquet-backed table writes
//    its types back").
//  - partition_by: the rows of the tree (without the partition column) are the source's
//    rows as a multiset.
//  - Where the footer is readable: every chunk has its column's codec, no row group passes
//    row_group_size, kv_metadata and field_ids are in the footer as given.
//  - WHERE col op ? on the parquet table (statistics, page index and bloom filters of
//    these options at work) counts the rows a native copy of it counts.
//  - The input's bytes, read as a schema object's SQL, go through the scan of
//    parquet_copy's schema guard (ext/common/schema_text.h).
// Any violation aborts with a description on stderr.
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "ext/common/schema_text.h"
#include "format/values/logical_values.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int sqlite3_parquet_init(sqlite3* db, char** error_message, const sqlite3_api_routines* api);

namespace {

namespace fs = std::filesystem;
using parquet_fuzz::ByteSource;

// ---- values ----

struct Value {
  int cls = SQLITE_NULL;
  int64_t integer = 0;
  double real = 0;
  std::string bytes;  // TEXT or BLOB
};

bool SameValue(const Value& a, const Value& b) {
  if (a.cls != b.cls) return false;
  switch (a.cls) {
    case SQLITE_INTEGER: return a.integer == b.integer;
    case SQLITE_FLOAT: return std::memcmp(&a.real, &b.real, sizeof(double)) == 0;
    case SQLITE_TEXT:
    case SQLITE_BLOB: return a.bytes == b.bytes;
    default: return true;
  }
}

std::string Show(const Value& v) {
  char buffer[64];
  switch (v.cls) {
    case SQLITE_INTEGER: return "INTEGER " + std::to_string(v.integer);
    case SQLITE_FLOAT:
      std::snprintf(buffer, sizeof(buffer), "REAL %.17g", v.real);
      return buffer;
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      std::string out = v.cls == SQLITE_TEXT ? "TEXT '" : "BLOB x'";
      for (size_t i = 0; i < v.bytes.size() && i < 80; i++) {
        unsigned char c = static_cast<unsigned char>(v.bytes[i]);
        if (v.cls == SQLITE_TEXT && c >= 0x20 && c < 0x7f) {
          out += static_cast<char>(c);
        } else {
          std::snprintf(buffer, sizeof(buffer), v.cls == SQLITE_TEXT ? "\\x%02x" : "%02x", c);
          out += buffer;
        }
      }
      if (v.bytes.size() > 80) out += "...";
      return out + "' (" + std::to_string(v.bytes.size()) + " bytes)";
    }
    default: return "NULL";
  }
}

Value ColumnValue(sqlite3_stmt* stmt, int i) {
  Value v;
  v.cls = sqlite3_column_type(stmt, i);
  if (v.cls == SQLITE_INTEGER) v.integer = sqlite3_column_int64(stmt, i);
  if (v.cls == SQLITE_FLOAT) v.real = sqlite3_column_double(stmt, i);
  if (v.cls == SQLITE_TEXT || v.cls == SQLITE_BLOB) {
    const void* data = v.cls == SQLITE_TEXT ? static_cast<const void*>(sqlite3_column_text(stmt, i)) : sqlite3_column_blob(stmt, i);
    int size = sqlite3_column_bytes(stmt, i);
    if (data && size > 0) v.bytes.assign(static_cast<const char*>(data), static_cast<size_t>(size));
  }
  return v;
}

Value Integer(int64_t i) {
  Value v;
  v.cls = SQLITE_INTEGER;
  v.integer = i;
  return v;
}
Value Real(double d) {
  Value v;
  if (std::isnan(d)) return v;  // SQLite has no NaN: it is NULL
  v.cls = SQLITE_FLOAT;
  v.real = d;
  return v;
}
Value Bytes(int cls, std::string bytes) {
  Value v;
  v.cls = cls;
  v.bytes = std::move(bytes);
  return v;
}

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_copy check failed: %s\n", what.c_str());
  std::abort();
}

// ---- the type model ----

enum class Kind {
  kBoolean, kInt8, kInt16, kInt32, kInt64, kUInt8, kUInt16, kUInt32, kUInt64, kFloat, kDouble, kFloat16,
  kString, kEnum, kJson, kBinary, kFixed, kUuid,
  // Kinds without an exact value model here (checked by the second copy instead).
  kDecimal, kDate, kTime, kTimestamp, kNested,
  kUnknown,
};

bool HasExactModel(Kind k) { return k < Kind::kDecimal; }

const char* KindName(Kind k) {
  static const char* const kNames[] = {"BOOLEAN", "INT8",   "INT16",  "INT32",   "INT64", "UINT8",  "UINT16",
                                       "UINT32",  "UINT64", "FLOAT",  "DOUBLE",  "FLOAT16", "STRING", "ENUM",
                                       "JSON",    "BINARY", "FIXED",  "UUID",    "DECIMAL", "DATE",   "TIME",
                                       "TIMESTAMP", "nested", "unknown"};
  return kNames[static_cast<int>(k)];
}

// INTEGER, or REAL with an integral value, within [min, max].
bool Integral(const Value& v, int64_t min, int64_t max, int64_t* out) {
  if (v.cls == SQLITE_INTEGER) {
    if (v.integer < min || v.integer > max) return false;
    *out = v.integer;
    return true;
  }
  if (v.cls == SQLITE_FLOAT) {
    double d = v.real;
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || std::trunc(d) != d) return false;
    int64_t i = static_cast<int64_t>(d);
    if (i < min || i > max) return false;
    *out = i;
    return true;
  }
  return false;
}

bool Numeric(const Value& v, double* out) {
  if (v.cls == SQLITE_INTEGER) *out = static_cast<double>(v.integer);
  else if (v.cls == SQLITE_FLOAT) *out = v.real;
  else return false;
  return true;
}

// The documented text of a number in a STRING or BINARY column: integers in decimal, REALs
// in the shortest form that reads back the same, with ".0" when it would look integral.
std::string NumberText(const Value& v) {
  if (v.cls == SQLITE_INTEGER) return std::to_string(v.integer);
  if (std::isinf(v.real)) return v.real < 0 ? "-Inf" : "Inf";
  char digits[64];
  auto result = std::to_chars(digits, digits + sizeof(digits), v.real);
  std::string text(digits, result.ptr);
  if (text.find('.') == std::string::npos) {
    size_t exponent = text.find('e');
    text.insert(exponent == std::string::npos ? text.size() : exponent, ".0");
  }
  return text;
}

bool ValidUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int extra = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (extra < 0) return false;
    uint32_t code = extra == 0 ? c : extra == 1 ? (c & 0x1Fu) : extra == 2 ? (c & 0x0Fu) : (c & 0x07u);
    for (int k = 1; k <= extra; k++) {
      if (i + static_cast<size_t>(k) >= s.size()) return false;
      unsigned char next = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3Fu);
    }
    static const uint32_t kMinimum[] = {0, 0x80, 0x800, 0x10000};
    if (code < kMinimum[extra] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return false;
    i += static_cast<size_t>(extra) + 1;
  }
  return true;
}

// What the parquet table reads back for source value v written to a column of kind k
// (fixed_length: FIXED's n). False when the column rejects v. Only for HasExactModel(k);
// v is not NULL.
bool Expected(Kind k, int fixed_length, const Value& v, Value* out) {
  int64_t i = 0;
  double d = 0;
  switch (k) {
    case Kind::kBoolean: if (!Integral(v, 0, 1, &i)) return false; *out = Integer(i); return true;
    case Kind::kInt8: if (!Integral(v, -128, 127, &i)) return false; *out = Integer(i); return true;
    case Kind::kInt16: if (!Integral(v, -32768, 32767, &i)) return false; *out = Integer(i); return true;
    case Kind::kInt32: if (!Integral(v, INT32_MIN, INT32_MAX, &i)) return false; *out = Integer(i); return true;
    case Kind::kInt64: if (!Integral(v, INT64_MIN, INT64_MAX, &i)) return false; *out = Integer(i); return true;
    case Kind::kUInt8: if (!Integral(v, 0, 255, &i)) return false; *out = Integer(i); return true;
    case Kind::kUInt16: if (!Integral(v, 0, 65535, &i)) return false; *out = Integer(i); return true;
    case Kind::kUInt32: if (!Integral(v, 0, 4294967295LL, &i)) return false; *out = Integer(i); return true;
    case Kind::kUInt64: {
      uint64_t u = 0;
      if (v.cls == SQLITE_INTEGER) {
        if (v.integer < 0) return false;
        u = static_cast<uint64_t>(v.integer);
      } else if (v.cls == SQLITE_FLOAT) {
        if (v.real == 18446744073709551616.0) {
          u = UINT64_MAX;
        } else {
          if (!(v.real >= 0 && v.real < 18446744073709551616.0) || std::trunc(v.real) != v.real) return false;
          u = static_cast<uint64_t>(v.real);
        }
      } else {
        return false;
      }
      // Read back: INTEGER up to 2^63-1, REAL above.
      *out = u <= static_cast<uint64_t>(INT64_MAX) ? Integer(static_cast<int64_t>(u)) : Real(static_cast<double>(u));
      return true;
    }
    case Kind::kFloat: {
      if (!Numeric(v, &d)) return false;
      float f = static_cast<float>(d);
      if (std::isinf(f) && !std::isinf(d)) return false;
      *out = Real(static_cast<double>(f));
      return true;
    }
    case Kind::kDouble: if (!Numeric(v, &d)) return false; *out = Real(d); return true;
    case Kind::kFloat16: {
      if (!Numeric(v, &d)) return false;
      uint16_t half = parquet::DoubleToHalf(d);
      if ((half & 0x7fff) == 0x7c00 && !std::isinf(d)) return false;
      *out = Real(parquet::HalfToDouble(half));
      return true;
    }
    case Kind::kString: case Kind::kEnum: case Kind::kJson:
      if (v.cls == SQLITE_TEXT || (v.cls == SQLITE_BLOB && ValidUtf8(v.bytes))) *out = Bytes(SQLITE_TEXT, v.bytes);
      else if (v.cls == SQLITE_BLOB) return false;
      else *out = Bytes(SQLITE_TEXT, NumberText(v));
      return true;
    case Kind::kBinary:
      *out = Bytes(SQLITE_BLOB, v.cls == SQLITE_TEXT || v.cls == SQLITE_BLOB ? v.bytes : NumberText(v));
      return true;
    case Kind::kFixed:
      if ((v.cls != SQLITE_TEXT && v.cls != SQLITE_BLOB) || v.bytes.size() != static_cast<size_t>(fixed_length)) return false;
      *out = Bytes(SQLITE_BLOB, v.bytes);
      return true;
    case Kind::kUuid: {
      std::string raw;
      if (v.cls == SQLITE_BLOB) {
        if (v.bytes.size() != 16) return false;
        raw = v.bytes;
      } else if (v.cls == SQLITE_TEXT) {
        const std::string& t = v.bytes;
        bool dashed = t.size() == 36;
        if (!dashed && t.size() != 32) return false;
        std::string hex;
        for (size_t p = 0; p < t.size(); p++) {
          if (dashed && (p == 8 || p == 13 || p == 18 || p == 23)) {
            if (t[p] != '-') return false;
            continue;
          }
          if (!std::isxdigit(static_cast<unsigned char>(t[p]))) return false;
          hex += t[p];
        }
        for (size_t p = 0; p < 32; p += 2) raw += static_cast<char>(std::stoi(hex.substr(p, 2), nullptr, 16));
      } else {
        return false;
      }
      std::string text;
      char buffer[4];
      for (size_t p = 0; p < 16; p++) {
        if (p == 4 || p == 6 || p == 8 || p == 10) text += '-';
        std::snprintf(buffer, sizeof(buffer), "%02x", static_cast<unsigned char>(raw[p]));
        text += buffer;
      }
      *out = Bytes(SQLITE_TEXT, text);
      return true;
    }
    default: return false;
  }
}

bool Query(sqlite3* db, const std::string& sql, std::vector<std::vector<Value>>* rows, std::string* error);

enum Verdict { kUnknown, kAccepted, kRejected };

// A LIST, MAP or STRUCT value that is JSON null, which docs/parquet-copy.md says is NULL.
bool IsJsonNull(const Value& v) {
  if (v.cls != SQLITE_TEXT && v.cls != SQLITE_BLOB) return false;
  size_t begin = v.bytes.find_first_not_of(" \t\n\r"), end = v.bytes.find_last_not_of(" \t\n\r");
  return begin != std::string::npos && v.bytes.compare(begin, end - begin + 1, "null") == 0;
}

// Part of the model for DECIMAL, DATE, TIME and TIMESTAMP: INTEGER values, read back with
// decimal_as=text, against SQLite's own date functions. DECIMAL(p,s): the integer with s
// zero fraction digits when it has at most p-s digits. DATE: Unix seconds at a midnight
// as date(v, 'unixepoch'). TIMESTAMP (any unit, within the NANOS range): Unix seconds as
// datetime(v, 'unixepoch'). TIME: seconds within the day as time(v, 'unixepoch').
int IntegerTemporalOrDecimal(sqlite3* db, Kind kind, const std::string& logical, const Value& v, Value* out) {
  if (v.cls != SQLITE_INTEGER || logical.empty()) return kUnknown;
  const int64_t i = v.integer;
  if (kind == Kind::kDecimal) {
    int scale = 0, precision = 0;
    if (std::sscanf(logical.c_str(), "DecimalType(scale=%d, precision=%d)", &scale, &precision) != 2) return kUnknown;
    std::string digits = std::to_string(i);
    bool negative = digits[0] == '-';
    if (negative) digits.erase(0, 1);
    size_t significant = digits == "0" ? 0 : digits.size();
    if (static_cast<int>(significant) + scale > precision) return kRejected;
    std::string text = (negative ? "-" : "") + digits;
    if (scale > 0) text += "." + std::string(static_cast<size_t>(scale), '0');
    *out = Bytes(SQLITE_TEXT, text);
    return kAccepted;
  }
  const char* function = nullptr;
  if (kind == Kind::kDate) {
    if (i % 86400 != 0) return kRejected;
    function = "date";
  } else if (kind == Kind::kTimestamp) {
    if (i <= -9000000000LL || i >= 9000000000LL) return kUnknown;
    function = "datetime";
  } else if (kind == Kind::kTime) {
    if (i < 0 || i >= 86400) return kUnknown;
    function = "time";
  } else {
    return kUnknown;
  }
  std::vector<std::vector<Value>> rows;
  std::string error;
  if (!Query(db, std::string("SELECT ") + function + "(" + std::to_string(i) + ", 'unixepoch')", &rows, &error)) Fail(error);
  if (rows[0][0].cls != SQLITE_TEXT) return kUnknown;  // beyond SQLite's years 0000..9999
  *out = rows[0][0];
  return kAccepted;
}

// The kind of a top-level field from parquet_schema's type and logical_type.
Kind KindOf(const Value& type, const Value& logical) {
  if (type.cls == SQLITE_NULL) return Kind::kNested;
  const std::string& t = type.bytes;
  const std::string l = logical.cls == SQLITE_TEXT ? logical.bytes : "";
  if (l.rfind("IntType(bitWidth=", 0) == 0) {
    bool is_signed = l.find("isSigned=1") != std::string::npos;
    if (l.find("=8,") != std::string::npos) return is_signed ? Kind::kInt8 : Kind::kUInt8;
    if (l.find("=16,") != std::string::npos) return is_signed ? Kind::kInt16 : Kind::kUInt16;
    if (l.find("=32,") != std::string::npos) return is_signed ? Kind::kInt32 : Kind::kUInt32;
    if (l.find("=64,") != std::string::npos) return is_signed ? Kind::kInt64 : Kind::kUInt64;
    return Kind::kUnknown;
  }
  if (l == "StringType()") return Kind::kString;
  if (l == "EnumType()") return Kind::kEnum;
  if (l == "JsonType()") return Kind::kJson;
  if (l == "UUIDType()") return Kind::kUuid;
  if (l == "Float16Type()") return Kind::kFloat16;
  if (l.rfind("DecimalType(", 0) == 0) return Kind::kDecimal;
  if (l == "DateType()") return Kind::kDate;
  if (l.rfind("TimeType(", 0) == 0) return Kind::kTime;
  if (l.rfind("TimestampType(", 0) == 0) return Kind::kTimestamp;
  if (!l.empty()) return Kind::kUnknown;
  if (t == "BOOLEAN") return Kind::kBoolean;
  if (t == "INT32") return Kind::kInt32;
  if (t == "INT64") return Kind::kInt64;
  if (t == "FLOAT") return Kind::kFloat;
  if (t == "DOUBLE") return Kind::kDouble;
  if (t == "BYTE_ARRAY") return Kind::kBinary;
  if (t == "FIXED_LEN_BYTE_ARRAY") return Kind::kFixed;
  return Kind::kUnknown;
}

// ---- the table the input describes ----

// Declared types with the kind docs/parquet-copy.md's table gives them (kUnknown: typed by values).
struct Declared {
  const char* decl;
  Kind kind;
};
const Declared kDeclared[] = {
    {"", Kind::kUnknown},          {"NUMERIC", Kind::kUnknown},     {"ANY", Kind::kUnknown},
    {"DECIMAL", Kind::kUnknown},   {"INTEGER", Kind::kInt64},       {"BIGINT", Kind::kInt64},
    {"TEXT", Kind::kString},       {"VARCHAR(10)", Kind::kString},  {"CLOB", Kind::kString},
    {"BLOB", Kind::kBinary},       {"REAL", Kind::kDouble},         {"FLOAT", Kind::kDouble},
    {"DOUBLE PRECISION", Kind::kDouble}, {"BOOLEAN", Kind::kBoolean}, {"BOOL", Kind::kBoolean},
    {"DATE", Kind::kDate},         {"DATETIME", Kind::kTimestamp},  {"TIMESTAMP", Kind::kTimestamp},
    {"TIMESTAMPTZ", Kind::kTimestamp}, {"TIME", Kind::kTime},       {"DECIMAL(10,2)", Kind::kDecimal},
    {"NUMERIC(30,5)", Kind::kDecimal}, {"JSON", Kind::kJson},       {"UUID", Kind::kUuid},
    {"INTEGER UINT8", Kind::kUInt8}, {"INTEGER UINT64", Kind::kUInt64}, {"INTEGER BOOLEAN", Kind::kBoolean},
    {"REAL FLOAT", Kind::kFloat},  {"REAL FLOAT16", Kind::kFloat16}, {"TEXT ENUM", Kind::kEnum},
    {"TEXT UUID", Kind::kUuid},    {"TEXT DATE", Kind::kDate},      {"TEXT TIMESTAMP_MILLIS", Kind::kTimestamp},
    {"REAL DECIMAL(12,3)", Kind::kDecimal}, {"TEXT JSON", Kind::kJson}, {"BLOB BSON", Kind::kBinary},
};

// Types for schema=, with their kind.
struct SchemaType {
  const char* text;
  Kind kind;
  int fixed_length;
};
const SchemaType kSchemaTypes[] = {
    {"INT8", Kind::kInt8, 0}, {"INT16", Kind::kInt16, 0}, {"INT32", Kind::kInt32, 0}, {"INT64", Kind::kInt64, 0},
    {"UINT8", Kind::kUInt8, 0}, {"UINT16", Kind::kUInt16, 0}, {"UINT32", Kind::kUInt32, 0},
    {"UINT64", Kind::kUInt64, 0}, {"FLOAT", Kind::kFloat, 0}, {"DOUBLE", Kind::kDouble, 0},
    {"FLOAT16", Kind::kFloat16, 0}, {"BOOLEAN", Kind::kBoolean, 0}, {"STRING", Kind::kString, 0},
    {"BINARY", Kind::kBinary, 0}, {"FIXED(2)", Kind::kFixed, 2}, {"FIXED(16)", Kind::kFixed, 16},
    {"DECIMAL(9,2)", Kind::kDecimal, 0}, {"DECIMAL(18,0)", Kind::kDecimal, 0}, {"DECIMAL(38,10)", Kind::kDecimal, 0},
    {"DECIMAL(76,3)", Kind::kDecimal, 0}, {"DECIMAL(4)", Kind::kDecimal, 0}, {"DATE", Kind::kDate, 0},
    {"TIME", Kind::kTime, 0}, {"TIME(MILLIS)", Kind::kTime, 0}, {"TIME(NANOS, UTC)", Kind::kTime, 0},
    {"TIMESTAMP", Kind::kTimestamp, 0}, {"TIMESTAMP(MILLIS, UTC)", Kind::kTimestamp, 0},
    {"TIMESTAMP(NANOS)", Kind::kTimestamp, 0}, {"UUID", Kind::kUuid, 0}, {"JSON", Kind::kJson, 0},
    {"ENUM", Kind::kEnum, 0}, {"LIST<INT32>", Kind::kNested, 0}, {"LIST<STRING>", Kind::kNested, 0},
    {"LIST<LIST<DOUBLE>>", Kind::kNested, 0}, {"MAP<STRING, INT64>", Kind::kNested, 0},
    {"MAP<INT32, LIST<BINARY>>", Kind::kNested, 0}, {"STRUCT<a INT64, b STRING>", Kind::kNested, 0},
    {"STRUCT<x DOUBLE, y LIST<STRUCT<k DATE, v JSON>>>", Kind::kNested, 0},
    {"LIST<DECIMAL(20,4)>", Kind::kNested, 0}, {"MAP<DATE, TIMESTAMP(MILLIS)>", Kind::kNested, 0},
    {"LIST<UUID>", Kind::kNested, 0}, {"STRUCT<f FLOAT16, u UINT64, e ENUM>", Kind::kNested, 0},
};

struct Column {
  std::string name;    // as in the table
  std::string quoted;  // as options name it
  std::string decl;
  Kind declared_kind = Kind::kUnknown;  // from decl; kUnknown: typed by values
  const SchemaType* schema = nullptr;   // from schema=
};

const char* const kTexts[] = {
    "", "0", "1", "-1", "1.5", "1e400", "abc", "NaN", "2024-01-31", "2024-01-31 12:00:00",
    "2024-01-31T12:00:00.5Z", "2024-02-30", "12:30", "23:59:59.999999999", "1970-01-01 00:00:00+01:00",
    "123.4500", "-0.001", "99999999999999999999.99", "1.005", "00112233-4455-6677-8899-aabbccddeeff",
    "00112233445566778899AABBCCDDEEFF", "[1,2,null]", "[]", "{}", "{\"a\":1,\"b\":\"x\"}",
    "[{\"key\":1,\"value\":[\"eA==\"]}]", "{\"x\":1.5,\"y\":[{\"k\":\"2024-01-01\",\"v\":{\"z\":[1]}}]}",
    "[[1.5],[],null]", "{\"f\":1.5,\"u\":18446744073709551615,\"e\":\"E\"}", "null", "true", "[\"a\",\"\\u0000\"]",
    "\xc3\xa9t\xc3\xa9", "\xff\xfe", "\xed\xa0\x80", "__HIVE_DEFAULT_PARTITION__", "a/b=c%", "9223372036854775808",
};

// Random JSON (for the nested types): arrays, objects with a few known keys, scalars.
void JsonValue(ByteSource& in, int depth, std::string* out) {
  static const char* const kKeys[] = {"a", "b", "x", "y", "k", "v", "key", "value", "f", "u", "e", "A"};
  static const char* const kScalars[] = {"null", "true", "false", "0", "-7", "1.5", "1e308", "2e400", "\"s\"",
                                         "\"2024-01-31\"", "\"12:00:00\"", "\"\\u00e9\\n\"", "18446744073709551615",
                                         "-9223372036854775809", "\"00112233-4455-6677-8899-aabbccddeeff\"", "0.0001"};
  uint8_t b = in.Byte();
  int kind = depth >= 3 ? 2 : b % 4;
  if (kind == 0) {
    *out += '[';
    int n = static_cast<int>(in.Below(4));
    for (int i = 0; i < n; i++) {
      if (i) *out += ',';
      JsonValue(in, depth + 1, out);
    }
    *out += ']';
  } else if (kind == 1) {
    *out += '{';
    int n = static_cast<int>(in.Below(4));
    for (int i = 0; i < n; i++) {
      if (i) *out += ',';
      *out += '"';
      *out += kKeys[in.Below(sizeof(kKeys) / sizeof(kKeys[0]))];
      *out += "\":";
      JsonValue(in, depth + 1, out);
    }
    *out += '}';
  } else {
    *out += kScalars[in.Below(sizeof(kScalars) / sizeof(kScalars[0]))];
  }
}

// One value. `modes`: bit m allows mode m (all when 0).
Value MakeValue(ByteSource& in, uint16_t modes) {
  constexpr int kModes = 13;
  int allowed[kModes];
  int count = 0;
  for (int m = 0; m < kModes; m++) {
    if (modes == 0 || (modes & (1u << m))) allowed[count++] = m;
  }
  if (count == 0) {  // only bits past the last mode: every mode
    for (int m = 0; m < kModes; m++) allowed[count++] = m;
  }
  int mode = allowed[in.Below(static_cast<uint32_t>(count))];
  switch (mode) {
    case 0: return Value();
    case 1: return Integer(static_cast<int8_t>(in.Byte()));
    case 2: return Integer(static_cast<int64_t>(in.U64()));
    case 3: {
      static const int64_t kExtremes[] = {INT64_MIN, INT64_MAX, 0, -1, 1, 127, 128, 255, 256, -129, 32767, 65536,
                                          2147483647, 2147483648LL, 4294967295LL, 4294967296LL, 86400, 1706702400};
      return Integer(kExtremes[in.Below(sizeof(kExtremes) / sizeof(kExtremes[0]))]);
    }
    case 4: return Real(static_cast<int8_t>(in.Byte()) / 4.0);
    case 5: {
      uint64_t bits = in.U64();
      double d;
      std::memcpy(&d, &bits, sizeof(d));
      return Real(d);
    }
    case 6: {
      static const double kSpecial[] = {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                                        -0.0, 0.5, 9223372036854775808.0, 18446744073709551616.0, 1e300, 3.5e38, 65504.0,
                                        65520.0, 2460341.5, 4.9e-324, -9223372036854775808.0, 1.0, 0.1, 1e16};
      return Real(kSpecial[in.Below(sizeof(kSpecial) / sizeof(kSpecial[0]))]);
    }
    case 7: return Bytes(SQLITE_TEXT, in.Bytes(24));
    case 8: return Bytes(SQLITE_TEXT, kTexts[in.Below(sizeof(kTexts) / sizeof(kTexts[0]))]);
    case 9: return Bytes(SQLITE_BLOB, in.Bytes(24));
    case 10: {  // a long value: a pattern repeated to 256..4096 bytes
      std::string pattern = in.Bytes(8);
      if (pattern.empty()) pattern = "x";
      size_t length = 256 + 16 * static_cast<size_t>(in.Byte());
      std::string out;
      while (out.size() < length) out += pattern;
      return Bytes(in.Bool() ? SQLITE_TEXT : SQLITE_BLOB, out);
    }
    case 11: {
      std::string json;
      JsonValue(in, 0, &json);
      return Bytes(SQLITE_TEXT, json);
    }
    default: {  // BLOBs of the sizes FIXED(2), FIXED(16) and UUID take, or valid UTF-8
      static const size_t kSizes[] = {2, 16, 0, 3};
      size_t size = kSizes[in.Below(4)];
      std::string out;
      for (size_t i = 0; i < size; i++) out += static_cast<char>(size == 3 ? 'a' + in.Below(26) : in.Byte());
      return Bytes(SQLITE_BLOB, out);
    }
  }
}

// A tiny PRNG whose bytes feed MakeValue for columns generated from a seed.
std::string PseudoRandomBytes(uint64_t seed, size_t count) {
  std::string out(count, '\0');
  uint64_t x = seed | 1;
  for (auto& c : out) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x >> 24);
  }
  return out;
}

// ---- SQL helpers ----

struct Db {
  sqlite3* db = nullptr;
  ~Db() { sqlite3_close(db); }
};

void Exec(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : "?";
    sqlite3_free(error);
    Fail("statement failed: " + sql + ": " + message);
  }
}

// All rows of `sql`; false (with *error) when it fails.
bool Query(sqlite3* db, const std::string& sql, std::vector<std::vector<Value>>* rows, std::string* error) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    *error = sqlite3_errmsg(db);
    return false;
  }
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    std::vector<Value> row;
    for (int i = 0; i < sqlite3_column_count(stmt); i++) row.push_back(ColumnValue(stmt, i));
    rows->push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) *error = sqlite3_errmsg(db);
  sqlite3_finalize(stmt);
  return rc == SQLITE_DONE;
}

std::string SqlString(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// Runs parquet_copy(query, path, options...): the row count, or -1 with *error.
int64_t Copy(sqlite3* db, const std::string& query, const std::string& path, const std::vector<std::string>& options,
             std::string* error) {
  std::string sql = "SELECT parquet_copy(?1, ?2";
  for (size_t i = 0; i < options.size(); i++) sql += ", ?" + std::to_string(i + 3);
  sql += ")";
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) Fail(std::string("prepare: ") + sqlite3_errmsg(db));
  sqlite3_bind_text(stmt, 1, query.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(stmt, 2, path.c_str(), -1, SQLITE_TRANSIENT);
  for (size_t i = 0; i < options.size(); i++) {
    sqlite3_bind_text(stmt, static_cast<int>(i + 3), options[i].data(), static_cast<int>(options[i].size()), SQLITE_TRANSIENT);
  }
  int64_t result = -1;
  int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    if (sqlite3_column_type(stmt, 0) != SQLITE_INTEGER) Fail("parquet_copy returned a non-integer");
    result = sqlite3_column_int64(stmt, 0);
    if (sqlite3_step(stmt) != SQLITE_DONE) Fail("parquet_copy gave more than one row");
  } else {
    *error = sqlite3_errmsg(db);
    if (error->empty() || *error == "not an error") Fail("parquet_copy failed without a message (rc " + std::to_string(rc) + ")");
  }
  sqlite3_finalize(stmt);
  return result;
}

std::vector<std::string> DirectoryEntries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The per-process directory parquet_copy writes into: in /dev/shm where there is one (the
// copy fsyncs its output, which a disk makes slow), else in the temporary directory.
const fs::path& WorkDir() {
  static const fs::path dir = [] {
    std::error_code error;
    fs::path base = fs::is_directory("/dev/shm", error) && access("/dev/shm", W_OK) == 0 ? fs::path("/dev/shm")
                                                                                          : fs::temp_directory_path();
    fs::path d = base / ("fuzz_copy_" + std::to_string(getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
  }();
  static const bool cleanup = [] {
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    });
    return true;
  }();
  (void)cleanup;
  return dir;
}

// A row as one string, for comparing multisets of rows.
std::string RowKey(const std::vector<Value>& row) {
  std::string key;
  for (size_t i = 0; i < row.size(); i++) {
    key += Show(row[i]);
    key += '\x01';
    if (row[i].cls == SQLITE_TEXT || row[i].cls == SQLITE_BLOB) key += row[i].bytes;  // Show shortens
    key += '\x02';
  }
  return key;
}

constexpr const char* kFooterKey = "0123456789012345";
constexpr const char* kColumnKey = "hex:00112233445566778899aabbccddeeff";

// ---- one input ----

void RunInput(ByteSource& in) {
  const fs::path& dir = WorkDir();
  Db db;
  if (sqlite3_open(":memory:", &db.db) != SQLITE_OK) Fail("cannot open a database");

  // Columns.
  const size_t num_columns = 1 + in.Below(5);
  const bool odd_names = in.Below(4) == 0;
  std::vector<Column> columns(num_columns);
  for (size_t c = 0; c < num_columns; c++) {
    Column& col = columns[c];
    col.name = odd_names ? "Col " + std::to_string(c) + (c % 2 ? ",x" : "") : "c" + std::to_string(c);
    col.quoted = odd_names ? "\"" + col.name + "\"" : (c % 2 ? "C" + std::to_string(c) : col.name);
    const Declared& declared = kDeclared[in.Below(sizeof(kDeclared) / sizeof(kDeclared[0]))];
    col.decl = declared.decl;
    col.declared_kind = declared.kind;
    if (in.Below(3) == 0) col.schema = &kSchemaTypes[in.Below(sizeof(kSchemaTypes) / sizeof(kSchemaTypes[0]))];
  }
  std::string create = "CREATE TABLE src(";
  for (size_t c = 0; c < num_columns; c++) {
    if (c) create += ", ";
    create += "\"" + columns[c].name + "\" " + columns[c].decl;
  }
  Exec(db.db, create + ")");

  // Rows: from the input, or (per column) from a PRNG seeded by the input.
  uint8_t rows_byte = in.Byte();
  const size_t num_rows = rows_byte < 192 ? rows_byte % 40 : (rows_byte - 192u) * 5u;
  std::vector<std::string> generated(num_columns);
  std::vector<uint16_t> modes(num_columns);
  for (size_t c = 0; c < num_columns; c++) {
    modes[c] = static_cast<uint16_t>(in.Byte() | (in.Byte() << 8));
    if (in.Bool()) generated[c] = PseudoRandomBytes(in.U64(), num_rows * 24 + 64);
  }
  {
    std::string insert = "INSERT INTO src VALUES(";
    for (size_t c = 0; c < num_columns; c++) insert += c ? ", ?" : "?";
    insert += ")";
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db.db, insert.c_str(), -1, &stmt, nullptr) != SQLITE_OK) Fail("prepare insert");
    std::vector<ByteSource> sources;
    for (size_t c = 0; c < num_columns; c++) {
      sources.emplace_back(reinterpret_cast<const uint8_t*>(generated[c].data()), generated[c].size());
    }
    Exec(db.db, "BEGIN");
    for (size_t r = 0; r < num_rows; r++) {
      for (size_t c = 0; c < num_columns; c++) {
        Value v = MakeValue(generated[c].empty() ? in : sources[c], modes[c]);
        int i = static_cast<int>(c + 1);
        switch (v.cls) {
          case SQLITE_INTEGER: sqlite3_bind_int64(stmt, i, v.integer); break;
          case SQLITE_FLOAT: sqlite3_bind_double(stmt, i, v.real); break;
          case SQLITE_TEXT: sqlite3_bind_text(stmt, i, v.bytes.data(), static_cast<int>(v.bytes.size()), SQLITE_TRANSIENT); break;
          case SQLITE_BLOB: sqlite3_bind_blob(stmt, i, v.bytes.data(), static_cast<int>(v.bytes.size()), SQLITE_TRANSIENT); break;
          default: sqlite3_bind_null(stmt, i); break;
        }
      }
      if (sqlite3_step(stmt) != SQLITE_DONE) Fail(std::string("insert: ") + sqlite3_errmsg(db.db));
      sqlite3_reset(stmt);
    }
    Exec(db.db, "COMMIT");
    sqlite3_finalize(stmt);
  }
  std::vector<std::vector<Value>> source;
  std::string error;
  if (!Query(db.db, "SELECT * FROM src ORDER BY rowid", &source, &error)) Fail("reading src: " + error);

  // Options.
  std::vector<std::string> options;
  bool null_on_error = false;
  int partition_column = -1;
  bool encrypted = false, column_key = false;
  static const char* const kCodecs[] = {"uncompressed", "snappy", "gzip", "brotli", "zstd", "lz4_raw"};
  static const char* const kEncodings[] = {"plain", "dictionary", "delta_binary_packed", "delta_length_byte_array",
                                           "delta_byte_array", "byte_stream_split", "rle"};
  // An option value that starts with a quote is quoted as a whole ('bloom_filter=''"a"''').
  auto list_option = [](const std::string& key, const std::string& value) {
    if (value.empty() || value[0] != '"') return key + "=" + value;
    return key + "=" + SqlString(value);
  };
  const uint32_t flags = in.U32();
  auto flag = [&](int bit) { return (flags & (1u << bit)) != 0; };
  auto column_ref = [&]() -> const Column& { return columns[in.Below(static_cast<uint32_t>(num_columns))]; };
  // What the options say the file holds (checked where its footer is readable).
  std::string file_codec = "snappy";
  std::vector<std::string> column_codecs(num_columns);
  size_t row_group_limit = 0;
  std::string kv_key;
  bool field_ids = false;
  if (flag(0)) {
    uint32_t codec = in.Below(6);
    file_codec = kCodecs[codec];
    options.push_back(std::string("compression=") + kCodecs[codec]);
    if (flag(1)) {
      static const int kLevels[] = {0, 1, 3, 9, 11, -5, 22, 12, -1};
      options.push_back("compression_level=" + std::to_string(kLevels[in.Below(9)]));
    }
  }
  if (flag(2)) {
    const Column& col = column_ref();
    column_codecs[static_cast<size_t>(&col - columns.data())] = kCodecs[in.Below(6)];
    options.push_back("compression." + col.quoted + "=" + column_codecs[static_cast<size_t>(&col - columns.data())]);
    if (in.Bool()) options.push_back("compression_level." + col.quoted + "=" + std::to_string(in.Below(10)));
  }
  if (flag(3)) options.push_back("encoding." + column_ref().quoted + "=" + kEncodings[in.Below(7)]);
  if (flag(4)) options.push_back(std::string("dictionary=") + (in.Bool() ? "1" : "0"));
  if (flag(5)) options.push_back("dictionary_size_limit=" + std::to_string(16 + 32 * in.Below(64)));
  if (flag(6)) options.push_back(std::string("automatic_encoding=") + (in.Bool() ? "1" : "0"));
  if (flag(7)) options.push_back("data_page_version=" + std::to_string(1 + in.Below(2)));
  if (flag(8)) options.push_back("page_size=" + std::to_string(1 + 64 * in.Below(64)));
  if (flag(9)) {
    row_group_limit = 1 + in.Below(100);
    options.push_back("row_group_size=" + std::to_string(row_group_limit));
  }
  if (flag(10)) options.push_back("row_group_bytes=" + std::to_string(1 + 256 * in.Below(64)));
  if (flag(11)) options.push_back(std::string("statistics=") + (in.Bool() ? "1" : "0"));
  if (flag(12)) options.push_back("statistics_truncate_length=" + std::to_string(in.Below(20)));
  if (flag(13)) options.push_back(std::string("write_crc=") + (in.Bool() ? "1" : "0"));
  if (flag(14)) options.push_back(std::string("write_page_index=") + (in.Bool() ? "1" : "0"));
  if (flag(15)) options.push_back(in.Bool() ? std::string("bloom_filter=*") : list_option("bloom_filter", column_ref().quoted));
  if (flag(16)) options.push_back("bloom_fpp=0." + std::to_string(1 + in.Below(99)));
  if (flag(17)) {
    options.push_back(list_option("sorting_columns", column_ref().quoted + (in.Bool() ? " DESC" : "") +
                                                         (in.Bool() ? " NULLS FIRST" : "")));
  }
  if (flag(18)) {
    kv_key = "k" + std::to_string(in.Byte());
    options.push_back("kv_metadata=" + kv_key + "=v;empty=;solo");
  }
  if (flag(19)) {
    field_ids = true;
    options.push_back("field_ids=auto");
  }
  if (flag(20)) {
    null_on_error = true;
    options.push_back("on_type_error=null");
  }
  if (flag(21) && num_columns >= 2) {
    partition_column = static_cast<int>(in.Below(static_cast<uint32_t>(num_columns)));
    options.push_back(list_option("partition_by", columns[static_cast<size_t>(partition_column)].quoted));
  }
  if (flag(22)) {
    encrypted = true;
    options.push_back(in.Bool() ? "encryption=aes_gcm" : "encryption=aes_gcm_ctr");
    options.push_back(std::string("footer_key=") + kFooterKey);
    if (in.Bool()) options.push_back("plaintext_footer=1");
    if (in.Bool() && columns[0].schema == nullptr) {  // a flat column: its leaf path is its name
      column_key = true;
      options.push_back(list_option("column_keys", columns[0].quoted + ":" + kColumnKey));
    }
  }
  std::string schema_option;
  for (const Column& col : columns) {
    if (!col.schema) continue;
    schema_option += schema_option.empty() ? "" : ", ";
    schema_option += col.quoted + " " + col.schema->text;
  }
  if (!schema_option.empty()) options.push_back(list_option("schema", schema_option));
  if (in.Below(8) == 0 && !options.empty()) {  // shuffle one option to the front
    std::swap(options.front(), options[in.Below(static_cast<uint32_t>(options.size()))]);
  }

  // The copy.
  const std::string target = (dir / (partition_column >= 0 ? "out" : "out.parquet")).string();
  // A target that exists already: overwrite=0 must fail and leave it, else it is replaced.
  const bool existing = partition_column < 0 && flag(23);
  const bool keep_existing = existing && flag(24);
  if (existing) {
    FILE* old = std::fopen(target.c_str(), "wb");
    if (!old) Fail("cannot create " + target);
    std::fputs("old", old);
    std::fclose(old);
    if (keep_existing) options.push_back("overwrite=0");
  }
  const std::string query = in.Bool() ? "SELECT * FROM src" : "SELECT * FROM src ORDER BY rowid";
  static const bool verbose = std::getenv("FUZZ_VERBOSE") != nullptr;
  // An interrupt at a point the input picks (a progress handler that stops the statement
  // after so many calls): the copy fails, or finishes first; either way the checks hold.
  struct Interrupt {
    uint32_t calls_left = 0;
  } interrupt;
  if (flag(25)) {
    interrupt.calls_left = 1 + in.Below(256) * 4;
    sqlite3_progress_handler(
        db.db, 100, [](void* state) { return static_cast<Interrupt*>(state)->calls_left-- == 0 ? 1 : 0; }, &interrupt);
  }
  const int64_t count = Copy(db.db, query, target, options, &error);
  sqlite3_progress_handler(db.db, 0, nullptr, nullptr);
  if (verbose) {
    std::fprintf(stderr, "fuzz_copy: %zu columns, %zu rows;", num_columns, num_rows);
    for (const Column& col : columns) std::fprintf(stderr, " [%s %s]", col.name.c_str(), col.decl.c_str());
    for (const auto& o : options) std::fprintf(stderr, " '%s'", o.c_str());
    std::fprintf(stderr, " -> %s\n", count >= 0 ? std::to_string(count).c_str() : error.c_str());
  }
  if (keep_existing && count >= 0) Fail("overwrite=0 replaced an existing file");
  if (count < 0) {
    if (existing) {
      std::vector<std::string> left = DirectoryEntries(dir);
      FILE* old = std::fopen(target.c_str(), "rb");
      char content[8] = {};
      size_t size = old ? std::fread(content, 1, sizeof(content), old) : 0;
      if (old) std::fclose(old);
      if (left.size() != 1 || std::string(content, size) != "old") Fail("a failed copy changed the existing target or left files: " + error);
    } else if (!DirectoryEntries(dir).empty()) {
      Fail("a failed copy left files behind: " + error);
    }
    size_t at = error.find("cannot convert");
    if (at != std::string::npos) {
      if (null_on_error) Fail("conversion error with on_type_error=null: " + error);
      // "column NAME, row N: cannot convert ...": the model must reject that value too.
      for (size_t c = 0; c < num_columns; c++) {
        const std::string prefix = "column " + columns[c].name + ", row ";
        size_t p = error.find(prefix);
        if (p == std::string::npos || p > at) continue;
        size_t row = std::strtoull(error.c_str() + p + prefix.size(), nullptr, 10);
        if (row < 1 || row > source.size()) Fail("conversion error names a row out of range: " + error);
        const Value& v = source[row - 1][c];
        Kind kind = columns[c].schema ? columns[c].schema->kind : columns[c].declared_kind;
        Value ignored;
        if (v.cls == SQLITE_NULL) Fail("conversion error on a NULL: " + error);
        if (kind != Kind::kUnknown && HasExactModel(kind) && Expected(kind, columns[c].schema ? columns[c].schema->fixed_length : 0, v, &ignored)) {
          Fail("copy rejected " + Show(v) + " which " + KindName(kind) + " accepts: " + error);
        }
      }
    }
    return;
  }
  if (static_cast<size_t>(count) != source.size()) {
    Fail("parquet_copy returned " + std::to_string(count) + " for " + std::to_string(source.size()) + " rows");
  }
  std::vector<std::string> entries = DirectoryEntries(dir);
  if (entries.size() != 1 || entries[0] != fs::path(target).filename().string()) {
    std::string names;
    for (const auto& e : entries) names += " " + e;
    Fail("after the copy the directory holds:" + names);
  }

  // The schema: the kind of every stored column.
  std::string keys = std::string(", footer_key=") + kFooterKey + (column_key ? ", column_keys=" + SqlString(columns[0].name + ":" + kColumnKey) : "");
  if (!encrypted) keys.clear();
  const bool empty_tree = partition_column >= 0 && source.empty();
  std::vector<Kind> kinds(num_columns, Kind::kUnknown);
  std::vector<int> fixed_lengths(num_columns, 0);
  std::vector<std::string> logical_types(num_columns);  // parquet_schema's, where readable
  std::vector<std::vector<Value>> back;
  if (empty_tree) {
    if (!DirectoryEntries(target).empty()) Fail("a partitioned copy without rows made files");
  } else {
    Exec(db.db, "CREATE VIRTUAL TABLE temp.r USING parquet(" + SqlString(target) +
                    ", decimal_as=text, hive_partitioning=0" + keys + ")");
    if (!Query(db.db, "SELECT * FROM temp.r", &back, &error)) Fail("reading the copy back failed: " + error);
    std::vector<std::vector<Value>> info;
    if (!Query(db.db, "SELECT name, type FROM pragma_table_info('r', 'temp')", &info, &error)) Fail(error);
    size_t stored = 0;
    for (size_t c = 0; c < num_columns; c++) {
      if (static_cast<int>(c) == partition_column) continue;
      if (stored >= info.size()) Fail("the copy has fewer columns than the source");
      if (info[stored][0].bytes != columns[c].name) Fail("column " + columns[c].name + " was stored as " + Show(info[stored][0]));
      stored++;
    }
    if (stored != info.size()) Fail("the copy has more columns than the source");
  }
  // Kinds from parquet_schema (unencrypted or plaintext footers), else from the plan.
  {
    std::vector<std::vector<Value>> schema_rows;
    std::string schema_error;
    std::string file = target;
    if (partition_column >= 0 && !empty_tree) {
      std::vector<std::vector<Value>> names;
      if (!Query(db.db, "SELECT DISTINCT filename FROM temp.r LIMIT 1", &names, &error) || names.empty()) Fail("no filename: " + error);
      file = names[0][0].bytes;
    }
    bool have_schema = !empty_tree &&
                       Query(db.db, "SELECT type, logical_type, type_length FROM parquet_schema(" + SqlString(file) +
                                        ") WHERE sqlite_type IS NOT NULL",
                             &schema_rows, &schema_error);
    size_t stored = 0;
    for (size_t c = 0; c < num_columns; c++) {
      if (static_cast<int>(c) == partition_column) continue;
      const Column& col = columns[c];
      Kind planned = col.schema ? col.schema->kind : col.declared_kind;
      if (have_schema) {
        if (stored >= schema_rows.size()) Fail("parquet_schema lists fewer fields than the copy has");
        kinds[c] = KindOf(schema_rows[stored][0], schema_rows[stored][1]);
        if (schema_rows[stored][2].cls == SQLITE_INTEGER) fixed_lengths[c] = static_cast<int>(schema_rows[stored][2].integer);
        if (schema_rows[stored][1].cls == SQLITE_TEXT) logical_types[c] = schema_rows[stored][1].bytes;
        if (planned != Kind::kUnknown && kinds[c] != planned) {
          Fail("column " + col.name + " (" + col.decl + (col.schema ? std::string(", schema ") + col.schema->text : "") +
               ") was written as " + KindName(kinds[c]) + ", expected " + KindName(planned));
        }
        if (planned == Kind::kUnknown && kinds[c] != Kind::kInt64 && kinds[c] != Kind::kDouble &&
            kinds[c] != Kind::kString && kinds[c] != Kind::kBinary) {
          Fail("column " + col.name + " typed by its values was written as " + KindName(kinds[c]));
        }
      } else {
        kinds[c] = planned;
        fixed_lengths[c] = col.schema ? col.schema->fixed_length : 0;
      }
      stored++;
    }
  }
  if (empty_tree) return;

  // Typed by values: the classes of the first row group decide (not checked with
  // partitions, whose first row group is per partition).
  if (partition_column < 0) {
    std::vector<std::vector<Value>> groups;
    if (Query(db.db, "SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata(" + SqlString(target) +
                         ") ORDER BY row_group_id LIMIT 1", &groups, &error) && !groups.empty()) {
      size_t first = static_cast<size_t>(groups[0][1].integer);
      for (size_t c = 0; c < num_columns; c++) {
        const Column& col = columns[c];
        if (col.schema || col.declared_kind != Kind::kUnknown) continue;
        bool integer = false, real = false, text = false, blob = false;
        for (size_t r = 0; r < first && r < source.size(); r++) {
          int cls = source[r][c].cls;
          integer |= cls == SQLITE_INTEGER;
          real |= cls == SQLITE_FLOAT;
          text |= cls == SQLITE_TEXT;
          blob |= cls == SQLITE_BLOB;
        }
        Kind expected = blob ? Kind::kBinary : text ? Kind::kString : real ? Kind::kDouble : integer ? Kind::kInt64 : Kind::kString;
        if (kinds[c] != expected) {
          Fail("column " + col.name + " typed by the values of its first row group (" + std::to_string(first) +
               " rows) was written as " + KindName(kinds[c]) + ", expected " + KindName(expected));
        }
      }
    }
  }

  // The options' marks on the file: codecs, row group sizes, key/value metadata, field ids.
  std::vector<std::vector<Value>> chunks;
  if (partition_column < 0 && Query(db.db, "SELECT row_group_num_rows, path_in_schema, compression FROM parquet_metadata(" +
                                               SqlString(target) + ")", &chunks, &error)) {
    for (const auto& chunk : chunks) {
      if (row_group_limit && static_cast<size_t>(chunk[0].integer) > row_group_limit) {
        Fail("a row group of " + std::to_string(chunk[0].integer) + " rows with row_group_size=" + std::to_string(row_group_limit));
      }
      std::string top = chunk[1].bytes.substr(0, chunk[1].bytes.find('.'));
      for (size_t c = 0; c < num_columns; c++) {
        if (columns[c].name != top) continue;
        std::string want = column_codecs[c].empty() ? file_codec : column_codecs[c];
        std::string got = chunk[2].bytes;
        std::transform(got.begin(), got.end(), got.begin(), [](char ch) { return static_cast<char>(std::tolower(ch)); });
        if (got != want) Fail("column " + top + " is compressed with " + got + ", expected " + want);
      }
    }
    std::vector<std::vector<Value>> kv;
    if (!Query(db.db, "SELECT key, value FROM parquet_kv_metadata(" + SqlString(target) + ")", &kv, &error)) Fail(error);
    if (!kv_key.empty()) {
      bool found_pair = false, found_empty = false, found_solo = false;
      for (const auto& pair : kv) {
        found_pair |= pair[0].bytes == kv_key && pair[1].cls == SQLITE_TEXT && pair[1].bytes == "v";
        found_empty |= pair[0].bytes == "empty" && pair[1].cls == SQLITE_TEXT && pair[1].bytes.empty();
        found_solo |= pair[0].bytes == "solo" && pair[1].cls == SQLITE_NULL;
      }
      if (!found_pair || !found_empty || !found_solo) Fail("kv_metadata is not in the footer as given");
    }
    std::vector<std::vector<Value>> ids;
    if (!Query(db.db, "SELECT count(*), count(field_id), count(DISTINCT field_id) FROM parquet_schema(" + SqlString(target) + ")",
               &ids, &error)) {
      Fail(error);
    }
    int64_t elements = ids[0][0].integer, with_id = ids[0][1].integer, distinct = ids[0][2].integer;
    if (field_ids ? (with_id != elements - 1 || distinct != with_id) : with_id != 0) {
      Fail("field ids: " + std::to_string(with_id) + " of " + std::to_string(elements) + " schema elements have one (" +
           std::to_string(distinct) + " distinct), field_ids=" + (field_ids ? "auto" : "none"));
    }
  }

  // The values.
  if (back.size() != source.size()) {
    Fail("read back " + std::to_string(back.size()) + " rows of " + std::to_string(source.size()));
  }
  const size_t skip = partition_column >= 0 ? static_cast<size_t>(partition_column) : num_columns;
  std::vector<std::vector<Value>> expected_rows;
  for (size_t r = 0; r < source.size(); r++) {
    std::vector<Value> expected_row;
    for (size_t c = 0; c < num_columns; c++) {
      if (c == skip) continue;
      const Value& v = source[r][c];
      Value expected;  // NULL
      bool known = v.cls == SQLITE_NULL || HasExactModel(kinds[c]);
      if (v.cls != SQLITE_NULL && known) {
        if (!Expected(kinds[c], fixed_lengths[c], v, &expected)) {
          if (!null_on_error) {
            Fail("row " + std::to_string(r + 1) + " column " + columns[c].name + ": " + KindName(kinds[c]) + " accepted " + Show(v) +
                 ", which the model rejects");
          }
          expected = Value();
        }
      }
      if (!known && kinds[c] == Kind::kNested && IsJsonNull(v)) {
        known = true;  // NULL
      }
      if (!known) {
        int verdict = IntegerTemporalOrDecimal(db.db, kinds[c], logical_types[c], v, &expected);
        if (verdict == kRejected) {
          if (!null_on_error) {
            Fail("row " + std::to_string(r + 1) + " column " + columns[c].name + ": " + KindName(kinds[c]) + " accepted " + Show(v) +
                 ", which the model rejects");
          }
          expected = Value();
        } else if (verdict == kUnknown) {
          expected = v;  // compared for NULL-ness only
          expected.cls = -1;
        }
      }
      expected_row.push_back(expected);
    }
    expected_rows.push_back(std::move(expected_row));
  }
  auto matches = [&](const Value& expected, const Value& got) {
    if (expected.cls == -1) return got.cls != SQLITE_NULL || null_on_error;
    return SameValue(expected, got);
  };
  if (partition_column < 0) {
    for (size_t r = 0; r < source.size(); r++) {
      for (size_t k = 0; k < expected_rows[r].size(); k++) {
        if (!matches(expected_rows[r][k], back[r][k])) {
          Fail("row " + std::to_string(r + 1) + " column " + columns[k].name + " (" + KindName(kinds[k]) + "): source " +
               Show(source[r][k]) + ", expected " + (expected_rows[r][k].cls == -1 ? "non-NULL" : Show(expected_rows[r][k])) +
               ", read back " + Show(back[r][k]));
        }
      }
    }
  } else {
    // Multisets of the exact-model columns (the others: count of NULLs).
    std::vector<std::string> want, got;
    for (size_t r = 0; r < source.size(); r++) {
      std::vector<Value> e = expected_rows[r], g = back[r];
      for (size_t k = 0; k < e.size(); k++) {
        if (HasExactModel(kinds[k < skip ? k : k + 1])) continue;
        // Without a value model: NULL or not (with on_type_error=null not even that).
        const Value& v = source[r][k < skip ? k : k + 1];
        bool source_null = v.cls == SQLITE_NULL || (kinds[k < skip ? k : k + 1] == Kind::kNested && IsJsonNull(v));
        e[k] = null_on_error ? Value() : source_null ? Value() : Integer(1);
        g[k] = null_on_error ? Value() : g[k].cls == SQLITE_NULL ? Value() : Integer(1);
      }
      want.push_back(RowKey(e));
      got.push_back(RowKey(g));
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (want != got) {
      for (size_t i = 0; i < want.size(); i++) {
        if (want[i] != got[i]) Fail("the partitioned tree holds other rows than the source: expected " + want[i] + ", got " + got[i]);
      }
    }
  }

  // Constraint pushdown over this file (statistics, page index, bloom filters written with
  // these options): WHERE on the parquet table counts what it counts on a native copy.
  if (partition_column < 0 && !back.empty()) {
    Exec(db.db, "CREATE TEMP TABLE native AS SELECT * FROM temp.r");
    static const char* const kOperators[] = {"=", "<", ">=", "!=", "IS", ">"};
    const int probes = static_cast<int>(in.Below(4));
    for (int p = 0; p < probes; p++) {
      size_t k = in.Below(static_cast<uint32_t>(num_columns));
      const Value& probe = back[in.Below(256) % back.size()][k];
      const char* op = kOperators[in.Below(6)];
      int64_t counts[2] = {-1, -1};
      for (int t = 0; t < 2; t++) {
        std::string sql = std::string("SELECT count(*) FROM ") + (t ? "temp.native" : "temp.r") + " WHERE \"" + columns[k].name +
                          "\" " + op + " ?1";
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db.db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) Fail(sql + ": " + sqlite3_errmsg(db.db));
        switch (probe.cls) {
          case SQLITE_INTEGER: sqlite3_bind_int64(stmt, 1, probe.integer); break;
          case SQLITE_FLOAT: sqlite3_bind_double(stmt, 1, probe.real); break;
          case SQLITE_TEXT: sqlite3_bind_text(stmt, 1, probe.bytes.data(), static_cast<int>(probe.bytes.size()), SQLITE_TRANSIENT); break;
          case SQLITE_BLOB: sqlite3_bind_blob(stmt, 1, probe.bytes.data(), static_cast<int>(probe.bytes.size()), SQLITE_TRANSIENT); break;
          default: break;
        }
        if (sqlite3_step(stmt) != SQLITE_ROW) Fail(sql + ": " + sqlite3_errmsg(db.db));
        counts[t] = sqlite3_column_int64(stmt, 0);
        sqlite3_finalize(stmt);
      }
      if (counts[0] != counts[1]) {
        Fail("WHERE " + columns[k].name + " " + op + " " + Show(probe) + " (" + KindName(kinds[k]) + "): the parquet table counts " +
             std::to_string(counts[0]) + " rows, a native copy " + std::to_string(counts[1]));
      }
    }
    Exec(db.db, "DROP TABLE temp.native");
  }

  // Second copy of what was read back: same types and values (nested columns by schema=).
  bool complex = false;
  for (size_t c = 0; c < num_columns; c++) complex |= c != skip && !HasExactModel(kinds[c]);
  if (partition_column < 0 && (complex || in.Below(4) == 0)) {
    std::vector<std::string> again;
    std::string nested;
    for (size_t c = 0; c < num_columns; c++) {
      if (kinds[c] != Kind::kNested || !columns[c].schema) continue;
      nested += nested.empty() ? "" : ", ";
      nested += columns[c].quoted + " " + columns[c].schema->text;
    }
    if (!nested.empty()) again.push_back(list_option("schema", nested));
    const std::string target2 = (dir / "again.parquet").string();
    if (Copy(db.db, "SELECT * FROM temp.r", target2, again, &error) != static_cast<int64_t>(source.size())) {
      Fail("copying the copy failed: " + error);
    }
    std::vector<std::vector<Value>> types1, types2, back2;
    if (!Query(db.db, "SELECT name, type, logical_type, type_length FROM parquet_schema(" + SqlString(target2) + ")", &types2, &error)) {
      Fail(error);
    }
    {
      // Readable only when the first copy's footer is (not encrypted, or plaintext).
      std::string first_schema_error;
      if (Query(db.db, "SELECT name, type, logical_type, type_length FROM parquet_schema(" + SqlString(target) + ")", &types1,
                &first_schema_error)) {
        if (types1.size() != types2.size()) Fail("the second copy has another schema");
        for (size_t i = 1; i < types1.size(); i++) {
          // The parquet table declares signed integers of every width INTEGER, and FIXED
          // without annotation BLOB: copied again they are INT64 and BINARY (docs/type-mapping.md).
          Kind kind1 = KindOf(types1[i][1], types1[i][2]), kind2 = KindOf(types2[i][1], types2[i][2]);
          if ((kind1 == Kind::kInt8 || kind1 == Kind::kInt16 || kind1 == Kind::kInt32) && kind2 == Kind::kInt64) continue;
          if (kind1 == Kind::kFixed && kind2 == Kind::kBinary) continue;
          // Nor does the declared type of TIME and TIMESTAMP say whether they are
          // UTC-adjusted: copied again they are local (isAdjustedToUTC=0).
          if ((kind1 == Kind::kTime || kind1 == Kind::kTimestamp) && kind2 == kind1 && types1[i][2].cls == SQLITE_TEXT &&
              types2[i][2].cls == SQLITE_TEXT) {
            std::string local = types1[i][2].bytes;
            size_t utc = local.find("isAdjustedToUTC=1");
            if (utc != std::string::npos) local[utc + 16] = '0';
            if (local == types2[i][2].bytes) continue;
          }
          for (size_t k = 0; k < 4; k++) {
            if (!SameValue(types1[i][k], types2[i][k])) {
              Fail("the second copy stores " + Show(types1[i][0]) + " as " + Show(types2[i][k]) + " instead of " + Show(types1[i][k]));
            }
          }
        }
      }
    }
    Exec(db.db, "CREATE VIRTUAL TABLE temp.r2 USING parquet(" + SqlString(target2) + ", decimal_as=text)");
    if (!Query(db.db, "SELECT * FROM temp.r2", &back2, &error)) Fail("reading the second copy failed: " + error);
    if (back2.size() != back.size()) Fail("the second copy has another row count");
    for (size_t r = 0; r < back.size(); r++) {
      for (size_t k = 0; k < back[r].size(); k++) {
        // Binary leaves of nested values read as base64 strings, which a second copy
        // stores as they are (docs/type-mapping.md, "Nested columns"): not a fixed point by design.
        if (columns[k].schema && kinds[k] == Kind::kNested && std::strstr(columns[k].schema->text, "BINARY")) continue;
        if (!SameValue(back[r][k], back2[r][k])) {
          Fail("row " + std::to_string(r + 1) + " column " + columns[k].name + " (" + KindName(kinds[k]) + "): read back " +
               Show(back[r][k]) + ", after a second copy " + Show(back2[r][k]));
        }
      }
    }
    Exec(db.db, "DROP TABLE temp.r2");
    fs::remove(target2);
  }
}

}  // namespace

// parquet_copy's guard scans the schema SQL of database files made by anyone
// (schema_text.h): the input's bytes as such a text. A call found must at least hold the
// name (in any ASCII case) and a '('.
void CheckSchemaTextScan(std::string_view text) {
  if (!sqlite_parquet::CallsFunction(text, "parquet_copy")) return;
  std::string lower(text);
  for (char& c : lower) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  if (lower.find("parquet_copy") == std::string::npos || lower.find('(') == std::string::npos) {
    Fail("CallsFunction found a call of parquet_copy in text without its name or a '('");
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool registered = [] {
    sqlite3_auto_extension(reinterpret_cast<void (*)(void)>(sqlite3_parquet_init));
    return true;
  }();
  (void)registered;
  CheckSchemaTextScan(std::string_view(reinterpret_cast<const char*>(data), size));
  ByteSource in(data, size);
  RunInput(in);
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(WorkDir())) fs::remove_all(entry.path(), ignored);
  return 0;
}
