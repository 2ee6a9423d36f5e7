// Z85 decoding and encoding (z85.h).
#include "format/lake/z85.h"

#include <cstdint>

namespace parquet::lake {

namespace {

constexpr char kAlphabet[] =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

int DigitOf(char c) {
  for (int i = 0; i < 85; i++) {
    if (kAlphabet[i] == c) return i;
  }
  return -1;
}

}  // namespace

std::optional<std::string> DecodeZ85(std::string_view text) {
  if (text.size() % 5 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 5 * 4);
  for (size_t i = 0; i < text.size(); i += 5) {
    // The last group may carry 1 to 3 bytes (the padded form of the z85 crate, which Delta
    // writers in Rust use): the group of the value left-padded with zero bytes, its first
    // digits (0 for such a value) written '#', one per padding byte. A '#' first digit is
    // otherwise a value above 2^32 - 1, so the form is unambiguous.
    size_t padding = 0;
    if (i + 5 == text.size()) {
      while (padding < 4 && text[i + padding] == '#') padding++;
      if (padding == 4) return std::nullopt;
    }
    uint64_t value = 0;
    for (size_t j = 0; j < 5; j++) {
      const int digit = j < padding ? 0 : DigitOf(text[i + j]);
      if (digit < 0) return std::nullopt;
      value = value * 85 + static_cast<uint64_t>(digit);
    }
    if (value >> (32 - 8 * padding) != 0) return std::nullopt;  // above 2^32 - 1, or padding bytes not zero
    for (int shift = 24 - 8 * static_cast<int>(padding); shift >= 0; shift -= 8) {
      out.push_back(static_cast<char>((value >> shift) & 0xFF));
    }
  }
  return out;
}

std::string EncodeZ85(std::string_view data) {
  std::string out;
  for (size_t i = 0; i + 4 <= data.size(); i += 4) {
    uint32_t value = 0;
    for (size_t j = 0; j < 4; j++) value = (value << 8) | static_cast<uint8_t>(data[i + j]);
    char group[5];
    for (int j = 4; j >= 0; j--) {
      group[j] = kAlphabet[value % 85];
      value /= 85;
    }
    out.append(group, 5);
  }
  return out;
}

}  // namespace parquet::lake
