// Runtime tests of what a database file, a directory or a path made by someone else must
// not be able to do to a process that loads the extension (docs/security.md):
//   - schema objects of a database file (generated columns, expression and partial
//     indexes, CHECK constraints, DEFAULT clauses, views, triggers) never make parquet_copy
//     write a file, whichever is read first, the schema or the extension, and with
//     trusted_schema on or off; views and triggers never read a file through a parquet
//     table or a metadata function;
//   - a FIFO where a Parquet file is expected (also in a stored `parquet` table of such a
//     database) fails at once instead of hanging;
//   - a stored `parquet` table is connected (PRAGMA table_info, table_list, the schema
//     text, a view naming it) without touching its path, whatever is there now;
//   - parquet_copy never reopens its temporary file by name (a symlink swapped in cannot
//     redirect the output) and keeps the permission bits of a file it replaces.
// These need what the SQL tests cannot do: open a database file before loading the
// extension, make FIFOs and symlinks, register a test function, look at file modes.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/runtime/runtime_support.h"
#include "tests/unit/fifo_rescuer.h"
#include "tests/unit/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using runtime_support::Quote;
using test_support::TempDir;


using runtime_support::Connection;

// Stands in for parquet_copy while the hostile file is made (deterministic, so that SQLite
// accepts it in generated columns and indexes, as a crafted file can hold them anyway).
void PlaceholderFunction(sqlite3_context* ctx, int, sqlite3_value**) { sqlite3_result_int(ctx, 0); }

// The statement each schema object of MakeHostileDatabase holds, writing victim/NAME.
std::string CopyCall(const std::string& victim, const std::string& name) {
  return "parquet_copy('SELECT 1 AS a', " + Quote(victim + "/" + name + ".parquet") + ")";
}

// One kind of schema object calling parquet_copy: how a database file holds it, and the
// statements that make SQLite evaluate it (on the database named by the prefix "DB.").
struct HostileObject {
  const char* kind;
  std::string (*schema)(const std::string& victim);
  std::vector<std::string> uses;
  bool schema_loads_with_extension;  // false: SQLite refuses the schema once it knows the function
};

const std::vector<HostileObject>& HostileObjects() {
  static const std::vector<HostileObject> objects = {
      {"generated column",
       [](const std::string& victim) {
         return "CREATE TABLE g(a, b AS (" + CopyCall(victim, "generated") + ")); INSERT INTO g(a) VALUES (1);";
       },
       {"SELECT * FROM DB.g", "SELECT b FROM DB.g WHERE a = 1", "INSERT INTO DB.g(a) VALUES (2)",
        "PRAGMA DB.quick_check", "PRAGMA DB.integrity_check"},
       false},
      {"stored generated column",
       [](const std::string& victim) {
         return "CREATE TABLE s(a, b AS (" + CopyCall(victim, "stored") + ") STORED); INSERT INTO s(a) VALUES (1);";
       },
       {"INSERT INTO DB.s(a) VALUES (2)", "UPDATE DB.s SET a = 3", "PRAGMA DB.quick_check",
        "PRAGMA DB.integrity_check"},
       false},
      {"expression index",
       [](const std::string& victim) {
         return "CREATE TABLE x(a); CREATE INDEX x_expr ON x(" + CopyCall(victim, "index") + "); INSERT INTO x VALUES (1);";
       },
       {"INSERT INTO DB.x VALUES (2)", "REINDEX DB.x_expr", "PRAGMA DB.quick_check", "PRAGMA DB.integrity_check",
        "VACUUM DB"},
       false},
      {"partial index",
       [](const std::string& victim) {
         return "CREATE TABLE p(a); CREATE INDEX p_partial ON p(a) WHERE " + CopyCall(victim, "partial") +
                " >= 0; INSERT INTO p VALUES (1);";
       },
       {"INSERT INTO DB.p VALUES (2)", "SELECT * FROM DB.p WHERE a = 1", "REINDEX DB.p_partial",
        "PRAGMA DB.quick_check", "PRAGMA DB.integrity_check"},
       false},
      {"CHECK constraint",
       [](const std::string& victim) {
         return "CREATE TABLE c(a CHECK (" + CopyCall(victim, "check") + " >= 0)); INSERT INTO c VALUES (1);";
       },
       {"INSERT INTO DB.c VALUES (2)", "UPDATE DB.c SET a = 3", "PRAGMA DB.quick_check", "PRAGMA DB.integrity_check"},
       true},
      {"DEFAULT clause",
       [](const std::string& victim) {
         return "CREATE TABLE d(a, b DEFAULT (" + CopyCall(victim, "default") + "));";
       },
       {"INSERT INTO DB.d(a) VALUES (2)"},
       true},
      {"view",
       [](const std::string& victim) { return "CREATE VIEW v AS SELECT " + CopyCall(victim, "view") + " AS n;"; },
       {"SELECT * FROM DB.v"},
       true},
      {"trigger",
       [](const std::string& victim) {
         return "CREATE TABLE tr_src(a); CREATE TRIGGER tr AFTER INSERT ON tr_src BEGIN SELECT " +
                CopyCall(victim, "trigger") + "; END;";
       },
       {"INSERT INTO DB.tr_src VALUES (1)"},
       true},
  };
  return objects;
}

// A database file holding `object`, made with a stand-in for parquet_copy.
void MakeHostileDatabase(const std::string& path, const HostileObject& object, const std::string& victim) {
  Connection author(path);
  REQUIRE(sqlite3_create_function(author.get(), "parquet_copy", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                  PlaceholderFunction, nullptr, nullptr) == SQLITE_OK);
  REQUIRE_MESSAGE(author.Exec(object.schema(victim)) == SQLITE_OK, author.last_error());
}

std::string OnDatabase(std::string sql, const std::string& db) {
  for (size_t at; (at = sql.find("DB")) != std::string::npos;) sql.replace(at, 2, db);
  return sql;
}

enum class LoadOrder { kSchemaReadFirst, kExtensionFirst, kAttachedAfterLoad, kAttachedAndReadBeforeLoad };

const char* Describe(LoadOrder order) {
  switch (order) {
    case LoadOrder::kSchemaReadFirst: return "schema read, then the extension loaded";
    case LoadOrder::kExtensionFirst: return "extension loaded before the schema is read";
    case LoadOrder::kAttachedAfterLoad: return "attached after the extension was loaded";
    case LoadOrder::kAttachedAndReadBeforeLoad: return "attached and read, then the extension loaded";
  }
  return "?";
}

TEST_CASE("no schema object of a database file makes parquet_copy write a file, in any load order") {
  for (const HostileObject& object : HostileObjects()) {
    for (LoadOrder order : {LoadOrder::kSchemaReadFirst, LoadOrder::kExtensionFirst, LoadOrder::kAttachedAfterLoad,
                            LoadOrder::kAttachedAndReadBeforeLoad}) {
      for (const char* trusted : {"ON", "OFF"}) {
        TempDir dir;
        const std::string victim = dir.File("victim");
        fs::create_directory(victim);
        const std::string evil = dir.File("evil.db");
        MakeHostileDatabase(evil, object, victim);
        INFO(std::string(object.kind) << "; " << std::string(Describe(order)) << "; trusted_schema=" << std::string(trusted));

        const bool attached = order == LoadOrder::kAttachedAfterLoad || order == LoadOrder::kAttachedAndReadBeforeLoad;
        Connection db(attached ? ":memory:" : evil);
        const std::string name = attached ? "evil" : "main";
        switch (order) {
          case LoadOrder::kSchemaReadFirst:
            REQUIRE(db.Exec("SELECT count(*) FROM sqlite_master") == SQLITE_OK);
            db.Load();
            break;
          case LoadOrder::kExtensionFirst:
            db.Load();
            break;
          case LoadOrder::kAttachedAfterLoad:
            db.Load();
            db.Exec("ATTACH " + Quote(evil) + " AS evil");  // may fail: a schema SQLite refuses
            break;
          case LoadOrder::kAttachedAndReadBeforeLoad:
            REQUIRE(db.Exec("ATTACH " + Quote(evil) + " AS evil") == SQLITE_OK);
            REQUIRE(db.Exec("SELECT count(*) FROM evil.sqlite_master") == SQLITE_OK);
            db.Load();
            break;
        }
        REQUIRE(db.Exec(std::string("PRAGMA trusted_schema=") + trusted) == SQLITE_OK);
        for (const std::string& use : object.uses) {
          const std::string sql = OnDatabase(use, name);
          db.Exec(sql);  // refused, or run without the call: either way no file may appear
          INFO(sql << " -> " << db.last_error());
          CHECK(fs::is_empty(victim));
        }
        if (!object.schema_loads_with_extension) {
          // The schema's call is refused as soon as SQLite reads the schema again.
          CHECK(db.Exec("SELECT count(*) FROM " + name + ".sqlite_master") != SQLITE_OK);
        }
      }
    }
  }
}

TEST_CASE("no view or trigger of a database file reads a file through the extension, in any load order") {
  for (LoadOrder order : {LoadOrder::kSchemaReadFirst, LoadOrder::kExtensionFirst}) {
    TempDir dir;
    const std::string data = dir.File("data.parquet");
    const std::string evil = dir.File("evil.db");
    {
      Connection author(evil);
      author.Load();
      REQUIRE(author.Exec("SELECT parquet_copy('SELECT 1 AS a', " + Quote(data) + ")") == SQLITE_OK);
      REQUIRE_MESSAGE(author.Exec("CREATE VIRTUAL TABLE t USING parquet(" + Quote(data) + ");"
                                  "CREATE VIEW v_table AS SELECT * FROM t;"
                                  "CREATE VIEW v_schema AS SELECT * FROM parquet_schema(" + Quote(data) + ");"
                                  "CREATE TABLE src(a);"
                                  "CREATE TRIGGER tr AFTER INSERT ON src BEGIN "
                                  "SELECT * FROM parquet_metadata(" + Quote(data) + "); END;") == SQLITE_OK,
                      author.last_error());
    }
    INFO(std::string(Describe(order)));
    Connection db(evil);
    if (order == LoadOrder::kSchemaReadFirst) REQUIRE(db.Exec("SELECT count(*) FROM sqlite_master") == SQLITE_OK);
    db.Load();
    for (const char* trusted : {"ON", "OFF"}) {
      REQUIRE(db.Exec(std::string("PRAGMA trusted_schema=") + trusted) == SQLITE_OK);
      CHECK(db.Exec("SELECT * FROM v_table") != SQLITE_OK);
      CHECK(db.last_error().find("unsafe use of virtual table \"t\"") != std::string::npos);
      CHECK(db.Exec("SELECT * FROM v_schema") != SQLITE_OK);
      CHECK(db.last_error().find("unsafe use of virtual table \"parquet_schema\"") != std::string::npos);
      CHECK(db.Exec("INSERT INTO src VALUES (1)") != SQLITE_OK);
      CHECK(db.last_error().find("unsafe use of virtual table \"parquet_metadata\"") != std::string::npos);
    }
    CHECK(db.Exec("SELECT * FROM t") == SQLITE_OK);  // directly, as the application asks
  }
}

TEST_CASE("parquet_copy runs directly on a connection whose schemas do not mention it") {
  TempDir dir;
  Connection db(dir.File("plain.db"));
  REQUIRE(db.Exec("CREATE TABLE parquet_copy_log(parquet_copy_count INTEGER); CREATE VIEW copies AS SELECT " +
                  CopyCall(dir.path(), "view") + ";") == SQLITE_OK);
  db.Load();
  // Identifiers that only contain the name, and a view (SQLite refuses the view's call).
  CHECK(db.Exec("SELECT parquet_copy('SELECT 1 AS a', " + Quote(dir.File("direct.parquet")) + ")") == SQLITE_OK);
  CHECK(fs::is_regular_file(dir.File("direct.parquet")));
  CHECK(db.Exec("SELECT * FROM copies") != SQLITE_OK);
  CHECK(db.last_error().find("unsafe use of parquet_copy()") != std::string::npos);
  CHECK(!fs::exists(dir.File("view.parquet")));
}

// Runs sql and returns its duration in seconds (a statement stuck opening `fifo` is
// released after 5 s: FifoRescuer).
double TimedOnFifo(Connection& db, const std::string& sql, const std::string& fifo) {
  test_support::FifoRescuer rescuer(fifo);
  const auto start = std::chrono::steady_clock::now();
  db.Exec(sql);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST_CASE("a FIFO where a Parquet file is expected fails at once, also in a stored table of a database file") {
  TempDir dir;
  const std::string fifo = dir.File("data.parquet");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);

  SUBCASE("a table and the metadata functions") {
    Connection db(":memory:");
    db.Load();
    for (const std::string& sql : {"CREATE VIRTUAL TABLE temp.f USING parquet(" + Quote(fifo) + ")",
                                  "SELECT * FROM parquet_metadata(" + Quote(fifo) + ")",
                                  "SELECT * FROM parquet_schema(" + Quote(fifo) + ")"}) {
      INFO(sql);
      CHECK(TimedOnFifo(db, sql, fifo) < 2.0);
      INFO(db.last_error());
      CHECK(db.last_error().find("not a regular file") != std::string::npos);
    }
  }
  SUBCASE("a stored parquet table pointing at a FIFO") {
    const std::string real = dir.File("real.parquet");
    const std::string evil = dir.File("evil.db");
    {
      Connection author(evil);
      author.Load();
      REQUIRE(author.Exec("SELECT parquet_copy('SELECT 1 AS a', " + Quote(real) + ")") == SQLITE_OK);
      REQUIRE(author.Exec("CREATE VIRTUAL TABLE f USING parquet(" + Quote(real) + ")") == SQLITE_OK);
      REQUIRE(author.Exec("PRAGMA writable_schema=ON; UPDATE sqlite_master SET sql = replace(sql, " + Quote(real) +
                          ", " + Quote(fifo) + ") WHERE name = 'f'") == SQLITE_OK);
    }
    Connection db(evil);
    db.Load();
    for (const char* sql : {"SELECT sql FROM sqlite_master", "PRAGMA table_info(f)", "PRAGMA table_list",
                            "SELECT * FROM f"}) {
      INFO(sql);
      CHECK(TimedOnFifo(db, sql, fifo) < 2.0);
    }
  }
}

// The first column of the first row of sql, as text ("" with no row); fails the test on
// an error.
std::string QueryText(Connection& db, const std::string& sql) {
  sqlite3_stmt* statement = nullptr;
  REQUIRE_MESSAGE(sqlite3_prepare_v2(db.get(), sql.c_str(), -1, &statement, nullptr) == SQLITE_OK,
                  sql << ": " << sqlite3_errmsg(db.get()));
  std::string text;
  const int rc = sqlite3_step(statement);
  if (rc == SQLITE_ROW && sqlite3_column_text(statement, 0)) {
    text = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
  }
  const std::string error = sqlite3_errmsg(db.get());
  INFO(sql << ": " << error);
  CHECK((rc == SQLITE_ROW || rc == SQLITE_DONE));
  sqlite3_finalize(statement);
  return text;
}

// What replaces the data file of a stored table after the table was created.
enum class Replacement { kDeleted, kDirectory, kCorrupt, kHuge };

const char* Describe(Replacement replacement) {
  switch (replacement) {
    case Replacement::kDeleted: return "file deleted";
    case Replacement::kDirectory: return "an empty directory swapped in";
    case Replacement::kCorrupt: return "a corrupt file swapped in";
    case Replacement::kHuge: return "a sparse 64 GiB file swapped in";
  }
  return "?";
}

void Replace(const std::string& path, Replacement replacement) {
  REQUIRE(fs::remove(path));
  switch (replacement) {
    case Replacement::kDeleted: break;
    case Replacement::kDirectory: REQUIRE(fs::create_directory(path)); break;
    case Replacement::kCorrupt: {
      std::ofstream out(path, std::ios::binary);
      out << "PAR1" << std::string(100, '\xff') << "\xff\xff\xff\x7fPAR1";
      break;
    }
    case Replacement::kHuge: {
      std::ofstream(path, std::ios::binary).close();
      fs::resize_file(path, uintmax_t{64} << 30);
      break;
    }
  }
}

TEST_CASE("a stored parquet table of a database file is connected without touching its path") {
  for (Replacement replacement : {Replacement::kDeleted, Replacement::kDirectory, Replacement::kCorrupt,
                                  Replacement::kHuge}) {
    for (LoadOrder order : {LoadOrder::kSchemaReadFirst, LoadOrder::kExtensionFirst}) {
      TempDir dir;
      const std::string data = dir.File("data.parquet");
      const std::string evil = dir.File("evil.db");
      {
        Connection author(evil);
        author.Load();
        REQUIRE(author.Exec("SELECT parquet_copy('SELECT 1 AS a, ''x'' AS b', " + Quote(data) + ")") == SQLITE_OK);
        REQUIRE_MESSAGE(author.Exec("CREATE VIRTUAL TABLE t USING parquet(" + Quote(data) + ");"
                                    "CREATE VIEW v AS SELECT * FROM t;") == SQLITE_OK,
                        author.last_error());
      }
      Replace(data, replacement);
      INFO(std::string(Describe(replacement)) << "; " << std::string(Describe(order)));
      Connection db(evil);
      if (order == LoadOrder::kSchemaReadFirst) REQUIRE(db.Exec("SELECT count(*) FROM sqlite_master") == SQLITE_OK);
      db.Load();
      const auto start = std::chrono::steady_clock::now();
      // Each of these connects the table; none may reach the path (which would fail them).
      CHECK(QueryText(db, "SELECT sql FROM sqlite_master WHERE name = 't'").find("data.parquet") != std::string::npos);
      CHECK(QueryText(db, "SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info('t')") ==
            "a INTEGER, b TEXT");
      if (sqlite3_libversion_number() >= 3037000) {  // PRAGMA table_list came with 3.37
        CHECK(QueryText(db, "SELECT type || ' ' || ncol FROM pragma_table_list('t')") == "virtual 4");
      }
      CHECK(db.Exec("PRAGMA table_info(t); PRAGMA table_list") == SQLITE_OK);
      CHECK(db.Exec("SELECT * FROM v") != SQLITE_OK);
      CHECK(db.last_error().find("unsafe use of virtual table \"t\"") != std::string::npos);
      CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 2.0);
      // Only a direct query reads the path, and reports what is there.
      CHECK(db.Exec("SELECT * FROM t") != SQLITE_OK);
      CHECK(db.last_error().find("data.parquet") != std::string::npos);
    }
  }
}

TEST_CASE("a stored parquet table works after its database file is closed and reopened; RENAME and DROP carry its list") {
  TempDir dir;
  const std::string data = dir.File("data.parquet");
  const std::string path = dir.File("stored.db");
  {
    Connection author(path);
    author.Load();
    REQUIRE(author.Exec("SELECT parquet_copy('WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s "
                        "WHERE v < 10) SELECT v AS n, v * 1.5 AS r FROM s', " +
                        Quote(data) + ")") == SQLITE_OK);
    REQUIRE_MESSAGE(author.Exec("CREATE VIRTUAL TABLE t USING parquet(" + Quote(data) + ")") == SQLITE_OK,
                    author.last_error());
  }
  {
    Connection db(path);
    db.Load();
    CHECK(QueryText(db, "SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info('t')") ==
          "n INTEGER, r REAL");
    CHECK(QueryText(db, "SELECT sum(n) || ' ' || sum(r) FROM t WHERE n > 5") == "40 60.0");
    CHECK(QueryText(db, "SELECT count(*) FROM sqlite_master WHERE name = 't_schema'") == "1");
    // Under SQLITE_DBCONFIG_DEFENSIVE the list is a read-only shadow table to ordinary SQL;
    // the table's own RENAME and DROP still carry it along.
    REQUIRE(sqlite3_db_config(db.get(), SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr) == SQLITE_OK);
    CHECK(db.Exec("UPDATE t_schema SET name = 'x'") != SQLITE_OK);
    CHECK(db.Exec("DROP TABLE t_schema") != SQLITE_OK);
    REQUIRE_MESSAGE(db.Exec("ALTER TABLE t RENAME TO u") == SQLITE_OK, db.last_error());
    CHECK(QueryText(db, "SELECT group_concat(name, ', ') FROM (SELECT name FROM sqlite_master ORDER BY name)") ==
          "u, u_schema");
    CHECK(QueryText(db, "SELECT count(*) FROM u WHERE n > 5") == "5");
  }
  {
    Connection db(path);
    db.Load();
    CHECK(QueryText(db, "SELECT sum(n) FROM u") == "55");
    REQUIRE_MESSAGE(db.Exec("DROP TABLE u") == SQLITE_OK, db.last_error());
  }
  Connection db(path);
  CHECK(QueryText(db, "SELECT count(*) FROM sqlite_master") == "0");
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Test function swap_in_symlink(temp, victim): replaces the file `temp` by a symlink to
// `victim`, as someone who can write the target's directory could while a copy runs.
void SwapInSymlink(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const std::string temp = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  const std::string victim = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
  const bool swapped = ::unlink(temp.c_str()) == 0 && ::symlink(victim.c_str(), temp.c_str()) == 0;
  sqlite3_result_int(ctx, swapped ? 1 : 0);
}

TEST_CASE("parquet_copy writes through the descriptor it created its temporary file with") {
  TempDir dir;
  const std::string victim = dir.File("victim.txt");
  { std::ofstream(victim) << "precious"; }
  const std::string target = dir.File("out.parquet");
  const std::string temp = dir.File(".out.parquet.parquet_copy-0.tmp");  // copy_output.h's first name
  Connection db(":memory:");
  db.Load();
  REQUIRE(sqlite3_create_function(db.get(), "swap_in_symlink", 2, SQLITE_UTF8, nullptr, SwapInSymlink, nullptr,
                                  nullptr) == SQLITE_OK);
  // The query's rows are computed after the temporary file was created: the swap happens
  // before the writer writes anything.
  const std::string query = "SELECT swap_in_symlink(" + Quote(temp) + ", " + Quote(victim) + ") AS swapped";
  const int rc = db.Exec("SELECT parquet_copy(" + Quote(query) + ", " + Quote(target) + ")");
  INFO("rc " << rc << ": " << db.last_error());
  CHECK(ReadWholeFile(victim) == "precious");
  CHECK(rc != SQLITE_OK);
  CHECK(db.last_error().find("was replaced while writing") != std::string::npos);
  CHECK(!fs::exists(fs::symlink_status(target)));
}

mode_t ModeOf(const std::string& path) {
  struct stat info;
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

TEST_CASE("parquet_copy keeps the permission bits of a file it replaces; a new file gets the umask's") {
  TempDir dir;
  Connection db(":memory:");
  db.Load();
  const std::string target = dir.File("private.parquet");
  { std::ofstream(target) << "old"; }
  REQUIRE(::chmod(target.c_str(), 0600) == 0);
  REQUIRE(db.Exec("SELECT parquet_copy('SELECT 1 AS a', " + Quote(target) + ")") == SQLITE_OK);
  CHECK(ModeOf(target) == 0600);
  REQUIRE(::chmod(target.c_str(), 0640) == 0);
  REQUIRE(db.Exec("SELECT parquet_copy('SELECT 2 AS a', " + Quote(target) + ")") == SQLITE_OK);
  CHECK(ModeOf(target) == 0640);

  const mode_t old_umask = ::umask(027);
  const int rc = db.Exec("SELECT parquet_copy('SELECT 1 AS a', " + Quote(dir.File("new.parquet")) + ")");
  ::umask(old_umask);
  REQUIRE(rc == SQLITE_OK);
  CHECK(ModeOf(dir.File("new.parquet")) == 0640);

  // A partitioned tree replaced with overwrite=1 keeps the old directory's bits.
  const std::string tree = dir.File("tree");
  REQUIRE(db.Exec("SELECT parquet_copy('SELECT 1 AS k, 2 AS v', " + Quote(tree) + ", 'partition_by=k')") == SQLITE_OK);
  REQUIRE(::chmod(tree.c_str(), 0700) == 0);
  REQUIRE(db.Exec("SELECT parquet_copy('SELECT 1 AS k, 3 AS v', " + Quote(tree) + ", 'partition_by=k')") == SQLITE_OK);
  CHECK(ModeOf(tree) == 0700);
}

}  // namespace
