// Unit tests of the Thrift compact protocol reader and writer (format/metadata/thrift_compact.h):
// exact byte encodings, round trips, skipping, and rejection of malformed input.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "format/common/error.h"
#include "format/metadata/thrift_compact.h"

namespace parquet {
namespace {

std::vector<uint8_t> Bytes(std::initializer_list<int> values) {
  std::vector<uint8_t> out;
  for (int v : values) out.push_back(static_cast<uint8_t>(v));
  return out;
}

std::vector<uint8_t> ToBytes(const std::string& s) { return {s.begin(), s.end()}; }

ThriftCompactReader ReaderOf(const std::vector<uint8_t>& bytes) {
  return ThriftCompactReader(bytes.data(), bytes.size());
}

std::vector<uint8_t> VarintBytes(uint64_t value) {
  std::vector<uint8_t> out;
  ThriftCompactWriter writer(&out);
  writer.WriteVarint(value);
  return out;
}

// Reads a whole top-level struct, skipping every field.
void SkipWholeStruct(const uint8_t* data, size_t size) {
  ThriftCompactReader reader(data, size);
  reader.Skip(CompactType::STRUCT);
}

// A struct exercising every wire type, nested containers and both field header forms.
std::vector<uint8_t> RichStruct() {
  std::vector<uint8_t> out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteBoolField(1, true);
  w.WriteFieldHeader(CompactType::BYTE, 2);
  w.WriteByte(-7);
  w.WriteFieldHeader(CompactType::I16, 3);
  w.WriteI16(-300);
  w.WriteFieldHeader(CompactType::I32, 4);
  w.WriteI32(123456);
  w.WriteFieldHeader(CompactType::I64, 30);  // long-form header
  w.WriteI64(std::numeric_limits<int64_t>::min());
  w.WriteFieldHeader(CompactType::DOUBLE, 31);
  w.WriteDouble(-2.25);
  w.WriteFieldHeader(CompactType::BINARY, 32);
  w.WriteBinary("hello");
  w.WriteFieldHeader(CompactType::LIST, 33);
  w.WriteListHeader(CompactType::STRUCT, 2);
  for (int i = 0; i < 2; ++i) {
    w.BeginStruct();
    w.WriteBoolField(1, i == 0);
    w.WriteFieldHeader(CompactType::MAP, 2);
    w.WriteMapHeader(CompactType::BINARY, CompactType::BOOLEAN_TRUE, 2);
    w.WriteBinary("k1");
    w.WriteBool(true);
    w.WriteBinary("k2");
    w.WriteBool(false);
    w.EndStruct();
  }
  w.WriteFieldHeader(CompactType::SET, 34);
  w.WriteListHeader(CompactType::I32, 20);  // long list header
  for (int i = 0; i < 20; ++i) w.WriteI32(i - 10);
  w.WriteFieldHeader(CompactType::MAP, 35);
  w.WriteMapHeader(CompactType::I32, CompactType::I32, 0);
  w.WriteBoolField(36, false);
  w.EndStruct();
  return out;
}

}  // namespace

TEST_CASE("zigzag maps small magnitudes of either sign to small numbers") {
  CHECK(ZigzagEncode(0) == 0u);
  CHECK(ZigzagEncode(-1) == 1u);
  CHECK(ZigzagEncode(1) == 2u);
  CHECK(ZigzagEncode(-2) == 3u);
  CHECK(ZigzagEncode(2147483647) == 4294967294u);
  CHECK(ZigzagEncode(-2147483648LL) == 4294967295u);
  CHECK(ZigzagEncode(std::numeric_limits<int64_t>::max()) ==
        std::numeric_limits<uint64_t>::max() - 1);
  CHECK(ZigzagEncode(std::numeric_limits<int64_t>::min()) ==
        std::numeric_limits<uint64_t>::max());
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{63}, int64_t{-64}, int64_t{1} << 40,
                    std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    CHECK(ZigzagDecode(ZigzagEncode(v)) == v);
  }
}

TEST_CASE("varints are ULEB128, least significant group first") {
  CHECK(VarintBytes(0) == Bytes({0x00}));
  CHECK(VarintBytes(1) == Bytes({0x01}));
  CHECK(VarintBytes(127) == Bytes({0x7f}));
  CHECK(VarintBytes(128) == Bytes({0x80, 0x01}));
  CHECK(VarintBytes(300) == Bytes({0xac, 0x02}));
  CHECK(VarintBytes(std::numeric_limits<uint64_t>::max()) ==
        Bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));

  auto bytes = Bytes({0xac, 0x02});
  auto reader = ReaderOf(bytes);
  CHECK(reader.ReadVarint() == 300u);
  CHECK(reader.remaining() == 0u);
}

TEST_CASE("i64 extremes round-trip through zigzag varints") {
  std::vector<uint8_t> out;
  ThriftCompactWriter writer(&out);
  writer.WriteI64(std::numeric_limits<int64_t>::min());
  writer.WriteI64(std::numeric_limits<int64_t>::max());
  writer.WriteI64(-1);
  CHECK(out.size() == 10u + 10u + 1u);
  CHECK(out[0] == 0xff);
  CHECK(out[9] == 0x01);   // last group of UINT64_MAX
  CHECK(out[10] == 0xfe);  // INT64_MAX -> UINT64_MAX - 1
  CHECK(out[20] == 0x01);  // -1 -> 1
  auto reader = ReaderOf(out);
  CHECK(reader.ReadI64() == std::numeric_limits<int64_t>::min());
  CHECK(reader.ReadI64() == std::numeric_limits<int64_t>::max());
  CHECK(reader.ReadI64() == -1);
}

TEST_CASE("i16 and i32 extremes round-trip and oversized values are rejected") {
  std::string out;
  ThriftCompactWriter writer(&out);
  writer.WriteI32(std::numeric_limits<int32_t>::min());
  writer.WriteI32(std::numeric_limits<int32_t>::max());
  writer.WriteI16(std::numeric_limits<int16_t>::min());
  writer.WriteI16(std::numeric_limits<int16_t>::max());
  CHECK(out.size() == 5u + 5u + 3u + 3u);
  auto bytes = ToBytes(out);
  auto reader = ReaderOf(bytes);
  CHECK(reader.ReadI32() == std::numeric_limits<int32_t>::min());
  CHECK(reader.ReadI32() == std::numeric_limits<int32_t>::max());
  CHECK(reader.ReadI16() == std::numeric_limits<int16_t>::min());
  CHECK(reader.ReadI16() == std::numeric_limits<int16_t>::max());

  auto too_big_i32 = VarintBytes(uint64_t{1} << 32);
  auto r32 = ReaderOf(too_big_i32);
  CHECK_THROWS_AS(r32.ReadI32(), ParquetError);
  auto too_big_i16 = VarintBytes(uint64_t{1} << 16);
  auto r16 = ReaderOf(too_big_i16);
  CHECK_THROWS_AS(r16.ReadI16(), ParquetError);
}

TEST_CASE("overlong and overflowing varints are rejected") {
  // 11 bytes: ten continuation bytes, then a terminator.
  auto eleven = Bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00});
  auto r1 = ReaderOf(eleven);
  CHECK_THROWS_WITH_AS(r1.ReadVarint(), doctest::Contains("longer than 10 bytes"), ParquetError);
  // 10 bytes whose last group carries more than the one remaining bit of a uint64.
  auto overflow = Bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02});
  auto r2 = ReaderOf(overflow);
  CHECK_THROWS_WITH_AS(r2.ReadVarint(), doctest::Contains("overflows"), ParquetError);
  // A varint that stops mid-way.
  auto truncated = Bytes({0x80, 0x80});
  auto r3 = ReaderOf(truncated);
  CHECK_THROWS_WITH_AS(r3.ReadVarint(), doctest::Contains("truncated"), ParquetError);
}

TEST_CASE("field headers use the delta form up to 15 and the long form otherwise") {
  std::vector<uint8_t> out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::I32, 1);   // delta 1
  w.WriteI32(5);
  w.WriteFieldHeader(CompactType::I32, 16);  // delta 15
  w.WriteI32(0);
  w.WriteFieldHeader(CompactType::I64, 40);  // delta 24: long form
  w.WriteI64(1);
  w.WriteFieldHeader(CompactType::I32, 3);   // decreasing: long form
  w.WriteI32(-1);
  w.WriteFieldHeader(CompactType::BINARY, -5);  // negative id: long form
  w.WriteBinary("");
  w.EndStruct();
  CHECK(out == Bytes({0x15, 0x0a, 0xf5, 0x00, 0x06, 0x50, 0x02, 0x05, 0x06, 0x01,
                      0x08, 0x09, 0x00, 0x00}));

  auto reader = ReaderOf(out);
  reader.BeginStruct();
  auto h = reader.ReadFieldHeader();
  CHECK(h.type == CompactType::I32);
  CHECK(h.id == 1);
  CHECK(reader.ReadI32() == 5);
  h = reader.ReadFieldHeader();
  CHECK(h.id == 16);
  CHECK(reader.ReadI32() == 0);
  h = reader.ReadFieldHeader();
  CHECK(h.type == CompactType::I64);
  CHECK(h.id == 40);
  CHECK(reader.ReadI64() == 1);
  h = reader.ReadFieldHeader();
  CHECK(h.id == 3);
  CHECK(reader.ReadI32() == -1);
  h = reader.ReadFieldHeader();
  CHECK(h.type == CompactType::BINARY);
  CHECK(h.id == -5);
  CHECK(reader.ReadBinary().empty());
  CHECK(reader.ReadFieldHeader().type == CompactType::STOP);
  reader.EndStruct();
  CHECK(reader.remaining() == 0u);
}

TEST_CASE("field ids are tracked per struct") {
  std::vector<uint8_t> out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::STRUCT, 5);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::I32, 1);  // delta from 0 inside the nested struct
  w.WriteI32(7);
  w.EndStruct();
  w.WriteFieldHeader(CompactType::I32, 6);  // delta 1 from 5 again
  w.WriteI32(8);
  w.EndStruct();
  CHECK(out == Bytes({0x5c, 0x15, 0x0e, 0x00, 0x15, 0x10, 0x00}));

  auto reader = ReaderOf(out);
  reader.BeginStruct();
  CHECK(reader.ReadFieldHeader().id == 5);
  reader.BeginStruct();
  CHECK(reader.ReadFieldHeader().id == 1);
  CHECK(reader.ReadI32() == 7);
  CHECK(reader.ReadFieldHeader().type == CompactType::STOP);
  reader.EndStruct();
  auto h = reader.ReadFieldHeader();
  CHECK(h.id == 6);
  CHECK(reader.ReadI32() == 8);
}

TEST_CASE("field ids outside the i16 range are rejected") {
  // Long form with a zigzag value beyond 16 bits.
  auto long_form = Bytes({0x05, 0x80, 0x80, 0x04, 0x00});
  auto r1 = ReaderOf(long_form);
  r1.BeginStruct();
  CHECK_THROWS_AS(r1.ReadFieldHeader(), ParquetError);
  // Field 32767 followed by a delta that passes the i16 maximum.
  auto delta_overflow = Bytes({0x05, 0xfe, 0xff, 0x03, 0x00, 0x15, 0x00, 0x00});
  auto r2 = ReaderOf(delta_overflow);
  r2.BeginStruct();
  CHECK(r2.ReadFieldHeader().id == 32767);
  CHECK(r2.ReadI32() == 0);
  CHECK_THROWS_WITH_AS(r2.ReadFieldHeader(), doctest::Contains("field id 32768"), ParquetError);
}

TEST_CASE("booleans: value in the field header, one byte as list element") {
  std::vector<uint8_t> out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteBoolField(1, true);
  w.WriteBoolField(2, false);
  w.WriteFieldHeader(CompactType::LIST, 3);
  w.WriteListHeader(CompactType::BOOLEAN_TRUE, 3);
  w.WriteBool(true);
  w.WriteBool(false);
  w.WriteBool(true);
  w.EndStruct();
  CHECK(out == Bytes({0x11, 0x12, 0x19, 0x31, 0x01, 0x02, 0x01, 0x00}));

  auto reader = ReaderOf(out);
  reader.BeginStruct();
  auto h = reader.ReadFieldHeader();
  CHECK(h.type == CompactType::BOOLEAN_TRUE);
  CHECK(reader.ReadBool() == true);
  h = reader.ReadFieldHeader();
  CHECK(h.type == CompactType::BOOLEAN_FALSE);
  CHECK(reader.ReadBool() == false);
  h = reader.ReadFieldHeader();
  auto list = reader.ReadListHeader();
  CHECK(list.element_type == CompactType::BOOLEAN_TRUE);
  CHECK(list.size == 3u);
  CHECK(reader.ReadBool() == true);
  CHECK(reader.ReadBool() == false);
  CHECK(reader.ReadBool() == true);

  // 0 is accepted as false in an element; anything other than 0, 1, 2 is not.
  auto elements = Bytes({0x00, 0x03});
  auto r2 = ReaderOf(elements);
  CHECK(r2.ReadBool() == false);
  CHECK_THROWS_AS(r2.ReadBool(), ParquetError);
}

TEST_CASE("list headers: size in the nibble below 15, varint size from 15 on") {
  std::vector<uint8_t> out;
  ThriftCompactWriter w(&out);
  w.WriteListHeader(CompactType::I32, 0);
  w.WriteListHeader(CompactType::I32, 14);
  w.WriteListHeader(CompactType::I32, 15);
  w.WriteListHeader(CompactType::STRUCT, 300);
  CHECK(out == Bytes({0x05, 0xe5, 0xf5, 0x0f, 0xfc, 0xac, 0x02}));
  // Pad so the sizes are plausible for the bytes remaining.
  out.resize(out.size() + 400, 0);
  auto reader = ReaderOf(out);
  CHECK(reader.ReadListHeader().size == 0u);
  CHECK(reader.ReadListHeader().size == 14u);
  CHECK(reader.ReadListHeader().size == 15u);
  auto h = reader.ReadListHeader();
  CHECK(h.size == 300u);
  CHECK(h.element_type == CompactType::STRUCT);
}

TEST_CASE("map headers, doubles and binaries have their exact encodings") {
  std::vector<uint8_t> out;
  ThriftCompactWriter w(&out);
  w.WriteMapHeader(CompactType::I32, CompactType::BINARY, 0);
  w.WriteMapHeader(CompactType::I32, CompactType::BINARY, 2);
  w.WriteDouble(1.5);
  w.WriteBinary("abc");
  w.WriteByte(-1);
  CHECK(out == Bytes({0x00, 0x02, 0x58, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f, 0x03,
                      'a', 'b', 'c', 0xff}));
  auto reader = ReaderOf(out);
  auto empty = reader.ReadMapHeader();
  CHECK(empty.size == 0u);
  auto map = reader.ReadMapHeader();
  CHECK(map.size == 2u);
  CHECK(map.key_type == CompactType::I32);
  CHECK(map.value_type == CompactType::BINARY);
  CHECK(reader.ReadDouble() == 1.5);
  CHECK(reader.ReadBinaryView() == "abc");
  CHECK(reader.ReadByte() == -1);
  CHECK(reader.remaining() == 0u);
}

TEST_CASE("writer output to std::string and std::vector is identical") {
  std::string as_string;
  std::vector<uint8_t> as_vector;
  for (int pass = 0; pass < 2; ++pass) {
    ThriftCompactWriter w = pass == 0 ? ThriftCompactWriter(&as_string)
                                      : ThriftCompactWriter(&as_vector);
    w.BeginStruct();
    w.WriteFieldHeader(CompactType::BINARY, 1);
    w.WriteBinary("xyz");
    w.WriteBoolField(2, true);
    w.EndStruct();
  }
  CHECK(ToBytes(as_string) == as_vector);
  CHECK(as_vector == Bytes({0x18, 0x03, 'x', 'y', 'z', 0x11, 0x00}));
}

TEST_CASE("unknown fields are skipped, including nested structs, lists and maps") {
  auto rich = RichStruct();
  std::vector<uint8_t> out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::I32, 1);
  w.WriteI32(11);
  w.WriteFieldHeader(CompactType::STRUCT, 2);
  out.insert(out.end(), rich.begin(), rich.end());  // the nested struct as an unknown field
  w.WriteFieldHeader(CompactType::I32, 3);
  w.WriteI32(33);
  w.EndStruct();

  auto reader = ReaderOf(out);
  reader.BeginStruct();
  int32_t first = 0, third = 0;
  while (true) {
    auto h = reader.ReadFieldHeader();
    if (h.type == CompactType::STOP) break;
    if (h.id == 1) first = reader.ReadI32();
    else if (h.id == 3) third = reader.ReadI32();
    else reader.Skip(h.type);
  }
  reader.EndStruct();
  CHECK(first == 11);
  CHECK(third == 33);
  CHECK(reader.remaining() == 0u);
}

TEST_CASE("the rich struct reads back value by value") {
  auto rich = RichStruct();
  auto r = ReaderOf(rich);
  r.BeginStruct();
  CHECK(r.ReadFieldHeader().id == 1);
  CHECK(r.ReadBool() == true);
  CHECK(r.ReadFieldHeader().id == 2);
  CHECK(r.ReadByte() == -7);
  CHECK(r.ReadFieldHeader().id == 3);
  CHECK(r.ReadI16() == -300);
  CHECK(r.ReadFieldHeader().id == 4);
  CHECK(r.ReadI32() == 123456);
  CHECK(r.ReadFieldHeader().id == 30);
  CHECK(r.ReadI64() == std::numeric_limits<int64_t>::min());
  CHECK(r.ReadFieldHeader().id == 31);
  CHECK(r.ReadDouble() == -2.25);
  CHECK(r.ReadFieldHeader().id == 32);
  CHECK(r.ReadBinary() == "hello");
  CHECK(r.ReadFieldHeader().id == 33);
  r.Skip(CompactType::LIST);
  auto h = r.ReadFieldHeader();
  CHECK(h.type == CompactType::SET);
  auto set = r.ReadListHeader();
  CHECK(set.size == 20u);
  for (int i = 0; i < 20; ++i) CHECK(r.ReadI32() == i - 10);
  CHECK(r.ReadFieldHeader().id == 35);
  CHECK(r.ReadMapHeader().size == 0u);
  h = r.ReadFieldHeader();
  CHECK(h.id == 36);
  CHECK(r.ReadBool() == false);
  CHECK(r.ReadFieldHeader().type == CompactType::STOP);
  r.EndStruct();
  CHECK(r.remaining() == 0u);
}

TEST_CASE("nesting deeper than 64 is rejected") {
  // depth structs, each but the innermost holding the next as field 1.
  auto nested_structs = [](int depth) {
    std::vector<uint8_t> out(static_cast<size_t>(depth - 1), 0x1c);
    out.insert(out.end(), static_cast<size_t>(depth), 0x00);
    return out;
  };
  auto ok = nested_structs(64);
  CHECK_NOTHROW(SkipWholeStruct(ok.data(), ok.size()));
  auto too_deep = nested_structs(65);
  CHECK_THROWS_WITH_AS(SkipWholeStruct(too_deep.data(), too_deep.size()),
                       doctest::Contains("nesting depth"), ParquetError);

  // Lists count as nesting levels too: a struct holding 64 lists, each with one list.
  std::vector<uint8_t> lists = {0x19};
  for (int i = 0; i < 63; ++i) lists.push_back(0x19);  // list of 1 list
  lists.push_back(0x05);                                 // innermost: empty list of i32
  lists.push_back(0x00);
  CHECK_THROWS_WITH_AS(SkipWholeStruct(lists.data(), lists.size()),
                       doctest::Contains("nesting depth"), ParquetError);

  // A hostile input far deeper than the limit fails cleanly, without exhausting the stack.
  auto very_deep = nested_structs(100000);
  CHECK_THROWS_AS(SkipWholeStruct(very_deep.data(), very_deep.size()), ParquetError);
}

TEST_CASE("truncation at every byte position gives ParquetError") {
  auto rich = RichStruct();
  CHECK_NOTHROW(SkipWholeStruct(rich.data(), rich.size()));
  for (size_t length = 0; length < rich.size(); ++length) {
    // Copy the prefix to its own buffer so any over-read would hit the allocation's end.
    std::vector<uint8_t> prefix(rich.begin(), rich.begin() + static_cast<ptrdiff_t>(length));
    CAPTURE(length);
    CHECK_THROWS_AS(SkipWholeStruct(prefix.data(), prefix.size()), ParquetError);
  }
}

TEST_CASE("huge claimed sizes are rejected before allocating") {
  // list<i32> claiming 4,000,000 elements with 3 bytes behind it.
  auto list = Bytes({0xf5, 0x80, 0x92, 0xf4, 0x01, 0x02, 0x04, 0x06});
  auto r1 = ReaderOf(list);
  CHECK_THROWS_WITH_AS(r1.ReadListHeader(),
                       doctest::Contains("list of 4000000 elements exceeds the 3 bytes remaining"),
                       ParquetError);
  // binary claiming 2^40 bytes.
  std::vector<uint8_t> binary = VarintBytes(uint64_t{1} << 40);
  binary.push_back('x');
  auto r2 = ReaderOf(binary);
  CHECK_THROWS_WITH_AS(r2.ReadBinary(), doctest::Contains("exceeds the 1 bytes remaining"),
                       ParquetError);
  // map claiming more entries than could fit (each needs at least two bytes).
  auto map = Bytes({0x03, 0x55, 0x02, 0x02, 0x04});
  auto r3 = ReaderOf(map);
  CHECK_THROWS_WITH_AS(r3.ReadMapHeader(), doctest::Contains("map of 3 entries"), ParquetError);
  // list size beyond i32.
  std::vector<uint8_t> giant = {0xf5};
  auto size = VarintBytes(uint64_t{1} << 35);
  giant.insert(giant.end(), size.begin(), size.end());
  auto r4 = ReaderOf(giant);
  CHECK_THROWS_AS(r4.ReadListHeader(), ParquetError);
  // The same claims inside a skipped field fail the same way.
  auto skipped = Bytes({0x19, 0xf5, 0x80, 0x92, 0xf4, 0x01, 0x00});
  CHECK_THROWS_WITH_AS(SkipWholeStruct(skipped.data(), skipped.size()),
                       doctest::Contains("exceeds"), ParquetError);
}

TEST_CASE("invalid wire types are rejected") {
  for (int type : {13, 14, 15}) {
    CAPTURE(type);
    auto field = Bytes({0x10 | type, 0x00, 0x00});
    CHECK_THROWS_WITH_AS(SkipWholeStruct(field.data(), field.size()),
                         doctest::Contains("invalid thrift wire type"), ParquetError);
    auto list = Bytes({0x10 | type, 0x00});
    auto r = ReaderOf(list);
    CHECK_THROWS_AS(r.ReadListHeader(), ParquetError);
    auto map = Bytes({0x01, (type << 4) | 0x05, 0x00, 0x00});
    auto rm = ReaderOf(map);
    CHECK_THROWS_AS(rm.ReadMapHeader(), ParquetError);
  }
  // STOP is not an element type.
  auto stop_list = Bytes({0x10, 0x00});
  auto r = ReaderOf(stop_list);
  CHECK_THROWS_AS(r.ReadListHeader(), ParquetError);
  // Skip refuses STOP itself.
  auto any = Bytes({0x00});
  auto r2 = ReaderOf(any);
  CHECK_THROWS_AS(r2.Skip(CompactType::STOP), ParquetError);
}

TEST_CASE("doubles and fixed-size reads check the bytes remaining") {
  auto short_double = Bytes({0x00, 0x00, 0x00});
  auto r = ReaderOf(short_double);
  CHECK_THROWS_AS(r.ReadDouble(), ParquetError);
  auto nothing = Bytes({});
  auto r2 = ThriftCompactReader(nothing.data(), 0);
  CHECK_THROWS_AS(r2.ReadByte(), ParquetError);
  CHECK_THROWS_AS(r2.ReadFieldHeader(), ParquetError);
  CHECK_THROWS_AS(r2.ReadBool(), ParquetError);
}

TEST_CASE("wire type names") {
  CHECK(ToString(CompactType::I32) == "i32");
  CHECK(ToString(CompactType::STRUCT) == "struct");
  CHECK(ToString(static_cast<CompactType>(13)) == "invalid type 13");
}

}  // namespace parquet
