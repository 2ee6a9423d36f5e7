// Apache Iceberg manifest lists, manifests and scan planning (iceberg_manifest.h).
#include "format/lake/iceberg_manifest.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "format/common/error.h"
#include "format/lake/avro.h"

namespace parquet::lake {

namespace {

// A field read by its Iceberg field id, else by name (writers that left ids out).
int32_t Find(const AvroFileReader& r, int32_t record, int32_t id, const char* name) {
  int32_t v = r.FieldById(record, id);
  if (v < 0) v = r.Field(record, name);
  return v;
}

std::optional<int64_t> OptionalLong(const AvroFileReader& r, int32_t v, const char* what) {
  if (r.IsNull(v)) return std::nullopt;
  return r.Long(v, what);
}

int64_t LongOr(const AvroFileReader& r, int32_t v, const char* what, int64_t fallback) {
  if (r.IsNull(v)) return fallback;
  return r.Long(v, what);
}

// An Iceberg map stored as an Avro array of {key, value} records (or an Avro map with
// string keys): calls f(key, value node) for each entry.
template <typename F>
void ForEachIntKeyed(const AvroFileReader& r, int32_t v, const char* what, F f) {
  if (r.IsNull(v)) return;
  const AvroValue& m = r.value(v);
  if (m.kind == AvroKind::kArray) {
    for (int32_t item = m.first_child; item >= 0; item = r.value(item).next_sibling) {
      const int64_t key = r.Long(r.Field(item, "key"), what);
      if (key < INT32_MIN || key > INT32_MAX) throw ParquetError("Avro file '" + r.name() + "': " + what + " key out of range");
      f(static_cast<int32_t>(key), r.Field(item, "value"));
    }
  } else if (m.kind == AvroKind::kMap) {
    for (int32_t key = m.first_child; key >= 0;) {
      const int32_t value = r.value(key).next_sibling;
      if (value < 0) break;
      const std::string text(r.value(key).bytes);
      char* end = nullptr;
      const long parsed = std::strtol(text.c_str(), &end, 10);
      if (end == text.c_str() || *end != '\0' || parsed < INT32_MIN || parsed > INT32_MAX) {
        throw ParquetError("Avro file '" + r.name() + "': " + what + " has a key that is not a field id");
      }
      f(static_cast<int32_t>(parsed), value);
      key = r.value(value).next_sibling;
    }
  } else {
    throw ParquetError("Avro file '" + r.name() + "': " + what + " is not a map");
  }
}

// A partition value of the manifest's partition record.
IcebergValue PartitionValue(const AvroFileReader& r, int32_t v) {
  IcebergValue out;
  if (r.IsNull(v)) return out;
  const AvroValue& x = r.value(v);
  const AvroSchemaNode& schema = r.schema().node(x.schema);
  switch (x.kind) {
    case AvroKind::kBoolean:
    case AvroKind::kInt:
    case AvroKind::kLong:
    case AvroKind::kEnum:
      out.kind = IcebergValue::Kind::kInteger;
      out.integer = x.i;
      break;
    case AvroKind::kFloat:
    case AvroKind::kDouble:
      out.kind = IcebergValue::Kind::kFloat;
      out.real = x.d;
      break;
    case AvroKind::kBytes:
    case AvroKind::kString:
    case AvroKind::kFixed:
      if (schema.logical_type == "decimal") return DecodeIcebergBound("decimal(38,0)", x.bytes);
      out.kind = IcebergValue::Kind::kBytes;
      out.bytes.assign(x.bytes);
      break;
    default:
      throw ParquetError("Avro file '" + r.name() + "': a partition value is a " + AvroKindName(x.kind));
  }
  return out;
}

std::string PartitionKey(int32_t spec_id, const std::vector<IcebergValue>& values) {
  std::string key = std::to_string(spec_id);
  for (const IcebergValue& v : values) {
    key += '|';
    key += static_cast<char>('0' + static_cast<int>(v.kind));
    switch (v.kind) {
      case IcebergValue::Kind::kNull: break;
      case IcebergValue::Kind::kInteger: key += std::to_string(v.integer); break;
      case IcebergValue::Kind::kFloat: {
        double d = v.real;
        if (d != d) d = __builtin_nan("");
        uint64_t bits;
        std::memcpy(&bits, &d, 8);
        key += std::to_string(bits);
        break;
      }
      case IcebergValue::Kind::kBytes:
        key += std::to_string(v.bytes.size());
        key += ':';
        key += v.bytes;
        break;
    }
  }
  return key;
}

}  // namespace

const std::string* IcebergDataFile::LowerBound(int32_t field_id) const {
  for (const auto& b : lower_bounds) {
    if (b.first == field_id) return &b.second;
  }
  return nullptr;
}

const std::string* IcebergDataFile::UpperBound(int32_t field_id) const {
  for (const auto& b : upper_bounds) {
    if (b.first == field_id) return &b.second;
  }
  return nullptr;
}

std::optional<int64_t> IcebergDataFile::NullCount(int32_t field_id) const {
  for (const auto& c : null_value_counts) {
    if (c.first == field_id) return c.second;
  }
  return std::nullopt;
}

std::optional<int64_t> IcebergDataFile::ValueCount(int32_t field_id) const {
  for (const auto& c : value_counts) {
    if (c.first == field_id) return c.second;
  }
  return std::nullopt;
}

std::vector<IcebergManifestFile> ReadIcebergManifestList(std::string data, const std::string& name,
                                                         int32_t format_version) {
  AvroFileReader r(std::move(data), name);
  std::vector<IcebergManifestFile> out;
  const int32_t root = r.root();
  while (r.Next()) {
    if (r.value(root).kind != AvroKind::kRecord) throw ParquetError("Avro file '" + name + "': a manifest list entry is not a record");
    IcebergManifestFile m;
    m.path = std::string(r.Bytes(Find(r, root, 500, "manifest_path"), "manifest_path"));
    m.length = LongOr(r, Find(r, root, 501, "manifest_length"), "manifest_length", 0);
    m.spec_id = static_cast<int32_t>(LongOr(r, Find(r, root, 502, "partition_spec_id"), "partition_spec_id", 0));
    m.content = static_cast<int32_t>(LongOr(r, Find(r, root, 517, "content"), "content", 0));
    if (m.content != 0 && m.content != 1) throw ParquetError("Avro file '" + name + "': manifest content " + std::to_string(m.content) + " is neither data nor deletes");
    if (format_version >= 2) {
      m.sequence_number = LongOr(r, Find(r, root, 515, "sequence_number"), "sequence_number", 0);
      m.min_sequence_number = LongOr(r, Find(r, root, 516, "min_sequence_number"), "min_sequence_number", 0);
    }
    m.added_snapshot_id = LongOr(r, Find(r, root, 503, "added_snapshot_id"), "added_snapshot_id", 0);
    int32_t v = r.FieldById(root, 504);
    if (v < 0) v = r.Field(root, "added_files_count");
    if (v < 0) v = r.Field(root, "added_data_files_count");
    m.added_files = LongOr(r, v, "added_files_count", -1);
    v = r.FieldById(root, 505);
    if (v < 0) v = r.Field(root, "existing_files_count");
    if (v < 0) v = r.Field(root, "existing_data_files_count");
    m.existing_files = LongOr(r, v, "existing_files_count", -1);
    v = r.FieldById(root, 506);
    if (v < 0) v = r.Field(root, "deleted_files_count");
    if (v < 0) v = r.Field(root, "deleted_data_files_count");
    m.deleted_files = LongOr(r, v, "deleted_files_count", -1);
    m.added_rows = LongOr(r, Find(r, root, 512, "added_rows_count"), "added_rows_count", -1);
    m.existing_rows = LongOr(r, Find(r, root, 513, "existing_rows_count"), "existing_rows_count", -1);
    m.deleted_rows = LongOr(r, Find(r, root, 514, "deleted_rows_count"), "deleted_rows_count", -1);
    m.first_row_id = OptionalLong(r, Find(r, root, 520, "first_row_id"), "first_row_id");
    const int32_t partitions = Find(r, root, 507, "partitions");
    if (!r.IsNull(partitions)) {
      if (r.value(partitions).kind != AvroKind::kArray) throw ParquetError("Avro file '" + name + "': partitions is not an array");
      for (int32_t s = r.value(partitions).first_child; s >= 0; s = r.value(s).next_sibling) {
        IcebergFieldSummary summary;
        const int32_t cn = Find(r, s, 509, "contains_null");
        summary.contains_null = r.IsNull(cn) ? true : r.value(cn).i != 0;
        const int32_t nan = Find(r, s, 518, "contains_nan");
        if (!r.IsNull(nan)) summary.contains_nan = r.value(nan).i != 0;
        const int32_t lower = Find(r, s, 510, "lower_bound");
        if (!r.IsNull(lower)) summary.lower_bound = std::string(r.Bytes(lower, "lower_bound"));
        const int32_t upper = Find(r, s, 511, "upper_bound");
        if (!r.IsNull(upper)) summary.upper_bound = std::string(r.Bytes(upper, "upper_bound"));
        m.partitions.push_back(std::move(summary));
      }
    }
    out.push_back(std::move(m));
  }
  return out;
}

void ReadIcebergManifest(std::string data, const std::string& name, const IcebergManifestFile& manifest,
                         int32_t format_version, const std::function<void(IcebergDataFile&&)>& sink) {
  AvroFileReader r(std::move(data), name);
  const std::string manifest_version = r.Metadata("format-version");
  const bool v1_manifest = format_version == 1 || manifest_version == "1";
  const int32_t root = r.root();
  while (r.Next()) {
    if (r.value(root).kind != AvroKind::kRecord) throw ParquetError("Avro file '" + name + "': a manifest entry is not a record");
    IcebergDataFile f;
    const int64_t status = r.Long(Find(r, root, 0, "status"), "status");
    if (status < 0 || status > 2) throw ParquetError("Avro file '" + name + "': entry status " + std::to_string(status) + " is not 0, 1 or 2");
    f.status = static_cast<int32_t>(status);
    f.snapshot_id = LongOr(r, Find(r, root, 1, "snapshot_id"), "snapshot_id", manifest.added_snapshot_id);
    if (v1_manifest) {
      f.data_sequence_number = 0;
      f.file_sequence_number = 0;
    } else {
      // Null sequence numbers are inherited from the manifest list (ADDED entries written
      // before the commit assigned one).
      f.data_sequence_number = LongOr(r, Find(r, root, 3, "sequence_number"), "sequence_number", manifest.sequence_number);
      f.file_sequence_number =
          LongOr(r, Find(r, root, 4, "file_sequence_number"), "file_sequence_number", manifest.sequence_number);
    }
    const int32_t df = Find(r, root, 2, "data_file");
    if (df < 0 || r.value(df).kind != AvroKind::kRecord) throw ParquetError("Avro file '" + name + "': an entry has no data_file record");
    const int64_t content = LongOr(r, Find(r, df, 134, "content"), "content", 0);
    if (content < 0 || content > 2) throw ParquetError("Avro file '" + name + "': file content " + std::to_string(content) + " is not 0, 1 or 2");
    f.content = static_cast<IcebergContent>(content);
    if (manifest.content == 0 && f.content != IcebergContent::kData) {
      throw ParquetError("Avro file '" + name + "': a data manifest lists a delete file");
    }
    if (manifest.content == 1 && f.content == IcebergContent::kData) {
      throw ParquetError("Avro file '" + name + "': a delete manifest lists a data file");
    }
    f.path = std::string(r.Bytes(Find(r, df, 100, "file_path"), "file_path"));
    std::string format(r.Bytes(Find(r, df, 101, "file_format"), "file_format"));
    for (char& c : format) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
    f.format = std::move(format);
    f.spec_id = manifest.spec_id;
    const int32_t partition = Find(r, df, 102, "partition");
    if (partition >= 0 && r.value(partition).kind == AvroKind::kRecord) {
      for (int32_t p = r.value(partition).first_child; p >= 0; p = r.value(p).next_sibling) {
        f.partition.push_back(PartitionValue(r, p));
      }
    }
    f.record_count = r.Long(Find(r, df, 103, "record_count"), "record_count");
    f.file_size = r.Long(Find(r, df, 104, "file_size_in_bytes"), "file_size_in_bytes");
    if (f.record_count < 0 || f.file_size < 0) throw ParquetError("Avro file '" + name + "': negative record count or file size");
    ForEachIntKeyed(r, Find(r, df, 109, "value_counts"), "value_counts",
                    [&](int32_t k, int32_t v) { f.value_counts.emplace_back(k, r.Long(v, "value_counts")); });
    ForEachIntKeyed(r, Find(r, df, 110, "null_value_counts"), "null_value_counts",
                    [&](int32_t k, int32_t v) { f.null_value_counts.emplace_back(k, r.Long(v, "null_value_counts")); });
    ForEachIntKeyed(r, Find(r, df, 137, "nan_value_counts"), "nan_value_counts",
                    [&](int32_t k, int32_t v) { f.nan_value_counts.emplace_back(k, r.Long(v, "nan_value_counts")); });
    ForEachIntKeyed(r, Find(r, df, 125, "lower_bounds"), "lower_bounds",
                    [&](int32_t k, int32_t v) { f.lower_bounds.emplace_back(k, std::string(r.Bytes(v, "lower_bounds"))); });
    ForEachIntKeyed(r, Find(r, df, 128, "upper_bounds"), "upper_bounds",
                    [&](int32_t k, int32_t v) { f.upper_bounds.emplace_back(k, std::string(r.Bytes(v, "upper_bounds"))); });
    const int32_t eq = Find(r, df, 135, "equality_ids");
    if (!r.IsNull(eq)) {
      if (r.value(eq).kind != AvroKind::kArray) throw ParquetError("Avro file '" + name + "': equality_ids is not an array");
      for (int32_t e = r.value(eq).first_child; e >= 0; e = r.value(e).next_sibling) {
        const int64_t id = r.Long(e, "equality_ids");
        if (id < INT32_MIN || id > INT32_MAX) throw ParquetError("Avro file '" + name + "': equality id out of range");
        f.equality_ids.push_back(static_cast<int32_t>(id));
      }
    }
    if (f.content == IcebergContent::kEqualityDeletes && f.equality_ids.empty()) {
      throw ParquetError("Avro file '" + name + "': an equality delete file without equality_ids");
    }
    const int32_t ref = Find(r, df, 143, "referenced_data_file");
    if (!r.IsNull(ref)) f.referenced_data_file = std::string(r.Bytes(ref, "referenced_data_file"));
    f.content_offset = OptionalLong(r, Find(r, df, 144, "content_offset"), "content_offset");
    f.content_size = OptionalLong(r, Find(r, df, 145, "content_size_in_bytes"), "content_size_in_bytes");
    f.first_row_id = OptionalLong(r, Find(r, df, 142, "first_row_id"), "first_row_id");
    if (f.is_deletion_vector()) {
      if (!f.referenced_data_file || !f.content_offset || !f.content_size || *f.content_offset < 0 ||
          *f.content_size < 0) {
        throw ParquetError("Avro file '" + name + "': a deletion vector without referenced_data_file, content_offset or content_size_in_bytes");
      }
    }
    sink(std::move(f));
  }
}

bool IcebergDeleteApplies(const IcebergDataFile& data, const IcebergDataFile& del, const IcebergTableMetadata& metadata) {
  if (del.content == IcebergContent::kEqualityDeletes) {
    if (data.data_sequence_number >= del.data_sequence_number) return false;
    const IcebergPartitionSpec* spec = metadata.FindSpec(del.spec_id);
    if (spec != nullptr && spec->unpartitioned()) return true;
    return data.spec_id == del.spec_id && data.partition == del.partition;
  }
  if (del.content != IcebergContent::kPositionDeletes) return false;
  if (del.referenced_data_file && *del.referenced_data_file != data.path) return false;
  if (data.data_sequence_number > del.data_sequence_number) return false;
  return data.spec_id == del.spec_id && data.partition == del.partition;
}

IcebergScanPlan PlanIcebergScan(IcebergFileSystem& fs, const IcebergTableMetadata& metadata,
                                const IcebergSnapshot* snapshot, const IcebergPathResolver& resolver,
                                const IcebergPlanOptions& options) {
  IcebergScanPlan plan;
  plan.snapshot = snapshot;
  if (snapshot == nullptr) return plan;
  std::vector<IcebergManifestFile> manifests;
  if (!snapshot->manifest_list.empty()) {
    const std::string list_path = resolver.Resolve(snapshot->manifest_list);
    manifests = ReadIcebergManifestList(fs.Read(list_path, options.max_manifest_bytes), list_path, metadata.format_version);
  } else {
    // v1 snapshot listing its manifests: no sequence numbers, spec from each manifest.
    for (const std::string& path : snapshot->manifests) {
      IcebergManifestFile m;
      m.path = path;
      m.added_snapshot_id = snapshot->snapshot_id;
      m.spec_id = -1;
      manifests.push_back(std::move(m));
    }
  }
  std::unordered_map<std::string, size_t> seen_data;
  for (IcebergManifestFile& m : manifests) {
    const std::string path = resolver.Resolve(m.path);
    std::string bytes = fs.Read(path, options.max_manifest_bytes);
    if (m.spec_id < 0) {
      AvroFileReader header(bytes, path);
      const std::string spec = header.Metadata("partition-spec-id");
      m.spec_id = spec.empty() ? 0 : static_cast<int32_t>(std::strtol(spec.c_str(), nullptr, 10));
    }
    const IcebergPartitionSpec* spec = metadata.FindSpec(m.spec_id);
    if (m.content == 0 && options.keep_manifest && !options.keep_manifest(m, spec)) {
      ++plan.manifests_skipped;
      continue;
    }
    ++plan.manifests_read;
    const uint32_t manifest_index = static_cast<uint32_t>(plan.data_manifests.size());
    if (m.content == 0) plan.data_manifests.push_back(m);
    ReadIcebergManifest(std::move(bytes), path, m, metadata.format_version, [&](IcebergDataFile&& f) {
      if (f.status == 2) return;  // DELETED entries are not used in a scan
      if (f.content == IcebergContent::kData) {
        if (options.keep_data_file && !options.keep_data_file(f, metadata.FindSpec(f.spec_id))) {
          ++plan.files_skipped;
          return;
        }
        f.resolved_path = resolver.Resolve(f.path);
        if (!seen_data.emplace(f.path, plan.data_files.size()).second) {
          throw ParquetError("Iceberg snapshot " + std::to_string(snapshot->snapshot_id) + " lists data file '" + f.path + "' twice");
        }
        plan.data_files.push_back(std::move(f));
        plan.manifest_of.push_back(manifest_index);
      } else {
        f.resolved_path = resolver.Resolve(f.path);
        plan.delete_files.push_back(std::move(f));
      }
    });
  }

  // Index the delete files: by referenced data file, by partition, and global equality deletes.
  std::unordered_map<std::string, std::vector<uint32_t>> by_reference, by_partition;
  std::vector<uint32_t> global_equality;
  for (uint32_t i = 0; i < plan.delete_files.size(); ++i) {
    const IcebergDataFile& d = plan.delete_files[i];
    if (d.content == IcebergContent::kPositionDeletes && d.referenced_data_file) {
      by_reference[*d.referenced_data_file].push_back(i);
      continue;
    }
    if (d.content == IcebergContent::kEqualityDeletes) {
      const IcebergPartitionSpec* spec = metadata.FindSpec(d.spec_id);
      if (spec != nullptr && spec->unpartitioned()) {
        global_equality.push_back(i);
        continue;
      }
    }
    by_partition[PartitionKey(d.spec_id, d.partition)].push_back(i);
  }
  plan.deletes_of.resize(plan.data_files.size());
  for (size_t i = 0; i < plan.data_files.size(); ++i) {
    const IcebergDataFile& data = plan.data_files[i];
    std::vector<uint32_t> applies;
    auto consider = [&](const std::vector<uint32_t>& candidates) {
      for (uint32_t d : candidates) {
        if (IcebergDeleteApplies(data, plan.delete_files[d], metadata)) applies.push_back(d);
      }
    };
    auto ref = by_reference.find(data.path);
    if (ref != by_reference.end()) consider(ref->second);
    auto part = by_partition.find(PartitionKey(data.spec_id, data.partition));
    if (part != by_partition.end()) consider(part->second);
    consider(global_equality);
    // A deletion vector that applies replaces the position delete files.
    const bool has_dv = std::any_of(applies.begin(), applies.end(),
                                    [&](uint32_t d) { return plan.delete_files[d].is_deletion_vector(); });
    if (has_dv) {
      applies.erase(std::remove_if(applies.begin(), applies.end(),
                                   [&](uint32_t d) {
                                     const IcebergDataFile& del = plan.delete_files[d];
                                     return del.content == IcebergContent::kPositionDeletes && !del.is_deletion_vector();
                                   }),
                    applies.end());
    }
    std::sort(applies.begin(), applies.end());
    applies.erase(std::unique(applies.begin(), applies.end()), applies.end());
    plan.deletes_of[i] = std::move(applies);
  }
  return plan;
}

}  // namespace parquet::lake
