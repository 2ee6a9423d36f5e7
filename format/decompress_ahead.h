// DecompressAhead: decompresses the data pages of the next column chunk of each column a
// scan reads on a worker thread, while the scan's own thread decodes the current chunk.
// The PageReader of a column asks for its next chunk when it moves to a row group (Reset)
// and, for each compressed data page, takes the worker's bytes in place of decompressing
// them itself (Take). Whatever the worker does not have in time (a page not done yet, one
// it could not read) the reader decompresses itself, as without it, and reports its errors.
//
// Memory: at most the next chunk of each column, charged to the scan's MemoryBudget by its
// uncompressed size from the footer before the worker starts on it (a chunk that does not
// fit is not asked for), and the worker stops a chunk whose pages would pass that charge.
// Only for files read through local descriptors (pread from two threads), unencrypted.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "format/file_reader.h"

namespace parquet {

class MemoryBudget;

class DecompressAhead {
 public:
  // `file` and `budget` must outlive this object; `verify_crc` as for the scan's readers.
  DecompressAhead(const ParquetFileReader& file, std::shared_ptr<MemoryBudget> budget, bool verify_crc);
  ~DecompressAhead();
  DecompressAhead(const DecompressAhead&) = delete;
  DecompressAhead& operator=(const DecompressAhead&) = delete;

  // Stops the worker (joined): the file is no longer touched; later chunks are not asked
  // for, and Take gives only pages already done. The destructor stops it too.
  void Stop();

  // The reader of `column` moved to `row_group`: chunks of the column other than this one
  // and the next are let go, and the next one (if any) is queued for the worker.
  void MovedTo(int column, int row_group);
  // The decompressed value section of the data page whose header starts at file offset
  // `page_offset` in chunk (`row_group`, `column`): `src_offset` bytes into its body,
  // `src_size` bytes stored, `size` decompressed. Null when the worker does not have it.
  // Valid until the next Take of the column (or MovedTo, or destruction).
  const uint8_t* Take(int column, int row_group, uint64_t page_offset, size_t src_offset, size_t src_size,
                      size_t size);

  // For tests: waits until the worker has nothing queued or running; the pages it
  // decompressed, and those the readers took.
  void WaitIdle();
  uint64_t pages_decompressed() const;
  uint64_t pages_taken() const;

 private:
  struct Page {
    uint64_t page_offset = 0;
    size_t src_offset = 0, src_size = 0, size = 0;
    std::vector<uint8_t> bytes;
  };
  enum class ChunkState { kQueued, kRunning, kDone };
  struct Chunk {
    ChunkState state = ChunkState::kQueued;
    bool dropped = false;   // let go while the worker runs it: the worker erases it
    uint64_t charged = 0;   // taken from the budget, given back when let go
    uint64_t produced = 0;  // decompressed bytes so far (at most `charged`)
    std::deque<Page> pages;
  };
  using Key = std::pair<int, int>;  // column, row group

  void Run();
  void DecompressChunk(Key key);
  // Lets go of the chunk (lock held): its charge back, erased unless the worker runs it.
  void Drop(std::map<Key, Chunk>::iterator it);

  const ParquetFileReader& file_;
  const std::shared_ptr<MemoryBudget> budget_;
  const bool verify_crc_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;  // the worker finished a chunk
  bool stop_ = false;
  std::map<Key, Chunk> chunks_;
  std::deque<Key> queue_;
  std::map<int, std::vector<uint8_t>> in_use_;  // per column: the page its reader decodes
  uint64_t pages_decompressed_ = 0;
  uint64_t pages_taken_ = 0;
  std::thread worker_;  // started at the first chunk queued
};

}  // namespace parquet
