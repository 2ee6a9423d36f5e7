// DELTA_BINARY_PACKED (encoding 5) for INT32 and INT64 columns: decoder and encoder.
// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY store their lengths with it as well.
//
// The stream, in our words (Encodings.md, "Delta Encoding"):
//
//   stream     := header block*
//   header     := <values per block: ULEB128, a positive multiple of 128>
//                 <miniblocks per block: ULEB128, dividing the block into miniblocks whose
//                  value count is a multiple of 32>
//                 <total value count: ULEB128>
//                 <first value: zigzag ULEB128>
//   block      := <min delta: zigzag ULEB128> <bit width: 1 byte>{miniblocks per block}
//                 miniblock*
//   miniblock  := (delta - min delta) of each value, bit-packed LSB-first at the
//                 miniblock's bit width; always values-per-miniblock * width bits long,
//                 the last one padded with arbitrary bits.
//
// A delta is a value minus the value before it (the first delta of a block uses the last
// value of the previous block). Deltas and sums wrap around in two's complement, so all
// arithmetic here is done in the unsigned type of T. In the last block, miniblocks that
// hold no values have no body and their bit-width bytes may hold anything. Widths larger
// than the physical type (32 for INT32, 64 for INT64) are rejected.
//
// The decoders of this file and of the other delta encodings are not usable after they
// threw ParquetError until SetData is called again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "format/encoding/value_decoder.h"

namespace parquet {

// Largest block (in values) this reader accepts. The format sets no limit; common writers
// use 128 to 2048. The cap keeps "how many values can this page possibly hold" bounded by
// the page size, so a header claiming billions of values is rejected before any work.
inline constexpr uint64_t kDeltaMaxValuesPerBlock = 1u << 16;

template <typename T>
class DeltaBinaryPackedDecoder final : public ValueDecoder<T> {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>,
                "DELTA_BINARY_PACKED stores INT32 or INT64");

 public:
  using Unsigned = std::make_unsigned_t<T>;

  // Reads and checks the header. num_values may be less than the header's total count
  // (only that many are then decoded) but never more.
  void SetData(const uint8_t* data, size_t size, size_t num_values) override;
  size_t Decode(T* out, size_t n) override;
  size_t Skip(size_t n) override;

  // The total value count the stream's header declares (0 before SetData).
  size_t TotalValueCount() const { return total_count_; }

  // Offset, from the start of the data given to SetData, just past the stream: after the
  // padded last miniblock (clamped to the data size). Only valid once all
  // TotalValueCount() values have been decoded or skipped; throws ParquetError otherwise.
  size_t BytesConsumed() const;

 private:
  static constexpr int kTypeBits = int(sizeof(T) * 8);
  static constexpr size_t kGroupSize = 32;  // values per bit-packed group

  void ReadBlockHeader();
  void StartMiniblock();
  // Unpacks the next group of the current miniblock into packed[0..32) (bytes beyond the
  // group's last real value may be missing from the data; they read as zero). Returns the
  // number of real values in the group.
  size_t UnpackNextGroup(Unsigned* packed);
  // Fills group_ with the next group's values.
  void LoadGroup();

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;           // next unread byte
  size_t header_end_ = 0;    // offset just past the header

  size_t values_per_miniblock_ = 0;
  size_t miniblocks_per_block_ = 0;
  size_t total_count_ = 0;       // from the header
  size_t remaining_ = 0;         // values the caller may still decode or skip
  size_t stream_left_ = 0;       // values after the first one not yet unpacked
  bool first_value_pending_ = false;

  Unsigned last_value_ = 0;      // the most recently produced value
  Unsigned min_delta_ = 0;       // of the current block
  std::vector<uint8_t> bit_widths_;  // of the current block's miniblocks
  size_t next_miniblock_ = 0;    // index in the block of the miniblock to start next
  size_t miniblock_left_ = 0;    // values (incl. padding) left in the current miniblock
  int bit_width_ = 0;            // of the current miniblock
  size_t miniblock_end_ = 0;     // offset just past the current (padded) miniblock

  Unsigned group_[kGroupSize] = {};  // decoded values of a partly consumed group
  size_t group_pos_ = 0;
  size_t group_size_ = 0;
};

// Encodes with 128-value blocks of 4 miniblocks. Put values (any number of calls), then
// Finish appends the whole stream to `out` and resets the encoder for the next page.
template <typename T>
class DeltaBinaryPackedEncoder {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>,
                "DELTA_BINARY_PACKED stores INT32 or INT64");

 public:
  using Unsigned = std::make_unsigned_t<T>;
  static constexpr size_t kValuesPerBlock = 128;
  static constexpr size_t kMiniblocksPerBlock = 4;

  void Put(const T* values, size_t count);
  size_t ValueCount() const { return total_count_; }
  void Finish(std::string& out);

 private:
  void FlushBlock();

  size_t total_count_ = 0;
  Unsigned first_value_ = 0;
  Unsigned previous_value_ = 0;
  Unsigned deltas_[kValuesPerBlock] = {};
  size_t block_count_ = 0;  // deltas buffered in deltas_
  std::string blocks_;      // encoded blocks so far (the header is written by Finish)
};

extern template class DeltaBinaryPackedDecoder<int32_t>;
extern template class DeltaBinaryPackedDecoder<int64_t>;
extern template class DeltaBinaryPackedEncoder<int32_t>;
extern template class DeltaBinaryPackedEncoder<int64_t>;

}  // namespace parquet
