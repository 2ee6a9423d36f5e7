// Positional reads from a Parquet file: the only way the format library touches bytes on
// disk (or in memory, for tests and fuzzing). Every read is checked against the size, so a
// length or offset taken from a file can never reach past its end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/common/error.h"
#include "format/io/metadata_store.h"
#include "format/platform/system.h"

namespace parquet {

// A byte range of a file: [offset, offset + length).
struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};

// What a remote file cost so far (zero for local files).
struct TransferCounters {
  uint64_t requests = 0;       // HTTP requests made (retries included)
  uint64_t bytes_fetched = 0;  // body bytes received
  uint64_t read_ahead_peak = 0;  // the most bytes the read-ahead held at once (PrefetchAhead)
};

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;

  // Total size in bytes, fixed when the file was opened.
  virtual uint64_t Size() const = 0;

  // Reads exactly `length` bytes at `offset` into out. Throws ParquetError when the range
  // is outside the file or the read comes up short (the file shrank underneath us).
  virtual void ReadAt(uint64_t offset, size_t length, uint8_t* out) = 0;

  // The name used in error messages (usually the path).
  virtual const std::string& Name() const = 0;

  // Reads [offset, offset + length) into *out, resizing it. For a remote file (IsRemote) the
  // buffer grows kGrowingReadPiece bytes at a time as they arrive: a length taken from a
  // file whose size a server claims is never allocated before the bytes are there.
  void ReadAt(uint64_t offset, size_t length, std::vector<uint8_t>* out);
  static constexpr size_t kGrowingReadPiece = 16 << 20;

  // Whether reads cost requests (remote_file.h): worth planning with Prefetch.
  virtual bool IsRemote() const { return false; }
  // A hint that the ranges will be read soon: a remote file fetches what it does not hold
  // yet (coalesced, in parallel) and keeps it until DropPrefetched. Local files ignore both.
  virtual void Prefetch(const std::vector<ByteRange>& ranges) { (void)ranges; }
  virtual void DropPrefetched() {}
  // Read-ahead: starts fetching the ranges in the background (what the file's read-ahead
  // window, remote_file.h, has room for) and returns at once; Prefetch and reads claim the
  // bytes (waiting for them if still in flight), and DropPrefetched leaves them. `tag` (a
  // row group) is what DropAheadBefore compares: it drops the unclaimed bytes of smaller
  // tags. True when every range fit in the window. Local files ignore both.
  virtual bool PrefetchAhead(const std::vector<ByteRange>& ranges, uint64_t tag) {
    (void)ranges;
    (void)tag;
    return false;
  }
  virtual void DropAheadBefore(uint64_t tag) { (void)tag; }

  virtual TransferCounters Transfer() const { return {}; }

  // The version opening found (size and validator, metadata_store.h), or nullopt for a file
  // without one (in memory, or a remote object with neither ETag nor Last-Modified).
  virtual std::optional<FileVersion> Version() const { return std::nullopt; }
  // Whether the bytes at the file's end came from a MetadataStore rather than the file
  // (they then serve this file alone: no process-wide cache keeps them).
  virtual bool StoredTailUsed() const { return false; }
  // Where the bytes held from opening start, which run to the end of the file (a remote
  // file's tail: its footer, usually its page indexes, a small file whole); nullopt: none.
  virtual std::optional<uint64_t> HeldTailOffset() const { return std::nullopt; }

  // A remote file opened with its statement's version check still in flight
  // (RemoteOptions::overlap_statement_check): what it reads until ConfirmVersion is of the
  // version the footer cache held. ConfirmVersion waits for the check: it returns when that
  // version is the object's, and throws RemoteFileReplaced when the object was replaced (its
  // new tail is then in the footer cache, checked for the statement: opening it again reads
  // the new version without a request), or the check's own error. Local files: never pending.
  virtual bool VersionPending() const { return false; }
  virtual void ConfirmVersion() {}

 protected:
  // Throws unless [offset, offset + length) lies inside the file.
  void CheckRange(uint64_t offset, uint64_t length) const;
};

// What ConfirmVersion throws when the object was replaced since the footer cache's version
// (which the file read on with): the reader opens the file again and starts over.
class RemoteFileReplaced : public ParquetError {
 public:
  using ParquetError::ParquetError;
};

// Opens a local file for reading with pread; throws ParquetError naming the path and the
// system error when it cannot be opened. Only regular files are accepted: the file is
// opened without blocking (O_NONBLOCK, cleared afterwards) and checked on its descriptor,
// so a FIFO, a device or a socket is an error at once rather than a hang or an endless
// stream. A path holding a NUL byte is refused (PathNulByteError).
std::unique_ptr<RandomAccessFile> OpenLocalFile(const std::string& path);
// The same, taking the file's tail from `store` (may be null) when it holds the version the
// descriptor shows now (size, mtime, inode and device).
std::unique_ptr<RandomAccessFile> OpenLocalFile(const std::string& path, MetadataStore* store);

// Reads through `file`, open for reading, which it takes over (and closes, also when this
// throws); `name` names it in messages. For a file this process created and must not
// reopen by name (parquet_copy's output, read back before it is published).
std::unique_ptr<RandomAccessFile> OpenLocalFile(platform::File file, const std::string& name);

// The whole of a small file, opened as OpenLocalFile opens it (regular files only, without
// blocking). Throws ParquetError when it cannot be read or holds more than max_bytes.
std::string ReadSmallFile(const std::string& path, size_t max_bytes);

// The error for a path that holds a NUL byte, or "" when it holds none. The system reads a
// path only up to its first NUL, so "notes.txt\0.parquet" would name "notes.txt": every
// entry point that takes a path refuses such a path with this message.
std::string PathNulByteError(const std::string& path);

// A file held in memory (tests, fuzzing). The bytes are copied.
std::unique_ptr<RandomAccessFile> OpenMemoryFile(const uint8_t* data, size_t size,
                                                 std::string name = "<memory>");

}  // namespace parquet
