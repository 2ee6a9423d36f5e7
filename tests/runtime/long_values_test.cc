// Runtime tests of long values and long options (issue 45): writing a VARIANT is linear in
// its size and stops at sqlite3_interrupt() inside one long value; the option parsers are
// linear and bounded (a 1 MB shredding= option of 80,000 fields is refused at once).
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/runtime/runtime_support.h"
#include "tests/unit/temp_dir.h"

namespace {

using runtime_support::Quote;
using test_support::TempDir;
using Clock = std::chrono::steady_clock;

class Db : public runtime_support::Connection {
 public:
  Db() : Connection(":memory:", SQLITE_OPEN_FULLMUTEX) { Load(); }
};

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// interrupt_after(x): x, after asking sqlite3_interrupt() on its own connection. The copy
// receives the row with the interrupt pending, so only a check inside the value's
// conversion can stop it before that value is written whole.
void InterruptAfter(sqlite3_context* ctx, int, sqlite3_value** argv) {
  sqlite3_interrupt(sqlite3_context_db_handle(ctx));
  sqlite3_result_value(ctx, argv[0]);
}

// One JSON object of `keys` distinct keys ("k0":0, "k1":1, ...), about 13 bytes a key, in
// table big(doc) of `db`.
void MakeBigObject(Db& db, int keys) {
  REQUIRE(db.Exec("CREATE TABLE big AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < " +
                  std::to_string(keys) + ") SELECT '{' || group_concat('\"k' || i || '\":' || i, ',') || '}' AS doc FROM n") ==
          SQLITE_OK);
}

}  // namespace

// Finding 5: one 3.9 MB object of 300,000 keys took 20 s (each member was compared with
// every earlier one to find repeated keys), and sqlite3_interrupt() asked at 1 s took effect
// at the end. Now it is written in a fraction of a second, or (in a slow sanitizer build)
// stopped within half a second of the interrupt.
TEST_CASE("a VARIANT of 300,000 keys is written in linear time, or stopped at once by sqlite3_interrupt") {
  TempDir dir;
  Db db;
  MakeBigObject(db, 300000);
  std::atomic<bool> done{false};
  Clock::time_point interrupted_at{};
  std::thread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    interrupted_at = Clock::now();
    if (!done) sqlite3_interrupt(db.get());
  });
  const Clock::time_point start = Clock::now();
  const int rc = db.Exec("SELECT parquet_copy('SELECT doc FROM big', " + Quote(dir.File("big.parquet")) + ", 'variant=doc')");
  const Clock::time_point end = Clock::now();
  done = true;
  interrupter.join();
  INFO("rc " << rc << " (" << db.last_error() << ") after " << std::chrono::duration<double, std::milli>(end - start).count()
             << " ms");
  if (rc == SQLITE_OK) {
    CHECK(end < interrupted_at + std::chrono::milliseconds(500));
  } else {
    CHECK(rc == SQLITE_INTERRUPT);
    CHECK(end - interrupted_at < std::chrono::milliseconds(500));
  }
}

// Finding 5: the check inside one long value. The row arrives with the interrupt already
// asked; the copy must stop while converting it (a small part of the time the whole
// conversion takes), not convert it whole and notice the interrupt after.
TEST_CASE("sqlite3_interrupt stops parquet_copy inside one long VARIANT value") {
  TempDir dir;
  Db db;
  MakeBigObject(db, 300000);
  REQUIRE(sqlite3_create_function(db.get(), "interrupt_after", 1, SQLITE_UTF8, nullptr, InterruptAfter, nullptr,
                                  nullptr) == SQLITE_OK);
  // The whole conversion, uninterrupted (best of two), then interrupted (best of two).
  double whole_ms = 1e18, interrupted_ms = 1e18;
  for (int attempt = 0; attempt < 2; ++attempt) {
    Clock::time_point start = Clock::now();
    REQUIRE(db.Exec("SELECT parquet_copy('SELECT doc FROM big', " + Quote(dir.File("whole.parquet")) +
                    ", 'variant=doc', 'row_group_size=1', 'overwrite=1')") == SQLITE_OK);
    whole_ms = std::min(whole_ms, MillisecondsSince(start));
    start = Clock::now();
    const int rc = db.Exec("SELECT parquet_copy('SELECT interrupt_after(doc) AS doc FROM big', " +
                           Quote(dir.File("stopped.parquet")) + ", 'variant=doc', 'row_group_size=1')");
    interrupted_ms = std::min(interrupted_ms, MillisecondsSince(start));
    CHECK(rc == SQLITE_INTERRUPT);
    CHECK(db.last_error() == "parquet_copy: interrupted");
  }
  INFO("whole " << whole_ms << " ms, interrupted " << interrupted_ms << " ms");
  CHECK(interrupted_ms * 4 < whole_ms);
  CHECK(dir.Entries() == std::vector<std::string>{"whole.parquet"});
}

// Finding 3: a 1 MB shredding= option of 80,000 fields took 31 s to parse (each field was
// compared with every earlier one) and ignored sqlite3_interrupt(); now the field count is
// capped and parsing is linear, so the option is refused at once, whatever its length.
TEST_CASE("a 1 MB shredding option of 80,000 fields is refused at once") {
  TempDir dir;
  Db db;
  std::string fields = "shredding=v:{";
  for (int i = 0; i < 80000; ++i) fields += (i ? ",field" : "field") + std::to_string(i) + ":INT64";
  fields += "}";
  REQUIRE(fields.size() > 1000000);
  std::atomic<bool> done{false};
  std::thread interrupter([&] {
    for (int i = 0; i < 100 && !done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!done) sqlite3_interrupt(db.get());  // after 2 s: the old parser ran on for 30 s more
  });
  const Clock::time_point start = Clock::now();
  const int rc = db.Exec("SELECT parquet_copy('SELECT ''{}'' AS v', " + Quote(dir.File("x.parquet")) + ", 'variant=v', " +
                         Quote(fields) + ")");
  const double elapsed_ms = MillisecondsSince(start);
  done = true;
  interrupter.join();
  INFO("after " << elapsed_ms << " ms: " << db.last_error());
  CHECK(rc == SQLITE_ERROR);
  CHECK(db.last_error() ==
        "parquet_copy: shredding: column v: more than 10000 names (columns and fields) in one option");
  CHECK(elapsed_ms < 2000);
}
