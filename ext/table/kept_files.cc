// KeptFiles: the bounds on the files cursors keep open between scans (kept_files.h).
#include "ext/table/kept_files.h"


#include <atomic>

#include "format/platform/system.h"

namespace sqlite_parquet {

namespace {

constexpr size_t kFilesPerCursor = 64;
constexpr uint64_t kFooterBytesPerCursor = 16 << 20;
// Without a finite RLIMIT_NOFILE, the process-wide bound.
constexpr size_t kProcessFilesUnlimited = 4096;

std::atomic<size_t> process_kept_files{0};

// Counts one more kept file in the process, unless that would pass ProcessLimit().
bool ReserveProcessSlot() {
  const size_t limit = KeptFiles::ProcessLimit();
  size_t count = process_kept_files.load(std::memory_order_relaxed);
  do {
    if (count >= limit) return false;
  } while (!process_kept_files.compare_exchange_weak(count, count + 1, std::memory_order_relaxed));
  return true;
}

}  // namespace

size_t KeptFiles::ProcessCount() { return process_kept_files.load(std::memory_order_relaxed); }

size_t KeptFiles::ProcessLimit() {
  const uint64_t limit = parquet::platform::OpenFileLimit();
  if (limit == 0) return kProcessFilesUnlimited;
  const uint64_t quarter = limit / 4;
  return quarter < kProcessFilesUnlimited ? static_cast<size_t>(quarter) : kProcessFilesUnlimited;
}

void KeptFiles::Put(size_t index, std::unique_ptr<parquet::ParquetFileReader> file) {
  if (!file || file->file().IsRemote() || files_.size() >= kFilesPerCursor || files_.count(index) != 0) return;
  const uint64_t footer = file->footer_length();
  if (footer_bytes_ + footer > kFooterBytesPerCursor || !ReserveProcessSlot()) return;
  footer_bytes_ += footer;
  files_.emplace(index, std::move(file));
}

std::unique_ptr<parquet::ParquetFileReader> KeptFiles::Take(size_t index) {
  const auto kept = files_.find(index);
  if (kept == files_.end()) return nullptr;
  std::unique_ptr<parquet::ParquetFileReader> file = std::move(kept->second);
  files_.erase(kept);
  footer_bytes_ -= file->footer_length();
  process_kept_files.fetch_sub(1, std::memory_order_relaxed);
  return file;
}

void KeptFiles::Clear() {
  process_kept_files.fetch_sub(files_.size(), std::memory_order_relaxed);
  files_.clear();
  footer_bytes_ = 0;
}

}  // namespace sqlite_parquet
