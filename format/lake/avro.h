// An Avro object container file decoder (Iceberg manifest lists and manifests): the header
// (magic, metadata map with avro.schema and avro.codec, sync marker), blocks compressed with
// null, deflate, snappy (with its CRC-32) or zstandard, and the binary encoding driven by the
// writer schema embedded in the file. Records are decoded one at a time into a flat tree of
// values that is reused between records (no allocation per value once warm); fields are read
// by name or by Iceberg field id. Every count, length and size in the file is checked before
// use: bad input is a ParquetError naming the file, never a crash or an unbounded loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace parquet::lake {

enum class AvroKind : uint8_t {
  kNull, kBoolean, kInt, kLong, kFloat, kDouble, kBytes, kString,
  kRecord, kEnum, kArray, kMap, kUnion, kFixed
};

const char* AvroKindName(AvroKind kind);

struct AvroField {
  std::string name;
  int32_t field_id = -1;  // the Iceberg "field-id" attribute, -1 when absent
  int32_t type = -1;      // index of the field's schema node
};

// One node of a parsed schema; named types referred to by name share their node.
struct AvroSchemaNode {
  AvroKind kind = AvroKind::kNull;
  std::string name;          // full name of records, enums and fixed
  std::string logical_type;  // "date", "decimal", "timestamp-micros", "uuid", "map", ...
  int32_t precision = 0, scale = 0;
  uint32_t fixed_size = 0;
  std::vector<AvroField> fields;         // records
  std::vector<std::string> symbols;      // enums
  std::vector<int32_t> branches;         // unions
  int32_t items = -1;                    // arrays: the item schema; maps: the value schema
};

// A parsed writer schema: node 0 is the root.
class AvroSchema {
 public:
  // Parses the avro.schema JSON; throws ParquetError naming `file` when it is not a valid schema.
  void Parse(std::string_view json, const std::string& file);
  const AvroSchemaNode& node(int32_t i) const { return nodes_[static_cast<size_t>(i)]; }
  size_t size() const { return nodes_.size(); }
  // The position of the record field named `name` (or with field id `id`), -1 when absent.
  int32_t FieldIndex(int32_t record, std::string_view name) const;
  int32_t FieldIndexById(int32_t record, int32_t id) const;

 private:
  friend struct AvroSchemaParser;
  std::vector<AvroSchemaNode> nodes_;
};

// One decoded value. Union values are stored as the chosen branch (`schema` is the branch's
// node; a null branch gives kind kNull). Records, arrays and maps link their children:
// record fields in schema order, array items, map entries as key then value.
struct AvroValue {
  AvroKind kind = AvroKind::kNull;
  int32_t schema = -1;
  int32_t first_child = -1;
  int32_t next_sibling = -1;
  uint32_t count = 0;          // children (record fields, array items, map entries)
  int64_t i = 0;               // boolean, int, long, enum index
  double d = 0;                // float, double
  std::string_view bytes;      // bytes, string, fixed (into the decoded block, valid until the next block)
};

class AvroFileReader {
 public:
  // Reads the container file held in `data` (which the reader keeps); `name` names it in errors.
  // Throws ParquetError when the header is invalid or the codec is unsupported.
  AvroFileReader(std::string data, std::string name);

  const std::string& name() const { return name_; }
  const AvroSchema& schema() const { return schema_; }
  const std::string& codec() const { return codec_; }
  // A metadata value of the header ("" when absent).
  std::string Metadata(std::string_view key) const;

  // Decodes the next record into the value tree (root: value 0). False at the end of the file.
  bool Next();

  const AvroValue& value(int32_t i) const { return values_[static_cast<size_t>(i)]; }
  int32_t root() const { return 0; }
  // The value of a record's field by name or by Iceberg field id; -1 when the schema has no
  // such field. Throws when `record` is not a record.
  int32_t Field(int32_t record, std::string_view name) const;
  int32_t FieldById(int32_t record, int32_t id) const;
  // The same, following a union's null: -1 also when the value is null.
  int32_t NonNullField(int32_t record, std::string_view name) const;

  // Typed accessors that throw (naming the file and `what`) when the kind is not the one asked for.
  int64_t Long(int32_t v, const char* what) const;   // int or long
  std::string_view Bytes(int32_t v, const char* what) const;  // bytes, string or fixed
  bool IsNull(int32_t v) const { return v < 0 || value(v).kind == AvroKind::kNull; }

  // Records decoded so far, and blocks read.
  uint64_t records_read() const { return records_read_; }

  // Limits (per record / per block); exceeded limits are errors.
  static constexpr uint32_t kMaxValuesPerRecord = 1u << 22;
  static constexpr uint64_t kMaxBlockBytes = 1ull << 30;
  static constexpr int kMaxDepth = 64;

 private:
  [[noreturn]] void Fail(const std::string& what) const;
  bool LoadBlock();
  void Decompress(const uint8_t* src, size_t size);
  int64_t ReadLong();
  int32_t ReadInt();
  std::string_view ReadBytes();
  int32_t NewValue(AvroKind kind, int32_t schema);
  int32_t Decode(int32_t schema, int depth);
  uint64_t ReadBlockCount(int64_t* count);

  std::string data_;
  std::string name_;
  std::string codec_;
  std::unordered_map<std::string, std::string> metadata_;
  AvroSchema schema_;
  uint8_t sync_[16] = {};
  size_t file_pos_ = 0;            // next block in data_
  std::string block_buffer_;       // decompressed block
  const uint8_t* cur_ = nullptr;   // decode position in the current block
  const uint8_t* end_ = nullptr;
  int64_t block_remaining_ = 0;    // records left in the current block
  std::vector<AvroValue> values_;
  uint64_t records_read_ = 0;
};

}  // namespace parquet::lake
