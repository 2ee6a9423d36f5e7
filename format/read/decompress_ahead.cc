// DecompressAhead (decompress_ahead.h): the worker thread and the hand-over of its pages.
#include "format/read/decompress_ahead.h"

#include <algorithm>
#include <system_error>

#include "format/common/error.h"

namespace parquet {

DecompressAhead::DecompressAhead(const ParquetFileReader& file, std::shared_ptr<MemoryBudget> budget, bool verify_crc,
                                 int pages_ahead)
    : file_(file), budget_(std::move(budget)), verify_crc_(verify_crc),
      pages_ahead_(static_cast<size_t>(std::max(1, pages_ahead))) {
  // Allocated once: a window regrown page by page costs the worker's malloc arena more.
  window_.bytes.reserve(PageReader::kPieceWindow);
}

DecompressAhead::~DecompressAhead() {
  Stop();
  if (budget_) budget_->Give(charged_);
}

void DecompressAhead::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  done_.notify_all();
  idle_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void DecompressAhead::MovedTo(int column, int row_group) {
  std::unique_lock<std::mutex> lock(mutex_);
  Column& c = columns_[column];
  c.reader_row_group = row_group;
  c.reader_passed = 0;
  // Pages of row groups the reader will not read next (it went on, or back).
  while (!c.ready.empty() && c.ready.front().row_group < row_group) {
    Recycle(c, std::move(c.ready.front().bytes));
    c.ready.pop_front();
  }
  while (!c.ready.empty() && c.ready.back().row_group > row_group + 1) {
    Recycle(c, std::move(c.ready.back().bytes));
    c.ready.pop_back();
  }
  if (stop_) return;
  int64_t largest = file_.column_metadata(row_group, column).total_uncompressed_size;
  if (row_group + 1 < file_.num_row_groups()) {
    largest = std::max(largest, file_.column_metadata(row_group + 1, column).total_uncompressed_size);
  }
  // The page the reader decodes and those ahead, each at most the chunk's size, in
  // buffers grown with an eighth to spare (DecompressNextPage).
  const uint64_t page = largest > 0 ? static_cast<uint64_t>(largest) : 0;
  const uint64_t want = (page + page / 8) * (pages_ahead_ + 1);
  if (want > c.allowance) {
    const uint64_t more = want - c.allowance;
    if (budget_ == nullptr) {
      c.allowance = want;
    } else if (budget_->used() + more <= budget_->limit() / 2) {
      budget_->Take(more);  // cannot throw: it fits
      charged_ += more;
      c.allowance = want;
    }
  }
  if (!worker_.joinable()) {
    try {
      worker_ = std::thread([this] { Run(); });
    } catch (const std::system_error&) {
      stop_ = true;  // no thread to be had: the readers decompress every page themselves
      return;
    }
  }
  lock.unlock();
  wake_.notify_one();
}

const uint8_t* DecompressAhead::Take(int column, int row_group, uint64_t page_offset, size_t src_offset,
                                     size_t src_size, size_t size) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto it = columns_.find(column);
  if (it == columns_.end()) return nullptr;
  Column& c = it->second;
  if (c.in_use.capacity() > 0) Recycle(c, std::move(c.in_use));  // the reader is done with it
  c.in_use = std::vector<uint8_t>();
  c.reader_row_group = row_group;
  c.reader_passed = page_offset;
  while (true) {
    // Pages in file order: those before the one asked for were skipped by the reader.
    while (!c.ready.empty() && (c.ready.front().row_group < row_group ||
                                (c.ready.front().row_group == row_group && c.ready.front().page_offset < page_offset))) {
      Recycle(c, std::move(c.ready.front().bytes));
      c.ready.pop_front();
    }
    if (!c.ready.empty() && c.ready.front().row_group == row_group && c.ready.front().page_offset == page_offset) {
      Page& page = c.ready.front();
      const bool same = page.src_offset == src_offset && page.src_size == src_size && page.size == size;
      if (same) c.in_use = std::move(page.bytes);
      else Recycle(c, std::move(page.bytes));
      c.ready.pop_front();
      const uint8_t* bytes = same ? c.in_use.data() : nullptr;
      lock.unlock();
      wake_.notify_one();  // room for another page of the column
      return bytes;
    }
    // The worker is walking this chunk, or will next (it may be busy with an earlier one,
    // which it leaves for this one): it comes to this page (pages before it are skipped),
    // so the reader waits rather than decompressing it too. Else (the worker stopped, went
    // past it, or has no room) the page is the reader's.
    if (stop_ || !(c.busy ? c.busy_row_group <= row_group : NextStep(c).row_group == row_group)) break;
    wake_.notify_one();
    done_.wait(lock);
  }
  c.reader_passed = page_offset + 1;  // the reader reads it: the worker skips it
  lock.unlock();
  wake_.notify_one();
  return nullptr;
}

void DecompressAhead::WaitIdle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] {
    if (stop_ || !worker_.joinable()) return true;
    for (const auto& [index, c] : columns_) {
      if (c.busy || NextStep(c).any) return false;
    }
    return true;
  });
}

uint64_t DecompressAhead::pages_decompressed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pages_decompressed_;
}

uint64_t DecompressAhead::charged() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return charged_;
}

size_t DecompressAhead::read_window_capacity() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return window_.bytes.capacity();
}

DecompressAhead::Step DecompressAhead::NextStep(const Column& c) const {
  Step step;
  if (stop_ || c.reader_row_group < 0 || c.allowance == 0 || c.ready.size() >= pages_ahead_) return step;
  if (c.row_group < c.reader_row_group || c.row_group > c.reader_row_group + 1) {
    step.move = true;
    step.row_group = c.reader_row_group;
  } else if (c.at_end && c.row_group == c.reader_row_group && c.row_group + 1 < file_.num_row_groups()) {
    step.move = true;
    step.row_group = c.row_group + 1;
  } else if (c.at_end) {
    return step;
  } else {
    step.row_group = c.row_group;
  }
  step.any = true;
  return step;
}

void DecompressAhead::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    // The next column with work after the one served last, round the columns.
    auto found = columns_.end();
    Step step;
    for (int pass = 0; pass < 2 && found == columns_.end(); pass++) {
      for (auto it = pass == 0 ? columns_.upper_bound(last_column_) : columns_.begin(); it != columns_.end(); ++it) {
        step = NextStep(it->second);
        if (step.any) {
          found = it;
          break;
        }
      }
    }
    if (found == columns_.end()) {
      idle_.notify_all();
      wake_.wait(lock);
      continue;
    }
    last_column_ = found->first;
    DecompressNextPage(found->first, found->second, step, lock);
  }
}

// Walks the chunk with the column's own PageReader (no budget: the column's buffers are
// bounded by its allowance; the read window is the worker's one) to the next compressed data page the reader has not passed, and
// publishes its decompressed value section. At the chunk's end, at a page it cannot read
// and at a page it has no room for, the worker leaves the rest of the chunk to the reader,
// which reads that page and reports what is wrong with it.
void DecompressAhead::DecompressNextPage(int index, Column& c, Step step, std::unique_lock<std::mutex>& lock) {
  const int reader_row_group = c.reader_row_group;
  const uint64_t reader_passed = c.reader_passed;
  std::vector<uint8_t> buffer;
  if (!c.spare.empty()) {
    buffer = std::move(c.spare.back());
    c.spare.pop_back();
  }
  const size_t capacity_before = buffer.capacity();
  uint64_t growth = 0;  // taken into c.held for this page
  c.busy = true;
  c.busy_row_group = step.row_group;
  c.busy_offset = 0;
  bool published = false;
  bool chunk_done = false;  // the page published is the chunk's last
  Page page;
  lock.unlock();
  // The next page to decompress, its value section in *section; false when there is none
  // to do in this chunk.
  auto find_page = [&](PageReader& pages, PageValueSection* section) {
    while (pages.NextPage()) {
      const PageHeader& header = pages.header();
      if (header.type != PageType::DATA_PAGE && header.type != PageType::DATA_PAGE_V2) continue;
      if (step.row_group == reader_row_group && pages.page_offset() < reader_passed) continue;
      *section = pages.ValueSection();  // from the header (an unencrypted column)
      if (section->compressed) return true;  // else the reader uses the body as it is
    }
    return false;
  };
  try {
    if (!c.pages) {
      ColumnReaderOptions options;
      options.verify_crc = verify_crc_;
      options.use_offset_index = false;
      c.pages = std::make_unique<PageReader>(file_, index, options, &c.counters);
      c.pages->ShareReadWindow(&window_);  // one page's bytes at a time, whichever column
    }
    PageReader& pages = *c.pages;
    if (step.move) {
      pages.Reset(step.row_group);
      lock.lock();
      c.row_group = step.row_group;
      c.at_end = false;
      lock.unlock();
    }
    PageValueSection section;
    if (pages.metadata().codec != CompressionCodec::UNCOMPRESSED && find_page(pages, &section)) {
      lock.lock();
      // A buffer grown with room for the column's larger pages to come, so that it is
      // allocated once: as much as the column's largest chunk is larger than this one (a
      // chunk of one page: that chunk's page exactly), at most an eighth.
      const size_t capacity = section.size > buffer.capacity() ? section.size + RoomToGrow(c, pages, section.size)
                                                               : buffer.capacity();
      const uint64_t more = capacity - buffer.capacity();
      if (c.held + more > c.allowance) {
        for (std::vector<uint8_t>& spare : c.spare) c.held -= spare.capacity();
        c.spare.clear();
      }
      const bool room = !stop_ && c.held + more <= c.allowance;
      if (room) {
        growth = more;
        c.held += growth;
        c.busy_offset = pages.page_offset();
      }
      lock.unlock();
      if (room) {  // else the reader reads the rest of the chunk
        page.row_group = step.row_group;
        page.page_offset = pages.page_offset();
        page.src_offset = section.offset;
        page.src_size = section.stored_size;
        page.size = section.size;
        published = pages.DecompressValuesInPieces(section, [&](size_t size) {
          if (buffer.capacity() < capacity) {
            buffer = std::vector<uint8_t>();  // freed before the larger one is allocated
            buffer.reserve(capacity);
          }
          buffer.resize(size);
          return buffer.data();
        }) != nullptr;
        chunk_done = pages.next_page_offset() >= pages.chunk_end();
      }
    }
  } catch (const std::exception&) {
    // A page the worker cannot read or decompress (or no memory): the reader finds out.
    published = false;
  }
  lock.lock();
  c.busy = false;
  c.held = c.held - growth + (buffer.capacity() - capacity_before);
  if (published && !stop_ && page.row_group >= c.reader_row_group) {
    page.bytes = std::move(buffer);
    c.ready.push_back(std::move(page));
    pages_decompressed_++;
    if (chunk_done) c.at_end = true;  // no walk to the chunk's end to find that out
  } else {
    if (!published) c.at_end = true;
    Recycle(c, std::move(buffer));
  }
  done_.notify_all();
}

size_t DecompressAhead::RoomToGrow(Column& c, const PageReader& pages, size_t size) const {
  if (c.largest_chunk < 0) {
    c.largest_chunk = 0;
    for (int row_group = 0; row_group < file_.num_row_groups(); row_group++) {
      c.largest_chunk = std::max(c.largest_chunk, file_.column_metadata(row_group, pages.column()).total_uncompressed_size);
    }
  }
  const int64_t this_chunk = std::max<int64_t>(0, pages.metadata().total_uncompressed_size);
  const uint64_t larger_by = c.largest_chunk > this_chunk ? static_cast<uint64_t>(c.largest_chunk - this_chunk) : 0;
  return static_cast<size_t>(std::min<uint64_t>(larger_by, size / 8));
}

// Keeps a page buffer for the column's next page (lock held).
void DecompressAhead::Recycle(Column& c, std::vector<uint8_t> buffer) {
  if (buffer.capacity() == 0) return;
  c.spare.push_back(std::move(buffer));
}

}  // namespace parquet
