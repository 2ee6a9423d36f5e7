// Tests of page-level selection: RowRanges (against a bitset), reading and validating the
// page index (our writer's files, parquet-testing files, corrupted indexes), SeekToRow and
// offset-index page jumps against a full read, and the dictionary probe.
#include <doctest/doctest.h>

#include <stdlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "format/index/bloom_filter.h"
#include "format/read/column_reader.h"
#include "format/encoding/rle_bit_packed_hybrid.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "format/metadata/metadata.h"
#include "format/index/page_index.h"
#include "format/io/remote_file.h"
#include "format/read/row_ranges.h"
#include "tests/unit/temp_dir.h"
#include "tests/unit/schema_elements.h"

namespace parquet {
namespace {

using test_support::LeafElement;
using test_support::RootElement;

const std::string kTestingData = "../shared/parquet-testing/data/";

// ---------------------------------------------------------------------------------------
// RowRanges.

std::vector<bool> ToBits(const RowRanges& ranges, int64_t n) {
  std::vector<bool> bits(static_cast<size_t>(n), false);
  for (const RowRange& r : ranges) {
    for (int64_t i = r.begin; i < r.end; i++) bits[static_cast<size_t>(i)] = true;
  }
  return bits;
}

// Checks the invariants: sorted, non-empty, disjoint and non-adjacent intervals.
void CheckNormalized(const RowRanges& ranges) {
  for (size_t i = 0; i < ranges.num_ranges(); i++) {
    CHECK(ranges.range(i).begin < ranges.range(i).end);
    if (i > 0) CHECK(ranges.range(i - 1).end < ranges.range(i).begin);
  }
}

TEST_CASE("row ranges: building, merging and lookups") {
  RowRanges all = RowRanges::All(10);
  CHECK(all.num_rows() == 10);
  CHECK(all.ToString() == "[0, 10)");
  CHECK(RowRanges::All(0).empty());
  CHECK(RowRanges().ToString() == "(none)");

  RowRanges merged = RowRanges::FromRanges({{20, 30}, {0, 5}, {5, 8}, {25, 40}, {50, 50}, {60, 55}});
  CHECK(merged.ToString() == "[0, 8), [20, 40)");
  CHECK(merged.num_rows() == 28);
  CHECK(merged.Contains(0));
  CHECK(merged.Contains(7));
  CHECK_FALSE(merged.Contains(8));
  CHECK_FALSE(merged.Contains(19));
  CHECK(merged.Contains(20));
  CHECK_FALSE(merged.Contains(40));
  CHECK(merged.NextRowAtOrAfter(3, 100) == 3);
  CHECK(merged.NextRowAtOrAfter(8, 100) == 20);
  CHECK(merged.NextRowAtOrAfter(40, 100) == 100);
  CHECK(merged.NextRowAtOrAfter(40) == INT64_MAX);
  CHECK(merged.last_end() == 40);

  RowRanges appended;
  appended.Append(0, 3);
  appended.Append(3, 5);  // touching: merged
  appended.Append(7, 7);  // empty: ignored
  appended.Append(9, 12);
  CHECK(appended.ToString() == "[0, 5), [9, 12)");

  RowRanges other = RowRanges::FromRanges({{4, 10}, {11, 21}});
  CHECK(appended.Intersect(other).ToString() == "[4, 5), [9, 10), [11, 12)");
  CHECK(appended.Union(other).ToString() == "[0, 21)");
  CHECK(appended.Intersect(RowRanges()).empty());
  CHECK(appended.Union(RowRanges()) == appended);
}

TEST_CASE("row ranges: set operations and lookups agree with a bitset on random inputs") {
  std::mt19937 rng(12345);
  const int64_t n = 200;
  auto random_ranges = [&](int count) {
    std::vector<RowRange> ranges;
    for (int i = 0; i < count; i++) {
      int64_t begin = static_cast<int64_t>(rng() % n);
      int64_t length = static_cast<int64_t>(rng() % 30);
      ranges.push_back({begin, std::min(n, begin + length)});
    }
    return RowRanges::FromRanges(ranges);
  };
  for (int round = 0; round < 500; round++) {
    RowRanges a = random_ranges(static_cast<int>(rng() % 8));
    RowRanges b = random_ranges(static_cast<int>(rng() % 8));
    std::vector<bool> bits_a = ToBits(a, n), bits_b = ToBits(b, n);
    RowRanges both = a.Intersect(b), either = a.Union(b);
    CheckNormalized(a);
    CheckNormalized(both);
    CheckNormalized(either);
    std::vector<bool> bits_both = ToBits(both, n), bits_either = ToBits(either, n);
    int64_t count_a = 0;
    for (int64_t row = 0; row < n; row++) {
      size_t i = static_cast<size_t>(row);
      CHECK(bits_both[i] == (bits_a[i] && bits_b[i]));
      CHECK(bits_either[i] == (bits_a[i] || bits_b[i]));
      CHECK(a.Contains(row) == bits_a[i]);
      int64_t next = row;
      while (next < n && !bits_a[static_cast<size_t>(next)]) next++;
      CHECK(a.NextRowAtOrAfter(row, n) == next);
      count_a += bits_a[i];
    }
    CHECK(a.num_rows() == count_a);
  }
}

// ---------------------------------------------------------------------------------------
// Files written by our writer.

using test_support::TempDir;

// Column values of the test table: id = row (INT64 required, ascending), v (INT32 optional,
// null every 7th row), s (BYTE_ARRAY optional, 5 distinct strings, null every 11th row).
int64_t IdOf(int64_t row) { return row; }
std::optional<int32_t> VOf(int64_t row) {
  if (row % 7 == 0) return std::nullopt;
  return static_cast<int32_t>((row * 37) % 1000);
}
std::optional<std::string> SOf(int64_t row) {
  if (row % 11 == 0) return std::nullopt;
  return "key-" + std::to_string(row % 5);
}

// Writes `groups` row groups of `rows` rows each. Small pages so that every chunk has many.
void WriteTable(const std::string& path, int groups, int64_t rows, WriterOptions options) {
  ParquetFileWriter writer(path,
                           {RootElement(3), LeafElement("id", FieldRepetitionType::REQUIRED, Type::INT64),
                            LeafElement("v", FieldRepetitionType::OPTIONAL, Type::INT32),
                            LeafElement("s", FieldRepetitionType::OPTIONAL, Type::BYTE_ARRAY)},
                           options);
  for (int g = 0; g < groups; g++) {
    writer.StartRowGroup();
    const int64_t first = g * rows;
    std::vector<int64_t> ids;
    std::vector<int16_t> v_def, s_def;
    std::vector<int32_t> vs;
    std::vector<std::string> strings;
    for (int64_t r = first; r < first + rows; r++) {
      ids.push_back(IdOf(r));
      std::optional<int32_t> v = VOf(r);
      v_def.push_back(v.has_value() ? 1 : 0);
      if (v) vs.push_back(*v);
      std::optional<std::string> s = SOf(r);
      s_def.push_back(s.has_value() ? 1 : 0);
      if (s) strings.push_back(*s);
    }
    std::vector<ByteArray> arrays;
    for (const std::string& s : strings) {
      arrays.push_back(ByteArray{reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())});
    }
    writer.WriteBatch<int64_t>(0, ids.size(), nullptr, nullptr, ids.data(), ids.size());
    writer.WriteBatch<int32_t>(1, v_def.size(), v_def.data(), nullptr, vs.data(), vs.size());
    writer.WriteBatch<ByteArray>(2, s_def.size(), s_def.data(), nullptr, arrays.data(), arrays.size());
    writer.EndRowGroup(rows);
  }
  writer.Close();
}

WriterOptions SmallPages() {
  WriterOptions options;
  options.page_size = 1024;
  options.codec = CompressionCodec::SNAPPY;
  options.dictionary = false;
  options.automatic_encoding = false;  // PLAIN pages: their sizes follow the row counts
  options.column_encoding[2] = Encoding::RLE_DICTIONARY;
  return options;
}

// One value of a column as text ("null" for a null), whatever its type: what the reads
// below compare.
using Column = std::vector<std::string>;

std::string SlotText(const ColumnBatch& batch, size_t slot, size_t value, Type type, int16_t max_def) {
  if (max_def > 0 && batch.def_levels[slot] != max_def) return "null";
  switch (type) {
    case Type::INT32: return std::to_string(batch.values<int32_t>()[value]);
    case Type::INT64: return std::to_string(batch.values<int64_t>()[value]);
    case Type::DOUBLE: return std::to_string(batch.values<double>()[value]);
    case Type::FLOAT: return std::to_string(batch.values<float>()[value]);
    case Type::BOOLEAN: return batch.values<bool>()[value] ? "true" : "false";
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY: return std::string(batch.values<ByteArray>()[value].view());
    case Type::INT96: {
      const Int96& v = batch.values<Int96>()[value];
      return std::to_string(v.words[0]) + ":" + std::to_string(v.words[1]) + ":" + std::to_string(v.words[2]);
    }
  }
  return "?";
}

// Reads up to `count` slots from the reader's position (a flat column: one slot per row).
Column ReadSlots(ColumnChunkReader* reader, size_t count) {
  Column out;
  ColumnBatch batch;
  const Type type = reader->descriptor().physical_type;
  const int16_t max_def = reader->descriptor().max_definition_level;
  while (out.size() < count) {
    size_t n = reader->ReadBatch(count - out.size(), &batch);
    if (n == 0) break;
    size_t value = 0;
    for (size_t i = 0; i < n; i++) {
      out.push_back(SlotText(batch, i, value, type, max_def));
      if (max_def == 0 || batch.def_levels[i] == max_def) value++;
    }
  }
  return out;
}

Column ReadWholeChunk(const ParquetFileReader& file, int row_group, int column) {
  auto reader = ColumnChunkReader::Make(file, row_group, column);
  return ReadSlots(reader.get(), static_cast<size_t>(file.row_group_num_rows(row_group)) + 1);
}

// Seeks through a chunk to ascending random targets, reading `read_after` rows at each, and
// checks what it reads against the full read. Returns the reader's counters.
ColumnReadCounters CheckSeeks(const ParquetFileReader& file, int row_group, int column, const Column& full,
                              std::mt19937* rng, int seeks, size_t read_after, ColumnReaderOptions options,
                              std::shared_ptr<const OffsetIndex> supplied = nullptr) {
  auto reader = ColumnChunkReader::Make(file, row_group, column, options);
  if (supplied) reader->SetOffsetIndex(supplied);
  const int64_t rows = static_cast<int64_t>(full.size());
  std::vector<int64_t> targets;
  for (int i = 0; i < seeks; i++) targets.push_back(static_cast<int64_t>((*rng)() % static_cast<uint64_t>(rows)));
  std::sort(targets.begin(), targets.end());
  int64_t position = 0;
  for (int64_t target : targets) {
    if (target < position) continue;  // forward only: the previous read went past it
    CAPTURE(target);
    REQUIRE(reader->SeekToRow(target) == target);
    CHECK(reader->next_row() == target);
    Column got = ReadSlots(reader.get(), read_after);
    size_t expected_count = std::min(read_after, full.size() - static_cast<size_t>(target));
    REQUIRE(got.size() == expected_count);
    for (size_t i = 0; i < got.size(); i++) CHECK(got[i] == full[static_cast<size_t>(target) + i]);
    position = target + static_cast<int64_t>(got.size());
    CHECK(reader->next_row() == position);
  }
  CHECK(reader->SeekToRow(rows) == rows);  // the end
  CHECK_THROWS_WITH_AS(reader->SeekToRow(0), doctest::Contains("goes back"), ParquetError);
  return reader->counters();
}

TEST_CASE("page index: our writer's offset and column indexes describe the pages in the file") {
  TempDir dir;
  const std::string path = dir.File("t.parquet");
  const int64_t rows = 5000;
  WriteTable(path, 2, rows, SmallPages());
  auto file = ParquetFileReader::Open(path);
  for (int rg = 0; rg < 2; rg++) {
    for (int column = 0; column < 3; column++) {
      CAPTURE(rg);
      CAPTURE(column);
      PageIndex index = ReadPageIndex(*file, rg, column);
      REQUIRE(index.available);
      const std::vector<PageLocation>& pages = index.offset_index.page_locations;
      REQUIRE(pages.size() > (column == 2 ? 1u : 5u));  // s: dictionary indexes, small pages
      // The pages' rows tile the row group.
      int64_t next = 0;
      for (size_t p = 0; p < pages.size(); p++) {
        RowRange range = PageRowRange(index.offset_index, p, rows);
        CHECK(range.begin == next);
        CHECK(range.end > range.begin);
        next = range.end;
        // Each location holds a data page header whose value count is the page's rows.
        std::vector<uint8_t> bytes;
        file->file().ReadAt(static_cast<uint64_t>(pages[p].offset), static_cast<size_t>(pages[p].compressed_page_size),
                            &bytes);
        size_t header_size = 0;
        PageHeader header = ParsePageHeader(bytes.data(), bytes.size(), &header_size);
        REQUIRE(header.data_page_header.has_value());
        CHECK(header.data_page_header->num_values == range.end - range.begin);
        CHECK(header_size + static_cast<size_t>(header.compressed_page_size) ==
              static_cast<size_t>(pages[p].compressed_page_size));
      }
      CHECK(next == rows);
      if (column == 0) {
        // id = row: each page's bounds are its first and last row (plus the group's offset).
        for (size_t p = 0; p < pages.size(); p++) {
          RowRange range = PageRowRange(index.offset_index, p, rows);
          int64_t min = 0, max = 0;
          REQUIRE(index.column_index.min_values[p].size() == 8);
          std::memcpy(&min, index.column_index.min_values[p].data(), 8);
          std::memcpy(&max, index.column_index.max_values[p].data(), 8);
          CHECK(min == rg * rows + range.begin);
          CHECK(max == rg * rows + range.end - 1);
        }
      }
    }
  }
}

TEST_CASE("page index: selected pages become row ranges, and row ranges name the pages to read") {
  TempDir dir;
  const std::string path = dir.File("t.parquet");
  const int64_t rows = 3000;
  WriteTable(path, 1, rows, SmallPages());
  auto file = ParquetFileReader::Open(path);
  std::optional<OffsetIndex> index = ReadOffsetIndex(*file, 0, 0);
  REQUIRE(index.has_value());
  const size_t pages = index->page_locations.size();
  REQUIRE(pages > 4);
  std::vector<bool> selected(pages, false);
  selected[1] = selected[2] = selected[pages - 1] = true;
  RowRanges ranges = RowRangesOfPages(*index, rows, selected);
  RowRange p1 = PageRowRange(*index, 1, rows), p2 = PageRowRange(*index, 2, rows),
           last = PageRowRange(*index, pages - 1, rows);
  CHECK(ranges == RowRanges::FromRanges({{p1.begin, p2.end}, {last.begin, rows}}));
  CHECK(ranges.num_ranges() == 2);
  CHECK(PagesOverlapping(*index, rows, ranges) == std::vector<size_t>{1, 2, pages - 1});
  // One row inside page 3 and the last row of page 0.
  RowRanges rows_wanted = RowRanges::FromRanges({{p2.end + 1, p2.end + 2}, {p1.begin - 1, p1.begin}});
  CHECK(PagesOverlapping(*index, rows, rows_wanted) == std::vector<size_t>{0, 3});
  CHECK(RowRangesOfPages(*index, rows, std::vector<bool>(pages, false)).empty());
  CHECK(RowRangesOfPages(*index, rows, std::vector<bool>(pages, true)) == RowRanges::All(rows));
  CHECK_THROWS_WITH_AS(RowRangesOfPages(*index, rows, std::vector<bool>(pages + 1, true)),
                       doctest::Contains("entries for"), ParquetError);
}

TEST_CASE("column reader: SeekToRow gives the rows of a full read and reads fewer bytes") {
  TempDir dir;
  const std::string path = dir.File("t.parquet");
  const int64_t rows = 20000;
  for (int version : {1, 2}) {
    CAPTURE(version);
    WriterOptions options = SmallPages();
    options.data_page_version = version;
    WriteTable(path, 2, rows, options);
    auto file = ParquetFileReader::Open(path);
    std::mt19937 rng(7 + static_cast<unsigned>(version));
    for (int rg = 0; rg < 2; rg++) {
      for (int column = 0; column < 3; column++) {
        CAPTURE(rg);
        CAPTURE(column);
        Column full = ReadWholeChunk(*file, rg, column);
        REQUIRE(full.size() == static_cast<size_t>(rows));
        // The table's values, as written.
        for (int64_t r = 0; r < rows; r++) {
          const int64_t row = rg * rows + r;
          std::string expected = column == 0   ? std::to_string(IdOf(row))
                                 : column == 1 ? (VOf(row) ? std::to_string(*VOf(row)) : "null")
                                               : SOf(row).value_or("null");
          if (full[static_cast<size_t>(r)] != expected) {
            CHECK(full[static_cast<size_t>(r)] == expected);
            break;
          }
        }
        auto whole = ColumnChunkReader::Make(*file, rg, column);
        ReadSlots(whole.get(), static_cast<size_t>(rows));
        const ColumnReadCounters full_counters = whole->counters();

        ColumnReaderOptions with_index;
        ColumnReaderOptions without_index;
        without_index.use_offset_index = false;
        ColumnReadCounters jumped = CheckSeeks(*file, rg, column, full, &rng, 12, 30, with_index);
        ColumnReadCounters walked = CheckSeeks(*file, rg, column, full, &rng, 12, 30, without_index);
        std::optional<OffsetIndex> index = ReadOffsetIndex(*file, rg, column);
        REQUIRE(index.has_value());
        ColumnReadCounters supplied =
            CheckSeeks(*file, rg, column, full, &rng, 12, 30, without_index,
                       std::make_shared<const OffsetIndex>(*index));
        // Jumps read only the pages holding the targets (the 30 rows read after a target
        // may reach into the next page).
        CHECK(jumped.pages_read <= 24);
        CHECK(walked.pages_read <= 24);
        CHECK(jumped.pages_skipped > 0);
        CHECK(jumped.pages_read + jumped.pages_skipped <= full_counters.pages_read);
        if (column != 2) {
          // (s is a few small pages of dictionary indexes: nothing to save there.)
          CHECK(jumped.bytes_read < walked.bytes_read);
          CHECK(jumped.bytes_read < full_counters.bytes_read / 2);
          CHECK(supplied.bytes_read < walked.bytes_read);
        }
        CHECK(full_counters.pages_skipped == 0);
        CHECK(full_counters.dictionary_pages_read == (column == 2 ? 1u : 0u));
      }
    }
  }
}

TEST_CASE("column reader: Skip over many pages jumps through the offset index and keeps its place") {
  TempDir dir;
  const std::string path = dir.File("t.parquet");
  const int64_t rows = 20000;
  WriteTable(path, 1, rows, SmallPages());
  auto file = ParquetFileReader::Open(path);
  for (int column = 0; column < 3; column++) {
    Column full = ReadWholeChunk(*file, 0, column);
    auto reader = ColumnChunkReader::Make(*file, 0, column);
    // Alternate reads and skips of assorted sizes, within and across pages.
    int64_t position = 0;
    std::mt19937 rng(99);
    while (position < rows) {
      size_t skip = rng() % 2 == 0 ? rng() % 50 : rng() % 3000;
      size_t skipped = reader->Skip(skip);
      CHECK(skipped == std::min<size_t>(skip, static_cast<size_t>(rows - position)));
      position += static_cast<int64_t>(skipped);
      CHECK(reader->next_row() == position);
      Column got = ReadSlots(reader.get(), 5);
      for (size_t i = 0; i < got.size(); i++) CHECK(got[i] == full[static_cast<size_t>(position) + i]);
      position += static_cast<int64_t>(got.size());
    }
    CHECK(reader->Skip(10) == 0);
    CHECK(reader->counters().pages_skipped > 0);
  }
}

TEST_CASE("column reader: SeekToRow in a repeated column, with and without offset-index jumps, and after Reset") {
  // parquet-testing's alltypes_tiny_pages has no repeated columns; a LIST file of ours.
  TempDir dir;
  const std::string path = dir.File("list.parquet");
  SchemaElement list = LeafElement("x", FieldRepetitionType::REPEATED, Type::INT32);
  WriterOptions options;
  options.page_size = 256;
  options.dictionary = false;
  options.automatic_encoding = false;
  const int64_t rows = 4000;
  std::vector<int16_t> def, rep;
  std::vector<int32_t> values;
  std::vector<std::vector<int32_t>> expected(rows);
  for (int64_t r = 0; r < rows; r++) {
    int count = static_cast<int>(r % 4);  // 0: an empty list
    if (count == 0) {
      def.push_back(0);
      rep.push_back(0);
    }
    for (int i = 0; i < count; i++) {
      def.push_back(1);
      rep.push_back(i == 0 ? 0 : 1);
      values.push_back(static_cast<int32_t>(r * 10 + i));
      expected[static_cast<size_t>(r)].push_back(static_cast<int32_t>(r * 10 + i));
    }
  }
  {
    ParquetFileWriter writer(path, {RootElement(1), list}, options);
    for (int g = 0; g < 2; g++) {
      writer.StartRowGroup();
      writer.WriteBatch<int32_t>(0, def.size(), def.data(), rep.data(), values.data(), values.size());
      writer.EndRowGroup(rows);
    }
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  for (bool use_index : {true, false}) {
  CAPTURE(use_index);
  ColumnReaderOptions reader_options;
  reader_options.use_offset_index = use_index;
  auto reader = ColumnChunkReader::Make(*file, 0, 0, reader_options);
  for (int rg = 0; rg < 2; rg++) {
    if (rg > 0) reader->Reset(rg);
    for (int64_t target : {int64_t{0}, int64_t{3}, int64_t{1001}, int64_t{1002}, int64_t{2500}, int64_t{3999}}) {
      CAPTURE(target);
      REQUIRE(reader->SeekToRow(target) == target);
      // Read the row: slots up to the next row start.
      ColumnBatch batch;
      std::vector<int32_t> got;
      REQUIRE(reader->ReadBatch(1, &batch) == 1);
      CHECK(batch.rep_levels[0] == 0);
      if (batch.def_levels[0] == 1) got.push_back(batch.values<int32_t>()[0]);
      size_t more = expected[static_cast<size_t>(target)].empty() ? 0 : expected[static_cast<size_t>(target)].size() - 1;
      for (size_t i = 0; i < more; i++) {
        REQUIRE(reader->ReadBatch(1, &batch) == 1);
        CHECK(batch.rep_levels[0] == 1);
        got.push_back(batch.values<int32_t>()[0]);
      }
      CHECK(got == expected[static_cast<size_t>(target)]);
      CHECK(reader->next_row() == target + 1);
    }
    CHECK(reader->SeekToRow(rows) == rows);
    // Jumps skip pages unread; without the index v1 pages are decompressed to count rows.
    if (use_index) {
      CHECK(reader->counters().pages_skipped > 10);
      CHECK(reader->counters().pages_read < 20);
    } else {
      CHECK(reader->counters().pages_read > 20);
    }
  }
  if (!use_index) continue;
  reader->Reset(0);
  reader->Skip(3);
  CHECK(reader->next_row() == -1);
  CHECK_THROWS_WITH_AS(reader->SeekToRow(10), doctest::Contains("row is unknown"), ParquetError);
  }
}

TEST_CASE("page index: parquet-testing files with page indexes") {
  for (const char* name : {"alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet",
                           "data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"}) {
    CAPTURE(name);
    auto file = ParquetFileReader::Open(kTestingData + name);
    std::mt19937 rng(3);
    for (int column = 0; column < file->schema().num_columns(); column++) {
      CAPTURE(column);
      const int64_t rows = file->row_group_num_rows(0);
      PageIndex index = ReadPageIndex(*file, 0, column);
      std::optional<OffsetIndex> offsets = ReadOffsetIndex(*file, 0, column);
      REQUIRE(offsets.has_value());
      RowRanges covered = RowRangesOfPages(*offsets, rows, std::vector<bool>(offsets->page_locations.size(), true));
      CHECK(covered == RowRanges::All(rows));
      if (index.available) CHECK(index.column_index.null_pages.size() == offsets->page_locations.size());
      Column full = ReadWholeChunk(*file, 0, column);
      REQUIRE(full.size() == static_cast<size_t>(rows));
      ColumnReadCounters jumped = CheckSeeks(*file, 0, column, full, &rng, 10, 3, {});
      if (offsets->page_locations.size() > 20) {
        CHECK(jumped.pages_skipped > 0);
        CHECK(jumped.pages_read <= 20);  // the 3 rows after a target may reach the next page
      }
    }
  }
  // alltypes_tiny_pages: the id column's page bounds hold its values.
  auto file = ParquetFileReader::Open(kTestingData + "alltypes_tiny_pages.parquet");
  int id = -1;
  for (int c = 0; c < file->schema().num_columns(); c++) {
    if (file->schema().column(c).dotted_path == "id") id = c;
  }
  REQUIRE(id >= 0);
  PageIndex index = ReadPageIndex(*file, 0, id);
  REQUIRE(index.available);
  Column full = ReadWholeChunk(*file, 0, id);
  const int64_t rows = file->row_group_num_rows(0);
  for (size_t p = 0; p < index.offset_index.page_locations.size(); p++) {
    RowRange range = PageRowRange(index.offset_index, p, rows);
    int32_t min = 0, max = 0;
    std::memcpy(&min, index.column_index.min_values[p].data(), 4);
    std::memcpy(&max, index.column_index.max_values[p].data(), 4);
    for (int64_t r = range.begin; r < range.end; r++) {
      int32_t value = std::stoi(full[static_cast<size_t>(r)]);
      CHECK(value >= min);
      CHECK(value <= max);
    }
  }
}

// Every slot of a chunk as "rep/def/value" text, and where each row starts among them.
struct Slots {
  std::vector<std::string> text;
  std::vector<size_t> row_start;  // slot index of each row's first slot
};

Slots ReadAllSlots(ColumnChunkReader* reader) {
  Slots out;
  ColumnBatch batch;
  const Type type = reader->descriptor().physical_type;
  const int16_t max_def = reader->descriptor().max_definition_level;
  const bool repeated = reader->descriptor().max_repetition_level > 0;
  size_t n;
  while ((n = reader->ReadBatch(1000, &batch)) > 0) {
    size_t value = 0;
    for (size_t i = 0; i < n; i++) {
      int16_t rep = repeated ? batch.rep_levels[i] : 0;
      if (rep == 0) out.row_start.push_back(out.text.size());
      out.text.push_back(std::to_string(rep) + "/" + SlotText(batch, i, value, type, max_def));
      if (max_def == 0 || batch.def_levels[i] == max_def) value++;
    }
  }
  return out;
}

// Reads `count` slots as ReadAllSlots writes them.
std::vector<std::string> ReadSlotTexts(ColumnChunkReader* reader, size_t count) {
  std::vector<std::string> out;
  ColumnBatch batch;
  const Type type = reader->descriptor().physical_type;
  const int16_t max_def = reader->descriptor().max_definition_level;
  const bool repeated = reader->descriptor().max_repetition_level > 0;
  while (out.size() < count) {
    size_t n = reader->ReadBatch(count - out.size(), &batch);
    if (n == 0) break;
    size_t value = 0;
    for (size_t i = 0; i < n; i++) {
      out.push_back(std::to_string(repeated ? batch.rep_levels[i] : 0) + "/" + SlotText(batch, i, value, type, max_def));
      if (max_def == 0 || batch.def_levels[i] == max_def) value++;
    }
  }
  return out;
}

// SeekToRow to ascending random rows of any column (repeated ones included), reading each
// target row's slots and checking them against a full read.
ColumnReadCounters CheckRowSeeks(const ParquetFileReader& file, int row_group, int column, const Slots& full,
                                 std::mt19937* rng, int seeks) {
  auto reader = ColumnChunkReader::Make(file, row_group, column);
  const size_t rows = full.row_start.size();
  std::vector<int64_t> targets;
  for (int i = 0; i < seeks; i++) targets.push_back(static_cast<int64_t>((*rng)() % rows));
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  for (int64_t target : targets) {
    CAPTURE(target);
    REQUIRE(reader->SeekToRow(target) == target);
    const size_t t = static_cast<size_t>(target);
    const size_t begin = full.row_start[t];
    const size_t end = t + 1 < rows ? full.row_start[t + 1] : full.text.size();
    std::vector<std::string> got = ReadSlotTexts(reader.get(), end - begin);
    CHECK(got == std::vector<std::string>(full.text.begin() + static_cast<std::ptrdiff_t>(begin),
                                          full.text.begin() + static_cast<std::ptrdiff_t>(end)));
    CHECK(reader->next_row() == target + 1);
  }
  CHECK(reader->SeekToRow(static_cast<int64_t>(rows)) == static_cast<int64_t>(rows));
  return reader->counters();
}

TEST_CASE("column reader: SeekToRow agrees with a full read on every readable parquet-testing file") {
  // Files with and without offset indexes, v1 and v2 pages, every codec, PARQUET-816 chunks,
  // nested columns: every column whose chunk reads whole is sought through.
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kTestingData)) {
    if (entry.path().extension() == ".parquet") names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  REQUIRE(names.size() > 20);
  std::mt19937 rng(11);
  int chunks = 0, repeated_chunks = 0;
  for (const std::string& name : names) {
    CAPTURE(name);
    std::unique_ptr<ParquetFileReader> file;
    try {
      file = ParquetFileReader::Open(kTestingData + name);
    } catch (const ParquetError&) {
      continue;  // not readable by design (encrypted, malformed): other tests cover those
    }
    for (int rg = 0; rg < std::min(file->num_row_groups(), 3); rg++) {
      for (int column = 0; column < file->schema().num_columns(); column++) {
        const int64_t rows = file->row_group_num_rows(rg);
        if (rows == 0 || rows > 200000) continue;
        Slots full;
        try {
          full = ReadAllSlots(ColumnChunkReader::Make(*file, rg, column).get());
        } catch (const ParquetError&) {
          continue;
        }
        if (full.row_start.size() != static_cast<size_t>(rows)) continue;
        CAPTURE(rg);
        CAPTURE(column);
        CheckRowSeeks(*file, rg, column, full, &rng, 6);
        chunks++;
        if (file->schema().column(column).max_repetition_level > 0) repeated_chunks++;
      }
    }
  }
  MESSAGE(chunks << " column chunks sought through, " << repeated_chunks << " with repetition");
  CHECK(chunks > 100);
  CHECK(repeated_chunks > 10);
}

// A repeated INT32 column "x" of `rows` rows of two values each (r * 10, r * 10 + 1), in v1
// pages cut after the given slot counts, with an offset index giving `first_rows`. Pages
// cut at odd slot counts split a row across two pages, as some old writers did.
std::unique_ptr<ParquetFileReader> RepeatedFileWithPages(int64_t rows, const std::vector<size_t>& page_slots,
                                                         const std::vector<int64_t>& first_rows) {
  std::string file = "PAR1";
  OffsetIndex index;
  size_t slot = 0;
  for (size_t p = 0; p < page_slots.size(); p++) {
    RleBitPackedEncoder rep(1), def(1);
    std::string values;
    for (size_t i = 0; i < page_slots[p]; i++, slot++) {
      rep.Put(slot % 2 == 0 ? 0 : 1);
      def.Put(1);
      int32_t value = static_cast<int32_t>((slot / 2) * 10 + slot % 2);
      values.append(reinterpret_cast<const char*>(&value), 4);
    }
    std::string body;
    for (RleBitPackedEncoder* levels : {&rep, &def}) {
      std::string encoded;
      levels->Flush(&encoded);
      uint32_t length = static_cast<uint32_t>(encoded.size());
      body.append(reinterpret_cast<const char*>(&length), 4);
      body += encoded;
    }
    body += values;
    PageHeader header;
    header.type = PageType::DATA_PAGE;
    header.uncompressed_page_size = header.compressed_page_size = static_cast<int32_t>(body.size());
    DataPageHeader data;
    data.num_values = static_cast<int32_t>(page_slots[p]);
    header.data_page_header = data;
    std::string serialized = Serialize(header);
    index.page_locations.push_back(
        {static_cast<int64_t>(file.size()), static_cast<int32_t>(serialized.size() + body.size()), first_rows[p]});
    file += serialized + body;
  }
  REQUIRE(slot == static_cast<size_t>(rows) * 2);
  const int64_t chunk_end = static_cast<int64_t>(file.size());
  const int64_t index_offset = chunk_end;
  std::string serialized_index = Serialize(index);
  file += serialized_index;
  FileMetaData meta;
  SchemaElement root = RootElement(1);
  meta.schema = {root, LeafElement("x", FieldRepetitionType::REPEATED, Type::INT32)};
  meta.num_rows = rows;
  RowGroup group;
  group.num_rows = rows;
  ColumnChunk chunk;
  ColumnMetaData column;
  column.type = Type::INT32;
  column.encodings = {Encoding::PLAIN, Encoding::RLE};
  column.path_in_schema = {"x"};
  column.num_values = rows * 2;
  column.data_page_offset = 4;
  column.total_compressed_size = column.total_uncompressed_size = chunk_end - 4;
  chunk.meta_data = column;
  chunk.offset_index_offset = index_offset;
  chunk.offset_index_length = static_cast<int32_t>(serialized_index.size());
  group.columns = {chunk};
  meta.row_groups = {group};
  std::string footer = Serialize(meta);
  uint32_t length = static_cast<uint32_t>(footer.size());
  file += footer;
  file.append(reinterpret_cast<const char*>(&length), 4);
  file += "PAR1";
  return ParquetFileReader::Open(
      OpenMemoryFile(reinterpret_cast<const uint8_t*>(file.data()), file.size(), "split_rows.parquet"));
}

TEST_CASE("column reader: a repeated column whose pages split rows is walked instead of jumped") {
  // Row 10 starts in page 0 and ends in page 1; page 2 is aligned.
  auto split = RepeatedFileWithPages(30, {21, 19, 20}, {0, 11, 20});
  // The same rows, every page aligned.
  auto aligned = RepeatedFileWithPages(30, {20, 20, 20}, {0, 10, 20});
  for (auto* file : {split.get(), aligned.get()}) {
    const bool is_split = file == split.get();
    CAPTURE(is_split);
    for (int64_t target : {int64_t{5}, int64_t{10}, int64_t{15}, int64_t{25}, int64_t{29}}) {
      CAPTURE(target);
      auto reader = ColumnChunkReader::Make(*file, 0, 0);
      if (target > 5) REQUIRE(reader->SeekToRow(3) == 3);  // a first seek within page 0
      REQUIRE(reader->SeekToRow(target) == target);
      ColumnBatch batch;
      REQUIRE(reader->ReadBatch(1, &batch) == 1);
      CHECK(batch.rep_levels[0] == 0);
      CHECK(batch.values<int32_t>()[0] == target * 10);
      REQUIRE(reader->ReadBatch(1, &batch) == 1);
      CHECK(batch.rep_levels[0] == 1);
      CHECK(batch.values<int32_t>()[0] == target * 10 + 1);
      CHECK(reader->next_row() == target + 1);
      CHECK(reader->SeekToRow(30) == 30);
      if (!is_split && target >= 20) CHECK(reader->counters().pages_skipped >= 1);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Corrupt indexes: the file's bytes up to the footer, a replacement index appended, and a
// footer pointing at it.

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// The file's bytes up to data_end, then `extra`, then the footer of `meta`.
std::vector<uint8_t> BytesWithFooter(std::vector<uint8_t> bytes, size_t data_end, const FileMetaData& meta,
                                     const std::string& extra, int64_t* extra_offset) {
  bytes.resize(data_end);
  *extra_offset = static_cast<int64_t>(bytes.size());
  bytes.insert(bytes.end(), extra.begin(), extra.end());
  std::string footer = Serialize(meta);
  // The footer refers to extra_offset, known before serializing: callers set it first.
  bytes.insert(bytes.end(), footer.begin(), footer.end());
  uint32_t length = static_cast<uint32_t>(footer.size());
  for (int i = 0; i < 4; i++) bytes.push_back(static_cast<uint8_t>(length >> (8 * i)));
  for (char c : std::string("PAR1")) bytes.push_back(static_cast<uint8_t>(c));
  return bytes;
}

std::unique_ptr<ParquetFileReader> WithFooter(std::vector<uint8_t> bytes, size_t data_end, const FileMetaData& meta,
                                              const std::string& extra, int64_t* extra_offset) {
  const std::vector<uint8_t> file = BytesWithFooter(std::move(bytes), data_end, meta, extra, extra_offset);
  return ParquetFileReader::Open(OpenMemoryFile(file.data(), file.size(), "corrupt.parquet"));
}

// A file in memory read as a remote one (IsRemote): the bounds on lengths a server's
// claimed size would let through apply to it, and the readers read no more than they ask
// for. `reads` records each read's [begin, end).
class ReadAsRemote final : public RandomAccessFile {
 public:
  explicit ReadAsRemote(std::unique_ptr<RandomAccessFile> file) : file_(std::move(file)) {}
  uint64_t Size() const override { return file_->Size(); }
  void ReadAt(uint64_t offset, size_t length, uint8_t* out) override {
    reads.emplace_back(offset, offset + length);
    file_->ReadAt(offset, length, out);
  }
  using RandomAccessFile::ReadAt;
  const std::string& Name() const override { return file_->Name(); }
  bool IsRemote() const override { return true; }

  std::vector<std::pair<uint64_t, uint64_t>> reads;

 private:
  std::unique_ptr<RandomAccessFile> file_;
};

TEST_CASE("column reader: a jump to a page smaller than a header guess reads nothing past that page") {
  // A remote file fetches the selected pages only: a byte after the page a skip lands on
  // (the next page, not selected) would be a request of its own (a point lookup's fifth).
  TempDir dir;
  const std::string path = dir.File("t.parquet");
  WriterOptions options = SmallPages();
  options.page_size = 64;  // 8 ids a page: pages of well under 256 bytes
  WriteTable(path, 1, 200, options);
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  auto source = std::make_unique<ReadAsRemote>(OpenMemoryFile(bytes.data(), bytes.size(), "https://h/t.parquet"));
  ReadAsRemote* remote = source.get();
  auto file = ParquetFileReader::Open(std::move(source));
  const std::vector<PageLocation> pages = ReadOffsetIndex(*file, 0, 0)->page_locations;
  REQUIRE(pages.size() > 4);
  const PageLocation& target = pages[2];
  REQUIRE(target.compressed_page_size < 256);
  auto reader = ColumnChunkReader::Make(*file, 0, 0);
  remote->reads.clear();
  CHECK(reader->Skip(static_cast<size_t>(target.first_row_index)) == static_cast<size_t>(target.first_row_index));
  Column got = ReadSlots(reader.get(), 1);
  CHECK(got == Column{std::to_string(target.first_row_index)});
  const uint64_t page_end = static_cast<uint64_t>(target.offset) + static_cast<uint64_t>(target.compressed_page_size);
  // The page indexes (after every row group's data; the reader's offset index) aside.
  uint64_t indexes = bytes.size();
  for (const ColumnChunk& chunk : file->metadata().row_groups[0].columns) {
    indexes = std::min(indexes, static_cast<uint64_t>(chunk.column_index_offset.value_or(static_cast<int64_t>(indexes))));
    indexes = std::min(indexes, static_cast<uint64_t>(chunk.offset_index_offset.value_or(static_cast<int64_t>(indexes))));
  }
  REQUIRE(page_end < indexes);
  int data_reads = 0;
  for (const auto& read : remote->reads) {
    const uint64_t begin = read.first, end = read.second;
    if (begin >= indexes) continue;
    data_reads++;
    CHECK_MESSAGE(end <= page_end, "read [" << begin << ", " << end << ") past the page's end " << page_end);
  }
  CHECK(data_reads > 0);
}

TEST_CASE("page index: a remote file's index module is bounded; a local file's only by the file") {
  TempDir dir;
  const std::string path = dir.File("t.parquet");
  WriteTable(path, 1, 3000, SmallPages());
  auto original = ParquetFileReader::Open(path);
  FileMetaData meta = original->metadata();
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  const size_t data_end = bytes.size() - 8 - original->footer_length();
  // The real offset index, padded past the bound (the padding follows the struct's end).
  std::string extra = Serialize(*ReadOffsetIndex(*original, 0, 0));
  extra.resize(kMaxRemotePageIndexBytes + 1);
  ColumnChunk& chunk = meta.row_groups[0].columns[0];
  chunk.offset_index_offset = static_cast<int64_t>(data_end);
  chunk.offset_index_length = static_cast<int32_t>(extra.size());
  int64_t offset = 0;
  const std::vector<uint8_t> file = BytesWithFooter(bytes, data_end, meta, extra, &offset);
  auto local = ParquetFileReader::Open(OpenMemoryFile(file.data(), file.size(), "padded.parquet"));
  CHECK(ReadOffsetIndex(*local, 0, 0)->page_locations.size() == ReadOffsetIndex(*original, 0, 0)->page_locations.size());
  auto remote = ParquetFileReader::Open(
      std::make_unique<ReadAsRemote>(OpenMemoryFile(file.data(), file.size(), "https://h/padded.parquet")));
  CHECK_THROWS_WITH_AS(ReadOffsetIndex(*remote, 0, 0),
                       doctest::Contains("offset index of 16777217 bytes is larger than the 16777216 bytes a remote "
                                         "file's page index module may hold"),
                       ParquetError);
}

// The file at `path` with the offset index of (row group 0, column) replaced by `index`
// (serialized as given) and, when `length` is set, the recorded length replaced by it.
std::unique_ptr<ParquetFileReader> WithOffsetIndex(const std::string& path, int column, const OffsetIndex& index,
                                                   std::optional<int32_t> length = std::nullopt) {
  std::vector<uint8_t> bytes = ReadFileBytes(path);
  auto original = ParquetFileReader::Open(path);
  FileMetaData meta = original->metadata();
  const size_t data_end = bytes.size() - 8 - original->footer_length();
  std::string extra = Serialize(index);
  ColumnChunk& chunk = meta.row_groups[0].columns[static_cast<size_t>(column)];
  chunk.offset_index_offset = static_cast<int64_t>(data_end);
  chunk.offset_index_length = length.value_or(static_cast<int32_t>(extra.size()));
  int64_t offset = 0;
  return WithFooter(bytes, data_end, meta, extra, &offset);
}

TEST_CASE("page index: corrupt offset and column indexes are errors naming the chunk") {
  TempDir dir;
  const std::string path = dir.File("t.parquet");
  const int64_t rows = 3000;
  WriteTable(path, 1, rows, SmallPages());
  auto good = ParquetFileReader::Open(path);
  const OffsetIndex index = *ReadOffsetIndex(*good, 0, 0);
  REQUIRE(index.page_locations.size() > 3);
  auto expect_error = [&](const OffsetIndex& bad, const char* message, std::optional<int32_t> length = std::nullopt) {
    CAPTURE(message);
    auto file = WithOffsetIndex(path, 0, bad, length);
    CHECK_THROWS_WITH_AS(ReadOffsetIndex(*file, 0, 0),
                         doctest::Contains("file 'corrupt.parquet', column 'id', row group 0"), ParquetError);
    CHECK_THROWS_WITH_AS(ReadOffsetIndex(*file, 0, 0), doctest::Contains(message), ParquetError);
    // The column reader does without an index it cannot use: same values, pages walked.
    auto reader = ColumnChunkReader::Make(*file, 0, 0);
    CHECK(reader->SeekToRow(rows - 10) == rows - 10);
    Column got = ReadSlots(reader.get(), 10);
    REQUIRE(got.size() == 10);
    CHECK(got[0] == std::to_string(rows - 10));
  };
  {
    OffsetIndex bad = index;
    bad.page_locations[2].first_row_index = bad.page_locations[1].first_row_index;
    expect_error(bad, "does not follow the previous page's");
  }
  {
    OffsetIndex bad = index;
    bad.page_locations[0].first_row_index = 1;
    expect_error(bad, "not 0");
  }
  {
    OffsetIndex bad = index;
    bad.page_locations.back().first_row_index = rows;
    expect_error(bad, "outside the row group's 3000 rows");
  }
  {
    OffsetIndex bad = index;
    bad.page_locations[1].offset = 2;
    expect_error(bad, "lies outside the column chunk");
  }
  {
    OffsetIndex bad = index;
    bad.page_locations[1].offset = bad.page_locations[0].offset + 1;
    expect_error(bad, "overlaps the previous page");
  }
  {
    OffsetIndex bad = index;
    bad.page_locations[1].compressed_page_size = 1 << 30;
    expect_error(bad, "runs past the file's data");
  }
  {
    OffsetIndex bad = index;
    bad.page_locations.clear();
    expect_error(bad, "lists no pages");
  }
  expect_error(index, "lies outside the file's data", 1 << 30);
  expect_error(index, "offset index:", 3);  // cut short: the struct does not parse

  // An offset index with fewer pages than the column index.
  {
    OffsetIndex fewer = index;
    fewer.page_locations.pop_back();
    auto file = WithOffsetIndex(path, 0, fewer);
    // Valid by itself (the last page's rows now run to the end), inconsistent with the
    // column index.
    CHECK(ReadOffsetIndex(*file, 0, 0).has_value());
    CHECK_THROWS_WITH_AS(ReadPageIndex(*file, 0, 0), doctest::Contains("pages, offset index"), ParquetError);
  }
  // An offset index that passes validation but disagrees with the pages: the reader says so.
  {
    OffsetIndex shifted = index;
    shifted.page_locations[2].first_row_index += 1;
    auto file = WithOffsetIndex(path, 0, shifted);
    auto reader = ColumnChunkReader::Make(*file, 0, 0);
    CHECK_THROWS_WITH_AS(reader->SeekToRow(shifted.page_locations[2].first_row_index + 1),
                         doctest::Contains("offset index page 2"), ParquetError);
  }
}

// ---------------------------------------------------------------------------------------
// Dictionary probe.

TEST_CASE("dictionary probe: values of an all-dictionary chunk, nothing for chunks with other pages") {
  TempDir dir;
  const std::string path = dir.File("t.parquet");
  WriterOptions options = SmallPages();
  options.dictionary = true;
  options.dictionary_page_size_limit = 256;  // the unique id and v columns fall back to PLAIN
  WriteTable(path, 1, 5000, options);
  auto file = ParquetFileReader::Open(path);

  ColumnReadCounters counters;
  std::optional<ChunkDictionary> strings = ReadChunkDictionary(*file, 0, 2, {}, &counters);
  REQUIRE(strings.has_value());
  CHECK(strings->physical_type == Type::BYTE_ARRAY);
  std::set<std::string> entries;
  for (const ByteArray& entry : strings->byte_arrays) entries.insert(std::string(entry.view()));
  CHECK(entries == std::set<std::string>{"key-0", "key-1", "key-2", "key-3", "key-4"});
  CHECK(strings->size() == 5);
  CHECK(counters.dictionary_pages_read == 1);
  CHECK(counters.pages_read == 0);
  // Only the dictionary page (and at most one header guess of 256 bytes beyond) was read.
  const ColumnMetaData& meta = file->column_metadata(0, 2);
  REQUIRE(meta.dictionary_page_offset.has_value());
  const int64_t dictionary_page_bytes = meta.data_page_offset - *meta.dictionary_page_offset;
  CHECK(counters.bytes_read >= static_cast<uint64_t>(dictionary_page_bytes));
  CHECK(counters.bytes_read <= static_cast<uint64_t>(dictionary_page_bytes) + 256);
  // The values survive a move (views into owned storage).
  ChunkDictionary moved = std::move(*strings);
  CHECK(moved.byte_arrays.size() == 5);
  CHECK(std::string(moved.byte_arrays[0].view()).rfind("key-", 0) == 0);

  // id and v: a dictionary page, then PLAIN fallback pages.
  for (int column : {0, 1}) {
    CAPTURE(column);
    const ColumnMetaData& m = file->column_metadata(0, column);
    CHECK(m.dictionary_page_offset.has_value());
    CHECK_FALSE(ChunkIsFullyDictionaryEncoded(m));
    CHECK_FALSE(ReadChunkDictionary(*file, 0, column).has_value());
  }
}

TEST_CASE("dictionary probe: the metadata rules") {
  ColumnMetaData meta;
  meta.type = Type::INT32;
  meta.encodings = {Encoding::PLAIN_DICTIONARY, Encoding::RLE, Encoding::BIT_PACKED};
  CHECK(ChunkIsFullyDictionaryEncoded(meta));
  meta.encodings = {Encoding::RLE_DICTIONARY, Encoding::RLE};
  CHECK(ChunkIsFullyDictionaryEncoded(meta));
  meta.encodings = {Encoding::PLAIN, Encoding::RLE_DICTIONARY, Encoding::RLE};  // PLAIN: maybe a fallback page
  CHECK_FALSE(ChunkIsFullyDictionaryEncoded(meta));
  meta.encodings = {Encoding::RLE};
  CHECK_FALSE(ChunkIsFullyDictionaryEncoded(meta));
  // encoding_stats decide when present, whatever the list says.
  meta.encodings = {Encoding::PLAIN, Encoding::RLE_DICTIONARY, Encoding::RLE};
  meta.encoding_stats = std::vector<PageEncodingStats>{{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1},
                                                       {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 4}};
  CHECK(ChunkIsFullyDictionaryEncoded(meta));
  meta.encoding_stats->push_back({PageType::DATA_PAGE_V2, Encoding::PLAIN, 1});
  CHECK_FALSE(ChunkIsFullyDictionaryEncoded(meta));
  meta.encoding_stats->back().count = 0;
  CHECK(ChunkIsFullyDictionaryEncoded(meta));
  meta.type = Type::BOOLEAN;
  CHECK_FALSE(ChunkIsFullyDictionaryEncoded(meta));
}

TEST_CASE("dictionary probe: parquet-testing files") {
  // parquet-mr with encoding_stats: one BYTE_ARRAY column.
  auto file = ParquetFileReader::Open(kTestingData + "data_index_bloom_encoding_stats.parquet");
  const ColumnMetaData& meta = file->column_metadata(0, 0);
  REQUIRE(meta.encoding_stats.has_value());
  Column full = ReadWholeChunk(*file, 0, 0);
  std::optional<ChunkDictionary> dictionary = ReadChunkDictionary(*file, 0, 0);
  CHECK(dictionary.has_value() == ChunkIsFullyDictionaryEncoded(meta));
  if (dictionary.has_value()) {
    std::set<std::string> entries;
    for (const ByteArray& entry : dictionary->byte_arrays) entries.insert(std::string(entry.view()));
    for (const std::string& value : full) {
      if (value != "null") CHECK(entries.count(value) == 1);
    }
  }
  // alltypes_tiny_pages (PLAIN_DICTIONARY from parquet-mr): every non-null value of an
  // all-dictionary chunk is a dictionary entry.
  auto tiny = ParquetFileReader::Open(kTestingData + "alltypes_tiny_pages.parquet");
  int probed = 0;
  for (int column = 0; column < tiny->schema().num_columns(); column++) {
    std::optional<ChunkDictionary> d = ReadChunkDictionary(*tiny, 0, column);
    if (!d.has_value()) continue;
    probed++;
    Type type = tiny->schema().column(column).physical_type;
    if (type != Type::INT32) continue;
    std::set<std::string> entries;
    for (int32_t v : d->int32s) entries.insert(std::to_string(v));
    for (const std::string& value : ReadWholeChunk(*tiny, 0, column)) {
      if (value != "null") CHECK(entries.count(value) == 1);
    }
  }
  MESSAGE("alltypes_tiny_pages: " << probed << " all-dictionary chunks");
}

// ---------------------------------------------------------------------------------------
// Bloom filter convenience for pushdown.

TEST_CASE("bloom filter: read by chunk, probed by value, errors naming the chunk") {
  for (const char* name : {"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"}) {
    CAPTURE(name);
    auto file = ParquetFileReader::Open(kTestingData + name);
    std::optional<BloomFilter> filter = ReadBloomFilter(*file, 0, 0);
    REQUIRE(filter.has_value());
    Column values = ReadWholeChunk(*file, 0, 0);
    REQUIRE_FALSE(values.empty());
    for (const std::string& value : values) {
      if (value != "null") CHECK(BloomFilterMightContain(*filter, std::string_view(value)));
    }
    int absent = 0;
    for (int i = 0; i < 200; i++) absent += !BloomFilterMightContain(*filter, std::string_view("absent-" + std::to_string(i)));
    CHECK(absent > 180);
  }
  // A bloom_filter_offset beyond the file.
  const std::string path = kTestingData + "data_index_bloom_encoding_stats.parquet";
  std::vector<uint8_t> bytes = ReadFileBytes(path);
  auto original = ParquetFileReader::Open(path);
  FileMetaData meta = original->metadata();
  meta.row_groups[0].columns[0].meta_data->bloom_filter_offset = static_cast<int64_t>(bytes.size()) + 100;
  int64_t unused = 0;
  auto file = WithFooter(bytes, bytes.size() - 8 - original->footer_length(), meta, "", &unused);
  CHECK_THROWS_WITH_AS(ReadBloomFilter(*file, 0, 0), doctest::Contains("file 'corrupt.parquet', column"), ParquetError);
  CHECK_THROWS_WITH_AS(ReadBloomFilter(*file, 0, 0), doctest::Contains("outside the file"), ParquetError);
}

}  // namespace
}  // namespace parquet
