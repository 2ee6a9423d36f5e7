// Avro object container file decoder (avro.h): schema parsing, block decompression and the
// schema-driven binary decoding, with every length and count checked against the bytes left.
#include "format/lake/avro.h"

#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>

#include "format/common/error.h"
#include "format/lake/json_view.h"
#include "format/values/json_document.h"

namespace parquet::lake {

const char* AvroKindName(AvroKind kind) {
  switch (kind) {
    case AvroKind::kNull: return "null";
    case AvroKind::kBoolean: return "boolean";
    case AvroKind::kInt: return "int";
    case AvroKind::kLong: return "long";
    case AvroKind::kFloat: return "float";
    case AvroKind::kDouble: return "double";
    case AvroKind::kBytes: return "bytes";
    case AvroKind::kString: return "string";
    case AvroKind::kRecord: return "record";
    case AvroKind::kEnum: return "enum";
    case AvroKind::kArray: return "array";
    case AvroKind::kMap: return "map";
    case AvroKind::kUnion: return "union";
    case AvroKind::kFixed: return "fixed";
  }
  return "?";
}

namespace {

constexpr uint8_t kMagic[4] = {'O', 'b', 'j', 1};
constexpr size_t kMaxSchemaNodes = 100000;

bool PrimitiveKind(std::string_view name, AvroKind* kind) {
  static const struct {
    const char* name;
    AvroKind kind;
  } kPrimitives[] = {{"null", AvroKind::kNull},     {"boolean", AvroKind::kBoolean},
                     {"int", AvroKind::kInt},       {"long", AvroKind::kLong},
                     {"float", AvroKind::kFloat},   {"double", AvroKind::kDouble},
                     {"bytes", AvroKind::kBytes},   {"string", AvroKind::kString}};
  for (const auto& p : kPrimitives) {
    if (name == p.name) {
      *kind = p.kind;
      return true;
    }
  }
  return false;
}

}  // namespace

// Builds the node list of an AvroSchema from its JSON form.
struct AvroSchemaParser {
  AvroSchema* schema;
  const std::string& file;
  std::unordered_map<std::string, int32_t> named;

  [[noreturn]] void Fail(const std::string& what) const {
    throw ParquetError("Avro file '" + file + "': invalid schema: " + what);
  }

  int32_t Add(AvroKind kind) {
    if (schema->nodes_.size() >= kMaxSchemaNodes) Fail("too many types");
    schema->nodes_.emplace_back();
    schema->nodes_.back().kind = kind;
    return static_cast<int32_t>(schema->nodes_.size() - 1);
  }

  std::string FullName(const JsonView& v, const std::string& enclosing_namespace) {
    std::string name = v.Get("name").String("name");
    if (name.find('.') != std::string::npos) return name;
    std::string ns = v.Get("namespace").is_string() ? v.Get("namespace").String("namespace") : enclosing_namespace;
    return ns.empty() ? name : ns + "." + name;
  }

  void Register(const std::string& full_name, int32_t node) {
    named[full_name] = node;
    const size_t dot = full_name.rfind('.');
    if (dot != std::string::npos) named.emplace(full_name.substr(dot + 1), node);
  }

  int32_t Parse(const JsonView& v, const std::string& ns, int depth) {
    if (depth > AvroFileReader::kMaxDepth) Fail("nested too deep");
    if (v.is_string()) {
      const std::string name = v.String("type");
      AvroKind kind;
      if (PrimitiveKind(name, &kind)) return Add(kind);
      auto it = named.find(name);
      if (it == named.end() && !ns.empty()) it = named.find(ns + "." + name);
      if (it == named.end()) Fail("unknown type '" + name + "'");
      return it->second;
    }
    if (v.is_array()) {
      const int32_t node = Add(AvroKind::kUnion);
      for (JsonView b = v.First(); b.present(); b = b.Next()) {
        const int32_t branch = Parse(b, ns, depth + 1);
        schema->nodes_[static_cast<size_t>(node)].branches.push_back(branch);
      }
      if (schema->nodes_[static_cast<size_t>(node)].branches.empty()) Fail("empty union");
      return node;
    }
    if (!v.is_object()) Fail("a type is neither a name, an object nor a union");
    const JsonView type = v.Get("type");
    if (!type.is_string()) {
      // {"type": {...}} or {"type": [...]}: the nested type itself.
      if (type.is_object() || type.is_array()) return Parse(type, ns, depth + 1);
      Fail("a type object without 'type'");
    }
    const std::string type_name = type.String("type");
    AvroKind kind;
    int32_t node = -1;
    if (PrimitiveKind(type_name, &kind)) {
      node = Add(kind);
    } else if (type_name == "record" || type_name == "error") {
      node = Add(AvroKind::kRecord);
      const std::string full = FullName(v, ns);
      schema->nodes_[static_cast<size_t>(node)].name = full;
      Register(full, node);
      const size_t dot = full.rfind('.');
      const std::string inner_ns = dot == std::string::npos ? std::string() : full.substr(0, dot);
      const JsonView fields = v.Get("fields");
      if (!fields.is_array()) Fail("record '" + full + "' without fields");
      for (JsonView f = fields.First(); f.present(); f = f.Next()) {
        if (!f.is_object()) Fail("a field of record '" + full + "' is not an object");
        AvroField field;
        field.name = f.Get("name").String("name");
        const JsonView id = f.Get("field-id");
        if (id.is_number()) {
          const int64_t value = id.Int("field-id");
          if (value < INT32_MIN || value > INT32_MAX) Fail("field-id out of range");
          field.field_id = static_cast<int32_t>(value);
        }
        const JsonView ftype = f.Get("type");
        if (!ftype.present()) Fail("field '" + field.name + "' has no type");
        field.type = Parse(ftype, inner_ns, depth + 1);
        schema->nodes_[static_cast<size_t>(node)].fields.push_back(std::move(field));
      }
      return node;
    } else if (type_name == "enum") {
      node = Add(AvroKind::kEnum);
      const std::string full = FullName(v, ns);
      schema->nodes_[static_cast<size_t>(node)].name = full;
      Register(full, node);
      const JsonView symbols = v.Get("symbols");
      if (!symbols.is_array()) Fail("enum without symbols");
      for (JsonView s = symbols.First(); s.present(); s = s.Next()) {
        schema->nodes_[static_cast<size_t>(node)].symbols.push_back(s.String("symbol"));
      }
    } else if (type_name == "fixed") {
      node = Add(AvroKind::kFixed);
      const std::string full = FullName(v, ns);
      const int64_t size = v.Get("size").Int("size");
      if (size < 0 || size > (1 << 20)) Fail("fixed size out of range");
      schema->nodes_[static_cast<size_t>(node)].name = full;
      schema->nodes_[static_cast<size_t>(node)].fixed_size = static_cast<uint32_t>(size);
      Register(full, node);
    } else if (type_name == "array") {
      node = Add(AvroKind::kArray);
      const JsonView items = v.Get("items");
      if (!items.present()) Fail("array without items");
      const int32_t item = Parse(items, ns, depth + 1);
      schema->nodes_[static_cast<size_t>(node)].items = item;
    } else if (type_name == "map") {
      node = Add(AvroKind::kMap);
      const JsonView values = v.Get("values");
      if (!values.present()) Fail("map without values");
      const int32_t value = Parse(values, ns, depth + 1);
      schema->nodes_[static_cast<size_t>(node)].items = value;
    } else {
      auto it = named.find(type_name);
      if (it == named.end()) Fail("unknown type '" + type_name + "'");
      return it->second;
    }
    AvroSchemaNode& n = schema->nodes_[static_cast<size_t>(node)];
    const JsonView logical = v.Get("logicalType");
    if (logical.is_string()) n.logical_type = logical.String("logicalType");
    const JsonView precision = v.Get("precision");
    if (precision.is_number()) n.precision = static_cast<int32_t>(precision.Int("precision"));
    const JsonView scale = v.Get("scale");
    if (scale.is_number()) n.scale = static_cast<int32_t>(scale.Int("scale"));
    return node;
  }
};

void AvroSchema::Parse(std::string_view json, const std::string& file) {
  nodes_.clear();
  JsonDocument doc;
  std::string error;
  if (!doc.Parse(json, &error)) throw ParquetError("Avro file '" + file + "': schema is not JSON: " + error);
  AvroSchemaParser parser{this, file, {}};
  try {
    parser.Parse(JsonView::Root(doc), "", 0);
  } catch (const ParquetError& e) {
    const std::string message = e.what();
    if (message.rfind("Avro file", 0) == 0) throw;
    throw ParquetError("Avro file '" + file + "': invalid schema: " + message);
  }
  // Node 0 must be the root: Parse adds the root first unless it is a bare name.
  if (nodes_.empty()) throw ParquetError("Avro file '" + file + "': empty schema");
}

int32_t AvroSchema::FieldIndex(int32_t record, std::string_view name) const {
  const AvroSchemaNode& n = node(record);
  for (size_t i = 0; i < n.fields.size(); ++i) {
    if (n.fields[i].name == name) return static_cast<int32_t>(i);
  }
  return -1;
}

int32_t AvroSchema::FieldIndexById(int32_t record, int32_t id) const {
  const AvroSchemaNode& n = node(record);
  for (size_t i = 0; i < n.fields.size(); ++i) {
    if (n.fields[i].field_id == id) return static_cast<int32_t>(i);
  }
  return -1;
}

// ---------------------------------------------------------------------------------------

AvroFileReader::AvroFileReader(std::string data, std::string name) : data_(std::move(data)), name_(std::move(name)) {
  if (data_.size() < 4 || std::memcmp(data_.data(), kMagic, 4) != 0) Fail("not an Avro object container file (bad magic)");
  cur_ = reinterpret_cast<const uint8_t*>(data_.data()) + 4;
  end_ = reinterpret_cast<const uint8_t*>(data_.data()) + data_.size();
  // The metadata map: blocks of (string key, bytes value).
  while (true) {
    int64_t count = 0;
    ReadBlockCount(&count);
    if (count == 0) break;
    for (int64_t i = 0; i < count; ++i) {
      const std::string_view key = ReadBytes();
      const std::string_view value = ReadBytes();
      if (metadata_.size() > 10000) Fail("too many metadata entries");
      metadata_[std::string(key)] = std::string(value);
    }
  }
  if (end_ - cur_ < 16) Fail("truncated header (no sync marker)");
  std::memcpy(sync_, cur_, 16);
  cur_ += 16;
  file_pos_ = static_cast<size_t>(cur_ - reinterpret_cast<const uint8_t*>(data_.data()));
  cur_ = end_ = nullptr;
  auto schema = metadata_.find("avro.schema");
  if (schema == metadata_.end()) Fail("no avro.schema in the header");
  schema_.Parse(schema->second, name_);
  auto codec = metadata_.find("avro.codec");
  codec_ = codec == metadata_.end() || codec->second.empty() ? "null" : codec->second;
  if (codec_ != "null" && codec_ != "deflate" && codec_ != "snappy" && codec_ != "zstandard") {
    Fail("unsupported codec '" + codec_ + "'");
  }
}

std::string AvroFileReader::Metadata(std::string_view key) const {
  auto it = metadata_.find(std::string(key));
  return it == metadata_.end() ? std::string() : it->second;
}

void AvroFileReader::Fail(const std::string& what) const {
  throw ParquetError("Avro file '" + name_ + "': " + what);
}

int64_t AvroFileReader::ReadLong() {
  uint64_t value = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (cur_ >= end_) Fail("truncated (a varint runs past the end)");
    const uint8_t byte = *cur_++;
    // The tenth byte carries bit 63 only; its other bits are ignored, as Avro's Java
    // decoder does (some writers leave them set).
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
  }
  Fail("varint longer than 10 bytes");
}

int32_t AvroFileReader::ReadInt() {
  const int64_t v = ReadLong();
  if (v < INT32_MIN || v > INT32_MAX) Fail("int out of range");
  return static_cast<int32_t>(v);
}

std::string_view AvroFileReader::ReadBytes() {
  const int64_t length = ReadLong();
  if (length < 0 || length > end_ - cur_) Fail("a string or bytes length is negative or beyond the data");
  std::string_view out(reinterpret_cast<const char*>(cur_), static_cast<size_t>(length));
  cur_ += length;
  return out;
}

// A block count of an array or map: a negative count is followed by the block's byte size.
uint64_t AvroFileReader::ReadBlockCount(int64_t* count) {
  int64_t n = ReadLong();
  if (n < 0) {
    if (n == INT64_MIN) Fail("block count out of range");
    n = -n;
    const int64_t size = ReadLong();
    if (size < 0 || size > end_ - cur_) Fail("block size is negative or beyond the data");
  }
  *count = n;
  return static_cast<uint64_t>(n);
}

void AvroFileReader::Decompress(const uint8_t* src, size_t size) {
  block_buffer_.clear();
  if (codec_ == "snappy") {
    if (size < 4) Fail("snappy block without its CRC");
    size_t length = 0;
    if (!snappy::GetUncompressedLength(reinterpret_cast<const char*>(src), size - 4, &length)) {
      Fail("corrupt snappy block");
    }
    if (length > kMaxBlockBytes) Fail("snappy block larger than 1 GiB");
    block_buffer_.resize(length);
    if (!snappy::RawUncompress(reinterpret_cast<const char*>(src), size - 4, block_buffer_.data())) {
      Fail("corrupt snappy block");
    }
    const uint32_t crc = static_cast<uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(block_buffer_.data()), static_cast<uInt>(block_buffer_.size())));
    const uint8_t* c = src + size - 4;
    const uint32_t stored = (uint32_t{c[0]} << 24) | (uint32_t{c[1]} << 16) | (uint32_t{c[2]} << 8) | c[3];
    if (crc != stored) Fail("snappy block CRC mismatch");
    return;
  }
  // deflate (raw) and zstandard: the output size is not declared; grow within the bounds of
  // each format's largest ratio and of kMaxBlockBytes.
  const uint64_t bound = std::min<uint64_t>(kMaxBlockBytes, static_cast<uint64_t>(size) * 1032 + 1024);
  size_t produced = 0;
  block_buffer_.resize(std::min<uint64_t>(bound, std::max<uint64_t>(4096, static_cast<uint64_t>(size) * 4)));
  if (codec_ == "deflate") {
    z_stream stream;
    std::memset(&stream, 0, sizeof(stream));
    if (inflateInit2(&stream, -15) != Z_OK) Fail("cannot start deflate decompression");
    stream.next_in = const_cast<Bytef*>(src);
    stream.avail_in = static_cast<uInt>(size);
    int result = Z_OK;
    while (true) {
      if (produced == block_buffer_.size()) {
        if (block_buffer_.size() >= bound) {
          inflateEnd(&stream);
          Fail("deflate block decompresses beyond its bound");
        }
        block_buffer_.resize(std::min<uint64_t>(bound, block_buffer_.size() * 2));
      }
      stream.next_out = reinterpret_cast<Bytef*>(block_buffer_.data() + produced);
      stream.avail_out = static_cast<uInt>(block_buffer_.size() - produced);
      result = inflate(&stream, Z_NO_FLUSH);
      produced = block_buffer_.size() - stream.avail_out;
      if (result == Z_STREAM_END) break;
      if (result != Z_OK && !(result == Z_BUF_ERROR && stream.avail_out == 0)) {
        inflateEnd(&stream);
        Fail("corrupt deflate block");
      }
      if (stream.avail_in == 0 && stream.avail_out != 0) {
        inflateEnd(&stream);
        Fail("truncated deflate block");
      }
    }
    inflateEnd(&stream);
  } else {
    ZSTD_DStream* stream = ZSTD_createDStream();
    if (stream == nullptr) Fail("cannot start zstd decompression");
    ZSTD_initDStream(stream);
    ZSTD_inBuffer in{src, size, 0};
    size_t last = 1;
    while (in.pos < in.size || last != 0) {
      if (produced == block_buffer_.size()) {
        if (block_buffer_.size() >= bound) {
          ZSTD_freeDStream(stream);
          Fail("zstandard block decompresses beyond its bound");
        }
        block_buffer_.resize(std::min<uint64_t>(bound, block_buffer_.size() * 2));
      }
      ZSTD_outBuffer out{block_buffer_.data(), block_buffer_.size(), produced};
      const size_t before_in = in.pos;
      last = ZSTD_decompressStream(stream, &out, &in);
      produced = out.pos;
      if (ZSTD_isError(last)) {
        ZSTD_freeDStream(stream);
        Fail("corrupt zstandard block");
      }
      if (in.pos == in.size && last != 0 && before_in == in.pos && out.pos < out.size) {
        ZSTD_freeDStream(stream);
        Fail("truncated zstandard block");
      }
    }
    ZSTD_freeDStream(stream);
  }
  block_buffer_.resize(produced);
}

bool AvroFileReader::LoadBlock() {
  while (true) {
    if (file_pos_ >= data_.size()) return false;
    cur_ = reinterpret_cast<const uint8_t*>(data_.data()) + file_pos_;
    end_ = reinterpret_cast<const uint8_t*>(data_.data()) + data_.size();
    const int64_t count = ReadLong();
    const int64_t size = ReadLong();
    if (count < 0 || size < 0) Fail("negative block count or size");
    if (size > end_ - cur_ || end_ - cur_ - size < 16) Fail("block runs past the end of the file");
    const uint8_t* body = cur_;
    if (std::memcmp(body + size, sync_, 16) != 0) Fail("sync marker mismatch after a block");
    file_pos_ = static_cast<size_t>(body + size + 16 - reinterpret_cast<const uint8_t*>(data_.data()));
    if (codec_ == "null") {
      cur_ = body;
      end_ = body + size;
    } else {
      Decompress(body, static_cast<size_t>(size));
      cur_ = reinterpret_cast<const uint8_t*>(block_buffer_.data());
      end_ = cur_ + block_buffer_.size();
    }
    block_remaining_ = count;
    if (count > 0) return true;
  }
}

int32_t AvroFileReader::NewValue(AvroKind kind, int32_t schema) {
  if (values_.size() >= kMaxValuesPerRecord) Fail("a record has too many values");
  values_.emplace_back();
  AvroValue& v = values_.back();
  v.kind = kind;
  v.schema = schema;
  return static_cast<int32_t>(values_.size() - 1);
}

int32_t AvroFileReader::Decode(int32_t schema, int depth) {
  if (depth > kMaxDepth) Fail("values nested too deep");
  const AvroSchemaNode& node = schema_.node(schema);
  switch (node.kind) {
    case AvroKind::kUnion: {
      const int64_t branch = ReadLong();
      if (branch < 0 || static_cast<uint64_t>(branch) >= node.branches.size()) Fail("union branch out of range");
      return Decode(node.branches[static_cast<size_t>(branch)], depth + 1);
    }
    case AvroKind::kNull:
      return NewValue(AvroKind::kNull, schema);
    case AvroKind::kBoolean: {
      if (cur_ >= end_) Fail("truncated boolean");
      const int32_t v = NewValue(AvroKind::kBoolean, schema);
      values_[static_cast<size_t>(v)].i = *cur_++ != 0;
      return v;
    }
    case AvroKind::kInt: {
      const int32_t x = ReadInt();
      const int32_t v = NewValue(AvroKind::kInt, schema);
      values_[static_cast<size_t>(v)].i = x;
      return v;
    }
    case AvroKind::kLong: {
      const int64_t x = ReadLong();
      const int32_t v = NewValue(AvroKind::kLong, schema);
      values_[static_cast<size_t>(v)].i = x;
      return v;
    }
    case AvroKind::kFloat: {
      if (end_ - cur_ < 4) Fail("truncated float");
      float f;
      std::memcpy(&f, cur_, 4);
      cur_ += 4;
      const int32_t v = NewValue(AvroKind::kFloat, schema);
      values_[static_cast<size_t>(v)].d = f;
      return v;
    }
    case AvroKind::kDouble: {
      if (end_ - cur_ < 8) Fail("truncated double");
      double d;
      std::memcpy(&d, cur_, 8);
      cur_ += 8;
      const int32_t v = NewValue(AvroKind::kDouble, schema);
      values_[static_cast<size_t>(v)].d = d;
      return v;
    }
    case AvroKind::kBytes:
    case AvroKind::kString: {
      const std::string_view b = ReadBytes();
      const int32_t v = NewValue(node.kind, schema);
      values_[static_cast<size_t>(v)].bytes = b;
      return v;
    }
    case AvroKind::kFixed: {
      if (static_cast<uint64_t>(end_ - cur_) < node.fixed_size) Fail("truncated fixed");
      const int32_t v = NewValue(AvroKind::kFixed, schema);
      values_[static_cast<size_t>(v)].bytes = std::string_view(reinterpret_cast<const char*>(cur_), node.fixed_size);
      cur_ += node.fixed_size;
      return v;
    }
    case AvroKind::kEnum: {
      const int32_t index = ReadInt();
      if (index < 0 || static_cast<size_t>(index) >= node.symbols.size()) Fail("enum index out of range");
      const int32_t v = NewValue(AvroKind::kEnum, schema);
      values_[static_cast<size_t>(v)].i = index;
      return v;
    }
    case AvroKind::kRecord: {
      const int32_t v = NewValue(AvroKind::kRecord, schema);
      int32_t previous = -1;
      const size_t field_count = node.fields.size();
      for (size_t f = 0; f < field_count; ++f) {
        const int32_t child = Decode(node.fields[f].type, depth + 1);
        if (previous < 0) {
          values_[static_cast<size_t>(v)].first_child = child;
        } else {
          values_[static_cast<size_t>(previous)].next_sibling = child;
        }
        previous = child;
      }
      values_[static_cast<size_t>(v)].count = static_cast<uint32_t>(field_count);
      return v;
    }
    case AvroKind::kArray:
    case AvroKind::kMap: {
      const int32_t v = NewValue(node.kind, schema);
      int32_t previous = -1;
      uint64_t total = 0;
      const bool is_map = node.kind == AvroKind::kMap;
      while (true) {
        int64_t count = 0;
        ReadBlockCount(&count);
        if (count == 0) break;
        // Each item is at least one value: the per-record value limit bounds zero-size items.
        if (static_cast<uint64_t>(count) > kMaxValuesPerRecord) Fail("array or map block count out of range");
        for (int64_t i = 0; i < count; ++i) {
          if (is_map) {
            const std::string_view key = ReadBytes();
            const int32_t k = NewValue(AvroKind::kString, -1);
            values_[static_cast<size_t>(k)].bytes = key;
            if (previous < 0) {
              values_[static_cast<size_t>(v)].first_child = k;
            } else {
              values_[static_cast<size_t>(previous)].next_sibling = k;
            }
            previous = k;
          }
          const int32_t child = Decode(node.items, depth + 1);
          if (previous < 0) {
            values_[static_cast<size_t>(v)].first_child = child;
          } else {
            values_[static_cast<size_t>(previous)].next_sibling = child;
          }
          previous = child;
          ++total;
        }
      }
      if (total > UINT32_MAX) Fail("too many items");
      values_[static_cast<size_t>(v)].count = static_cast<uint32_t>(total);
      return v;
    }
  }
  Fail("unknown schema kind");
}

bool AvroFileReader::Next() {
  if (block_remaining_ == 0) {
    if (!LoadBlock()) return false;
  }
  values_.clear();
  Decode(0, 0);
  --block_remaining_;
  ++records_read_;
  if (block_remaining_ == 0 && cur_ != end_) Fail("a block has bytes left after its last record");
  return true;
}

int32_t AvroFileReader::Field(int32_t record, std::string_view name) const {
  const AvroValue& r = value(record);
  if (r.kind != AvroKind::kRecord) Fail("expected a record looking up field '" + std::string(name) + "'");
  const int32_t index = schema_.FieldIndex(r.schema, name);
  if (index < 0) return -1;
  int32_t child = r.first_child;
  for (int32_t i = 0; i < index && child >= 0; ++i) child = value(child).next_sibling;
  return child;
}

int32_t AvroFileReader::FieldById(int32_t record, int32_t id) const {
  const AvroValue& r = value(record);
  if (r.kind != AvroKind::kRecord) Fail("expected a record looking up a field by id");
  const int32_t index = schema_.FieldIndexById(r.schema, id);
  if (index < 0) return -1;
  int32_t child = r.first_child;
  for (int32_t i = 0; i < index && child >= 0; ++i) child = value(child).next_sibling;
  return child;
}

int32_t AvroFileReader::NonNullField(int32_t record, std::string_view name) const {
  const int32_t v = Field(record, name);
  return IsNull(v) ? -1 : v;
}

int64_t AvroFileReader::Long(int32_t v, const char* what) const {
  if (v < 0) Fail(std::string("missing field '") + what + "'");
  const AvroValue& x = value(v);
  if (x.kind != AvroKind::kInt && x.kind != AvroKind::kLong) {
    Fail(std::string("field '") + what + "' is " + AvroKindName(x.kind) + ", not int or long");
  }
  return x.i;
}

std::string_view AvroFileReader::Bytes(int32_t v, const char* what) const {
  if (v < 0) Fail(std::string("missing field '") + what + "'");
  const AvroValue& x = value(v);
  if (x.kind != AvroKind::kBytes && x.kind != AvroKind::kString && x.kind != AvroKind::kFixed) {
    Fail(std::string("field '") + what + "' is " + AvroKindName(x.kind) + ", not bytes or string");
  }
  return x.bytes;
}

}  // namespace parquet::lake
