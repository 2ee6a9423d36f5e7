// Fuzz target: the page reader. The input is one column chunk (page headers, compressed
// pages, every encoding and codec) behind a small header choosing the column's physical
// type, codec and levels (fuzz_common.h); it is wrapped in an in-memory Parquet file and
// read with ColumnChunkReader twice: once batch by batch, once mixing Skip, SkipToRowStart
// and small reads. Malformed pages must end in ParquetError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "format/read/column_reader.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/io/random_access_file.h"
#include "tests/fuzz/fuzz_common.h"
#include "tests/fuzz/fuzz_touch.h"

namespace {

// Bounds the work per input (a page may validly hold many values).
constexpr size_t kMaxSlots = 1 << 22;

void ReadAll(parquet::ColumnChunkReader& reader) {
  parquet::ColumnBatch batch;
  size_t total = 0;
  while (total < kMaxSlots) {
    size_t n = reader.ReadBatch(1024, &batch);
    if (n == 0) break;
    if (n != batch.num_levels || n > 1024) abort();
    parquet_fuzz::TouchBatch(reader.descriptor(), batch);
    total += n;
  }
}

void ReadMixed(parquet::ColumnChunkReader& reader, uint32_t pattern) {
  parquet::ColumnBatch batch;
  size_t total = 0;
  for (int step = 0; total < kMaxSlots; step++) {
    size_t n = 0;
    switch ((pattern >> (2 * (step % 16))) & 3) {
      case 0: n = reader.Skip(1 + step % 97); break;
      case 1: n = reader.SkipToRowStart(1 + step % 3); break;
      default:
        n = reader.ReadBatch(1 + step % 61, &batch);
        if (n) parquet_fuzz::TouchBatch(reader.descriptor(), batch);
        break;
    }
    if (n == 0) break;
    total += n;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < parquet_fuzz::kPageInputHeaderSize) return 0;
  parquet_fuzz::PageInputHeader header;
  header.physical_type = data[0];
  header.codec = data[1];
  header.levels = data[2];
  header.type_length = data[3];
  header.num_values = static_cast<uint32_t>(data[4]) | (static_cast<uint32_t>(data[5]) << 8) |
                      (static_cast<uint32_t>(data[6]) << 16) | (static_cast<uint32_t>(data[7]) << 24);
  const uint8_t* chunk = data + parquet_fuzz::kPageInputHeaderSize;
  size_t chunk_size = size - parquet_fuzz::kPageInputHeaderSize;
  std::string file = parquet_fuzz::PageInputFile(header, chunk, chunk_size);
  try {
    auto reader_file = parquet::ParquetFileReader::Open(
        parquet::OpenMemoryFile(reinterpret_cast<const uint8_t*>(file.data()), file.size(), "fuzz.parquet"));
    parquet::ColumnReaderOptions options;
    options.verify_crc = (header.levels & 0x20) == 0;
    auto reader = parquet::ColumnChunkReader::Make(*reader_file, 0, 0, options);
    try {
      ReadAll(*reader);
    } catch (const parquet::ParquetError&) {
    }
    reader->Reset(0);
    ReadMixed(*reader, header.num_values * 2654435761u);
  } catch (const parquet::ParquetError&) {
  }
  return 0;
}
