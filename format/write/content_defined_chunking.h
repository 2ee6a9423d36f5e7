// Content-defined chunking of a column chunk's data pages (parquet_copy's cdc=1): a rolling
// hash over the column's values decides where pages end, so that the same values give the
// same pages wherever they sit in the column. Re-writing a table after a few rows were
// inserted in its middle then changes only the pages around the insertion: the pages after
// it (and their bytes) are found again, which deduplicating storage can exploit. The idea
// is the one Arrow C++ (21) and arrow-rs describe publicly; this is our own code.
//
// How: every slot of the column (value or null, with its repetition and definition level)
// is reduced to a 64-bit slot hash (XXH64 of the value's PLAIN bytes, a byte array's without
// a length, mixed with the levels; nulls hash their levels alone). The slot hashes roll
// into a gear hash, h = (h << 1) + slot_hash: the slot hash plays the gear table's part (a
// random function of the symbol), one symbol per slot, so h's top bits depend only on the
// last 64 slots. (A gear hash over the raw bytes, one byte at a time, finds almost no cut
// points in structured columns: short strings with a common prefix, small integers.) A chunk's
// size counts the slots' own bytes (value bytes plus two per level). Once a chunk holds
// min_chunk_size bytes, it ends after the first slot where h's top 32 bits fall below a
// threshold proportional to the slot's size, so that each byte has a 2^-mask_bits chance to
// end the chunk, whatever the value size; it ends anyway after the slot that takes it to
// max_chunk_size bytes. mask_bits is floor(log2((max - min) / 2)) - norm_level (1..31), so a
// chunk is about min + 2^mask_bits bytes long on average (about halfway between the limits,
// which it reaches in about 5 % of chunks); a higher norm_level gives smaller chunks and
// fewer forced cuts at the maximum. The page then ends at the next row boundary; with cdc
// the writer's page_size and slot limits do not cut pages (they would fall where write
// batches happen to end, and re-written data would not find its pages again).
#pragma once

#include <cstddef>
#include <cstdint>

namespace parquet {

struct ContentDefinedChunkingOptions {
  bool enabled = false;
  size_t min_chunk_size = 256 * 1024;   // pyarrow's defaults
  size_t max_chunk_size = 1024 * 1024;
  int norm_level = 0;
};

class ContentDefinedChunker {
 public:
  explicit ContentDefinedChunker(const ContentDefinedChunkingOptions& options);

  // Adds one slot: its hash (see above) and its size in bytes. True when a chunk ends
  // after it (the next slot starts a new one).
  bool AddSlot(uint64_t slot_hash, size_t size) {
    hash_ = (hash_ << 1) + slot_hash;
    bytes_ += size;
    if (bytes_ < min_) return false;
    const uint64_t threshold = size >= (size_t{1} << mask_bits_) ? uint64_t{1} << 32
                                                                 : static_cast<uint64_t>(size) << (32 - mask_bits_);
    if ((hash_ >> 32) >= threshold && bytes_ < max_) return false;
    bytes_ = 0;
    return true;
  }
  int mask_bits() const { return mask_bits_; }

 private:
  size_t min_;
  size_t max_;
  int mask_bits_;
  uint64_t hash_ = 0;
  size_t bytes_ = 0;  // in the current chunk
};

}  // namespace parquet
