// The model every lake-table reader (Delta: delta_log.h; Iceberg) produces and the
// `parquet` table consumes: one snapshot of a table as its columns and its live data files,
// each file with its partition values, its statistics from the table's metadata, and the
// physical row positions deleted from it (deletion vectors, positional deletes). Nothing
// here knows Delta or Iceberg: a reader fills it, ext/table/lake_table.cc reads from it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "format/lake/roaring.h"

namespace parquet::lake {

// The type of a table column, as the table's metadata names it (Delta and Iceberg share
// these primitive types; nested types are kept as their JSON text and read as JSON).
struct LakeType {
  enum class Kind : uint8_t {
    kBoolean, kByte, kShort, kInt, kLong, kFloat, kDouble, kDecimal, kString, kBinary, kDate,
    kTimestamp,     // instant, microseconds, shown in UTC
    kTimestampNtz,  // local date-time, microseconds
    kVariant, kStruct, kArray, kMap,
    kOther,         // a type this reader does not know: read as the files store it
  };
  Kind kind = Kind::kOther;
  int precision = 0;  // kDecimal
  int scale = 0;      // kDecimal
  std::string name;   // the type as the metadata spells it ("decimal(10,2)", or the JSON of a nested type)
  bool nested() const { return kind == Kind::kStruct || kind == Kind::kArray || kind == Kind::kMap || kind == Kind::kVariant; }
};

// A value of a partition or a statistic, typed as the column's SQLite value would be: an
// integer (integers, booleans), a real (floats, decimals) or text (strings, dates as
// "YYYY-MM-DD"). kNone: not known (absent, or of a type the reader does not compare).
struct LakeValue {
  enum class Kind : uint8_t { kNone, kNull, kInteger, kReal, kText };
  Kind kind = Kind::kNone;
  int64_t integer = 0;
  double real = 0;
  std::string text;
  static LakeValue Null() { LakeValue v; v.kind = Kind::kNull; return v; }
  static LakeValue Integer(int64_t i) { LakeValue v; v.kind = Kind::kInteger; v.integer = i; return v; }
  static LakeValue Real(double d) { LakeValue v; v.kind = Kind::kReal; v.real = d; return v; }
  static LakeValue Text(std::string t) { LakeValue v; v.kind = Kind::kText; v.text = std::move(t); return v; }
};

// A top-level column of the table.
struct LakeColumn {
  std::string name;           // the logical name (what SQL sees)
  LakeType type;
  bool nullable = true;
  std::string physical_name;  // the name in the data files (column mapping; = name without it)
  int64_t field_id = -1;      // the Parquet field id (column mapping by id, Iceberg); -1: match by name
  // What a data file without the column reads in every row (Iceberg v3 `initial-default`);
  // kNone: NULL. In the form the Parquet column of the type stores: kInteger for booleans,
  // integers, dates (days), times and timestamps (micro- or nanoseconds, as the type says)
  // and decimals of up to 18 digits (unscaled); kReal for floats; kText for the bytes of
  // strings, binary, fixed, uuid (16 bytes) and wider decimals (big-endian unscaled).
  LakeValue initial_default;
};

// What the metadata says of one column's values in one data file. A bound is a bound, not
// necessarily a value: min <= every non-null value <= max (text bounds may be prefixes:
// min_truncated/max_unusable say what they are worth).
struct LakeColumnStats {
  LakeValue min, max;      // kNone when unknown
  int64_t null_count = -1; // -1: unknown
  bool max_unusable = false;  // a truncated text max (not an upper bound): not used
  // Iceberg bucket[N] partitioning of the column: the bucket of every non-null value (the
  // hash of its Iceberg form, which `bucket_key` names) is in [bucket_lo, bucket_hi], so an
  // = or IN whose values all hash elsewhere matches nothing. bucket_count 0: not known.
  enum class BucketKey : uint8_t { kNone, kInteger, kText, kDate, kTimestamp };
  // kInteger: int/long; kText: string; kDate: date text; kTimestamp: timestamp text (micros)
  BucketKey bucket_key = BucketKey::kNone;
  int32_t bucket_count = 0;
  int32_t bucket_lo = 0, bucket_hi = -1;
};

// The physical row positions deleted from one data file: sorted, disjoint ranges of
// 0-based row positions in the file as stored (not counting earlier deletes).
class DeletedRows {
 public:
  DeletedRows() = default;
  explicit DeletedRows(std::vector<PositionRange> ranges);
  const std::vector<PositionRange>& ranges() const { return ranges_; }
  uint64_t count() const { return count_; }
  bool empty() const { return ranges_.empty(); }
  // The index of the first range that ends after `position` (ranges().size() when none).
  size_t FirstRangeEndingAfter(uint64_t position) const;

 private:
  std::vector<PositionRange> ranges_;
  uint64_t count_ = 0;
};

// Loads the deleted rows of one data file when a scan opens it (a deletion vector in a
// file is read then, not when the log is replayed). Throws ParquetError naming the file
// that holds them when they cannot be read or do not check out.
class DeletedRowsSource {
 public:
  virtual ~DeletedRowsSource() = default;
  // The number of deleted rows the metadata claims (-1: not known); Load checks it.
  virtual int64_t claimed_count() const = 0;
  virtual std::shared_ptr<const DeletedRows> Load() const = 0;
};

// A data file of the snapshot.
struct LakeDataFile {
  std::string path;          // resolved: a local path below the table root, or a URL
  int64_t size = -1;         // bytes, -1 unknown
  int64_t record_count = -1; // physical rows in the file (deleted rows included), -1 unknown
  std::vector<LakeValue> partition_values;  // per LakeSnapshot::partition_columns
  std::vector<LakeColumnStats> stats;       // per LakeSnapshot::columns; empty: none
  std::shared_ptr<const DeletedRowsSource> deleted;  // null: no row deleted
  int32_t group = -1;        // index into LakeSnapshot::file_groups, -1: in none
};

// Data files the metadata summarizes together (an Iceberg manifest, by the partition
// summaries of its manifest list entry): bounds that hold for every file of the group, so
// that a scan skips the whole group when they rule its constraints out.
struct LakeFileGroup {
  std::string name;                     // the manifest, for messages
  std::vector<LakeColumnStats> stats;   // per LakeSnapshot::columns; empty: none
};

// One snapshot (version) of a lake table.
struct LakeSnapshot {
  std::string format;      // "delta", "iceberg"
  std::string root;        // the table's root directory or URL, without a trailing '/'
  int64_t version = -1;    // Delta version / Iceberg sequence number
  int64_t timestamp_ms = 0;
  std::vector<LakeColumn> columns;              // every column, in table order, partition columns included
  std::vector<int> partition_columns;           // indexes into `columns`
  // Column mapping of fields inside nested columns: (physical name, logical name) pairs, so
  // that the JSON of a struct shows its fields' logical names.
  std::vector<std::pair<std::string, std::string>> nested_field_names;
  std::vector<LakeDataFile> files;
  std::vector<LakeFileGroup> file_groups;
};

// One entry of a table's history (parquet_snapshots): a Delta version or an Iceberg
// snapshot. Fields that a format does not have stay at their defaults.
struct LakeHistoryEntry {
  int64_t version = -1;            // Delta version; Iceberg: sequence number
  int64_t snapshot_id = -1;        // Iceberg snapshot id (Delta: = version)
  int64_t parent_id = -1;          // the previous snapshot (-1: none)
  int64_t timestamp_ms = 0;
  std::string operation;           // "WRITE", "DELETE", ... / Iceberg "append", "overwrite", ...
  std::string parameters_json;     // Delta operationParameters / Iceberg summary, as a JSON object
  int64_t files_added = -1, files_removed = -1;  // -1: unknown
  int64_t rows_added = -1, rows_removed = -1;
};

}  // namespace parquet::lake
