// sql_test_runner: runs the SQL-level tests in sql/*.test against the loadable extension,
// through the sqlite3 C API, the way a user would load it.
//
// Usage: sql_test_runner [--extension PATH] [--root DIR] FILE.test...
//   --extension PATH  the extension to load into every database (e.g. build/parquet);
//                     passed to sqlite3_load_extension() as given, so ".so" may be omitted
//   --root DIR        the repository root (default: the current directory)
//
// Each file gets a fresh in-memory database with the extension loaded, then its records
// run in order. A file is a list of records separated by blank lines; lines starting with
// '#' outside a record are comments:
//
//   # a comment
//   statement ok
//   CREATE VIRTUAL TABLE t USING parquet('${PARQUET_TESTING}/data/alltypes_plain.parquet');
//
//   query                        ("query rowsort" sorts actual and expected rows first)
//   SELECT id, string_col FROM t WHERE id < 2;
//   ----
//   0|X'30'
//   1|X'31'
//
//   statement error no such table
//   SELECT * FROM nope;
//
// - "statement ok": the SQL must succeed (any rows it returns are ignored).
// - "statement error TEXT": the SQL must fail and TEXT (possibly empty) must be a substring
//   of sqlite3_errmsg().
// - "statement error-excludes TEXT": the SQL must fail and TEXT (not empty) must NOT appear
//   in sqlite3_errmsg() (e.g. a key that an error must not echo).
// - "query": the SQL must succeed and return exactly the rows after "----" (none if there
//   is no "----" line or nothing follows it). sqllogictest-style type letters
//   ("query IT rowsort") are accepted and ignored.
// - A record may start with "onlyif sqlite>=X.Y.Z" or "onlyif sqlite<X.Y.Z" (the line
//   before its header): it runs only on those SQLite versions and is skipped elsewhere
//   (for plans and scan statistics that differ by version, and SQL that older versions
//   lack; never for results). "onlyif threads" runs the record only where the extension has
//   its threads (not in the WebAssembly build: docs/wasm.md).
// The SQL runs from the line after the header to the "----" line or the next blank line;
// it may span lines and hold several statements (the rows of all of them are compared).
// Result rows are the columns joined by '|': NULL -> NULL, INTEGER -> decimal,
// REAL -> the form of SQLite 3.40's %!.15g (made here, the same on every SQLite), TEXT -> as
// is, BLOB -> X'UPPERHEX'. An EXPLAIN QUERY PLAN row is its detail column alone, worded
// as SQLite 3.36 and later word it ("SCAN t", not "SCAN TABLE t").
// A row that is a single empty string cannot be written (it would be a blank line).
//
// Substituted in the SQL and in the expected text:
//   ${PARQUET_TESTING}  <root>/../shared/parquet-testing (or $PARQUET_TESTING if set)
//   ${ROOT}             the repository root (absolute)
//   ${TMPDIR}           a fresh temporary directory for this file, removed afterwards
//
// Also built for Windows (scripts/build_windows_tests.sh, with the SQLite amalgamation) and
// run under wine by the windows suite; the few POSIX calls have Windows equivalents below.
//
// Output: each failing record as "file:line: ..." with the SQL, expected and actual; then
// "file: N passed, M failed" per file and finally exactly "sql: N passed, M failed".
// The exit status is 1 when anything failed (2 on a usage error).
#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#ifdef _WIN32
#include <io.h>
#define write _write
#define STDOUT_FILENO 1
#else
#include <unistd.h>
#endif

#include "tests/expected_sqlite_version.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace fs = std::filesystem;

namespace {

struct Options {
  std::string extension;
  fs::path root = ".";
  std::vector<std::string> files;
};

struct Record {
  enum class Kind { kStatementOk, kStatementError, kStatementErrorExcludes, kQuery, kMalformed };
  Kind kind = Kind::kStatementOk;
  int line = 0;              // line of the header, for messages
  std::string error_text;    // kStatementError: expected substring of the message;
                             // kStatementErrorExcludes: text the message must not hold;
                             // kMalformed: what is wrong with the record
  bool rowsort = false;      // kQuery
  // "onlyif sqlite>=X.Y.Z" / "onlyif sqlite<X.Y.Z": the record runs only on the SQLite
  // versions (sqlite3_libversion_number) in [min_sqlite, below_sqlite).
  int min_sqlite = 0;
  int below_sqlite = 1 << 30;
  std::string sql;
  std::vector<std::string> expected;
};

struct Counts {
  int passed = 0;
  int failed = 0;
  int skipped = 0;  // records for other SQLite versions (onlyif)
};

// ---- crash reporting: name the record that was running when the process dies ---------
char g_current[1024] = "";
// The slowest record so far (printed at the end: a suite that got slow shows where).
double slowest_ms = 0;
std::string slowest;

void WriteCurrent(const char* what) {
  if (g_current[0] == '\0') return;
  char buf[1200];
  int n = std::snprintf(buf, sizeof buf, "sql_test_runner: %s while running %s\n", what, g_current);
  if (n > 0) {
    ssize_t ignored = write(STDOUT_FILENO, buf, std::min<size_t>(n, sizeof buf - 1));
    (void)ignored;
  }
}

extern "C" void OnFatalSignal(int sig) {
  WriteCurrent(sig == SIGABRT ? "aborted" : "crashed");
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// ASan reports end in the death callback; UBSan's fatal reports (-fno-sanitize-recover)
// skip it but call this hook of the UBSan runtime first.
extern "C" void OnSanitizerDeath() { WriteCurrent("sanitizer error"); }
extern "C" void __ubsan_on_report() { WriteCurrent("sanitizer report"); }
#endif

namespace {

void InstallCrashHandlers() {
#ifdef SIGBUS
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, OnFatalSignal);
#else
  for (int sig : {SIGSEGV, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, OnFatalSignal);
#endif
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_set_death_callback(OnSanitizerDeath);
#endif
}

// ---- helpers --------------------------------------------------------------------------
bool IsBlank(const std::string& s) {
  return s.find_first_not_of(" \t\r\n") == std::string::npos;
}

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> SplitWords(const std::string& s) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) words.push_back(s.substr(i, j - i));
    i = j;
  }
  return words;
}

void ReplaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
}

struct Substitutions {
  std::string parquet_testing, root, tmpdir;
  std::string Apply(std::string s) const {
    if (s.find("${") == std::string::npos) return s;
    ReplaceAll(s, "${PARQUET_TESTING}", parquet_testing);
    ReplaceAll(s, "${ROOT}", root);
    ReplaceAll(s, "${TMPDIR}", tmpdir);
    return s;
  }
};

void PrintIndented(const std::string& text) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::printf("    %.*s\n", static_cast<int>(end - start), text.c_str() + start);
    start = end + 1;
  }
}

void PrintRows(const char* label, const std::vector<std::string>& rows) {
  std::printf("  %s (%zu row%s):\n", label, rows.size(), rows.size() == 1 ? "" : "s");
  for (const auto& r : rows) std::printf("    %s\n", r.c_str());
}

// ---- parsing --------------------------------------------------------------------------
// "sqlite>=X.Y.Z" or "sqlite<X.Y.Z" into rec's version bounds; false when it is neither.
bool ParseVersionCondition(const std::string& condition, Record* rec) {
  const bool at_least = condition.rfind("sqlite>=", 0) == 0;
  if (!at_least && condition.rfind("sqlite<", 0) != 0) return false;
  int major = 0, minor = 0, patch = 0;
  char rest = 0;
  if (std::sscanf(condition.c_str() + (at_least ? 8 : 7), "%d.%d.%d%c", &major, &minor, &patch, &rest) != 3) {
    return false;
  }
  const int number = major * 1000000 + minor * 1000 + patch;
  (at_least ? rec->min_sqlite : rec->below_sqlite) = number;
  return true;
}

// Parses `lines` into records. A malformed record becomes a kMalformed record, which fails
// when its turn comes.
std::vector<Record> Parse(const std::vector<std::string>& lines) {
  std::vector<Record> records;
  size_t i = 0;
  auto skip_record = [&] {
    while (i < lines.size() && !IsBlank(lines[i])) ++i;
  };
  while (i < lines.size()) {
    const std::string& header = lines[i];
    if (IsBlank(header) || header[0] == '#') {
      ++i;
      continue;
    }
    Record rec;
    rec.line = static_cast<int>(i + 1);
    std::string problem;
    const bool conditional = header.rfind("onlyif ", 0) == 0;
    if (conditional && Trim(header.substr(7)) == "threads") {
      // "onlyif threads": a record about the extension's own threads (decompression ahead),
      // skipped where it has none (the WebAssembly build's runner, PQ_NO_THREADS).
#ifdef PQ_NO_THREADS
      rec.min_sqlite = 1 << 30;
#endif
      if (i + 1 >= lines.size() || IsBlank(lines[i + 1])) problem = "'onlyif' without a record after it";
    } else if (conditional) {
      if (!ParseVersionCondition(Trim(header.substr(7)), &rec)) {
        problem = "unknown condition '" + Trim(header) + "' (expected 'onlyif sqlite>=X.Y.Z' or 'onlyif sqlite<X.Y.Z')";
      } else if (i + 1 >= lines.size() || IsBlank(lines[i + 1])) {
        problem = "'onlyif' without a record after it";
      }
    }
    if (!problem.empty()) {
      rec.kind = Record::Kind::kMalformed;
      rec.error_text = problem;
      skip_record();
      records.push_back(std::move(rec));
      continue;
    }
    if (conditional) ++i;  // the header follows the condition
    const std::string& record_header = lines[i];
    std::vector<std::string> words = SplitWords(Trim(record_header));
    if (words[0] == "statement" && words.size() == 2 && words[1] == "ok") {
      rec.kind = Record::Kind::kStatementOk;
    } else if (words[0] == "statement" && words.size() >= 3 && words[1] == "error-excludes") {
      rec.kind = Record::Kind::kStatementErrorExcludes;
      std::string rest = Trim(record_header);
      rec.error_text = Trim(rest.substr(rest.find("error-excludes") + 14));
    } else if (words[0] == "statement" && words.size() >= 2 && words[1] == "error") {
      rec.kind = Record::Kind::kStatementError;
      std::string rest = Trim(record_header);
      rest = rest.substr(rest.find("error") + 5);
      rec.error_text = Trim(rest);
    } else if (words[0] == "query") {
      rec.kind = Record::Kind::kQuery;
      for (size_t w = 1; w < words.size(); ++w) {
        if (words[w] == "rowsort") {
          rec.rowsort = true;
        } else if (words[w] == "nosort") {
          rec.rowsort = false;
        } else if (words[w].find_first_not_of("ITRB") != std::string::npos) {
          problem = "unknown query option '" + words[w] + "'";
        }
      }
    } else {
      problem = "unknown record header '" + Trim(record_header) + "' (expected 'statement ok', "
                "'statement error TEXT', 'statement error-excludes TEXT' or 'query [rowsort]')";
    }
    ++i;
    if (problem.empty()) {
      while (i < lines.size() && !IsBlank(lines[i]) && Trim(lines[i]) != "----") {
        if (!rec.sql.empty()) rec.sql += '\n';
        rec.sql += lines[i];
        ++i;
      }
      if (rec.sql.empty()) problem = "record has no SQL";
    }
    if (problem.empty() && i < lines.size() && Trim(lines[i]) == "----") {
      if (rec.kind != Record::Kind::kQuery) {
        problem = "'----' only belongs in a query record";
      } else {
        ++i;
        while (i < lines.size() && !IsBlank(lines[i])) rec.expected.push_back(lines[i++]);
      }
    }
    if (!problem.empty()) {
      rec.kind = Record::Kind::kMalformed;
      rec.error_text = problem;
      skip_record();
    }
    records.push_back(std::move(rec));
  }
  return records;
}

// ---- execution ------------------------------------------------------------------------
// A REAL in the form SQLite 3.40 prints (%!.15g: 15 significant digits, and a ".0" where
// the digits alone would read as an integer; -0.0 as 0.0), formatted here rather than by SQLite because
// SQLite 3.52 and later print 17 digits: the expected rows compare values, not one
// version's text.
std::string FormatReal(double value) {
  if (std::isinf(value)) return value > 0 ? "Inf" : "-Inf";
  if (value == 0) value = 0;  // -0.0 prints as 0.0, as SQLite 3.40 prints it
  char digits[64];
  std::snprintf(digits, sizeof digits, "%.15g", value);
  std::string out = digits;
  if (out.find_first_of(".n") == std::string::npos) {  // no point, not nan
    const size_t exponent = out.find('e');
    out.insert(exponent == std::string::npos ? out.size() : exponent, ".0");
  }
  return out;
}

std::string FormatValue(sqlite3_stmt* st, int col) {
  switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL:
      return "NULL";
    case SQLITE_INTEGER:
      return std::to_string(sqlite3_column_int64(st, col));
    case SQLITE_BLOB: {
      const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(st, col));
      int n = sqlite3_column_bytes(st, col);
      static const char kHex[] = "0123456789ABCDEF";
      std::string out = "X'";
      for (int k = 0; k < n; ++k) {
        out += kHex[p[k] >> 4];
        out += kHex[p[k] & 15];
      }
      return out + "'";
    }
    case SQLITE_FLOAT:
      return FormatReal(sqlite3_column_double(st, col));
    default: {  // SQLITE_TEXT
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, col));
      int n = sqlite3_column_bytes(st, col);
      return p ? std::string(p, n) : std::string();
    }
  }
}

// Runs every statement of `sql`. Rows go to `rows` (when given). On failure returns false
// with the message in `error`.
// An EXPLAIN QUERY PLAN detail as SQLite 3.36 and later word it: before, a table's scan
// or search read "SCAN TABLE t" / "SEARCH TABLE t" ("SCAN t" / "SEARCH t" since).
std::string PlanDetail(std::string detail) {
  for (const char* verb : {"SCAN TABLE ", "SEARCH TABLE "}) {
    if (detail.rfind(verb, 0) == 0) detail.erase(std::strlen(verb) - 6, 6);
  }
  return detail;
}

bool RunSql(sqlite3* db, const std::string& sql, std::vector<std::string>* rows,
            std::string& error) {
  const char* tail = sql.c_str();
  while (*tail) {
    sqlite3_stmt* st = nullptr;
    const char* next = nullptr;
    if (sqlite3_prepare_v2(db, tail, -1, &st, &next) != SQLITE_OK) {
      error = sqlite3_errmsg(db);
      sqlite3_finalize(st);
      return false;
    }
    if (st == nullptr) {  // only whitespace or a comment left
      if (next == tail) break;
      tail = next;
      continue;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (!rows) continue;
      std::string row;
      if (sqlite3_stmt_isexplain(st) == 2) {
        // EXPLAIN QUERY PLAN: only the detail column. Its id/parent columns are opcode
        // addresses and the third is unused (0 before 3.52, not since).
        row = PlanDetail(FormatValue(st, 3));
      } else {
        for (int c = 0, n = sqlite3_column_count(st); c < n; ++c) {
          if (c) row += '|';
          row += FormatValue(st, c);
        }
      }
      rows->push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) {
      error = sqlite3_errmsg(db);
      sqlite3_finalize(st);
      return false;
    }
    sqlite3_finalize(st);
    tail = next;
  }
  return true;
}

// Runs one record; prints a report and returns false when it fails.
bool RunRecord(sqlite3* db, const std::string& file, const Record& rec,
               const Substitutions& subst) {
  std::snprintf(g_current, sizeof g_current, "%s:%d", file.c_str(), rec.line);
  const std::string sql = subst.Apply(rec.sql);
  std::string error;
  auto fail_header = [&](const std::string& what) {
    std::printf("%s:%d: FAILED: %s\n  sql:\n", file.c_str(), rec.line, what.c_str());
    PrintIndented(sql);
  };
  switch (rec.kind) {
    case Record::Kind::kMalformed:
      std::printf("%s:%d: FAILED: malformed record: %s\n", file.c_str(), rec.line,
                  rec.error_text.c_str());
      return false;
    case Record::Kind::kStatementOk:
      if (RunSql(db, sql, nullptr, error)) return true;
      fail_header("statement failed: " + error);
      return false;
    case Record::Kind::kStatementError: {
      const std::string want = subst.Apply(rec.error_text);
      if (RunSql(db, sql, nullptr, error)) {
        fail_header("statement succeeded; expected an error containing '" + want + "'");
        return false;
      }
      if (error.find(want) != std::string::npos) return true;
      fail_header("wrong error message");
      std::printf("  expected error containing: %s\n  actual error: %s\n", want.c_str(),
                  error.c_str());
      return false;
    }
    case Record::Kind::kStatementErrorExcludes: {
      const std::string unwanted = subst.Apply(rec.error_text);
      if (RunSql(db, sql, nullptr, error)) {
        fail_header("statement succeeded; expected an error without '" + unwanted + "'");
        return false;
      }
      if (error.find(unwanted) == std::string::npos) return true;
      fail_header("the error message holds text it must not");
      std::printf("  text that must not appear: %s\n  actual error: %s\n", unwanted.c_str(), error.c_str());
      return false;
    }
    case Record::Kind::kQuery: {
      std::vector<std::string> actual;
      if (!RunSql(db, sql, &actual, error)) {
        fail_header("query failed: " + error);
        return false;
      }
      std::vector<std::string> expected;
      for (const auto& line : rec.expected) expected.push_back(subst.Apply(line));
      if (rec.rowsort) {
        std::sort(actual.begin(), actual.end());
        std::sort(expected.begin(), expected.end());
      }
      if (actual == expected) return true;
      fail_header("result mismatch");
      PrintRows("expected", expected);
      PrintRows("actual", actual);
      return false;
    }
  }
  return false;
}

Counts RunFile(const std::string& file, const Options& opts) {
  Counts counts;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::printf("%s: cannot open file\n", file.c_str());
    ++counts.failed;
    return counts;
  }
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  std::vector<Record> records = Parse(lines);

  Substitutions subst;
  std::error_code ec;
  fs::path root = fs::weakly_canonical(fs::absolute(opts.root), ec);
  if (ec) root = fs::absolute(opts.root);
  subst.root = root.string();
  if (const char* env = std::getenv("PARQUET_TESTING"); env && *env) {
    subst.parquet_testing = env;
  } else {
    fs::path pt = fs::weakly_canonical(root / ".." / "shared" / "parquet-testing", ec);
    subst.parquet_testing = (ec ? (root / ".." / "shared" / "parquet-testing") : pt).string();
  }
  std::string tmpl = (fs::temp_directory_path(ec) / "sql_test.XXXXXX").string();
  if (ec) tmpl = "/tmp/sql_test.XXXXXX";
  std::vector<char> tmpbuf(tmpl.begin(), tmpl.end());
  tmpbuf.push_back('\0');
#ifdef _WIN32
  // No mkdtemp: a name made unique by _mktemp, then created (retried if taken meanwhile).
  bool made = false;
  for (int attempt = 0; attempt < 100 && !made; ++attempt) {
    std::vector<char> candidate = tmpbuf;
    made = _mktemp(candidate.data()) != nullptr && fs::create_directory(candidate.data(), ec);
    if (made) tmpbuf = candidate;
  }
  if (!made) {
#else
  if (mkdtemp(tmpbuf.data()) == nullptr) {
#endif
    std::printf("%s: cannot create a temporary directory: %s\n", file.c_str(),
                std::strerror(errno));
    ++counts.failed;
    return counts;
  }
  subst.tmpdir = tmpbuf.data();

  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
    std::printf("%s: cannot open an in-memory database: %s\n", file.c_str(),
                db ? sqlite3_errmsg(db) : "out of memory");
    ++counts.failed;
  } else {
    if (!opts.extension.empty()) {
      std::snprintf(g_current, sizeof g_current, "%s (loading %s)", file.c_str(),
                    opts.extension.c_str());
      char* err = nullptr;
      sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, nullptr);
      if (sqlite3_load_extension(db, opts.extension.c_str(), nullptr, &err) != SQLITE_OK) {
        std::printf("%s: FAILED: cannot load extension '%s': %s\n", file.c_str(),
                    opts.extension.c_str(), err ? err : sqlite3_errmsg(db));
        ++counts.failed;
      }
      sqlite3_free(err);
    }
    const int running = sqlite3_libversion_number();
    for (const Record& rec : records) {
      if (rec.kind != Record::Kind::kMalformed && (running < rec.min_sqlite || running >= rec.below_sqlite)) {
        ++counts.skipped;
        continue;
      }
      const auto start = std::chrono::steady_clock::now();
      if (RunRecord(db, file, rec, subst)) {
        ++counts.passed;
      } else {
        ++counts.failed;
      }
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (ms > slowest_ms) slowest_ms = ms, slowest = file + ":" + std::to_string(rec.line);
    }
    std::snprintf(g_current, sizeof g_current, "%s (closing the database)", file.c_str());
  }
  sqlite3_close(db);
  g_current[0] = '\0';
  fs::remove_all(subst.tmpdir, ec);
  return counts;
}

void Usage() {
  std::fprintf(stderr,
               "usage: sql_test_runner [--extension PATH] [--root DIR] FILE.test...\n"
               "(the file format is described at the top of tests/sql_test_runner.cc and in "
               "sql/README.md)\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // keep output in order if we crash
  Options opts;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    auto value = [&](const char* name) -> std::string {
      std::string prefix = std::string(name) + "=";
      if (arg.rfind(prefix, 0) == 0) return arg.substr(prefix.size());
      if (a + 1 >= argc) {
        std::fprintf(stderr, "sql_test_runner: %s needs a value\n", name);
        Usage();
        std::exit(2);
      }
      return argv[++a];
    };
    if (arg == "--extension" || arg.rfind("--extension=", 0) == 0) {
      opts.extension = value("--extension");
    } else if (arg == "--root" || arg.rfind("--root=", 0) == 0) {
      opts.root = value("--root");
    } else if (arg == "-h" || arg == "--help") {
      Usage();
      return 0;
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::fprintf(stderr, "sql_test_runner: unknown option %s\n", arg.c_str());
      Usage();
      return 2;
    } else {
      opts.files.push_back(arg);
    }
  }
  if (opts.files.empty()) {
    Usage();
    return 2;
  }
  InstallCrashHandlers();
  if (!CheckExpectedSqlite("sql")) return 1;

  Counts total;
  for (const std::string& file : opts.files) {
    Counts c = RunFile(file, opts);
    if (c.skipped) std::printf("%s: %d records for other SQLite versions skipped\n", file.c_str(), c.skipped);
    std::printf("%s: %d passed, %d failed\n", file.c_str(), c.passed, c.failed);
    total.passed += c.passed;
    total.failed += c.failed;
    total.skipped += c.skipped;
  }
  std::printf("sql: slowest record %.0f ms at %s\n", slowest_ms, slowest.c_str());
  std::printf("sql: %d records for other SQLite versions than %s skipped (onlyif)\n", total.skipped,
              sqlite3_libversion());
  std::printf("sql: %d passed, %d failed\n", total.passed, total.failed);
  return total.failed ? 1 : 0;
}
