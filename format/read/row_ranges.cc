// RowRanges (see row_ranges.h): normalization, set operations and lookups on sorted,
// disjoint row intervals.
#include "format/read/row_ranges.h"

#include <algorithm>

namespace parquet {

RowRanges RowRanges::All(int64_t num_rows) {
  RowRanges result;
  result.Append(0, num_rows);
  return result;
}

RowRanges RowRanges::FromRanges(std::vector<RowRange> ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const RowRange& a, const RowRange& b) { return a.begin < b.begin; });
  RowRanges result;
  for (const RowRange& r : ranges) {
    if (r.begin >= r.end) continue;
    if (!result.ranges_.empty() && r.begin <= result.ranges_.back().end) {
      result.ranges_.back().end = std::max(result.ranges_.back().end, r.end);
    } else {
      result.ranges_.push_back(r);
    }
  }
  return result;
}

void RowRanges::Append(int64_t begin, int64_t end) {
  if (begin >= end) return;
  if (!ranges_.empty() && begin <= ranges_.back().end) {
    // Touching or overlapping the last interval (callers append in row order).
    ranges_.back().end = std::max(ranges_.back().end, end);
    ranges_.back().begin = std::min(ranges_.back().begin, begin);
    return;
  }
  ranges_.push_back({begin, end});
}

RowRanges RowRanges::Intersect(const RowRanges& other) const {
  RowRanges result;
  size_t i = 0, j = 0;
  while (i < ranges_.size() && j < other.ranges_.size()) {
    const RowRange& a = ranges_[i];
    const RowRange& b = other.ranges_[j];
    int64_t begin = std::max(a.begin, b.begin);
    int64_t end = std::min(a.end, b.end);
    if (begin < end) result.ranges_.push_back({begin, end});  // disjoint and non-adjacent already
    if (a.end < b.end) {
      i++;
    } else {
      j++;
    }
  }
  return result;
}

RowRanges RowRanges::Union(const RowRanges& other) const {
  RowRanges result;
  size_t i = 0, j = 0;
  while (i < ranges_.size() || j < other.ranges_.size()) {
    const RowRange& next = (j == other.ranges_.size() || (i < ranges_.size() && ranges_[i].begin < other.ranges_[j].begin))
                               ? ranges_[i++]
                               : other.ranges_[j++];
    result.Append(next.begin, next.end);
  }
  return result;
}

int64_t RowRanges::num_rows() const {
  int64_t total = 0;
  for (const RowRange& r : ranges_) total += r.end - r.begin;
  return total;
}

bool RowRanges::Contains(int64_t row) const {
  // The first interval ending after `row` is the only one that can hold it.
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), row,
                             [](int64_t value, const RowRange& r) { return value < r.end; });
  return it != ranges_.end() && it->begin <= row;
}

int64_t RowRanges::NextRowAtOrAfter(int64_t row, int64_t end) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), row,
                             [](int64_t value, const RowRange& r) { return value < r.end; });
  if (it == ranges_.end()) return end;
  return std::max(row, it->begin);
}

std::string RowRanges::ToString() const {
  std::string text;
  for (const RowRange& r : ranges_) {
    if (!text.empty()) text += ", ";
    text += "[" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")";
  }
  return text.empty() ? "(none)" : text;
}

}  // namespace parquet
