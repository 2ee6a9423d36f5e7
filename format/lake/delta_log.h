// Delta Lake tables (PROTOCOL.md of delta-io/delta): the transaction log `_delta_log/`
// replayed into a LakeSnapshot (lake_snapshot.h) of one version, and the table's history.
//
// The pipeline, one step per function of delta_log.cc:
//   1. ListLog: the names of _delta_log/ sorted into commits (N.json), checkpoints (classic
//      N.checkpoint.parquet, multi-part N.checkpoint.o.p.parquet, v2 N.checkpoint.UUID.json
//      or .parquet) and the rest (ignored: .crc, compacted logs, _last_checkpoint);
//   2. the newest complete checkpoint at or before the wanted version (a complete listing
//      needs no _last_checkpoint; a multi-part checkpoint with a missing part is skipped).
//      Over S3 (LakeStorage::remote) _last_checkpoint is read first and the log listed from
//      the version it names on (start-after), unless that listing lacks a complete
//      checkpoint at or after it (a missing, malformed, stale or future hint: the whole log
//      is listed); a local listing is whole and _last_checkpoint is not read;
//   3. the checkpoint read (Parquet with format/read, or JSON; v2 `sidecar` actions followed
//      into _delta_log/_sidecars/), then the JSON commits after it, which must be
//      contiguous up to the wanted version;
//   4. DeltaLogReplay: add/remove reconciled by (canonical path, deletion-vector id), removes
//      of a commit before its adds; the latest metaData and protocol;
//   5. Finish: the protocol check (reader version 1-3; reader features columnMapping,
//      deletionVectors, timestampNtz, typeWidening, v2Checkpoint, vacuumProtocolCheck,
//      variantType and their -preview names; any other is an error naming it), the schema
//      with column mapping (name or id), partition values typed, `stats` parsed into
//      bounds, paths resolved and confined to the table root.
// Every file, line and count is bounded; a malformed log is a ParquetError naming the file.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/lake/deletion_vector.h"
#include "format/lake/lake_snapshot.h"
#include "format/lake/lake_storage.h"

namespace parquet {
struct RemoteOptions;
}

namespace parquet::lake {

inline constexpr size_t kMaxDeltaLogEntries = 1000000;      // names listed in _delta_log/
inline constexpr size_t kMaxDeltaCommitBytes = 256u << 20;  // one JSON commit or checkpoint
inline constexpr size_t kMaxDeltaFiles = 10000000;          // live files of a snapshot
inline constexpr size_t kMaxDeltaColumns = 10000;
inline constexpr size_t kMaxLastCheckpointBytes = 1u << 20;  // _delta_log/_last_checkpoint
inline constexpr int64_t kMaxDeltaVersion = int64_t{1} << 62;  // a log file naming more is an error

struct DeltaReadOptions {
  std::optional<int64_t> version;       // the version to read (default: the latest)
  std::optional<int64_t> timestamp_ms;  // the last version committed at or before it
  bool allow_external_paths = false;    // data files outside the table root may be read
  std::shared_ptr<const RemoteOptions> remote;  // deletion vectors at URLs
};

// Whether `root` holds a `_delta_log` directory.
bool IsDeltaTable(LakeStorage& storage, const std::string& root);

// The snapshot of the Delta table at `root` (a directory, without trailing '/').
LakeSnapshot ReadDeltaSnapshot(LakeStorage& storage, const std::string& root, const DeltaReadOptions& options);

// One entry per commit file of the log, oldest first.
std::vector<LakeHistoryEntry> ReadDeltaHistory(LakeStorage& storage, const std::string& root);

// The checkpoint version a `_delta_log/_last_checkpoint` body names: nullopt when it is
// not a JSON object whose "version" is an integer from 0 to kMaxDeltaVersion (missing,
// negative, fractional, overflowing, truncated JSON...). Its other fields ("parts", "size",
// "sizeInBytes", "checkpointSchema") are not used: the listing of _delta_log/ decides which
// checkpoint files exist and are complete.
std::optional<int64_t> ParseDeltaLastCheckpoint(std::string_view text);

// The replay of actions (step 4 and 5 above), fed by ReadDeltaSnapshot; the fuzz target
// feeds it directly.
class DeltaLogReplay {
 public:
  DeltaLogReplay(std::string root, DeltaReadOptions options);
  ~DeltaLogReplay();
  // The actions of one commit (newline-delimited JSON). `source` names it in errors.
  void AddCommit(std::string_view text, const std::string& source);
  // One action of a checkpoint (a JSON object: {"add": {...}}, {"metaData": ...}, ...);
  // removes of a checkpoint are tombstones and ignored. Sidecar actions are returned.
  void AddCheckpointAction(std::string_view json, const std::string& source, std::vector<std::string>* sidecars);
  LakeSnapshot Finish(int64_t version, int64_t timestamp_ms);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// `text` (a Delta schemaString) parsed into columns, with the column-mapping mode
// ("none", "name", "id") deciding physical names and field ids. Throws ParquetError.
// *nested_names (when given) receives the (physical, logical) names of fields inside nested
// columns that column mapping renamed.
std::vector<LakeColumn> ParseDeltaSchema(std::string_view text, const std::string& mapping_mode,
                                         std::vector<std::pair<std::string, std::string>>* nested_names = nullptr);

}  // namespace parquet::lake
