// Conformance test: every file of the official parquet-testing corpus, read through the
// extension exactly as a user would (sqlite3_load_extension + CREATE VIRTUAL TABLE), must
// give the values recorded in tests/conformance/expected/*.tsv (made by
// generate_expected.mjs from DuckDB and reviewed by hand; see README.md there).
//
// Every corpus file must be accounted for: it has an expected file, or a line in
// pending.tsv naming the issue whose feature it needs. A pending file that starts to pass
// is reported as a failure too, so the pending list stays exact. Files under bad_data/
// must end in an error (bad_data.tsv lists the expected message) and never crash; so must
// the files listed in error_cases.tsv (invalid files elsewhere in the corpus, such as the
// shredded_variant error cases).
//
// Usage: conformance_tests --extension build/parquet [--corpus ../shared/parquet-testing]
//                          [--expected tests/conformance] [--verbose]
// Ends with the line "conformance: N passed, N failed".
#include <dirent.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/expected_sqlite_version.h"

namespace {

struct Options {
  std::string extension = "build/parquet";
  std::string corpus = "../shared/parquet-testing";
  std::string expected_dir = "tests/conformance";
  bool verbose = false;
};

struct ExpectedFile {
  std::string corpus_path;  // relative to the corpus root, e.g. data/alltypes_plain.parquet
  std::vector<std::string> columns;
  long long rows = -1;
  std::vector<std::vector<std::string>> values;
};

std::vector<std::string> Split(const std::string& line, char separator) {
  std::vector<std::string> parts;
  std::string current;
  for (char c : line) {
    if (c == separator) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(current);
  return parts;
}

bool ReadExpected(const std::string& path, ExpectedFile* out, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot open " + path;
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# file: ", 0) == 0) {
      out->corpus_path = line.substr(8);
    } else if (line.rfind("# columns:", 0) == 0) {
      std::string rest = line.substr(10);
      if (!rest.empty() && rest[0] == ' ') rest = rest.substr(1);
      if (!rest.empty()) out->columns = Split(rest, '\t');
    } else if (line.rfind("# rows: ", 0) == 0) {
      out->rows = std::atoll(line.c_str() + 8);
    } else if (line.rfind("#", 0) == 0) {
      continue;
    } else {
      out->values.push_back(Split(line, '\t'));
    }
  }
  if (out->corpus_path.empty()) {
    *error = path + " has no '# file:' line";
    return false;
  }
  return true;
}

// Map of "corpus path" -> "text" from a two-column TSV (pending.tsv, bad_data.tsv).
std::map<std::string, std::string> ReadTwoColumnTsv(const std::string& path) {
  std::map<std::string, std::string> entries;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      entries[line] = "";
    } else {
      entries[line.substr(0, tab)] = line.substr(tab + 1);
    }
  }
  return entries;
}

std::string JsonString(const unsigned char* text, int length) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (int i = 0; i < length; i++) {
    unsigned char c = text[i];
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string Token(sqlite3_stmt* stmt, int column) {
  switch (sqlite3_column_type(stmt, column)) {
    case SQLITE_NULL: return "NULL";
    case SQLITE_INTEGER: return "i:" + std::to_string(sqlite3_column_int64(stmt, column));
    case SQLITE_FLOAT: {
      char buffer[64];
      double v = sqlite3_column_double(stmt, column);
      if (std::isnan(v)) return "r:NaN";
      if (std::isinf(v)) return v > 0 ? "r:Infinity" : "r:-Infinity";
      if (v == 0 && std::signbit(v)) return "r:-0";
      std::snprintf(buffer, sizeof buffer, "%.17g", v);
      return std::string("r:") + buffer;
    }
    case SQLITE_TEXT: {
      const unsigned char* text = sqlite3_column_text(stmt, column);
      return "t:" + JsonString(text, sqlite3_column_bytes(stmt, column));
    }
    default: {
      static const char* hex = "0123456789abcdef";
      const unsigned char* blob = static_cast<const unsigned char*>(sqlite3_column_blob(stmt, column));
      int n = sqlite3_column_bytes(stmt, column);
      std::string out = "b:";
      for (int i = 0; i < n; i++) {
        out += hex[blob[i] >> 4];
        out += hex[blob[i] & 15];
      }
      return out;
    }
  }
}

// Reals are compared by value (both sides parsed), so formatting differences do not matter.
// SQLite has no NaN: sqlite3_result_double turns a NaN into NULL, so r:NaN expects NULL.
bool TokensMatch(const std::string& expected, const std::string& actual) {
  if (expected == actual) return true;
  if (expected == "r:NaN") return actual == "NULL";
  if (expected.rfind("r:", 0) == 0 && actual.rfind("r:", 0) == 0) {
    double e = std::strtod(expected.c_str() + 2, nullptr);
    double a = std::strtod(actual.c_str() + 2, nullptr);
    if (std::isnan(e) && std::isnan(a)) return true;
    return std::memcmp(&e, &a, sizeof e) == 0;
  }
  return false;
}

std::string SqlQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

std::string IdQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

sqlite3* OpenDatabase(const Options& options) {
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
    std::fprintf(stderr, "cannot open an in-memory database\n");
    std::exit(2);
  }
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, nullptr);
  char* error = nullptr;
  if (sqlite3_load_extension(db, options.extension.c_str(), nullptr, &error) != SQLITE_OK) {
    std::fprintf(stderr, "cannot load %s: %s\n", options.extension.c_str(), error ? error : "?");
    std::exit(2);
  }
  return db;
}

// Runs the file against its expectation; returns "" on success or a description of the
// first difference.
std::string CheckFile(sqlite3* db, const Options& options, const ExpectedFile& expected,
                      const std::string& extra_arguments) {
  std::string path = options.corpus + "/" + expected.corpus_path;
  sqlite3_exec(db, "DROP TABLE IF EXISTS t", nullptr, nullptr, nullptr);
  char* error = nullptr;
  std::string create = "CREATE VIRTUAL TABLE t USING parquet(" + SqlQuote(path) +
                       (extra_arguments.empty() ? "" : ", " + extra_arguments) + ")";
  if (sqlite3_exec(db, create.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : "?";
    sqlite3_free(error);
    return "create failed: " + message;
  }
  std::string select;
  if (expected.columns.empty()) {
    select = "SELECT count(*) FROM t";
  } else {
    select = "SELECT ";
    for (size_t i = 0; i < expected.columns.size(); i++) {
      if (i) select += ", ";
      select += IdQuote(expected.columns[i]);
    }
    select += " FROM t";
  }
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, select.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    return "prepare failed: " + std::string(sqlite3_errmsg(db));
  }
  std::string problem;
  long long row = 0;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    if (expected.columns.empty()) {
      long long count = sqlite3_column_int64(stmt, 0);
      if (count != expected.rows) problem = "count(*) is " + std::to_string(count) + ", expected " + std::to_string(expected.rows);
      break;
    }
    if (row >= static_cast<long long>(expected.values.size())) {
      problem = "more rows than the " + std::to_string(expected.values.size()) + " expected";
      break;
    }
    const std::vector<std::string>& want = expected.values[static_cast<size_t>(row)];
    for (size_t c = 0; c < expected.columns.size() && problem.empty(); c++) {
      std::string got = Token(stmt, static_cast<int>(c));
      std::string exp = c < want.size() ? want[c] : "<missing>";
      if (!TokensMatch(exp, got)) {
        problem = "row " + std::to_string(row) + ", column " + expected.columns[c] + ": expected " +
                  exp.substr(0, 200) + ", got " + got.substr(0, 200);
      }
    }
    if (!problem.empty()) break;
    row++;
  }
  if (problem.empty() && rc != SQLITE_ROW && rc != SQLITE_DONE) problem = "error: " + std::string(sqlite3_errmsg(db));
  if (problem.empty() && !expected.columns.empty() && row != static_cast<long long>(expected.values.size())) {
    problem = "read " + std::to_string(row) + " rows, expected " + std::to_string(expected.values.size());
  }
  sqlite3_finalize(stmt);
  return problem;
}

// Reads every column of a bad file; returns the error message, or "OK" when it read.
std::string ReadBadFile(sqlite3* db, const std::string& path) {
  sqlite3_exec(db, "DROP TABLE IF EXISTS t", nullptr, nullptr, nullptr);
  char* error = nullptr;
  std::string create = "CREATE VIRTUAL TABLE t USING parquet(" + SqlQuote(path) + ")";
  if (sqlite3_exec(db, create.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : "?";
    sqlite3_free(error);
    return message;
  }
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT * FROM t", -1, &stmt, nullptr) != SQLITE_OK) return sqlite3_errmsg(db);
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    for (int c = 0; c < sqlite3_column_count(stmt); c++) sqlite3_column_value(stmt, c);
  }
  std::string result = rc == SQLITE_DONE ? "OK" : sqlite3_errmsg(db);
  sqlite3_finalize(stmt);
  return result;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void ListParquetFiles(const std::string& root, const std::string& relative, std::vector<std::string>* out) {
  DIR* dir = opendir((root + "/" + relative).c_str());
  if (!dir) return;
  std::vector<std::string> names;
  while (dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    names.push_back(name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    std::string rel = relative.empty() ? name : relative + "/" + name;
    struct stat st;
    if (stat((root + "/" + rel).c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      ListParquetFiles(root, rel, out);
    } else if (EndsWith(name, ".parquet") || EndsWith(name, ".parquet.encrypted")) {
      out->push_back(rel);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    if (arg == "--extension" && i + 1 < argc) options.extension = argv[++i];
    else if (arg == "--corpus" && i + 1 < argc) options.corpus = argv[++i];
    else if (arg == "--expected" && i + 1 < argc) options.expected_dir = argv[++i];
    else if (arg == "--verbose") options.verbose = true;
    else {
      std::fprintf(stderr, "usage: %s --extension PATH [--corpus DIR] [--expected DIR] [--verbose]\n", argv[0]);
      return 2;
    }
  }
  if (!CheckExpectedSqlite("conformance")) return 1;
  sqlite3* db = OpenDatabase(options);
  int passed = 0, failed = 0;
  auto report = [&](bool ok, const std::string& what, const std::string& detail) {
    if (ok) {
      passed++;
      if (options.verbose) std::printf("ok      %s%s%s\n", what.c_str(), detail.empty() ? "" : ": ", detail.c_str());
    } else {
      failed++;
      std::printf("FAILED  %s: %s\n", what.c_str(), detail.c_str());
    }
  };

  // Expected files, indexed by corpus path.
  std::map<std::string, ExpectedFile> expected;
  {
    std::string dir = options.expected_dir + "/expected";
    DIR* d = opendir(dir.c_str());
    if (!d) {
      std::fprintf(stderr, "cannot open %s\n", dir.c_str());
      return 2;
    }
    while (dirent* entry = readdir(d)) {
      std::string name = entry->d_name;
      if (name.size() < 5 || name.substr(name.size() - 4) != ".tsv") continue;
      ExpectedFile file;
      std::string error;
      if (!ReadExpected(dir + "/" + name, &file, &error)) {
        report(false, name, error);
        continue;
      }
      expected[file.corpus_path] = std::move(file);
    }
    closedir(d);
  }
  std::map<std::string, std::string> pending = ReadTwoColumnTsv(options.expected_dir + "/pending.tsv");
  std::map<std::string, std::string> partial = ReadTwoColumnTsv(options.expected_dir + "/pending_columns.tsv");
  std::map<std::string, std::string> bad = ReadTwoColumnTsv(options.expected_dir + "/bad_data.tsv");
  std::map<std::string, std::string> error_cases = ReadTwoColumnTsv(options.expected_dir + "/error_cases.tsv");
  // Table arguments some files need (e.g. verify_crc=0 for the files with corrupt CRCs,
  // whose values are checked here while sql/ checks the CRC error itself).
  std::map<std::string, std::string> arguments = ReadTwoColumnTsv(options.expected_dir + "/table_arguments.tsv");

  std::vector<std::string> corpus;
  ListParquetFiles(options.corpus, "", &corpus);
  if (corpus.empty()) {
    std::fprintf(stderr, "no parquet files under %s\n", options.corpus.c_str());
    return 2;
  }
  int pending_count = 0;
  int partial_count = 0;
  for (const std::string& file : corpus) {
    if (file.rfind("bad_data/", 0) == 0) {
      std::string message = ReadBadFile(db, options.corpus + "/" + file);
      auto it = bad.find(file);
      if (it == bad.end()) {
        report(false, file, "not listed in bad_data.tsv (it gives: " + message + ")");
      } else {
        bool ok = message.find(it->second) != std::string::npos;
        report(ok, file, ok ? message : "expected an error containing '" + it->second + "', got: " + message);
      }
      continue;
    }
    auto p = pending.find(file);
    auto e = expected.find(file);
    if (auto c = error_cases.find(file); c != error_cases.end()) {
      if (e != expected.end() || p != pending.end()) {
        report(false, file, "listed in error_cases.tsv and also expected or pending");
        continue;
      }
      std::string message = ReadBadFile(db, options.corpus + "/" + file);
      bool ok = message.find(c->second) != std::string::npos;
      report(ok, file, ok ? message : "expected an error containing '" + c->second + "', got: " + message);
      continue;
    }
    if (e == expected.end()) {
      if (p == pending.end()) report(false, file, "has neither an expected file nor a pending.tsv entry");
      else pending_count++;
      continue;
    }
    auto a = arguments.find(file);
    std::string problem = CheckFile(db, options, e->second, a == arguments.end() ? "" : a->second);
    if (p != pending.end()) {
      if (problem.empty()) {
        report(false, file, "passes now: remove it from pending.tsv (" + p->second + ")");
      } else {
        pending_count++;
        if (options.verbose) std::printf("pending %s: %s (%s)\n", file.c_str(), p->second.c_str(), problem.c_str());
      }
      continue;
    }
    if (problem.empty() && partial.count(file)) {
      partial_count++;
      if (options.verbose) std::printf("partial %s: %s\n", file.c_str(), partial[file].c_str());
    }
    report(problem.empty(), file, problem);
  }
  for (const auto& [file, reason] : pending) {
    if (std::find(corpus.begin(), corpus.end(), file) == corpus.end()) {
      report(false, file, "listed in pending.tsv but not in the corpus");
    }
  }
  for (const auto& [file, reason] : error_cases) {
    if (std::find(corpus.begin(), corpus.end(), file) == corpus.end()) {
      report(false, file, "listed in error_cases.tsv but not in the corpus");
    }
  }
  sqlite3_close(db);
  std::printf("conformance: %d files pending later issues (pending.tsv), %d checked without their nested "
              "columns (pending_columns.tsv)\n", pending_count, partial_count);
  std::printf("conformance: %d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
