// Well-Known Binary (ISO variant: XY, XYZ, XYM, XYZM; either byte order), as GEOMETRY and
// GEOGRAPHY columns hold it: one parser for the writer (validation, GeospatialStatistics,
// the GeoParquet `geo` metadata) and the reader (bounding-box tests). It walks a geometry
// once and reports what statistics need: the ISO type code of the outer geometry and the
// envelope of its coordinates per dimension.
//
// Rules (Geospatial.md, "Special geospatial values"): NaN coordinates are skipped (a
// Point whose coordinates are all NaN is the empty point); a geometry without coordinates
// (a Point of NaNs, a LineString of no points, a Polygon of no rings, an empty
// collection) leaves the envelope empty but still has its type code.
//
// Checked: the byte order mark (0 or 1), type codes 1..7 plus 1000/2000/3000 for Z/M/ZM
// (EWKB's high flag bits and SRID are refused), every count against the bytes left, the
// members of Multi* (the matching single type) and of collections (the parent's
// dimensions), nesting up to kMaxWkbDepth, and no bytes after the geometry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace parquet {

inline constexpr int kMaxWkbDepth = 64;

// A range of one dimension; empty while min > max.
struct WkbRange {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  bool empty() const { return min > max; }
  void Add(double value) {
    if (value != value) return;  // NaN: skipped
    if (value < min) min = value;
    if (value > max) max = value;
  }
  void Merge(const WkbRange& other) {
    if (other.empty()) return;
    if (other.min < min) min = other.min;
    if (other.max > max) max = other.max;
  }
};

struct WkbSummary {
  uint32_t type_code = 0;  // ISO code of the outer geometry: 1..7 plus 1000 (Z), 2000 (M), 3000 (ZM)
  WkbRange x, y, z, m;     // envelope of the non-NaN coordinates (z, m: of geometries that have them)
  bool empty() const { return x.empty() || y.empty(); }  // no usable X/Y coordinate
};

// An axis-aligned query box in X and Y (closed: edges count), xmin <= xmax, ymin <= ymax.
struct QueryBox {
  double xmin = 0, ymin = 0, xmax = 0, ymax = 0;
};

// Whether the envelope of a geometry meets the box; an empty geometry meets nothing.
inline bool EnvelopeIntersects(const WkbSummary& s, const QueryBox& box) {
  return !s.empty() && s.x.min <= box.xmax && s.x.max >= box.xmin && s.y.min <= box.ymax && s.y.max >= box.ymin;
}

// Whether a statistics bounding box (Geospatial.md: xmin > xmax wraps around the
// antimeridian; a NaN bound makes it unusable) may hold a geometry meeting the box.
inline bool StatisticsBoxMayIntersect(double xmin, double xmax, double ymin, double ymax, const QueryBox& box) {
  if (xmin != xmin || xmax != xmax || ymin != ymin || ymax != ymax) return true;
  if (ymin > box.ymax || ymax < box.ymin) return false;
  if (xmin <= xmax) return !(xmin > box.xmax || xmax < box.xmin);
  return box.xmax >= xmin || box.xmin <= xmax;  // [xmin, +inf) or (-inf, xmax]
}

// Summarizes the WKB in bytes[0..size). False with *error saying what is wrong ("truncated
// LineString at byte 9", "unknown geometry type 17") when it is not valid WKB.
bool SummarizeWkb(const uint8_t* bytes, size_t size, WkbSummary* out, std::string* error);

// The GeoParquet name of a type code ("Point", "Polygon Z"); empty for codes with M,
// which GeoParquet 1.x does not name.
std::string GeoParquetTypeName(uint32_t type_code);

}  // namespace parquet
