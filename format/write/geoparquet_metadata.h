// The GeoParquet `geo` key/value metadata (https://geoparquet.org, versions 1.0.0 and
// 2.0.0 share the fields written here): for each geometry column its encoding (WKB), the
// geometry types seen ("Point", "Polygon Z"; an empty list when some value has M, which
// 1.x does not name), the 2D bounding box of the file [xmin, ymin, xmax, ymax] (left out
// when no value has coordinates), the CRS (PROJJSON given as the column's crs; another
// crs text is written as null, "unknown", since `geo` holds only PROJJSON; no crs: the
// default OGC:CRS84, left out) and, for GEOGRAPHY, "edges": "spherical". The first
// geometry column is the primary one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "format/write/geospatial_statistics.h"

namespace parquet {

struct GeoParquetColumn {
  int leaf_column = 0;             // its leaf column in the file's schema
  std::string name;                // its top-level field name
  std::optional<std::string> crs;  // as given by the writer's user (nullopt: OGC:CRS84)
  bool spherical = false;          // GEOGRAPHY with spherical edges
};

struct GeoParquetOptions {
  std::string version;  // "1.0.0" or "2.0.0"; empty: no `geo` metadata
  std::vector<GeoParquetColumn> columns;
};

// The JSON text of the `geo` value; summaries[i] is what was written to columns[i].
std::string GeoParquetMetadataJson(const GeoParquetOptions& options, const std::vector<GeospatialAccumulator>& summaries);

}  // namespace parquet
