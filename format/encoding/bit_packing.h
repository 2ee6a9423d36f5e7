// LSB-first bit packing, shared by the RLE/bit-packing hybrid (levels, dictionary indices,
// RLE booleans), PLAIN booleans and the miniblocks of DELTA_BINARY_PACKED.
//
// The layout, as Encodings.md describes it for the hybrid: values of one fixed bit width are
// stored back to back with no gaps. Filling starts at the least significant bit of the first
// byte and moves towards its most significant bit; a value that does not fit in what is left
// of a byte continues in the low bits of the next byte. Within a value the bits keep their
// ordinary significance (its lowest bit is stored first). Example from the spec: 0..7 at
// width 3 pack into the three bytes 0x88 0xC6 0xFA. Eight values of width w take exactly w
// bytes, so groups of 8 always start on a byte boundary; the decoders below work a group of
// 8 at a time with the width fixed at compile time.
//
// (The deprecated BIT_PACKED level encoding uses the opposite, MSB-first, order; it lives in
// bit_packed_levels.h.)
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "format/common/error.h"

namespace parquet {

static_assert(std::endian::native == std::endian::little,
              "the format library assumes a little-endian host");

// Bytes that hold `count` values of `bit_width` bits: ceil(count * bit_width / 8).
constexpr size_t PackedByteCount(size_t count, int bit_width) {
  return (count * static_cast<size_t>(bit_width) + 7) / 8;
}

// Smallest bit width able to represent every value in 0..max_value (0 for max_value 0).
constexpr int MinimalBitWidth(uint64_t max_value) { return static_cast<int>(std::bit_width(max_value)); }

namespace bit_packing_internal {

inline uint64_t LoadLittleEndian64(const uint8_t* p) {
  uint64_t word;
  std::memcpy(&word, p, sizeof(word));
  return word;
}

// Unpacks one group of 8 values of width W (1..64). May read up to W + 8 bytes from `in`.
template <typename Out, int W>
inline void UnpackGroupOf8(const uint8_t* in, Out* out) {
  constexpr uint64_t kMask = W == 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1;
  if constexpr (sizeof(Out) == 1 && W <= 8) {
    // Bytes from at most 8 bytes: one load, the 8 values gathered into one word, one store.
    const uint64_t word = LoadLittleEndian64(in);
    uint64_t bytes = 0;
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) bytes |= ((word >> (i * W)) & kMask) << (8 * i);
    std::memcpy(out, &bytes, sizeof(bytes));
    return;
  }
  // All loads first, then all stores: `out` may alias `in` as far as the compiler knows,
  // so interleaving them would force reloads.
  uint64_t values[8];
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    const int first_bit = i * W;
    const uint8_t* p = in + first_bit / 8;
    const int shift = first_bit % 8;
    uint64_t word = LoadLittleEndian64(p) >> shift;
    if constexpr (W > 56) {
      // A value wider than 56 bits starting mid-byte spills into a ninth byte.
      if (shift + W > 64) word |= uint64_t{p[8]} << (64 - shift);
    }
    values[i] = word & kMask;
  }
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) out[i] = static_cast<Out>(values[i]);
}

// Unpacks `count` values of width W, reading exactly PackedByteCount(count, W) bytes.
template <typename Out, int W>
void UnpackWithWidth(const uint8_t* in, Out* out, size_t count) {
  if constexpr (W == 0) {
    std::fill_n(out, count, static_cast<Out>(0));
  } else {
    const size_t groups = count / 8;
    const size_t total_bytes = PackedByteCount(count, W);
    // Group g reads bytes [g*W, g*W + W + 8); those entirely inside the input go direct.
    const size_t direct_groups = total_bytes >= 8 ? std::min(groups, (total_bytes - 8) / W) : 0;
    size_t group = 0;
    for (; group < direct_groups; ++group) {
      UnpackGroupOf8<Out, W>(in + group * W, out + group * 8);
    }
    // The last few groups (and a partial tail) go through a zero-padded copy.
    uint8_t padded[W + 8];
    for (; group < groups; ++group) {
      std::memset(padded, 0, sizeof(padded));
      std::memcpy(padded, in + group * W, W);
      UnpackGroupOf8<Out, W>(padded, out + group * 8);
    }
    const size_t tail = count % 8;
    if (tail != 0) {
      std::memset(padded, 0, sizeof(padded));
      std::memcpy(padded, in + groups * W, PackedByteCount(tail, W));
      Out unpacked[8];
      UnpackGroupOf8<Out, W>(padded, unpacked);
      std::copy_n(unpacked, tail, out + groups * 8);
    }
  }
}

template <typename Out>
using UnpackFunction = void (*)(const uint8_t*, Out*, size_t);

template <typename Out, int... Widths>
constexpr std::array<UnpackFunction<Out>, sizeof...(Widths)> MakeUnpackTable(
    std::integer_sequence<int, Widths...>) {
  return {&UnpackWithWidth<Out, Widths>...};
}

// Widest bit width an output type can receive: 64 for uint64_t, 32 for everything else
// (narrower outputs simply keep the low bits; callers check widths against their type).
template <typename Out>
constexpr int kMaxUnpackWidth = sizeof(Out) == 8 ? 64 : 32;

template <typename Out>
inline constexpr auto kUnpackTable =
    MakeUnpackTable<Out>(std::make_integer_sequence<int, kMaxUnpackWidth<Out> + 1>{});

}  // namespace bit_packing_internal

// Unpacks `count` LSB-first values of `bit_width` bits from `in` into out[0..count),
// reading exactly PackedByteCount(count, bit_width) bytes. Works 8 values at a time with
// the width fixed at compile time. bit_width: 0..32, or 0..64 when Out is 64 bits wide.
template <typename Out>
inline void UnpackBitsAs(const uint8_t* in, int bit_width, Out* out, size_t count) {
  constexpr int kMax = bit_packing_internal::kMaxUnpackWidth<Out>;
  if (bit_width < 0 || bit_width > kMax) {
    throw ParquetError("bit width " + std::to_string(bit_width) + " out of range 0.." +
                       std::to_string(kMax));
  }
  bit_packing_internal::kUnpackTable<Out>[bit_width](in, out, count);
}

// 32-bit values, bit_width 0..32.
inline void UnpackBits(const uint8_t* in, int bit_width, uint32_t* out, size_t count) {
  UnpackBitsAs<uint32_t>(in, bit_width, out, count);
}

// 64-bit values, bit_width 0..64.
inline void UnpackBits(const uint8_t* in, int bit_width, uint64_t* out, size_t count) {
  UnpackBitsAs<uint64_t>(in, bit_width, out, count);
}

// Packs the low `bit_width` bits (0..64) of each of `count` values LSB-first into `out`,
// writing exactly PackedByteCount(count, bit_width) bytes; the last byte is zero-padded.
template <typename In>
void PackBits(const In* values, size_t count, int bit_width, uint8_t* out) {
  if (bit_width < 0 || bit_width > 64) {
    throw ParquetError("bit width " + std::to_string(bit_width) + " out of range 0..64");
  }
  if (bit_width == 0) return;
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  uint64_t pending = 0;   // bits not yet written, lowest first
  uint64_t overflow = 0;  // bits of the last value that did not fit in `pending`
  int pending_bits = 0;   // always < 8 between values
  for (size_t i = 0; i < count; ++i) {
    const uint64_t value = static_cast<uint64_t>(values[i]) & mask;
    pending |= value << pending_bits;
    overflow = pending_bits == 0 ? 0 : value >> (64 - pending_bits);
    int total_bits = pending_bits + bit_width;
    while (total_bits >= 8) {
      *out++ = static_cast<uint8_t>(pending);
      pending = (pending >> 8) | (overflow << 56);
      overflow >>= 8;
      total_bits -= 8;
    }
    pending_bits = total_bits;
  }
  if (pending_bits > 0) *out = static_cast<uint8_t>(pending);
}

// PackBits appending to a string.
template <typename In>
void AppendPackedBits(const In* values, size_t count, int bit_width, std::string* out) {
  const size_t old_size = out->size();
  out->resize(old_size + PackedByteCount(count, bit_width));
  PackBits(values, count, bit_width, reinterpret_cast<uint8_t*>(out->data() + old_size));
}

}  // namespace parquet
