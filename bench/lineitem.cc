// bench_lineitem: the benchmark's data. Generates a TPC-H-lineitem-shaped table of N rows
// into a native SQLite table (deterministic: fixed seed, no download), and copies that
// table into a Parquet file with our writer (format/write/file_writer.h) — the stand-in for
// parquet_copy() while the SQL function does not exist, and the writer side of query 7.
//
//   bench_lineitem generate --rows N --db native.db
//       (re)creates table `lineitem` in native.db with an index on l_orderkey
//   bench_lineitem copy --db native.db --out FILE.parquet [--codec snappy|zstd|none]
//                  [--row-group-rows R]
//       writes `SELECT * FROM lineitem` to FILE.parquet; prints one JSON object with the
//       time, peak RSS and the file's size
//
// Columns (the schema parquet_copy gives the native table, every column OPTIONAL):
//   l_orderkey, l_partkey, l_suppkey, l_linenumber  INTEGER  -> INT64
//   l_quantity, l_extendedprice, l_discount, l_tax  REAL     -> DOUBLE (values with 2 decimals)
//   l_returnflag, l_linestatus                      TEXT     -> STRING, one letter
//   l_shipdate                                      DATE     -> DATE (stored as 'YYYY-MM-DD' TEXT in SQLite)
//   l_shipinstruct, l_shipmode                      TEXT     -> STRING, 4 and 7 distinct values
//   l_comment                                       TEXT     -> STRING, 10..40 random characters
// l_orderkey ascends (1..7 lines per order); l_shipdate spans 1992-01-02 .. 1998-12-01.
#include <sqlite3.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "bench/bench_util.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "format/values/logical_values.h"

namespace {

using parquet::ByteArray;
using parquet::ParquetError;

constexpr int kNumColumns = 14;
enum class Kind { kInt64, kDouble, kText, kDate };
struct ColumnSpec {
  const char* name;
  const char* sqlite_type;
  Kind kind;
};
const ColumnSpec kSchema[kNumColumns] = {
    {"l_orderkey", "INTEGER", Kind::kInt64},     {"l_partkey", "INTEGER", Kind::kInt64},
    {"l_suppkey", "INTEGER", Kind::kInt64},      {"l_linenumber", "INTEGER", Kind::kInt64},
    {"l_quantity", "REAL", Kind::kDouble},       {"l_extendedprice", "REAL", Kind::kDouble},
    {"l_discount", "REAL", Kind::kDouble},       {"l_tax", "REAL", Kind::kDouble},
    {"l_returnflag", "TEXT", Kind::kText},       {"l_linestatus", "TEXT", Kind::kText},
    {"l_shipdate", "DATE", Kind::kDate},         {"l_shipinstruct", "TEXT", Kind::kText},
    {"l_shipmode", "TEXT", Kind::kText},         {"l_comment", "TEXT", Kind::kText},
};

// splitmix64: a fixed seed gives the same table on every machine.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [low, high].
  int64_t Between(int64_t low, int64_t high) {
    return low + static_cast<int64_t>(Next() % static_cast<uint64_t>(high - low + 1));
  }

 private:
  uint64_t state_;
};

int32_t Days(const char* date) {
  int32_t days = 0;
  if (!parquet::ParseDate(date, &days)) throw ParquetError(std::string("bad date ") + date);
  return days;
}

void Check(int rc, sqlite3* db, const char* what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    throw ParquetError(std::string(what) + ": " + sqlite3_errmsg(db));
  }
}

void Exec(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    throw ParquetError(sql + ": " + message);
  }
}

// ---- generate --------------------------------------------------------------------------

void Generate(int64_t rows, const std::string& db_path) {
  std::remove(db_path.c_str());
  sqlite3* db = nullptr;
  if (sqlite3_open(db_path.c_str(), &db) != SQLITE_OK) throw ParquetError("cannot open " + db_path);
  std::string create = "CREATE TABLE lineitem(";
  std::string insert = "INSERT INTO lineitem VALUES(";
  for (int c = 0; c < kNumColumns; c++) {
    create += std::string(c ? ", " : "") + kSchema[c].name + " " + kSchema[c].sqlite_type;
    insert += c ? ",?" : "?";
  }
  Exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=4096;");
  Exec(db, create + ")");
  Exec(db, "BEGIN");
  sqlite3_stmt* stmt = nullptr;
  Check(sqlite3_prepare_v2(db, (insert + ")").c_str(), -1, &stmt, nullptr), db, "prepare insert");

  static const char* const kInstructions[] = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
  static const char* const kModes[] = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
  static const char kCommentAlphabet[] = "abcdefghijklmnopqrstuvwxyz ";
  const int32_t first_order_date = Days("1992-01-01");
  const int32_t last_order_date = Days("1998-08-02");
  const int32_t current_date = Days("1995-06-17");  // TPC-H's split between F/O and R|A/N

  Random random(20240607);
  int64_t order_key = 0;
  int64_t written = 0;
  char date_text[16];
  char comment[48];
  while (written < rows) {
    order_key++;
    const int64_t lines = random.Between(1, 7);
    const int32_t order_date = static_cast<int32_t>(random.Between(first_order_date, last_order_date));
    for (int64_t line = 1; line <= lines && written < rows; line++, written++) {
      const int64_t part_key = random.Between(1, 200000);
      const int64_t supp_key = random.Between(1, 10000);
      const int64_t quantity = random.Between(1, 50);
      const int64_t part_price_cents = 90000 + ((part_key / 10) % 20001) + 100 * (part_key % 1000);
      const double extended_price = static_cast<double>(quantity * part_price_cents) / 100.0;
      const double discount = static_cast<double>(random.Between(0, 10)) / 100.0;
      const double tax = static_cast<double>(random.Between(0, 8)) / 100.0;
      const int32_t ship_date = order_date + static_cast<int32_t>(random.Between(1, 121));
      const int32_t receipt_date = ship_date + static_cast<int32_t>(random.Between(1, 30));
      const char* return_flag = receipt_date <= current_date ? (random.Next() & 1 ? "R" : "A") : "N";
      const char* line_status = ship_date > current_date ? "O" : "F";
      const char* instruction = kInstructions[random.Between(0, 3)];
      const char* mode = kModes[random.Between(0, 6)];
      const int comment_length = static_cast<int>(random.Between(10, 40));
      for (int i = 0; i < comment_length; i++) comment[i] = kCommentAlphabet[random.Between(0, 26)];
      size_t date_length = parquet::FormatDate(ship_date, date_text);

      sqlite3_bind_int64(stmt, 1, order_key);
      sqlite3_bind_int64(stmt, 2, part_key);
      sqlite3_bind_int64(stmt, 3, supp_key);
      sqlite3_bind_int64(stmt, 4, line);
      sqlite3_bind_double(stmt, 5, static_cast<double>(quantity));
      sqlite3_bind_double(stmt, 6, extended_price);
      sqlite3_bind_double(stmt, 7, discount);
      sqlite3_bind_double(stmt, 8, tax);
      sqlite3_bind_text(stmt, 9, return_flag, 1, SQLITE_STATIC);
      sqlite3_bind_text(stmt, 10, line_status, 1, SQLITE_STATIC);
      sqlite3_bind_text(stmt, 11, date_text, static_cast<int>(date_length), SQLITE_STATIC);
      sqlite3_bind_text(stmt, 12, instruction, -1, SQLITE_STATIC);
      sqlite3_bind_text(stmt, 13, mode, -1, SQLITE_STATIC);
      sqlite3_bind_text(stmt, 14, comment, comment_length, SQLITE_STATIC);
      Check(sqlite3_step(stmt), db, "insert");
      sqlite3_reset(stmt);
    }
  }
  sqlite3_finalize(stmt);
  Exec(db, "COMMIT");
  // A point lookup on the native table uses a B-tree, as a SQLite user would set it up.
  Exec(db, "CREATE INDEX lineitem_orderkey ON lineitem(l_orderkey)");
  Exec(db, "ANALYZE");
  sqlite3_close(db);
}

// ---- copy ------------------------------------------------------------------------------

// One row group's values, column by column, ready for WriteBatch.
struct RowGroupBuffer {
  std::vector<int16_t> def[kNumColumns];
  std::vector<int64_t> ints[kNumColumns];
  std::vector<double> doubles[kNumColumns];
  std::vector<int32_t> dates[kNumColumns];
  std::vector<ByteArray> texts[kNumColumns];
  std::vector<std::string> text_storage;  // one arena block per text column
  size_t rows = 0;

  void Clear() {
    for (int c = 0; c < kNumColumns; c++) {
      def[c].clear();
      ints[c].clear();
      doubles[c].clear();
      dates[c].clear();
      texts[c].clear();
    }
    text_storage.assign(kNumColumns, std::string());
    rows = 0;
  }
};

std::vector<parquet::SchemaElement> ParquetSchema() {
  std::vector<parquet::SchemaElement> schema(1);
  schema[0].name = "schema";
  schema[0].num_children = kNumColumns;
  for (const ColumnSpec& spec : kSchema) {
    parquet::SchemaElement element;
    element.name = spec.name;
    element.repetition_type = parquet::FieldRepetitionType::OPTIONAL;
    switch (spec.kind) {
      case Kind::kInt64: element.type = parquet::Type::INT64; break;
      case Kind::kDouble: element.type = parquet::Type::DOUBLE; break;
      case Kind::kText:
        element.type = parquet::Type::BYTE_ARRAY;
        element.converted_type = parquet::ConvertedType::UTF8;
        element.logical_type = parquet::LogicalType{};
        element.logical_type->kind = parquet::LogicalType::Kind::STRING;
        break;
      case Kind::kDate:
        element.type = parquet::Type::INT32;
        element.converted_type = parquet::ConvertedType::DATE;
        element.logical_type = parquet::LogicalType{};
        element.logical_type->kind = parquet::LogicalType::Kind::DATE;
        break;
    }
    schema.push_back(element);
  }
  return schema;
}

void FlushRowGroup(parquet::ParquetFileWriter* writer, RowGroupBuffer* buffer) {
  if (buffer->rows == 0) return;
  writer->StartRowGroup();
  for (int c = 0; c < kNumColumns; c++) {
    const int16_t* def = buffer->def[c].data();
    switch (kSchema[c].kind) {
      case Kind::kInt64:
        writer->WriteBatch<int64_t>(c, buffer->rows, def, nullptr, buffer->ints[c].data(), buffer->ints[c].size());
        break;
      case Kind::kDouble:
        writer->WriteBatch<double>(c, buffer->rows, def, nullptr, buffer->doubles[c].data(), buffer->doubles[c].size());
        break;
      case Kind::kDate:
        writer->WriteBatch<int32_t>(c, buffer->rows, def, nullptr, buffer->dates[c].data(), buffer->dates[c].size());
        break;
      case Kind::kText: {
        // The arena may have moved while it grew: point the views at their final place.
        const uint8_t* base = reinterpret_cast<const uint8_t*>(buffer->text_storage[c].data());
        size_t offset = 0;
        for (ByteArray& value : buffer->texts[c]) {
          value.ptr = base + offset;
          offset += value.len;
        }
        writer->WriteBatch<ByteArray>(c, buffer->rows, def, nullptr, buffer->texts[c].data(), buffer->texts[c].size());
        break;
      }
    }
  }
  writer->EndRowGroup(static_cast<int64_t>(buffer->rows));
  buffer->Clear();
}

parquet::CompressionCodec CodecNamed(const std::string& name) {
  if (name == "snappy") return parquet::CompressionCodec::SNAPPY;
  if (name == "zstd") return parquet::CompressionCodec::ZSTD;
  if (name == "none" || name == "uncompressed") return parquet::CompressionCodec::UNCOMPRESSED;
  throw ParquetError("unknown codec '" + name + "' (snappy, zstd, none)");
}

// Copies the native table to a Parquet file; prints the JSON result line.
void Copy(const std::string& db_path, const std::string& out_path, const std::string& codec, int64_t row_group_rows) {
  if (row_group_rows <= 0) throw ParquetError("--row-group-rows must be positive");
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    throw ParquetError("cannot open " + db_path);
  }
  std::string select = "SELECT ";
  for (int c = 0; c < kNumColumns; c++) select += std::string(c ? ", " : "") + kSchema[c].name;
  select += " FROM lineitem";
  sqlite3_stmt* stmt = nullptr;
  Check(sqlite3_prepare_v2(db, select.c_str(), -1, &stmt, nullptr), db, "prepare select");

  bench::PeakRss rss;
  rss.Start();
  const double start = bench::NowMs();
  const double cpu_start = bench::CpuMs();
  const std::string temporary = out_path + ".tmp";
  parquet::WriterOptions options;
  options.codec = CodecNamed(codec);
  parquet::ParquetFileWriter writer(temporary, ParquetSchema(), options);
  RowGroupBuffer buffer;
  buffer.Clear();
  int64_t rows = 0;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    for (int c = 0; c < kNumColumns; c++) {
      if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
        buffer.def[c].push_back(0);
        continue;
      }
      buffer.def[c].push_back(1);
      switch (kSchema[c].kind) {
        case Kind::kInt64: buffer.ints[c].push_back(sqlite3_column_int64(stmt, c)); break;
        case Kind::kDouble: buffer.doubles[c].push_back(sqlite3_column_double(stmt, c)); break;
        case Kind::kDate: {
          const char* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
          int32_t days = 0;
          if (!parquet::ParseDate(std::string_view(text, static_cast<size_t>(sqlite3_column_bytes(stmt, c))), &days)) {
            throw ParquetError(std::string("row ") + std::to_string(rows + 1) + ": bad date '" + text + "'");
          }
          buffer.dates[c].push_back(days);
          break;
        }
        case Kind::kText: {
          const char* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
          const uint32_t length = static_cast<uint32_t>(sqlite3_column_bytes(stmt, c));
          buffer.text_storage[c].append(text, length);
          buffer.texts[c].push_back(ByteArray{nullptr, length});
          break;
        }
      }
    }
    rows++;
    if (++buffer.rows == static_cast<size_t>(row_group_rows)) FlushRowGroup(&writer, &buffer);
  }
  Check(rc, db, "select");
  FlushRowGroup(&writer, &buffer);
  writer.Close();
  const double elapsed = bench::NowMs() - start;
  const double cpu_elapsed = bench::CpuMs() - cpu_start;
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  if (std::rename(temporary.c_str(), out_path.c_str()) != 0) throw ParquetError("cannot rename " + temporary);

  auto file = parquet::ParquetFileReader::Open(out_path);
  if (file->num_rows() != rows) throw ParquetError("read back " + std::to_string(file->num_rows()) + " rows");
  struct stat info {};
  stat(out_path.c_str(), &info);
  std::printf("{\"rows\":%lld,\"time_ms\":%s,\"cpu_time_ms\":%s,\"bytes\":%lld,\"rss_base_kb\":%lld,\"rss_peak_kb\":%lld,"
              "\"rss_delta_kb\":%lld,\"rss_reset\":%s}\n",
              static_cast<long long>(rows), bench::JsonNumber(elapsed).c_str(), bench::JsonNumber(cpu_elapsed).c_str(),
              static_cast<long long>(info.st_size),
              static_cast<long long>(rss.baseline_kb()), static_cast<long long>(rss.peak_kb()),
              static_cast<long long>(rss.delta_kb()), rss.reset_ok() ? "true" : "false");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string usage =
      "usage: bench_lineitem generate --rows N --db native.db\n"
      "       bench_lineitem copy --db native.db --out FILE.parquet [--codec snappy|zstd|none] "
      "[--row-group-rows R]\n";
  if (argc < 2) {
    std::fputs(usage.c_str(), stderr);
    return 2;
  }
  const std::string mode = argv[1];
  bench::Flags flags(argc - 1, argv + 1);
  try {
    if (mode == "generate") {
      const int64_t rows = flags.GetInt("--rows", 0);
      const std::string db = flags.Get("--db");
      if (rows <= 0 || db.empty()) throw ParquetError("generate needs --rows N (> 0) and --db PATH");
      Generate(rows, db);
    } else if (mode == "copy") {
      const std::string db = flags.Get("--db");
      const std::string out = flags.Get("--out");
      if (db.empty() || out.empty()) throw ParquetError("copy needs --db PATH and --out FILE");
      Copy(db, out, flags.Get("--codec", "snappy"), flags.GetInt("--row-group-rows", 122880));
    } else {
      std::fputs(usage.c_str(), stderr);
      return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_lineitem: %s\n", e.what());
    return 1;
  }
  return 0;
}
