// Atomic placement of parquet_copy's output: everything is written under a temporary name
// in the target's own directory and moved into place only when complete, so the target is
// either left as it was or replaced by a complete result. Pure C++ (POSIX calls, no
// sqlite3.h). Errors are thrown as CopyError with a lowercase message naming the path.
//
// Temporary names: ".<target name>.parquet_copy-<n>.tmp" with the smallest n >= 0 not in
// use (created with O_EXCL / mkdir, so concurrent copies never share one).
//
// A file target: the temporary file is created with O_EXCL | O_NOFOLLOW and only ever used
// through that descriptor (the writer gets a duplicate), never reopened by name, so a
// symlink swapped in at the temporary name cannot redirect the output. At Commit the
// descriptor is fsynced, given the permission bits (and, where allowed, the owner and
// group) of the file it replaces, checked to still be the file at the temporary name, and
// renamed over the target (or, with overwrite off, moved there only if the target still
// does not exist: renameat2 RENAME_NOREPLACE, else link + unlink); then the directory is
// fsynced. A new target keeps the mode the umask gives.
//
// Paths holding a NUL byte are refused (the system would cut them short).
//
// A directory target (partition_by): the temporary directory tree is fsynced and renamed
// into place. An existing target is replaced only with overwrite on, and only when it holds
// nothing but what parquet_copy writes (directories named key=value and *.parquet files),
// so a mistyped path cannot delete unrelated files; it is swapped with the new tree in one
// step (renameat2 RENAME_EXCHANGE) where the file system supports it, else moved aside and
// replaced (a short moment without the directory), then deleted. The new tree gets the old
// directory's permission bits. Files inside the temporary directory are created with
// StagedOutput::CreateInTree (below).
//
// Trees are walked through directory handles only (system.h Directory: openat with
// O_NOFOLLOW | O_DIRECTORY, fstatat, mkdirat, unlinkat, renameat2), each subdirectory
// opened checked to be the one listed: checking a tree before replacing it, syncing it,
// listing it, creating files in the temporary tree and deleting the old one never follow a
// symbolic link that someone able to write inside the tree swaps in while they run.
//
// Appending (append=1) to an existing directory: the temporary tree is fsynced, then each
// new file is moved into the target (its partition directories created as needed, with
// mkdirat and opened with O_NOFOLLOW from the target's own handle: a symbolic link planted
// in the target tree is refused, never written through), never over an existing name
// (RENAME_NOREPLACE, else link + unlink). If a move fails, the files
// already moved go back and the directories made are removed, so the target holds its old
// files only; the files already there are never touched.
#pragma once

#include <stdexcept>
#include <string>

#include "format/platform/system.h"

namespace sqlite_parquet {

class CopyError : public std::runtime_error {
 public:
  explicit CopyError(const std::string& message) : std::runtime_error(message) {}
};

class StagedOutput {
 public:
  // kAppend: a directory output whose files are added to the target directory (if it
  // exists) rather than replacing it.
  enum class Kind { kFile, kDirectory, kAppend };

  // Checks the target (overwrite off and it exists: error; a directory where a file is
  // wanted or the other way round: error) and creates the temporary file or directory.
  StagedOutput(const std::string& target, Kind kind, bool overwrite);
  // Removes the temporary file or tree unless Commit succeeded.
  ~StagedOutput();
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  const std::string& target() const { return target_; }
  const std::string& temp_path() const { return temp_path_; }
  // A second handle (the caller closes it) of the temporary file (Kind::kFile), open for
  // writing at offset 0.
  parquet::platform::File DuplicateTempFile() const;
  // Creates the file `relative` ("k=1/part-0.parquet") in the temporary tree (a directory
  // output), making its directories as needed, all through directory handles from the
  // temporary root: never through a symbolic link put in the tree (refused), and the new
  // file exclusively (O_EXCL | O_NOFOLLOW). Returns it open for reading and writing.
  parquet::platform::File CreateInTree(const std::string& relative) const;

  // Makes the temporary output durable and moves it to the target.
  void Commit();
  // Removes the temporary output now (also done by the destructor).
  void Abandon() noexcept;

 private:
  void CommitFile();
  void CommitDirectory();
  void CommitAppend();
  // `name` in the target's directory.
  std::string Beside(const std::string& name) const;

  std::string target_;
  std::string directory_;  // the directory holding target and temporary ("." if none given)
  std::string name_;       // the target's last path component
  std::string temp_path_;
  parquet::platform::File temp_file_;  // Kind::kFile: the handle the temporary file was created with
  Kind kind_;
  bool overwrite_;
  bool done_ = false;
};

// Whether `name` is a path component a partition directory may have: "key=value".
bool IsPartitionDirectoryName(const std::string& name);

// Fsyncs a file or directory; throws CopyError on failure.
void SyncPath(const std::string& path);

// Creates `path`, which must not exist (O_EXCL; a symlink there is not followed), and
// returns it open for reading and writing (parquet_copy reads its files back through a
// duplicate). Throws CopyError.
parquet::platform::File CreateExclusiveFile(const std::string& path);

}  // namespace sqlite_parquet
