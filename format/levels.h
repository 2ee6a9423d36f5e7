// Definition levels as the readers and writer use them: a slot holds a value exactly when
// its definition level is the column's maximum.
#pragma once

#include <cstddef>
#include <cstdint>

namespace parquet {

// How many of the `count` slots at `def_levels` hold a value (level == max_definition_level).
inline size_t CountDefinedLevels(const int16_t* def_levels, size_t count, int16_t max_definition_level) {
  size_t defined = 0;
  for (size_t i = 0; i < count; i++) defined += (def_levels[i] == max_definition_level);
  return defined;
}

}  // namespace parquet
