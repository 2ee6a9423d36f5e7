// A persistent store of files' metadata bytes (the extension's metadata_cache table): what
// opening a file may take instead of reading its footer again, keyed by one version of the
// file. The library never trusts what a store returns: a tail is used only when the file
// shows now exactly that size and validator (a remote server: its 304 to If-None-Match with
// the stored ETag), only as the bytes at the end of the file, and it is parsed and
// bounds-checked like the file's own bytes. A tail taken from a store serves the one open
// that asked it: it is never shared with other opens (remote_file.h's footer cache).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace parquet {

// One version of one file, as opening it found it.
struct FileVersion {
  // Remote: the hex SHA-256 of the request (the URL asked, signing scope, access key id,
  // headers, CA bundle: remote_file.h), so no secret is stored. Local: the path as given.
  std::string key;
  std::string name;  // as messages show it (a URL without its query string)
  uint64_t size = 0;
  // Remote: "etag:<ETag>" or "last-modified:<HTTP date>"; local: "local:<mtime_ns>:<inode>:<device>".
  std::string validator;
  // The object was fetched with ambient credentials (an S3 request signed with the
  // environment's or the credentials file's keys, not the options' own): a store may refuse
  // to keep its bytes where whoever wrote the store could read them.
  bool ambient_credentials = false;
};

// The bytes [offset, offset + bytes.size()) of a file, ending at its end: the footer, its
// length and magic, and the page indexes when they lie shortly before the footer.
struct FileTail {
  uint64_t offset = 0;
  std::vector<uint8_t> bytes;
};

// Bounds on what opening takes from a store: a tail is at most this long.
constexpr uint64_t kMaxStoredTailBytes = 80ull << 20;  // a 64 MiB remote footer and its page indexes
// Page indexes are stored with the footer when they start at most this far before it.
constexpr uint64_t kMaxStoredPageIndexSpan = 4ull << 20;

// Whether `tail` can stand for the end of a file of `size` bytes: it ends exactly at the
// end, holds at least the footer's length and magic, and is within kMaxStoredTailBytes.
inline bool FitsFileEnd(const FileTail& tail, uint64_t size) {
  const uint64_t length = tail.bytes.size();
  return length >= 8 && length <= kMaxStoredTailBytes && tail.offset <= size && length == size - tail.offset;
}

// What a store holds for a key: one version of the file and its tail.
struct StoredTail {
  FileVersion version;
  FileTail tail;
};

class MetadataStore {
 public:
  virtual ~MetadataStore() = default;
  // What is stored for `key` (any version), or null; the opener uses it only for the version
  // the file shows now (local: size and validator compared; remote: the server's 304 to
  // If-None-Match with the stored ETag). Called on the thread that opens the file.
  virtual std::shared_ptr<const StoredTail> Find(const std::string& key) = 0;
  // Whether Remember keeps anything (a store that cannot write: no tail is read for it).
  virtual bool Remembers() const { return true; }
  // Keeps `tail` for `version` (a store may write later, or not at all).
  virtual void Remember(const FileVersion& version, std::shared_ptr<const FileTail> tail) = 0;
  // The tail Find returned for `version` did not open as a Parquet file: drop it.
  virtual void Forget(const FileVersion& version) = 0;
};

}  // namespace parquet
