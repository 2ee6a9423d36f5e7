// Tests of parquet_copy's atomic output: StagedOutput (ext/copy_output) directly, and
// failures of the SQL function that the SQL test runner cannot produce: an interrupt
// (progress handler, sqlite3_interrupt), a read-only directory, a full disk (simulated
// with RLIMIT_FSIZE). After each, the target must be untouched and the directory must hold
// no temporary file. Also checks footer details the metadata functions do not show
// (sorting columns, page CRCs).
//
// The SQL tests load SQLite at run time (dlopen) and the extension from the directory of
// this program (build/parquet.so), since unit_tests is not linked with SQLite; without the
// extension they fail.
#include "ext/copy/copy_output.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "format/read/file_reader.h"
#include "format/metadata/metadata.h"
#include "format/write/file_writer.h"
#include "tests/unit/schema_elements.h"
#include "tests/unit/temp_dir.h"

using namespace sqlite_parquet;

namespace {

using test_support::TempDir;

void WriteFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  REQUIRE(out.good());
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every entry under `directory` (relative paths, sorted), hidden ones included.
std::vector<std::string> List(const std::string& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
    names.push_back(std::filesystem::relative(entry.path(), directory).string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

using Names = std::vector<std::string>;

}  // namespace

TEST_CASE("copy output: a file is staged beside the target and moved into place") {
  TempDir dir;
  const std::string target = dir.File("out.parquet");
  {
    StagedOutput staged(target, StagedOutput::Kind::kFile, true);
    CHECK(staged.temp_path() == dir.File(".out.parquet.parquet_copy-0.tmp"));
    CHECK(List(dir.path()) == Names{".out.parquet.parquet_copy-0.tmp"});
    WriteFile(staged.temp_path(), "first");
    staged.Commit();
  }
  CHECK(List(dir.path()) == Names{"out.parquet"});
  CHECK(ReadFile(target) == "first");

  // Replacing; a stale temporary name is skipped, not reused or removed.
  WriteFile(dir.File(".out.parquet.parquet_copy-0.tmp"), "stale");
  {
    StagedOutput staged(target, StagedOutput::Kind::kFile, true);
    CHECK(staged.temp_path() == dir.File(".out.parquet.parquet_copy-1.tmp"));
    WriteFile(staged.temp_path(), "second");
    staged.Commit();
  }
  CHECK(ReadFile(target) == "second");
  CHECK(List(dir.path()) == Names{".out.parquet.parquet_copy-0.tmp", "out.parquet"});
  CHECK(ReadFile(dir.File(".out.parquet.parquet_copy-0.tmp")) == "stale");
}

TEST_CASE("copy output: the temporary file is written only through the descriptor that created it") {
  TempDir dir;
  const std::string target = dir.File("out.parquet");
  const std::string victim = dir.File("victim.txt");
  WriteFile(victim, "precious");
  StagedOutput staged(target, StagedOutput::Kind::kFile, true);
  parquet::platform::File file = staged.DuplicateTempFile();
  // Someone who can write the directory swaps a symlink in at the temporary name.
  REQUIRE(::unlink(staged.temp_path().c_str()) == 0);
  REQUIRE(::symlink(victim.c_str(), staged.temp_path().c_str()) == 0);
  REQUIRE(file.Write("output", 6).ok());
  REQUIRE(file.Close().ok());
  CHECK_THROWS_WITH_AS(staged.Commit(),
                       ("the temporary file '" + staged.temp_path() + "' was replaced while writing; '" + target +
                        "' is left as it was").c_str(),
                       CopyError);
  CHECK(ReadFile(victim) == "precious");
  CHECK(!std::filesystem::exists(std::filesystem::symlink_status(target)));

  // Files inside a temporary tree are created the same way: never through a symlink, never
  // over an existing file.
  REQUIRE(::symlink(victim.c_str(), dir.File("link.parquet").c_str()) == 0);
  CHECK_THROWS_AS(CreateExclusiveFile(dir.File("link.parquet")), CopyError);
  CHECK_THROWS_AS(CreateExclusiveFile(victim), CopyError);
  CHECK(ReadFile(victim) == "precious");
}

TEST_CASE("copy output: a replaced file keeps its permission bits, a new one gets the umask's") {
  TempDir dir;
  const std::string target = dir.File("out.parquet");
  WriteFile(target, "old");
  REQUIRE(::chmod(target.c_str(), 0600) == 0);
  {
    StagedOutput staged(target, StagedOutput::Kind::kFile, true);
    WriteFile(staged.temp_path(), "new");
    staged.Commit();
  }
  struct stat info;
  REQUIRE(::stat(target.c_str(), &info) == 0);
  CHECK((info.st_mode & 07777) == 0600);
  CHECK(ReadFile(target) == "new");

  const mode_t old_umask = ::umask(022);
  {
    StagedOutput staged(dir.File("fresh.parquet"), StagedOutput::Kind::kFile, true);
    staged.Commit();
  }
  ::umask(old_umask);
  REQUIRE(::stat(dir.File("fresh.parquet").c_str(), &info) == 0);
  CHECK((info.st_mode & 07777) == 0644);
}

TEST_CASE("copy output: a path with a NUL byte is refused") {
  TempDir dir;
  const std::string target = dir.File("notes.txt") + std::string(1, '\0') + ".parquet";
  CHECK_THROWS_WITH_AS(StagedOutput(target, StagedOutput::Kind::kFile, true),
                       ("path '" + dir.File("notes.txt") + "\\0.parquet' contains a NUL byte").c_str(), CopyError);
  CHECK_THROWS_AS(StagedOutput(target, StagedOutput::Kind::kDirectory, true), CopyError);
  CHECK_THROWS_AS(CreateExclusiveFile(target), CopyError);
  CHECK(List(dir.path()).empty());
}

TEST_CASE("copy output: without Commit nothing changes") {
  TempDir dir;
  const std::string target = dir.File("out.parquet");
  WriteFile(target, "old");
  {
    StagedOutput staged(target, StagedOutput::Kind::kFile, true);
    WriteFile(staged.temp_path(), "half-written");
  }
  CHECK(List(dir.path()) == Names{"out.parquet"});
  CHECK(ReadFile(target) == "old");

  StagedOutput staged(target, StagedOutput::Kind::kFile, true);
  staged.Abandon();
  CHECK(List(dir.path()) == Names{"out.parquet"});
}

TEST_CASE("copy output: overwrite off") {
  TempDir dir;
  const std::string target = dir.File("out.parquet");
  WriteFile(target, "old");
  CHECK_THROWS_WITH_AS(StagedOutput(target, StagedOutput::Kind::kFile, false),
                       ("'" + target + "' already exists (overwrite=0)").c_str(), CopyError);
  // The target appearing while the output is written is detected at the end.
  const std::string later = dir.File("later.parquet");
  {
    StagedOutput staged(later, StagedOutput::Kind::kFile, false);
    WriteFile(staged.temp_path(), "new");
    WriteFile(later, "someone else's");
    CHECK_THROWS_WITH_AS(staged.Commit(), ("'" + later + "' already exists (overwrite=0)").c_str(), CopyError);
  }
  CHECK(ReadFile(later) == "someone else's");
  CHECK(List(dir.path()) == Names{"later.parquet", "out.parquet"});
}

TEST_CASE("copy output: bad targets") {
  TempDir dir;
  WriteFile(dir.File("file"), "x");
  CHECK_THROWS_WITH_AS(StagedOutput(dir.path(), StagedOutput::Kind::kFile, true),
                       ("'" + dir.path() + "' is a directory").c_str(), CopyError);
  CHECK_THROWS_WITH_AS(StagedOutput(dir.File("file"), StagedOutput::Kind::kDirectory, true),
                       ("'" + dir.File("file") + "' exists and is not a directory").c_str(), CopyError);
  CHECK_THROWS_WITH_AS(StagedOutput(dir.File("file/inner"), StagedOutput::Kind::kFile, true),
                       ("cannot write to '" + dir.File("file/inner") + "': Not a directory").c_str(), CopyError);
  CHECK_THROWS_WITH_AS(StagedOutput(dir.File("missing/inner"), StagedOutput::Kind::kFile, true),
                       ("cannot write to '" + dir.File("missing/inner") + "': directory '" + dir.File("missing") + "' does not exist").c_str(),
                       CopyError);
  CHECK_THROWS_WITH_AS(StagedOutput("..", StagedOutput::Kind::kFile, true), "cannot write to '..': it does not name a file",
                       CopyError);
  CHECK(List(dir.path()) == Names{"file"});
}

TEST_CASE("copy output: directory trees") {
  TempDir dir;
  const std::string target = dir.File("tree");
  {
    StagedOutput staged(target + "/", StagedOutput::Kind::kDirectory, true);
    CHECK(staged.temp_path() == dir.File(".tree.parquet_copy-0.tmp"));
    std::filesystem::create_directories(staged.temp_path() + "/k=1");
    WriteFile(staged.temp_path() + "/k=1/part-0.parquet", "one");
    staged.Commit();
  }
  CHECK(List(dir.path()) == Names{"tree", "tree/k=1", "tree/k=1/part-0.parquet"});

  // Replaced as a whole: the old partitions disappear.
  {
    StagedOutput staged(target, StagedOutput::Kind::kDirectory, true);
    std::filesystem::create_directories(staged.temp_path() + "/k=2");
    WriteFile(staged.temp_path() + "/k=2/part-0.parquet", "two");
    staged.Commit();
  }
  CHECK(List(dir.path()) == Names{"tree", "tree/k=2", "tree/k=2/part-0.parquet"});

  // Not committed: the old tree stays.
  {
    StagedOutput staged(target, StagedOutput::Kind::kDirectory, true);
    std::filesystem::create_directories(staged.temp_path() + "/k=3");
    WriteFile(staged.temp_path() + "/k=3/part-0.parquet", "three");
  }
  CHECK(List(dir.path()) == Names{"tree", "tree/k=2", "tree/k=2/part-0.parquet"});

  // A tree holding anything else is never replaced.
  WriteFile(target + "/k=2/notes.txt", "mine");
  CHECK_THROWS_WITH_AS(StagedOutput(target, StagedOutput::Kind::kDirectory, true),
                       ("refusing to replace directory '" + target + "': it holds '" + target +
                        "/k=2/notes.txt', which parquet_copy does not write (remove it, or write elsewhere)")
                           .c_str(),
                       CopyError);
  CHECK(IsPartitionDirectoryName("a=b"));
  CHECK(IsPartitionDirectoryName("a=="));
  CHECK_FALSE(IsPartitionDirectoryName("=b"));
  CHECK_FALSE(IsPartitionDirectoryName("a="));
  CHECK_FALSE(IsPartitionDirectoryName("ab"));
  CHECK_FALSE(IsPartitionDirectoryName(".a=b"));
}

// ---------------------------------------------------------------------------------------
// Through SQLite.

namespace {

// The SQLite functions the tests need, from libsqlite3 loaded at run time.
struct Sqlite {
  void* library = nullptr;
  decltype(&sqlite3_open) open = nullptr;
  decltype(&sqlite3_close) close = nullptr;
  decltype(&sqlite3_enable_load_extension) enable_load_extension = nullptr;
  decltype(&sqlite3_load_extension) load_extension = nullptr;
  decltype(&sqlite3_exec) exec = nullptr;
  decltype(&sqlite3_errmsg) errmsg = nullptr;
  decltype(&sqlite3_errcode) errcode = nullptr;
  decltype(&sqlite3_free) free = nullptr;
  decltype(&sqlite3_progress_handler) progress_handler = nullptr;
  decltype(&sqlite3_interrupt) interrupt = nullptr;

  bool Load() {
    library = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) return false;
    auto symbol = [&](auto* slot, const char* name) {
      *slot = reinterpret_cast<std::remove_reference_t<decltype(*slot)>>(dlsym(library, name));
      return *slot != nullptr;
    };
    return symbol(&open, "sqlite3_open") && symbol(&close, "sqlite3_close") &&
           symbol(&enable_load_extension, "sqlite3_enable_load_extension") &&
           symbol(&load_extension, "sqlite3_load_extension") && symbol(&exec, "sqlite3_exec") &&
           symbol(&errmsg, "sqlite3_errmsg") && symbol(&errcode, "sqlite3_errcode") && symbol(&free, "sqlite3_free") &&
           symbol(&progress_handler, "sqlite3_progress_handler") && symbol(&interrupt, "sqlite3_interrupt");
  }
};

std::string ExtensionPath() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return "";
  const std::filesystem::path extension = self.parent_path() / "parquet.so";
  return std::filesystem::exists(extension) ? extension.string() : "";
}

// An in-memory database with the extension loaded; fails the test case when SQLite or the
// extension cannot be loaded.
class Database {
 public:
  Database() {
    static Sqlite api;
    static const bool loaded = api.Load();
    const std::string extension = ExtensionPath();
    // Not a skip: a unit_tests without its extension beside it is a broken build.
    REQUIRE_MESSAGE(loaded, "cannot load libsqlite3.so.0 (dlopen)");
    REQUIRE_MESSAGE(!extension.empty(), "no parquet.so beside unit_tests: build the parquet target too");
    api_ = &api;
    REQUIRE(api_->open(":memory:", &db_) == SQLITE_OK);
    api_->enable_load_extension(db_, 1);
    char* error = nullptr;
    const int rc = api_->load_extension(db_, extension.c_str(), nullptr, &error);
    const std::string message = error ? error : "";
    api_->free(error);
    REQUIRE_MESSAGE(rc == SQLITE_OK, message);
  }
  ~Database() {
    if (db_ != nullptr) api_->close(db_);
  }
  sqlite3* db() const { return db_; }
  const Sqlite& api() const { return *api_; }

  // Runs SQL; returns "" on success, else the error message.
  std::string Run(const std::string& sql) { return RunWith(sql, nullptr, nullptr); }

  std::string RunWith(const std::string& sql, int (*callback)(void*, int, char**, char**), void* argument) {
    char* error = nullptr;
    const int rc = api_->exec(db_, sql.c_str(), callback, argument, &error);
    std::string message = rc == SQLITE_OK ? "" : (error ? error : "error");
    api_->free(error);
    last_code_ = rc;
    return message;
  }
  int last_code() const { return last_code_; }

  // Runs a query: its rows, columns joined by '|' and rows by '\n' (NULL as ""), or the error.
  std::string Rows(const std::string& sql) {
    std::string rows;
    auto append = [](void* out, int count, char** values, char**) -> int {
      std::string& text = *static_cast<std::string*>(out);
      if (!text.empty()) text += '\n';
      for (int i = 0; i < count; ++i) text += std::string(i ? "|" : "") + (values[i] ? values[i] : "");
      return 0;
    };
    const std::string error = RunWith(sql, append, &rows);
    return error.empty() ? rows : error;
  }

 private:
  const Sqlite* api_ = nullptr;
  sqlite3* db_ = nullptr;
  int last_code_ = SQLITE_OK;
};

// A query of `rows` rows of a few columns.
std::string RowsQuery(int rows) {
  return "WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < " + std::to_string(rows) +
         ") SELECT x, x * 0.5 AS half, printf(''%.40c'', char(65 + x % 26)) AS label FROM s";
}

std::string Copy(const std::string& query, const std::string& path, const std::string& options = "") {
  return "SELECT parquet_copy('" + query + "', '" + path + "'" + options + ")";
}

int progress_calls = 0;
int StopAfterManyCalls(void*) { return ++progress_calls > 2000 ? 1 : 0; }

struct InterruptContext {
  const Sqlite* api;
  sqlite3* db;
};
int InterruptAfterManyCalls(void* context) {
  if (++progress_calls == 2000) {
    auto* c = static_cast<InterruptContext*>(context);
    c->api->interrupt(c->db);
  }
  return 0;
}

}  // namespace

TEST_CASE("copy output: appending moves new files in beside the old ones, or none of them") {
  TempDir dir;
  const std::string target = dir.File("data");
  std::filesystem::create_directories(target + "/k=1");
  WriteFile(target + "/k=1/part-0.parquet", "old");
  WriteFile(target + "/notes.txt", "kept");  // appending never replaces anything, so other files may stay
  {
    StagedOutput staged(target, StagedOutput::Kind::kAppend, true);
    std::filesystem::create_directories(staged.temp_path() + "/k=1");
    std::filesystem::create_directories(staged.temp_path() + "/k=2");
    WriteFile(staged.temp_path() + "/k=1/part-1.parquet", "new1");
    WriteFile(staged.temp_path() + "/k=2/part-0.parquet", "new2");
    staged.Commit();
  }
  CHECK(List(dir.path()) == Names{"data", "data/k=1", "data/k=1/part-0.parquet", "data/k=1/part-1.parquet", "data/k=2",
                                  "data/k=2/part-0.parquet", "data/notes.txt"});
  CHECK(ReadFile(target + "/k=1/part-0.parquet") == "old");

  // A name taken while the copy ran: nothing of the new files stays, the directory made is removed.
  {
    StagedOutput staged(target, StagedOutput::Kind::kAppend, true);
    std::filesystem::create_directories(staged.temp_path() + "/k=3");
    std::filesystem::create_directories(staged.temp_path() + "/k=4");
    WriteFile(staged.temp_path() + "/k=3/part-0.parquet", "three");
    WriteFile(staged.temp_path() + "/k=4/part-0.parquet", "four");
    std::filesystem::create_directories(target + "/k=4");
    WriteFile(target + "/k=4/part-0.parquet", "someone else's");
    CHECK_THROWS_WITH_AS(staged.Commit(), ("'" + target + "/k=4/part-0.parquet' appeared while writing it").c_str(), CopyError);
  }
  CHECK(List(dir.path()) == Names{"data", "data/k=1", "data/k=1/part-0.parquet", "data/k=1/part-1.parquet", "data/k=2",
                                  "data/k=2/part-0.parquet", "data/k=4", "data/k=4/part-0.parquet", "data/notes.txt"});
  CHECK(ReadFile(target + "/k=4/part-0.parquet") == "someone else's");

  // Appending to a file is refused; to a missing directory makes it.
  CHECK_THROWS_WITH_AS(StagedOutput(target + "/notes.txt", StagedOutput::Kind::kAppend, true),
                       ("'" + target + "/notes.txt' exists and is not a directory (append=1 adds files to a directory)").c_str(),
                       CopyError);
  {
    StagedOutput staged(dir.File("fresh"), StagedOutput::Kind::kAppend, true);
    WriteFile(staged.temp_path() + "/part-0.parquet", "x");
    staged.Commit();
  }
  CHECK(ReadFile(dir.File("fresh/part-0.parquet")) == "x");
}

TEST_CASE("copy output: an interrupt stops a long copy and leaves the target alone") {
  Database db;
  TempDir dir;
  const std::string target = dir.File("out.parquet");
  REQUIRE(db.Run(Copy(RowsQuery(10), target)) == "");
  const std::string before = ReadFile(target);

  SUBCASE("progress handler") {
    progress_calls = 0;
    db.api().progress_handler(db.db(), 100, StopAfterManyCalls, nullptr);
    CHECK(db.Run(Copy(RowsQuery(10000000), target, ", 'row_group_size=1000'")) == "interrupted");
    CHECK(db.last_code() == SQLITE_INTERRUPT);
    db.api().progress_handler(db.db(), 0, nullptr, nullptr);
  }
  SUBCASE("sqlite3_interrupt") {
    progress_calls = 0;
    InterruptContext context{&db.api(), db.db()};
    db.api().progress_handler(db.db(), 100, InterruptAfterManyCalls, &context);
    CHECK(db.Run(Copy(RowsQuery(10000000), target, ", 'row_group_size=1000'")) == "interrupted");
    CHECK(db.last_code() == SQLITE_INTERRUPT);
    db.api().progress_handler(db.db(), 0, nullptr, nullptr);
  }
  CHECK(progress_calls >= 2000);
  CHECK(ReadFile(target) == before);
  CHECK(List(dir.path()) == Names{"out.parquet"});
  // The connection works on afterwards.
  CHECK(db.Run(Copy(RowsQuery(5), dir.File("after.parquet"))) == "");
}

TEST_CASE("copy output: an unwritable directory") {
  Database db;
  TempDir dir;
  const std::string locked = dir.File("locked");
  REQUIRE(mkdir(locked.c_str(), 0755) == 0);
  WriteFile(locked + "/out.parquet", "old");
  REQUIRE(chmod(locked.c_str(), 0555) == 0);
  // Privileged users (root in CI containers) write to read-only directories anyway.
  const std::string probe = locked + "/probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd >= 0) {
    ::close(fd);
    ::unlink(probe.c_str());
    MESSAGE("running privileged: chmod 555 does not stop writes; testing a path whose parent is a file instead");
    const std::string error = db.Run(Copy("SELECT 1 AS a", locked + "/out.parquet/x.parquet"));
    CHECK(error == "parquet_copy: cannot write to '" + locked + "/out.parquet/x.parquet': Not a directory");
  } else {
    const std::string error = db.Run(Copy(RowsQuery(100), locked + "/out.parquet"));
    CHECK(error == "parquet_copy: cannot create a temporary file beside '" + locked + "/out.parquet': Permission denied");
    const std::string tree_error = db.Run(Copy("SELECT 1 AS k, 2 AS v", locked + "/tree", ", 'partition_by=k'"));
    CHECK(tree_error == "parquet_copy: cannot create a temporary directory beside '" + locked + "/tree': Permission denied");
  }
  chmod(locked.c_str(), 0755);
  CHECK(ReadFile(locked + "/out.parquet") == "old");
  CHECK(List(locked) == Names{"out.parquet"});
}

TEST_CASE("copy output: a full disk (file size limit) fails cleanly") {
  Database db;
  TempDir dir;
  const std::string target = dir.File("out.parquet");
  WriteFile(target, "old");
  const std::string tree = dir.File("tree");

  // Writes past the limit fail with EFBIG instead of raising SIGXFSZ.
  struct rlimit saved;
  REQUIRE(getrlimit(RLIMIT_FSIZE, &saved) == 0);
  struct sigaction ignore = {}, previous = {};
  ignore.sa_handler = SIG_IGN;
  REQUIRE(sigaction(SIGXFSZ, &ignore, &previous) == 0);
  struct rlimit limited = saved;
  limited.rlim_cur = 256 * 1024;
  REQUIRE(setrlimit(RLIMIT_FSIZE, &limited) == 0);
  const std::string error = db.Run(Copy(RowsQuery(200000), target, ", 'compression=uncompressed', 'row_group_size=10000'"));
  const std::string tree_error =
      db.Run(Copy("SELECT x % 3 AS k, * FROM (" + RowsQuery(200000) + ")", tree, ", 'partition_by=k', 'compression=uncompressed'"));
  setrlimit(RLIMIT_FSIZE, &saved);
  sigaction(SIGXFSZ, &previous, nullptr);

  CHECK(error.find("parquet_copy: cannot write to '" + dir.File(".out.parquet.parquet_copy-0.tmp") + "': File too large") == 0);
  CHECK(tree_error.find("parquet_copy: cannot write to '" + dir.File(".tree.parquet_copy-0.tmp/k=")) == 0);
  CHECK(tree_error.find("File too large") != std::string::npos);
  CHECK(ReadFile(target) == "old");
  CHECK(List(dir.path()) == Names{"out.parquet"});
}

// sorting_columns is a writer's claim: ORDER BY is left to the table only when the rows
// read keep it (a file whose single row group claims an order its rows break once came back
// unsorted).
TEST_CASE("copy output: ORDER BY trusts sorting_columns only when the rows keep it") {
  Database db;
  TempDir dir;
  auto write = [&](const std::string& name, std::vector<int64_t> values) {
    parquet::WriterOptions options;
    options.sorting_columns = {parquet::SortingColumn{0, false, true}};
    const std::string path = dir.File(name);
    parquet::ParquetFileWriter writer(
        path, {test_support::RootElement(1), test_support::LeafElement("v", parquet::FieldRepetitionType::REQUIRED, parquet::Type::INT64)},
        options);
    writer.StartRowGroup();
    writer.WriteBatch<int64_t>(0, values.size(), nullptr, nullptr, values.data(), values.size());
    writer.EndRowGroup(static_cast<int64_t>(values.size()));
    writer.Close();
    return path;
  };
  REQUIRE(db.Run("CREATE VIRTUAL TABLE lying USING parquet('" + write("lying.parquet", {3, 1, 2}) + "')") == "");
  CHECK(db.Rows("SELECT v FROM lying ORDER BY v") == "1\n2\n3");
  CHECK(db.Rows("EXPLAIN QUERY PLAN SELECT v FROM lying ORDER BY v").find("USE TEMP B-TREE FOR ORDER BY") != std::string::npos);
  CHECK(db.Rows("SELECT v FROM lying ORDER BY v LIMIT 1") == "1");
  REQUIRE(db.Run("CREATE VIRTUAL TABLE honest USING parquet('" + write("honest.parquet", {1, 2, 2, 5}) + "')") == "");
  CHECK(db.Rows("EXPLAIN QUERY PLAN SELECT v FROM honest ORDER BY v").find("TEMP B-TREE") == std::string::npos);
  CHECK(db.Rows("SELECT v FROM honest ORDER BY v") == "1\n2\n2\n5");
}

TEST_CASE("copy output: footer details (sorting columns, page checksums)") {
  Database db;
  TempDir dir;
  const std::string sorted = dir.File("sorted.parquet");
  // A claim the rows do not keep fails the copy and leaves no file.
  CHECK(db.Run(Copy(RowsQuery(3000), sorted, ", 'row_group_size=1000', 'sorting_columns=label DESC NULLS FIRST, x'")) ==
        "parquet_copy: sorting_columns: row 2 sorts before the row above it by label DESC NULLS FIRST (compared as "
        "the STRING values written)");
  CHECK(List(dir.path()).empty());
  REQUIRE(db.Run(Copy(RowsQuery(3000) + " ORDER BY label DESC, x", sorted,
                      ", 'row_group_size=1000', 'sorting_columns=label DESC NULLS FIRST, x'")) == "");
  auto file = parquet::ParquetFileReader::Open(sorted);
  REQUIRE(file->num_row_groups() == 3);
  for (int g = 0; g < 3; ++g) {
    const parquet::RowGroup& group = file->row_group(g);
    REQUIRE(group.sorting_columns.has_value());
    REQUIRE(group.sorting_columns->size() == 2);
    CHECK((*group.sorting_columns)[0] == parquet::SortingColumn{2, true, true});
    CHECK((*group.sorting_columns)[1] == parquet::SortingColumn{0, false, true});  // NULLs first, as in SQLite
  }

  // write_crc: every page header has a CRC by default, none with write_crc=0.
  for (const bool crc : {true, false}) {
    CAPTURE(crc);
    const std::string path = dir.File(crc ? "crc.parquet" : "nocrc.parquet");
    REQUIRE(db.Run(Copy(RowsQuery(100), path, crc ? "" : ", 'write_crc=0'")) == "");
    const std::string bytes = ReadFile(path);
    auto reader = parquet::ParquetFileReader::Open(path);
    for (int c = 0; c < reader->schema().num_columns(); ++c) {
      const parquet::ColumnMetaData& meta = reader->column_metadata(0, c);
      const int64_t first_page = meta.dictionary_page_offset.value_or(meta.data_page_offset);
      size_t consumed = 0;
      const parquet::PageHeader header = parquet::ParsePageHeader(
          reinterpret_cast<const uint8_t*>(bytes.data()) + first_page, bytes.size() - static_cast<size_t>(first_page), &consumed);
      CHECK(header.crc.has_value() == crc);
    }
  }
}
