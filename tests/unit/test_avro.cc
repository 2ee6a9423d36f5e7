// Tests of the Avro object container file decoder (format/lake/avro.h): every type of the
// binary encoding driven by the writer schema, the four codecs, named type references,
// fields by name and by Iceberg field id, the bounds on corrupt input, and every manifest
// list and manifest of the Iceberg corpus (../shared/lake/iceberg) decoded.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "format/common/error.h"
#include "format/io/random_access_file.h"
#include "format/lake/avro.h"
#include "format/platform/system.h"
#include "tests/unit/avro_writer.h"

using namespace parquet;
using namespace parquet::lake;
using avro_test::PutBytes;
using avro_test::PutLong;

namespace {

const char* kSchema = R"({"type": "record", "name": "entry", "namespace": "t", "fields": [
  {"name": "b", "type": "boolean", "field-id": 1},
  {"name": "i", "type": "int", "field-id": 2},
  {"name": "l", "type": ["null", "long"], "field-id": 3},
  {"name": "f", "type": "float"},
  {"name": "d", "type": "double"},
  {"name": "s", "type": "string"},
  {"name": "by", "type": "bytes"},
  {"name": "e", "type": {"type": "enum", "name": "color", "symbols": ["red", "green"]}},
  {"name": "fx", "type": {"type": "fixed", "name": "f4", "size": 4, "logicalType": "decimal", "precision": 9, "scale": 2}},
  {"name": "arr", "type": {"type": "array", "items": "int"}},
  {"name": "m", "type": {"type": "map", "values": "long"}},
  {"name": "inner", "type": {"type": "record", "name": "inner_t", "fields": [{"name": "x", "type": "long"}]}},
  {"name": "again", "type": ["null", "inner_t"]},
  {"name": "e2", "type": "t.color"}
]})";

std::string Record(int64_t n, bool null_long) {
  std::string r;
  r.push_back(n % 2 == 0 ? 1 : 0);  // b
  PutLong(&r, n);                    // i
  if (null_long) {
    PutLong(&r, 0);
  } else {
    PutLong(&r, 1);
    PutLong(&r, n * 1000000000000LL);
  }
  avro_test::PutFloat(&r, 1.5f);
  avro_test::PutDouble(&r, -2.25);
  PutBytes(&r, "row" + std::to_string(n));
  PutBytes(&r, std::string("\x00\x01", 2));
  PutLong(&r, 1);                 // enum green
  r.append("\x00\x00\x05\x8c", 4);  // fixed: 1420
  // array in two blocks, the second with a byte size (negative count)
  PutLong(&r, 2);
  PutLong(&r, 7);
  PutLong(&r, 8);
  std::string block;
  PutLong(&block, 9);
  PutLong(&r, -1);
  PutLong(&r, static_cast<int64_t>(block.size()));
  r += block;
  PutLong(&r, 0);
  // map {"k": n}
  PutLong(&r, 1);
  PutBytes(&r, "k");
  PutLong(&r, n);
  PutLong(&r, 0);
  PutLong(&r, 42);  // inner.x
  PutLong(&r, 1);   // again: inner_t
  PutLong(&r, -5);
  PutLong(&r, 0);  // e2 red
  return r;
}

void CheckRecord(const AvroFileReader& r, int64_t n, bool null_long) {
  const int32_t root = r.root();
  CHECK(r.value(r.Field(root, "b")).i == (n % 2 == 0 ? 1 : 0));
  CHECK(r.Long(r.Field(root, "i"), "i") == n);
  CHECK(r.Field(root, "i") == r.FieldById(root, 2));
  if (null_long) {
    CHECK(r.IsNull(r.Field(root, "l")));
    CHECK(r.NonNullField(root, "l") == -1);
  } else {
    CHECK(r.Long(r.FieldById(root, 3), "l") == n * 1000000000000LL);
  }
  CHECK(r.value(r.Field(root, "f")).d == 1.5);
  CHECK(r.value(r.Field(root, "d")).d == -2.25);
  CHECK(r.Bytes(r.Field(root, "s"), "s") == "row" + std::to_string(n));
  CHECK(r.Bytes(r.Field(root, "by"), "by") == std::string("\x00\x01", 2));
  CHECK(r.value(r.Field(root, "e")).i == 1);
  const AvroValue& fx = r.value(r.Field(root, "fx"));
  CHECK(fx.kind == AvroKind::kFixed);
  CHECK(fx.bytes == std::string("\x00\x00\x05\x8c", 4));
  CHECK(r.schema().node(fx.schema).logical_type == "decimal");
  CHECK(r.schema().node(fx.schema).scale == 2);
  const AvroValue& arr = r.value(r.Field(root, "arr"));
  REQUIRE(arr.count == 3);
  std::vector<int64_t> items;
  for (int32_t c = arr.first_child; c >= 0; c = r.value(c).next_sibling) items.push_back(r.value(c).i);
  CHECK(items == std::vector<int64_t>{7, 8, 9});
  const AvroValue& m = r.value(r.Field(root, "m"));
  REQUIRE(m.count == 1);
  CHECK(r.value(m.first_child).bytes == "k");
  CHECK(r.value(r.value(m.first_child).next_sibling).i == n);
  CHECK(r.Long(r.Field(r.Field(root, "inner"), "x"), "x") == 42);
  CHECK(r.Long(r.Field(r.Field(root, "again"), "x"), "x") == -5);
  CHECK(r.value(r.Field(root, "e2")).i == 0);
  CHECK(r.Field(root, "absent") == -1);
}

std::string ReadAll(const std::string& path) { return ReadSmallFile(path, size_t{1} << 30); }

void ListAvroFiles(const std::string& dir, std::vector<std::string>* out, int depth = 0) {
  if (depth > 12) return;
  std::vector<std::string> names;
  if (!platform::ListDirectory(dir, &names).ok()) return;
  for (const std::string& name : names) {
    const std::string path = dir + "/" + name;
    platform::FileStatus status;
    if (!platform::PathStatus(path, false, &status).ok()) continue;
    if (status.type == platform::FileType::kDirectory) {
      ListAvroFiles(path, out, depth + 1);
    } else if (name.size() > 5 && name.substr(name.size() - 5) == ".avro" && name[0] != '.') {
      out->push_back(path);
    }
  }
}

}  // namespace

TEST_CASE("Avro: every type of the binary encoding, in each codec") {
  for (const char* codec : {"null", "deflate", "snappy", "zstandard"}) {
    CAPTURE(codec);
    std::vector<std::vector<std::string>> blocks = {{Record(1, false), Record(2, true)}, {}, {Record(3, false)}};
    AvroFileReader r(avro_test::ContainerFile(kSchema, codec, blocks, {{"format-version", "2"}}), "test.avro");
    CHECK(r.codec() == codec);
    CHECK(r.Metadata("format-version") == "2");
    CHECK(r.Metadata("absent").empty());
    REQUIRE(r.Next());
    CheckRecord(r, 1, false);
    REQUIRE(r.Next());
    CheckRecord(r, 2, true);
    REQUIRE(r.Next());  // across the empty block
    CheckRecord(r, 3, false);
    CHECK_FALSE(r.Next());
    CHECK(r.records_read() == 3);
  }
}

TEST_CASE("Avro: a missing codec entry means null; an unknown codec is refused") {
  std::string file = avro_test::ContainerFile(R"("long")", "", {{std::string("\x04", 1)}});
  AvroFileReader r(file, "x.avro");
  CHECK(r.codec() == "null");
  REQUIRE(r.Next());
  CHECK(r.value(0).i == 2);
  CHECK_THROWS_WITH_AS(AvroFileReader(avro_test::ContainerFile(R"("long")", "bzip2", {}), "x.avro"),
                       doctest::Contains("unsupported codec 'bzip2'"), ParquetError);
}

TEST_CASE("Avro: corrupt containers are errors naming the file") {
  const std::string good = avro_test::ContainerFile(kSchema, "null", {{Record(1, false)}});
  // Every truncation fails cleanly or decodes fewer records, never crashes.
  for (size_t cut = 0; cut < good.size(); ++cut) {
    try {
      AvroFileReader r(good.substr(0, cut), "cut.avro");
      while (r.Next()) {
      }
    } catch (const ParquetError& e) {
      CHECK(std::string(e.what()).find("cut.avro") != std::string::npos);
    }
  }
  // Every single-byte change likewise.
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    try {
      AvroFileReader r(bad, "flip.avro");
      while (r.Next()) {
      }
    } catch (const ParquetError&) {
    }
  }
  CHECK_THROWS_WITH_AS(AvroFileReader("Obj", "short.avro"), doctest::Contains("bad magic"), ParquetError);
  std::string wrong_sync = good;
  wrong_sync[wrong_sync.size() - 1] ^= 1;
  AvroFileReader r(wrong_sync, "sync.avro");
  CHECK_THROWS_WITH_AS(r.Next(), doctest::Contains("sync marker"), ParquetError);
}

TEST_CASE("Avro: counts and sizes beyond the data are refused before use") {
  // A string claiming 2^40 bytes.
  std::string record;
  PutLong(&record, int64_t{1} << 40);
  {
    AvroFileReader r(avro_test::ContainerFile(R"("string")", "null", {{record}}), "len.avro");
    CHECK_THROWS_WITH_AS(r.Next(), doctest::Contains("length is negative or beyond"), ParquetError);
  }
  // An array of nulls claiming 2^60 items: bounded by the per-record value limit.
  std::string nulls;
  PutLong(&nulls, int64_t{1} << 60);
  {
    AvroFileReader r(avro_test::ContainerFile(R"({"type": "array", "items": "null"})", "null", {{nulls}}), "nulls.avro");
    CHECK_THROWS_AS(r.Next(), ParquetError);
  }
  // A union branch out of range, a negative block count, an over-long varint.
  std::string branch;
  PutLong(&branch, 5);
  {
    AvroFileReader r(avro_test::ContainerFile(R"(["null", "long"])", "null", {{branch}}), "u.avro");
    CHECK_THROWS_WITH_AS(r.Next(), doctest::Contains("union branch"), ParquetError);
  }
  {
    AvroFileReader r(avro_test::ContainerFile(R"("long")", "null", {{std::string(11, '\xff')}}), "v.avro");
    CHECK_THROWS_AS(r.Next(), ParquetError);
  }
  // A record that recurses through a union: nesting is bounded.
  std::string deep;
  for (int i = 0; i < 200; ++i) PutLong(&deep, 1);
  PutLong(&deep, 0);
  {
    AvroFileReader r(avro_test::ContainerFile(
                         R"({"type": "record", "name": "node", "fields": [{"name": "next", "type": ["null", "node"]}]})",
                         "null", {{deep}}),
                     "deep.avro");
    CHECK_THROWS_WITH_AS(r.Next(), doctest::Contains("nested too deep"), ParquetError);
  }
  // A deflate bomb: stops at the ratio bound.
  {
    const std::string zeros(size_t{64} << 20, '\0');
    std::string bomb = avro_test::ContainerFile(R"("long")", "deflate", {{zeros}});
    AvroFileReader r(bomb, "bomb.avro");
    CHECK_THROWS_AS(r.Next(), ParquetError);  // 64M zero longs: bytes left after the block's one record
  }
  // Schemas: unknown names and empty unions.
  CHECK_THROWS_WITH_AS(AvroFileReader(avro_test::ContainerFile(R"("nosuch")", "null", {}), "s.avro"),
                       doctest::Contains("unknown type 'nosuch'"), ParquetError);
  CHECK_THROWS_AS(AvroFileReader(avro_test::ContainerFile(R"([])", "null", {}), "s.avro"), ParquetError);
  CHECK_THROWS_AS(AvroFileReader(avro_test::ContainerFile(R"({"type": "fixed", "name": "x", "size": -1})", "null", {}), "s.avro"),
                  ParquetError);
}

TEST_CASE("Avro: every manifest list and manifest of the Iceberg corpus decodes") {
  std::vector<std::string> files;
  ListAvroFiles("../shared/lake/iceberg", &files);
  REQUIRE(files.size() >= 200);
  size_t manifest_lists = 0, manifests = 0, records = 0;
  for (const std::string& path : files) {
    CAPTURE(path);
    AvroFileReader r(ReadAll(path), path);
    const AvroSchemaNode& root = r.schema().node(0);
    REQUIRE(root.kind == AvroKind::kRecord);
    const bool is_list = r.schema().FieldIndex(0, "manifest_path") >= 0;
    const bool is_manifest = r.schema().FieldIndex(0, "data_file") >= 0;
    // Avro data files (impala's iceberg_v3_default_value_avro) are decoded without checks.
    while (r.Next()) {
      ++records;
      if (!is_list && !is_manifest) continue;
      if (is_list) {
        CHECK_FALSE(r.Bytes(r.FieldById(0, 500), "manifest_path").empty());
        CHECK(r.Long(r.Field(0, "manifest_length"), "manifest_length") >= 0);
      } else {
        const int32_t df = r.FieldById(0, 2);
        REQUIRE(df >= 0);
        CHECK_FALSE(r.Bytes(r.FieldById(df, 100), "file_path").empty());
        CHECK(r.Long(r.FieldById(df, 103), "record_count") >= 0);
        const int64_t status = r.Long(r.Field(0, "status"), "status");
        CHECK((status >= 0 && status <= 2));
      }
    }
    manifest_lists += is_list;
    manifests += is_manifest;
  }
  CHECK(manifest_lists > 50);
  CHECK(manifests > 50);
  CHECK(records > files.size());
}
