// The spill file of the writer's finished pages (see page_spill.h).
#include "format/write/page_spill.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "format/common/error.h"

namespace parquet {

PageSpill::~PageSpill() {
  if (fd_ >= 0) ::close(fd_);
}

uint64_t PageSpill::Append(const std::string& data) {
  if (fd_ < 0) Open();
  const uint64_t offset = size_;
  const char* pos = data.data();
  size_t left = data.size();
  while (left > 0) {
    const ssize_t written = ::pwrite(fd_, pos, left, static_cast<off_t>(size_));
    if (written < 0) {
      if (errno == EINTR) continue;
      throw ParquetError("cannot write to '" + output_path_ + "': " + std::strerror(errno) + " (its spill file)");
    }
    pos += written;
    left -= static_cast<size_t>(written);
    size_ += static_cast<uint64_t>(written);
  }
  return offset;
}

void PageSpill::CopyTo(int out_fd, uint64_t offset, uint64_t size, const std::string& out_path) {
  off64_t in = static_cast<off64_t>(offset);
  while (size > 0 && use_copy_file_range_) {
    const ssize_t copied = ::copy_file_range(fd_, &in, out_fd, nullptr, size, 0);
    if (copied < 0 && errno == EINTR) continue;
    if (copied <= 0) {
      // Not supported here (old kernel, file system, ...): copy through a buffer below.
      if (copied < 0 && errno != ENOSYS && errno != EXDEV && errno != EINVAL && errno != EOPNOTSUPP) {
        throw ParquetError("cannot write to '" + out_path + "': " + std::strerror(errno) + " (from its spill file)");
      }
      use_copy_file_range_ = false;
      break;
    }
    size -= static_cast<uint64_t>(copied);
  }
  std::string buffer;
  while (size > 0) {
    buffer.resize(static_cast<size_t>(std::min<uint64_t>(size, 256 * 1024)));
    const ssize_t got = ::pread(fd_, buffer.data(), buffer.size(), in);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) throw ParquetError("cannot read the spill file of '" + out_path + "': " + std::strerror(errno));
    for (size_t done = 0; done < static_cast<size_t>(got);) {
      const ssize_t written = ::write(out_fd, buffer.data() + done, static_cast<size_t>(got) - done);
      if (written < 0 && errno == EINTR) continue;
      if (written < 0) throw ParquetError("cannot write to '" + out_path + "': " + std::strerror(errno));
      done += static_cast<size_t>(written);
    }
    in += got;
    size -= static_cast<uint64_t>(got);
  }
}

void PageSpill::Reset() {
  held_ = 0;
  if (fd_ >= 0 && size_ > 0 && ::ftruncate(fd_, 0) != 0) {
    throw ParquetError("cannot truncate the spill file of '" + output_path_ + "': " + std::strerror(errno));
  }
  size_ = 0;
}

void PageSpill::Open() {
  const size_t slash = output_path_.rfind('/');
  const std::string directory = slash == std::string::npos ? "." : (slash == 0 ? "/" : output_path_.substr(0, slash));
#ifdef O_TMPFILE
  fd_ = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
  if (fd_ < 0) {
    std::string name = output_path_ + ".spill-XXXXXX";
    fd_ = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd_ < 0) {
      throw ParquetError("cannot create a spill file beside '" + output_path_ + "': " + std::strerror(errno));
    }
    ::unlink(name.c_str());
  }
}

}  // namespace parquet
