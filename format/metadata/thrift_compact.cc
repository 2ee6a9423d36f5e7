// Thrift compact protocol reader and writer (grammar summarized in thrift_compact.h).
#include "format/metadata/thrift_compact.h"

#include <cstring>
#include <limits>

#include "format/common/error.h"

namespace parquet {

namespace {

// std::bit_cast, which the libc++ of Debian's emscripten (3.1.6) lacks: the WebAssembly build.
template <class To, class From>
To BitCast(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

bool IsValidWireType(uint8_t type_id) { return type_id >= 1 && type_id <= 12; }

std::string At(size_t position) { return " at offset " + std::to_string(position); }

}  // namespace

std::string ToString(CompactType type) {
  switch (type) {
    case CompactType::STOP: return "stop";
    case CompactType::BOOLEAN_TRUE: return "bool (true)";
    case CompactType::BOOLEAN_FALSE: return "bool (false)";
    case CompactType::BYTE: return "byte";
    case CompactType::I16: return "i16";
    case CompactType::I32: return "i32";
    case CompactType::I64: return "i64";
    case CompactType::DOUBLE: return "double";
    case CompactType::BINARY: return "binary";
    case CompactType::LIST: return "list";
    case CompactType::SET: return "set";
    case CompactType::MAP: return "map";
    case CompactType::STRUCT: return "struct";
  }
  return "invalid type " + std::to_string(static_cast<int>(type));
}

// ---------------------------------------------------------------------------------------
// Reader

uint8_t ThriftCompactReader::ReadRawByte() {
  if (position_ >= size_) {
    throw ParquetError("thrift input truncated: needed 1 more byte" + At(position_));
  }
  return data_[position_++];
}

void ThriftCompactReader::CheckWireType(uint8_t type_id, const char* where) const {
  if (!IsValidWireType(type_id)) {
    throw ParquetError(std::string("invalid thrift wire type ") + std::to_string(type_id) +
                       " in " + where + At(position_ - 1));
  }
}

void ThriftCompactReader::EnterNested() {
  if (depth_ >= kMaxNestingDepth) {
    throw ParquetError("thrift nesting depth exceeds the limit of " +
                       std::to_string(kMaxNestingDepth) + At(position_));
  }
  ++depth_;
}

uint64_t ThriftCompactReader::ReadVarint() {
  const size_t start = position_;
  uint64_t value = 0;
  for (size_t i = 0; i < kVarintMaxBytes; ++i) {
    if (position_ >= size_) {
      throw ParquetError("thrift varint truncated" + At(start));
    }
    const uint8_t byte = data_[position_++];
    if (i == kVarintMaxBytes - 1 && (byte & 0x7f) > 1) {
      throw ParquetError("thrift varint overflows 64 bits" + At(start));
    }
    value |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) return value;
  }
  throw ParquetError("thrift varint longer than 10 bytes" + At(start));
}

void ThriftCompactReader::BeginStruct() {
  EnterNested();
  saved_field_ids_[struct_depth_++] = last_field_id_;
  last_field_id_ = 0;
}

void ThriftCompactReader::EndStruct() {
  if (struct_depth_ == 0) throw ParquetError("thrift struct end without a struct begin");
  last_field_id_ = saved_field_ids_[--struct_depth_];
  LeaveNested();
}

ThriftFieldHeader ThriftCompactReader::ReadFieldHeader() {
  has_pending_bool_ = false;
  const uint8_t byte = ReadRawByte();
  if (byte == 0) return {};
  const uint8_t type_id = byte & 0x0f;
  CheckWireType(type_id, "field header");
  const int delta = byte >> 4;
  int32_t id;
  if (delta != 0) {
    id = last_field_id_ + delta;
  } else {
    id = ReadI16();
  }
  if (id < std::numeric_limits<int16_t>::min() || id > std::numeric_limits<int16_t>::max()) {
    throw ParquetError("thrift field id " + std::to_string(id) + " out of range" + At(position_));
  }
  ThriftFieldHeader header;
  header.type = static_cast<CompactType>(type_id);
  header.id = static_cast<int16_t>(id);
  last_field_id_ = header.id;
  if (header.type == CompactType::BOOLEAN_TRUE || header.type == CompactType::BOOLEAN_FALSE) {
    has_pending_bool_ = true;
    pending_bool_ = header.type == CompactType::BOOLEAN_TRUE;
  }
  return header;
}

bool ThriftCompactReader::ReadBool() {
  if (has_pending_bool_) {
    has_pending_bool_ = false;
    return pending_bool_;
  }
  const uint8_t byte = ReadRawByte();
  if (byte == 1) return true;
  if (byte == 0 || byte == 2) return false;
  throw ParquetError("invalid thrift bool element " + std::to_string(byte) + At(position_ - 1));
}

int8_t ThriftCompactReader::ReadByte() { return static_cast<int8_t>(ReadRawByte()); }

int16_t ThriftCompactReader::ReadI16() {
  const size_t start = position_;
  const uint64_t raw = ReadVarint();
  if (raw > 0xffff) {
    throw ParquetError("thrift i16 varint value " + std::to_string(raw) + " out of range" +
                       At(start));
  }
  return static_cast<int16_t>(ZigzagDecode(raw));
}

int32_t ThriftCompactReader::ReadI32() {
  const size_t start = position_;
  const uint64_t raw = ReadVarint();
  if (raw > 0xffffffffu) {
    throw ParquetError("thrift i32 varint value " + std::to_string(raw) + " out of range" +
                       At(start));
  }
  return static_cast<int32_t>(ZigzagDecode(raw));
}

int64_t ThriftCompactReader::ReadI64() { return ZigzagDecode(ReadVarint()); }

double ThriftCompactReader::ReadDouble() {
  if (remaining() < 8) {
    throw ParquetError("thrift double truncated: 8 bytes needed, " +
                       std::to_string(remaining()) + " remaining" + At(position_));
  }
  uint64_t bits = 0;
  for (int i = 0; i < 8; ++i) bits |= static_cast<uint64_t>(data_[position_ + i]) << (8 * i);
  position_ += 8;
  return BitCast<double>(bits);
}

std::string_view ThriftCompactReader::ReadBinaryView() {
  const size_t start = position_;
  const uint64_t length = ReadVarint();
  if (length > remaining()) {
    throw ParquetError("thrift binary of " + std::to_string(length) + " bytes exceeds the " +
                       std::to_string(remaining()) + " bytes remaining" + At(start));
  }
  std::string_view view(reinterpret_cast<const char*>(data_ + position_),
                        static_cast<size_t>(length));
  position_ += static_cast<size_t>(length);
  return view;
}

std::string ThriftCompactReader::ReadBinary() { return std::string(ReadBinaryView()); }

ThriftListHeader ThriftCompactReader::ReadListHeader() {
  const size_t start = position_;
  const uint8_t byte = ReadRawByte();
  const uint8_t type_id = byte & 0x0f;
  CheckWireType(type_id, "list header");
  uint64_t size = byte >> 4;
  if (size == 15) {
    size = ReadVarint();
    if (size > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
      throw ParquetError("thrift list size " + std::to_string(size) + " out of range" +
                         At(start));
    }
  }
  if (size > remaining()) {
    throw ParquetError("thrift list of " + std::to_string(size) + " elements exceeds the " +
                       std::to_string(remaining()) + " bytes remaining" + At(start));
  }
  ThriftListHeader header;
  header.element_type = static_cast<CompactType>(type_id);
  header.size = static_cast<uint32_t>(size);
  return header;
}

ThriftMapHeader ThriftCompactReader::ReadMapHeader() {
  const size_t start = position_;
  const uint64_t size = ReadVarint();
  ThriftMapHeader header;
  if (size == 0) return header;
  if (size > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
    throw ParquetError("thrift map size " + std::to_string(size) + " out of range" + At(start));
  }
  const uint8_t types = ReadRawByte();
  CheckWireType(types >> 4, "map key type");
  CheckWireType(types & 0x0f, "map value type");
  // Each entry holds a key and a value of at least one byte each.
  if (size > remaining() / 2) {
    throw ParquetError("thrift map of " + std::to_string(size) + " entries exceeds the " +
                       std::to_string(remaining()) + " bytes remaining" + At(start));
  }
  header.key_type = static_cast<CompactType>(types >> 4);
  header.value_type = static_cast<CompactType>(types & 0x0f);
  header.size = static_cast<uint32_t>(size);
  return header;
}

void ThriftCompactReader::Skip(CompactType type) { SkipValue(type); }

void ThriftCompactReader::SkipValue(CompactType type) {
  switch (type) {
    case CompactType::BOOLEAN_TRUE:
    case CompactType::BOOLEAN_FALSE:
      ReadBool();
      return;
    case CompactType::BYTE:
      ReadRawByte();
      return;
    case CompactType::I16:
    case CompactType::I32:
    case CompactType::I64:
      ReadVarint();
      return;
    case CompactType::DOUBLE:
      ReadDouble();
      return;
    case CompactType::BINARY:
      ReadBinaryView();
      return;
    case CompactType::LIST:
    case CompactType::SET: {
      const ThriftListHeader header = ReadListHeader();
      EnterNested();
      for (uint32_t i = 0; i < header.size; ++i) SkipValue(header.element_type);
      LeaveNested();
      return;
    }
    case CompactType::MAP: {
      const ThriftMapHeader header = ReadMapHeader();
      EnterNested();
      for (uint32_t i = 0; i < header.size; ++i) {
        SkipValue(header.key_type);
        SkipValue(header.value_type);
      }
      LeaveNested();
      return;
    }
    case CompactType::STRUCT: {
      BeginStruct();
      while (true) {
        const ThriftFieldHeader field = ReadFieldHeader();
        if (field.type == CompactType::STOP) break;
        SkipValue(field.type);
      }
      EndStruct();
      return;
    }
    case CompactType::STOP:
      break;
  }
  throw ParquetError("cannot skip thrift value of " + ToString(type) + At(position_));
}

// ---------------------------------------------------------------------------------------
// Writer

void ThriftCompactWriter::Append(const void* bytes, size_t count) {
  const char* chars = static_cast<const char*>(bytes);
  if (string_out_ != nullptr) {
    string_out_->append(chars, count);
  } else {
    vector_out_->insert(vector_out_->end(), reinterpret_cast<const uint8_t*>(chars),
                        reinterpret_cast<const uint8_t*>(chars) + count);
  }
}

void ThriftCompactWriter::WriteVarint(uint64_t value) {
  uint8_t buffer[10];
  size_t length = 0;
  while (value >= 0x80) {
    buffer[length++] = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  buffer[length++] = static_cast<uint8_t>(value);
  Append(buffer, length);
}

void ThriftCompactWriter::BeginStruct() {
  saved_field_ids_.push_back(last_field_id_);
  last_field_id_ = 0;
}

void ThriftCompactWriter::EndStruct() {
  if (saved_field_ids_.empty()) throw ParquetError("thrift struct end without a struct begin");
  AppendByte(0);
  last_field_id_ = saved_field_ids_.back();
  saved_field_ids_.pop_back();
}

void ThriftCompactWriter::WriteFieldHeader(CompactType type, int16_t id) {
  const int delta = static_cast<int>(id) - last_field_id_;
  const uint8_t type_id = static_cast<uint8_t>(type);
  if (delta > 0 && delta <= 15) {
    AppendByte(static_cast<uint8_t>(delta << 4 | type_id));
  } else {
    AppendByte(type_id);
    WriteI16(id);
  }
  last_field_id_ = id;
}

void ThriftCompactWriter::WriteBoolField(int16_t id, bool value) {
  WriteFieldHeader(value ? CompactType::BOOLEAN_TRUE : CompactType::BOOLEAN_FALSE, id);
}

void ThriftCompactWriter::WriteBool(bool value) { AppendByte(value ? 1 : 2); }
void ThriftCompactWriter::WriteByte(int8_t value) { AppendByte(static_cast<uint8_t>(value)); }
// The zigzag image of a 16- or 32-bit value fits in 16 or 32 bits, as the reader expects.
void ThriftCompactWriter::WriteI16(int16_t value) { WriteVarint(ZigzagEncode(value)); }
void ThriftCompactWriter::WriteI32(int32_t value) { WriteVarint(ZigzagEncode(value)); }
void ThriftCompactWriter::WriteI64(int64_t value) { WriteVarint(ZigzagEncode(value)); }

void ThriftCompactWriter::WriteDouble(double value) {
  const uint64_t bits = BitCast<uint64_t>(value);
  uint8_t bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(bits >> (8 * i));
  Append(bytes, 8);
}

void ThriftCompactWriter::WriteBinary(std::string_view value) {
  WriteVarint(value.size());
  Append(value.data(), value.size());
}

void ThriftCompactWriter::WriteListHeader(CompactType element_type, uint32_t size) {
  const uint8_t type_id = static_cast<uint8_t>(element_type);
  if (size < 15) {
    AppendByte(static_cast<uint8_t>(size << 4 | type_id));
  } else {
    AppendByte(static_cast<uint8_t>(0xf0 | type_id));
    WriteVarint(size);
  }
}

void ThriftCompactWriter::WriteMapHeader(CompactType key_type, CompactType value_type,
                                         uint32_t size) {
  WriteVarint(size);
  if (size > 0) {
    AppendByte(static_cast<uint8_t>(static_cast<uint8_t>(key_type) << 4 |
                                    static_cast<uint8_t>(value_type)));
  }
}

}  // namespace parquet
