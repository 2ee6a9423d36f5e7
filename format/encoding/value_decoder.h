// The interface every value encoding's decoder implements for one physical type T
// (see physical_values.h for the T of each physical type). A column reader picks one
// decoder per data page (pages of one column chunk may use different encodings) and
// calls it once per batch, never once per value.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/common/physical_values.h"

namespace parquet {

template <typename T>
class ValueDecoder {
 public:
  virtual ~ValueDecoder() = default;

  // Starts decoding a page's value section: `size` bytes at `data` holding at most
  // `num_values` encoded values (the non-null values of the page; a v1 data page only tells
  // its slot count, nulls included, so this can be an upper bound: encodings that carry
  // their own count use it). The bytes must outlive the decoding.
  virtual void SetData(const uint8_t* data, size_t size, size_t num_values) = 0;

  // Decodes the next min(n, remaining) values into out[0..]; returns how many.
  // Throws ParquetError when the data is malformed or shorter than promised.
  virtual size_t Decode(T* out, size_t n) = 0;

  // Skips the next min(n, remaining) values; returns how many were skipped.
  virtual size_t Skip(size_t n) = 0;
};

}  // namespace parquet
