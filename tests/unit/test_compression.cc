// Unit tests for format/compression: round trips of every codec, the legacy and alternative
// stream layouts readers must accept, and rejection of corrupt, truncated and oversized data.
#include "format/codec/compression.h"

#include <doctest/doctest.h>
#include <lz4.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "format/codec/checksum.h"
#include "format/common/error.h"

namespace {

using parquet::CompressionCodec;
using parquet::ParquetError;
using Bytes = std::vector<uint8_t>;

const CompressionCodec kSupportedCodecs[] = {
    CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY, CompressionCodec::GZIP,
    CompressionCodec::BROTLI,       CompressionCodec::ZSTD,   CompressionCodec::LZ4_RAW,
    CompressionCodec::LZ4,
};

const CompressionCodec kCompressingCodecs[] = {
    CompressionCodec::SNAPPY, CompressionCodec::GZIP,    CompressionCodec::BROTLI,
    CompressionCodec::ZSTD,   CompressionCodec::LZ4_RAW, CompressionCodec::LZ4,
};

Bytes RandomBytes(size_t size, uint32_t seed) {
  std::mt19937 generator(seed);
  Bytes bytes(size);
  for (auto& byte : bytes) byte = static_cast<uint8_t>(generator());
  return bytes;
}

// Text-like data with repetition and some variation, so every codec shrinks it.
Bytes CompressibleBytes(size_t size) {
  Bytes bytes;
  bytes.reserve(size);
  std::mt19937 generator(7);
  static const char* const kWords[] = {"parquet ", "column ", "page ", "row group ", "value ",
                                       "dictionary ", "12345 ", "null "};
  while (bytes.size() < size) {
    const char* word = kWords[generator() % 8];
    for (const char* c = word; *c != '\0' && bytes.size() < size; ++c) bytes.push_back(*c);
  }
  return bytes;
}

std::string CompressToString(CompressionCodec codec, const Bytes& data,
                             std::optional<int> level = std::nullopt) {
  std::string compressed;
  parquet::Compress(codec, data.data(), data.size(), level, &compressed);
  return compressed;
}

Bytes DecompressBytes(CompressionCodec codec, const std::string& compressed, size_t size) {
  Bytes output(size);
  parquet::Decompress(codec, reinterpret_cast<const uint8_t*>(compressed.data()),
                      compressed.size(), output.data(), output.size());
  return output;
}

std::string ErrorMessage(const std::function<void()>& action) {
  try {
    action();
  } catch (const ParquetError& error) {
    return error.what();
  }
  return "(no error)";
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void AppendBigEndian32(uint32_t value, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(value >> shift));
}

std::string RawLz4Block(const Bytes& data) {
  std::string block(static_cast<size_t>(LZ4_compressBound(static_cast<int>(data.size()))), '\0');
  const int size = LZ4_compress_default(reinterpret_cast<const char*>(data.data()), block.data(),
                                        static_cast<int>(data.size()),
                                        static_cast<int>(block.size()));
  REQUIRE(size > 0);
  block.resize(static_cast<size_t>(size));
  return block;
}

std::string DeflateWithWindowBits(const Bytes& data, int window_bits) {
  z_stream stream{};
  REQUIRE(deflateInit2(&stream, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&stream, data.size()), '\0');
  stream.next_in = const_cast<Bytef*>(data.data());
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

}  // namespace

TEST_CASE("every codec round-trips empty, tiny, random and compressible data") {
  const std::vector<Bytes> inputs = {Bytes{}, Bytes{42}, RandomBytes(1000, 1),
                                     CompressibleBytes(1 << 20)};
  for (CompressionCodec codec : kSupportedCodecs) {
    for (const Bytes& input : inputs) {
      CAPTURE(parquet::ToString(codec));
      CAPTURE(input.size());
      const std::string compressed = CompressToString(codec, input);
      CHECK(DecompressBytes(codec, compressed, input.size()) == input);
      if (codec != CompressionCodec::UNCOMPRESSED && input.size() == (1u << 20)) {
        CHECK(compressed.size() < input.size() / 2);
      }
    }
  }
}

TEST_CASE("compress appends to existing output") {
  const Bytes input = CompressibleBytes(5000);
  for (CompressionCodec codec : kSupportedCodecs) {
    CAPTURE(parquet::ToString(codec));
    std::string out = "prefix";
    parquet::Compress(codec, input.data(), input.size(), std::nullopt, &out);
    REQUIRE(out.substr(0, 6) == "prefix");
    CHECK(DecompressBytes(codec, out.substr(6), input.size()) == input);
  }
}

TEST_CASE("compression levels are honoured and validated") {
  const Bytes input = CompressibleBytes(200 * 1000);
  struct LevelCase {
    CompressionCodec codec;
    std::vector<int> valid;
    std::vector<int> invalid;
  };
  const LevelCase cases[] = {
      {CompressionCodec::GZIP, {0, 1, 9}, {-2, 10}},
      {CompressionCodec::BROTLI, {0, 5, 11}, {-1, 12}},
      {CompressionCodec::ZSTD, {-5, 1, 19, ZSTD_maxCLevel()}, {ZSTD_maxCLevel() + 1}},
      {CompressionCodec::LZ4_RAW, {1, 2, 3, 9, 12}, {0, 13}},
      {CompressionCodec::LZ4, {1, 9, 12}, {0, 13}},
  };
  for (const LevelCase& level_case : cases) {
    CAPTURE(parquet::ToString(level_case.codec));
    for (int level : level_case.valid) {
      CAPTURE(level);
      const std::string compressed = CompressToString(level_case.codec, input, level);
      CHECK(DecompressBytes(level_case.codec, compressed, input.size()) == input);
    }
    for (int level : level_case.invalid) {
      CAPTURE(level);
      CHECK(Contains(ErrorMessage([&] { CompressToString(level_case.codec, input, level); }),
                     "compression level " + std::to_string(level) + " is out of range"));
    }
  }
  // Higher levels compress better on this input.
  CHECK(CompressToString(CompressionCodec::GZIP, input, 9).size() <
        CompressToString(CompressionCodec::GZIP, input, 1).size());
  CHECK(CompressToString(CompressionCodec::ZSTD, input, 19).size() <
        CompressToString(CompressionCodec::ZSTD, input, 1).size());
  CHECK(CompressToString(CompressionCodec::LZ4_RAW, input, 12).size() <
        CompressToString(CompressionCodec::LZ4_RAW, input, 1).size());
  // gzip level 0 stores the data: larger than the input.
  CHECK(CompressToString(CompressionCodec::GZIP, input, 0).size() > input.size());
  // Codecs without levels ignore them.
  CHECK(DecompressBytes(CompressionCodec::SNAPPY,
                        CompressToString(CompressionCodec::SNAPPY, input, 99),
                        input.size()) == input);
}

TEST_CASE("empty pages") {
  for (CompressionCodec codec : kSupportedCodecs) {
    CAPTURE(parquet::ToString(codec));
    // No bytes at all for an empty page.
    CHECK_NOTHROW(parquet::Decompress(codec, nullptr, 0, nullptr, 0));
    // The codec's own encoding of nothing.
    const std::string compressed = CompressToString(codec, Bytes{});
    CHECK_NOTHROW(parquet::Decompress(codec, reinterpret_cast<const uint8_t*>(compressed.data()),
                                      compressed.size(), nullptr, 0));
    // Empty input can never fill a non-empty page.
    uint8_t out[4];
    CHECK_THROWS_AS(parquet::Decompress(codec, nullptr, 0, out, sizeof(out)), ParquetError);
  }
  // A zstd frame that decompresses to nothing, but data that does not.
  const std::string zstd_nonempty = CompressToString(CompressionCodec::ZSTD, Bytes{1, 2, 3});
  CHECK_THROWS_AS(DecompressBytes(CompressionCodec::ZSTD, zstd_nonempty, 0), ParquetError);
}

TEST_CASE("gzip reads concatenated members") {
  const Bytes first = CompressibleBytes(3000);
  const Bytes second = RandomBytes(500, 2);
  const std::string members =
      CompressToString(CompressionCodec::GZIP, first) + CompressToString(CompressionCodec::GZIP, second);
  Bytes expected = first;
  expected.insert(expected.end(), second.begin(), second.end());
  CHECK(DecompressBytes(CompressionCodec::GZIP, members, expected.size()) == expected);
  // Three members, the middle one empty.
  const std::string three = CompressToString(CompressionCodec::GZIP, first) +
                            CompressToString(CompressionCodec::GZIP, Bytes{}) +
                            CompressToString(CompressionCodec::GZIP, second);
  CHECK(DecompressBytes(CompressionCodec::GZIP, three, expected.size()) == expected);
  // The second member's data does not fit.
  CHECK(Contains(ErrorMessage([&] { DecompressBytes(CompressionCodec::GZIP, members, 3200); }),
                 "gzip data decompresses to more than 3200 bytes"));
  // Garbage after the last member.
  CHECK(Contains(ErrorMessage([&] {
                   DecompressBytes(CompressionCodec::GZIP, members + "xyz", expected.size());
                 }),
                 "gzip data has 3 unexpected bytes after the end"));
}

TEST_CASE("gzip codec accepts zlib and raw deflate streams") {
  const Bytes input = CompressibleBytes(10000);
  const std::string zlib_stream = DeflateWithWindowBits(input, MAX_WBITS);
  REQUIRE(static_cast<uint8_t>(zlib_stream[0]) == 0x78);
  CHECK(DecompressBytes(CompressionCodec::GZIP, zlib_stream, input.size()) == input);
  const std::string raw_deflate = DeflateWithWindowBits(input, -MAX_WBITS);
  CHECK(DecompressBytes(CompressionCodec::GZIP, raw_deflate, input.size()) == input);
  // A zlib stream with a corrupted adler32 trailer is rejected.
  std::string bad_trailer = zlib_stream;
  bad_trailer.back() = static_cast<char>(bad_trailer.back() ^ 0xff);
  CHECK_THROWS_AS(DecompressBytes(CompressionCodec::GZIP, bad_trailer, input.size()), ParquetError);
  // Written gzip is real gzip (RFC 1952 magic).
  const std::string written = CompressToString(CompressionCodec::GZIP, input);
  CHECK(static_cast<uint8_t>(written[0]) == 0x1f);
  CHECK(static_cast<uint8_t>(written[1]) == 0x8b);
}

TEST_CASE("lz4 reads hadoop framing") {
  const Bytes first = CompressibleBytes(4000);
  const Bytes second = RandomBytes(700, 3);
  Bytes expected = first;
  expected.insert(expected.end(), second.begin(), second.end());

  SUBCASE("two blocks") {
    std::string framed;
    for (const Bytes* block : {&first, &second}) {
      const std::string compressed = RawLz4Block(*block);
      AppendBigEndian32(static_cast<uint32_t>(block->size()), &framed);
      AppendBigEndian32(static_cast<uint32_t>(compressed.size()), &framed);
      framed += compressed;
    }
    CHECK(DecompressBytes(CompressionCodec::LZ4, framed, expected.size()) == expected);
    CHECK_THROWS_AS(DecompressBytes(CompressionCodec::LZ4, framed, expected.size() - 1),
                    ParquetError);
    CHECK_THROWS_AS(DecompressBytes(CompressionCodec::LZ4, framed, expected.size() + 1),
                    ParquetError);
  }
  SUBCASE("one block size followed by two compressed chunks, as hadoop writes large pages") {
    std::string framed;
    AppendBigEndian32(static_cast<uint32_t>(expected.size()), &framed);
    for (const Bytes* chunk : {&first, &second}) {
      const std::string compressed = RawLz4Block(*chunk);
      AppendBigEndian32(static_cast<uint32_t>(compressed.size()), &framed);
      framed += compressed;
    }
    CHECK(DecompressBytes(CompressionCodec::LZ4, framed, expected.size()) == expected);
  }
  SUBCASE("a bare zero block size is an empty page") {
    const std::string framed(4, '\0');
    CHECK_NOTHROW(DecompressBytes(CompressionCodec::LZ4, framed, 0));
  }
  SUBCASE("written lz4 uses hadoop blocks small enough for hadoop's 256 KiB buffer") {
    const Bytes input = RandomBytes(600 * 1000, 4);
    const std::string written = CompressToString(CompressionCodec::LZ4, input);
    size_t pos = 0;
    size_t total = 0;
    int blocks = 0;
    while (pos < written.size()) {
      REQUIRE(written.size() - pos >= 8);
      const auto read32 = [&](size_t at) {
        return (uint32_t{static_cast<uint8_t>(written[at])} << 24) |
               (uint32_t{static_cast<uint8_t>(written[at + 1])} << 16) |
               (uint32_t{static_cast<uint8_t>(written[at + 2])} << 8) |
               uint32_t{static_cast<uint8_t>(written[at + 3])};
      };
      const uint32_t block_size = read32(pos);
      const uint32_t compressed_size = read32(pos + 4);
      CHECK(block_size <= 256 * 1024);
      CHECK(compressed_size <= 256 * 1024);
      total += block_size;
      pos += 8 + compressed_size;
      ++blocks;
    }
    CHECK(pos == written.size());
    CHECK(total == input.size());
    CHECK(blocks == 3);
    CHECK(DecompressBytes(CompressionCodec::LZ4, written, input.size()) == input);
  }
}

TEST_CASE("lz4 falls back to a raw block and to the frame format") {
  const Bytes input = CompressibleBytes(5000);
  const std::string raw_block = RawLz4Block(input);
  CHECK(DecompressBytes(CompressionCodec::LZ4, raw_block, input.size()) == input);
  // LZ4_RAW output is exactly such a block.
  CHECK(DecompressBytes(CompressionCodec::LZ4,
                        CompressToString(CompressionCodec::LZ4_RAW, input),
                        input.size()) == input);

  std::string frame(LZ4F_compressFrameBound(input.size(), nullptr), '\0');
  const size_t frame_size =
      LZ4F_compressFrame(frame.data(), frame.size(), input.data(), input.size(), nullptr);
  REQUIRE_FALSE(LZ4F_isError(frame_size));
  frame.resize(frame_size);
  CHECK(DecompressBytes(CompressionCodec::LZ4, frame, input.size()) == input);
  CHECK_THROWS_AS(DecompressBytes(CompressionCodec::LZ4, frame, input.size() - 1), ParquetError);
  CHECK_THROWS_AS(DecompressBytes(CompressionCodec::LZ4, frame, input.size() + 1), ParquetError);
  CHECK_THROWS_AS(DecompressBytes(CompressionCodec::LZ4, frame.substr(0, frame.size() - 6),
                                  input.size()),
                  ParquetError);
  // Two concatenated frames.
  Bytes doubled = input;
  doubled.insert(doubled.end(), input.begin(), input.end());
  CHECK(DecompressBytes(CompressionCodec::LZ4, frame + frame, doubled.size()) == doubled);
}

TEST_CASE("zstd reads several frames") {
  const Bytes first = CompressibleBytes(2000);
  const Bytes second = RandomBytes(300, 5);
  Bytes expected = first;
  expected.insert(expected.end(), second.begin(), second.end());
  const std::string frames =
      CompressToString(CompressionCodec::ZSTD, first) + CompressToString(CompressionCodec::ZSTD, second);
  CHECK(DecompressBytes(CompressionCodec::ZSTD, frames, expected.size()) == expected);
  CHECK(ErrorMessage([&] { DecompressBytes(CompressionCodec::ZSTD, frames, expected.size() + 10); }) ==
        "zstd data decompresses to 2300 bytes, expected 2310");
}

TEST_CASE("zstd pages compress with the level's large-input parameters whatever their size") {
  // Random letters and spaces, like a column of random comments: at level 3 zstd's own
  // parameters for inputs up to 256 KiB look for 4-byte matches and find spurious ones.
  std::mt19937 random(7);
  Bytes text(256 * 1024);
  for (uint8_t& byte : text) byte = static_cast<uint8_t>(random() % 27 == 0 ? ' ' : 'a' + random() % 26);
  const std::string ours = CompressToString(CompressionCodec::ZSTD, text);
  CHECK(DecompressBytes(CompressionCodec::ZSTD, ours, text.size()) == text);
  std::string size_adapted(ZSTD_compressBound(text.size()), '\0');
  const size_t adapted_size = ZSTD_compress(size_adapted.data(), size_adapted.size(), text.data(), text.size(), 3);
  REQUIRE(!ZSTD_isError(adapted_size));
  CHECK(ours.size() * 100 < adapted_size * 99);  // at least 1% smaller (measured: 3%)

  // The context is set up per level: switching levels on one thread and back gives the
  // same bytes as before.
  std::string high;
  parquet::Compress(CompressionCodec::ZSTD, text.data(), text.size(), 19, &high);
  CHECK(DecompressBytes(CompressionCodec::ZSTD, high, text.size()) == text);
  CHECK(CompressToString(CompressionCodec::ZSTD, text) == ours);
}

TEST_CASE("truncated and corrupt data is an error for every codec") {
  const Bytes input = CompressibleBytes(20000);
  for (CompressionCodec codec : kSupportedCodecs) {
    CAPTURE(parquet::ToString(codec));
    const std::string compressed = CompressToString(codec, input);
    for (size_t cut : {size_t{1}, size_t{5}, compressed.size() / 2, compressed.size() - 1}) {
      CAPTURE(cut);
      CHECK_THROWS_AS(DecompressBytes(codec, compressed.substr(0, compressed.size() - cut),
                                      input.size()),
                      ParquetError);
    }
    if (codec == CompressionCodec::UNCOMPRESSED) continue;
    // Random bytes are not valid compressed data of the expected size.
    const Bytes noise = RandomBytes(300, 6);
    CHECK_THROWS_AS(DecompressBytes(codec, std::string(noise.begin(), noise.end()), input.size()),
                    ParquetError);
    // Overwriting the start of the stream with noise is detected as well.
    std::string damaged = compressed;
    for (size_t i = 0; i < 16 && i < damaged.size(); ++i) damaged[i] = static_cast<char>(noise[i]);
    CHECK_THROWS_AS(DecompressBytes(codec, damaged, input.size()), ParquetError);
  }
}

TEST_CASE("a wrong uncompressed size is an error for every codec") {
  const Bytes input = CompressibleBytes(1000);
  for (CompressionCodec codec : kSupportedCodecs) {
    CAPTURE(parquet::ToString(codec));
    const std::string compressed = CompressToString(codec, input);
    CHECK_THROWS_AS(DecompressBytes(codec, compressed, input.size() - 1), ParquetError);
    CHECK_THROWS_AS(DecompressBytes(codec, compressed, input.size() + 1), ParquetError);
    CHECK_THROWS_AS(DecompressBytes(codec, compressed, 0), ParquetError);
    CHECK_THROWS_AS(DecompressBytes(codec, compressed, input.size() * 2), ParquetError);
  }
  const std::string snappy = CompressToString(CompressionCodec::SNAPPY, input);
  CHECK(ErrorMessage([&] { DecompressBytes(CompressionCodec::SNAPPY, snappy, 4096); }) ==
        "snappy data decompresses to 1000 bytes, expected 4096");
  const std::string gzip = CompressToString(CompressionCodec::GZIP, input);
  CHECK(ErrorMessage([&] { DecompressBytes(CompressionCodec::GZIP, gzip, 1001); }) ==
        "gzip data decompresses to 1000 bytes, expected 1001");
  CHECK(ErrorMessage([&] {
          DecompressBytes(CompressionCodec::GZIP, gzip.substr(0, gzip.size() - 8), 1000);
        }) == "gzip data is truncated after 1000 of 1000 decompressed bytes");
  CHECK(ErrorMessage([&] { DecompressBytes(CompressionCodec::GZIP, gzip, 999); }) ==
        "gzip data decompresses to more than 999 bytes, expected 999");
  CHECK(ErrorMessage([&] {
          DecompressBytes(CompressionCodec::UNCOMPRESSED, std::string(10, 'x'), 11);
        }) == "uncompressed page has 10 bytes, expected 11");
}

TEST_CASE("a huge stream claimed into a small page fails fast without writing past it") {
  const Bytes zeros(100 * 1000 * 1000, 0);
  for (CompressionCodec codec : kCompressingCodecs) {
    CAPTURE(parquet::ToString(codec));
    std::optional<int> fastest;
    if (codec == CompressionCodec::GZIP || codec == CompressionCodec::BROTLI ||
        codec == CompressionCodec::ZSTD || codec == CompressionCodec::LZ4 ||
        codec == CompressionCodec::LZ4_RAW) {
      fastest = codec == CompressionCodec::BROTLI ? 0 : 1;
    }
    const std::string bomb = CompressToString(codec, zeros, fastest);
    // 1 KiB page inside a guarded buffer: the bytes after it must stay untouched.
    Bytes buffer(1024 + 64, 0xAB);
    const auto start = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(parquet::Decompress(codec, reinterpret_cast<const uint8_t*>(bomb.data()),
                                        bomb.size(), buffer.data(), 1024),
                    ParquetError);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    CHECK(elapsed < std::chrono::milliseconds(500));
    for (size_t i = 1024; i < buffer.size(); ++i) REQUIRE(buffer[i] == 0xAB);
  }
}

TEST_CASE("unsupported codecs") {
  uint8_t byte = 0;
  std::string out;
  CHECK_FALSE(parquet::IsSupported(CompressionCodec::LZO));
  CHECK_FALSE(parquet::IsSupported(static_cast<CompressionCodec>(9)));
  for (CompressionCodec codec : kSupportedCodecs) CHECK(parquet::IsSupported(codec));
  CHECK(ErrorMessage([&] { parquet::Decompress(CompressionCodec::LZO, &byte, 1, &byte, 1); }) ==
        "codec LZO is not supported");
  CHECK(ErrorMessage([&] { parquet::Compress(CompressionCodec::LZO, &byte, 1, std::nullopt, &out); }) ==
        "codec LZO is not supported");
  CHECK(ErrorMessage([&] {
          parquet::Decompress(static_cast<CompressionCodec>(9), &byte, 1, &byte, 1);
        }) == "unsupported compression codec UNKNOWN_CODEC(9)");
  CHECK(ErrorMessage([&] {
          parquet::Compress(static_cast<CompressionCodec>(-1), &byte, 1, std::nullopt, &out);
        }) == "unsupported compression codec UNKNOWN_CODEC(-1)");
  // Even an empty page names the unsupported codec.
  CHECK(ErrorMessage([&] { parquet::Decompress(CompressionCodec::LZO, nullptr, 0, nullptr, 0); }) ==
        "codec LZO is not supported");
  CHECK(out.empty());
}

// ---------------------------------------------------------------------------------------------
// Real files from parquet-testing. Their pages start right after the "PAR1" magic and follow
// each other up to the footer (with, in old parquet-cpp files, a ColumnChunk struct after
// each chunk); a minimal thrift compact-protocol reader finds each page's
// sizes and crc so the page bodies can be decompressed.

namespace {

class CompactReader {
 public:
  CompactReader(const Bytes& data, size_t pos) : data_(data), pos_(pos) {}
  size_t pos() const { return pos_; }

  uint8_t Byte() {
    REQUIRE(pos_ < data_.size());
    return data_[pos_++];
  }
  uint64_t Varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const uint8_t byte = Byte();
      value |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return value;
    }
    FAIL("varint too long");
    return 0;
  }
  int64_t ZigZag() {
    const uint64_t value = Varint();
    return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
  }
  void Skip(int type) {
    switch (type) {
      case 1: case 2: return;                       // bool held in the field header
      case 3: pos_ += 1; return;                    // byte
      case 4: case 5: case 6: Varint(); return;     // i16, i32, i64
      case 7: pos_ += 8; return;                    // double
      case 8: pos_ += Varint(); return;             // binary
      case 9: case 10: {                            // list, set
        const uint8_t header = Byte();
        uint64_t count = header >> 4;
        if (count == 15) count = Varint();
        const int element_type = header & 0x0f;
        for (uint64_t i = 0; i < count; ++i) {
          if (element_type == 1 || element_type == 2) pos_ += 1; else Skip(element_type);
        }
        return;
      }
      case 11: {                                    // map
        const uint64_t count = Varint();
        if (count == 0) return;
        const uint8_t types = Byte();
        for (uint64_t i = 0; i < count; ++i) {
          Skip(types >> 4);
          Skip(types & 0x0f);
        }
        return;
      }
      case 12: SkipStructBody(); return;
      default: FAIL("unknown compact type " << type);
    }
  }
  void SkipStructBody() {
    while (true) {
      const uint8_t header = Byte();
      if (header == 0) return;
      if ((header >> 4) == 0) ZigZag();
      Skip(header & 0x0f);
    }
  }

 private:
  const Bytes& data_;
  size_t pos_;
};

struct PageHeaderSizes {
  int64_t type = -1;
  int64_t uncompressed_size = -1;
  int64_t compressed_size = -1;
  std::optional<uint32_t> crc;
  size_t body_offset = 0;
};

PageHeaderSizes ReadPageHeader(const Bytes& file, size_t pos) {
  CompactReader reader(file, pos);
  PageHeaderSizes header;
  int16_t field_id = 0;
  while (true) {
    const uint8_t field_header = reader.Byte();
    if (field_header == 0) break;
    const int delta = field_header >> 4;
    field_id = delta == 0 ? static_cast<int16_t>(reader.ZigZag()) : static_cast<int16_t>(field_id + delta);
    const int type = field_header & 0x0f;
    if (type == 5 && field_id >= 1 && field_id <= 4) {
      const int64_t value = reader.ZigZag();
      if (field_id == 1) header.type = value;
      if (field_id == 2) header.uncompressed_size = value;
      if (field_id == 3) header.compressed_size = value;
      if (field_id == 4) header.crc = static_cast<uint32_t>(static_cast<int32_t>(value));
    } else {
      reader.Skip(type);
    }
  }
  header.body_offset = reader.pos();
  return header;
}

// Decompresses every page of the file; returns the pages' uncompressed bodies.
std::vector<Bytes> DecompressAllPages(const std::string& path, CompressionCodec codec,
                                      int* checked_crcs) {
  std::ifstream stream(path, std::ios::binary);
  REQUIRE_MESSAGE(stream.good(), "cannot open " << path);
  const Bytes file((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
  REQUIRE(file.size() > 12);
  const size_t footer_length = file[file.size() - 8] | (file[file.size() - 7] << 8) |
                               (file[file.size() - 6] << 16) | (size_t{file[file.size() - 5]} << 24);
  REQUIRE(footer_length + 12 <= file.size());
  const size_t footer_start = file.size() - 8 - footer_length;

  std::vector<Bytes> pages;
  size_t pos = 4;
  while (pos < footer_start) {
    CAPTURE(pos);
    const PageHeaderSizes header = ReadPageHeader(file, pos);
    if (header.type == -1 && header.uncompressed_size == -1 && header.compressed_size == -1) {
      // Not a page header: old parquet-cpp wrote a copy of the ColumnChunk struct after
      // each chunk's pages. It has been skipped as a whole.
      pos = header.body_offset;
      continue;
    }
    REQUIRE(header.uncompressed_size >= 0);
    REQUIRE(header.compressed_size >= 0);
    REQUIRE(header.body_offset + header.compressed_size <= footer_start);
    const uint8_t* body = file.data() + header.body_offset;
    if (header.crc) {
      CHECK(parquet::Crc32(body, static_cast<size_t>(header.compressed_size)) == *header.crc);
      ++*checked_crcs;
    }
    Bytes page(static_cast<size_t>(header.uncompressed_size));
    // Data page v2 (type 3) keeps its levels uncompressed; these files use v1 and dictionaries.
    REQUIRE(header.type != 3);
    parquet::Decompress(codec, body, static_cast<size_t>(header.compressed_size), page.data(),
                        page.size());
    pages.push_back(std::move(page));
    pos = header.body_offset + static_cast<size_t>(header.compressed_size);
  }
  CHECK(pos == footer_start);
  return pages;
}

int64_t LoadInt64(const Bytes& bytes, size_t offset) {
  int64_t value = 0;
  std::memcpy(&value, bytes.data() + offset, sizeof(value));
  return value;
}

const char* const kTestData = "../shared/parquet-testing/data/";

}  // namespace

TEST_CASE("lz4 pages of parquet-testing files, hadoop framed and raw blocks") {
  int checked_crcs = 0;
  for (std::string name : {"hadoop_lz4_compressed.parquet", "non_hadoop_lz4_compressed.parquet"}) {
    CAPTURE(name);
    const std::vector<Bytes> pages =
        DecompressAllPages(kTestData + name, CompressionCodec::LZ4, &checked_crcs);
    REQUIRE(pages.size() >= 3);
    // The first column's dictionary: two int64 timestamps, 2020-07-01 00:00:00 and :01.
    REQUIRE(pages[0].size() == 16);
    CHECK(LoadInt64(pages[0], 0) == 1593604800);
    CHECK(LoadInt64(pages[0], 8) == 1593604801);
  }
  const std::vector<Bytes> larger = DecompressAllPages(
      std::string(kTestData) + "hadoop_lz4_compressed_larger.parquet", CompressionCodec::LZ4,
      &checked_crcs);
  CHECK(!larger.empty());
  const std::vector<Bytes> raw = DecompressAllPages(
      std::string(kTestData) + "lz4_raw_compressed_larger.parquet", CompressionCodec::LZ4_RAW,
      &checked_crcs);
  CHECK(!raw.empty());
  CHECK(checked_crcs > 0);
}

namespace {

// `data` in pieces of `piece` bytes; after `available` bytes, none can be had.
class SplitPieces : public parquet::CompressedPieces {
 public:
  SplitPieces(const std::string& data, size_t piece, size_t available = SIZE_MAX)
      : data_(data), piece_(piece), available_(std::min(available, data.size())) {}
  size_t Next(const uint8_t** piece) override {
    const size_t size = std::min(piece_, available_ - given_);
    *piece = reinterpret_cast<const uint8_t*>(data_.data()) + given_;
    given_ += size;
    calls_++;
    return size;
  }
  size_t calls() const { return calls_; }

 private:
  const std::string& data_;
  size_t piece_, available_, given_ = 0, calls_ = 0;
};

const CompressionCodec kPieceCodecs[] = {CompressionCodec::SNAPPY, CompressionCodec::ZSTD, CompressionCodec::BROTLI};

Bytes DecompressInPieces(CompressionCodec codec, const std::string& compressed, size_t size, size_t piece,
                         size_t available = SIZE_MAX, size_t src_size = SIZE_MAX) {
  SplitPieces pieces(compressed, piece, available);
  Bytes output(size + 64, 0xAB);  // the 64 bytes after the page must stay untouched
  parquet::DecompressPieces(codec, pieces, std::min(src_size, compressed.size()), output.data(), size);
  for (size_t i = size; i < output.size(); ++i) REQUIRE(output[i] == 0xAB);
  output.resize(size);
  return output;
}

}  // namespace

TEST_CASE("snappy, zstd and brotli decompress input given in pieces as input at one address") {
  CHECK(parquet::DecompressesInPieces(CompressionCodec::SNAPPY));
  CHECK(parquet::DecompressesInPieces(CompressionCodec::ZSTD));
  CHECK(parquet::DecompressesInPieces(CompressionCodec::BROTLI));
  for (CompressionCodec codec : {CompressionCodec::UNCOMPRESSED, CompressionCodec::GZIP, CompressionCodec::LZ4,
                                 CompressionCodec::LZ4_RAW}) {
    CAPTURE(parquet::ToString(codec));
    CHECK(!parquet::DecompressesInPieces(codec));
    const std::string compressed = CompressToString(codec, CompressibleBytes(100));
    CHECK(ErrorMessage([&] { DecompressInPieces(codec, compressed, 100, 10); }) ==
          "compression codec " + parquet::ToString(codec) + " is not decompressed in pieces");
  }
  const Bytes inputs[] = {CompressibleBytes(300000), RandomBytes(200000, 3), CompressibleBytes(10), Bytes()};
  for (CompressionCodec codec : kPieceCodecs) {
    for (const Bytes& input : inputs) {
      const std::string compressed = CompressToString(codec, input);
      for (size_t piece : {size_t{1}, size_t{3}, size_t{4096}, size_t{65536}, compressed.size() + 1}) {
        CAPTURE(parquet::ToString(codec));
        CAPTURE(input.size());
        CAPTURE(piece);
        CHECK(DecompressInPieces(codec, compressed, input.size(), piece) == input);
      }
    }
  }
  // zstd: several frames, the second starting within a piece.
  const Bytes first = CompressibleBytes(70000), second = RandomBytes(5000, 9);
  Bytes both = first;
  both.insert(both.end(), second.begin(), second.end());
  const std::string frames =
      CompressToString(CompressionCodec::ZSTD, first) + CompressToString(CompressionCodec::ZSTD, second);
  CHECK(DecompressInPieces(CompressionCodec::ZSTD, frames, both.size(), 1000) == both);
}

TEST_CASE("input in pieces that is cut off, runs on, is damaged or has another size is an error") {
  const Bytes input = CompressibleBytes(200000);
  for (CompressionCodec codec : kPieceCodecs) {
    CAPTURE(parquet::ToString(codec));
    const std::string compressed = CompressToString(codec, input);
    for (size_t piece : {size_t{7}, size_t{4096}}) {
      CAPTURE(piece);
      // The source has no more to give (a read that failed) before the end.
      for (size_t available : {size_t{0}, size_t{3}, compressed.size() / 2, compressed.size() - 1}) {
        CAPTURE(available);
        CHECK_THROWS_AS(DecompressInPieces(codec, compressed, input.size(), piece, available), ParquetError);
      }
      // Fewer bytes than the stream needs, or more.
      CHECK_THROWS_AS(DecompressInPieces(codec, compressed.substr(0, compressed.size() / 2), input.size(), piece),
                      ParquetError);
      CHECK_THROWS_AS(DecompressInPieces(codec, compressed + "extra", input.size(), piece), ParquetError);
      // Sizes other than the stream's.
      CHECK_THROWS_AS(DecompressInPieces(codec, compressed, input.size() - 1, piece), ParquetError);
      CHECK_THROWS_AS(DecompressInPieces(codec, compressed, input.size() + 1, piece), ParquetError);
      CHECK_THROWS_AS(DecompressInPieces(codec, compressed, 1000, piece), ParquetError);
      // Noise over the start, and in the middle.
      std::string damaged = compressed;
      const Bytes noise = RandomBytes(64, 4);
      for (size_t i = 0; i < 16; ++i) damaged[i] = static_cast<char>(noise[i]);
      CHECK_THROWS_AS(DecompressInPieces(codec, damaged, input.size(), piece), ParquetError);
    }
  }
  const std::string snappy = CompressToString(CompressionCodec::SNAPPY, input);
  CHECK(ErrorMessage([&] { DecompressInPieces(CompressionCodec::SNAPPY, snappy, 4096, 100); }) ==
        "snappy data decompresses to 200000 bytes, expected 4096");
  const std::string zstd = CompressToString(CompressionCodec::ZSTD, input);
  CHECK(ErrorMessage([&] { DecompressInPieces(CompressionCodec::ZSTD, zstd, input.size() + 5, 100); }) ==
        "zstd data decompresses to 200000 bytes, expected 200005");
  CHECK(Contains(ErrorMessage([&] {
                   DecompressInPieces(CompressionCodec::ZSTD, zstd, input.size(), 100, zstd.size() - 10);
                 }),
                 "zstd data is truncated after"));
}

TEST_CASE("the largest size of a stream of which only the first bytes are at hand") {
  const Bytes input = CompressibleBytes(200000);
  const std::string snappy = CompressToString(CompressionCodec::SNAPPY, input);
  const auto* snappy_bytes = reinterpret_cast<const uint8_t*>(snappy.data());
  CHECK(parquet::MaxDecompressedSize(CompressionCodec::SNAPPY, snappy_bytes, 5, snappy.size()) == input.size());
  const std::string zstd = CompressToString(CompressionCodec::ZSTD, input);
  const auto* zstd_bytes = reinterpret_cast<const uint8_t*>(zstd.data());
  // Whole: the frames' declared sizes; a part: the codec's largest ratio, 2^15:1.
  CHECK(parquet::MaxDecompressedSize(CompressionCodec::ZSTD, zstd_bytes, zstd.size(), zstd.size()) == input.size());
  CHECK(parquet::MaxDecompressedSize(CompressionCodec::ZSTD, zstd_bytes, 100, zstd.size()) ==
        uint64_t{zstd.size()} * 32768 + 64);
  CHECK(parquet::MaxDecompressedSize(CompressionCodec::GZIP, nullptr, 0, 1000) == 1000 * 1032 + 64);
}
