// Differential soundness test of constraint pushdown: random tables are written as Parquet
// files (several row groups, small pages, with and without page index, bloom filters,
// dictionaries, statistics, truncated statistics, sorted or not, hive-partitioned or not),
// read back as a parquet table `p`, copied into a native SQLite table `n` with the same
// declared types, rowids and file_row_number; then random queries (every pushed operator,
// constants of every storage class, AND/OR/NOT, bound parameters, ORDER BY, LIMIT/OFFSET)
// must give the same rows on both. First, the same in every run: every kind of right-hand
// value against every kind of column (RunComparisonMatrix). Then joins (RunJoins): keys of
// mixed storage classes (integers, reals, numeric and other text, blobs, NULLs) in an
// untyped or typed native table joined to each column, `IN (SELECT ...)`, and the parquet
// table joined to itself, each with the join index and without it (join_index_memory=0),
// against the same joins of the native table. A hive-partitioned table (one or two keys,
// some INTEGER keys spelled several ways: k=01 and k=1) is also read as `hd.hp`, connected
// afresh from a database file before each query, so that its scans list only the
// directories their partition constraints leave (listing_pruning.h): every query and join
// runs on it too.
//
// Then Delta tables written by hand (BuildDeltaTable: a log around parquet_copy's files, with
// statistics, partitions, inline deletion vectors and a removed file) against a native
// table of the rows left: the same random queries and joins, and scans that read no
// column (count(*), bare rowids: files counted from the log).
//
// Then Iceberg v2 tables written by hand (BuildIcebergTable: metadata.json, an Avro manifest
// list and manifests written by our own Avro writer, around parquet_copy's files, partitioned
// by identity and truncate, with position and equality delete files) the same way.
//
// Usage: differential_tests --extension build/parquet [--tables N] [--queries N] [--delta-tables N]
//        [--iceberg-tables N] [--dir D]
// (built with PQ_LINKED_EXTENSION, the WebAssembly build's copy has the extension linked in
// and takes no --extension; it skips the interrupt check, having no thread to interrupt from)
// The seed is random unless DIFFERENTIAL_SEED is set; it is printed first and with every
// failure, so `DIFFERENTIAL_SEED=<seed> build/differential_tests ...` repeats a run.
// The last line is "differential: N passed, M failed"; the exit status is 1 on failure.
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/expected_sqlite_version.h"

namespace {

struct Rng {
  uint64_t state;
  uint64_t Next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int Int(int n) { return static_cast<int>(Next() % static_cast<uint64_t>(n)); }  // [0, n)
  int Range(int lo, int hi) { return lo + Int(hi - lo + 1); }                     // [lo, hi]
  bool Chance(int percent) { return Int(100) < percent; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) { return v[static_cast<size_t>(Int(static_cast<int>(v.size())))]; }
};

enum class Gen {
  kId, kSmallInt, kBigInt, kUInt32, kUInt64, kDouble, kFloat, kDecimal, kWideDecimal, kText, kTextNum, kDigits, kBlob, kDate,
  kTimestamp, kTime, kUuid, kBool,
};

struct ColumnSpec {
  std::string name;
  Gen gen;
  std::string copy_type;  // for parquet_copy's schema=
  int null_percent;
};

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

std::string Hex(const std::string& bytes) {
  static const char* digits = "0123456789ABCDEF";
  std::string out = "x'";
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out + "'";
}

const std::vector<std::string> kTextPool = {"",   "a",  "A",   "ab",  "Ab",   "aB",   "abc",  "abd",   "b",    "B",
                                            "ba", "12", "012", "1e3", " 5",   "5",    "5.0",  "\xc3\xa9", "\xc3\xa9" "a", "z",
                                            "_",  "%",  "a%b", "[x",  "zz~", "m\xc3\xa1s", "A_b", "aa", "Z", "9"};
const std::vector<std::string> kNumericTextPool = {"1", "2", "10", "-3", "1.5", "02", "1e1", "abc", "", "7"};
// Integers in several spellings: as partition directories (k=01, k=1, k=+4) one INTEGER key.
const std::vector<std::string> kDigitsPool = {"1", "01", "2", "002", "10", "-3", "+4"};

// A SQL literal for one generated value of a column (NULL included).
std::string GenerateValue(Rng& rng, const ColumnSpec& c, int64_t row) {
  if (c.gen != Gen::kId && rng.Chance(c.null_percent)) return "NULL";
  char buffer[64];
  switch (c.gen) {
    case Gen::kId: return std::to_string(row);
    case Gen::kSmallInt: return std::to_string(rng.Range(-20, 20));
    case Gen::kBigInt: {
      static const std::vector<std::string> special = {"-9223372036854775808", "9223372036854775807", "9007199254740993",
                                                       "-9007199254740993", "0", "1", "-1"};
      if (rng.Chance(30)) return rng.Pick(special);
      return std::to_string(static_cast<int64_t>(rng.Next()) >> rng.Range(0, 62));
    }
    case Gen::kUInt32: return std::to_string(rng.Chance(50) ? rng.Range(0, 50) : static_cast<int64_t>(rng.Next() % 4294967296ull));
    case Gen::kUInt64: return std::to_string(rng.Chance(50) ? rng.Range(0, 50) : static_cast<int64_t>(rng.Next() >> 1));
    case Gen::kWideDecimal:
      std::snprintf(buffer, sizeof buffer, "'%d%08d.%03d'", rng.Range(-999, 999), rng.Range(0, 99999999), rng.Range(0, 999));
      return buffer;
    case Gen::kTime:
      std::snprintf(buffer, sizeof buffer, "'%02d:%02d:%02d'", rng.Range(0, 23), rng.Range(0, 59), rng.Range(0, 59));
      return buffer;
    case Gen::kUuid:
      std::snprintf(buffer, sizeof buffer, "'%08x-0000-4000-8000-%012llx'", static_cast<unsigned>(rng.Int(1 << 30)),
                    static_cast<unsigned long long>(rng.Int(1000)));
      return buffer;
    case Gen::kDouble: {
      static const std::vector<std::string> special = {"0.0", "-0.0", "1e300", "-1e300", "1e-300", "0.5", "2.0", "12.0"};
      if (rng.Chance(20)) return rng.Pick(special);
      std::snprintf(buffer, sizeof buffer, "%d.%02d", rng.Range(-40, 40), rng.Range(0, 3) * 25);
      return buffer;
    }
    case Gen::kFloat: std::snprintf(buffer, sizeof buffer, "%g", rng.Range(-80, 80) / 8.0); return buffer;
    case Gen::kDecimal: std::snprintf(buffer, sizeof buffer, "%.2f", rng.Range(-5000, 5000) / 100.0); return buffer;
    case Gen::kText: {
      if (rng.Chance(70)) return Quote(rng.Pick(kTextPool));
      std::string s;
      for (int i = rng.Range(1, 4); i > 0; i--) s += "aAbBcZ0_%"[rng.Int(9)];
      return Quote(s);
    }
    case Gen::kTextNum: return Quote(rng.Pick(kNumericTextPool));
    case Gen::kDigits: return Quote(rng.Pick(kDigitsPool));
    case Gen::kBlob: {
      std::string s;
      for (int i = rng.Range(0, 3); i > 0; i--) s += "\x00\x01" "1a\xff"[rng.Int(5)];
      return Hex(s);
    }
    case Gen::kDate: {
      if (rng.Chance(5)) return rng.Chance(50) ? "'0001-01-01'" : "'9999-12-31'";
      std::snprintf(buffer, sizeof buffer, "'%04d-%02d-%02d'", rng.Range(1990, 2030), rng.Range(1, 12), rng.Range(1, 28));
      return buffer;
    }
    case Gen::kTimestamp:
      std::snprintf(buffer, sizeof buffer, "'%04d-%02d-%02d %02d:%02d:%02d'", rng.Range(2000, 2003), rng.Range(1, 12),
                    rng.Range(1, 28), rng.Range(0, 23), rng.Range(0, 59), rng.Range(0, 59));
      return buffer;
    case Gen::kBool: return rng.Chance(50) ? "1" : "0";
  }
  return "NULL";
}

// ---- Delta tables written by hand (BuildDeltaTable) ----

// `text` as the body of a JSON string.
std::string JsonEscape(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// Z85 (ZeroMQ RFC 32) of `data`, whose size is a multiple of 4.
std::string Z85(const std::string& data) {
  static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
  std::string out;
  for (size_t i = 0; i + 4 <= data.size(); i += 4) {
    uint32_t v = 0;
    for (size_t k = 0; k < 4; k++) v = (v << 8) | static_cast<uint8_t>(data[i + k]);
    char chunk[5];
    for (int k = 4; k >= 0; k--) {
      chunk[k] = alphabet[v % 85];
      v /= 85;
    }
    out.append(chunk, 5);
  }
  return out;
}

void AppendLe(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// A Delta deletion vector's bytes (sizeInBytes of them): the magic number D1 D3 39 64, then
// the 64-bit portable roaring bitmap of `positions` (sorted, distinct, below 2^32): one
// bucket per high half, each a 32-bit bitmap without run containers (array containers of
// at most 4096 values, else bitmap containers).
std::string DeletionVectorBytes(const std::vector<uint32_t>& positions) {
  std::string out = "\xD1\xD3\x39\x64";
  AppendLe(&out, positions.empty() ? 0 : 1, 8);  // (positions < 2^32: one bucket, key 0)
  if (positions.empty()) return out;
  AppendLe(&out, 0, 4);
  std::vector<std::vector<uint16_t>> containers;
  std::vector<uint16_t> keys;
  for (uint32_t p : positions) {
    const uint16_t key = static_cast<uint16_t>(p >> 16);
    if (keys.empty() || keys.back() != key) {
      keys.push_back(key);
      containers.emplace_back();
    }
    containers.back().push_back(static_cast<uint16_t>(p & 0xFFFF));
  }
  std::string bitmap;
  AppendLe(&bitmap, 12346, 4);  // SERIAL_COOKIE_NO_RUNCONTAINER
  AppendLe(&bitmap, containers.size(), 4);
  for (size_t i = 0; i < containers.size(); i++) {
    AppendLe(&bitmap, keys[i], 2);
    AppendLe(&bitmap, containers[i].size() - 1, 2);
  }
  size_t offset = bitmap.size() + 4 * containers.size();
  for (const auto& c : containers) {
    AppendLe(&bitmap, offset, 4);
    offset += c.size() <= 4096 ? 2 * c.size() : 8192;
  }
  for (const auto& c : containers) {
    if (c.size() <= 4096) {
      for (uint16_t v : c) AppendLe(&bitmap, v, 2);
    } else {
      std::vector<uint64_t> words(1024, 0);
      for (uint16_t v : c) words[v >> 6] |= uint64_t{1} << (v & 63);
      for (uint64_t w : words) AppendLe(&bitmap, w, 8);
    }
  }
  return out + bitmap;
}

// ---- Iceberg tables written by hand (BuildIcebergTable) ----

// Avro's binary encoding (the spec's "Binary Encoding"): longs and ints as zigzag varints,
// bytes and strings as a long length and the bytes.
std::string AvroLong(int64_t v) {
  uint64_t n = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  std::string out;
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7F) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
  return out;
}
std::string AvroBytes(const std::string& b) { return AvroLong(static_cast<int64_t>(b.size())) + b; }
// A ["null", T] union: branch 0, or branch 1 then the value's encoding.
std::string AvroNull() { return AvroLong(0); }
std::string AvroSome(const std::string& encoded) { return AvroLong(1) + encoded; }
// An array or map of `items` (each already encoded): one block, then the empty block.
std::string AvroBlocks(const std::vector<std::string>& items) {
  if (items.empty()) return AvroLong(0);
  std::string out = AvroLong(static_cast<int64_t>(items.size()));
  for (const std::string& i : items) out += i;
  return out + AvroLong(0);
}

// An Avro object container file, codec null: magic, the metadata map (avro.schema,
// avro.codec and `metadata`), a 16-byte sync marker, one block of `records`, the marker.
std::string AvroContainer(const std::string& schema_json, const std::vector<std::string>& records,
                          const std::vector<std::pair<std::string, std::string>>& metadata) {
  const std::string sync = "differential-47!";  // (16 bytes)
  std::vector<std::string> meta = {AvroBytes("avro.schema") + AvroBytes(schema_json), AvroBytes("avro.codec") + AvroBytes("null")};
  for (const auto& m : metadata) meta.push_back(AvroBytes(m.first) + AvroBytes(m.second));
  std::string out = std::string("Obj\x01", 4) + AvroBlocks(meta) + sync;
  std::string body;
  for (const std::string& r : records) body += r;
  return out + AvroLong(static_cast<int64_t>(records.size())) + AvroBytes(body) + sync;
}

// The Avro schemas of Iceberg v2 manifests (a manifest_entry with its data_file, the
// partition record of `partition_fields`: JSON fields) and of a manifest list (format/spec.md).
std::string IcebergEntrySchema(const std::string& partition_fields) {
  auto map = [](const char* name, int key_id, int value_id, const char* value_type, int field_id) {
    return std::string("{\"name\":\"") + name + "\",\"field-id\":" + std::to_string(field_id) +
           ",\"default\":null,\"type\":[\"null\",{\"type\":\"array\",\"logicalType\":\"map\",\"items\":{\"type\":\"record\","
           "\"name\":\"k" + std::to_string(key_id) + "_v" + std::to_string(value_id) + "\",\"fields\":[{\"name\":\"key\",\"type\":"
           "\"int\",\"field-id\":" + std::to_string(key_id) + "},{\"name\":\"value\",\"type\":\"" + value_type + "\",\"field-id\":" +
           std::to_string(value_id) + "}]}}]}";
  };
  return "{\"type\":\"record\",\"name\":\"manifest_entry\",\"fields\":["
         "{\"name\":\"status\",\"type\":\"int\",\"field-id\":0},"
         "{\"name\":\"snapshot_id\",\"type\":[\"null\",\"long\"],\"field-id\":1},"
         "{\"name\":\"sequence_number\",\"type\":[\"null\",\"long\"],\"field-id\":3},"
         "{\"name\":\"file_sequence_number\",\"type\":[\"null\",\"long\"],\"field-id\":4},"
         "{\"name\":\"data_file\",\"field-id\":2,\"type\":{\"type\":\"record\",\"name\":\"r2\",\"fields\":["
         "{\"name\":\"content\",\"type\":\"int\",\"field-id\":134},"
         "{\"name\":\"file_path\",\"type\":\"string\",\"field-id\":100},"
         "{\"name\":\"file_format\",\"type\":\"string\",\"field-id\":101},"
         "{\"name\":\"partition\",\"field-id\":102,\"type\":{\"type\":\"record\",\"name\":\"r102\",\"fields\":[" +
         partition_fields + "]}},"
         "{\"name\":\"record_count\",\"type\":\"long\",\"field-id\":103},"
         "{\"name\":\"file_size_in_bytes\",\"type\":\"long\",\"field-id\":104}," +
         map("null_value_counts", 121, 122, "long", 110) + "," + map("lower_bounds", 126, 127, "bytes", 125) + "," +
         map("upper_bounds", 129, 130, "bytes", 128) + ","
         "{\"name\":\"equality_ids\",\"field-id\":135,\"default\":null,\"type\":[\"null\",{\"type\":\"array\",\"items\":\"int\","
         "\"element-id\":136}]}]}}]}";
}

const char* const kIcebergListSchema =
    "{\"type\":\"record\",\"name\":\"manifest_file\",\"fields\":["
    "{\"name\":\"manifest_path\",\"type\":\"string\",\"field-id\":500},"
    "{\"name\":\"manifest_length\",\"type\":\"long\",\"field-id\":501},"
    "{\"name\":\"partition_spec_id\",\"type\":\"int\",\"field-id\":502},"
    "{\"name\":\"content\",\"type\":\"int\",\"field-id\":517},"
    "{\"name\":\"sequence_number\",\"type\":\"long\",\"field-id\":515},"
    "{\"name\":\"min_sequence_number\",\"type\":\"long\",\"field-id\":516},"
    "{\"name\":\"added_snapshot_id\",\"type\":\"long\",\"field-id\":503},"
    "{\"name\":\"added_files_count\",\"type\":\"int\",\"field-id\":504},"
    "{\"name\":\"existing_files_count\",\"type\":\"int\",\"field-id\":505},"
    "{\"name\":\"deleted_files_count\",\"type\":\"int\",\"field-id\":506},"
    "{\"name\":\"added_rows_count\",\"type\":\"long\",\"field-id\":512},"
    "{\"name\":\"existing_rows_count\",\"type\":\"long\",\"field-id\":513},"
    "{\"name\":\"deleted_rows_count\",\"type\":\"long\",\"field-id\":514},"
    "{\"name\":\"partitions\",\"field-id\":507,\"default\":null,\"type\":[\"null\",{\"type\":\"array\",\"element-id\":508,"
    "\"items\":{\"type\":\"record\",\"name\":\"r508\",\"fields\":["
    "{\"name\":\"contains_null\",\"type\":\"boolean\",\"field-id\":509},"
    "{\"name\":\"contains_nan\",\"type\":[\"null\",\"boolean\"],\"field-id\":518},"
    "{\"name\":\"lower_bound\",\"type\":[\"null\",\"bytes\"],\"field-id\":510},"
    "{\"name\":\"upper_bound\",\"type\":[\"null\",\"bytes\"],\"field-id\":511}]}}]}]}";

bool WriteFile(const std::string& path, const std::string& bytes) {
  FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  return std::fclose(out) == 0 && ok;
}

struct Db {
  sqlite3* db = nullptr;
  std::string error;
  double slowest_ms = 0;    // the slowest Query so far, printed at the end (a run's time
  std::string slowest_sql;  // is mostly one slow plan when it is long)

  bool Exec(const std::string& sql) {
    char* message = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
      error = message ? message : "?";
      sqlite3_free(message);
      return false;
    }
    return true;
  }

  // Runs `sql` (binding `parameter`, an SQL literal, to ?1 when not empty); rows as
  // type-tagged text. False on error (in `error`).
  bool Query(const std::string& sql, const std::string& parameter, std::vector<std::string>* rows) {
    const auto start = std::chrono::steady_clock::now();
    struct Timer {
      Db& db;
      const std::string& sql;
      std::chrono::steady_clock::time_point start;
      ~Timer() {
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (ms > db.slowest_ms) db.slowest_ms = ms, db.slowest_sql = sql;
      }
    } timer{*this, sql, start};
    rows->clear();
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      error = sqlite3_errmsg(db);
      return false;
    }
    sqlite3_stmt* value_stmt = nullptr;
    if (!parameter.empty()) {
      const std::string value_sql = "SELECT " + parameter;
      sqlite3_prepare_v2(db, value_sql.c_str(), -1, &value_stmt, nullptr);
      sqlite3_step(value_stmt);
      sqlite3_bind_value(stmt, 1, sqlite3_column_value(value_stmt, 0));
    }
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      std::string row;
      for (int i = 0; i < sqlite3_column_count(stmt); i++) {
        if (i) row += "|";
        switch (sqlite3_column_type(stmt, i)) {
          case SQLITE_NULL: row += "NULL"; break;
          case SQLITE_INTEGER: row += "i" + std::to_string(sqlite3_column_int64(stmt, i)); break;
          case SQLITE_FLOAT: {
            char buffer[40];
            // -0.0 is stored as 0 in a native table's record: they compare equal anyway.
            const double d = sqlite3_column_double(stmt, i);
            std::snprintf(buffer, sizeof buffer, "r%.17g", d == 0 ? 0.0 : d);
            row += buffer;
            break;
          }
          case SQLITE_TEXT:
            row += "t" + std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, i)),
                                     static_cast<size_t>(sqlite3_column_bytes(stmt, i)));
            break;
          default: {
            const char* blob = static_cast<const char*>(sqlite3_column_blob(stmt, i));
            row += "b" + Hex(std::string(blob ? blob : "", static_cast<size_t>(sqlite3_column_bytes(stmt, i))));
          }
        }
      }
      rows->push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) error = sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    sqlite3_finalize(value_stmt);
    return rc == SQLITE_DONE;
  }
};

struct Table {
  std::vector<std::string> columns;  // visible columns of p, as declared
  std::vector<std::string> types;
  std::vector<std::vector<std::string>> samples;  // per column: quoted values from the data
  std::string sorted_column;                      // data sorted by it (or empty)
  std::string description;
  std::string source;  // the parquet(...) arguments of p
  int64_t rows = 0;
  bool hive = false;                 // partitioned: also read as hd.hp (see the top of this file)
  int64_t whole_list_requests = 0;   // directories a scan of hd.hp reads without constraints
  std::string delta_partition_key;   // a Delta table's partition column (BuildDeltaTable), or empty
  bool iceberg = false;              // an Iceberg table (BuildIcebergTable)
};

std::string QuoteIdentifier(const std::string& name) { return "\"" + name + "\""; }

// A constant to compare column `c` with: a value of the data, the same in another storage
// class, or anything.
std::string Constant(Rng& rng, const Table& t, size_t c) {
  const std::vector<std::string>& samples = t.samples[c];
  if (!samples.empty() && rng.Chance(70)) {
    std::string v = rng.Pick(samples);
    if (v == "NULL" || !rng.Chance(35)) return v;
    // The same value in another storage class.
    if (v[0] == '\'') {
      const std::string inner = v.substr(1, v.size() - 2);
      switch (rng.Int(4)) {
        case 0: {
          std::string upper = inner;
          for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
          return Quote(upper);
        }
        case 1: return "CAST(" + v + " AS BLOB)";
        case 2: return inner.empty() ? "0" : Quote(inner.substr(0, inner.size() - 1));
        default: return Quote(inner + "a");
      }
    }
    if (v[0] == 'X' || v[0] == 'x') return "CAST(" + v + " AS TEXT)";
    switch (rng.Int(4)) {
      case 0: return Quote(v);
      case 1: return v.find('.') == std::string::npos && v.find('e') == std::string::npos ? v + ".0" : v;
      case 2: return "CAST(" + Quote(v) + " AS BLOB)";
      default: return "(" + v + " + " + (rng.Chance(50) ? "1" : "0.5") + ")";
    }
  }
  static const std::vector<std::string> any = {"NULL", "0", "1", "-1", "2.5", "'5'", "'05'", "' 5'", "'abc'", "'a'",
                                               "''", "x''", "x'31'", "x'00'", "'2020-01-01'", "'1995-06-15 12:00:00'",
                                               "9223372036854775807", "-9223372036854775808", "1e19", "-0.0",
                                               "4294967295", "4294967296", "'1e3'", "12", "'12'", "12.0", "x'3132'"};
  return rng.Pick(any);
}

std::string LikePattern(Rng& rng, const Table& t, size_t c, bool glob) {
  std::string base = "ab";
  const std::vector<std::string>& samples = t.samples[c];
  if (!samples.empty()) {
    const std::string& v = rng.Pick(samples);
    if (v.size() >= 2 && v[0] == '\'') base = v.substr(1, v.size() - 2);
  }
  std::string prefix = base.substr(0, static_cast<size_t>(rng.Range(0, static_cast<int>(std::min<size_t>(base.size(), 4)))));
  if (!glob && rng.Chance(40)) {
    for (char& ch : prefix) ch = static_cast<char>(rng.Chance(50) ? std::toupper(static_cast<unsigned char>(ch))
                                                                   : std::tolower(static_cast<unsigned char>(ch)));
  }
  std::string tail = glob ? (rng.Chance(70) ? "*" : "?*") : (rng.Chance(70) ? "%" : "_%");
  if (rng.Chance(15)) tail = "";
  std::string pattern = prefix + tail;
  std::string quoted = "'";
  for (char ch : pattern) {
    quoted += ch;
    if (ch == '\'') quoted += '\'';
  }
  return quoted + "'";
}

// One predicate; the first constant may become the bound parameter ?1.
std::string Predicate(Rng& rng, const Table& t, std::string* parameter) {
  const int pick = rng.Int(100);
  std::string column;
  size_t c = 0;
  bool is_position = false;
  if (pick < 6) {
    column = "rowid";
    is_position = true;
  } else if (pick < 10) {
    column = "file_row_number";
    is_position = true;
  } else {
    c = static_cast<size_t>(rng.Int(static_cast<int>(t.columns.size())));
    column = QuoteIdentifier(t.columns[c]);
  }
  auto constant = [&]() {
    std::string v;
    if (is_position) {
      v = rng.Chance(80) ? std::to_string(rng.Range(-2, static_cast<int>(t.rows) + 2))
                         : rng.Pick(std::vector<std::string>{"'7'", "2.5", "NULL", "'x'", "1e30"});
    } else {
      v = Constant(rng, t, c);
    }
    if (parameter->empty() && rng.Chance(15)) {
      *parameter = v;
      return std::string("?1");
    }
    return v;
  };
  switch (rng.Int(17)) {
    case 0: return column + " = " + constant();
    case 1: return column + " != " + constant();
    case 2: return column + " < " + constant();
    case 3: return column + " <= " + constant();
    case 4: return column + " > " + constant();
    case 5: return column + " >= " + constant();
    case 6: return column + " IS " + constant();
    case 7: return column + " IS NOT " + constant();
    case 8: return column + " IS NULL";
    case 9: return column + " IS NOT NULL";
    case 10:
    case 11: {
      std::string list;
      for (int i = rng.Range(1, 4); i > 0; i--) list += (list.empty() ? "" : ", ") + constant();
      return column + (rng.Chance(15) ? " NOT IN (" : " IN (") + list + ")";
    }
    case 12: return column + " BETWEEN " + constant() + " AND " + constant();
    case 13:
      if (is_position) return column + " = " + constant();
      return column + " LIKE " + LikePattern(rng, t, c, false);
    case 14:
      if (is_position) return column + " < " + constant();
      return column + " GLOB " + LikePattern(rng, t, c, true);
    case 15: return column + " = " + constant() + " COLLATE NOCASE";
    default: return "(" + column + " = " + constant() + " OR " + column + " > " + constant() + ")";
  }
}

std::string Where(Rng& rng, const Table& t, std::string* parameter) {
  std::string where = Predicate(rng, t, parameter);
  for (int i = rng.Range(0, 2); i > 0; i--) {
    std::string next = Predicate(rng, t, parameter);
    if (rng.Chance(15)) next = "NOT (" + next + ")";
    where += rng.Chance(80) ? " AND " + next : " OR " + next;
  }
  return where;
}

struct Runner {
  Db db;
  Rng rng;
  uint64_t seed;
  int passed = 0, failed = 0;
  int claims_kept = 0, claims_refused = 0;  // tables written with sorting_columns, or refused it
  std::string dir;
  // How often each mechanism pruned something (queries), to show the test exercises them.
  int64_t pruned_files = 0, pruned_statistics = 0, pruned_bloom = 0, pruned_dictionary = 0, pruned_pages = 0,
          pruned_positions = 0;
  int64_t joins_indexed = 0;  // join queries answered with a join index
  int64_t hive_listings_pruned = 0;  // queries of hd.hp that read fewer directories than the whole tree
  int hive_tables = 0;
  int delta_tables = 0;               // Delta tables written by hand (BuildDeltaTable)
  int64_t delta_rows_deleted = 0;     // rows their deletion vectors delete
  int64_t delta_counted_scans = 0;    // their count(*) scans that counted files from the log
  int iceberg_tables = 0;             // Iceberg tables written by hand (BuildIcebergTable)
  int64_t iceberg_rows_deleted = 0;   // rows their position and equality delete files delete
  int64_t iceberg_pruned_scans = 0;   // their queries that skipped manifests or files from the metadata
  int64_t iceberg_manifest_scans = 0;  // of those, the ones that skipped manifests by their partition summaries

  // Connects hd.hp afresh (DETACH and ATTACH): nothing of its dataset is listed.
  bool FreshHive() { return db.Exec("DETACH hd; ATTACH '" + dir + "/hive.db' AS hd"); }

  // The tables a query of p also runs on: p, and hd.hp when t is partitioned.
  static std::vector<std::string> ParquetTables(const Table& t) {
    std::vector<std::string> tables = {"p"};
    if (t.hive) tables.push_back("hd.hp");
    return tables;
  }

  // Compares `sql_for` on the native table n with the parquet tables p (join index) and p0
  // (join_index_memory=0), as multisets of rows.
  template <typename SqlFor>
  void CompareJoin(const Table& t, SqlFor sql_for) {
    std::vector<std::string> expected, actual;
    const bool ok_n = db.Query(sql_for("n"), "", &expected);
    std::sort(expected.begin(), expected.end());
    std::vector<std::string> tables = {"p", "p0"};
    if (t.hive) tables.push_back("hd.hp");
    for (const std::string& name : tables) {
      const char* table = name.c_str();
      if (name == "hd.hp" && !FreshHive()) {
        Fail(t, "reattaching hd: " + db.error, "", "", {}, {});
        return;
      }
      const bool ok_p = db.Query(sql_for(table), "", &actual);
      std::vector<std::string> stats;
      if (name == "p" && db.Query("SELECT join_index_bytes > 0 FROM parquet_scan_stats('p')", "", &stats) &&
          stats.size() == 1 && stats[0] == "i1") {
        joins_indexed++;
      }
      std::sort(actual.begin(), actual.end());
      if (ok_n != ok_p || (ok_n && expected != actual)) {
        Fail(t, ok_n != ok_p ? "one failed: " + db.error : "join rows differ", sql_for(table), "", expected, actual);
        return;
      }
    }
    passed++;
  }

  // Every visible column of t, qualified by `table`.
  static std::string ColumnsOf(const Table& t, const std::string& table) {
    std::string list;
    for (const std::string& c : t.columns) list += (list.empty() ? "" : ", ") + table + "." + QuoteIdentifier(c);
    return list;
  }

  // Joins on a random column of t (see the top of this file).
  void RunJoins(const Table& t) {
    if (!db.Exec("DROP TABLE IF EXISTS p0; CREATE VIRTUAL TABLE p0 USING parquet(" + t.source +
                 ", join_index_memory=0)")) {
      Fail(t, "creating p0: " + db.error, "", "", {}, {});
      return;
    }
    for (int j = 0; j < 6; j++) {
      const size_t c = static_cast<size_t>(rng.Int(static_cast<int>(t.columns.size())));
      const std::string column = QuoteIdentifier(t.columns[c]);
      const std::string affinity = rng.Pick(std::vector<std::string>{"", "", "INTEGER", "REAL", "TEXT", "NUMERIC"});
      std::string keys = "DROP TABLE IF EXISTS keys; CREATE TEMP TABLE keys(k " + affinity + "); INSERT INTO keys VALUES ";
      const int count = rng.Range(1, 80);
      for (int k = 0; k < count; k++) {
        const size_t from = rng.Chance(80) ? c : static_cast<size_t>(rng.Int(static_cast<int>(t.columns.size())));
        keys += (k ? ", (" : "(") + Constant(rng, t, from) + ")";
      }
      if (rng.Chance(30)) keys += ", (NULL)";
      if (!db.Exec(keys)) {
        Fail(t, "keys: " + db.error, keys, "", {}, {});
        continue;
      }
      // The keys as the outer loop (CROSS JOIN: SQLite keeps that order), the table looked
      // up by `column`; or the order SQLite's planner picks.
      const std::string join = rng.Chance(60) ? " CROSS JOIN " : " JOIN ";
      CompareJoin(t, [&](const char* x) {
        return "SELECT k, " + ColumnsOf(t, x) + " FROM keys" + join + x + " ON " + x + "." + column + " = k";
      });
      CompareJoin(t, [&](const char* x) {
        return "SELECT id FROM " + std::string(x) + " WHERE " + column + " IN (SELECT k FROM keys)";
      });
      // The table joined to itself on another column: a few outer rows, each a lookup.
      const std::string other = QuoteIdentifier(rng.Pick(t.columns));
      const int outer = rng.Range(1, 40);
      CompareJoin(t, [&](const char* x) {
        return "SELECT a.id, " + ColumnsOf(t, "b") + " FROM " + std::string(x) + " AS a" + join + x + " AS b ON b." + column + " = a." + other +
               " WHERE a.id < " + std::to_string(outer);
      });
    }
  }

  void Fail(const Table& t, const std::string& what, const std::string& sql, const std::string& parameter,
            const std::vector<std::string>& expected, const std::vector<std::string>& actual) {
    failed++;
    if (failed > 20) return;
    std::printf("FAILED (seed %" PRIu64 "): %s\n  table: %s\n  query: %s\n", seed, what.c_str(), t.description.c_str(),
                sql.c_str());
    if (!parameter.empty()) std::printf("  ?1 = %s\n", parameter.c_str());
    // The rows only one side has (as multisets), a few of each.
    std::vector<std::string> a = expected, b = actual, only_native, only_parquet;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only_native));
    std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only_parquet));
    std::printf("  native: %zu rows, %zu not in parquet's:", expected.size(), only_native.size());
    for (size_t i = 0; i < only_native.size() && i < 4; i++) std::printf(" [%s]", only_native[i].c_str());
    std::printf("\n  parquet: %zu rows, %zu not in native's:", actual.size(), only_parquet.size());
    for (size_t i = 0; i < only_parquet.size() && i < 4; i++) std::printf(" [%s]", only_parquet[i].c_str());
    if (only_native.empty() && only_parquet.empty()) {
      for (size_t i = 0; i < expected.size() && i < actual.size(); i++) {
        if (expected[i] == actual[i]) continue;
        std::printf("\n  first difference in order at row %zu: [%s] vs [%s]", i, expected[i].c_str(), actual[i].c_str());
        break;
      }
    }
    std::printf("\n");
  }

  // Makes the table `src` of `rows` random rows of `specs` (first dropping it and the scratch
  // tables of an earlier build: n, p, fz, pr); *schema is parquet_copy's schema= of them.
  bool FillSource(const std::vector<ColumnSpec>& specs, int64_t rows, std::string* schema) {
    std::string create = "DROP TABLE IF EXISTS src; DROP TABLE IF EXISTS n; DROP TABLE IF EXISTS p; "
                         "DROP TABLE IF EXISTS fz; DROP TABLE IF EXISTS pr; CREATE TABLE src(";
    schema->clear();
    for (size_t i = 0; i < specs.size(); i++) {
      create += (i ? ", " : "") + specs[i].name;
      *schema += (i ? ", " : "") + specs[i].name + " " + specs[i].copy_type;
    }
    if (!db.Exec(create + ")")) return false;
    db.Exec("BEGIN");
    for (int64_t r = 0; r < rows; r++) {
      std::string insert = "INSERT INTO src VALUES(";
      for (size_t i = 0; i < specs.size(); i++) insert += (i ? ", " : "") + GenerateValue(rng, specs[i], r);
      if (!db.Exec(insert + ")")) return false;
    }
    db.Exec("COMMIT");
    return true;
  }

  bool BuildTable(int index, Table* t) {
    static const std::vector<std::pair<Gen, std::string>> kTypes = {
        {Gen::kSmallInt, "INT32"},  {Gen::kBigInt, "INT64"},    {Gen::kUInt32, "UINT32"}, {Gen::kDouble, "DOUBLE"},
        {Gen::kFloat, "FLOAT"},     {Gen::kDecimal, "DECIMAL(9,2)"}, {Gen::kText, "STRING"}, {Gen::kTextNum, "STRING"}, {Gen::kDigits, "STRING"},
        {Gen::kBlob, "BINARY"},     {Gen::kDate, "DATE"},       {Gen::kTimestamp, "TIMESTAMP(MILLIS)"},
        {Gen::kBool, "BOOLEAN"},    {Gen::kSmallInt, "INT64"},  {Gen::kText, "STRING"},
        {Gen::kUInt64, "UINT64"},   {Gen::kWideDecimal, "DECIMAL(20,3)"}, {Gen::kTime, "TIME(MILLIS)"},
        {Gen::kUuid, "UUID"},       {Gen::kText, "JSON"},       {Gen::kTimestamp, "TIMESTAMP(MICROS, UTC)"},
    };
    std::vector<ColumnSpec> specs = {{"id", Gen::kId, "INT64", 0}};
    for (int i = rng.Range(3, 7); i > 0; i--) {
      const auto& type = rng.Pick(kTypes);
      specs.push_back(ColumnSpec{"c" + std::to_string(specs.size()), type.first, type.second,
                                 rng.Pick(std::vector<int>{0, 0, 5, 30, 100})});
    }
    const int64_t rows = rng.Range(1, 1200);
    std::string schema;
    if (!FillSource(specs, rows, &schema)) return false;
    // Sorted by a column (then id), or in random order.
    t->sorted_column.clear();
    std::string order = "random()";
    if (rng.Chance(60)) {
      t->sorted_column = rng.Chance(50) ? "id" : rng.Pick(specs).name;
      order = t->sorted_column + ", id";
    }
    std::vector<std::string> options = {
        "row_group_size=" + std::to_string(rng.Pick(std::vector<int>{7, 50, 128, 400, 5000})),
        "page_size=" + std::to_string(rng.Pick(std::vector<int>{40, 200, 1000, 1 << 20})),
        "write_page_index=" + std::to_string(rng.Int(2)),
        "dictionary=" + std::to_string(rng.Int(2)),
        "data_page_version=" + std::to_string(rng.Range(1, 2)),
        "statistics=" + std::string(rng.Chance(90) ? "1" : "0"),
        "statistics_truncate_length=" + std::to_string(rng.Pick(std::vector<int>{2, 3, 64})),
        "schema=" + schema,
    };
    if (rng.Chance(50)) options.push_back("bloom_filter=*");
    if (!t->sorted_column.empty()) options.push_back("sorting_columns=" + t->sorted_column);
    std::string target = dir + "/t" + std::to_string(index);
    // Partition keys of few values: one, and a second of at most seven values.
    std::string partition;
    if (rng.Chance(30)) {
      std::vector<const ColumnSpec*> keys, small;
      for (const ColumnSpec& s : specs) {
        if (s.name == t->sorted_column) continue;  // sorting_columns must be stored in the files
        const bool few = s.gen == Gen::kBool || s.gen == Gen::kDigits;
        if (few || s.gen == Gen::kTextNum || (s.gen == Gen::kSmallInt && s.null_percent < 100)) keys.push_back(&s);
        if (few) small.push_back(&s);
      }
      if (!keys.empty()) {
        const ColumnSpec* first = rng.Pick(keys);
        partition = first->name;
        const ColumnSpec* second = small.empty() || !rng.Chance(50) ? nullptr : rng.Pick(small);
        if (second && second != first) partition += ", " + second->name;
      }
    }
    if (!partition.empty()) {
      options.push_back("partition_by=" + partition);
    } else {
      target += ".parquet";
    }
    auto copy_statement = [&] {
      std::string copy = "SELECT parquet_copy('SELECT * FROM src ORDER BY " + order + "', " + Quote(target);
      for (const std::string& o : options) copy += ", " + Quote(o);
      return copy + ")";
    };
    t->description = copy_statement();
    if (!db.Exec(t->description)) {
      // parquet_copy checks sorting_columns in Parquet's order, which is not SQLite's for
      // every type (decimals held as text, UINT64 above INT64_MAX, ...): a claim the rows
      // break is refused, and the table is written without it.
      if (t->sorted_column.empty() || db.error.find("sorting_columns: row ") == std::string::npos) return false;
      claims_refused++;
      options.erase(std::find(options.begin(), options.end(), "sorting_columns=" + t->sorted_column));
      t->sorted_column.clear();
      t->description = copy_statement();
      if (!db.Exec(t->description)) return false;
    } else if (!t->sorted_column.empty()) {
      claims_kept++;
    }
    // The table's presentation options change declared types and values (and so what is
    // pushed and how it compares).
    std::string table_options;
    if (rng.Chance(25)) table_options += ", timestamp_as=" + rng.Pick(std::vector<std::string>{"unixepoch", "unixepoch_ms", "julianday"});
    if (rng.Chance(20)) table_options += ", decimal_as=text";
    if (rng.Chance(20)) table_options += ", binary_as_string=1";
    t->description += " / table options:" + table_options;
    t->source = Quote(target) + table_options;
    if (!db.Exec("CREATE VIRTUAL TABLE p USING parquet(" + t->source + ")")) return false;
    std::vector<std::string> info;
    if (!db.Query("SELECT name, type FROM pragma_table_info('p')", "", &info)) return false;
    t->columns.clear();
    t->types.clear();
    std::string n_columns, select;
    for (const std::string& row : info) {
      const size_t bar = row.find('|');
      t->columns.push_back(row.substr(1, bar - 1));
      t->types.push_back(row.substr(bar + 2));
      n_columns += QuoteIdentifier(t->columns.back()) + " " + t->types.back() + ", ";
      select += QuoteIdentifier(t->columns.back()) + ", ";
    }
    if (!db.Exec("CREATE TABLE n(" + n_columns + "file_row_number INTEGER)")) return false;
    if (!db.Exec("INSERT INTO n(rowid, " + select + "file_row_number) SELECT rowid, " + select +
                 "file_row_number FROM p")) {
      return false;
    }
    // The partitioned dataset again, as a table of the database file hd that each query
    // connects afresh; and the directories its whole tree takes to list.
    t->hive = !partition.empty();
    if (!db.Exec("DROP TABLE IF EXISTS hd.hp")) return false;
    if (t->hive) {
      std::vector<std::string> requests;
      if (!db.Exec("CREATE VIRTUAL TABLE hd.hp USING parquet(" + t->source + ")") || !FreshHive() ||
          !db.Query("SELECT count(*) FROM hd.hp", "", &requests) ||
          !db.Query("SELECT list_requests FROM parquet_scan_stats('hp')", "", &requests) || requests.size() != 1) {
        return false;
      }
      t->whole_list_requests = std::atoll(requests[0].c_str() + 1);
      hive_tables++;
    }
    t->rows = rows;
    t->samples.assign(t->columns.size(), {});
    for (size_t c = 0; c < t->columns.size(); c++) {
      std::vector<std::string> values;
      db.Query("SELECT quote(" + QuoteIdentifier(t->columns[c]) + ") FROM n ORDER BY random() LIMIT 12", "", &values);
      for (std::string& v : values) t->samples[c].push_back(v.substr(1));
    }
    return true;
  }

  // A Delta table made by hand around Parquet files parquet_copy wrote (several files, or
  // one per partition of an INTEGER key), with the log's per-file statistics (numRecords,
  // and min, max and nullCount of integer, real, text and date columns; left out for some
  // files), and a second commit that gives some files inline deletion vectors (random rows,
  // runs, every row) and removes a file whole. The native table n holds the rows a reading
  // of the files as plain Parquet keeps (format=files) without the deleted positions and
  // the removed file, with the rowids Delta's numbering gives (files in path order, deleted
  // rows counted): every query must agree, so pruning by partition values, by the log's
  // statistics, by row groups and pages holds with deleted rows in play; count(*) (files
  // counted from the log, not opened) and bare rowids too.
  bool BuildDeltaTable(int index, Table* t) {
    struct DeltaType {
      Gen gen;
      std::string copy_type, delta_type;
      bool stats;  // min/max written to the log
    };
    static const std::vector<DeltaType> kTypes = {
        {Gen::kSmallInt, "INT32", "integer", true}, {Gen::kBigInt, "INT64", "long", true},
        {Gen::kDouble, "DOUBLE", "double", true},   {Gen::kFloat, "FLOAT", "float", false},
        {Gen::kDecimal, "DECIMAL(9,2)", "decimal(9,2)", false}, {Gen::kText, "STRING", "string", true},
        {Gen::kTextNum, "STRING", "string", true},  {Gen::kBlob, "BINARY", "binary", false},
        {Gen::kDate, "DATE", "date", true},         {Gen::kBool, "BOOLEAN", "boolean", false},
        {Gen::kSmallInt, "INT64", "long", true},
    };
    std::vector<ColumnSpec> specs = {{"id", Gen::kId, "INT64", 0}};
    std::vector<const DeltaType*> types = {&kTypes[1]};
    for (int i = rng.Range(3, 6); i > 0; i--) {
      const DeltaType& type = rng.Pick(kTypes);
      specs.push_back(ColumnSpec{"c" + std::to_string(specs.size()), type.gen, type.copy_type,
                                 rng.Pick(std::vector<int>{0, 0, 5, 30, 100})});
      types.push_back(&type);
    }
    const int64_t rows = rng.Range(1, 1200);
    std::string schema;
    if (!FillSource(specs, rows, &schema)) return false;
    const std::string root = dir + "/delta" + std::to_string(index);
    std::vector<std::string> options = {
        "row_group_size=" + std::to_string(rng.Pick(std::vector<int>{7, 50, 128, 5000})),
        "page_size=" + std::to_string(rng.Pick(std::vector<int>{40, 200, 1 << 20})),
        "write_page_index=" + std::to_string(rng.Int(2)),
        "dictionary=" + std::to_string(rng.Int(2)),
        "statistics=" + std::string(rng.Chance(90) ? "1" : "0"),
        "schema=" + schema,
    };
    if (rng.Chance(40)) options.push_back("bloom_filter=*");
    // An INTEGER partition key of few values, or several files of the rows split by id.
    int partition = -1;
    if (rng.Chance(60)) {
      std::vector<int> keys;
      for (size_t i = 1; i < specs.size(); i++) {
        if (specs[i].gen == Gen::kSmallInt && specs[i].null_percent < 100) keys.push_back(static_cast<int>(i));
      }
      if (!keys.empty()) partition = rng.Pick(keys);
    }
    auto copy = [&](const std::string& where, const std::string& target, const std::string& extra) {
      std::string sql = "SELECT parquet_copy('SELECT * FROM src" + where + " ORDER BY " +
                        (rng.Chance(50) ? std::string("id") : std::string("random()")) + "', " + Quote(target);
      for (const std::string& o : options) sql += ", " + Quote(o);
      if (!extra.empty()) sql += ", " + Quote(extra);
      return db.Exec(sql + ")");
    };
    t->description = "Delta table " + root + " (" + schema + ")";
    if (partition >= 0) {
      // The key's small integers: a handful of partitions.
      if (!db.Exec("UPDATE src SET " + specs[static_cast<size_t>(partition)].name + " = " +
                   specs[static_cast<size_t>(partition)].name + " % 4")) {
        return false;
      }
      if (!copy("", root, "partition_by=" + specs[static_cast<size_t>(partition)].name)) return false;
      t->description += " partitioned by " + specs[static_cast<size_t>(partition)].name;
    } else {
      std::filesystem::create_directories(root);
      const int files = rng.Range(1, static_cast<int>(std::min<int64_t>(5, rows)));  // (none empty)
      for (int f = 0; f < files; f++) {
        if (!copy(" WHERE id % " + std::to_string(files) + " = " + std::to_string(f),
                  root + "/part-" + std::to_string(f) + ".parquet", "")) {
          return false;
        }
      }
    }
    // The files as plain Parquet: their rows, physical positions and partition values.
    if (!db.Exec("CREATE VIRTUAL TABLE fz USING parquet(" + Quote(root) + ", format=files)")) return false;
    std::vector<std::string> listed;
    if (!db.Query("SELECT filename, count(*) FROM fz GROUP BY filename ORDER BY filename", "", &listed)) return false;
    struct DataFile {
      std::string path, relative;
      int64_t rows = 0;
      std::string partition_value;  // JSON: "null" or a quoted string
      std::vector<uint32_t> deleted;
      bool removed = false, with_dv = false;
    };
    std::vector<DataFile> files;
    for (const std::string& row : listed) {
      const size_t bar = row.rfind('|');
      DataFile f;
      f.path = row.substr(1, bar - 1);
      f.rows = std::atoll(row.c_str() + bar + 2);
      // (Under wine a listing may separate with '\\': the log's paths use '/'.)
      if (f.path.size() <= root.size() + 1 || f.path.compare(0, root.size(), root) != 0 ||
          (f.path[root.size()] != '/' && f.path[root.size()] != '\\')) {
        db.error = "file " + f.path + " is not below " + root;
        return false;
      }
      f.relative = f.path.substr(root.size() + 1);
      std::replace(f.relative.begin(), f.relative.end(), '\\', '/');
      f.partition_value = "null";
      if (partition >= 0) {
        const std::string key = specs[static_cast<size_t>(partition)].name + "=";
        const size_t slash = f.relative.find('/');
        if (f.relative.compare(0, key.size(), key) != 0 || slash == std::string::npos) {
          db.error = "file " + f.relative + " is not in a directory of key " + key;
          return false;
        }
        const std::string value = f.relative.substr(key.size(), slash - key.size());
        if (value != "__HIVE_DEFAULT_PARTITION__") f.partition_value = "\"" + value + "\"";
      }
      files.push_back(std::move(f));
    }
    // The log's statistics of each file, from the files' own rows.
    auto stats_of = [&](const DataFile& f) -> std::string {
      std::string min_values, max_values, null_counts;
      for (size_t i = 0; i < specs.size(); i++) {
        if (static_cast<int>(i) == partition) continue;
        const std::string column = QuoteIdentifier(specs[i].name);
        std::vector<std::string> got;
        if (!db.Query("SELECT min(" + column + "), max(" + column + "), count(*) - count(" + column + ") FROM fz WHERE filename = " +
                      Quote(f.path), "", &got) || got.size() != 1) {
          return "";
        }
        const std::string& r = got[0];
        const size_t b1 = r.find('|'), b2 = r.rfind('|');
        const std::string lo = r.substr(0, b1), hi = r.substr(b1 + 1, b2 - b1 - 1), nulls = r.substr(b2 + 2);
        null_counts += (null_counts.empty() ? "" : ",") + std::string("\"") + specs[i].name + "\":" + nulls;
        if (!types[i]->stats || lo == "NULL") continue;
        auto json = [](const std::string& tagged) {
          if (tagged[0] == 't') return "\"" + JsonEscape(tagged.substr(1)) + "\"";
          return tagged.substr(1);  // i or r: a JSON number
        };
        if (lo[0] == 'b' || hi[0] == 'b') continue;
        min_values += (min_values.empty() ? "" : ",") + std::string("\"") + specs[i].name + "\":" + json(lo);
        max_values += (max_values.empty() ? "" : ",") + std::string("\"") + specs[i].name + "\":" + json(hi);
      }
      return "{\"numRecords\":" + std::to_string(f.rows) + ",\"minValues\":{" + min_values + "},\"maxValues\":{" +
             max_values + "},\"nullCount\":{" + null_counts + "}}";
    };
    auto add_action = [&](const DataFile& f, bool stats, const std::string& dv) {
      std::string add = "{\"add\":{\"path\":\"" + JsonEscape(f.relative) + "\",\"partitionValues\":{";
      if (partition >= 0) add += "\"" + specs[static_cast<size_t>(partition)].name + "\":" + f.partition_value;
      add += "},\"size\":1,\"modificationTime\":0,\"dataChange\":true";
      if (stats) {
        const std::string text = stats_of(f);
        if (!text.empty()) add += ",\"stats\":\"" + JsonEscape(text) + "\"";
      }
      if (!dv.empty()) add += ",\"deletionVector\":" + dv;
      return add + "}}\n";
    };
    std::string schema_json = "{\"type\":\"struct\",\"fields\":[";
    for (size_t i = 0; i < specs.size(); i++) {
      schema_json += (i ? "," : "") + std::string("{\"name\":\"") + specs[i].name + "\",\"type\":\"" + types[i]->delta_type +
                     "\",\"nullable\":true,\"metadata\":{}}";
    }
    schema_json += "]}";
    std::string commit0 =
        "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\"],"
        "\"writerFeatures\":[\"deletionVectors\"]}}\n"
        "{\"metaData\":{\"id\":\"differential\",\"format\":{\"provider\":\"parquet\",\"options\":{}},\"schemaString\":\"" +
        JsonEscape(schema_json) + "\",\"partitionColumns\":[" +
        (partition >= 0 ? "\"" + specs[static_cast<size_t>(partition)].name + "\"" : std::string()) +
        "],\"configuration\":{},\"createdTime\":0}}\n";
    std::vector<bool> with_stats;
    for (const DataFile& f : files) {
      with_stats.push_back(rng.Chance(85));
      commit0 += add_action(f, with_stats.back(), "");
    }
    // The second commit: deletion vectors (some rows, a run, every row) and a file removed.
    std::string commit1 = "{\"commitInfo\":{\"timestamp\":1700000000000,\"operation\":\"DELETE\"}}\n";
    int64_t deleted_rows = 0;
    for (size_t i = 0; i < files.size(); i++) {
      DataFile& f = files[i];
      const std::string remove = "{\"remove\":{\"path\":\"" + JsonEscape(f.relative) + "\",\"deletionTimestamp\":1,\"dataChange\":true}}\n";
      if (files.size() > 1 && rng.Chance(10)) {
        f.removed = true;
        commit1 += remove;
        continue;
      }
      if (!rng.Chance(60)) continue;
      std::vector<uint32_t> positions;
      const int kind = rng.Int(10);
      if (kind == 0) {
        for (int64_t r = 0; r < f.rows; r++) positions.push_back(static_cast<uint32_t>(r));
      } else if (kind < 3) {
        const int64_t from = rng.Int(static_cast<int>(f.rows)), length = rng.Range(1, 300);
        for (int64_t r = from; r < std::min(f.rows, from + length); r++) positions.push_back(static_cast<uint32_t>(r));
      } else {
        for (int k = rng.Range(1, 40); k > 0; k--) positions.push_back(static_cast<uint32_t>(rng.Int(static_cast<int>(f.rows))));
        std::sort(positions.begin(), positions.end());
        positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
      }
      std::string bytes = DeletionVectorBytes(positions);
      const size_t size = bytes.size();
      while (bytes.size() % 4 != 0) bytes.push_back('\0');
      const std::string dv = "{\"storageType\":\"i\",\"pathOrInlineDv\":\"" + Z85(bytes) + "\",\"sizeInBytes\":" +
                             std::to_string(size) + ",\"cardinality\":" + std::to_string(positions.size()) + "}";
      f.deleted = positions;
      f.with_dv = true;
      deleted_rows += static_cast<int64_t>(positions.size());
      commit1 += remove + add_action(f, with_stats[i], dv);
    }
    std::filesystem::create_directories(root + "/_delta_log");
    for (int version = 0; version < 2; version++) {
      const std::string path = root + "/_delta_log/0000000000000000000" + std::to_string(version) + ".json";
      FILE* out = std::fopen(path.c_str(), "wb");
      if (!out) return false;
      const std::string& text = version == 0 ? commit0 : commit1;
      std::fwrite(text.data(), 1, text.size(), out);
      std::fclose(out);
    }
    // The expected rows: the live files' rows less the deleted positions, rowids numbered
    // over the live files in path order.
    if (!db.Exec("DROP TABLE IF EXISTS live; CREATE TEMP TABLE live(filename TEXT PRIMARY KEY, base INTEGER); "
                 "DROP TABLE IF EXISTS gone; CREATE TEMP TABLE gone(filename TEXT, position INTEGER, PRIMARY KEY(filename, position))")) {
      return false;
    }
    int64_t base = 0, live_rows = 0;
    db.Exec("BEGIN");
    for (const DataFile& f : files) {  // (already in path order)
      if (f.removed) continue;
      db.Exec("INSERT INTO live VALUES(" + Quote(f.path) + ", " + std::to_string(base) + ")");
      for (uint32_t position : f.deleted) db.Exec("INSERT INTO gone VALUES(" + Quote(f.path) + ", " + std::to_string(position) + ")");
      base += f.rows;
      live_rows += f.rows - static_cast<int64_t>(f.deleted.size());
    }
    db.Exec("COMMIT");
    if (!db.Exec("CREATE VIRTUAL TABLE p USING parquet(" + Quote(root) + ")")) return false;
    std::vector<std::string> info;
    if (!db.Query("SELECT name, type FROM pragma_table_info('p')", "", &info)) return false;
    t->columns.clear();
    t->types.clear();
    std::string n_columns, select;
    for (const std::string& row : info) {
      const size_t bar = row.find('|');
      t->columns.push_back(row.substr(1, bar - 1));
      t->types.push_back(row.substr(bar + 2));
      n_columns += QuoteIdentifier(t->columns.back()) + " " + t->types.back() + ", ";
      select += "fz." + QuoteIdentifier(t->columns.back()) + ", ";
    }
    if (!db.Exec("CREATE TABLE n(" + n_columns + "file_row_number INTEGER)")) return false;
    std::string names;
    for (const std::string& c : t->columns) names += QuoteIdentifier(c) + ", ";
    if (!db.Exec("INSERT INTO n(rowid, " + names + "file_row_number) SELECT live.base + fz.file_row_number, " + select +
                 "fz.file_row_number FROM fz JOIN live ON live.filename = fz.filename "
                 "WHERE NOT EXISTS (SELECT 1 FROM gone WHERE gone.filename = fz.filename AND gone.position = fz.file_row_number)")) {
      return false;
    }
    t->source = Quote(root);
    t->sorted_column.clear();
    t->hive = false;
    t->delta_partition_key = partition >= 0 ? specs[static_cast<size_t>(partition)].name : std::string();
    t->rows = live_rows;
    t->description += ", " + std::to_string(files.size()) + " files, " + std::to_string(deleted_rows) + " rows deleted";
    t->samples.assign(t->columns.size(), {});
    for (size_t c = 0; c < t->columns.size(); c++) {
      std::vector<std::string> values;
      db.Query("SELECT quote(" + QuoteIdentifier(t->columns[c]) + ") FROM n ORDER BY random() LIMIT 12", "", &values);
      for (std::string& v : values) t->samples[c].push_back(v.substr(1));
    }
    delta_tables++;
    delta_rows_deleted += deleted_rows;
    return true;
  }

  // An Iceberg v2 table made by hand (format/spec.md of apache/iceberg) around Parquet files
  // parquet_copy wrote: partition spec 0 is identity on a small integer column `k` and
  // truncate[10] on an integer column `v`, one data file per partition tuple (NULLs
  // included), in several data manifests (grouped by k, with the manifest list's partition
  // summaries) whose entries carry partition values, record counts, null counts and
  // lower/upper bounds of the integer and text columns (left out for some files). A second
  // snapshot's delete manifests add position delete files (file_path, pos: random rows, a
  // run, every row of a file) in the partitions of their data files, and an equality delete
  // file in the unpartitioned spec 1 on one column (some of its values, NULL among them),
  // applying everywhere. The native table n holds the rows of the files read as plain
  // Parquet (format=files) less the deleted ones, each with the rowid the table gives that
  // (file, position): its count is checked against the rows left, so no live row may go
  // missing. Every query must agree, so pruning by manifest summaries, by partition values
  // of both transforms, by the manifests' bounds, by row groups and pages holds with deleted
  // rows in play.
  bool BuildIcebergTable(int index, Table* t) {
    struct IcebergType {
      Gen gen;
      std::string copy_type, iceberg_type;
      int bound_bytes;  // lower/upper bounds written: 4 or 8 (little-endian integers), -1 text, 0 none
    };
    static const std::vector<IcebergType> kTypes = {
        {Gen::kSmallInt, "INT32", "int", 4},  {Gen::kBigInt, "INT64", "long", 8}, {Gen::kDouble, "DOUBLE", "double", 0},
        {Gen::kText, "STRING", "string", -1}, {Gen::kTextNum, "STRING", "string", -1}, {Gen::kDate, "DATE", "date", 0},
        {Gen::kSmallInt, "INT64", "long", 8}, {Gen::kBool, "BOOLEAN", "boolean", 0},
    };
    // id, k (identity partition), v (truncate[10]), then random columns.
    std::vector<ColumnSpec> specs = {{"id", Gen::kId, "INT64", 0},
                                     {"k", Gen::kSmallInt, "INT32", rng.Pick(std::vector<int>{0, 5})},
                                     {"v", Gen::kSmallInt, "INT64", rng.Pick(std::vector<int>{0, 5, 30})}};
    std::vector<const IcebergType*> types = {&kTypes[1], &kTypes[0], &kTypes[6]};
    for (int i = rng.Range(2, 4); i > 0; i--) {
      const IcebergType& type = rng.Pick(kTypes);
      specs.push_back(ColumnSpec{"c" + std::to_string(specs.size()), type.gen, type.copy_type,
                                 rng.Pick(std::vector<int>{0, 0, 5, 30, 100})});
      types.push_back(&type);
    }
    const int64_t rows = rng.Range(1, 900);
    std::string schema;
    if (!FillSource(specs, rows, &schema)) return false;
    // k of a few values; v of -25..25 (truncate[10]: six partitions, floor as the spec says).
    if (!db.Exec("UPDATE src SET k = abs(k) % 3, v = v + v / 4")) return false;
    const std::string truncate = "(v - ((v % 10) + 10) % 10)";
    const std::string root = dir + "/iceberg" + std::to_string(index);
    std::filesystem::create_directories(root + "/data");
    std::filesystem::create_directories(root + "/deletes");
    std::filesystem::create_directories(root + "/metadata");
    std::vector<std::string> options = {
        "row_group_size=" + std::to_string(rng.Pick(std::vector<int>{7, 50, 5000})),
        "page_size=" + std::to_string(rng.Pick(std::vector<int>{40, 200, 1 << 20})),
        "write_page_index=" + std::to_string(rng.Int(2)),
        "statistics=" + std::string(rng.Chance(90) ? "1" : "0"),
        "schema=" + schema,
    };
    if (rng.Chance(40)) options.push_back("bloom_filter=*");
    t->description = "Iceberg table " + root + " (" + schema + ") partitioned by identity(k), truncate[10](v)";
    // One data file per partition tuple.
    std::vector<std::string> tuples;
    if (!db.Query("SELECT DISTINCT quote(k), quote(" + truncate + ") FROM src ORDER BY 1, 2", "", &tuples)) return false;
    struct DataFile {
      std::string path;
      std::string k, tv;  // partition values (SQL literals: NULL or an integer)
      int64_t rows = 0, size = 0;
      std::string null_counts, lower, upper;  // encoded map items of the manifest entry
      std::vector<int64_t> deleted;           // positions its position delete file names
    };
    std::vector<DataFile> files;
    for (const std::string& tuple : tuples) {
      DataFile f;
      const size_t bar = tuple.find('|');
      f.k = tuple.substr(1, bar - 1);
      f.tv = tuple.substr(bar + 2);
      // (Directories without '=': format=files would read them as hive partition keys.)
      f.path = root + "/data/k_" + f.k + "_t_" + f.tv + "/part-" + std::to_string(files.size()) + ".parquet";
      std::filesystem::create_directories(std::filesystem::path(f.path).parent_path());
      std::string sql = "SELECT parquet_copy('SELECT * FROM src WHERE k IS " + f.k + " AND " + truncate + " IS " + f.tv +
                        " ORDER BY " + (rng.Chance(50) ? std::string("id") : std::string("random()")) + "', " + Quote(f.path);
      for (const std::string& o : options) sql += ", " + Quote(o);
      std::vector<std::string> got;
      if (!db.Query(sql + ")", "", &got) || got.size() != 1) return false;
      f.rows = std::atoll(got[0].c_str() + 1);
      f.size = static_cast<int64_t>(std::filesystem::file_size(f.path));
      files.push_back(std::move(f));
    }
    // The files as plain Parquet: their rows and physical positions.
    if (!db.Exec("CREATE VIRTUAL TABLE fz USING parquet(" + Quote(root + "/data") + ", format=files)")) return false;
    // Each file's null counts and bounds (field ids 1, 2, ...: the columns in order).
    const bool with_bounds = rng.Chance(85);
    for (DataFile& f : files) {
      std::vector<std::string> nulls, lowers, uppers;
      for (size_t i = 0; i < specs.size(); i++) {
        const std::string column = QuoteIdentifier(specs[i].name);
        std::vector<std::string> got;
        if (!db.Query("SELECT count(*) - count(" + column + "), min(" + column + "), max(" + column +
                      ") FROM fz WHERE filename = " + Quote(f.path), "", &got) || got.size() != 1) {
          db.error = "no rows of " + f.path + " in fz: " + db.error;
          return false;
        }
        const std::string& r = got[0];
        const size_t b1 = r.find('|'), b2 = r.find('|', b1 + 1);
        const std::string lo = r.substr(b1 + 1, b2 - b1 - 1), hi = r.substr(b2 + 1);
        const int64_t id = static_cast<int64_t>(i) + 1;
        nulls.push_back(AvroLong(id) + AvroLong(std::atoll(r.c_str() + 1)));
        const int kind = types[i]->bound_bytes;
        if (!with_bounds || kind == 0 || lo == "NULL" || !rng.Chance(90)) continue;
        auto bound = [kind](const std::string& tagged) {
          if (kind < 0) return tagged.substr(1);  // (a text value: its UTF-8 bytes)
          std::string out;
          AppendLe(&out, static_cast<uint64_t>(std::strtoll(tagged.c_str() + 1, nullptr, 10)), kind);
          return out;
        };
        if ((kind < 0) != (lo[0] == 't') || (kind < 0) != (hi[0] == 't')) continue;
        lowers.push_back(AvroLong(id) + AvroBytes(bound(lo)));
        uppers.push_back(AvroLong(id) + AvroBytes(bound(hi)));
      }
      f.null_counts = AvroSome(AvroBlocks(nulls));
      f.lower = lowers.empty() ? AvroNull() : AvroSome(AvroBlocks(lowers));
      f.upper = uppers.empty() ? AvroNull() : AvroSome(AvroBlocks(uppers));
    }
    // Manifests: the data files grouped by k (a group split in two at random), then the
    // deletes of the second snapshot.
    struct Manifest {
      std::vector<size_t> data;  // indexes into files
      std::string path;
    };
    std::vector<Manifest> manifests;
    for (size_t i = 0; i < files.size(); i++) {
      if (manifests.empty() || files[i].k != files[manifests.back().data.back()].k || rng.Chance(20)) manifests.emplace_back();
      manifests.back().data.push_back(i);
    }
    auto int_value = [](const std::string& literal) {
      return literal == "NULL" ? AvroNull() : AvroSome(AvroLong(std::atoll(literal.c_str())));
    };
    auto bound4 = [](const std::string& literal) {
      std::string out;
      AppendLe(&out, static_cast<uint64_t>(std::atoll(literal.c_str())), 4);
      return out;
    };
    auto entry = [](int content, const std::string& path, const std::string& partition, int64_t records, int64_t size,
                    const std::string& nulls, const std::string& lower, const std::string& upper, const std::string& ids) {
      return AvroLong(1) + AvroNull() + AvroNull() + AvroNull() +  // ADDED; snapshot and sequence numbers inherited
             AvroLong(content) + AvroBytes(path) + AvroBytes("PARQUET") + partition + AvroLong(records) + AvroLong(size) +
             nulls + lower + upper + ids;
    };
    const std::string spec0_fields =
        "{\"name\":\"k\",\"type\":[\"null\",\"int\"],\"field-id\":1000,\"default\":null},"
        "{\"name\":\"v_trunc\",\"type\":[\"null\",\"long\"],\"field-id\":1001,\"default\":null}";
    std::vector<std::string> list_records;
    auto add_manifest = [&](const std::string& name, int content, int spec_id, int64_t sequence,
                            const std::vector<std::string>& entries, int64_t record_total,
                            const std::vector<const DataFile*>& partitions) {
      const std::string path = root + "/metadata/" + name;
      const std::string bytes = AvroContainer(IcebergEntrySchema(spec_id == 0 ? spec0_fields : ""), entries,
                                              {{"format-version", "2"}, {"partition-spec-id", std::to_string(spec_id)},
                                               {"content", content == 0 ? "data" : "deletes"}});
      if (!WriteFile(path, bytes)) return false;
      std::string summary = AvroNull();
      if (spec_id == 0 && (content == 0 || rng.Chance(50))) {
        std::vector<std::string> fields;
        for (int field = 0; field < 2; field++) {
          bool has_null = false;
          int64_t lo = 0, hi = 0;
          bool any = false;
          for (const DataFile* f : partitions) {
            const std::string& v = field == 0 ? f->k : f->tv;
            if (v == "NULL") {
              has_null = true;
              continue;
            }
            const int64_t x = std::atoll(v.c_str());
            lo = any ? std::min(lo, x) : x;
            hi = any ? std::max(hi, x) : x;
            any = true;
          }
          std::string item(1, has_null ? '\1' : '\0');
          item += AvroNull();  // contains_nan
          if (field == 0) {
            item += any ? AvroSome(AvroBytes(bound4(std::to_string(lo)))) + AvroSome(AvroBytes(bound4(std::to_string(hi))))
                        : AvroNull() + AvroNull();
          } else {
            std::string l, h;
            AppendLe(&l, static_cast<uint64_t>(lo), 8);
            AppendLe(&h, static_cast<uint64_t>(hi), 8);
            item += any ? AvroSome(AvroBytes(l)) + AvroSome(AvroBytes(h)) : AvroNull() + AvroNull();
          }
          fields.push_back(item);
        }
        summary = AvroSome(AvroBlocks(fields));
      }
      list_records.push_back(AvroBytes(path) + AvroLong(static_cast<int64_t>(bytes.size())) + AvroLong(spec_id) +
                             AvroLong(content) + AvroLong(sequence) + AvroLong(sequence) + AvroLong(sequence) +
                             AvroLong(static_cast<int64_t>(entries.size())) + AvroLong(0) + AvroLong(0) +
                             AvroLong(record_total) + AvroLong(0) + AvroLong(0) + summary);
      return true;
    };
    for (size_t m = 0; m < manifests.size(); m++) {
      std::vector<std::string> entries;
      std::vector<const DataFile*> partitions;
      int64_t total = 0;
      for (size_t i : manifests[m].data) {
        const DataFile& f = files[i];
        entries.push_back(entry(0, f.path, int_value(f.k) + int_value(f.tv), f.rows, f.size, f.null_counts, f.lower, f.upper,
                                AvroNull()));
        partitions.push_back(&f);
        total += f.rows;
      }
      if (!add_manifest("data-" + std::to_string(m) + ".avro", 0, 0, 1, entries, total, partitions)) return false;
    }
    // Position delete files (sequence 2), one per chosen data file, in its partition.
    std::vector<std::string> delete_entries;
    std::vector<const DataFile*> delete_partitions;
    int64_t position_deletes = 0;
    for (size_t i = 0; i < files.size(); i++) {
      DataFile& f = files[i];
      if (!rng.Chance(50)) continue;
      std::vector<int64_t>& positions = f.deleted;
      const int kind = rng.Int(10);
      if (kind == 0) {
        for (int64_t r = 0; r < f.rows; r++) positions.push_back(r);
      } else if (kind < 3) {
        const int64_t from = rng.Int(static_cast<int>(f.rows)), length = rng.Range(1, 100);
        for (int64_t r = from; r < std::min(f.rows, from + length); r++) positions.push_back(r);
      } else {
        for (int k = rng.Range(1, 20); k > 0; k--) positions.push_back(rng.Int(static_cast<int>(f.rows)));
        std::sort(positions.begin(), positions.end());
        positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
      }
      std::string values;
      for (int64_t p : positions) values += (values.empty() ? "(" : ", (") + Quote(f.path) + ", " + std::to_string(p) + ")";
      const std::string path = root + "/deletes/pos-" + std::to_string(i) + ".parquet";
      std::vector<std::string> got;
      if (!db.Exec("DROP TABLE IF EXISTS dsrc; CREATE TEMP TABLE dsrc(file_path, pos); INSERT INTO dsrc VALUES " + values) ||
          !db.Query("SELECT parquet_copy('SELECT * FROM dsrc ORDER BY pos', " + Quote(path) +
                    ", 'schema=file_path STRING, pos INT64')", "", &got)) {
        return false;
      }
      delete_entries.push_back(entry(1, path, int_value(f.k) + int_value(f.tv), static_cast<int64_t>(positions.size()),
                                     static_cast<int64_t>(std::filesystem::file_size(path)), AvroNull(), AvroNull(), AvroNull(),
                                     AvroNull()));
      delete_partitions.push_back(&f);
      position_deletes += static_cast<int64_t>(positions.size());
    }
    if (!delete_entries.empty() && !add_manifest("deletes-0.avro", 1, 0, 2, delete_entries, position_deletes, delete_partitions)) {
      return false;
    }
    // The equality delete file (spec 1, unpartitioned: every partition) on one column of
    // integers or text: a few of its values, and NULL at times.
    std::vector<size_t> eq_candidates;
    for (size_t i = 1; i < specs.size(); i++) {
      if (types[i]->bound_bytes != 0 && specs[i].null_percent < 100) eq_candidates.push_back(i);
    }
    std::string eq_column;
    std::vector<std::string> eq_values;
    if (!eq_candidates.empty() && rng.Chance(80)) {
      const size_t c = rng.Pick(eq_candidates);
      eq_column = specs[c].name;
      std::vector<std::string> got;
      if (!db.Query("SELECT DISTINCT quote(" + QuoteIdentifier(eq_column) + ") FROM fz ORDER BY random() LIMIT " +
                    std::to_string(rng.Range(1, 4)), "", &got)) {
        return false;
      }
      for (const std::string& v : got) eq_values.push_back(v.substr(1));
      if (rng.Chance(30)) eq_values.push_back("NULL");
      std::string values;
      for (const std::string& v : eq_values) values += (values.empty() ? "(" : ", (") + v + ")";
      const std::string path = root + "/deletes/eq-" + eq_column + ".parquet";
      if (!db.Exec("DROP TABLE IF EXISTS dsrc; CREATE TEMP TABLE dsrc(" + eq_column + "); INSERT INTO dsrc VALUES " + values) ||
          !db.Exec("SELECT parquet_copy('SELECT * FROM dsrc', " + Quote(path) + ", 'schema=" + eq_column + " " +
                   specs[c].copy_type + "')")) {
        return false;
      }
      const std::string eq = entry(2, path, "", static_cast<int64_t>(eq_values.size()),
                                   static_cast<int64_t>(std::filesystem::file_size(path)), AvroNull(), AvroNull(), AvroNull(),
                                   AvroSome(AvroBlocks({AvroLong(static_cast<int64_t>(c) + 1)})));
      if (!add_manifest("deletes-1.avro", 1, 1, 2, {eq}, static_cast<int64_t>(eq_values.size()), {})) return false;
      t->description += ", equality deletes on " + eq_column + " (" + std::to_string(eq_values.size()) + " values)";
    }
    const int64_t snapshot = delete_entries.empty() && eq_column.empty() ? 1 : 2;
    const std::string list_path = root + "/metadata/snap-" + std::to_string(snapshot) + ".avro";
    if (!WriteFile(list_path, AvroContainer(kIcebergListSchema, list_records, {}))) return false;
    std::string fields;
    for (size_t i = 0; i < specs.size(); i++) {
      fields += (i ? "," : "") + std::string("{\"id\":") + std::to_string(i + 1) + ",\"name\":\"" + specs[i].name +
                "\",\"required\":false,\"type\":\"" + types[i]->iceberg_type + "\"}";
    }
    const std::string metadata =
        "{\"format-version\":2,\"table-uuid\":\"00000000-0000-0000-0000-000000000047\",\"location\":\"" + JsonEscape(root) +
        "\",\"last-sequence-number\":" + std::to_string(snapshot) + ",\"last-updated-ms\":0,\"last-column-id\":" +
        std::to_string(specs.size()) + ",\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,\"fields\":[" +
        fields + "]}],\"default-spec-id\":0,\"last-partition-id\":1001,\"partition-specs\":[{\"spec-id\":0,\"fields\":["
        "{\"source-id\":2,\"field-id\":1000,\"name\":\"k\",\"transform\":\"identity\"},"
        "{\"source-id\":3,\"field-id\":1001,\"name\":\"v_trunc\",\"transform\":\"truncate[10]\"}]},{\"spec-id\":1,\"fields\":[]}],"
        "\"properties\":{},\"current-snapshot-id\":" + std::to_string(snapshot) + ",\"snapshots\":[{\"snapshot-id\":" +
        std::to_string(snapshot) + ",\"sequence-number\":" + std::to_string(snapshot) +
        ",\"timestamp-ms\":0,\"summary\":{\"operation\":\"append\"},\"manifest-list\":\"" + JsonEscape(list_path) +
        "\",\"schema-id\":0}]}";
    if (!WriteFile(root + "/metadata/v1.metadata.json", metadata) || !WriteFile(root + "/metadata/version-hint.text", "1")) {
      return false;
    }
    // The expected rows: the files' rows less the deleted positions and the rows the
    // equality delete matches (NULL matching NULL).
    if (!db.Exec("DROP TABLE IF EXISTS gone; CREATE TEMP TABLE gone(filename TEXT, position INTEGER, PRIMARY KEY(filename, position))")) {
      return false;
    }
    db.Exec("BEGIN");
    for (const DataFile& f : files) {
      for (int64_t position : f.deleted) db.Exec("INSERT INTO gone VALUES(" + Quote(f.path) + ", " + std::to_string(position) + ")");
    }
    db.Exec("COMMIT");
    std::string keep = "NOT EXISTS (SELECT 1 FROM gone WHERE gone.filename = fz.filename AND gone.position = fz.file_row_number)";
    for (const std::string& v : eq_values) keep += " AND fz." + QuoteIdentifier(eq_column) + " IS NOT " + v;
    std::vector<std::string> live;
    if (!db.Query("SELECT count(*) FROM fz WHERE " + keep, "", &live) || live.size() != 1) return false;
    const int64_t live_rows = std::atoll(live[0].c_str() + 1);
    if (!db.Exec("CREATE VIRTUAL TABLE p USING parquet(" + Quote(root) + ")")) return false;
    std::vector<std::string> info;
    if (!db.Query("SELECT name, type FROM pragma_table_info('p')", "", &info)) return false;
    t->columns.clear();
    t->types.clear();
    std::string n_columns, select, names;
    for (const std::string& row : info) {
      const size_t bar = row.find('|');
      t->columns.push_back(row.substr(1, bar - 1));
      t->types.push_back(row.substr(bar + 2));
      n_columns += QuoteIdentifier(t->columns.back()) + " " + t->types.back() + ", ";
      select += "fz." + QuoteIdentifier(t->columns.back()) + ", ";
      names += QuoteIdentifier(t->columns.back()) + ", ";
    }
    // The rowid of each (file, position) as the table numbers them, read without any column.
    if (!db.Exec("CREATE TABLE n(" + n_columns + "file_row_number INTEGER)") ||
        !db.Exec("CREATE TEMP TABLE pr AS SELECT rowid AS r, filename, file_row_number FROM p") ||
        !db.Exec("CREATE INDEX temp.pr_position ON pr(filename, file_row_number)") ||
        !db.Exec("INSERT INTO n(rowid, " + names + "file_row_number) SELECT pr.r, " + select +
                 "fz.file_row_number FROM fz JOIN pr ON pr.filename = fz.filename AND pr.file_row_number = fz.file_row_number "
                 "WHERE " + keep)) {
      return false;
    }
    std::vector<std::string> counts;
    if (!db.Query("SELECT (SELECT count(*) FROM n), (SELECT count(*) FROM pr)", "", &counts) || counts.size() != 1 ||
        counts[0] != "i" + std::to_string(live_rows) + "|i" + std::to_string(live_rows)) {
      db.error = "the table gives rows (native, table) " + (counts.empty() ? std::string("?") : counts[0]) + ", expected " +
                 std::to_string(live_rows) + " of " + std::to_string(rows);
      return false;
    }
    t->source = Quote(root);
    t->sorted_column.clear();
    t->hive = false;
    t->delta_partition_key = "k";
    t->iceberg = true;
    t->rows = live_rows;
    t->description += ", " + std::to_string(files.size()) + " files in " + std::to_string(manifests.size()) + " manifests, " +
                      std::to_string(position_deletes) + " positions deleted, " + std::to_string(rows - live_rows) +
                      " rows deleted";
    t->samples.assign(t->columns.size(), {});
    for (size_t c = 0; c < t->columns.size(); c++) {
      std::vector<std::string> values;
      db.Query("SELECT quote(" + QuoteIdentifier(t->columns[c]) + ") FROM n ORDER BY random() LIMIT 12", "", &values);
      for (std::string& v : values) t->samples[c].push_back(v.substr(1));
    }
    iceberg_tables++;
    iceberg_rows_deleted += rows - live_rows;
    return true;
  }

  // The scans of a Delta table that read no column (count(*), bare rowids and row numbers:
  // the files' rows counted from the log, not opened) against n.
  void RunDeltaCounts(const Table& t) {
    std::vector<std::string> queries = {
        "SELECT count(*) FROM %s", "SELECT rowid FROM %s", "SELECT rowid, file_row_number FROM %s",
        "SELECT rowid FROM %s LIMIT 5 OFFSET 3", "SELECT count(*), sum(rowid), max(file_row_number) FROM %s"};
    if (!t.delta_partition_key.empty()) {
      // Constraints on the partition key alone prune files and leave the others counted:
      // random constants of the key's values, in other storage classes too, and NULL.
      const auto column = std::find(t.columns.begin(), t.columns.end(), t.delta_partition_key);
      if (column != t.columns.end()) {
        const size_t c = static_cast<size_t>(column - t.columns.begin());
        const std::string key = QuoteIdentifier(t.delta_partition_key);
        queries.push_back("SELECT " + key + ", count(*), sum(rowid), max(file_row_number) FROM %s GROUP BY " + key);
        for (int i = 0; i < 4; i++) {
          static const char* const kOperators[] = {" = ", " >= ", " < ", " <> "};
          queries.push_back("SELECT count(*), sum(rowid) FROM %s WHERE " + key + rng.Pick(std::vector<std::string>(
                                std::begin(kOperators), std::end(kOperators))) + Constant(rng, t, c));
        }
        queries.push_back("SELECT count(*) FROM %s WHERE " + key + " IS NULL");
        queries.push_back("SELECT count(*), sum(file_row_number) FROM %s WHERE " + key + " IN (" + Constant(rng, t, c) +
                          ", " + Constant(rng, t, c) + ")");
      }
    }
    for (const std::string& query : queries) {
      auto sql_for = [&query](const char* table) {
        std::string sql = query;
        sql.replace(sql.find("%s"), 2, table);
        return sql;
      };
      std::vector<std::string> expected, actual;
      const bool ok_n = db.Query(sql_for("n"), "", &expected);
      const bool ok_p = db.Query(sql_for("p"), "", &actual);
      if (query.find("LIMIT") != std::string::npos) {
        // Which rows a LIMIT without ORDER BY gives is not defined: as many, each one of n's.
        std::vector<std::string> all;
        db.Query("SELECT rowid FROM n", "", &all);
        std::sort(all.begin(), all.end());
        std::sort(actual.begin(), actual.end());
        if (!ok_p || actual.size() != expected.size() || !std::includes(all.begin(), all.end(), actual.begin(), actual.end())) {
          Fail(t, "LIMIT rows differ", sql_for("p"), "", expected, actual);
          return;
        }
        continue;
      }
      std::sort(expected.begin(), expected.end());
      std::sort(actual.begin(), actual.end());
      if (ok_n != ok_p || expected != actual) {
        Fail(t, ok_n != ok_p ? "one failed: " + db.error : "rows differ", sql_for("p"), "", expected, actual);
        return;
      }
    }
    std::vector<std::string> stats;
    db.Query("SELECT count(*) FROM p", "", &stats);
    if (!db.Query("SELECT files_counted, files_opened FROM parquet_scan_stats('p')", "", &stats) || stats.size() != 1) {
      Fail(t, "parquet_scan_stats: " + db.error, "", "", {}, {});
      return;
    }
    if (stats[0].rfind("i0|", 0) != 0) delta_counted_scans++;
    passed++;
  }

  void RunQuery(const Table& t) {
    std::string parameter;
    std::string where = Where(rng, t, &parameter);
    std::string select_list;
    for (const std::string& c : t.columns) select_list += (select_list.empty() ? "" : ", ") + QuoteIdentifier(c);
    if (rng.Chance(30)) select_list = "id";
    std::string tail;
    enum { kMultiset, kOrdered, kCount, kLimitAny } mode = kMultiset;
    const int shape = rng.Int(100);
    if (shape < 15) {
      tail = " ORDER BY id";
      mode = kOrdered;
    } else if (shape < 30) {
      tail = " ORDER BY id LIMIT " + std::to_string(rng.Range(0, 20)) +
             (rng.Chance(50) ? " OFFSET " + std::to_string(rng.Range(0, 30)) : "");
      mode = kOrdered;
    } else if (shape < 40) {
      tail = " LIMIT " + std::to_string(rng.Range(0, 20)) +
             (rng.Chance(50) ? " OFFSET " + std::to_string(rng.Range(0, 30)) : "");
      mode = kLimitAny;
    } else if (shape < 50 && !t.sorted_column.empty()) {
      const std::string col = t.sorted_column == "id" ? "id" : QuoteIdentifier(t.sorted_column);
      select_list = col;
      tail = " ORDER BY " + col + (rng.Chance(50) ? " LIMIT " + std::to_string(rng.Range(1, 30)) : "");
      mode = kOrdered;
    } else if (shape < 58) {
      select_list = "count(*)";
    }
    const bool no_where = rng.Chance(3);
    // A compound SELECT whose LIMIT/OFFSET applies across its members (SQLite offers them
    // to each member's scan). Rows come in scan order on both sides when there is no rowid
    // term (a rowid lookup in the native table), no OR (SQLite may run one scan per OR
    // branch) and, before SQLite 3.38, no IN (SQLite runs one scan of the table per value).
    std::string second_where;
    if (rng.Chance(5)) {
      auto unordered = [](const std::string& w) {
        return w.find("rowid") != std::string::npos || w.find(" OR ") != std::string::npos ||
               (sqlite3_libversion_number() < 3038000 && w.find(" IN (") != std::string::npos);
      };
      for (int attempt = 0;
           attempt < 20 && (second_where.empty() || unordered(where) || unordered(second_where) || !parameter.empty());
           attempt++) {
        parameter.clear();
        where = Where(rng, t, &parameter);
        second_where = Where(rng, t, &parameter);
      }
      if (unordered(where) || unordered(second_where) || !parameter.empty()) {
        second_where.clear();
        parameter.clear();
        where = "1";
      } else {
        select_list = "id";
        tail = " LIMIT " + std::to_string(rng.Range(0, 20)) + " OFFSET " + std::to_string(rng.Range(0, 30));
        mode = kOrdered;
      }
    }
    auto sql_for = [&](const char* table) {
      if (!second_where.empty()) {
        return "SELECT id FROM " + std::string(table) + " WHERE " + where + " UNION ALL SELECT id FROM " + table +
               " WHERE " + second_where + tail;
      }
      return "SELECT " + select_list + " FROM " + table + (no_where ? "" : " WHERE " + where) + tail;
    };
    std::vector<std::string> expected, actual;
    const bool ok_n = db.Query(sql_for("n"), parameter, &expected);
    const std::string error_n = db.error;
    if (mode != kOrdered) std::sort(expected.begin(), expected.end());
    for (const std::string& name : ParquetTables(t)) {
      const char* table = name.c_str();
      if (name == "hd.hp" && !FreshHive()) {
        Fail(t, "reattaching hd: " + db.error, "", "", {}, {});
        return;
      }
      const bool ok_p = db.Query(sql_for(table), parameter, &actual);
      std::vector<std::string> stats;
      if (name == "p" &&
          db.Query("SELECT files_pruned > 0, row_groups_pruned_by_statistics > 0, row_groups_pruned_by_bloom_filter > 0, "
                   "row_groups_pruned_by_dictionary > 0, pages_pruned_by_page_index > 0, "
                   "row_groups_pruned_by_row_position > 0 FROM parquet_scan_stats('p')",
                   "", &stats) &&
          stats.size() == 1) {
        const std::string& r = stats[0];  // "i0|i1|..."
        pruned_files += r[1] == '1';
        pruned_statistics += r[4] == '1';
        pruned_bloom += r[7] == '1';
        pruned_dictionary += r[10] == '1';
        pruned_pages += r[13] == '1';
        pruned_positions += r[16] == '1';
      }
      if (name == "p" && t.iceberg &&
          db.Query("SELECT manifests_pruned > 0, files_pruned_by_lake_statistics > 0 FROM parquet_scan_stats('p')", "",
                   &stats) &&
          stats.size() == 1 && stats[0] != "i0|i0") {
        iceberg_pruned_scans++;
        iceberg_manifest_scans += stats[0][1] == '1';
      }
      if (name == "hd.hp" && db.Query("SELECT list_requests FROM parquet_scan_stats('hp')", "", &stats) &&
          stats.size() == 1 && std::atoll(stats[0].c_str() + 1) < t.whole_list_requests) {
        hive_listings_pruned++;
      }
      if (ok_n != ok_p) {
        Fail(t, "one failed: " + (ok_n ? db.error : error_n), sql_for(table), parameter, expected, actual);
        return;
      }
      if (!ok_n) continue;
      if (mode == kLimitAny) {
        // Which rows a LIMIT without ORDER BY returns is not defined: the count must match
        // and every row must be one the unlimited query returns.
        std::vector<std::string> all;
        std::string unlimited = "SELECT " + select_list + " FROM n" + (no_where ? "" : " WHERE " + where);
        db.Query(unlimited, parameter, &all);
        std::sort(all.begin(), all.end());
        bool subset = actual.size() == expected.size();
        std::vector<std::string> sorted = actual;
        std::sort(sorted.begin(), sorted.end());
        subset = subset && std::includes(all.begin(), all.end(), sorted.begin(), sorted.end());
        if (!subset) {
          Fail(t, "LIMIT rows differ", sql_for(table), parameter, expected, actual);
          return;
        }
      } else {
        if (mode != kOrdered) std::sort(actual.begin(), actual.end());
        if (expected != actual) {
          Fail(t, "rows differ", sql_for(table), parameter, expected, actual);
          return;
        }
      }
    }
    passed++;
  }
};

// Every kind of right-hand value against every kind of column, exhaustively and the same
// in every run: literals and bound parameters of each storage class (text that looks like
// a number included) with each pushed operator, and as the outer side of a join. Text
// compared with a column of numbers crashed SQLite 3.52 and later when its conversion ran
// on a copied value (issue 15); the rows must equal the native table's.
void RunComparisonMatrix(Runner& runner) {
  Db& db = runner.db;
  const std::string path = runner.dir + "/matrix.parquet";
  Table t;
  t.description = "comparison matrix";
  auto fail_setup = [&]() {
    std::printf("FAILED: comparison matrix set-up: %s\n", db.error.c_str());
    runner.failed++;
  };
  const std::string query =
      "WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 39) SELECT i AS id, "
      "CASE WHEN i % 7 = 3 THEN NULL ELSE (i % 13) * 10 - 20 END AS small, "
      "CASE WHEN i % 7 = 4 THEN NULL ELSE i * 2.5 END AS dbl, "
      "CASE WHEN i % 7 = 5 THEN NULL ELSE printf('%.2f', i * 2.5 - 10) END AS dec, "
      "CASE i % 8 WHEN 0 THEN '60' WHEN 1 THEN '60.0' WHEN 2 THEN 'abc' WHEN 3 THEN '' WHEN 4 THEN ' 60' "
      "WHEN 5 THEN '2.5' WHEN 6 THEN 'ABC' ELSE NULL END AS txt, "
      "CASE WHEN i % 7 = 6 THEN NULL ELSE CAST(printf('%d', i * 5) AS BLOB) END AS bin, "
      "date('2024-01-01', '+' || i || ' days') AS day, "
      "datetime('2024-01-01', '+' || (i * 3) || ' hours') AS ts, "
      "i % 2 AS flag, NULL AS nul FROM r";
  if (!db.Exec("SELECT parquet_copy(" + Quote(query) + ", " + Quote(path) +
               ", 'schema=id INT64, small INT32, dbl DOUBLE, dec DECIMAL(9,2), txt STRING, bin BINARY, day DATE, "
               "ts TIMESTAMP(MILLIS), flag BOOLEAN, nul INT64', 'row_group_size=8', 'page_size=40', "
               "'write_page_index=1', 'bloom_filter=*')") ||
      !db.Exec("DROP TABLE IF EXISTS p; DROP TABLE IF EXISTS n; CREATE VIRTUAL TABLE p USING parquet(" + Quote(path) +
               ")")) {
    fail_setup();
    return;
  }
  std::vector<std::string> info;
  if (!db.Query("SELECT name, type FROM pragma_table_info('p')", "", &info)) {
    fail_setup();
    return;
  }
  std::string n_columns, select;
  std::vector<std::string> columns = {"rowid", "file_row_number"};
  for (const std::string& row : info) {
    const size_t bar = row.find('|');
    columns.push_back(row.substr(1, bar - 1));
    n_columns += QuoteIdentifier(columns.back()) + " " + row.substr(bar + 2) + ", ";
    select += QuoteIdentifier(columns.back()) + ", ";
  }
  if (!db.Exec("CREATE TABLE n(" + n_columns + "file_row_number INTEGER)") ||
      !db.Exec("INSERT INTO n(rowid, " + select + "file_row_number) SELECT rowid, " + select + "file_row_number FROM p") ||
      !db.Exec("DROP TABLE IF EXISTS keys; CREATE TEMP TABLE keys AS SELECT NULL AS k UNION ALL SELECT 60 UNION ALL "
               "SELECT '60' UNION ALL SELECT '60.0' UNION ALL SELECT 2.5 UNION ALL SELECT '2.5' UNION ALL SELECT 'abc' "
               "UNION ALL SELECT x'3630' UNION ALL SELECT '2024-01-05' UNION ALL SELECT 1")) {
    fail_setup();
    return;
  }
  const std::vector<std::string> values = {"NULL",   "60",    "-1",     "60.0",    "2.5",  "'60'",
                                           "'60.0'", "' 60'", "'2.5'",  "'abc'",   "''",   "'1e1'",
                                           "x'3630'", "x''",  "1e19",   "'2024-01-05'", "'2024-01-01 06:00:00'", "1"};
  const std::vector<std::string> operators = {"= V",      "< V",       "> V",                "!= V",  "IS V",
                                              "IS NOT V", "IN (V, 1)", "BETWEEN V AND 1e30", "LIKE V"};
  auto compare = [&](const std::string& tail, const std::string& parameter, const std::string& from_n,
                     const std::string& from_p) {
    std::vector<std::string> expected, actual;
    const bool ok_n = db.Query("SELECT " + from_n + tail, parameter, &expected);
    const std::string error_n = db.error;
    const bool ok_p = db.Query("SELECT " + from_p + tail, parameter, &actual);
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
    if (ok_n != ok_p || expected != actual) {
      runner.Fail(t, ok_n == ok_p ? "rows differ" : "one failed: " + (ok_n ? db.error : error_n),
                  "SELECT " + from_p + tail, parameter, expected, actual);
    } else {
      runner.passed++;
    }
  };
  for (const std::string& column : columns) {
    const std::string name = column == "rowid" || column == "file_row_number" ? column : QuoteIdentifier(column);
    for (const std::string& op : operators) {
      const size_t slot = op.find('V');
      for (const std::string& value : values) {
        for (const bool bound : {false, true}) {
          const std::string where =
              " WHERE " + name + " " + op.substr(0, slot) + (bound ? "?1" : value) + op.substr(slot + 1);
          compare(where, bound ? value : "", "rowid FROM n", "rowid FROM p");
        }
      }
    }
    // The inner side of a join whose keys have every storage class and no declared type.
    for (const char* op : {" = ", " < "}) {
      const std::string n_sql = "k, n.rowid FROM keys JOIN n ON n." + name + op + "k";
      const std::string p_sql = "k, p.rowid FROM keys JOIN p ON p." + name + op + "k";
      compare("", "", n_sql, p_sql);
    }
  }
  db.Exec("DROP TABLE p; DROP TABLE n; DROP TABLE keys");
}

// sqlite3_interrupt() reaches a scan that passes over many row groups without returning a
// row (the table checks for it at every row group), and the build of a join index (which
// the first lookup of a column without statistics starts). Returns false on failure.
bool CheckInterrupt(Db& db, const std::string& dir) {
  const std::string path = dir + "/interrupt.parquet";
  if (!db.Exec("SELECT parquet_copy('WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 2999999) "
               "SELECT x AS id FROM c', " + Quote(path) + ", 'row_group_size=20000', 'statistics=0');"
               "CREATE VIRTUAL TABLE big USING parquet(" + Quote(path) + ", join_index_memory=0);"
               "CREATE VIRTUAL TABLE big_indexed USING parquet(" + Quote(path) + ")")) {
    std::printf("FAILED: interrupt: %s\n", db.error.c_str());
    return false;
  }
  auto run = [&](const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db.db, sql, -1, &stmt, nullptr);
    int rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    return rc;
  };
#ifdef PQ_LINKED_EXTENSION
  // The WebAssembly build (tests/wasm) has no threads to interrupt from: the full scan runs,
  // the interrupts are not tried.
  const bool scanned = run("SELECT count(*) FROM big WHERE id = -1") == SQLITE_ROW;
  if (!scanned) std::printf("FAILED: interrupt: the full scan failed\n");
  db.Exec("DROP TABLE big; DROP TABLE big_indexed");
  return scanned;
#endif
  auto start = std::chrono::steady_clock::now();
  const int rc_full = run("SELECT count(*) FROM big WHERE id = -1");
  const auto full = std::chrono::steady_clock::now() - start;
  double full_ms = std::chrono::duration<double, std::milli>(full).count();
  bool ok = rc_full == SQLITE_ROW;
  for (const char* sql : {"SELECT count(*) FROM big WHERE id = -1", "SELECT count(*) FROM big_indexed WHERE id = -1"}) {
    // On a loaded machine the interrupting thread may not run before the scan ends (it
    // then returns its row), or run late (the interrupted scan takes most of a full one):
    // such an attempt is made again, up to three, a late one after timing a full scan again
    // (the longest full scan is the measure); a scan that never notices the interrupt, or
    // notices it only late, fails all three.
    int rc = SQLITE_ROW;
    double interrupted_ms = 0;
    for (int attempt = 0; attempt < 3 && (rc != SQLITE_INTERRUPT || interrupted_ms > full_ms * 0.8); attempt++) {
      std::atomic<bool> stop{false};
      std::thread interrupter([&]() {
        // Interrupt repeatedly until the query ends: a single early call could land before
        // the statement starts.
        while (!stop.load()) {
          std::this_thread::sleep_for(full / 20);
          sqlite3_interrupt(db.db);
        }
      });
      start = std::chrono::steady_clock::now();
      rc = run(sql);
      const auto interrupted = std::chrono::steady_clock::now() - start;
      stop = true;
      interrupter.join();
      interrupted_ms = std::chrono::duration<double, std::milli>(interrupted).count();
      if (rc == SQLITE_INTERRUPT && interrupted_ms > full_ms * 0.8 && attempt < 2) {
        // Late: time a full scan again (the machine's load now), the longest is the measure.
        start = std::chrono::steady_clock::now();
        if (run("SELECT count(*) FROM big WHERE id = -1") == SQLITE_ROW) {
          full_ms = std::max(full_ms, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
      }
    }
    if (rc_full != SQLITE_ROW || rc != SQLITE_INTERRUPT || interrupted_ms > full_ms * 0.8) {
      std::printf("FAILED: interrupt: %s: full scan rc %d in %.1f ms, interrupted rc %d after %.1f ms\n", sql, rc_full,
                  full_ms, rc, interrupted_ms);
      ok = false;
    }
  }
  db.Exec("DROP TABLE big; DROP TABLE big_indexed");
  return ok;
}

}  // namespace

// parquet_bbox_intersects pushed into the table (row groups pruned by GeospatialStatistics,
// or by a GeoParquet covering bbox column beside a plain BLOB of WKB): random geometries
// (points XY/XYZ in either byte order, lines, polygons, multipoints, empty geometries,
// NULLs) clustered so that row groups have different boxes, and random query boxes. The
// reference is a native table of the envelopes computed here, independent of the WKB
// parser: both must give the same ids.
struct GeoRow {
  std::string wkb;  // empty: NULL
  bool has_envelope = false;
  double xmin = 0, ymin = 0, xmax = 0, ymax = 0;
};

void AppendWkbDouble(std::string* out, double value, bool little) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  for (int i = 0; i < 8; i++) out->push_back(static_cast<char>(bits >> (8 * (little ? i : 7 - i))));
}

void AppendWkbUInt32(std::string* out, uint32_t value, bool little) {
  for (int i = 0; i < 4; i++) out->push_back(static_cast<char>(value >> (8 * (little ? i : 3 - i))));
}

GeoRow RandomGeometry(Rng& rng, int64_t row) {
  GeoRow g;
  if (rng.Chance(5)) return g;  // NULL
  const bool little = !rng.Chance(20);
  const double cx = static_cast<double>(row) * 0.5 + rng.Range(-20, 20) * 0.25;
  const double cy = rng.Range(-400, 400) * 0.125;
  auto point = [&](std::string* out, bool z) {
    const double x = cx + rng.Range(-8, 8) * 0.5, y = cy + rng.Range(-8, 8) * 0.5;
    AppendWkbDouble(out, x, little);
    AppendWkbDouble(out, y, little);
    if (z) AppendWkbDouble(out, rng.Range(0, 100), little);
    if (!g.has_envelope) {
      g.xmin = g.xmax = x;
      g.ymin = g.ymax = y;
      g.has_envelope = true;
    }
    g.xmin = std::min(g.xmin, x), g.xmax = std::max(g.xmax, x);
    g.ymin = std::min(g.ymin, y), g.ymax = std::max(g.ymax, y);
  };
  std::string& w = g.wkb;
  w.push_back(little ? 1 : 0);
  const int kind = rng.Int(7);
  if (kind == 0 || kind == 1) {  // Point, Point Z
    AppendWkbUInt32(&w, kind == 0 ? 1 : 1001, little);
    point(&w, kind == 1);
  } else if (kind == 2) {  // LineString of 0..4 points
    AppendWkbUInt32(&w, 2, little);
    const int n = rng.Range(0, 4);
    AppendWkbUInt32(&w, static_cast<uint32_t>(n), little);
    for (int i = 0; i < n; i++) point(&w, false);
  } else if (kind == 3) {  // Polygon of 0 or 1 ring
    AppendWkbUInt32(&w, 3, little);
    const int rings = rng.Range(0, 1);
    AppendWkbUInt32(&w, static_cast<uint32_t>(rings), little);
    if (rings) {
      AppendWkbUInt32(&w, 4, little);
      for (int i = 0; i < 4; i++) point(&w, false);
    }
  } else if (kind == 4) {  // MultiPoint
    AppendWkbUInt32(&w, 4, little);
    const int n = rng.Range(0, 3);
    AppendWkbUInt32(&w, static_cast<uint32_t>(n), little);
    for (int i = 0; i < n; i++) {
      w.push_back(little ? 1 : 0);
      AppendWkbUInt32(&w, 1, little);
      point(&w, false);
    }
  } else if (kind == 5) {  // the empty point
    AppendWkbUInt32(&w, 1, little);
    AppendWkbDouble(&w, std::numeric_limits<double>::quiet_NaN(), little);
    AppendWkbDouble(&w, std::numeric_limits<double>::quiet_NaN(), little);
  } else {  // empty collection
    AppendWkbUInt32(&w, 7, little);
    AppendWkbUInt32(&w, 0, little);
  }
  return g;
}

std::string Real(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

void RunBboxDifferential(Runner& runner, int tables, int queries) {
  Rng& rng = runner.rng;
  Db& db = runner.db;
  int64_t pruned = 0, total = 0;
  for (int t = 0; t < tables; t++) {
    const int rows = rng.Range(100, 600);
    db.Exec("DROP TABLE IF EXISTS gn; DROP TABLE IF EXISTS gp;");
    db.Exec("CREATE TABLE gn(id INTEGER PRIMARY KEY, g BLOB, bbox TEXT, exmin REAL, eymin REAL, exmax REAL, eymax REAL)");
    for (int64_t r = 0; r < rows; r++) {
      const GeoRow g = RandomGeometry(rng, r);
      const std::string bbox = g.has_envelope ? "'{\"xmin\":" + Real(g.xmin) + ",\"ymin\":" + Real(g.ymin) + ",\"xmax\":" +
                                                    Real(g.xmax) + ",\"ymax\":" + Real(g.ymax) + "}'"
                                              : "NULL";
      db.Exec("INSERT INTO gn VALUES (" + std::to_string(r) + ", " + (g.wkb.empty() ? "NULL" : Hex(g.wkb)) + ", " +
              bbox + ", " + (g.has_envelope ? Real(g.xmin) + ", " + Real(g.ymin) + ", " + Real(g.xmax) + ", " + Real(g.ymax)
                                            : "NULL, NULL, NULL, NULL") +
              ")");
    }
    // Odd tables: WKB in a plain BLOB column (no GeospatialStatistics) with a GeoParquet 1.1
    // covering bbox column, which prunes instead (empty geometries get no box: their rows
    // never match).
    const bool covering = t % 2 == 1;
    const std::string path = runner.dir + "/geo" + std::to_string(t) + ".parquet";
    std::string copy = "SELECT parquet_copy('SELECT id, g" + std::string(covering ? ", bbox" : "") + " FROM gn', '" + path +
                       "', 'row_group_size=" + std::to_string(rng.Range(10, 80)) + "'";
    if (!covering) copy += ", 'geometry=g'";
    if (covering) {
      copy += ", 'schema=bbox STRUCT<xmin DOUBLE, ymin DOUBLE, xmax DOUBLE, "
              "ymax DOUBLE>', 'kv_metadata=geo={\"version\":\"1.1.0\",\"primary_column\":\"g\",\"columns\":{\"g\":{"
              "\"encoding\":\"WKB\",\"geometry_types\":[],\"covering\":{\"bbox\":{\"xmin\":[\"bbox\",\"xmin\"],"
              "\"ymin\":[\"bbox\",\"ymin\"],\"xmax\":[\"bbox\",\"xmax\"],\"ymax\":[\"bbox\",\"ymax\"]}}}}}'";
    }
    copy += ")";
    std::vector<std::string> out;
    if (!db.Query(copy, "", &out) || !db.Exec("CREATE VIRTUAL TABLE gp USING parquet('" + path + "')")) {
      std::printf("FAILED (seed %" PRIu64 "): bbox table %d: %s\n", runner.seed, t, db.error.c_str());
      runner.failed++;
      continue;
    }
    for (int q = 0; q < queries; q++) {
      double x1 = rng.Range(-20, rows / 2 + 20) * 1.0, y1 = rng.Range(-60, 60) * 1.0;
      double x2 = x1 + rng.Range(0, 40) * 0.5, y2 = y1 + rng.Range(0, 60) * 0.5;
      const std::string box = "'[" + Real(x1) + ", " + Real(y1) + ", " + Real(x2) + ", " + Real(y2) + "]'";
      const std::string actual_sql = "SELECT id FROM gp WHERE parquet_bbox_intersects(g, " + box + ") ORDER BY id";
      const std::string expected_sql = "SELECT id FROM gn WHERE exmin <= " + Real(x2) + " AND exmax >= " + Real(x1) +
                                       " AND eymin <= " + Real(y2) + " AND eymax >= " + Real(y1) + " ORDER BY id";
      std::vector<std::string> expected, actual, plan, stats;
      const bool ok = db.Query(expected_sql, "", &expected) && db.Query(actual_sql, "", &actual);
      db.Query("SELECT row_groups_pruned_by_statistics, row_groups_total FROM parquet_scan_stats('gp')", "", &stats);
      db.Query("EXPLAIN QUERY PLAN " + actual_sql, "", &plan);
      const bool pushed = !plan.empty() && plan[0].find("BBOX_INTERSECTS") != std::string::npos;
      if (!ok || !pushed || expected != actual) {
        std::printf("FAILED (seed %" PRIu64 "): %s%s\n  %s\n  expected %zu rows, got %zu\n", runner.seed,
                    ok ? "" : db.error.c_str(), pushed ? "" : "not pushed", actual_sql.c_str(), expected.size(),
                    actual.size());
        runner.failed++;
        continue;
      }
      if (stats.size() == 1) {
        // "i<pruned>|i<total>" (type-tagged)
        pruned += std::atoll(stats[0].c_str() + 1);
        total += std::atoll(stats[0].c_str() + stats[0].find('|') + 2);
      }
      runner.passed++;
    }
    db.Exec("DROP TABLE gp");
  }
  std::printf("differential: parquet_bbox_intersects pruned %" PRId64 " of %" PRId64 " row groups scanned\n", pruned,
              total);
  if (tables > 0 && queries > 0 && pruned == 0) {
    std::printf("FAILED (seed %" PRIu64 "): parquet_bbox_intersects pruned no row group\n", runner.seed);
    runner.failed++;
  }
}

int main(int argc, char** argv) {
  std::string extension;
  int tables = 12, queries = 250, delta_tables = 4;
#if defined(_WIN32) || defined(PQ_LINKED_EXTENSION)
  // (Not yet tried under wine and in the WebAssembly build: their runs ask for them.)
  int iceberg_tables = 0;
#else
  int iceberg_tables = 4;
#endif
  std::string dir;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--extension") extension = argv[i + 1];
    else if (flag == "--tables") tables = std::atoi(argv[i + 1]);
    else if (flag == "--queries") queries = std::atoi(argv[i + 1]);
    else if (flag == "--delta-tables") delta_tables = std::atoi(argv[i + 1]);
    else if (flag == "--iceberg-tables") iceberg_tables = std::atoi(argv[i + 1]);
    else if (flag == "--dir") dir = argv[i + 1];
  }
#ifdef PQ_LINKED_EXTENSION
  // The WebAssembly build links the extension in and registers it for every connection.
  extension = "(linked in)";
#endif
  if (extension.empty()) {
    std::fprintf(stderr, "usage: %s --extension PATH [--tables N] [--queries N] [--delta-tables N] [--iceberg-tables N] [--dir DIR]\n",
                 argv[0]);
    return 2;
  }
  if (!CheckExpectedSqlite("differential")) return 1;
  Runner runner;
  const char* seed_text = std::getenv("DIFFERENTIAL_SEED");
  runner.seed = seed_text ? std::strtoull(seed_text, nullptr, 10)
                          : static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                                (static_cast<uint64_t>(std::random_device{}()) << 32);
  runner.rng.state = runner.seed;
  std::printf("differential: seed %" PRIu64 " (set DIFFERENTIAL_SEED to repeat)\n", runner.seed);
  const bool own_dir = dir.empty();
  if (own_dir) {
    // A new directory in the system's temporary folder (also on Windows, where the windows
    // suite runs this program under wine): named by the seed, created only if not there.
    std::error_code error;
    std::filesystem::path base = std::filesystem::temp_directory_path(error);
    if (error) base = "/tmp";
    for (int attempt = 0; dir.empty() && attempt < 100; attempt++) {
      const std::filesystem::path candidate =
          base / ("differential-" + std::to_string(runner.seed) + "-" + std::to_string(attempt));
      if (std::filesystem::create_directory(candidate, error)) dir = candidate.string();
    }
    if (dir.empty()) {
      std::fprintf(stderr, "differential: cannot create a temporary directory in %s\n", base.string().c_str());
      return 2;
    }
  }
  runner.dir = dir;
  if (sqlite3_open(":memory:", &runner.db.db) != SQLITE_OK) return 2;
#ifndef PQ_LINKED_EXTENSION
  sqlite3_enable_load_extension(runner.db.db, 1);
  char* message = nullptr;
  if (sqlite3_load_extension(runner.db.db, extension.c_str(), nullptr, &message) != SQLITE_OK) {
    std::fprintf(stderr, "cannot load %s: %s\n", extension.c_str(), message ? message : "?");
    return 2;
  }
#endif
  // SQLite's random() (used to shuffle rows and pick sample values) from the same seed, so
  // that DIFFERENTIAL_SEED repeats a run exactly.
  static Rng sql_random;
  sql_random.state = runner.seed ^ 0x5DEECE66Dull;
  sqlite3_create_function(
      runner.db.db, "random", 0, SQLITE_UTF8, nullptr,
      [](sqlite3_context* context, int, sqlite3_value**) {
        sqlite3_result_int64(context, static_cast<sqlite3_int64>(sql_random.Next()));
      },
      nullptr, nullptr);
  if (!runner.db.Exec("ATTACH '" + dir + "/hive.db' AS hd")) {
    std::fprintf(stderr, "cannot attach %s/hive.db: %s\n", dir.c_str(), runner.db.error.c_str());
    return 2;
  }
  RunComparisonMatrix(runner);
  RunBboxDifferential(runner, std::max(2, tables / 3), std::max(10, queries / 5));
  for (int t = 0; t < tables; t++) {
    Table table;
    if (!runner.BuildTable(t, &table)) {
      std::printf("FAILED (seed %" PRIu64 "): building table %d: %s\n  %s\n", runner.seed, t, runner.db.error.c_str(),
                  table.description.c_str());
      runner.failed++;
      continue;
    }
    for (int q = 0; q < queries; q++) runner.RunQuery(table);
    runner.RunJoins(table);
  }
  // Lake tables: Delta, then Iceberg (a table from the log or the manifests, counted scans too).
  struct LakeBuilder {
    const char* kind;
    int count;
    bool (Runner::*build)(int, Table*);
  };
  for (const LakeBuilder& lake : {LakeBuilder{"Delta", delta_tables, &Runner::BuildDeltaTable},
                                  LakeBuilder{"Iceberg", iceberg_tables, &Runner::BuildIcebergTable}}) {
    const char* kind = lake.kind;
    const int count = lake.count;
    const auto build = lake.build;
    for (int t = 0; t < count; t++) {
      Table table;
      if (!(runner.*build)(t, &table)) {
        std::printf("FAILED (seed %" PRIu64 "): building %s table %d: %s\n  %s\n", runner.seed, kind, t,
                    runner.db.error.c_str(), table.description.c_str());
        runner.failed++;
        continue;
      }
      runner.RunDeltaCounts(table);
      for (int q = 0; q < queries; q++) runner.RunQuery(table);
      runner.RunJoins(table);
    }
  }
  if (CheckInterrupt(runner.db, dir)) {
    runner.passed++;
  } else {
    runner.failed++;
  }
  sqlite3_close(runner.db.db);
  if (own_dir) std::filesystem::remove_all(dir);
  std::printf("differential: queries that pruned files %" PRId64 ", row groups by statistics %" PRId64
              ", by bloom filter %" PRId64 ", by dictionary %" PRId64 ", by row position %" PRId64
              ", pages by page index %" PRId64 "\n",
              runner.pruned_files, runner.pruned_statistics, runner.pruned_bloom, runner.pruned_dictionary,
              runner.pruned_positions, runner.pruned_pages);
  std::printf("differential: sorting_columns claims written %d, refused by parquet_copy %d\n", runner.claims_kept,
              runner.claims_refused);
  std::printf("differential: join queries answered with a join index %" PRId64 "\n", runner.joins_indexed);
  std::printf("differential: partitioned tables %d, their queries that listed fewer directories than the whole tree %" PRId64
              "\n", runner.hive_tables, runner.hive_listings_pruned);
  std::printf("differential: slowest query %.0f ms: %s\n", runner.db.slowest_ms, runner.db.slowest_sql.c_str());
  std::printf("differential: Delta tables %d (deletion vectors deleting %" PRId64 " rows), count(*) scans that counted "
              "files from the log %" PRId64 "\n", runner.delta_tables, runner.delta_rows_deleted, runner.delta_counted_scans);
  if (runner.delta_tables > 0 && runner.delta_counted_scans == 0) {
    std::printf("FAILED (seed %" PRIu64 "): no count(*) of a Delta table counted files from the log\n", runner.seed);
    runner.failed++;
  }
  std::printf("differential: Iceberg tables %d (position and equality deletes deleting %" PRId64 " rows), queries that "
              "skipped manifests or files from the metadata %" PRId64 " (manifests %" PRId64 ")\n", runner.iceberg_tables,
              runner.iceberg_rows_deleted, runner.iceberg_pruned_scans, runner.iceberg_manifest_scans);
  if (runner.iceberg_tables >= 3 && (runner.iceberg_rows_deleted == 0 || runner.iceberg_pruned_scans == 0)) {
    std::printf("FAILED (seed %" PRIu64 "): the Iceberg tables deleted no row or pruned nothing from the metadata\n", runner.seed);
    runner.failed++;
  }
  if (runner.hive_tables > 0 && runner.hive_listings_pruned == 0) {
    std::printf("FAILED (seed %" PRIu64 "): no query of a partitioned table listed fewer directories\n", runner.seed);
    runner.failed++;
  }
  if (tables >= 4 && runner.joins_indexed == 0) {
    std::printf("FAILED (seed %" PRIu64 "): no join query used the join index\n", runner.seed);
    runner.failed++;
  }
  std::printf("differential: %d passed, %d failed\n", runner.passed, runner.failed);
  return runner.failed ? 1 : 0;
}
