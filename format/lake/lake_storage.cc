// Local directories as LakeStorage (lake_storage.h).
#include "format/lake/lake_storage.h"

#include "format/common/error.h"
#include "format/platform/system.h"

namespace parquet::lake {

namespace {

class LocalStorage : public LakeStorage {
 public:
  bool List(const std::string& dir, size_t max_entries, std::vector<LakeEntry>* out) override {
    platform::FileStatus status;
    if (!platform::PathStatus(dir, true, &status).ok() || status.type != platform::FileType::kDirectory) return false;
    std::vector<std::string> names;
    const platform::SystemResult listed = platform::ListDirectory(dir, &names);
    if (!listed.ok()) throw ParquetError("cannot list directory '" + dir + "'");
    if (names.size() > max_entries) {
      throw ParquetError("directory '" + dir + "' holds more than " + std::to_string(max_entries) + " entries");
    }
    for (const std::string& name : names) {
      platform::FileStatus entry;
      if (!platform::PathStatus(dir + "/" + name, true, &entry).ok() || entry.type != platform::FileType::kRegular) {
        continue;
      }
      out->push_back(LakeEntry{name, entry.modified_seconds * 1000 + entry.modified_nanoseconds / 1000000});
    }
    return true;
  }
  std::string ReadWhole(const std::string& path, size_t max_bytes) override { return ReadSmallFile(path, max_bytes); }
  std::unique_ptr<RandomAccessFile> Open(const std::string& path) override { return OpenLocalFile(path); }
  bool IsDirectory(const std::string& path) override {
    platform::FileStatus status;
    return platform::PathStatus(path, true, &status).ok() && status.type == platform::FileType::kDirectory;
  }
};

}  // namespace

std::unique_ptr<LakeStorage> MakeLocalStorage() { return std::make_unique<LocalStorage>(); }

}  // namespace parquet::lake
