// Atomic placement of parquet_copy's output (see copy_output.h).
#include "ext/copy/copy_output.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "format/io/random_access_file.h"

namespace sqlite_parquet {

namespace {

namespace platform = parquet::platform;

constexpr int kMaxTempAttempts = 10000;

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The directory `path` (the caller's path, taken as it resolves: follow_links) or throws.
platform::Directory OpenTreeRoot(const std::string& path, bool follow_links) {
  platform::Directory root;
  if (platform::SystemResult opened = platform::Directory::Open(path, follow_links, &root); !opened.ok()) {
    throw CopyError("cannot read directory '" + path + "': " + opened.text);
  }
  return root;
}

// The names in `directory`, sorted, or throws.
std::vector<std::string> SortedEntries(const platform::Directory& directory) {
  std::vector<std::string> names;
  if (platform::SystemResult listed = directory.List(&names); !listed.ok()) {
    throw CopyError("cannot read directory '" + directory.path() + "': " + listed.text);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The subdirectory `name` of `parent`, the one whose status was `listed`, or throws. A link
// put there (or anything else than what was listed) is an error: these walks never follow one.
platform::Directory OpenListedChild(const platform::Directory& parent, const std::string& name,
                                    const platform::FileStatus& listed) {
  platform::Directory child;
  platform::FileStatus opened;
  const platform::SystemResult result = parent.OpenChild(name, &child);
  if (!result.ok() || !child.Status(&opened).ok() || !(opened.identity == listed.identity)) {
    throw CopyError("directory '" + parent.path() + "/" + name + "' changed while parquet_copy read it" +
                    (result.ok() ? std::string() : ": " + result.text));
  }
  return child;
}

// Throws unless every entry under `directory` is a partition directory (recursively
// checked) or a .parquet file. Walked through directory handles, links never followed.
void CheckReplaceableTree(const std::string& target, const platform::Directory& directory, int depth) {
  for (const std::string& name : SortedEntries(directory)) {
    platform::FileStatus status;
    const bool seen = directory.ChildStatus(name, &status).ok();
    if (seen && status.type == platform::FileType::kDirectory && IsPartitionDirectoryName(name) &&
        depth < platform::kMaxTreeDepth) {
      CheckReplaceableTree(target, OpenListedChild(directory, name, status), depth + 1);
    } else if (!(seen && status.type == platform::FileType::kRegular && EndsWith(name, ".parquet") && name[0] != '.')) {
      throw CopyError("refusing to replace directory '" + target + "': it holds '" + directory.path() + "/" + name +
                      "', which parquet_copy does not write (remove it, or write elsewhere)");
    }
  }
}

void CheckReplaceableTree(const std::string& target) {
  CheckReplaceableTree(target, OpenTreeRoot(target, true), 1);
}

// Syncs every file and directory of the tree (symbolic links are not followed, nor is
// anything opened by a path through one), then the root.
void SyncTree(const platform::Directory& directory, int depth) {
  for (const std::string& name : SortedEntries(directory)) {
    platform::FileStatus status;
    if (!directory.ChildStatus(name, &status).ok()) continue;
    if (status.type == platform::FileType::kDirectory && depth < platform::kMaxTreeDepth) {
      SyncTree(OpenListedChild(directory, name, status), depth + 1);
    } else if (status.type == platform::FileType::kRegular) {
      if (platform::SystemResult synced = directory.SyncChild(name); !synced.ok()) {
        throw CopyError("cannot sync '" + directory.path() + "/" + name + "': " + synced.text);
      }
    }
  }
  if (platform::SystemResult synced = directory.Sync(); !synced.ok()) {
    throw CopyError("cannot sync '" + directory.path() + "': " + synced.text);
  }
}

// One entry of a tree, its path relative to the root joined with '/'.
struct TreeEntry {
  std::string relative;
  bool directory;
};

// Every directory and file under `directory` (symbolic links are not followed), each
// directory before what it holds.
void ListTree(const platform::Directory& directory, const std::string& relative, int depth, std::vector<TreeEntry>* out) {
  for (const std::string& name : SortedEntries(directory)) {
    const std::string entry = relative.empty() ? name : relative + "/" + name;
    platform::FileStatus status;
    const bool is_directory = directory.ChildStatus(name, &status).ok() && status.type == platform::FileType::kDirectory;
    out->push_back({entry, is_directory});
    if (is_directory && depth < platform::kMaxTreeDepth) {
      ListTree(OpenListedChild(directory, name, status), entry, depth + 1, out);
    }
  }
}

// The components of a relative path ("a=1/b=2").
std::vector<std::string> Components(const std::string& relative) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start < relative.size()) {
    size_t end = relative.find('/', start);
    if (end == std::string::npos) end = relative.size();
    parts.push_back(relative.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// The directory `relative` under `root` (root itself when empty; else held in *holder),
// opened one component at a time, never through a symbolic link. create: missing
// directories are made (their relative paths added to *made). A link on the way is refused
// with an error naming it.
const platform::Directory& OpenInside(const platform::Directory& root, const std::string& relative, bool create,
                                      std::vector<std::string>* made, platform::Directory* holder) {
  const platform::Directory* at = &root;
  std::string so_far;
  for (const std::string& part : Components(relative)) {
    so_far = so_far.empty() ? part : so_far + "/" + part;
    if (create) {
      const platform::SystemResult created = at->MakeChild(part);
      if (created.ok()) {
        made->push_back(so_far);
      } else if (created.kind != platform::SystemResult::Kind::kExists) {
        throw CopyError("cannot create directory '" + at->path() + "/" + part + "': " + created.text);
      }
    }
    platform::Directory next;
    const platform::SystemResult opened = at->OpenChild(part, &next);
    if (!opened.ok()) {
      platform::FileStatus status;
      if (at->ChildStatus(part, &status).ok() && status.type == platform::FileType::kSymbolicLink) {
        throw CopyError("refusing to write through '" + at->path() + "/" + part +
                        "': it is a symbolic link (parquet_copy writes only into real directories of the target)");
      }
      throw CopyError("cannot open directory '" + at->path() + "/" + part + "': " + opened.text);
    }
    *holder = std::move(next);
    at = holder;
  }
  return *at;
}

// The directory part and the name of a relative path.
std::pair<std::string, std::string> SplitRelative(const std::string& relative) {
  const size_t slash = relative.rfind('/');
  if (slash == std::string::npos) return {"", relative};
  return {relative.substr(0, slash), relative.substr(slash + 1)};
}

}  // namespace

bool IsPartitionDirectoryName(const std::string& name) {
  const size_t equals = name.find('=');
  return equals != std::string::npos && equals > 0 && equals + 1 < name.size() && name[0] != '.';
}

void SyncPath(const std::string& path) {
  if (platform::SystemResult synced = platform::SyncPath(path); !synced.ok()) {
    throw CopyError("cannot sync '" + path + "': " + synced.text);
  }
}

platform::File CreateExclusiveFile(const std::string& path) {
  if (std::string error = parquet::PathNulByteError(path); !error.empty()) throw CopyError(error);
  platform::File file;
  if (platform::SystemResult created = platform::CreateExclusive(path, &file); !created.ok()) {
    throw CopyError("cannot create '" + path + "': " + created.text);
  }
  return file;
}

StagedOutput::StagedOutput(const std::string& target, Kind kind, bool overwrite)
    : target_(target), kind_(kind), overwrite_(overwrite) {
  if (std::string error = parquet::PathNulByteError(target); !error.empty()) throw CopyError(error);
  if (std::string error = platform::DeviceNameError(target); !error.empty()) {
    throw CopyError("cannot write to '" + target + "': " + error);
  }
  const std::string separators = platform::kWindows ? "/\\" : "/";
  while (target_.size() > 1 && separators.find(target_.back()) != std::string::npos) target_.pop_back();
  const size_t slash = target_.find_last_of(separators);
  if (slash == std::string::npos) {
    directory_ = ".";
    name_ = target_;
  } else {
    directory_ = slash == 0 ? target_.substr(0, 1) : target_.substr(0, slash);
    name_ = target_.substr(slash + 1);
  }
  if (name_.empty() || name_ == "." || name_ == ".." || target_ == "/") {
    throw CopyError("cannot write to '" + target + "': it does not name a file");
  }

  platform::FileStatus info;
  platform::SystemResult found = platform::PathStatus(target_, true, &info);
  if (kind_ == Kind::kAppend) {
    if (found.ok() && info.type != platform::FileType::kDirectory) {
      throw CopyError("'" + target_ + "' exists and is not a directory (append=1 adds files to a directory)");
    }
  } else if (found.ok()) {
    if (!overwrite_) {
      throw CopyError("'" + target_ + "' already exists (overwrite=0)");
    }
    if (kind_ == Kind::kFile && info.type == platform::FileType::kDirectory) {
      throw CopyError("'" + target_ + "' is a directory");
    }
    if (kind_ == Kind::kDirectory) {
      if (info.type != platform::FileType::kDirectory) throw CopyError("'" + target_ + "' exists and is not a directory");
      CheckReplaceableTree(target_);
    }
  } else if (found.kind != platform::SystemResult::Kind::kNotFound) {
    throw CopyError("cannot write to '" + target_ + "': " + found.text);
  }

  const std::string prefix = Beside("." + name_ + ".parquet_copy-");
  for (int attempt = 0; attempt < kMaxTempAttempts; ++attempt) {
    const std::string candidate = prefix + std::to_string(attempt) + ".tmp";
    platform::SystemResult created;
    if (kind_ == Kind::kFile) {
      // Kept open: the file is only ever used through this handle (see the header).
      created = platform::CreateExclusive(candidate, &temp_file_);
    } else {
      created = platform::MakeDirectory(candidate);
    }
    if (created.ok()) {
      temp_path_ = candidate;
      return;
    }
    if (created.kind == platform::SystemResult::Kind::kNotFound) {
      throw CopyError("cannot write to '" + target_ + "': directory '" + directory_ + "' does not exist");
    }
    if (created.kind != platform::SystemResult::Kind::kExists) {
      throw CopyError("cannot create a temporary " + std::string(kind_ == Kind::kFile ? "file" : "directory") +
                      " beside '" + target_ + "': " + created.text);
    }
  }
  throw CopyError("cannot create a temporary file beside '" + target_ + "': too many leftover temporary files");
}

StagedOutput::~StagedOutput() { Abandon(); }

std::string StagedOutput::Beside(const std::string& name) const {
  return (directory_ == "/" || (directory_.size() == 1 && platform::kWindows && directory_ == "\\")
              ? directory_
              : directory_ + "/") +
         name;
}

platform::File StagedOutput::DuplicateTempFile() const {
  if (!temp_file_.is_open()) throw CopyError("the output for '" + target_ + "' has no temporary file");
  platform::File duplicate;
  if (platform::SystemResult made = temp_file_.Duplicate(&duplicate); !made.ok()) {
    throw CopyError("cannot write the temporary file of '" + target_ + "': " + made.text);
  }
  return duplicate;
}

platform::File StagedOutput::CreateInTree(const std::string& relative) const {
  const platform::Directory root = OpenTreeRoot(temp_path_, false);
  const auto [parent, name] = SplitRelative(relative);
  std::vector<std::string> made;
  platform::Directory holder;
  const platform::Directory& directory = OpenInside(root, parent, true, &made, &holder);
  platform::File file;
  if (platform::SystemResult created = directory.CreateChildExclusive(name, &file); !created.ok()) {
    throw CopyError("cannot create '" + directory.path() + "/" + name + "': " + created.text);
  }
  return file;
}

void StagedOutput::Abandon() noexcept {
  if (done_ || temp_path_.empty()) return;
  done_ = true;
  // Closed first: Windows cannot delete a file that is still open without delete sharing.
  temp_file_ = platform::File();
  platform::RemoveTree(temp_path_);
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
  if (platform::SystemResult synced = temp_file_.Sync(); !synced.ok()) {
    throw CopyError("cannot sync '" + temp_path_ + "': " + synced.text);
  }
  platform::FileStatus written;
  platform::FileStatus at_name;
  if (!temp_file_.Status(&written).ok() || !platform::PathStatus(temp_path_, false, &at_name).ok() ||
      !(written.identity == at_name.identity)) {
    throw CopyError("the temporary file '" + temp_path_ + "' was replaced while writing; '" + target_ +
                    "' is left as it was");
  }
  platform::FileStatus replaced;
  if (platform::PathStatus(target_, true, &replaced).ok() && replaced.type == platform::FileType::kRegular) {
    // Replacing a file must not widen who can read it: keep its owner and group where this
    // process may set them (root; or a group it belongs to), then its permission bits.
    if (platform::SystemResult taken = temp_file_.TakePermissionsOf(replaced); !taken.ok()) {
      throw CopyError("cannot set the permissions of '" + temp_path_ + "': " + taken.text);
    }
  }
  // Closed before the move: Windows does not rename a file open without delete sharing.
  temp_file_ = platform::File();
  if (overwrite_) {
    if (platform::SystemResult moved = platform::RenameReplacing(temp_path_, target_); !moved.ok()) {
      throw CopyError("cannot move the output to '" + target_ + "': " + moved.text);
    }
    return;
  }
  platform::SystemResult moved = platform::RenameNoReplace(temp_path_, target_);
  if (moved.ok()) return;
  if (moved.kind == platform::SystemResult::Kind::kExists) throw CopyError("'" + target_ + "' already exists (overwrite=0)");
  if (moved.kind != platform::SystemResult::Kind::kNotSupported) {
    throw CopyError("cannot move the output to '" + target_ + "': " + moved.text);
  }
  // No RENAME_NOREPLACE here: a hard link fails just the same when the target exists.
  platform::SystemResult linked = platform::HardLink(temp_path_, target_);
  if (linked.ok()) {
    platform::RemoveFile(temp_path_);
    return;
  }
  if (linked.kind == platform::SystemResult::Kind::kExists) throw CopyError("'" + target_ + "' already exists (overwrite=0)");
  platform::FileStatus info;
  if (platform::PathStatus(target_, true, &info).ok()) throw CopyError("'" + target_ + "' already exists (overwrite=0)");
  if (platform::SystemResult renamed = platform::RenameReplacing(temp_path_, target_); !renamed.ok()) {
    throw CopyError("cannot move the output to '" + target_ + "': " + renamed.text);
  }
}

void StagedOutput::CommitDirectory() {
  SyncTree(OpenTreeRoot(temp_path_, false), 1);
  platform::FileStatus info;
  const bool exists = platform::PathStatus(target_, true, &info).ok();
  if (!exists) {
    platform::SystemResult moved = platform::RenameNoReplace(temp_path_, target_);
    if (moved.ok()) return;
    if (moved.kind == platform::SystemResult::Kind::kExists) throw CopyError("'" + target_ + "' appeared while writing it");
    if (moved.kind != platform::SystemResult::Kind::kNotSupported) {
      throw CopyError("cannot move the output to '" + target_ + "': " + moved.text);
    }
    if (platform::SystemResult renamed = platform::RenameReplacing(temp_path_, target_); !renamed.ok()) {
      throw CopyError("cannot move the output to '" + target_ + "': " + renamed.text);
    }
    return;
  }
  if (!overwrite_) throw CopyError("'" + target_ + "' already exists (overwrite=0)");
  if (info.type != platform::FileType::kDirectory) throw CopyError("'" + target_ + "' exists and is not a directory");
  CheckReplaceableTree(target_);
  if (platform::SystemResult set = platform::SetDirectoryPermissions(temp_path_, info.permissions); !set.ok()) {
    throw CopyError("cannot set the permissions of '" + temp_path_ + "': " + set.text);
  }
  // Swap old and new in one step; the old tree is then at the temporary name.
  platform::SystemResult exchanged = platform::ExchangePaths(temp_path_, target_);
  if (exchanged.ok()) {
    platform::RemoveTree(temp_path_);
    return;
  }
  if (exchanged.kind != platform::SystemResult::Kind::kNotSupported) {
    throw CopyError("cannot move the output to '" + target_ + "': " + exchanged.text);
  }
  // No exchange: move the old tree aside, the new one in, then delete the old one.
  std::string aside;
  for (int attempt = 0; attempt < kMaxTempAttempts && aside.empty(); ++attempt) {
    const std::string candidate = Beside("." + name_ + ".parquet_copy-old-" + std::to_string(attempt));
    platform::FileStatus unused;
    if (platform::PathStatus(candidate, false, &unused).kind == platform::SystemResult::Kind::kNotFound) aside = candidate;
  }
  if (aside.empty()) throw CopyError("cannot move the old '" + target_ + "' aside: too many leftover directories");
  if (platform::SystemResult moved = platform::RenameReplacing(target_, aside); !moved.ok()) {
    throw CopyError("cannot move the old '" + target_ + "' aside: " + moved.text);
  }
  if (platform::SystemResult moved = platform::RenameReplacing(temp_path_, target_); !moved.ok()) {
    platform::RenameReplacing(aside, target_);
    throw CopyError("cannot move the output to '" + target_ + "': " + moved.text);
  }
  platform::RemoveTree(aside);
}

void StagedOutput::CommitAppend() {
  platform::FileStatus info;
  if (!platform::PathStatus(target_, true, &info).ok()) {  // nothing to append to: the new tree is the target
    CommitDirectory();
    return;
  }
  if (info.type != platform::FileType::kDirectory) throw CopyError("'" + target_ + "' exists and is not a directory");
  {
    // Every step below goes through directory handles: the target's directories are made
    // and opened one component at a time from the target's own handle, never through a
    // symbolic link (one planted in the target tree is refused, not written through).
    const platform::Directory staged = OpenTreeRoot(temp_path_, false);
    const platform::Directory root = OpenTreeRoot(target_, true);
    SyncTree(staged, 1);
    // The new tree's entries first (moving files out while iterating would disturb it).
    std::vector<TreeEntry> entries;
    ListTree(staged, "", 1, &entries);
    std::vector<std::string> moved;  // relative paths of the files placed in the target
    std::vector<std::string> made;   // directories created in the target, relative
    try {
      for (const TreeEntry& entry : entries) {
        platform::Directory holder;
        if (entry.directory) {
          OpenInside(root, entry.relative, true, &made, &holder);
          continue;
        }
        const auto [parent, name] = SplitRelative(entry.relative);
        platform::Directory from_holder;
        const platform::Directory& from = OpenInside(staged, parent, false, nullptr, &from_holder);
        const platform::Directory& to = OpenInside(root, parent, true, &made, &holder);
        const std::string destination = target_ + "/" + entry.relative;
        platform::SystemResult placed = platform::MoveBetween(from, name, to, name, false);
        if (!placed.ok()) {
          if (placed.kind == platform::SystemResult::Kind::kExists) throw CopyError("'" + destination + "' appeared while writing it");
          if (placed.kind != platform::SystemResult::Kind::kNotSupported) {
            throw CopyError("cannot move the output to '" + destination + "': " + placed.text);
          }
          if (platform::SystemResult linked = platform::LinkBetween(from, name, to, name); !linked.ok()) {
            throw CopyError(linked.kind == platform::SystemResult::Kind::kExists
                                ? "'" + destination + "' appeared while writing it"
                                : "cannot move the output to '" + destination + "': " + linked.text);
          }
          from.RemoveChild(name);
        }
        moved.push_back(entry.relative);
      }
      std::string synced_parent;  // the directory last synced (moved is in tree order)
      for (size_t i = 0; i < moved.size(); ++i) {
        const std::string parent = SplitRelative(moved[i]).first;
        if (i > 0 && parent == synced_parent) continue;
        synced_parent = parent;
        platform::Directory holder;
        const platform::Directory& directory = OpenInside(root, parent, false, nullptr, &holder);
        if (platform::SystemResult synced = directory.Sync(); !synced.ok()) {
          throw CopyError("cannot sync '" + directory.path() + "': " + synced.text);
        }
      }
    } catch (...) {
      // Back to the temporary tree, through the same handles (errors here leave what they can).
      for (auto it = moved.rbegin(); it != moved.rend(); ++it) {
        const auto [parent, name] = SplitRelative(*it);
        try {
          platform::Directory from_holder;
          platform::Directory to_holder;
          const platform::Directory& from = OpenInside(root, parent, false, nullptr, &from_holder);
          const platform::Directory& to = OpenInside(staged, parent, false, nullptr, &to_holder);
          platform::MoveBetween(from, name, to, name, true);
        } catch (const CopyError&) {
        }
      }
      for (auto it = made.rbegin(); it != made.rend(); ++it) {
        const auto [parent, name] = SplitRelative(*it);
        try {
          platform::Directory holder;
          OpenInside(root, parent, false, nullptr, &holder).RemoveEmptyChild(name);
        } catch (const CopyError&) {
        }
      }
      throw;
    }
  }  // the handles closed before the temporary tree goes (Windows)
  platform::RemoveTree(temp_path_);
}

}  // namespace sqlite_parquet
