// Local directories, s3:// prefixes and https:// URLs as LakeStorage (lake_storage.h).
#include "format/lake/lake_storage.h"

#include "format/common/error.h"
#include "format/io/remote_file.h"
#include "format/io/s3.h"
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

// Reads of remote objects (s3:// and http(s)://) through OpenFileOrUrl with the table's
// remote options.
class RemoteStorage : public LakeStorage {
 public:
  explicit RemoteStorage(std::shared_ptr<const RemoteOptions> options) : options_(std::move(options)) {}
  std::string ReadWhole(const std::string& path, size_t max_bytes) override {
    std::unique_ptr<RandomAccessFile> file = OpenFileOrUrl(path, options_.get());
    if (file->Size() > max_bytes) {
      throw ParquetError("'" + PathForDisplay(path) + "' holds more than " + std::to_string(max_bytes) + " bytes");
    }
    std::vector<uint8_t> bytes;
    file->ReadAt(0, static_cast<size_t>(file->Size()), &bytes);
    return std::string(bytes.begin(), bytes.end());
  }
  std::unique_ptr<RandomAccessFile> Open(const std::string& path) override { return OpenFileOrUrl(path, options_.get()); }
  bool remote() const override { return true; }

 protected:
  std::shared_ptr<const RemoteOptions> options_;
};

class S3Storage : public RemoteStorage {
 public:
  explicit S3Storage(std::shared_ptr<const RemoteOptions> options) : RemoteStorage(std::move(options)) {}
  bool List(const std::string& dir, size_t max_entries, std::vector<LakeEntry>* out) override {
    return ListAfter(dir, "", max_entries, out);
  }
  bool ListAfter(const std::string& dir, const std::string& start_after, size_t max_entries,
                 std::vector<LakeEntry>* out) override {
    const S3Location location = ParseS3Url(dir + "/");
    S3ListOptions list;
    list.delimiter = "/";
    std::vector<std::string> prefixes;
    list.common_prefixes = &prefixes;
    list.max_objects = max_entries;
    if (!start_after.empty()) list.start_after = location.key + start_after;
    const std::vector<S3Object> objects = ListS3Objects(*options_, location.bucket, location.key, list);
    if (objects.empty() && prefixes.empty()) return false;
    for (const S3Object& object : objects) {
      // (A server that ignores start-after lists from the start: the same names, filtered.)
      if (object.key.size() <= location.key.size()) continue;
      std::string name = object.key.substr(location.key.size());
      if (name > start_after) out->push_back(LakeEntry{std::move(name), -1});
    }
    return true;
  }
  bool IsDirectory(const std::string& path) override {
    const S3Location location = ParseS3Url(path + "/");
    S3ListOptions list;
    list.max_objects = 1;
    list.max_keys = 1;  // one request of one key
    return !ListS3Objects(*options_, location.bucket, location.key, list).empty();
  }
};

// http(s):// has no listing: every file is read by its URL (an Iceberg table named by its
// metadata file needs none).
class HttpStorage : public RemoteStorage {
 public:
  explicit HttpStorage(std::shared_ptr<const RemoteOptions> options) : RemoteStorage(std::move(options)) {}
  bool List(const std::string&, size_t, std::vector<LakeEntry>*) override { return false; }
  bool IsDirectory(const std::string&) override { return false; }
  bool CanList() const override { return false; }
};

}  // namespace

bool LakeStorage::ListAfter(const std::string& dir, const std::string& start_after, size_t max_entries,
                            std::vector<LakeEntry>* out) {
  std::vector<LakeEntry> all;
  if (!List(dir, max_entries, &all)) return false;
  for (LakeEntry& entry : all) {
    if (entry.name > start_after) out->push_back(std::move(entry));
  }
  return true;
}

std::unique_ptr<LakeStorage> MakeS3Storage(std::shared_ptr<const RemoteOptions> options) {
  return std::make_unique<S3Storage>(std::move(options));
}

std::unique_ptr<LakeStorage> MakeHttpStorage(std::shared_ptr<const RemoteOptions> options) {
  return std::make_unique<HttpStorage>(std::move(options));
}

std::unique_ptr<LakeStorage> MakeLocalStorage() { return std::make_unique<LocalStorage>(); }

std::unique_ptr<LakeStorage> MakeStorageFor(const std::string& path, std::shared_ptr<const RemoteOptions> options) {
  if (IsS3Url(path)) return MakeS3Storage(std::move(options));
  if (IsRemoteUrl(path)) return MakeHttpStorage(std::move(options));
  return MakeLocalStorage();
}

}  // namespace parquet::lake
