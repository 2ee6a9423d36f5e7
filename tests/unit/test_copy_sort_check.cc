// Unit tests for parquet_copy's sorting_columns check (ext/copy/copy_sort_check.h): each
// comparison in the column's Parquet order, NULL placement, direction, ties broken by the
// next key, and rows compared across batches but not across row groups.
#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "ext/copy/copy_sort_check.h"

namespace sqlite_parquet {
namespace {

using parquet::ValueComparison;

LeafData Int32s(const std::vector<std::optional<int32_t>>& values) {
  LeafData leaf;
  leaf.physical_type = parquet::Type::INT32;
  for (const auto& v : values) {
    leaf.def_levels().push_back(v ? 1 : 0);
    if (v) leaf.int32s.push_back(*v);
  }
  return leaf;
}

LeafData Doubles(const std::vector<double>& values) {
  LeafData leaf;
  leaf.physical_type = parquet::Type::DOUBLE;
  for (double v : values) {
    leaf.def_levels().push_back(1);
    leaf.doubles.push_back(v);
  }
  return leaf;
}

LeafData Bytes(const std::vector<std::string>& values) {
  LeafData leaf;
  leaf.physical_type = parquet::Type::BYTE_ARRAY;
  for (const std::string& v : values) {
    leaf.def_levels().push_back(1);
    const uint8_t* copy = v.empty() ? nullptr : leaf.arena.Append(reinterpret_cast<const uint8_t*>(v.data()), v.size());
    leaf.byte_arrays.push_back(parquet::ByteArray{copy, static_cast<uint32_t>(v.size())});
  }
  return leaf;
}

SortKey Key(ValueComparison comparison, bool descending = false, bool nulls_first = true) {
  SortKey key;
  key.name = "k";
  key.comparison = comparison;
  key.descending = descending;
  key.nulls_first = nulls_first;
  return key;
}

// The first row out of order in one batch of one key, or -1.
int64_t FirstOutOfOrder(const SortKey& key, const LeafData& leaf) {
  SortedRowsCheck check({key});
  size_t which = 99;
  return check.Check({&leaf}, leaf.def_levels().size(), &which);
}

TEST_CASE("copy sort check: integers signed and unsigned, NULL placement, direction") {
  const LeafData mixed = Int32s({std::nullopt, -5, 0, 7});
  CHECK(FirstOutOfOrder(Key(ValueComparison::kSignedInteger), mixed) == -1);
  // As UINT32, -5 is 4294967291: above 0 and 7.
  CHECK(FirstOutOfOrder(Key(ValueComparison::kUnsignedInteger), mixed) == 2);
  CHECK(FirstOutOfOrder(Key(ValueComparison::kUnsignedInteger), Int32s({0, 7, -5, -1})) == -1);
  // NULLS LAST: the leading NULL is out of order at the next row.
  CHECK(FirstOutOfOrder(Key(ValueComparison::kSignedInteger, false, false), mixed) == 1);
  CHECK(FirstOutOfOrder(Key(ValueComparison::kSignedInteger, true, false), Int32s({7, 7, -5, std::nullopt})) == -1);
  CHECK(FirstOutOfOrder(Key(ValueComparison::kSignedInteger, true, true), Int32s({7, 7, -5, std::nullopt})) == 3);
  CHECK(FirstOutOfOrder(Key(ValueComparison::kSignedInteger), Int32s({1, 1, 1})) == -1);
}

TEST_CASE("copy sort check: decimals by value, bytes unsigned, NaN last among doubles") {
  // Big-endian two's complement: -1 (FF), -0.5e0 style widths mixed.
  const LeafData decimals = Bytes({std::string("\xFF\x00", 2), std::string("\xFF", 1), std::string("\x00", 1), "\x01\x00"});
  CHECK(FirstOutOfOrder(Key(ValueComparison::kSignedBigEndian), decimals) == -1);
  CHECK(FirstOutOfOrder(Key(ValueComparison::kUnsignedBytes), decimals) == 1);  // FF00 > FF as bytes
  CHECK(FirstOutOfOrder(Key(ValueComparison::kUnsignedBytes), Bytes({"", "a", "ab", "b", "\xC3\xA9"})) == -1);
  CHECK(FirstOutOfOrder(Key(ValueComparison::kUnsignedBytes), Bytes({"b", "ab"})) == 1);
  CHECK(FirstOutOfOrder(Key(ValueComparison::kFloatingPoint), Doubles({-INFINITY, -0.0, 0.0, 2.5, NAN, NAN})) == -1);
  CHECK(FirstOutOfOrder(Key(ValueComparison::kFloatingPoint), Doubles({1.0, NAN, 2.0})) == 2);
}

TEST_CASE("copy sort check: ties go to the next key; batches continue, row groups restart") {
  SortedRowsCheck check({Key(ValueComparison::kSignedInteger), Key(ValueComparison::kSignedInteger, true)});
  size_t key = 99;
  const LeafData a1 = Int32s({1, 1, 2}), b1 = Int32s({9, 3, 100});
  CHECK(check.Check({&a1, &b1}, 3, &key) == -1);
  // The next batch starts below the last row (2, 100) by the second key: out of order.
  const LeafData a2 = Int32s({2, 3}), b2 = Int32s({101, 0});
  CHECK(check.Check({&a2, &b2}, 2, &key) == 0);
  CHECK(key == 1);
  check.StartRowGroup();
  CHECK(check.Check({&a2, &b2}, 2, &key) == -1);
  // Text kept from the previous batch is compared after its batch is gone.
  SortedRowsCheck text({Key(ValueComparison::kUnsignedBytes)});
  {
    const LeafData first = Bytes({"apple", "melon"});
    CHECK(text.Check({&first}, 2, &key) == -1);
  }
  const LeafData second = Bytes({"lemon"});
  CHECK(text.Check({&second}, 1, &key) == 0);
}

}  // namespace
}  // namespace sqlite_parquet
