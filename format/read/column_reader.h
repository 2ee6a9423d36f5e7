// Reading one column chunk as batches of definition levels, repetition levels and typed
// values: dictionary, levels and value decoding, on top of the chunk's pages as
// format/read/page_reader.h reads them (which also holds the reader options and counters).
//
// A column chunk is a sequence of pages: at most one dictionary page first, then data pages
// (v1 or v2). A data page holds `num_values` level entries ("slots"); a slot whose
// definition level equals the column's maximum holds a value, the others are nulls (or, in
// nested data, empty/absent ancestors). Batches never cross a page boundary, so the values
// of a batch (ByteArray views in particular) stay valid until the next ReadBatch or Skip.
//
// I/O: pages are read one at a time through a buffered window over the chunk (the page
// header, grown when it is larger than the first read, then the body), so memory stays at
// about one page plus the dictionary. A page body is read and decompressed only when
// something is read from it: skipping a whole page costs one page-header read and parse.
// With an offset index (options.use_offset_index, or SetOffsetIndex), Skip in a column
// without repetition, and SkipToRowStart / SkipRows / SeekToRow in any column, jump straight
// to the page holding the target row, reading neither the headers nor the bodies of the
// pages in between. (Pages begin at row boundaries when an offset index is written; a
// landing page that does not is an error.)
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/read/file_reader.h"
#include "format/read/page_reader.h"
#include "format/common/physical_values.h"

namespace parquet {

// One batch of decoded slots. def_levels/rep_levels are filled only when the column's
// maximum definition/repetition level is above zero.
struct ColumnBatch {
  size_t num_levels = 0;  // slots in this batch
  size_t num_values = 0;  // non-null values (values() holds exactly these, in order)
  // ByteArray values only: every value of this batch is followed in memory by a NUL byte and
  // contains none, so it can be handed to a C-string interface as it is (dictionary-encoded
  // pages: the reader keeps its dictionary entries terminated; PLAIN and
  // DELTA_LENGTH_BYTE_ARRAY pages: after ColumnChunkReader::TerminateText).
  bool text_terminated = false;
  std::vector<int16_t> def_levels;
  std::vector<int16_t> rep_levels;

  template <typename T>
  const T* values() const { return reinterpret_cast<const T*>(storage_.data()); }
  template <typename T>
  T* mutable_values(size_t capacity) {
    size_t words = (capacity * sizeof(T) + sizeof(uint64_t) - 1) / sizeof(uint64_t);
    if (storage_.size() < words) storage_.resize(words);
    return reinterpret_cast<T*>(storage_.data());
  }

 private:
  std::vector<uint64_t> storage_;  // 8-byte aligned storage for any physical value type
};

// The decoded dictionary of a column chunk (ReadChunkDictionary). Exactly one of the value
// vectors is filled, the one of the physical type: int32s (INT32), int64s (INT64), int96s
// (INT96), floats (FLOAT), doubles (DOUBLE), byte_arrays (BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY; views into `storage`, owned here). Move-only, so that the views
// stay valid. Nulls are never dictionary entries: null_count comes from the statistics.
struct ChunkDictionary {
  Type physical_type = Type::INT32;
  std::vector<int32_t> int32s;
  std::vector<int64_t> int64s;
  std::vector<Int96> int96s;
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<ByteArray> byte_arrays;
  std::vector<uint8_t> storage;  // bytes of byte_arrays

  size_t size() const;  // number of entries
  ChunkDictionary() = default;
  ChunkDictionary(ChunkDictionary&&) = default;
  ChunkDictionary& operator=(ChunkDictionary&&) = default;
  ChunkDictionary(const ChunkDictionary&) = delete;
  ChunkDictionary& operator=(const ChunkDictionary&) = delete;
};

// Whether every data page of a chunk is dictionary-encoded, judged from its metadata:
// encoding_stats when present (every DATA_PAGE / DATA_PAGE_V2 entry with a count above 0
// is PLAIN_DICTIONARY or RLE_DICTIONARY); else `encodings` must name a dictionary encoding
// and nothing besides PLAIN_DICTIONARY, RLE_DICTIONARY, RLE and BIT_PACKED (RLE and
// BIT_PACKED being level encodings; PLAIN may be a fallback data page, so it disqualifies).
// BOOLEAN chunks are never dictionary-encoded.
bool ChunkIsFullyDictionaryEncoded(const ColumnMetaData& meta);

// The dictionary of a chunk whose data pages are all dictionary-encoded
// (ChunkIsFullyDictionaryEncoded), so that a value absent from it is absent from the
// chunk. nullopt otherwise, or when the chunk does not start with a dictionary page. Reads
// only the dictionary page's bytes. Throws ParquetError (naming file, column, row group) on
// a corrupt dictionary page. `counters`, when given, receives the bytes and page read.
std::optional<ChunkDictionary> ReadChunkDictionary(const ParquetFileReader& file, int row_group, int column,
                                                   const ColumnReaderOptions& options = {},
                                                   ColumnReadCounters* counters = nullptr);

class ColumnChunkReader {
 public:
  virtual ~ColumnChunkReader() = default;

  // Creates a reader for `column` of `row_group`; reads the chunk's bytes from the file.
  static std::unique_ptr<ColumnChunkReader> Make(const ParquetFileReader& file, int row_group,
                                                 int column, const ColumnReaderOptions& options = {});

  // Moves to another row group of the same column, reusing buffers. Forgets the offset
  // index of the previous chunk.
  virtual void Reset(int row_group) = 0;

  // Gives the reader the offset index of the current chunk (after Make or Reset, before
  // reading), instead of letting it read the index itself. The index must be that of this
  // chunk and valid (ReadOffsetIndex); pass nullptr to forget it.
  virtual void SetOffsetIndex(std::shared_ptr<const OffsetIndex> index) = 0;

  // Reads up to max_levels slots (stopping at the end of the current page) into *batch.
  // Returns the number of slots read; 0 means the chunk is exhausted.
  virtual size_t ReadBatch(size_t max_levels, ColumnBatch* batch) = 0;

  // ReadBatch for a chunk read through its dictionary: the batch's values are the slots'
  // dictionary indices, each checked to be below the dictionary's size, not its entries
  // (dictionary_entries): `index_bytes` wide (4: uint32_t; 2 or 1: uint16_t or uint8_t,
  // for a dictionary of at most 65536 or 256 entries, else a ParquetError). When the page to
  // be read is not dictionary-encoded (a fallback page, or a BOOLEAN column), reads
  // nothing, sets *not_dictionary and returns 0: ReadBatch goes on from there. Returns 0
  // otherwise only at the end of the chunk.
  virtual size_t ReadIndices(size_t max_levels, ColumnBatch* batch, bool* not_dictionary, int index_bytes = 4) = 0;

  // The entries of the current chunk's dictionary, read so far (after a ReadIndices or
  // ReadBatch that reached a data page), as values of the column's physical type; null and
  // *count 0 when it has none. Valid until the reader moves to another chunk.
  virtual const void* dictionary_entries(size_t* count) const = 0;

  // For the batch the last ReadBatch filled, of byte arrays stored in place in their page
  // (PLAIN, DELTA_LENGTH_BYTE_ARRAY), before anything else is read: when no value holds a
  // NUL and they are not long (at most 255 bytes on average), copies them into a buffer of
  // the reader, each followed by a NUL, points the values there and sets text_terminated.
  // One copy per batch, paid only by consumers that hand values to C-string interfaces
  // (xColumn); batches decoded through a dictionary come terminated. Returns
  // batch->text_terminated.
  virtual bool TerminateText(ColumnBatch* batch) = 0;

  // Skips up to num_levels slots; returns how many were skipped (fewer only at the end).
  virtual size_t Skip(size_t num_levels) = 0;

  // Row-aware skipping. A row starts at a slot whose repetition level is 0 (in a column
  // without repetition every slot is a row).
  //
  // SkipToRowStart consumes slots up to, not including, the n-th row start ahead (the next
  // slot counts when it starts a row) and returns how many row starts it found: n, or fewer
  // when the chunk ends first, in which case every slot is consumed. SkipToRowStart(1) thus
  // finishes a row the reader stands inside of. Data page v2 pages not yet begun whose
  // num_rows row starts all lie before the n-th are skipped without decompression; v1 pages
  // are decompressed to read their repetition levels (their values are skipped undecoded
  // where the encoding allows) unless the offset index lets the reader jump over them
  // (when next_row() is known).
  virtual size_t SkipToRowStart(size_t n) = 0;

  // Skips n whole rows from a row start (after Make, Reset or a previous SkipRows), stopping
  // before the first slot of the following row; returns how many rows it skipped (fewer
  // than n only at the end of the chunk).
  size_t SkipRows(size_t n) {
    size_t found = SkipToRowStart(n + 1);
    return found > n ? n : found;
  }

  // Moves forward to the first slot of row `row` (an index within the row group) and returns
  // the row reached: `row`, or the row group's row count when the chunk ends first. The
  // reader must stand at a row start (after Make, Reset, SkipRows, SeekToRow, or ReadBatch
  // calls ending on a row boundary, which is every batch of a column without repetition).
  // A row behind the current one is a ParquetError (the reader only goes forward).
  // Whole pages before the target are skipped without being read when an offset index is
  // available, else without being decompressed where possible.
  int64_t SeekToRow(int64_t row);

  // Rows begun so far in this chunk (slots consumed whose repetition level is 0): at a row
  // start, the index of the row read next. -1 when unknown, after Skip of slots in a column
  // with repetition (until the next Reset).
  int64_t next_row() const { return row_starts_consumed_; }

  const ColumnDescriptor& descriptor() const { return *descriptor_; }
  const ColumnReadCounters& counters() const { return counters_; }

 protected:
  const ColumnDescriptor* descriptor_ = nullptr;
  ColumnReadCounters counters_;
  int64_t row_starts_consumed_ = 0;  // slots with repetition level 0 consumed in this chunk
};

}  // namespace parquet
