// parquet_bbox_intersects: whether a WKB geometry's envelope meets an axis-aligned box.
//
//   parquet_bbox_intersects(geom, xmin, ymin, xmax, ymax)
//   parquet_bbox_intersects(geom, box)   box: TEXT '[xmin, ymin, xmax, ymax]' or a WKB
//                                        BLOB (its envelope)
//
// A plain scalar function everywhere. On a `parquet` table the two-argument form is also a
// constraint the table takes (SQLite hands virtual tables only two-argument functions,
// whereexpr.c): the table's xFindFunction overloads it and returns kBboxConstraintOp, taken
// on BLOB columns (GEOMETRY, GEOGRAPHY, or GeoParquet 1.x's plain WKB), so xBestIndex sees `geom BBOX_INTERSECTS ?` and
// row groups whose GeospatialStatistics box (or GeoParquet covering bbox columns) lies
// outside are skipped (row_group_pruning.h). SQLite still calls the function on every
// row that is read: the table only prunes.
//
// NULL geometry or box: NULL. An empty geometry meets nothing (0). Edges count. Invalid
// WKB or a malformed box is an error.
#pragma once

#include "ext/common/sqlite_api.h"
#include "format/values/wkb.h"

namespace sqlite_parquet {

// SQLITE_INDEX_CONSTRAINT_FUNCTION (SQLite 3.25+): the op xBestIndex sees for the function.
constexpr int kBboxConstraintOp = 150;

// The box of the two-argument form's second argument; false with *error set when it is
// not one (NULL is not a box either).
bool QueryBoxOf(sqlite3_value* value, parquet::QueryBox* box, std::string* error);

// The scalar function, as registered (xFindFunction hands it out for the table).
void BboxIntersectsFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv);

int RegisterBboxFunction(sqlite3* db);

}  // namespace sqlite_parquet
