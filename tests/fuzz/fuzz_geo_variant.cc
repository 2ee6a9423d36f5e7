// Fuzz target: the value encoders and parsers parquet_copy's GEOMETRY and VARIANT columns
// use. The first input byte picks: even, the rest is WKB for SummarizeWkb (format/values/
// wkb.h), and what it accepts goes through GeospatialAccumulator; odd, the rest is JSON text
// for EncodeJsonAsVariant (format/values/variant_encoder.h).
//
// What must hold: no crash or sanitizer report; an accepted geometry's envelope is ordered
// (min <= max) or empty in every dimension and its type code is 1..7 plus 0/1000/2000/3000;
// the statistics' box holds the envelope; JSON that encodes decodes (variant.h) to JSON
// that encodes to a variant decoding to that same JSON again; the encoded variant, shredded
// (variant_shredding.h) as the chooser picks from it and as a fixed object/array shredding,
// gives every leaf exactly one row-starting entry, levels within the leaf's maxima, and a
// value exactly at the maximum definition level.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "format/common/error.h"
#include "format/values/variant.h"
#include "format/values/variant_encoder.h"
#include "format/values/variant_shredding.h"
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

void CheckShreddings(const std::string& metadata, const std::string& value);

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
  CheckShreddings(metadata, value);
  std::string metadata2, value2;
  if (!parquet::EncodeJsonAsVariant(decoded, &metadata2, &value2, &error)) Fail("decoded JSON that does not parse");
  // The decoded text is a fixed point: encoded again it decodes to itself. (Not the same
  // bytes: a double printed without exponent, "0.5", encodes as a decimal; NaN and
  // infinities print as null.)
  std::string again;
  parquet::VariantMetadata parsed2(reinterpret_cast<const uint8_t*>(metadata2.data()), metadata2.size());
  parquet::AppendVariantJson(parsed2, reinterpret_cast<const uint8_t*>(value2.data()), value2.size(), &again);
  if (again != decoded) Fail("decoded JSON encodes to a variant that decodes to other JSON");
}

// Checks the entries ShreddedVariantWriter gives for one row.
class CheckingSink : public parquet::VariantLeafSink {
 public:
  explicit CheckingSink(const std::vector<parquet::VariantLeaf>& leaves) : leaves_(leaves), starts_(leaves.size(), 0) {}
  void Level(int leaf, int16_t def, int16_t rep) override { Entry(leaf, def, rep, false); }
  void Boolean(int leaf, int16_t def, int16_t rep, bool) override { Entry(leaf, def, rep, true); }
  void Int32(int leaf, int16_t def, int16_t rep, int32_t) override { Entry(leaf, def, rep, true); }
  void Int64(int leaf, int16_t def, int16_t rep, int64_t) override { Entry(leaf, def, rep, true); }
  void Double(int leaf, int16_t def, int16_t rep, double) override { Entry(leaf, def, rep, true); }
  void Bytes(int leaf, int16_t def, int16_t rep, const uint8_t*, size_t) override { Entry(leaf, def, rep, true); }
  void CheckRow() const {
    for (int starts : starts_) {
      if (starts != 1) Fail("a shredded leaf without exactly one entry starting the row");
    }
  }

 private:
  void Entry(int leaf, int16_t def, int16_t rep, bool value) {
    if (leaf < 0 || static_cast<size_t>(leaf) >= leaves_.size()) Fail("a shredded entry for no leaf");
    const parquet::VariantLeaf& layout = leaves_[static_cast<size_t>(leaf)];
    if (def < 0 || def > layout.max_definition_level || rep < 0 || rep > layout.max_repetition_level) {
      Fail("a shredded level beyond the leaf's maximum");
    }
    if (value != (def == layout.max_definition_level)) Fail("a shredded value not at the maximum definition level");
    if (rep == 0) ++starts_[static_cast<size_t>(leaf)];
  }
  const std::vector<parquet::VariantLeaf>& leaves_;
  std::vector<int> starts_;
};

void CheckShredding(const parquet::VariantShredding* shredding, const std::string& metadata, const std::string& value) {
  parquet::ShreddedVariantWriter writer(shredding);
  CheckingSink sink(writer.leaves());
  try {
    writer.Write(metadata, value, &sink);
  } catch (const parquet::ParquetError&) {
    Fail("an encoded variant the shredding writer refuses");
  }
  sink.CheckRow();
}

void CheckShreddings(const std::string& metadata, const std::string& value) {
  parquet::VariantShreddingChooser chooser;
  chooser.Add(metadata, value);
  const std::optional<parquet::VariantShredding> chosen = chooser.Choose();
  if (chosen) CheckShredding(&*chosen, metadata, value);
  parquet::VariantShredding fixed;  // {a:INT64,b:[{c:STRING}],d:DECIMAL(9,2)}
  fixed.kind = parquet::VariantShredding::Kind::kObject;
  parquet::VariantShredding a, b, c, d, element;
  a.kind = parquet::VariantShredding::Kind::kInt64;
  c.kind = parquet::VariantShredding::Kind::kString;
  element.kind = parquet::VariantShredding::Kind::kObject;
  element.fields = {{"c", c}};
  b.kind = parquet::VariantShredding::Kind::kArray;
  b.element = {element};
  d.kind = parquet::VariantShredding::Kind::kDecimal;
  d.precision = 9;
  d.scale = 2;
  fixed.fields = {{"a", a}, {"b", b}, {"d", d}};
  CheckShredding(&fixed, metadata, value);
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
