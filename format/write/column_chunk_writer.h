// ColumnChunkWriter: the type-independent part of writing one column chunk: levels, page
// assembly (data pages v1 and v2, the dictionary page), compression, page checksums and
// encryption, the chunk's ColumnMetaData and its page index. The chunk's finished pages are
// held in memory, or in the file writer's PageSpill once too many are held.
//
// Data page v1 body (compressed as a whole):
//   [repetition levels][definition levels][values]; a level section is present only when
//   the column's maximum level is above 0: 4-byte little-endian length + RLE/bit-packed hybrid.
// Data page v2 body:
//   [repetition levels][definition levels] as hybrid runs without length prefix (their byte
//   lengths are in the header), never compressed; then [values], compressed.
// Pages of both versions start at a row boundary (repetition level 0), so the offset index
// can give each page a first row.
//
// Statistics are gathered per page (min/max in the column's order, null and NaN counts,
// level histograms, unencoded byte-array bytes): a page's go into the ColumnIndex /
// OffsetIndex entry of that page, and the pages' merged into the ColumnMetaData. Page
// headers carry no statistics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "format/encoding/bit_packing.h"
#include "format/encoding/rle_bit_packed_hybrid.h"
#include "format/crypto/encryption.h"
#include "format/metadata/enums.h"
#include "format/write/file_writer.h"
#include "format/metadata/metadata.h"
#include "format/write/page_spill.h"
#include "format/metadata/schema.h"
#include "format/index/statistics.h"
#include "format/write/write_statistics.h"
#include "format/write/geospatial_statistics.h"

namespace parquet {

// Cap on the slots of one page, whatever page_size says: a page of values that encode
// small (dictionary indices of a few distinct values, runs) still ends after this many, so
// the open page's level and index buffers stay small and the page index keeps a useful
// granularity (arrow-rs uses the same default row limit per page).
constexpr size_t kMaxSlotsPerPage = 20000;

inline const uint8_t* BytesOf(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// The buffers a data page is assembled in: encoded values, levels + values, compressed.
struct PageScratch {
  std::string values;
  std::string body;
  std::string compressed;
};

// What the page index needs of one data page, gathered as it is written.
struct PageRecord {
  size_t offset = 0;      // within the data pages of the chunk
  int32_t size = 0;       // header and body
  int64_t first_row = 0;  // within the row group
  int64_t null_count = 0;
  int64_t nan_count = 0;
  bool null_page = false;   // no non-null value
  bool has_bounds = false;  // min/max exist (false for a null page or a page of only NaN)
  std::string min, max;     // encoded bounds, truncated
  int64_t unencoded_byte_array_bytes = 0;
};

// The type-independent part of writing one column chunk. A typed writer
// (typed_column_writer.h) derives from it and supplies the values through the hooks.
class ColumnChunkWriter {
 public:
  ColumnChunkWriter(const ColumnDescriptor& column, int column_index, const WriterOptions& options,
                    Encoding data_encoding, ValueComparison comparison);
  virtual ~ColumnChunkWriter() = default;

  const ColumnDescriptor& column() const { return column_; }
  int64_t rows() const { return rows_; }

  // Encrypts the chunk's pages and headers with `cipher` (null: plaintext), for the AAD of
  // this row group and column.
  void SetEncryption(const ModuleCipher* cipher, int row_group_ordinal, int column_ordinal) {
    cipher_ = cipher;
    row_group_ordinal_ = row_group_ordinal;
    column_ordinal_ = column_ordinal;
  }

  // Ends the last data page (an empty chunk gets one empty page, for data_page_offset to
  // point at) and writes the dictionary page, if any.
  void Finish() {
    if (page_slots_ > 0 || data_pages_written_ == 0) WriteDataPage();
    FinishValues();
  }

  // The chunk's bytes, in file order: dictionary_page() then each of data_pages() (kept
  // apart: a growing string of all of them would hold up to twice their size).
  // Spilled pages (ranges of the spill file, in order) precede the ones in memory.
  const std::string& dictionary_page() const { return dictionary_page_; }
  const std::vector<std::pair<uint64_t, uint64_t>>& spilled_pages() const { return spilled_pages_; }
  const std::vector<std::string>& data_pages() const { return data_pages_; }

  // Finished pages beyond the spill's limit go there (null: always held in memory).
  void SetSpill(PageSpill* spill) { spill_ = spill; }
  // Page assembly buffers shared with the file writer's other chunks.
  void SetScratch(PageScratch* scratch) { scratch_ = scratch; }
  // Gives back the in-memory pages' share of the spill's bookkeeping (the chunk is done).
  void ReleaseHeldPages() {
    if (spill_ != nullptr) spill_->Release(held_bytes_);
    held_bytes_ = 0;
  }

  // The chunk's metadata once it is placed at `offset` in the file.
  ColumnMetaData Metadata(int64_t offset) const;

  // The page index of the chunk once its data pages start at `data_offset` in the file.
  // The column index is left out where it cannot be right: statistics off, a type without
  // an order (INT96, INTERVAL, FLOAT16), or a page whose non-null values are all NaN.
  void PageIndex(int64_t data_offset, OffsetIndex* offset_index, std::optional<ColumnIndex>* column_index) const;

  // The serialized bloom filter (header and bitset) of the chunk; empty when it has none.
  virtual std::string BloomFilterBytes() = 0;

  // The envelopes and types of a GEOMETRY / GEOGRAPHY chunk's values (or of a column of
  // WriterOptions::geoparquet); null for other columns.
  const GeospatialAccumulator* geospatial() const { return geospatial_.get(); }

 protected:
  std::unique_ptr<GeospatialAccumulator> geospatial_;
  bool geospatial_statistics_ = false;  // ColumnMetaData gets them (the column is annotated)
  bool geospatial_bbox_ = true;         // with a bounding box (not for GEOGRAPHY)

  // Typed hooks.
  virtual void FlushPageValues(std::string* out) = 0;  // the page's encoded values
  virtual size_t PageValueBytes() const = 0;           // their (estimated) size so far
  virtual bool EncodingEnds() const = 0;  // the page's value encoding is to change after it
  virtual void AfterDataPage() = 0;                    // e.g. the fallback from the dictionary
  virtual void FinishValues() = 0;                     // e.g. the dictionary page
  // The page's statistics into *page (bounds, NaN and byte counts); then the page's
  // statistics are merged into the chunk's and reset.
  virtual void EndPageStatistics(PageRecord* page) = 0;
  virtual bool ChunkBounds(EncodedBounds* bounds) const = 0;
  virtual int64_t ChunkNanCount() const = 0;

  bool IsFloatingPoint() const {
    return column_.physical_type == Type::FLOAT || column_.physical_type == Type::DOUBLE;
  }

  // Checks a batch's levels before anything is appended; returns the number of values
  // the definition levels call for.
  size_t CheckLevels(size_t num_levels, const int16_t* def, const int16_t* rep) const;

  // Appends levels [begin, end) to the open page; returns how many values they call for.
  size_t AppendLevels(const int16_t* def, const int16_t* rep, size_t begin, size_t end);

  // The open page's size: values plus an upper bound for its levels.
  size_t EstimatedPageBytes() const {
    int level_bits = def_encoder_.bit_width() + rep_encoder_.bit_width();
    return PageValueBytes() + PackedByteCount(page_slots_, level_bits);
  }

  // How many slots to append before the next look at the page size.
  size_t SlotsForNextStep() const;

  // With content-defined chunking the chunker alone sizes pages (the typed writer sets
  // page_full_ where a chunk ends): a cut by size or slot count would fall where the batches
  // happen to end, and re-written data would not find its pages again.
  void UpdatePageFull() {
    page_full_ = EncodingEnds() || (!options_.cdc.enabled && (EstimatedPageBytes() >= options_.page_size ||
                                                              page_slots_ >= kMaxSlotsPerPage));
  }

  void WriteDataPage();

  // Moves the chunk's pages held in memory to the spill file (one range: they are
  // consecutive in the chunk).
  void SpillPages();

  // Scratch buffers grown by a large page are given back rather than kept for the next one
  // (when the chunk has its own: every chunk of a row group is open at once).
  void ReleaseLargeScratch();

  // Writes the dictionary page from its PLAIN-encoded entries.
  void WriteDictionaryPage(const std::string& entries, size_t count);

  const ColumnDescriptor& column_;
  const WriterOptions& options_;
  CompressionCodec codec_;                // of this column's pages
  std::optional<int> compression_level_;
  Encoding data_encoding_;  // value encoding of the data pages being written
  ValueComparison comparison_;  // of min/max (kNone: none are written)
  bool page_full_ = false;  // cut the page at the next row boundary

 private:
  static void AppendPrefixedLevels(RleBitPackedEncoder* encoder, std::string* out);

  const ModuleCipher* cipher_ = nullptr;
  int row_group_ordinal_ = 0;
  int column_ordinal_ = 0;
  std::string encrypted_body_;

  int32_t PageSizeField(size_t size) const;

  // Completes the header (sizes, checksum) and appends header and body to *out. In an
  // encrypted column both are encrypted modules; the CRC covers the encrypted body.
  void AppendPage(PageHeader* header, const std::string& plain_body, std::string* out);

  void CountPage(PageType type, Encoding encoding);

  // Moves the open page's level histograms into the page index lists and the chunk totals.
  void EndPageHistograms();

  // ASCENDING when the non-null pages' min values and max values both never decrease,
  // DESCENDING when both never increase, otherwise UNORDERED (ASCENDING when both hold).
  BoundaryOrder BoundaryOrderOfPages() const;

  RleBitPackedEncoder def_encoder_;
  RleBitPackedEncoder rep_encoder_;

  // The open page.
  size_t page_slots_ = 0;
  size_t page_values_ = 0;
  size_t page_rows_ = 0;
  std::vector<int64_t> page_rep_histogram_;  // max level + 1 counts, or empty at max level 0
  std::vector<int64_t> page_def_histogram_;

  // The whole chunk.
  int64_t slots_ = 0;
  int64_t rows_ = 0;
  int64_t null_count_ = 0;
  int64_t unencoded_byte_array_bytes_ = 0;
  int64_t total_uncompressed_size_ = 0;
  int64_t total_compressed_size_ = 0;
  int data_pages_written_ = 0;
  std::vector<Encoding> data_encodings_;
  std::vector<PageEncodingStats> encoding_stats_;
  std::string dictionary_page_;  // header + body
  std::vector<std::pair<uint64_t, uint64_t>> spilled_pages_;  // offset, size in the spill file
  std::vector<std::string> data_pages_;  // each data page's header + body, after the spilled ones
  size_t data_pages_bytes_ = 0;          // spilled and held
  PageSpill* spill_ = nullptr;
  size_t held_bytes_ = 0;  // of data_pages_, counted in spill_
  std::vector<PageRecord> pages_;
  std::vector<int64_t> rep_histogram_, def_histogram_;    // chunk totals
  std::vector<int64_t> rep_histograms_, def_histograms_;  // per page, concatenated

  // Scratch buffers of page assembly, reused from page to page (and shared by the chunks of
  // a file writer: pages are assembled one at a time).
  PageScratch own_scratch_;
  PageScratch* scratch_ = &own_scratch_;
};

}  // namespace parquet
