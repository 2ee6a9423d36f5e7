// GeospatialStatistics as the writer gathers them for GEOMETRY and GEOGRAPHY column chunks
// (Geospatial.md): the union of the values' envelopes (Z and M only where some value has
// a non-NaN one) and the set of ISO type codes; NULLs are skipped, empty geometries add
// their type but no coordinates. Also the file-wide summary behind the GeoParquet `geo`
// metadata (geoparquet_metadata.h).
#pragma once

#include <cstdint>
#include <optional>
#include <set>

#include "format/metadata/metadata.h"
#include "format/values/wkb.h"

namespace parquet {

class GeospatialAccumulator {
 public:
  void Add(const WkbSummary& value);
  void Merge(const GeospatialAccumulator& other);
  bool has_values() const { return has_values_; }
  const std::set<int32_t>& types() const { return types_; }
  const WkbRange& x() const { return x_; }
  const WkbRange& y() const { return y_; }

  // The statistics of what was added; nullopt when nothing was (all NULL). `with_bbox`:
  // false for GEOGRAPHY, whose edges may leave the box of the vertices.
  std::optional<GeospatialStatistics> Build(bool with_bbox) const;

 private:
  bool has_values_ = false;
  WkbRange x_, y_, z_, m_;
  std::set<int32_t> types_;
};

}  // namespace parquet
