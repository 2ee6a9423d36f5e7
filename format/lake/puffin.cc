// Apache Iceberg Puffin files and deletion-vector-v1 blobs (puffin.h).
#include "format/lake/puffin.h"

#include <zlib.h>
#include <zstd.h>

#include <cstring>

#include "format/common/error.h"
#include "format/lake/json_view.h"
#include "format/values/json_document.h"

namespace parquet::lake {

namespace {

constexpr char kPuffinMagic[4] = {'P', 'F', 'A', '1'};
constexpr uint8_t kDeletionVectorMagic[4] = {0xD1, 0xD3, 0x39, 0x64};

[[noreturn]] void FailPuffin(const std::string& name, const std::string& what) {
  throw ParquetError("Puffin file '" + name + "': " + what);
}

uint32_t LittleEndian32(const char* p) {
  return uint32_t{static_cast<uint8_t>(p[0])} | (uint32_t{static_cast<uint8_t>(p[1])} << 8) |
         (uint32_t{static_cast<uint8_t>(p[2])} << 16) | (uint32_t{static_cast<uint8_t>(p[3])} << 24);
}

uint32_t BigEndian32(const char* p) {
  return (uint32_t{static_cast<uint8_t>(p[0])} << 24) | (uint32_t{static_cast<uint8_t>(p[1])} << 16) |
         (uint32_t{static_cast<uint8_t>(p[2])} << 8) | uint32_t{static_cast<uint8_t>(p[3])};
}

}  // namespace

PuffinFooter ParsePuffinFooter(std::string_view file, const std::string& name) {
  // magic, blobs..., magic, footer payload, payload size (4, LE), flags (4), magic
  if (file.size() < 4 + 4 + 12 || std::memcmp(file.data(), kPuffinMagic, 4) != 0) FailPuffin(name, "no Puffin magic at the start");
  if (std::memcmp(file.data() + file.size() - 4, kPuffinMagic, 4) != 0) FailPuffin(name, "no Puffin magic at the end");
  const uint32_t payload_size = LittleEndian32(file.data() + file.size() - 12);
  const uint8_t flags0 = static_cast<uint8_t>(file[file.size() - 8]);
  if (uint64_t{payload_size} + 12 + 4 + 4 > file.size()) FailPuffin(name, "footer payload size beyond the file");
  const size_t payload_start = file.size() - 12 - payload_size;
  if (std::memcmp(file.data() + payload_start - 4, kPuffinMagic, 4) != 0) FailPuffin(name, "no Puffin magic before the footer");
  if ((flags0 & 1) != 0) FailPuffin(name, "an LZ4-compressed footer is not supported");
  const std::string_view payload = file.substr(payload_start, payload_size);
  JsonDocument doc;
  std::string error;
  if (!doc.Parse(payload, &error)) FailPuffin(name, "footer is not JSON: " + error);
  PuffinFooter footer;
  const JsonView root = JsonView::Root(doc);
  try {
    const JsonView blobs = root.Get("blobs");
    if (!blobs.is_array()) FailPuffin(name, "footer without blobs");
    for (JsonView b = blobs.First(); b.present(); b = b.Next()) {
      PuffinBlob blob;
      blob.type = b.Get("type").String("type");
      for (JsonView f = b.Get("fields").First(); f.present(); f = f.Next()) {
        const int64_t id = f.Int("fields");
        if (id < INT32_MIN || id > INT32_MAX) FailPuffin(name, "field id out of range");
        blob.fields.push_back(static_cast<int32_t>(id));
      }
      blob.snapshot_id = b.IntOr("snapshot-id", -1);
      blob.sequence_number = b.IntOr("sequence-number", -1);
      blob.offset = b.Get("offset").Int("offset");
      blob.length = b.Get("length").Int("length");
      if (blob.offset < 4 || blob.length < 0 || static_cast<uint64_t>(blob.offset) > payload_start - 4 ||
          static_cast<uint64_t>(blob.length) > payload_start - 4 - static_cast<uint64_t>(blob.offset)) {
        FailPuffin(name, "blob offset or length outside the blob area");
      }
      blob.compression_codec = b.StringOr("compression-codec", "");
      for (JsonView p = b.Get("properties").First(); p.present(); p = p.Next()) {
        if (p.is_string()) blob.properties.emplace_back(p.Key(), p.String("properties"));
      }
      footer.blobs.push_back(std::move(blob));
    }
    for (JsonView p = root.Get("properties").First(); p.present(); p = p.Next()) {
      if (p.is_string()) footer.properties.emplace_back(p.Key(), p.String("properties"));
    }
  } catch (const ParquetError& e) {
    const std::string message = e.what();
    if (message.rfind("Puffin file", 0) == 0) throw;
    FailPuffin(name, message);
  }
  return footer;
}

std::string PuffinBlobData(std::string_view file, const PuffinBlob& blob, const std::string& name) {
  if (blob.offset < 0 || blob.length < 0 || static_cast<uint64_t>(blob.offset) > file.size() ||
      static_cast<uint64_t>(blob.length) > file.size() - static_cast<uint64_t>(blob.offset)) {
    FailPuffin(name, "blob beyond the file");
  }
  const std::string_view raw = file.substr(static_cast<size_t>(blob.offset), static_cast<size_t>(blob.length));
  if (blob.compression_codec.empty()) return std::string(raw);
  if (blob.compression_codec != "zstd") FailPuffin(name, "blob compression '" + blob.compression_codec + "' is not supported");
  const unsigned long long declared = ZSTD_getFrameContentSize(raw.data(), raw.size());
  if (declared == ZSTD_CONTENTSIZE_ERROR) FailPuffin(name, "corrupt zstd blob");
  if (declared == ZSTD_CONTENTSIZE_UNKNOWN || declared > (256u << 20)) FailPuffin(name, "zstd blob without a size, or larger than 256 MiB");
  std::string out(static_cast<size_t>(declared), '\0');
  const size_t got = ZSTD_decompress(out.data(), out.size(), raw.data(), raw.size());
  if (ZSTD_isError(got) || got != out.size()) FailPuffin(name, "corrupt zstd blob");
  return out;
}

std::string_view DeletionVectorBitmap(std::string_view blob, const std::string& name) {
  if (blob.size() < 12) throw ParquetError("deletion vector in '" + name + "': shorter than its envelope");
  const uint32_t length = BigEndian32(blob.data());
  if (uint64_t{length} + 8 != blob.size()) {
    throw ParquetError("deletion vector in '" + name + "': its length " + std::to_string(length) +
                       " does not match the blob's " + std::to_string(blob.size()) + " bytes");
  }
  if (std::memcmp(blob.data() + 4, kDeletionVectorMagic, 4) != 0) throw ParquetError("deletion vector in '" + name + "': bad magic");
  const uint32_t stored = BigEndian32(blob.data() + blob.size() - 4);
  const uint32_t crc = static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(blob.data() + 4), static_cast<uInt>(length)));
  if (crc != stored) throw ParquetError("deletion vector in '" + name + "': CRC-32 mismatch");
  return blob.substr(8, length - 4);
}

}  // namespace parquet::lake
