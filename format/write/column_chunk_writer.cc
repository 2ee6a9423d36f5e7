// The type-independent column chunk writer (see column_chunk_writer.h).
#include "format/write/column_chunk_writer.h"

#include <algorithm>
#include <limits>

#include "format/codec/checksum.h"
#include "format/codec/compression.h"
#include "format/common/error.h"
#include "format/common/levels.h"

namespace parquet {

namespace {

// Slots appended between two checks of the page size: bounds how far a page overshoots.
constexpr size_t kMaxSlotsPerStep = 1024;
// Slots of the first step into an empty page, before its bytes per slot are known (one, so
// that a page of large values holds just one when one passes page_size).
constexpr size_t kFirstStepSlots = 1;

void WriteLittleEndian32(uint32_t value, char* out) {
  out[0] = static_cast<char>(value);
  out[1] = static_cast<char>(value >> 8);
  out[2] = static_cast<char>(value >> 16);
  out[3] = static_cast<char>(value >> 24);
}

}  // namespace

ColumnChunkWriter::ColumnChunkWriter(const ColumnDescriptor& column, int column_index, const WriterOptions& options,
                                     Encoding data_encoding, ValueComparison comparison)
    : column_(column),
      options_(options),
      codec_(options.codec),
      compression_level_(options.compression_level),
      data_encoding_(data_encoding),
      comparison_(comparison),
      def_encoder_(MinimalBitWidth(static_cast<uint64_t>(column.max_definition_level))),
      rep_encoder_(MinimalBitWidth(static_cast<uint64_t>(column.max_repetition_level))) {
  auto compression = options.column_compression.find(column_index);
  if (compression != options.column_compression.end()) {
    codec_ = compression->second.codec;
    compression_level_ = compression->second.level;
  }
  if (column.max_definition_level > 0) {
    page_def_histogram_.assign(static_cast<size_t>(column.max_definition_level) + 1, 0);
    def_histogram_.assign(page_def_histogram_.size(), 0);
  }
  if (column.max_repetition_level > 0) {
    page_rep_histogram_.assign(static_cast<size_t>(column.max_repetition_level) + 1, 0);
    rep_histogram_.assign(page_rep_histogram_.size(), 0);
  }
}

ColumnMetaData ColumnChunkWriter::Metadata(int64_t offset) const {
  ColumnMetaData meta;
  meta.type = column_.physical_type;
  if (!dictionary_page_.empty()) meta.encodings.push_back(Encoding::PLAIN);
  if (column_.max_definition_level > 0 || column_.max_repetition_level > 0) {
    meta.encodings.push_back(Encoding::RLE);
  }
  for (Encoding encoding : data_encodings_) {
    if (std::find(meta.encodings.begin(), meta.encodings.end(), encoding) == meta.encodings.end()) {
      meta.encodings.push_back(encoding);
    }
  }
  meta.path_in_schema = column_.path;
  meta.codec = codec_;
  meta.num_values = slots_;
  meta.total_uncompressed_size = total_uncompressed_size_;
  meta.total_compressed_size = total_compressed_size_;
  meta.data_page_offset = offset + static_cast<int64_t>(dictionary_page_.size());
  if (!dictionary_page_.empty()) meta.dictionary_page_offset = offset;
  if (options_.write_statistics) {
    Statistics statistics;
    statistics.null_count = null_count_;
    EncodedBounds bounds;
    if (ChunkBounds(&bounds)) {
      statistics.min_value = std::move(bounds.min);
      statistics.max_value = std::move(bounds.max);
      statistics.is_min_value_exact = bounds.min_exact;
      statistics.is_max_value_exact = bounds.max_exact;
    }
    if (IsFloatingPoint()) statistics.nan_count = ChunkNanCount();
    meta.statistics = std::move(statistics);
    if (geospatial_ && geospatial_statistics_) meta.geospatial_statistics = geospatial_->Build(geospatial_bbox_);
  }
  meta.encoding_stats = encoding_stats_;
  SizeStatistics size;
  bool has_size = false;
  if (column_.physical_type == Type::BYTE_ARRAY) {
    size.unencoded_byte_array_data_bytes = unencoded_byte_array_bytes_;
    has_size = true;
  }
  if (!rep_histogram_.empty()) {
    size.repetition_level_histogram = rep_histogram_;
    has_size = true;
  }
  if (!def_histogram_.empty()) {
    size.definition_level_histogram = def_histogram_;
    has_size = true;
  }
  if (has_size) meta.size_statistics = std::move(size);
  return meta;
}

void ColumnChunkWriter::PageIndex(int64_t data_offset, OffsetIndex* offset_index, std::optional<ColumnIndex>* column_index) const {
  offset_index->page_locations.clear();
  offset_index->page_locations.reserve(pages_.size());
  for (const PageRecord& page : pages_) {
    offset_index->page_locations.push_back(
        PageLocation{data_offset + static_cast<int64_t>(page.offset), page.size, page.first_row});
  }
  if (column_.physical_type == Type::BYTE_ARRAY) {
    std::vector<int64_t> bytes;
    bytes.reserve(pages_.size());
    for (const PageRecord& page : pages_) bytes.push_back(page.unencoded_byte_array_bytes);
    offset_index->unencoded_byte_array_data_bytes = std::move(bytes);
  }
  column_index->reset();
  if (!options_.write_statistics || comparison_ == ValueComparison::kNone) return;
  for (const PageRecord& page : pages_) {
    if (!page.null_page && !page.has_bounds) return;  // only NaN: no valid bounds
  }
  ColumnIndex index;
  std::vector<int64_t> null_counts, nan_counts;
  for (const PageRecord& page : pages_) {
    index.null_pages.push_back(page.null_page);
    index.min_values.push_back(page.null_page ? std::string() : page.min);
    index.max_values.push_back(page.null_page ? std::string() : page.max);
    null_counts.push_back(page.null_count);
    nan_counts.push_back(page.nan_count);
  }
  index.boundary_order = BoundaryOrderOfPages();
  index.null_counts = std::move(null_counts);
  if (IsFloatingPoint()) index.nan_counts = std::move(nan_counts);
  if (!rep_histograms_.empty()) index.repetition_level_histograms = rep_histograms_;
  if (!def_histograms_.empty()) index.definition_level_histograms = def_histograms_;
  *column_index = std::move(index);
}

size_t ColumnChunkWriter::CheckLevels(size_t num_levels, const int16_t* def, const int16_t* rep) const {
  const int16_t max_def = column_.max_definition_level;
  const int16_t max_rep = column_.max_repetition_level;
  if (num_levels == 0) return 0;
  if (max_def > 0 && def == nullptr) {
    throw ParquetError("column '" + column_.dotted_path + "' needs definition levels (max level " +
                       std::to_string(max_def) + ")");
  }
  if (max_rep > 0 && rep == nullptr) {
    throw ParquetError("column '" + column_.dotted_path + "' needs repetition levels (max level " +
                       std::to_string(max_rep) + ")");
  }
  size_t values = num_levels;
  if (max_def > 0) {
    // One branch-free pass (the common case); the slow loop below only names the culprit.
    bool bad = false;
    values = CheckDefinitionLevels(def, num_levels, max_def, &bad);
    if (bad) values = 0;
    for (size_t i = 0; bad && i < num_levels; i++) {
      if (def[i] < 0 || def[i] > max_def) {
        throw ParquetError("definition level " + std::to_string(def[i]) + " at slot " +
                           std::to_string(i) + " is outside 0.." + std::to_string(max_def) +
                           " for column '" + column_.dotted_path + "'");
      }
      values += (def[i] == max_def);
    }
  }
  if (max_rep > 0) {
    for (size_t i = 0; i < num_levels; i++) {
      if (rep[i] < 0 || rep[i] > max_rep) {
        throw ParquetError("repetition level " + std::to_string(rep[i]) + " at slot " +
                           std::to_string(i) + " is outside 0.." + std::to_string(max_rep) +
                           " for column '" + column_.dotted_path + "'");
      }
    }
    if (slots_ == 0 && rep[0] != 0) {
      throw ParquetError("first repetition level of column '" + column_.dotted_path + "' is " +
                         std::to_string(rep[0]) + ": a column chunk must start with a new row");
    }
  }
  return values;
}

size_t ColumnChunkWriter::AppendLevels(const int16_t* def, const int16_t* rep, size_t begin, size_t end) {
  const size_t n = end - begin;
  size_t rows = n;
  size_t values = n;
  // Levels go in as runs of equal values (mostly one long run: no NULLs, no lists).
  if (column_.max_repetition_level > 0) {
    rows = 0;
    int64_t* histogram = page_rep_histogram_.data();
    for (size_t i = begin; i < end;) {
      const int16_t level = rep[i];
      const size_t next = i + LevelRunLength(rep + i, end - i, level);
      rep_encoder_.PutRun(static_cast<uint32_t>(level), next - i);
      histogram[level] += static_cast<int64_t>(next - i);
      if (level == 0) rows += next - i;
      i = next;
    }
  }
  if (column_.max_definition_level > 0) {
    const int16_t max_def = column_.max_definition_level;
    int64_t* histogram = page_def_histogram_.data();
    values = 0;
    for (size_t i = begin; i < end;) {
      const int16_t level = def[i];
      const size_t next = i + LevelRunLength(def + i, end - i, level);
      def_encoder_.PutRun(static_cast<uint32_t>(level), next - i);
      histogram[level] += static_cast<int64_t>(next - i);
      if (level == max_def) values += next - i;
      i = next;
    }
  }
  page_slots_ += n;
  page_values_ += values;
  page_rows_ += rows;
  slots_ += static_cast<int64_t>(n);
  rows_ += static_cast<int64_t>(rows);
  null_count_ += static_cast<int64_t>(n - values);
  return values;
}

size_t ColumnChunkWriter::SlotsForNextStep() const {
  if (page_slots_ == 0) return kFirstStepSlots;
  const size_t used = EstimatedPageBytes();
  if (used >= options_.page_size) return 1;
  const size_t bytes_per_slot = std::max<size_t>(1, used / page_slots_);
  return std::clamp<size_t>((options_.page_size - used) / bytes_per_slot, 1, kMaxSlotsPerStep);
}

void ColumnChunkWriter::WriteDataPage() {
  PageRecord record;
  record.first_row = rows_ - static_cast<int64_t>(page_rows_);
  record.null_count = static_cast<int64_t>(page_slots_ - page_values_);
  record.null_page = page_values_ == 0;
  EndPageStatistics(&record);
  unencoded_byte_array_bytes_ += record.unencoded_byte_array_bytes;
  EndPageHistograms();

  PageHeader header;
  scratch_->body.clear();
  const std::string* body = &scratch_->body;
  if (options_.data_page_version == 1) {
    // Levels, then the values encoded straight after them (room made for their estimated
    // size at once: the buffer is kept, and doubling would leave it up to twice the page).
    if (column_.max_repetition_level > 0) AppendPrefixedLevels(&rep_encoder_, &scratch_->body);
    if (column_.max_definition_level > 0) AppendPrefixedLevels(&def_encoder_, &scratch_->body);
    ReserveExactly(&scratch_->body, scratch_->body.size() + PageValueBytes() + 64);
    FlushPageValues(&scratch_->body);
    header.type = PageType::DATA_PAGE;
    header.uncompressed_page_size = PageSizeField(scratch_->body.size());
    if (codec_ != CompressionCodec::UNCOMPRESSED) {
      scratch_->compressed.clear();
      Compress(codec_, BytesOf(scratch_->body), scratch_->body.size(), compression_level_, &scratch_->compressed);
      body = &scratch_->compressed;
    }
    DataPageHeader data_header;
    data_header.num_values = static_cast<int32_t>(page_slots_);
    data_header.encoding = data_encoding_;
    data_header.definition_level_encoding = Encoding::RLE;
    data_header.repetition_level_encoding = Encoding::RLE;
    header.data_page_header = data_header;
  } else {
    scratch_->values.clear();
    FlushPageValues(&scratch_->values);
    if (column_.max_repetition_level > 0) rep_encoder_.Flush(&scratch_->body);
    const size_t rep_length = scratch_->body.size();
    if (column_.max_definition_level > 0) def_encoder_.Flush(&scratch_->body);
    const size_t def_length = scratch_->body.size() - rep_length;
    header.type = PageType::DATA_PAGE_V2;
    header.uncompressed_page_size = PageSizeField(scratch_->body.size() + scratch_->values.size());
    const bool compressed = codec_ != CompressionCodec::UNCOMPRESSED;
    if (compressed) {
      Compress(codec_, BytesOf(scratch_->values), scratch_->values.size(), compression_level_, &scratch_->body);
    } else {
      scratch_->body += scratch_->values;
    }
    DataPageHeaderV2 data_header;
    data_header.num_values = static_cast<int32_t>(page_slots_);
    data_header.num_nulls = static_cast<int32_t>(page_slots_ - page_values_);
    data_header.num_rows = static_cast<int32_t>(page_rows_);
    data_header.encoding = data_encoding_;
    data_header.definition_levels_byte_length = static_cast<int32_t>(def_length);
    data_header.repetition_levels_byte_length = static_cast<int32_t>(rep_length);
    data_header.is_compressed = compressed;
    header.data_page_header_v2 = data_header;
  }
  record.offset = data_pages_bytes_;
  std::string& page = data_pages_.emplace_back();
  AppendPage(&header, *body, &page);
  data_pages_bytes_ += page.size();
  record.size = PageSizeField(page.size());
  if (spill_ != nullptr) {
    held_bytes_ += page.size();
    spill_->Hold(page.size());
    if (spill_->OverLimit()) SpillPages();
  }
  pages_.push_back(std::move(record));
  CountPage(header.type, data_encoding_);
  if (std::find(data_encodings_.begin(), data_encodings_.end(), data_encoding_) == data_encodings_.end()) {
    data_encodings_.push_back(data_encoding_);
  }
  data_pages_written_++;
  page_slots_ = 0;
  page_values_ = 0;
  page_rows_ = 0;
  page_full_ = false;
  ReleaseLargeScratch();
  AfterDataPage();
}

void ColumnChunkWriter::SpillPages() {
  for (const std::string& page : data_pages_) {
    const uint64_t offset = spill_->Append(page);
    if (!spilled_pages_.empty() && spilled_pages_.back().first + spilled_pages_.back().second == offset) {
      spilled_pages_.back().second += page.size();  // right after the chunk's last spilled page
    } else {
      spilled_pages_.emplace_back(offset, page.size());
    }
  }
  std::vector<std::string>().swap(data_pages_);
  ReleaseHeldPages();
}

void ColumnChunkWriter::ReleaseLargeScratch() {
  if (scratch_ != &own_scratch_) return;
  constexpr size_t kKeep = 64 * 1024;
  if (scratch_->values.capacity() > kKeep) std::string().swap(scratch_->values);
  if (scratch_->body.capacity() > kKeep) std::string().swap(scratch_->body);
  if (scratch_->compressed.capacity() > kKeep) std::string().swap(scratch_->compressed);
}

void ColumnChunkWriter::WriteDictionaryPage(const std::string& entries, size_t count) {
  PageHeader header;
  header.type = PageType::DICTIONARY_PAGE;
  header.uncompressed_page_size = PageSizeField(entries.size());
  DictionaryPageHeader dictionary_header;
  dictionary_header.num_values = static_cast<int32_t>(count);
  dictionary_header.encoding = Encoding::PLAIN;
  header.dictionary_page_header = dictionary_header;
  const std::string* body = &entries;
  if (codec_ != CompressionCodec::UNCOMPRESSED) {
    scratch_->compressed.clear();
    Compress(codec_, BytesOf(entries), entries.size(), compression_level_, &scratch_->compressed);
    body = &scratch_->compressed;
  }
  dictionary_page_.clear();
  AppendPage(&header, *body, &dictionary_page_);
  CountPage(PageType::DICTIONARY_PAGE, Encoding::PLAIN);
}

void ColumnChunkWriter::AppendPrefixedLevels(RleBitPackedEncoder* encoder, std::string* out) {
  const size_t start = out->size();
  out->append(4, '\0');
  encoder->Flush(out);
  WriteLittleEndian32(static_cast<uint32_t>(out->size() - start - 4), out->data() + start);
}

int32_t ColumnChunkWriter::PageSizeField(size_t size) const {
  if (size > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    throw ParquetError("page of " + std::to_string(size) + " bytes in column '" + column_.dotted_path +
                       "' is too large for a parquet page header");
  }
  return static_cast<int32_t>(size);
}

void ColumnChunkWriter::AppendPage(PageHeader* header, const std::string& plain_body, std::string* out) {
  const std::string* body = &plain_body;
  const bool dictionary = header->type == PageType::DICTIONARY_PAGE;
  const int page_ordinal = dictionary ? -1 : static_cast<int>(data_pages_written_);
  if (cipher_ != nullptr) {
    encrypted_body_ = cipher_->Encrypt(dictionary ? ModuleType::kDictionaryPage : ModuleType::kDataPage, plain_body,
                                       row_group_ordinal_, column_ordinal_, page_ordinal);
    body = &encrypted_body_;
  }
  header->compressed_page_size = PageSizeField(body->size());
  if (options_.write_crc) header->crc = static_cast<int32_t>(Crc32(BytesOf(*body), body->size()));
  std::string serialized = Serialize(*header);
  if (cipher_ != nullptr) {
    serialized = cipher_->Encrypt(dictionary ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader,
                                  serialized, row_group_ordinal_, column_ordinal_, page_ordinal);
  }
  out->append(serialized);
  out->append(*body);
  total_compressed_size_ += static_cast<int64_t>(serialized.size() + body->size());
  total_uncompressed_size_ += static_cast<int64_t>(serialized.size()) + header->uncompressed_page_size;
}

void ColumnChunkWriter::CountPage(PageType type, Encoding encoding) {
  for (PageEncodingStats& stats : encoding_stats_) {
    if (stats.page_type == type && stats.encoding == encoding) {
      stats.count++;
      return;
    }
  }
  encoding_stats_.push_back(PageEncodingStats{type, encoding, 1});
}

void ColumnChunkWriter::EndPageHistograms() {
  for (size_t i = 0; i < page_rep_histogram_.size(); i++) {
    rep_histograms_.push_back(page_rep_histogram_[i]);
    rep_histogram_[i] += page_rep_histogram_[i];
    page_rep_histogram_[i] = 0;
  }
  for (size_t i = 0; i < page_def_histogram_.size(); i++) {
    def_histograms_.push_back(page_def_histogram_[i]);
    def_histogram_[i] += page_def_histogram_[i];
    page_def_histogram_[i] = 0;
  }
}

BoundaryOrder ColumnChunkWriter::BoundaryOrderOfPages() const {
  bool ascending = true, descending = true;
  const PageRecord* previous = nullptr;
  for (const PageRecord& page : pages_) {
    if (page.null_page) continue;
    if (previous != nullptr) {
      const int min_order = CompareEncoded(column_.physical_type, comparison_, previous->min, page.min);
      const int max_order = CompareEncoded(column_.physical_type, comparison_, previous->max, page.max);
      if (min_order > 0 || max_order > 0) ascending = false;
      if (min_order < 0 || max_order < 0) descending = false;
    }
    previous = &page;
  }
  if (ascending) return BoundaryOrder::ASCENDING;
  if (descending) return BoundaryOrder::DESCENDING;
  return BoundaryOrder::UNORDERED;
}

}  // namespace parquet
