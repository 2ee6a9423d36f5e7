// Deciding, before reading a row group, that no row of it can satisfy the pushed
// constraints, cheapest test first: the column chunks' statistics (min/max, null_count,
// nan_count), their bloom filters (= and IN), their dictionaries (a chunk whose pages are
// all dictionary-encoded holds only dictionary values); then, for the row groups kept,
// which rows can match at all, from the page index (ColumnIndex bounds of each page,
// OffsetIndex rows of each page), intersected over the filter columns. Statistics bounds
// are mapped into SQLite values through the column's mapping (parquet_to_sql.h) and compared
// the way SQLite compares; a column whose mapping does not keep the order (text dates
// outside 0000..9999, decimals as text, ...) is never used to prune.
// parquet_bbox_intersects (BBOX_INTERSECTS) prunes by the chunk's GeospatialStatistics
// box, and by the min/max statistics of the GeoParquet 1.1 `covering` bbox columns the
// file's `geo` metadata names for the geometry column (a row group whose smallest xmin is
// beyond the box's xmax cannot hold a geometry meeting it, and so on).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "ext/common/column_mapping.h"
#include "ext/table/constraints.h"
#include "format/index/bloom_filter.h"
#include "format/read/column_reader.h"
#include "format/read/file_reader.h"
#include "format/read/row_ranges.h"
#include "format/index/statistics.h"

namespace sqlite_parquet {

// A filter on a flat file column, with that column's mapping in the current file.
struct FileColumnFilter {
  const ColumnFilter* filter = nullptr;
  const ColumnMapping* mapping = nullptr;
};

enum class PruneReason : uint8_t { kKeep, kStatistics, kBloomFilter, kDictionary, kPageIndex };

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

  // The first reason found why no row of `row_group` can match, or kKeep. Dictionary
  // pages read are counted in *counters.
  PruneReason Check(int row_group, const parquet::ColumnReaderOptions& options, parquet::ColumnReadCounters* counters);

  // The rows of `row_group` within `rows` that the page indexes of the filter columns
  // leave (all of `rows` when no filter column has a page index). Pages counted in
  // *pages_pruned are those of filter columns whose rows were all ruled out.
  parquet::RowRanges MatchingRows(int row_group, parquet::RowRanges rows, int64_t* pages_pruned);
  // The leaf columns whose page indexes MatchingRows reads.
  std::vector<int> PageIndexLeaves() const;

 private:
  // Whether BBOX_INTERSECTS filter `i` rules out the row group by boxes (see above).
  bool BboxRulesOut(int row_group, size_t i) const;

  const parquet::ParquetFileReader& file_;
  std::vector<FileColumnFilter> filters_;
  std::vector<parquet::StatisticsContext> contexts_;  // per filter
  // Per filter, for BBOX_INTERSECTS on a column the `geo` metadata gives a covering bbox
  // struct: the leaf columns of xmin, ymin, xmax, ymax (-1 where there is none).
  std::vector<std::array<int, 4>> covering_;
};

}  // namespace sqlite_parquet
