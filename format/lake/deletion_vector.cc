// Deletion vectors read and verified (deletion_vector.h).
#include "format/lake/deletion_vector.h"

#include <mutex>

#include "format/codec/checksum.h"
#include "format/common/error.h"
#include "format/io/random_access_file.h"
#include "format/io/remote_file.h"
#include "format/lake/z85.h"

namespace parquet::lake {

namespace {

constexpr uint32_t kDeletionVectorMagic = 1681511377;  // bytes D1 D3 39 64

uint32_t BigEndian32(std::string_view data, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; i++) v = (v << 8) | static_cast<uint8_t>(data[at + i]);
  return v;
}

std::string UuidText(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[static_cast<uint8_t>(bytes[i]) >> 4]);
    out.push_back(kHex[static_cast<uint8_t>(bytes[i]) & 15]);
  }
  return out;
}

}  // namespace

std::string DeletionVectorDescriptor::UniqueId() const {
  std::string id(1, storage_type);
  id += path_or_inline;
  if (offset) id += "@" + std::to_string(*offset);
  return id;
}

std::vector<PositionRange> DecodeDeletionVectorData(std::string_view data, const std::string& what) {
  if (data.size() < 4) throw ParquetError("deletion vector " + what + ": " + std::to_string(data.size()) + " bytes, too short");
  uint32_t magic = 0;
  for (int i = 3; i >= 0; i--) magic = (magic << 8) | static_cast<uint8_t>(data[static_cast<size_t>(i)]);
  if (magic != kDeletionVectorMagic) throw ParquetError("deletion vector " + what + ": wrong magic number " + std::to_string(magic));
  try {
    return DecodeRoaring64(data.substr(4));
  } catch (const ParquetError& e) {
    throw ParquetError("deletion vector " + what + ": " + e.what());
  }
}

std::vector<PositionRange> DecodeFramedDeletionVector(std::string_view framed, const std::string& what) {
  if (framed.size() < 8) throw ParquetError("deletion vector " + what + ": truncated");
  const uint32_t length = BigEndian32(framed, 0);
  if (length != framed.size() - 8) {
    throw ParquetError("deletion vector " + what + ": its length field says " + std::to_string(length) +
                       " bytes where the descriptor says " + std::to_string(framed.size() - 8));
  }
  const std::string_view data = framed.substr(4, length);
  const uint32_t stored = BigEndian32(framed, 4 + static_cast<size_t>(length));
  const uint32_t computed = Crc32(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  if (stored != computed) throw ParquetError("deletion vector " + what + ": checksum mismatch");
  return DecodeDeletionVectorData(data, what);
}

std::string DeletionVectorFile(const DeletionVectorDescriptor& dv, const std::string& table_root) {
  if (dv.storage_type == 'p') {
    if (dv.path_or_inline.empty()) throw ParquetError("deletion vector with an empty path");
    return dv.path_or_inline;
  }
  if (dv.storage_type != 'u') throw ParquetError(std::string("deletion vector storage type '") + dv.storage_type + "' has no file");
  const std::string& text = dv.path_or_inline;
  if (text.size() < 20) throw ParquetError("deletion vector id '" + text + "' is shorter than 20 characters");
  const std::string prefix = text.substr(0, text.size() - 20);
  const std::optional<std::string> uuid = DecodeZ85(std::string_view(text).substr(text.size() - 20));
  if (!uuid || uuid->size() != 16) throw ParquetError("deletion vector id '" + text + "' is not Z85 of 16 bytes");
  for (char c : prefix) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!ok) throw ParquetError("deletion vector id '" + text + "' has a prefix that is not alphanumeric");
  }
  return table_root + "/" + (prefix.empty() ? "" : prefix + "/") + "deletion_vector_" + UuidText(*uuid) + ".bin";
}

std::vector<PositionRange> ReadDeletionVector(const DeletionVectorDescriptor& dv, const std::string& table_root,
                                              const RemoteOptions* remote) {
  if (dv.size_in_bytes < 4 || dv.size_in_bytes > kMaxDeletionVectorBytes) {
    throw ParquetError("deletion vector " + dv.UniqueId() + ": size " + std::to_string(dv.size_in_bytes) +
                       " out of bounds");
  }
  if (dv.cardinality < 0) throw ParquetError("deletion vector " + dv.UniqueId() + ": negative cardinality");
  std::vector<PositionRange> ranges;
  std::string what;
  if (dv.storage_type == 'i') {
    what = "inline '" + dv.path_or_inline + "'";
    if (dv.offset) throw ParquetError("deletion vector " + what + ": an inline vector has no offset");
    std::string_view encoded = dv.path_or_inline;
    const std::optional<std::string> bytes = DecodeZ85(encoded);
    if (!bytes) throw ParquetError("deletion vector " + what + ": not Z85 text");
    if (bytes->size() < static_cast<size_t>(dv.size_in_bytes) || bytes->size() - static_cast<size_t>(dv.size_in_bytes) >= 4) {
      throw ParquetError("deletion vector " + what + ": " + std::to_string(bytes->size()) +
                         " bytes where sizeInBytes is " + std::to_string(dv.size_in_bytes));
    }
    ranges = DecodeDeletionVectorData(std::string_view(*bytes).substr(0, static_cast<size_t>(dv.size_in_bytes)), what);
  } else {
    const std::string path = DeletionVectorFile(dv, table_root);
    what = PathForDisplay(path);
    const int64_t offset = dv.offset.value_or(1);
    if (offset < 0) throw ParquetError("deletion vector " + what + ": negative offset");
    std::unique_ptr<RandomAccessFile> file = OpenFileOrUrl(path, remote);
    const uint64_t framed_size = static_cast<uint64_t>(dv.size_in_bytes) + 8;
    if (static_cast<uint64_t>(offset) > file->Size() || framed_size > file->Size() - static_cast<uint64_t>(offset)) {
      throw ParquetError("deletion vector " + what + ": offset " + std::to_string(offset) + " and size " +
                         std::to_string(dv.size_in_bytes) + " lie past the end of the file (" +
                         std::to_string(file->Size()) + " bytes)");
    }
    std::vector<uint8_t> bytes;
    file->ReadAt(static_cast<uint64_t>(offset), static_cast<size_t>(framed_size), &bytes);
    ranges = DecodeFramedDeletionVector(
        std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), what);
  }
  const uint64_t count = CountPositions(ranges);
  if (count != static_cast<uint64_t>(dv.cardinality)) {
    throw ParquetError("deletion vector " + what + ": holds " + std::to_string(count) + " rows where its cardinality says " +
                       std::to_string(dv.cardinality));
  }
  return ranges;
}

namespace {

class DeltaDeletedRows : public DeletedRowsSource {
 public:
  DeltaDeletedRows(DeletionVectorDescriptor dv, std::string root, std::shared_ptr<const RemoteOptions> remote)
      : dv_(std::move(dv)), root_(std::move(root)), remote_(std::move(remote)) {}
  int64_t claimed_count() const override { return dv_.cardinality; }
  std::shared_ptr<const DeletedRows> Load() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!loaded_) loaded_ = std::make_shared<const DeletedRows>(ReadDeletionVector(dv_, root_, remote_.get()));
    return loaded_;
  }

 private:
  DeletionVectorDescriptor dv_;
  std::string root_;
  std::shared_ptr<const RemoteOptions> remote_;
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const DeletedRows> loaded_;
};

}  // namespace

std::shared_ptr<const DeletedRowsSource> MakeDeltaDeletedRows(DeletionVectorDescriptor dv, std::string table_root,
                                                              std::shared_ptr<const RemoteOptions> remote) {
  return std::make_shared<DeltaDeletedRows>(std::move(dv), std::move(table_root), std::move(remote));
}

}  // namespace parquet::lake
