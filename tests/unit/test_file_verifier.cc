// Tests of VerifyFile (parquet_copy's verify=1): our writer's files pass, with nulls, NaN,
// nested columns, bloom filters and small pages; a file whose page bytes, bloom filter,
// chunk statistics, page index or row count no longer match its values fails, naming the
// file, column and row group.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "format/common/error.h"
#include "format/index/page_index.h"
#include "format/io/random_access_file.h"
#include "format/metadata/metadata.h"
#include "format/read/file_reader.h"
#include "format/read/file_verifier.h"
#include "format/write/file_writer.h"
#include "tests/unit/schema_elements.h"
#include "tests/unit/temp_dir.h"

namespace parquet {
namespace {

using test_support::LeafElement;
using test_support::RootElement;
using test_support::TempDir;

// A file of id INT64 (required), x DOUBLE (optional: every 7th NULL, every 11th NaN) and
// s BYTE_ARRAY (optional), 3 row groups of 2000 rows, small pages, bloom filters on id and s.
std::string WriteSample(const TempDir& dir) {
  const std::string path = dir.File("sample.parquet");
  WriterOptions options;
  options.page_size = 1024;
  options.bloom_filter_columns = {0, 2};
  std::vector<SchemaElement> schema = {RootElement(3), LeafElement("id", FieldRepetitionType::REQUIRED, Type::INT64),
                                       LeafElement("x", FieldRepetitionType::OPTIONAL, Type::DOUBLE),
                                       LeafElement("s", FieldRepetitionType::OPTIONAL, Type::BYTE_ARRAY)};
  ParquetFileWriter writer(path, schema, options);
  for (int rg = 0; rg < 3; ++rg) {
    writer.StartRowGroup();
    std::vector<int64_t> ids;
    std::vector<int16_t> x_def, s_def;
    std::vector<double> xs;
    std::vector<std::string> texts;
    for (int i = 0; i < 2000; ++i) {
      const int64_t id = rg * 2000 + i;
      ids.push_back(id);
      x_def.push_back(id % 7 == 0 ? 0 : 1);
      if (id % 7 != 0) xs.push_back(id % 11 == 0 ? std::nan("") : id * 0.5);
      s_def.push_back(id % 5 == 0 ? 0 : 1);
      if (id % 5 != 0) texts.push_back("text-" + std::to_string(id));
    }
    std::vector<ByteArray> arrays;
    for (const std::string& t : texts) arrays.push_back(ByteArray{reinterpret_cast<const uint8_t*>(t.data()), static_cast<uint32_t>(t.size())});
    writer.WriteBatch<int64_t>(0, ids.size(), nullptr, nullptr, ids.data(), ids.size());
    writer.WriteBatch<double>(1, x_def.size(), x_def.data(), nullptr, xs.data(), xs.size());
    writer.WriteBatch<ByteArray>(2, s_def.size(), s_def.data(), nullptr, arrays.data(), arrays.size());
    writer.EndRowGroup(2000);
  }
  writer.Close();
  return path;
}

std::string ReadAll(const std::string& path) {
  auto file = OpenLocalFile(path);
  std::string bytes(static_cast<size_t>(file->Size()), '\0');
  file->ReadAt(0, bytes.size(), reinterpret_cast<uint8_t*>(bytes.data()));
  return bytes;
}

void Verify(const std::string& bytes) {
  auto file = ParquetFileReader::Open(OpenMemoryFile(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "f.parquet"));
  VerifyFile(*file);
}

// The file with its footer replaced by `edit`(footer).
template <typename Edit>
std::string WithFooter(const std::string& bytes, Edit edit) {
  uint32_t length = 0;
  std::memcpy(&length, bytes.data() + bytes.size() - 8, 4);
  const size_t footer_start = bytes.size() - 8 - length;
  FileMetaData metadata = ParseFileMetaData(reinterpret_cast<const uint8_t*>(bytes.data()) + footer_start, length);
  edit(metadata);
  std::string footer = Serialize(metadata);
  std::string out = bytes.substr(0, footer_start) + footer;
  const uint32_t new_length = static_cast<uint32_t>(footer.size());
  out.append(reinterpret_cast<const char*>(&new_length), 4);
  out += "PAR1";
  return out;
}

TEST_CASE("verify: our writer's files pass") {
  TempDir dir;
  const std::string bytes = ReadAll(WriteSample(dir));
  CHECK_NOTHROW(Verify(bytes));
}

TEST_CASE("verify: a changed page byte fails the page CRC") {
  TempDir dir;
  std::string bytes = ReadAll(WriteSample(dir));
  auto file = ParquetFileReader::Open(OpenMemoryFile(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  const ColumnMetaData& meta = *file->row_group(1).columns[0].meta_data;
  const size_t last_byte = static_cast<size_t>(meta.data_page_offset + meta.total_compressed_size - 1);
  bytes[last_byte] = static_cast<char>(bytes[last_byte] ^ 0x55);
  CHECK_THROWS_AS(Verify(bytes), ParquetError);
}

TEST_CASE("verify: a bloom filter missing a value fails") {
  TempDir dir;
  std::string bytes = ReadAll(WriteSample(dir));
  auto file = ParquetFileReader::Open(OpenMemoryFile(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  const ColumnMetaData& meta = *file->row_group(2).columns[2].meta_data;
  // Clear the bitset after its header (well under 16 bytes): values no longer find their bits.
  const size_t start = static_cast<size_t>(*meta.bloom_filter_offset);
  const size_t end = start + static_cast<size_t>(*meta.bloom_filter_length);
  for (size_t i = start + 16; i < end; ++i) bytes[i] = 0;
  CHECK_THROWS_WITH_AS(Verify(bytes), doctest::Contains("verify: f.parquet, column s, row group 2: the bloom filter does not contain"),
                       ParquetError);
}

TEST_CASE("verify: chunk statistics that do not hold the values fail") {
  TempDir dir;
  const std::string bytes = ReadAll(WriteSample(dir));
  const std::string wrong_min = WithFooter(bytes, [](FileMetaData& m) {
    const int64_t min = 10;  // row group 0 holds ids from 0
    m.row_groups[0].columns[0].meta_data->statistics->min_value = std::string(reinterpret_cast<const char*>(&min), 8);
  });
  CHECK_THROWS_WITH_AS(Verify(wrong_min), doctest::Contains("column id, row group 0: the chunk statistics: the minimum is above"),
                       ParquetError);
  const std::string wrong_nulls = WithFooter(bytes, [](FileMetaData& m) { m.row_groups[1].columns[1].meta_data->statistics->null_count = 3; });
  CHECK_THROWS_WITH_AS(Verify(wrong_nulls), doctest::Contains("column x, row group 1: the chunk statistics count 3 nulls"), ParquetError);
  const std::string wrong_nans = WithFooter(bytes, [](FileMetaData& m) { m.row_groups[1].columns[1].meta_data->statistics->nan_count = 0; });
  CHECK_THROWS_WITH_AS(Verify(wrong_nans), doctest::Contains("column x, row group 1: the chunk statistics count 0 NaNs"), ParquetError);
  const std::string wrong_rows = WithFooter(bytes, [](FileMetaData& m) { m.row_groups[2].num_rows = 1999; });
  CHECK_THROWS_WITH_AS(Verify(wrong_rows), doctest::Contains("row group 2: the column holds 2000 rows, the row group 1999"), ParquetError);
  const std::string wrong_total = WithFooter(bytes, [](FileMetaData& m) { m.num_rows = 5; });
  CHECK_THROWS_WITH_AS(Verify(wrong_total), doctest::Contains("the row groups hold 6000 rows, the footer says 5"), ParquetError);
}

TEST_CASE("verify: a page index that does not hold a page's values fails") {
  TempDir dir;
  const std::string bytes = ReadAll(WriteSample(dir));
  auto file = ParquetFileReader::Open(OpenMemoryFile(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  std::optional<ColumnIndex> index = ReadColumnIndex(*file, 0, 0);
  REQUIRE(index.has_value());
  REQUIRE(index->max_values.size() > 2);
  // Page 1's maximum lowered to its minimum: the page's other values are above it.
  index->max_values[1] = index->min_values[1];
  const std::string serialized = Serialize(*index);
  // The new index goes after the old footer's data; the chunk points there.
  const std::string edited = WithFooter(bytes, [&](FileMetaData& m) {
    uint32_t length = 0;
    std::memcpy(&length, bytes.data() + bytes.size() - 8, 4);
    m.row_groups[0].columns[0].column_index_offset = static_cast<int64_t>(bytes.size() - 8 - length);
    m.row_groups[0].columns[0].column_index_length = static_cast<int32_t>(serialized.size());
  });
  uint32_t length = 0;
  std::memcpy(&length, bytes.data() + bytes.size() - 8, 4);
  const size_t footer_start = bytes.size() - 8 - length;
  const std::string with_index = edited.substr(0, footer_start) + serialized + edited.substr(footer_start);
  CHECK_THROWS_WITH_AS(Verify(with_index), doctest::Contains("column id, row group 0: the column index of page 1: the maximum is below"),
                       ParquetError);
}

}  // namespace
}  // namespace parquet
