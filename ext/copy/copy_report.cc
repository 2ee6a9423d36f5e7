// parquet_copy's return_stats=1 report (copy_report.h).
#include "ext/copy/copy_report.h"

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

#include "ext/common/column_mapping.h"
#include "ext/common/hive_partitions.h"
#include "ext/common/parquet_to_sql.h"
#include "format/index/statistics.h"
#include "format/metadata/enums.h"
#include "format/values/json_text.h"

namespace sqlite_parquet {

namespace {

// A bound as the column's SQLite value; null when it cannot be converted.
void AppendBound(const ColumnMapping& mapping, const std::optional<parquet::StatisticsValue>& bound, std::string* out) {
  ParquetValue value;
  FormatBuffer buffer;
  SqlValue sql;
  if (!bound || !StatisticsParquetValue(mapping, *bound, &value) || !ToSqlValue(mapping, value, &buffer, &sql)) {
    *out += "null";
    return;
  }
  AppendJsonSqlValue(sql, out);
}

template <typename T>
void AppendField(const char* name, const T& value, std::string* out) {
  parquet::AppendJsonString(name, out);
  *out += ':';
  *out += std::to_string(value);
}

}  // namespace

void AppendFileReport(const parquet::ParquetFileReader& file, const std::string& filename, const std::string& relative,
                      std::string* out) {
  const parquet::FileMetaData& metadata = file.metadata();
  const parquet::Schema& schema = file.schema();
  *out += "{\"filename\":";
  parquet::AppendJsonUtf8String(filename, out);
  *out += ',';
  AppendField("rows", metadata.num_rows, out);
  *out += ',';
  AppendField("file_size_bytes", file.file().Size(), out);
  *out += ',';
  AppendField("footer_size_bytes", file.footer_length(), out);
  *out += ',';
  AppendField("row_groups", metadata.row_groups.size(), out);
  *out += ",\"partition_keys\":{";
  bool first = true;
  for (const HivePair& pair : HivePairs(relative)) {
    if (!first) *out += ',';
    first = false;
    parquet::AppendJsonUtf8String(pair.first, out);
    *out += ':';
    if (pair.second) {
      parquet::AppendJsonUtf8String(*pair.second, out);
    } else {
      *out += "null";
    }
  }
  *out += "},\"columns\":{";
  for (int c = 0; c < schema.num_columns(); ++c) {
    const parquet::StatisticsContext context = parquet::MakeStatisticsContext(metadata, schema, c);
    const ColumnMapping mapping = MapLeaf(schema, schema.column(c).node, MappingOptions());
    std::optional<parquet::StatisticsValue> min, max;
    bool bounds_known = !metadata.row_groups.empty();
    int64_t null_count = 0, distinct_count = -1;  // -1 (and nulls_known false): unknown
    bool nulls_known = true;
    int64_t compressed = 0, uncompressed = 0, bloom_bytes = 0, page_index_bytes = 0;
    std::optional<parquet::CompressionCodec> codec;
    std::vector<parquet::Encoding> encodings;
    for (const parquet::RowGroup& rg : metadata.row_groups) {
      const parquet::ColumnChunk& chunk = rg.columns[static_cast<size_t>(c)];
      page_index_bytes += chunk.column_index_length.value_or(0) + chunk.offset_index_length.value_or(0);
      if (!chunk.meta_data) {
        bounds_known = false;
        nulls_known = false;
        distinct_count = -1;
        continue;
      }
      const parquet::ColumnMetaData& meta = *chunk.meta_data;
      compressed += meta.total_compressed_size;
      uncompressed += meta.total_uncompressed_size;
      bloom_bytes += meta.bloom_filter_length.value_or(0);
      if (!codec) codec = meta.codec;
      for (parquet::Encoding e : meta.encodings) {
        if (std::find(encodings.begin(), encodings.end(), e) == encodings.end()) encodings.push_back(e);
      }
      const parquet::DecodedStatistics s =
          meta.statistics ? parquet::DecodeStatistics(*meta.statistics, context) : parquet::DecodedStatistics();
      nulls_known = nulls_known && s.null_count.has_value();
      if (s.null_count) null_count += *s.null_count;
      // Distinct values of several row groups do not add up: known only for one.
      distinct_count = metadata.row_groups.size() == 1 && s.distinct_count ? *s.distinct_count : -1;
      // A row group of nulls has no bounds and changes none.
      const bool all_null = s.null_count && *s.null_count == rg.num_rows;
      if (all_null) continue;
      if (!s.min || !s.max) {
        bounds_known = false;
        continue;
      }
      if (!min || parquet::CompareStatisticsValues(s.min->value, *min, s.comparison) < 0) min = s.min->value;
      if (!max || parquet::CompareStatisticsValues(s.max->value, *max, s.comparison) > 0) max = s.max->value;
    }
    if (!bounds_known) min.reset(), max.reset();
    if (c) *out += ',';
    parquet::AppendJsonUtf8String(schema.column(c).dotted_path, out);
    *out += ":{\"min\":";
    AppendBound(mapping, min, out);
    *out += ",\"max\":";
    AppendBound(mapping, max, out);
    *out += ",\"null_count\":" + (nulls_known ? std::to_string(null_count) : std::string("null"));
    *out += ",\"distinct_count\":" + (distinct_count >= 0 ? std::to_string(distinct_count) : std::string("null"));
    *out += ",\"codec\":";
    if (codec) {
      parquet::AppendJsonString(parquet::ToString(*codec), out);
    } else {
      *out += "null";
    }
    *out += ",\"encodings\":[";
    for (size_t i = 0; i < encodings.size(); ++i) {
      if (i) *out += ',';
      parquet::AppendJsonString(parquet::ToString(encodings[i]), out);
    }
    *out += "],";
    AppendField("compressed_bytes", compressed, out);
    *out += ',';
    AppendField("uncompressed_bytes", uncompressed, out);
    *out += ',';
    AppendField("bloom_filter_bytes", bloom_bytes, out);
    *out += ',';
    AppendField("page_index_bytes", page_index_bytes, out);
    *out += '}';
  }
  *out += "}}";
}

}  // namespace sqlite_parquet
