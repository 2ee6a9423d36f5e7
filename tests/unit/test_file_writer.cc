// Unit tests of the Parquet file writer (format/write/file_writer.h): round trips through our
// reader for every physical type, codec, data page version and dictionary setting; encoding
// overrides; the dictionary fallback; a 3-level LIST column; statistics (sort orders, NaN,
// truncated byte arrays); the footer and page checksums; the page index read back with
// ParseColumnIndex / ParseOffsetIndex and checked against the pages in the file; bloom
// filters; sorting columns; the automatic choice of encodings; and the rejection of
// inconsistent batches, row groups and options.
#include <doctest/doctest.h>

#include <stdlib.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <optional>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "format/index/bloom_filter.h"
#include "format/codec/checksum.h"
#include "format/read/column_reader.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "format/metadata/metadata.h"
#include "format/index/statistics.h"
#include "format/common/version.h"
#include "tests/unit/temp_dir.h"

namespace parquet {
namespace {

// A fresh directory under the system temp dir, removed with everything in it at the end.
using test_support::TempDir;

// ---------------------------------------------------------------------------------------
// Schemas.

SchemaElement Root(int children) {
  SchemaElement element;
  element.name = "schema";
  element.num_children = children;
  return element;
}

SchemaElement Leaf(const std::string& name, Type type, FieldRepetitionType repetition,
                   int32_t type_length = 0) {
  SchemaElement element;
  element.name = name;
  element.type = type;
  element.repetition_type = repetition;
  if (type == Type::FIXED_LEN_BYTE_ARRAY) element.type_length = type_length;
  return element;
}

SchemaElement Group(const std::string& name, FieldRepetitionType repetition, int children) {
  SchemaElement element;
  element.name = name;
  element.repetition_type = repetition;
  element.num_children = children;
  return element;
}

constexpr auto kRequired = FieldRepetitionType::REQUIRED;
constexpr auto kOptional = FieldRepetitionType::OPTIONAL;
constexpr auto kRepeated = FieldRepetitionType::REPEATED;

// ---------------------------------------------------------------------------------------
// Values: generated per physical type, compared as their bytes.

constexpr int32_t kFixedLength = 6;

template <typename T>
T Generate(size_t i, Type type, std::deque<std::string>* storage) {
  const size_t k = (i * 7919) % 1000;  // 1000 distinct values, well mixed
  if constexpr (std::is_same_v<T, bool>) {
    return i % 3 == 0;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return static_cast<int32_t>(k) - 500;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<int64_t>(k) * 10000000000LL - 5;
  } else if constexpr (std::is_same_v<T, Int96>) {
    return Int96{{static_cast<uint32_t>(k) * 1000u, 0u, 2440588u + static_cast<uint32_t>(k)}};
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(k) * 0.5f - 100.0f;
  } else if constexpr (std::is_same_v<T, double>) {
    return static_cast<double>(k) * 0.25 - 100.0;
  } else {
    char text[32];
    if (type == Type::FIXED_LEN_BYTE_ARRAY) {
      std::snprintf(text, sizeof(text), "f%05zu", k);
    } else {
      std::snprintf(text, sizeof(text), "value-%zu%s", k, k % 10 == 0 ? "-with-a-longer-tail" : "");
    }
    storage->emplace_back(text);
    const std::string& s = storage->back();
    return ByteArray{reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())};
  }
}

template <typename T>
std::string Key(const T& value) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return std::string(value.view());
  } else if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else {
    return std::string(reinterpret_cast<const char*>(&value), sizeof(T));
  }
}

// Slots of one flat column: levels and the non-null values.
// std::vector<bool> has no data(): booleans are kept as bytes holding 0 or 1.
template <typename T>
using ValueVector = std::vector<std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>>;

template <typename T>
const T* ValuePointer(const ValueVector<T>& values) {
  return reinterpret_cast<const T*>(values.data());
}

template <typename T>
struct Slots {
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  ValueVector<T> values;
  std::deque<std::string> storage;  // bytes of ByteArray values
};

// `rows` rows starting at row `first`; every fifth row is null when `nullable`.
template <typename T>
Slots<T> FlatSlots(size_t first, size_t rows, Type type, bool nullable) {
  Slots<T> slots;
  for (size_t i = first; i < first + rows; i++) {
    const bool null = nullable && i % 5 == 3;
    if (nullable) slots.def.push_back(null ? 0 : 1);
    if (!null) slots.values.push_back(Generate<T>(i, type, &slots.storage));
  }
  return slots;
}

// What a column holds, read back through our reader (all row groups).
struct ColumnData {
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  std::vector<std::string> values;
  size_t batches = 0;
  bool every_batch_starts_a_row = true;
};

template <typename T>
ColumnData ReadColumn(const ParquetFileReader& file, int column) {
  ColumnData data;
  const ColumnDescriptor& descriptor = file.schema().column(column);
  for (int rg = 0; rg < file.num_row_groups(); rg++) {
    auto reader = ColumnChunkReader::Make(file, rg, column);
    ColumnBatch batch;
    // Batches never cross pages, and a batch this large holds a whole page.
    while (size_t n = reader->ReadBatch(1 << 20, &batch)) {
      data.batches++;
      if (descriptor.max_definition_level > 0) {
        data.def.insert(data.def.end(), batch.def_levels.begin(), batch.def_levels.begin() + long(n));
      }
      if (descriptor.max_repetition_level > 0) {
        data.rep.insert(data.rep.end(), batch.rep_levels.begin(), batch.rep_levels.begin() + long(n));
        if (batch.rep_levels[0] != 0) data.every_batch_starts_a_row = false;
      }
      const T* values = batch.values<T>();
      for (size_t i = 0; i < batch.num_values; i++) data.values.push_back(Key(values[i]));
    }
  }
  return data;
}

template <typename T>
std::vector<std::string> Keys(const ValueVector<T>& values) {
  std::vector<std::string> keys;
  for (const auto& value : values) keys.push_back(Key(static_cast<T>(value)));
  return keys;
}

int DataPageCount(const ColumnMetaData& meta) {
  int count = 0;
  for (const PageEncodingStats& stats : *meta.encoding_stats) {
    if (stats.page_type != PageType::DICTIONARY_PAGE) count += stats.count;
  }
  return count;
}

bool HasEncoding(const ColumnMetaData& meta, Encoding encoding) {
  for (Encoding e : meta.encodings) {
    if (e == encoding) return true;
  }
  return false;
}

const char* TypeName(Type type) {
  switch (type) {
    case Type::BOOLEAN: return "BOOLEAN";
    case Type::INT32: return "INT32";
    case Type::INT64: return "INT64";
    case Type::INT96: return "INT96";
    case Type::FLOAT: return "FLOAT";
    case Type::DOUBLE: return "DOUBLE";
    case Type::BYTE_ARRAY: return "BYTE_ARRAY";
    case Type::FIXED_LEN_BYTE_ARRAY: return "FIXED_LEN_BYTE_ARRAY";
  }
  return "?";
}

// Writes one column "v" of `type` in row groups of the given sizes (each row group in
// three WriteBatch calls), reads it back and checks levels and values. Returns the footer.
template <typename T>
FileMetaData RoundTripFlat(const std::string& path, Type type, FieldRepetitionType repetition,
                           const WriterOptions& options, const std::vector<size_t>& row_groups) {
  const bool nullable = repetition == kOptional;
  std::vector<int16_t> expected_def;
  std::vector<std::string> expected_values;
  {
    ParquetFileWriter writer(path, {Root(1), Leaf("v", type, repetition, kFixedLength)}, options);
    size_t first = 0;
    for (size_t rows : row_groups) {
      Slots<T> slots = FlatSlots<T>(first, rows, type, nullable);
      writer.StartRowGroup();
      // Three batches: [0, rows/3), [rows/3, rows/2), [rows/2, rows).
      size_t cuts[] = {0, rows / 3, rows / 2, rows};
      size_t value_pos = 0;
      for (int b = 0; b < 3; b++) {
        size_t begin = cuts[b], end = cuts[b + 1];
        size_t values = end - begin;
        if (nullable) {
          values = 0;
          for (size_t i = begin; i < end; i++) values += slots.def[i] == 1;
        }
        writer.WriteBatch<T>(0, end - begin, nullable ? slots.def.data() + begin : nullptr, nullptr,
                             ValuePointer<T>(slots.values) + value_pos, values);
        value_pos += values;
      }
      writer.EndRowGroup(static_cast<int64_t>(rows));
      expected_def.insert(expected_def.end(), slots.def.begin(), slots.def.end());
      std::vector<std::string> keys = Keys<T>(slots.values);
      expected_values.insert(expected_values.end(), keys.begin(), keys.end());
      first += rows;
    }
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  ColumnData data = ReadColumn<T>(*file, 0);
  CHECK(data.def == expected_def);
  CHECK(data.values == expected_values);
  size_t total_rows = 0;
  for (size_t rows : row_groups) total_rows += rows;
  CHECK(file->num_rows() == static_cast<int64_t>(total_rows));
  CHECK(file->metadata().num_rows == static_cast<int64_t>(total_rows));
  CHECK(file->num_row_groups() == static_cast<int>(row_groups.size()));
  return file->metadata();
}

template <typename T>
void RoundTripEveryOption(const TempDir& dir, Type type) {
  const CompressionCodec codecs[] = {CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY,
                                     CompressionCodec::GZIP,         CompressionCodec::BROTLI,
                                     CompressionCodec::ZSTD,         CompressionCodec::LZ4_RAW};
  for (CompressionCodec codec : codecs) {
    for (int version : {1, 2}) {
      for (bool dictionary : {false, true}) {
        const std::string type_name = TypeName(type);
        CAPTURE(type_name);
        const std::string codec_name = ToString(codec);
        CAPTURE(codec_name);
        CAPTURE(version);
        CAPTURE(dictionary);
        WriterOptions options;
        options.codec = codec;
        options.data_page_version = version;
        options.dictionary = dictionary;
        options.page_size = 100;
        options.automatic_encoding = false;  // the fixed encodings; automatic ones are tested below
        FileMetaData meta =
            RoundTripFlat<T>(dir.File("t.parquet"), type, kOptional, options, {1000, 517});
        for (const RowGroup& rg : meta.row_groups) {
          const ColumnMetaData& column = *rg.columns[0].meta_data;
          CHECK(column.codec == codec);
          CHECK(DataPageCount(column) > 1);
          const bool dictionary_used = dictionary && type != Type::BOOLEAN;
          CHECK(column.dictionary_page_offset.has_value() == dictionary_used);
          CHECK(HasEncoding(column, dictionary_used ? Encoding::RLE_DICTIONARY : Encoding::PLAIN));
          for (const PageEncodingStats& stats : *column.encoding_stats) {
            if (stats.page_type == PageType::DICTIONARY_PAGE) continue;
            CHECK(stats.page_type == (version == 1 ? PageType::DATA_PAGE : PageType::DATA_PAGE_V2));
          }
        }
      }
    }
  }
}

TEST_CASE("file writer: every physical type round trips with each codec, page version and dictionary setting") {
  TempDir dir;
  RoundTripEveryOption<bool>(dir, Type::BOOLEAN);
  RoundTripEveryOption<int32_t>(dir, Type::INT32);
  RoundTripEveryOption<int64_t>(dir, Type::INT64);
  RoundTripEveryOption<Int96>(dir, Type::INT96);
  RoundTripEveryOption<float>(dir, Type::FLOAT);
  RoundTripEveryOption<double>(dir, Type::DOUBLE);
  RoundTripEveryOption<ByteArray>(dir, Type::BYTE_ARRAY);
  RoundTripEveryOption<ByteArray>(dir, Type::FIXED_LEN_BYTE_ARRAY);
}

TEST_CASE("file writer: required columns of every type round trip without levels") {
  TempDir dir;
  for (int version : {1, 2}) {
    CAPTURE(version);
    WriterOptions options;
    options.data_page_version = version;
    options.page_size = 256;
    const std::string path = dir.File("required.parquet");
    RoundTripFlat<bool>(path, Type::BOOLEAN, kRequired, options, {1000, 1, 33});
    RoundTripFlat<int32_t>(path, Type::INT32, kRequired, options, {1000, 1, 33});
    RoundTripFlat<int64_t>(path, Type::INT64, kRequired, options, {1000, 1, 33});
    RoundTripFlat<Int96>(path, Type::INT96, kRequired, options, {1000, 1, 33});
    RoundTripFlat<float>(path, Type::FLOAT, kRequired, options, {1000, 1, 33});
    RoundTripFlat<double>(path, Type::DOUBLE, kRequired, options, {1000, 1, 33});
    RoundTripFlat<ByteArray>(path, Type::BYTE_ARRAY, kRequired, options, {1000, 1, 33});
    FileMetaData meta =
        RoundTripFlat<ByteArray>(path, Type::FIXED_LEN_BYTE_ARRAY, kRequired, options, {1000, 1, 33});
    // No levels at all: RLE is not among the encodings.
    CHECK_FALSE(HasEncoding(*meta.row_groups[0].columns[0].meta_data, Encoding::RLE));
  }
}

// Every encoding override the type allows, in both page versions.
template <typename T>
void RoundTripOverrides(const TempDir& dir, Type type, std::vector<Encoding> encodings) {
  for (Encoding encoding : encodings) {
    for (int version : {1, 2}) {
      const std::string type_name = TypeName(type);
      CAPTURE(type_name);
      const std::string encoding_name = ToString(encoding);
      CAPTURE(encoding_name);
      CAPTURE(version);
      WriterOptions options;
      options.data_page_version = version;
      options.page_size = 128;
      options.dictionary = false;
      options.column_encoding[0] = encoding;
      FileMetaData meta =
          RoundTripFlat<T>(dir.File("override.parquet"), type, kOptional, options, {1000, 90});
      const ColumnMetaData& column = *meta.row_groups[0].columns[0].meta_data;
      CHECK(HasEncoding(column, encoding));
      CHECK(DataPageCount(column) > 1);
      for (const PageEncodingStats& stats : *column.encoding_stats) {
        if (stats.page_type == PageType::DICTIONARY_PAGE) {
          CHECK(encoding == Encoding::RLE_DICTIONARY);
          CHECK(stats.encoding == Encoding::PLAIN);
        } else {
          CHECK(stats.encoding == encoding);
        }
      }
    }
  }
}

TEST_CASE("file writer: encoding overrides round trip for every type they apply to") {
  TempDir dir;
  const Encoding kPlain = Encoding::PLAIN, kDict = Encoding::RLE_DICTIONARY,
                 kDeltaInt = Encoding::DELTA_BINARY_PACKED, kDeltaLength = Encoding::DELTA_LENGTH_BYTE_ARRAY,
                 kDeltaBytes = Encoding::DELTA_BYTE_ARRAY, kSplit = Encoding::BYTE_STREAM_SPLIT;
  RoundTripOverrides<bool>(dir, Type::BOOLEAN, {kPlain, Encoding::RLE});
  RoundTripOverrides<int32_t>(dir, Type::INT32, {kPlain, kDict, kDeltaInt, kSplit});
  RoundTripOverrides<int64_t>(dir, Type::INT64, {kPlain, kDict, kDeltaInt, kSplit});
  RoundTripOverrides<Int96>(dir, Type::INT96, {kPlain, kDict});
  RoundTripOverrides<float>(dir, Type::FLOAT, {kPlain, kDict, kSplit});
  RoundTripOverrides<double>(dir, Type::DOUBLE, {kPlain, kDict, kSplit});
  RoundTripOverrides<ByteArray>(dir, Type::BYTE_ARRAY, {kPlain, kDict, kDeltaLength, kDeltaBytes});
  RoundTripOverrides<ByteArray>(dir, Type::FIXED_LEN_BYTE_ARRAY, {kPlain, kDict, kDeltaBytes, kSplit});
}

TEST_CASE("file writer: an encoding that does not apply to the column's type is rejected") {
  TempDir dir;
  auto make = [&](Type type, Encoding encoding) {
    WriterOptions options;
    options.column_encoding[0] = encoding;
    ParquetFileWriter writer(dir.File("bad.parquet"), {Root(1), Leaf("v", type, kRequired, 4)}, options);
  };
  CHECK_THROWS_WITH_AS(make(Type::DOUBLE, Encoding::DELTA_BINARY_PACKED),
                       "encoding DELTA_BINARY_PACKED does not apply to DOUBLE column 'v'", ParquetError);
  CHECK_THROWS_AS(make(Type::BOOLEAN, Encoding::RLE_DICTIONARY), ParquetError);
  CHECK_THROWS_AS(make(Type::INT32, Encoding::DELTA_LENGTH_BYTE_ARRAY), ParquetError);
  CHECK_THROWS_AS(make(Type::FIXED_LEN_BYTE_ARRAY, Encoding::DELTA_LENGTH_BYTE_ARRAY), ParquetError);
  CHECK_THROWS_AS(make(Type::BYTE_ARRAY, Encoding::BYTE_STREAM_SPLIT), ParquetError);
  CHECK_THROWS_AS(make(Type::INT64, Encoding::BIT_PACKED), ParquetError);
  WriterOptions options;
  options.column_encoding[3] = Encoding::PLAIN;
  CHECK_THROWS_WITH_AS(
      ParquetFileWriter(dir.File("bad.parquet"), {Root(1), Leaf("v", Type::INT32, kRequired)}, options),
      "encoding override for column 3, but the schema has 1 columns", ParquetError);
}

TEST_CASE("file writer: the dictionary falls back once it passes its size limit") {
  TempDir dir;
  for (int version : {1, 2}) for (bool automatic : {false, true}) {
    CAPTURE(version);
    CAPTURE(automatic);
    // Without the automatic choice the fallback is PLAIN; with it, byte arrays go PLAIN or
    // DELTA_LENGTH_BYTE_ARRAY, whichever a sample compresses better: these short strings
    // of digits, PLAIN.
    const Encoding fallback = Encoding::PLAIN;
    WriterOptions options;
    options.data_page_version = version;
    options.page_size = 200;
    options.dictionary_page_size_limit = 600;
    options.automatic_encoding = automatic;
    FileMetaData meta = RoundTripFlat<ByteArray>(dir.File("fallback.parquet"), Type::BYTE_ARRAY, kOptional,
                                                 options, {3000, 2000});
    for (const RowGroup& rg : meta.row_groups) {
      const ColumnMetaData& column = *rg.columns[0].meta_data;
      CHECK(column.dictionary_page_offset.has_value());
      CHECK(*column.dictionary_page_offset < column.data_page_offset);
      CHECK(HasEncoding(column, Encoding::RLE_DICTIONARY));
      CHECK(HasEncoding(column, Encoding::PLAIN));  // the dictionary page
      CHECK(HasEncoding(column, fallback));
      int dictionary_pages = 0, dictionary_data_pages = 0, fallback_data_pages = 0, other_pages = 0;
      for (const PageEncodingStats& stats : *column.encoding_stats) {
        if (stats.page_type == PageType::DICTIONARY_PAGE) dictionary_pages += stats.count;
        else if (stats.encoding == Encoding::RLE_DICTIONARY) dictionary_data_pages += stats.count;
        else if (stats.encoding == fallback) fallback_data_pages += stats.count;
        else other_pages += stats.count;
      }
      CHECK(dictionary_pages == 1);
      CHECK(dictionary_data_pages >= 1);
      CHECK(fallback_data_pages >= 1);
      CHECK(other_pages == 0);
    }
  }
  // Below the limit the dictionary stays for the whole chunk.
  WriterOptions options;
  options.page_size = 200;
  FileMetaData meta =
      RoundTripFlat<int32_t>(dir.File("dictionary.parquet"), Type::INT32, kOptional, options, {3000});
  const ColumnMetaData& column = *meta.row_groups[0].columns[0].meta_data;
  CHECK(column.dictionary_page_offset.has_value());
  CHECK(HasEncoding(column, Encoding::RLE_DICTIONARY));
  for (const PageEncodingStats& stats : *column.encoding_stats) {
    if (stats.page_type != PageType::DICTIONARY_PAGE) CHECK(stats.encoding == Encoding::RLE_DICTIONARY);
  }
}

// ---------------------------------------------------------------------------------------
// A LIST column: optional group tags (LIST) > repeated group list > optional binary element.

struct ListRows {
  std::vector<int16_t> def, rep;
  std::vector<ByteArray> values;
  std::deque<std::string> storage;
};

ListRows MakeListRows(size_t first, size_t rows) {
  ListRows out;
  for (size_t r = first; r < first + rows; r++) {
    if (r % 7 == 0) {  // null list
      out.def.push_back(0);
      out.rep.push_back(0);
    } else if (r % 7 == 1) {  // empty list
      out.def.push_back(1);
      out.rep.push_back(0);
    } else {
      const size_t elements = r % 4 + 1;
      for (size_t j = 0; j < elements; j++) {
        out.rep.push_back(j == 0 ? 0 : 1);
        if ((r + j) % 5 == 0) {  // null element
          out.def.push_back(2);
        } else {
          out.def.push_back(3);
          out.storage.push_back("e" + std::to_string(r) + "_" + std::to_string(j));
          const std::string& s = out.storage.back();
          out.values.push_back(ByteArray{reinterpret_cast<const uint8_t*>(s.data()), uint32_t(s.size())});
        }
      }
    }
  }
  return out;
}

std::vector<SchemaElement> ListSchema() {
  SchemaElement tags = Group("tags", kOptional, 1);
  tags.converted_type = ConvertedType::LIST;
  tags.logical_type = LogicalType{};
  tags.logical_type->kind = LogicalType::Kind::LIST;
  SchemaElement element = Leaf("element", Type::BYTE_ARRAY, kOptional);
  element.converted_type = ConvertedType::UTF8;
  return {Root(2), Leaf("id", Type::INT64, kRequired), tags, Group("list", kRepeated, 1), element};
}

TEST_CASE("file writer: a 3-level LIST column round trips with its repetition and definition levels") {
  TempDir dir;
  for (int version : {1, 2}) {
    for (bool dictionary : {false, true}) {
      CAPTURE(version);
      CAPTURE(dictionary);
      WriterOptions options;
      options.data_page_version = version;
      options.dictionary = dictionary;
      options.page_size = 100;
      const std::string path = dir.File("list.parquet");
      std::vector<int16_t> expected_def, expected_rep;
      std::vector<std::string> expected_values;
      std::vector<std::string> expected_ids;
      int64_t expected_nulls = 0;
      {
        ParquetFileWriter writer(path, ListSchema(), options);
        size_t first = 0;
        for (size_t rows : {300, 77}) {
          writer.StartRowGroup();
          std::vector<int64_t> ids;
          for (size_t r = first; r < first + rows; r++) ids.push_back(static_cast<int64_t>(r));
          writer.WriteBatch<int64_t>(0, ids.size(), nullptr, nullptr, ids.data(), ids.size());
          ListRows list = MakeListRows(first, rows);
          // Two batches, the second starting in the middle of a row.
          size_t cut = list.def.size() / 2;
          while (list.rep[cut] == 0) cut++;
          size_t values_before_cut = 0;
          for (size_t i = 0; i < cut; i++) values_before_cut += list.def[i] == 3;
          writer.WriteBatch<ByteArray>(1, cut, list.def.data(), list.rep.data(), list.values.data(),
                                       values_before_cut);
          writer.WriteBatch<ByteArray>(1, list.def.size() - cut, list.def.data() + cut, list.rep.data() + cut,
                                       list.values.data() + values_before_cut,
                                       list.values.size() - values_before_cut);
          writer.EndRowGroup(static_cast<int64_t>(rows));
          expected_def.insert(expected_def.end(), list.def.begin(), list.def.end());
          expected_rep.insert(expected_rep.end(), list.rep.begin(), list.rep.end());
          for (const ByteArray& value : list.values) expected_values.push_back(Key(value));
          for (int64_t id : ids) expected_ids.push_back(Key(id));
          for (int16_t d : list.def) expected_nulls += d < 3;
          first += rows;
        }
        writer.Close();
      }
      auto file = ParquetFileReader::Open(path);
      CHECK(file->num_rows() == 377);
      ColumnData ids = ReadColumn<int64_t>(*file, 0);
      CHECK(ids.values == expected_ids);
      ColumnData list = ReadColumn<ByteArray>(*file, 1);
      CHECK(list.def == expected_def);
      CHECK(list.rep == expected_rep);
      CHECK(list.values == expected_values);
      CHECK(list.batches > 4);                 // many pages...
      CHECK(list.every_batch_starts_a_row);    // ...each starting at a row boundary
      int64_t nulls = 0;
      for (const RowGroup& rg : file->metadata().row_groups) {
        const ColumnMetaData& column = *rg.columns[1].meta_data;
        CHECK(column.path_in_schema == std::vector<std::string>{"tags", "list", "element"});
        nulls += *column.statistics->null_count;
        const size_t slots =
            rg.ordinal == 0 ? MakeListRows(0, 300).def.size() : MakeListRows(300, 77).def.size();
        CHECK(column.num_values == static_cast<int64_t>(slots));
      }
      CHECK(nulls == expected_nulls);
    }
  }
}

TEST_CASE("file writer: a repeated column must start its chunk with a new row") {
  TempDir dir;
  ParquetFileWriter writer(dir.File("list.parquet"), ListSchema(), {});
  writer.StartRowGroup();
  int64_t id = 1;
  writer.WriteBatch<int64_t>(0, 1, nullptr, nullptr, &id, 1);
  int16_t def[] = {1}, rep[] = {1};
  CHECK_THROWS_WITH_AS(writer.WriteBatch<ByteArray>(1, 1, def, rep, nullptr, 0),
                       "first repetition level of column 'tags.list.element' is 1: a column chunk must start "
                       "with a new row",
                       ParquetError);
  rep[0] = 0;
  CHECK_THROWS_AS(writer.WriteBatch<ByteArray>(1, 1, def, nullptr, nullptr, 0), ParquetError);
  writer.WriteBatch<ByteArray>(1, 1, def, rep, nullptr, 0);
  writer.EndRowGroup(1);
  writer.Close();
}

// ---------------------------------------------------------------------------------------
// Statistics.

template <typename T>
Statistics WriteAndGetStatistics(const TempDir& dir, SchemaElement leaf, const std::vector<int16_t>& def,
                                 const std::vector<T>& values, WriterOptions options = {}) {
  const std::string path = dir.File("stats.parquet");
  {
    ParquetFileWriter writer(path, {Root(1), leaf}, options);
    writer.StartRowGroup();
    const bool optional = leaf.repetition_type == kOptional;
    const size_t levels = optional ? def.size() : values.size();
    if constexpr (std::is_same_v<T, bool>) {
      std::unique_ptr<bool[]> copy(new bool[values.size() + 1]);
      for (size_t i = 0; i < values.size(); i++) copy[i] = values[i];
      writer.WriteBatch<bool>(0, levels, optional ? def.data() : nullptr, nullptr, copy.get(), values.size());
    } else {
      writer.WriteBatch<T>(0, levels, optional ? def.data() : nullptr, nullptr, values.data(), values.size());
    }
    writer.EndRowGroup(static_cast<int64_t>(levels));
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  const ColumnMetaData& column = file->column_metadata(0, 0);
  if (!column.statistics.has_value()) return Statistics{};
  return *column.statistics;
}

template <typename T>
std::string Bytes(T value) {
  return std::string(reinterpret_cast<const char*>(&value), sizeof(T));
}

ByteArray View(const std::string& s) {
  return ByteArray{reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())};
}

TEST_CASE("file writer: column chunk statistics follow each column's sort order") {
  TempDir dir;
  SUBCASE("signed INT32 with nulls") {
    Statistics stats = WriteAndGetStatistics<int32_t>(dir, Leaf("v", Type::INT32, kOptional), {1, 0, 1, 1, 0},
                                                      {5, -7, 3});
    CHECK(stats.min_value == Bytes<int32_t>(-7));
    CHECK(stats.max_value == Bytes<int32_t>(5));
    CHECK(stats.null_count == 2);
    CHECK(stats.is_min_value_exact == true);
    CHECK_FALSE(stats.nan_count.has_value());  // only for floating point
    CHECK_FALSE(stats.min.has_value());  // the deprecated signed-order fields are not written
  }
  SUBCASE("unsigned INT32 (INTEGER(32, false)) and UINT_64") {
    SchemaElement leaf = Leaf("v", Type::INT32, kRequired);
    leaf.logical_type = LogicalType{};
    leaf.logical_type->kind = LogicalType::Kind::INTEGER;
    leaf.logical_type->int_bit_width = 32;
    leaf.logical_type->int_is_signed = false;
    Statistics stats = WriteAndGetStatistics<int32_t>(dir, leaf, {}, {5, -1, 3});
    CHECK(stats.min_value == Bytes<int32_t>(3));
    CHECK(stats.max_value == Bytes<int32_t>(-1));  // 0xFFFFFFFF
    CHECK(stats.null_count == 0);
    SchemaElement legacy = Leaf("v", Type::INT64, kRequired);
    legacy.converted_type = ConvertedType::UINT_64;
    stats = WriteAndGetStatistics<int64_t>(dir, legacy, {}, {-2, 7});
    CHECK(stats.min_value == Bytes<int64_t>(7));
    CHECK(stats.max_value == Bytes<int64_t>(-2));
  }
  SUBCASE("DOUBLE skips NaN and writes -0.0 as min and +0.0 as max") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Statistics stats = WriteAndGetStatistics<double>(dir, Leaf("v", Type::DOUBLE, kRequired), {},
                                                     {nan, 0.0, 2.5, nan, -1.5});
    CHECK(stats.min_value == Bytes<double>(-1.5));
    CHECK(stats.max_value == Bytes<double>(2.5));
    CHECK(stats.nan_count == 2);
    stats = WriteAndGetStatistics<double>(dir, Leaf("v", Type::DOUBLE, kRequired), {}, {0.0, 0.0, -0.0});
    CHECK(stats.min_value == Bytes<double>(-0.0));
    CHECK(stats.max_value == Bytes<double>(0.0));
    CHECK(std::signbit(*reinterpret_cast<const double*>(stats.min_value->data())));
    CHECK_FALSE(std::signbit(*reinterpret_cast<const double*>(stats.max_value->data())));
  }
  SUBCASE("FLOAT of only NaN has a null count and no min/max") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    Statistics stats =
        WriteAndGetStatistics<float>(dir, Leaf("v", Type::FLOAT, kOptional), {1, 0, 1}, {nan, nan});
    CHECK(stats.null_count == 1);
    CHECK(stats.nan_count == 2);
    CHECK_FALSE(stats.min_value.has_value());
    CHECK_FALSE(stats.max_value.has_value());
  }
  SUBCASE("BYTE_ARRAY compares unsigned bytes") {
    std::string a = "apple", b = "\xff-high", c = "", d = "banana";
    Statistics stats = WriteAndGetStatistics<ByteArray>(dir, Leaf("v", Type::BYTE_ARRAY, kRequired), {},
                                                        {View(a), View(b), View(c), View(d)});
    CHECK(stats.min_value == "");
    CHECK(stats.max_value == b);
  }
  SUBCASE("DECIMAL in FIXED_LEN_BYTE_ARRAY compares as signed big-endian integers") {
    SchemaElement leaf = Leaf("v", Type::FIXED_LEN_BYTE_ARRAY, kRequired, 2);
    leaf.converted_type = ConvertedType::DECIMAL;
    leaf.precision = 4;
    leaf.scale = 2;
    std::string minus_one("\xff\xff", 2), one("\x00\x01", 2), big("\x7f\x00", 2), minus_big("\x80\x00", 2);
    Statistics stats = WriteAndGetStatistics<ByteArray>(
        dir, leaf, {}, {View(one), View(minus_one), View(big), View(minus_big)});
    CHECK(stats.min_value == minus_big);
    CHECK(stats.max_value == big);
  }
  SUBCASE("BOOLEAN") {
    Statistics stats = WriteAndGetStatistics<bool>(dir, Leaf("v", Type::BOOLEAN, kRequired), {}, {true, true});
    CHECK(stats.min_value == std::string(1, '\1'));
    CHECK(stats.max_value == std::string(1, '\1'));
    stats = WriteAndGetStatistics<bool>(dir, Leaf("v", Type::BOOLEAN, kRequired), {}, {true, false});
    CHECK(stats.min_value == std::string(1, '\0'));
  }
  SUBCASE("INT96 has no order: only the null count") {
    Statistics stats = WriteAndGetStatistics<Int96>(dir, Leaf("v", Type::INT96, kOptional), {0, 1},
                                                    {Int96{{1, 2, 3}}});
    CHECK(stats.null_count == 1);
    CHECK_FALSE(stats.min_value.has_value());
  }
  SUBCASE("an all-null column") {
    Statistics stats = WriteAndGetStatistics<int64_t>(dir, Leaf("v", Type::INT64, kOptional), {0, 0, 0}, {});
    CHECK(stats.null_count == 3);
    CHECK_FALSE(stats.max_value.has_value());
  }
  SUBCASE("write_statistics = false") {
    WriterOptions options;
    options.write_statistics = false;
    Statistics stats =
        WriteAndGetStatistics<int32_t>(dir, Leaf("v", Type::INT32, kRequired), {}, {1, 2}, options);
    CHECK(stats == Statistics{});
  }
}

// ---------------------------------------------------------------------------------------
// Footer and page layout.

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST_CASE("file writer: created_by names this project and the version of the VERSION file") {
  std::ifstream version_file(std::string(PQ_SOURCE_DIR) + "/VERSION");
  std::string version;
  REQUIRE(std::getline(version_file, version));
  CHECK(std::string(LibraryVersion()) == version);
  CHECK(WriterOptions().created_by == "sqlite-parquet version " + version);
  TempDir dir;
  const std::string path = dir.File("created_by.parquet");
  {
    ParquetFileWriter writer(path, {Root(1), Leaf("a", Type::INT32, kRequired)});
    writer.StartRowGroup();
    const int32_t a[] = {1, 2};
    writer.WriteBatch<int32_t>(0, 2, nullptr, nullptr, a, 2);
    writer.EndRowGroup(2);
    writer.Close();
  }
  CHECK(ParquetFileReader::Open(path)->metadata().created_by == "sqlite-parquet version " + version);
  // In the form readers parse for writer-specific workarounds.
  const WriterVersion parsed = ParseCreatedBy(DefaultCreatedBy());
  CHECK(parsed.application == "sqlite-parquet");
  CHECK(parsed.has_version);
}

TEST_CASE("file writer: start_writeback (parquet_copy's) leaves the file's bytes as they are") {
  TempDir dir;
  auto write = [&](const std::string& name, bool start_writeback) {
    WriterOptions options;
    options.start_writeback = start_writeback;
    options.page_size = 64;  // several pages and row groups
    const std::string path = dir.File(name);
    ParquetFileWriter writer(path, {Root(1), Leaf("a", Type::INT64, kRequired)}, options);
    for (int64_t group = 0; group < 3; group++) {
      writer.StartRowGroup();
      std::vector<int64_t> values(1000);
      for (size_t i = 0; i < values.size(); i++) values[i] = group * 1000 + static_cast<int64_t>(i * i % 977);
      writer.WriteBatch<int64_t>(0, values.size(), nullptr, nullptr, values.data(), values.size());
      writer.EndRowGroup(static_cast<int64_t>(values.size()));
    }
    writer.Close();
    return ReadWholeFile(path);
  };
  const std::string plain = write("plain.parquet", false);
  CHECK(plain.size() > 3000);
  CHECK(write("writeback.parquet", true) == plain);
}

TEST_CASE("file writer: footer, row group layout and page checksums") {
  TempDir dir;
  const std::string path = dir.File("layout.parquet");
  WriterOptions options;
  options.page_size = 32;
  options.created_by = "file writer test";
  options.key_value_metadata = {KeyValue{"origin", std::string("unit test")}, KeyValue{"empty", std::nullopt}};
  std::vector<SchemaElement> schema = {Root(2), Leaf("a", Type::INT32, kRequired),
                                       Leaf("b", Type::BYTE_ARRAY, kOptional)};
  {
    ParquetFileWriter writer(path, schema, options);
    std::deque<std::string> storage;
    for (int rg = 0; rg < 3; rg++) {
      writer.StartRowGroup();
      std::vector<int32_t> a;
      std::vector<int16_t> def;
      std::vector<ByteArray> b;
      for (int i = 0; i < 100; i++) {
        a.push_back(rg * 100 + i);
        def.push_back(i % 2);
        if (i % 2) {
          storage.push_back("b" + std::to_string(i));
          b.push_back(View(storage.back()));
        }
      }
      writer.WriteBatch<int32_t>(0, a.size(), nullptr, nullptr, a.data(), a.size());
      writer.WriteBatch<ByteArray>(1, def.size(), def.data(), nullptr, b.data(), b.size());
      writer.EndRowGroup(100);
    }
    writer.Close();
    CHECK(writer.bytes_written() == std::filesystem::file_size(path));
    writer.Close();  // a second Close does nothing
  }
  const std::string bytes = ReadWholeFile(path);
  REQUIRE(bytes.size() > 12);
  CHECK(bytes.substr(0, 4) == "PAR1");
  CHECK(bytes.substr(bytes.size() - 4) == "PAR1");

  auto file = ParquetFileReader::Open(path);
  const FileMetaData& meta = file->metadata();
  CHECK(meta.version == 2);
  CHECK(meta.schema == schema);
  CHECK(meta.num_rows == 300);
  CHECK(meta.created_by == "file writer test");
  CHECK(meta.key_value_metadata == options.key_value_metadata);
  REQUIRE(meta.column_orders.has_value());
  CHECK(meta.column_orders->size() == 2);
  for (const ColumnOrder& order : *meta.column_orders) {
    CHECK(order.kind == ColumnOrder::Kind::TYPE_DEFINED_ORDER);
  }
  REQUIRE(meta.row_groups.size() == 3);

  int64_t expected_offset = 4;
  for (size_t rg = 0; rg < 3; rg++) {
    const RowGroup& group = meta.row_groups[rg];
    CHECK(group.ordinal == static_cast<int16_t>(rg));
    CHECK(group.num_rows == 100);
    CHECK(group.file_offset == expected_offset);
    int64_t compressed = 0, uncompressed = 0;
    for (const ColumnChunk& chunk : group.columns) {
      const ColumnMetaData& column = *chunk.meta_data;
      const int64_t start = column.dictionary_page_offset.value_or(column.data_page_offset);
      CHECK(start == expected_offset);  // chunks are back to back
      CHECK(chunk.file_offset == start);
      expected_offset += column.total_compressed_size;
      compressed += column.total_compressed_size;
      uncompressed += column.total_uncompressed_size;
      CHECK(column.codec == CompressionCodec::SNAPPY);
      CHECK(column.num_values == 100);

      // Walk the pages: each has a CRC of its body as written, and the sizes add up.
      int64_t pos = start;
      int64_t pages_uncompressed = 0;
      int pages = 0;
      while (pos < start + column.total_compressed_size) {
        size_t header_size = 0;
        PageHeader header = ParsePageHeader(reinterpret_cast<const uint8_t*>(bytes.data()) + pos,
                                            bytes.size() - static_cast<size_t>(pos), &header_size);
        REQUIRE(header.crc.has_value());
        const uint8_t* body = reinterpret_cast<const uint8_t*>(bytes.data()) + pos + header_size;
        CHECK(static_cast<uint32_t>(*header.crc) ==
              Crc32(body, static_cast<size_t>(header.compressed_page_size)));
        if (pages == 0 && column.dictionary_page_offset.has_value()) {
          CHECK(header.type == PageType::DICTIONARY_PAGE);
        } else {
          CHECK(header.type == PageType::DATA_PAGE);
          if (pos == column.data_page_offset) CHECK(pages == (column.dictionary_page_offset ? 1 : 0));
        }
        pages_uncompressed += static_cast<int64_t>(header_size) + header.uncompressed_page_size;
        pos += static_cast<int64_t>(header_size) + header.compressed_page_size;
        pages++;
      }
      CHECK(pos == start + column.total_compressed_size);
      CHECK(pages_uncompressed == column.total_uncompressed_size);
      CHECK(pages > 2);
    }
    CHECK(group.total_compressed_size == compressed);
    CHECK(group.total_byte_size == uncompressed);
  }
  // The page index follows the last chunk: every column index, then every offset index,
  // back to back; then the footer.
  int64_t index_offset = expected_offset;
  for (bool column_indexes : {true, false}) {
    for (const RowGroup& group : meta.row_groups) {
      for (const ColumnChunk& chunk : group.columns) {
        const std::optional<int64_t>& offset = column_indexes ? chunk.column_index_offset : chunk.offset_index_offset;
        const std::optional<int32_t>& length = column_indexes ? chunk.column_index_length : chunk.offset_index_length;
        REQUIRE(offset.has_value());
        REQUIRE(length.has_value());
        CHECK(*offset == index_offset);
        index_offset += *length;
      }
    }
  }
  CHECK(static_cast<uint64_t>(index_offset) + file->footer_length() + 8 == bytes.size());
  // Without the page index the footer follows the last chunk.
  options.write_page_index = false;
  {
    ParquetFileWriter writer(path, schema, options);
    writer.StartRowGroup();
    int32_t a[] = {1, 2, 3};
    int16_t def[] = {1, 0, 0};
    std::string one = "one";
    ByteArray b[] = {View(one)};
    writer.WriteBatch<int32_t>(0, 3, nullptr, nullptr, a, 3);
    writer.WriteBatch<ByteArray>(1, 3, def, nullptr, b, 1);
    writer.EndRowGroup(3);
    writer.Close();
  }
  auto small = ParquetFileReader::Open(path);
  int64_t end = 4;
  for (const ColumnChunk& chunk : small->metadata().row_groups[0].columns) {
    CHECK_FALSE(chunk.column_index_offset.has_value());
    CHECK_FALSE(chunk.offset_index_offset.has_value());
    end += chunk.meta_data->total_compressed_size;
  }
  CHECK(static_cast<uint64_t>(end) + small->footer_length() + 8 == std::filesystem::file_size(path));
}

TEST_CASE("file writer: write_crc = false leaves the page checksums out") {
  TempDir dir;
  const std::string path = dir.File("nocrc.parquet");
  WriterOptions options;
  options.write_crc = false;
  {
    ParquetFileWriter writer(path, {Root(1), Leaf("a", Type::INT32, kRequired)}, options);
    writer.StartRowGroup();
    int32_t values[] = {1, 2, 3};
    writer.WriteBatch<int32_t>(0, 3, nullptr, nullptr, values, 3);
    writer.EndRowGroup(3);
    writer.Close();
  }
  const std::string bytes = ReadWholeFile(path);
  size_t header_size = 0;
  PageHeader header = ParsePageHeader(reinterpret_cast<const uint8_t*>(bytes.data()) + 4, bytes.size() - 4,
                                      &header_size);
  CHECK_FALSE(header.crc.has_value());
}

TEST_CASE("file writer: empty files, empty row groups and skipped columns") {
  TempDir dir;
  std::vector<SchemaElement> schema = {Root(2), Leaf("a", Type::INT32, kOptional),
                                       Leaf("b", Type::DOUBLE, kRequired)};
  {
    ParquetFileWriter writer(dir.File("empty.parquet"), schema, {});
    writer.Close();
  }
  auto empty = ParquetFileReader::Open(dir.File("empty.parquet"));
  CHECK(empty->num_row_groups() == 0);
  CHECK(empty->num_rows() == 0);

  {
    ParquetFileWriter writer(dir.File("zero_rows.parquet"), schema, {});
    writer.StartRowGroup();
    writer.EndRowGroup(0);
    writer.StartRowGroup();
    double b[] = {1.5, 2.5};
    // Column a is skipped in a row group with rows: EndRowGroup names it.
    writer.WriteBatch<double>(1, 2, nullptr, nullptr, b, 2);
    CHECK_THROWS_WITH_AS(writer.EndRowGroup(2), "column 'a' has 0 rows but the row group has 2", ParquetError);
  }
  {
    ParquetFileWriter writer(dir.File("zero_rows.parquet"), schema, {});
    writer.StartRowGroup();
    writer.EndRowGroup(0);
    writer.Close();
  }
  auto zero = ParquetFileReader::Open(dir.File("zero_rows.parquet"));
  CHECK(zero->num_row_groups() == 1);
  CHECK(zero->num_rows() == 0);
  CHECK(ReadColumn<int32_t>(*zero, 0).values.empty());
  CHECK(ReadColumn<double>(*zero, 1).values.empty());
}

TEST_CASE("file writer: values larger than a page get pages of their own") {
  TempDir dir;
  const std::string path = dir.File("large.parquet");
  std::vector<std::string> strings;
  for (int i = 0; i < 5; i++) strings.push_back(std::string(5000 + i, static_cast<char>('a' + i)));
  std::vector<ByteArray> values;
  for (const std::string& s : strings) values.push_back(View(s));
  WriterOptions options;
  options.page_size = 1000;
  options.dictionary = false;
  {
    ParquetFileWriter writer(path, {Root(1), Leaf("s", Type::BYTE_ARRAY, kRequired)}, options);
    writer.StartRowGroup();
    writer.WriteBatch<ByteArray>(0, values.size(), nullptr, nullptr, values.data(), values.size());
    writer.EndRowGroup(5);
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  ColumnData data = ReadColumn<ByteArray>(*file, 0);
  CHECK(data.values == strings);
  CHECK(data.batches == 5);
}

TEST_CASE("file writer: bad batches are rejected and leave the writer usable") {
  TempDir dir;
  const std::string path = dir.File("errors.parquet");
  std::vector<SchemaElement> schema = {Root(3), Leaf("a", Type::INT32, kOptional),
                                       Leaf("f", Type::FIXED_LEN_BYTE_ARRAY, kRequired, 3),
                                       Leaf("c", Type::INT64, kRequired)};
  ParquetFileWriter writer(path, schema, {});
  int32_t a[] = {1, 2};
  int16_t def[] = {1, 0, 1};
  CHECK_THROWS_WITH_AS(writer.WriteBatch<int32_t>(0, 3, def, nullptr, a, 2),
                       "no row group is open: call StartRowGroup first", ParquetError);
  writer.StartRowGroup();
  CHECK_THROWS_AS(writer.StartRowGroup(), ParquetError);
  CHECK_THROWS_WITH_AS(writer.WriteBatch<int64_t>(0, 3, def, nullptr, nullptr, 2),
                       "column 'a' is INT32, it cannot take int64_t values", ParquetError);
  CHECK_THROWS_WITH_AS(writer.WriteBatch<int32_t>(0, 3, def, nullptr, a, 1),
                       "column 'a': the definition levels call for 2 values but the batch has 1", ParquetError);
  CHECK_THROWS_WITH_AS(writer.WriteBatch<int32_t>(0, 3, nullptr, nullptr, a, 2),
                       "column 'a' needs definition levels (max level 1)", ParquetError);
  int16_t bad_def[] = {1, 2, 1};
  CHECK_THROWS_WITH_AS(writer.WriteBatch<int32_t>(0, 3, bad_def, nullptr, a, 2),
                       "definition level 2 at slot 1 is outside 0..1 for column 'a'", ParquetError);
  CHECK_THROWS_WITH_AS(writer.WriteBatch<int32_t>(7, 3, def, nullptr, a, 2),
                       "column index 7 is out of range (the schema has 3 columns)", ParquetError);
  writer.WriteBatch<int32_t>(0, 3, def, nullptr, a, 2);

  std::string good = "xyz", bad = "toolong";
  ByteArray f[] = {View(good), View(bad), View(good)};
  CHECK_THROWS_WITH_AS(writer.WriteBatch<ByteArray>(1, 3, nullptr, nullptr, f, 3),
                       "value 1 of 7 bytes does not match the type_length 3 of column 'f'", ParquetError);
  f[1] = View(good);
  writer.WriteBatch<ByteArray>(1, 3, nullptr, nullptr, f, 3);
  CHECK_THROWS_WITH_AS(writer.EndRowGroup(3), "column 'c' has 0 rows but the row group has 3", ParquetError);
  CHECK_THROWS_WITH_AS(writer.Close(), "a row group is still open: call EndRowGroup before Close",
                       ParquetError);
  int64_t c[] = {10, 20, 30};
  writer.WriteBatch<int64_t>(2, 3, nullptr, nullptr, c, 3);
  CHECK_THROWS_WITH_AS(writer.EndRowGroup(4), "column 'a' has 3 rows but the row group has 4", ParquetError);
  writer.EndRowGroup(3);
  writer.Close();
  CHECK_THROWS_WITH_AS(writer.StartRowGroup(), ("parquet writer for '" + path + "' is already closed").c_str(),
                       ParquetError);

  auto file = ParquetFileReader::Open(path);
  ColumnData data = ReadColumn<int32_t>(*file, 0);
  CHECK(data.def == std::vector<int16_t>{1, 0, 1});
  CHECK(data.values == std::vector<std::string>{Bytes<int32_t>(1), Bytes<int32_t>(2)});
  CHECK(ReadColumn<ByteArray>(*file, 1).values == std::vector<std::string>{"xyz", "xyz", "xyz"});
  CHECK(ReadColumn<int64_t>(*file, 2).values.size() == 3);
}

TEST_CASE("file writer: invalid schemas, options and paths are rejected") {
  TempDir dir;
  std::vector<SchemaElement> schema = {Root(1), Leaf("a", Type::INT32, kRequired)};
  WriterOptions options;
  options.data_page_version = 3;
  CHECK_THROWS_WITH_AS(ParquetFileWriter(dir.File("x.parquet"), schema, options),
                       "data page version 3 is not 1 or 2", ParquetError);
  options = {};
  options.codec = CompressionCodec::LZO;
  CHECK_THROWS_WITH_AS(ParquetFileWriter(dir.File("x.parquet"), schema, options), "codec LZO is not supported",
                       ParquetError);
  options = {};
  options.codec = CompressionCodec::GZIP;
  options.compression_level = 42;
  CHECK_THROWS_AS(ParquetFileWriter(dir.File("x.parquet"), schema, options), ParquetError);
  CHECK_THROWS_AS(ParquetFileWriter(dir.File("x.parquet"), {Root(2), Leaf("a", Type::INT32, kRequired)}, {}),
                  ParquetError);
  CHECK_THROWS_WITH_AS(ParquetFileWriter(dir.File("x.parquet"), {Root(0)}, {}),
                       "schema 'schema' has no columns", ParquetError);
  CHECK_THROWS_AS(ParquetFileWriter(dir.File("no/such/dir/x.parquet"), schema, {}), ParquetError);
}

TEST_CASE("file writer: columns of a row group may be written interleaved, in small batches") {
  TempDir dir;
  std::vector<SchemaElement> schema = {Root(3), Leaf("a", Type::INT64, kOptional), Leaf("b", Type::BYTE_ARRAY, kOptional),
                                       Leaf("c", Type::DOUBLE, kRequired)};
  WriterOptions options;
  options.page_size = 2000;
  const size_t rows = 5000, batch = 97;
  Slots<int64_t> a = FlatSlots<int64_t>(0, rows, Type::INT64, true);
  Slots<ByteArray> b = FlatSlots<ByteArray>(0, rows, Type::BYTE_ARRAY, true);
  Slots<double> c = FlatSlots<double>(0, rows, Type::DOUBLE, false);
  auto write = [&](const std::string& path, bool interleaved) {
    ParquetFileWriter writer(path, schema, options);
    writer.StartRowGroup();
    if (!interleaved) {
      writer.WriteBatch<int64_t>(0, rows, a.def.data(), nullptr, ValuePointer<int64_t>(a.values), a.values.size());
      writer.WriteBatch<ByteArray>(1, rows, b.def.data(), nullptr, ValuePointer<ByteArray>(b.values), b.values.size());
      writer.WriteBatch<double>(2, rows, nullptr, nullptr, ValuePointer<double>(c.values), c.values.size());
    } else {
      // Columns in reverse order, a batch of each at a time.
      size_t a_values = 0, b_values = 0;
      for (size_t first = 0; first < rows; first += batch) {
        const size_t n = std::min(batch, rows - first);
        writer.WriteBatch<double>(2, n, nullptr, nullptr, ValuePointer<double>(c.values) + first, n);
        size_t count = 0;
        for (size_t i = first; i < first + n; i++) count += b.def[i] == 1;
        writer.WriteBatch<ByteArray>(1, n, b.def.data() + first, nullptr, ValuePointer<ByteArray>(b.values) + b_values, count);
        b_values += count;
        count = 0;
        for (size_t i = first; i < first + n; i++) count += a.def[i] == 1;
        writer.WriteBatch<int64_t>(0, n, a.def.data() + first, nullptr, ValuePointer<int64_t>(a.values) + a_values, count);
        a_values += count;
      }
    }
    writer.EndRowGroup(static_cast<int64_t>(rows));
    writer.Close();
  };
  write(dir.File("whole.parquet"), false);
  write(dir.File("interleaved.parquet"), true);
  auto whole = ParquetFileReader::Open(dir.File("whole.parquet"));
  auto interleaved = ParquetFileReader::Open(dir.File("interleaved.parquet"));
  CHECK(ReadColumn<int64_t>(*interleaved, 0).values == Keys<int64_t>(a.values));
  CHECK(ReadColumn<ByteArray>(*interleaved, 1).values == Keys<ByteArray>(b.values));
  CHECK(ReadColumn<double>(*interleaved, 2).values == Keys<double>(c.values));
  CHECK(ReadColumn<int64_t>(*interleaved, 0).def == a.def);
  // The chunks are laid out in schema order, one after the other.
  const RowGroup& group = interleaved->metadata().row_groups[0];
  for (size_t col = 1; col < 3; col++) {
    const ColumnMetaData& previous = *group.columns[col - 1].meta_data;
    const int64_t previous_start = previous.dictionary_page_offset.value_or(previous.data_page_offset);
    const ColumnMetaData& meta = *group.columns[col].meta_data;
    CHECK(meta.dictionary_page_offset.value_or(meta.data_page_offset) == previous_start + previous.total_compressed_size);
  }
  CHECK(ReadColumn<int64_t>(*whole, 0).values == ReadColumn<int64_t>(*interleaved, 0).values);
}

TEST_CASE("file writer: pages spilled past buffered_pages_limit give the same file") {
  TempDir dir;
  std::vector<SchemaElement> schema = {Root(3), Leaf("a", Type::INT64, kOptional), Leaf("b", Type::BYTE_ARRAY, kOptional),
                                       Leaf("c", Type::DOUBLE, kRequired)};
  const size_t rows = 6000, batch = 250;
  Slots<int64_t> a = FlatSlots<int64_t>(0, rows, Type::INT64, true);
  Slots<ByteArray> b = FlatSlots<ByteArray>(0, rows, Type::BYTE_ARRAY, true);
  Slots<double> c = FlatSlots<double>(0, rows, Type::DOUBLE, false);
  auto write = [&](const std::string& path, size_t limit) {
    WriterOptions options;
    options.page_size = 1500;  // many pages per chunk
    options.buffered_pages_limit = limit;
    options.bloom_filter_columns = {1};
    ParquetFileWriter writer(path, schema, options);
    size_t a_values = 0, b_values = 0;
    for (size_t group_start = 0; group_start < rows; group_start += rows / 2) {
      writer.StartRowGroup();
      // Columns interleaved in small batches, so that every chunk has pages held and spilled.
      for (size_t first = group_start; first < group_start + rows / 2; first += batch) {
        const size_t n = std::min(batch, group_start + rows / 2 - first);
        size_t count = 0;
        for (size_t i = first; i < first + n; i++) count += b.def[i] == 1;
        writer.WriteBatch<ByteArray>(1, n, b.def.data() + first, nullptr, ValuePointer<ByteArray>(b.values) + b_values, count);
        b_values += count;
        writer.WriteBatch<double>(2, n, nullptr, nullptr, ValuePointer<double>(c.values) + first, n);
        count = 0;
        for (size_t i = first; i < first + n; i++) count += a.def[i] == 1;
        writer.WriteBatch<int64_t>(0, n, a.def.data() + first, nullptr, ValuePointer<int64_t>(a.values) + a_values, count);
        a_values += count;
      }
      writer.EndRowGroup(static_cast<int64_t>(rows / 2));
    }
    writer.Close();
  };
  write(dir.File("memory.parquet"), std::numeric_limits<size_t>::max());
  write(dir.File("spill_all.parquet"), 0);
  write(dir.File("spill_some.parquet"), 4000);
  const std::string expected = ReadWholeFile(dir.File("memory.parquet"));
  CHECK(ReadWholeFile(dir.File("spill_all.parquet")) == expected);
  CHECK(ReadWholeFile(dir.File("spill_some.parquet")) == expected);
  auto reader = ParquetFileReader::Open(dir.File("spill_all.parquet"));
  CHECK(reader->metadata().row_groups.size() == 2);
  CHECK(ReadColumn<ByteArray>(*reader, 1).values == Keys<ByteArray>(b.values));
  CHECK(ReadColumn<double>(*reader, 2).values == Keys<double>(c.values));
  // The spill file is unlinked from the start: nothing is left beside the output.
  size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) entries++;
  CHECK(entries == 3);
}

TEST_CASE("file writer: per-column codecs and levels override the file's codec") {
  TempDir dir;
  const std::string path = dir.File("codecs.parquet");
  std::vector<SchemaElement> schema = {Root(4), Leaf("a", Type::INT64, kOptional), Leaf("b", Type::BYTE_ARRAY, kOptional),
                                       Leaf("c", Type::DOUBLE, kOptional), Leaf("d", Type::BYTE_ARRAY, kOptional)};
  WriterOptions options;
  options.codec = CompressionCodec::ZSTD;
  options.compression_level = 5;
  options.page_size = 1000;  // several data pages and a dictionary page per chunk
  options.column_compression[1] = {CompressionCodec::GZIP, 1};
  options.column_compression[2] = {CompressionCodec::UNCOMPRESSED, std::nullopt};
  options.column_compression[3] = {CompressionCodec::BROTLI, std::nullopt};
  std::vector<std::vector<std::string>> expected(4);
  {
    ParquetFileWriter writer(path, schema, options);
    for (int rg = 0; rg < 2; rg++) {
      writer.StartRowGroup();
      Slots<int64_t> a = FlatSlots<int64_t>(rg * 3000, 3000, Type::INT64, true);
      Slots<ByteArray> b = FlatSlots<ByteArray>(rg * 3000, 3000, Type::BYTE_ARRAY, true);
      Slots<double> c = FlatSlots<double>(rg * 3000, 3000, Type::DOUBLE, true);
      writer.WriteBatch<int64_t>(0, a.def.size(), a.def.data(), nullptr, ValuePointer<int64_t>(a.values), a.values.size());
      writer.WriteBatch<ByteArray>(1, b.def.size(), b.def.data(), nullptr, ValuePointer<ByteArray>(b.values), b.values.size());
      writer.WriteBatch<double>(2, c.def.size(), c.def.data(), nullptr, ValuePointer<double>(c.values), c.values.size());
      writer.WriteBatch<ByteArray>(3, b.def.size(), b.def.data(), nullptr, ValuePointer<ByteArray>(b.values), b.values.size());
      writer.EndRowGroup(3000);
      for (const std::string& key : Keys<int64_t>(a.values)) expected[0].push_back(key);
      for (const std::string& key : Keys<ByteArray>(b.values)) expected[1].push_back(key), expected[3].push_back(key);
      for (const std::string& key : Keys<double>(c.values)) expected[2].push_back(key);
    }
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  const CompressionCodec codecs[] = {CompressionCodec::ZSTD, CompressionCodec::GZIP, CompressionCodec::UNCOMPRESSED,
                                     CompressionCodec::BROTLI};
  for (const RowGroup& rg : file->metadata().row_groups) {
    for (int c = 0; c < 4; c++) CHECK(rg.columns[size_t(c)].meta_data->codec == codecs[c]);
    // Uncompressed pages: compressed and uncompressed sizes agree.
    CHECK(rg.columns[2].meta_data->total_compressed_size == rg.columns[2].meta_data->total_uncompressed_size);
  }
  CHECK(ReadColumn<int64_t>(*file, 0).values == expected[0]);
  CHECK(ReadColumn<ByteArray>(*file, 1).values == expected[1]);
  CHECK(ReadColumn<double>(*file, 2).values == expected[2]);
  CHECK(ReadColumn<ByteArray>(*file, 3).values == expected[3]);

  options.column_compression[7] = {CompressionCodec::GZIP, std::nullopt};
  CHECK_THROWS_WITH_AS(ParquetFileWriter(dir.File("x.parquet"), schema, options),
                       "compression override for column 7, but the schema has 4 columns", ParquetError);
  options.column_compression.erase(7);
  options.column_compression[0] = {CompressionCodec::GZIP, 10};
  CHECK_THROWS_AS(ParquetFileWriter(dir.File("x.parquet"), schema, options), ParquetError);
}

// ---------------------------------------------------------------------------------------
// Page index: read back with ParseColumnIndex / ParseOffsetIndex and checked against the
// pages actually in the file, read through our reader (one batch per page).

const uint8_t* FileBytes(const std::string& bytes, int64_t offset) {
  return reinterpret_cast<const uint8_t*>(bytes.data()) + offset;
}

struct ChunkIndexes {
  std::optional<ColumnIndex> column_index;
  OffsetIndex offset_index;
};

ChunkIndexes ReadIndexes(const std::string& bytes, const ColumnChunk& chunk) {
  ChunkIndexes out;
  REQUIRE(chunk.offset_index_offset.has_value());
  REQUIRE(chunk.offset_index_length.has_value());
  REQUIRE(*chunk.offset_index_offset + *chunk.offset_index_length <= static_cast<int64_t>(bytes.size()));
  out.offset_index = ParseOffsetIndex(FileBytes(bytes, *chunk.offset_index_offset),
                                      static_cast<size_t>(*chunk.offset_index_length));
  // The recorded length is exactly the serialized struct.
  CHECK(Serialize(out.offset_index) ==
        bytes.substr(static_cast<size_t>(*chunk.offset_index_offset), static_cast<size_t>(*chunk.offset_index_length)));
  CHECK(chunk.column_index_offset.has_value() == chunk.column_index_length.has_value());
  if (chunk.column_index_offset.has_value()) {
    REQUIRE(*chunk.column_index_offset + *chunk.column_index_length <= static_cast<int64_t>(bytes.size()));
    out.column_index = ParseColumnIndex(FileBytes(bytes, *chunk.column_index_offset),
                                        static_cast<size_t>(*chunk.column_index_length));
    CHECK(Serialize(*out.column_index) == bytes.substr(static_cast<size_t>(*chunk.column_index_offset),
                                                       static_cast<size_t>(*chunk.column_index_length)));
  }
  return out;
}

// One data page as our reader returns it.
struct PageData {
  int64_t rows = 0, nulls = 0, nans = 0, unencoded_bytes = 0;
  std::vector<int64_t> def_histogram, rep_histogram;
  std::vector<std::string> values;  // Key() of the non-null values
};

template <typename T>
std::vector<PageData> ReadPages(const ParquetFileReader& file, int row_group, int column) {
  const ColumnDescriptor& descriptor = file.schema().column(column);
  std::vector<PageData> pages;
  auto reader = ColumnChunkReader::Make(file, row_group, column);
  ColumnBatch batch;
  while (size_t n = reader->ReadBatch(1 << 20, &batch)) {
    PageData page;
    page.rows = static_cast<int64_t>(n);
    page.nulls = static_cast<int64_t>(n - batch.num_values);
    if (descriptor.max_repetition_level > 0) {
      page.rows = 0;
      page.rep_histogram.assign(static_cast<size_t>(descriptor.max_repetition_level) + 1, 0);
      for (size_t i = 0; i < n; i++) {
        page.rows += batch.rep_levels[i] == 0;
        page.rep_histogram[static_cast<size_t>(batch.rep_levels[i])]++;
      }
    }
    if (descriptor.max_definition_level > 0) {
      page.def_histogram.assign(static_cast<size_t>(descriptor.max_definition_level) + 1, 0);
      for (size_t i = 0; i < n; i++) page.def_histogram[static_cast<size_t>(batch.def_levels[i])]++;
    }
    const T* values = batch.values<T>();
    for (size_t i = 0; i < batch.num_values; i++) {
      if constexpr (std::is_floating_point_v<T>) page.nans += std::isnan(values[i]);
      if constexpr (std::is_same_v<T, ByteArray>) page.unencoded_bytes += values[i].len;
      page.values.push_back(Key(values[i]));
    }
    pages.push_back(std::move(page));
  }
  return pages;
}

// Min and max of encoded values under `less`, NaN skipped; nullopt when there are none.
template <typename T, typename Less>
std::optional<std::pair<std::string, std::string>> ExpectedBounds(const std::vector<std::string>& values, Less less) {
  std::optional<std::pair<std::string, std::string>> bounds;
  for (const std::string& value : values) {
    if constexpr (std::is_floating_point_v<T>) {
      T x;
      std::memcpy(&x, value.data(), sizeof(T));
      if (std::isnan(x)) continue;
    }
    if (!bounds) {
      bounds.emplace(value, value);
    } else {
      if (less(value, bounds->first)) bounds->first = value;
      if (less(bounds->second, value)) bounds->second = value;
    }
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (bounds) {
      T low, high;
      std::memcpy(&low, bounds->first.data(), sizeof(T));
      std::memcpy(&high, bounds->second.data(), sizeof(T));
      if (low == 0) bounds->first = Bytes<T>(std::copysign(T(0), T(-1)));
      if (high == 0) bounds->second = Bytes<T>(T(0));
    }
  }
  return bounds;
}

template <typename T>
bool NumericLess(const std::string& a, const std::string& b) {
  T x, y;
  std::memcpy(&x, a.data(), sizeof(T));
  std::memcpy(&y, b.data(), sizeof(T));
  return x < y;
}

bool BytesLess(const std::string& a, const std::string& b) { return a < b; }  // unsigned bytes

// The boundary order the spec defines, over the non-null pages' bounds.
template <typename Less>
BoundaryOrder ExpectedBoundaryOrder(const ColumnIndex& index, Less less) {
  bool ascending = true, descending = true;
  int previous = -1;
  for (size_t i = 0; i < index.null_pages.size(); i++) {
    if (index.null_pages[i]) continue;
    if (previous >= 0) {
      const size_t p = static_cast<size_t>(previous);
      if (less(index.min_values[i], index.min_values[p]) || less(index.max_values[i], index.max_values[p])) {
        ascending = false;
      }
      if (less(index.min_values[p], index.min_values[i]) || less(index.max_values[p], index.max_values[i])) {
        descending = false;
      }
    }
    previous = static_cast<int>(i);
  }
  return ascending ? BoundaryOrder::ASCENDING : descending ? BoundaryOrder::DESCENDING : BoundaryOrder::UNORDERED;
}

// Checks a chunk's offset index against the pages in the file and the pages read, and its
// column index (when `less` orders the column; nullptr: none expected) against the pages'
// values. Byte-array bounds longer than `truncate` may be shortened bounds.
template <typename T, typename Less>
void CheckPageIndex(const std::string& bytes, const ParquetFileReader& file, int row_group, int column, Less less,
                    bool expect_column_index, size_t truncate = 64) {
  CAPTURE(row_group);
  CAPTURE(column);
  const ColumnChunk& chunk = file.metadata().row_groups[static_cast<size_t>(row_group)].columns[static_cast<size_t>(column)];
  const ColumnMetaData& meta = *chunk.meta_data;
  const ColumnDescriptor& descriptor = file.schema().column(column);
  const ChunkIndexes indexes = ReadIndexes(bytes, chunk);
  const std::vector<PageData> pages = ReadPages<T>(file, row_group, column);
  const std::vector<PageLocation>& locations = indexes.offset_index.page_locations;
  REQUIRE(locations.size() == pages.size());

  // Page locations: back to back from data_page_offset to the end of the chunk, each one a
  // data page whose header and body make up compressed_page_size; first rows add up.
  int64_t offset = meta.data_page_offset;
  int64_t first_row = 0;
  for (size_t i = 0; i < locations.size(); i++) {
    CAPTURE(i);
    CHECK(locations[i].offset == offset);
    CHECK(locations[i].first_row_index == first_row);
    size_t header_size = 0;
    const PageHeader header = ParsePageHeader(FileBytes(bytes, offset), bytes.size() - static_cast<size_t>(offset), &header_size);
    CHECK((header.type == PageType::DATA_PAGE || header.type == PageType::DATA_PAGE_V2));
    CHECK(locations[i].compressed_page_size == static_cast<int32_t>(header_size) + header.compressed_page_size);
    const bool page_header_statistics =
        (header.data_page_header.has_value() && header.data_page_header->statistics.has_value()) ||
        (header.data_page_header_v2.has_value() && header.data_page_header_v2->statistics.has_value());
    CHECK_FALSE(page_header_statistics);  // page statistics live in the column index
    offset += locations[i].compressed_page_size;
    first_row += pages[i].rows;
  }
  CHECK(offset == meta.dictionary_page_offset.value_or(meta.data_page_offset) + meta.total_compressed_size);

  // Unencoded byte-array bytes per page, and the chunk's size statistics as their sums.
  int64_t unencoded = 0;
  std::vector<int64_t> def_total(pages.empty() ? 0 : pages[0].def_histogram.size(), 0);
  std::vector<int64_t> rep_total(pages.empty() ? 0 : pages[0].rep_histogram.size(), 0);
  for (const PageData& page : pages) {
    unencoded += page.unencoded_bytes;
    for (size_t l = 0; l < def_total.size(); l++) def_total[l] += page.def_histogram[l];
    for (size_t l = 0; l < rep_total.size(); l++) rep_total[l] += page.rep_histogram[l];
  }
  if (descriptor.physical_type == Type::BYTE_ARRAY) {
    REQUIRE(indexes.offset_index.unencoded_byte_array_data_bytes.has_value());
    REQUIRE(indexes.offset_index.unencoded_byte_array_data_bytes->size() == pages.size());
    for (size_t i = 0; i < pages.size(); i++) {
      CHECK((*indexes.offset_index.unencoded_byte_array_data_bytes)[i] == pages[i].unencoded_bytes);
    }
    REQUIRE(meta.size_statistics.has_value());
    CHECK(meta.size_statistics->unencoded_byte_array_data_bytes == unencoded);
  } else {
    CHECK_FALSE(indexes.offset_index.unencoded_byte_array_data_bytes.has_value());
    if (meta.size_statistics) CHECK_FALSE(meta.size_statistics->unencoded_byte_array_data_bytes.has_value());
  }
  if (descriptor.max_definition_level > 0) {
    REQUIRE(meta.size_statistics.has_value());
    CHECK(meta.size_statistics->definition_level_histogram == def_total);
  }
  if (descriptor.max_repetition_level > 0) {
    REQUIRE(meta.size_statistics.has_value());
    CHECK(meta.size_statistics->repetition_level_histogram == rep_total);
  }
  if (descriptor.max_definition_level == 0 && descriptor.max_repetition_level == 0 &&
      descriptor.physical_type != Type::BYTE_ARRAY) {
    CHECK_FALSE(meta.size_statistics.has_value());
  }

  REQUIRE(indexes.column_index.has_value() == expect_column_index);
  if (!expect_column_index) return;
  const ColumnIndex& index = *indexes.column_index;
  REQUIRE(index.null_pages.size() == pages.size());
  REQUIRE(index.min_values.size() == pages.size());
  REQUIRE(index.max_values.size() == pages.size());
  REQUIRE(index.null_counts.has_value());
  std::vector<int64_t> def_histograms, rep_histograms;
  for (size_t i = 0; i < pages.size(); i++) {
    CAPTURE(i);
    const PageData& page = pages[i];
    CHECK((*index.null_counts)[i] == page.nulls);
    def_histograms.insert(def_histograms.end(), page.def_histogram.begin(), page.def_histogram.end());
    rep_histograms.insert(rep_histograms.end(), page.rep_histogram.begin(), page.rep_histogram.end());
    const bool null_page = page.values.empty();
    CHECK(index.null_pages[i] == null_page);
    if (null_page) {
      CHECK(index.min_values[i].empty());
      CHECK(index.max_values[i].empty());
      continue;
    }
    const auto bounds = ExpectedBounds<T>(page.values, less);
    REQUIRE(bounds.has_value());
    const std::string& min = index.min_values[i];
    const std::string& max = index.max_values[i];
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (bounds->first.size() <= truncate) {
        CHECK(min == bounds->first);
      } else {
        CHECK(min.size() <= truncate);
        CHECK(bounds->first.substr(0, min.size()) == min);  // a prefix: a lower bound
      }
      if (bounds->second.size() <= truncate || max == bounds->second) {
        CHECK(max == bounds->second);  // short, or without a shorter upper bound (0xFF...)
      } else {
        CHECK(max.size() <= truncate);
        CHECK(bounds->second < max);  // an upper bound
      }
    } else {
      CHECK(min == bounds->first);
      CHECK(max == bounds->second);
    }
  }
  CHECK(index.boundary_order == ExpectedBoundaryOrder(index, less));
  if (descriptor.max_definition_level > 0) {
    CHECK(index.definition_level_histograms == def_histograms);
  } else {
    CHECK_FALSE(index.definition_level_histograms.has_value());
  }
  if (descriptor.max_repetition_level > 0) {
    CHECK(index.repetition_level_histograms == rep_histograms);
  } else {
    CHECK_FALSE(index.repetition_level_histograms.has_value());
  }
  if (descriptor.physical_type == Type::FLOAT || descriptor.physical_type == Type::DOUBLE) {
    REQUIRE(index.nan_counts.has_value());
    for (size_t i = 0; i < pages.size(); i++) CHECK((*index.nan_counts)[i] == pages[i].nans);
  } else {
    CHECK_FALSE(index.nan_counts.has_value());
  }
}

// A file with columns of several orders and shapes, small pages, two row groups.
std::vector<SchemaElement> PageIndexSchema() {
  SchemaElement text = Leaf("text", Type::BYTE_ARRAY, kOptional);
  text.converted_type = ConvertedType::UTF8;
  text.logical_type = LogicalType{};
  text.logical_type->kind = LogicalType::Kind::STRING;
  SchemaElement u32 = Leaf("u32", Type::INT32, kRequired);
  u32.converted_type = ConvertedType::UINT_32;
  SchemaElement tags = Group("tags", kOptional, 1);
  tags.converted_type = ConvertedType::LIST;
  SchemaElement element = Leaf("element", Type::BYTE_ARRAY, kOptional);
  return {Root(7),
          Leaf("asc", Type::INT32, kRequired),
          Leaf("desc", Type::INT64, kOptional),
          text,
          Leaf("dbl", Type::DOUBLE, kRequired),
          u32,
          Leaf("ts", Type::INT96, kOptional),
          tags,
          Group("list", kRepeated, 1),
          element};
}

void WritePageIndexFile(const std::string& path, const WriterOptions& options, size_t rows_per_group) {
  ParquetFileWriter writer(path, PageIndexSchema(), options);
  for (size_t rg = 0; rg < 2; rg++) {
    writer.StartRowGroup();
    std::vector<int32_t> asc, u32;
    std::vector<int64_t> desc;
    std::vector<double> dbl;
    std::vector<Int96> ts;
    std::vector<ByteArray> text;
    std::vector<int16_t> desc_def, text_def, ts_def;
    std::deque<std::string> storage;
    for (size_t i = 0; i < rows_per_group; i++) {
      const size_t row = rg * rows_per_group + i;
      asc.push_back(static_cast<int32_t>(row * 3));
      const bool desc_null = i >= 200 && i < 4800;  // a run of nulls long enough for null pages
      desc_def.push_back(desc_null ? 0 : 1);
      if (!desc_null) desc.push_back(1000000 - static_cast<int64_t>(row) * 7);
      const bool text_null = i % 7 == 0;
      text_def.push_back(text_null ? 0 : 1);
      if (!text_null) {
        std::string s = "w" + std::to_string((row * 7919) % 1000);
        if (i % 11 == 0) s += std::string(90, static_cast<char>('a' + i % 26));  // longer than 64 bytes
        if (i % 23 == 0) s = std::string(70, '\xff') + s;                        // no shorter upper bound
        storage.push_back(s);
        text.push_back(View(storage.back()));
      }
      double d = std::sin(static_cast<double>(row)) * 100;
      if (i % 13 == 0) d = std::numeric_limits<double>::quiet_NaN();
      if (i % 17 == 0) d = i % 2 ? 0.0 : -0.0;
      dbl.push_back(d);
      u32.push_back(static_cast<int32_t>(static_cast<uint32_t>(row) * 2654435761u));
      ts_def.push_back(i % 5 ? 1 : 0);
      if (i % 5) ts.push_back(Int96{{static_cast<uint32_t>(row), 0, 2440588}});
    }
    writer.WriteBatch<int32_t>(0, asc.size(), nullptr, nullptr, asc.data(), asc.size());
    writer.WriteBatch<int64_t>(1, desc_def.size(), desc_def.data(), nullptr, desc.data(), desc.size());
    writer.WriteBatch<ByteArray>(2, text_def.size(), text_def.data(), nullptr, text.data(), text.size());
    writer.WriteBatch<double>(3, dbl.size(), nullptr, nullptr, dbl.data(), dbl.size());
    writer.WriteBatch<int32_t>(4, u32.size(), nullptr, nullptr, u32.data(), u32.size());
    writer.WriteBatch<Int96>(5, ts_def.size(), ts_def.data(), nullptr, ts.data(), ts.size());
    ListRows list = MakeListRows(rg * rows_per_group, rows_per_group);
    writer.WriteBatch<ByteArray>(6, list.def.size(), list.def.data(), list.rep.data(), list.values.data(),
                                 list.values.size());
    writer.EndRowGroup(static_cast<int64_t>(rows_per_group));
  }
  writer.Close();
}

TEST_CASE("file writer: the page index matches the pages in the file") {
  TempDir dir;
  const std::string path = dir.File("page_index.parquet");
  auto unsigned_less = [](const std::string& a, const std::string& b) { return NumericLess<uint32_t>(a, b); };
  for (int version : {1, 2}) {
    for (bool dictionary : {false, true}) {
      CAPTURE(version);
      CAPTURE(dictionary);
      WriterOptions options;
      options.data_page_version = version;
      options.dictionary = dictionary;
      options.page_size = 256;
      WritePageIndexFile(path, options, 5000);
      const std::string bytes = ReadWholeFile(path);
      auto file = ParquetFileReader::Open(path);
      for (int rg = 0; rg < 2; rg++) {
        CheckPageIndex<int32_t>(bytes, *file, rg, 0, NumericLess<int32_t>, true);
        CheckPageIndex<int64_t>(bytes, *file, rg, 1, NumericLess<int64_t>, true);
        CheckPageIndex<ByteArray>(bytes, *file, rg, 2, BytesLess, true);
        CheckPageIndex<double>(bytes, *file, rg, 3, NumericLess<double>, true);
        CheckPageIndex<int32_t>(bytes, *file, rg, 4, unsigned_less, true);
        CheckPageIndex<Int96>(bytes, *file, rg, 5, BytesLess, false);  // INT96: no order, no column index
        CheckPageIndex<ByteArray>(bytes, *file, rg, 6, BytesLess, true);

        // The boundary orders the data was made for, and the null pages of "desc".
        const auto& columns = file->metadata().row_groups[static_cast<size_t>(rg)].columns;
        const ChunkIndexes asc = ReadIndexes(bytes, columns[0]);
        CHECK(asc.column_index->boundary_order == BoundaryOrder::ASCENDING);
        CHECK(asc.offset_index.page_locations.size() > 2);
        const ChunkIndexes desc = ReadIndexes(bytes, columns[1]);
        CHECK(desc.column_index->boundary_order == BoundaryOrder::DESCENDING);
        CHECK(std::count(desc.column_index->null_pages.begin(), desc.column_index->null_pages.end(), true) >= 1);
        CHECK(ReadIndexes(bytes, columns[3]).column_index->boundary_order == BoundaryOrder::UNORDERED);
        CHECK(ReadIndexes(bytes, columns[4]).column_index->boundary_order == BoundaryOrder::UNORDERED);
      }
      // The page index sits between the last row group and the footer: column indexes,
      // then offset indexes.
      int64_t data_end = 0;
      std::vector<std::pair<int64_t, int32_t>> column_indexes, offset_indexes;
      for (const RowGroup& group : file->metadata().row_groups) {
        for (const ColumnChunk& chunk : group.columns) {
          const ColumnMetaData& meta = *chunk.meta_data;
          data_end = std::max(data_end, meta.dictionary_page_offset.value_or(meta.data_page_offset) +
                                            meta.total_compressed_size);
          if (chunk.column_index_offset) column_indexes.emplace_back(*chunk.column_index_offset, *chunk.column_index_length);
          offset_indexes.emplace_back(*chunk.offset_index_offset, *chunk.offset_index_length);
        }
      }
      int64_t pos = data_end;
      for (const auto& [offset, length] : column_indexes) {
        CHECK(offset == pos);
        pos += length;
      }
      for (const auto& [offset, length] : offset_indexes) {
        CHECK(offset == pos);
        pos += length;
      }
      CHECK(static_cast<uint64_t>(pos) + file->footer_length() + 8 == bytes.size());
    }
  }
}

TEST_CASE("file writer: files with a page index and bloom filters read identically") {
  TempDir dir;
  WriterOptions plain_options;
  plain_options.write_page_index = false;
  plain_options.page_size = 256;
  WriterOptions full_options = plain_options;
  full_options.write_page_index = true;
  full_options.bloom_filter_columns = {0, 1, 2, 3, 4, 5, 6};
  WritePageIndexFile(dir.File("plain.parquet"), plain_options, 700);
  WritePageIndexFile(dir.File("full.parquet"), full_options, 700);
  auto plain = ParquetFileReader::Open(dir.File("plain.parquet"));
  auto full = ParquetFileReader::Open(dir.File("full.parquet"));
  auto same = [](const ColumnData& a, const ColumnData& b) {
    CHECK(a.def == b.def);
    CHECK(a.rep == b.rep);
    CHECK(a.values == b.values);
    CHECK(a.batches == b.batches);
  };
  same(ReadColumn<int32_t>(*plain, 0), ReadColumn<int32_t>(*full, 0));
  same(ReadColumn<int64_t>(*plain, 1), ReadColumn<int64_t>(*full, 1));
  same(ReadColumn<ByteArray>(*plain, 2), ReadColumn<ByteArray>(*full, 2));
  same(ReadColumn<double>(*plain, 3), ReadColumn<double>(*full, 3));
  same(ReadColumn<int32_t>(*plain, 4), ReadColumn<int32_t>(*full, 4));
  same(ReadColumn<Int96>(*plain, 5), ReadColumn<Int96>(*full, 5));
  same(ReadColumn<ByteArray>(*plain, 6), ReadColumn<ByteArray>(*full, 6));
  CHECK(ReadColumn<int32_t>(*full, 0).values.size() == 1400);
  CHECK(std::filesystem::file_size(dir.File("full.parquet")) > std::filesystem::file_size(dir.File("plain.parquet")));
  // Apart from where they point, the chunks' metadata is the same.
  for (size_t rg = 0; rg < 2; rg++) {
    for (size_t c = 0; c < 7; c++) {
      ColumnMetaData a = *plain->metadata().row_groups[rg].columns[c].meta_data;
      ColumnMetaData b = *full->metadata().row_groups[rg].columns[c].meta_data;
      CHECK(b.bloom_filter_offset.has_value());
      b.bloom_filter_offset.reset();
      b.bloom_filter_length.reset();
      CHECK(a.statistics == b.statistics);
      CHECK(a.size_statistics == b.size_statistics);
      CHECK(a.encodings == b.encodings);
      CHECK(a.total_compressed_size == b.total_compressed_size);
    }
  }
}

TEST_CASE("file writer: no column index without statistics, or when a page holds only NaN") {
  TempDir dir;
  const std::string path = dir.File("nan.parquet");
  WriterOptions options;
  options.page_size = 64;
  options.dictionary = false;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> values;
  for (int i = 0; i < 200; i++) values.push_back(i >= 40 && i < 120 ? nan : i * 0.5);
  for (bool statistics : {true, false}) {
    for (bool some_nan_page : {false, true}) {
      CAPTURE(statistics);
      CAPTURE(some_nan_page);
      options.write_statistics = statistics;
      std::vector<double> data = values;
      if (!some_nan_page) std::replace_if(data.begin(), data.end(), [](double d) { return std::isnan(d); }, 1.0);
      {
        ParquetFileWriter writer(path, {Root(1), Leaf("d", Type::DOUBLE, kRequired)}, options);
        writer.StartRowGroup();
        writer.WriteBatch<double>(0, data.size(), nullptr, nullptr, data.data(), data.size());
        writer.EndRowGroup(static_cast<int64_t>(data.size()));
        writer.Close();
      }
      const std::string bytes = ReadWholeFile(path);
      auto file = ParquetFileReader::Open(path);
      const bool expect_column_index = statistics && !some_nan_page;
      CheckPageIndex<double>(bytes, *file, 0, 0, NumericLess<double>, expect_column_index);
      CHECK(ReadIndexes(bytes, file->metadata().row_groups[0].columns[0]).offset_index.page_locations.size() > 3);
      if (statistics) {
        // The chunk's statistics stay, NaN left out of min/max and counted.
        const Statistics& stats = *file->column_metadata(0, 0).statistics;
        CHECK(stats.nan_count == (some_nan_page ? 80 : 0));
        CHECK(stats.min_value == Bytes<double>(-0.0));
        CHECK(stats.max_value == Bytes<double>(199 * 0.5));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Truncated byte-array statistics.

TEST_CASE("file writer: long byte-array bounds are truncated and marked inexact") {
  TempDir dir;
  const SchemaElement binary = Leaf("v", Type::BYTE_ARRAY, kRequired);
  SchemaElement text = binary;
  text.converted_type = ConvertedType::UTF8;
  auto stats_of = [&](const SchemaElement& leaf, std::vector<std::string> strings, size_t limit = 64) {
    std::vector<ByteArray> values;
    for (const std::string& s : strings) values.push_back(View(s));
    WriterOptions options;
    options.statistics_truncate_length = limit;
    return WriteAndGetStatistics<ByteArray>(dir, leaf, {}, values, options);
  };
  SUBCASE("short values stay exact") {
    Statistics stats = stats_of(binary, {std::string(64, 'a'), "b"});
    CHECK(stats.min_value == std::string(64, 'a'));
    CHECK(stats.max_value == "b");
    CHECK(stats.is_min_value_exact == true);
    CHECK(stats.is_max_value_exact == true);
  }
  SUBCASE("min becomes a prefix, max a prefix with its last byte incremented") {
    Statistics stats = stats_of(binary, {std::string(100, 'a'), std::string(100, 'z')});
    CHECK(stats.min_value == std::string(64, 'a'));
    CHECK(stats.is_min_value_exact == false);
    CHECK(stats.max_value == std::string(63, 'z') + "{");
    CHECK(stats.is_max_value_exact == false);
  }
  SUBCASE("trailing 0xFF bytes are dropped before incrementing") {
    Statistics stats = stats_of(binary, {"ab" + std::string(80, '\xff')});
    CHECK(stats.max_value == "ac");
    CHECK(stats.is_max_value_exact == false);
    CHECK(stats.min_value == "ab" + std::string(62, '\xff'));
  }
  SUBCASE("a max of only 0xFF bytes has no shorter upper bound and stays whole") {
    Statistics stats = stats_of(binary, {std::string(100, '\xff'), "a"});
    CHECK(stats.max_value == std::string(100, '\xff'));
    CHECK(stats.is_max_value_exact == true);
    CHECK(stats.min_value == "a");
  }
  SUBCASE("statistics_truncate_length = 0 keeps every value whole") {
    Statistics stats = stats_of(binary, {std::string(1000, 'q')}, 0);
    CHECK(stats.min_value == std::string(1000, 'q'));
    CHECK(stats.max_value == std::string(1000, 'q'));
    CHECK(stats.is_min_value_exact == true);
    CHECK(stats.is_max_value_exact == true);
  }
  SUBCASE("UTF-8 text is cut at characters and stays valid") {
    std::string e_acute;
    for (int i = 0; i < 40; i++) e_acute += "\xc3\xa9";  // U+00E9, two bytes each
    // A 63-byte limit falls inside a character: the prefix keeps 31 characters.
    Statistics stats = stats_of(text, {e_acute}, 63);
    std::string min31, max;
    for (int i = 0; i < 31; i++) min31 += "\xc3\xa9";
    CHECK(stats.min_value == min31);
    for (int i = 0; i < 30; i++) max += "\xc3\xa9";
    max += "\xc3\xaa";  // the last character becomes U+00EA
    CHECK(stats.max_value == max);
    CHECK(stats.is_max_value_exact == false);
    // The same bytes in a binary column are cut anywhere.
    stats = stats_of(binary, {e_acute}, 63);
    CHECK(stats.min_value == e_acute.substr(0, 63));
    CHECK(stats.max_value == e_acute.substr(0, 62) + "\xc4");
  }
  SUBCASE("text whose last characters cannot grow drops them") {
    std::string value = "a";
    for (int i = 0; i < 30; i++) value += "\xf4\x8f\xbf\xbf";  // U+10FFFF
    Statistics stats = stats_of(text, {value}, 64);
    CHECK(stats.max_value == "b");
    CHECK(stats.is_max_value_exact == false);
    CHECK(stats.min_value == value.substr(0, 61));  // 'a' and 15 whole characters
    // ASCII 0x7F grows into the two-byte U+0080.
    stats = stats_of(text, {std::string(70, '\x7f')}, 64);
    CHECK(stats.max_value == std::string(62, '\x7f') + "\xc2\x80");
  }
  SUBCASE("neither FIXED_LEN_BYTE_ARRAY (readers such as DuckDB expect type_length bytes) nor DECIMAL is truncated") {
    const SchemaElement fixed = Leaf("v", Type::FIXED_LEN_BYTE_ARRAY, kRequired, 80);
    Statistics stats = stats_of(fixed, {std::string(80, 'k')});
    CHECK(stats.min_value == std::string(80, 'k'));
    CHECK(stats.max_value == std::string(80, 'k'));
    CHECK(stats.is_min_value_exact == true);
    CHECK(stats.is_max_value_exact == true);
    SchemaElement decimal = Leaf("v", Type::BYTE_ARRAY, kRequired);
    decimal.converted_type = ConvertedType::DECIMAL;
    decimal.precision = 200;
    decimal.scale = 0;
    stats = stats_of(decimal, {std::string(70, '\x01'), std::string(70, '\x02')});
    CHECK(stats.min_value == std::string(70, '\x01'));
    CHECK(stats.max_value == std::string(70, '\x02'));
    CHECK(stats.is_min_value_exact == true);
  }
}

// ---------------------------------------------------------------------------------------
// Bloom filters.

TEST_CASE("file writer: bloom filters hold every value of their chunk") {
  TempDir dir;
  const std::string path = dir.File("bloom.parquet");
  std::vector<SchemaElement> schema = {Root(5), Leaf("id", Type::INT64, kRequired),
                                       Leaf("name", Type::BYTE_ARRAY, kOptional),
                                       Leaf("uuid", Type::FIXED_LEN_BYTE_ARRAY, kRequired, 16),
                                       Leaf("flag", Type::BOOLEAN, kRequired), Leaf("x", Type::DOUBLE, kRequired)};
  WriterOptions options;
  options.bloom_filter_columns = {0, 1, 2, 3};  // "flag" is BOOLEAN: no filter; "x" not listed
  options.bloom_filter_fpp = 0.02;
  const size_t rows = 5000;
  std::vector<std::set<std::string>> names(3);
  {
    ParquetFileWriter writer(path, schema, options);
    for (size_t rg = 0; rg < 3; rg++) {
      std::vector<int64_t> id;
      std::vector<ByteArray> name, uuid;
      std::vector<int16_t> name_def;
      std::unique_ptr<bool[]> flag(new bool[rows]);
      std::vector<double> x;
      std::deque<std::string> storage;
      for (size_t i = 0; i < rows; i++) {
        const size_t row = rg * rows + i;
        id.push_back(static_cast<int64_t>(row) * 1000003);
        name_def.push_back(i % 10 == 0 ? 0 : 1);
        if (i % 10) {
          storage.push_back("name-" + std::to_string((row * 31) % (200 + 100 * rg)));
          names[rg].insert(storage.back());
          name.push_back(View(storage.back()));
        }
        char u[17];
        std::snprintf(u, sizeof(u), "%016llx", static_cast<unsigned long long>(row) * 0x9e3779b97f4a7c15ULL);
        storage.push_back(std::string(u, 16));
        uuid.push_back(View(storage.back()));
        flag[i] = i % 2;
        x.push_back(static_cast<double>(row));
      }
      writer.StartRowGroup();
      writer.WriteBatch<int64_t>(0, rows, nullptr, nullptr, id.data(), rows);
      writer.WriteBatch<ByteArray>(1, rows, name_def.data(), nullptr, name.data(), name.size());
      writer.WriteBatch<ByteArray>(2, rows, nullptr, nullptr, uuid.data(), rows);
      writer.WriteBatch<bool>(3, rows, nullptr, nullptr, flag.get(), rows);
      writer.WriteBatch<double>(4, rows, nullptr, nullptr, x.data(), rows);
      writer.EndRowGroup(static_cast<int64_t>(rows));
    }
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  for (int rg = 0; rg < 3; rg++) {
    CAPTURE(rg);
    const RowGroup& group = file->metadata().row_groups[static_cast<size_t>(rg)];
    // The filters follow the row group's chunks, in column order, back to back.
    int64_t expected_offset = *group.file_offset + *group.total_compressed_size;
    for (int c = 0; c < 5; c++) {
      CAPTURE(c);
      const ColumnMetaData& meta = *group.columns[static_cast<size_t>(c)].meta_data;
      const bool has_filter = c <= 2;
      REQUIRE(meta.bloom_filter_offset.has_value() == has_filter);
      CHECK(meta.bloom_filter_length.has_value() == has_filter);
      if (!has_filter) {
        CHECK_FALSE(ReadBloomFilter(file->file(), meta).has_value());
        continue;
      }
      CHECK(*meta.bloom_filter_offset == expected_offset);
      expected_offset += *meta.bloom_filter_length;
      std::optional<BloomFilter> filter = ReadBloomFilter(file->file(), meta);
      REQUIRE(filter.has_value());
      // Sized from the chunk's exact distinct count.
      const uint64_t distinct = c == 1 ? names[static_cast<size_t>(rg)].size() : rows;
      CHECK(filter->num_bytes() == BloomFilter::OptimalNumBytes(distinct, options.bloom_filter_fpp));
      size_t checked = 0;
      auto reader = ColumnChunkReader::Make(*file, rg, c);
      ColumnBatch batch;
      while (reader->ReadBatch(4096, &batch) > 0) {
        for (size_t i = 0; i < batch.num_values; i++) {
          const uint64_t hash = c == 0 ? BloomHashOf(batch.values<int64_t>()[i]) : BloomHashOf(batch.values<ByteArray>()[i]);
          CHECK(filter->MightContain(hash));
          checked++;
        }
      }
      CHECK(checked == (c == 1 ? rows - rows / 10 : rows));
      // Values that are not there: mostly absent.
      size_t false_positives = 0;
      for (int i = 0; i < 10000; i++) {
        const uint64_t hash = c == 0 ? BloomHashOf(static_cast<int64_t>(i) * 1000003 + 1)
                                     : BloomHashOf(std::string_view("absent-" + std::to_string(i)));
        false_positives += filter->MightContain(hash);
      }
      CHECK(false_positives < 10000 * options.bloom_filter_fpp * 2);
    }
    if (rg < 2) CHECK(expected_offset == *file->metadata().row_groups[static_cast<size_t>(rg) + 1].file_offset);
  }
}

TEST_CASE("file writer: bloom filter, sorting column and page index options") {
  TempDir dir;
  std::vector<SchemaElement> schema = {Root(2), Leaf("a", Type::INT32, kRequired), Leaf("b", Type::INT64, kRequired)};
  WriterOptions options;
  options.bloom_filter_columns = {2};
  CHECK_THROWS_WITH_AS(ParquetFileWriter(dir.File("x.parquet"), schema, options),
                       "bloom filter for column 2, but the schema has 2 columns", ParquetError);
  options.bloom_filter_columns = {1};
  for (double fpp : {0.0, 1.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    options.bloom_filter_fpp = fpp;
    CHECK_THROWS_AS(ParquetFileWriter(dir.File("x.parquet"), schema, options), ParquetError);
  }
  options = {};
  options.sorting_columns = {SortingColumn{-1, false, false}};
  CHECK_THROWS_WITH_AS(ParquetFileWriter(dir.File("x.parquet"), schema, options),
                       "sorting column -1, but the schema has 2 columns", ParquetError);

  // sorting_columns go into every row group, as given.
  options.sorting_columns = {SortingColumn{1, true, false}, SortingColumn{0, false, true}};
  const std::string path = dir.File("sorted.parquet");
  {
    ParquetFileWriter writer(path, schema, options);
    for (int rg = 0; rg < 3; rg++) {
      writer.StartRowGroup();
      int32_t a[] = {1, 2};
      int64_t b[] = {9, 8};
      writer.WriteBatch<int32_t>(0, 2, nullptr, nullptr, a, 2);
      writer.WriteBatch<int64_t>(1, 2, nullptr, nullptr, b, 2);
      writer.EndRowGroup(2);
    }
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  REQUIRE(file->num_row_groups() == 3);
  for (const RowGroup& group : file->metadata().row_groups) CHECK(group.sorting_columns == options.sorting_columns);
  WriteAndGetStatistics<int32_t>(dir, Leaf("v", Type::INT32, kRequired), {}, {1});
  auto unsorted = ParquetFileReader::Open(dir.File("stats.parquet"));
  CHECK_FALSE(unsorted->metadata().row_groups[0].sorting_columns.has_value());
}

// ---------------------------------------------------------------------------------------
// The automatic choice of encodings.

// Writes one REQUIRED column in row groups of `rows_per_group`, reads it back, checks the
// values and returns the first row group's column metadata.
template <typename T>
ColumnMetaData WriteAutomatic(const std::string& path, const SchemaElement& leaf, const std::vector<T>& values,
                              const WriterOptions& options, size_t rows_per_group) {
  {
    ParquetFileWriter writer(path, {Root(1), leaf}, options);
    for (size_t start = 0; start < values.size(); start += rows_per_group) {
      const size_t n = std::min(rows_per_group, values.size() - start);
      writer.StartRowGroup();
      writer.WriteBatch<T>(0, n, nullptr, nullptr, values.data() + start, n);
      writer.EndRowGroup(static_cast<int64_t>(n));
    }
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  std::vector<std::string> expected;
  for (const T& value : values) expected.push_back(Key(value));
  CHECK(ReadColumn<T>(*file, 0).values == expected);
  return file->column_metadata(0, 0);
}

std::vector<Encoding> DataPageEncodings(const ColumnMetaData& meta) {
  std::vector<Encoding> encodings;
  for (const PageEncodingStats& stats : *meta.encoding_stats) {
    if (stats.page_type != PageType::DICTIONARY_PAGE) encodings.push_back(stats.encoding);
  }
  return encodings;
}

TEST_CASE("file writer: automatic encodings per column") {
  TempDir dir;
  const std::string path = dir.File("auto.parquet");
  const size_t n = 60000;
  std::mt19937_64 random(99);
  std::vector<int64_t> sorted, shuffled, low;
  std::vector<double> doubles, prices;
  std::deque<std::string> storage;
  std::vector<ByteArray> words;
  for (size_t i = 0; i < n; i++) {
    sorted.push_back(1000000 + static_cast<int64_t>(i) * 3 + static_cast<int64_t>(random() % 3));
    shuffled.push_back(static_cast<int64_t>(random()));  // full 64-bit: deltas do not pay
    low.push_back(static_cast<int64_t>(random() % 50));
    doubles.push_back(std::uniform_real_distribution<double>(0, 1)(random));
    prices.push_back(static_cast<double>(random() % 10000000) / 100);  // two decimals
    std::string word;
    for (size_t k = random() % 9 + 2; k > 0; k--) word += static_cast<char>('a' + random() % 26);
    storage.push_back(word);
    words.push_back(View(storage.back()));
  }
  const SchemaElement int64 = Leaf("v", Type::INT64, kRequired);
  const SchemaElement dbl = Leaf("v", Type::DOUBLE, kRequired);
  const SchemaElement bytes = Leaf("v", Type::BYTE_ARRAY, kRequired);
  const auto dictionary_then = [](Encoding e) { return std::vector<Encoding>{Encoding::RLE_DICTIONARY, e}; };
  WriterOptions options;  // defaults: dictionary, automatic, snappy
  options.page_size = 64 * 1024;

  SUBCASE("a dictionary that does not pay is given up after the first window") {
    ColumnMetaData meta = WriteAutomatic(path, int64, sorted, options, n);
    // Sorted integers: DELTA_BINARY_PACKED, much smaller than PLAIN.
    CHECK(DataPageEncodings(meta) == dictionary_then(Encoding::DELTA_BINARY_PACKED));
    CHECK(meta.total_compressed_size < static_cast<int64_t>(n * 8 / 4));
    // The dictionary holds no more than the first two windows (values all different at
    // the first look wait for the second).
    const std::string whole = ReadWholeFile(path);
    size_t header_size = 0;
    const PageHeader dictionary =
        ParsePageHeader(FileBytes(whole, *meta.dictionary_page_offset), whole.size(), &header_size);
    REQUIRE(dictionary.dictionary_page_header.has_value());
    CHECK(dictionary.dictionary_page_header->num_values <= 8192 + 1024);

    meta = WriteAutomatic(path, int64, shuffled, options, n);
    CHECK(DataPageEncodings(meta) == dictionary_then(Encoding::PLAIN));
    // Uniformly random doubles compress better split into byte streams; prices with two
    // decimals better PLAIN.
    meta = WriteAutomatic(path, dbl, doubles, options, n);
    CHECK(DataPageEncodings(meta) == dictionary_then(Encoding::BYTE_STREAM_SPLIT));
    meta = WriteAutomatic(path, dbl, prices, options, n);
    CHECK(DataPageEncodings(meta) == dictionary_then(Encoding::PLAIN));
  }
  SUBCASE("sorted integers with repeats leave the dictionary for deltas") {
    std::vector<int64_t> keys;  // each key on 1..7 rows, as order keys of line items
    for (int64_t key = 1; keys.size() < n; key++) {
      for (uint64_t k = random() % 7 + 1; k > 0 && keys.size() < n; k--) keys.push_back(key * 4);
    }
    ColumnMetaData meta = WriteAutomatic(path, int64, keys, options, n);
    CHECK(DataPageEncodings(meta) == dictionary_then(Encoding::DELTA_BINARY_PACKED));
  }
  SUBCASE("a low-cardinality column keeps its dictionary") {
    ColumnMetaData meta = WriteAutomatic(path, int64, low, options, n);
    CHECK(DataPageEncodings(meta) == std::vector<Encoding>{Encoding::RLE_DICTIONARY});
    // A cycle of 5000 strings: all different for the first 5000 values.
    std::vector<ByteArray> cycle;
    for (size_t i = 0; i < n; i++) cycle.push_back(View(storage[(i * 7) % 5000]));
    meta = WriteAutomatic(path, bytes, cycle, options, n);
    CHECK(DataPageEncodings(meta) == std::vector<Encoding>{Encoding::RLE_DICTIONARY});
    std::vector<ByteArray> few;
    for (size_t i = 0; i < n; i++) few.push_back(words[i % 300]);
    meta = WriteAutomatic(path, bytes, few, options, n);
    CHECK(DataPageEncodings(meta) == std::vector<Encoding>{Encoding::RLE_DICTIONARY});
  }
  SUBCASE("without a dictionary: the smaller of PLAIN and the alternative on the first page's values") {
    options.dictionary = false;
    ColumnMetaData meta = WriteAutomatic(path, int64, sorted, options, n);
    CHECK(DataPageEncodings(meta) == std::vector<Encoding>{Encoding::DELTA_BINARY_PACKED});
    CHECK_FALSE(meta.dictionary_page_offset.has_value());
    {
      // The first page ends after the 4096 or so values the choice was made on, whatever
      // the page size.
      auto file = ParquetFileReader::Open(path);
      const OffsetIndex index = ReadIndexes(ReadWholeFile(path), file->metadata().row_groups[0].columns[0]).offset_index;
      REQUIRE(index.page_locations.size() >= 2);
      CHECK(index.page_locations[1].first_row_index >= 4096);
      CHECK(index.page_locations[1].first_row_index <= 4096 + 1024);
    }
    meta = WriteAutomatic(path, int64, shuffled, options, n);
    CHECK(DataPageEncodings(meta) == std::vector<Encoding>{Encoding::PLAIN});
    meta = WriteAutomatic(path, dbl, doubles, options, n);
    CHECK(DataPageEncodings(meta) == std::vector<Encoding>{Encoding::BYTE_STREAM_SPLIT});
    meta = WriteAutomatic(path, dbl, prices, options, n);
    CHECK(DataPageEncodings(meta) == std::vector<Encoding>{Encoding::PLAIN});
    // Short random words: the 4-byte lengths of PLAIN cost more than the delta-packed ones.
    meta = WriteAutomatic(path, bytes, words, options, n);
    CHECK(DataPageEncodings(meta) == std::vector<Encoding>{Encoding::DELTA_LENGTH_BYTE_ARRAY});
  }
  SUBCASE("the choice comes out no larger than either fixed encoding") {
    options.dictionary = false;
    for (CompressionCodec codec : {CompressionCodec::SNAPPY, CompressionCodec::ZSTD}) {
      CAPTURE(ToString(codec));
      options.codec = codec;
      auto sizes = [&](const SchemaElement& leaf, auto all_values, Encoding alternative) {
        const decltype(all_values) values(all_values.begin(), all_values.begin() + 20000);
        WriterOptions fixed = options;
        const int64_t chosen = WriteAutomatic(path, leaf, values, options, n).total_compressed_size;
        fixed.column_encoding[0] = Encoding::PLAIN;
        const int64_t plain = WriteAutomatic(path, leaf, values, fixed, n).total_compressed_size;
        fixed.column_encoding[0] = alternative;
        const int64_t other = WriteAutomatic(path, leaf, values, fixed, n).total_compressed_size;
        CAPTURE(chosen);
        CAPTURE(plain);
        CAPTURE(other);
        CHECK(static_cast<double>(chosen) <= 1.03 * static_cast<double>(std::min(plain, other)));
      };
      sizes(int64, sorted, Encoding::DELTA_BINARY_PACKED);
      sizes(int64, shuffled, Encoding::DELTA_BINARY_PACKED);
      sizes(dbl, doubles, Encoding::BYTE_STREAM_SPLIT);
      sizes(dbl, prices, Encoding::BYTE_STREAM_SPLIT);
      sizes(bytes, words, Encoding::DELTA_LENGTH_BYTE_ARRAY);
    }
  }
  SUBCASE("floats stay PLAIN without compression") {
    options.codec = CompressionCodec::UNCOMPRESSED;
    ColumnMetaData meta = WriteAutomatic(path, dbl, doubles, options, n);
    CHECK(DataPageEncodings(meta) == dictionary_then(Encoding::PLAIN));
    options.dictionary = false;
    meta = WriteAutomatic(path, dbl, doubles, options, n);
    CHECK(DataPageEncodings(meta) == std::vector<Encoding>{Encoding::PLAIN});
  }
  SUBCASE("an explicit encoding wins, and automatic_encoding = false keeps PLAIN") {
    options.column_encoding[0] = Encoding::PLAIN;
    ColumnMetaData meta = WriteAutomatic(path, int64, sorted, options, n);
    CHECK(DataPageEncodings(meta) == std::vector<Encoding>{Encoding::PLAIN});
    options.column_encoding[0] = Encoding::RLE_DICTIONARY;
    options.dictionary_page_size_limit = 100000;
    meta = WriteAutomatic(path, int64, sorted, options, n);
    CHECK(DataPageEncodings(meta) == dictionary_then(Encoding::PLAIN));
    options.column_encoding.clear();
    options.automatic_encoding = false;
    meta = WriteAutomatic(path, int64, sorted, options, n);
    CHECK(DataPageEncodings(meta) == dictionary_then(Encoding::PLAIN));
    CHECK(meta.dictionary_page_offset.has_value());
  }
  SUBCASE("every automatic choice round trips in both page versions and with nulls") {
    for (int version : {1, 2}) {
      options.data_page_version = version;
      for (bool dictionary : {true, false}) {
        options.dictionary = dictionary;
        RoundTripFlat<int64_t>(path, Type::INT64, kOptional, options, {12000, 7000});
        RoundTripFlat<int32_t>(path, Type::INT32, kOptional, options, {12000});
        RoundTripFlat<double>(path, Type::DOUBLE, kOptional, options, {12000});
        RoundTripFlat<float>(path, Type::FLOAT, kRequired, options, {12000});
        RoundTripFlat<ByteArray>(path, Type::BYTE_ARRAY, kOptional, options, {12000});
        RoundTripFlat<ByteArray>(path, Type::FIXED_LEN_BYTE_ARRAY, kOptional, options, {12000});
        RoundTripFlat<bool>(path, Type::BOOLEAN, kOptional, options, {12000});
        RoundTripFlat<Int96>(path, Type::INT96, kOptional, options, {12000});
      }
    }
  }
}

// Text read through a dictionary comes NUL-terminated (ColumnBatch::text_terminated) unless
// a dictionary entry holds a NUL itself. PLAIN and DELTA_LENGTH_BYTE_ARRAY text comes as the
// page holds it, and TerminateText copies a batch with a NUL after each value unless a value
// of the batch holds a NUL or the values are long; only for the batch last read.
TEST_CASE("column reader: dictionary text is NUL-terminated, PLAIN and delta-length text after TerminateText") {
  TempDir dir;
  enum class Encoded { kDictionary, kPlain, kDeltaLength };
  struct Case {
    Encoded encoded;
    bool with_nul;
    bool long_values;
  };
  for (Case c : {Case{Encoded::kDictionary, false, false}, Case{Encoded::kDictionary, true, false},
                 Case{Encoded::kPlain, false, false}, Case{Encoded::kPlain, true, false}, Case{Encoded::kPlain, false, true},
                 Case{Encoded::kDeltaLength, false, false}, Case{Encoded::kDeltaLength, true, false},
                 Case{Encoded::kDeltaLength, false, true}}) {
    CAPTURE(static_cast<int>(c.encoded));
    CAPTURE(c.with_nul);
    CAPTURE(c.long_values);
    std::vector<std::string> texts;
    for (int i = 0; i < 300; i++) {
      std::string text = i % 3 == 0 ? "" : "text-" + std::to_string(i % 17) + std::string(static_cast<size_t>(i % 37), 'x');
      if (c.long_values) text += std::string(300, 'y');
      texts.push_back(text);
    }
    if (c.with_nul) texts[5] = std::string("a\0b", 3);
    std::vector<ByteArray> values;
    for (const std::string& t : texts) values.push_back(ByteArray{reinterpret_cast<const uint8_t*>(t.data()), uint32_t(t.size())});
    const std::string path = dir.File("text.parquet");
    {
      WriterOptions options;
      options.dictionary = c.encoded == Encoded::kDictionary;
      if (c.encoded != Encoded::kDictionary) {
        options.column_encoding[0] = c.encoded == Encoded::kPlain ? Encoding::PLAIN : Encoding::DELTA_LENGTH_BYTE_ARRAY;
      }
      ParquetFileWriter writer(path, {Root(1), Leaf("v", Type::BYTE_ARRAY, kRequired)}, options);
      writer.StartRowGroup();
      writer.WriteBatch<ByteArray>(0, values.size(), nullptr, nullptr, values.data(), values.size());
      writer.EndRowGroup(static_cast<int64_t>(values.size()));
      writer.Close();
    }
    auto file = ParquetFileReader::Open(path);
    auto reader = ColumnChunkReader::Make(*file, 0, 0);
    ColumnBatch batch;
    std::vector<std::string> read;
    size_t batch_index = 0;
    while (size_t n = reader->ReadBatch(64, &batch)) {
      const bool dictionary = c.encoded == Encoded::kDictionary;
      CHECK(batch.text_terminated == (dictionary && !c.with_nul));  // as read
      // Only the batch holding the value with a NUL stays unterminated; long values stay.
      const bool expected = dictionary ? !c.with_nul : !c.long_values && !(c.with_nul && batch_index == 0);
      CHECK(reader->TerminateText(&batch) == expected);
      CHECK(batch.text_terminated == expected);
      CHECK(reader->TerminateText(&batch) == expected);  // asked again: unchanged
      batch_index++;
      for (size_t i = 0; i < n; i++) {
        const ByteArray& v = batch.values<ByteArray>()[i];
        read.emplace_back(v.view());
        if (batch.text_terminated) {
          CHECK(v.ptr[v.len] == 0);
          CHECK(std::strlen(reinterpret_cast<const char*>(v.ptr)) == v.len);
        }
      }
    }
    CHECK(read == texts);
    if (c.encoded != Encoded::kDictionary && !c.long_values) {
      // A batch read before a skip (or a batch the reader did not fill) is not copied.
      reader->Reset(0);
      REQUIRE(reader->ReadBatch(10, &batch) == 10);
      REQUIRE(reader->Skip(5) == 5);
      CHECK_FALSE(reader->TerminateText(&batch));
      ColumnBatch other;
      REQUIRE(reader->ReadBatch(10, &other) == 10);
      CHECK_FALSE(reader->TerminateText(&batch));
      CHECK(reader->TerminateText(&other));
      CHECK(other.values<ByteArray>()[0].view() == texts[15]);
    }
  }
}
}  // namespace
}  // namespace parquet
