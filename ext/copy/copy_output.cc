// Atomic placement of parquet_copy's output (see copy_output.h).
#include "ext/copy/copy_output.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

#include "format/io/random_access_file.h"

namespace sqlite_parquet {

namespace {

constexpr int kMaxTempAttempts = 10000;

std::string ErrnoText(int error) { return std::strerror(error); }

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Throws unless every entry under `path` is a partition directory (recursively checked) or
// a .parquet file.
void CheckReplaceableTree(const std::string& target, const std::string& path) {
  std::error_code error;
  std::filesystem::directory_iterator it(path, error);
  if (error) throw CopyError("cannot read directory '" + path + "': " + error.message());
  for (; it != std::filesystem::directory_iterator(); it.increment(error)) {
    if (error) throw CopyError("cannot read directory '" + path + "': " + error.message());
    const std::string name = it->path().filename().string();
    const std::filesystem::file_status status = it->symlink_status();
    if (std::filesystem::is_directory(status) && IsPartitionDirectoryName(name)) {
      CheckReplaceableTree(target, it->path().string());
    } else if (!(std::filesystem::is_regular_file(status) && EndsWith(name, ".parquet") && name[0] != '.')) {
      throw CopyError("refusing to replace directory '" + target + "': it holds '" + it->path().string() +
                      "', which parquet_copy does not write (remove it, or write elsewhere)");
    }
  }
  if (error) throw CopyError("cannot read directory '" + path + "': " + error.message());
}

void SyncTree(const std::string& path) {
  std::error_code error;
  for (std::filesystem::recursive_directory_iterator it(path, error), end; !error && it != end; it.increment(error)) {
    if (it->is_regular_file() || it->is_directory()) SyncPath(it->path().string());
  }
  if (error) throw CopyError("cannot read directory '" + path + "': " + error.message());
  SyncPath(path);
}

}  // namespace

bool IsPartitionDirectoryName(const std::string& name) {
  const size_t equals = name.find('=');
  return equals != std::string::npos && equals > 0 && equals + 1 < name.size() && name[0] != '.';
}

void SyncPath(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw CopyError("cannot open '" + path + "' to sync it: " + ErrnoText(errno));
  const int rc = ::fsync(fd);
  const int saved = errno;
  ::close(fd);
  // Some file systems cannot fsync a directory (EINVAL); the data itself was synced.
  if (rc != 0 && saved != EINVAL) throw CopyError("cannot sync '" + path + "': " + ErrnoText(saved));
}

int CreateExclusiveFile(const std::string& path) {
  if (std::string error = parquet::PathNulByteError(path); !error.empty()) throw CopyError(error);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) throw CopyError("cannot create '" + path + "': " + ErrnoText(errno));
  return fd;
}

StagedOutput::StagedOutput(const std::string& target, Kind kind, bool overwrite)
    : target_(target), kind_(kind), overwrite_(overwrite) {
  if (std::string error = parquet::PathNulByteError(target); !error.empty()) throw CopyError(error);
  while (target_.size() > 1 && target_.back() == '/') target_.pop_back();
  const size_t slash = target_.rfind('/');
  if (slash == std::string::npos) {
    directory_ = ".";
    name_ = target_;
  } else {
    directory_ = slash == 0 ? "/" : target_.substr(0, slash);
    name_ = target_.substr(slash + 1);
  }
  if (name_.empty() || name_ == "." || name_ == ".." || target_ == "/") {
    throw CopyError("cannot write to '" + target + "': it does not name a file");
  }

  struct stat info;
  if (kind_ == Kind::kAppend) {
    if (::stat(target_.c_str(), &info) == 0 && !S_ISDIR(info.st_mode)) {
      throw CopyError("'" + target_ + "' exists and is not a directory (append=1 adds files to a directory)");
    }
  } else if (::stat(target_.c_str(), &info) == 0) {
    if (!overwrite_) {
      throw CopyError("'" + target_ + "' already exists (overwrite=0)");
    }
    if (kind_ == Kind::kFile && S_ISDIR(info.st_mode)) {
      throw CopyError("'" + target_ + "' is a directory");
    }
    if (kind_ == Kind::kDirectory) {
      if (!S_ISDIR(info.st_mode)) throw CopyError("'" + target_ + "' exists and is not a directory");
      CheckReplaceableTree(target_, target_);
    }
  } else if (errno != ENOENT) {
    throw CopyError("cannot write to '" + target_ + "': " + ErrnoText(errno));
  }

  const std::string prefix = (directory_ == "/" ? std::string("/") : directory_ + "/") + "." + name_ + ".parquet_copy-";
  for (int attempt = 0; attempt < kMaxTempAttempts; ++attempt) {
    const std::string candidate = prefix + std::to_string(attempt) + ".tmp";
    if (kind_ == Kind::kFile) {
      // Kept open: the file is only ever used through this descriptor (see the header).
      const int fd = ::open(candidate.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (fd >= 0) {
        temp_fd_ = fd;
        temp_path_ = candidate;
        return;
      }
    } else if (::mkdir(candidate.c_str(), 0777) == 0) {
      temp_path_ = candidate;
      return;
    }
    if (errno == ENOENT) throw CopyError("cannot write to '" + target_ + "': directory '" + directory_ + "' does not exist");
    if (errno != EEXIST) {
      throw CopyError("cannot create a temporary " + std::string(kind_ == Kind::kFile ? "file" : "directory") +
                      " beside '" + target_ + "': " + ErrnoText(errno));
    }
  }
  throw CopyError("cannot create a temporary file beside '" + target_ + "': too many leftover temporary files");
}

StagedOutput::~StagedOutput() {
  Abandon();
  if (temp_fd_ >= 0) ::close(temp_fd_);
}

int StagedOutput::DuplicateTempFile() const {
  if (temp_fd_ < 0) throw CopyError("the output for '" + target_ + "' has no temporary file");
  const int fd = ::fcntl(temp_fd_, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) throw CopyError("cannot write the temporary file of '" + target_ + "': " + ErrnoText(errno));
  return fd;
}

void StagedOutput::Abandon() noexcept {
  if (done_ || temp_path_.empty()) return;
  done_ = true;
  if (kind_ == Kind::kFile) {
    ::unlink(temp_path_.c_str());
  } else {
    std::error_code ignored;
    std::filesystem::remove_all(temp_path_, ignored);
  }
}

void StagedOutput::Commit() {
  if (done_) throw CopyError("the output for '" + target_ + "' was already finished");
  if (kind_ == Kind::kFile) {
    CommitFile();
  } else if (kind_ == Kind::kAppend) {
    CommitAppend();
  } else {
    CommitDirectory();
  }
  done_ = true;
  try {
    SyncPath(directory_);
  } catch (const CopyError&) {
    // The result is in place; a directory that cannot be synced is not worth failing for.
  }
}

void StagedOutput::CommitFile() {
  if (::fsync(temp_fd_) != 0) throw CopyError("cannot sync '" + temp_path_ + "': " + ErrnoText(errno));
  struct stat written;
  struct stat at_name;
  if (::fstat(temp_fd_, &written) != 0 || ::lstat(temp_path_.c_str(), &at_name) != 0 ||
      written.st_dev != at_name.st_dev || written.st_ino != at_name.st_ino) {
    throw CopyError("the temporary file '" + temp_path_ + "' was replaced while writing; '" + target_ +
                    "' is left as it was");
  }
  struct stat replaced;
  if (::stat(target_.c_str(), &replaced) == 0 && S_ISREG(replaced.st_mode)) {
    // Replacing a file must not widen who can read it: keep its owner and group where this
    // process may set them (root; or a group it belongs to), then its permission bits.
    if (::fchown(temp_fd_, replaced.st_uid, replaced.st_gid) != 0) {
      [[maybe_unused]] const int ignored = ::fchown(temp_fd_, static_cast<uid_t>(-1), replaced.st_gid);
    }
    if (::fchmod(temp_fd_, replaced.st_mode & 0777) != 0) {
      throw CopyError("cannot set the permissions of '" + temp_path_ + "': " + ErrnoText(errno));
    }
  }
  if (overwrite_) {
    if (::rename(temp_path_.c_str(), target_.c_str()) != 0) {
      throw CopyError("cannot move the output to '" + target_ + "': " + ErrnoText(errno));
    }
    return;
  }
  if (::renameat2(AT_FDCWD, temp_path_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE) == 0) return;
  if (errno == EEXIST) throw CopyError("'" + target_ + "' already exists (overwrite=0)");
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
    throw CopyError("cannot move the output to '" + target_ + "': " + ErrnoText(errno));
  }
  // No RENAME_NOREPLACE here: a hard link fails just the same when the target exists.
  if (::link(temp_path_.c_str(), target_.c_str()) == 0) {
    ::unlink(temp_path_.c_str());
    return;
  }
  if (errno == EEXIST) throw CopyError("'" + target_ + "' already exists (overwrite=0)");
  struct stat info;
  if (::stat(target_.c_str(), &info) == 0) throw CopyError("'" + target_ + "' already exists (overwrite=0)");
  if (::rename(temp_path_.c_str(), target_.c_str()) != 0) {
    throw CopyError("cannot move the output to '" + target_ + "': " + ErrnoText(errno));
  }
}

void StagedOutput::CommitDirectory() {
  SyncTree(temp_path_);
  struct stat info;
  const bool exists = ::stat(target_.c_str(), &info) == 0;
  if (!exists) {
    if (::renameat2(AT_FDCWD, temp_path_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE) == 0) return;
    if (errno == EEXIST || errno == ENOTEMPTY) throw CopyError("'" + target_ + "' appeared while writing it");
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
      throw CopyError("cannot move the output to '" + target_ + "': " + ErrnoText(errno));
    }
    if (::rename(temp_path_.c_str(), target_.c_str()) != 0) {
      throw CopyError("cannot move the output to '" + target_ + "': " + ErrnoText(errno));
    }
    return;
  }
  if (!overwrite_) throw CopyError("'" + target_ + "' already exists (overwrite=0)");
  if (!S_ISDIR(info.st_mode)) throw CopyError("'" + target_ + "' exists and is not a directory");
  CheckReplaceableTree(target_, target_);
  {
    const int tree = ::open(temp_path_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    const int rc = tree < 0 ? -1 : ::fchmod(tree, info.st_mode & 07777);
    const int saved = errno;
    if (tree >= 0) ::close(tree);
    if (rc != 0) throw CopyError("cannot set the permissions of '" + temp_path_ + "': " + ErrnoText(saved));
  }
  // Swap old and new in one step; the old tree is then at the temporary name.
  if (::renameat2(AT_FDCWD, temp_path_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) == 0) {
    std::error_code ignored;
    std::filesystem::remove_all(temp_path_, ignored);
    return;
  }
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
    throw CopyError("cannot move the output to '" + target_ + "': " + ErrnoText(errno));
  }
  // No exchange: move the old tree aside, the new one in, then delete the old one.
  std::string aside;
  for (int attempt = 0; attempt < kMaxTempAttempts && aside.empty(); ++attempt) {
    const std::string candidate =
        (directory_ == "/" ? std::string("/") : directory_ + "/") + "." + name_ + ".parquet_copy-old-" + std::to_string(attempt);
    struct stat unused;
    if (::lstat(candidate.c_str(), &unused) != 0 && errno == ENOENT) aside = candidate;
  }
  if (aside.empty() || ::rename(target_.c_str(), aside.c_str()) != 0) {
    throw CopyError("cannot move the old '" + target_ + "' aside: " + ErrnoText(errno));
  }
  if (::rename(temp_path_.c_str(), target_.c_str()) != 0) {
    const int saved = errno;
    ::rename(aside.c_str(), target_.c_str());
    throw CopyError("cannot move the output to '" + target_ + "': " + ErrnoText(saved));
  }
  std::error_code ignored;
  std::filesystem::remove_all(aside, ignored);
}

void StagedOutput::CommitAppend() {
  struct stat info;
  if (::stat(target_.c_str(), &info) != 0) {  // nothing to append to: the new tree is the target
    CommitDirectory();
    return;
  }
  if (!S_ISDIR(info.st_mode)) throw CopyError("'" + target_ + "' exists and is not a directory");
  SyncTree(temp_path_);
  // The new tree's entries first (moving files out while iterating would disturb it).
  std::vector<std::filesystem::directory_entry> entries;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(temp_path_)) entries.push_back(entry);
  std::vector<std::pair<std::string, std::string>> moved;  // (temporary, final)
  std::vector<std::string> made;                           // directories created in the target
  try {
    for (const auto& entry : entries) {
      const std::string relative = entry.path().lexically_relative(temp_path_).string();
      const std::string destination = target_ + "/" + relative;
      if (entry.is_directory()) {
        if (::mkdir(destination.c_str(), 0777) == 0) {
          made.push_back(destination);
        } else if (errno != EEXIST) {
          throw CopyError("cannot create directory '" + destination + "': " + ErrnoText(errno));
        }
        continue;
      }
      const std::string source = entry.path().string();
      if (::renameat2(AT_FDCWD, source.c_str(), AT_FDCWD, destination.c_str(), RENAME_NOREPLACE) != 0) {
        if (errno == EEXIST) throw CopyError("'" + destination + "' appeared while writing it");
        if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
          throw CopyError("cannot move the output to '" + destination + "': " + ErrnoText(errno));
        }
        if (::link(source.c_str(), destination.c_str()) != 0) {
          throw CopyError(errno == EEXIST ? "'" + destination + "' appeared while writing it"
                                          : "cannot move the output to '" + destination + "': " + ErrnoText(errno));
        }
        ::unlink(source.c_str());
      }
      moved.emplace_back(source, destination);
    }
    for (const auto& [source, destination] : moved) SyncPath(std::filesystem::path(destination).parent_path().string());
  } catch (...) {
    for (auto it = moved.rbegin(); it != moved.rend(); ++it) ::rename(it->second.c_str(), it->first.c_str());
    for (auto it = made.rbegin(); it != made.rend(); ++it) ::rmdir(it->c_str());
    throw;
  }
  std::error_code ignored;
  std::filesystem::remove_all(temp_path_, ignored);
}

}  // namespace sqlite_parquet
