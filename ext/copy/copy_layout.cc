// The layout of parquet_copy's output (copy_layout.h): column names, partition columns,
// types, leaves, schema, per-leaf writer options and sort keys.
#include "ext/copy/copy_layout.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "ext/copy/copy_output.h"
#include "format/metadata/enums.h"
#include "format/metadata/schema.h"
#include "format/index/statistics.h"
#include "format/values/text.h"

namespace sqlite_parquet {

CopyLayout::CopyLayout(const std::vector<ResultColumn>& result, const CopySettings& settings)
    : settings_(settings) {
  // Repeated names get _1, _2, ...: the next suffix to try for each name is remembered, so
  // that a query of thousands of columns of one name stays linear.
  std::unordered_map<std::string, int> next_suffix;
  for (size_t i = 0; i < result.size(); ++i) {
    const std::string& name = result[i].name;
    std::string unique = name;
    int& suffix = next_suffix[parquet::AsciiLowercase(name)];
    while (column_index_.count(parquet::AsciiLowercase(unique)) != 0) unique = name + "_" + std::to_string(++suffix);
    column_index_.emplace(parquet::AsciiLowercase(unique), columns_.size());
    CopyColumn column;
    column.name = unique;
    column.result_index = static_cast<int>(i);
    if (result[i].declared_type) column.type = TypeFromDeclaredType(*result[i].declared_type);
    columns_.push_back(std::move(column));
  }
  ResolveColumnOptions();
}

bool CopyLayout::all_typed() const {
  for (const CopyColumn* column : data_columns_) {
    if (!column->type || column->type->shred_auto) return false;
  }
  return true;
}

// shredding=: 'auto' marks every VARIANT column, COL:... the column named, which must be a
// VARIANT (by variant= or schema=).
void CopyLayout::ResolveShredding() {
  if (settings_.shred_all_auto) {
    bool any = false;
    for (CopyColumn* column : data_columns_) {
      if (column->type && column->type->kind == CopyKind::kVariant) column->type->shred_auto = any = true;
    }
    if (!any) throw CopyError("shredding: no column is written as VARIANT (name the JSON columns in variant=)");
  }
  for (const ShreddingSpec& spec : settings_.shredding) {
    CopyColumn& column = DataColumn("shredding", spec.column);
    if (!column.type || column.type->kind != CopyKind::kVariant) {
      throw CopyError("shredding: column " + column.name + " is not a VARIANT column (name it in variant=)");
    }
    column.type->shred_auto = spec.automatic;
    if (!spec.automatic) column.type->shredding = std::make_shared<const parquet::VariantShredding>(spec.shredding);
  }
}

void CopyLayout::SetVariantShredding(size_t data_column, std::optional<parquet::VariantShredding> shredding) {
  CopyColumn& column = *data_columns_[data_column];
  column.type->shred_auto = false;
  if (shredding) column.type->shredding = std::make_shared<const parquet::VariantShredding>(std::move(*shredding));
}

CopyColumn* CopyLayout::FindColumn(std::string_view name) {
  const auto found = column_index_.find(parquet::AsciiLowercase(std::string(name)));
  return found == column_index_.end() ? nullptr : &columns_[found->second];
}

CopyColumn& CopyLayout::DataColumn(const std::string& option, const std::string& name) {
  CopyColumn* column = FindColumn(name);
  if (column == nullptr) throw CopyError(option + ": the query has no column named " + name);
  if (column->is_partition) throw CopyError(option + ": " + name + " is a partition column (not stored in the files)");
  return *column;
}

void CopyLayout::ResolveColumnOptions() {
  for (const std::string& name : settings_.partition_by) {
    CopyColumn* column = FindColumn(name);
    if (column == nullptr) throw CopyError("partition_by: the query has no column named " + name);
    if (column->is_partition) throw CopyError("partition_by: " + name + " is named twice");
    column->is_partition = true;
    partition_columns_.push_back(column->result_index);
  }
  for (CopyColumn& column : columns_) {
    if (!column.is_partition) data_columns_.push_back(&column);
  }
  if (data_columns_.empty()) throw CopyError("partition_by: no column is left to write into the files");
  for (const CopyField& field : settings_.schema) {
    CopyColumn* column = FindColumn(field.name);
    if (column == nullptr) throw CopyError("schema: the query has no column named " + field.name);
    column->type = field.type;
  }
  for (const CopySettings::GeoColumn& geo : settings_.geo_columns) {
    CopyColumn& column = DataColumn(geo.kind == CopyKind::kGeometry ? "geometry" : "geography", geo.name);
    CopyType type;
    type.kind = geo.kind;
    type.crs = geo.crs;
    type.edges = geo.edges;
    column.type = type;
  }
  for (const std::string& name : settings_.variant_columns) DataColumn("variant", name).type = VariantType();
  ResolveShredding();
  for (const CopySettings::ColumnCompression& entry : settings_.codecs) {
    DataColumn(entry.codec ? "compression." + entry.name : "compression_level." + entry.name, entry.name);
  }
  for (const auto& [name, encoding] : settings_.encodings) DataColumn("encoding." + name, name);
  for (const std::string& name : settings_.bloom_columns) DataColumn("bloom_filter", name);
  for (const SortingSpec& spec : settings_.sorting) DataColumn("sorting_columns", spec.name);
}

void CopyLayout::Resolve(const std::vector<unsigned>& seen) {
  if (resolved_) return;
  int leaf = 0;
  std::vector<parquet::SchemaElement> elements(1);
  elements[0].name = "schema";
  elements[0].num_children = static_cast<int32_t>(data_columns_.size());
  int32_t next_field_id = 1;
  using Version = CopySettings::GeoParquetVersion;
  const Version version = settings_.geoparquet_version;
  parquet::GeoParquetOptions geoparquet;
  if (version == Version::kV1 || version == Version::kBoth) geoparquet.version = "1.0.0";
  if (version == Version::kV2) geoparquet.version = "2.0.0";
  for (size_t i = 0; i < data_columns_.size(); ++i) {
    CopyColumn& column = *data_columns_[i];
    if (!column.type) column.type = TypeFromStorageClasses(seen[i]);
    if (column.type->kind == CopyKind::kGeometry || column.type->kind == CopyKind::kGeography) {
      const bool spherical = column.type->kind == CopyKind::kGeography;
      if (spherical && version != Version::kNone &&
          column.type->edges != parquet::EdgeInterpolationAlgorithm::SPHERICAL) {
        throw CopyError("geography: column " + column.name +
                        ": GeoParquet metadata knows only spherical edges (use geoparquet_version=none)");
      }
      column.type->plain_wkb = version == Version::kV1;
      geoparquet.columns.push_back(parquet::GeoParquetColumn{leaf, column.name, column.type->crs, spherical});
    }
    column.first_leaf = leaf;
    leaf += LeafCount(*column.type);
    CopyField field;
    field.name = column.name;
    field.type = *column.type;
    AppendSchemaElements(field, settings_.field_ids ? &next_field_id : nullptr, &elements);
  }
  schema_ = std::move(elements);
  leaf_types_.clear();
  for (const CopyColumn* column : data_columns_) CollectLeafTypes(*column->type);
  writer_ = settings_.writer;
  writer_.start_writeback = true;  // the output is fsynced at the end (StagedOutput::Commit)
  if (!geoparquet.version.empty()) writer_.geoparquet = std::move(geoparquet);
  ResolveEncodings();
  ResolveCompression();
  ResolveBloomFilters(leaf);
  ResolveSorting();
  resolved_ = true;
}

void CopyLayout::CollectLeafTypes(const CopyType& type) {
  if (!type.is_nested()) {
    leaf_types_.push_back(PhysicalTypeOf(type));
    return;
  }
  if (type.kind == CopyKind::kVariant) {
    for (const parquet::VariantLeaf& leaf : parquet::VariantLeaves(type.shredding.get())) leaf_types_.push_back(leaf.physical_type);
    return;
  }
  for (const CopyField& child : type.children) CollectLeafTypes(child.type);
}

// encoding.COL: every leaf of the column the encoding applies to; an error when it applies
// to none.
void CopyLayout::ResolveEncodings() {
  for (const auto& [name, encoding] : settings_.encodings) {
    const CopyColumn& column = DataColumn("encoding." + name, name);
    const int count = LeafCount(*column.type);
    bool applied = false;
    for (int l = column.first_leaf; l < column.first_leaf + count; ++l) {
      if (parquet::EncodingApplies(encoding, leaf_types_[static_cast<size_t>(l)])) {
        writer_.column_encoding[l] = encoding;
        applied = true;
      }
    }
    if (!applied) {
      throw CopyError("encoding." + name + ": " + parquet::AsciiLowercase(parquet::ToString(encoding)) +
                      " does not apply to column " + column.name + " (" + DescribeCopyType(*column.type) + ")");
    }
  }
}

// compression.COL and compression_level.COL: the codec and level of every leaf of the column.
void CopyLayout::ResolveCompression() {
  for (const CopySettings::ColumnCompression& entry : settings_.codecs) {
    const CopyColumn& column = DataColumn("compression." + entry.name, entry.name);
    parquet::WriterOptions::ColumnCompression compression;
    compression.codec = entry.codec.value_or(writer_.codec);
    // Without its own level, a column with the file's codec keeps the file's level.
    compression.level = entry.level ? entry.level
                        : compression.codec == writer_.codec ? writer_.compression_level
                                                             : std::nullopt;
    for (int l = column.first_leaf; l < column.first_leaf + LeafCount(*column.type); ++l) {
      writer_.column_compression[l] = compression;
    }
  }
}

// bloom_filter=*: every leaf; bloom_filter=COL,...: every leaf of those columns, once each.
void CopyLayout::ResolveBloomFilters(int num_leaves) {
  std::vector<int>& leaves = writer_.bloom_filter_columns;
  leaves.clear();
  if (settings_.bloom_all) {
    for (int l = 0; l < num_leaves; ++l) leaves.push_back(l);
    return;
  }
  for (const std::string& name : settings_.bloom_columns) {
    const CopyColumn& column = DataColumn("bloom_filter", name);
    for (int l = column.first_leaf; l < column.first_leaf + LeafCount(*column.type); ++l) {
      if (std::find(leaves.begin(), leaves.end(), l) == leaves.end()) leaves.push_back(l);
    }
  }
}

// sorting_columns: a sort key and a RowGroup.sorting_columns entry per column; a nested
// column, or one whose type has no order in Parquet, is an error.
void CopyLayout::ResolveSorting() {
  writer_.sorting_columns.clear();
  sort_keys_.clear();
  sort_columns_.clear();
  const parquet::Schema schema = settings_.sorting.empty() ? parquet::Schema() : parquet::Schema::FromElements(schema_);
  for (const SortingSpec& spec : settings_.sorting) {
    const CopyColumn& column = DataColumn("sorting_columns", spec.name);
    if (column.type->is_nested()) {
      throw CopyError("sorting_columns: " + column.name + " is a nested column (" + DescribeCopyType(*column.type) + ")");
    }
    const parquet::SchemaNode& leaf_node = schema.node(schema.column(column.first_leaf).node);
    SortKey key;
    key.name = column.name;
    key.comparison = parquet::TypeDefinedComparison(leaf_node);
    key.float16 = leaf_node.logical_type && leaf_node.logical_type->kind == parquet::LogicalType::Kind::FLOAT16;
    key.descending = spec.descending;
    key.nulls_first = spec.nulls_first;
    if (key.comparison == parquet::ValueComparison::kNone) {
      throw CopyError("sorting_columns: column " + column.name + " (" + DescribeCopyType(*column.type) +
                      ") has no sort order in Parquet");
    }
    sort_keys_.push_back(key);
    sort_columns_.push_back(
        static_cast<size_t>(std::find(data_columns_.begin(), data_columns_.end(), &column) - data_columns_.begin()));
    parquet::SortingColumn sorting;
    sorting.column_idx = column.first_leaf;
    sorting.descending = spec.descending;
    sorting.nulls_first = spec.nulls_first;
    writer_.sorting_columns.push_back(sorting);
  }
}

}  // namespace sqlite_parquet
