// RowRanges: the rows of one row group a scan still has to produce, as a sorted list of
// disjoint, non-adjacent half-open intervals [begin, end). Page-index pruning computes one
// per filter column (from the pages whose bounds may match), intersects or unites them,
// then readers skip the rows outside (ColumnChunkReader::SeekToRow).
//
// Row numbers are positions inside the row group (0 = its first row). Small and cheap to
// copy: one vector of intervals, usually a handful.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace parquet {

struct RowRange {
  int64_t begin = 0;  // first row
  int64_t end = 0;    // one past the last row
  bool operator==(const RowRange&) const = default;
};

class RowRanges {
 public:
  RowRanges() = default;  // no rows

  // Rows [0, num_rows).
  static RowRanges All(int64_t num_rows);
  // The union of `ranges` (any order, may overlap or touch; empty and inverted ranges are
  // dropped), normalized into sorted, disjoint, non-adjacent intervals.
  static RowRanges FromRanges(std::vector<RowRange> ranges);

  // Appends [begin, end), which must not start before the start of the last interval (it
  // is merged with the last one when they touch or overlap). Empty intervals are ignored.
  // The cheap way to build ranges in row order.
  void Append(int64_t begin, int64_t end);

  RowRanges Intersect(const RowRanges& other) const;
  RowRanges Union(const RowRanges& other) const;

  int64_t num_rows() const;  // rows selected (sum of interval lengths)
  bool empty() const { return ranges_.empty(); }
  size_t num_ranges() const { return ranges_.size(); }
  const RowRange& range(size_t i) const { return ranges_[i]; }
  const std::vector<RowRange>& ranges() const { return ranges_; }
  std::vector<RowRange>::const_iterator begin() const { return ranges_.begin(); }
  std::vector<RowRange>::const_iterator end() const { return ranges_.end(); }

  // Whether `row` is selected (binary search).
  bool Contains(int64_t row) const;
  // The first selected row >= row, or `end` when there is none (pass the row group's
  // num_rows; the default is INT64_MAX).
  int64_t NextRowAtOrAfter(int64_t row, int64_t end = INT64_MAX) const;
  // One past the last selected row (0 when empty).
  int64_t last_end() const { return ranges_.empty() ? 0 : ranges_.back().end; }

  // "[0, 10), [20, 30)" for messages and test output.
  std::string ToString() const;

  bool operator==(const RowRanges&) const = default;

 private:
  std::vector<RowRange> ranges_;
};

}  // namespace parquet
