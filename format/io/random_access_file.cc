// Local-file (pread) and in-memory implementations of RandomAccessFile.
#include "format/io/random_access_file.h"

#include <algorithm>
#include <cstring>

#include "format/common/error.h"
#include "format/platform/system.h"
#include "format/values/text.h"

namespace parquet {

void RandomAccessFile::ReadAt(uint64_t offset, size_t length, std::vector<uint8_t>* out) {
  CheckRange(offset, length);
  if (!IsRemote()) {
    out->resize(length);
    if (length > 0) ReadAt(offset, length, out->data());
    return;
  }
  // A remote file's size (and so what fits in it) is what its server claims: the buffer
  // grows a piece at a time as the bytes arrive, never to a claimed length up front.
  out->clear();
  for (size_t done = 0; done < length;) {
    const size_t piece = std::min<size_t>(length - done, kGrowingReadPiece);
    out->resize(done + piece);
    ReadAt(offset + done, piece, out->data() + done);
    done += piece;
  }
}

void RandomAccessFile::CheckRange(uint64_t offset, uint64_t length) const {
  uint64_t size = Size();
  if (offset > size || length > size - offset) {
    throw ParquetError("read of " + std::to_string(length) + " bytes at offset " +
                       std::to_string(offset) + " is beyond the end of " + Name() + " (" +
                       std::to_string(size) + " bytes)");
  }
}

namespace {

class LocalFile final : public RandomAccessFile {
 public:
  LocalFile(platform::File file, uint64_t size, std::string path)
      : file_(std::move(file)), size_(size), path_(std::move(path)) {}

  uint64_t Size() const override { return size_; }
  const std::string& Name() const override { return path_; }

  void ReadAt(uint64_t offset, size_t length, uint8_t* out) override {
    CheckRange(offset, length);
    size_t done = 0;
    while (done < length) {
      size_t n = 0;
      if (platform::SystemResult read = file_.ReadAt(offset + done, out + done, length - done, &n); !read.ok()) {
        throw ParquetError("cannot read " + path_ + ": " + read.text);
      }
      if (n == 0) {
        throw ParquetError("unexpected end of file in " + path_ +
                           " (was it truncated while being read?)");
      }
      done += n;
    }
  }
  using RandomAccessFile::ReadAt;

 private:
  platform::File file_;
  uint64_t size_;
  std::string path_;
};

class MemoryFile final : public RandomAccessFile {
 public:
  MemoryFile(const uint8_t* data, size_t size, std::string name)
      : bytes_(data, data + size), name_(std::move(name)) {}

  uint64_t Size() const override { return bytes_.size(); }
  const std::string& Name() const override { return name_; }

  void ReadAt(uint64_t offset, size_t length, uint8_t* out) override {
    CheckRange(offset, length);
    if (length > 0) std::memcpy(out, bytes_.data() + offset, length);
  }
  using RandomAccessFile::ReadAt;

 private:
  std::vector<uint8_t> bytes_;
  std::string name_;
};

}  // namespace

std::string PathNulByteError(const std::string& path) {
  if (path.find('\0') == std::string::npos) return "";
  return "path '" + ShowNulBytes(path) + "' contains a NUL byte";
}

std::unique_ptr<RandomAccessFile> OpenLocalFile(const std::string& path) {
  if (std::string error = PathNulByteError(path); !error.empty()) throw ParquetError(error);
  if (std::string error = platform::DeviceNameError(path); !error.empty()) {
    throw ParquetError("cannot open '" + path + "': " + error);
  }
  platform::File file;
  platform::FileStatus status;
  if (platform::SystemResult opened = platform::OpenForReading(path, &file, &status); !opened.ok()) {
    throw ParquetError("cannot open '" + path + "': " + opened.text);
  }
  if (status.type == platform::FileType::kDirectory) {
    throw ParquetError("cannot open '" + path + "': it is a directory");
  }
  if (status.type != platform::FileType::kRegular) {
    throw ParquetError("cannot open '" + path + "': not a regular file");
  }
  return std::make_unique<LocalFile>(std::move(file), status.size, path);
}

std::unique_ptr<RandomAccessFile> OpenLocalFile(platform::File file, const std::string& name) {
  platform::FileStatus status;
  if (platform::SystemResult found = file.Status(&status); !found.ok()) {
    throw ParquetError("cannot stat '" + name + "': " + found.text);
  }
  return std::make_unique<LocalFile>(std::move(file), status.size, name);
}

std::string ReadSmallFile(const std::string& path, size_t max_bytes) {
  std::unique_ptr<RandomAccessFile> file = OpenLocalFile(path);
  if (file->Size() > max_bytes) {
    throw ParquetError("cannot read " + path + ": larger than " + std::to_string(max_bytes) + " bytes");
  }
  std::string text(static_cast<size_t>(file->Size()), '\0');
  file->ReadAt(0, text.size(), reinterpret_cast<uint8_t*>(text.data()));
  return text;
}

std::unique_ptr<RandomAccessFile> OpenMemoryFile(const uint8_t* data, size_t size, std::string name) {
  return std::make_unique<MemoryFile>(data, size, std::move(name));
}

}  // namespace parquet
