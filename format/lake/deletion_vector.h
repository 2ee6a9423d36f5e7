// Deletion vectors: the rows of a data file that are no longer in the table, as a 64-bit
// roaring bitmap of physical row positions. Delta's descriptor (storage inline, in a file
// named by a UUID relative to the table, or at an absolute path; offset, size, cardinality)
// and the framing Delta's .bin files and Iceberg's Puffin deletion-vector-v1 blobs share:
// a big-endian length, the magic bytes D1 D3 39 64, the portable bitmap, a big-endian CRC-32
// of magic and bitmap. Sizes, checksums and cardinalities are all verified.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/lake/lake_snapshot.h"
#include "format/lake/roaring.h"

namespace parquet {
struct RemoteOptions;
}

namespace parquet::lake {

// Bytes a deletion vector may take (decoded).
inline constexpr int64_t kMaxDeletionVectorBytes = int64_t{256} << 20;

// Delta's DeletionVectorDescriptor.
struct DeletionVectorDescriptor {
  char storage_type = 0;           // 'i' inline, 'u' UUID-relative file, 'p' absolute path
  std::string path_or_inline;      // pathOrInlineDv
  std::optional<int64_t> offset;   // in the file ('u', 'p')
  int64_t size_in_bytes = 0;       // of magic + bitmap
  int64_t cardinality = 0;         // rows deleted
  // The id that makes (path, dvId) the key of a logical file: storage type, path or
  // inline data, and "@offset" when there is one.
  std::string UniqueId() const;
};

// The magic number and bitmap (`data`) decoded; `what` names the source in errors.
std::vector<PositionRange> DecodeDeletionVectorData(std::string_view data, const std::string& what);

// length + magic + bitmap + CRC-32 (`framed` holds exactly that) decoded and verified.
std::vector<PositionRange> DecodeFramedDeletionVector(std::string_view framed, const std::string& what);

// The file a 'u' or 'p' descriptor names ('u': below `table_root`, which is a local
// directory or URL without trailing '/'); throws ParquetError when the descriptor is
// malformed. A 'p' path is returned as written (the caller decides whether it may read it).
std::string DeletionVectorFile(const DeletionVectorDescriptor& dv, const std::string& table_root);

// Reads and verifies the deletion vector of `dv` (inline, or from its file through `remote`
// for URLs; may be null); its cardinality must match.
std::vector<PositionRange> ReadDeletionVector(const DeletionVectorDescriptor& dv, const std::string& table_root,
                                              const RemoteOptions* remote);

// A DeletedRowsSource over a Delta descriptor (read when a scan opens the data file).
std::shared_ptr<const DeletedRowsSource> MakeDeltaDeletedRows(DeletionVectorDescriptor dv, std::string table_root,
                                                              std::shared_ptr<const RemoteOptions> remote);

}  // namespace parquet::lake
