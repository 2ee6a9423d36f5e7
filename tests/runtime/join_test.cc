// Joins against the parquet table (issue 18), part of runtime_tests:
//   - the plans SQLite chooses from our cost estimates, read from EXPLAIN QUERY PLAN as
//     values (which table each loop runs over and how it finds its rows), not as the text
//     of one SQLite version, so the same expectations hold on every SQLite of the matrix;
//   - the join index: built at the first lookup of a column statistics cannot prune, at
//     the second of one a dictionary may prune, answering the lookups with SQLite's
//     equality, reported by parquet_scan_stats, kept while the file is unchanged and rebuilt
//     when it changes, refused over join_index_memory and off at 0;
//   - join lookups in no order of rows that bring whole row groups of their values give
//     the native table's rows;
//   - the files a join's inner side keeps open between its scans stay within the file
//     descriptors the process has, and a scan that runs out of them closes its kept files.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/runtime/runtime_support.h"
#include "tests/unit/temp_dir.h"

namespace {

using runtime_support::Quote;
using test_support::TempDir;

class JoinDb : public runtime_support::Connection {
 public:
  JoinDb() : Connection(":memory:") { Load(); }

  void Run(const std::string& sql) { REQUIRE_MESSAGE(Exec(sql) == SQLITE_OK, sql << ": " << last_error()); }

  // Every row, columns as text joined by '|', rows joined by '\n'.
  std::string Rows(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    REQUIRE_MESSAGE(sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK, sql << ": " << sqlite3_errmsg(db_));
    std::string out;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (!out.empty()) out += '\n';
      for (int c = 0; c < sqlite3_column_count(stmt); c++) {
        const unsigned char* text = sqlite3_column_text(stmt, c);
        if (c) out += '|';
        out += text ? reinterpret_cast<const char*>(text) : "NULL";
      }
    }
    INFO(sql << ": " << std::string(sqlite3_errmsg(db_)));
    CHECK(rc == SQLITE_DONE);
    sqlite3_finalize(stmt);
    return out;
  }

  // Rows() of `sql` with every %T replaced by `table` (one query against several tables).
  std::string RowsOn(std::string sql, const std::string& table) {
    for (size_t at; (at = sql.find("%T")) != std::string::npos;) sql.replace(at, 2, table);
    return Rows(sql);
  }

  int64_t Stat(const std::string& table, const std::string& member) {
    return std::stoll(Rows("SELECT " + member + " FROM parquet_scan_stats(" + Quote(table) + ")"));
  }

  // The loops of `sql`'s plan, outermost first: "table:how", how being `index=<idxStr>` for
  // our table, `auto` for an automatic index, `scan` or `index` for a native table; joined
  // by ", ".
  std::string Loops(const std::string& sql) {
    std::string loops;
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(db_, ("EXPLAIN QUERY PLAN " + sql).c_str(), -1, &stmt, nullptr) == SQLITE_OK);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      const std::string detail = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 3));
      const bool scan = detail.rfind("SCAN ", 0) == 0, search = detail.rfind("SEARCH ", 0) == 0;
      if (!scan && !search) continue;  // BLOOM FILTER, USE TEMP B-TREE, ...
      size_t name_start = detail.find(' ') + 1;
      // Before SQLite 3.36: "SCAN TABLE t AS a" where later versions say "SCAN a".
      if (detail.compare(name_start, 6, "TABLE ") == 0) name_start += 6;
      size_t name_end = detail.find(' ', name_start);
      if (name_end != std::string::npos && detail.compare(name_end, 4, " AS ") == 0) {
        name_start = name_end + 4;
        name_end = detail.find(' ', name_start);
      }
      std::string loop = detail.substr(name_start, name_end - name_start) + ":";
      const size_t vtab = detail.find("VIRTUAL TABLE INDEX ");
      if (vtab != std::string::npos) {
        loop += "index=" + detail.substr(detail.find(':', vtab) + 1);
      } else if (detail.find("AUTOMATIC") != std::string::npos) {
        loop += "auto";
      } else {
        loop += scan ? "scan" : "index";
      }
      loops += (loops.empty() ? "" : ", ") + loop;
    }
    sqlite3_finalize(stmt);
    return loops;
  }
};

// SELECT `expression` AS k for i in 1..count.
std::string Series(const std::string& expression, int count) {
  return "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + std::to_string(count) +
         ") SELECT " + expression + " AS k FROM n";
}

// 30000 rows: ok ascending (the sorted key, 1..6000, 5 rows each), pk unsorted in 1..1000,
// q = pk % 7 + 0.5; in row groups of 3000 sorted by ok. The same rows are in native table
// `native` of `db`.
void MakeLineitem(JoinDb& db, const std::string& path, int salt = 0) {
  db.Run("CREATE TABLE IF NOT EXISTS native(ok INTEGER, pk INTEGER, q REAL); DELETE FROM native;"
         "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 30000) "
         "INSERT INTO native SELECT i / 5 + 1, (i * 7919 + " + std::to_string(salt) +
         ") % 1000 + 1, ((i * 7919) % 1000) % 7 + 0.5 FROM n");
  db.Rows("SELECT parquet_copy('SELECT * FROM native ORDER BY ok', " + Quote(path) +
          ", 'row_group_size=3000', 'sorting_columns=ok')");
}

// MakeLineitem's file as table t (join index on) and t0 (join_index_memory=0).
void MakeTables(JoinDb& db, const std::string& file) {
  MakeLineitem(db, file);
  db.Run("CREATE VIRTUAL TABLE t USING parquet(" + Quote(file) + ")");
  db.Run("CREATE VIRTUAL TABLE t0 USING parquet(" + Quote(file) + ", join_index_memory=0)");
}

TEST_CASE("join plans follow what the file can do") {
  TempDir dir;
  JoinDb db;
  const std::string file = dir.File("li.parquet");
  MakeTables(db, file);
  db.Run("CREATE TEMP TABLE ku AS " + Series("i * 3", 100));
  db.Run("CREATE TEMP TABLE ki(k INTEGER); INSERT INTO ki SELECT k FROM ku");

  // Untyped keys: SQLite cannot index them for pk = k, so the parquet table is the inner
  // loop, looked up by pk (the join index answers).
  CHECK(db.Loops("SELECT count(*), sum(q) FROM ku JOIN t ON pk = k") == "ku:scan, t:index=pk=?");
  // Typed keys and no join index: a lookup would scan the whole pk column, so the parquet
  // table is scanned once in the outer loop and SQLite indexes the keys.
  CHECK(db.Loops("SELECT count(*), sum(q) FROM ki JOIN t0 ON pk = k") == "t0:index=, ki:auto");
  // Typed keys with the join index: lookups cost their rows, so the keys are the outer
  // loop, on the unsorted column as on the sorted one (whose repeated lookups end up in the
  // join index too).
  CHECK(db.Loops("SELECT count(*), sum(q) FROM ki JOIN t ON pk = k") == "ki:scan, t:index=pk=?");
  CHECK(db.Loops("SELECT count(*), sum(q) FROM ki JOIN t ON ok = k") == "ki:scan, t:index=ok=?");
  // The sorted key without the join index: each lookup reads a page of each column. A few
  // keys are the outer loop; with many, one scan of the parquet table against SQLite's
  // index on the keys is cheaper. (SQLite assumes a million rows in a table it has no
  // statistics for: ANALYZE tells.)
  db.Run("CREATE TEMP TABLE k3(k INTEGER); INSERT INTO k3 VALUES (7), (700), (5000); ANALYZE temp");
  CHECK(db.Loops("SELECT count(*), sum(q) FROM k3 JOIN t0 ON ok = k") == "k3:scan, t0:index=ok=?");
  CHECK(db.Loops("SELECT count(*), sum(q) FROM ki JOIN t0 ON ok = k") == "t0:index=, ki:auto");
  // Untyped keys cannot be indexed: the keys are the outer loop however many.
  CHECK(db.Loops("SELECT count(*), sum(q) FROM ku JOIN t ON ok = k") == "ku:scan, t:index=ok=?");
  // Two parquet tables: the side whose rows are filtered by the sorted key is the outer
  // loop, the other one is looked up by its unsorted column.
  CHECK(db.Loops("SELECT count(*) FROM t AS a JOIN t AS b ON b.pk = a.ok WHERE a.ok < 50") ==
        "a:index=ok<?, b:index=pk=?");
  // IN (SELECT ...) on the unsorted column.
  CHECK(db.Loops("SELECT count(*) FROM t WHERE pk IN (SELECT k FROM ku)").rfind("t:index=pk", 0) == 0);
}

TEST_CASE("the join index answers repeated lookups with SQLite's equality") {
  TempDir dir;
  JoinDb db;
  const std::string file = dir.File("li.parquet");
  MakeTables(db, file);
  db.Run("CREATE VIRTUAL TABLE tiny USING parquet(" + Quote(file) + ", join_index_memory=1000)");
  // Keys of every storage class: integers, integral and fractional reals, numeric and
  // other text, a blob, NULL, and keys that match nothing.
  db.Run("CREATE TEMP TABLE ku AS " + Series("i * 3", 300) +
         " UNION ALL VALUES (5.0), (7.5), ('12'), (' 13'), ('14.0'), ('abc'), (x'3135'), (NULL), (5000), (-1)");
  const std::string join = "SELECT count(*), sum(q), sum(pk) FROM ku JOIN %T ON pk = k";
  auto on = [&](const std::string& table) { return db.RowsOn(join, table); };
  const std::string expected = on("native");
  REQUIRE(expected.rfind("0|", 0) != 0);
  CHECK(on("t") == expected);
  CHECK(db.Stat("t", "join_index_bytes") > 0);
  CHECK(db.Stat("t", "join_index_hits") >= 300);
  CHECK(db.Stat("t", "rows_decoded") < 100);  // the last lookup visited only its rows
  CHECK(on("t0") == expected);
  CHECK(db.Stat("t0", "join_index_bytes") == 0);
  CHECK(on("tiny") == expected);  // over its budget: every lookup scans
  CHECK(db.Stat("tiny", "join_index_bytes") == 0);

  // Kept for the next statement while the file is unchanged: no build, used at once.
  CHECK(on("t") == expected);
  CHECK(db.Stat("t", "join_index_built") == 0);
  CHECK(db.Stat("t", "join_index_bytes") > 0);

  // The file replaced: the index is rebuilt from the new rows.
  MakeLineitem(db, file, 1);
  const std::string changed = on("native");
  CHECK(changed != expected);
  CHECK(on("t") == changed);

  // IN (SELECT ...) and a correlated subquery, run as lookups.
  CHECK(db.Rows("SELECT count(*), sum(q) FROM t WHERE pk IN (SELECT k FROM ku)") ==
        db.Rows("SELECT count(*), sum(q) FROM native WHERE pk IN (SELECT k FROM ku)"));
  CHECK(db.Rows("SELECT sum((SELECT count(*) FROM t WHERE t.pk = ku.k)) FROM ku") ==
        db.Rows("SELECT sum((SELECT count(*) FROM native WHERE native.pk = ku.k)) FROM ku"));
}

TEST_CASE("the join index is built at the first lookup that statistics cannot prune") {
  TempDir dir;
  JoinDb db;
  MakeLineitem(db, dir.File("li.parquet"));
  // pk without dictionaries: every row group's statistics span its whole range.
  const std::string plain = dir.File("plain.parquet"), sparse = dir.File("sparse.parquet");
  db.Rows("SELECT parquet_copy('SELECT * FROM native ORDER BY ok', " + Quote(plain) +
          ", 'row_group_size=3000', 'dictionary=0')");
  // pk sorted within each row group and the row groups in pk order: statistics prune.
  db.Rows("SELECT parquet_copy('SELECT * FROM native ORDER BY pk', " + Quote(sparse) +
          ", 'row_group_size=3000', 'dictionary=0')");
  db.Run("CREATE VIRTUAL TABLE tp USING parquet(" + Quote(plain) + ")");
  db.Run("CREATE VIRTUAL TABLE ts USING parquet(" + Quote(sparse) + ")");
  db.Run("CREATE VIRTUAL TABLE td USING parquet(" + Quote(dir.File("li.parquet")) + ")");
  const std::string expected = db.Rows("SELECT count(*), sum(q) FROM native WHERE pk = 77");
  REQUIRE(expected.rfind("0|", 0) != 0);
  // One lookup of an unprunable column: built at once, and the lookup visits only its rows.
  CHECK(db.Rows("SELECT count(*), sum(q) FROM tp WHERE pk = 77") == expected);
  CHECK(db.Stat("tp", "join_index_built") == 1);
  CHECK(db.Stat("tp", "rows_decoded") == std::stoll(expected));
  // Statistics prune (not a join index case for a single lookup); the dictionary may.
  CHECK(db.Rows("SELECT count(*), sum(q) FROM ts WHERE pk = 77") == expected);
  CHECK(db.Stat("ts", "join_index_bytes") == 0);
  CHECK(db.Rows("SELECT count(*), sum(q) FROM td WHERE pk = 77") == expected);
  CHECK(db.Stat("td", "join_index_bytes") == 0);
}

TEST_CASE("join_index_memory bounds the indexes of a table's columns together") {
  TempDir dir;
  JoinDb db;
  MakeLineitem(db, dir.File("li.parquet"));
  // Two unsorted integer columns without dictionaries: a single lookup of either builds its
  // index at once.
  db.Run("CREATE TEMP VIEW two AS SELECT ok, pk, pk * 7 % 1000 + 1 AS pk2 FROM native");
  const std::string file = dir.File("two.parquet");
  db.Rows("SELECT parquet_copy('SELECT * FROM two ORDER BY ok', " + Quote(file) +
          ", 'row_group_size=3000', 'dictionary=0')");
  auto lookup = [&](const std::string& table, const std::string& condition) {
    const std::string rows = db.Rows("SELECT count(*), sum(ok) FROM " + table + " WHERE " + condition);
    CHECK(rows == db.Rows("SELECT count(*), sum(ok) FROM two WHERE " + condition));
    return db.Stat(table, "join_index_built");
  };
  db.Run("CREATE VIRTUAL TABLE roomy USING parquet(" + Quote(file) + ")");
  CHECK(lookup("roomy", "pk = 77") == 1);
  const int64_t pk_bytes = db.Stat("roomy", "join_index_bytes");
  CHECK(lookup("roomy", "pk2 = 77") == 1);
  const int64_t pk2_bytes = db.Stat("roomy", "join_index_bytes");
  REQUIRE(pk_bytes > 0);
  REQUIRE(pk2_bytes > 0);
  // Both fit in the default budget: both kept.
  CHECK(lookup("roomy", "pk = 78") == 0);
  CHECK(lookup("roomy", "pk2 = 78") == 0);

  // Room for either index alone, not for both.
  const int64_t budget = std::max(pk_bytes, pk2_bytes) + std::min(pk_bytes, pk2_bytes) / 2;
  db.Run("CREATE VIRTUAL TABLE tight USING parquet(" + Quote(file) + ", join_index_memory=" + std::to_string(budget) +
         ")");
  CHECK(lookup("tight", "pk = 77") == 1);
  CHECK(lookup("tight", "pk = 78") == 0);
  CHECK(lookup("tight", "pk2 = 77") == 1);  // pk's index, idle, let go to make room
  CHECK(lookup("tight", "pk = 79") == 1);   // and built again, letting go of pk2's
  CHECK(lookup("tight", "pk2 = 78") == 1);

  // A statement that looks up both columns at once: the index one cursor holds keeps its
  // room, and the other column is looked up by scanning; the rows are the same.
  db.Run("CREATE TEMP TABLE ks AS " + Series("i - 1", 7));
  const std::string both =
      "SELECT count(*), sum(a.ok), sum(b.ok) FROM ks JOIN %T AS a ON a.pk = k + 100 JOIN %T AS b ON b.pk2 = a.pk";
  auto on = [&](const std::string& table) { return db.RowsOn(both, table); };
  const std::string expected = on("two");
  REQUIRE(expected.rfind("0|", 0) != 0);
  CHECK(on("tight") == expected);
  CHECK(on("roomy") == expected);
}

TEST_CASE("a join index the files cannot give leaves the lookups to the scan") {
  TempDir dir;
  JoinDb db;
  // Two partitions of the same rows, pk without dictionaries (so that nothing prunes it);
  // in the second, the pk chunk of the first row group is damaged (a byte in the middle of
  // its pages), which their CRC reveals.
  MakeLineitem(db, dir.File("li.parquet"));
  for (const char* partition : {"p=1", "p=2"}) {
    std::filesystem::create_directories(dir.File(partition));
    db.Rows("SELECT parquet_copy('SELECT * FROM native ORDER BY ok', " + Quote(dir.File(partition) + "/li.parquet") +
            ", 'row_group_size=3000', 'dictionary=0')");
  }
  const std::string bad = dir.File("p=2/li.parquet");
  const std::string offset = db.Rows("SELECT data_page_offset + total_compressed_size / 2 FROM parquet_metadata(" +
                                     Quote(bad) + ") WHERE row_group_id = 0 AND path_in_schema = 'pk'");
  REQUIRE(!offset.empty());
  {
    FILE* f = fopen(bad.c_str(), "r+b");
    REQUIRE(f != nullptr);
    REQUIRE(fseek(f, std::stol(offset), SEEK_SET) == 0);
    const int c = fgetc(f);
    REQUIRE(fseek(f, std::stol(offset), SEEK_SET) == 0);
    fputc(c ^ 0x5a, f);
    fclose(f);
  }
  db.Run("CREATE VIRTUAL TABLE tp USING parquet(" + Quote(dir.File("*/li.parquet")) + ")");
  const std::string expected = db.Rows("SELECT count(*), sum(q) FROM native WHERE pk = 77");
  REQUIRE(expected.rfind("0|", 0) != 0);
  // pk cannot be pruned: its lookup would build the index at once, which reads every file.
  // The second file's partition is pruned, so the query does not need the damaged chunk.
  CHECK(db.Rows("SELECT count(*), sum(q) FROM tp WHERE pk = 77 AND p = 1") == expected);
  CHECK(db.Stat("tp", "join_index_bytes") == 0);
  // Reading the damaged chunk is still an error, which names the file.
  CHECK(db.Exec("SELECT count(*), sum(q) FROM tp WHERE pk = 77 AND p = 2") == SQLITE_ERROR);
  CHECK(db.last_error().find("p=2") != std::string::npos);
}

TEST_CASE("join_index_memory is checked") {
  TempDir dir;
  JoinDb db;
  const std::string file = dir.File("li.parquet");
  MakeLineitem(db, file);
  CHECK(db.Exec("CREATE VIRTUAL TABLE bad USING parquet(" + Quote(file) + ", join_index_memory=-1)") == SQLITE_ERROR);
  CHECK(db.last_error().find("join_index_memory") != std::string::npos);
  CHECK(db.Exec("CREATE VIRTUAL TABLE bad USING parquet(" + Quote(file) + ", join_index_memory=lots)") == SQLITE_ERROR);
  CHECK(db.last_error().find("join_index_memory") != std::string::npos);
}

// Lowers the soft RLIMIT_NOFILE for its lifetime.
class DescriptorLimit {
 public:
  explicit DescriptorLimit(rlim_t soft) {
    REQUIRE(getrlimit(RLIMIT_NOFILE, &saved_) == 0);
    REQUIRE(saved_.rlim_cur >= soft);
    struct rlimit lowered = saved_;
    lowered.rlim_cur = soft;
    REQUIRE(setrlimit(RLIMIT_NOFILE, &lowered) == 0);
  }
  ~DescriptorLimit() { setrlimit(RLIMIT_NOFILE, &saved_); }

 private:
  struct rlimit saved_ {};
};

// The file descriptors the process has open (a million when none is left to count them).
int OpenDescriptors() {
  std::error_code error;
  std::filesystem::directory_iterator entries("/proc/self/fd", error);
  if (error) return 1 << 20;
  int count = 0;
  for ([[maybe_unused]] const auto& entry : entries) count++;
  return count - 1;  // the directory_iterator's own
}

// open_descriptors(): OpenDescriptors(), called per row of a query.
void OpenDescriptorsFunction(sqlite3_context* ctx, int, sqlite3_value**) { sqlite3_result_int(ctx, OpenDescriptors()); }

TEST_CASE("the files a join keeps open stay within the descriptors the process has") {
  TempDir dir;
  JoinDb db;
  constexpr int kFiles = 24;
  for (int i = 0; i < kFiles; i++) {
    db.Rows("SELECT parquet_copy('SELECT " + std::to_string(i) + " AS id', " +
            Quote(dir.File("f" + std::to_string(100 + i) + ".parquet")) + ")");
  }
  db.Run("CREATE VIRTUAL TABLE many USING parquet(" + Quote(dir.File("f*.parquet")) + ")");
  db.Run("CREATE TABLE ids AS " + Series("i - 1", kFiles));
  REQUIRE(sqlite3_create_function(db.get(), "open_descriptors", 0, SQLITE_UTF8, nullptr, OpenDescriptorsFunction,
                                  nullptr, nullptr) == SQLITE_OK);
  const std::string three_way = "SELECT count(*), sum(a.id * 10000 + b.id * 100 + c.id), max(open_descriptors()) "
                                "FROM many AS a CROSS JOIN many AS b CROSS JOIN many AS c";
  const std::string expected = db.Rows(
      "SELECT count(*), sum(a.k * 10000 + b.k * 100 + c.k) FROM ids AS a CROSS JOIN ids AS b CROSS JOIN ids AS c");
  REQUIRE(expected.rfind(std::to_string(kFiles * kFiles * kFiles) + "|", 0) == 0);

  SUBCASE("three cursors keep at most a quarter of the limit between them") {
    // Each cursor alone could keep all 24 files: 72 descriptors, beyond the limit of 64.
    DescriptorLimit limit(64);
    const int before = OpenDescriptors();
    const std::string rows = db.Rows(three_way);
    const size_t bar = rows.rfind('|');
    CHECK(rows.substr(0, bar) == expected);
    // 16 kept, 3 current files; a little room for the runtime's own.
    CHECK(std::stoi(rows.substr(bar + 1)) <= before + 16 + 3 + 2);
    CHECK(db.Stat("many", "files_opened") > 0);
  }
  SUBCASE("a scan that runs out of descriptors closes its kept files and goes on") {
    DescriptorLimit limit(64);
    // Leaves 6 descriptors free: fewer than the 16 the cursor may keep.
    std::vector<int> held;
    for (int fd; (fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0;) held.push_back(fd);
    REQUIRE(held.size() > 6);
    for (int i = 0; i < 6; i++) {
      close(held.back());
      held.pop_back();
    }
    const std::string rows = db.Rows("SELECT count(*), sum(ids.k * 100 + many.id) FROM ids CROSS JOIN many");
    for (int fd : held) close(fd);
    CHECK(rows == db.Rows("SELECT count(*), sum(a.k * 100 + b.k) FROM ids AS a CROSS JOIN ids AS b"));
  }
}

}  // namespace

TEST_CASE("an IN list on an ordered column builds the join index when its pages add up to a quarter of the rows") {
  // SQLite hands over a whole IN list from 3.38 (sqlite3_vtab_in); before, each value is a
  // lookup of its own and the lookups' rows decide, as for joins.
  if (sqlite3_libversion_number() < 3038000) return;
  TempDir dir;
  JoinDb db;
  MakeLineitem(db, dir.File("li.parquet"));
  // ok ascending over row groups and pages; 30000 rows in pages of about 500 (8 bytes a value).
  const std::string file = dir.File("ordered.parquet");
  db.Rows("SELECT parquet_copy('SELECT * FROM native ORDER BY ok', " + Quote(file) +
          ", 'row_group_size=3000', 'dictionary=0', 'page_size=4000')");
  db.Run("CREATE VIRTUAL TABLE t USING parquet(" + Quote(file) + ")");
  auto in_list = [&](int values) {
    std::string list;
    for (int i = 0; i < values; i++) list += (i ? "," : "") + std::to_string(1 + i * 6000 / values);
    const std::string sql = "SELECT count(*), sum(q) FROM %T WHERE ok IN (" + list + ")";
    auto on = [&](const std::string& table) { return db.RowsOn(sql, table); };
    CHECK(on("t") == on("native"));
    return db.Stat("t", "join_index_built");
  };
  // Two values decode two pages: no index.
  CHECK(in_list(2) == 0);
  CHECK(db.Stat("t", "join_index_bytes") == 0);
  CHECK(db.Stat("t", "rows_decoded") < 3000);
  // Forty values on forty pages: more than a quarter of the rows, so one build answers them.
  CHECK(in_list(40) == 1);
  CHECK(db.Stat("t", "join_index_bytes") > 0);
  CHECK(db.Stat("t", "rows_decoded") == 5 * 40);
}

TEST_CASE("join lookups in no order of rows bring whole row groups of the values they fetch, with the same rows") {
  // 10 row groups of 20 blocks of 1,024 rows: pk unsorted in 1..20000 (about 10 rows a key,
  // spread over the row groups), q REAL with NULLs, v INTEGER. Joins of a few to many keys
  // decode blocks one by one, then (after eight a row group, each starting the row group
  // over: see ext/table/lookup_batch_cache.h) whole row groups; every answer is the native
  // table's, the first run (the index built) and the next (kept) alike.
  TempDir dir;
  JoinDb db;
  const std::string file = dir.File("groups.parquet");
  db.Run("CREATE TABLE native(pk INTEGER, q REAL, v INTEGER);"
         "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 204800) "
         "INSERT INTO native SELECT (i * 7919) % 20000 + 1, CASE WHEN i % 11 = 3 THEN NULL ELSE (i % 97) * 0.25 END, "
         "i * 3 - 100000 FROM n");
  db.Rows("SELECT parquet_copy('SELECT * FROM native', " + Quote(file) + ", 'row_group_size=20480', 'dictionary=0')");
  for (int keys : {5, 15, 40, 300}) {
    INFO(keys << " keys");
    db.Run("DROP TABLE IF EXISTS ku; CREATE TEMP TABLE ku AS " + Series("(i * 4567) % 20000 + 1", keys));
    db.Run("DROP TABLE IF EXISTS temp.t; CREATE VIRTUAL TABLE temp.t USING parquet(" + Quote(file) + ")");
    const std::string join = "SELECT count(*), count(q), sum(q), sum(v), min(v), max(v) FROM ku JOIN %T ON pk = k";
    auto on = [&](const std::string& table) { return db.RowsOn(join, table); };
    const std::string expected = on("native");
    REQUIRE(expected.rfind("0|", 0) != 0);
    CHECK(on("t") == expected);
    CHECK(db.Stat("t", "join_index_bytes") > 0);
    CHECK(on("t") == expected);
    CHECK(db.Stat("t", "join_index_built") == 0);
    // Row by row too (the values of each row, not only their sums).
    CHECK(db.Rows("SELECT k, q, v FROM ku JOIN t ON pk = k ORDER BY k, v") ==
          db.Rows("SELECT k, q, v FROM ku JOIN native ON pk = k ORDER BY k, v"));
  }
}
