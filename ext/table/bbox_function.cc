// parquet_bbox_intersects (bbox_function.h).
#include "ext/table/bbox_function.h"

#include <cstdlib>
#include <string>

#include "format/values/json_document.h"

namespace sqlite_parquet {

namespace {

bool SummarizeValue(sqlite3_value* value, parquet::WkbSummary* summary, std::string* error) {
  const auto* bytes = static_cast<const uint8_t*>(sqlite3_value_blob(value));
  const int size = sqlite3_value_bytes(value);
  return parquet::SummarizeWkb(bytes, static_cast<size_t>(size), summary, error);
}

bool BoxFromNumbers(double xmin, double ymin, double xmax, double ymax, parquet::QueryBox* box, std::string* error) {
  if (!(xmin <= xmax) || !(ymin <= ymax)) {  // also NaN
    *error = "the box needs xmin <= xmax and ymin <= ymax";
    return false;
  }
  *box = parquet::QueryBox{xmin, ymin, xmax, ymax};
  return true;
}

bool IsNumber(sqlite3_value* value) {
  const int type = sqlite3_value_type(value);
  return type == SQLITE_INTEGER || type == SQLITE_FLOAT;
}

}  // namespace

bool QueryBoxOf(sqlite3_value* value, parquet::QueryBox* box, std::string* error) {
  const int type = sqlite3_value_type(value);
  if (type == SQLITE_BLOB) {
    parquet::WkbSummary summary;
    if (!SummarizeValue(value, &summary, error)) {
      *error = "invalid WKB box: " + *error;
      return false;
    }
    if (summary.empty()) {
      *error = "the box geometry is empty";
      return false;
    }
    return BoxFromNumbers(summary.x.min, summary.y.min, summary.x.max, summary.y.max, box, error);
  }
  if (type == SQLITE_TEXT) {
    const std::string text(reinterpret_cast<const char*>(sqlite3_value_text(value)),
                           static_cast<size_t>(sqlite3_value_bytes(value)));
    parquet::JsonDocument document;
    double numbers[4];
    int count = 0;
    bool ok = document.Parse(text, error) && document.root().kind == parquet::JsonNode::Kind::kArray;
    for (int32_t child = ok ? document.root().first_child : -1; ok && child >= 0;
         child = document.node(child).next_sibling) {
      const parquet::JsonNode& node = document.node(child);
      ok = node.kind == parquet::JsonNode::Kind::kNumber && count < 4;
      if (ok) numbers[count++] = std::strtod(std::string(node.text).c_str(), nullptr);
    }
    if (!ok || count != 4) {
      *error = "the box must be a JSON array [xmin, ymin, xmax, ymax] or a WKB geometry";
      return false;
    }
    return BoxFromNumbers(numbers[0], numbers[1], numbers[2], numbers[3], box, error);
  }
  *error = "the box must be a JSON array [xmin, ymin, xmax, ymax] or a WKB geometry";
  return false;
}

void BboxIntersectsFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  for (int i = 0; i < argc; i++) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return;  // NULL
  }
  std::string error;
  parquet::QueryBox box;
  bool ok;
  if (argc == 5) {
    ok = IsNumber(argv[1]) && IsNumber(argv[2]) && IsNumber(argv[3]) && IsNumber(argv[4]);
    if (!ok) error = "xmin, ymin, xmax and ymax must be numbers";
    ok = ok && BoxFromNumbers(sqlite3_value_double(argv[1]), sqlite3_value_double(argv[2]),
                              sqlite3_value_double(argv[3]), sqlite3_value_double(argv[4]), &box, &error);
  } else {
    ok = QueryBoxOf(argv[1], &box, &error);
  }
  if (!ok) {
    sqlite3_result_error(ctx, ("parquet_bbox_intersects: " + error).c_str(), -1);
    return;
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
    sqlite3_result_error(ctx, "parquet_bbox_intersects: the geometry must be a WKB BLOB", -1);
    return;
  }
  parquet::WkbSummary summary;
  if (!SummarizeValue(argv[0], &summary, &error)) {
    sqlite3_result_error(ctx, ("parquet_bbox_intersects: invalid WKB: " + error).c_str(), -1);
    return;
  }
  sqlite3_result_int(ctx, parquet::EnvelopeIntersects(summary, box) ? 1 : 0);
}

int RegisterBboxFunction(sqlite3* db) {
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int rc = sqlite3_create_function_v2(db, "parquet_bbox_intersects", 2, flags, nullptr, BboxIntersectsFunction,
                                      nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "parquet_bbox_intersects", 5, flags, nullptr, BboxIntersectsFunction,
                                    nullptr, nullptr, nullptr);
  }
  return rc;
}

}  // namespace sqlite_parquet
