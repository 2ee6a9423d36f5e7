// Tests of opening a file through a MetadataStore (format/io/metadata_store.h,
// ParquetFileReader::OpenWithStore): the tail is remembered with the footer and the page
// indexes, used while the file keeps its version, never for a changed file, and a stored
// tail that does not parse is forgotten and the file read from its own bytes.
#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "format/io/metadata_store.h"
#include "format/io/random_access_file.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "tests/unit/schema_elements.h"
#include "tests/unit/temp_dir.h"

namespace parquet {
namespace {

using test_support::LeafElement;
using test_support::RootElement;
using test_support::TempDir;

// A store in memory, by key (the opener checks the version), counting calls.
class MemoryStore final : public MetadataStore {
 public:
  std::shared_ptr<const StoredTail> Find(const std::string& key) override {
    finds++;
    auto it = rows.find(key);
    if (it == rows.end()) return nullptr;
    return std::make_shared<StoredTail>(StoredTail{it->second.first, *it->second.second});
  }
  void Remember(const FileVersion& version, std::shared_ptr<const FileTail> tail) override {
    remembered++;
    rows[version.key] = {version, std::move(tail)};
  }
  void Forget(const FileVersion& version) override {
    forgotten++;
    rows.erase(version.key);
  }
  std::map<std::string, std::pair<FileVersion, std::shared_ptr<const FileTail>>> rows;
  int finds = 0, remembered = 0, forgotten = 0;
};

// A file of one INT64 column `id` (first, first + 1, ...), two row groups, page index.
void WriteIds(const std::string& path, int64_t first) {
  std::vector<SchemaElement> schema = {RootElement(1), LeafElement("id", FieldRepetitionType::REQUIRED, Type::INT64)};
  ParquetFileWriter writer(path, schema, WriterOptions());
  for (int rg = 0; rg < 2; rg++) {
    writer.StartRowGroup();
    std::vector<int64_t> ids;
    for (int i = 0; i < 100; i++) ids.push_back(first + rg * 100 + i);
    writer.WriteBatch<int64_t>(0, ids.size(), nullptr, nullptr, ids.data(), ids.size());
    writer.EndRowGroup(100);
  }
  writer.Close();
}

std::vector<uint8_t> FileBytes(const std::string& path) {
  std::unique_ptr<RandomAccessFile> file = OpenLocalFile(path);
  std::vector<uint8_t> bytes;
  file->ReadAt(0, static_cast<size_t>(file->Size()), &bytes);
  return bytes;
}

TEST_CASE("metadata store: the footer and page indexes are remembered, then used while the file is unchanged") {
  TempDir dir;
  const std::string path = dir.File("ids.parquet");
  WriteIds(path, 0);
  MemoryStore store;
  auto first = ParquetFileReader::OpenWithStore(path, nullptr, nullptr, &store);
  CHECK_FALSE(first->file().StoredTailUsed());
  REQUIRE(store.remembered == 1);
  const auto& [version, tail] = store.rows.begin()->second;
  CHECK(version.key == path);
  CHECK(version.validator.rfind("local:", 0) == 0);
  CHECK(FitsFileEnd(*tail, first->file().Size()));
  // The tail starts at the first page index module, before the footer.
  const ColumnChunk& chunk = first->metadata().row_groups[0].columns[0];
  REQUIRE(chunk.column_index_offset.has_value());
  CHECK(tail->offset == static_cast<uint64_t>(std::min(*chunk.column_index_offset, *chunk.offset_index_offset)));
  const std::vector<uint8_t> bytes = FileBytes(path);
  CHECK(std::equal(tail->bytes.begin(), tail->bytes.end(), bytes.begin() + static_cast<std::ptrdiff_t>(tail->offset)));

  auto second = ParquetFileReader::OpenWithStore(path, nullptr, nullptr, &store);
  CHECK(second->file().StoredTailUsed());
  CHECK(second->metadata() == first->metadata());
  CHECK(store.remembered == 1);  // nothing new to remember
}

TEST_CASE("metadata store: a changed file is never read from its old tail") {
  TempDir dir;
  const std::string path = dir.File("ids.parquet");
  WriteIds(path, 0);
  MemoryStore store;
  ParquetFileReader::OpenWithStore(path, nullptr, nullptr, &store);
  const std::string old_validator = store.rows.begin()->second.first.validator;
  WriteIds(dir.File("next.parquet"), 1000);  // same size, other values: replaces the file (new inode)
  std::filesystem::rename(dir.File("next.parquet"), path);
  auto reopened = ParquetFileReader::OpenWithStore(path, nullptr, nullptr, &store);
  CHECK_FALSE(reopened->file().StoredTailUsed());
  CHECK(store.rows.begin()->second.first.validator != old_validator);
  const std::string& min = *reopened->metadata().row_groups[0].columns[0].meta_data->statistics->min_value;
  int64_t value = 0;
  std::memcpy(&value, min.data(), sizeof value);
  CHECK(value == 1000);
}

TEST_CASE("metadata store: a stored tail that does not parse is forgotten and the file read") {
  TempDir dir;
  const std::string path = dir.File("ids.parquet");
  WriteIds(path, 0);
  MemoryStore store;
  auto expected = ParquetFileReader::OpenWithStore(path, nullptr, nullptr, &store);
  auto& row = store.rows.begin()->second;
  auto garbage = std::make_shared<FileTail>(*row.second);
  std::fill(garbage->bytes.begin(), garbage->bytes.end(), uint8_t{0xA5});  // right length, not a footer
  row.second = garbage;
  auto reader = ParquetFileReader::OpenWithStore(path, nullptr, nullptr, &store);
  CHECK_FALSE(reader->file().StoredTailUsed());
  CHECK(reader->metadata() == expected->metadata());
  CHECK(store.forgotten == 1);
  CHECK(store.remembered == 2);  // the file's own tail again
  CHECK(store.rows.begin()->second.second->bytes != garbage->bytes);
}

TEST_CASE("metadata store: tails that do not end at the file's end are not used") {
  TempDir dir;
  const std::string path = dir.File("ids.parquet");
  WriteIds(path, 0);
  MemoryStore store;
  ParquetFileReader::OpenWithStore(path, nullptr, nullptr, &store);
  auto& row = store.rows.begin()->second;
  const uint64_t size = row.first.size;
  const FileTail good = *row.second;
  for (const FileTail& bad : {FileTail{good.offset + 1, good.bytes}, FileTail{good.offset, {}}, FileTail{1, FileBytes(path)},
                              FileTail{size, {}}, FileTail{UINT64_MAX - 3, good.bytes}}) {
    CHECK_FALSE(FitsFileEnd(bad, size));
    row.second = std::make_shared<FileTail>(bad);
    auto reader = ParquetFileReader::OpenWithStore(path, nullptr, nullptr, &store);
    CHECK_FALSE(reader->file().StoredTailUsed());
    CHECK(reader->num_rows() == 200);
    store.rows.begin()->second.second = std::make_shared<FileTail>(bad);  // remembered again: put it back
  }
  CHECK(store.forgotten == 0);
}

}  // namespace
}  // namespace parquet
