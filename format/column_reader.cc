// Page walking, decompression, level decoding and value decoding for one column chunk
// (see column_reader.h). One TypedColumnChunkReader<T> exists per physical type T.
//
// Data page v1 body (after decompression of the whole body):
//   [repetition levels][definition levels][values]
//   each level section: RLE -> 4-byte little-endian length + RLE/bit-packed hybrid,
//                       BIT_PACKED (deprecated) -> ceil(num_values * bit_width / 8) bytes.
// Data page v2 body:
//   [repetition levels][definition levels] (uncompressed, hybrid without length prefix,
//   lengths in the header) [values] (compressed when is_compressed, which defaults to true).
#include "format/column_reader.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "format/checksum.h"
#include "format/compression.h"
#include "format/encoding/bit_packed_levels.h"
#include "format/encoding/boolean_rle.h"
#include "format/encoding/byte_stream_split.h"
#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/delta_byte_array.h"
#include "format/encoding/delta_length_byte_array.h"
#include "format/encoding/dictionary.h"
#include "format/encoding/plain.h"
#include "format/encoding/rle_bit_packed_hybrid.h"
#include "format/error.h"

namespace parquet {

namespace {

// Largest uncompressed page we accept; larger claims are treated as corrupt.
constexpr int64_t kMaxPageSize = int64_t{1} << 30;
// Bytes read past a column chunk's recorded end to complete a cut-off page header.
constexpr size_t kPageHeaderSlack = 256;

int BitWidth(int16_t max_level) {
  int width = 0;
  while ((1 << width) <= max_level) width++;
  return width;
}

uint32_t ReadLittleEndian32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
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
  void DecodeExactly(int16_t* out, size_t n, const char* what) {
    size_t got = bit_packed_ ? legacy_.Decode(out, n) : hybrid_.Decode(out, n);
    if (got != n) {
      throw ParquetError(std::string(what) + " levels end after " + std::to_string(got) + " of " +
                         std::to_string(n) + " values");
    }
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
  RleBitPackedDecoder hybrid_;
  BitPackedLevelDecoder legacy_;
};

template <typename T>
class TypedColumnChunkReader final : public ColumnChunkReader {
 public:
  TypedColumnChunkReader(const ParquetFileReader& file, int column, const ColumnReaderOptions& options)
      : file_(file), column_(column), options_(options) {
    descriptor_ = &file.schema().column(column);
    def_bit_width_ = BitWidth(descriptor_->max_definition_level);
    rep_bit_width_ = BitWidth(descriptor_->max_repetition_level);
  }

  void Reset(int row_group) override {
    row_group_ = row_group;
    meta_ = &file_.column_metadata(row_group, column_);
    if (meta_->type != descriptor_->physical_type) {
      throw ParquetError(file_.Describe(row_group, column_) + ": column chunk has type " +
                         ToString(meta_->type) + " but the schema says " +
                         ToString(descriptor_->physical_type));
    }
    ColumnChunkRange range = file_.column_chunk_range(row_group, column_);
    file_.file().ReadAt(range.offset, static_cast<size_t>(range.length), &chunk_);
    chunk_offset_ = range.offset;
    counters_.bytes_read += range.length;
    pos_ = 0;
    page_ordinal_ = -1;
    levels_seen_ = 0;
    page_levels_left_ = 0;
    page_loaded_ = false;
    has_dictionary_ = false;
    dictionary_.clear();
  }

  size_t ReadBatch(size_t max_levels, ColumnBatch* batch) override {
    try {
      batch->num_levels = 0;
      batch->num_values = 0;
      if (max_levels == 0) return 0;
      if (page_levels_left_ == 0 && !NextDataPage()) return 0;
      if (!page_loaded_) LoadPage();
      size_t n = std::min(max_levels, page_levels_left_);
      size_t non_null = n;
      if (descriptor_->max_repetition_level > 0) {
        if (batch->rep_levels.size() < n) batch->rep_levels.resize(n);
        rep_decoder_.DecodeExactly(batch->rep_levels.data(), n, "repetition");
      }
      if (descriptor_->max_definition_level > 0) {
        if (batch->def_levels.size() < n) batch->def_levels.resize(n);
        int16_t* def = batch->def_levels.data();
        def_decoder_.DecodeExactly(def, n, "definition");
        non_null = CountDefined(def, n);
      }
      T* out = batch->mutable_values<T>(non_null);
      if (non_null > 0) {
        size_t got = value_decoder_->Decode(out, non_null);
        if (got != non_null) {
          throw ParquetError("page holds " + std::to_string(got) + " values where its levels need " +
                             std::to_string(non_null));
        }
      }
      page_levels_left_ -= n;
      batch->num_levels = n;
      batch->num_values = non_null;
      return n;
    } catch (const ParquetError& e) {
      throw ParquetError(Context() + ": " + e.what());
    }
  }

  size_t Skip(size_t num_levels) override {
    try {
      size_t skipped = 0;
      while (skipped < num_levels) {
        if (page_levels_left_ == 0 && !NextDataPage()) break;
        size_t want = num_levels - skipped;
        if (!page_loaded_ && want >= page_levels_left_) {
          // The whole page goes: no need to decompress it.
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
      return skipped;
    } catch (const ParquetError& e) {
      throw ParquetError(Context() + ": " + e.what());
    }
  }

  size_t SkipToRowStart(size_t n) override {
    try {
      if (n == 0) return 0;
      if (descriptor_->max_repetition_level == 0) {
        // Every slot starts a row: skip n - 1 slots and check that one more follows.
        size_t skipped = Skip(n - 1);
        if (skipped < n - 1) return skipped;
        return (page_levels_left_ > 0 || NextDataPage()) ? n : n - 1;
      }
      size_t found = 0;
      constexpr size_t kChunk = 1024;
      while (true) {
        if (page_levels_left_ == 0 && !NextDataPage()) return found;
        if (!page_loaded_) {
          // A v2 page begins at a row start and holds num_rows row starts.
          if (header_.type == PageType::DATA_PAGE_V2) {
            int32_t rows = header_.data_page_header_v2->num_rows;
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
    } catch (const ParquetError& e) {
      throw ParquetError(Context() + ": " + e.what());
    }
  }

 private:
  std::string Context() const {
    std::string text = file_.Describe(row_group_, column_);
    if (page_ordinal_ >= 0) text += ", page " + std::to_string(page_ordinal_);
    return text;
  }

  size_t CountDefined(const int16_t* def, size_t n) const {
    const int16_t max = descriptor_->max_definition_level;
    size_t count = 0;
    for (size_t i = 0; i < n; i++) count += (def[i] == max);
    return count;
  }

  void SkipLoaded(size_t n, bool skip_repetition = true) {
    if (skip_repetition && descriptor_->max_repetition_level > 0) rep_decoder_.SkipExactly(n, "repetition");
    size_t non_null = n;
    if (descriptor_->max_definition_level > 0) {
      non_null = 0;
      constexpr size_t kChunk = 1024;
      if (scratch_levels_.size() < kChunk) scratch_levels_.resize(kChunk);
      for (size_t done = 0; done < n;) {
        size_t k = std::min(kChunk, n - done);
        def_decoder_.DecodeExactly(scratch_levels_.data(), k, "definition");
        non_null += CountDefined(scratch_levels_.data(), k);
        done += k;
      }
    }
    if (non_null > 0 && value_decoder_->Skip(non_null) != non_null) {
      throw ParquetError("page ends before the " + std::to_string(non_null) + " values its levels need");
    }
  }

  // Parses page headers until the next data page (reading a dictionary page on the way,
  // skipping index and unknown pages). Returns false at the end of the chunk.
  bool NextDataPage() {
    page_loaded_ = false;
    while (pos_ < chunk_.size()) {
      page_ordinal_++;
      size_t header_size = 0;
      try {
        header_ = ParsePageHeader(chunk_.data() + pos_, chunk_.size() - pos_, &header_size);
      } catch (const ParquetError&) {
        // A header cut off by a too-small total_compressed_size: retry with more bytes.
        if (!ExtendChunk(kPageHeaderSlack)) throw;
        header_ = ParsePageHeader(chunk_.data() + pos_, chunk_.size() - pos_, &header_size);
      }
      pos_ += header_size;
      if (header_.compressed_page_size >= 0 &&
          static_cast<uint64_t>(header_.compressed_page_size) > chunk_.size() - pos_) {
        ExtendChunk(static_cast<size_t>(header_.compressed_page_size) - (chunk_.size() - pos_));
      }
      if (header_.compressed_page_size < 0 ||
          static_cast<uint64_t>(header_.compressed_page_size) > chunk_.size() - pos_) {
        throw ParquetError("page of " + std::to_string(header_.compressed_page_size) +
                           " bytes overruns the column chunk (" + std::to_string(chunk_.size() - pos_) +
                           " bytes left)");
      }
      if (header_.uncompressed_page_size < 0) {
        throw ParquetError("invalid uncompressed page size " + std::to_string(header_.uncompressed_page_size));
      }
      if (header_.uncompressed_page_size > kMaxPageSize) {
        throw ParquetError("uncompressed page size " + std::to_string(header_.uncompressed_page_size) +
                           " is above the " + std::to_string(kMaxPageSize) + " bytes this reader accepts per page");
      }
      body_ = chunk_.data() + pos_;
      body_size_ = static_cast<size_t>(header_.compressed_page_size);
      pos_ += body_size_;
      switch (header_.type) {
        case PageType::DICTIONARY_PAGE:
          ReadDictionaryPage();
          continue;
        case PageType::DATA_PAGE: {
          if (!header_.data_page_header.has_value()) throw ParquetError("data page without a data page header");
          int32_t n = header_.data_page_header->num_values;
          if (n < 0) throw ParquetError("data page has negative num_values " + std::to_string(n));
          page_levels_left_ = static_cast<size_t>(n);
          break;
        }
        case PageType::DATA_PAGE_V2: {
          if (!header_.data_page_header_v2.has_value()) {
            throw ParquetError("data page v2 without a data page v2 header");
          }
          int32_t n = header_.data_page_header_v2->num_values;
          if (n < 0) throw ParquetError("data page has negative num_values " + std::to_string(n));
          page_levels_left_ = static_cast<size_t>(n);
          break;
        }
        default:
          continue;  // index pages and page types from the future carry no data we need
      }
      levels_seen_ += static_cast<int64_t>(page_levels_left_);
      if (levels_seen_ > meta_->num_values) {
        throw ParquetError("data pages hold more values than the column chunk's num_values " +
                           std::to_string(meta_->num_values));
      }
      if (page_levels_left_ == 0) continue;
      return true;
    }
    if (levels_seen_ != meta_->num_values) {
      throw ParquetError("data pages hold " + std::to_string(levels_seen_) +
                         " values but the column chunk's num_values is " + std::to_string(meta_->num_values));
    }
    return false;
  }

  // Some writers (PARQUET-816) store a total_compressed_size smaller than the pages they
  // wrote. When a page runs past the chunk, the missing bytes are read from the file as
  // long as they lie before the footer. Returns false when there are no such bytes.
  bool ExtendChunk(size_t wanted) {
    const uint64_t chunk_end = chunk_offset_ + chunk_.size();
    const uint64_t data_end = file_.file().Size() - 8 - file_.footer_length();
    if (chunk_end >= data_end || wanted == 0) return false;
    size_t extra = static_cast<size_t>(std::min<uint64_t>(wanted, data_end - chunk_end));
    size_t old_size = chunk_.size();
    chunk_.resize(old_size + extra);
    file_.file().ReadAt(chunk_end, extra, chunk_.data() + old_size);
    counters_.bytes_read += extra;
    return true;
  }

  void VerifyCrc() {
    if (!options_.verify_crc || !header_.crc.has_value()) return;
    uint32_t actual = Crc32(body_, body_size_);
    if (actual != static_cast<uint32_t>(*header_.crc)) {
      throw ParquetError("page CRC mismatch (stored " + std::to_string(static_cast<uint32_t>(*header_.crc)) +
                         ", computed " + std::to_string(actual) + ")");
    }
  }

  // Returns the decompressed bytes of a region of the page body.
  const uint8_t* Decompressed(const uint8_t* src, size_t src_size, size_t uncompressed_size,
                              bool compressed, std::vector<uint8_t>* buffer) {
    if (!compressed || meta_->codec == CompressionCodec::UNCOMPRESSED) {
      if (src_size != uncompressed_size) {
        throw ParquetError("uncompressed page of " + std::to_string(src_size) + " bytes claims " +
                           std::to_string(uncompressed_size) + " bytes");
      }
      return src;
    }
    // Before allocating for the claim: can this body decompress to that much at all?
    uint64_t most = MaxDecompressedSize(meta_->codec, src, src_size);
    if (uncompressed_size > most) {
      throw ParquetError("page claims " + std::to_string(uncompressed_size) + " uncompressed bytes, more than its " +
                         std::to_string(src_size) + " " + ToString(meta_->codec) + " bytes can hold (at most " +
                         std::to_string(most) + ")");
    }
    if (buffer->size() < uncompressed_size) buffer->resize(uncompressed_size);
    Decompress(meta_->codec, src, src_size, buffer->data(), uncompressed_size);
    return buffer->data();
  }

  void ReadDictionaryPage() {
    if (!header_.dictionary_page_header.has_value()) {
      throw ParquetError("dictionary page without a dictionary page header");
    }
    if (has_dictionary_) throw ParquetError("column chunk has a second dictionary page");
    const DictionaryPageHeader& dict = *header_.dictionary_page_header;
    if (dict.encoding != Encoding::PLAIN && dict.encoding != Encoding::PLAIN_DICTIONARY) {
      throw ParquetError("dictionary page has unsupported encoding " + ToString(dict.encoding));
    }
    VerifyCrc();
    size_t size = static_cast<size_t>(header_.uncompressed_page_size);
    const uint8_t* data = Decompressed(body_, body_size_, size, true, &dictionary_buffer_);
    if (data != dictionary_buffer_.data()) {
      // Uncompressed: copy, so that the dictionary's views never point into chunk_, which
      // ExtendChunk may reallocate.
      dictionary_buffer_.assign(data, data + size);
      data = dictionary_buffer_.data();
    }
    if (dict.num_values < 0 || static_cast<uint64_t>(dict.num_values) > MaxValuesIn(size)) {
      throw ParquetError("dictionary page claims " + std::to_string(dict.num_values) +
                         " values in " + std::to_string(size) + " bytes");
    }
    size_t count = static_cast<size_t>(dict.num_values);
    auto decoder = MakePlainDecoder();
    decoder->SetData(data, size, count);
    dictionary_.resize(count);
    T* entries = reinterpret_cast<T*>(dictionary_.data());
    if (count > 0 && decoder->Decode(entries, count) != count) {
      throw ParquetError("dictionary page ends before its " + std::to_string(count) + " values");
    }
    if constexpr (std::is_same_v<T, bool>) {
      throw ParquetError("BOOLEAN columns cannot be dictionary-encoded");
    } else {
      has_dictionary_ = true;
      if (!dictionary_decoder_) dictionary_decoder_ = std::make_unique<DictionaryDecoder<T>>();
      dictionary_decoder_->SetDictionary(entries, count);
    }
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
      uint32_t length = ReadLittleEndian32(data);
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
    VerifyCrc();
    const size_t num_values = page_levels_left_;
    const uint8_t* values = nullptr;
    size_t values_size = 0;
    size_t value_count_bound = num_values;
    Encoding encoding;
    if (header_.type == PageType::DATA_PAGE) {
      const DataPageHeader& h = *header_.data_page_header;
      encoding = h.encoding;
      size_t size = static_cast<size_t>(header_.uncompressed_page_size);
      const uint8_t* data = Decompressed(body_, body_size_, size, true, &page_buffer_);
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
      const DataPageHeaderV2& h = *header_.data_page_header_v2;
      encoding = h.encoding;
      if (h.repetition_levels_byte_length < 0 || h.definition_levels_byte_length < 0 ||
          static_cast<uint64_t>(h.repetition_levels_byte_length) +
                  static_cast<uint64_t>(h.definition_levels_byte_length) > body_size_ ||
          static_cast<int64_t>(h.repetition_levels_byte_length) + h.definition_levels_byte_length >
              header_.uncompressed_page_size) {
        throw ParquetError("level lengths " + std::to_string(h.repetition_levels_byte_length) + " + " +
                           std::to_string(h.definition_levels_byte_length) + " do not fit in the page");
      }
      if (h.num_nulls < 0 || h.num_nulls > h.num_values) {
        throw ParquetError("data page v2 has invalid num_nulls " + std::to_string(h.num_nulls));
      }
      size_t rep_length = static_cast<size_t>(h.repetition_levels_byte_length);
      size_t def_length = static_cast<size_t>(h.definition_levels_byte_length);
      if (descriptor_->max_repetition_level > 0) rep_decoder_.ResetHybrid(body_, rep_length, rep_bit_width_);
      if (descriptor_->max_definition_level > 0) {
        def_decoder_.ResetHybrid(body_ + rep_length, def_length, def_bit_width_);
      }
      size_t levels = rep_length + def_length;
      size_t compressed_size = body_size_ - levels;
      size_t uncompressed_size = static_cast<size_t>(header_.uncompressed_page_size) - levels;
      bool compressed = h.is_compressed && compressed_size > 0;
      if (!compressed && compressed_size == 0 && uncompressed_size != 0) {
        throw ParquetError("data page v2 has an empty value section that should hold " +
                           std::to_string(uncompressed_size) + " bytes");
      }
      values = Decompressed(body_ + levels, compressed_size, uncompressed_size, compressed, &page_buffer_);
      values_size = uncompressed_size;
      value_count_bound = static_cast<size_t>(h.num_values - h.num_nulls);
    }
    value_decoder_ = DecoderFor(encoding);
    value_decoder_->SetData(values, values_size, ValueCountBound(encoding, values_size, value_count_bound));
    page_loaded_ = true;
    counters_.pages_read++;
  }

  const ParquetFileReader& file_;
  const int column_;
  const ColumnReaderOptions options_;
  int row_group_ = -1;
  const ColumnMetaData* meta_ = nullptr;
  int def_bit_width_ = 0;
  int rep_bit_width_ = 0;

  std::vector<uint8_t> chunk_;  // the column chunk's bytes as stored
  uint64_t chunk_offset_ = 0;   // where chunk_ starts in the file
  size_t pos_ = 0;              // next page header within chunk_
  int page_ordinal_ = -1;       // index of the current page within the chunk
  int64_t levels_seen_ = 0;     // sum of num_values of the data pages met so far

  PageHeader header_;           // the current page
  const uint8_t* body_ = nullptr;
  size_t body_size_ = 0;
  size_t page_levels_left_ = 0;
  bool page_loaded_ = false;

  std::vector<uint8_t> page_buffer_;        // decompressed data page
  std::vector<uint8_t> dictionary_buffer_;  // decompressed dictionary page (ByteArray views point here)
  // std::vector<bool> packs bits, so booleans are stored as bytes (same size as bool here).
  using DictionaryEntry = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
  std::vector<DictionaryEntry> dictionary_;
  bool has_dictionary_ = false;

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

}  // namespace parquet
