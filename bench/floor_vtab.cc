// bench_floor: the cheapest virtual table we can write, as a yardstick for ours. It measures
// what SQLite's virtual-table interface costs by itself (xNext, OP_VColumn, sqlite3_result_*),
// with no decoding at all, so the benchmark can show which part of a target relative to the
// native table any virtual table can reach on this SQLite.
//
//   .load build/bench_floor
//   CREATE VIRTUAL TABLE temp.lineitem USING floor(lineitem [, static]);
//
// At CREATE time it reads every row of the named table of the main database into typed
// in-memory columns (INTEGER: int64, REAL: double, anything else: NUL-terminated text in one
// arena with offsets; NULLs kept in a byte per row) and declares the same column names and
// types. Scans accept no constraint (xBestIndex is a constant full scan), xNext increments a
// row number, and xColumn hands the value over with sqlite3_result_int64 / _double / _text:
// text with length -1 and SQLITE_TRANSIENT (SQLite copies it, as it must for any table whose
// buffers change while a query runs), or SQLITE_STATIC with the argument `static` (no copy;
// correct here only because the arena never changes while the table exists).
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ext/common/options.h"

using sqlite_parquet::QuoteIdentifier;

namespace {

enum class Kind { kInteger, kReal, kText };

struct FloorColumn {
  std::string name;
  std::string declared_type;
  Kind kind = Kind::kText;
  std::vector<int64_t> integers;
  std::vector<double> reals;
  std::vector<uint64_t> text_offsets;  // start of each row's text in text_arena
  std::string text_arena;              // values, each followed by a NUL
  std::vector<uint8_t> is_null;        // 1 for a NULL row
};

struct FloorTable {
  sqlite3_vtab base{};
  std::vector<FloorColumn> columns;
  int64_t row_count = 0;
  bool static_text = false;
};

struct FloorCursor {
  sqlite3_vtab_cursor base{};
  int64_t row = 0;
};

// Sets *error (sqlite3_malloc'd) to message and returns SQLITE_ERROR.
int Fail(char** error, const std::string& message) {
  *error = sqlite3_mprintf("%s", message.c_str());
  return SQLITE_ERROR;
}

// Reads main.<table> into columns, typed by the declared affinity of each column.
int LoadTable(sqlite3* db, const std::string& table, FloorTable* floor, char** error) {
  const std::string sql = "SELECT * FROM main." + QuoteIdentifier(table);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    return Fail(error, "floor: cannot read table " + table + ": " + sqlite3_errmsg(db));
  }
  const int column_count = sqlite3_column_count(stmt);
  floor->columns.resize(static_cast<size_t>(column_count));
  for (int c = 0; c < column_count; c++) {
    FloorColumn& column = floor->columns[static_cast<size_t>(c)];
    column.name = sqlite3_column_name(stmt, c);
    const char* declared = sqlite3_column_decltype(stmt, c);
    column.declared_type = declared ? declared : "";
    std::string upper = column.declared_type;
    for (char& ch : upper) ch = static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
    if (upper.find("INT") != std::string::npos) {
      column.kind = Kind::kInteger;
    } else if (upper.find("REAL") != std::string::npos || upper.find("FLOA") != std::string::npos ||
               upper.find("DOUB") != std::string::npos) {
      column.kind = Kind::kReal;
    } else {
      column.kind = Kind::kText;
    }
  }
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    for (int c = 0; c < column_count; c++) {
      FloorColumn& column = floor->columns[static_cast<size_t>(c)];
      const bool null = sqlite3_column_type(stmt, c) == SQLITE_NULL;
      column.is_null.push_back(null ? 1 : 0);
      switch (column.kind) {
        case Kind::kInteger: column.integers.push_back(null ? 0 : sqlite3_column_int64(stmt, c)); break;
        case Kind::kReal: column.reals.push_back(null ? 0 : sqlite3_column_double(stmt, c)); break;
        case Kind::kText: {
          column.text_offsets.push_back(column.text_arena.size());
          const unsigned char* text = sqlite3_column_text(stmt, c);
          if (text) column.text_arena.append(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_column_bytes(stmt, c)));
          column.text_arena.push_back('\0');
          break;
        }
      }
    }
    floor->row_count++;
  }
  std::string message = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db);
  sqlite3_finalize(stmt);
  if (!message.empty()) return Fail(error, "floor: reading table " + table + ": " + message);
  return SQLITE_OK;
}

int Connect(sqlite3* db, void*, int argc, const char* const* argv, sqlite3_vtab** out, char** error) {
  if (argc < 4 || argc > 5) return Fail(error, "floor: usage: CREATE VIRTUAL TABLE t USING floor(table [, static])");
  auto* floor = new FloorTable();
  if (argc == 5) {
    if (std::strcmp(argv[4], "static") != 0) {
      delete floor;
      return Fail(error, std::string("floor: unknown option ") + argv[4] + " (only static)");
    }
    floor->static_text = true;
  }
  int rc = LoadTable(db, argv[3], floor, error);
  if (rc == SQLITE_OK) {
    std::string schema = "CREATE TABLE x(";
    for (size_t c = 0; c < floor->columns.size(); c++) {
      schema += (c ? ", " : "") + QuoteIdentifier(floor->columns[c].name) + " " + floor->columns[c].declared_type;
    }
    schema += ")";
    rc = sqlite3_declare_vtab(db, schema.c_str());
    if (rc != SQLITE_OK) Fail(error, "floor: cannot declare the table: " + std::string(sqlite3_errmsg(db)));
  }
  if (rc != SQLITE_OK) {
    delete floor;
    return rc;
  }
  *out = &floor->base;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vtab) {
  delete reinterpret_cast<FloorTable*>(vtab);
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  info->estimatedCost = 1e9;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = &(new FloorCursor())->base;
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* cursor) {
  delete reinterpret_cast<FloorCursor*>(cursor);
  return SQLITE_OK;
}

int Filter(sqlite3_vtab_cursor* cursor, int, const char*, int, sqlite3_value**) {
  reinterpret_cast<FloorCursor*>(cursor)->row = 0;
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* cursor) {
  reinterpret_cast<FloorCursor*>(cursor)->row++;
  return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* cursor) {
  auto* floor_cursor = reinterpret_cast<FloorCursor*>(cursor);
  return floor_cursor->row >= reinterpret_cast<FloorTable*>(cursor->pVtab)->row_count;
}

int Column(sqlite3_vtab_cursor* cursor, sqlite3_context* context, int index) {
  const int64_t row = reinterpret_cast<FloorCursor*>(cursor)->row;
  const FloorTable* floor = reinterpret_cast<FloorTable*>(cursor->pVtab);
  const FloorColumn& column = floor->columns[static_cast<size_t>(index)];
  const size_t r = static_cast<size_t>(row);
  if (column.is_null[r]) return SQLITE_OK;  // the result is NULL unless set
  switch (column.kind) {
    case Kind::kInteger: sqlite3_result_int64(context, column.integers[r]); break;
    case Kind::kReal: sqlite3_result_double(context, column.reals[r]); break;
    case Kind::kText:
      sqlite3_result_text(context, column.text_arena.data() + column.text_offsets[r], -1,
                          floor->static_text ? SQLITE_STATIC : SQLITE_TRANSIENT);
      break;
  }
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* cursor, sqlite3_int64* rowid) {
  *rowid = reinterpret_cast<FloorCursor*>(cursor)->row + 1;
  return SQLITE_OK;
}

sqlite3_module floor_module = {
    /* iVersion */ 0, Connect, Connect, BestIndex, Disconnect, Disconnect, Open, Close, Filter, Next, Eof, Column, Rowid,
    /* xUpdate .. xShadowName */ nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};

}  // namespace

extern "C" int sqlite3_benchfloor_init(sqlite3* db, char**, const sqlite3_api_routines* api) {
  SQLITE_EXTENSION_INIT2(api);
  return sqlite3_create_module(db, "floor", &floor_module, nullptr);
}
