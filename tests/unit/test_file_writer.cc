// Unit tests of the Parquet file writer (format/file_writer.h): round trips through our
// reader for every physical type, codec, data page version and dictionary setting; encoding
// overrides; the dictionary fallback; a 3-level LIST column; statistics; the footer and page
// checksums; and the rejection of inconsistent batches, row groups and options.
#include <doctest/doctest.h>

#include <stdlib.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "format/checksum.h"
#include "format/column_reader.h"
#include "format/error.h"
#include "format/file_reader.h"
#include "format/file_writer.h"
#include "format/metadata.h"

namespace parquet {
namespace {

// A fresh directory under the system temp dir, removed with everything in it at the end.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "file_writer_test_XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    REQUIRE(mkdtemp(buffer.data()) != nullptr);
    path_ = buffer.data();
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

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

TEST_CASE("file writer: the dictionary falls back to PLAIN once it passes its size limit") {
  TempDir dir;
  for (int version : {1, 2}) {
    CAPTURE(version);
    WriterOptions options;
    options.data_page_version = version;
    options.page_size = 200;
    options.dictionary_page_size_limit = 600;
    FileMetaData meta = RoundTripFlat<ByteArray>(dir.File("fallback.parquet"), Type::BYTE_ARRAY, kOptional,
                                                 options, {3000, 2000});
    for (const RowGroup& rg : meta.row_groups) {
      const ColumnMetaData& column = *rg.columns[0].meta_data;
      CHECK(column.dictionary_page_offset.has_value());
      CHECK(*column.dictionary_page_offset < column.data_page_offset);
      CHECK(HasEncoding(column, Encoding::RLE_DICTIONARY));
      CHECK(HasEncoding(column, Encoding::PLAIN));
      int dictionary_pages = 0, dictionary_data_pages = 0, plain_data_pages = 0;
      for (const PageEncodingStats& stats : *column.encoding_stats) {
        if (stats.page_type == PageType::DICTIONARY_PAGE) dictionary_pages += stats.count;
        else if (stats.encoding == Encoding::RLE_DICTIONARY) dictionary_data_pages += stats.count;
        else if (stats.encoding == Encoding::PLAIN) plain_data_pages += stats.count;
      }
      CHECK(dictionary_pages == 1);
      CHECK(dictionary_data_pages >= 1);
      CHECK(plain_data_pages >= 1);
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
  // The footer follows the last chunk.
  CHECK(static_cast<uint64_t>(expected_offset) + file->footer_length() + 8 == bytes.size());
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
  CHECK_THROWS_WITH_AS(writer.WriteBatch<int32_t>(0, 3, def, nullptr, a, 2),
                       "column 'a' was already written in this row group (columns go in schema order)",
                       ParquetError);
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

}  // namespace
}  // namespace parquet
