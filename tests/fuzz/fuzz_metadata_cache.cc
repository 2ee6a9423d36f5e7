// Fuzz target: the rows of a `parquet` table's metadata cache (metadata_cache=NAME,
// ext/table/metadata_cache.h) as a hostile database may hold them. The fixture database
// holds `t` over a small file (two row groups, a page index) with its cache table `mc`
// filled by a scan, so its row carries the file's real key, size and validator. The input
// then rewrites the cache:
//   byte 0 (mod 6)
//     0, 1  edits of the stored tail with the row's validator kept (the case a forged or
//           damaged row reaches the footer parser): pairs (position, xor) from the input,
//           then a length change (bytes cut from the front or input bytes put before it)
//           with tail_offset moved so the tail still ends at the end of the file
//     2     any values (any storage class) in any of the row's columns
//     3     more rows of any values, other keys
//     4     the table replaced by one of another shape (extra column, a view, a trigger on it)
//     5     the tail replaced by input bytes of the same length (validator kept)
// A new connection then scans t (all rows, a filtered scan, a LIMIT) and scans again.
//
// What must hold: no crash or sanitizer report; every statement either succeeds or fails
// with a message. (A forged footer that parses is read as the file's footer: docs/security.md.)
#include <sqlite3.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/fuzz/fuzz_common.h"
#include "tests/fuzz/fuzz_sql.h"

const char* const parquet_fuzz::kSqlFuzzTarget = "fuzz_metadata_cache";

namespace {

namespace fs = std::filesystem;
using parquet_fuzz::ByteSource;
using parquet_fuzz::Exec;
using parquet_fuzz::Fail;
using parquet_fuzz::Open;

// A directory with data.parquet (200 rows, two row groups, page index) and template.db
// holding `t` over it with its cache `mc` filled, made once per process. The data file is
// never written again, so the row's validator stays the file's.
const fs::path& Fixture() {
  static const fs::path dir = [] {
    const fs::path d = parquet_fuzz::MakeFixtureDirectory();
    sqlite3* db = Open((d / "template.db").string());
    std::string error;
    const std::string file = (d / "data.parquet").string();
    if (!Exec(db, "SELECT parquet_copy('WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 199) "
                  "SELECT i AS a, printf(''s%d'', i) AS b FROM n', '" + file + "', 'row_group_size=100', 'write_page_index=1')",
              &error) ||
        !Exec(db, "CREATE VIRTUAL TABLE t USING parquet('" + file + "', metadata_cache=mc)", &error) ||
        !Exec(db, "SELECT count(*) FROM t", &error)) {
      Fail("cannot make the fixture: " + error);
    }
    sqlite3_close(db);
    return d;
  }();
  return dir;
}

// Binds parameter `i` to a value whose storage class the input picks.
void BindValue(sqlite3_stmt* stmt, int i, ByteSource& in) {
  switch (in.Below(6)) {
    case 0: sqlite3_bind_null(stmt, i); break;
    case 1: sqlite3_bind_int64(stmt, i, static_cast<int64_t>(in.U64())); break;
    case 2: sqlite3_bind_double(stmt, i, static_cast<double>(static_cast<int64_t>(in.U64())) / 7.0); break;
    case 3: {
      const std::string blob = in.Bytes(200);
      sqlite3_bind_blob(stmt, i, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
      break;
    }
    case 4: sqlite3_bind_int64(stmt, i, static_cast<int64_t>(in.Below(64)) * 100); break;  // near real sizes and offsets
    default: {
      const std::string text = in.Bytes(40);  // may hold NULs and invalid UTF-8
      sqlite3_bind_text(stmt, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
      break;
    }
  }
}

void Rewrite(sqlite3* db, ByteSource& in) {
  static const char* const kColumns[] = {"file_key", "file", "size", "validator", "tail_offset", "tail", "last_used"};
  switch (in.Below(6)) {
    case 0: case 1: {
      sqlite3_stmt* read = nullptr;
      if (sqlite3_prepare_v2(db, "SELECT tail, tail_offset FROM mc", -1, &read, nullptr) != SQLITE_OK ||
          sqlite3_step(read) != SQLITE_ROW) {
        Fail("the fixture's cache row is missing");
      }
      std::string tail(static_cast<const char*>(sqlite3_column_blob(read, 0)), static_cast<size_t>(sqlite3_column_bytes(read, 0)));
      int64_t offset = sqlite3_column_int64(read, 1);
      sqlite3_finalize(read);
      for (uint32_t edits = in.Below(16); edits > 0 && !in.empty(); edits--) {
        const size_t position = in.U32() % tail.size();
        tail[position] = static_cast<char>(tail[position] ^ static_cast<char>(in.Byte() | 1));
      }
      if (in.Bool()) {
        const size_t cut = std::min<size_t>(in.U32() % 4096, tail.size());
        tail.erase(0, cut);
        offset += static_cast<int64_t>(cut);
      } else {
        const std::string more = in.Bytes(255);
        if (static_cast<int64_t>(more.size()) <= offset) {
          tail.insert(0, more);
          offset -= static_cast<int64_t>(more.size());
        }
      }
      sqlite3_stmt* write = nullptr;
      sqlite3_prepare_v2(db, "UPDATE mc SET tail = ?1, tail_offset = ?2", -1, &write, nullptr);
      sqlite3_bind_blob(write, 1, tail.data(), static_cast<int>(tail.size()), SQLITE_TRANSIENT);
      sqlite3_bind_int64(write, 2, offset);
      sqlite3_step(write);
      sqlite3_finalize(write);
      break;
    }
    case 2: {
      for (uint32_t edits = 1 + in.Below(4); edits > 0; edits--) {
        sqlite3_stmt* write = nullptr;
        const std::string sql = std::string("UPDATE mc SET ") + kColumns[in.Below(7)] + " = ?1";
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &write, nullptr) != SQLITE_OK) Fail("cannot prepare " + sql);
        BindValue(write, 1, in);
        sqlite3_step(write);  // NOT NULL and the key may refuse it
        sqlite3_finalize(write);
      }
      break;
    }
    case 3: {
      sqlite3_stmt* insert = nullptr;
      sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO mc VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &insert, nullptr);
      for (uint32_t rows = 1 + in.Below(6); rows > 0 && !in.empty(); rows--) {
        for (int i = 1; i <= 7; i++) BindValue(insert, i, in);
        sqlite3_step(insert);
        sqlite3_reset(insert);
      }
      sqlite3_finalize(insert);
      break;
    }
    case 4: {
      Exec(db, "PRAGMA writable_schema=ON");
      switch (in.Below(3)) {
        case 0: Exec(db, "ALTER TABLE mc ADD COLUMN extra"); break;
        case 1: Exec(db, "CREATE TABLE keep AS SELECT * FROM mc; DROP TABLE mc; CREATE VIEW mc AS SELECT * FROM keep"); break;
        default: Exec(db, "CREATE TABLE log(n); CREATE TRIGGER mc_w AFTER INSERT ON mc BEGIN INSERT INTO log VALUES (1); END"); break;
      }
      break;
    }
    default: {
      const std::string bytes = in.Bytes(255);
      std::string sql = "UPDATE mc SET tail = substr(?1 || zeroblob(length(tail)), 1, length(tail))";
      sqlite3_stmt* write = nullptr;
      sqlite3_prepare_v2(db, sql.c_str(), -1, &write, nullptr);
      sqlite3_bind_blob(write, 1, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
      sqlite3_step(write);
      sqlite3_finalize(write);
      Exec(db, "UPDATE mc SET tail = CAST(tail AS BLOB)");
      break;
    }
  }
}

void RunInput(ByteSource& in) {
  const parquet_fuzz::DatabaseCopy copy(Fixture());
  {
    sqlite3* db = Open(copy.path());
    Rewrite(db, in);
    sqlite3_close(db);
  }
  sqlite3* db = Open(copy.path());
  std::string error;
  for (int round = 0; round < 2; round++) {  // the second scan reads what the first may have rewritten
    Exec(db, "SELECT * FROM t", &error);
    Exec(db, "SELECT count(*) FROM t WHERE a BETWEEN 150 AND 160", &error);
    Exec(db, "SELECT b FROM t WHERE a = 7 LIMIT 1", &error);
  }
  sqlite3_close(db);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  parquet_fuzz::RegisterExtension();
  ByteSource in(data, size);
  RunInput(in);
  return 0;
}
