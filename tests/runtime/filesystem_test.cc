// Runtime tests of parquet_copy's directory trees against someone who can write inside
// them, and of its descriptor budget (docs/security.md, "Trees on disk"):
//   - overwrite=1 with partition_by deletes the old tree only inside it, while another
//     thread keeps swapping the old tree's subdirectories for symbolic links to a directory
//     outside (the deletion goes by directory descriptors, never by path);
//   - append=1 never writes through a symbolic link planted in the target tree (a partition
//     directory, or one deeper down, that is a link to elsewhere): a clear error, nothing
//     written anywhere;
//   - parquet_copy holds a bounded number of descriptors: 1,500 partition values or 1,500
//     rollover files under a limit of 1024 open files, with and without verify and
//     return_stats, never more than about the documented 256 open files at once (counted
//     in /proc/self/fd by a thread sampling it during the copy).
#include <doctest/doctest.h>
#include <sqlite3.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "tests/runtime/runtime_support.h"
#include "tests/unit/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using runtime_support::Quote;
using test_support::TempDir;

class FsDb : public runtime_support::Connection {
 public:
  FsDb() : Connection(":memory:", SQLITE_OPEN_FULLMUTEX) { Load(); }

  // The first column of the first row as text, or "ERROR: message".
  std::string Text(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      return std::string("ERROR: ") + sqlite3_errmsg(db_);
    }
    std::string out;
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(stmt, 0);
      out = text ? reinterpret_cast<const char*>(text) : "NULL";
      rc = sqlite3_step(stmt);
    }
    if (rc != SQLITE_DONE) out = std::string("ERROR: ") + sqlite3_errmsg(db_);
    sqlite3_finalize(stmt);
    return out;
  }
};

// The rows 0..count-1 as a recursive CTE query text (single quotes doubled for parquet_copy's first argument).
std::string Numbers(int count) {
  return "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < " + std::to_string(count) + ") ";
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Every file under `root` (links not followed), relative, sorted.
std::vector<std::string> FilesUnder(const std::string& root) {
  std::vector<std::string> names;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(root, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    names.push_back(it->path().lexically_relative(root).string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The old tree: kOldPartitions partitions of kOldFiles files each (part-0.parquet ...);
// the directory outside holds files of the same names, which a deletion going through a
// path that a link redirects would delete.
constexpr int kOldPartitions = 2;
constexpr int kOldFiles = 300;

// Keeps swapping the old tree's partition directories (k=0 ... under any of `parent`'s
// ".ds.parquet_copy-*" names, where the old tree is while it is deleted) for symbolic links
// to `outside`, and back, until stop.
void SwapLoop(const std::string& parent, const std::string& outside, const std::atomic<bool>& stop,
              std::atomic<int>* swaps) {
  std::vector<std::string> roots;
  while (!stop.load()) {
    roots.clear();
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(parent, error)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind(".ds.parquet_copy-", 0) == 0) roots.push_back(entry.path().string());
    }
    for (const std::string& root : roots) {
      for (int k = 0; k < kOldPartitions && !stop.load(); ++k) {
        const std::string directory = root + "/k=" + std::to_string(k);
        const std::string moved = root + "/moved-" + std::to_string(k);
        if (::rename(directory.c_str(), moved.c_str()) != 0) continue;
        if (::symlink(outside.c_str(), directory.c_str()) == 0) {
          ++*swaps;
          for (int spin = 0; spin < 50; ++spin) std::this_thread::yield();
          ::unlink(directory.c_str());
        }
        ::rename(moved.c_str(), directory.c_str());
      }
    }
  }
}

}  // namespace

TEST_CASE("overwrite=1 with partition_by deletes the old tree only inside it while its directories are swapped for links") {
  TempDir dir;
  const std::string outside = dir.File("outside");
  fs::create_directory(outside);
  std::vector<std::string> kept;
  for (int i = 0; i < kOldFiles; ++i) {
    kept.push_back("part-" + std::to_string(i) + ".parquet");
    WriteText(outside + "/" + kept.back(), "not the dataset's");
  }
  std::sort(kept.begin(), kept.end());
  const std::string work = dir.File("work");
  fs::create_directory(work);
  const std::string ds = work + "/ds";
  FsDb db;
  // The old tree: k=0 and k=1 of 300 one-row files each; the new one k=1000.. (never swapped).
  const int old_rows = kOldPartitions * kOldFiles;
  const std::string old_copy = "SELECT parquet_copy(" +
                               Quote(Numbers(old_rows) + "SELECT i % " + std::to_string(kOldPartitions) + " AS k, i FROM n") +
                               ", " + Quote(ds) + ", 'partition_by=k', 'row_groups_per_file=1', 'row_group_size=1')";
  const std::string new_copy = "SELECT parquet_copy(" + Quote(Numbers(8) + "SELECT 1000 + i AS k, i FROM n") + ", " +
                               Quote(ds) + ", 'partition_by=k', 'overwrite=1')";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int attempts = 0;
  int replaced = 0;
  std::atomic<int> swaps{0};  // links put in the old tree while it was being deleted
  std::vector<std::string> left = kept;
  while (attempts < 40 && std::chrono::steady_clock::now() < deadline) {
    ++attempts;
    std::error_code ignored;
    for (const auto& entry : fs::directory_iterator(work, ignored)) fs::remove_all(entry.path(), ignored);
    REQUIRE(db.Text(old_copy) == std::to_string(old_rows));
    std::atomic<bool> stop{false};
    std::thread swapper(SwapLoop, work, outside, std::cref(stop), &swaps);
    const std::string result = db.Text(new_copy);
    stop = true;
    swapper.join();
    if (result == "8") ++replaced;
    left.clear();
    for (const std::string& name : kept) {
      if (fs::exists(outside + "/" + name)) left.push_back(name);
    }
    if (left != kept) break;
  }
  INFO("attempts: " << attempts << ", copies that replaced the tree: " << replaced << ", links swapped in: " << swaps.load());
  CHECK(left == kept);  // no file outside the dataset deleted
  CHECK(replaced > 0);
  CHECK(swaps.load() > 0);  // the race was run
  MESSAGE("tree replacement race: " << attempts << " attempts, " << replaced << " replaced, " << swaps.load()
                                    << " links swapped in, " << left.size() << " of " << kept.size() << " outside files left");
}

TEST_CASE("append=1 never writes through a symbolic link planted in the target tree") {
  TempDir dir;
  FsDb db;
  const std::string ds = dir.File("ds");
  const std::string elsewhere = dir.File("elsewhere");
  fs::create_directory(elsewhere);
  REQUIRE(db.Text("SELECT parquet_copy('SELECT 1 AS k, 2 AS j, 10 AS v', " + Quote(ds) + ", 'partition_by=k,j')") == "1");
  const std::vector<std::string> before = FilesUnder(ds);

  SUBCASE("a partition directory that is a link") {
    REQUIRE(::symlink(elsewhere.c_str(), (ds + "/k=2").c_str()) == 0);
  }
  SUBCASE("a link one level deeper") {
    REQUIRE(::symlink(elsewhere.c_str(), (ds + "/k=1/j=3").c_str()) == 0);
  }
  const std::vector<std::string> planted = FilesUnder(ds);
  const std::string result = db.Text(
      "SELECT parquet_copy('SELECT 2 AS k, 3 AS j, 20 AS v UNION ALL SELECT 1, 3, 30', " + Quote(ds) +
      ", 'partition_by=k,j', 'append=1')");
  INFO(result);
  CHECK(result.rfind("ERROR: ", 0) == 0);
  CHECK(result.find("symbolic link") != std::string::npos);
  CHECK(FilesUnder(elsewhere).empty());  // nothing landed outside the dataset
  CHECK(FilesUnder(ds) == planted);      // and the dataset holds what it held
  CHECK(std::find(planted.begin(), planted.end(), before.back()) != planted.end());
}

namespace {

int OpenDescriptors() {
  int count = 0;
  std::error_code error;
  for (auto it = fs::directory_iterator("/proc/self/fd", error); !error && it != fs::directory_iterator(); it.increment(error)) {
    ++count;
  }
  return count;
}

// Counts the open descriptors every few hundred microseconds while it lives: the most seen.
class DescriptorSampler {
 public:
  DescriptorSampler()
      : thread_([this] {
          while (!stop_.load()) {
            most_ = std::max(most_.load(), OpenDescriptors());
            std::this_thread::sleep_for(std::chrono::microseconds(300));
          }
        }) {}
  ~DescriptorSampler() { Stop(); }
  int Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    return most_.load();
  }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> most_{0};
  std::thread thread_;
};

// Lowers the soft limit on open files for the test's duration.
class FileLimit {
 public:
  explicit FileLimit(rlim_t soft) {
    REQUIRE(::getrlimit(RLIMIT_NOFILE, &saved_) == 0);
    struct rlimit lowered = saved_;
    lowered.rlim_cur = std::min<rlim_t>(soft, saved_.rlim_max);
    REQUIRE(::setrlimit(RLIMIT_NOFILE, &lowered) == 0);
  }
  ~FileLimit() { ::setrlimit(RLIMIT_NOFILE, &saved_); }

 private:
  struct rlimit saved_ {};
};

}  // namespace

TEST_CASE("parquet_copy holds a bounded number of descriptors: 1,500 partitions or rollover files under a 1024 limit") {
  if (!fs::exists("/proc/self/fd")) return;  // (the count needs /proc)
  TempDir dir;
  FsDb db;
  FileLimit limit(1024);
  const int baseline = OpenDescriptors();
  constexpr int kFiles = 1500;
  struct Case {
    const char* what;
    std::string query;
    const char* options;
  };
  // Rows in an order that keeps every partition's file open (each value comes back
  // after all the others).
  const std::string partitions = Numbers(kFiles * 2) + "SELECT i % " + std::to_string(kFiles) + " AS k, i FROM n";
  const std::string rollover = Numbers(kFiles) + "SELECT i FROM n";
  const Case cases[] = {
      {"partitions", partitions, "'partition_by=k'"},
      {"partitions, verify and return_stats", partitions, "'partition_by=k', 'verify=1', 'return_stats=1'"},
      {"rollover", rollover, "'row_groups_per_file=1', 'row_group_size=1'"},
      {"rollover, verify and return_stats", rollover, "'row_groups_per_file=1', 'row_group_size=1', 'verify=1', 'return_stats=1'"},
  };
  int number = 0;
  for (const Case& each : cases) {
    INFO(std::string(each.what));
    const std::string target = dir.File("out-" + std::to_string(number++));
    DescriptorSampler sampler;
    const std::string result = db.Text("SELECT parquet_copy(" + Quote(each.query) + ", " + Quote(target) + ", " + each.options + ")");
    const int most = sampler.Stop();
    const bool stats = std::string(each.options).find("return_stats") != std::string::npos;
    if (stats) {
      CHECK(result.rfind("[{", 0) == 0);
      size_t objects = 0;
      for (size_t at = result.find("\"filename\""); at != std::string::npos; at = result.find("\"filename\"", at + 1)) ++objects;
      CHECK(objects == static_cast<size_t>(kFiles));
    } else {
      CHECK(result == std::to_string(each.query == partitions ? kFiles * 2 : kFiles));
    }
    size_t written = 0;
    for (const std::string& name : FilesUnder(target)) written += name.size() > 8 && name.substr(name.size() - 8) == ".parquet";
    CHECK(written == static_cast<size_t>(kFiles));
    // The writers' 256 files and a few more (the probe's own listing, SQLite's), never one per file.
    CHECK(most - baseline <= 256 + 16);
    MESSAGE(std::string(each.what) << ": at most " << most - baseline << " descriptors above the " << baseline
                      << " open before");
    CHECK(OpenDescriptors() <= baseline + 1);
  }
}
