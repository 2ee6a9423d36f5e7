// DecompressAhead (decompress_ahead.h): the worker thread and the hand-over of its pages.
#include "format/decompress_ahead.h"

#include <system_error>

#include "format/error.h"
#include "format/page_reader.h"

namespace parquet {

DecompressAhead::DecompressAhead(const ParquetFileReader& file, std::shared_ptr<MemoryBudget> budget, bool verify_crc)
    : file_(file), budget_(std::move(budget)), verify_crc_(verify_crc) {}

DecompressAhead::~DecompressAhead() {
  Stop();
  for (auto& [key, chunk] : chunks_) {
    if (budget_) budget_->Give(chunk.charged);
  }
}

void DecompressAhead::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  idle_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void DecompressAhead::MovedTo(int column, int row_group) {
  const Key next{column, row_group + 1};
  std::unique_lock<std::mutex> lock(mutex_);
  for (auto it = chunks_.lower_bound(Key{column, 0}); it != chunks_.end() && it->first.first == column;) {
    auto current = it++;
    if (current->first.second != row_group && current->first != next) Drop(current);
  }
  if (stop_ || row_group + 1 >= file_.num_row_groups() || chunks_.count(next) != 0) return;
  const int64_t size = file_.column_metadata(row_group + 1, column).total_uncompressed_size;
  if (size <= 0) return;
  if (budget_) {
    try {
      budget_->Take(static_cast<uint64_t>(size));
    } catch (const ParquetError&) {
      return;  // no room: the reader decompresses that chunk itself
    }
  }
  Chunk& chunk = chunks_[next];
  chunk.charged = static_cast<uint64_t>(size);
  queue_.push_back(next);
  if (!worker_.joinable()) {
    try {
      worker_ = std::thread([this] { Run(); });
    } catch (const std::system_error&) {
      // No thread to be had: the readers decompress every page themselves.
      stop_ = true;
      Drop(chunks_.find(next));
      return;
    }
  }
  lock.unlock();
  wake_.notify_one();
}

const uint8_t* DecompressAhead::Take(int column, int row_group, uint64_t page_offset, size_t src_offset,
                                     size_t src_size, size_t size) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = chunks_.find(Key{column, row_group});
  if (it == chunks_.end()) return nullptr;
  std::deque<Page>& pages = it->second.pages;
  // Pages are published in file order; those before the one asked for were skipped.
  while (!pages.empty() && pages.front().page_offset < page_offset) {
    pages.pop_front();
  }
  if (pages.empty()) return nullptr;
  Page& page = pages.front();
  if (page.page_offset != page_offset || page.src_offset != src_offset || page.src_size != src_size ||
      page.size != size) {
    return nullptr;
  }
  std::vector<uint8_t>& in_use = in_use_[column];
  in_use = std::move(page.bytes);
  pages.pop_front();
  pages_taken_++;
  return in_use.data();
}

void DecompressAhead::WaitIdle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] {
    if (stop_ || !worker_.joinable()) return true;
    if (!queue_.empty()) return false;
    for (const auto& [key, chunk] : chunks_) {
      if (chunk.state == ChunkState::kRunning) return false;
    }
    return true;
  });
}

uint64_t DecompressAhead::pages_decompressed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pages_decompressed_;
}

uint64_t DecompressAhead::pages_taken() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pages_taken_;
}

void DecompressAhead::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    const Key key = queue_.front();
    queue_.pop_front();
    auto it = chunks_.find(key);
    if (it == chunks_.end()) continue;
    it->second.state = ChunkState::kRunning;
    lock.unlock();
    DecompressChunk(key);
    lock.lock();
    it = chunks_.find(key);
    if (it != chunks_.end() && it->second.dropped) {
      chunks_.erase(it);
    } else if (it != chunks_.end()) {
      it->second.state = ChunkState::kDone;
    }
    idle_.notify_all();
  }
}

// Walks the chunk's pages with a PageReader of its own (no budget: the chunk is charged as
// a whole) and publishes each compressed data page's value section. Stops at the first
// page it cannot read: the scan's reader reads that one and reports what is wrong.
void DecompressAhead::DecompressChunk(Key key) {
  ColumnReaderOptions options;
  options.verify_crc = verify_crc_;
  options.use_offset_index = false;
  ColumnReadCounters counters;
  try {
    PageReader pages(file_, key.first, options, &counters);
    pages.Reset(key.second);
    if (pages.metadata().codec == CompressionCodec::UNCOMPRESSED) return;
    while (pages.NextPage()) {
      const PageHeader& header = pages.header();
      if (header.type != PageType::DATA_PAGE && header.type != PageType::DATA_PAGE_V2) continue;
      pages.ReadBody();
      const PageValueSection section = pages.ValueSection();
      if (!section.compressed) continue;  // the reader uses the body as it is
      const size_t src_offset = section.offset, src_size = section.stored_size, size = section.size;
      std::vector<uint8_t> buffer;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = chunks_.find(key);
        if (stop_ || it == chunks_.end() || it->second.dropped || it->second.produced + size > it->second.charged) {
          return;
        }
        it->second.produced += size;
      }
      pages.DecompressInto(pages.body() + src_offset, src_size, size, true, &buffer);
      Page page;
      page.page_offset = pages.page_offset();
      page.src_offset = src_offset;
      page.src_size = src_size;
      page.size = size;
      page.bytes = std::move(buffer);
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = chunks_.find(key);
      if (stop_ || it == chunks_.end() || it->second.dropped) return;
      it->second.pages.push_back(std::move(page));
      pages_decompressed_++;
    }
  } catch (const std::exception&) {
    // A page the worker cannot read or decompress (or no memory): the reader finds out.
  }
}

void DecompressAhead::Drop(std::map<Key, Chunk>::iterator it) {
  Chunk& chunk = it->second;
  if (budget_) budget_->Give(chunk.charged);
  chunk.charged = 0;
  if (chunk.state == ChunkState::kRunning) {
    chunk.dropped = true;
    return;
  }
  if (chunk.state == ChunkState::kQueued) {
    for (auto q = queue_.begin(); q != queue_.end(); ++q) {
      if (*q == it->first) {
        queue_.erase(q);
        break;
      }
    }
  }
  chunks_.erase(it);
}

}  // namespace parquet
