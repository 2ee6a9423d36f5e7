// Tests of the operating-system layer (format/platform/system.h) as the format library and
// the extension use it: exclusive creation, positional reads and writes, duplicated handles,
// renames that replace or refuse to, identities, listings, scratch files, run-time library
// names, and the Windows device-name rule (pure string logic, so checked here on Linux).
#include <doctest/doctest.h>
#ifndef _WIN32
#include <unistd.h>
#endif

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "format/io/runtime_library.h"
#include "format/platform/system.h"
#include "tests/unit/temp_dir.h"

namespace platform = parquet::platform;
using Kind = platform::SystemResult::Kind;
using test_support::TempDir;

namespace {

std::string Contents(const std::string& path) {
  platform::File file;
  platform::FileStatus status;
  REQUIRE(platform::OpenForReading(path, &file, &status).ok());
  REQUIRE(status.type == platform::FileType::kRegular);
  std::string text(status.size, '\0');
  size_t got = 0;
  REQUIRE(file.ReadAt(0, text.data(), text.size(), &got).ok());
  CHECK(got == text.size());
  return text;
}

void Write(const std::string& path, const std::string& text) {
  platform::File file;
  REQUIRE(platform::CreateForWriting(path, &file).ok());
  REQUIRE(file.Write(text.data(), text.size()).ok());
  REQUIRE(file.Close().ok());
}

}  // namespace

TEST_CASE("platform: exclusive creation refuses an existing name; a duplicate shares the position") {
  TempDir dir;
  const std::string path = dir.File("a.bin");
  platform::File file;
  REQUIRE(platform::CreateExclusive(path, &file).ok());
  platform::File again;
  const platform::SystemResult refused = platform::CreateExclusive(path, &again);
  CHECK(refused.kind == Kind::kExists);
  CHECK(!refused.text.empty());
  CHECK(!again.is_open());

  platform::File duplicate;
  REQUIRE(file.Duplicate(&duplicate).ok());
  REQUIRE(file.Write("abc", 3).ok());
  REQUIRE(duplicate.Write("def", 3).ok());
  REQUIRE(duplicate.Close().ok());
  REQUIRE(file.Close().ok());
  CHECK(Contents(path) == "abcdef");

  platform::File missing;
  CHECK(platform::CreateExclusive(dir.File("no/such/dir/x"), &missing).kind == Kind::kNotFound);
}

TEST_CASE("platform: positional reads stop at the end; directories are reported, not opened") {
  TempDir dir;
  Write(dir.File("f"), "0123456789");
  platform::File file;
  platform::FileStatus status;
  REQUIRE(platform::OpenForReading(dir.File("f"), &file, &status).ok());
  CHECK(status.size == 10);
  char buffer[8] = {};
  size_t got = 0;
  REQUIRE(file.ReadAt(6, buffer, sizeof(buffer), &got).ok());
  CHECK(got == 4);
  CHECK(std::string(buffer, got) == "6789");
  REQUIRE(file.ReadAt(10, buffer, sizeof(buffer), &got).ok());
  CHECK(got == 0);

  platform::File directory;
  REQUIRE(platform::OpenForReading(dir.path(), &directory, &status).ok());
  CHECK(status.type == platform::FileType::kDirectory);
  CHECK(!directory.is_open());
  CHECK(platform::OpenForReading(dir.File("missing"), &directory, &status).kind == Kind::kNotFound);
}

TEST_CASE("platform: renames replace or refuse, and the identity follows the file") {
  TempDir dir;
  Write(dir.File("new"), "new");
  Write(dir.File("old"), "old");
  platform::FileStatus before;
  REQUIRE(platform::PathStatus(dir.File("new"), true, &before).ok());

  CHECK(platform::RenameNoReplace(dir.File("new"), dir.File("old")).kind != Kind::kNone);
  CHECK(Contents(dir.File("old")) == "old");
  REQUIRE(platform::RenameReplacing(dir.File("new"), dir.File("old")).ok());
  CHECK(Contents(dir.File("old")) == "new");
  platform::FileStatus after;
  REQUIRE(platform::PathStatus(dir.File("old"), true, &after).ok());
  CHECK(after.identity == before.identity);
  CHECK(platform::PathStatus(dir.File("new"), true, &after).kind == Kind::kNotFound);

  // Renaming over a file another handle still reads: the reader keeps the old bytes.
  Write(dir.File("next"), "next");
  platform::File reader;
  platform::FileStatus status;
  REQUIRE(platform::OpenForReading(dir.File("old"), &reader, &status).ok());
  REQUIRE(platform::RenameReplacing(dir.File("next"), dir.File("old")).ok());
  char buffer[3];
  size_t got = 0;
  REQUIRE(reader.ReadAt(0, buffer, 3, &got).ok());
  CHECK(std::string(buffer, got) == "new");
  CHECK(Contents(dir.File("old")) == "next");
}

TEST_CASE("platform: listings, directories and trees") {
  TempDir dir;
  REQUIRE(platform::MakeDirectory(dir.File("k=1")).ok());
  CHECK(platform::MakeDirectory(dir.File("k=1")).kind == Kind::kExists);
  Write(dir.File("k=1/a.parquet"), "a");
  Write(dir.File("b.parquet"), "b");
  std::vector<std::string> names;
  REQUIRE(platform::ListDirectory(dir.path(), &names).ok());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"b.parquet", "k=1"});
  CHECK(platform::ListDirectory(dir.File("none"), &names).kind == Kind::kNotFound);
  CHECK(platform::ListDirectory(dir.File("b.parquet"), &names).kind == Kind::kNotDirectory);
  CHECK(platform::SyncPath(dir.File("k=1")).ok());
  platform::RemoveTree(dir.File("k=1"));
  platform::FileStatus status;
  CHECK(platform::PathStatus(dir.File("k=1"), false, &status).kind == Kind::kNotFound);

  std::string staging;
  REQUIRE(platform::MakeTempDirectory("platform_test-", &staging).ok());
  REQUIRE(platform::PathStatus(staging, true, &status).ok());
  CHECK(status.type == platform::FileType::kDirectory);
  platform::RemoveTree(staging);
  CHECK(platform::PathStatus(staging, true, &status).kind == Kind::kNotFound);
}

TEST_CASE("platform: a scratch file has no name, reads back what was written, and copies out") {
  TempDir dir;
  platform::File scratch;
  REQUIRE(platform::CreateScratchFile(dir.path(), dir.File("out.parquet"), &scratch).ok());
  CHECK(dir.Entries().empty());
  REQUIRE(scratch.WriteAt(0, "hello world", 11).ok());
  platform::File out;
  REQUIRE(platform::CreateForWriting(dir.File("out.parquet"), &out).ok());
  for (bool in_kernel : {true, false}) {
    REQUIRE(platform::CopyRange(scratch, 6, 5, out, &in_kernel).ok());
  }
  REQUIRE(out.Close().ok());
  CHECK(Contents(dir.File("out.parquet")) == "worldworld");
  REQUIRE(scratch.Truncate(0).ok());
  platform::FileStatus status;
  REQUIRE(scratch.Status(&status).ok());
  CHECK(status.size == 0);
}

TEST_CASE("platform: large arrays map and unmap") {
  const size_t bytes = size_t{4} << 20;
  auto* data = static_cast<unsigned char*>(platform::MapLargeArray(bytes));
  REQUIRE(data != nullptr);
  data[0] = 1;
  data[bytes - 1] = 2;
  CHECK(data[0] + data[bytes - 1] == 3);
  platform::UnmapLargeArray(data, bytes);
}

TEST_CASE("platform: a run-time library loads from the first of its names that exists") {
  CHECK(platform::SharedLibraryNames("curl", 4) == std::vector<std::string>{"libcurl.so.4"});
  parquet::RuntimeLibrary missing({"libno_such_library.so.9", "libno_such_library.so.8"});
  const std::string problem = missing.Problem("tests", "nothing");
  CHECK(problem.find("libno_such_library.so.9 or libno_such_library.so.8 cannot be loaded (") == 0);
  CHECK(problem.find("and tests need it: install nothing") != std::string::npos);

  parquet::RuntimeLibrary found({"libno_such_library.so.9", "libc.so.6"});
  size_t (*length)(const char*) = nullptr;
  found.Bind(&length, "strlen");
  const bool bound = length != nullptr;
  REQUIRE(bound);
  CHECK(length("four") == 4u);
  CHECK(found.Problem("tests", "nothing").empty());
  int (*absent)() = nullptr;
  found.Bind(&absent, "no_such_function_anywhere");
  CHECK(found.Problem("tests", "nothing") == "the libc.so.6 found lacks functions that tests need");
}

TEST_CASE("platform: windows device names and device paths are refused, ordinary names are not") {
  for (const char* device : {"CON", "nul", "NUL.parquet", "C:\\data\\con.txt", "dir/Com1", "LPT9.parquet",
                             "aux .parquet", "C:nul", "conout$", "\\\\.\\pipe\\name", "//./pipe/name",
                             "\\\\.\\PhysicalDrive0", "\\\\?\\GLOBALROOT\\Device\\Null", "\\\\.\\UNC\\s\\x"}) {
    INFO(device);
    CHECK(!platform::WindowsDeviceNameError(device).empty());
  }
  CHECK(platform::WindowsDeviceNameError("nul.parquet") == "'nul.parquet' is a windows device name, not a file");
  CHECK(platform::WindowsDeviceNameError("\\\\.\\pipe\\x") == "'\\\\.\\pipe\\x' names a device or pipe, not a file");
  for (const char* file : {"console.parquet", "nullable.parquet", "COM10", "LPT", "data/con_x.parquet",
                           "C:\\data\\a.parquet", "\\\\server\\share\\nul_not.parquet", "\\\\?\\C:\\long\\a.parquet",
                           "\\\\?\\UNC\\server\\share\\a.parquet", "\\\\.\\C:\\a.parquet", "caf\xc3\xa9.parquet"}) {
    INFO(file);
    CHECK(platform::WindowsDeviceNameError(file).empty());
  }
  // On Linux the rule is the file type seen when opening (a FIFO, a device), not the name.
  CHECK(platform::DeviceNameError("nul.parquet").empty());
}

TEST_CASE("platform: the roots of windows paths") {
  CHECK(platform::WindowsRootLength("C:\\data\\a.parquet") == 3);
  CHECK(platform::WindowsRootLength("c:/data") == 3);
  CHECK(platform::WindowsRootLength("C:data") == 2);
  CHECK(platform::WindowsRootLength("\\data") == 1);
  CHECK(platform::WindowsRootLength("data\\x") == 0);
  CHECK(platform::WindowsRootLength("\\\\server\\share\\dir\\a") == std::string("\\\\server\\share\\").size());
  CHECK(platform::WindowsRootLength("//server/share") == std::string("//server/share").size());
  CHECK(platform::WindowsRootLength("\\\\?\\C:\\long\\a") == 7);
  CHECK(platform::WindowsRootLength("\\\\?\\UNC\\server\\share\\a") == std::string("\\\\?\\UNC\\server\\share\\").size());
  CHECK(platform::PathRootLength("/data/a") == 1);
  CHECK(platform::PathRootLength("data/a") == 0);
}

// Issue 45, finding 7: the NT prefix \??\ passes the Win32 path functions through to the
// object manager: a pipe, GLOBALROOT, another server. Refused like \\.\.
TEST_CASE("platform: NT-prefixed paths are device paths") {
  for (const char* path : {"\\??\\pipe\\x", "\\??\\UNC\\host\\share\\x.parquet", "\\??\\GLOBALROOT\\Device\\Null",
                           "\\??\\C:\\data\\a.parquet", "/?" "?/pipe/x", "\\?" "?/pipe\\x"}) {
    INFO(path);
    CHECK(platform::WindowsDeviceNameError(path).find("names a device or pipe, not a file") != std::string::npos);
  }
  CHECK(platform::WindowsDeviceNameError("\\??\\pipe\\x") ==
        "'\\??\\pipe\\x' names a device or pipe, not a file (an NT path: \\??\\)");
  for (const char* path : {"??\\a.parquet", "\\?\\a.parquet", "\\???\\a.parquet", "data\\??\\a.parquet"}) {
    INFO(path);
    CHECK(platform::WindowsDeviceNameError(path).empty());
  }
  // COM and LPT with a superscript digit are devices too.
  for (const char* device : {"COM\xc2\xb9", "lpt\xc2\xb3.parquet", "C:\\x\\Com\xc2\xb2 .txt"}) {
    INFO(device);
    CHECK(!platform::WindowsDeviceNameError(device).empty());
  }
  CHECK(platform::WindowsDeviceNameError("COM\xc2\xb9\xc2\xb9").empty());
}

// Issue 45, finding 8: the paths whose opening makes Windows log in to a server.
TEST_CASE("platform: windows network paths") {
  for (const char* path : {"\\\\host\\share\\x.parquet", "//host/share/x.parquet", "\\/host/share", "/\\host\\share",
                           "\\\\?\\UNC\\host\\share\\x.parquet", "//?/unc/host/share", "\\\\.\\UNC\\host\\share\\x",
                           "\\??\\UNC\\host\\share\\x.parquet", "\\\\host\\pipe\\name", "\\\\\\share\\x",
                           "\\\\.host\\share\\x", "\\\\attacker@SSL@443\\DavWWWRoot\\x.parquet"}) {
    INFO(path);
    CHECK(platform::IsWindowsNetworkPath(path));
  }
  for (const char* path : {"C:\\data\\a.parquet", "c:/data/a", "\\data\\a", "/data/a", "data\\a", "",
                           "\\\\?\\C:\\long\\a.parquet", "\\\\.\\pipe\\name", "\\\\?\\GLOBALROOT\\x", "\\??\\C:\\a",
                           "\\??\\UNCx\\a", "\\\\?\\UNCx\\a", "C:\\\\host\\share", "data//host/share"}) {
    INFO(path);
    CHECK(!platform::IsWindowsNetworkPath(path));
  }
}

// Issue 45, finding 6: a name that is a file's name on every system.
TEST_CASE("platform: portable file names") {
  for (const char* name : {"part-1.parquet", "data_0.parquet", "caf\xc3\xa9 1.parquet", "x..y.parquet", "COM10.parquet",
                           "console.parquet", ".hidden"}) {
    INFO(name);
    CHECK(platform::PortableFileNameError(name).empty());
  }
  const std::pair<const char*, const char*> refused[] = {
      {"", "not a file name"},
      {"..", "not a file name"},
      {"a/b.parquet", "holds a path separator ('/' or '\\')"},
      {"x\\..\\..\\evil-1.parquet", "holds a path separator ('/' or '\\')"},
      {"data:stream-1.parquet", "holds ':' (a drive or, on Windows, an alternate data stream)"},
      {"a\tb.parquet", "holds a control character"},
      {"a\x7f.parquet", "holds a control character"},
      {"a\nb", "holds a control character"},
      {"a*b.parquet", "holds '*', which Windows refuses in names"},
      {"a?.parquet", "holds '?', which Windows refuses in names"},
      {"a<b>.parquet", "holds '<', which Windows refuses in names"},
      {"a|b", "holds '|', which Windows refuses in names"},
      {"a\"b", "holds '\"', which Windows refuses in names"},
      {"name.", "ends with a dot or a space, which Windows drops"},
      {"name ", "ends with a dot or a space, which Windows drops"},
      {"COM1.parquet", "is a windows device name"},
      {"con", "is a windows device name"},
      {"Nul .parquet", "is a windows device name"},
      {"aux..parquet", "is a windows device name"},
      {"LPT9.x.parquet", "is a windows device name"},
      {"conin$.parquet", "is a windows device name"},
  };
  for (const auto& entry : refused) {
    INFO(entry.first);
    CHECK(platform::PortableFileNameError(entry.first) == entry.second);
  }
}

#ifndef _WIN32
TEST_CASE("platform: a tree is removed without following the symbolic links planted in it") {
  TempDir dir;
  const std::string outside = dir.File("outside");
  REQUIRE(platform::MakeDirectory(outside).ok());
  Write(outside + "/keep.parquet", "outside");
  const std::string tree = dir.File("tree");
  REQUIRE(platform::MakeDirectory(tree).ok());
  REQUIRE(platform::MakeDirectory(tree + "/k=1").ok());
  Write(tree + "/k=1/part-0.parquet", "inside");
  // Links to the outside directory and file, at the top and one level down.
  REQUIRE(::symlink(outside.c_str(), (tree + "/k=2").c_str()) == 0);
  REQUIRE(::symlink(outside.c_str(), (tree + "/k=1/j=3").c_str()) == 0);
  REQUIRE(::symlink((outside + "/keep.parquet").c_str(), (tree + "/k=1/part-1.parquet").c_str()) == 0);
  platform::RemoveTree(tree);
  platform::FileStatus status;
  CHECK(platform::PathStatus(tree, false, &status).kind == Kind::kNotFound);
  CHECK(Contents(outside + "/keep.parquet") == "outside");
  // A tree that is itself a link: the link goes, the directory it names stays whole.
  const std::string link = dir.File("link");
  REQUIRE(::symlink(outside.c_str(), link.c_str()) == 0);
  platform::RemoveTree(link);
  CHECK(platform::PathStatus(link, false, &status).kind == Kind::kNotFound);
  CHECK(Contents(outside + "/keep.parquet") == "outside");
}

TEST_CASE("platform: a directory handle keeps its calls inside the directory opened, whatever its path names later") {
  TempDir dir;
  const std::string outside = dir.File("outside");
  REQUIRE(platform::MakeDirectory(outside).ok());
  Write(outside + "/keep.parquet", "outside");
  const std::string tree = dir.File("tree");
  REQUIRE(platform::MakeDirectory(tree).ok());
  REQUIRE(platform::MakeDirectory(tree + "/k=1").ok());
  Write(tree + "/k=1/keep.parquet", "inside");

  platform::Directory root;
  REQUIRE(platform::Directory::Open(tree, false, &root).ok());
  platform::Directory child;
  REQUIRE(root.OpenChild("k=1", &child).ok());
  platform::FileStatus listed;
  REQUIRE(root.ChildStatus("k=1", &listed).ok());
  CHECK(listed.type == platform::FileType::kDirectory);
  // The directory is moved away and a link to the outside put at its name.
  REQUIRE(::rename((tree + "/k=1").c_str(), (tree + "/moved").c_str()) == 0);
  REQUIRE(::symlink(outside.c_str(), (tree + "/k=1").c_str()) == 0);
  std::vector<std::string> names;
  REQUIRE(child.List(&names).ok());
  CHECK(names == std::vector<std::string>{"keep.parquet"});
  CHECK(child.RemoveChild("keep.parquet").ok());  // the one in the moved directory
  CHECK(Contents(outside + "/keep.parquet") == "outside");
  // Through the root the name is a link now: never opened as a directory, removed as a link.
  platform::Directory again;
  CHECK(root.OpenChild("k=1", &again).kind == Kind::kUnresolvable);
  platform::FileStatus now;
  REQUIRE(root.ChildStatus("k=1", &now).ok());
  CHECK(now.type == platform::FileType::kSymbolicLink);
  CHECK(root.RemoveEmptyChild("k=1").kind == Kind::kNotDirectory);
  CHECK(root.RemoveChild("k=1").ok());
  CHECK(Contents(outside + "/keep.parquet") == "outside");
  // Names are single components.
  CHECK(root.RemoveChild("../outside/keep.parquet").kind == Kind::kNotSupported);
  CHECK(root.OpenChild("..", &again).kind == Kind::kNotSupported);
  CHECK(Contents(outside + "/keep.parquet") == "outside");
  // Opening a link by path without following it is refused too.
  REQUIRE(::symlink(outside.c_str(), dir.File("link").c_str()) == 0);
  CHECK(platform::Directory::Open(dir.File("link"), false, &again).kind == Kind::kUnresolvable);
  CHECK(platform::Directory::Open(dir.File("link"), true, &again).ok());
  // Made, created, moved and linked relative to the handles.
  REQUIRE(root.MakeChild("a=1").ok());
  CHECK(root.MakeChild("a=1").kind == Kind::kExists);
  platform::Directory a;
  REQUIRE(root.OpenChild("a=1", &a).ok());
  platform::File file;
  REQUIRE(a.CreateChildExclusive("f.parquet", &file).ok());
  REQUIRE(file.Write("x", 1).ok());
  REQUIRE(file.Close().ok());
  CHECK(a.CreateChildExclusive("f.parquet", &file).kind == Kind::kExists);
  CHECK(a.SyncChild("f.parquet").ok());
  CHECK(a.Sync().ok());
  platform::SystemResult moved = platform::MoveBetween(a, "f.parquet", root, "g.parquet", false);
  if (moved.kind == Kind::kNotSupported) moved = platform::LinkBetween(a, "f.parquet", root, "g.parquet");
  CHECK(moved.ok());
  CHECK(Contents(tree + "/g.parquet") == "x");
  CHECK(a.RemoveEmptyChild("nothing").kind == Kind::kNotFound);
}
#endif
