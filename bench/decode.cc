// bench_decode: query 8 of the benchmarks, the format library alone (no SQLite). Decodes
// every column of every row group of a Parquet file with ColumnChunkReader (as a scan
// does: row group by row group, one reader per column reused through Reset) and reports
// MB/s of uncompressed data and rows/s. With --info it prints the file's layout instead.
//
//   bench_decode FILE.parquet [--runs 3] [--warmup 1] [--batch 4096]
//   bench_decode FILE.parquet --info
//
// "Uncompressed data" is the sum of the column chunks' total_uncompressed_size from the
// footer (page headers, levels and encoded values after decompression); value_bytes is
// the size of the decoded values (8 per INT64/DOUBLE, 4 per INT32, the length of each
// string). Output: one JSON object.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "format/read/column_reader.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"

namespace {

struct DecodeTotals {
  int64_t levels = 0;
  int64_t values = 0;
  int64_t value_bytes = 0;
  uint64_t checksum = 0;  // keeps the value reads from being optimised away
};

void DecodeColumnChunk(parquet::ColumnChunkReader* reader, size_t batch_size, parquet::ColumnBatch* batch,
                       DecodeTotals* totals) {
  const parquet::Type type = reader->descriptor().physical_type;
  size_t got;
  while ((got = reader->ReadBatch(batch_size, batch)) > 0) {
    const size_t n = batch->num_values;
    totals->levels += static_cast<int64_t>(got);
    totals->values += static_cast<int64_t>(n);
    uint64_t sum = 0;
    switch (type) {
      case parquet::Type::BOOLEAN: {
        const bool* values = batch->values<bool>();
        for (size_t i = 0; i < n; i++) sum += values[i];
        totals->value_bytes += static_cast<int64_t>(n);
        break;
      }
      case parquet::Type::INT32: {
        const int32_t* values = batch->values<int32_t>();
        for (size_t i = 0; i < n; i++) sum += static_cast<uint32_t>(values[i]);
        totals->value_bytes += static_cast<int64_t>(4 * n);
        break;
      }
      case parquet::Type::INT64: {
        const int64_t* values = batch->values<int64_t>();
        for (size_t i = 0; i < n; i++) sum += static_cast<uint64_t>(values[i]);
        totals->value_bytes += static_cast<int64_t>(8 * n);
        break;
      }
      case parquet::Type::FLOAT: {
        const float* values = batch->values<float>();
        for (size_t i = 0; i < n; i++) sum += values[i] > 0;
        totals->value_bytes += static_cast<int64_t>(4 * n);
        break;
      }
      case parquet::Type::DOUBLE: {
        const double* values = batch->values<double>();
        for (size_t i = 0; i < n; i++) sum += values[i] > 0;
        totals->value_bytes += static_cast<int64_t>(8 * n);
        break;
      }
      case parquet::Type::INT96: totals->value_bytes += static_cast<int64_t>(12 * n); break;
      case parquet::Type::BYTE_ARRAY:
      case parquet::Type::FIXED_LEN_BYTE_ARRAY: {
        const parquet::ByteArray* values = batch->values<parquet::ByteArray>();
        uint64_t bytes = 0;
        for (size_t i = 0; i < n; i++) {
          bytes += values[i].len;
          sum += values[i].len ? values[i].ptr[0] : 0;
        }
        totals->value_bytes += static_cast<int64_t>(bytes);
        break;
      }
    }
    totals->checksum += sum;
  }
}

// One full pass over the file; returns the totals.
DecodeTotals DecodeFile(const parquet::ParquetFileReader& file, size_t batch_size) {
  DecodeTotals totals;
  const int columns = file.schema().num_columns();
  std::vector<std::unique_ptr<parquet::ColumnChunkReader>> readers(static_cast<size_t>(columns));
  parquet::ColumnBatch batch;
  for (int group = 0; group < file.num_row_groups(); group++) {
    for (int column = 0; column < columns; column++) {
      auto& reader = readers[static_cast<size_t>(column)];
      if (!reader) {
        reader = parquet::ColumnChunkReader::Make(file, group, column);
      } else {
        reader->Reset(group);
      }
      DecodeColumnChunk(reader.get(), batch_size, &batch, &totals);
    }
  }
  return totals;
}

void PrintInfo(const parquet::ParquetFileReader& file) {
  const parquet::FileMetaData& meta = file.metadata();
  int64_t largest_group_bytes = 0, largest_group_rows = 0, compressed = 0, uncompressed = 0;
  for (const parquet::RowGroup& group : meta.row_groups) {
    int64_t group_bytes = 0;
    for (const parquet::ColumnChunk& chunk : group.columns) {
      if (!chunk.meta_data) continue;
      group_bytes += chunk.meta_data->total_uncompressed_size;
      compressed += chunk.meta_data->total_compressed_size;
      uncompressed += chunk.meta_data->total_uncompressed_size;
    }
    if (group_bytes > largest_group_bytes) largest_group_bytes = group_bytes;
    if (group.num_rows > largest_group_rows) largest_group_rows = group.num_rows;
  }
  std::string columns = "[";
  for (int c = 0; c < file.schema().num_columns(); c++) {
    int64_t column_compressed = 0, column_uncompressed = 0;
    std::string codec, encodings;
    for (const parquet::RowGroup& group : meta.row_groups) {
      const auto& chunk = group.columns[static_cast<size_t>(c)].meta_data;
      if (!chunk) continue;
      column_compressed += chunk->total_compressed_size;
      column_uncompressed += chunk->total_uncompressed_size;
      codec = parquet::ToString(chunk->codec);
      for (parquet::Encoding encoding : chunk->encodings) {
        const std::string name = parquet::ToString(encoding);
        if (encodings.find(name) == std::string::npos) encodings += (encodings.empty() ? "" : " ") + name;
      }
    }
    const parquet::ColumnDescriptor& column = file.schema().column(c);
    columns += std::string(c ? "," : "") + "{\"name\":" + bench::JsonString(column.dotted_path) +
               ",\"type\":" + bench::JsonString(parquet::ToString(column.physical_type)) +
               ",\"codec\":" + bench::JsonString(codec) + ",\"encodings\":" + bench::JsonString(encodings) +
               ",\"compressed\":" + std::to_string(column_compressed) +
               ",\"uncompressed\":" + std::to_string(column_uncompressed) + "}";
  }
  columns += "]";
  std::printf("{\"rows\":%lld,\"row_groups\":%d,\"created_by\":%s,\"compressed_bytes\":%lld,"
              "\"uncompressed_bytes\":%lld,\"largest_row_group_bytes\":%lld,\"largest_row_group_rows\":%lld,"
              "\"columns\":%s}\n",
              static_cast<long long>(file.num_rows()), file.num_row_groups(),
              bench::JsonString(meta.created_by.value_or("")).c_str(), static_cast<long long>(compressed),
              static_cast<long long>(uncompressed), static_cast<long long>(largest_group_bytes),
              static_cast<long long>(largest_group_rows), columns.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') {
    std::fputs("usage: bench_decode FILE.parquet [--runs N] [--warmup N] [--batch N] | FILE.parquet --info\n", stderr);
    return 2;
  }
  const std::string path = argv[1];
  bench::Flags flags(argc - 1, argv + 1);
  try {
    auto file = parquet::ParquetFileReader::Open(path);
    if (flags.Has("--info")) {
      PrintInfo(*file);
      return 0;
    }
    const int64_t runs = flags.GetInt("--runs", 3);
    const int64_t warmup = flags.GetInt("--warmup", 1);
    const int64_t batch_size = flags.GetInt("--batch", 4096);
    if (runs <= 0 || warmup < 0 || batch_size <= 0) throw parquet::ParquetError("--runs, --batch must be positive");

    int64_t uncompressed = 0;
    for (const parquet::RowGroup& group : file->metadata().row_groups) {
      for (const parquet::ColumnChunk& chunk : group.columns) {
        if (chunk.meta_data) uncompressed += chunk.meta_data->total_uncompressed_size;
      }
    }
    bench::PeakRss rss;
    rss.Start();
    DecodeTotals totals;
    for (int64_t i = 0; i < warmup; i++) totals = DecodeFile(*file, static_cast<size_t>(batch_size));
    std::vector<double> times, cpu_times;
    for (int64_t i = 0; i < runs; i++) {
      const double start = bench::NowMs();
      const double cpu_start = bench::CpuMs();
      totals = DecodeFile(*file, static_cast<size_t>(batch_size));
      cpu_times.push_back(bench::CpuMs() - cpu_start);
      times.push_back(bench::NowMs() - start);
    }
    std::printf("{\"times_ms\":%s,\"cpu_times_ms\":%s,\"rows\":%lld,\"columns\":%d,\"levels\":%lld,\"values\":%lld,"
                "\"uncompressed_bytes\":%lld,\"value_bytes\":%lld,\"checksum\":%llu,"
                "\"rss_base_kb\":%lld,\"rss_peak_kb\":%lld,\"rss_delta_kb\":%lld,\"rss_reset\":%s}\n",
                bench::JsonTimes(times).c_str(), bench::JsonTimes(cpu_times).c_str(), static_cast<long long>(file->num_rows()),
                file->schema().num_columns(), static_cast<long long>(totals.levels),
                static_cast<long long>(totals.values), static_cast<long long>(uncompressed),
                static_cast<long long>(totals.value_bytes), static_cast<unsigned long long>(totals.checksum),
                static_cast<long long>(rss.baseline_kb()), static_cast<long long>(rss.peak_kb()),
                static_cast<long long>(rss.delta_kb()), rss.reset_ok() ? "true" : "false");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_decode: %s\n", e.what());
    return 1;
  }
  return 0;
}
