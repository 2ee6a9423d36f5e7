// Fuzz target: the value encoders and parsers parquet_copy's GEOMETRY and VARIANT columns
// use. The first input byte picks: even, the rest is WKB for SummarizeWkb (format/values/
// wkb.h), and what it accepts goes through GeospatialAccumulator; odd, the rest is JSON text
// for EncodeJsonAsVariant (format/values/variant_encoder.h).
//
// What must hold: no crash or sanitizer report; an accepted geometry's envelope is ordered
// (min <= max) or empty in every dimension and its type code is 1..7 plus 0/1000/2000/3000;
// the statistics' box holds the envelope; JSON that encodes decodes (variant.h) to JSON
// that encodes again to the same metadata and value bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "format/common/error.h"
#include "format/values/variant.h"
#include "format/values/variant_encoder.h"
#include "format/values/wkb.h"
#include "format/write/geospatial_statistics.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_geo_variant: %s\n", what);
  std::abort();
}

void CheckRange(const parquet::WkbRange& range) {
  if (!range.empty() && !(range.min <= range.max)) Fail("an unordered range");
}

void CheckWkb(const uint8_t* data, size_t size) {
  parquet::WkbSummary summary;
  std::string error;
  if (!parquet::SummarizeWkb(data, size, &summary, &error)) {
    if (error.empty()) Fail("a refusal without a reason");
    return;
  }
  const uint32_t base = summary.type_code % 1000, dims = summary.type_code / 1000;
  if (base < 1 || base > 7 || dims > 3) Fail("an accepted type code out of range");
  CheckRange(summary.x);
  CheckRange(summary.y);
  CheckRange(summary.z);
  CheckRange(summary.m);
  parquet::GeospatialAccumulator accumulator;
  accumulator.Add(summary);
  const auto statistics = accumulator.Build(true);
  if (!statistics) Fail("no statistics for a value");
  if (summary.empty() != !statistics->bbox.has_value()) Fail("a box for an empty geometry, or none for coordinates");
  if (statistics->bbox && (statistics->bbox->xmin > summary.x.min || statistics->bbox->ymax < summary.y.max)) {
    Fail("a box that does not hold the envelope");
  }
}

void CheckVariant(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  std::string metadata, value, error;
  if (!parquet::EncodeJsonAsVariant(json, &metadata, &value, &error)) return;
  std::string decoded;
  try {
    parquet::VariantMetadata parsed(reinterpret_cast<const uint8_t*>(metadata.data()), metadata.size());
    parquet::AppendVariantJson(parsed, reinterpret_cast<const uint8_t*>(value.data()), value.size(), &decoded);
  } catch (const parquet::ParquetError&) {
    Fail("an encoded variant the decoder refuses");
  }
  std::string metadata2, value2;
  if (!parquet::EncodeJsonAsVariant(decoded, &metadata2, &value2, &error)) Fail("decoded JSON that does not parse");
  // Doubles print in their shortest form and read back as the same double; NaN and
  // infinities (1e999) print as null, so only texts without them must re-encode equal.
  if (decoded.find("null") == std::string::npos && (metadata2 != metadata || value2 != value)) {
    Fail("decoded JSON encodes to other bytes");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0) {
    CheckWkb(data + 1, size - 1);
  } else {
    CheckVariant(data + 1, size - 1);
  }
  return 0;
}
