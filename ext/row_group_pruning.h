// Deciding, before reading a row group, that no row of it can satisfy the pushed
// constraints: by the column chunks' statistics (min/max, null_count, nan_count) and by
// their bloom filters (= and IN). Statistics bounds are mapped into SQLite values through
// the column's mapping (sql_value.h) and compared the way SQLite compares; a column whose
// mapping does not keep the order (text dates outside 0000..9999, decimals as text, ...) is
// never used to prune.
#pragma once

#include <optional>
#include <vector>

#include "ext/column_mapping.h"
#include "ext/constraints.h"
#include "format/bloom_filter.h"
#include "format/file_reader.h"
#include "format/statistics.h"

namespace sqlite_parquet {

// A filter on a flat file column, with that column's mapping in the current file.
struct FileColumnFilter {
  const ColumnFilter* filter = nullptr;
  const ColumnMapping* mapping = nullptr;
};

enum class PruneReason : uint8_t { kKeep, kStatistics, kBloomFilter, kDictionary };

// Fills *bounds from `statistics` of a column chunk or page of `num_rows` rows; fields
// that cannot be used keep their "unknown" defaults.
void BoundsFromStatistics(const parquet::DecodedStatistics& statistics, const ColumnMapping& mapping,
                          int64_t num_rows, ValueBounds* bounds);

// Whether the bloom filter rules out every value of an =, IS or IN filter. Values that
// cannot equal any value of the column are ruled out without a lookup; any value the
// filter cannot be asked about (unsupported type, -0.0/+0.0) keeps the row group.
bool BloomFilterRulesOut(const parquet::BloomFilter& bloom, const ColumnFilter& filter, const ColumnMapping& mapping);

class RowGroupPruner {
 public:
  RowGroupPruner(const parquet::ParquetFileReader& file, std::vector<FileColumnFilter> filters);

  // The first reason found why no row of `row_group` can match, or kKeep.
  PruneReason Check(int row_group);

  uint64_t bloom_bytes_read() const { return bloom_bytes_read_; }

 private:
  const parquet::ParquetFileReader& file_;
  std::vector<FileColumnFilter> filters_;
  std::vector<parquet::StatisticsContext> contexts_;  // per filter
  uint64_t bloom_bytes_read_ = 0;
};

}  // namespace sqlite_parquet
