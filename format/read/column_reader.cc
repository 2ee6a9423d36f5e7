// Level decoding, dictionaries and value decoding for one column chunk (see
// column_reader.h), over the pages a PageReader (page_reader.h) reads, decrypts and
// decompresses. One TypedColumnChunkReader<T> exists per physical type T.
//
// Data page v1 body (after decompression of the whole body):
//   [repetition levels][definition levels][values]
//   each level section: RLE -> 4-byte little-endian length + RLE/bit-packed hybrid,
//                       BIT_PACKED (deprecated) -> ceil(num_values * bit_width / 8) bytes.
// Data page v2 body:
//   [repetition levels][definition levels] (uncompressed, hybrid without length prefix,
//   lengths in the header) [values] (compressed when is_compressed, which defaults to true).
#include "format/read/column_reader.h"

#include <algorithm>
#include <cstring>
#include <span>
#include <type_traits>

#include "format/encoding/bit_packed_levels.h"
#include "format/encoding/boolean_rle.h"
#include "format/encoding/byte_stream_split.h"
#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/delta_byte_array.h"
#include "format/encoding/delta_length_byte_array.h"
#include "format/encoding/dictionary.h"
#include "format/encoding/plain.h"
#include "format/encoding/rle_bit_packed_hybrid.h"
#include "format/common/error.h"
#include "format/common/levels.h"

namespace parquet {

namespace {

void AddCounters(const ColumnReadCounters& from, ColumnReadCounters* to) {
  to->pages_read += from.pages_read;
  to->pages_skipped += from.pages_skipped;
  to->bytes_read += from.bytes_read;
  to->dictionary_pages_read += from.dictionary_pages_read;
}

int BitWidth(int16_t max_level) {
  int width = 0;
  while ((1 << width) <= max_level) width++;
  return width;
}

// Decodes one level stream of a page, in either of its two encodings.
class LevelDecoder {
 public:
  void ResetHybrid(const uint8_t* data, size_t size, int bit_width) {
    bit_packed_ = false;
    hybrid_.Reset(data, size, bit_width);
  }
  void ResetBitPacked(const uint8_t* data, size_t size, int bit_width, size_t num_values) {
    bit_packed_ = true;
    legacy_.Reset(data, size, bit_width, num_values);
  }
  // The column's maximum level: a stream whose bit width can hold larger values is checked
  // against it (a corrupt level above the maximum would otherwise read as a null).
  void SetMaxLevel(int16_t max_level) {
    max_level_ = max_level;
    check_max_ = max_level != (1 << BitWidth(max_level)) - 1;
  }
  void DecodeExactly(int16_t* out, size_t n, const char* what) {
    size_t got = bit_packed_ ? legacy_.Decode(out, n) : hybrid_.Decode(out, n);
    if (got != n) {
      throw ParquetError(std::string(what) + " levels end after " + std::to_string(got) + " of " +
                         std::to_string(n) + " values");
    }
    if (check_max_) {
      int16_t highest = 0;
      for (size_t i = 0; i < n; i++) highest = std::max(highest, out[i]);
      if (highest > max_level_) {
        throw ParquetError(std::string(what) + " level " + std::to_string(highest) +
                           " is above the column's maximum " + std::to_string(max_level_));
      }
    }
  }
  // Consumes n levels and returns how many equal the maximum (non-null slots), counting
  // RLE runs without expanding them when no level can exceed the maximum unnoticed;
  // `scratch` holds the levels decoded otherwise.
  size_t SkipCountingMax(size_t n, std::vector<int16_t>* scratch, const char* what) {
    if (!bit_packed_ && !check_max_) {
      size_t consumed = 0;
      const size_t matches = hybrid_.CountEqual(static_cast<uint32_t>(max_level_), n, &consumed);
      if (consumed != n) {
        throw ParquetError(std::string(what) + " levels end after " + std::to_string(consumed) + " of " +
                           std::to_string(n) + " values");
      }
      return matches;
    }
    constexpr size_t kChunk = 1024;
    if (scratch->size() < kChunk) scratch->resize(kChunk);
    size_t matches = 0;
    for (size_t done = 0; done < n;) {
      const size_t k = std::min(kChunk, n - done);
      DecodeExactly(scratch->data(), k, what);
      matches += CountDefinedLevels(scratch->data(), k, max_level_);
      done += k;
    }
    return matches;
  }
  // Decodes `n` definition levels into `out` and returns how many hold a value (equal the
  // maximum). The common page of a column without nulls has one RLE run of the maximum:
  // that is filled and counted without a pass over the levels.
  size_t DecodeDefinitions(int16_t* out, size_t n) {
    if (!bit_packed_) {
      bool is_rle = false;
      uint32_t value = 0;
      if (hybrid_.PeekRun(&is_rle, &value) >= n && is_rle && value <= static_cast<uint32_t>(max_level_)) {
        FillLevels(out, n, static_cast<int16_t>(value));
        hybrid_.Skip(n);
        return static_cast<int16_t>(value) == max_level_ ? n : 0;
      }
    }
    DecodeExactly(out, n, "definition");
    return CountDefinedLevels(out, n, max_level_);
  }
  void SkipExactly(size_t n, const char* what) {
    size_t got = bit_packed_ ? legacy_.Skip(n) : hybrid_.Skip(n);
    if (got != n) {
      throw ParquetError(std::string(what) + " levels end after " + std::to_string(got) + " of " +
                         std::to_string(n) + " values");
    }
  }

 private:
  bool bit_packed_ = false;
  bool check_max_ = false;
  int16_t max_level_ = 0;
  RleBitPackedDecoder hybrid_;
  BitPackedLevelDecoder legacy_;
};

template <typename T>
class TypedColumnChunkReader final : public ColumnChunkReader {
 public:
  TypedColumnChunkReader(const ParquetFileReader& file, int column, const ColumnReaderOptions& options)
      : pages_(file, column, options, &counters_) {
    descriptor_ = &file.schema().column(column);
    def_bit_width_ = BitWidth(descriptor_->max_definition_level);
    rep_bit_width_ = BitWidth(descriptor_->max_repetition_level);
    def_decoder_.SetMaxLevel(descriptor_->max_definition_level);
    rep_decoder_.SetMaxLevel(descriptor_->max_repetition_level);
  }

  void Reset(int row_group) override {
    terminable_batch_ = nullptr;
    const ColumnMetaData& meta = pages_.file().column_metadata(row_group, pages_.column());
    if (meta.type != descriptor_->physical_type) {
      throw ParquetError(pages_.file().Describe(row_group, pages_.column()) + ": column chunk has type " +
                         ToString(meta.type) + " but the schema says " + ToString(descriptor_->physical_type));
    }
    pages_.Reset(row_group);
    levels_exact_ = true;
    row_starts_consumed_ = 0;
    levels_seen_ = 0;
    page_levels_left_ = 0;
    page_loaded_ = false;
    has_dictionary_ = false;
    dictionary_nul_free_ = false;
    dictionary_entries_ = 0;  // dictionary_ keeps its size: the budget charged it only once
  }

  void SetOffsetIndex(std::shared_ptr<const OffsetIndex> index) override { pages_.SetOffsetIndex(std::move(index)); }

  size_t ReadBatch(size_t max_levels, ColumnBatch* batch) override {
    return ReadSlots<false>(max_levels, batch, nullptr, 0);
  }

  size_t ReadIndices(size_t max_levels, ColumnBatch* batch, bool* not_dictionary, int index_bytes) override {
    *not_dictionary = false;
    return ReadSlots<true>(max_levels, batch, not_dictionary, index_bytes);
  }

  const void* dictionary_entries(size_t* count) const override {
    *count = has_dictionary_ ? dictionary_entries_ : 0;
    return *count > 0 ? dictionary_.data() : nullptr;
  }

  // ReadBatch (kIndices false) or ReadIndices (true).
  template <bool kIndices>
  size_t ReadSlots(size_t max_levels, ColumnBatch* batch, bool* not_dictionary, int index_bytes) {
    (void)index_bytes;  // (ReadIndices only)
    try {
      batch->num_levels = 0;
      batch->num_values = 0;
      batch->text_terminated = false;
      terminable_batch_ = nullptr;
      if (max_levels == 0) return 0;
      if (page_levels_left_ == 0 && !NextDataPage()) return 0;
      if (!page_loaded_) LoadPage();
      if constexpr (kIndices) {
        bool dictionary_page = false;
        if constexpr (!std::is_same_v<T, bool>) dictionary_page = value_decoder_ == dictionary_decoder_.get();
        if (!dictionary_page) {
          *not_dictionary = true;
          return 0;
        }
      }
      size_t n = std::min(max_levels, page_levels_left_);
      size_t non_null = n;
      if (descriptor_->max_repetition_level > 0) {
        if (batch->rep_levels.size() < n) batch->rep_levels.resize(n);
        int16_t* rep = batch->rep_levels.data();
        rep_decoder_.DecodeExactly(rep, n, "repetition");
        if (row_starts_consumed_ >= 0) {
          int64_t starts = 0;
          for (size_t i = 0; i < n; i++) starts += (rep[i] == 0);
          row_starts_consumed_ += starts;
        }
      } else {
        row_starts_consumed_ += static_cast<int64_t>(n);
      }
      if (descriptor_->max_definition_level > 0) {
        if (batch->def_levels.size() < n) batch->def_levels.resize(n);
        int16_t* def = batch->def_levels.data();
        non_null = def_decoder_.DecodeDefinitions(def, n);
      }
      if (non_null > 0) {
        size_t got = 0;
        if constexpr (!kIndices) {
          got = value_decoder_->Decode(batch->mutable_values<T>(non_null), non_null);
        } else if constexpr (!std::is_same_v<T, bool>) {
          if (index_bytes == 1) {
            got = dictionary_decoder_->DecodeIndices(batch->mutable_values<uint8_t>(non_null), non_null);
          } else if (index_bytes == 2) {
            got = dictionary_decoder_->DecodeIndices(batch->mutable_values<uint16_t>(non_null), non_null);
          } else {
            got = dictionary_decoder_->DecodeIndices(batch->mutable_values<uint32_t>(non_null), non_null);
          }
        }
        if (got != non_null) {
          throw ParquetError("page holds " + std::to_string(got) + " values where its levels need " +
                             std::to_string(non_null));
        }
      }
      page_levels_left_ -= n;
      batch->num_levels = n;
      batch->num_values = non_null;
      if constexpr (std::is_same_v<T, ByteArray> && !kIndices) {
        if (value_decoder_ == dictionary_decoder_.get()) {
          batch->text_terminated = dictionary_nul_free_;
        } else if (page_values_in_place_ && non_null > 0) {
          terminable_batch_ = batch;  // TerminateText may copy it
          terminable_values_ = non_null;
        }
      }
      return n;
    } catch (const ParquetError& e) {
      throw ParquetError(Context() + ": " + e.what());
    }
  }

  size_t Skip(size_t num_levels) override {
    terminable_batch_ = nullptr;
    try {
      const bool flat = descriptor_->max_repetition_level == 0;
      // In a repeated column a skip of slots loses count of the rows (v1 pages skipped whole
      // are not decoded): next_row() is unknown until the next Reset.
      if (!flat && num_levels > 0) row_starts_consumed_ = -1;
      const int64_t start = LevelsConsumed();
      const int64_t target = start + static_cast<int64_t>(num_levels);
      size_t skipped = 0;
      while (skipped < num_levels) {
        // Whole pages in between can be jumped over with the offset index (flat columns,
        // where a level is a row).
        if (flat && num_levels - skipped > page_levels_left_ && JumpToRow(target)) {
          skipped = static_cast<size_t>(LevelsConsumed() - start);
          continue;
        }
        if (page_levels_left_ == 0 && !NextDataPage()) break;
        size_t want = num_levels - skipped;
        if (!page_loaded_ && want >= page_levels_left_) {
          // The whole page goes: no need to read or decompress its body.
          skipped += page_levels_left_;
          page_levels_left_ = 0;
          counters_.pages_skipped++;
          continue;
        }
        if (!page_loaded_) LoadPage();
        size_t n = std::min(want, page_levels_left_);
        SkipLoaded(n);
        page_levels_left_ -= n;
        skipped += n;
      }
      if (flat) row_starts_consumed_ = LevelsConsumed();
      return skipped;
    } catch (const ParquetError& e) {
      throw ParquetError(Context() + ": " + e.what());
    }
  }

  size_t SkipToRowStart(size_t n) override {
    terminable_batch_ = nullptr;
    try {
      if (n == 0) return 0;
      if (descriptor_->max_repetition_level == 0) {
        // Every slot starts a row: skip n - 1 slots and check that one more follows.
        size_t skipped = Skip(n - 1);
        if (skipped < n - 1) return skipped;
        return (page_levels_left_ > 0 || NextDataPage()) ? n : n - 1;
      }
      // The n-th row start ahead begins row `target`. JumpToRow moves to its page when that
      // lies beyond, or back to the chunk's start when the offset index proved unusable.
      const int64_t before = row_starts_consumed_;
      int64_t base = before;
      if (before >= 0 && n > 1) {
        const int64_t target = before + static_cast<int64_t>(n) - 1;
        JumpToRow(target);
        if (row_starts_consumed_ != before) {
          base = row_starts_consumed_;
          n = static_cast<size_t>(target - base) + 1;
        }
      }
      size_t found = SkipToRowStartRepeated(n);
      if (row_starts_consumed_ >= 0) row_starts_consumed_ += static_cast<int64_t>(found == n ? n - 1 : found);
      return static_cast<size_t>(static_cast<int64_t>(found) + base - before);
    } catch (const ParquetError& e) {
      throw ParquetError(Context() + ": " + e.what());
    }
  }

  // Reads only the chunk's dictionary page; false when the chunk does not start with one.
  bool ReadDictionaryOnly() {
    pages_.ReadNoMoreThanAsked();  // the dictionary page's bytes, not a read-ahead of the data pages
    try {
      if (!pages_.NextPage()) return false;
      if (pages_.header().type != PageType::DICTIONARY_PAGE) return false;
      ReadDictionaryPage();
      return true;
    } catch (const ParquetError& e) {
      throw ParquetError(Context() + ": " + e.what());
    }
  }

  // The dictionary entries ReadDictionaryOnly decoded.
  std::span<const std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>> dictionary() const {
    return {dictionary_.data(), dictionary_entries_};
  }

 private:
  // SkipToRowStart of a column with repetition; returns the row starts found (see there).
  size_t SkipToRowStartRepeated(size_t n) {
      size_t found = 0;
      constexpr size_t kChunk = 1024;
      while (true) {
        if (page_levels_left_ == 0 && !NextDataPage()) return found;
        if (!page_loaded_) {
          // A v2 page begins at a row start and holds num_rows row starts.
          if (pages_.header().type == PageType::DATA_PAGE_V2) {
            int32_t rows = pages_.header().data_page_header_v2->num_rows;
            if (rows > 0 && static_cast<size_t>(rows) <= page_levels_left_ && found + static_cast<size_t>(rows) < n) {
              found += static_cast<size_t>(rows);
              page_levels_left_ = 0;
              counters_.pages_skipped++;
              continue;
            }
          }
          LoadPage();
        }
        // Look ahead on a copy of the repetition decoder, then consume exactly up to the row start.
        size_t k = std::min(kChunk, page_levels_left_);
        if (scratch_rep_levels_.size() < k) scratch_rep_levels_.resize(kChunk);
        LevelDecoder probe = rep_decoder_;
        probe.DecodeExactly(scratch_rep_levels_.data(), k, "repetition");
        size_t take = k;
        bool reached = false;
        for (size_t i = 0; i < k; i++) {
          if (scratch_rep_levels_[i] != 0) continue;
          if (found + 1 == n) {
            take = i;
            reached = true;
            break;
          }
          found++;
        }
        if (reached) {
          rep_decoder_.SkipExactly(take, "repetition");
        } else {
          rep_decoder_ = probe;
        }
        SkipLoaded(take, /*skip_repetition=*/false);
        page_levels_left_ -= take;
        if (reached) return n;
      }
  }

  std::string Context() const { return pages_.Context(); }

  void SkipLoaded(size_t n, bool skip_repetition = true) {
    if (skip_repetition && descriptor_->max_repetition_level > 0) rep_decoder_.SkipExactly(n, "repetition");
    size_t non_null = n;
    if (descriptor_->max_definition_level > 0) non_null = def_decoder_.SkipCountingMax(n, &scratch_levels_, "definition");
    if (non_null > 0 && value_decoder_->Skip(non_null) != non_null) {
      throw ParquetError("page ends before the " + std::to_string(non_null) + " values its levels need");
    }
  }

  // Slots of the chunk consumed so far (flat columns: also rows).
  int64_t LevelsConsumed() const { return levels_seen_ - static_cast<int64_t>(page_levels_left_); }

  // Parses page headers until the next data page (reading a dictionary page on the way,
  // skipping index and unknown pages). Returns false at the end of the chunk.
  bool NextDataPage() {
    page_loaded_ = false;
    const int64_t chunk_values = pages_.metadata().num_values;
    while (pages_.NextPage()) {
      const PageHeader& header = pages_.header();
      switch (header.type) {
        case PageType::DICTIONARY_PAGE:
          ReadDictionaryPage();
          continue;
        case PageType::DATA_PAGE: {
          if (!header.data_page_header.has_value()) throw ParquetError("data page without a data page header");
          int32_t n = header.data_page_header->num_values;
          if (n < 0) throw ParquetError("data page has negative num_values " + std::to_string(n));
          page_levels_left_ = static_cast<size_t>(n);
          break;
        }
        case PageType::DATA_PAGE_V2: {
          if (!header.data_page_header_v2.has_value()) {
            throw ParquetError("data page v2 without a data page v2 header");
          }
          int32_t n = header.data_page_header_v2->num_values;
          if (n < 0) throw ParquetError("data page has negative num_values " + std::to_string(n));
          page_levels_left_ = static_cast<size_t>(n);
          break;
        }
        default:
          continue;  // index pages and page types from the future carry no data we need
      }
      levels_seen_ += static_cast<int64_t>(page_levels_left_);
      if (levels_exact_ && levels_seen_ > chunk_values) {
        throw ParquetError("data pages hold more values than the column chunk's num_values " +
                           std::to_string(chunk_values));
      }
      if (page_levels_left_ == 0) continue;
      return true;
    }
    if (levels_exact_ && levels_seen_ != chunk_values) {
      throw ParquetError("data pages hold " + std::to_string(levels_seen_) +
                         " values but the column chunk's num_values is " + std::to_string(chunk_values));
    }
    return false;
  }

  // Moves to the start of the page holding row `target` when the offset index shows that
  // page lies beyond the current one, without reading the pages between. Returns false (and
  // does nothing) when there is no such jump to make. With an offset index, pages begin at
  // row boundaries (parquet.thrift, PageLocation.first_row_index): in a column with
  // repetition the landing page must start with repetition level 0 (else the reader starts
  // the chunk over without the index: row_starts_consumed_ is 0 again and false is
  // returned), and from there on the chunk's level count is no longer checked (the skipped
  // pages' counts are unknown). first_row_index itself is trusted, as other readers do.
  bool JumpToRow(int64_t target) {
    const std::optional<PageJump> jump = pages_.FindJump(target, page_levels_left_ == 0);
    if (!jump.has_value()) return false;
    if (pages_.data_page_index() < 0) {
      // Nothing read yet: the pages before the first data page (the dictionary) are needed.
      const int64_t first = pages_.FirstIndexedDataPageOffset();
      while (pages_.next_page_offset() < static_cast<uint64_t>(first)) {
        if (!pages_.NextPage()) {
          throw ParquetError("offset index puts the first data page at offset " + std::to_string(first) +
                             ", past the column chunk's end " + std::to_string(pages_.chunk_end()));
        }
        const PageType type = pages_.header().type;
        if (type == PageType::DICTIONARY_PAGE) {
          ReadDictionaryPage();
        } else if (type == PageType::DATA_PAGE || type == PageType::DATA_PAGE_V2) {
          throw ParquetError("offset index puts the first data page at offset " + std::to_string(first) +
                             " but a data page starts at " + std::to_string(pages_.page_offset()));
        }
      }
    }
    const int64_t k = jump->page;
    if (page_levels_left_ > 0 && !page_loaded_) counters_.pages_skipped++;  // the current page, header read
    counters_.pages_skipped += static_cast<uint64_t>(k - (pages_.data_page_index() + 1));
    const bool flat = descriptor_->max_repetition_level == 0;
    if (flat) {
      levels_seen_ = jump->first_row;
    } else {
      levels_seen_ = 0;
      levels_exact_ = false;
    }
    pages_.JumpTo(*jump);
    page_levels_left_ = 0;
    page_loaded_ = false;
    const bool landed = NextDataPage() && pages_.data_page_index() == k;
    if (flat && (!landed || static_cast<int64_t>(page_levels_left_) != jump->rows)) {
      throw ParquetError("offset index page " + std::to_string(k) + " at offset " + std::to_string(jump->offset) +
                         " should hold " + std::to_string(jump->rows) + " rows, the page there holds " +
                         std::to_string(landed ? page_levels_left_ : 0));
    }
    if (!flat) {
      bool row_start = false;
      if (landed) {
        const PageHeader& header = pages_.header();
        if (header.type == PageType::DATA_PAGE_V2) row_start = header.data_page_header_v2->num_rows == jump->rows;
        if (row_start || header.type == PageType::DATA_PAGE) {
          LoadPage();  // page k holds the target: it is read anyway
          int16_t first = -1;
          LevelDecoder probe = rep_decoder_;
          probe.DecodeExactly(&first, 1, "repetition");
          row_start = first == 0;
        }
      }
      if (!row_start) {
        // Pages that do not begin at row boundaries (some writers split rows across v1
        // pages): forget the offset index and start the chunk over, to walk it page by page.
        Reset(pages_.row_group());
        pages_.DisableOffsetIndex();
        return false;
      }
    }
    row_starts_consumed_ = jump->first_row;
    return true;
  }

  void ReadDictionaryPage() {
    if (!pages_.header().dictionary_page_header.has_value()) {
      throw ParquetError("dictionary page without a dictionary page header");
    }
    if (has_dictionary_) throw ParquetError("column chunk has a second dictionary page");
    counters_.dictionary_pages_read++;
    const DictionaryPageHeader& dict = *pages_.header().dictionary_page_header;
    if (dict.encoding != Encoding::PLAIN && dict.encoding != Encoding::PLAIN_DICTIONARY) {
      throw ParquetError("dictionary page has unsupported encoding " + ToString(dict.encoding));
    }
    size_t size = 0;
    const uint8_t* data = pages_.DictionaryPageBytes(&size);
    if (dict.num_values < 0 || static_cast<uint64_t>(dict.num_values) > MaxValuesIn(size)) {
      throw ParquetError("dictionary page claims " + std::to_string(dict.num_values) +
                         " values in " + std::to_string(size) + " bytes");
    }
    size_t count = static_cast<size_t>(dict.num_values);
    auto decoder = MakePlainDecoder();
    decoder->SetData(data, size, count);
    pages_.GrowBuffer(&dictionary_, count);
    T* entries = reinterpret_cast<T*>(dictionary_.data());
    if (count > 0 && decoder->Decode(entries, count) != count) {
      throw ParquetError("dictionary page ends before its " + std::to_string(count) + " values");
    }
    if constexpr (std::is_same_v<T, bool>) {
      throw ParquetError("BOOLEAN columns cannot be dictionary-encoded");
    } else {
      if constexpr (std::is_same_v<T, ByteArray>) TerminateDictionaryEntries(entries, count);
      has_dictionary_ = true;
      if (!dictionary_decoder_) dictionary_decoder_ = std::make_unique<DictionaryDecoder<T>>();
      dictionary_decoder_->SetDictionary(entries, count);
      dictionary_entries_ = count;
    }
  }

  bool TerminateText(ColumnBatch* batch) override {
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (batch->text_terminated || batch != terminable_batch_ || batch->num_values != terminable_values_) {
        return batch->text_terminated;
      }
      terminable_batch_ = nullptr;
      ByteArray* values = batch->mutable_values<ByteArray>(batch->num_values);
      batch->text_terminated = TerminateValuesInPage(values, batch->num_values);
    }
    return batch->text_terminated;
  }

  // TerminateText's copy of the `count` byte arrays of a batch that lie in order in the
  // current page's value section (PLAIN or DELTA_LENGTH_BYTE_ARRAY: page_values_in_place_):
  // into terminated_values_, each followed by a NUL, the values pointed there. Copied in
  // 16-byte chunks where the page's bytes allow reading that far, each value followed by a
  // placeholder byte, then one memchr over the copy finds a NUL held by a value (the values
  // are then left as they were: false). Batches of long values (above 255 bytes on average)
  // are left alone: xColumn does not copy those anyway.
  bool TerminateValuesInPage(ByteArray* values, size_t count) {
    const uint8_t* begin = values[0].ptr;
    const uint8_t* end = values[count - 1].ptr + values[count - 1].len;
    // The values must lie within the page's value section: the chunked reads rely on it.
    if (begin < page_values_begin_ || end > page_values_end_ || end < begin) return false;
    const size_t span = static_cast<size_t>(end - begin);  // the values, and PLAIN's 4-byte lengths
    constexpr size_t kMaxAverageBytes = 255 + 4;
    if (span > count * kMaxAverageBytes) return false;
    constexpr size_t kChunk = 16;
    pages_.GrowBuffer(&terminated_values_, span + count + kChunk);
    uint8_t* const first = terminated_values_.data();
    uint8_t* out = first;
    const uint8_t* readable_end = page_values_end_;
    const bool chunks_readable = static_cast<size_t>(readable_end - end) >= kChunk;  // for every value
    for (size_t i = 0; i < count; i++) {
      const uint8_t* src = values[i].ptr;
      const size_t len = values[i].len;
      if (chunks_readable || static_cast<size_t>(readable_end - src) >= len + kChunk) {
        // Whole chunks: the bytes past the value land where the next value or the NUL goes.
        size_t done = 0;
        do {
          std::memcpy(out + done, src + done, kChunk);
          done += kChunk;
        } while (done < len);
      } else if (len > 0) {
        std::memcpy(out, src, len);
      }
      out[len] = 1;  // not a NUL, so that the memchr below finds only the values' own
      out += len + size_t{1};
    }
    if (std::memchr(first, 0, static_cast<size_t>(out - first)) != nullptr) return false;
    out = first;
    for (size_t i = 0; i < count; i++) {
      const size_t len = values[i].len;
      out[len] = 0;
      values[i].ptr = out;
      out += len + size_t{1};
    }
    return true;
  }

  // Copies the byte-array dictionary entries into terminated_dictionary_, each followed by
  // a NUL, and points the entries there; dictionary_nul_free_ tells whether no entry holds
  // a NUL itself (then batches decoded through the dictionary are text_terminated). One
  // copy per dictionary page; it saves a copy per value for consumers that need C strings.
  void TerminateDictionaryEntries(ByteArray* entries, size_t count) {
    size_t bytes = count;
    for (size_t i = 0; i < count; i++) bytes += entries[i].len;  // entries lie in the page: no overflow
    pages_.GrowBuffer(&terminated_dictionary_, bytes);
    uint8_t* out = terminated_dictionary_.data();
    bool nul_free = true;
    for (size_t i = 0; i < count; i++) {
      const uint32_t len = entries[i].len;
      if (len > 0) {
        std::memcpy(out, entries[i].ptr, len);
        nul_free = nul_free && std::memchr(out, 0, len) == nullptr;
      }
      out[len] = 0;
      entries[i].ptr = out;
      out += len + size_t{1};
    }
    dictionary_nul_free_ = nul_free;
  }

  // An upper bound on how many values of this type `size` bytes can hold (plain encoding).
  uint64_t MaxValuesIn(size_t size) const {
    if constexpr (std::is_same_v<T, bool>) {
      return uint64_t{size} * 8;
    } else if constexpr (std::is_same_v<T, ByteArray>) {
      if (descriptor_->physical_type == Type::FIXED_LEN_BYTE_ARRAY) {
        return size / static_cast<size_t>(descriptor_->type_length);
      }
      return size / 4;
    } else {
      return size / sizeof(T);
    }
  }

  std::unique_ptr<ValueDecoder<T>> MakePlainDecoder() const {
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (descriptor_->physical_type == Type::FIXED_LEN_BYTE_ARRAY) {
        return std::make_unique<PlainFixedLenDecoder>(descriptor_->type_length);
      }
    }
    return std::make_unique<PlainDecoder<T>>();
  }

  // The decoder for a data page's value encoding; decoders are created once and reused.
  ValueDecoder<T>* DecoderFor(Encoding encoding) {
    const Type type = descriptor_->physical_type;
    switch (encoding) {
      case Encoding::PLAIN:
        if (!plain_decoder_) plain_decoder_ = MakePlainDecoder();
        return plain_decoder_.get();
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY:
        if constexpr (!std::is_same_v<T, bool>) {  // booleans are never dictionary-encoded
          if (!has_dictionary_) {
            throw ParquetError("dictionary-encoded page but the column chunk has no dictionary page");
          }
          return dictionary_decoder_.get();
        }
        break;
      case Encoding::RLE:
        if constexpr (std::is_same_v<T, bool>) {
          if (!other_decoder_) other_decoder_ = std::make_unique<BooleanRleDecoder>();
          return other_decoder_.get();
        }
        break;
      case Encoding::DELTA_BINARY_PACKED:
        if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
          if (!other_decoder_) other_decoder_ = std::make_unique<DeltaBinaryPackedDecoder<T>>();
          return other_decoder_.get();
        }
        break;
      case Encoding::DELTA_LENGTH_BYTE_ARRAY:
        if constexpr (std::is_same_v<T, ByteArray>) {
          if (type == Type::BYTE_ARRAY) {
            if (!other_decoder_) other_decoder_ = std::make_unique<DeltaLengthByteArrayDecoder>();
            return other_decoder_.get();
          }
        }
        break;
      case Encoding::DELTA_BYTE_ARRAY:
        if constexpr (std::is_same_v<T, ByteArray>) {
          if (!delta_byte_array_decoder_) {
            delta_byte_array_decoder_ =
                type == Type::FIXED_LEN_BYTE_ARRAY
                    ? std::make_unique<DeltaByteArrayDecoder>(static_cast<uint32_t>(descriptor_->type_length))
                    : std::make_unique<DeltaByteArrayDecoder>();
          }
          return delta_byte_array_decoder_.get();
        }
        break;
      case Encoding::BYTE_STREAM_SPLIT:
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                      std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
          if (!byte_stream_split_decoder_) byte_stream_split_decoder_ = std::make_unique<ByteStreamSplitDecoder<T>>();
          return byte_stream_split_decoder_.get();
        } else if constexpr (std::is_same_v<T, ByteArray>) {
          if (type == Type::FIXED_LEN_BYTE_ARRAY) {
            if (!byte_stream_split_decoder_) {
              byte_stream_split_decoder_ = std::make_unique<ByteStreamSplitFixedLenDecoder>(descriptor_->type_length);
            }
            return byte_stream_split_decoder_.get();
          }
        }
        break;
      default:
        break;
    }
    throw ParquetError("encoding " + ToString(encoding) + " is not supported for " + ToString(type) +
                       " column '" + descriptor_->dotted_path + "'");
  }

  void ResetLevels(LevelDecoder* decoder, Encoding encoding, int bit_width, size_t num_values,
                   const uint8_t* data, size_t size, size_t* consumed, const char* what) {
    if (encoding == Encoding::RLE) {
      if (size < 4) throw ParquetError(std::string(what) + " levels are truncated");
      uint32_t length = LoadLittleEndian32(data);
      if (length > size - 4) {
        throw ParquetError(std::string(what) + " levels claim " + std::to_string(length) + " bytes, only " +
                           std::to_string(size - 4) + " remain in the page");
      }
      decoder->ResetHybrid(data + 4, length, bit_width);
      *consumed = 4 + length;
    } else if (encoding == Encoding::BIT_PACKED) {
      uint64_t bytes = (uint64_t{num_values} * static_cast<uint64_t>(bit_width) + 7) / 8;
      if (bytes > size) throw ParquetError(std::string(what) + " levels are truncated");
      decoder->ResetBitPacked(data, static_cast<size_t>(bytes), bit_width, num_values);
      *consumed = static_cast<size_t>(bytes);
    } else {
      throw ParquetError(std::string(what) + " levels use unsupported encoding " + ToString(encoding));
    }
  }

  // How many values to announce to the value decoder. A v1 page only says how many slots it
  // has (nulls included); for encodings whose size follows from the count, the value section's
  // size gives the exact count of non-null values instead.
  size_t ValueCountBound(Encoding encoding, size_t values_size, size_t slots) const {
    size_t width = 0;
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (descriptor_->physical_type == Type::FIXED_LEN_BYTE_ARRAY) width = static_cast<size_t>(descriptor_->type_length);
    } else if constexpr (!std::is_same_v<T, bool>) {
      width = sizeof(T);
    }
    if (width == 0) {
      if constexpr (std::is_same_v<T, bool>) {
        if (encoding == Encoding::PLAIN) return std::min<uint64_t>(slots, uint64_t{values_size} * 8);
      }
      return slots;
    }
    if (encoding == Encoding::BYTE_STREAM_SPLIT) return values_size / width;
    if (encoding == Encoding::PLAIN) return std::min(slots, values_size / width);
    return slots;
  }

  // Decompresses the current data page and prepares its level and value decoders.
  void LoadPage() {
    const PageHeader& header = pages_.header();
    const size_t num_values = page_levels_left_;
    const uint8_t* values = nullptr;
    size_t values_size = 0;
    size_t value_count_bound = num_values;
    Encoding encoding;
    if (header.type == PageType::DATA_PAGE) {
      const DataPageHeader& h = *header.data_page_header;
      encoding = h.encoding;
      size_t size = 0;
      const uint8_t* data = pages_.DataPageV1Body(&size);
      size_t pos = 0;
      if (descriptor_->max_repetition_level > 0) {
        size_t used = 0;
        ResetLevels(&rep_decoder_, h.repetition_level_encoding, rep_bit_width_, num_values, data, size,
                    &used, "repetition");
        pos += used;
      }
      if (descriptor_->max_definition_level > 0) {
        size_t used = 0;
        ResetLevels(&def_decoder_, h.definition_level_encoding, def_bit_width_, num_values, data + pos,
                    size - pos, &used, "definition");
        pos += used;
      }
      values = data + pos;
      values_size = size - pos;
    } else {
      const DataPageHeaderV2& h = *header.data_page_header_v2;
      encoding = h.encoding;
      pages_.ReadBody();
      const uint8_t* body = pages_.body();
      const PageValueSection section = pages_.ValueSection();
      if (h.num_nulls < 0 || h.num_nulls > h.num_values) {
        throw ParquetError("data page v2 has invalid num_nulls " + std::to_string(h.num_nulls));
      }
      size_t rep_length = static_cast<size_t>(h.repetition_levels_byte_length);
      size_t def_length = static_cast<size_t>(h.definition_levels_byte_length);
      if (descriptor_->max_repetition_level > 0) rep_decoder_.ResetHybrid(body, rep_length, rep_bit_width_);
      if (descriptor_->max_definition_level > 0) {
        def_decoder_.ResetHybrid(body + rep_length, def_length, def_bit_width_);
      }
      values = pages_.DataPageV2Values(section);
      values_size = section.size;
      value_count_bound = static_cast<size_t>(h.num_values - h.num_nulls);
    }
    value_decoder_ = DecoderFor(encoding);
    value_decoder_->SetData(values, values_size, ValueCountBound(encoding, values_size, value_count_bound));
    page_values_in_place_ = std::is_same_v<T, ByteArray> &&
                            (encoding == Encoding::DELTA_LENGTH_BYTE_ARRAY || encoding == Encoding::PLAIN);
    page_values_begin_ = values;
    page_values_end_ = values + values_size;
    page_loaded_ = true;
    counters_.pages_read++;
  }

  PageReader pages_;  // the chunk's pages, read and decompressed
  int def_bit_width_ = 0;
  int rep_bit_width_ = 0;

  int64_t levels_seen_ = 0;   // sum of num_values of the data pages met so far
  bool levels_exact_ = true;  // false after a jump in a repeated column (see JumpToRow)
  size_t page_levels_left_ = 0;  // slots of the current data page not consumed yet
  bool page_loaded_ = false;     // its body is decompressed and its decoders are set up

  // std::vector<bool> packs bits, so booleans are stored as bytes (same size as bool here).
  using DictionaryEntry = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
  std::vector<DictionaryEntry> dictionary_;  // the first dictionary_entries_ are the chunk's dictionary
  size_t dictionary_entries_ = 0;
  bool has_dictionary_ = false;
  std::vector<uint8_t> terminated_dictionary_;  // byte-array entries, each NUL-terminated (entries point here)
  bool dictionary_nul_free_ = false;            // no byte-array entry contains a NUL
  // The page's byte arrays lie in order in its value section (TerminateValuesInPage).
  bool page_values_in_place_ = false;
  const uint8_t* page_values_begin_ = nullptr;  // start of the page's value section
  const uint8_t* page_values_end_ = nullptr;  // end of the page's value section
  std::vector<uint8_t> terminated_values_;    // a batch's byte arrays, each NUL-terminated (TerminateText)
  // The batch the last ReadBatch filled from such a page, and its values: what TerminateText
  // may copy (null once read further, or copied).
  ColumnBatch* terminable_batch_ = nullptr;
  size_t terminable_values_ = 0;

  LevelDecoder def_decoder_;
  LevelDecoder rep_decoder_;
  std::vector<int16_t> scratch_levels_;
  std::vector<int16_t> scratch_rep_levels_;  // look-ahead of SkipToRowStart
  ValueDecoder<T>* value_decoder_ = nullptr;
  std::unique_ptr<ValueDecoder<T>> plain_decoder_;
  std::unique_ptr<std::conditional_t<std::is_same_v<T, bool>, ValueDecoder<bool>, DictionaryDecoder<T>>>
      dictionary_decoder_;
  std::unique_ptr<ValueDecoder<T>> other_decoder_;  // RLE booleans, delta integers, delta-length strings
  std::unique_ptr<ValueDecoder<T>> delta_byte_array_decoder_;
  std::unique_ptr<ValueDecoder<T>> byte_stream_split_decoder_;
};

template <typename T>
std::unique_ptr<ColumnChunkReader> MakeTyped(const ParquetFileReader& file, int row_group, int column,
                                             const ColumnReaderOptions& options) {
  auto reader = std::make_unique<TypedColumnChunkReader<T>>(file, column, options);
  reader->Reset(row_group);
  return reader;
}

}  // namespace

std::unique_ptr<ColumnChunkReader> ColumnChunkReader::Make(const ParquetFileReader& file, int row_group,
                                                           int column, const ColumnReaderOptions& options) {
  switch (file.schema().column(column).physical_type) {
    case Type::BOOLEAN: return MakeTyped<bool>(file, row_group, column, options);
    case Type::INT32: return MakeTyped<int32_t>(file, row_group, column, options);
    case Type::INT64: return MakeTyped<int64_t>(file, row_group, column, options);
    case Type::INT96: return MakeTyped<Int96>(file, row_group, column, options);
    case Type::FLOAT: return MakeTyped<float>(file, row_group, column, options);
    case Type::DOUBLE: return MakeTyped<double>(file, row_group, column, options);
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY: return MakeTyped<ByteArray>(file, row_group, column, options);
  }
  throw ParquetError(file.Describe(row_group, column) + ": unknown physical type");
}

size_t ChunkDictionary::size() const {
  switch (physical_type) {
    case Type::INT32: return int32s.size();
    case Type::INT64: return int64s.size();
    case Type::INT96: return int96s.size();
    case Type::FLOAT: return floats.size();
    case Type::DOUBLE: return doubles.size();
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY: return byte_arrays.size();
    case Type::BOOLEAN: break;
  }
  return 0;
}

bool ChunkIsFullyDictionaryEncoded(const ColumnMetaData& meta) {
  if (meta.type == Type::BOOLEAN) return false;
  auto is_dictionary = [](Encoding e) { return e == Encoding::PLAIN_DICTIONARY || e == Encoding::RLE_DICTIONARY; };
  if (meta.encoding_stats.has_value()) {
    bool any_dictionary_page = false;
    for (const PageEncodingStats& stats : *meta.encoding_stats) {
      if (stats.count <= 0) continue;
      if (stats.page_type == PageType::DICTIONARY_PAGE) any_dictionary_page = true;
      if ((stats.page_type == PageType::DATA_PAGE || stats.page_type == PageType::DATA_PAGE_V2) &&
          !is_dictionary(stats.encoding)) {
        return false;
      }
    }
    return any_dictionary_page;
  }
  bool any_dictionary = false;
  for (Encoding e : meta.encodings) {
    if (is_dictionary(e)) {
      any_dictionary = true;
    } else if (e != Encoding::RLE && e != Encoding::BIT_PACKED) {
      return false;
    }
  }
  return any_dictionary;
}

int64_t ColumnChunkReader::SeekToRow(int64_t row) {
  const int64_t current = next_row();
  if (current < 0) {
    throw ParquetError("column '" + descriptor_->dotted_path +
                       "': SeekToRow after skipping slots of a repeated column: the row is unknown");
  }
  if (row < current) {
    throw ParquetError("column '" + descriptor_->dotted_path + "': SeekToRow(" + std::to_string(row) +
                       ") goes back from row " + std::to_string(current));
  }
  SkipRows(static_cast<size_t>(row - current));
  return next_row();
}

namespace {

template <typename T>
std::optional<ChunkDictionary> ReadTypedDictionary(const ParquetFileReader& file, int row_group, int column,
                                                   const ColumnReaderOptions& options, ColumnReadCounters* counters,
                                                   std::vector<T> ChunkDictionary::*values) {
  TypedColumnChunkReader<T> reader(file, column, options);
  reader.Reset(row_group);  // reads nothing yet
  bool found = false;
  try {
    found = reader.ReadDictionaryOnly();
  } catch (...) {
    if (counters != nullptr) AddCounters(reader.counters(), counters);
    throw;
  }
  if (counters != nullptr) AddCounters(reader.counters(), counters);
  if (!found) return std::nullopt;
  ChunkDictionary dictionary;
  dictionary.physical_type = file.schema().column(column).physical_type;
  const auto& entries = reader.dictionary();
  if constexpr (std::is_same_v<T, ByteArray>) {
    (void)values;
    size_t bytes = 0;
    for (const ByteArray& entry : entries) bytes += entry.len;
    dictionary.storage.resize(bytes);
    dictionary.byte_arrays.reserve(entries.size());
    size_t pos = 0;
    for (const ByteArray& entry : entries) {
      if (entry.len > 0) std::memcpy(dictionary.storage.data() + pos, entry.ptr, entry.len);
      dictionary.byte_arrays.push_back(ByteArray{dictionary.storage.data() + pos, entry.len});
      pos += entry.len;
    }
  } else {
    (dictionary.*values).assign(entries.begin(), entries.end());
  }
  return dictionary;
}

}  // namespace

std::optional<ChunkDictionary> ReadChunkDictionary(const ParquetFileReader& file, int row_group, int column,
                                                   const ColumnReaderOptions& options, ColumnReadCounters* counters) {
  if (!ChunkIsFullyDictionaryEncoded(file.column_metadata(row_group, column))) return std::nullopt;
  switch (file.schema().column(column).physical_type) {
    case Type::INT32: return ReadTypedDictionary<int32_t>(file, row_group, column, options, counters, &ChunkDictionary::int32s);
    case Type::INT64: return ReadTypedDictionary<int64_t>(file, row_group, column, options, counters, &ChunkDictionary::int64s);
    case Type::INT96: return ReadTypedDictionary<Int96>(file, row_group, column, options, counters, &ChunkDictionary::int96s);
    case Type::FLOAT: return ReadTypedDictionary<float>(file, row_group, column, options, counters, &ChunkDictionary::floats);
    case Type::DOUBLE: return ReadTypedDictionary<double>(file, row_group, column, options, counters, &ChunkDictionary::doubles);
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      return ReadTypedDictionary<ByteArray>(file, row_group, column, options, counters, &ChunkDictionary::byte_arrays);
    case Type::BOOLEAN: break;
  }
  return std::nullopt;
}

}  // namespace parquet
