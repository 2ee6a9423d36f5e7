// Tests of path expansion (ext/file_list): plain files, directories, globs with *, ?,
// [...] and **, hidden names, symbolic-link loops, and the errors.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ext/common/file_list.h"


using sqlite_parquet::DirectoryListings;
using sqlite_parquet::ExpandFilePath;
using sqlite_parquet::GlobMayMatchBelow;
using sqlite_parquet::ListingCounts;
using sqlite_parquet::ListingOptions;
using sqlite_parquet::FileListError;
using sqlite_parquet::HasGlobCharacters;
using sqlite_parquet::MatchGlobPath;
using sqlite_parquet::MatchGlobSegment;

namespace {

// A fresh directory tree under the system temp dir, removed at the end.
class TempTree {
 public:
  TempTree() {
    std::string pattern = (std::filesystem::temp_directory_path() / "file_list_test_XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    REQUIRE(mkdtemp(buffer.data()) != nullptr);
    root_ = buffer.data();
  }
  ~TempTree() {
    std::error_code ignored;
    std::filesystem::permissions(root_ + "/locked", std::filesystem::perms::owner_all, ignored);
    std::filesystem::remove_all(root_, ignored);
  }
  // Creates the file (and its directories) and returns its full path.
  std::string File(const std::string& relative) const {
    const std::string path = root_ + "/" + relative;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << "x";
    return path;
  }
  std::string Dir(const std::string& relative) const {
    const std::string path = root_ + "/" + relative;
    std::filesystem::create_directories(path);
    return path;
  }
  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

std::string ErrorOf(const std::string& path) {
  try {
    ExpandFilePath(path);
  } catch (const FileListError& e) {
    return e.what();
  }
  return "";
}

// ErrorOf(path) as a user without root's power to read any directory: in a child process
// that switches to "nobody" when running as root.
std::string ErrorUnprivileged(const std::string& path) {
  if (geteuid() != 0) return ErrorOf(path);
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(fds[0]);
    std::string message = "cannot drop privileges";
    if (setgid(65534) == 0 && setuid(65534) == 0) message = ErrorOf(path);
    const ssize_t written = write(fds[1], message.data(), message.size());
    _exit(written == static_cast<ssize_t>(message.size()) ? 0 : 1);
  }
  close(fds[1]);
  std::string message;
  char buffer[512];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof buffer)) > 0) message.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  return message;
}

}  // namespace

TEST_CASE("file list: segment matching") {
  CHECK(MatchGlobSegment("*.parquet", "a.parquet"));
  CHECK(MatchGlobSegment("*.parquet", ".parquet") == false);  // a wildcard does not match a leading dot
  CHECK(MatchGlobSegment(".*", ".hidden"));
  CHECK_FALSE(MatchGlobSegment("*.parquet", "a.parquet.crc"));
  CHECK(MatchGlobSegment("a*b*c", "aXXbYYc"));
  CHECK(MatchGlobSegment("a*b*c", "abc"));
  CHECK_FALSE(MatchGlobSegment("a*b*c", "abcd"));
  CHECK(MatchGlobSegment("*", "anything"));
  CHECK(MatchGlobSegment("**", "anything"));
  CHECK(MatchGlobSegment("part-?.parquet", "part-1.parquet"));
  CHECK_FALSE(MatchGlobSegment("part-?.parquet", "part-12.parquet"));
  CHECK(MatchGlobSegment("[abc].txt", "b.txt"));
  CHECK_FALSE(MatchGlobSegment("[abc].txt", "d.txt"));
  CHECK(MatchGlobSegment("[a-c][0-9]", "c7"));
  CHECK(MatchGlobSegment("[!a-c]x", "dx"));
  CHECK_FALSE(MatchGlobSegment("[!a-c]x", "bx"));
  CHECK(MatchGlobSegment("[^a-c]x", "zx"));
  CHECK(MatchGlobSegment("[]]", "]"));
  CHECK(MatchGlobSegment("[", "["));  // no closing bracket: an ordinary character
  CHECK(MatchGlobSegment("\\*", "*"));
  CHECK_FALSE(MatchGlobSegment("\\*", "x"));
  CHECK(MatchGlobSegment("*decimal*", "int32_decimal.parquet"));
  CHECK_FALSE(MatchGlobSegment("", "a"));
  CHECK(MatchGlobSegment("", ""));

  CHECK(HasGlobCharacters("data/*.parquet"));
  CHECK(HasGlobCharacters("data/x[0-9]"));
  CHECK(HasGlobCharacters("?"));
  CHECK_FALSE(HasGlobCharacters("data/plain.parquet"));
  CHECK_FALSE(HasGlobCharacters("data/\\*.parquet"));
}

TEST_CASE("file list: whole-path matching (s3 keys)") {
  CHECK(MatchGlobPath("d/*.parquet", "d/a.parquet"));
  CHECK_FALSE(MatchGlobPath("d/*.parquet", "d/x/a.parquet"));
  CHECK(MatchGlobPath("d/**/*.parquet", "d/a.parquet"));  // ** matches no segment too
  CHECK(MatchGlobPath("d/**/*.parquet", "d/x=1/y=2/a.parquet"));
  CHECK_FALSE(MatchGlobPath("d/**/*.parquet", "d/.hidden/a.parquet"));  // nor a segment starting with '.'
  CHECK_FALSE(MatchGlobPath("d/**/*.parquet", "d/../a.parquet"));
  CHECK(MatchGlobPath("d/**", "d/x/y"));
  CHECK(MatchGlobPath("**/**/a", "a"));
  CHECK(MatchGlobPath("**/x/**/x", "x/x"));
  CHECK_FALSE(MatchGlobPath("**/x/**/x", "x"));
  CHECK(MatchGlobPath("a//b", "a/b"));  // empty segments are ignored
  CHECK_FALSE(MatchGlobPath("d/*", "d"));
  CHECK_FALSE(MatchGlobPath("d", "d/e"));
}

TEST_CASE("file list: whether a glob may match below a directory") {
  CHECK(GlobMayMatchBelow("d/y=*/m=*/*.parquet", "d/y=1/"));
  CHECK(GlobMayMatchBelow("d/y=*/m=*/*.parquet", "d/y=1/m=2"));
  CHECK_FALSE(GlobMayMatchBelow("d/y=*/m=*/*.parquet", "d/x=1/"));
  CHECK_FALSE(GlobMayMatchBelow("d/y=*/m=*/*.parquet", "d/y=1/m=2/f.parquet"));  // nothing is below a file
  CHECK(GlobMayMatchBelow("d/**/*.parquet", "d/a/b/c/"));
  CHECK_FALSE(GlobMayMatchBelow("d/**/*.parquet", "d/.hidden/"));
  CHECK(GlobMayMatchBelow("d/**", "d/a"));
}

// Six `**` against a key of 200 segments that fails only at its end: trying every split of
// the key between the `**` (the recursive matcher before issue 34) grows as segments^6
// (0.65 s at 61 segments, so about 14 minutes at 200); one pass over the key's segments per
// glob segment takes microseconds.
TEST_CASE("file list: many ** do not backtrack" * doctest::timeout(10)) {
  std::string key;
  for (int i = 0; i < 200; i++) key += "a/";
  key += "end.txt";
  CHECK_FALSE(MatchGlobPath("**/a/**/a/**/a/**/a/**/a/**/*.parquet", key));
  CHECK(MatchGlobPath("**/a/**/a/**/a/**/a/**/a/**/*.txt", key));
}

TEST_CASE("file list: a plain file, a directory, globs") {
  TempTree t;
  const std::string a = t.File("data/a.parquet");
  const std::string b = t.File("data/b.parquet");
  const std::string c = t.File("data/sub/c.parquet");
  const std::string d = t.File("data/sub/deeper/d.PARQUET");
  t.File("data/notes.txt");
  t.File("data/.hidden.parquet");
  t.File("data/_SUCCESS");
  t.File("data/_temporary/0/part.parquet");
  t.File("data/.git/x.parquet");
  t.File("other/e.parquet");

  // A plain file is itself, whatever its name.
  const std::string notes = t.root() + "/data/notes.txt";
  CHECK(ExpandFilePath(notes) == std::vector<std::string>{notes});

  // A directory: *.parquet (any case) below it, recursively, without hidden or _ names.
  CHECK(ExpandFilePath(t.root() + "/data") == std::vector<std::string>{a, b, c, d});
  CHECK(ExpandFilePath(t.root() + "/data/").size() == 4);

  // Globs.
  CHECK(ExpandFilePath(t.root() + "/data/*.parquet") == std::vector<std::string>{a, b});
  CHECK(ExpandFilePath(t.root() + "/data/?.parquet") == std::vector<std::string>{a, b});
  CHECK(ExpandFilePath(t.root() + "/data/[b-z].parquet") == std::vector<std::string>{b});
  CHECK(ExpandFilePath(t.root() + "/*/*.parquet") == std::vector<std::string>{a, b, t.root() + "/other/e.parquet"});
  CHECK(ExpandFilePath(t.root() + "/data/*") == std::vector<std::string>{t.root() + "/data/_SUCCESS", a, b, notes});
  // ** is any number of directories, including none; hidden directories are not entered.
  CHECK(ExpandFilePath(t.root() + "/data/**/*.parquet") ==
        std::vector<std::string>{t.root() + "/data/_temporary/0/part.parquet", a, b, c});
  CHECK(ExpandFilePath(t.root() + "/**/c.parquet") == std::vector<std::string>{c});
  CHECK(ExpandFilePath(t.root() + "/data/sub/**").size() == 2);
  // A glob may sit in a directory segment.
  CHECK(ExpandFilePath(t.root() + "/d*/sub/c.parquet") == std::vector<std::string>{c});
  CHECK(ExpandFilePath(t.root() + "//data//a.parquet") == std::vector<std::string>{t.root() + "//data//a.parquet"});
}

TEST_CASE("file list: relative paths stay relative") {
  TempTree t;
  t.File("rel/x1.parquet");
  t.File("rel/x2.parquet");
  char cwd[4096];
  REQUIRE(getcwd(cwd, sizeof cwd) != nullptr);
  REQUIRE(chdir(t.root().c_str()) == 0);
  std::vector<std::string> glob, dir;
  std::string error;
  try {
    glob = ExpandFilePath("rel/x*.parquet");
    dir = ExpandFilePath("rel");
    ExpandFilePath("*.nothing");
  } catch (const FileListError& e) {
    error = e.what();
  }
  REQUIRE(chdir(cwd) == 0);
  CHECK(glob == std::vector<std::string>{"rel/x1.parquet", "rel/x2.parquet"});
  CHECK(dir == std::vector<std::string>{"rel/x1.parquet", "rel/x2.parquet"});
  CHECK(error == "no files match '*.nothing'");
}

TEST_CASE("file list: errors") {
  TempTree t;
  t.Dir("empty");
  t.File("data/a.txt");
  CHECK(ErrorOf("") == "empty path");
  CHECK(ErrorOf(t.root() + "/missing.parquet") == "cannot open '" + t.root() + "/missing.parquet': No such file or directory");
  CHECK(ErrorOf(t.root() + "/data/*.parquet") == "no files match '" + t.root() + "/data/*.parquet'");
  CHECK(ErrorOf(t.root() + "/nowhere/*/x") == "no files match '" + t.root() + "/nowhere/*/x'");
  CHECK(ErrorOf(t.root() + "/empty") == "no parquet files in directory '" + t.root() + "/empty'");
  CHECK(ErrorOf(t.root() + "/data/a.txt/x") == "cannot open '" + t.root() + "/data/a.txt/x': Not a directory");
  // A NUL byte would cut the path short at the system call: data/a.txt would be listed.
  CHECK(ErrorOf(t.root() + "/data/a.txt" + std::string(1, '\0') + ".parquet") ==
        "path '" + t.root() + "/data/a.txt\\0.parquet' contains a NUL byte");

  // A directory the expansion must list but cannot read. Root reads everything, so as
  // root the expansion runs in a child process that has given up its privileges.
  t.File("locked/x.parquet");
  REQUIRE(chmod(t.root().c_str(), 0755) == 0);
  REQUIRE(chmod((t.root() + "/locked").c_str(), 0) == 0);
  const std::string cannot_list = "cannot read directory '" + t.root() + "/locked': Permission denied";
  CHECK(ErrorUnprivileged(t.root() + "/locked") == cannot_list);
  CHECK(ErrorUnprivileged(t.root() + "/*/*.parquet") == cannot_list);
  CHECK(ErrorUnprivileged(t.root() + "/*/x.parquet") ==
        "cannot access '" + t.root() + "/locked/x.parquet': Permission denied");
  CHECK(ErrorUnprivileged(t.root() + "/locked/x.parquet") ==
        "cannot access '" + t.root() + "/locked/x.parquet': Permission denied");
}

TEST_CASE("file list: symbolic-link loops are walked once") {
  TempTree t;
  const std::string a = t.File("data/a.parquet");
  REQUIRE(symlink((t.root() + "/data").c_str(), (t.root() + "/data/loop").c_str()) == 0);
  CHECK(ExpandFilePath(t.root() + "/data") == std::vector<std::string>{a});
  const std::vector<std::string> globbed = ExpandFilePath(t.root() + "/data/**/*.parquet");
  REQUIRE_FALSE(globbed.empty());
  CHECK(globbed.front() == a);
  CHECK(globbed.size() <= 2);  // the loop is entered at most once
}

// The walks a query narrows: directories wanted_directory refuses are neither read nor
// walked, in a directory expansion and in every kind of glob segment; the directories read
// and the names they held are counted, and a cache answers a second walk without reading.
TEST_CASE("file list: walks skip the directories not wanted, count and reuse their reads") {
  TempTree t;
  for (const char* year : {"y=1", "y=2", "y=3"}) {
    for (const char* month : {"m=1", "m=2"}) t.File(std::string("ds/") + year + "/" + month + "/f.parquet");
  }
  const std::string root = t.root() + "/ds";
  ListingCounts counts;
  ListingOptions listing;
  listing.counts = &counts;
  CHECK(ExpandFilePath(root, listing).size() == 6);
  CHECK(counts.requests == 1 + 3 + 6);  // ds, each year, each month
  CHECK(counts.entries == 3 + 6 + 6);
  std::vector<std::string> asked;
  listing.wanted_directory = [&asked](std::string_view name) {
    asked.emplace_back(name);
    return name != "y=1" && name != "y=3" && name != "m=1";
  };
  // Reads: ds, y=2, y=2/m=2 (`**` reads each twice: for the segment after it and for the
  // directories it descends into; a literal last segment needs no read).
  const std::vector<std::pair<std::string, uint64_t>> cases = {
      {root, 3}, {root + "/**/*.parquet", 6}, {root + "/y=*/m=*/*.parquet", 3}, {root + "/*/*/f.parquet", 2}};
  for (const auto& listed : cases) {
    const std::string& path = listed.first;
    const uint64_t reads = listed.second;
    CAPTURE(path);
    counts = ListingCounts();
    CHECK(ExpandFilePath(path, listing) == std::vector<std::string>{root + "/y=2/m=2/f.parquet"});
    CHECK(counts.requests == reads);
  }
  CHECK(std::find(asked.begin(), asked.end(), "y=3") != asked.end());
  // Everything refused: no file, and no error (a query's partitions can be empty).
  listing.wanted_directory = [](std::string_view name) { return name.rfind("y=", 0) != 0; };
  CHECK(ExpandFilePath(root, listing).empty());
  CHECK(ExpandFilePath(root + "/y=*/m=*/*.parquet", listing).empty());
  // The cache: a second walk reads nothing.
  DirectoryListings cache;
  listing.wanted_directory = nullptr;
  listing.cache = &cache;
  counts = ListingCounts();
  CHECK(ExpandFilePath(root, listing).size() == 6);
  CHECK(counts.requests == 10);
  counts = ListingCounts();
  CHECK(ExpandFilePath(root + "/**/*.parquet", listing).size() == 6);
  CHECK(counts.requests == 0);
}
