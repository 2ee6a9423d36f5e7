// The operating system interface (system.h) on Linux and other POSIX systems: descriptors,
// pread/pwrite, stat, renameat2, dlopen, mmap. Linux-only calls (O_TMPFILE, renameat2,
// copy_file_range, sync_file_range, MADV_HUGEPAGE, malloc_trim) sit behind #ifdef with a
// portable path.
#ifndef _WIN32

#include "format/platform/system.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

namespace parquet::platform {

namespace {

SystemResult Failure(int error) {
  SystemResult result;
  switch (error) {
    case ENOENT: result.kind = SystemResult::Kind::kNotFound; break;
    case ENOTDIR: result.kind = SystemResult::Kind::kNotDirectory; break;
    case ELOOP:
    case ENAMETOOLONG: result.kind = SystemResult::Kind::kUnresolvable; break;
    case EEXIST:
    case ENOTEMPTY: result.kind = SystemResult::Kind::kExists; break;
    case EINVAL:
    case ENOSYS:
#if defined(EOPNOTSUPP) && EOPNOTSUPP != ENOTSUP
    case EOPNOTSUPP:
#endif
    case ENOTSUP: result.kind = SystemResult::Kind::kNotSupported; break;
    default: result.kind = SystemResult::Kind::kOther; break;
  }
  result.text = std::strerror(error);
  return result;
}

SystemResult LastFailure() { return Failure(errno); }

void Fill(const struct stat& st, FileStatus* out) {
  out->type = S_ISREG(st.st_mode)   ? FileType::kRegular
              : S_ISDIR(st.st_mode) ? FileType::kDirectory
              : S_ISLNK(st.st_mode) ? FileType::kSymbolicLink
                                    : FileType::kOther;
  out->size = static_cast<uint64_t>(st.st_size);
  out->identity = {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
#ifdef __APPLE__
  out->modified_seconds = static_cast<int64_t>(st.st_mtimespec.tv_sec);
  out->modified_nanoseconds = static_cast<int64_t>(st.st_mtimespec.tv_nsec);
#else
  out->modified_seconds = static_cast<int64_t>(st.st_mtim.tv_sec);
  out->modified_nanoseconds = static_cast<int64_t>(st.st_mtim.tv_nsec);
#endif
  out->permissions = static_cast<uint32_t>(st.st_mode & 07777);
  out->owner = static_cast<uint32_t>(st.st_uid);
  out->group = static_cast<uint32_t>(st.st_gid);
}

int Descriptor(intptr_t native) { return static_cast<int>(native); }

}  // namespace

// Adopts and exposes descriptors for the functions below.
struct FileAccess {
  static int Fd(const File& file) { return Descriptor(file.native_); }
  static void Adopt(File* file, int fd) {
    *file = File();
    file->native_ = fd;
  }
};

File::~File() {
  if (is_open()) ::close(Descriptor(native_));
}

File& File::operator=(File&& other) noexcept {
  if (this != &other) {
    if (is_open()) ::close(Descriptor(native_));
    native_ = other.native_;
    other.native_ = kClosed;
  }
  return *this;
}

SystemResult File::ReadAt(uint64_t offset, void* out, size_t length, size_t* got) const {
  for (;;) {
    const ssize_t n = ::pread(Descriptor(native_), out, length, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return LastFailure();
    *got = static_cast<size_t>(n);
    return {};
  }
}

SystemResult File::Write(const void* data, size_t size) {
  const char* pos = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t written = ::write(Descriptor(native_), pos, size);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return LastFailure();
    pos += written;
    size -= static_cast<size_t>(written);
  }
  return {};
}

SystemResult File::WriteAt(uint64_t offset, const void* data, size_t size) {
  const char* pos = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t written = ::pwrite(Descriptor(native_), pos, size, static_cast<off_t>(offset));
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return LastFailure();
    pos += written;
    size -= static_cast<size_t>(written);
    offset += static_cast<uint64_t>(written);
  }
  return {};
}

SystemResult File::Sync() { return ::fsync(Descriptor(native_)) == 0 ? SystemResult{} : LastFailure(); }

SystemResult File::Truncate(uint64_t size) {
  return ::ftruncate(Descriptor(native_), static_cast<off_t>(size)) == 0 ? SystemResult{} : LastFailure();
}

SystemResult File::Status(FileStatus* out) const {
  struct stat st;
  if (::fstat(Descriptor(native_), &st) != 0) return LastFailure();
  Fill(st, out);
  return {};
}

#ifdef __EMSCRIPTEN__
std::string EmscriptenDescriptorPath(int fd);  // wasm.cc
#endif

SystemResult File::Duplicate(File* out) const {
#ifdef __EMSCRIPTEN__
  // Emscripten's fcntl(F_DUPFD) and dup() open the path again with the first open's flags
  // (O_EXCL then fails): the file's path is opened again for reading and writing instead, at
  // the same position (what the callers need: a writer and a reader of one named file).
  const std::string path = EmscriptenDescriptorPath(Descriptor(native_));
  if (path.empty()) return Failure(EBADF);
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return LastFailure();
  const off_t position = ::lseek(Descriptor(native_), 0, SEEK_CUR);
  if (position > 0) ::lseek(fd, position, SEEK_SET);
  FileAccess::Adopt(out, fd);
  return {};
#else
  const int fd = ::fcntl(Descriptor(native_), F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return LastFailure();
  FileAccess::Adopt(out, fd);
  return {};
#endif
}

SystemResult File::TakePermissionsOf(const FileStatus& replaced) {
  const int fd = Descriptor(native_);
  if (::fchown(fd, replaced.owner, replaced.group) != 0) {
    [[maybe_unused]] const int ignored = ::fchown(fd, static_cast<uid_t>(-1), replaced.group);
  }
  return ::fchmod(fd, replaced.permissions & 0777) == 0 ? SystemResult{} : LastFailure();
}

void File::StartWriteback(uint64_t from, uint64_t to) {
#ifdef __linux__
  if (!is_open() || to <= from) return;
  (void)::sync_file_range(Descriptor(native_), static_cast<off_t>(from), static_cast<off_t>(to - from),
                          SYNC_FILE_RANGE_WRITE);
#else
  (void)from;
  (void)to;
#endif
}

SystemResult File::Close() {
  if (!is_open()) return {};
  const int fd = Descriptor(native_);
  native_ = kClosed;
  return ::close(fd) == 0 ? SystemResult{} : LastFailure();
}

SystemResult OpenForReading(const std::string& path, File* out, FileStatus* status) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return LastFailure();
  File file;
  FileAccess::Adopt(&file, fd);
  SystemResult result = file.Status(status);
  if (!result.ok() || status->type != FileType::kRegular) return result;
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) return LastFailure();
  *out = std::move(file);
  return {};
}

SystemResult CreateForWriting(const std::string& path, File* out) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return LastFailure();
  FileAccess::Adopt(out, fd);
  return {};
}

SystemResult CreateExclusive(const std::string& path, File* out) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return LastFailure();
  FileAccess::Adopt(out, fd);
  return {};
}

SystemResult CreateScratchFile(const std::string& directory, const std::string& beside, File* out) {
  int fd = -1;
#ifdef O_TMPFILE
  fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#else
  (void)directory;
#endif
  if (fd < 0) {
    std::string name = beside + ".spill-XXXXXX";
#ifdef __linux__
    fd = ::mkostemp(name.data(), O_CLOEXEC);
#else
    fd = ::mkstemp(name.data());
    if (fd >= 0) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
#endif
    if (fd < 0) return LastFailure();
    ::unlink(name.c_str());
  }
  FileAccess::Adopt(out, fd);
  return {};
}

SystemResult CopyRange(const File& from, uint64_t offset, uint64_t size, File& to, bool* in_kernel) {
  const int in_fd = FileAccess::Fd(from);
  const int out_fd = FileAccess::Fd(to);
#ifdef __linux__
  off64_t in = static_cast<off64_t>(offset);
  while (size > 0 && *in_kernel) {
    const ssize_t copied = ::copy_file_range(in_fd, &in, out_fd, nullptr, size, 0);
    if (copied < 0 && errno == EINTR) continue;
    if (copied <= 0) {
      // Not supported here (old kernel, file system, ...): copy through a buffer below.
      if (copied < 0 && errno != ENOSYS && errno != EXDEV && errno != EINVAL && errno != EOPNOTSUPP) {
        return LastFailure();
      }
      *in_kernel = false;
      break;
    }
    size -= static_cast<uint64_t>(copied);
  }
  offset = static_cast<uint64_t>(in);
#else
  *in_kernel = false;
#endif
  std::string buffer;
  while (size > 0) {
    buffer.resize(static_cast<size_t>(std::min<uint64_t>(size, 256 * 1024)));
    const ssize_t got = ::pread(in_fd, buffer.data(), buffer.size(), static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return LastFailure();
    if (got == 0) return Failure(EIO);
    if (SystemResult written = to.Write(buffer.data(), static_cast<size_t>(got)); !written.ok()) return written;
    offset += static_cast<uint64_t>(got);
    size -= static_cast<uint64_t>(got);
  }
  (void)out_fd;
  return {};
}

SystemResult PathStatus(const std::string& path, bool follow_links, FileStatus* out) {
  struct stat st;
  if ((follow_links ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st)) != 0) return LastFailure();
  Fill(st, out);
  return {};
}

SystemResult MakeDirectory(const std::string& path) {
  return ::mkdir(path.c_str(), 0777) == 0 ? SystemResult{} : LastFailure();
}

SystemResult RemoveFile(const std::string& path) {
  return ::unlink(path.c_str()) == 0 ? SystemResult{} : LastFailure();
}

SystemResult RemoveEmptyDirectory(const std::string& path) {
  return ::rmdir(path.c_str()) == 0 ? SystemResult{} : LastFailure();
}

SystemResult SyncPath(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return LastFailure();
  const int rc = ::fsync(fd);
  const int saved = errno;
  ::close(fd);
  // Some file systems cannot fsync a directory (EINVAL); the data itself was synced.
  if (rc != 0 && saved != EINVAL) return Failure(saved);
  return {};
}

SystemResult ListDirectory(const std::string& directory, std::vector<std::string>* names) {
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(directory.c_str()), ::closedir);
  if (!dir) return LastFailure();
  names->clear();
  for (;;) {
    errno = 0;
    const dirent* entry = ::readdir(dir.get());
    if (entry == nullptr) {
      if (errno != 0) return LastFailure();
      return {};
    }
    if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
    names->emplace_back(entry->d_name);
  }
}

// Adopts and exposes directory descriptors.
struct DirectoryAccess {
  static int Fd(const Directory& directory) { return Descriptor(directory.native_); }
  static void Adopt(Directory* directory, int fd, std::string path) {
    *directory = Directory();
    directory->native_ = fd;
    directory->path_ = std::move(path);
  }
};

namespace {

constexpr int kDirectoryFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;

// A name of one entry: not empty, no '/', not "." or "..".
bool IsEntryName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

SystemResult NotAnEntryName() {
  SystemResult result = Failure(EINVAL);
  result.text = "not a single path component";
  return result;
}

// The failure of an open with O_NOFOLLOW of `name` relative to `at` (at < 0 and not
// AT_FDCWD: links were followed): a symbolic link there is kUnresolvable, whatever the
// system said (Linux says ENOTDIR with O_DIRECTORY, others ELOOP, EMLINK or EFTYPE).
SystemResult OpenFailure(int error, int at, const std::string& name) {
  if (at >= 0 || at == AT_FDCWD) {
    struct stat st;
    if (::fstatat(at, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) error = ELOOP;
  }
  return Failure(error);
}

}  // namespace

Directory::~Directory() {
  if (is_open()) ::close(Descriptor(native_));
}

Directory::Directory(Directory&& other) noexcept
    : native_(other.native_), path_(std::move(other.path_)), pins_(std::move(other.pins_)) {
  other.native_ = kClosed;
}

Directory& Directory::operator=(Directory&& other) noexcept {
  if (this != &other) {
    if (is_open()) ::close(Descriptor(native_));
    native_ = other.native_;
    path_ = std::move(other.path_);
    pins_ = std::move(other.pins_);
    other.native_ = kClosed;
  }
  return *this;
}

SystemResult Directory::Open(const std::string& path, bool follow_links, Directory* out) {
  const int fd = ::open(path.c_str(), kDirectoryFlags | (follow_links ? 0 : O_NOFOLLOW));
  if (fd < 0) return OpenFailure(errno, follow_links ? -1 : AT_FDCWD, path);
  DirectoryAccess::Adopt(out, fd, path);
  return {};
}

SystemResult Directory::Status(FileStatus* out) const {
  struct stat st;
  if (::fstat(Descriptor(native_), &st) != 0) return LastFailure();
  Fill(st, out);
  return {};
}

SystemResult Directory::List(std::vector<std::string>* names) const {
  names->clear();
  // fdopendir takes the descriptor over: a duplicate, rewound (it shares the offset).
  const int fd = ::fcntl(Descriptor(native_), F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return LastFailure();
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::fdopendir(fd), ::closedir);
  if (!dir) {
    const int saved = errno;
    ::close(fd);
    return Failure(saved);
  }
  ::rewinddir(dir.get());
  for (;;) {
    errno = 0;
    const dirent* entry = ::readdir(dir.get());
    if (entry == nullptr) {
      if (errno != 0) return LastFailure();
      return {};
    }
    if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
    names->emplace_back(entry->d_name);
  }
}

SystemResult Directory::ChildStatus(const std::string& name, FileStatus* out) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  struct stat st;
  if (::fstatat(Descriptor(native_), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return LastFailure();
  Fill(st, out);
  return {};
}

SystemResult Directory::OpenChild(const std::string& name, Directory* out) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  const int fd = ::openat(Descriptor(native_), name.c_str(), kDirectoryFlags | O_NOFOLLOW);
  if (fd < 0) return OpenFailure(errno, Descriptor(native_), name);
  DirectoryAccess::Adopt(out, fd, path_ + "/" + name);
  return {};
}

SystemResult Directory::MakeChild(const std::string& name) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  return ::mkdirat(Descriptor(native_), name.c_str(), 0777) == 0 ? SystemResult{} : LastFailure();
}

SystemResult Directory::CreateChildExclusive(const std::string& name, File* out) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  const int fd = ::openat(Descriptor(native_), name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return LastFailure();
  FileAccess::Adopt(out, fd);
  return {};
}

SystemResult Directory::RemoveChild(const std::string& name) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  return ::unlinkat(Descriptor(native_), name.c_str(), 0) == 0 ? SystemResult{} : LastFailure();
}

SystemResult Directory::RemoveEmptyChild(const std::string& name) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  return ::unlinkat(Descriptor(native_), name.c_str(), AT_REMOVEDIR) == 0 ? SystemResult{} : LastFailure();
}

SystemResult Directory::SyncChild(const std::string& name) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  const int fd = ::openat(Descriptor(native_), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return OpenFailure(errno, Descriptor(native_), name);
  File file;
  FileAccess::Adopt(&file, fd);
  FileStatus status;
  if (SystemResult seen = file.Status(&status); !seen.ok() || status.type != FileType::kRegular) return seen;
  return file.Sync();
}

SystemResult Directory::Sync() const {
  // Some file systems cannot fsync a directory (EINVAL); the data itself was synced.
  if (::fsync(Descriptor(native_)) != 0 && errno != EINVAL) return LastFailure();
  return {};
}

SystemResult MoveBetween(const Directory& from, const std::string& from_name, const Directory& to,
                         const std::string& to_name, bool replace) {
  if (!IsEntryName(from_name) || !IsEntryName(to_name)) return NotAnEntryName();
  const int from_fd = DirectoryAccess::Fd(from);
  const int to_fd = DirectoryAccess::Fd(to);
  if (replace) {
    return ::renameat(from_fd, from_name.c_str(), to_fd, to_name.c_str()) == 0 ? SystemResult{} : LastFailure();
  }
#ifdef __EMSCRIPTEN__
  // Emscripten has neither renameat2 nor linkat: a checked rename, atomic within the module
  // (one thread, and its in-memory file system its own), as RenameNoReplace does.
  struct stat existing;
  if (::fstatat(to_fd, to_name.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0) return Failure(EEXIST);
  return ::renameat(from_fd, from_name.c_str(), to_fd, to_name.c_str()) == 0 ? SystemResult{} : LastFailure();
#elif defined(RENAME_NOREPLACE)
  if (::renameat2(from_fd, from_name.c_str(), to_fd, to_name.c_str(), RENAME_NOREPLACE) == 0) return {};
  return LastFailure();
#else
  return Failure(ENOSYS);
#endif
}

SystemResult LinkBetween(const Directory& from, const std::string& from_name, const Directory& to,
                         const std::string& to_name) {
  if (!IsEntryName(from_name) || !IsEntryName(to_name)) return NotAnEntryName();
  return ::linkat(DirectoryAccess::Fd(from), from_name.c_str(), DirectoryAccess::Fd(to), to_name.c_str(), 0) == 0
             ? SystemResult{}
             : LastFailure();
}

SystemResult RenameReplacing(const std::string& from, const std::string& to) {
  return ::rename(from.c_str(), to.c_str()) == 0 ? SystemResult{} : LastFailure();
}

namespace {

// renameat2 with `flags` (Linux); ENOSYS where the system has no renameat2.
SystemResult RenameWithFlags(const std::string& from, const std::string& to, unsigned flags) {
#ifdef RENAME_NOREPLACE
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), flags) == 0) return {};
  return LastFailure();
#else
  (void)from;
  (void)to;
  (void)flags;
  return Failure(ENOSYS);
#endif
}

}  // namespace

SystemResult RenameNoReplace(const std::string& from, const std::string& to) {
#ifdef __EMSCRIPTEN__
  // Emscripten has neither renameat2 nor link(): a checked rename, atomic within the module
  // (one thread, and its in-memory file system its own).
  struct stat existing;
  if (::lstat(to.c_str(), &existing) == 0) return Failure(EEXIST);
  return ::rename(from.c_str(), to.c_str()) == 0 ? SystemResult{} : LastFailure();
#elif defined(RENAME_NOREPLACE)
  return RenameWithFlags(from, to, RENAME_NOREPLACE);
#else
  return RenameWithFlags(from, to, 0);
#endif
}

SystemResult HardLink(const std::string& from, const std::string& to) {
  return ::link(from.c_str(), to.c_str()) == 0 ? SystemResult{} : LastFailure();
}

SystemResult ExchangePaths(const std::string& a, const std::string& b) {
#ifdef RENAME_EXCHANGE
  return RenameWithFlags(a, b, RENAME_EXCHANGE);
#else
  return RenameWithFlags(a, b, 0);
#endif
}

SystemResult SetDirectoryPermissions(const std::string& path, uint32_t permissions) {
  const int tree = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  const int rc = tree < 0 ? -1 : ::fchmod(tree, static_cast<mode_t>(permissions & 07777));
  const int saved = errno;
  if (tree >= 0) ::close(tree);
  return rc == 0 ? SystemResult{} : Failure(saved);
}

SystemResult MakeTempDirectory(const std::string& prefix, std::string* made) {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string pattern = std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") + "/" + prefix + "XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    SystemResult failure = LastFailure();
    failure.text = "in " + pattern + ": " + failure.text;
    return failure;
  }
  *made = pattern;
  return {};
}

std::string DeviceNameError(const std::string& path) {
  (void)path;
  return "";
}

uint64_t OpenFileLimit() {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  return static_cast<uint64_t>(limit.rlim_cur);
}

void* MapLargeArray(size_t bytes, bool populate) {
#ifdef MAP_ANONYMOUS
#if defined(MAP_POPULATE) && !defined(__EMSCRIPTEN__)
  const int populate_flag = populate ? MAP_POPULATE : 0;
#else
  const int populate_flag = 0;
  (void)populate;
#endif
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | populate_flag, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  return p;
#else
  (void)populate;
  return std::malloc(bytes);
#endif
}

void UnmapLargeArray(void* data, size_t bytes) {
#ifdef MAP_ANONYMOUS
  ::munmap(data, bytes);
#else
  (void)bytes;
  std::free(data);
#endif
}

void ReleaseFreeMemory() {
#ifdef __GLIBC__
  ::malloc_trim(0);
#endif
}

std::vector<std::string> SharedLibraryNames(const std::string& stem, int version) {
#ifdef __APPLE__
  return {"lib" + stem + "." + std::to_string(version) + ".dylib", "lib" + stem + ".dylib"};
#else
  return {"lib" + stem + ".so." + std::to_string(version)};
#endif
}

void* LoadSharedLibrary(const std::string& name, std::string* error) {
  void* handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) *error = ::dlerror();
  return handle;
}

void* FindSharedLibrarySymbol(void* library, const char* name) { return ::dlsym(library, name); }

}  // namespace parquet::platform

#endif  // !_WIN32
