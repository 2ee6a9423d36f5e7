// The RLE / bit-packing hybrid encoding (Encodings.md, RLE = 3): repetition and definition
// levels, dictionary indices and RLE-encoded booleans. The bit width is known beforehand.
//
// Grammar, in our words:
//   hybrid          := run*                 (sometimes preceded by a 4-byte little-endian
//                                             byte count, see ReadRleLengthPrefix)
//   run             := bit-packed-run | rle-run
//   bit-packed-run  := varint(groups << 1 | 1)  then groups * 8 values, bit-packed LSB-first
//                      at the bit width (groups * bit_width bytes)
//   rle-run         := varint(count << 1)  then the repeated value in ceil(bit_width / 8)
//                      bytes, little-endian
//   varint          := ULEB-128: 7 bits per byte, lowest group first, high bit = "more"
// Run lengths lie in 1 .. 2^31 - 1. Values of the last bit-packed group past the number
// the page holds are padding and are never returned by the caller's count. Example from
// the spec: 0..7 at width 3 as one bit-packed run is 0x03 0x88 0xC6 0xFA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace parquet {

// Reads the 4-byte little-endian byte count that precedes hybrid data in data page v1
// levels and in RLE booleans; checks it against the `size - 4` bytes that follow.
uint32_t ReadRleLengthPrefix(const uint8_t* data, size_t size);

class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width) { Reset(data, size, bit_width); }

  // Starts decoding `size` bytes of runs (no length prefix) of the given width (0..32).
  // Width 0 with no data at all reads as an endless sequence of zeros (some writers omit
  // the runs when every value is 0); the caller's value count bounds it.
  void Reset(const uint8_t* data, size_t size, int bit_width);

  // Decodes the next min(n, available) values; returns how many. Fewer than n only at the
  // end of the data. T is uint32_t, int32_t, int16_t, uint16_t, uint8_t or bool and must be
  // wide enough for the bit width. Throws ParquetError on malformed or truncated runs.
  template <typename T>
  size_t Decode(T* out, size_t n);

  // Skips the next min(n, available) values without materializing whole runs; returns how many.
  size_t Skip(size_t n);

  // Among the next min(n, available) values (which are consumed), counts those equal to
  // `value`; *consumed receives how many were consumed. RLE runs are counted without
  // being expanded (used e.g. to count non-null definition levels).
  size_t CountEqual(uint32_t value, size_t n, size_t* consumed);

  // Describes the run the next value comes from, reading the next run header if needed:
  // returns how many values are left in it (0 at the end of the data) and sets *is_rle and,
  // for RLE runs, *rle_value. Lets callers handle a whole RLE run at once. (The endless
  // zeros of width 0 without data show as an RLE run of 2^64 - 1 values.)
  size_t PeekRun(bool* is_rle, uint32_t* rle_value);

  int bit_width() const { return bit_width_; }

 private:
  // Reads the next run header. Returns false at the end of the data.
  bool LoadNextRun();
  // Reads the next unread group (or the short last group) of the bit-packed run into group_.
  void LoadGroup();
  template <typename T>
  size_t DecodeFromPackedRun(T* out, size_t n);
  void SkipInPackedRun(size_t n);
  void CheckOutputWidth(int type_bits) const;

  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int bit_width_ = 0;
  int value_bytes_ = 0;  // ceil(bit_width / 8): bytes of an RLE run's value

  uint64_t rle_left_ = 0;  // values left in the current RLE run
  uint32_t rle_value_ = 0;

  uint64_t packed_left_ = 0;              // values left in the current bit-packed run, incl. buffered
  const uint8_t* packed_pos_ = nullptr;   // first byte of the next unread group
  uint32_t group_[8] = {};                // one unpacked group, partially consumed:
  uint32_t group_pos_ = 0;                //   group_[group_pos_, group_end_) not yet returned
  uint32_t group_end_ = 0;
};

// Appends values as hybrid runs: 8 or more equal values starting at a group boundary
// become an RLE run, everything else bit-packed groups of 8 (the last group zero-padded,
// unless it consists of one repeated value, which is written as a short RLE run).
class RleBitPackedEncoder {
 public:
  explicit RleBitPackedEncoder(int bit_width);

  // Throws ParquetError if `value` does not fit in the bit width.
  void Put(uint32_t value);
  void Put(const uint32_t* values, size_t count);
  void PutRun(uint32_t value, size_t count);

  // Appends all runs so far to *out (no length prefix) and starts afresh.
  void Flush(std::string* out);

  int bit_width() const { return bit_width_; }

 private:
  void EndGroup();
  void EmitLiteralRun();
  void EmitRleRun();
  void CheckFits(uint32_t value) const;

  int bit_width_;
  uint32_t max_value_;
  std::string encoded_;        // finished runs
  std::string literal_bytes_;  // packed groups of the open bit-packed run
  uint64_t literal_groups_ = 0;
  uint32_t group_[8] = {};
  int group_size_ = 0;
  bool group_all_equal_ = true;
  uint32_t rle_value_ = 0;
  uint64_t rle_count_ = 0;  // > 0: an RLE run is open
};

// Appends the ULEB-128 encoding of `value`.
void AppendUleb128(uint64_t value, std::string* out);

}  // namespace parquet
