// Tests of decompression ahead of the scan (format/read/decompress_ahead.h): a reader that takes
// the worker's pages reads the same values as one that decompresses them itself, for data
// pages v1 and v2, snappy and zstd, integers and text; the worker stays within its window
// of pages ahead; its buffers are charged to the scan's budget and given back; a budget
// without room, a stopped worker and a damaged page leave the reading to the reader, which
// reports the damage as before.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "format/read/column_reader.h"
#include "format/codec/compression.h"
#include "format/read/decompress_ahead.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "format/read/page_reader.h"
#include "tests/unit/schema_elements.h"
#include "tests/unit/temp_dir.h"

using namespace parquet;
using test_support::LeafElement;
using test_support::RootElement;

namespace {

constexpr int kRowGroups = 4;
constexpr int64_t kRowGroupRows = 3000;

std::string TextOf(int64_t r) { return "row " + std::to_string(r * 7919 % 100003) + std::string(r % 23, 'x'); }

// Flips the `bits` of the byte at `offset` of the file at `path`.
void FlipBits(const std::string& path, uint64_t offset, int bits) {
  std::FILE* f = std::fopen(path.c_str(), "r+b");
  REQUIRE(f != nullptr);
  std::fseek(f, static_cast<long>(offset), SEEK_SET);
  const int c = std::fgetc(f);
  std::fseek(f, static_cast<long>(offset), SEEK_SET);
  std::fputc(c ^ bits, f);
  std::fclose(f);
}

// `name`_<codec>_v<page_version>.parquet in `dir`.
std::string FilePath(const test_support::TempDir& dir, const std::string& name, CompressionCodec codec,
                     int page_version) {
  return dir.File(name + "_" + std::to_string(static_cast<int>(codec)) + "_v" + std::to_string(page_version) +
                  ".parquet");
}

// Data pages of `page_version` and about `page_size` bytes, with `codec`, without dictionaries.
WriterOptions PlainPages(CompressionCodec codec, int page_version, size_t page_size) {
  WriterOptions options;
  options.codec = codec;
  options.data_page_version = page_version;
  options.page_size = page_size;
  options.dictionary = false;
  return options;
}

// id INT64 REQUIRED (r * 3) and s BYTE_ARRAY OPTIONAL (TextOf, null every 11th row), in
// small pages.
std::string WriteFile(const test_support::TempDir& dir, CompressionCodec codec, int page_version) {
  const std::string path = FilePath(dir, "ahead", codec, page_version);
  const WriterOptions options = PlainPages(codec, page_version, 4 << 10);
  ParquetFileWriter writer(path,
                           {RootElement(2), LeafElement("id", FieldRepetitionType::REQUIRED, Type::INT64),
                            LeafElement("s", FieldRepetitionType::OPTIONAL, Type::BYTE_ARRAY)},
                           options);
  for (int g = 0; g < kRowGroups; g++) {
    writer.StartRowGroup();
    std::vector<int64_t> ids;
    std::vector<std::string> texts;
    std::vector<ByteArray> values;
    std::vector<int16_t> def;
    for (int64_t r = g * kRowGroupRows; r < (g + 1) * kRowGroupRows; r++) {
      ids.push_back(r * 3);
      def.push_back(r % 11 == 0 ? 0 : 1);
      if (r % 11 != 0) texts.push_back(TextOf(r));
    }
    for (const std::string& t : texts) {
      values.push_back(ByteArray{reinterpret_cast<const uint8_t*>(t.data()), static_cast<uint32_t>(t.size())});
    }
    writer.WriteBatch<int64_t>(0, ids.size(), nullptr, nullptr, ids.data(), ids.size());
    writer.WriteBatch<ByteArray>(1, def.size(), def.data(), nullptr, values.data(), values.size());
    writer.EndRowGroup(kRowGroupRows);
  }
  writer.Close();
  return path;
}

// Every value of `column`, row group by row group (text as strings, "NULL" for a null),
// with `options`; between row groups, `between` runs (after the reader moved to the next).
template <class Between>
std::vector<std::string> ReadColumn(const ParquetFileReader& file, int column, const ColumnReaderOptions& options,
                                    ColumnReadCounters* counters, Between between) {
  std::vector<std::string> out;
  auto reader = ColumnChunkReader::Make(file, 0, column, options);
  ColumnBatch batch;
  for (int g = 0; g < file.num_row_groups(); g++) {
    if (g > 0) reader->Reset(g);
    between(g);
    while (size_t n = reader->ReadBatch(1000, &batch)) {
      size_t v = 0;
      for (size_t i = 0; i < n; i++) {
        if (column == 0) {
          out.push_back(std::to_string(batch.values<int64_t>()[v++]));
        } else if (batch.def_levels[i] == 0) {
          out.push_back("NULL");
        } else {
          const ByteArray& a = batch.values<ByteArray>()[v++];
          out.emplace_back(reinterpret_cast<const char*>(a.ptr), a.len);
        }
      }
    }
  }
  *counters = reader->counters();
  return out;
}

// The data pages of row group 0 of `column`.
uint64_t FirstGroupPages(const ParquetFileReader& file, int column) {
  auto reader = ColumnChunkReader::Make(file, 0, column, ColumnReaderOptions());
  ColumnBatch batch;
  while (reader->ReadBatch(1000, &batch) > 0) {
  }
  return reader->counters().pages_read;
}

std::vector<std::string> Expected(int column) {
  std::vector<std::string> out;
  for (int64_t r = 0; r < kRowGroups * kRowGroupRows; r++) {
    if (column == 0) out.push_back(std::to_string(r * 3));
    else out.push_back(r % 11 == 0 ? "NULL" : TextOf(r));
  }
  return out;
}

}  // namespace

TEST_CASE("decompress ahead: the reader takes the worker's pages and reads the same values") {
  test_support::TempDir dir;
  for (CompressionCodec codec : {CompressionCodec::SNAPPY, CompressionCodec::ZSTD}) {
    for (int version : {1, 2}) {
      INFO("codec " << static_cast<int>(codec) << ", data page v" << version);
      auto file = ParquetFileReader::Open(WriteFile(dir, codec, version));
      for (int column : {0, 1}) {
        INFO("column " << column);
        auto budget = std::make_shared<MemoryBudget>(uint64_t{1} << 30, "max_memory");
        ColumnReaderOptions options;
        options.memory_budget = budget;
        // A window wider than a chunk, and the worker given time to fill it at each row
        // group: every page comes from it.
        auto ahead = std::make_shared<DecompressAhead>(*file, budget, true, 1000);
        options.decompress_ahead = ahead;
        ColumnReadCounters counters;
        const auto values = ReadColumn(*file, column, options, &counters, [&](int) { ahead->WaitIdle(); });
        const uint64_t pages_ahead = counters.pages_decompressed_ahead, pages_read = counters.pages_read;
        CHECK(values == Expected(column));
        CHECK(pages_read > static_cast<uint64_t>(kRowGroups) * 2);
        ColumnReadCounters plain_counters;
        ColumnReaderOptions plain;
        CHECK(ReadColumn(*file, column, plain, &plain_counters, [](int) {}) == values);
        CHECK(plain_counters.pages_decompressed_ahead == 0);
        CHECK(plain_counters.pages_read == pages_read);
        CHECK(pages_ahead == pages_read);
        // Every byte of the chunks counts once, as without the worker: the reader read the
        // headers, and the bodies' bytes beyond those reads are added when it takes a page.
        uint64_t chunks = 0;
        for (int g = 0; g < kRowGroups; g++) chunks += file->column_chunk_range(g, column).length;
        INFO("bytes read " << counters.bytes_read << ", without the worker " << plain_counters.bytes_read
                           << ", column chunks " << chunks);
        CHECK(plain_counters.bytes_read == chunks);
        CHECK(counters.bytes_read == chunks);
        CHECK(ahead->pages_decompressed() == pages_ahead);
        options.decompress_ahead.reset();
        ahead.reset();
        CHECK(budget->used() == 0);  // the reader's buffers and the worker's given back
      }
    }
  }
}

TEST_CASE("decompress ahead: the worker keeps at most its window of pages ahead of the reader") {
  test_support::TempDir dir;
  auto file = ParquetFileReader::Open(WriteFile(dir, CompressionCodec::SNAPPY, 1));
  REQUIRE(FirstGroupPages(*file, 1) > 4);
  auto ahead = std::make_shared<DecompressAhead>(*file, nullptr, true, 2);
  ColumnReaderOptions options;
  options.decompress_ahead = ahead;
  auto reader = ColumnChunkReader::Make(*file, 0, 1, options);
  ahead->WaitIdle();
  CHECK(ahead->pages_decompressed() == 2);  // pages 0 and 1 of row group 0
  ColumnBatch batch;
  REQUIRE(reader->ReadBatch(1, &batch) == 1);  // takes page 0
  ahead->WaitIdle();
  CHECK(ahead->pages_decompressed() == 3);
  CHECK(reader->counters().pages_decompressed_ahead == 1);
  // Whatever the pace, every value is right and the window holds.
  uint64_t values = 1;
  while (size_t n = reader->ReadBatch(97, &batch)) values += n;
  CHECK(values == static_cast<uint64_t>(kRowGroupRows));
  ahead->WaitIdle();
  const uint64_t group_pages = reader->counters().pages_read;
  // Row group 0 read to its end: the worker went on to row group 1's first two pages.
  CHECK(ahead->pages_decompressed() <= group_pages + 2);
}

TEST_CASE("decompress ahead: the worker's buffers are charged to the scan's budget and given back") {
  test_support::TempDir dir;
  auto file = ParquetFileReader::Open(WriteFile(dir, CompressionCodec::SNAPPY, 1));
  auto chunk = [&](int g) { return static_cast<uint64_t>(file->column_metadata(g, 1).total_uncompressed_size); };
  SUBCASE("given back when the worker goes") {
    auto budget = std::make_shared<MemoryBudget>(uint64_t{1} << 30, "max_memory");
    {
      DecompressAhead ahead(*file, budget, true, 2);
      ahead.MovedTo(1, 0);
      // Room for the page the reader decodes and two ahead, each the larger chunk's size
      // and an eighth to spare.
      auto room = [](uint64_t page) { return 3 * (page + page / 8); };
      CHECK(budget->used() == room(std::max(chunk(0), chunk(1))));
      CHECK(ahead.charged() == budget->used());
      ahead.WaitIdle();
      CHECK(ahead.pages_decompressed() == 2);
      ahead.MovedTo(1, 2);
      CHECK(budget->used() == room(std::max({chunk(0), chunk(1), chunk(2), chunk(3)})));
    }
    CHECK(budget->used() == 0);
  }
  SUBCASE("a column whose room would take over half the budget is left to the reader") {
    auto budget = std::make_shared<MemoryBudget>(5 * std::max(chunk(0), chunk(1)), "max_memory");
    ColumnReaderOptions options;
    auto ahead = std::make_shared<DecompressAhead>(*file, budget, true, 2);
    options.decompress_ahead = ahead;
    ColumnReadCounters counters;
    CHECK(ReadColumn(*file, 1, options, &counters, [&](int) { ahead->WaitIdle(); }) == Expected(1));
    CHECK(counters.pages_decompressed_ahead == 0);
    CHECK(ahead->pages_decompressed() == 0);
    CHECK(ahead->charged() == 0);
    CHECK(budget->used() == 0);
  }
}

TEST_CASE("decompress ahead: a stopped worker leaves the pages to the reader") {
  test_support::TempDir dir;
  auto file = ParquetFileReader::Open(WriteFile(dir, CompressionCodec::ZSTD, 2));
  ColumnReaderOptions options;
  auto ahead = std::make_shared<DecompressAhead>(*file, nullptr, true);
  options.decompress_ahead = ahead;
  ColumnReadCounters counters;
  const auto values = ReadColumn(*file, 1, options, &counters, [&](int g) {
    ahead->WaitIdle();
    if (g == 2) ahead->Stop();  // row group 2's pages done, row group 3's never asked for
  });
  CHECK(values == Expected(1));
  CHECK(counters.pages_decompressed_ahead > 0);
  CHECK(counters.pages_decompressed_ahead < counters.pages_read);
}

TEST_CASE("decompress ahead: a damaged page is reported by the reader, as without the worker") {
  test_support::TempDir dir;
  const std::string path = WriteFile(dir, CompressionCodec::SNAPPY, 1);
  uint64_t damaged_at = 0;
  {
    auto file = ParquetFileReader::Open(path);
    // A byte in the middle of row group 2's text chunk: inside some page's body (CRC).
    const ColumnChunkRange range = file->column_chunk_range(2, 1);
    damaged_at = range.offset + range.length / 2;
  }
  FlipBits(path, damaged_at, 0x5a);
  auto file = ParquetFileReader::Open(path);
  auto read = [&](bool with_worker) {
    ColumnReaderOptions options;
    if (with_worker) options.decompress_ahead = std::make_shared<DecompressAhead>(*file, nullptr, true);
    ColumnReadCounters counters;
    std::string message;
    try {
      ReadColumn(*file, 1, options, &counters, [&](int) {
        if (options.decompress_ahead) options.decompress_ahead->WaitIdle();
      });
    } catch (const ParquetError& e) {
      message = e.what();
    }
    return message;
  };
  const std::string without = read(false);
  CHECK(without.find("row group 2") != std::string::npos);
  CHECK(read(true) == without);
}

namespace {

constexpr int64_t kLargeGroupRows = 60000;

// Text that compresses little (letters from a hash of the row), 40-60 bytes a row.
std::string NoisyTextOf(int64_t r) {
  std::string text = "row " + std::to_string(r) + " ";
  uint64_t h = static_cast<uint64_t>(r) * 0x9E3779B97F4A7C15ull;
  const size_t length = 40 + static_cast<size_t>(r % 21);
  while (text.size() < length) {
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    text.push_back(static_cast<char>('a' + h % 26));
  }
  return text;
}

// Views of `texts`, for WriteBatch.
std::vector<ByteArray> ByteArraysOf(const std::vector<std::string>& texts) {
  std::vector<ByteArray> values;
  for (const std::string& t : texts) {
    values.push_back(ByteArray{reinterpret_cast<const uint8_t*>(t.data()), static_cast<uint32_t>(t.size())});
  }
  return values;
}

// t BYTE_ARRAY REQUIRED (NoisyTextOf), two row groups, in pages of 1 MiB: each page's
// stored body is larger than the piece the worker reads at a time (PageReader::kBodyPiece).
std::string WriteLargePageFile(const test_support::TempDir& dir, CompressionCodec codec, int page_version) {
  const std::string path = FilePath(dir, "large", codec, page_version);
  const WriterOptions options = PlainPages(codec, page_version, 1 << 20);
  ParquetFileWriter writer(path, {RootElement(1), LeafElement("t", FieldRepetitionType::REQUIRED, Type::BYTE_ARRAY)},
                           options);
  for (int g = 0; g < 2; g++) {
    writer.StartRowGroup();
    std::vector<std::string> texts;
    for (int64_t r = g * kLargeGroupRows; r < (g + 1) * kLargeGroupRows; r++) texts.push_back(NoisyTextOf(r));
    const std::vector<ByteArray> values = ByteArraysOf(texts);
    writer.WriteBatch<ByteArray>(0, values.size(), nullptr, nullptr, values.data(), values.size());
    writer.EndRowGroup(kLargeGroupRows);
  }
  writer.Close();
  return path;
}

std::vector<std::string> ReadLargePageColumn(const ParquetFileReader& file, const ColumnReaderOptions& options,
                                             ColumnReadCounters* counters) {
  std::vector<std::string> out;
  auto reader = ColumnChunkReader::Make(file, 0, 0, options);
  ColumnBatch batch;
  for (int g = 0; g < file.num_row_groups(); g++) {
    if (g > 0) reader->Reset(g);
    if (options.decompress_ahead) options.decompress_ahead->WaitIdle();
    while (size_t n = reader->ReadBatch(1000, &batch)) {
      for (size_t i = 0; i < n; i++) {
        const ByteArray& a = batch.values<ByteArray>()[i];
        out.emplace_back(reinterpret_cast<const char*>(a.ptr), a.len);
      }
    }
  }
  *counters = reader->counters();
  return out;
}

// The largest stored body among the chunk's data pages.
size_t LargestStoredPage(const ParquetFileReader& file, int row_group) {
  ColumnReadCounters counters;
  PageReader pages(file, 0, ColumnReaderOptions(), &counters);
  pages.Reset(row_group);
  size_t largest = 0;
  while (pages.NextPage()) largest = std::max(largest, pages.body_size());
  return largest;
}

}  // namespace

TEST_CASE("decompress ahead: pages larger than a piece are read a piece at a time") {
  test_support::TempDir dir;
  std::vector<std::string> expected;
  for (int64_t r = 0; r < 2 * kLargeGroupRows; r++) expected.push_back(NoisyTextOf(r));
  for (CompressionCodec codec :
       {CompressionCodec::SNAPPY, CompressionCodec::ZSTD, CompressionCodec::BROTLI, CompressionCodec::GZIP}) {
    for (int version : {1, 2}) {
      INFO("codec " << ToString(codec) << ", data page v" << version);
      auto file = ParquetFileReader::Open(WriteLargePageFile(dir, codec, version));
      const size_t largest = LargestStoredPage(*file, 0);
      REQUIRE(largest > 2 * PageReader::kBodyPiece);
      ColumnReaderOptions options;
      auto ahead = std::make_shared<DecompressAhead>(*file, nullptr, true, 1000);
      options.decompress_ahead = ahead;
      ColumnReadCounters counters, plain_counters;
      CHECK(ReadLargePageColumn(*file, options, &counters) == expected);
      CHECK(ReadLargePageColumn(*file, ColumnReaderOptions(), &plain_counters) == expected);
      CHECK(counters.pages_read > 4);
      CHECK(counters.pages_decompressed_ahead == counters.pages_read);
      CHECK(counters.bytes_read == plain_counters.bytes_read);
      // snappy, zstd and brotli pages pass through a window of a piece (and the next
      // page's header read along); gzip's are read whole.
      ahead->Stop();
      INFO("read window " << ahead->read_window_capacity() << " bytes, largest stored page " << largest);
      if (DecompressesInPieces(codec)) {
        CHECK(ahead->read_window_capacity() <= PageReader::kPieceWindow);
      } else {
        CHECK(ahead->read_window_capacity() >= largest);
      }
    }
  }
}

// Moves `pages` to the chunk's first page stored in more than two pieces.
bool ToLargePage(PageReader& pages) {
  while (pages.NextPage()) {
    if (pages.body_size() > 2 * PageReader::kBodyPiece) return true;
  }
  return false;
}

TEST_CASE("page reader: a page decompressed in pieces holds a piece of it as stored, and checks its CRC") {
  test_support::TempDir dir;
  const std::string path = WriteLargePageFile(dir, CompressionCodec::SNAPPY, 1);
  auto decompress_large_page = [&](std::vector<uint8_t>* out, uint64_t* budget_used) {
    auto file = ParquetFileReader::Open(path);
    auto budget = std::make_shared<MemoryBudget>(uint64_t{1} << 30, "max_memory");
    ColumnReaderOptions options;
    options.memory_budget = budget;
    ColumnReadCounters counters;
    PageReader pages(*file, 0, options, &counters);
    pages.Reset(0);
    REQUIRE(ToLargePage(pages));
    const PageValueSection section = pages.ValueSection();
    const uint8_t* values = pages.DecompressValuesInPieces(section, [&](size_t size) {
      out->resize(size);
      return out->data();
    });
    CHECK(values == out->data());
    *budget_used = budget->used();  // the read window's
    CHECK(*budget_used < pages.body_size() / 2);
    // The same bytes as the page decompressed whole.
    ColumnReadCounters whole_counters;
    PageReader whole(*file, 0, ColumnReaderOptions(), &whole_counters);
    whole.Reset(0);
    REQUIRE(ToLargePage(whole));
    size_t size = 0;
    const uint8_t* body = whole.DataPageV1Body(&size);
    CHECK(std::vector<uint8_t>(body, body + size) == *out);
  };
  std::vector<uint8_t> out;
  uint64_t used = 0;
  decompress_large_page(&out, &used);
  // A byte of that page's body damaged past its first piece: the CRC, checked as
  // the bytes pass, says so.
  uint64_t damaged_at = 0;
  {
    auto file = ParquetFileReader::Open(path);
    ColumnReadCounters counters;
    PageReader pages(*file, 0, ColumnReaderOptions(), &counters);
    pages.Reset(0);
    REQUIRE(ToLargePage(pages));
    damaged_at = pages.page_offset() + pages.body_size();  // within the body, past the first piece
  }
  FlipBits(path, damaged_at, 0x01);
  std::string message;
  try {
    decompress_large_page(&out, &used);
  } catch (const ParquetError& e) {
    message = e.what();
  }
  CHECK(message.find("page CRC mismatch") != std::string::npos);
}

namespace {

constexpr int64_t kDictionaryEntries = 6000;

// t BYTE_ARRAY REQUIRED, dictionary-encoded: row r holds NoisyTextOf(r % kDictionaryEntries),
// so the one row group's dictionary page is stored in more than two pieces.
std::string WriteLargeDictionaryFile(const test_support::TempDir& dir, CompressionCodec codec) {
  const std::string path = FilePath(dir, "dictionary", codec, 1);
  WriterOptions options = PlainPages(codec, 1, 64 << 10);
  options.column_encoding[0] = Encoding::RLE_DICTIONARY;
  ParquetFileWriter writer(path, {RootElement(1), LeafElement("t", FieldRepetitionType::REQUIRED, Type::BYTE_ARRAY)},
                           options);
  writer.StartRowGroup();
  std::vector<std::string> texts;
  for (int64_t r = 0; r < 2 * kDictionaryEntries; r++) texts.push_back(NoisyTextOf(r % kDictionaryEntries));
  const std::vector<ByteArray> values = ByteArraysOf(texts);
  writer.WriteBatch<ByteArray>(0, values.size(), nullptr, nullptr, values.data(), values.size());
  writer.EndRowGroup(static_cast<int64_t>(values.size()));
  writer.Close();
  return path;
}

}  // namespace

TEST_CASE("page reader: with decompress_ahead a dictionary page is read a piece at a time, and checks its CRC") {
  test_support::TempDir dir;
  for (CompressionCodec codec : {CompressionCodec::SNAPPY, CompressionCodec::ZSTD, CompressionCodec::BROTLI}) {
    INFO("codec " << ToString(codec));
    const std::string path = WriteLargeDictionaryFile(dir, codec);
    // The dictionary page's bytes, and the most the budget held for them at once: its
    // buffer, and the read window beside it.
    auto read_dictionary = [&](bool ahead, std::vector<uint8_t>* bytes, uint64_t* used, size_t* stored) {
      auto file = ParquetFileReader::Open(path);
      auto budget = std::make_shared<MemoryBudget>(uint64_t{1} << 30, "max_memory");
      ColumnReaderOptions options;
      options.memory_budget = budget;
      if (ahead) options.decompress_ahead = std::make_shared<DecompressAhead>(*file, nullptr, true, 1);
      ColumnReadCounters counters;
      PageReader pages(*file, 0, options, &counters);
      pages.Reset(0);
      REQUIRE(pages.NextPage());
      REQUIRE(pages.header().type == PageType::DICTIONARY_PAGE);
      *stored = pages.body_size();
      size_t size = 0;
      const uint8_t* data = pages.DictionaryPageBytes(&size);
      bytes->assign(data, data + size);
      *used = budget->peak();
    };
    std::vector<uint8_t> whole, pieces;
    uint64_t used_whole = 0, used_pieces = 0;
    size_t stored = 0;
    read_dictionary(false, &whole, &used_whole, &stored);
    read_dictionary(true, &pieces, &used_pieces, &stored);
    REQUIRE(stored > 2 * PageReader::kBodyPiece);
    CHECK(pieces == whole);
    CHECK(used_whole >= whole.size() + stored);  // the page as stored, and decompressed
    CHECK(used_pieces < whole.size() + stored / 2);
    // The values through a column reader the worker serves.
    {
      auto file = ParquetFileReader::Open(path);
      ColumnReaderOptions options;
      options.decompress_ahead = std::make_shared<DecompressAhead>(*file, nullptr, true, 1);
      auto reader = ColumnChunkReader::Make(*file, 0, 0, options);
      ColumnBatch batch;
      int64_t r = 0;
      bool same = true;
      while (size_t n = reader->ReadBatch(1000, &batch)) {
        for (size_t i = 0; i < n; i++, r++) {
          const ByteArray& a = batch.values<ByteArray>()[i];
          same = same && std::string(reinterpret_cast<const char*>(a.ptr), a.len) == NoisyTextOf(r % kDictionaryEntries);
        }
      }
      CHECK(r == 2 * kDictionaryEntries);
      CHECK(same);
      CHECK(reader->counters().dictionary_pages_read == 1);
    }
    // A byte of the dictionary page damaged past its first piece: a CRC mismatch.
    uint64_t damaged_at = 0;
    {
      auto file = ParquetFileReader::Open(path);
      ColumnReadCounters counters;
      PageReader pages(*file, 0, ColumnReaderOptions(), &counters);
      pages.Reset(0);
      REQUIRE(pages.NextPage());
      damaged_at = pages.page_offset() + pages.body_size();  // within the body, past the first piece
    }
    FlipBits(path, damaged_at, 0x01);
    std::string message;
    try {
      read_dictionary(true, &pieces, &used_pieces, &stored);
    } catch (const ParquetError& e) {
      message = e.what();
    }
    CHECK(message.find("page CRC mismatch") != std::string::npos);
  }
}
