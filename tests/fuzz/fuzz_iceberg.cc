// Fuzz target: the Iceberg metadata readers of format/lake/ on one input: the Avro container
// decoder (every record decoded and its value tree walked), the Iceberg manifest list and
// manifest readers on the same bytes, metadata.json (gzip too) and its fields' v3
// initial-default values, partition values projected through every transform, Puffin
// footers and blobs,
// and the deletion-vector-v1 envelope. Malformed input must end in ParquetError, never a
// crash, a hang or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "format/common/error.h"
#include "format/lake/avro.h"
#include "format/lake/iceberg_manifest.h"
#include "format/lake/iceberg_metadata.h"
#include "format/lake/iceberg_snapshot.h"
#include "format/lake/puffin.h"

namespace {

// Walks every value of the current record: children links must stay in range.
void Walk(const parquet::lake::AvroFileReader& r, int32_t v, int depth) {
  if (depth > 200) abort();  // the decoder bounds nesting at 64
  const parquet::lake::AvroValue& value = r.value(v);
  uint32_t children = 0;
  for (int32_t c = value.first_child; c >= 0; c = r.value(c).next_sibling) {
    Walk(r, c, depth + 1);
    ++children;
  }
  if (value.kind == parquet::lake::AvroKind::kMap) {
    if (children != 2 * value.count) abort();
  } else if (children != value.count) {
    abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    parquet::lake::AvroFileReader r(bytes, "fuzz.avro");
    int records = 0;
    while (r.Next() && records++ < 100000) Walk(r, r.root(), 0);
  } catch (const parquet::ParquetError&) {
  }
  try {
    parquet::lake::ReadIcebergManifestList(bytes, "fuzz.avro", 2);
  } catch (const parquet::ParquetError&) {
  }
  try {
    parquet::lake::IcebergManifestFile manifest;
    manifest.content = size > 0 && (data[size - 1] & 1) ? 1 : 0;
    const int32_t width = static_cast<int32_t>(size % 1000) - 10;  // truncate widths, some not positive
    parquet::lake::ReadIcebergManifest(bytes, "fuzz.avro", manifest, 2, [width](parquet::lake::IcebergDataFile&& f) {
      if (f.record_count < 0 || f.file_size < 0) abort();
      // Each partition value projected back through every transform (the pruning of
      // iceberg_snapshot.cc): a range found is never empty, a string's bound is above it.
      using Kind = parquet::lake::IcebergTransform::Kind;
      for (const parquet::lake::IcebergValue& v : f.partition) {
        if (v.kind == parquet::lake::IcebergValue::Kind::kBytes) {
          const std::optional<std::string> above = parquet::lake::IcebergPrefixUpperBound(v.bytes);
          if (above && !(*above > v.bytes)) abort();
        }
        if (v.kind != parquet::lake::IcebergValue::Kind::kInteger) continue;
        for (Kind kind : {Kind::kYear, Kind::kMonth, Kind::kDay, Kind::kHour, Kind::kTruncate, Kind::kBucket}) {
          parquet::lake::IcebergTransform t;
          t.kind = kind;
          t.parameter = width;
          for (int source = 0; source < 3; source++) {
            int64_t lo = 0, hi = 0;
            if (parquet::lake::IcebergTransformRange(t, source == 0, source == 2, v.integer, &lo, &hi) && lo > hi) abort();
          }
        }
      }
    });
  } catch (const parquet::ParquetError&) {
  }
  try {
    const parquet::lake::IcebergTableMetadata m =
        parquet::lake::ParseIcebergMetadata(parquet::lake::MaybeGunzipMetadata(bytes, "fuzz"), "fuzz.metadata.json");
    parquet::lake::IcebergSnapshotSelector selector;
    parquet::lake::SelectIcebergSnapshot(m, selector);
    for (const auto& spec : m.specs) {
      for (const auto& field : spec.fields) {
        if (field.transform.kind == parquet::lake::IcebergTransform::Kind::kBucket && field.transform.parameter <= 0) abort();
      }
    }
    // Every top-level field's v3 initial-default, each parsed on its own (a bad one is an error).
    for (const auto& schema : m.schemas) {
      for (const auto& field : schema.fields) {
        try {
          const parquet::lake::LakeValue v = parquet::lake::IcebergInitialDefault(field, "fuzz.metadata.json");
          if (v.kind == parquet::lake::LakeValue::Kind::kText && v.text.size() > bytes.size()) abort();
        } catch (const parquet::ParquetError&) {
        }
      }
    }
  } catch (const parquet::ParquetError&) {
  }
  try {
    const parquet::lake::PuffinFooter footer = parquet::lake::ParsePuffinFooter(bytes, "fuzz.puffin");
    for (const auto& blob : footer.blobs) {
      const std::string blob_data = parquet::lake::PuffinBlobData(bytes, blob, "fuzz.puffin");
      try {
        parquet::lake::DeletionVectorBitmap(blob_data, "fuzz.puffin");
      } catch (const parquet::ParquetError&) {
      }
    }
  } catch (const parquet::ParquetError&) {
  }
  try {
    parquet::lake::DeletionVectorBitmap(bytes, "fuzz.bin");
  } catch (const parquet::ParquetError&) {
  }
  return 0;
}
