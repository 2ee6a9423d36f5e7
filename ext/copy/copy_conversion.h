// What the scalar and the nested conversions of parquet_copy's values share
// (copy_scalar_values.cc, copy_nested_values.cc; the conversions are described in
// copy_values.h): a value put into its leaf as a scalar, the message of a value that does
// not fit, and the conversion of a nested column.
#pragma once

#include <string>
#include <vector>

#include "ext/copy/copy_values.h"

namespace sqlite_parquet {

inline bool IsBytes(const SqlValue& v) { return v.type == SqlValue::Type::kText || v.type == SqlValue::Type::kBlob; }

// Defined in copy_scalar_values.cc:
bool PutScalar(const CopyType& type, const SqlValue& v, bool copy, LeafData* leaf);
std::string DescribeFailure(const SqlValue& v, const CopyType& type);

// Defined in copy_nested_values.cc: a LIST, MAP, STRUCT or VARIANT column (the JSON text of
// each value) converted into its leaves.
bool ConvertNested(const CopyType& type, const ValueColumn& column, bool null_on_error, std::vector<LeafData>* leaves,
                   ConversionFailure* failure);

}  // namespace sqlite_parquet
