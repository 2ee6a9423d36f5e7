// The operating system interface (system.h) on Windows: HANDLEs with ReadFile/WriteFile at
// explicit offsets, GetFileInformationByHandle for identity (volume serial + file index),
// MoveFileExW for the atomic replace, FindFirstFileExW for listings, LoadLibraryW. Paths
// arrive as UTF-8 and are converted to UTF-16 here; long absolute paths get the \\?\ prefix.
// Files are opened sharing read, write and delete, so a reader never blocks a replace.
#ifdef _WIN32

#include "format/platform/system.h"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <utility>

namespace parquet::platform {

namespace {

constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
// How long a replace waits for another process that holds the old file without sharing
// its deletion (an antivirus scan, an indexer, a reader that did not share delete).
constexpr DWORD kReplaceRetryMilliseconds = 2000;

std::wstring Widen(const std::string& text) {
  if (text.empty()) return std::wstring();
  const int length = MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), nullptr, 0);
  std::wstring wide(static_cast<size_t>(length), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), wide.data(), length);
  return wide;
}

std::string Narrow(const wchar_t* text, size_t size) {
  if (size == 0) return std::string();
  const int length = WideCharToMultiByte(CP_UTF8, 0, text, static_cast<int>(size), nullptr, 0, nullptr, nullptr);
  std::string narrow(static_cast<size_t>(length), '\0');
  WideCharToMultiByte(CP_UTF8, 0, text, static_cast<int>(size), narrow.data(), length, nullptr, nullptr);
  return narrow;
}

// The UTF-16 path for a system call: as given, unless it is too long for the classic API,
// then made absolute and prefixed with \\?\ (\\?\UNC\ for \\server\share paths).
std::wstring SystemPath(const std::string& path) {
  std::wstring wide = Widen(path);
  if (wide.rfind(L"\\\\?\\", 0) == 0) {
    // The system takes such a path as it is: a joined "/" must become a backslash here.
    std::replace(wide.begin(), wide.end(), L'/', L'\\');
    return wide;
  }
  if (wide.size() < MAX_PATH - 12) return wide;
  const DWORD needed = GetFullPathNameW(wide.c_str(), 0, nullptr, nullptr);
  if (needed == 0) return wide;
  std::wstring full(needed, L'\0');
  const DWORD written = GetFullPathNameW(wide.c_str(), needed, full.data(), nullptr);
  if (written == 0 || written >= needed) return wide;
  full.resize(written);
  if (full.rfind(L"\\\\", 0) == 0) return L"\\\\?\\UNC\\" + full.substr(2);
  return L"\\\\?\\" + full;
}

SystemResult Failure(DWORD error) {
  SystemResult result;
  switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:  // a name no file can have, e.g. a glob's "*.parquet"
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_NET_NAME: result.kind = SystemResult::Kind::kNotFound; break;
    case ERROR_DIRECTORY: result.kind = SystemResult::Kind::kNotDirectory; break;
    case ERROR_FILENAME_EXCED_RANGE:
    case ERROR_CANT_RESOLVE_FILENAME: result.kind = SystemResult::Kind::kUnresolvable; break;
    case ERROR_ALREADY_EXISTS:
    case ERROR_FILE_EXISTS:
    case ERROR_DIR_NOT_EMPTY: result.kind = SystemResult::Kind::kExists; break;
    case ERROR_NOT_SUPPORTED:
    case ERROR_INVALID_FUNCTION:
    case ERROR_CALL_NOT_IMPLEMENTED: result.kind = SystemResult::Kind::kNotSupported; break;
    default: result.kind = SystemResult::Kind::kOther; break;
  }
  wchar_t* message = nullptr;
  const DWORD length =
      FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                     nullptr, error, 0, reinterpret_cast<wchar_t*>(&message), 0, nullptr);
  if (length > 0 && message != nullptr) {
    result.text = Narrow(message, length);
    while (!result.text.empty() && (result.text.back() == '\n' || result.text.back() == '\r' ||
                                    result.text.back() == ' ' || result.text.back() == '.')) {
      result.text.pop_back();
    }
  }
  if (message != nullptr) LocalFree(message);
  if (result.text.empty()) result.text = "windows error " + std::to_string(error);
  // The same words as on Linux where the meaning is the same, so messages (and the tests
  // that check them) do not depend on the system.
  if (result.kind == SystemResult::Kind::kNotFound) result.text = "No such file or directory";
  if (result.kind == SystemResult::Kind::kNotDirectory) result.text = "Not a directory";
  if (error == ERROR_ALREADY_EXISTS || error == ERROR_FILE_EXISTS) result.text = "File exists";
  return result;
}

SystemResult LastFailure() { return Failure(GetLastError()); }

// The last error of a call on `path`. Windows says "path not found" also when a component
// of the path is a file; POSIX says ENOTDIR then, and so does this (kNotDirectory), found
// by looking at the path's parents up to the first that exists.
SystemResult PathFailure(const std::string& path) {
  const DWORD error = GetLastError();
  if (error != ERROR_PATH_NOT_FOUND) return Failure(error);
  const size_t root = WindowsRootLength(path);
  std::string parent = path;
  for (;;) {
    while (parent.size() > root && (parent.back() == '/' || parent.back() == '\\')) parent.pop_back();
    const size_t separator = parent.find_last_of("/\\");
    if (separator == std::string::npos || separator < root || parent.size() <= root) break;
    parent.resize(separator);
    if (parent.size() <= root) break;
    const DWORD attributes = GetFileAttributesW(SystemPath(parent).c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES) continue;
    if ((attributes & FILE_ATTRIBUTE_DIRECTORY) == 0) return Failure(ERROR_DIRECTORY);
    break;
  }
  return Failure(error);
}

HANDLE Handle(intptr_t native) { return reinterpret_cast<HANDLE>(native); }

// 100 ns ticks since 1601 to seconds and nanoseconds since 1970.
void FillTime(const FILETIME& time, FileStatus* out) {
  const uint64_t ticks = (static_cast<uint64_t>(time.dwHighDateTime) << 32) | time.dwLowDateTime;
  constexpr uint64_t kUnixEpochTicks = 116444736000000000ULL;
  const int64_t since_epoch = static_cast<int64_t>(ticks - kUnixEpochTicks);
  out->modified_seconds = since_epoch / 10000000;
  out->modified_nanoseconds = (since_epoch % 10000000) * 100;
}

SystemResult StatusOfHandle(HANDLE handle, FileStatus* out) {
  BY_HANDLE_FILE_INFORMATION info;
  const DWORD kind = GetFileType(handle);
  if (kind != FILE_TYPE_DISK) {
    *out = FileStatus();
    out->type = FileType::kOther;
    return {};
  }
  if (!GetFileInformationByHandle(handle, &info)) return LastFailure();
  out->type = (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0 ? FileType::kSymbolicLink
              : (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0  ? FileType::kDirectory
                                                                          : FileType::kRegular;
  out->size = (static_cast<uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
  out->identity = {info.dwVolumeSerialNumber, (static_cast<uint64_t>(info.nFileIndexHigh) << 32) | info.nFileIndexLow};
  FillTime(info.ftLastWriteTime, out);
  out->permissions = 0;
  out->owner = 0;
  out->group = 0;
  return {};
}

// Opens with CreateFileW; the handle or INVALID_HANDLE_VALUE.
HANDLE Open(const std::string& path, DWORD access, DWORD share, DWORD disposition, DWORD flags) {
  return CreateFileW(SystemPath(path).c_str(), access, share, nullptr, disposition, flags, nullptr);
}

// A unique-enough suffix for names made here: process id, a counter and the clock.
std::string UniqueSuffix() {
  static std::atomic<uint32_t> counter{0};
  return std::to_string(GetCurrentProcessId()) + "-" + std::to_string(counter.fetch_add(1)) + "-" +
         std::to_string(GetTickCount64());
}

}  // namespace

struct FileAccess {
  static HANDLE Get(const File& file) { return Handle(file.native_); }
  static void Adopt(File* file, HANDLE handle) {
    *file = File();
    file->native_ = reinterpret_cast<intptr_t>(handle);
  }
};

File::~File() {
  if (is_open()) CloseHandle(Handle(native_));
}

File& File::operator=(File&& other) noexcept {
  if (this != &other) {
    if (is_open()) CloseHandle(Handle(native_));
    native_ = other.native_;
    other.native_ = kClosed;
  }
  return *this;
}

SystemResult File::ReadAt(uint64_t offset, void* out, size_t length, size_t* got) const {
  OVERLAPPED at{};
  at.Offset = static_cast<DWORD>(offset);
  at.OffsetHigh = static_cast<DWORD>(offset >> 32);
  const DWORD chunk = static_cast<DWORD>(std::min<size_t>(length, 1u << 30));
  DWORD read = 0;
  if (!ReadFile(Handle(native_), out, chunk, &read, &at)) {
    const DWORD error = GetLastError();
    if (error == ERROR_HANDLE_EOF) {
      *got = 0;
      return {};
    }
    return Failure(error);
  }
  *got = read;
  return {};
}

SystemResult File::Write(const void* data, size_t size) {
  const char* pos = static_cast<const char*>(data);
  while (size > 0) {
    DWORD written = 0;
    const DWORD chunk = static_cast<DWORD>(std::min<size_t>(size, 1u << 30));
    if (!WriteFile(Handle(native_), pos, chunk, &written, nullptr)) return LastFailure();
    pos += written;
    size -= written;
  }
  return {};
}

SystemResult File::WriteAt(uint64_t offset, const void* data, size_t size) {
  const char* pos = static_cast<const char*>(data);
  while (size > 0) {
    OVERLAPPED at{};
    at.Offset = static_cast<DWORD>(offset);
    at.OffsetHigh = static_cast<DWORD>(offset >> 32);
    DWORD written = 0;
    const DWORD chunk = static_cast<DWORD>(std::min<size_t>(size, 1u << 30));
    if (!WriteFile(Handle(native_), pos, chunk, &written, &at)) return LastFailure();
    pos += written;
    size -= written;
    offset += written;
  }
  return {};
}

SystemResult File::Sync() { return FlushFileBuffers(Handle(native_)) ? SystemResult{} : LastFailure(); }

SystemResult File::Truncate(uint64_t size) {
  FILE_END_OF_FILE_INFO end{};
  end.EndOfFile.QuadPart = static_cast<LONGLONG>(size);
  if (!SetFileInformationByHandle(Handle(native_), FileEndOfFileInfo, &end, sizeof(end))) return LastFailure();
  return {};
}

SystemResult File::Status(FileStatus* out) const { return StatusOfHandle(Handle(native_), out); }

SystemResult File::Duplicate(File* out) const {
  HANDLE duplicate = nullptr;
  if (!DuplicateHandle(GetCurrentProcess(), Handle(native_), GetCurrentProcess(), &duplicate, 0, FALSE,
                       DUPLICATE_SAME_ACCESS)) {
    return LastFailure();
  }
  FileAccess::Adopt(out, duplicate);
  return {};
}

SystemResult File::TakePermissionsOf(const FileStatus& replaced) {
  (void)replaced;
  return {};
}

void File::StartWriteback(uint64_t from, uint64_t to) {
  (void)from;
  (void)to;
}

SystemResult File::Close() {
  if (!is_open()) return {};
  HANDLE handle = Handle(native_);
  native_ = kClosed;
  return CloseHandle(handle) ? SystemResult{} : LastFailure();
}

SystemResult OpenForReading(const std::string& path, File* out, FileStatus* status) {
  if (!DeviceNameError(path).empty()) {
    *status = FileStatus();
    status->type = FileType::kOther;
    return {};
  }
  // Backup semantics: a directory opens too, so the caller can say it is one.
  HANDLE handle = Open(path, GENERIC_READ, kShareAll, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS);
  if (handle == INVALID_HANDLE_VALUE) return PathFailure(path);
  File file;
  FileAccess::Adopt(&file, handle);
  SystemResult result = file.Status(status);
  if (!result.ok() || status->type != FileType::kRegular) return result;
  *out = std::move(file);
  return {};
}

SystemResult CreateForWriting(const std::string& path, File* out) {
  HANDLE handle = Open(path, GENERIC_WRITE | FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_DELETE, CREATE_ALWAYS,
                       FILE_ATTRIBUTE_NORMAL);
  if (handle == INVALID_HANDLE_VALUE) return PathFailure(path);
  FileAccess::Adopt(out, handle);
  return {};
}

SystemResult CreateExclusive(const std::string& path, File* out) {
  // CREATE_NEW fails on anything at the name, a symbolic link or junction included.
  HANDLE handle = Open(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, CREATE_NEW,
                       FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT);
  if (handle == INVALID_HANDLE_VALUE) return PathFailure(path);
  FileAccess::Adopt(out, handle);
  return {};
}

SystemResult CreateScratchFile(const std::string& directory, const std::string& beside, File* out) {
  (void)directory;
  for (int attempt = 0;; attempt++) {
    HANDLE handle = Open(beside + ".spill-" + UniqueSuffix(), GENERIC_READ | GENERIC_WRITE | DELETE, 0, CREATE_NEW,
                         FILE_ATTRIBUTE_TEMPORARY | FILE_ATTRIBUTE_HIDDEN | FILE_FLAG_DELETE_ON_CLOSE);
    if (handle != INVALID_HANDLE_VALUE) {
      FileAccess::Adopt(out, handle);
      return {};
    }
    const DWORD error = GetLastError();
    if (error != ERROR_FILE_EXISTS || attempt >= 100) return Failure(error);
  }
}

SystemResult CopyRange(const File& from, uint64_t offset, uint64_t size, File& to, bool* in_kernel) {
  *in_kernel = false;
  std::string buffer;
  while (size > 0) {
    buffer.resize(static_cast<size_t>(std::min<uint64_t>(size, 256 * 1024)));
    size_t got = 0;
    if (SystemResult read = from.ReadAt(offset, buffer.data(), buffer.size(), &got); !read.ok()) return read;
    if (got == 0) return Failure(ERROR_HANDLE_EOF);
    if (SystemResult written = to.Write(buffer.data(), got); !written.ok()) return written;
    offset += got;
    size -= got;
  }
  return {};
}

SystemResult PathStatus(const std::string& path, bool follow_links, FileStatus* out) {
  if (!DeviceNameError(path).empty()) {
    *out = FileStatus();
    out->type = FileType::kOther;
    return {};
  }
  HANDLE handle = Open(path, FILE_READ_ATTRIBUTES, kShareAll, OPEN_EXISTING,
                       FILE_FLAG_BACKUP_SEMANTICS | (follow_links ? 0 : FILE_FLAG_OPEN_REPARSE_POINT));
  if (handle == INVALID_HANDLE_VALUE) return PathFailure(path);
  const SystemResult result = StatusOfHandle(handle, out);
  CloseHandle(handle);
  return result;
}

SystemResult MakeDirectory(const std::string& path) {
  return CreateDirectoryW(SystemPath(path).c_str(), nullptr) ? SystemResult{} : PathFailure(path);
}

SystemResult RemoveFile(const std::string& path) {
  return DeleteFileW(SystemPath(path).c_str()) ? SystemResult{} : PathFailure(path);
}

SystemResult RemoveEmptyDirectory(const std::string& path) {
  return RemoveDirectoryW(SystemPath(path).c_str()) ? SystemResult{} : PathFailure(path);
}

SystemResult SyncPath(const std::string& path) {
  const DWORD attributes = GetFileAttributesW(SystemPath(path).c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES) return PathFailure(path);
  // Directories cannot be flushed on Windows; MOVEFILE_WRITE_THROUGH made the rename durable.
  if ((attributes & FILE_ATTRIBUTE_DIRECTORY) != 0) return {};
  HANDLE handle = Open(path, GENERIC_WRITE, kShareAll, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL);
  if (handle == INVALID_HANDLE_VALUE) return PathFailure(path);
  const bool flushed = FlushFileBuffers(handle) != 0;
  const DWORD error = GetLastError();
  CloseHandle(handle);
  return flushed ? SystemResult{} : Failure(error);
}

SystemResult ListDirectory(const std::string& directory, std::vector<std::string>* names) {
  names->clear();
  const DWORD attributes = GetFileAttributesW(SystemPath(directory).c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES) return PathFailure(directory);
  if ((attributes & FILE_ATTRIBUTE_DIRECTORY) == 0) return Failure(ERROR_DIRECTORY);
  const char last = directory.empty() ? '\\' : directory.back();
  const std::string pattern = directory + (last == '\\' || last == '/' || last == ':' ? "*" : "\\*");
  WIN32_FIND_DATAW entry;
  HANDLE find = FindFirstFileExW(SystemPath(pattern).c_str(), FindExInfoBasic, &entry, FindExSearchNameMatch, nullptr,
                                 FIND_FIRST_EX_LARGE_FETCH);
  if (find == INVALID_HANDLE_VALUE) {
    const DWORD error = GetLastError();
    return error == ERROR_FILE_NOT_FOUND ? SystemResult{} : Failure(error);
  }
  do {
    if (std::wcscmp(entry.cFileName, L".") == 0 || std::wcscmp(entry.cFileName, L"..") == 0) continue;
    names->push_back(Narrow(entry.cFileName, std::wcslen(entry.cFileName)));
  } while (FindNextFileW(find, &entry));
  const DWORD error = GetLastError();
  FindClose(find);
  return error == ERROR_NO_MORE_FILES ? SystemResult{} : Failure(error);
}

SystemResult RenameReplacing(const std::string& from, const std::string& to) {
  const std::wstring wide_from = SystemPath(from);
  const std::wstring wide_to = SystemPath(to);
  const ULONGLONG deadline = GetTickCount64() + kReplaceRetryMilliseconds;
  for (DWORD pause = 1;; pause = std::min<DWORD>(pause * 2, 100)) {
    if (MoveFileExW(wide_from.c_str(), wide_to.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) return {};
    const DWORD error = GetLastError();
    const bool held = error == ERROR_SHARING_VIOLATION || error == ERROR_ACCESS_DENIED || error == ERROR_LOCK_VIOLATION;
    if (!held || GetTickCount64() >= deadline) return Failure(error);
    Sleep(pause);
  }
}

SystemResult RenameNoReplace(const std::string& from, const std::string& to) {
  // Without MOVEFILE_REPLACE_EXISTING the move fails when anything is at the target.
  if (MoveFileExW(SystemPath(from).c_str(), SystemPath(to).c_str(), MOVEFILE_WRITE_THROUGH)) return {};
  return LastFailure();
}

SystemResult HardLink(const std::string& from, const std::string& to) {
  return CreateHardLinkW(SystemPath(to).c_str(), SystemPath(from).c_str(), nullptr) ? SystemResult{} : LastFailure();
}

SystemResult ExchangePaths(const std::string& a, const std::string& b) {
  (void)a;
  (void)b;
  return Failure(ERROR_NOT_SUPPORTED);
}

SystemResult SetDirectoryPermissions(const std::string& path, uint32_t permissions) {
  (void)path;
  (void)permissions;
  return {};
}

struct DirectoryAccess {
  static HANDLE Get(const Directory& directory) { return Handle(directory.native_); }
  static const std::string& Path(const Directory& directory) { return directory.path_; }
  static void Adopt(Directory* directory, HANDLE handle, std::string path, std::shared_ptr<void> pins) {
    *directory = Directory();
    directory->native_ = reinterpret_cast<intptr_t>(handle);
    directory->path_ = std::move(path);
    directory->pins_ = std::move(pins);
  }
};

namespace {

// A directory handle lists and reads attributes; it shares reading and writing but not
// deletion, so while it is open the directory cannot be renamed, moved or deleted.
constexpr DWORD kDirectoryAccess = FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES | SYNCHRONIZE;
constexpr DWORD kDirectoryShare = FILE_SHARE_READ | FILE_SHARE_WRITE;

// A duplicate of an open directory's handle and the pins above it: kept by each
// subdirectory opened through it.
struct DirectoryPin {
  HANDLE handle = INVALID_HANDLE_VALUE;
  std::shared_ptr<void> above;
  ~DirectoryPin() {
    if (handle != INVALID_HANDLE_VALUE) CloseHandle(handle);
  }
};

// A name of one entry: not empty, not "." or "..", no separator, drive colon or NUL.
bool IsEntryName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find_first_of(std::string("/\\:\0", 4)) == std::string::npos;
}

SystemResult NotAnEntryName() {
  SystemResult result = Failure(ERROR_INVALID_NAME);
  result.kind = SystemResult::Kind::kNotSupported;
  result.text = "not a single path component";
  return result;
}

SystemResult LinkFailure() {
  SystemResult result;
  result.kind = SystemResult::Kind::kUnresolvable;
  result.text = "a symbolic link or junction";
  return result;
}

std::string Child(const Directory& directory, const std::string& name) {
  return DirectoryAccess::Path(directory) + "\\" + name;
}

// Opens `path` as a directory (a reparse point itself when !follow_links, then refused).
SystemResult OpenDirectoryHandle(const std::string& path, bool follow_links, HANDLE* out) {
  HANDLE handle = Open(path, kDirectoryAccess, kDirectoryShare, OPEN_EXISTING,
                       FILE_FLAG_BACKUP_SEMANTICS | (follow_links ? 0 : FILE_FLAG_OPEN_REPARSE_POINT));
  if (handle == INVALID_HANDLE_VALUE) return PathFailure(path);
  BY_HANDLE_FILE_INFORMATION info;
  SystemResult result;
  if (!GetFileInformationByHandle(handle, &info)) {
    result = LastFailure();
  } else if ((info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0) {
    result = LinkFailure();
  } else if ((info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) == 0) {
    result = Failure(ERROR_DIRECTORY);
  }
  if (!result.ok()) {
    CloseHandle(handle);
    return result;
  }
  *out = handle;
  return {};
}

// Opens the entry `path` itself (a reparse point not followed) for deletion and fills *info.
HANDLE OpenForDeletion(const std::string& path, BY_HANDLE_FILE_INFORMATION* info) {
  HANDLE handle = Open(path, DELETE | FILE_READ_ATTRIBUTES | FILE_WRITE_ATTRIBUTES, kShareAll, OPEN_EXISTING,
                       FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT);
  if (handle == INVALID_HANDLE_VALUE) return handle;
  if (!GetFileInformationByHandle(handle, info)) {
    const DWORD error = GetLastError();
    CloseHandle(handle);
    SetLastError(error);
    return INVALID_HANDLE_VALUE;
  }
  return handle;
}

// Deletes the open entry by its handle (the name goes when the handle closes).
SystemResult DeleteByHandle(HANDLE handle, const BY_HANDLE_FILE_INFORMATION& info) {
  if ((info.dwFileAttributes & FILE_ATTRIBUTE_READONLY) != 0) {
    FILE_BASIC_INFO basic{};
    basic.FileAttributes = info.dwFileAttributes & ~FILE_ATTRIBUTE_READONLY;
    if (basic.FileAttributes == 0) basic.FileAttributes = FILE_ATTRIBUTE_NORMAL;
    SetFileInformationByHandle(handle, FileBasicInfo, &basic, sizeof(basic));
  }
  FILE_DISPOSITION_INFO disposition{};
  disposition.DeleteFile = TRUE;
  if (!SetFileInformationByHandle(handle, FileDispositionInfo, &disposition, sizeof(disposition))) return LastFailure();
  return {};
}

}  // namespace

Directory::~Directory() {
  if (is_open()) CloseHandle(Handle(native_));
}

Directory::Directory(Directory&& other) noexcept
    : native_(other.native_), path_(std::move(other.path_)), pins_(std::move(other.pins_)) {
  other.native_ = kClosed;
}

Directory& Directory::operator=(Directory&& other) noexcept {
  if (this != &other) {
    if (is_open()) CloseHandle(Handle(native_));
    native_ = other.native_;
    path_ = std::move(other.path_);
    pins_ = std::move(other.pins_);
    other.native_ = kClosed;
  }
  return *this;
}

SystemResult Directory::Open(const std::string& path, bool follow_links, Directory* out) {
  HANDLE handle = INVALID_HANDLE_VALUE;
  if (SystemResult opened = OpenDirectoryHandle(path, follow_links, &handle); !opened.ok()) return opened;
  DirectoryAccess::Adopt(out, handle, path, nullptr);
  return {};
}

SystemResult Directory::Status(FileStatus* out) const { return StatusOfHandle(Handle(native_), out); }

SystemResult Directory::List(std::vector<std::string>* names) const { return ListDirectory(path_, names); }

SystemResult Directory::ChildStatus(const std::string& name, FileStatus* out) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  return PathStatus(Child(*this, name), false, out);
}

SystemResult Directory::OpenChild(const std::string& name, Directory* out) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  auto pin = std::make_shared<DirectoryPin>();
  if (!DuplicateHandle(GetCurrentProcess(), Handle(native_), GetCurrentProcess(), &pin->handle, 0, FALSE,
                       DUPLICATE_SAME_ACCESS)) {
    pin->handle = INVALID_HANDLE_VALUE;
    return LastFailure();
  }
  pin->above = pins_;
  HANDLE handle = INVALID_HANDLE_VALUE;
  const std::string path = Child(*this, name);
  if (SystemResult opened = OpenDirectoryHandle(path, false, &handle); !opened.ok()) return opened;
  DirectoryAccess::Adopt(out, handle, path, std::move(pin));
  return {};
}

SystemResult Directory::MakeChild(const std::string& name) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  return MakeDirectory(Child(*this, name));
}

SystemResult Directory::CreateChildExclusive(const std::string& name, File* out) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  return CreateExclusive(Child(*this, name), out);
}

SystemResult Directory::RemoveChild(const std::string& name) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  const std::string path = Child(*this, name);
  BY_HANDLE_FILE_INFORMATION info;
  HANDLE handle = OpenForDeletion(path, &info);
  if (handle == INVALID_HANDLE_VALUE) return PathFailure(path);
  SystemResult result;
  if ((info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0 && (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) == 0) {
    result.kind = SystemResult::Kind::kOther;
    result.text = "Is a directory";
  } else {
    result = DeleteByHandle(handle, info);
  }
  CloseHandle(handle);
  return result;
}

SystemResult Directory::RemoveEmptyChild(const std::string& name) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  const std::string path = Child(*this, name);
  BY_HANDLE_FILE_INFORMATION info;
  HANDLE handle = OpenForDeletion(path, &info);
  if (handle == INVALID_HANDLE_VALUE) return PathFailure(path);
  // A directory link or junction is removed itself (its target is never touched).
  const SystemResult result =
      (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) == 0 ? Failure(ERROR_DIRECTORY) : DeleteByHandle(handle, info);
  CloseHandle(handle);
  return result;
}

SystemResult Directory::SyncChild(const std::string& name) const {
  if (!IsEntryName(name)) return NotAnEntryName();
  const std::string path = Child(*this, name);
  HANDLE handle = parquet::platform::Open(path, GENERIC_WRITE | FILE_READ_ATTRIBUTES, kShareAll, OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT);
  if (handle == INVALID_HANDLE_VALUE) return PathFailure(path);
  FileStatus status;
  SystemResult result = StatusOfHandle(handle, &status);
  if (result.ok() && status.type == FileType::kRegular && !FlushFileBuffers(handle)) result = LastFailure();
  CloseHandle(handle);
  return result;
}

// Directories cannot be flushed on Windows; MOVEFILE_WRITE_THROUGH made the moves durable.
SystemResult Directory::Sync() const { return {}; }

SystemResult MoveBetween(const Directory& from, const std::string& from_name, const Directory& to,
                         const std::string& to_name, bool replace) {
  if (!IsEntryName(from_name) || !IsEntryName(to_name)) return NotAnEntryName();
  if (replace) return RenameReplacing(Child(from, from_name), Child(to, to_name));
  return RenameNoReplace(Child(from, from_name), Child(to, to_name));
}

SystemResult LinkBetween(const Directory& from, const std::string& from_name, const Directory& to,
                         const std::string& to_name) {
  if (!IsEntryName(from_name) || !IsEntryName(to_name)) return NotAnEntryName();
  return HardLink(Child(from, from_name), Child(to, to_name));
}

SystemResult MakeTempDirectory(const std::string& prefix, std::string* made) {
  wchar_t buffer[MAX_PATH + 1];
  const DWORD length = GetTempPathW(MAX_PATH + 1, buffer);
  if (length == 0 || length > MAX_PATH) return LastFailure();
  const std::string base = Narrow(buffer, length);
  for (int attempt = 0;; attempt++) {
    const std::string candidate = base + prefix + UniqueSuffix();
    if (CreateDirectoryW(SystemPath(candidate).c_str(), nullptr)) {
      *made = candidate;
      return {};
    }
    const DWORD error = GetLastError();
    if (error != ERROR_ALREADY_EXISTS || attempt >= 100) {
      SystemResult failure = Failure(error);
      failure.text = "in " + base + ": " + failure.text;
      return failure;
    }
  }
}

std::string DeviceNameError(const std::string& path) { return WindowsDeviceNameError(path); }

uint64_t OpenFileLimit() { return 0; }

void* MapLargeArray(size_t bytes, bool populate) {
  (void)populate;
  return VirtualAlloc(nullptr, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void UnmapLargeArray(void* data, size_t bytes) {
  (void)bytes;
  VirtualFree(data, 0, MEM_RELEASE);
}

void ReleaseFreeMemory() {}

std::vector<std::string> SharedLibraryNames(const std::string& stem, int version) {
  return {"lib" + stem + "-x64.dll", "lib" + stem + ".dll", "lib" + stem + "-" + std::to_string(version) + ".dll"};
}

void* LoadSharedLibrary(const std::string& name, std::string* error) {
  HMODULE module = LoadLibraryW(Widen(name).c_str());
  if (module == nullptr) *error = LastFailure().text;
  return reinterpret_cast<void*>(module);
}

void* FindSharedLibrarySymbol(void* library, const char* name) {
  FARPROC symbol = GetProcAddress(reinterpret_cast<HMODULE>(library), name);
  void* address = nullptr;
  static_assert(sizeof(address) == sizeof(symbol));
  std::memcpy(&address, &symbol, sizeof(address));
  return address;
}

}  // namespace parquet::platform

#endif  // _WIN32
