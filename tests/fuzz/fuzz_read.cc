// Fuzz target: the whole read path over an in-memory file, as the virtual table walks it.
// Opens the footer and schema, then for every row group and top-level field reads every
// value: flat columns through ColumnChunkReader, nested fields (lists, maps, structs,
// VARIANT groups) through RecordAssembler and the JSON renderer of the extension. Also
// decodes each chunk's statistics, page index and bloom filter. Files are opened with the
// fixed keys of parquet-testing's 128-bit encrypted files (footer kf, column keys kc1/kc2;
// the seeds include those files), so the decryption of every module type is fuzzed too.
// The readers share a memory budget (max_memory's MemoryBudget), as the columns of one scan
// do; it must be all given back when they are gone. Malformed files must end in ParquetError.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "ext/common/column_mapping.h"
#include "ext/common/nested_json.h"
#include "format/index/bloom_filter.h"
#include "format/read/column_reader.h"
#include "format/crypto/encryption.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/metadata/metadata.h"
#include "format/metadata/nested_schema.h"
#include "format/io/random_access_file.h"
#include "format/read/record_assembler.h"
#include "format/index/statistics.h"
#include "tests/fuzz/fuzz_touch.h"

namespace {

// FUZZ_VERBOSE=1 prints the errors the target catches (to see what an input exercises).
void Note(const parquet::ParquetError& error) {
  static const bool verbose = std::getenv("FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "fuzz_read: %s\n", error.what());
}

// Bounds the work per input: slots per column chunk, rows per nested field.
constexpr size_t kMaxSlots = 1 << 20;
constexpr int64_t kMaxRows = 1 << 16;
constexpr uint64_t kMemoryBudget = uint64_t{256} << 20;

void ReadFlatColumn(const parquet::ParquetFileReader& file, int row_group, int column,
                    const parquet::ColumnReaderOptions& reader_options) {
  auto reader = parquet::ColumnChunkReader::Make(file, row_group, column, reader_options);
  parquet::ColumnBatch batch;
  size_t total = 0;
  while (total < kMaxSlots) {
    size_t n = reader->ReadBatch(2048, &batch);
    if (n == 0) break;
    parquet_fuzz::TouchBatch(reader->descriptor(), batch);
    total += n;
  }
}

void ReadNestedField(const parquet::ParquetFileReader& file, int row_group, int field,
                     const parquet::ColumnReaderOptions& reader_options) {
  parquet::RecordAssembler assembler(file, field, reader_options, 64);
  sqlite_parquet::MappingOptions options;
  options.binary_as_string = (row_group & 1) != 0;
  sqlite_parquet::NestedJsonRenderer renderer(file.schema(), assembler.shape(), options);
  assembler.Reset(row_group);
  std::string json;
  int64_t rows = std::min<int64_t>(assembler.rows_in_group(), kMaxRows);
  for (int64_t row = 0; row < rows; row++) {
    if (row == 1 && rows > 3) {
      assembler.SkipRows(1);
      row++;
    }
    assembler.ReadRow();
    renderer.Render(assembler, &json);
  }
}

void ReadChunkExtras(const parquet::ParquetFileReader& file, int row_group, int column) {
  const parquet::ColumnChunk& chunk = file.row_group(row_group).columns[static_cast<size_t>(column)];
  const parquet::ColumnMetaData& meta = file.column_metadata(row_group, column);
  parquet::StatisticsContext context = parquet::MakeStatisticsContext(file.metadata(), file.schema(), column);
  if (meta.statistics) parquet::DecodeStatistics(*meta.statistics, context);
  try {
    parquet::ReadBloomFilter(file.file(), meta);
  } catch (const parquet::ParquetError&) {
  }
  uint64_t size = file.file().Size();
  if (chunk.column_index_offset && chunk.column_index_length && *chunk.column_index_offset >= 0 &&
      *chunk.column_index_length > 0 && static_cast<uint64_t>(*chunk.column_index_offset) < size &&
      static_cast<uint64_t>(*chunk.column_index_length) <= size - static_cast<uint64_t>(*chunk.column_index_offset)) {
    std::vector<uint8_t> bytes;
    file.file().ReadAt(static_cast<uint64_t>(*chunk.column_index_offset), static_cast<size_t>(*chunk.column_index_length), &bytes);
    try {
      parquet::ColumnIndex index = parquet::ParseColumnIndex(bytes.data(), bytes.size());
      for (size_t page = 0; page < index.null_pages.size() && page < 1024; page++) {
        parquet::DecodeColumnIndexEntry(index, page, context);
      }
    } catch (const parquet::ParquetError&) {
    }
  }
  if (chunk.offset_index_offset && chunk.offset_index_length && *chunk.offset_index_offset >= 0 &&
      *chunk.offset_index_length > 0 && static_cast<uint64_t>(*chunk.offset_index_offset) < size &&
      static_cast<uint64_t>(*chunk.offset_index_length) <= size - static_cast<uint64_t>(*chunk.offset_index_offset)) {
    std::vector<uint8_t> bytes;
    file.file().ReadAt(static_cast<uint64_t>(*chunk.offset_index_offset), static_cast<size_t>(*chunk.offset_index_length), &bytes);
    try {
      parquet::ParseOffsetIndex(bytes.data(), bytes.size());
    } catch (const parquet::ParquetError&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::unique_ptr<parquet::ParquetFileReader> file;
  try {
    static const parquet::FileDecryptionProperties* const keys = [] {
      auto* properties = new parquet::FileDecryptionProperties;
      properties->footer_key = "0123456789012345";
      properties->column_keys = {{"double_field", "1234567890123450"}, {"float_field", "1234567890123451"}};
      return properties;
    }();
    file = parquet::ParquetFileReader::Open(parquet::OpenMemoryFile(data, size, "fuzz.parquet"), keys);
  } catch (const parquet::ParquetError& error) {
    Note(error);
    return 0;
  }
  const parquet::Schema& schema = file->schema();
  int fields = static_cast<int>(schema.top_level_fields().size());
  for (int field = 0; field < fields; field++) {
    sqlite_parquet::MappingOptions options;
    try {
      sqlite_parquet::MapTopLevelField(schema, field, options);
    } catch (const parquet::ParquetError&) {
    }
  }
  parquet::ColumnReaderOptions reader_options;
  reader_options.memory_budget = std::make_shared<parquet::MemoryBudget>(kMemoryBudget, "max_memory");
  for (int row_group = 0; row_group < file->num_row_groups() && row_group < 16; row_group++) {
    for (int field = 0; field < fields; field++) {
      try {
        if (parquet::IsNestedField(schema, field)) {
          ReadNestedField(*file, row_group, field, reader_options);
        } else {
          ReadFlatColumn(*file, row_group, schema.first_column_of_field(field), reader_options);
        }
      } catch (const parquet::ParquetError& error) {
        Note(error);
      }
    }
    for (int column = 0; column < schema.num_columns(); column++) {
      try {
        ReadChunkExtras(*file, row_group, column);
      } catch (const parquet::ParquetError&) {
      }
    }
  }
  if (reader_options.memory_budget->used() != 0) {
    std::fprintf(stderr, "fuzz_read: the readers did not give back %llu bytes of their memory budget\n",
                 static_cast<unsigned long long>(reader_options.memory_budget->used()));
    std::abort();
  }
  return 0;
}
