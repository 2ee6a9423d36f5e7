// DELTA_BINARY_PACKED decoder and encoder (grammar in delta_binary_packed.h).
//
// Values are handled in groups of 32: a miniblock holds a multiple of 32 values, and 32
// values bit-packed at width w fill exactly 4*w bytes, so every group starts on a byte
// boundary. A group is unpacked with one call specialised for its bit width, then turned
// into values by a running sum; bounds are checked once per group.
#include "format/encoding/delta_binary_packed.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <utility>

#include "format/common/error.h"

namespace parquet {

namespace {

[[noreturn]] void FailDeltaBinaryPacked(const std::string& message) {
  throw ParquetError("delta binary packed: " + message);
}

// ULEB128: 7 bits per byte, least significant group first, high bit set on every byte
// but the last. At most 10 bytes for a 64-bit value.
uint64_t ReadUleb128(const uint8_t* data, size_t size, size_t& pos, const char* what) {
  uint64_t result = 0;
  for (int i = 0; i < 10; ++i) {
    if (pos >= size) FailDeltaBinaryPacked(std::string("truncated ") + what);
    const uint8_t byte = data[pos++];
    if (i == 9 && byte > 1) FailDeltaBinaryPacked(std::string(what) + " does not fit in 64 bits");
    result |= uint64_t(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) return result;
  }
  FailDeltaBinaryPacked(std::string(what) + " does not fit in 64 bits");
}

// Zigzag maps 0, -1, 1, -2, 2, ... to 0, 1, 2, 3, 4, ...
uint64_t ZigzagDecode(uint64_t n) { return (n >> 1) ^ (0 - (n & 1)); }
uint64_t ZigzagEncode(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }

void AppendUleb128(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(char(uint8_t(value) | 0x80));
    value >>= 7;
  }
  out.push_back(char(value));
}

uint64_t LoadLittleEndian64(const uint8_t* p) {
  uint64_t v;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&v, p, 8);
  } else {
    v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  }
  return v;
}

constexpr size_t kGroupSize = 32;
// Unpacking a group of width w reads up to 9 bytes past the group's 4*w bytes.
constexpr size_t kUnpackOverread = 16;

// Unpacks 32 LSB-first values of Width bits from `in`, which must have 4*Width +
// kUnpackOverread readable bytes.
template <typename U, int Width>
void UnpackGroup(const uint8_t* in, U* out) {
  if constexpr (Width == 0) {
    for (size_t i = 0; i < kGroupSize; ++i) out[i] = 0;
  } else {
    // Fully unrolled, every offset and shift below is a constant.
#pragma GCC unroll 32
    for (size_t i = 0; i < kGroupSize; ++i) {
      const size_t bit = i * Width;
      const uint8_t* p = in + bit / 8;
      const unsigned shift = unsigned(bit % 8);
      uint64_t word = LoadLittleEndian64(p) >> shift;
      if constexpr (Width > 56) {
        if (shift + Width > 64) word |= uint64_t(p[8]) << (64 - shift);
      }
      if constexpr (Width < 64) word &= (uint64_t{1} << Width) - 1;
      out[i] = U(word);
    }
  }
}

template <typename U>
using UnpackFunction = void (*)(const uint8_t*, U*);

template <typename U, size_t... Widths>
constexpr std::array<UnpackFunction<U>, sizeof...(Widths)> MakeUnpackTable(
    std::index_sequence<Widths...>) {
  return {&UnpackGroup<U, int(Widths)>...};
}

// kUnpackTable<U>[w] unpacks a group of width w, for w = 0 .. bits of U.
template <typename U>
constexpr auto kUnpackTable = MakeUnpackTable<U>(std::make_index_sequence<sizeof(U) * 8 + 1>{});

// Appends 32 values bit-packed LSB-first at `width` bits (4*width bytes).
template <typename U>
void PackGroup(const U* values, int width, std::string& out) {
  if (width == 0) return;
  uint64_t pending = 0;  // bits not yet written, lowest first
  int pending_bits = 0;
  char bytes[8];
  for (size_t i = 0; i < kGroupSize; ++i) {
    const uint64_t v = values[i];
    pending |= v << pending_bits;
    pending_bits += width;
    if (pending_bits >= 64) {
      for (int b = 0; b < 8; ++b) bytes[b] = char(uint8_t(pending >> (8 * b)));
      out.append(bytes, 8);
      pending_bits -= 64;
      pending = pending_bits ? v >> (width - pending_bits) : 0;
    }
  }
  // 32*width bits leave 0 or 32 bits over a multiple of 64.
  for (int b = 0; b < pending_bits / 8; ++b) out.push_back(char(uint8_t(pending >> (8 * b))));
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Decoder

template <typename T>
void DeltaBinaryPackedDecoder<T>::SetData(const uint8_t* data, size_t size, size_t num_values) {
  data_ = data;
  size_ = size;
  pos_ = 0;
  header_end_ = 0;
  total_count_ = 0;
  remaining_ = 0;
  stream_left_ = 0;
  first_value_pending_ = false;
  last_value_ = 0;
  min_delta_ = 0;
  miniblock_left_ = 0;
  bit_width_ = 0;
  miniblock_end_ = 0;
  group_pos_ = 0;
  group_size_ = 0;
  values_per_miniblock_ = 0;
  miniblocks_per_block_ = 0;
  next_miniblock_ = 0;
  if (size == 0 && num_values == 0) return;

  const uint64_t block_size = ReadUleb128(data, size, pos_, "block size");
  const uint64_t miniblocks = ReadUleb128(data, size, pos_, "miniblock count");
  const uint64_t count = ReadUleb128(data, size, pos_, "total value count");
  const uint64_t first = ZigzagDecode(ReadUleb128(data, size, pos_, "first value"));

  if (block_size == 0 || block_size % 128 != 0) {
    FailDeltaBinaryPacked("block size " + std::to_string(block_size) + " is not a positive multiple of 128");
  }
  if (block_size > kDeltaMaxValuesPerBlock) {
    FailDeltaBinaryPacked("block size " + std::to_string(block_size) + " exceeds the supported maximum " +
         std::to_string(kDeltaMaxValuesPerBlock));
  }
  if (miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    FailDeltaBinaryPacked("miniblock count " + std::to_string(miniblocks) + " does not split block size " +
         std::to_string(block_size) + " into miniblocks of a multiple of 32 values");
  }
  // Every block costs at least a min delta byte and its bit-width bytes, so the remaining
  // bytes bound the number of blocks, hence of values.
  if (count > 1) {
    const uint64_t blocks_needed = (count - 2) / block_size + 1;
    const uint64_t blocks_possible = (size - pos_) / (1 + miniblocks);
    if (blocks_needed > blocks_possible) {
      FailDeltaBinaryPacked("value count " + std::to_string(count) + " cannot fit in " + std::to_string(size) +
           " bytes");
    }
  }

  header_end_ = pos_;
  values_per_miniblock_ = size_t(block_size / miniblocks);
  miniblocks_per_block_ = size_t(miniblocks);
  next_miniblock_ = miniblocks_per_block_;  // the first group reads a block header
  bit_widths_.resize(miniblocks_per_block_);
  total_count_ = size_t(count);
  // num_values is an upper bound (a v1 data page counts its nulls too); the header's own
  // count is exact.
  remaining_ = size_t(std::min<uint64_t>(num_values, count));
  stream_left_ = count > 0 ? size_t(count - 1) : 0;
  first_value_pending_ = count > 0;
  last_value_ = Unsigned(first);
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::ReadBlockHeader() {
  min_delta_ = Unsigned(ZigzagDecode(ReadUleb128(data_, size_, pos_, "block min delta")));
  if (miniblocks_per_block_ > size_ - pos_) FailDeltaBinaryPacked("truncated miniblock bit widths");
  std::memcpy(bit_widths_.data(), data_ + pos_, miniblocks_per_block_);
  pos_ += miniblocks_per_block_;
  next_miniblock_ = 0;
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::StartMiniblock() {
  if (next_miniblock_ == miniblocks_per_block_) ReadBlockHeader();
  const int width = bit_widths_[next_miniblock_++];
  if (width > kTypeBits) {
    FailDeltaBinaryPacked("bit width " + std::to_string(width) + " exceeds the " + std::to_string(kTypeBits) +
         " bits of the physical type");
  }
  bit_width_ = width;
  miniblock_left_ = values_per_miniblock_;
  miniblock_end_ = pos_ + values_per_miniblock_ / 8 * size_t(width);
}

template <typename T>
size_t DeltaBinaryPackedDecoder<T>::UnpackNextGroup(Unsigned* packed) {
  if (miniblock_left_ == 0) StartMiniblock();
  const size_t real = std::min(kGroupSize, stream_left_);
  miniblock_left_ -= kGroupSize;
  stream_left_ -= real;
  const size_t width = size_t(bit_width_);
  if (width == 0) {
    kUnpackTable<Unsigned>[0](nullptr, packed);
    return real;
  }
  const size_t group_bytes = 4 * width;
  const size_t available = size_ - pos_;
  // Only the bytes holding real values must be present: the last miniblock's padding may
  // be cut short by a writer.
  const size_t needed = (real * width + 7) / 8;
  if (needed > available) {
    FailDeltaBinaryPacked("truncated miniblock: " + std::to_string(needed) + " bytes needed, " +
         std::to_string(available) + " left");
  }
  const uint8_t* source = data_ + pos_;
  uint8_t padded[4 * 64 + kUnpackOverread];
  if (available < group_bytes + kUnpackOverread) {
    const size_t copied = std::min(group_bytes, available);
    std::memcpy(padded, source, copied);
    std::memset(padded + copied, 0, sizeof(padded) - copied);
    source = padded;
  }
  kUnpackTable<Unsigned>[width](source, packed);
  pos_ += std::min(group_bytes, available);
  return real;
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::LoadGroup() {
  Unsigned packed[kGroupSize];
  const size_t real = UnpackNextGroup(packed);
  Unsigned value = last_value_;
  const Unsigned min_delta = min_delta_;
  for (size_t i = 0; i < real; ++i) {
    value += min_delta + packed[i];
    group_[i] = value;
  }
  last_value_ = value;
  group_pos_ = 0;
  group_size_ = real;
}

template <typename T>
size_t DeltaBinaryPackedDecoder<T>::Decode(T* out, size_t n) {
  n = std::min(n, remaining_);
  size_t done = 0;
  if (n > 0 && first_value_pending_) {
    out[done++] = T(last_value_);
    first_value_pending_ = false;
  }
  while (done < n) {
    if (group_pos_ < group_size_) {
      const size_t take = std::min(n - done, group_size_ - group_pos_);
      for (size_t i = 0; i < take; ++i) out[done + i] = T(group_[group_pos_ + i]);
      group_pos_ += take;
      done += take;
    } else if (n - done >= kGroupSize) {
      // A whole group is wanted (and, as n <= the header's count, all 32 are real values):
      // sum straight into the output.
      Unsigned packed[kGroupSize];
      UnpackNextGroup(packed);
      Unsigned value = last_value_;
      const Unsigned min_delta = min_delta_;
      T* dest = out + done;
#pragma GCC unroll 8
      for (size_t i = 0; i < kGroupSize; ++i) {
        value += min_delta + packed[i];
        dest[i] = T(value);
      }
      last_value_ = value;
      done += kGroupSize;
    } else {
      LoadGroup();
    }
  }
  remaining_ -= n;
  return n;
}

template <typename T>
size_t DeltaBinaryPackedDecoder<T>::Skip(size_t n) {
  n = std::min(n, remaining_);
  size_t left = n;
  if (left > 0 && first_value_pending_) {
    first_value_pending_ = false;
    --left;
  }
  const size_t buffered = std::min(left, group_size_ - group_pos_);
  group_pos_ += buffered;
  left -= buffered;
  while (left >= kGroupSize) {
    if (miniblock_left_ == 0) StartMiniblock();
    if (bit_width_ == 0) {
      // Every delta is the min delta: jump over all whole groups of this miniblock at once.
      const size_t values = std::min(left, miniblock_left_) / kGroupSize * kGroupSize;
      last_value_ += Unsigned(values) * min_delta_;
      miniblock_left_ -= values;
      stream_left_ -= values;
      left -= values;
      continue;
    }
    Unsigned packed[kGroupSize];
    UnpackNextGroup(packed);
    Unsigned sum = 0;
    for (size_t i = 0; i < kGroupSize; ++i) sum += packed[i];
    last_value_ += sum + Unsigned(kGroupSize) * min_delta_;
    left -= kGroupSize;
  }
  if (left > 0) {
    LoadGroup();
    group_pos_ = left;
  }
  remaining_ -= n;
  return n;
}

template <typename T>
size_t DeltaBinaryPackedDecoder<T>::BytesConsumed() const {
  if (stream_left_ != 0) FailDeltaBinaryPacked("stream end asked for before all values were decoded");
  if (total_count_ <= 1) return header_end_;
  return std::min(miniblock_end_, size_);
}

// ---------------------------------------------------------------------------------------
// Encoder

template <typename T>
void DeltaBinaryPackedEncoder<T>::Put(const T* values, size_t count) {
  size_t i = 0;
  if (count > 0 && total_count_ == 0) {
    first_value_ = previous_value_ = Unsigned(values[0]);
    i = 1;
  }
  for (; i < count; ++i) {
    const Unsigned value = Unsigned(values[i]);
    deltas_[block_count_++] = value - previous_value_;
    previous_value_ = value;
    if (block_count_ == kValuesPerBlock) FlushBlock();
  }
  total_count_ += count;
}

template <typename T>
void DeltaBinaryPackedEncoder<T>::FlushBlock() {
  T min_delta = T(deltas_[0]);
  for (size_t i = 1; i < block_count_; ++i) min_delta = std::min(min_delta, T(deltas_[i]));
  AppendUleb128(blocks_, ZigzagEncode(int64_t(min_delta)));

  Unsigned relative[kValuesPerBlock] = {};  // zero beyond block_count_: the padding
  for (size_t i = 0; i < block_count_; ++i) relative[i] = deltas_[i] - Unsigned(min_delta);

  constexpr size_t kPerMiniblock = kValuesPerBlock / kMiniblocksPerBlock;
  int widths[kMiniblocksPerBlock] = {};
  for (size_t m = 0; m < kMiniblocksPerBlock; ++m) {
    const size_t begin = m * kPerMiniblock;
    const size_t end = std::min(begin + kPerMiniblock, block_count_);
    Unsigned all_bits = 0;
    for (size_t i = begin; i < end; ++i) all_bits |= relative[i];
    widths[m] = int(std::bit_width(all_bits));
    blocks_.push_back(char(widths[m]));
  }
  for (size_t m = 0; m < kMiniblocksPerBlock && m * kPerMiniblock < block_count_; ++m) {
    for (size_t g = 0; g < kPerMiniblock; g += kGroupSize) {
      PackGroup(relative + m * kPerMiniblock + g, widths[m], blocks_);
    }
  }
  block_count_ = 0;
}

template <typename T>
void DeltaBinaryPackedEncoder<T>::Finish(std::string& out) {
  if (block_count_ > 0) FlushBlock();
  AppendUleb128(out, kValuesPerBlock);
  AppendUleb128(out, kMiniblocksPerBlock);
  AppendUleb128(out, total_count_);
  AppendUleb128(out, ZigzagEncode(int64_t(T(first_value_))));
  out += blocks_;
  blocks_.clear();
  total_count_ = 0;
  first_value_ = previous_value_ = 0;
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;
template class DeltaBinaryPackedEncoder<int32_t>;
template class DeltaBinaryPackedEncoder<int64_t>;

}  // namespace parquet
