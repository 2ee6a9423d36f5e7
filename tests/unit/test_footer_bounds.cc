// Footers that list far more structures than they could describe (issue 20, finding 8): a
// 1 MB footer of a million empty column chunks took 930 MB and seconds before its error.
// Each footer here is built byte by byte; parsing it must fail with a ParquetError before
// it allocates much (AllocationLimit counts the heap and refuses to go beyond its cap, so
// the old code fails these tests with std::bad_alloc instead of taking the memory).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "format/common/error.h"
#include "format/metadata/metadata.h"
#include "format/metadata/thrift_compact.h"
#include "tests/unit/allocation_counter.h"

namespace parquet {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

// FileMetaData field 2: a schema of a root and one INT32 leaf.
void WriteOneColumnSchema(ThriftCompactWriter& writer) {
  writer.WriteFieldHeader(CompactType::LIST, 2);
  writer.WriteListHeader(CompactType::STRUCT, 2);
  writer.BeginStruct();  // root
  writer.WriteFieldHeader(CompactType::BINARY, 4);
  writer.WriteBinary("schema");
  writer.WriteFieldHeader(CompactType::I32, 5);
  writer.WriteI32(1);
  writer.EndStruct();
  writer.BeginStruct();  // leaf
  writer.WriteFieldHeader(CompactType::I32, 1);
  writer.WriteI32(1);  // INT32
  writer.WriteFieldHeader(CompactType::BINARY, 4);
  writer.WriteBinary("a");
  writer.EndStruct();
}

// FileMetaData field 4: `groups` row groups of `chunks` empty column chunks (one byte each).
void WriteRowGroups(ThriftCompactWriter& writer, uint32_t groups, uint32_t chunks) {
  writer.WriteFieldHeader(CompactType::LIST, 4);
  writer.WriteListHeader(CompactType::STRUCT, groups);
  for (uint32_t g = 0; g < groups; g++) {
    writer.BeginStruct();
    writer.WriteFieldHeader(CompactType::LIST, 1);
    writer.WriteListHeader(CompactType::STRUCT, chunks);
    for (uint32_t c = 0; c < chunks; c++) {
      writer.BeginStruct();
      writer.EndStruct();
    }
    writer.WriteFieldHeader(CompactType::I64, 2);
    writer.WriteI64(0);
    writer.WriteFieldHeader(CompactType::I64, 3);
    writer.WriteI64(0);
    writer.EndStruct();
  }
}

std::string Footer(bool schema_first, uint32_t groups, uint32_t chunks) {
  std::string bytes;
  ThriftCompactWriter writer(&bytes);
  writer.BeginStruct();
  writer.WriteFieldHeader(CompactType::I32, 1);
  writer.WriteI32(1);
  if (schema_first) WriteOneColumnSchema(writer);
  WriteRowGroups(writer, groups, chunks);
  if (!schema_first) WriteOneColumnSchema(writer);
  writer.WriteFieldHeader(CompactType::I64, 3);
  writer.WriteI64(0);
  writer.EndStruct();
  return bytes;
}

// Parses `footer` under an AllocationLimit of `cap`; the ParquetError's message, or a
// failed check when it parsed, or when the parse took more than the cap.
std::string ParseError(const std::string& footer, size_t cap, size_t* peak) {
  std::string message;
  bool threw_parquet_error = false;
  {
    testing_support::AllocationLimit limit(cap);
    try {
      ParseFileMetaData(reinterpret_cast<const uint8_t*>(footer.data()), footer.size());
    } catch (const ParquetError& e) {
      threw_parquet_error = true;
      message = e.what();
    } catch (const std::bad_alloc&) {
      message = "std::bad_alloc";
    }
    *peak = limit.peak();
    CHECK_FALSE(limit.refused());
  }
  CHECK(threw_parquet_error);
  return message;
}

TEST_CASE("footer bounds: a row group of a million column chunks fails at its list header") {
  const std::string footer = Footer(true, 1, 1000000);
  CHECK(footer.size() < 1100000);  // about one byte per chunk
  size_t peak = 0;
  const std::string message = ParseError(footer, 100 * kMiB, &peak);
  CHECK(message == "row group lists 1000000 column chunks, the schema has 1 columns");
  MESSAGE("peak heap: " << peak << " bytes");
  CHECK(peak < 1 * kMiB);
}

TEST_CASE("footer bounds: lists are charged at their header against a budget of the footer's size") {
  // The row groups before the schema (legal thrift, unusual): the chunk count cannot be
  // checked against the schema, so the memory budget refuses the list.
  const std::string footer = Footer(false, 1, 1000000);
  size_t peak = 0;
  const std::string message = ParseError(footer, 100 * kMiB, &peak);
  // The size of a ColumnChunk is the C++ library's business (896 bytes with libstdc++, less
  // with libc++): the expected charge is computed from it.
  CHECK(message.find("thrift list of 1000000 elements would take " + std::to_string(1000000 * sizeof(ColumnChunk)) +
                     " bytes of memory") == 0);
  MESSAGE("peak heap: " << peak << " bytes");
  CHECK(peak < 1 * kMiB);
}

TEST_CASE("footer bounds: many row groups stop at the budget (16 MiB + 64 bytes per footer byte)") {
  // 3 MB of row groups with one empty chunk each: about 1 KB of structs per 8 footer bytes.
  const std::string footer = Footer(true, 375000, 1);
  size_t peak = 0;
  const std::string message = ParseError(footer, 300 * kMiB, &peak);
  CHECK(message.find("thrift list of 1 elements would take " + std::to_string(sizeof(ColumnChunk)) +
                     " bytes of memory, more than") == 0);
  MESSAGE("footer: " << footer.size() << " bytes, peak heap: " << peak << " bytes");
  CHECK(peak < 16 * kMiB + 64 * footer.size() + 4 * kMiB);
}

TEST_CASE("footer bounds: real footers stay within the budget") {
  // A footer of many real column chunks (each with ColumnMetaData) parses.
  FileMetaData metadata;
  metadata.schema.resize(1);
  metadata.schema[0].name = "schema";
  metadata.schema[0].num_children = 200;
  for (int i = 0; i < 200; i++) {
    SchemaElement leaf;
    leaf.name = "c" + std::to_string(i);
    leaf.type = Type::INT32;
    metadata.schema.push_back(leaf);
  }
  for (int g = 0; g < 100; g++) {
    RowGroup group;
    for (int i = 0; i < 200; i++) {
      ColumnChunk chunk;
      ColumnMetaData meta;
      meta.type = Type::INT32;
      meta.path_in_schema = {"c"};
      meta.num_values = 1;
      chunk.meta_data = meta;
      group.columns.push_back(chunk);
    }
    metadata.row_groups.push_back(group);
  }
  const std::string bytes = Serialize(metadata);
  const FileMetaData parsed = ParseFileMetaData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  CHECK(parsed.row_groups.size() == 100);
  CHECK(parsed.row_groups[99].columns.size() == 200);
}

}  // namespace
}  // namespace parquet
