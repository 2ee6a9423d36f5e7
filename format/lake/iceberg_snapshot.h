// An Apache Iceberg table read into the common lake-snapshot model (lake_snapshot.h): the
// table found (a directory with metadata/, or a .metadata.json file), the snapshot chosen
// (current, snapshot id, timestamp, ref), its scan planned (iceberg_manifest.h), each live
// data file with its column statistics and the rows its delete files remove (deletion
// vectors, positional delete files, equality delete files: the rows whose key columns equal
// a deleted key, NULLs equal), and the table's history for parquet_snapshots.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "format/lake/iceberg_manifest.h"
#include "format/lake/lake_snapshot.h"
#include "format/lake/lake_storage.h"

namespace parquet::lake {

struct IcebergReadOptions {
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> timestamp_ms;
  std::optional<std::string> ref;
  bool allow_moved_paths = false;
  bool allow_external_paths = false;
  // For a table on s3:// (credentials, endpoint): the deleted rows are read through it too.
  std::shared_ptr<const RemoteOptions> remote;
};

// Whether `path` names an Iceberg table: a .metadata.json (.gz) file, or a directory whose
// metadata/ holds version-hint.text or a *.metadata.json file.
bool IsIcebergTable(LakeStorage& storage, const std::string& path);

// The snapshot the options choose, as a LakeSnapshot (format "iceberg", version: the
// snapshot's sequence number). Throws ParquetError naming the table on any problem.
LakeSnapshot ReadIcebergSnapshot(LakeStorage& storage, const std::string& path, const IcebergReadOptions& options);

// Every snapshot of the table, oldest first (parquet_snapshots).
std::vector<LakeHistoryEntry> ReadIcebergHistory(LakeStorage& storage, const std::string& path);

// A top-level field's v3 initial-default in the lake model's form (LakeColumn::
// initial_default); kNone when it has none or is of a type without one here (nested,
// geometry). Throws ParquetError naming `file` when it does not fit the field's type.
LakeValue IcebergInitialDefault(const IcebergField& field, const std::string& file);

// The Iceberg type of a column as the lake model's type.
LakeType IcebergLakeType(const IcebergField& field);

// An IcebergFileSystem over a LakeStorage.
std::unique_ptr<IcebergFileSystem> IcebergFileSystemOver(LakeStorage& storage);

// The rows of `data_path` (the data file as the manifests name it, `resolved` to read) that
// the given delete files remove: positions of deletion vectors and position delete files,
// and rows matching an equality delete file's keys (columns by field id, `schema` for the
// names of files without ids). Sorted, disjoint ranges.
std::vector<PositionRange> IcebergDeletedPositions(LakeStorage& storage, const std::string& data_path,
                                                   const std::string& resolved, const std::vector<IcebergDataFile>& deletes,
                                                   const IcebergSchema& schema);

}  // namespace parquet::lake
