// The typed column chunk writer (see typed_column_writer.h).
#include "format/write/typed_column_writer.h"

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>

#include "format/index/bloom_filter.h"
#include "format/codec/compression.h"
#include "format/encoding/bit_packing.h"
#include "format/encoding/dictionary.h"
#include "format/write/content_defined_chunking.h"
#include "format/write/encoding_choice.h"
#include "format/common/error.h"
#include "format/write/page_encoders.h"
#include "format/write/write_statistics.h"

namespace parquet {

namespace {

// The typed part of a column chunk: value checks, value encoders, dictionary, min/max,
// bloom filter, and the choice of encoding.
template <typename T>
class TypedColumnChunkWriter final : public ColumnChunkWriter {
 public:
  // `automatic`: pick the encoding per WriterOptions::automatic_encoding (the column has no
  // explicit encoding). `bloom_filter`: collect the chunk's values for a bloom filter.
  TypedColumnChunkWriter(const ColumnDescriptor& column, int column_index, const SchemaNode& node,
                         const WriterOptions& options,
                         Encoding encoding, bool automatic, bool bloom_filter)
      : ColumnChunkWriter(column, column_index, options, encoding, WrittenStatisticsComparison(node)),
        text_(IsTextColumn(node)),
        automatic_(automatic),
        page_min_max_(comparison_),
        min_max_(comparison_) {
    if (bloom_filter) {
      if constexpr (!std::is_same_v<T, bool>) bloom_ = std::make_unique<BloomFilterBuilder>(options.bloom_filter_fpp);
    }
    if constexpr (std::is_same_v<T, ByteArray>) SetUpGeospatial(column_index, node);
    if (options.cdc.enabled) chunker_ = std::make_unique<ContentDefinedChunker>(options.cdc);
    if (encoding == Encoding::RLE_DICTIONARY) {
      if constexpr (std::is_same_v<T, bool>) {
        throw ParquetError("BOOLEAN column '" + column.dotted_path + "' cannot be dictionary-encoded");
      } else {
        dictionary_ = std::make_unique<DictionaryEncoder<T>>(
            column.physical_type == Type::FIXED_LEN_BYTE_ARRAY ? column.type_length : -1);
        encoder_ = MakeDictionaryPageEncoder<T>(dictionary_.get(), kMaxSlotsPerPage);
        phase_ = EncodingPhase::kDictionary;
      }
      return;
    }
    if (automatic_ && encoding == Encoding::PLAIN && AlternativeEncoding() != Encoding::PLAIN) {
      phase_ = EncodingPhase::kProbe;  // the first page's values tell whether the alternative pays
    }
    encoder_ = MakePageEncoder<T>(encoding, column);
  }

  // Checks a batch without changing anything; throws ParquetError naming what is wrong.
  void CheckBatch(size_t num_levels, const int16_t* def, const int16_t* rep, const T* values,
                  size_t num_values) const {
    const size_t expected = CheckLevels(num_levels, def, rep);
    if (expected != num_values) {
      throw ParquetError("column '" + column_.dotted_path + "': the definition levels call for " +
                         std::to_string(expected) + " values but the batch has " +
                         std::to_string(num_values));
    }
    if (num_values > 0 && values == nullptr) {
      throw ParquetError("column '" + column_.dotted_path + "': values are missing");
    }
    CheckValues(values, num_values);
  }

  // Appends a batch that CheckBatch accepted, cutting pages at row boundaries.
  void Append(size_t num_levels, const int16_t* def, const int16_t* rep, const T* values, size_t num_values) {
    batch_values_left_ = num_values;
    const bool repeated = column_.max_repetition_level > 0;
    size_t pos = 0;
    while (pos < num_levels) {
      const bool row_start = !repeated || rep[pos] == 0;
      if (page_full_ && row_start) WriteDataPage();
      size_t end;
      if (page_full_) {
        // The page is full but a row is in progress: append the rest of that row.
        end = pos + 1;
        while (end < num_levels && rep[end] != 0) end++;
      } else {
        end = pos + std::min(num_levels - pos, SlotsForNextStep());
      }
      bool chunk_ends = false;
      if (chunker_) end = FeedChunker(def, rep, values, pos, end, &chunk_ends);
      const size_t count = AppendLevels(def, rep, pos, end);
      if (count > 0) AppendValues(values, count);
      values += count;
      batch_values_left_ -= count;
      UpdatePageFull();
      if (chunk_ends) page_full_ = true;  // the page ends at the next row boundary
      pos = end;
    }
  }

  std::string BloomFilterBytes() override { return bloom_ ? bloom_->Build() : std::string(); }

 private:
  // Feeds slots [pos, end) (their levels and values, `values` being slot pos's first) to
  // the content-defined chunker; returns the end of the slots fed: `end`, or the slot after
  // which a chunk ends (*chunk_ends set).
  size_t FeedChunker(const int16_t* def, const int16_t* rep, const T* values, size_t pos, size_t end, bool* chunk_ends) {
    const int16_t max_def = column_.max_definition_level;
    const bool repeated = column_.max_repetition_level > 0;
    size_t value = 0;
    for (size_t i = pos; i < end; ++i) {
      const uint64_t levels = (repeated ? static_cast<uint64_t>(static_cast<uint16_t>(rep[i])) << 16 : 0) |
                              (max_def > 0 ? static_cast<uint16_t>(def[i]) : 0);
      const size_t level_bytes = (repeated ? 2 : 0) + (max_def > 0 ? 2 : 0);
      uint64_t slot_hash = BloomHash(&levels, sizeof(levels));
      size_t size = level_bytes;
      if (max_def == 0 || def[i] == max_def) {
        const T& v = values[value++];
        uint64_t value_hash;
        if constexpr (std::is_same_v<T, ByteArray>) {
          value_hash = BloomHash(v.ptr, v.len);
          size += v.len;
        } else if constexpr (std::is_same_v<T, Int96>) {
          value_hash = BloomHash(v.words, sizeof(v.words));
          size += sizeof(v.words);
        } else {
          value_hash = BloomHash(&v, sizeof(v));
          size += sizeof(v);
        }
        slot_hash ^= value_hash * 0x9E3779B97F4A7C15ULL;
      }
      if (chunker_->AddSlot(slot_hash, size)) {
        *chunk_ends = true;
        return i + 1;
      }
    }
    return end;
  }

  void AppendValues(const T* values, size_t count) {
    if (phase_ == EncodingPhase::kProbe) {
      sample_.AddAll(values, count);  // encoded when the page ends, once the encoding is chosen
    } else {
      encoder_->Put(values, count);
      if (phase_ == EncodingPhase::kDictionary && automatic_) sample_.Add(values, count);
    }
    page_min_max_.Update(values, count);
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (geospatial_) {
        WkbSummary summary;
        std::string error;
        for (size_t i = 0; i < count; i++) {
          if (SummarizeWkb(values[i].ptr, values[i].len, &summary, &error)) geospatial_->Add(summary);
        }
      }
      if (column_.physical_type == Type::BYTE_ARRAY) {
        uint64_t bytes = 0;
        for (size_t i = 0; i < count; i++) bytes += values[i].len;
        page_unencoded_bytes_ += static_cast<int64_t>(bytes);
        if (dictionary_) dictionary_value_bytes_ += bytes;
      }
    }
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      if (automatic_ && phase_ == EncodingPhase::kDictionary) delta_estimate_.Put(values, count);
    }
    if constexpr (!std::is_same_v<T, bool>) {
      if (bloom_) {
        for (size_t i = 0; i < count; i++) bloom_->Add(BloomHashOf(values[i]));
      }
      if (automatic_ && dictionary_) WatchDictionary(count);
    }
  }

  // At the end of each window, weighs the dictionary against what would replace it over
  // the whole chunk, as far as it can be foreseen: the chunk taken to hold the values so far
  // and those left in the batch (at least twice the values so far), its distinct count
  // extrapolated from the values so far. The dictionary's size (entries, then an index of
  // the entry count's bit width per value) against AlternativeBytesPerValue per value;
  // sizes before compression. Gives up on the dictionary when it is the larger. Values
  // that were all different tell little about how many different ones will come (a cycle
  // of 5000 values looks unique for 5000 values): then the first window only waits for
  // the next.
  void WatchDictionary(size_t count) {
    if constexpr (!std::is_same_v<T, bool>) {
      dictionary_values_ += count;
      if (dictionary_values_ < next_window_end_) return;
      while (next_window_end_ <= dictionary_values_) next_window_end_ *= 2;
      const double seen = static_cast<double>(dictionary_values_);
      const double entries = static_cast<double>(dictionary_->dictionary_size());
      if (entries >= seen && dictionary_values_ < 2 * kFirstWindowValues) return;
      const double total = std::max(2 * seen, seen + static_cast<double>(batch_values_left_));
      const double final_entries = std::max(1.0, ExtrapolateDistinct(seen, entries, total));
      const double entry_bytes = static_cast<double>(dictionary_->dictionary_page_bytes()) / entries;
      const double index_bits = MinimalBitWidth(static_cast<uint64_t>(final_entries) - 1);
      const double dictionary_bytes = final_entries * entry_bytes + total * index_bits / 8;
      if (dictionary_bytes > total * AlternativeBytesPerValue()) give_up_dictionary_ = true;
    } else {
      (void)count;
    }
  }

  // Bytes per value without the dictionary, before compression: for integers the smaller of
  // PLAIN and the delta estimate, otherwise PLAIN (BYTE_STREAM_SPLIT and
  // DELTA_LENGTH_BYTE_ARRAY are about as large before compression).
  double AlternativeBytesPerValue() const {
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      return std::min<double>(sizeof(T), delta_estimate_.BitsPerValue() / 8);
    }
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (column_.physical_type == Type::FIXED_LEN_BYTE_ARRAY) return column_.type_length;
      return 4 + static_cast<double>(dictionary_value_bytes_) / static_cast<double>(std::max<size_t>(1, dictionary_values_));
    } else if constexpr (std::is_same_v<T, Int96>) {
      return 12;
    } else {
      return sizeof(T);
    }
  }

  // The encoding that may do better than PLAIN for this column, or PLAIN.
  Encoding AlternativeEncoding() const {
    if (!automatic_) return Encoding::PLAIN;
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      return Encoding::DELTA_BINARY_PACKED;
    } else if constexpr (std::is_floating_point_v<T>) {
      // Without compression the streams are the PLAIN bytes reordered: no gain.
      if (codec_ != CompressionCodec::UNCOMPRESSED) return Encoding::BYTE_STREAM_SPLIT;
    } else if constexpr (std::is_same_v<T, ByteArray>) {
      if (column_.physical_type == Type::BYTE_ARRAY) return Encoding::DELTA_LENGTH_BYTE_ARRAY;
    }
    return Encoding::PLAIN;
  }

  // The encoding after the dictionary or the probe page: the alternative encoding when the
  // sample of the first values, encoded and compressed with the chunk's codec, comes out
  // smaller that way than PLAIN (see WriterOptions::automatic_encoding).
  Encoding ChosenEncoding() const {
    const Encoding alternative = AlternativeEncoding();
    if (alternative == Encoding::PLAIN || sample_.empty()) return Encoding::PLAIN;
    return SampleBytes(alternative) < SampleBytes(Encoding::PLAIN) ? alternative : Encoding::PLAIN;
  }

  size_t SampleBytes(Encoding encoding) const {
    std::unique_ptr<PageValueEncoder<T>> encoder = MakePageEncoder<T>(encoding, column_);
    sample_.PutInto(encoder.get());
    std::string encoded, compressed;
    encoder->Flush(&encoded);
    if (codec_ == CompressionCodec::UNCOMPRESSED) return encoded.size();
    Compress(codec_, BytesOf(encoded), encoded.size(), compression_level_, &compressed);
    return compressed.size();
  }

  void SwitchEncoding(Encoding encoding) {
    encoder_ = MakePageEncoder<T>(encoding, column_);
    data_encoding_ = encoding;
    phase_ = EncodingPhase::kSettled;
  }

  // GEOMETRY and GEOGRAPHY columns, and the plain ones WriterOptions::geoparquet names,
  // gather their values' envelopes and types (and reject values that are not WKB).
  void SetUpGeospatial(int column_index, const SchemaNode& node) {
    if (column_.physical_type != Type::BYTE_ARRAY) return;
    const auto kind = node.logical_type ? node.logical_type->kind : LogicalType::Kind::UNRECOGNIZED;
    const bool annotated = kind == LogicalType::Kind::GEOMETRY || kind == LogicalType::Kind::GEOGRAPHY;
    bool listed = false;
    for (const GeoParquetColumn& geo : options_.geoparquet.columns) listed = listed || geo.leaf_column == column_index;
    if (!annotated && !listed) return;
    geospatial_ = std::make_unique<GeospatialAccumulator>();
    geospatial_statistics_ = annotated;
    geospatial_bbox_ = kind != LogicalType::Kind::GEOGRAPHY;
  }

  void CheckValues(const T* values, size_t count) const {
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (geospatial_) {
        WkbSummary summary;
        std::string error;
        for (size_t i = 0; i < count; i++) {
          if (!SummarizeWkb(values[i].ptr, values[i].len, &summary, &error)) {
            throw ParquetError("value " + std::to_string(i) + " of column '" + column_.dotted_path +
                               "' is not valid WKB: " + error);
          }
        }
      }
      if (column_.physical_type == Type::FIXED_LEN_BYTE_ARRAY) {
        const uint32_t length = static_cast<uint32_t>(column_.type_length);
        for (size_t i = 0; i < count; i++) {
          if (values[i].len != length) {
            throw ParquetError("value " + std::to_string(i) + " of " + std::to_string(values[i].len) +
                               " bytes does not match the type_length " + std::to_string(length) +
                               " of column '" + column_.dotted_path + "'");
          }
        }
      } else {
        for (size_t i = 0; i < count; i++) {
          if (values[i].len > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
            throw ParquetError("value " + std::to_string(i) + " of " + std::to_string(values[i].len) +
                               " bytes is too long for column '" + column_.dotted_path + "'");
          }
        }
      }
    } else {
      (void)values, (void)count;
    }
  }

  void FlushPageValues(std::string* out) override {
    if (phase_ == EncodingPhase::kProbe && !sample_.empty()) {
      SwitchEncoding(ChosenEncoding());
      sample_.PutInto(encoder_.get());
      sample_.Clear();
    }
    encoder_->Flush(out);
  }

  size_t PageValueBytes() const override {
    return phase_ == EncodingPhase::kProbe ? sample_.plain_bytes() : encoder_->EstimatedBytes();
  }

  bool DictionaryFull() const {
    if constexpr (std::is_same_v<T, bool>) {
      return false;
    } else {
      return dictionary_ &&
             (give_up_dictionary_ || dictionary_->dictionary_page_bytes() > options_.dictionary_page_size_limit);
    }
  }

  bool EncodingEnds() const override {
    return DictionaryFull() || (phase_ == EncodingPhase::kProbe && (sample_.size() >= kFirstWindowValues ||
                                                                      sample_.plain_bytes() >= kMaxSampleBytes));
  }

  void AfterDataPage() override {
    if constexpr (!std::is_same_v<T, bool>) {
      if (DictionaryFull()) {
        // The dictionary is complete: the pages that follow use the fallback encoding.
        SwitchEncoding(ChosenEncoding());
        sample_.Clear();
        WriteDictionary();
      }
    }
  }

  void FinishValues() override {
    if constexpr (!std::is_same_v<T, bool>) {
      if (dictionary_) WriteDictionary();
    }
  }

  void WriteDictionary() {
    if constexpr (!std::is_same_v<T, bool>) {
      std::string entries;
      dictionary_->WriteDictionaryPage(&entries);
      WriteDictionaryPage(entries, dictionary_->dictionary_size());
      dictionary_.reset();
    }
  }

  EncodedBounds Bounds(const MinMax<T>& range) const {
    EncodedBounds bounds;
    range.Encode(&bounds.min, &bounds.max);
    if constexpr (std::is_same_v<T, ByteArray>) {
      // FIXED_LEN_BYTE_ARRAY bounds stay whole: readers expect type_length bytes.
      if (column_.physical_type == Type::BYTE_ARRAY) {
        TruncateBounds(&bounds, options_.statistics_truncate_length, comparison_, text_);
      }
    }
    return bounds;
  }

  void EndPageStatistics(PageRecord* page) override {
    page->nan_count = page_min_max_.nan_count();
    page->unencoded_byte_array_bytes = page_unencoded_bytes_;
    page_unencoded_bytes_ = 0;
    if (page_min_max_.has_value() && options_.write_statistics && options_.write_page_index) {
      EncodedBounds bounds = Bounds(page_min_max_);
      page->min = std::move(bounds.min);
      page->max = std::move(bounds.max);
      page->has_bounds = true;
    }
    min_max_.Merge(page_min_max_);
    page_min_max_.Reset();
  }

  bool ChunkBounds(EncodedBounds* bounds) const override {
    if (!min_max_.has_value()) return false;
    *bounds = Bounds(min_max_);
    return true;
  }

  int64_t ChunkNanCount() const override { return min_max_.nan_count(); }

  using Dictionary = std::conditional_t<std::is_same_v<T, bool>, char, DictionaryEncoder<T>>;
  using DeltaEstimate =
      std::conditional_t<std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>, DeltaSizeEstimate<T>, char>;

  const bool text_;       // byte arrays holding UTF-8 text
  const bool automatic_;  // the encoding is ours to choose
  EncodingPhase phase_ = EncodingPhase::kSettled;
  std::unique_ptr<Dictionary> dictionary_;  // while data pages are dictionary-encoded
  std::unique_ptr<PageValueEncoder<T>> encoder_;
  MinMax<T> page_min_max_;  // the open page
  MinMax<T> min_max_;       // the pages before it
  int64_t page_unencoded_bytes_ = 0;
  std::unique_ptr<BloomFilterBuilder> bloom_;
  std::unique_ptr<ContentDefinedChunker> chunker_;  // cdc: where pages end

  // Watching the dictionary.
  bool give_up_dictionary_ = false;
  size_t dictionary_values_ = 0;
  uint64_t dictionary_value_bytes_ = 0;  // of byte arrays
  size_t next_window_end_ = kFirstWindowValues;
  size_t batch_values_left_ = 0;  // values of the batch being appended not appended yet

  // What the dictionary phase or the probe page saw, for WatchDictionary and ChosenEncoding.
  DeltaEstimate delta_estimate_{};
  ValueSample<T> sample_;
};

}  // namespace

std::unique_ptr<ColumnChunkWriter> MakeTypedColumnWriter(const ColumnDescriptor& column, int column_index,
                                                         const SchemaNode& node, const WriterOptions& options,
                                                         Encoding encoding, bool automatic, bool bloom_filter) {
  switch (column.physical_type) {
    case Type::BOOLEAN:
      return std::make_unique<TypedColumnChunkWriter<bool>>(column, column_index, node, options, encoding, automatic,
                                                            bloom_filter);
    case Type::INT32:
      return std::make_unique<TypedColumnChunkWriter<int32_t>>(column, column_index, node, options, encoding,
                                                               automatic, bloom_filter);
    case Type::INT64:
      return std::make_unique<TypedColumnChunkWriter<int64_t>>(column, column_index, node, options, encoding,
                                                               automatic, bloom_filter);
    case Type::INT96:
      return std::make_unique<TypedColumnChunkWriter<Int96>>(column, column_index, node, options, encoding,
                                                             automatic, bloom_filter);
    case Type::FLOAT:
      return std::make_unique<TypedColumnChunkWriter<float>>(column, column_index, node, options, encoding,
                                                             automatic, bloom_filter);
    case Type::DOUBLE:
      return std::make_unique<TypedColumnChunkWriter<double>>(column, column_index, node, options, encoding,
                                                              automatic, bloom_filter);
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      return std::make_unique<TypedColumnChunkWriter<ByteArray>>(column, column_index, node, options, encoding,
                                                                 automatic, bloom_filter);
  }
  throw ParquetError("column '" + column.dotted_path + "' has unknown physical type " +
                     ToString(column.physical_type));
}

template <typename T>
void CheckTypedBatch(const ColumnChunkWriter& writer, size_t num_levels, const int16_t* def_levels,
                     const int16_t* rep_levels, const T* values, size_t num_values) {
  static_cast<const TypedColumnChunkWriter<T>&>(writer).CheckBatch(num_levels, def_levels, rep_levels, values,
                                                                   num_values);
}

template <typename T>
void AppendTypedBatch(ColumnChunkWriter& writer, size_t num_levels, const int16_t* def_levels,
                      const int16_t* rep_levels, const T* values, size_t num_values) {
  static_cast<TypedColumnChunkWriter<T>&>(writer).Append(num_levels, def_levels, rep_levels, values, num_values);
}

template void CheckTypedBatch<bool>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const bool*,
                                      size_t);
template void AppendTypedBatch<bool>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const bool*,
                                       size_t);
template void CheckTypedBatch<int32_t>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const int32_t*,
                                      size_t);
template void AppendTypedBatch<int32_t>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const int32_t*,
                                       size_t);
template void CheckTypedBatch<int64_t>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const int64_t*,
                                      size_t);
template void AppendTypedBatch<int64_t>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const int64_t*,
                                       size_t);
template void CheckTypedBatch<Int96>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const Int96*,
                                      size_t);
template void AppendTypedBatch<Int96>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const Int96*,
                                       size_t);
template void CheckTypedBatch<float>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const float*,
                                      size_t);
template void AppendTypedBatch<float>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const float*,
                                       size_t);
template void CheckTypedBatch<double>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const double*,
                                      size_t);
template void AppendTypedBatch<double>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const double*,
                                       size_t);
template void CheckTypedBatch<ByteArray>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const ByteArray*,
                                      size_t);
template void AppendTypedBatch<ByteArray>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*, const ByteArray*,
                                       size_t);

}  // namespace parquet
