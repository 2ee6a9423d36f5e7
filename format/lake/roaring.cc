// The portable roaring bitmap formats decoded into ranges (roaring.h).
#include "format/lake/roaring.h"

#include "format/common/error.h"

namespace parquet::lake {

namespace {

constexpr uint32_t kCookieNoRuns = 12346;
constexpr uint32_t kCookieRuns = 12347;
constexpr uint32_t kNoOffsetThreshold = 4;
constexpr size_t kBitmapContainerBytes = 8192;
constexpr uint32_t kMaxArrayCardinality = 4096;

[[noreturn]] void FailRoaring(const std::string& what) { throw ParquetError("roaring bitmap: " + what); }

uint16_t U16(std::string_view data, size_t at) {
  if (at + 2 > data.size()) FailRoaring("truncated");
  return static_cast<uint16_t>(static_cast<uint8_t>(data[at]) | (static_cast<uint8_t>(data[at + 1]) << 8));
}

uint32_t U32(std::string_view data, size_t at) {
  if (at + 4 > data.size() || at + 4 < at) FailRoaring("truncated");
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--) v = (v << 8) | static_cast<uint8_t>(data[at + static_cast<size_t>(i)]);
  return v;
}

uint64_t U64(std::string_view data, size_t at) {
  return U32(data, at) | (static_cast<uint64_t>(U32(data, at + 4)) << 32);
}

// Appends [begin, end) to *out, merging with the last range when they touch; values must
// come in ascending order.
void Append(std::vector<PositionRange>* out, uint64_t begin, uint64_t end) {
  if (!out->empty()) {
    PositionRange& last = out->back();
    if (begin < last.end) FailRoaring("values out of order");
    if (begin == last.end) {
      last.end = end;
      return;
    }
  }
  if (out->size() >= kMaxRoaringRanges) FailRoaring("more than " + std::to_string(kMaxRoaringRanges) + " ranges");
  out->push_back(PositionRange{begin, end});
}

}  // namespace

size_t DecodeRoaring32(std::string_view data, uint64_t high, std::vector<PositionRange>* out) {
  const uint32_t cookie = U32(data, 0);
  size_t pos = 4;
  uint32_t containers = 0;
  bool has_runs = false;
  std::string_view run_flags;
  if ((cookie & 0xFFFF) == kCookieRuns) {
    has_runs = true;
    containers = (cookie >> 16) + 1;
    const size_t flag_bytes = (containers + 7) / 8;
    if (pos + flag_bytes > data.size()) FailRoaring("truncated run flags");
    run_flags = data.substr(pos, flag_bytes);
    pos += flag_bytes;
  } else if (cookie == kCookieNoRuns) {
    containers = U32(data, pos);
    pos += 4;
  } else {
    FailRoaring("unknown cookie " + std::to_string(cookie));
  }
  if (containers > 65536) FailRoaring("more than 65536 containers");
  if (pos + size_t{4} * containers > data.size()) FailRoaring("truncated container headers");
  std::vector<uint16_t> keys(containers), cardinalities(containers);
  for (uint32_t i = 0; i < containers; i++) {
    keys[i] = U16(data, pos + 4 * i);
    cardinalities[i] = U16(data, pos + 4 * i + 2);  // cardinality - 1
    if (i > 0 && keys[i] <= keys[i - 1]) FailRoaring("container keys out of order");
  }
  pos += size_t{4} * containers;
  if (!has_runs || containers >= kNoOffsetThreshold) {
    // The offsets are redundant with the sizes; containers are read in sequence and each
    // offset is checked against where the container really starts.
    const size_t offsets_at = pos;
    pos += size_t{4} * containers;
    if (pos > data.size()) FailRoaring("truncated offsets");
    size_t at = pos;
    for (uint32_t i = 0; i < containers; i++) {
      if (U32(data, offsets_at + 4 * i) != at) FailRoaring("container offset does not match its place");
      const bool run = has_runs && (static_cast<uint8_t>(run_flags[i / 8]) >> (i % 8) & 1);
      const uint32_t card = uint32_t{cardinalities[i]} + 1;
      if (run) {
        at += 2 + size_t{4} * U16(data, at);
      } else if (card > kMaxArrayCardinality) {
        at += kBitmapContainerBytes;
      } else {
        at += size_t{2} * card;
      }
    }
  }
  for (uint32_t i = 0; i < containers; i++) {
    const uint64_t base = (high << 32) | (uint64_t{keys[i]} << 16);
    const bool run = has_runs && (static_cast<uint8_t>(run_flags[i / 8]) >> (i % 8) & 1);
    const uint32_t card = uint32_t{cardinalities[i]} + 1;
    if (run) {
      const uint16_t runs = U16(data, pos);
      pos += 2;
      if (pos + size_t{4} * runs > data.size()) FailRoaring("truncated run container");
      uint64_t previous_end = 0;
      for (uint16_t r = 0; r < runs; r++) {
        const uint32_t start = U16(data, pos + 4 * size_t{r});
        const uint32_t length = U16(data, pos + 4 * size_t{r} + 2);
        if (start + length > 0xFFFF) FailRoaring("run past the end of its container");
        if (r > 0 && start < previous_end) FailRoaring("runs out of order");
        previous_end = uint64_t{start} + length + 1;
        Append(out, base + start, base + start + length + 1);
      }
      pos += size_t{4} * runs;
    } else if (card > kMaxArrayCardinality) {
      if (pos + kBitmapContainerBytes > data.size()) FailRoaring("truncated bitmap container");
      uint32_t counted = 0;
      for (uint32_t word = 0; word < 1024; word++) {
        uint64_t bits = U64(data, pos + 8 * size_t{word});
        while (bits != 0) {
          const int bit = __builtin_ctzll(bits);
          // The run of set bits starting at `bit` within this word.
          const uint64_t shifted = bits >> bit;
          const int length = shifted == ~uint64_t{0} ? 64 - bit : __builtin_ctzll(~shifted);
          const uint64_t begin = base + uint64_t{word} * 64 + static_cast<uint64_t>(bit);
          Append(out, begin, begin + static_cast<uint64_t>(length));
          counted += static_cast<uint32_t>(length);
          bits = length + bit >= 64 ? 0 : bits & ~(((uint64_t{1} << length) - 1) << bit);
        }
      }
      if (counted != card) FailRoaring("bitmap container cardinality does not match its header");
      pos += kBitmapContainerBytes;
    } else {
      if (pos + size_t{2} * card > data.size()) FailRoaring("truncated array container");
      for (uint32_t v = 0; v < card; v++) {
        const uint64_t value = base + U16(data, pos + 2 * size_t{v});
        if (v > 0 && !out->empty() && value < out->back().end) FailRoaring("array values out of order");
        Append(out, value, value + 1);
      }
      pos += size_t{2} * card;
    }
  }
  return pos;
}

std::vector<PositionRange> DecodeRoaring64(std::string_view data) {
  const uint64_t buckets = U64(data, 0);
  size_t pos = 8;
  // Each bucket takes at least 4 (key) + 8 (cookie and count) bytes.
  if (buckets > (data.size() - pos) / 12) FailRoaring("bucket count " + std::to_string(buckets) + " exceeds the data");
  std::vector<PositionRange> out;
  int64_t previous_key = -1;
  for (uint64_t b = 0; b < buckets; b++) {
    const uint32_t key = U32(data, pos);
    pos += 4;
    if (static_cast<int64_t>(key) <= previous_key) FailRoaring("bucket keys out of order");
    previous_key = key;
    pos += DecodeRoaring32(data.substr(pos), key, &out);
  }
  if (pos != data.size()) FailRoaring(std::to_string(data.size() - pos) + " bytes after the bitmap");
  return out;
}

uint64_t CountPositions(const std::vector<PositionRange>& ranges) {
  uint64_t n = 0;
  for (const PositionRange& r : ranges) n += r.end - r.begin;
  return n;
}

}  // namespace parquet::lake
