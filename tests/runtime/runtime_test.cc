// Runtime behaviour of the extension in a real SQLite process (suite "runtime" of
// scripts/run_tests.sh; the TSan build runs it too):
//   - sqlite3_interrupt stops a long scan and a long parquet_copy within a fraction of a
//     second, and the interrupted copy leaves no file behind (with rollover, partitions or
//     append=1: the dataset directory exactly as it was);
//   - connections in several threads scanning the same files at once, and copying them with
//     parquet_copy (whose writer thread runs beside each), get correct results;
//   - a file truncated or replaced while a scan is open gives an error or the old rows,
//     never a crash;
//   - a CHECK constraint calling parquet_copy runs before SQLite 3.52 and is refused since;
//   - parquet_copy under failure (RLIMIT_FSIZE, a read-only file system, its directory
//     removed mid-copy, a query error mid-stream) leaves the target as it was and no
//     temporary file;
//   - every function and module the extension registers has a statement in sql/*.test;
//   - a stored table's relative path is resolved at each opening.
// hostile_database_test.cc adds what a database file or a directory made by someone else
// must not be able to do; filesystem_test.cc, parquet_copy's trees against symbolic links swapped
// in and its descriptor budget.
//
// Usage: runtime_tests --extension build/parquet [doctest options]
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "tests/expected_sqlite_version.h"
#include "tests/runtime/runtime_support.h"
#include "tests/unit/temp_dir.h"

namespace fs = std::filesystem;

std::string runtime_support::g_extension;

namespace {

using runtime_support::g_extension;
using runtime_support::Quote;
using test_support::TempDir;

// A connection with the extension loaded.
class Db : public runtime_support::Connection {
 public:
  Db() : Connection(":memory:", SQLITE_OPEN_FULLMUTEX) { Load(); }

  // The first column of the first row as text ("" for no row); REQUIREs success.
  std::string Text(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    REQUIRE_MESSAGE(sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK, sqlite3_errmsg(db_));
    std::string out;
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(stmt, 0);
      out = text ? reinterpret_cast<const char*>(text) : "NULL";
      rc = sqlite3_step(stmt);
    }
    INFO(sql << ": " << sqlite3_errmsg(db_));
    CHECK(rc == SQLITE_DONE);
    sqlite3_finalize(stmt);
    return out;
  }
};

// rows rows of (i INTEGER, d REAL, s TEXT) written by parquet_copy, in row groups of 50000.
void MakeFile(const std::string& path, int rows) {
  Db db;
  std::string sql = "SELECT parquet_copy('WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < " +
                    std::to_string(rows) + ") SELECT i, i * 0.5 AS d, ''row '' || i AS s FROM n', " + Quote(path) +
                    ", 'row_group_size=50000')";
  REQUIRE(db.Text(sql) == std::to_string(rows));
}

// The expected aggregate of MakeFile's rows, computed by SQLite itself.
std::string ExpectedAggregate(int rows) {
  Db db;
  return db.Text("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < " + std::to_string(rows) +
                 ") SELECT count(*) || ' ' || sum(i) || ' ' || sum(i * 0.5) || ' ' || sum(length('row ' || i)) FROM n");
}
const char* kAggregate = "SELECT count(*) || ' ' || sum(i) || ' ' || sum(d) || ' ' || sum(length(s)) FROM t";

// Runs sql on db in this thread while another thread calls sqlite3_interrupt after
// delay_ms; returns the result code and sets *stop_ms to the time from the interrupt to
// the end of the statement.
int RunInterrupted(Db& db, const std::string& sql, int delay_ms, double* stop_ms) {
  std::atomic<bool> done{false};
  std::chrono::steady_clock::time_point interrupted_at;
  std::thread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    interrupted_at = std::chrono::steady_clock::now();
    if (!done) sqlite3_interrupt(db.get());
  });
  int rc = db.Exec(sql);
  auto end = std::chrono::steady_clock::now();
  done = true;
  interrupter.join();
  *stop_ms = std::chrono::duration<double, std::milli>(end - interrupted_at).count();
  return rc;
}

bool HasTemporaryFile(const TempDir& dir) {
  for (const auto& name : dir.Entries()) {
    if (name.find(".tmp") != std::string::npos) return true;
  }
  return false;
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

constexpr int kRows = 200000;

TEST_CASE("sqlite3_interrupt stops a long scan within a fraction of a second") {
  TempDir dir;
  MakeFile(dir.File("big.parquet"), kRows);
  Db db;
  REQUIRE(db.Exec("CREATE VIRTUAL TABLE t USING parquet(" + Quote(dir.File("big.parquet")) + ")") == SQLITE_OK);
  // A self-join: 4e10 rows, far longer than the test runs unless interrupted.
  double stop_ms = 0;
  int rc = RunInterrupted(db, "SELECT count(*) FROM t AS a, t AS b WHERE a.s <> b.s", 200, &stop_ms);
  CHECK(rc == SQLITE_INTERRUPT);
  CHECK_MESSAGE(stop_ms < 500, "the scan went on " << stop_ms << " ms after sqlite3_interrupt");
  // The connection still works afterwards.
  CHECK(db.Text("SELECT count(*) FROM t") == std::to_string(kRows));
}

TEST_CASE("sqlite3_interrupt stops a long parquet_copy, which leaves no file behind") {
  TempDir dir;
  MakeFile(dir.File("big.parquet"), kRows);
  Db db;
  REQUIRE(db.Exec("CREATE VIRTUAL TABLE t USING parquet(" + Quote(dir.File("big.parquet")) + ")") == SQLITE_OK);
  double stop_ms = 0;
  int rc = RunInterrupted(db, "SELECT parquet_copy('SELECT a.i, b.s FROM t AS a, t AS b', " + Quote(dir.File("out.parquet")) + ")",
                          200, &stop_ms);
  CHECK(rc == SQLITE_INTERRUPT);
  CHECK_MESSAGE(stop_ms < 500, "the copy went on " << stop_ms << " ms after sqlite3_interrupt");
  CHECK(dir.Entries() == std::vector<std::string>{"big.parquet"});
}

// Every path under `root` with its size (directories as -1), sorted: what a failed copy
// must leave unchanged.
std::vector<std::pair<std::string, std::intmax_t>> TreeListing(const std::string& root) {
  std::vector<std::pair<std::string, std::intmax_t>> listing;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    listing.emplace_back(entry.path().lexically_relative(root).string(),
                         entry.is_directory() ? -1 : static_cast<std::intmax_t>(entry.file_size()));
  }
  std::sort(listing.begin(), listing.end());
  return listing;
}

TEST_CASE("an interrupted parquet_copy with rollover, partitions or append leaves the directory as it was") {
  TempDir dir;
  MakeFile(dir.File("big.parquet"), kRows);
  Db db;
  REQUIRE(db.Exec("CREATE VIRTUAL TABLE t USING parquet(" + Quote(dir.File("big.parquet")) + ")") == SQLITE_OK);
  // An existing dataset: two partitions, rolled over into files of one row group.
  const std::string dataset = dir.File("dataset");
  REQUIRE(db.Text("SELECT parquet_copy('SELECT i % 2 AS p, i, s FROM t WHERE i < 4000', " + Quote(dataset) +
                  ", 'partition_by=p', 'row_groups_per_file=1', 'row_group_size=1000')") == "4000");
  const auto before = TreeListing(dataset);
  REQUIRE(before.size() > 4);
  const char* kOptions[] = {"'row_groups_per_file=1', 'row_group_size=1000'",
                            "'file_size_bytes=100000', 'partition_by=p', 'row_group_size=5000'",
                            "'row_groups_per_file=2', 'partition_by=p', 'row_group_size=1000', 'append=1'"};
  for (const char* options : kOptions) {
    INFO(options);
    // Far longer than the test runs unless interrupted (4e10 rows): many files are written first.
    double stop_ms = 0;
    const int rc = RunInterrupted(db, std::string("SELECT parquet_copy('SELECT a.i % 2 AS p, a.i, b.s FROM t AS a, t AS b', ") +
                                          Quote(dataset) + ", " + options + ")",
                                  300, &stop_ms);
    CHECK(rc == SQLITE_INTERRUPT);
    CHECK(TreeListing(dataset) == before);
    CHECK_FALSE(HasTemporaryFile(dir));
  }
  // A copy failing on a value after many files leaves it as it was too.
  CHECK(db.Exec("SELECT parquet_copy('SELECT i % 2 AS p, i, CASE WHEN i = 150000 THEN abs(-9223372036854775808) ELSE s END AS s FROM t', " +
                Quote(dataset) + ", 'partition_by=p', 'row_groups_per_file=1', 'row_group_size=1000', 'append=1')") == SQLITE_ERROR);
  CHECK(TreeListing(dataset) == before);
  CHECK_FALSE(HasTemporaryFile(dir));
}

TEST_CASE("connections in several threads scanning the same files and copying them get correct results") {
  TempDir dir;
  // a.parquet is over the megabyte from which full scans decompress ahead.
  constexpr int kRowsA = 200000;
  MakeFile(dir.File("a.parquet"), kRowsA);
  constexpr int kRowsB = 30000;
  MakeFile(dir.File("b.parquet"), kRowsB);
  const std::string expected_a = ExpectedAggregate(kRowsA);
  const std::string expected_b = ExpectedAggregate(kRowsB);
  constexpr int kThreads = 4;
  constexpr int kRounds = 3;
  std::atomic<int> wrong{0}, failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    // Odd threads do one more round, so the threads end at different times.
    threads.emplace_back([&, t] {
      sqlite3* db = nullptr;
      if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
        failed++;
        return;
      }
      sqlite3_enable_load_extension(db, 1);
      auto text = [&](const std::string& sql) {
        sqlite3_stmt* stmt = nullptr;
        std::string out = "<error>";
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
          const unsigned char* value = sqlite3_column_text(stmt, 0);
          out = value ? reinterpret_cast<const char*>(value) : "NULL";
        }
        sqlite3_finalize(stmt);
        return out;
      };
      if (sqlite3_load_extension(db, g_extension.c_str(), nullptr, nullptr) != SQLITE_OK ||
          // ta's full scans decompress ahead (the default): a worker thread per scan, beside
          // the others.
          sqlite3_exec(db, ("CREATE VIRTUAL TABLE ta USING parquet(" + Quote(dir.File("a.parquet")) + ");" +
                            "CREATE VIRTUAL TABLE tb USING parquet(" + Quote(dir.File("b.parquet")) + ");" +
                            "CREATE VIRTUAL TABLE tab USING parquet(" + Quote(dir.path() + "/*.parquet") + ");")
                               .c_str(),
                       nullptr, nullptr, nullptr) != SQLITE_OK) {
        failed++;
        sqlite3_close(db);
        return;
      }
      for (int round = 0; round < kRounds + t % 2; round++) {
        std::string agg = std::string(kAggregate);
        std::string a = text(agg.replace(agg.find("FROM t"), 6, "FROM ta"));
        agg = kAggregate;
        std::string b = text(agg.replace(agg.find("FROM t"), 6, "FROM tb"));
        if (a != expected_a || b != expected_b) wrong++;
        if (text("SELECT pages_decompressed_ahead > 0 FROM parquet_scan_stats('ta')") != "1") wrong++;
        if (text("SELECT count(*) FROM tab WHERE i % 1000 = 7") != std::to_string((kRowsA + kRowsB) / 1000)) wrong++;
        if (text("SELECT sum(num_rows) FROM parquet_file_metadata(" + Quote(dir.path()) + ")") !=
            std::to_string(kRowsA + kRowsB)) {
          wrong++;
        }
      }
      // parquet_copy hands its batches to a writer thread of its own: several copies at once,
      // read back whole (not *.parquet, which the other threads' glob reads).
      const std::string copy = dir.File("copy" + std::to_string(t) + ".out");
      if (text("SELECT parquet_copy('SELECT * FROM ta', " + Quote(copy) + ", 'row_group_size=7000', 'page_size=4096')") !=
          std::to_string(kRowsA)) {
        wrong++;
      }
      std::string agg = std::string(kAggregate);
      sqlite3_exec(db, ("CREATE VIRTUAL TABLE tc USING parquet(" + Quote(copy) + ")").c_str(), nullptr, nullptr, nullptr);
      if (text(agg.replace(agg.find("FROM t"), 6, "FROM tc")) != expected_a) wrong++;
      sqlite3_close(db);
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(failed == 0);
  CHECK(wrong == 0);
}

TEST_CASE("a damaged page in a file scanned with decompression ahead gives the error the scan gives without it") {
  TempDir dir;
  const std::string path = dir.File("data.parquet");
  MakeFile(path, kRows);  // over the megabyte from which full scans decompress ahead
  Db db;
  REQUIRE(db.Exec("CREATE VIRTUAL TABLE ahead USING parquet(" + Quote(path) + ")") == SQLITE_OK);
  REQUIRE(db.Exec("CREATE VIRTUAL TABLE alone USING parquet(" + Quote(path) + ", decompress_ahead=0)") == SQLITE_OK);
  const std::string scan = "SELECT sum(i), sum(d), sum(length(s)) FROM ";
  const std::string intact = db.Text(scan + "ahead");
  CHECK(db.Text(scan + "alone") == intact);
  CHECK(db.Text("SELECT pages_decompressed_ahead > 0 FROM parquet_scan_stats('ahead')") == "1");
  // A byte in the middle of the file: inside some page's body.
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    REQUIRE(file.good());
    file.seekg(0, std::ios::end);
    const std::streamoff middle = file.tellg() / 2;
    file.seekg(middle);
    const char byte = static_cast<char>(file.get());
    file.seekp(middle);
    file.put(static_cast<char>(byte ^ 0x5a));
  }
  auto error_of = [&](const std::string& table) {
    const int rc = db.Exec(scan + table);
    return rc == SQLITE_OK ? std::string("no error") : std::string(sqlite3_errmsg(db.get()));
  };
  const std::string alone = error_of("alone");
  INFO("without the worker: " << alone);
  CHECK(alone.find("data.parquet") != std::string::npos);
  CHECK(alone.find("row group") != std::string::npos);
  CHECK(error_of("ahead") == alone);
}

TEST_CASE("a file truncated or replaced while a scan is open gives an error or the old rows, never a mix or a crash") {
  TempDir dir;
  const std::string path = dir.File("data.parquet");
  MakeFile(path, kRows);
  MakeFile(dir.File("other.parquet"), 1000);
  Db db;
  REQUIRE(db.Exec("CREATE VIRTUAL TABLE t USING parquet(" + Quote(path) + ")") == SQLITE_OK);

  SUBCASE("truncated") {
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(db.get(), "SELECT i, s FROM t", -1, &stmt, nullptr) == SQLITE_OK);
    for (int i = 0; i < 10; i++) REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
    REQUIRE(truncate(path.c_str(), 4096) == 0);
    int rc;
    int rows = 10;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) rows++;
    INFO("rows read: " << rows << ", error: " << sqlite3_errmsg(db.get()));
    CHECK(rc == SQLITE_ERROR);
    CHECK(rows < kRows);
    CHECK(std::string(sqlite3_errmsg(db.get())).find("data.parquet") != std::string::npos);
    sqlite3_finalize(stmt);
    // A new scan of the truncated file fails cleanly too.
    CHECK(db.Exec("SELECT count(*) FROM t") == SQLITE_ERROR);
  }
  SUBCASE("replaced by rename") {
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(db.get(), "SELECT i FROM t", -1, &stmt, nullptr) == SQLITE_OK);
    for (int i = 0; i < 10; i++) REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
    REQUIRE(rename(dir.File("other.parquet").c_str(), path.c_str()) == 0);
    int rc;
    int rows = 10;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) rows++;
    // The scan keeps its file open, and an open file keeps its old contents: all the old
    // rows come back.
    INFO("rows read: " << rows << ", error: " << sqlite3_errmsg(db.get()));
    CHECK(rc == SQLITE_DONE);
    CHECK(rows == kRows);
    sqlite3_finalize(stmt);
  }
  SUBCASE("overwritten in place with other bytes") {
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(db.get(), "SELECT i, s FROM t", -1, &stmt, nullptr) == SQLITE_OK);
    for (int i = 0; i < 10; i++) REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
    {
      std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
      std::string garbage(1 << 20, '\x5a');
      file.seekp(4);
      file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    }
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    }
    INFO("error: " << sqlite3_errmsg(db.get()));
    CHECK(rc == SQLITE_ERROR);
    sqlite3_finalize(stmt);
  }
}

// A parquet_copy into dir/target.parquet, which holds "old contents", that must fail.
void CheckFailedCopyLeavesTarget(const TempDir& dir, const std::string& error) {
  INFO("error: " << error);
  CHECK(!error.empty());
  CHECK(ReadWholeFile(dir.File("target.parquet")) == "old contents");
  CHECK(!HasTemporaryFile(dir));
}

// docs/security.md: before SQLite 3.52, SQLITE_DIRECTONLY does not apply to CHECK
// constraints, so SQLite accepts a CHECK calling parquet_copy and runs it when a row is
// written; parquet_copy then refuses by itself (schema_guard.h). 3.52 and later refuse such
// a constraint. Runs on every SQLite of the version matrix: no version writes the file.
TEST_CASE("a CHECK constraint calling parquet_copy writes no file on any SQLite") {
  TempDir dir;
  const std::string target = dir.File("from_check.parquet");
  Db db;
  const int rc = db.Exec("CREATE TABLE c(x CHECK (parquet_copy('SELECT 1 AS a', " + Quote(target) + ") >= 0))");
  if (sqlite3_libversion_number() >= 3052000) {
    CHECK(rc == SQLITE_ERROR);
    CHECK_MESSAGE(db.last_error().find("unsafe use of parquet_copy()") != std::string::npos, db.last_error());
  } else {
    REQUIRE_MESSAGE(rc == SQLITE_OK, db.last_error());
    CHECK(db.Exec("INSERT INTO c VALUES (1)") == SQLITE_ERROR);
    CHECK_MESSAGE(db.last_error().find("refusing to write files") != std::string::npos, db.last_error());
  }
  CHECK(!fs::exists(target));
}

TEST_CASE("parquet_copy failures leave the target untouched and no temporary file") {
  TempDir dir;
  MakeFile(dir.File("big.parquet"), kRows);
  { std::ofstream(dir.File("target.parquet")) << "old contents"; }
  const std::string target = Quote(dir.File("target.parquet"));

  SUBCASE("query error mid-stream") {
    Db db;
    REQUIRE(db.Exec("CREATE VIRTUAL TABLE t USING parquet(" + Quote(dir.File("big.parquet")) + ")") == SQLITE_OK);
    int rc = db.Exec("SELECT parquet_copy('SELECT i, CASE WHEN i = 150000 THEN json(''not json'') ELSE s END AS s FROM t', " +
                     target + ", 'row_group_size=10000')");
    CHECK(rc == SQLITE_ERROR);
    CHECK(db.last_error().find("malformed JSON") != std::string::npos);
    CheckFailedCopyLeavesTarget(dir, db.last_error());
  }
  SUBCASE("file size limit (RLIMIT_FSIZE)") {
    // In a child process: the limit and SIGXFSZ must not touch the test process.
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      close(fds[0]);
      signal(SIGXFSZ, SIG_IGN);
      struct rlimit limit {64 * 1024, 64 * 1024};
      setrlimit(RLIMIT_FSIZE, &limit);
      std::string message = "<no error>";
      {
        Db db;
        db.Exec("CREATE VIRTUAL TABLE t USING parquet(" + Quote(dir.File("big.parquet")) + ")");
        if (db.Exec("SELECT parquet_copy('SELECT * FROM t', " + target + ", 'compression=uncompressed')") != SQLITE_OK) {
          message = db.last_error();
        }
      }
      if (write(fds[1], message.data(), message.size()) < 0) _exit(2);
      _exit(0);
    }
    close(fds[1]);
    std::string message;
    char buffer[1024];
    ssize_t n;
    while ((n = read(fds[0], buffer, sizeof(buffer))) > 0) message.append(buffer, static_cast<size_t>(n));
    close(fds[0]);
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(message != "<no error>");
    CHECK(message.find("target.parquet") != std::string::npos);
    CheckFailedCopyLeavesTarget(dir, message);
  }
  SUBCASE("read-only file system") {
    Db db;
    CHECK(db.Exec("SELECT parquet_copy('SELECT 1 AS a', '/proc/parquet_copy_test.parquet')") == SQLITE_ERROR);
    CHECK(db.last_error().find("/proc/parquet_copy_test.parquet") != std::string::npos);
    CHECK(!fs::exists("/proc/parquet_copy_test.parquet"));
  }
  SUBCASE("directory removed during the copy") {
    const std::string subdir = dir.File("sub");
    fs::create_directory(subdir);
    Db db;
    REQUIRE(db.Exec("CREATE VIRTUAL TABLE t USING parquet(" + Quote(dir.File("big.parquet")) + ")") == SQLITE_OK);
    std::thread remover([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      std::error_code ignored;
      fs::remove_all(subdir, ignored);
    });
    // Long enough to outlast the remover (a self-join), short enough to end by itself.
    int rc = db.Exec("SELECT parquet_copy('SELECT a.i, b.s FROM t AS a, (SELECT s FROM t LIMIT 20) AS b', " +
                     Quote(subdir + "/out.parquet") + ")");
    remover.join();
    INFO("error: " << db.last_error());
    CHECK(rc == SQLITE_ERROR);
    CHECK(db.last_error().find("out.parquet") != std::string::npos);
    CHECK(!fs::exists(subdir));
    CHECK(dir.Entries() == std::vector<std::string>{"big.parquet", "target.parquet"});
  }
}

// The names SQL gives a pragma's first column (pragma_function_list, pragma_module_list).
std::vector<std::string> PragmaNames(sqlite3* db, const char* pragma) {
  std::vector<std::string> names;
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, (std::string("SELECT DISTINCT name FROM ") + pragma).c_str(), -1, &stmt, nullptr) ==
          SQLITE_OK);
  while (sqlite3_step(stmt) == SQLITE_ROW) names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
  sqlite3_finalize(stmt);
  std::sort(names.begin(), names.end());
  return names;
}

// Every SQL function and module the extension registers is used by a statement of the SQL
// suite (sql/*.test, comment lines left out): a new one without a test fails here.
TEST_CASE("every registered function and module has a test in sql/") {
  sqlite3* plain = nullptr;
  REQUIRE(sqlite3_open(":memory:", &plain) == SQLITE_OK);
  const std::vector<std::string> builtin_functions = PragmaNames(plain, "pragma_function_list");
  const std::vector<std::string> builtin_modules = PragmaNames(plain, "pragma_module_list");
  sqlite3_close(plain);
  Db db;
  std::vector<std::string> registered;
  for (const auto& [all, builtin] : {std::pair{PragmaNames(db.get(), "pragma_function_list"), builtin_functions},
                                     std::pair{PragmaNames(db.get(), "pragma_module_list"), builtin_modules}}) {
    std::set_difference(all.begin(), all.end(), builtin.begin(), builtin.end(), std::back_inserter(registered));
  }
  REQUIRE(registered.size() >= 5);  // parquet, parquet_copy, the metadata functions, ...
  std::string statements;
  REQUIRE(fs::is_directory("sql"));  // the suite runs from the repository root
  for (const auto& entry : fs::directory_iterator("sql")) {
    if (entry.path().extension() != ".test") continue;
    std::ifstream file(entry.path());
    for (std::string line; std::getline(file, line);) {
      if (line.rfind("#", 0) != 0) statements += line + "\n";
    }
  }
  for (const std::string& name : registered) {
    // The restoring table of changes() (ext/common/statement_effects.h) is the extension's
    // own, under a random name no SQL of the suite can know: sql/security_cache.test checks
    // what it does (changes() kept across the metadata cache's writes).
    if (name.rfind("parquet_changes_", 0) == 0 && name.size() == 32) continue;
    // The name as SQL calls it: followed by "(" (functions, eponymous modules) or a module
    // after USING.
    const bool called = statements.find(name + "(") != std::string::npos;
    INFO(name << " is registered but no statement in sql/*.test uses it");
    CHECK(called);
  }
}

// README, "SQL quick start": a relative path is resolved each time the table is opened,
// against the current directory of that moment, not the one of CREATE.
TEST_CASE("a stored table's relative path is resolved against the directory of each opening") {
  TempDir dir;
  const fs::path first = fs::path(dir.path()) / "first", second = fs::path(dir.path()) / "second";
  fs::create_directories(first);
  fs::create_directories(second);
  MakeFile((first / "data.parquet").string(), 3);
  MakeFile((second / "data.parquet").string(), 5);
  const fs::path start = fs::current_path();
  const std::string extension = fs::absolute(g_extension).string();
  auto count_rows = [&](const fs::path& cwd, bool create) {
    fs::current_path(cwd);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((fs::path(dir.path()) / "stored.db").c_str(), &db) == SQLITE_OK);
    sqlite3_enable_load_extension(db, 1);
    REQUIRE(sqlite3_load_extension(db, extension.c_str(), nullptr, nullptr) == SQLITE_OK);
    if (create) {
      REQUIRE(sqlite3_exec(db, "CREATE VIRTUAL TABLE t USING parquet('data.parquet')", nullptr, nullptr, nullptr) ==
              SQLITE_OK);
    }
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT count(*) FROM t", -1, &stmt, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
    const int64_t rows = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    fs::current_path(start);
    return rows;
  };
  CHECK(count_rows(first, true) == 3);
  CHECK(count_rows(second, false) == 5);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest;
  for (int i = 0; i < argc; i++) {
    if (std::strcmp(argv[i], "--extension") == 0 && i + 1 < argc) {
      g_extension = argv[++i];
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (g_extension.empty()) {
    std::fprintf(stderr, "usage: %s --extension PATH_TO_EXTENSION [doctest options]\n", argv[0]);
    return 2;
  }
  if (!CheckExpectedSqlite("runtime")) return 1;
  doctest::Context context(static_cast<int>(rest.size()), rest.data());
  return context.run();
}
