// Builders of footer SchemaElements for the unit tests that assemble schemas by hand:
// the root, groups and leaves, and annotations added to an element.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "format/metadata/metadata.h"

namespace test_support {

// The schema root ("schema") with `children` top-level fields.
inline parquet::SchemaElement RootElement(int children) {
  parquet::SchemaElement e;
  e.name = "schema";
  e.num_children = children;
  return e;
}

inline parquet::SchemaElement GroupElement(const std::string& name, int children,
                                           std::optional<parquet::FieldRepetitionType> repetition,
                                           std::optional<parquet::ConvertedType> converted = std::nullopt) {
  parquet::SchemaElement e;
  e.name = name;
  e.num_children = children;
  e.repetition_type = repetition;
  e.converted_type = converted;
  return e;
}

// A leaf; `length` is the FIXED_LEN_BYTE_ARRAY width (0: none).
inline parquet::SchemaElement LeafElement(const std::string& name, parquet::FieldRepetitionType repetition,
                                          parquet::Type type = parquet::Type::INT32, int32_t length = 0) {
  parquet::SchemaElement e;
  e.name = name;
  e.type = type;
  e.repetition_type = repetition;
  if (length) e.type_length = length;
  return e;
}

inline parquet::LogicalType LogicalOfKind(parquet::LogicalType::Kind kind) {
  parquet::LogicalType t;
  t.kind = kind;
  return t;
}

inline parquet::SchemaElement WithConverted(parquet::SchemaElement e, parquet::ConvertedType converted) {
  e.converted_type = converted;
  return e;
}

inline parquet::SchemaElement WithLogical(parquet::SchemaElement e, parquet::LogicalType logical) {
  e.logical_type = logical;
  return e;
}

}  // namespace test_support
