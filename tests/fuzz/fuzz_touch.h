// Reads every byte a ColumnBatch hands out (values, ByteArray payloads, levels), so a
// decoder that returns a view past its buffer shows up under AddressSanitizer, and checks
// the batch's own invariants (no negative levels, one value per slot at the maximum definition
// level).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "format/read/column_reader.h"
#include "format/common/physical_values.h"
#include "format/metadata/schema.h"

namespace parquet_fuzz {

[[noreturn]] inline void Fail(const char* what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what);
  std::abort();
}

inline uint64_t TouchBatch(const parquet::ColumnDescriptor& column, const parquet::ColumnBatch& batch) {
  uint64_t sum = 0;
  size_t defined = 0;
  for (size_t i = 0; i < batch.num_levels; i++) {
    if (column.max_definition_level > 0) {
      int16_t level = batch.def_levels[i];
      // Levels above the maximum are not rejected by ColumnChunkReader (the record
      // assembler rejects them; a flat column reads them as NULL): only negative ones fail.
      if (level < 0) Fail("negative definition level");
      if (level == column.max_definition_level) defined++;
    } else {
      defined++;
    }
    if (column.max_repetition_level > 0) {
      int16_t level = batch.rep_levels[i];
      if (level < 0) Fail("negative repetition level");
    }
  }
  if (defined != batch.num_values) Fail("num_values differs from the slots at the maximum definition level");
  using parquet::Type;
  switch (column.physical_type) {
    case Type::BOOLEAN:
      for (size_t i = 0; i < batch.num_values; i++) sum += batch.values<bool>()[i] ? 1 : 0;
      break;
    case Type::INT32:
      for (size_t i = 0; i < batch.num_values; i++) sum += static_cast<uint32_t>(batch.values<int32_t>()[i]);
      break;
    case Type::INT64:
      for (size_t i = 0; i < batch.num_values; i++) sum += static_cast<uint64_t>(batch.values<int64_t>()[i]);
      break;
    case Type::INT96:
      for (size_t i = 0; i < batch.num_values; i++) sum += batch.values<parquet::Int96>()[i].words[2];
      break;
    case Type::FLOAT:
      for (size_t i = 0; i < batch.num_values; i++) sum += static_cast<uint64_t>(batch.values<float>()[i] > 0);
      break;
    case Type::DOUBLE:
      for (size_t i = 0; i < batch.num_values; i++) sum += static_cast<uint64_t>(batch.values<double>()[i] > 0);
      break;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      for (size_t i = 0; i < batch.num_values; i++) {
        const parquet::ByteArray& value = batch.values<parquet::ByteArray>()[i];
        if (column.physical_type == Type::FIXED_LEN_BYTE_ARRAY &&
            value.len != static_cast<uint32_t>(column.type_length)) {
          Fail("FIXED_LEN_BYTE_ARRAY value of the wrong length");
        }
        for (uint32_t j = 0; j < value.len; j++) sum += value.ptr[j];
      }
      break;
    default:
      break;
  }
  return sum;
}

}  // namespace parquet_fuzz
