// Tests of shredded VARIANT writing (format/values/variant_shredding.h): the schema and
// leaves of a shredding, the levels and values each variant leaves in every column (the
// cases of VariantShredding.md: fully and partially shredded objects, missing fields,
// null fields, values of another type, arrays with null elements, empty arrays), and
// the shredding chosen from samples.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "format/values/variant.h"
#include "format/values/variant_encoder.h"
#include "format/values/variant_shredding.h"

namespace {

using parquet::VariantShredding;
using Kind = VariantShredding::Kind;

VariantShredding Primitive(Kind kind) {
  VariantShredding s;
  s.kind = kind;
  return s;
}

VariantShredding ArrayOf(VariantShredding element) {
  VariantShredding s;
  s.kind = Kind::kArray;
  s.element.push_back(std::move(element));
  return s;
}

// Each leaf's entries as text: "d<def>r<rep>" and "=<value>" when it has one (bytes that
// are a variant value shown as its JSON, with the row's metadata).
class RecordingSink : public parquet::VariantLeafSink {
 public:
  explicit RecordingSink(size_t leaves) : entries(leaves) {}
  std::vector<std::vector<std::string>> entries;
  std::string metadata;       // of the row being written, to show variant bytes as JSON
  std::vector<bool> variant;  // per leaf: its bytes are variant values

  void Level(int leaf, int16_t def, int16_t rep) override { Add(leaf, def, rep, ""); }
  void Boolean(int leaf, int16_t def, int16_t rep, bool value) override { Add(leaf, def, rep, value ? "true" : "false"); }
  void Int32(int leaf, int16_t def, int16_t rep, int32_t value) override { Add(leaf, def, rep, std::to_string(value)); }
  void Int64(int leaf, int16_t def, int16_t rep, int64_t value) override { Add(leaf, def, rep, std::to_string(value)); }
  void Double(int leaf, int16_t def, int16_t rep, double value) override { Add(leaf, def, rep, std::to_string(value)); }
  void Bytes(int leaf, int16_t def, int16_t rep, const uint8_t* data, size_t size) override {
    if (leaf > 0 && static_cast<size_t>(leaf) < variant.size() && variant[static_cast<size_t>(leaf)]) {
      Add(leaf, def, rep,
          parquet::VariantToJson(reinterpret_cast<const uint8_t*>(metadata.data()), metadata.size(), data, size));
    } else {
      Add(leaf, def, rep, leaf == 0 ? "m" : std::string(reinterpret_cast<const char*>(data), size));
    }
  }

 private:
  void Add(int leaf, int16_t def, int16_t rep, const std::string& value) {
    entries[static_cast<size_t>(leaf)].push_back("d" + std::to_string(def) + "r" + std::to_string(rep) +
                                                  (value.empty() ? "" : "=" + value));
  }
};

// Writes the JSON rows ("" for NULL) and returns each leaf's entries.
std::vector<std::vector<std::string>> Shred(const VariantShredding* shredding, const std::vector<std::string>& rows,
                                            const std::vector<int>& variant_leaves) {
  parquet::ShreddedVariantWriter writer(shredding);
  RecordingSink sink(writer.leaves().size());
  sink.variant.assign(writer.leaves().size(), false);
  for (int leaf : variant_leaves) sink.variant[static_cast<size_t>(leaf)] = true;
  for (const std::string& json : rows) {
    if (json.empty()) {
      writer.WriteNull(&sink);
      continue;
    }
    std::string value, error;
    REQUIRE_MESSAGE(parquet::EncodeJsonAsVariant(json, &sink.metadata, &value, &error), error);
    writer.Write(sink.metadata, value, &sink);
  }
  return sink.entries;
}

std::string Chosen(const std::vector<std::string>& rows) {
  parquet::VariantShreddingChooser chooser;
  for (const std::string& json : rows) {
    std::string metadata, value, error;
    REQUIRE_MESSAGE(parquet::EncodeJsonAsVariant(json, &metadata, &value, &error), error);
    chooser.Add(metadata, value);
  }
  const std::optional<VariantShredding> chosen = chooser.Choose();
  return chosen ? parquet::DescribeVariantShredding(*chosen) : "none";
}

using Entries = std::vector<std::string>;

}  // namespace

TEST_CASE("variant shredding: schema and leaves of an object with a primitive, an array and a decimal") {
  VariantShredding s;
  s.kind = Kind::kObject;
  VariantShredding decimal = Primitive(Kind::kDecimal);
  decimal.precision = 20;
  decimal.scale = 2;
  s.fields = {{"a", Primitive(Kind::kInt16)}, {"b", ArrayOf(Primitive(Kind::kString))}, {"c", decimal}};
  CHECK(parquet::DescribeVariantShredding(s) == "{a:INT16,b:[STRING],c:DECIMAL(20,2)}");
  std::vector<parquet::SchemaElement> elements;
  int32_t next_id = 1;
  parquet::AppendVariantSchemaElements("v", parquet::FieldRepetitionType::OPTIONAL, &s, &next_id, &elements);
  std::vector<std::string> names;
  for (const auto& e : elements) names.push_back(e.name);
  CHECK(names == std::vector<std::string>{"v", "metadata", "value", "typed_value", "a", "value", "typed_value", "b",
                                          "value", "typed_value", "list", "element", "value", "typed_value", "c",
                                          "value", "typed_value"});
  CHECK(next_id == 18);
  CHECK(elements[0].logical_type->kind == parquet::LogicalType::Kind::VARIANT);
  CHECK(elements[0].num_children == 3);
  CHECK(elements[1].repetition_type == parquet::FieldRepetitionType::REQUIRED);
  CHECK(elements[2].repetition_type == parquet::FieldRepetitionType::OPTIONAL);
  CHECK(elements[4].repetition_type == parquet::FieldRepetitionType::REQUIRED);  // field group
  CHECK(elements[6].type == parquet::Type::INT32);
  CHECK(elements[6].logical_type->int_bit_width == 8 * 2);
  CHECK(elements[9].converted_type == parquet::ConvertedType::LIST);
  CHECK(elements[10].repetition_type == parquet::FieldRepetitionType::REPEATED);
  CHECK(elements[11].repetition_type == parquet::FieldRepetitionType::REQUIRED);  // element group
  CHECK(elements[13].logical_type->kind == parquet::LogicalType::Kind::STRING);
  CHECK(elements[16].type == parquet::Type::FIXED_LEN_BYTE_ARRAY);
  CHECK(elements[16].type_length == 16);
  CHECK(elements[16].logical_type->decimal_precision == 20);

  const std::vector<parquet::VariantLeaf> leaves = parquet::VariantLeaves(&s);
  REQUIRE(leaves.size() == 9);
  const int16_t expected_def[] = {1, 2, 3, 3, 3, 5, 5, 3, 3};
  const int16_t expected_rep[] = {0, 0, 0, 0, 0, 1, 1, 0, 0};
  for (size_t i = 0; i < leaves.size(); ++i) {
    CAPTURE(i);
    CHECK(leaves[i].max_definition_level == expected_def[i]);
    CHECK(leaves[i].max_repetition_level == expected_rep[i]);
  }
  // Unshredded: required metadata and value.
  elements.clear();
  parquet::AppendVariantSchemaElements("v", parquet::FieldRepetitionType::OPTIONAL, nullptr, nullptr, &elements);
  REQUIRE(elements.size() == 3);
  CHECK(elements[2].repetition_type == parquet::FieldRepetitionType::REQUIRED);
  CHECK(parquet::VariantLeaves(nullptr).size() == 2);
}

TEST_CASE("variant shredding: an object's fields, leftovers, missing and null fields, other types") {
  VariantShredding s;
  s.kind = Kind::kObject;
  s.fields = {{"a", Primitive(Kind::kInt64)}, {"b", Primitive(Kind::kString)}};
  // Leaves: 0 metadata, 1 value, 2 a.value, 3 a.typed_value, 4 b.value, 5 b.typed_value.
  const auto entries = Shred(&s,
                             {R"({"a":1,"b":"x"})", R"({"a":2,"z":[true],"b":"y"})", R"({"c":1})", R"("str")", "",
                              "null", R"({"a":null,"b":5})", "{}"},
                             {1, 2, 4});
  CHECK(entries[0] == Entries{"d1r0=m", "d1r0=m", "d1r0=m", "d1r0=m", "d0r0", "d1r0=m", "d1r0=m", "d1r0=m"});
  CHECK(entries[1] == Entries{"d1r0", "d2r0={\"z\":[true]}", "d2r0={\"c\":1}", "d2r0=\"str\"", "d0r0", "d2r0=null",
                              "d1r0", "d1r0"});
  CHECK(entries[2] == Entries{"d2r0", "d2r0", "d2r0", "d1r0", "d0r0", "d1r0", "d3r0=null", "d2r0"});
  CHECK(entries[3] == Entries{"d3r0=1", "d3r0=2", "d2r0", "d1r0", "d0r0", "d1r0", "d2r0", "d2r0"});
  CHECK(entries[4] == Entries{"d2r0", "d2r0", "d2r0", "d1r0", "d0r0", "d1r0", "d3r0=5", "d2r0"});
  CHECK(entries[5] == Entries{"d3r0=x", "d3r0=y", "d2r0", "d1r0", "d0r0", "d1r0", "d2r0", "d2r0"});
}

TEST_CASE("variant shredding: arrays, their null and mismatched elements, empty arrays, nested objects") {
  VariantShredding inner;
  inner.kind = Kind::kObject;
  inner.fields = {{"k", Primitive(Kind::kInt8)}};
  const VariantShredding s = ArrayOf(inner);
  // Leaves: 0 metadata, 1 value, 2 element.value, 3 element.typed_value.k.value,
  // 4 element.typed_value.k.typed_value. An element exists at level 3 (typed_value 2, list
  // entry 3), its typed_value object at 4, k's value or typed_value at 5.
  const auto entries = Shred(&s, {R"([{"k":1},{"k":300,"x":0},null])", "[]", R"({"k":1})"}, {1, 2, 3});
  CHECK(entries[1] == Entries{"d1r0", "d1r0", "d2r0={\"k\":1}"});
  CHECK(entries[2] == Entries{"d3r0", "d4r1={\"x\":0}", "d4r1=null", "d2r0", "d1r0"});
  CHECK(entries[3] == Entries{"d4r0", "d5r1=300", "d3r1", "d2r0", "d1r0"});
  CHECK(entries[4] == Entries{"d5r0=1", "d4r1", "d3r1", "d2r0", "d1r0"});
}

TEST_CASE("variant shredding: primitives take only values of their type that fit") {
  VariantShredding decimal = Primitive(Kind::kDecimal);
  decimal.precision = 4;
  decimal.scale = 2;
  const auto decimals = Shred(&decimal, {"12.50", "1.5", "99.99", "100.00", "12"}, {1});
  CHECK(decimals[1] == Entries{"d1r0", "d2r0=1.5", "d1r0", "d2r0=100.00", "d2r0=12"});
  CHECK(decimals[2] == Entries{"d2r0=1250", "d1r0", "d2r0=9999", "d1r0", "d1r0"});
  const VariantShredding int8 = Primitive(Kind::kInt8);
  const auto ints = Shred(&int8, {"-128", "128", "1.0", "true"}, {1});
  CHECK(ints[2] == Entries{"d2r0=-128", "d1r0", "d1r0", "d1r0"});
  const VariantShredding dbl = Primitive(Kind::kDouble);
  const auto doubles = Shred(&dbl, {"1e3", "1", "1.5"}, {1});
  CHECK(doubles[2] == Entries{"d2r0=1000.000000", "d1r0", "d1r0"});  // 1 int8, 1.5 a decimal: not doubles
  const VariantShredding boolean = Primitive(Kind::kBoolean);
  CHECK(Shred(&boolean, {"true", "false", "0"}, {1})[2] == Entries{"d2r0=true", "d2r0=false", "d1r0"});
  const VariantShredding text = Primitive(Kind::kString);
  const std::string long_text(70, 'x');
  CHECK(Shred(&text, {"\"" + long_text + "\"", "\"\"", "[]"}, {1})[2] == Entries{"d2r0=" + long_text, "d2r0", "d1r0"});
}

TEST_CASE("variant shredding: the choice from samples") {
  CHECK(Chosen({"1", "2", "300"}) == "INT16");
  CHECK(Chosen({"1", "\"a\"", "\"b\""}) == "STRING");
  CHECK(Chosen({"1", "\"a\""}) == "none");  // no class holds more than half
  CHECK(Chosen({"1.25", "2.50", "3.5"}) == "DECIMAL(9,2)");
  CHECK(Chosen({"123456789012.25", "0.01"}) == "DECIMAL(18,2)");
  CHECK(Chosen({"0.0000000001"}) == "DECIMAL(18,10)");  // the scale needs the precision
  CHECK(Chosen({"1e3", "2e3"}) == "DOUBLE");
  CHECK(Chosen({"true", "null", "false"}) == "BOOLEAN");
  // Fields present with one class in more than half of the objects.
  CHECK(Chosen({R"({"a":1,"b":"x","c":1})", R"({"a":2,"b":3})", R"({"a":3,"b":"y"})", R"({"a":"s","b":"z"})"}) ==
        "{a:INT8,b:STRING}");
  CHECK(Chosen({R"({"a":1})", R"({"b":1})"}) == "none");  // each in half the objects only
  CHECK(Chosen({R"({"t":[1,2,3]})", R"({"t":[4,"x"]})", R"({"t":{"u":1}})", "[1]"}) == "{t:[INT8]}");
  CHECK(Chosen({R"([{"k":"v"},{"k":"w","l":1}])", "[]"}) == "[{k:STRING}]");
  CHECK(Chosen({"[]", "[]"}) == "none");  // no elements to choose from
  CHECK(Chosen({R"({"o":{"p":{"q":true}}})"}) == "{o:{p:{q:BOOLEAN}}}");
  CHECK(Chosen({R"({"a b":1,"c\"d":2})"}) == R"({"a b":INT8,"c""d":INT8})");
  // Of names equal but for case, the most frequent only.
  CHECK(Chosen({R"({"a":1,"A":"x"})", R"({"a":2,"A":"y"})", R"({"a":3})"}) == "{a:INT8}");
}
