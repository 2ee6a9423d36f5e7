// Apache Iceberg manifest lists, manifests and scan planning: the manifest list of a
// snapshot (or a v1 snapshot's own manifest list), the entries of each manifest with their
// status and the inheritance of snapshot ids and sequence numbers, data and delete files
// (positional, equality, deletion vectors) with partition values and column metrics, and
// the spec's rules of which delete file applies to which data file (partition and
// sequence number; a deletion vector replaces the position delete files of its data file).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "format/lake/iceberg_metadata.h"

namespace parquet::lake {

struct IcebergFieldSummary {
  bool contains_null = true;
  std::optional<bool> contains_nan;
  std::optional<std::string> lower_bound, upper_bound;  // single-value serialization
};

struct IcebergManifestFile {
  std::string path;  // as written
  int64_t length = 0;
  int32_t spec_id = 0;
  int32_t content = 0;  // 0 data, 1 deletes
  int64_t sequence_number = 0;
  int64_t min_sequence_number = 0;
  int64_t added_snapshot_id = 0;
  int64_t added_files = -1, existing_files = -1, deleted_files = -1;  // -1: not recorded
  int64_t added_rows = -1, existing_rows = -1, deleted_rows = -1;
  std::vector<IcebergFieldSummary> partitions;
  std::optional<int64_t> first_row_id;
};

enum class IcebergContent : int32_t { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };

struct IcebergDataFile {
  int32_t status = 1;  // 0 existing, 1 added, 2 deleted
  int64_t snapshot_id = 0;
  int64_t data_sequence_number = 0;
  int64_t file_sequence_number = 0;
  IcebergContent content = IcebergContent::kData;
  std::string path;           // as written in the manifest
  std::string resolved_path;  // to read (IcebergPathResolver)
  std::string format;         // "PARQUET", "AVRO", "ORC", "PUFFIN"
  int32_t spec_id = 0;
  std::vector<IcebergValue> partition;  // in the spec's field order
  int64_t record_count = 0;
  int64_t file_size = 0;
  std::vector<std::pair<int32_t, int64_t>> value_counts, null_value_counts, nan_value_counts;
  std::vector<std::pair<int32_t, std::string>> lower_bounds, upper_bounds;
  std::vector<int32_t> equality_ids;
  std::optional<std::string> referenced_data_file;
  std::optional<int64_t> content_offset, content_size;
  std::optional<int64_t> first_row_id;
  bool is_deletion_vector() const { return content == IcebergContent::kPositionDeletes && format == "PUFFIN"; }
  const std::string* LowerBound(int32_t field_id) const;
  const std::string* UpperBound(int32_t field_id) const;
  std::optional<int64_t> NullCount(int32_t field_id) const;
  std::optional<int64_t> ValueCount(int32_t field_id) const;
};

// Reads a manifest list (Avro); `format_version` is the table's.
std::vector<IcebergManifestFile> ReadIcebergManifestList(std::string data, const std::string& name,
                                                         int32_t format_version);

// Reads a manifest (Avro) listed as `manifest`, calling `sink` for every entry (DELETED
// ones included: the caller decides) with sequence numbers and snapshot id inherited.
void ReadIcebergManifest(std::string data, const std::string& name, const IcebergManifestFile& manifest,
                         int32_t format_version, const std::function<void(IcebergDataFile&&)>& sink);

// What a scan reads: the live data files of a snapshot, the live delete files, and for each
// data file the delete files that apply to it.
struct IcebergScanPlan {
  const IcebergSnapshot* snapshot = nullptr;
  std::vector<IcebergDataFile> data_files;
  std::vector<IcebergDataFile> delete_files;
  std::vector<std::vector<uint32_t>> deletes_of;  // per data file: indices into delete_files
  std::vector<IcebergManifestFile> data_manifests;  // the data manifests read
  std::vector<uint32_t> manifest_of;               // per data file: index into data_manifests
  uint64_t manifests_read = 0;
  uint64_t manifests_skipped = 0;
  uint64_t files_skipped = 0;
};

struct IcebergPlanOptions {
  // Keep a manifest (from its spec and partition summaries)? Unset: keep all.
  std::function<bool(const IcebergManifestFile&, const IcebergPartitionSpec*)> keep_manifest;
  // Keep a data file (from its partition values and metrics)? Unset: keep all. Delete files
  // are always kept.
  std::function<bool(const IcebergDataFile&, const IcebergPartitionSpec*)> keep_data_file;
  size_t max_manifest_bytes = size_t{1} << 30;
};

// Plans a scan of `snapshot` (nullptr: an empty table): reads its manifest list and
// manifests through `fs`, resolving every path with `resolver`.
IcebergScanPlan PlanIcebergScan(IcebergFileSystem& fs, const IcebergTableMetadata& metadata,
                                const IcebergSnapshot* snapshot, const IcebergPathResolver& resolver,
                                const IcebergPlanOptions& options = {});

// The spec's rules: does `del` apply to `data`? (Partition equality, sequence numbers,
// referenced data file; the "no deletion vector" rule of position delete files is applied by
// PlanIcebergScan across all delete files of a data file.)
bool IcebergDeleteApplies(const IcebergDataFile& data, const IcebergDataFile& del,
                          const IcebergTableMetadata& metadata);

}  // namespace parquet::lake
