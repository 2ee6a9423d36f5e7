// Row-group pruning by column chunk statistics and bloom filters (see row_group_pruning.h).
#include "ext/table/row_group_pruning.h"

#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "ext/common/parquet_to_sql.h"
#include "format/common/error.h"
#include "format/index/page_index.h"
#include "format/values/json_document.h"
#include "format/values/wkb.h"

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

namespace {

// The leaf columns of the GeoParquet covering bbox of geometry column `name`
// ({"columns": {name: {"covering": {"bbox": {"xmin": ["bbox", "xmin"], ...}}}}}), in the
// order xmin, ymin, xmax, ymax; -1 where the metadata names none or the file lacks it.
std::array<int, 4> CoveringLeaves(const parquet::ParquetFileReader& file, const std::string& name) {
  std::array<int, 4> leaves{-1, -1, -1, -1};
  const auto& kv = file.metadata().key_value_metadata;
  if (!kv) return leaves;
  for (const parquet::KeyValue& entry : *kv) {
    if (entry.key != "geo" || !entry.value) continue;
    parquet::JsonDocument document;
    std::string error;
    if (!document.Parse(*entry.value, &error)) return leaves;
    // Member `key` of object node `index`, or -1.
    auto member = [&document](int32_t index, std::string_view key) -> int32_t {
      if (index < 0 || document.node(index).kind != parquet::JsonNode::Kind::kObject) return -1;
      for (int32_t child = document.node(index).first_child; child >= 0; child = document.node(child).next_sibling) {
        if (!document.node(child).key_escaped && document.node(child).key == key) return child;
      }
      return -1;
    };
    const int32_t bbox = member(member(member(member(0, "columns"), name), "covering"), "bbox");
    static const char* const kBounds[] = {"xmin", "ymin", "xmax", "ymax"};
    for (int b = 0; b < 4; b++) {
      const int32_t path = member(bbox, kBounds[b]);
      if (path < 0 || document.node(path).kind != parquet::JsonNode::Kind::kArray) continue;
      std::vector<std::string> parts;
      for (int32_t part = document.node(path).first_child; part >= 0; part = document.node(part).next_sibling) {
        if (document.node(part).kind != parquet::JsonNode::Kind::kString || document.node(part).key_escaped) break;
        parts.emplace_back(document.node(part).text);
      }
      for (int c = 0; c < file.schema().num_columns(); c++) {
        if (file.schema().column(c).path == parts) leaves[static_cast<size_t>(b)] = c;
      }
    }
    return leaves;
  }
  return leaves;
}

// The exact min (or max) of a FLOAT or DOUBLE chunk's statistics, if it has one.
std::optional<double> FloatingBound(const parquet::ColumnMetaData& meta, bool max) {
  if (!meta.statistics) return std::nullopt;
  const std::optional<std::string>& bytes = max ? meta.statistics->max_value : meta.statistics->min_value;
  if (!bytes) return std::nullopt;
  if (meta.type == parquet::Type::DOUBLE && bytes->size() == 8) {
    double value;
    std::memcpy(&value, bytes->data(), 8);
    if (value == value) return value;
  } else if (meta.type == parquet::Type::FLOAT && bytes->size() == 4) {
    float value;
    std::memcpy(&value, bytes->data(), 4);
    if (value == value) return static_cast<double>(value);
  }
  return std::nullopt;
}

}  // namespace

bool RowGroupPruner::BboxRulesOut(int row_group, size_t i) const {
  const FileColumnFilter& f = filters_[i];
  if (!f.filter->active || f.mapping->leaf_column < 0) return false;
  const parquet::QueryBox box{f.filter->values[0].real, f.filter->values[1].real, f.filter->values[2].real,
                              f.filter->values[3].real};
  const parquet::ColumnMetaData& meta = file_.column_metadata(row_group, f.mapping->leaf_column);
  if (meta.geospatial_statistics && meta.geospatial_statistics->bbox) {
    const parquet::BoundingBox& b = *meta.geospatial_statistics->bbox;
    if (!parquet::StatisticsBoxMayIntersect(b.xmin, b.xmax, b.ymin, b.ymax, box)) return true;
  }
  const std::array<int, 4>& covering = covering_[i];
  auto bound = [&](int which, bool max) -> std::optional<double> {
    if (covering[static_cast<size_t>(which)] < 0) return std::nullopt;
    return FloatingBound(file_.column_metadata(row_group, covering[static_cast<size_t>(which)]), max);
  };
  // Every row's xmin >= the smallest xmin: none meets a box ending before it; and so on.
  if (auto xmin = bound(0, false); xmin && *xmin > box.xmax) return true;
  if (auto ymin = bound(1, false); ymin && *ymin > box.ymax) return true;
  if (auto xmax = bound(2, true); xmax && *xmax < box.xmin) return true;
  if (auto ymax = bound(3, true); ymax && *ymax < box.ymin) return true;
  return false;
}

RowGroupPruner::RowGroupPruner(const parquet::ParquetFileReader& file, std::vector<FileColumnFilter> filters)
    : file_(file), filters_(std::move(filters)) {
  contexts_.reserve(filters_.size());
  for (const FileColumnFilter& f : filters_) {
    contexts_.push_back(f.mapping->leaf_column < 0
                            ? parquet::StatisticsContext()
                            : parquet::MakeStatisticsContext(file.metadata(), file.schema(), f.mapping->leaf_column));
    covering_.push_back(f.filter->op == ConstraintOp::kBboxIntersects && f.mapping->leaf_column >= 0
                            ? CoveringLeaves(file, file.schema().column(f.mapping->leaf_column).path.front())
                            : std::array<int, 4>{-1, -1, -1, -1});
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
    if (f.filter->op == ConstraintOp::kBboxIntersects && BboxRulesOut(row_group, i)) return PruneReason::kStatistics;
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
