// Row-group pruning by column chunk statistics and bloom filters (see row_group_pruning.h).
#include "ext/table/row_group_pruning.h"

#include <cmath>
#include <utility>

#include "ext/common/parquet_to_sql.h"
#include "format/common/error.h"
#include "format/index/page_index.h"

namespace sqlite_parquet {

namespace {

// The outcome of asking a bloom filter about one comparison value.
enum class BloomProbe : uint8_t { kNoMatchPossible, kHash, kUnknown };

BloomProbe IntegerProbe(const SqlValue& v, int64_t* out) {
  if (v.type == SqlValue::Type::kInteger) {
    *out = v.integer;
    return BloomProbe::kHash;
  }
  if (v.type != SqlValue::Type::kReal) return BloomProbe::kNoMatchPossible;  // NULL, text, blob never equal a number
  if (!(v.real >= -9223372036854775808.0 && v.real < 9223372036854775808.0)) return BloomProbe::kNoMatchPossible;
  const int64_t i = static_cast<int64_t>(v.real);
  if (static_cast<double>(i) != v.real) return BloomProbe::kNoMatchPossible;  // not integral
  *out = i;
  return BloomProbe::kHash;
}

BloomProbe ProbeOf(const SqlValue& v, const ColumnMapping& m, uint64_t* hash) {
  switch (m.kind) {
    case ValueKind::kInt32: {
      int64_t i = 0;
      BloomProbe p = IntegerProbe(v, &i);
      if (p != BloomProbe::kHash) return p;
      if (i < INT32_MIN || i > INT32_MAX) return BloomProbe::kNoMatchPossible;
      *hash = parquet::BloomHashOf(static_cast<int32_t>(i));
      return p;
    }
    case ValueKind::kInt64: {
      int64_t i = 0;
      BloomProbe p = IntegerProbe(v, &i);
      if (p == BloomProbe::kHash) *hash = parquet::BloomHashOf(i);
      return p;
    }
    case ValueKind::kDouble: {
      double d = 0;
      if (v.type == SqlValue::Type::kReal) {
        d = v.real;
      } else if (v.type == SqlValue::Type::kInteger) {
        d = static_cast<double>(v.integer);
        // An integer no double equals exactly matches nothing.
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || static_cast<int64_t>(d) != v.integer) {
          return BloomProbe::kNoMatchPossible;
        }
      } else {
        return BloomProbe::kNoMatchPossible;
      }
      if (d == 0) return BloomProbe::kUnknown;  // -0.0 and +0.0 hash differently but compare equal
      *hash = parquet::BloomHashOf(d);
      return BloomProbe::kHash;
    }
    case ValueKind::kText:
    case ValueKind::kJson:
      if (v.type != SqlValue::Type::kText) return BloomProbe::kNoMatchPossible;
      *hash = parquet::BloomHashOf(v.bytes);
      return BloomProbe::kHash;
    case ValueKind::kBlob:
      if (v.type != SqlValue::Type::kBlob) return BloomProbe::kNoMatchPossible;
      *hash = parquet::BloomHashOf(v.bytes);
      return BloomProbe::kHash;
    default: return BloomProbe::kUnknown;
  }
}

}  // namespace

void BoundsFromStatistics(const parquet::DecodedStatistics& s, const ColumnMapping& mapping, int64_t num_rows,
                          ValueBounds* bounds) {
  if (mapping.kind == ValueKind::kNull) {
    bounds->may_have_non_null = false;
    return;
  }
  if (s.null_count) {
    bounds->may_have_null = *s.null_count > 0;
    if (*s.null_count >= num_rows && num_rows > 0) bounds->may_have_non_null = false;
  }
  if (s.all_null) bounds->may_have_non_null = false;
  // NaN reads as NULL: IS NULL may match a NaN that null_count does not count.
  if (MappingHasNaN(mapping) && !(s.nan_count && *s.nan_count == 0)) bounds->may_have_null = true;
  FormatBuffer buffer;
  SqlValue v;
  if (s.min && StatisticsSqlValue(mapping, s.min->value, s.comparison, &buffer, &v)) {
    if (v.type == SqlValue::Type::kText || v.type == SqlValue::Type::kBlob) {
      bounds->min_bytes.assign(v.bytes);
      v.bytes = bounds->min_bytes;
    }
    bounds->min = v;
  }
  if (s.max && StatisticsSqlValue(mapping, s.max->value, s.comparison, &buffer, &v)) {
    if (v.type == SqlValue::Type::kText || v.type == SqlValue::Type::kBlob) {
      bounds->max_bytes.assign(v.bytes);
      v.bytes = bounds->max_bytes;
    }
    bounds->max = v;
  }
}

bool BloomFilterRulesOut(const parquet::BloomFilter& bloom, const ColumnFilter& filter, const ColumnMapping& mapping) {
  if (!filter.active) return false;
  if (filter.op != ConstraintOp::kEq && filter.op != ConstraintOp::kIn && filter.op != ConstraintOp::kIs) return false;
  for (const SqlValue& v : filter.values) {
    if (v.is_null()) {
      if (filter.op == ConstraintOp::kIs) return false;  // IS NULL: nulls are not in the filter
      continue;
    }
    uint64_t hash = 0;
    switch (ProbeOf(v, mapping, &hash)) {
      case BloomProbe::kNoMatchPossible: break;
      case BloomProbe::kUnknown: return false;
      case BloomProbe::kHash:
        if (bloom.MightContain(hash)) return false;
        break;
    }
  }
  return true;
}

RowGroupPruner::RowGroupPruner(const parquet::ParquetFileReader& file, std::vector<FileColumnFilter> filters)
    : file_(file), filters_(std::move(filters)) {
  contexts_.reserve(filters_.size());
  for (const FileColumnFilter& f : filters_) {
    contexts_.push_back(f.mapping->leaf_column < 0
                            ? parquet::StatisticsContext()
                            : parquet::MakeStatisticsContext(file.metadata(), file.schema(), f.mapping->leaf_column));
  }
}

namespace {

// Whether some entry of `dictionary` satisfies `filter` (converted as xColumn converts it).
bool DictionaryMayMatch(const parquet::ChunkDictionary& dictionary, const ColumnFilter& filter,
                        const ColumnMapping& mapping) {
  const void* values = nullptr;  // the entries, an array of the physical type
  switch (dictionary.physical_type) {
    case parquet::Type::INT32: values = dictionary.int32s.data(); break;
    case parquet::Type::INT64: values = dictionary.int64s.data(); break;
    case parquet::Type::INT96: values = dictionary.int96s.data(); break;
    case parquet::Type::FLOAT: values = dictionary.floats.data(); break;
    case parquet::Type::DOUBLE: values = dictionary.doubles.data(); break;
    case parquet::Type::BYTE_ARRAY:
    case parquet::Type::FIXED_LEN_BYTE_ARRAY: values = dictionary.byte_arrays.data(); break;
    default: return true;
  }
  FormatBuffer buffer;
  for (size_t i = 0; i < dictionary.size(); i++) {
    SqlValue v;
    if (!ToSqlValue(mapping, ParquetValueAt(mapping.kind, values, i), &buffer, &v)) return true;
    if (RowMatches(filter, v)) return true;
  }
  return false;
}

}  // namespace

PruneReason RowGroupPruner::Check(int row_group, const parquet::ColumnReaderOptions& options,
                                  parquet::ColumnReadCounters* counters) {
  const int64_t num_rows = file_.row_group_num_rows(row_group);
  for (size_t i = 0; i < filters_.size(); i++) {
    const FileColumnFilter& f = filters_[i];
    ValueBounds bounds;
    if (f.mapping->kind == ValueKind::kNull || f.mapping->leaf_column < 0) {
      bounds.may_have_non_null = false;  // an always-NULL column, or one this file does not have
    } else {
      const parquet::ColumnMetaData& meta = file_.column_metadata(row_group, f.mapping->leaf_column);
      if (meta.statistics) {
        BoundsFromStatistics(parquet::DecodeStatistics(*meta.statistics, contexts_[i]), *f.mapping, num_rows, &bounds);
      }
    }
    if (!MayMatch(*f.filter, bounds)) return PruneReason::kStatistics;
  }
  for (size_t i = 0; i < filters_.size(); i++) {
    const FileColumnFilter& f = filters_[i];
    const ConstraintOp op = f.filter->op;
    if (op != ConstraintOp::kEq && op != ConstraintOp::kIn && op != ConstraintOp::kIs) continue;
    if (f.mapping->leaf_column < 0 || f.mapping->kind == ValueKind::kNull) continue;
    const parquet::ColumnMetaData& meta = file_.column_metadata(row_group, f.mapping->leaf_column);
    if (!meta.bloom_filter_offset) continue;
    std::optional<parquet::BloomFilter> bloom;
    try {
      bloom = parquet::ReadBloomFilter(file_, row_group, f.mapping->leaf_column);
    } catch (const parquet::ParquetError&) {
      continue;  // a damaged filter only costs the pruning
    }
    if (!bloom) continue;
    if (counters) counters->bytes_read += bloom->num_bytes();
    if (BloomFilterRulesOut(*bloom, *f.filter, *f.mapping)) return PruneReason::kBloomFilter;
  }
  for (const FileColumnFilter& f : filters_) {
    // A filter that a NULL passes (IS NULL, IS NOT v) cannot be ruled out by the values.
    if (!f.filter->active || f.mapping->kind == ValueKind::kNull || f.mapping->leaf_column < 0 ||
        f.mapping->kind == ValueKind::kBoolean || RowMatches(*f.filter, SqlValue::Null())) {
      continue;
    }
    const parquet::ColumnMetaData& meta = file_.column_metadata(row_group, f.mapping->leaf_column);
    if (!parquet::ChunkIsFullyDictionaryEncoded(meta)) continue;
    std::optional<parquet::ChunkDictionary> dictionary;
    try {
      dictionary = parquet::ReadChunkDictionary(file_, row_group, f.mapping->leaf_column, options, counters);
    } catch (const parquet::ParquetError&) {
      continue;  // the scan reports a corrupt dictionary if it reads the chunk
    }
    if (dictionary && !DictionaryMayMatch(*dictionary, *f.filter, *f.mapping)) return PruneReason::kDictionary;
  }
  return PruneReason::kKeep;
}

namespace {
// Whether MatchingRows asks the page index of f's column.
bool UsesPageIndex(const FileColumnFilter& f) {
  return f.filter->active && f.mapping->kind != ValueKind::kNull && f.mapping->leaf_column >= 0;
}
}  // namespace

std::vector<int> RowGroupPruner::PageIndexLeaves() const {
  std::vector<int> leaves;
  for (const FileColumnFilter& f : filters_) {
    if (UsesPageIndex(f)) leaves.push_back(f.mapping->leaf_column);
  }
  return leaves;
}

parquet::RowRanges RowGroupPruner::MatchingRows(int row_group, parquet::RowRanges rows, int64_t* pages_pruned) {
  const int64_t num_rows = file_.row_group_num_rows(row_group);
  for (size_t i = 0; i < filters_.size() && !rows.empty(); i++) {
    const FileColumnFilter& f = filters_[i];
    if (!UsesPageIndex(f)) continue;
    parquet::PageIndex index;
    try {
      index = parquet::ReadPageIndex(file_, row_group, f.mapping->leaf_column);
    } catch (const parquet::ParquetError&) {
      continue;  // an invalid page index is not used
    }
    if (!index.available) continue;
    const size_t pages = index.offset_index.page_locations.size();
    std::vector<bool> selected(pages, true);
    bool any_pruned = false;
    for (size_t page = 0; page < pages; page++) {
      const parquet::RowRange range = parquet::PageRowRange(index.offset_index, page, num_rows);
      ValueBounds bounds;
      BoundsFromStatistics(parquet::DecodeColumnIndexEntry(index.column_index, page, contexts_[i]), *f.mapping,
                           range.end - range.begin, &bounds);
      if (!MayMatch(*f.filter, bounds)) {
        selected[page] = false;
        any_pruned = true;
        ++*pages_pruned;
      }
    }
    if (any_pruned) rows = rows.Intersect(parquet::RowRangesOfPages(index.offset_index, num_rows, selected));
  }
  return rows;
}

}  // namespace sqlite_parquet
