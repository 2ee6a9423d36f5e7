// Tests of the column reader on files assembled byte by byte: data page v1 and v2 level and
// value layouts, dictionary pages, skipping, CRCs, and malformed pages.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "format/codec/checksum.h"
#include "format/read/column_reader.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/read/page_reader.h"

using namespace parquet;

namespace {

using Bytes = std::vector<uint8_t>;

void Append(Bytes* out, const std::string& s) { out->insert(out->end(), s.begin(), s.end()); }
void Append(Bytes* out, const Bytes& b) { out->insert(out->end(), b.begin(), b.end()); }

struct Page {
  PageHeader header;
  Bytes body;
};

// Builds "PAR1" <pages> <footer> for one OPTIONAL INT32 column "x" in one row group.
std::unique_ptr<ParquetFileReader> BuildFile(const std::vector<Page>& pages, int64_t num_values, int64_t num_rows,
                                             FieldRepetitionType repetition = FieldRepetitionType::OPTIONAL) {
  Bytes file = {'P', 'A', 'R', '1'};
  int64_t first_data_page = -1, dictionary_page = -1;
  for (const Page& page : pages) {
    if (page.header.type == PageType::DICTIONARY_PAGE) dictionary_page = static_cast<int64_t>(file.size());
    else if (first_data_page < 0) first_data_page = static_cast<int64_t>(file.size());
    Append(&file, Serialize(page.header));
    Append(&file, page.body);
  }
  FileMetaData meta;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  SchemaElement x;
  x.name = "x";
  x.type = Type::INT32;
  x.repetition_type = repetition;
  meta.schema = {root, x};
  meta.num_rows = num_rows;
  RowGroup rg;
  rg.num_rows = num_rows;
  ColumnChunk chunk;
  ColumnMetaData cmd;
  cmd.type = Type::INT32;
  cmd.encodings = {Encoding::PLAIN, Encoding::RLE};
  cmd.path_in_schema = {"x"};
  cmd.codec = CompressionCodec::UNCOMPRESSED;
  cmd.num_values = num_values;
  cmd.total_compressed_size = static_cast<int64_t>(file.size()) - 4;
  cmd.total_uncompressed_size = cmd.total_compressed_size;
  cmd.data_page_offset = first_data_page;
  if (dictionary_page >= 0) cmd.dictionary_page_offset = dictionary_page;
  if (dictionary_page >= 0) cmd.total_compressed_size = static_cast<int64_t>(file.size()) - dictionary_page;
  chunk.meta_data = cmd;
  rg.columns = {chunk};
  meta.row_groups = {rg};
  std::string footer = Serialize(meta);
  Append(&file, footer);
  uint32_t length = static_cast<uint32_t>(footer.size());
  for (int i = 0; i < 4; i++) file.push_back(static_cast<uint8_t>(length >> (8 * i)));
  Append(&file, Bytes{'P', 'A', 'R', '1'});
  return ParquetFileReader::Open(OpenMemoryFile(file.data(), file.size(), "test.parquet"));
}

Page DataPageV1(int32_t num_values, const Bytes& body, Encoding encoding = Encoding::PLAIN) {
  Page page;
  page.header.type = PageType::DATA_PAGE;
  page.header.uncompressed_page_size = static_cast<int32_t>(body.size());
  page.header.compressed_page_size = static_cast<int32_t>(body.size());
  DataPageHeader h;
  h.num_values = num_values;
  h.encoding = encoding;
  h.definition_level_encoding = Encoding::RLE;
  h.repetition_level_encoding = Encoding::RLE;
  page.header.data_page_header = h;
  page.body = body;
  return page;
}

// [1, NULL, 3, NULL, 5]: levels 1,0,1,0,1 as one bit-packed group (header 0x03, bits 0x15),
// prefixed with their 4-byte length; then the three PLAIN values.
Page FirstPage() {
  return DataPageV1(5, {0x02, 0, 0, 0, 0x03, 0x15, 1, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 0});
}

// Data page v2 [NULL, 7, 9]: levels 0,1,1 (uncompressed, no length prefix), values 7, 9.
Page SecondPageV2() {
  Page page;
  page.header.type = PageType::DATA_PAGE_V2;
  page.body = {0x03, 0x06, 7, 0, 0, 0, 9, 0, 0, 0};
  page.header.uncompressed_page_size = static_cast<int32_t>(page.body.size());
  page.header.compressed_page_size = static_cast<int32_t>(page.body.size());
  DataPageHeaderV2 h;
  h.num_values = 3;
  h.num_nulls = 1;
  h.num_rows = 3;
  h.encoding = Encoding::PLAIN;
  h.definition_levels_byte_length = 2;
  h.repetition_levels_byte_length = 0;
  h.is_compressed = false;
  page.header.data_page_header_v2 = h;
  return page;
}

std::vector<int> ReadAll(ColumnChunkReader* reader, size_t batch_size) {
  std::vector<int> out;  // -1 for NULL
  ColumnBatch batch;
  while (size_t n = reader->ReadBatch(batch_size, &batch)) {
    size_t v = 0;
    for (size_t i = 0; i < n; i++) {
      out.push_back(batch.def_levels[i] == 1 ? batch.values<int32_t>()[v++] : -1);
    }
    CHECK(v == batch.num_values);
  }
  return out;
}

}  // namespace

TEST_CASE("column reader: v1 and v2 pages, levels and values") {
  auto file = BuildFile({FirstPage(), SecondPageV2()}, 8, 8);
  auto reader = ColumnChunkReader::Make(*file, 0, 0);
  CHECK(ReadAll(reader.get(), 1024) == std::vector<int>{1, -1, 3, -1, 5, -1, 7, 9});
  CHECK(reader->counters().pages_read == 2);
  SUBCASE("small batches give the same values") {
    reader->Reset(0);
    CHECK(ReadAll(reader.get(), 2) == std::vector<int>{1, -1, 3, -1, 5, -1, 7, 9});
  }
}

TEST_CASE("page reader: a buffer's capacity is charged to the memory budget once") {
  auto file = BuildFile({FirstPage()}, 5, 5);
  auto budget = std::make_shared<MemoryBudget>(1000, "max_memory");
  ColumnReaderOptions options;
  options.memory_budget = budget;
  ColumnReadCounters counters;
  {
    PageReader pages(*file, 0, options, &counters);
    std::vector<uint8_t> buffer;
    pages.GrowBuffer(&buffer, 600);
    CHECK(buffer.size() == 600);
    CHECK(budget->used() == 600);
    // Shrunk and grown back within its capacity: not charged again.
    buffer.clear();
    pages.GrowBuffer(&buffer, 600);
    CHECK(budget->used() == 600);
    buffer.resize(100);
    pages.GrowBuffer(&buffer, 800);
    CHECK(buffer.size() == 800);
    CHECK(budget->used() == 800);
    // Beyond the budget: an error, the buffer as it was.
    CHECK_THROWS_AS(pages.GrowBuffer(&buffer, 1200), ParquetError);
    CHECK(buffer.size() == 800);
    CHECK(budget->used() == 800);
    std::vector<int64_t> wide;
    pages.GrowBuffer(&wide, 25);  // charged in bytes
    CHECK(budget->used() == 1000);
  }
  CHECK(budget->used() == 0);  // given back with the reader
}

TEST_CASE("column reader: skipping within and across pages") {
  auto file = BuildFile({FirstPage(), SecondPageV2()}, 8, 8);
  auto reader = ColumnChunkReader::Make(*file, 0, 0);
  CHECK(reader->Skip(3) == 3);  // inside the first page: 1, NULL, 3
  CHECK(ReadAll(reader.get(), 1024) == std::vector<int>{-1, 5, -1, 7, 9});

  reader->Reset(0);
  CHECK(reader->Skip(6) == 6);  // the whole first page goes without being decoded
  CHECK(reader->counters().pages_skipped >= 1);
  CHECK(ReadAll(reader.get(), 1024) == std::vector<int>{7, 9});

  reader->Reset(0);
  CHECK(reader->Skip(100) == 8);
  ColumnBatch batch;
  CHECK(reader->ReadBatch(10, &batch) == 0);
}

TEST_CASE("column reader: dictionary page then RLE_DICTIONARY data page") {
  Page dictionary;
  dictionary.header.type = PageType::DICTIONARY_PAGE;
  dictionary.body = {10, 0, 0, 0, 20, 0, 0, 0, 30, 0, 0, 0};
  dictionary.header.uncompressed_page_size = 12;
  dictionary.header.compressed_page_size = 12;
  DictionaryPageHeader dh;
  dh.num_values = 3;
  dh.encoding = Encoding::PLAIN_DICTIONARY;
  dictionary.header.dictionary_page_header = dh;
  // Four non-null slots: levels = RLE run of 4 ones (header 4<<1 = 0x08, value 0x01);
  // indices: bit width 2, one bit-packed group of 8 (header 0x03): 2,0,1,2 -> 0b10010010, 0b00000000.
  Page data = DataPageV1(4, {0x02, 0, 0, 0, 0x08, 0x01, 0x02, 0x03, 0x92, 0x00}, Encoding::RLE_DICTIONARY);
  auto file = BuildFile({dictionary, data}, 4, 4);
  auto reader = ColumnChunkReader::Make(*file, 0, 0);
  CHECK(ReadAll(reader.get(), 1024) == std::vector<int>{30, 10, 20, 30});

  SUBCASE("an index outside the dictionary is an error naming column and page") {
    Page bad = DataPageV1(4, {0x02, 0, 0, 0, 0x08, 0x01, 0x02, 0x03, 0xFF, 0x00}, Encoding::RLE_DICTIONARY);
    auto bad_file = BuildFile({dictionary, bad}, 4, 4);
    auto bad_reader = ColumnChunkReader::Make(*bad_file, 0, 0);
    ColumnBatch batch;
    CHECK_THROWS_WITH_AS(bad_reader->ReadBatch(10, &batch),
                         doctest::Contains("file 'test.parquet', column 'x', row group 0, page 1"), ParquetError);
  }
  SUBCASE("a dictionary-encoded page without a dictionary page is an error") {
    auto no_dict = BuildFile({data}, 4, 4);
    auto r = ColumnChunkReader::Make(*no_dict, 0, 0);
    ColumnBatch batch;
    CHECK_THROWS_WITH_AS(r->ReadBatch(10, &batch), doctest::Contains("no dictionary page"), ParquetError);
  }
}

TEST_CASE("column reader: CRC checked when present") {
  Page page = FirstPage();
  page.header.crc = static_cast<int32_t>(Crc32(page.body.data(), page.body.size()));
  auto good = BuildFile({page}, 5, 5);
  CHECK(ReadAll(ColumnChunkReader::Make(*good, 0, 0).get(), 100) == std::vector<int>{1, -1, 3, -1, 5});

  page.header.crc = *page.header.crc ^ 1;
  auto bad = BuildFile({page}, 5, 5);
  ColumnBatch batch;
  CHECK_THROWS_WITH_AS(ColumnChunkReader::Make(*bad, 0, 0)->ReadBatch(10, &batch),
                       doctest::Contains("page 0: page CRC mismatch"), ParquetError);
  ColumnReaderOptions lenient;
  lenient.verify_crc = false;
  CHECK(ReadAll(ColumnChunkReader::Make(*bad, 0, 0, lenient).get(), 100) == std::vector<int>{1, -1, 3, -1, 5});
}

TEST_CASE("column reader: malformed pages are errors, never crashes") {
  ColumnBatch batch;
  SUBCASE("the chunk holds more values than its metadata says") {
    auto file = BuildFile({FirstPage(), SecondPageV2()}, 6, 6);
    auto reader = ColumnChunkReader::Make(*file, 0, 0);
    CHECK_THROWS_WITH_AS(ReadAll(reader.get(), 100), doctest::Contains("more values than the column chunk's num_values 6"),
                         ParquetError);
  }
  SUBCASE("the chunk holds fewer values than its metadata says") {
    auto file = BuildFile({FirstPage()}, 9, 9);
    auto reader = ColumnChunkReader::Make(*file, 0, 0);
    CHECK_THROWS_WITH_AS(ReadAll(reader.get(), 100), doctest::Contains("num_values is 9"), ParquetError);
  }
  SUBCASE("level length beyond the page") {
    Page page = DataPageV1(5, {0x40, 0, 0, 0, 0x03, 0x15});
    auto file = BuildFile({page}, 5, 5);
    CHECK_THROWS_WITH_AS(ColumnChunkReader::Make(*file, 0, 0)->ReadBatch(10, &batch), doctest::Contains("levels claim 64 bytes"),
                         ParquetError);
  }
  SUBCASE("values missing") {
    Page page = DataPageV1(5, {0x02, 0, 0, 0, 0x03, 0x15, 1, 0, 0, 0});
    auto file = BuildFile({page}, 5, 5);
    CHECK_THROWS_AS(ColumnChunkReader::Make(*file, 0, 0)->ReadBatch(10, &batch), ParquetError);
  }
  SUBCASE("unsupported encoding names itself") {
    Page page = DataPageV1(5, FirstPage().body, Encoding::DELTA_LENGTH_BYTE_ARRAY);
    auto file = BuildFile({page}, 5, 5);
    CHECK_THROWS_WITH_AS(ColumnChunkReader::Make(*file, 0, 0)->ReadBatch(10, &batch),
                         doctest::Contains("encoding DELTA_LENGTH_BYTE_ARRAY is not supported for INT32 column 'x'"),
                         ParquetError);
  }
  SUBCASE("every truncation of a valid file is an error, never a crash") {
    // Truncating the page region: rebuild with the body cut short but sizes unchanged.
    for (size_t cut = 0; cut < FirstPage().body.size(); cut++) {
      Page page = FirstPage();
      page.body.resize(cut);
      auto file = BuildFile({page}, 5, 5);
      CHECK_THROWS_AS(ReadAll(ColumnChunkReader::Make(*file, 0, 0).get(), 100), ParquetError);
    }
  }
}

TEST_CASE("file reader: footer validation") {
  SUBCASE("too small") {
    Bytes tiny = {'P', 'A', 'R', '1'};
    CHECK_THROWS_WITH_AS(ParquetFileReader::Open(OpenMemoryFile(tiny.data(), tiny.size(), "tiny")),
                         doctest::Contains("not a parquet file: tiny is only 4 bytes"), ParquetError);
  }
  SUBCASE("encrypted footer") {
    Bytes pare = {'P', 'A', 'R', 'E', 0, 0, 0, 0, 1, 0, 0, 0, 'P', 'A', 'R', 'E'};
    CHECK_THROWS_WITH_AS(ParquetFileReader::Open(OpenMemoryFile(pare.data(), pare.size(), "enc")),
                         doctest::Contains("corrupt encrypted footer in enc: file crypto metadata is missing"), ParquetError);
  }
  SUBCASE("footer length larger than the file") {
    Bytes bad = {'P', 'A', 'R', '1', 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 'P', 'A', 'R', '1'};
    CHECK_THROWS_WITH_AS(ParquetFileReader::Open(OpenMemoryFile(bad.data(), bad.size(), "bad")),
                         doctest::Contains("footer length 65535 does not fit"), ParquetError);
  }
  SUBCASE("row count and rowid positions") {
    auto file = BuildFile({FirstPage(), SecondPageV2()}, 8, 8);
    CHECK(file->num_rows() == 8);
    CHECK(file->row_group_first_row(0) == 0);
  }
}
