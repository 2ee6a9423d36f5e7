// Which columns a `parquet` table's rows are sorted by: the row-group order of each column
// in the first file (from statistics: planning costs and ORDER BY), and the check of every
// value of the one column ORDER BY may rely on (sorting_columns is a writer's claim no
// reader checks).
#include <algorithm>
#include <deque>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "ext/table/parquet_table.h"
#include "ext/common/parquet_to_sql.h"
#include "ext/table/row_group_pruning.h"
#include "ext/common/sql_value.h"
#include "format/read/column_reader.h"
#include "format/common/error.h"
#include "format/index/statistics.h"
#include "format/io/http_client.h"

namespace sqlite_parquet {

namespace {

// The share of a file's rows that an equality lookup keeps by row-group statistics,
// estimated with the row groups' own bounds as the values looked up (each bound is a value
// of the column): for each, the rows of the row groups whose range holds it.
double LookupShareByStatistics(const std::deque<ValueBounds>& groups, const std::vector<int64_t>& rows) {
  double kept = 0, probes = 0, total = 0;
  for (int64_t n : rows) total += static_cast<double>(n);
  if (total <= 0) return 1;
  for (const ValueBounds& probe : groups) {
    for (const SqlValue* value : {&*probe.min, &*probe.max}) {
      probes++;
      for (size_t g = 0; g < groups.size(); g++) {
        if (CompareSqlValues(*groups[g].min, *value) <= 0 && CompareSqlValues(*value, *groups[g].max) <= 0) {
          kept += static_cast<double>(rows[g]);
        }
      }
    }
  }
  return kept / probes / total;
}

// The data pages of a column chunk: its encoding_stats' count when the writer gave them,
// else its uncompressed size over 1 MiB (the usual page size), at least one.
int64_t DataPagesOf(const parquet::ColumnMetaData& meta) {
  int64_t pages = 0;
  if (meta.encoding_stats) {
    for (const parquet::PageEncodingStats& s : *meta.encoding_stats) {
      if ((s.page_type == parquet::PageType::DATA_PAGE || s.page_type == parquet::PageType::DATA_PAGE_V2) &&
          s.count > 0) {
        pages += s.count;
      }
    }
  }
  if (pages > 0) return pages;
  constexpr int64_t kUsualPageBytes = 1 << 20;
  return std::max<int64_t>(1, meta.total_uncompressed_size / kUsualPageBytes);
}

// Marks the file columns whose row groups in `file` (the first file) are in ascending order
// by statistics (max of each <= min of the next, all bounds usable), and those whose
// lookups statistics, bloom filters and dictionaries cannot prune (ColumnPushdown::unprunable); with
// `order_candidate`, also picks table->order_candidate_column: the first ordered column
// that the row groups' sorting_columns declare sorted ascending and that has no NULL or NaN.
// Nothing here looks inside a row group: OrderVerified does, before ORDER BY relies on it.
void FindOrderedColumns(ParquetTable* table, const parquet::ParquetFileReader& file, bool order_candidate) {
  const parquet::Schema& schema = file.schema();
  const size_t num_fields = std::min(schema.top_level_fields().size(), table->file_columns.size());
  for (size_t c = 0; c < num_fields; c++) {
    // Only a field that is still the table's column (the file may have changed since CREATE).
    if (FieldName(schema, c) != table->file_columns[c].name) continue;
    ColumnMapping mapping = MapTopLevelField(schema, static_cast<int>(c), table->options.mapping);
    if (mapping.kind == ValueKind::kNested || mapping.leaf_column < 0 || file.num_row_groups() == 0) continue;
    const parquet::StatisticsContext context = parquet::MakeStatisticsContext(file.metadata(), schema, mapping.leaf_column);
    bool bounded = true, no_nulls = true, declared_sorted = true, may_prune = false;
    int64_t data_pages = 0;
    std::deque<ValueBounds> groups;  // per row group while all have bounds
    std::vector<int64_t> group_rows;
    for (int rg = 0; rg < file.num_row_groups() && bounded; rg++) {
      const parquet::ColumnMetaData* meta = nullptr;
      try {
        meta = &file.column_metadata(rg, mapping.leaf_column);
      } catch (const parquet::ParquetError&) {
        bounded = false;  // e.g. encrypted: the scan reports it if it gets there
        break;
      }
      // A bloom filter or a dictionary (every page dictionary-encoded) may prune a lookup
      // that statistics keep.
      may_prune = may_prune || meta->bloom_filter_offset.has_value() || parquet::ChunkIsFullyDictionaryEncoded(*meta);
      ValueBounds& bounds = groups.emplace_back();
      group_rows.push_back(file.row_group_num_rows(rg));
      data_pages += DataPagesOf(*meta);
      if (meta->statistics) {
        BoundsFromStatistics(parquet::DecodeStatistics(*meta->statistics, context), mapping, file.row_group_num_rows(rg),
                             &bounds);
      }
      if (!bounds.min || !bounds.max) {
        bounded = false;
        break;
      }
      no_nulls = no_nulls && !bounds.may_have_null;
      const auto& sorting = file.row_group(rg).sorting_columns;
      declared_sorted = declared_sorted && sorting && !sorting->empty() &&
                        (*sorting)[0].column_idx == mapping.leaf_column && !(*sorting)[0].descending;
    }
    bool ordered = bounded;
    for (size_t g = 1; ordered && g < groups.size(); g++) ordered = CompareSqlValues(*groups[g - 1].max, *groups[g].min) <= 0;
    table->pushdown[c].ordered = ordered;
    if (ordered && data_pages > 0) {
      int64_t rows = 0;
      for (int64_t n : group_rows) rows += n;
      table->pushdown[c].rows_per_page = std::max<int64_t>(1, rows / data_pages);
    }
    // A lookup that keeps a quarter of the rows or more (ChooseJoinIndex's threshold), of
    // integer keys (text keys cost too much memory to index on speculation).
    const bool integer_keys = mapping.kind == ValueKind::kInt32 || mapping.kind == ValueKind::kInt64;
    table->pushdown[c].unprunable =
        integer_keys && !ordered && !may_prune && (!bounded || LookupShareByStatistics(groups, group_rows) >= 0.25);
    if (order_candidate && ordered && no_nulls && declared_sorted && table->order_candidate_column < 0) {
      table->order_candidate_column = static_cast<int>(c);
    }
  }
}

}  // namespace

// Whether every value of the table's order candidate column, read in file order, is at or
// above the one before it in SQLite's order (BINARY collation) and none is NULL: only then
// does a scan return rows in ORDER BY order. sorting_columns is a writer's claim that no
// reader checks, and statistics only order the row groups, not the rows inside them, so
// the column is decoded once (one column chunk per row group, about a row group's worth of
// memory) and the answer kept for the table's lifetime. A file that cannot be read is not
// known to be in order: the scan reports its error.
bool OrderVerified(ParquetTable* table) {
  if (table->order_check != ParquetTable::OrderCheck::kUnchecked) {
    return table->order_check == ParquetTable::OrderCheck::kAscending;
  }
  bool ascending = table->order_candidate_column >= 0 && table->files->paths.size() == 1;
  try {
    std::unique_ptr<parquet::ParquetFileReader> file;
    ColumnMapping mapping;
    if (ascending) {
      file = parquet::ParquetFileReader::Open(table->files->paths[0], table->options.decryption.get(),
                                              table->options.remote.get());
      // Still the column FindOrderedColumns saw (the file may have changed since).
      const auto candidate = static_cast<size_t>(table->order_candidate_column);
      ascending = candidate < file->schema().top_level_fields().size() &&
                  FieldName(file->schema(), candidate) == table->file_columns[candidate].name;
      if (ascending) mapping = MapTopLevelField(file->schema(), table->order_candidate_column, table->options.mapping);
      ascending = ascending && mapping.kind != ValueKind::kNested && mapping.kind != ValueKind::kNull && mapping.leaf_column >= 0;
    }
    DateTextCache dates;
    FormatBuffer buffer;
    buffer.dates = &dates;
    std::string previous_bytes;
    SqlValue previous;
    bool have_previous = false;
    parquet::ColumnReaderOptions options;
    options.verify_crc = table->options.verify_crc;
    parquet::ColumnBatch batch;
    for (int rg = 0; ascending && rg < file->num_row_groups(); rg++) {
      auto reader = parquet::ColumnChunkReader::Make(*file, rg, mapping.leaf_column, options);
      int64_t rows = 0;
      while (ascending && rows < file->row_group_num_rows(rg)) {
        if (reader->ReadBatch(kBatchSlots, &batch) == 0) break;
        rows += static_cast<int64_t>(batch.num_levels);
        SqlValue value;
        // A NULL (fewer values than slots) sorts first: not where a scan would return it.
        ascending = batch.num_values == batch.num_levels;
        for (size_t i = 0; ascending && i < batch.num_values; i++) {
          ascending = BatchSqlValue(mapping, batch, i, &buffer, &value) && !value.is_null() &&
                      (!have_previous || CompareSqlValues(previous, value) <= 0);
          if (!ascending) break;
          previous = value;
          if (value.type == SqlValue::Type::kText || value.type == SqlValue::Type::kBlob) {
            previous_bytes.assign(value.bytes);
            previous.bytes = previous_bytes;
          }
          have_previous = true;
        }
      }
    }
  } catch (const parquet::HttpInterrupted&) {
    throw;  // not checked yet: the statement ends (xBestIndex), the next planning asks again
  } catch (const std::exception&) {  // also bad_alloc
    ascending = false;
  }
  table->order_check = ascending ? ParquetTable::OrderCheck::kAscending : ParquetTable::OrderCheck::kNotAscending;
  return ascending;
}

// The row estimate and the row-group order of the first file's columns, read at the first
// planning rather than at connect: a table stored in a database file is connected by PRAGMA
// table_info, `.schema` and uses through views (before SQLite refuses those), which need
// only its columns.
void ReadOrderStatistics(ParquetTable* table) {
  if (table->order_statistics_read) return;
  table->order_statistics_read = true;
  // A lake table's files map their columns by name or field id (lake_table.h), and its row
  // estimate comes from the log: no file's order is looked at.
  if (table->files->paths.empty() || table->files->lake) return;
  try {
    // Only an aid to planning: a file whose statistics cannot be read is simply not known
    // to be ordered (a scan reports real errors).
    auto first = parquet::ParquetFileReader::Open(table->files->paths[0], table->options.decryption.get(),
                                                  table->options.remote.get());
    table->estimated_rows = first->num_rows() * static_cast<int64_t>(table->files->paths.size());
    FindOrderedColumns(table, *first, table->files->paths.size() == 1);
  } catch (const parquet::HttpInterrupted&) {
    table->order_statistics_read = false;  // the next planning asks again
    throw;  // the statement ends (xBestIndex)
  } catch (const std::exception&) {  // also bad_alloc
  }
}


}  // namespace sqlite_parquet
