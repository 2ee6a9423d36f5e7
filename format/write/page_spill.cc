// The spill file of the writer's finished pages (see page_spill.h).
#include "format/write/page_spill.h"

#include "format/common/error.h"

namespace parquet {

uint64_t PageSpill::Append(const std::string& data) {
  if (!file_.is_open()) Open();
  const uint64_t offset = size_;
  if (platform::SystemResult written = file_.WriteAt(size_, data.data(), data.size()); !written.ok()) {
    throw ParquetError("cannot write to '" + output_path_ + "': " + written.text + " (its spill file)");
  }
  size_ += data.size();
  return offset;
}

void PageSpill::CopyTo(platform::File& out, uint64_t offset, uint64_t size, const std::string& out_path) {
  if (platform::SystemResult copied = platform::CopyRange(file_, offset, size, out, &use_copy_file_range_);
      !copied.ok()) {
    throw ParquetError("cannot write to '" + out_path + "': " + copied.text + " (from its spill file)");
  }
}

void PageSpill::Reset() {
  held_ = 0;
  if (file_.is_open() && size_ > 0) {
    if (platform::SystemResult truncated = file_.Truncate(0); !truncated.ok()) {
      throw ParquetError("cannot truncate the spill file of '" + output_path_ + "': " + truncated.text);
    }
  }
  size_ = 0;
}

void PageSpill::Open() {
  const size_t slash = output_path_.find_last_of(platform::kWindows ? "/\\" : "/");
  const std::string directory = slash == std::string::npos ? "." : (slash == 0 ? "/" : output_path_.substr(0, slash));
  if (platform::SystemResult created = platform::CreateScratchFile(directory, output_path_, &file_); !created.ok()) {
    throw ParquetError("cannot create a spill file beside '" + output_path_ + "': " + created.text);
  }
}

}  // namespace parquet
