// DecompressAhead: decompresses the data pages of the columns a scan reads on a worker
// thread, a few pages ahead of each column's reader, while the scan's own thread decodes.
// The PageReader of a column tells it where the reader is (MovedTo, when it moves to a row
// group) and, for each compressed data page, takes the worker's bytes in place of reading
// and decompressing the page itself (Take). Whatever the worker does not have in time (a
// page it went past, one it could not read or had no room for) the reader reads and
// decompresses itself, as without it, and reports its errors; a page the worker is about to
// decompress, or is decompressing, is waited for.
//
// The worker goes round the columns, one page at a time: a column's next page is done when
// fewer than `pages_ahead` of its pages wait, and only within the reader's row group and the
// next one. Memory, per column: the page its reader decodes and the pages waiting, in
// buffers reused from page to page (the one a reader gives up takes the next page) and
// allocated with room for the column's largest page in the file, so a scan allocates them
// about once. The worker's reads share one window: a snappy, zstd or brotli page passes
// through it a piece (32 KiB) at a time (PageReader::DecompressValuesInPieces); other
// codecs' pages, and smaller pages, are read whole. The readers keep no window or page
// buffer of their own beyond a page header's (PageReader::TrimWindow), and read their
// dictionary pages in pieces too (PageReader::DictionaryPageBytes). So on top of what a scan without the
// worker holds, one page as stored and one as decompressed per column, it holds a second
// decompressed page per column in place of the stored one: measured on the bench's files,
// peak memory is no higher (bench/README.md). The scan's MemoryBudget is charged
// (pages_ahead + 1) times the column's largest chunk (uncompressed) of the two row groups,
// when that leaves half of the budget free; a column without that room is left to its reader.
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
#include <vector>

#include "format/read/file_reader.h"
#include "format/read/page_reader.h"

namespace parquet {

class DecompressAhead {
 public:
  static constexpr int kDefaultPagesAhead = 1;

  // `file` and `budget` must outlive this object; `verify_crc` as for the scan's readers.
  DecompressAhead(const ParquetFileReader& file, std::shared_ptr<MemoryBudget> budget, bool verify_crc,
                  int pages_ahead = kDefaultPagesAhead);
  ~DecompressAhead();
  DecompressAhead(const DecompressAhead&) = delete;
  DecompressAhead& operator=(const DecompressAhead&) = delete;

  // Stops the worker (joined): the file is no longer touched, and Take gives only pages
  // already done. The destructor stops it too.
  void Stop();

  // The reader of `column` moved to `row_group` (from the scan's thread): the worker works
  // on that row group's pages the reader has not passed, then the next row group's.
  void MovedTo(int column, int row_group);
  // The decompressed value section of the data page whose header starts at file offset
  // `page_offset` in chunk (`row_group`, `column`): `src_offset` bytes into its body,
  // `src_size` bytes stored, `size` decompressed; waits for the worker when it is on its way
  // to the page. Null when the worker will not have it (the reader then reads it itself:
  // the worker skips it). Valid until the next Take of the column, or destruction.
  const uint8_t* Take(int column, int row_group, uint64_t page_offset, size_t src_offset, size_t src_size,
                      size_t size);

  // For tests: waits until the worker has nothing to do (every column's pages ahead done,
  // or out of its room); the pages it decompressed; what it charged to the budget.
  void WaitIdle();
  uint64_t pages_decompressed() const;
  uint64_t charged() const;
  size_t read_window_capacity() const;  // the worker's read window, in bytes (once stopped)

 private:
  struct Page {
    int row_group = 0;
    uint64_t page_offset = 0;
    size_t src_offset = 0, src_size = 0, size = 0;
    std::vector<uint8_t> bytes;
  };
  struct Column {
    // Set by the scan's thread.
    int reader_row_group = -1;
    uint64_t reader_passed = 0;  // pages of reader_row_group before this offset are the reader's
    uint64_t allowance = 0;      // bytes of page buffers the worker may hold (charged)
    // The worker's position: the chunk it walks, and whether it walked to its end (or
    // stopped at a page it could not read or had no room for).
    int row_group = -1;
    bool at_end = true;
    bool busy = false;  // the worker is reading page busy_offset of busy_row_group
    int busy_row_group = -1;
    uint64_t busy_offset = 0;
    std::deque<Page> ready;  // decompressed, in file order
    std::vector<uint8_t> in_use;  // the page the reader decodes
    std::vector<std::vector<uint8_t>> spare;
    uint64_t held = 0;  // capacity of the column's page buffers
    int64_t largest_chunk = -1;  // the column's largest chunk (uncompressed) in the file; -1: not yet known
    // Used by the worker only, outside the lock.
    std::unique_ptr<PageReader> pages;
    ColumnReadCounters counters;
  };
  // The worker's next step on a column: none, a page of its current chunk, or a page after
  // moving to chunk `row_group`.
  struct Step {
    bool any = false;
    bool move = false;
    int row_group = -1;
  };

  Step NextStep(const Column& column) const;  // lock held
  void Run();
  // One page of `column` (lock held on entry and exit, released while reading).
  void DecompressNextPage(int index, Column& column, Step step, std::unique_lock<std::mutex>& lock);
  void Recycle(Column& column, std::vector<uint8_t> buffer);
  // Bytes beyond a page of `size` to allocate a buffer with (lock held).
  size_t RoomToGrow(Column& column, const PageReader& pages, size_t size) const;

  const ParquetFileReader& file_;
  const std::shared_ptr<MemoryBudget> budget_;
  const bool verify_crc_;
  const size_t pages_ahead_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;  // for the worker: a column has work, or stop
  std::condition_variable done_;  // for the readers: a page was published
  std::condition_variable idle_;  // for WaitIdle: the worker has nothing to do
  bool stop_ = false;
  SharedReadWindow window_;  // the worker's reads, for every column's PageReader
  std::map<int, Column> columns_;
  int last_column_ = -1;  // the worker's round: the column it served last
  uint64_t charged_ = 0;
  uint64_t pages_decompressed_ = 0;
  std::thread worker_;  // started at the first MovedTo
};

}  // namespace parquet
