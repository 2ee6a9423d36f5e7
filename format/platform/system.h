// The operating system behind one small interface: every file, directory, rename, run-time
// library and large mapping that the format library and the extension ask of the system goes
// through here, so only format/platform/ includes OS headers (tests/layering_check.sh).
// posix.cc implements it for Linux and other POSIX systems (emscripten's included), windows.cc
// for Windows; each compiles to nothing on the other. wasm.cc adds what only the WebAssembly
// build has (HostHttpRequest). Paths are UTF-8 everywhere; on Windows they become
// UTF-16 at the system call. Failures come back as SystemResult (the kinds callers tell
// apart, and the system's own words), so each caller words its error as before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace parquet::platform {

#ifdef _WIN32
constexpr bool kWindows = true;
#else
constexpr bool kWindows = false;
#endif

// Why a call failed (kind kNone: it did not).
struct SystemResult {
  enum class Kind {
    kNone,
    kNotFound,       // nothing at the path (ENOENT; ERROR_FILE_NOT_FOUND, ERROR_PATH_NOT_FOUND)
    kNotDirectory,   // a path component is not a directory (ENOTDIR)
    kUnresolvable,   // a symbolic link loop or a name too long (ELOOP, ENAMETOOLONG)
    kExists,         // the target exists (EEXIST, ENOTEMPTY; ERROR_ALREADY_EXISTS, ERROR_FILE_EXISTS)
    kNotSupported,   // this system or file system cannot do it (EINVAL, ENOSYS, ENOTSUP)
    kOther,
  };
  Kind kind = Kind::kNone;
  std::string text;  // the system's message, e.g. "No such file or directory"

  bool ok() const { return kind == Kind::kNone; }
};

enum class FileType { kRegular, kDirectory, kSymbolicLink, kOther };

// What identifies a file while it exists: device and inode, or volume serial and file index.
struct FileIdentity {
  uint64_t device = 0;
  uint64_t object = 0;
  bool operator==(const FileIdentity& other) const { return device == other.device && object == other.object; }
  bool operator<(const FileIdentity& other) const {
    return device != other.device ? device < other.device : object < other.object;
  }
};

struct FileStatus {
  FileType type = FileType::kOther;
  uint64_t size = 0;
  FileIdentity identity;
  int64_t modified_seconds = 0;
  int64_t modified_nanoseconds = 0;
  uint32_t permissions = 0;  // POSIX st_mode bits (07777 part); 0 on Windows
  uint32_t owner = 0;        // POSIX uid and gid; 0 on Windows
  uint32_t group = 0;
};

// An open file, closed when destroyed (a descriptor or a HANDLE). Move-only.
class File {
 public:
  File() = default;
  ~File();
  File(File&& other) noexcept : native_(other.native_) { other.native_ = kClosed; }
  File& operator=(File&& other) noexcept;
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  bool is_open() const { return native_ != kClosed; }

  // Up to `length` bytes at `offset` into out; *got is 0 at the end of the file.
  SystemResult ReadAt(uint64_t offset, void* out, size_t length, size_t* got) const;
  // All of data at the file position (which moves past it), or at `offset`.
  SystemResult Write(const void* data, size_t size);
  SystemResult WriteAt(uint64_t offset, const void* data, size_t size);
  SystemResult Sync();
  SystemResult Truncate(uint64_t size);
  SystemResult Status(FileStatus* out) const;
  // A second File for the same open file (same position), for a writer that takes it over.
  SystemResult Duplicate(File* out) const;
  // Gives the file the owner and group (where this process may set them) and then the
  // permission bits of `replaced`, the file it will replace. Windows: nothing to do (the
  // file has the directory's inherited ACL, as the replaced one had).
  SystemResult TakePermissionsOf(const FileStatus& replaced);
  // Asks the system to start writing [from, to) to disk now (best effort; Linux only).
  void StartWriteback(uint64_t from, uint64_t to);
  // Closes now, reporting what the close reported (a write error surfacing late).
  SystemResult Close();

 private:
  friend struct FileAccess;
  static constexpr intptr_t kClosed = -1;  // also INVALID_HANDLE_VALUE
  intptr_t native_ = kClosed;
};

// Opens `path` for positional reads without blocking on a FIFO (nor making a terminal the
// controlling one), and fills *status from the
// open file. Only a regular file is left open (switched back to blocking reads); anything
// else is reported through status->type and the file is closed. On Windows a device name
// (CON, NUL, COM1, \\.\pipe\..., see DeviceNameError) gives kOther status without opening it.
SystemResult OpenForReading(const std::string& path, File* out, FileStatus* status);
// Creates or truncates `path` for writing.
SystemResult CreateForWriting(const std::string& path, File* out);
// Creates `path` for reading and writing; it must not exist (a symbolic link there is not
// followed): kExists.
SystemResult CreateExclusive(const std::string& path, File* out);
// A nameless scratch file for reads and writes in `directory` (gone when closed); `beside`
// names a path whose name a named fallback may extend.
SystemResult CreateScratchFile(const std::string& directory, const std::string& beside, File* out);

// Copies `size` bytes at `offset` of `from` to `to` at its position. *in_kernel: try the
// system's own copy (copy_file_range) first; turned false where it does not work.
SystemResult CopyRange(const File& from, uint64_t offset, uint64_t size, File& to, bool* in_kernel);

// stat (follow_links) or lstat.
SystemResult PathStatus(const std::string& path, bool follow_links, FileStatus* out);
SystemResult MakeDirectory(const std::string& path);
SystemResult RemoveFile(const std::string& path);
// Removes a directory only if it is empty (rmdir, RemoveDirectoryW).
SystemResult RemoveEmptyDirectory(const std::string& path);
// Removes a file or a whole tree, ignoring what cannot be removed. The tree is walked
// through Directory handles (tree.cc): a symbolic link (a reparse point on Windows) in it is
// removed itself, never followed, and a subdirectory is emptied only if the directory opened
// is the one listed (same identity), so swapping a subdirectory for a link while it runs
// cannot make it delete anything outside the tree. Trees deeper than kMaxTreeDepth are left
// below that depth.
void RemoveTree(const std::string& path);
constexpr int kMaxTreeDepth = 128;
// Makes a file's or directory's contents durable (a directory that cannot be synced is fine).
SystemResult SyncPath(const std::string& path);
// The names in a directory, without "." and "..", in no particular order.
SystemResult ListDirectory(const std::string& directory, std::vector<std::string>* names);

// A directory held open, through which trees are listed, checked, synced, filled and
// deleted: each call below names one entry of this directory (a single path component,
// never a path: anything else is kNotSupported), so a directory renamed, or swapped for a
// symbolic link, while a caller walks the tree cannot send the calls outside it. POSIX: a
// descriptor (O_DIRECTORY | O_NOFOLLOW) and the *at calls (openat, fstatat, mkdirat,
// unlinkat, renameat2, linkat). Windows: a handle opened without following a reparse point
// and without sharing deletion, which keeps the directory and (through pins_, duplicates of
// the handles above it) each directory above it where it is, so the calls by path inside it
// stay inside. Move-only.
class Directory {
 public:
  Directory() = default;
  ~Directory();
  Directory(Directory&& other) noexcept;
  Directory& operator=(Directory&& other) noexcept;
  Directory(const Directory&) = delete;
  Directory& operator=(const Directory&) = delete;

  // Opens `path` as a directory. With follow_links false its last component must not be a
  // symbolic link or reparse point (kUnresolvable); the components before it are the
  // caller's path, taken as they resolve. Not a directory: kNotDirectory.
  static SystemResult Open(const std::string& path, bool follow_links, Directory* out);

  bool is_open() const { return native_ != kClosed; }
  // The path it was opened by, joined with the names of OpenChild (for messages; Windows
  // also reaches entries through it, see above).
  const std::string& path() const { return path_; }

  SystemResult Status(FileStatus* out) const;
  // The names in it, without "." and "..", in no particular order.
  SystemResult List(std::vector<std::string>* names) const;
  // The entry's status, a symbolic link not followed (lstat).
  SystemResult ChildStatus(const std::string& name, FileStatus* out) const;
  // The subdirectory `name`, never through a symbolic link or reparse point (kUnresolvable);
  // a file: kNotDirectory.
  SystemResult OpenChild(const std::string& name, Directory* out) const;
  // Creates the subdirectory `name` (kExists when anything is there, a link included).
  SystemResult MakeChild(const std::string& name) const;
  // Creates the file `name` for reading and writing; it must not exist (a symbolic link
  // there is not followed): kExists.
  SystemResult CreateChildExclusive(const std::string& name, File* out) const;
  // Removes the entry `name` if it is not a directory: a file, or a symbolic link itself
  // (Windows: by handle, opened without following a reparse point; read-only cleared).
  SystemResult RemoveChild(const std::string& name) const;
  // Removes the subdirectory `name` if it is empty (a link there: kNotDirectory on POSIX;
  // Windows removes a directory link or junction itself).
  SystemResult RemoveEmptyChild(const std::string& name) const;
  // Makes the regular file `name` durable, opened without following a link and without
  // blocking (anything else there is left alone).
  SystemResult SyncChild(const std::string& name) const;
  // Makes the directory's entries durable (a directory that cannot be synced is fine).
  SystemResult Sync() const;

 private:
  friend struct DirectoryAccess;
  static constexpr intptr_t kClosed = -1;
  intptr_t native_ = kClosed;
  std::string path_;
  std::shared_ptr<void> pins_;  // Windows: the directories above, held open
};

// Moves the entry `from_name` of `from` to `to_name` in `to`; with replace false only if
// nothing is there, atomically (kExists), kNotSupported where the file system cannot tell
// (then LinkBetween and RemoveChild).
SystemResult MoveBetween(const Directory& from, const std::string& from_name, const Directory& to,
                         const std::string& to_name, bool replace);
// A hard link `to_name` in `to` of the file `from_name` in `from` (kExists when taken).
SystemResult LinkBetween(const Directory& from, const std::string& from_name, const Directory& to,
                         const std::string& to_name);

// Moves `from` to `to`, replacing a file there (Windows: MoveFileExW with
// MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH, retried for a while when another
// process holds the old file open without sharing its deletion).
SystemResult RenameReplacing(const std::string& from, const std::string& to);
// Moves `from` to `to` only if nothing is there, atomically (kExists); kNotSupported where
// the file system cannot tell (then a caller may fall back to HardLink or a checked rename).
SystemResult RenameNoReplace(const std::string& from, const std::string& to);
SystemResult HardLink(const std::string& from, const std::string& to);
// Swaps two paths in one step; kNotSupported where the system cannot (Windows).
SystemResult ExchangePaths(const std::string& a, const std::string& b);
// Sets a directory's permission bits without following a symbolic link; Windows: nothing.
SystemResult SetDirectoryPermissions(const std::string& path, uint32_t permissions);

// A new, private directory under the system's temporary directory (TMPDIR or /tmp; the
// user's temporary folder on Windows), named `prefix` and a unique suffix.
SystemResult MakeTempDirectory(const std::string& prefix, std::string* made);

// The error for a path that names a device rather than a file (Windows: CON, PRN, AUX, NUL,
// COM0-9, LPT0-9 (and COM¹²³, LPT¹²³) in any directory and with any extension, and the
// device namespaces \\.\, \\?\ (but for \\?\C:\ and \\?\UNC\) and the NT prefix \??\,
// such as \\.\pipe\name or \??\GLOBALROOT\...), or "" when it names none. POSIX devices
// and FIFOs are caught when opened (OpenForReading's status), so this is "" there.
std::string DeviceNameError(const std::string& path);
// The Windows rule of DeviceNameError, on every system (windows_paths.cc; unit-tested on Linux).
std::string WindowsDeviceNameError(const std::string& path);

// Whether Windows takes `path` as a network path, whose opening makes it connect to a server
// and log in there with the user's credentials (SMB, NTLM): \\server\share\..., the same
// with '/' (//server/share/...), \\?\UNC\..., \\.\UNC\... and \??\UNC\.... A string rule,
// on every system (windows_paths.cc; unit-tested on Linux); enforced where Windows reads
// the path (the credential rule, ext/common/credential_rule.h).
bool IsWindowsNetworkPath(const std::string& path);

// Why `name` cannot be the name of a file on every system ("" when it can): empty, "." or
// "..", holding '/', '\\', ':', a control character or one of <>"|?*, ending with a dot or a
// space, or a Windows device name (CON, NUL, COM1, LPT1, ... with any extension or trailing
// dots and spaces). A string rule, on every system (parquet_copy's filename_pattern), so that
// what is written on one system can be copied to another.
std::string PortableFileNameError(const std::string& name);

// The characters that separate path components: "/" ("/\\" on Windows).
constexpr const char* kPathSeparators = kWindows ? "/\\" : "/";
// The length of the path's root, which globs and joins leave alone: "/" on POSIX; on
// Windows a drive (C:\ or C:), a share (\\server\share\) or the long forms (\\?\C:\ and
// \\?\UNC\server\share\).
size_t PathRootLength(const std::string& path);
size_t WindowsRootLength(const std::string& path);

// The soft limit on open files of the process, or 0 when it has none (Windows).
uint64_t OpenFileLimit();

// Large arrays (2 MiB and up) mapped directly, in the system's normal pages (not huge
// pages: see ext/table/large_array_allocator.h), and given back whole; with `populate`,
// populated at once where the system can (one call instead of a page fault per page, for
// callers that fill all they map). Null when out of memory.
void* MapLargeArray(size_t bytes, bool populate = false);
void UnmapLargeArray(void* data, size_t bytes);
// Gives the heap's free pages back to the system (glibc's malloc_trim; elsewhere nothing).
void ReleaseFreeMemory();

// Run-time libraries (dlopen, LoadLibraryW). Null and *error set when it cannot be loaded.
// The file names library `stem` ("curl") of ABI `version` goes by here, most usual first:
// {"libcurl.so.4"}; on Windows {"libcurl-x64.dll", "libcurl.dll", "libcurl-4.dll"}.
std::vector<std::string> SharedLibraryNames(const std::string& stem, int version);
void* LoadSharedLibrary(const std::string& name, std::string* error);
void* FindSharedLibrarySymbol(void* library, const char* name);

// HTTP requests made by the host (wasm.cc, the WebAssembly build, which has no libcurl: the
// JavaScript side makes them synchronously, a synchronous XMLHttpRequest in a browser, a
// helper thread in Node). kHostHttp: whether this build has it (HostHttpRequest is defined
// only there).
#ifdef __EMSCRIPTEN__
constexpr bool kHostHttp = true;
#else
constexpr bool kHostHttp = false;
#endif
struct HostHttpResult {
  enum class Failure {
    kNone,
    kNoResponse,  // the request failed before any response: unreachable, or refused (a browser's CORS policy)
    kTimeout,
    kTooLong,     // the body went beyond max_body (kept truncated to it)
    kOther,
  };
  Failure failure = Failure::kNone;
  std::string message;  // the host's words for a failure (never a header's value)
  long status = 0;
  std::string headers;  // "name: value" lines of the final response
  std::vector<uint8_t> body;
};
// One request (the host follows redirects). `headers`: "Name: value" lines sent with it.
// max_body 0: no limit.
HostHttpResult HostHttpRequest(const std::string& method, const std::string& url, const std::vector<std::string>& headers,
                               const uint8_t* body, size_t body_size, uint64_t max_body, long timeout_ms);

}  // namespace parquet::platform
