// Fuzz target: the file writer fed random schemas, options and values. The input chooses
// 1-4 columns (every physical type; required, optional or repeated), the writer options
// (codec, page version and size, dictionary, per-column encodings, statistics, page index,
// bloom filters) and the values of one or two row groups. The file written must read back
// with ColumnChunkReader to exactly the levels and value bytes written. Options the writer
// rejects must be rejected with ParquetError by its constructor; after that nothing may fail.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>
#include <string>
#include <vector>

#include "format/read/column_reader.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

using parquet::Encoding;
using parquet::FieldRepetitionType;
using parquet::Type;

struct ColumnData {
  Type type = Type::INT32;
  int32_t type_length = 0;
  FieldRepetitionType repetition = FieldRepetitionType::REQUIRED;
  std::vector<int16_t> def_levels;
  std::vector<int16_t> rep_levels;
  std::vector<std::string> values;  // the bytes of each non-null value
};

int16_t MaxDef(const ColumnData& c) { return c.repetition == FieldRepetitionType::REQUIRED ? 0 : 1; }
int16_t MaxRep(const ColumnData& c) { return c.repetition == FieldRepetitionType::REPEATED ? 1 : 0; }

size_t FixedSize(const ColumnData& c) {
  switch (c.type) {
    case Type::BOOLEAN: return 1;
    case Type::INT32: case Type::FLOAT: return 4;
    case Type::INT64: case Type::DOUBLE: return 8;
    case Type::INT96: return 12;
    case Type::FIXED_LEN_BYTE_ARRAY: return static_cast<size_t>(c.type_length);
    default: return 0;
  }
}

std::string MakeValue(parquet_fuzz::ByteSource& in, const ColumnData& c) {
  if (c.type == Type::BOOLEAN) return std::string(1, static_cast<char>(in.Byte() & 1));
  if (c.type == Type::BYTE_ARRAY) return in.Bytes(24);
  size_t size = FixedSize(c);
  std::string value(size, '\0');
  // Mostly few distinct values (dictionaries, runs), sometimes arbitrary bytes.
  uint8_t mode = in.Byte();
  if (mode < 160) {
    value[0] = static_cast<char>(mode & 7);
  } else {
    for (size_t i = 0; i < size; i++) value[i] = static_cast<char>(in.Byte());
  }
  return value;
}

// Appends one row of column c.
void MakeRow(parquet_fuzz::ByteSource& in, ColumnData& c) {
  int16_t max_def = MaxDef(c);
  int items = c.repetition == FieldRepetitionType::REPEATED ? static_cast<int>(in.Below(4)) : 1;
  if (items == 0) {  // an empty list
    c.def_levels.push_back(0);
    c.rep_levels.push_back(0);
    return;
  }
  for (int i = 0; i < items; i++) {
    bool is_null = c.repetition == FieldRepetitionType::OPTIONAL && (in.Byte() & 3) == 0;
    c.def_levels.push_back(is_null ? 0 : max_def);
    c.rep_levels.push_back(i == 0 ? 0 : 1);
    if (!is_null) c.values.push_back(MakeValue(in, c));
  }
}

template <typename T>
void WriteTyped(parquet::ParquetFileWriter& writer, int column, const ColumnData& c) {
  // std::unique_ptr<T[]> rather than std::vector, which packs bool.
  std::unique_ptr<T[]> values(new T[c.values.size() + 1]);
  for (size_t i = 0; i < c.values.size(); i++) {
    if constexpr (std::is_same_v<T, parquet::ByteArray>) {
      values[i].ptr = reinterpret_cast<const uint8_t*>(c.values[i].data());
      values[i].len = static_cast<uint32_t>(c.values[i].size());
    } else if constexpr (std::is_same_v<T, bool>) {
      values[i] = c.values[i][0] != 0;
    } else {
      std::memcpy(&values[i], c.values[i].data(), sizeof(T));
    }
  }
  writer.WriteBatch<T>(column, c.def_levels.size(), MaxDef(c) ? c.def_levels.data() : nullptr,
                       MaxRep(c) ? c.rep_levels.data() : nullptr, values.get(), c.values.size());
}

void WriteColumn(parquet::ParquetFileWriter& writer, int column, const ColumnData& c) {
  switch (c.type) {
    case Type::BOOLEAN: WriteTyped<bool>(writer, column, c); break;
    case Type::INT32: WriteTyped<int32_t>(writer, column, c); break;
    case Type::INT64: WriteTyped<int64_t>(writer, column, c); break;
    case Type::INT96: WriteTyped<parquet::Int96>(writer, column, c); break;
    case Type::FLOAT: WriteTyped<float>(writer, column, c); break;
    case Type::DOUBLE: WriteTyped<double>(writer, column, c); break;
    default: WriteTyped<parquet::ByteArray>(writer, column, c); break;
  }
}

std::string ValueBytes(const ColumnData& c, const parquet::ColumnBatch& batch, size_t i) {
  switch (c.type) {
    case Type::BOOLEAN: return std::string(1, static_cast<char>(batch.values<bool>()[i] ? 1 : 0));
    case Type::INT32: return std::string(reinterpret_cast<const char*>(&batch.values<int32_t>()[i]), 4);
    case Type::INT64: return std::string(reinterpret_cast<const char*>(&batch.values<int64_t>()[i]), 8);
    case Type::INT96: return std::string(reinterpret_cast<const char*>(&batch.values<parquet::Int96>()[i]), 12);
    case Type::FLOAT: return std::string(reinterpret_cast<const char*>(&batch.values<float>()[i]), 4);
    case Type::DOUBLE: return std::string(reinterpret_cast<const char*>(&batch.values<double>()[i]), 8);
    default: return std::string(batch.values<parquet::ByteArray>()[i].view());
  }
}

// Reads column `column` of `row_group` back and aborts unless it matches c exactly.
void CheckColumn(const parquet::ParquetFileReader& file, int row_group, int column, const ColumnData& c) {
  auto reader = parquet::ColumnChunkReader::Make(file, row_group, column);
  parquet::ColumnBatch batch;
  size_t slot = 0, value = 0;
  while (size_t n = reader->ReadBatch(100, &batch)) {
    size_t batch_value = 0;
    for (size_t i = 0; i < n; i++, slot++) {
      if (slot >= c.def_levels.size()) abort();
      int16_t def = MaxDef(c) ? batch.def_levels[i] : 0;
      int16_t rep = MaxRep(c) ? batch.rep_levels[i] : 0;
      if (def != (MaxDef(c) ? c.def_levels[slot] : 0) || rep != (MaxRep(c) ? c.rep_levels[slot] : 0)) abort();
      if (def == MaxDef(c) && !(MaxRep(c) && def == 0)) {
        if (value >= c.values.size() || ValueBytes(c, batch, batch_value) != c.values[value]) abort();
        value++;
        batch_value++;
      }
    }
    if (batch_value != batch.num_values) abort();
  }
  if (slot != c.def_levels.size() || value != c.values.size()) abort();
}

Encoding PickEncoding(parquet_fuzz::ByteSource& in) {
  static const Encoding kEncodings[] = {Encoding::PLAIN, Encoding::RLE, Encoding::DELTA_BINARY_PACKED,
                                        Encoding::DELTA_LENGTH_BYTE_ARRAY, Encoding::DELTA_BYTE_ARRAY,
                                        Encoding::RLE_DICTIONARY, Encoding::BYTE_STREAM_SPLIT,
                                        Encoding::PLAIN_DICTIONARY};
  return kEncodings[in.Below(8)];
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  parquet_fuzz::ByteSource in(data, size);
  // Schema: root + 1..4 leaves.
  int num_columns = 1 + static_cast<int>(in.Below(4));
  std::vector<ColumnData> columns(static_cast<size_t>(num_columns));
  std::vector<parquet::SchemaElement> schema(1);
  schema[0].name = "schema";
  schema[0].num_children = num_columns;
  for (int i = 0; i < num_columns; i++) {
    ColumnData& c = columns[static_cast<size_t>(i)];
    c.type = static_cast<Type>(in.Below(8));
    c.repetition = static_cast<FieldRepetitionType>(in.Below(3));
    parquet::SchemaElement leaf;
    leaf.name = "c" + std::to_string(i);
    leaf.type = c.type;
    leaf.repetition_type = c.repetition;
    if (c.type == Type::FIXED_LEN_BYTE_ARRAY) {
      c.type_length = 1 + static_cast<int32_t>(in.Below(16));
      leaf.type_length = c.type_length;
    }
    schema.push_back(leaf);
  }
  parquet::WriterOptions options;
  static const parquet::CompressionCodec kCodecs[] = {
      parquet::CompressionCodec::UNCOMPRESSED, parquet::CompressionCodec::SNAPPY, parquet::CompressionCodec::GZIP,
      parquet::CompressionCodec::BROTLI,       parquet::CompressionCodec::ZSTD,   parquet::CompressionCodec::LZ4_RAW};
  options.codec = kCodecs[in.Below(6)];
  options.data_page_version = 1 + static_cast<int>(in.Below(2));
  options.page_size = 16 + in.Below(255) * 8;
  options.dictionary = in.Bool();
  options.dictionary_page_size_limit = 8 + in.Below(255) * 4;
  options.write_crc = in.Bool();
  options.write_statistics = in.Bool();
  options.write_page_index = in.Bool();
  options.automatic_encoding = in.Bool();
  options.statistics_truncate_length = in.Below(20);
  uint8_t flags = in.Byte();
  for (int i = 0; i < num_columns; i++) {
    if (flags & (1 << i)) options.column_encoding[i] = PickEncoding(in);
    if (flags & (0x10 << i)) options.bloom_filter_columns.push_back(i);
  }
  char path[64];
  std::snprintf(path, sizeof(path), "/tmp/fuzz_writer_%d.parquet", static_cast<int>(getpid()));
  std::unique_ptr<parquet::ParquetFileWriter> writer;
  try {
    writer = std::make_unique<parquet::ParquetFileWriter>(path, schema, options);
  } catch (const parquet::ParquetError&) {
    unlink(path);
    return 0;  // options the writer rejects (an encoding for the wrong type, ...)
  }
  static const bool verbose = std::getenv("FUZZ_VERBOSE") != nullptr;
  // From here on nothing may fail: the batches are valid and a file we wrote must read.
  try {
    std::vector<std::vector<ColumnData>> row_groups;
    int groups = 1 + static_cast<int>(in.Below(2));
    for (int g = 0; g < groups; g++) {
      int rows = static_cast<int>(in.Below(200));
      if (in.Bool()) rows *= 20;
      std::vector<ColumnData> group = columns;
      for (auto& c : group) {
        for (int r = 0; r < rows; r++) MakeRow(in, c);
      }
      writer->StartRowGroup();
      for (int i = 0; i < num_columns; i++) WriteColumn(*writer, i, group[static_cast<size_t>(i)]);
      writer->EndRowGroup(rows);
      row_groups.push_back(std::move(group));
    }
    writer->Close();
    writer.reset();
    auto file = parquet::ParquetFileReader::Open(path);
    if (file->num_row_groups() != static_cast<int>(row_groups.size())) abort();
    for (size_t g = 0; g < row_groups.size(); g++) {
      for (int i = 0; i < num_columns; i++) CheckColumn(*file, static_cast<int>(g), i, row_groups[g][static_cast<size_t>(i)]);
    }
    if (verbose) {
      std::fprintf(stderr, "fuzz_writer: %d columns, %zu row groups, %lld rows checked\n", num_columns, row_groups.size(),
                   static_cast<long long>(file->num_rows()));
    }
  } catch (const parquet::ParquetError& e) {
    std::fprintf(stderr, "writer round trip failed: %s\n", e.what());
    abort();
  }
  unlink(path);
  return 0;
}
