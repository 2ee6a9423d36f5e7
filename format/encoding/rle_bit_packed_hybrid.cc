// The RLE / bit-packing hybrid: decoder and encoder. Grammar in rle_bit_packed_hybrid.h:
// a sequence of runs, each introduced by a ULEB-128 header whose lowest bit tells a
// bit-packed run (header >> 1 groups of 8 values) from an RLE run (header >> 1 copies of a
// value stored in ceil(bit_width / 8) little-endian bytes).
#include "format/encoding/rle_bit_packed_hybrid.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "format/encoding/bit_packing.h"
#include "format/common/error.h"
#include "format/common/levels.h"

namespace parquet {

namespace {

// Longest run the spec allows: 2^31 - 1 values.
constexpr uint64_t kMaxRunLength = (uint64_t{1} << 31) - 1;

uint32_t MaxValueForWidth(int bit_width) {
  return bit_width == 32 ? std::numeric_limits<uint32_t>::max() : (uint32_t{1} << bit_width) - 1;
}

void CheckBitWidth(int bit_width) {
  if (bit_width < 0 || bit_width > 32) {
    throw ParquetError("rle/bit-packed bit width " + std::to_string(bit_width) +
                       " out of range 0..32");
  }
}

}  // namespace

uint32_t ReadRleLengthPrefix(const uint8_t* data, size_t size) {
  if (size < 4) {
    throw ParquetError("rle data needs a 4-byte length prefix but only " + std::to_string(size) +
                       " bytes remain");
  }
  uint32_t length;
  std::memcpy(&length, data, 4);
  if (length > size - 4) {
    throw ParquetError("rle length prefix " + std::to_string(length) + " exceeds the " +
                       std::to_string(size - 4) + " bytes that follow it");
  }
  return length;
}

void AppendUleb128(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

// ---------------------------------------------------------------------------------------
// Decoder

void RleBitPackedDecoder::Reset(const uint8_t* data, size_t size, int bit_width) {
  CheckBitWidth(bit_width);
  pos_ = data;
  end_ = data + size;
  bit_width_ = bit_width;
  value_bytes_ = (bit_width + 7) / 8;
  rle_left_ = 0;
  rle_value_ = 0;
  packed_left_ = 0;
  packed_pos_ = nullptr;
  group_pos_ = group_end_ = 0;
  if (bit_width == 0 && size == 0) rle_left_ = std::numeric_limits<uint64_t>::max();
}

bool RleBitPackedDecoder::LoadNextRun() {
  if (pos_ == end_) return false;
  // ULEB-128 header. Run lengths are below 2^31, so a header never needs more than 32 bits.
  uint64_t header = 0;
  for (int shift = 0;; shift += 7) {
    if (pos_ == end_) throw ParquetError("rle/bit-packed run header is truncated");
    const uint8_t byte = *pos_++;
    if (shift == 28 && (byte & 0xF0) != 0) {
      throw ParquetError("rle/bit-packed run header exceeds 32 bits");
    }
    header |= uint64_t{byte & 0x7Fu} << shift;
    if ((byte & 0x80) == 0) break;
  }
  const uint64_t run_field = header >> 1;
  const size_t available = static_cast<size_t>(end_ - pos_);
  if (header & 1) {
    // Bit-packed run of run_field groups. A last run cut short keeps the whole values its
    // bytes hold; whether those suffice is for the caller's value count to decide.
    const uint64_t needed_bytes = run_field * static_cast<uint64_t>(bit_width_);
    uint64_t values = run_field * 8;
    size_t consumed = static_cast<size_t>(needed_bytes);
    if (needed_bytes > available) {
      values = static_cast<uint64_t>(available) * 8 / static_cast<uint64_t>(bit_width_);
      consumed = available;
    }
    packed_left_ = values;
    packed_pos_ = pos_;
    group_pos_ = group_end_ = 0;
    pos_ += consumed;
  } else {
    if (available < static_cast<size_t>(value_bytes_)) {
      throw ParquetError("rle run value is truncated: needs " + std::to_string(value_bytes_) +
                         " bytes, " + std::to_string(available) + " remain");
    }
    uint32_t value = 0;
    for (int i = 0; i < value_bytes_; ++i) value |= uint32_t{pos_[i]} << (8 * i);
    if (value > MaxValueForWidth(bit_width_)) {
      throw ParquetError("rle run value " + std::to_string(value) + " does not fit in bit width " +
                         std::to_string(bit_width_));
    }
    pos_ += value_bytes_;
    rle_left_ = run_field;
    rle_value_ = value;
  }
  return true;
}

// Called with the group buffer used up, so packed_left_ counts only unread values.
void RleBitPackedDecoder::LoadGroup() {
  const uint32_t values = static_cast<uint32_t>(std::min<uint64_t>(8, packed_left_));
  UnpackBits(packed_pos_, bit_width_, group_, values);
  packed_pos_ += PackedByteCount(values, bit_width_);
  group_pos_ = 0;
  group_end_ = values;
}

template <typename T>
size_t RleBitPackedDecoder::DecodeFromPackedRun(T* out, size_t n) {
  const size_t take = static_cast<size_t>(std::min<uint64_t>(n, packed_left_));
  size_t done = std::min<size_t>(take, group_end_ - group_pos_);
  for (size_t i = 0; i < done; ++i) out[i] = static_cast<T>(group_[group_pos_ + i]);
  group_pos_ += static_cast<uint32_t>(done);
  // Whole groups straight into the output; packed_left_ covers them, so their bytes exist.
  const size_t whole = (take - done) / 8 * 8;
  if (whole > 0) {
    UnpackBitsAs<T>(packed_pos_, bit_width_, out + done, whole);
    packed_pos_ += whole / 8 * static_cast<size_t>(bit_width_);
    done += whole;
  }
  packed_left_ -= done;
  if (done < take) {
    LoadGroup();
    const size_t rest = take - done;
    for (size_t i = 0; i < rest; ++i) out[done + i] = static_cast<T>(group_[i]);
    group_pos_ = static_cast<uint32_t>(rest);
    packed_left_ -= rest;
  }
  return take;
}

void RleBitPackedDecoder::SkipInPackedRun(size_t take) {
  size_t done = std::min<size_t>(take, group_end_ - group_pos_);
  group_pos_ += static_cast<uint32_t>(done);
  const size_t whole = (take - done) / 8 * 8;
  packed_pos_ += whole / 8 * static_cast<size_t>(bit_width_);
  done += whole;
  packed_left_ -= done;
  if (done < take) {
    LoadGroup();
    group_pos_ = static_cast<uint32_t>(take - done);
    packed_left_ -= take - done;
  }
}

void RleBitPackedDecoder::CheckOutputWidth(int type_bits) const {
  if (bit_width_ > type_bits) {
    throw ParquetError("bit width " + std::to_string(bit_width_) + " too wide for a " +
                       std::to_string(type_bits) + "-bit output");
  }
}

template <typename T>
size_t RleBitPackedDecoder::Decode(T* out, size_t n) {
  CheckOutputWidth(std::numeric_limits<T>::digits);
  size_t done = 0;
  while (done < n) {
    if (rle_left_ > 0) {
      const size_t take = static_cast<size_t>(std::min<uint64_t>(n - done, rle_left_));
      if constexpr (std::is_same_v<T, int16_t>) {
        FillLevels(out + done, take, static_cast<int16_t>(rle_value_));  // levels: four at a time
      } else {
        std::fill_n(out + done, take, static_cast<T>(rle_value_));
      }
      rle_left_ -= take;
      done += take;
    } else if (packed_left_ > 0) {
      done += DecodeFromPackedRun(out + done, n - done);
    } else if (!LoadNextRun()) {
      break;
    }
  }
  return done;
}

size_t RleBitPackedDecoder::Skip(size_t n) {
  size_t done = 0;
  while (done < n) {
    if (rle_left_ > 0) {
      const size_t take = static_cast<size_t>(std::min<uint64_t>(n - done, rle_left_));
      rle_left_ -= take;
      done += take;
    } else if (packed_left_ > 0) {
      const size_t take = static_cast<size_t>(std::min<uint64_t>(n - done, packed_left_));
      SkipInPackedRun(take);
      done += take;
    } else if (!LoadNextRun()) {
      break;
    }
  }
  return done;
}

size_t RleBitPackedDecoder::CountEqual(uint32_t value, size_t n, size_t* consumed) {
  size_t done = 0;
  size_t matches = 0;
  while (done < n) {
    if (rle_left_ > 0) {
      const size_t take = static_cast<size_t>(std::min<uint64_t>(n - done, rle_left_));
      if (rle_value_ == value) matches += take;
      rle_left_ -= take;
      done += take;
    } else if (packed_left_ > 0) {
      uint32_t batch[256];
      const size_t got = DecodeFromPackedRun(batch, std::min<size_t>(n - done, 256));
      for (size_t i = 0; i < got; ++i) matches += batch[i] == value;
      done += got;
    } else if (!LoadNextRun()) {
      break;
    }
  }
  *consumed = done;
  return matches;
}

size_t RleBitPackedDecoder::PeekRun(bool* is_rle, uint32_t* rle_value) {
  while (rle_left_ == 0 && packed_left_ == 0) {
    if (!LoadNextRun()) return 0;
  }
  if (rle_left_ > 0) {
    *is_rle = true;
    *rle_value = rle_value_;
    return static_cast<size_t>(rle_left_);
  }
  *is_rle = false;
  return static_cast<size_t>(packed_left_);
}

template size_t RleBitPackedDecoder::Decode<uint32_t>(uint32_t*, size_t);
template size_t RleBitPackedDecoder::Decode<int32_t>(int32_t*, size_t);
template size_t RleBitPackedDecoder::Decode<uint16_t>(uint16_t*, size_t);
template size_t RleBitPackedDecoder::Decode<int16_t>(int16_t*, size_t);
template size_t RleBitPackedDecoder::Decode<uint8_t>(uint8_t*, size_t);
template size_t RleBitPackedDecoder::Decode<bool>(bool*, size_t);

// ---------------------------------------------------------------------------------------
// Encoder

namespace {
// Most groups one bit-packed run may hold so that its value count stays below 2^31.
constexpr uint64_t kMaxLiteralGroups = kMaxRunLength / 8;
}  // namespace

RleBitPackedEncoder::RleBitPackedEncoder(int bit_width) : bit_width_(bit_width) {
  CheckBitWidth(bit_width);
  max_value_ = MaxValueForWidth(bit_width);
}

void RleBitPackedEncoder::CheckFits(uint32_t value) const {
  if (value > max_value_) {
    throw ParquetError("value " + std::to_string(value) + " does not fit in bit width " +
                       std::to_string(bit_width_));
  }
}

void RleBitPackedEncoder::Put(uint32_t value) {
  CheckFits(value);
  if (rle_count_ > 0) {
    if (value == rle_value_) {
      ++rle_count_;
      return;
    }
    EmitRleRun();
  }
  if (group_size_ > 0 && value != group_[0]) group_all_equal_ = false;
  group_[group_size_++] = value;
  if (group_size_ == 8) EndGroup();
}

void RleBitPackedEncoder::Put(const uint32_t* values, size_t count) {
  size_t i = 0;
  while (i < count) {
    if (rle_count_ > 0) {
      // Extend the open run as far as it goes (its value is known to fit).
      const size_t start = i;
      while (i < count && values[i] == rle_value_) ++i;
      rle_count_ += i - start;
      if (i == count) break;
    }
    if (group_size_ == 0 && rle_count_ == 0 && count - i >= 8) {
      // A whole group at once: the same outcome as eight single Puts.
      const uint32_t* group = values + i;
      uint32_t any_bits = 0;
      bool all_equal = true;
      for (int k = 0; k < 8; ++k) {
        any_bits |= group[k];
        all_equal &= group[k] == group[0];
      }
      if (any_bits <= max_value_ && !all_equal) {
        AppendPackedBits(group, 8, bit_width_, &literal_bytes_);
        if (++literal_groups_ == kMaxLiteralGroups) EmitLiteralRun();
        i += 8;
        continue;
      }
    }
    Put(values[i++]);
  }
}

void RleBitPackedEncoder::PutRun(uint32_t value, size_t count) {
  CheckFits(value);
  // An open RLE run implies an empty group, so this loop only completes a partial group.
  while (count > 0 && group_size_ > 0) {
    Put(value);
    --count;
  }
  if (count == 0) return;
  if (rle_count_ > 0 && value == rle_value_) {
    rle_count_ += count;
    return;
  }
  if (count >= 8) {
    EmitRleRun();
    EmitLiteralRun();
    rle_value_ = value;
    rle_count_ = count;
    return;
  }
  while (count-- > 0) Put(value);
}

void RleBitPackedEncoder::EndGroup() {
  if (group_all_equal_) {
    EmitLiteralRun();
    rle_value_ = group_[0];
    rle_count_ = 8;
  } else {
    AppendPackedBits(group_, 8, bit_width_, &literal_bytes_);
    if (++literal_groups_ == kMaxLiteralGroups) EmitLiteralRun();
  }
  group_size_ = 0;
  group_all_equal_ = true;
}

void RleBitPackedEncoder::EmitLiteralRun() {
  if (literal_groups_ == 0) return;
  AppendUleb128(literal_groups_ << 1 | 1, &encoded_);
  encoded_ += literal_bytes_;
  literal_bytes_.clear();
  literal_groups_ = 0;
}

void RleBitPackedEncoder::EmitRleRun() {
  const int value_bytes = (bit_width_ + 7) / 8;
  while (rle_count_ > 0) {
    const uint64_t run = std::min(rle_count_, kMaxRunLength);
    AppendUleb128(run << 1, &encoded_);
    for (int i = 0; i < value_bytes; ++i) encoded_.push_back(static_cast<char>(rle_value_ >> (8 * i)));
    rle_count_ -= run;
  }
}

void RleBitPackedEncoder::Flush(std::string* out) {
  if (rle_count_ > 0) {
    EmitRleRun();
  } else if (group_size_ > 0) {
    if (group_all_equal_) {
      // A short tail of one repeated value: an exact RLE run beats a padded group.
      EmitLiteralRun();
      rle_value_ = group_[0];
      rle_count_ = static_cast<uint64_t>(group_size_);
      EmitRleRun();
    } else {
      std::fill(group_ + group_size_, group_ + 8, 0u);
      AppendPackedBits(group_, 8, bit_width_, &literal_bytes_);
      ++literal_groups_;
    }
    group_size_ = 0;
    group_all_equal_ = true;
  }
  EmitLiteralRun();
  out->append(encoded_);
  encoded_.clear();
}

}  // namespace parquet
