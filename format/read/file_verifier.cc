// Reading a Parquet file back in full to check it (file_verifier.h).
#include "format/read/file_verifier.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/common/error.h"
#include "format/index/bloom_filter.h"
#include "format/index/page_index.h"
#include "format/index/statistics.h"
#include "format/read/column_reader.h"

namespace parquet {

namespace {

// What the decoded values of a chunk or a page are: counts and extremes.
struct ValueSummary {
  int64_t nulls = 0;
  int64_t nans = 0;
  int64_t values = 0;  // non-null
  std::optional<StatisticsValue> min, max;  // over non-null, non-NaN values

  void Add(const StatisticsValue& v, bool nan, ValueComparison comparison) {
    ++values;
    if (nan) {
      ++nans;
      return;
    }
    if (comparison == ValueComparison::kNone) return;
    if (!min || CompareStatisticsValues(v, *min, comparison) < 0) min = v;
    if (!max || CompareStatisticsValues(v, *max, comparison) > 0) max = v;
  }

  // The same for a byte array compared by its bytes (unsigned or as a big-endian signed
  // integer), without decoding it into a StatisticsValue unless it is a new extreme.
  void AddBytes(std::string_view bytes, Type type, ValueComparison comparison) {
    ++values;
    if (comparison == ValueComparison::kNone) return;
    auto compare = [comparison](std::string_view a, std::string_view b) {
      return comparison == ValueComparison::kSignedBigEndian ? CompareSignedBigEndian(a, b) : CompareUnsignedBytes(a, b);
    };
    if (!min || compare(bytes, min->bytes) < 0) min = StatisticsValue::Bytes(type, bytes);
    if (!max || compare(bytes, max->bytes) > 0) max = StatisticsValue::Bytes(type, bytes);
  }
};

class ChunkVerifier {
 public:
  ChunkVerifier(const ParquetFileReader& file, int row_group, int column)
      : file_(file), row_group_(row_group), column_(column), descriptor_(file.schema().column(column)),
        context_(MakeStatisticsContext(file.metadata(), file.schema(), column)) {}

  void Run() {
    const RowGroup& rg = file_.row_group(row_group_);
    const ColumnChunk& chunk = rg.columns[static_cast<size_t>(column_)];
    if (chunk.meta_data && chunk.meta_data->bloom_filter_offset) bloom_ = ReadBloomFilter(file_, row_group_, column_);
    column_index_ = ReadColumnIndex(file_, row_group_, column_);
    offset_index_ = ReadOffsetIndex(file_, row_group_, column_);
    if (offset_index_) {
      for (const PageLocation& page : offset_index_->page_locations) page_first_rows_.push_back(page.first_row_index);
      if (page_first_rows_.empty() || page_first_rows_[0] != 0) Fail("the offset index does not start at row 0");
      pages_.resize(page_first_rows_.size());
    }
    std::unique_ptr<ColumnChunkReader> reader = ColumnChunkReader::Make(file_, row_group_, column_);
    ColumnBatch batch;
    while (reader->ReadBatch(4096, &batch) > 0) Consume(batch);
    if (rows_ != rg.num_rows) {
      Fail("the column holds " + std::to_string(rows_) + " rows, the row group " + std::to_string(rg.num_rows));
    }
    if (chunk.meta_data && chunk.meta_data->statistics) {
      CheckStatistics(DecodeStatistics(*chunk.meta_data->statistics, context_), chunk_, "the chunk statistics");
    }
    if (column_index_) {
      if (column_index_->null_pages.size() != pages_.size()) Fail("the column index and the offset index differ in pages");
      for (size_t p = 0; p < pages_.size(); ++p) {
        const DecodedStatistics s = DecodeColumnIndexEntry(*column_index_, p, context_);
        const std::string what = "the column index of page " + std::to_string(p);
        const bool all_null = pages_[p].values == 0;
        if (column_index_->null_pages[p] != all_null) Fail(what + " says null_pages " + (all_null ? "0" : "1"));
        CheckStatistics(s, pages_[p], what);
      }
    }
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    throw ParquetError("verify: " + file_.name() + ", column " + descriptor_.dotted_path + ", row group " +
                       std::to_string(row_group_) + ": " + what);
  }

  void CheckStatistics(const DecodedStatistics& s, const ValueSummary& actual, const std::string& what) const {
    if (s.null_count && *s.null_count != actual.nulls) {
      Fail(what + " count " + std::to_string(*s.null_count) + " nulls, the values " + std::to_string(actual.nulls));
    }
    if (s.nan_count && *s.nan_count != actual.nans) {
      Fail(what + " count " + std::to_string(*s.nan_count) + " NaNs, the values " + std::to_string(actual.nans));
    }
    if (s.comparison == ValueComparison::kNone) return;
    if (s.min && actual.min) {
      const int c = CompareStatisticsValues(s.min->value, *actual.min, s.comparison);
      if (c > 0) Fail(what + ": the minimum is above the smallest value");
      if (c != 0 && s.min->exact) Fail(what + ": the exact minimum is not the smallest value");
    }
    if (s.max && actual.max) {
      const int c = CompareStatisticsValues(s.max->value, *actual.max, s.comparison);
      if (c < 0) Fail(what + ": the maximum is below the largest value");
      if (c != 0 && s.max->exact) Fail(what + ": the exact maximum is not the largest value");
    }
    if ((s.min || s.max) && !actual.min && actual.nans == 0) Fail(what + " have bounds but no values");
  }

  // The PLAIN bytes of value i of the batch (byte arrays without their length).
  std::string_view PlainBytes(const ColumnBatch& batch, size_t i) const {
    auto bytes = [](const auto* p) { return std::string_view(reinterpret_cast<const char*>(p), sizeof(*p)); };
    switch (descriptor_.physical_type) {
      case Type::BOOLEAN: return bytes(batch.values<bool>() + i);
      case Type::INT32: return bytes(batch.values<int32_t>() + i);
      case Type::INT64: return bytes(batch.values<int64_t>() + i);
      case Type::INT96: return bytes(batch.values<Int96>() + i);
      case Type::FLOAT: return bytes(batch.values<float>() + i);
      case Type::DOUBLE: return bytes(batch.values<double>() + i);
      default: return batch.values<ByteArray>()[i].view();
    }
  }

  void Consume(const ColumnBatch& batch) {
    const int16_t max_def = descriptor_.max_definition_level;
    const bool repeated = descriptor_.max_repetition_level > 0;
    size_t value = 0;
    for (size_t slot = 0; slot < batch.num_levels; ++slot) {
      if (!repeated || batch.rep_levels[slot] == 0) {
        ++rows_;
        while (page_ + 1 < page_first_rows_.size() && rows_ - 1 >= page_first_rows_[page_ + 1]) ++page_;
      }
      ValueSummary* page = pages_.empty() ? nullptr : &pages_[page_];
      if (max_def > 0 && batch.def_levels[slot] < max_def) {
        // A null at the leaf's own level; an empty list or a null parent counts as a null too.
        ++chunk_.nulls;
        if (page) ++page->nulls;
        continue;
      }
      const std::string_view plain = PlainBytes(batch, value++);
      if (bloom_ && !bloom_->MightContain(BloomHash(plain.data(), plain.size()))) {
        Fail("the bloom filter does not contain the value of row " + std::to_string(rows_ - 1));
      }
      if ((context_.comparison == ValueComparison::kUnsignedBytes ||
           context_.comparison == ValueComparison::kSignedBigEndian) && !context_.float16) {
        chunk_.AddBytes(plain, descriptor_.physical_type, context_.comparison);
        if (page) page->AddBytes(plain, descriptor_.physical_type, context_.comparison);
        continue;
      }
      if (!DecodeStatisticsValue(plain, context_, &scratch_)) Fail("a value of the wrong size");
      const bool nan = (descriptor_.physical_type == Type::FLOAT || descriptor_.physical_type == Type::DOUBLE ||
                        context_.float16) &&
                       std::isnan(scratch_.real);
      chunk_.Add(scratch_, nan, context_.comparison);
      if (page) page->Add(scratch_, nan, context_.comparison);
    }
    if (value != batch.num_values) Fail("the levels and the values disagree");
  }

  const ParquetFileReader& file_;
  const int row_group_;
  const int column_;
  const ColumnDescriptor& descriptor_;
  const StatisticsContext context_;
  std::optional<BloomFilter> bloom_;
  std::optional<ColumnIndex> column_index_;
  std::optional<OffsetIndex> offset_index_;
  std::vector<int64_t> page_first_rows_;
  std::vector<ValueSummary> pages_;  // per page of the offset index
  size_t page_ = 0;
  int64_t rows_ = 0;
  ValueSummary chunk_;
  StatisticsValue scratch_;
};

}  // namespace

void VerifyFile(const ParquetFileReader& file) {
  int64_t rows = 0;
  for (int rg = 0; rg < file.num_row_groups(); ++rg) {
    rows += file.row_group(rg).num_rows;
    for (int c = 0; c < file.schema().num_columns(); ++c) ChunkVerifier(file, rg, c).Run();
  }
  if (rows != file.metadata().num_rows) {
    throw ParquetError("verify: " + file.name() + ": the row groups hold " + std::to_string(rows) +
                       " rows, the footer says " + std::to_string(file.metadata().num_rows));
  }
}

}  // namespace parquet
