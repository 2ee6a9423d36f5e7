// Deleting a whole tree on every system (system.h RemoveTree) through Directory handles
// only: entries are named relative to the directory holding them, a symbolic link or
// reparse point is removed itself and never followed, and a subdirectory is emptied only
// when the directory opened is the one listed (same identity), so a subdirectory swapped
// for a link while the deletion runs cannot make it delete outside the tree. Holds one
// handle per level of depth (at most kMaxTreeDepth). No OS header: posix.cc and windows.cc
// implement the Directory calls.
#include <string>
#include <vector>

#include "format/platform/system.h"

namespace parquet::platform {

namespace {

void RemoveEntries(const Directory& directory, int depth);

// Removes the entry `name` of `parent`, whatever it is now.
void RemoveEntry(const Directory& parent, const std::string& name, int depth) {
  FileStatus listed;
  if (!parent.ChildStatus(name, &listed).ok()) return;
  if (listed.type != FileType::kDirectory) {
    parent.RemoveChild(name);
    return;
  }
  if (depth < kMaxTreeDepth) {
    Directory child;
    FileStatus opened;
    // Not the directory listed (replaced since, by a link or another directory): left for
    // the removal below, which takes a link itself and leaves a directory that is not empty.
    if (parent.OpenChild(name, &child).ok() && child.Status(&opened).ok() && opened.identity == listed.identity) {
      RemoveEntries(child, depth + 1);
    }
  }  // closed before it is removed (Windows does not remove a directory open without delete sharing)
  const SystemResult removed = parent.RemoveEmptyChild(name);
  // A link put where the directory was: removed itself.
  if (removed.kind == SystemResult::Kind::kNotDirectory) parent.RemoveChild(name);
}

void RemoveEntries(const Directory& directory, int depth) {
  std::vector<std::string> names;
  if (!directory.List(&names).ok()) return;
  for (const std::string& name : names) RemoveEntry(directory, name, depth);
}

}  // namespace

void RemoveTree(const std::string& path) {
  FileStatus listed;
  if (!PathStatus(path, false, &listed).ok()) return;
  if (listed.type != FileType::kDirectory) {
    RemoveFile(path);
    return;
  }
  {
    Directory root;
    FileStatus opened;
    if (Directory::Open(path, false, &root).ok() && root.Status(&opened).ok() && opened.identity == listed.identity) {
      RemoveEntries(root, 1);
    }
  }
  const SystemResult removed = RemoveEmptyDirectory(path);
  if (removed.kind == SystemResult::Kind::kNotDirectory) RemoveFile(path);
}

}  // namespace parquet::platform
