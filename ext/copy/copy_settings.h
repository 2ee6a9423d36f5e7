// parquet_copy's options (the list is in the manual at the top of parquet_copy.cc) parsed
// into CopySettings: the writer's options and what the copy does around the writer. Column
// names in the options are checked against the query's columns later, by the copy.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ext/copy/copy_schema.h"
#include "ext/copy/copy_sort_check.h"
#include "ext/common/remote_options.h"
#include "format/write/file_writer.h"
#include "format/crypto/secret.h"

namespace sqlite_parquet {

constexpr int64_t kDefaultRowGroupSize = 122880;
constexpr int64_t kDefaultRowGroupBytes = int64_t{128} << 20;

// Everything the options say, checked for syntax (column names are checked against the
// query's columns later).
struct CopySettings {
  parquet::WriterOptions writer;
  int64_t row_group_size = kDefaultRowGroupSize;
  int64_t row_group_bytes = kDefaultRowGroupBytes;
  bool overwrite = true;
  bool null_on_type_error = false;
  bool field_ids = false;
  std::vector<CopyField> schema;
  std::vector<std::string> partition_by;
  bool bloom_all = false;
  std::vector<std::string> bloom_columns;
  std::vector<SortingSpec> sorting;
  std::vector<std::pair<std::string, parquet::Encoding>> encodings;
  // Per column: compression.COL and compression_level.COL, merged by column name.
  struct ColumnCompression {
    std::string name;
    std::optional<parquet::CompressionCodec> codec;
    std::optional<int> level;
  };
  std::vector<ColumnCompression> codecs;
  std::shared_ptr<const parquet::RemoteOptions> remote;  // an s3:// target (copy_remote.h)
  // geometry='col[:crs],...' and geography='col[:crs][:algorithm],...': WKB columns.
  struct GeoColumn {
    std::string name;
    CopyKind kind = CopyKind::kGeometry;  // or kGeography
    std::optional<std::string> crs;
    parquet::EdgeInterpolationAlgorithm edges = parquet::EdgeInterpolationAlgorithm::SPHERICAL;
  };
  std::vector<GeoColumn> geo_columns;
  std::vector<std::string> variant_columns;  // variant='col,...': JSON text written as VARIANT
  // shredding='auto' (shred_all_auto) or 'col:shape,...' (copy_schema.h ParseShreddingOption).
  bool shred_all_auto = false;
  std::vector<ShreddingSpec> shredding;
  // geoparquet_version=: the `geo` metadata and whether geometry columns are annotated
  // (v1: plain BYTE_ARRAY + geo 1.0.0; v2: GEOMETRY + geo 2.0.0; both: GEOMETRY + geo
  // 1.0.0; none: GEOMETRY, no geo).
  enum class GeoParquetVersion { kNone, kV1, kV2, kBoth };
  GeoParquetVersion geoparquet_version = GeoParquetVersion::kBoth;
  // Output rollover: a file is closed at the first row-group boundary where it holds this
  // many bytes / row groups (0: no limit); either makes the output a directory of files.
  int64_t file_size_bytes = 0;
  int64_t row_groups_per_file = 0;
  // Names of the output files in a directory output, without ".parquet": {i} the file's
  // number within its directory, {uuid} a random UUIDv4.
  std::string filename_pattern = "part-{i}";
  bool append = false;        // add files to an existing directory output
  bool return_stats = false;  // return a JSON report of the files instead of the row count
  bool verify = false;        // read every file back and check it before publishing

  bool rollover() const { return file_size_bytes > 0 || row_groups_per_file > 0; }
  // Whether the output is a directory of files rather than one file.
  bool directory_output() const { return !partition_by.empty() || rollover(); }
};

// Parses parquet_copy's option arguments into *settings; throws CopyError naming the bad
// option (never a key's value).
void ParseSettings(const std::vector<parquet::SecretString>& arguments, CopySettings* settings);

}  // namespace sqlite_parquet
