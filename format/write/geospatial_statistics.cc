// The GeospatialStatistics gathering of geospatial_statistics.h.
#include "format/write/geospatial_statistics.h"

#include <vector>

namespace parquet {

void GeospatialAccumulator::Add(const WkbSummary& value) {
  has_values_ = true;
  types_.insert(static_cast<int32_t>(value.type_code));
  if (value.empty()) return;  // no X/Y coordinate: nothing for the box (Z and M go with them)
  x_.Merge(value.x);
  y_.Merge(value.y);
  z_.Merge(value.z);
  m_.Merge(value.m);
}

void GeospatialAccumulator::Merge(const GeospatialAccumulator& other) {
  has_values_ = has_values_ || other.has_values_;
  types_.insert(other.types_.begin(), other.types_.end());
  x_.Merge(other.x_);
  y_.Merge(other.y_);
  z_.Merge(other.z_);
  m_.Merge(other.m_);
}

std::optional<GeospatialStatistics> GeospatialAccumulator::Build(bool with_bbox) const {
  if (!has_values_) return std::nullopt;
  GeospatialStatistics statistics;
  statistics.geospatial_types = std::vector<int32_t>(types_.begin(), types_.end());
  if (with_bbox && !x_.empty() && !y_.empty()) {
    BoundingBox box;
    box.xmin = x_.min;
    box.xmax = x_.max;
    box.ymin = y_.min;
    box.ymax = y_.max;
    if (!z_.empty()) box.zmin = z_.min, box.zmax = z_.max;
    if (!m_.empty()) box.mmin = m_.min, box.mmax = m_.max;
    statistics.bbox = box;
  }
  return statistics;
}

}  // namespace parquet
