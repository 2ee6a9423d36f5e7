// A bounds-checked reader and a writer for the Thrift compact protocol, the encoding of
// every Parquet metadata structure (footer, page headers, page index, bloom filter header).
//
// The compact protocol in brief:
//   integers     i16/i32/i64 are zigzag-mapped (n -> (n << 1) ^ (n >> 63), so small
//                magnitudes of either sign stay small) and then written as ULEB128 varints:
//                7 value bits per byte, least significant group first, high bit set on
//                every byte except the last. A 64-bit value needs at most 10 bytes.
//   byte         one raw byte.        double  8 bytes, IEEE 754, little-endian.
//   binary       varint byte length, then the bytes (strings are binary holding UTF-8).
//   struct       a sequence of fields, ended by a single 0x00 byte (STOP).
//   field        a header byte: high nibble = id delta from the previous field of the same
//                struct (1..15), low nibble = wire type. A zero delta means the id follows
//                as a zigzag varint i16 (long form). Booleans carry their value in the
//                type nibble (1 = true, 2 = false) and have no body; other types are
//                followed by their value.
//   list / set   a header byte: high nibble = element count (0..14) and low nibble =
//                element type; a count nibble of 15 means the count follows as a varint.
//                Then the elements back to back; a boolean element is one byte (1 true,
//                2 or 0 false).
//   map          varint entry count; if non-zero, one byte (key type << 4 | value type),
//                then the keys and values alternating.
//   wire types   1 bool true, 2 bool false, 3 byte, 4 i16, 5 i32, 6 i64, 7 double,
//                8 binary, 9 list, 10 set, 11 map, 12 struct (0 is STOP, 13..15 invalid).
//
// Limits enforced by the reader: nesting of structs (and of containers being skipped)
// deeper than kMaxNestingDepth, varints longer than 10 bytes or overflowing their type,
// lengths and element counts larger than the bytes remaining (every element occupies at
// least one byte), and invalid wire types are all ParquetErrors. Nothing is allocated from
// a size before that size has been checked against the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parquet {

enum class CompactType : uint8_t {
  STOP = 0,
  BOOLEAN_TRUE = 1,
  BOOLEAN_FALSE = 2,
  BYTE = 3,
  I16 = 4,
  I32 = 5,
  I64 = 6,
  DOUBLE = 7,
  BINARY = 8,
  LIST = 9,
  SET = 10,
  MAP = 11,
  STRUCT = 12,
};

// Name of a wire type for messages ("i32", "struct", ...; "invalid type 13").
std::string ToString(CompactType type);

// Zigzag mapping between signed and unsigned integers.
constexpr uint64_t ZigzagEncode(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}
constexpr int64_t ZigzagDecode(uint64_t value) {
  return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

struct ThriftFieldHeader {
  CompactType type = CompactType::STOP;  // STOP: end of the struct (id is then 0)
  int16_t id = 0;
};

struct ThriftListHeader {
  CompactType element_type = CompactType::STOP;  // bool elements: BOOLEAN_TRUE or _FALSE
  uint32_t size = 0;
};

struct ThriftMapHeader {
  CompactType key_type = CompactType::STOP;  // both STOP when size is 0
  CompactType value_type = CompactType::STOP;
  uint32_t size = 0;
};

class ThriftCompactReader {
 public:
  static constexpr int kMaxNestingDepth = 64;

  ThriftCompactReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t position() const { return position_; }
  size_t remaining() const { return size_ - position_; }

  // Struct framing: BeginStruct before the first field header, EndStruct after the STOP
  // returned by ReadFieldHeader. Throws when nesting would exceed kMaxNestingDepth.
  void BeginStruct();
  void EndStruct();

  // Reads the next field header of the current struct. For a boolean field the value is
  // held back and returned by the next ReadBool() (or dropped by Skip).
  ThriftFieldHeader ReadFieldHeader();

  bool ReadBool();  // after a boolean field header: its value; else one element byte
  int8_t ReadByte();
  int16_t ReadI16();
  int32_t ReadI32();
  int64_t ReadI64();
  double ReadDouble();
  std::string ReadBinary();
  std::string_view ReadBinaryView();  // points into the input buffer
  ThriftListHeader ReadListHeader();  // also for sets
  ThriftMapHeader ReadMapHeader();

  // Raw ULEB128 varint (at most 10 bytes, at most 64 bits of value).
  uint64_t ReadVarint();

  // Skips one value of the given wire type, including nested structs and containers.
  void Skip(CompactType type);

 private:
  static constexpr size_t kVarintMaxBytes = 10;

  uint8_t ReadRawByte();
  void CheckWireType(uint8_t type_id, const char* where) const;
  void EnterNested();
  void LeaveNested() { --depth_; }
  void SkipValue(CompactType type);

  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
  int depth_ = 0;             // structs open plus containers being skipped
  int struct_depth_ = 0;      // structs open; index into saved_field_ids_
  int16_t last_field_id_ = 0; // of the innermost open struct
  int16_t saved_field_ids_[kMaxNestingDepth + 1] = {};
  bool has_pending_bool_ = false;
  bool pending_bool_ = false;
};

class ThriftCompactWriter {
 public:
  explicit ThriftCompactWriter(std::string* out) : string_out_(out) {}
  explicit ThriftCompactWriter(std::vector<uint8_t>* out) : vector_out_(out) {}

  // BeginStruct before the first field; EndStruct writes the STOP byte.
  void BeginStruct();
  void EndStruct();

  // Field header for a non-boolean field; the value must follow.
  void WriteFieldHeader(CompactType type, int16_t id);
  // A complete boolean field (header carries the value).
  void WriteBoolField(int16_t id, bool value);

  void WriteBool(bool value);  // a boolean list/map element: one byte
  void WriteByte(int8_t value);
  void WriteI16(int16_t value);
  void WriteI32(int32_t value);
  void WriteI64(int64_t value);
  void WriteDouble(double value);
  void WriteBinary(std::string_view value);
  void WriteListHeader(CompactType element_type, uint32_t size);  // also for sets
  void WriteMapHeader(CompactType key_type, CompactType value_type, uint32_t size);
  void WriteVarint(uint64_t value);

 private:
  void Append(const void* bytes, size_t count);
  void AppendByte(uint8_t byte) { Append(&byte, 1); }

  std::string* string_out_ = nullptr;
  std::vector<uint8_t>* vector_out_ = nullptr;
  int16_t last_field_id_ = 0;
  std::vector<int16_t> saved_field_ids_;
};

}  // namespace parquet
