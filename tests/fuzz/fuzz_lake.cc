// Fuzz target: the lake-table decoders of format/lake/ on arbitrary bytes. The first byte
// picks one: 0 the 64-bit portable roaring bitmap, 1 a framed deletion vector (length,
// magic, bitmap, CRC), 2 Z85 text, 3 the Delta log replay (the rest split into commits at
// NUL bytes, then Finish: protocol, schema, partition values, stats), 4 a Delta schema
// string, 5 a `_delta_log/_last_checkpoint` body. Malformed input must end in ParquetError
// (or, for _last_checkpoint, no version); decoded bitmaps must be ascending, disjoint ranges.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "format/common/error.h"
#include "format/lake/deletion_vector.h"
#include "format/lake/delta_log.h"
#include "format/lake/roaring.h"
#include "format/lake/z85.h"

namespace {

void CheckRanges(const std::vector<parquet::lake::PositionRange>& ranges) {
  for (size_t i = 0; i < ranges.size(); i++) {
    if (ranges[i].begin >= ranges[i].end) abort();
    if (i > 0 && ranges[i].begin <= ranges[i - 1].end) abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 6) {
      case 0: CheckRanges(parquet::lake::DecodeRoaring64(input)); break;
      case 1: CheckRanges(parquet::lake::DecodeFramedDeletionVector(input, "fuzz")); break;
      case 2: {
        // (A padded last group decodes to fewer than 4 bytes: re-encoding the whole groups
        // must give back the text's whole groups.)
        const auto bytes = parquet::lake::DecodeZ85(input);
        if (bytes && bytes->size() % 4 == 0 && parquet::lake::EncodeZ85(*bytes) != input) abort();
        if (bytes && bytes->size() % 4 != 0 &&
            parquet::lake::EncodeZ85(bytes->substr(0, bytes->size() / 4 * 4)) != input.substr(0, input.size() - 5)) {
          abort();
        }
        break;
      }
      case 3: {
        parquet::lake::DeltaLogReplay replay("/table", parquet::lake::DeltaReadOptions());
        size_t start = 0;
        int commit = 0;
        while (start <= input.size()) {
          size_t end = input.find('\0', start);
          if (end == std::string_view::npos) end = input.size();
          replay.AddCommit(input.substr(start, end - start), std::to_string(commit++) + ".json");
          start = end + 1;
        }
        const parquet::lake::LakeSnapshot snapshot = replay.Finish(commit, 0);
        for (const auto& file : snapshot.files) {
          if (file.partition_values.size() != snapshot.partition_columns.size()) abort();
          if (!file.stats.empty() && file.stats.size() != snapshot.columns.size()) abort();
        }
        break;
      }
      case 5: {
        // Never throws; a version it names is one the log listing may be asked to start at.
        const std::optional<int64_t> version = parquet::lake::ParseDeltaLastCheckpoint(input);
        if (version && (*version < 0 || *version > parquet::lake::kMaxDeltaVersion)) abort();
        break;
      }
      default: parquet::lake::ParseDeltaSchema(input, data[0] & 8 ? "name" : "none"); break;
    }
  } catch (const parquet::ParquetError&) {
  }
  return 0;
}
