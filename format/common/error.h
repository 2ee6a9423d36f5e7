// The one exception type of the format library: every malformed input, unsupported
// feature or I/O failure is reported by throwing ParquetError with a message that names
// what is wrong (and, where the caller knows it, the file, column, row group and page).
#pragma once

#include <stdexcept>
#include <string>

namespace parquet {

class ParquetError : public std::runtime_error {
 public:
  explicit ParquetError(const std::string& message) : std::runtime_error(message) {}
};

// Throws ParquetError(message) when condition is false. For checks on input data.
inline void Require(bool condition, const char* message) {
  if (!condition) throw ParquetError(message);
}

}  // namespace parquet
