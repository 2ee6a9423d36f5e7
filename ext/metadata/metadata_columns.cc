// The column values of the metadata functions' rows (metadata_cursor.h): the text forms of
// Parquet's enums and logical types, statistics as SQLite values, and one producer per
// function that reads the cursor's current file and row.
#include "ext/metadata/metadata_cursor.h"

#include <cstring>
#include <string_view>

namespace sqlite_parquet::metadata {

// ---- Text forms ------------------------------------------------------------------------

const char* TimeUnitName(parquet::TimeUnit unit) {
  switch (unit) {
    case parquet::TimeUnit::MILLIS: return "MILLIS";
    case parquet::TimeUnit::MICROS: return "MICROS";
    case parquet::TimeUnit::NANOS: return "NANOS";
  }
  return "UNKNOWN";
}

const char* EdgeAlgorithmName(parquet::EdgeInterpolationAlgorithm algorithm) {
  switch (algorithm) {
    case parquet::EdgeInterpolationAlgorithm::SPHERICAL: return "SPHERICAL";
    case parquet::EdgeInterpolationAlgorithm::VINCENTY: return "VINCENTY";
    case parquet::EdgeInterpolationAlgorithm::THOMAS: return "THOMAS";
    case parquet::EdgeInterpolationAlgorithm::ANDOYER: return "ANDOYER";
    case parquet::EdgeInterpolationAlgorithm::KARNEY: return "KARNEY";
  }
  return "UNKNOWN";
}

// The LogicalType union as text, named after the thrift structs:
// "TimestampType(isAdjustedToUTC=1, unit=MICROS)", "DecimalType(scale=2, precision=10)".
std::string LogicalTypeText(const parquet::LogicalType& t) {
  using Kind = parquet::LogicalType::Kind;
  switch (t.kind) {
    case Kind::STRING: return "StringType()";
    case Kind::MAP: return "MapType()";
    case Kind::LIST: return "ListType()";
    case Kind::ENUM: return "EnumType()";
    case Kind::DECIMAL:
      return "DecimalType(scale=" + std::to_string(t.decimal_scale) + ", precision=" +
             std::to_string(t.decimal_precision) + ")";
    case Kind::DATE: return "DateType()";
    case Kind::TIME:
      return std::string("TimeType(isAdjustedToUTC=") + (t.is_adjusted_to_utc ? "1" : "0") +
             ", unit=" + TimeUnitName(t.time_unit) + ")";
    case Kind::TIMESTAMP:
      return std::string("TimestampType(isAdjustedToUTC=") + (t.is_adjusted_to_utc ? "1" : "0") +
             ", unit=" + TimeUnitName(t.time_unit) + ")";
    case Kind::INTEGER:
      return "IntType(bitWidth=" + std::to_string(t.int_bit_width) + ", isSigned=" + (t.int_is_signed ? "1" : "0") + ")";
    case Kind::UNKNOWN: return "NullType()";
    case Kind::JSON: return "JsonType()";
    case Kind::BSON: return "BsonType()";
    case Kind::UUID: return "UUIDType()";
    case Kind::FLOAT16: return "Float16Type()";
    case Kind::VARIANT:
      if (t.variant_specification_version.has_value()) {
        return "VariantType(specification_version=" + std::to_string(*t.variant_specification_version) + ")";
      }
      return "VariantType()";
    case Kind::GEOMETRY:
    case Kind::GEOGRAPHY: {
      std::string text = t.kind == Kind::GEOMETRY ? "GeometryType(" : "GeographyType(";
      bool first = true;
      if (t.crs.has_value()) {
        text += "crs=" + *t.crs;
        first = false;
      }
      if (t.edge_algorithm.has_value()) {
        text += std::string(first ? "" : ", ") + "algorithm=" + EdgeAlgorithmName(*t.edge_algorithm);
      }
      return text + ")";
    }
    case Kind::VECTOR: return "VectorType()";
    case Kind::UNRECOGNIZED: break;
  }
  return "unrecognized";
}

const char* EncryptionAlgorithmName(const parquet::EncryptionAlgorithm& algorithm) {
  switch (algorithm.kind) {
    case parquet::EncryptionAlgorithm::Kind::AES_GCM_V1: return "AES_GCM_V1";
    case parquet::EncryptionAlgorithm::Kind::AES_GCM_CTR_V1: return "AES_GCM_CTR_V1";
    case parquet::EncryptionAlgorithm::Kind::UNRECOGNIZED: break;
  }
  return "unrecognized";
}

const char* ColumnOrderName(const parquet::ColumnOrder& order) {
  switch (order.kind) {
    case parquet::ColumnOrder::Kind::TYPE_DEFINED_ORDER: return "TYPE_DEFINED_ORDER";
    case parquet::ColumnOrder::Kind::IEEE_754_TOTAL_ORDER: return "IEEE_754_TOTAL_ORDER";
    case parquet::ColumnOrder::Kind::INT96_TIMESTAMP_ORDER: return "INT96_TIMESTAMP_ORDER";
    case parquet::ColumnOrder::Kind::UNRECOGNIZED: break;
  }
  return "unrecognized";
}

// ---- Results ---------------------------------------------------------------------------

void ResultText(sqlite3_context* ctx, const std::string& text) {
  sqlite3_result_text64(ctx, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

void ColumnOut::Keep(SqlValue value) {
  value_ = value;
  if (value.type == SqlValue::Type::kText || value.type == SqlValue::Type::kBlob) {
    bytes_.assign(value.bytes.data(), value.bytes.size());
    value_.bytes = bytes_;
    value_.terminated = false;
  }
}

void ColumnOut::Null() {
  if (ctx_) {
    sqlite3_result_null(ctx_);
  } else {
    Keep(SqlValue::Null());
  }
}

void ColumnOut::Integer(int64_t value) {
  if (ctx_) {
    sqlite3_result_int64(ctx_, static_cast<sqlite3_int64>(value));
  } else {
    Keep(SqlValue::Integer(value));
  }
}

void ColumnOut::Text(const std::string& text) {
  if (ctx_) {
    ResultText(ctx_, text);
  } else {
    Keep(SqlValue::Text(text));
  }
}

void ColumnOut::Blob(const std::string& bytes) {
  if (!ctx_) {
    Keep(SqlValue::Blob(bytes));
  } else if (bytes.empty()) {
    sqlite3_result_zeroblob(ctx_, 0);
  } else {
    sqlite3_result_blob64(ctx_, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
  }
}

void ColumnOut::MarkJson() {
  if (ctx_) sqlite3_result_subtype(ctx_, kJsonSubtype);
}

void ColumnOut::Parquet(const ColumnMapping& mapping, const ParquetValue& value, FormatBuffer* buffer) {
  if (ctx_) {
    ResultParquetValue(ctx_, mapping, value, buffer);
    return;
  }
  SqlValue converted;
  if (!ToSqlValue(mapping, value, buffer, &converted)) throw parquet::ParquetError(kTimestampRangeError);
  Keep(converted);
}

namespace {

void ResultText(ColumnOut* out, const std::string& text) { out->Text(text); }
void ResultBlob(ColumnOut* out, const std::string& bytes) { out->Blob(bytes); }

// TEXT when valid UTF-8, else BLOB.
void ResultTextOrBlob(ColumnOut* ctx, const std::string& bytes) {
  if (parquet::IsValidUtf8(bytes)) {
    ResultText(ctx, bytes);
  } else {
    ResultBlob(ctx, bytes);
  }
}

template <typename T>
void ResultOptionalInt(ColumnOut* ctx, const std::optional<T>& value) {
  if (value.has_value()) {
    ctx->Integer(static_cast<int64_t>(*value));
  } else {
    ctx->Null();
  }
}

void ResultOptionalBool(ColumnOut* ctx, const std::optional<bool>& value) {
  if (value.has_value()) {
    ctx->Integer(*value ? 1 : 0);
  } else {
    ctx->Null();
  }
}

// A decoded statistics value as a SQLite value, converted as the column's values are.
void ResultStatisticsValue(ColumnOut* ctx, const LeafInfo& leaf, const parquet::StatisticsValue& value,
                           const std::string& raw, FormatBuffer* buffer) {
  const ColumnMapping& m = leaf.mapping;
  if (m.kind == ValueKind::kNull || m.kind == ValueKind::kNested) {
    ResultBlob(ctx, raw);
    return;
  }
  ParquetValue parquet_value;
  if (!StatisticsParquetValue(m, value, &parquet_value)) {
    ResultBlob(ctx, value.bytes);
    return;
  }
  ctx->Parquet(m, parquet_value, buffer);
}

// A raw statistics field: NULL when absent, the decoded value, or its bytes as a BLOB.
void ResultRawStatistics(ColumnOut* ctx, const LeafInfo& leaf, const std::optional<std::string>& raw,
                         FormatBuffer* buffer) {
  if (!raw.has_value()) {
    ctx->Null();
    return;
  }
  parquet::StatisticsValue value;
  if (!parquet::DecodeStatisticsValue(*raw, leaf.context, &value)) {
    ResultBlob(ctx, *raw);
    return;
  }
  ResultStatisticsValue(ctx, leaf, value, *raw, buffer);
}

void ResultBound(ColumnOut* ctx, const LeafInfo& leaf, const std::optional<parquet::StatisticsBound>& bound,
                 FormatBuffer* buffer) {
  if (!bound.has_value()) {
    ctx->Null();
    return;
  }
  ResultStatisticsValue(ctx, leaf, bound->value, bound->value.bytes, buffer);
}

}  // namespace

// ---- Columns ---------------------------------------------------------------------------

void MetadataColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column) {
  const OpenFile& file = cursor->file;
  const parquet::ParquetFileReader& reader = *file.reader;
  const int num_columns = reader.schema().num_columns();
  const int rg_index = static_cast<int>(cursor->row / num_columns);
  const int col = static_cast<int>(cursor->row % num_columns);
  const parquet::RowGroup& rg = reader.row_group(rg_index);
  const parquet::ColumnChunk& chunk = rg.columns[static_cast<size_t>(col)];
  const parquet::ColumnMetaData* meta = chunk.meta_data.has_value() ? &*chunk.meta_data : nullptr;
  const parquet::Statistics* stats = meta && meta->statistics.has_value() ? &*meta->statistics : nullptr;
  const LeafInfo& leaf = file.leaves[static_cast<size_t>(col)];
  const parquet::ColumnDescriptor& descriptor = reader.schema().column(col);

  auto decoded = [&]() { return parquet::DecodeStatistics(*stats, leaf.context); };
  switch (column) {
    case kMdFileName: ResultText(ctx, file.name); return;
    case kMdRowGroupId: ctx->Integer(rg_index); return;
    case kMdRowGroupNumRows: ctx->Integer(rg.num_rows); return;
    case kMdRowGroupNumColumns: ctx->Integer(static_cast<sqlite3_int64>(rg.columns.size())); return;
    case kMdRowGroupBytes: ctx->Integer(rg.total_byte_size); return;
    case kMdColumnId: ctx->Integer(col); return;
    case kMdFileOffset: ctx->Integer(chunk.file_offset); return;
    case kMdPathInSchema: ResultText(ctx, descriptor.dotted_path); return;
    case kMdType: ResultText(ctx, parquet::ToString(descriptor.physical_type)); return;
    case kMdRowGroupCompressedBytes: ResultOptionalInt(ctx, rg.total_compressed_size); return;
    case kMdStatsSortOrder: ResultText(ctx, parquet::ToString(leaf.context.sort_order)); return;
    case kMdColumnIndexOffset: ResultOptionalInt(ctx, chunk.column_index_offset); return;
    case kMdColumnIndexLength: ResultOptionalInt(ctx, chunk.column_index_length); return;
    case kMdOffsetIndexOffset: ResultOptionalInt(ctx, chunk.offset_index_offset); return;
    case kMdOffsetIndexLength: ResultOptionalInt(ctx, chunk.offset_index_length); return;
    case kMdRowGroupSortingColumns: {
      if (!rg.sorting_columns.has_value()) {
        ctx->Null();
        return;
      }
      std::string text;
      for (const parquet::SortingColumn& sc : *rg.sorting_columns) {
        if (!text.empty()) text += ", ";
        if (sc.column_idx >= 0 && sc.column_idx < num_columns) {
          text += reader.schema().column(sc.column_idx).dotted_path;
        } else {
          text += "column " + std::to_string(sc.column_idx);
        }
        text += sc.descending ? " DESC" : " ASC";
        text += sc.nulls_first ? " NULLS FIRST" : " NULLS LAST";
      }
      ResultText(ctx, text);
      return;
    }
    default: break;
  }
  // The rest comes from the column metadata, absent for some encrypted columns.
  if (meta == nullptr) {
    ctx->Null();
    return;
  }
  switch (column) {
    case kMdNumValues: ctx->Integer(meta->num_values); return;
    case kMdCompression: ResultText(ctx, parquet::ToString(meta->codec)); return;
    case kMdEncodings: {
      std::string text;
      for (size_t i = 0; i < meta->encodings.size(); i++) {
        if (i) text += ", ";
        text += parquet::ToString(meta->encodings[i]);
      }
      ResultText(ctx, text);
      return;
    }
    case kMdIndexPageOffset: ResultOptionalInt(ctx, meta->index_page_offset); return;
    case kMdDictionaryPageOffset: ResultOptionalInt(ctx, meta->dictionary_page_offset); return;
    case kMdDataPageOffset: ctx->Integer(meta->data_page_offset); return;
    case kMdTotalCompressedSize: ctx->Integer(meta->total_compressed_size); return;
    case kMdTotalUncompressedSize: ctx->Integer(meta->total_uncompressed_size); return;
    case kMdKeyValueMetadata: {
      if (!meta->key_value_metadata.has_value()) {
        ctx->Null();
        return;
      }
      std::string json = "{";
      for (size_t i = 0; i < meta->key_value_metadata->size(); i++) {
        const parquet::KeyValue& kv = (*meta->key_value_metadata)[i];
        if (i) json += ",";
        parquet::AppendJsonString(parquet::WithInvalidUtf8Replaced(kv.key), &json);
        json += ":";
        if (kv.value.has_value()) {
          parquet::AppendJsonString(parquet::WithInvalidUtf8Replaced(*kv.value), &json);
        } else {
          json += "null";
        }
      }
      json += "}";
      ResultText(ctx, json);
      ctx->MarkJson();
      return;
    }
    case kMdGeoBbox: {
      if (!meta->geospatial_statistics || !meta->geospatial_statistics->bbox) {
        ctx->Null();
        return;
      }
      const parquet::BoundingBox& box = *meta->geospatial_statistics->bbox;
      std::string json = "{";
      auto member = [&json](const char* name, double value) {
        if (json.size() > 1) json += ',';
        json += '"';
        json += name;
        json += "\":";
        parquet::AppendJsonDouble(value, &json);
      };
      member("xmin", box.xmin);
      member("xmax", box.xmax);
      member("ymin", box.ymin);
      member("ymax", box.ymax);
      if (box.zmin && box.zmax) member("zmin", *box.zmin), member("zmax", *box.zmax);
      if (box.mmin && box.mmax) member("mmin", *box.mmin), member("mmax", *box.mmax);
      json += '}';
      ResultText(ctx, json);
      ctx->MarkJson();
      return;
    }
    case kMdGeoTypes: {
      if (!meta->geospatial_statistics || !meta->geospatial_statistics->geospatial_types) {
        ctx->Null();
        return;
      }
      std::string json = "[";
      for (int32_t code : *meta->geospatial_statistics->geospatial_types) {
        if (json.size() > 1) json += ',';
        json += std::to_string(code);
      }
      json += ']';
      ResultText(ctx, json);
      ctx->MarkJson();
      return;
    }
    case kMdBloomFilterOffset: ResultOptionalInt(ctx, meta->bloom_filter_offset); return;
    case kMdBloomFilterLength: ResultOptionalInt(ctx, meta->bloom_filter_length); return;
    default: break;
  }
  if (stats == nullptr) {
    ctx->Null();
    return;
  }
  switch (column) {
    case kMdStatsMin: ResultRawStatistics(ctx, leaf, stats->min, &cursor->format_buffer); return;
    case kMdStatsMax: ResultRawStatistics(ctx, leaf, stats->max, &cursor->format_buffer); return;
    case kMdStatsMinValue: ResultRawStatistics(ctx, leaf, stats->min_value, &cursor->format_buffer); return;
    case kMdStatsMaxValue: ResultRawStatistics(ctx, leaf, stats->max_value, &cursor->format_buffer); return;
    case kMdStatsNullCount: ResultOptionalInt(ctx, stats->null_count); return;
    case kMdStatsDistinctCount: ResultOptionalInt(ctx, stats->distinct_count); return;
    case kMdStatsNanCount: ResultOptionalInt(ctx, stats->nan_count); return;
    case kMdMinIsExact: ResultOptionalBool(ctx, stats->is_min_value_exact); return;
    case kMdMaxIsExact: ResultOptionalBool(ctx, stats->is_max_value_exact); return;
    case kMdStatsLowerBound: ResultBound(ctx, leaf, decoded().min, &cursor->format_buffer); return;
    case kMdStatsUpperBound: ResultBound(ctx, leaf, decoded().max, &cursor->format_buffer); return;
    default: break;
  }
  ctx->Null();
}

void SchemaColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column) {
  const OpenFile& file = cursor->file;
  const size_t index = static_cast<size_t>(cursor->row);
  const parquet::SchemaElement& e = file.reader->metadata().schema[index];
  switch (column) {
    case kScFileName: ResultText(ctx, file.name); return;
    case kScName: ResultTextOrBlob(ctx, e.name); return;
    case kScType:
      if (e.type.has_value()) {
        ResultText(ctx, parquet::ToString(*e.type));
      } else {
        ctx->Null();
      }
      return;
    case kScTypeLength: ResultOptionalInt(ctx, e.type_length); return;
    case kScRepetitionType:
      if (e.repetition_type.has_value()) {
        ResultText(ctx, parquet::ToString(*e.repetition_type));
      } else {
        ctx->Null();
      }
      return;
    case kScNumChildren: ResultOptionalInt(ctx, e.num_children); return;
    case kScConvertedType:
      if (e.converted_type.has_value()) {
        ResultText(ctx, parquet::ToString(*e.converted_type));
      } else {
        ctx->Null();
      }
      return;
    case kScScale: ResultOptionalInt(ctx, e.scale); return;
    case kScPrecision: ResultOptionalInt(ctx, e.precision); return;
    case kScFieldId: ResultOptionalInt(ctx, e.field_id); return;
    case kScLogicalType:
      if (e.logical_type.has_value()) {
        ResultText(ctx, LogicalTypeText(*e.logical_type));
      } else {
        ctx->Null();
      }
      return;
    case kScSqliteType: {
      const int field = file.top_level_field_of[index];
      if (field < 0) {
        ctx->Null();
      } else {
        ResultText(ctx, file.sqlite_types[static_cast<size_t>(field)]);
      }
      return;
    }
    case kScColumnId: {
      const parquet::SchemaNode& node = file.reader->schema().node(static_cast<int>(index));
      if (node.leaf_index >= 0) {
        ctx->Integer(node.leaf_index);
      } else {
        ctx->Null();
      }
      return;
    }
    default: break;
  }
  ctx->Null();
}

void FileMetadataColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column) {
  const OpenFile& file = cursor->file;
  switch (column) {
    case kFmFileName: ResultText(ctx, file.name); return;
    case kFmFileSizeBytes: ctx->Integer(static_cast<sqlite3_int64>(file.file_size)); return;
    case kFmFooterSize: ctx->Integer(file.footer_length); return;
    case kFmFooterEncrypted: ctx->Integer(!file.reader || file.reader->footer_encrypted() ? 1 : 0); return;
    default: break;
  }
  if (!file.reader) {
    if (column == kFmEncryptionAlgorithm && file.crypto.has_value()) {
      ResultText(ctx, EncryptionAlgorithmName(file.crypto->encryption_algorithm));
    } else {
      ctx->Null();
    }
    return;
  }
  const parquet::FileMetaData& m = file.reader->metadata();
  switch (column) {
    case kFmCreatedBy:
      if (m.created_by.has_value()) {
        ResultTextOrBlob(ctx, *m.created_by);
      } else {
        ctx->Null();
      }
      return;
    case kFmNumRows: ctx->Integer(m.num_rows); return;
    case kFmNumRowGroups: ctx->Integer(static_cast<sqlite3_int64>(m.row_groups.size())); return;
    case kFmFormatVersion: ctx->Integer(m.version); return;
    case kFmEncryptionAlgorithm:
      if (file.reader->encryption_algorithm().has_value()) {  // also for a decrypted PARE footer
        ResultText(ctx, EncryptionAlgorithmName(*file.reader->encryption_algorithm()));
      } else {
        ctx->Null();
      }
      return;
    case kFmFooterSigningKeyMetadata:
      if (m.footer_signing_key_metadata.has_value()) {
        ResultBlob(ctx, *m.footer_signing_key_metadata);
      } else {
        ctx->Null();
      }
      return;
    case kFmColumnOrders: {
      if (!m.column_orders.has_value()) {
        ctx->Null();
        return;
      }
      std::string text;
      for (size_t i = 0; i < m.column_orders->size(); i++) {
        if (i) text += ", ";
        text += ColumnOrderName((*m.column_orders)[i]);
      }
      ResultText(ctx, text);
      return;
    }
    default: break;
  }
  ctx->Null();
}

void KvColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column) {
  const OpenFile& file = cursor->file;
  const parquet::KeyValue& kv = (*file.reader->metadata().key_value_metadata)[static_cast<size_t>(cursor->row)];
  switch (column) {
    case 0: ResultText(ctx, file.name); return;
    case 1: ResultTextOrBlob(ctx, kv.key); return;
    case 2:
      if (kv.value.has_value()) {
        ResultTextOrBlob(ctx, *kv.value);
      } else {
        ctx->Null();
      }
      return;
    default: break;
  }
  ctx->Null();
}

void BloomProbeColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column) {
  const OpenFile& file = cursor->file;
  const int row_group = static_cast<int>(cursor->row);
  switch (column) {
    case 0: ResultText(ctx, file.name); return;
    case 1: ctx->Integer(row_group); return;
    case 2: {
      const int leaf = file.probe_mapping.leaf_column;
      const parquet::ColumnChunk& chunk = file.reader->row_group(row_group).columns[static_cast<size_t>(leaf)];
      std::optional<parquet::BloomFilter> bloom;
      if (chunk.meta_data.has_value() && chunk.meta_data->bloom_filter_offset.has_value()) {
        bloom = parquet::ReadBloomFilter(*file.reader, row_group, leaf);
      }
      if (!bloom) {
        ctx->Null();  // no filter, or one we cannot use: nothing is proved
      } else {
        ctx->Integer(BloomFilterRulesOut(*bloom, file.probe_filter, file.probe_mapping) ? 1 : 0);
      }
      return;
    }
    default: break;
  }
  ctx->Null();
}

void FullMetadataColumnValue(MetadataCursor* cursor, ColumnOut* ctx, int column) {
  const FullMetadataDocuments& d = cursor->documents[cursor->next_file - 1];
  const std::string* document = nullptr;
  switch (column) {
    case 0: ResultText(ctx, cursor->file.name); return;
    case 1: document = &d.file_metadata; break;
    case 2: document = &d.schema; break;
    case 3: document = &d.row_groups; break;
    case 4: document = &d.key_value_metadata; break;
    default: ctx->Null(); return;
  }
  ResultText(ctx, *document);
  ctx->MarkJson();
}

}  // namespace sqlite_parquet::metadata
