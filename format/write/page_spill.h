// PageSpill: where finished data pages of the writer's open row group wait once the pages
// held in memory pass WriterOptions::buffered_pages_limit. An unlinked temporary file in the
// output's directory (same file system, so copy_file_range can move the bytes without
// reading them into memory), emptied after each row group.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "format/platform/system.h"

namespace parquet {

class PageSpill {
 public:
  // `output_path`: the file being written (the spill file goes beside it); `limit`: bytes of
  // pages the open row group's chunks may hold in memory.
  PageSpill(std::string output_path, size_t limit) : output_path_(std::move(output_path)), limit_(limit) {}
  PageSpill(const PageSpill&) = delete;
  PageSpill& operator=(const PageSpill&) = delete;

  // Bookkeeping of the pages held in memory by every chunk of the open row group.
  void Hold(size_t bytes) { held_ += bytes; }
  void Release(size_t bytes) { held_ -= std::min(held_, bytes); }
  bool OverLimit() const { return held_ > limit_; }

  // Appends `data` to the spill file; returns its offset there.
  uint64_t Append(const std::string& data);

  // Copies `size` bytes at `offset` of the spill file to `out` at its file position.
  void CopyTo(platform::File& out, uint64_t offset, uint64_t size, const std::string& out_path);

  // After a row group: forget the spilled bytes (the file keeps no blocks).
  void Reset();

 private:
  void Open();

  std::string output_path_;
  size_t limit_;
  size_t held_ = 0;
  platform::File file_;
  uint64_t size_ = 0;
  bool use_copy_file_range_ = true;
};

}  // namespace parquet
