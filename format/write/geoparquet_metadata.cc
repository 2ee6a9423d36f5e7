// The `geo` metadata text of geoparquet_metadata.h.
#include "format/write/geoparquet_metadata.h"

#include "format/values/json_document.h"
#include "format/values/json_text.h"

namespace parquet {

namespace {

// Whether `crs` is a JSON object (PROJJSON), which `geo` can hold as it is.
bool IsProjJson(const std::string& crs) {
  JsonDocument document;
  std::string error;
  return !crs.empty() && crs.front() == '{' && document.Parse(crs, &error);
}

void AppendColumn(const GeoParquetColumn& column, const GeospatialAccumulator& summary, std::string* out) {
  AppendJsonString(column.name, out);
  *out += ":{\"encoding\":\"WKB\",\"geometry_types\":[";
  bool named_all = true;
  std::string names;
  for (int32_t code : summary.types()) {
    const std::string name = GeoParquetTypeName(static_cast<uint32_t>(code));
    if (name.empty()) {
      named_all = false;
      break;
    }
    if (!names.empty()) names += ',';
    AppendJsonString(name, &names);
  }
  if (named_all) *out += names;
  *out += ']';
  if (!summary.x().empty() && !summary.y().empty()) {
    *out += ",\"bbox\":[";
    AppendJsonDouble(summary.x().min, out);
    *out += ',';
    AppendJsonDouble(summary.y().min, out);
    *out += ',';
    AppendJsonDouble(summary.x().max, out);
    *out += ',';
    AppendJsonDouble(summary.y().max, out);
    *out += ']';
  }
  if (column.crs.has_value()) {
    *out += ",\"crs\":";
    *out += IsProjJson(*column.crs) ? *column.crs : std::string("null");
  }
  if (column.spherical) *out += ",\"edges\":\"spherical\"";
  *out += '}';
}

}  // namespace

std::string GeoParquetMetadataJson(const GeoParquetOptions& options, const std::vector<GeospatialAccumulator>& summaries) {
  std::string out = "{\"version\":";
  AppendJsonString(options.version, &out);
  out += ",\"primary_column\":";
  AppendJsonString(options.columns.empty() ? std::string() : options.columns.front().name, &out);
  out += ",\"columns\":{";
  for (size_t i = 0; i < options.columns.size(); i++) {
    if (i > 0) out += ',';
    AppendColumn(options.columns[i], i < summaries.size() ? summaries[i] : GeospatialAccumulator(), &out);
  }
  out += "}}";
  return out;
}

}  // namespace parquet
