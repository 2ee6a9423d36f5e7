// Tests of the WKB walker (format/values/wkb.h) and the GeospatialStatistics gathering
// (format/write/geospatial_statistics.h): envelopes per dimension, type codes, both byte
// orders, the spec's empty geometries, and rejection of malformed WKB (every truncation).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "format/values/wkb.h"
#include "format/write/geospatial_statistics.h"

namespace {

// Builds WKB in either byte order.
class WkbBuilder {
 public:
  explicit WkbBuilder(bool little = true) : little_(little) {}
  WkbBuilder& Header(uint32_t code) {
    bytes_.push_back(little_ ? 1 : 0);
    return UInt32(code);
  }
  WkbBuilder& UInt32(uint32_t value) {
    for (int i = 0; i < 4; i++) bytes_.push_back(static_cast<uint8_t>(value >> (8 * (little_ ? i : 3 - i))));
    return *this;
  }
  WkbBuilder& Double(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    for (int i = 0; i < 8; i++) bytes_.push_back(static_cast<uint8_t>(bits >> (8 * (little_ ? i : 7 - i))));
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  bool little_;
  std::vector<uint8_t> bytes_;
};

bool Summarize(const std::vector<uint8_t>& bytes, parquet::WkbSummary* out, std::string* error = nullptr) {
  std::string ignored;
  return parquet::SummarizeWkb(bytes.data(), bytes.size(), out, error != nullptr ? error : &ignored);
}

}  // namespace

TEST_CASE("wkb: points and lines in both byte orders") {
  for (bool little : {true, false}) {
    parquet::WkbSummary s;
    REQUIRE(Summarize(WkbBuilder(little).Header(1).Double(1.5).Double(-2).bytes(), &s));
    CHECK(s.type_code == 1);
    CHECK(s.x.min == 1.5);
    CHECK(s.x.max == 1.5);
    CHECK(s.y.min == -2);
    CHECK(s.z.empty());
    REQUIRE(Summarize(WkbBuilder(little).Header(2).UInt32(3).Double(0).Double(5).Double(-3).Double(1).Double(7).Double(2).bytes(), &s));
    CHECK(s.type_code == 2);
    CHECK(s.x.min == -3);
    CHECK(s.x.max == 7);
    CHECK(s.y.min == 1);
    CHECK(s.y.max == 5);
  }
}

TEST_CASE("wkb: Z, M and ZM coordinates go to their ranges") {
  parquet::WkbSummary s;
  REQUIRE(Summarize(WkbBuilder().Header(1001).Double(1).Double(2).Double(3).bytes(), &s));
  CHECK(s.type_code == 1001);
  CHECK(s.z.min == 3);
  CHECK(s.m.empty());
  REQUIRE(Summarize(WkbBuilder().Header(2001).Double(1).Double(2).Double(4).bytes(), &s));
  CHECK(s.z.empty());
  CHECK(s.m.max == 4);
  REQUIRE(Summarize(WkbBuilder().Header(3002).UInt32(2).Double(1).Double(2).Double(3).Double(4)
                        .Double(5).Double(6).Double(-7).Double(8).bytes(), &s));
  CHECK(s.z.min == -7);
  CHECK(s.z.max == 3);
  CHECK(s.m.min == 4);
  CHECK(s.m.max == 8);
}

TEST_CASE("wkb: polygons, multi geometries and collections") {
  parquet::WkbSummary s;
  // Polygon with two rings.
  WkbBuilder polygon;
  polygon.Header(3).UInt32(2).UInt32(2).Double(0).Double(0).Double(10).Double(10).UInt32(1).Double(-1).Double(20);
  REQUIRE(Summarize(polygon.bytes(), &s));
  CHECK(s.x.min == -1);
  CHECK(s.y.max == 20);
  // MultiPoint of two points in different byte orders; a collection holding it and a line.
  WkbBuilder multi;
  multi.Header(4).UInt32(2);
  std::vector<uint8_t> bytes = multi.bytes();
  for (const auto& member : {WkbBuilder(true).Header(1).Double(3).Double(4).bytes(),
                             WkbBuilder(false).Header(1).Double(-3).Double(9).bytes()}) {
    bytes.insert(bytes.end(), member.begin(), member.end());
  }
  REQUIRE(Summarize(bytes, &s));
  CHECK(s.type_code == 4);
  CHECK(s.x.min == -3);
  CHECK(s.y.max == 9);
  std::vector<uint8_t> collection = WkbBuilder().Header(7).UInt32(2).bytes();
  collection.insert(collection.end(), bytes.begin(), bytes.end());
  const auto line = WkbBuilder().Header(2).UInt32(1).Double(100).Double(0).bytes();
  collection.insert(collection.end(), line.begin(), line.end());
  REQUIRE(Summarize(collection, &s));
  CHECK(s.type_code == 7);
  CHECK(s.x.max == 100);
  CHECK(s.y.min == 0);
}

TEST_CASE("wkb: empty geometries have their type and no envelope") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  parquet::WkbSummary s;
  REQUIRE(Summarize(WkbBuilder().Header(1).Double(nan).Double(nan).bytes(), &s));
  CHECK(s.type_code == 1);
  CHECK(s.empty());
  REQUIRE(Summarize(WkbBuilder().Header(2).UInt32(0).bytes(), &s));
  CHECK(s.empty());
  REQUIRE(Summarize(WkbBuilder().Header(3).UInt32(0).bytes(), &s));
  CHECK(s.empty());
  REQUIRE(Summarize(WkbBuilder().Header(7).UInt32(0).bytes(), &s));
  CHECK(s.empty());
  // A NaN Z is skipped while X and Y count.
  REQUIRE(Summarize(WkbBuilder().Header(1001).Double(1).Double(2).Double(nan).bytes(), &s));
  CHECK(!s.empty());
  CHECK(s.z.empty());

  parquet::GeospatialAccumulator acc;
  CHECK(!acc.Build(true).has_value());  // nothing (all NULL): no statistics
  REQUIRE(Summarize(WkbBuilder().Header(3).UInt32(0).bytes(), &s));
  acc.Add(s);
  auto stats = acc.Build(true);
  REQUIRE(stats.has_value());
  CHECK(!stats->bbox.has_value());
  CHECK(*stats->geospatial_types == std::vector<int32_t>{3});
  REQUIRE(Summarize(WkbBuilder().Header(1001).Double(1).Double(2).Double(3).bytes(), &s));
  acc.Add(s);
  REQUIRE(Summarize(WkbBuilder().Header(1).Double(-1).Double(5).bytes(), &s));
  acc.Add(s);
  stats = acc.Build(true);
  REQUIRE(stats->bbox.has_value());
  CHECK(stats->bbox->xmin == -1);
  CHECK(stats->bbox->xmax == 1);
  CHECK(stats->bbox->ymax == 5);
  CHECK(stats->bbox->zmin == 3);
  CHECK(!stats->bbox->mmin.has_value());
  CHECK(*stats->geospatial_types == std::vector<int32_t>{1, 3, 1001});
  CHECK(!acc.Build(false)->bbox.has_value());  // GEOGRAPHY: types only
}

TEST_CASE("wkb: malformed input is refused, every truncation too") {
  parquet::WkbSummary s;
  std::string error;
  CHECK(!Summarize({}, &s, &error));
  CHECK(!Summarize(WkbBuilder().Header(8).bytes(), &s, &error));
  CHECK(error.find("unknown geometry type 8") != std::string::npos);
  CHECK(!Summarize(WkbBuilder().Header(0x20000001).Double(1).Double(2).bytes(), &s, &error));  // EWKB with SRID
  std::vector<uint8_t> bad_order = WkbBuilder().Header(1).Double(1).Double(2).bytes();
  bad_order[0] = 2;
  CHECK(!Summarize(bad_order, &s, &error));
  CHECK(error.find("byte order") != std::string::npos);
  // MultiPoint holding a LineString; member of other dimensions.
  std::vector<uint8_t> wrong = WkbBuilder().Header(4).UInt32(1).Header(2).UInt32(0).bytes();
  CHECK(!Summarize(wrong, &s, &error));
  std::vector<uint8_t> dims = WkbBuilder().Header(1004).UInt32(1).Header(1).Double(1).Double(2).bytes();
  CHECK(!Summarize(dims, &s, &error));
  // A huge count is refused before any loop.
  CHECK(!Summarize(WkbBuilder().Header(2).UInt32(0xFFFFFFFF).bytes(), &s, &error));
  CHECK(!Summarize(WkbBuilder().Header(7).UInt32(0xFFFFFFFF).bytes(), &s, &error));
  // Trailing bytes.
  std::vector<uint8_t> trailing = WkbBuilder().Header(1).Double(1).Double(2).bytes();
  trailing.push_back(0);
  CHECK(!Summarize(trailing, &s, &error));
  CHECK(error.find("1 bytes after the geometry") != std::string::npos);
  // Nesting beyond the limit.
  std::vector<uint8_t> deep;
  for (int i = 0; i <= parquet::kMaxWkbDepth + 1; i++) {
    const auto header = WkbBuilder().Header(7).UInt32(1).bytes();
    deep.insert(deep.end(), header.begin(), header.end());
  }
  CHECK(!Summarize(deep, &s, &error));
  CHECK(error.find("nested deeper") != std::string::npos);
  // Every proper prefix of a valid collection fails.
  std::vector<uint8_t> valid = WkbBuilder().Header(7).UInt32(2).Header(3).UInt32(1).UInt32(2).Double(0).Double(0)
                                   .Double(1).Double(1).Header(1).Double(5).Double(6).bytes();
  REQUIRE(Summarize(valid, &s));
  for (size_t n = 0; n < valid.size(); n++) {
    std::vector<uint8_t> prefix(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(n));
    CHECK_MESSAGE(!Summarize(prefix, &s, &error), "prefix of " << n << " bytes");
  }
}

TEST_CASE("wkb: GeoParquet type names") {
  CHECK(parquet::GeoParquetTypeName(1) == "Point");
  CHECK(parquet::GeoParquetTypeName(1006) == "MultiPolygon Z");
  CHECK(parquet::GeoParquetTypeName(2001).empty());
  CHECK(parquet::GeoParquetTypeName(3007).empty());
}
