// Dictionary encoding (Encodings.md, PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8).
//
// In our words: a column chunk's distinct values are stored once, PLAIN-encoded, in a
// dictionary page that comes before its data pages. A data page then holds, per non-null
// value, its index into that dictionary:
//   dictionary-indices := <bit width: 1 byte, at most 32> <rle/bit-packed hybrid indices>
// with the hybrid at that bit width and no 4-byte length prefix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "format/encoding/rle_bit_packed_hybrid.h"
#include "format/encoding/value_decoder.h"
#include "format/common/physical_values.h"

namespace parquet {

// T: int32_t, int64_t, Int96, float, double or ByteArray (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY).
template <typename T>
class DictionaryDecoder : public ValueDecoder<T> {
 public:
  // Copies the decoded dictionary page entries. ByteArray views keep pointing into the
  // dictionary page, which must outlive the decoding.
  void SetDictionary(const T* values, size_t count);
  const T* dictionary() const { return dictionary_.data(); }
  size_t dictionary_size() const { return dictionary_.size(); }

  // Reads the bit-width byte and starts on the hybrid indices.
  void SetData(const uint8_t* data, size_t size, size_t num_values) override;

  // Values are looked up from indices decoded in batches; each batch is range-checked once.
  // A whole RLE run is checked once and filled with one value.
  size_t Decode(T* out, size_t n) override;
  size_t Skip(size_t n) override;

  // Decodes the next min(n, remaining) indices without looking them up, each checked to be
  // below dictionary_size(); returns how many. I is uint32_t, or uint16_t or uint8_t for a
  // dictionary of at most 65536 or 256 entries (wider runs are decoded and narrowed).
  template <typename I>
  size_t DecodeIndices(I* out, size_t n);

  size_t values_left() const { return values_left_; }

 private:
  static constexpr size_t kIndexBatch = 1024;

  template <typename I>
  void CheckIndexBatch(const I* indices, size_t count) const;
  [[noreturn]] void ThrowIndexOutOfRange(uint32_t index) const;
  [[noreturn]] void ThrowTruncated(size_t decoded_in_call) const;

  std::vector<T> dictionary_;
  RleBitPackedDecoder index_decoder_;
  std::vector<uint32_t> index_buffer_;  // reused across calls
  size_t num_values_ = 0;
  size_t values_left_ = 0;
};

// Builds a dictionary from the values it is given (bit-identical values share an entry) and
// emits indices with the smallest bit width that covers the dictionary. Deliberately simple:
// no size limits or fallback decisions; the writer watches dictionary_size() and
// dictionary_page_bytes() and switches to PLAIN itself.
template <typename T>
class DictionaryEncoder {
 public:
  // For ByteArray, fixed_type_length >= 0 means FIXED_LEN_BYTE_ARRAY values of that length
  // (the dictionary page then has no length prefixes); otherwise it is ignored.
  explicit DictionaryEncoder(int fixed_type_length = -1);

  // Adds values: each gets the index of an equal entry, or a new entry.
  void Put(const T* values, size_t count);

  size_t dictionary_size() const { return dictionary_.size(); }
  const std::vector<T>& dictionary() const { return dictionary_; }
  // Bytes of the PLAIN-encoded dictionary page WriteDictionaryPage would append.
  size_t dictionary_page_bytes() const { return dictionary_page_bytes_; }
  size_t buffered_indices() const { return index_count_; }
  // The most indices a page usually holds (0: unknown): the buffer of a page's indices
  // grows by doubling only up to it, not past it.
  void set_page_index_hint(size_t count) { page_index_hint_ = count; }

  // Appends the dictionary entries, PLAIN-encoded, in index order.
  void WriteDictionaryPage(std::string* out) const;

  // Appends the bit-width byte and the hybrid-encoded indices put since the last call.
  void FlushIndices(std::string* out);

 private:
  // The entry equal to `bytes` (whose hash is `hash`), or a new entry for it.
  uint32_t IndexOf(std::string_view bytes, uint64_t hash);
  void GrowTable();
  // Copies a ByteArray entry's bytes to storage that never moves.
  const uint8_t* StoreBytes(std::string_view bytes);

  int fixed_type_length_;
  // Open addressing with linear probing over the entries: each slot holds an entry index
  // + 1 (0: empty); the table is kept at most half full. entry_hashes_ keeps each entry's
  // hash so that probing compares values only when the hashes agree.
  std::vector<uint32_t> slots_;
  std::vector<uint64_t> entry_hashes_;
  std::vector<T> dictionary_;
  // ByteArray entries point into these blocks.
  std::vector<std::unique_ptr<uint8_t[]>> byte_blocks_;
  size_t block_left_ = 0;
  uint8_t* block_next_ = nullptr;
  // The index of the i-th value of the page.
  uint32_t BufferedIndex(size_t i) const;
  // The dictionary outgrew index_width_: re-stores the page's indices one size up, with
  // room for `room` more.
  void WidenIndices(size_t room);

  // Indices of the page's values, index_width_ bytes each (1, 2 or 4 as the dictionary's
  // size requires: low-cardinality columns buffer a byte per value).
  std::vector<uint8_t> index_bytes_;
  size_t index_count_ = 0;
  int index_width_ = 1;
  uint32_t max_index_for_width_ = 0xFF;
  size_t page_index_hint_ = 0;
  size_t dictionary_page_bytes_ = 0;
};

extern template class DictionaryDecoder<int32_t>;
extern template class DictionaryDecoder<int64_t>;
extern template class DictionaryDecoder<Int96>;
extern template class DictionaryDecoder<float>;
extern template class DictionaryDecoder<double>;
extern template class DictionaryDecoder<ByteArray>;

extern template class DictionaryEncoder<int32_t>;
extern template class DictionaryEncoder<int64_t>;
extern template class DictionaryEncoder<Int96>;
extern template class DictionaryEncoder<float>;
extern template class DictionaryEncoder<double>;
extern template class DictionaryEncoder<ByteArray>;

}  // namespace parquet
