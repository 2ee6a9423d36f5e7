// Tests of the classification of nested fields into struct/list/map shapes: the standard
// LIST and MAP layouts, every backward-compatibility rule of LogicalTypes.md, bare repeated
// fields, malformed annotations, empty groups, and the levels each shape is read with.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "format/metadata/nested_schema.h"
#include "format/metadata/schema.h"
#include "tests/unit/schema_elements.h"

using namespace parquet;

namespace {

using test_support::GroupElement;
using test_support::LeafElement;
using test_support::LogicalOfKind;
using test_support::WithLogical;

using R = FieldRepetitionType;

// Compact text of a shape tree: value "v@D", struct "{name:...,...}@D",
// list "[element]@D/E/R", map "<key,value>@D/E/R" (D = def_level, E = element_def_level,
// R = rep_level), empty "empty".
std::string ShapeText(const NestedFieldShape& field, int index = 0) {
  const Shape& s = field.shape(index);
  auto levels = [&](bool container) {
    std::string t = "@" + std::to_string(s.def_level);
    if (container) t += "/" + std::to_string(s.element_def_level) + "/" + std::to_string(s.rep_level);
    return t;
  };
  std::string out;
  switch (s.kind) {
    case ShapeKind::kValue:
      return "v" + levels(false);
    case ShapeKind::kEmpty:
      return "empty";
    case ShapeKind::kStruct:
      out = "{";
      for (size_t i = 0; i < s.children.size(); i++) {
        if (i) out += ",";
        out += field.shape(s.children[i]).name + ":" + ShapeText(field, s.children[i]);
      }
      return out + "}" + levels(false);
    case ShapeKind::kList:
      return "[" + ShapeText(field, s.children[0]) + "]" + levels(true);
    case ShapeKind::kMap:
      out = "<" + ShapeText(field, s.children[0]);
      if (s.children.size() > 1) out += "," + ShapeText(field, s.children[1]);
      return out + ">" + levels(true);
  }
  return "?";
}

std::string FieldText(const std::vector<SchemaElement>& elements, int field = 0) {
  Schema schema = Schema::FromElements(elements);
  return ShapeText(DescribeNestedField(schema, field));
}

}  // namespace

TEST_CASE("nested schema: the standard 3-level LIST, by ConvertedType or LogicalType") {
  // optional group a (LIST) { repeated group list { optional int32 element; } }
  std::vector<SchemaElement> converted = {
      GroupElement("m", 1, std::nullopt),
      GroupElement("a", 1, R::OPTIONAL, ConvertedType::LIST),
      GroupElement("list", 1, R::REPEATED),
      LeafElement("element", R::OPTIONAL),
  };
  CHECK(FieldText(converted) == "[v@3]@1/2/1");
  std::vector<SchemaElement> logical = converted;
  logical[1].converted_type.reset();
  logical[1] = WithLogical(logical[1], LogicalOfKind(LogicalType::Kind::LIST));
  CHECK(FieldText(logical) == "[v@3]@1/2/1");
  // Required list of required elements: never null, elements never null.
  std::vector<SchemaElement> required = {
      GroupElement("m", 1, std::nullopt),
      GroupElement("a", 1, R::REQUIRED, ConvertedType::LIST),
      GroupElement("list", 1, R::REPEATED),
      LeafElement("element", R::REQUIRED),
  };
  CHECK(FieldText(required) == "[v@1]@0/1/1");
}

TEST_CASE("nested schema: legacy list rules 1 to 5") {
  SUBCASE("rule 1: a repeated primitive is the required element (2-level list)") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("my_list", 1, R::OPTIONAL, ConvertedType::LIST),
                     LeafElement("element", R::REPEATED)}) == "[v@2]@1/2/1");
  }
  SUBCASE("rule 2: a repeated group of several fields is the element") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("my_list", 1, R::OPTIONAL, ConvertedType::LIST),
                     GroupElement("element", 2, R::REPEATED), LeafElement("str", R::REQUIRED, Type::BYTE_ARRAY),
                     LeafElement("num", R::REQUIRED)}) == "[{str:v@2,num:v@2}@2]@1/2/1");
  }
  SUBCASE("rule 3: a repeated group whose only field is repeated is the element (list of lists)") {
    // old_list_structure.parquet: required group a (LIST) { repeated group array (LIST) { repeated int32 array; } }
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("a", 1, R::REQUIRED, ConvertedType::LIST),
                     GroupElement("array", 1, R::REPEATED, ConvertedType::LIST), LeafElement("array", R::REPEATED)}) ==
          "[[v@2]@1/2/2]@0/1/1");
  }
  SUBCASE("rule 4: a one-field group named array or <name>_tuple is the element (a one-tuple)") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("my_list", 1, R::OPTIONAL, ConvertedType::LIST),
                     GroupElement("array", 1, R::REPEATED), LeafElement("str", R::REQUIRED, Type::BYTE_ARRAY)}) ==
          "[{str:v@2}@2]@1/2/1");
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("my_list", 1, R::OPTIONAL, ConvertedType::LIST),
                     GroupElement("my_list_tuple", 1, R::REPEATED), LeafElement("str", R::REQUIRED, Type::BYTE_ARRAY)}) ==
          "[{str:v@2}@2]@1/2/1");
    // Another name: the 3-level reading (rule 5) applies instead.
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("my_list", 1, R::OPTIONAL, ConvertedType::LIST),
                     GroupElement("other_tuple", 1, R::REPEATED), LeafElement("str", R::REQUIRED, Type::BYTE_ARRAY)}) ==
          "[v@2]@1/2/1");
  }
  SUBCASE("rule 5: otherwise the only field is the element, with its own repetition") {
    // The names list/element are not required: repeated group "element" { optional binary str; }
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("my_list", 1, R::OPTIONAL, ConvertedType::LIST),
                     GroupElement("element", 1, R::REPEATED), LeafElement("str", R::OPTIONAL, Type::BYTE_ARRAY)}) ==
          "[v@3]@1/2/1");
  }
}

TEST_CASE("nested schema: maps, MAP_KEY_VALUE, maps without values, optional keys") {
  SUBCASE("standard MAP with an optional value; names found by position") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("my_map", 1, R::OPTIONAL, ConvertedType::MAP),
                     GroupElement("map", 2, R::REPEATED), LeafElement("str", R::REQUIRED, Type::BYTE_ARRAY),
                     LeafElement("num", R::OPTIONAL)}) == "<v@2,v@3>@1/2/1");
  }
  SUBCASE("MAP_KEY_VALUE outside a MAP is a map") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("my_map", 1, R::OPTIONAL, ConvertedType::MAP_KEY_VALUE),
                     GroupElement("map", 2, R::REPEATED), LeafElement("key", R::REQUIRED, Type::BYTE_ARRAY),
                     LeafElement("value", R::OPTIONAL)}) == "<v@2,v@3>@1/2/1");
  }
  SUBCASE("MAP_KEY_VALUE on the repeated group inside a MAP (Impala, Hive)") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("int_map", 1, R::OPTIONAL, ConvertedType::MAP),
                     GroupElement("map", 2, R::REPEATED, ConvertedType::MAP_KEY_VALUE),
                     LeafElement("key", R::REQUIRED, Type::BYTE_ARRAY), LeafElement("value", R::OPTIONAL)}) == "<v@2,v@3>@1/2/1");
  }
  SUBCASE("a map without a value field has only keys") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("my_map", 1, R::REQUIRED, ConvertedType::MAP),
                     GroupElement("key_value", 1, R::REPEATED), LeafElement("key", R::REQUIRED)}) == "<v@1>@0/1/1");
  }
  SUBCASE("an optional key is accepted") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("my_map", 1, R::OPTIONAL, ConvertedType::MAP),
                     GroupElement("key_value", 2, R::REPEATED, ConvertedType::MAP_KEY_VALUE),
                     LeafElement("key", R::OPTIONAL, Type::BYTE_ARRAY), LeafElement("value", R::OPTIONAL, Type::BYTE_ARRAY)}) ==
          "<v@3,v@3>@1/2/1");
  }
  SUBCASE("a map of maps and a list of maps") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("a", 1, R::OPTIONAL, ConvertedType::MAP),
                     GroupElement("key_value", 2, R::REPEATED), LeafElement("key", R::REQUIRED, Type::BYTE_ARRAY),
                     GroupElement("value", 1, R::OPTIONAL, ConvertedType::MAP), GroupElement("key_value", 2, R::REPEATED),
                     LeafElement("key", R::REQUIRED), LeafElement("value", R::REQUIRED, Type::BOOLEAN)}) ==
          "<v@2,<v@4,v@4>@3/4/2>@1/2/1");
  }
}

TEST_CASE("nested schema: bare repeated fields are required lists of required elements") {
  // repeated_primitive_no_list.parquet and repeated_no_annotation.parquet.
  std::vector<SchemaElement> elements = {
      GroupElement("schema", 3, std::nullopt),
      LeafElement("Int32_list", R::REPEATED),
      GroupElement("group_of_lists", 1, R::REQUIRED),
      LeafElement("Int32_list_in_group", R::REPEATED),
      GroupElement("phoneNumbers", 1, R::OPTIONAL),
      GroupElement("phone", 2, R::REPEATED),
      LeafElement("number", R::REQUIRED, Type::INT64),
      LeafElement("kind", R::OPTIONAL, Type::BYTE_ARRAY),
  };
  Schema schema = Schema::FromElements(elements);
  CHECK(ShapeText(DescribeNestedField(schema, 0)) == "[v@1]@0/1/1");
  CHECK(ShapeText(DescribeNestedField(schema, 1)) == "{Int32_list_in_group:[v@1]@0/1/1}@0");
  CHECK(ShapeText(DescribeNestedField(schema, 2)) == "{phone:[{number:v@2,kind:v@3}@2]@1/2/1}@1");
  CHECK(IsNestedField(schema, 0));
  CHECK(IsNestedField(schema, 1));
  CHECK(IsNestedField(schema, 2));
}

TEST_CASE("nested schema: structs, leaf ranges and names") {
  // nullable.impala-like: optional group s { optional int32 A; optional group b (LIST) {...}; optional group C { ... } }
  std::vector<SchemaElement> elements = {
      GroupElement("m", 2, std::nullopt),
      LeafElement("id", R::OPTIONAL, Type::INT64),
      GroupElement("s", 3, R::OPTIONAL),
      LeafElement("A", R::OPTIONAL),
      GroupElement("b", 1, R::OPTIONAL, ConvertedType::LIST),
      GroupElement("list", 1, R::REPEATED),
      LeafElement("element", R::OPTIONAL),
      GroupElement("C", 1, R::OPTIONAL),
      LeafElement("d", R::OPTIONAL, Type::DOUBLE),
  };
  Schema schema = Schema::FromElements(elements);
  CHECK_FALSE(IsNestedField(schema, 0));
  CHECK(ShapeText(DescribeNestedField(schema, 0)) == "v@1");
  NestedFieldShape s = DescribeNestedField(schema, 1);
  CHECK(ShapeText(s) == "{A:v@2,b:[v@4]@2/3/1,C:{d:v@3}@2}@1");
  CHECK(s.first_column == 1);
  CHECK(s.column_count == 3);
  CHECK(s.root().first_leaf == 0);
  CHECK(s.root().leaf_count == 3);
  const Shape& b = s.shape(s.root().children[1]);
  CHECK(b.name == "b");
  CHECK(b.first_leaf == 1);
  CHECK(b.leaf_count == 1);
  const Shape& element = s.shape(b.children[0]);
  CHECK(element.kind == ShapeKind::kValue);
  CHECK(element.column == 2);
  CHECK(element.parent == s.root().children[1]);
  const Shape& c = s.shape(s.root().children[2]);
  CHECK(c.first_leaf == 2);
  CHECK(s.shape(c.children[0]).column == 3);
}

TEST_CASE("nested schema: annotations without the required layout, empty groups, VARIANT") {
  SUBCASE("LIST whose child is not repeated is a struct") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("a", 1, R::OPTIONAL, ConvertedType::LIST),
                     LeafElement("x", R::OPTIONAL)}) == "{x:v@2}@1");
  }
  SUBCASE("LIST with two children is a struct (the repeated one a list)") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("a", 2, R::OPTIONAL, ConvertedType::LIST),
                     LeafElement("x", R::REPEATED), LeafElement("y", R::OPTIONAL)}) == "{x:[v@2]@1/2/1,y:v@2}@1");
  }
  SUBCASE("MAP whose repeated group has three fields is a struct holding a list of structs") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("a", 1, R::OPTIONAL, ConvertedType::MAP),
                     GroupElement("kv", 3, R::REPEATED), LeafElement("k", R::REQUIRED), LeafElement("v", R::REQUIRED),
                     LeafElement("w", R::REQUIRED)}) == "{kv:[{k:v@2,v:v@2,w:v@2}@2]@1/2/1}@1");
  }
  SUBCASE("a repeated MAP_KEY_VALUE group outside a MAP reads as a list of key/value structs") {
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), GroupElement("map", 2, R::REPEATED, ConvertedType::MAP_KEY_VALUE),
                     LeafElement("key", R::REQUIRED), LeafElement("value", R::OPTIONAL)}) == "[{key:v@1,value:v@2}@1]@0/1/1");
  }
  SUBCASE("groups without leaves are empty, and do not take part in leaf ranges") {
    Schema schema = Schema::FromElements({GroupElement("m", 2, std::nullopt), GroupElement("e", 0, R::OPTIONAL),
                                          GroupElement("s", 2, R::OPTIONAL), GroupElement("nothing", 0, R::REQUIRED),
                                          LeafElement("x", R::OPTIONAL)});
    CHECK(ShapeText(DescribeNestedField(schema, 0)) == "empty");
    NestedFieldShape s = DescribeNestedField(schema, 1);
    CHECK(ShapeText(s) == "{nothing:empty,x:v@2}@1");
    CHECK(s.root().first_leaf == 0);
    CHECK(s.root().leaf_count == 1);
  }
  SUBCASE("a VARIANT group is a struct of its fields") {
    SchemaElement v = WithLogical(GroupElement("v", 2, R::OPTIONAL), LogicalOfKind(LogicalType::Kind::VARIANT));
    CHECK(FieldText({GroupElement("m", 1, std::nullopt), v, LeafElement("metadata", R::REQUIRED, Type::BYTE_ARRAY),
                     LeafElement("value", R::OPTIONAL, Type::BYTE_ARRAY)}) == "{metadata:v@1,value:v@2}@1");
  }
}

TEST_CASE("nested schema: deep nesting stays within the schema limits") {
  // 20 optional LISTs inside one another: 41 schema levels below the root.
  std::vector<SchemaElement> elements = {GroupElement("m", 1, std::nullopt)};
  const int lists = 20;
  for (int i = 0; i < lists; i++) {
    elements.push_back(GroupElement(i == 0 ? "a" : "element", 1, R::OPTIONAL, ConvertedType::LIST));
    elements.push_back(GroupElement("list", 1, R::REPEATED));
  }
  elements.push_back(LeafElement("element", R::OPTIONAL));
  Schema schema = Schema::FromElements(elements);
  NestedFieldShape s = DescribeNestedField(schema, 0);
  CHECK(s.shapes.size() == static_cast<size_t>(lists + 1));
  const Shape* shape = &s.root();
  for (int i = 0; i < lists; i++) {
    REQUIRE(shape->kind == ShapeKind::kList);
    CHECK(shape->def_level == 2 * i + 1);
    CHECK(shape->element_def_level == 2 * i + 2);
    CHECK(shape->rep_level == i + 1);
    shape = &s.shape(shape->children[0]);
  }
  CHECK(shape->kind == ShapeKind::kValue);
  CHECK(shape->def_level == 2 * lists + 1);
}
