// The deleted rows of a data file (lake_snapshot.h).
#include "format/lake/lake_snapshot.h"

#include <algorithm>

namespace parquet::lake {

DeletedRows::DeletedRows(std::vector<PositionRange> ranges) : ranges_(std::move(ranges)) {
  count_ = CountPositions(ranges_);
}

size_t DeletedRows::FirstRangeEndingAfter(uint64_t position) const {
  return static_cast<size_t>(
      std::upper_bound(ranges_.begin(), ranges_.end(), position,
                       [](uint64_t p, const PositionRange& r) { return p < r.end; }) -
      ranges_.begin());
}

}  // namespace parquet::lake
