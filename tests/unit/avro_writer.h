// A minimal Avro object container file writer for the tests: the binary encoding of longs,
// strings, floats and the container (header with metadata, sync marker, blocks compressed
// with null, deflate, snappy + CRC-32 or zstandard). Tests build manifests and corrupt
// files with it to check the decoder (format/lake/avro.h).
#pragma once

#include <snappy-c.h>  // the C API: no std::string across the library (built with libstdc++; clang builds use libc++)
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace avro_test {

inline void PutLong(std::string* out, int64_t v) {
  uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  while (z >= 0x80) {
    out->push_back(static_cast<char>((z & 0x7f) | 0x80));
    z >>= 7;
  }
  out->push_back(static_cast<char>(z));
}

inline void PutBytes(std::string* out, const std::string& s) {
  PutLong(out, static_cast<int64_t>(s.size()));
  out->append(s);
}

inline void PutFloat(std::string* out, float f) {
  char b[4];
  std::memcpy(b, &f, 4);
  out->append(b, 4);
}

inline void PutDouble(std::string* out, double d) {
  char b[8];
  std::memcpy(b, &d, 8);
  out->append(b, 8);
}

inline std::string Compress(const std::string& codec, const std::string& raw) {
  if (codec == "null" || codec.empty()) return raw;
  if (codec == "deflate") {
    z_stream s;
    std::memset(&s, 0, sizeof(s));
    deflateInit2(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&s, static_cast<uLong>(raw.size())) + 16, '\0');
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
    s.avail_in = static_cast<uInt>(raw.size());
    s.next_out = reinterpret_cast<Bytef*>(out.data());
    s.avail_out = static_cast<uInt>(out.size());
    deflate(&s, Z_FINISH);
    out.resize(s.total_out);
    deflateEnd(&s);
    return out;
  }
  if (codec == "snappy") {
    size_t length = snappy_max_compressed_length(raw.size());
    std::string out(length, '\0');
    if (snappy_compress(raw.data(), raw.size(), out.data(), &length) != SNAPPY_OK) return std::string();
    out.resize(length);
    const uint32_t crc = static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(raw.data()), static_cast<uInt>(raw.size())));
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((crc >> shift) & 0xff));
    return out;
  }
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), 3));
  return out;
}

// A container file of `schema` holding the given blocks, each a list of encoded records.
inline std::string ContainerFile(const std::string& schema, const std::string& codec,
                                 const std::vector<std::vector<std::string>>& blocks,
                                 const std::vector<std::pair<std::string, std::string>>& extra_metadata = {}) {
  std::string out("Obj\x01", 4);
  std::vector<std::pair<std::string, std::string>> metadata = {{"avro.schema", schema}, {"avro.codec", codec}};
  metadata.insert(metadata.end(), extra_metadata.begin(), extra_metadata.end());
  PutLong(&out, static_cast<int64_t>(metadata.size()));
  for (const auto& m : metadata) {
    PutBytes(&out, m.first);
    PutBytes(&out, m.second);
  }
  PutLong(&out, 0);
  const std::string sync = "0123456789abcdef";
  out += sync;
  for (const auto& block : blocks) {
    std::string raw;
    for (const std::string& record : block) raw += record;
    const std::string body = Compress(codec, raw);
    PutLong(&out, static_cast<int64_t>(block.size()));
    PutLong(&out, static_cast<int64_t>(body.size()));
    out += body;
    out += sync;
  }
  return out;
}

}  // namespace avro_test
