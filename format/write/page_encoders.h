// The value encoders of the writer's data pages (one per encoding, behind one interface per
// value type): what a column chunk writer puts a page's non-null values into, and how it
// learns the page's size so far. The encodings themselves are in format/encoding/.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "format/encoding/dictionary.h"
#include "format/metadata/enums.h"
#include "format/common/physical_values.h"
#include "format/metadata/schema.h"

namespace parquet {

template <typename T>
class PageValueEncoder {
 public:
  virtual ~PageValueEncoder() = default;
  virtual void Put(const T* values, size_t count) = 0;
  // Encoded size of the values put since the last Flush (an estimate for some encodings).
  virtual size_t EstimatedBytes() const = 0;
  // Appends the encoded values put since the last Flush and starts the next page.
  virtual void Flush(std::string* out) = 0;
};

// The encoder of `encoding` for the data pages of `column` (PLAIN, RLE, DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, as EncodingApplies allows;
// sizes are exact for PLAIN, estimates for the others). Throws ParquetError for an encoding
// that does not apply to T and the column's type.
template <typename T>
std::unique_ptr<PageValueEncoder<T>> MakePageEncoder(Encoding encoding, const ColumnDescriptor& column);

// RLE_DICTIONARY: the indices of the page's values in the chunk's `dictionary` (which the
// chunk writer owns and writes as the dictionary page); a page holds at most
// `max_page_values` values.
template <typename T>
std::unique_ptr<PageValueEncoder<T>> MakeDictionaryPageEncoder(DictionaryEncoder<T>* dictionary,
                                                               size_t max_page_values);

extern template std::unique_ptr<PageValueEncoder<bool>> MakePageEncoder<bool>(Encoding, const ColumnDescriptor&);
extern template std::unique_ptr<PageValueEncoder<int32_t>> MakePageEncoder<int32_t>(Encoding, const ColumnDescriptor&);
extern template std::unique_ptr<PageValueEncoder<int64_t>> MakePageEncoder<int64_t>(Encoding, const ColumnDescriptor&);
extern template std::unique_ptr<PageValueEncoder<Int96>> MakePageEncoder<Int96>(Encoding, const ColumnDescriptor&);
extern template std::unique_ptr<PageValueEncoder<float>> MakePageEncoder<float>(Encoding, const ColumnDescriptor&);
extern template std::unique_ptr<PageValueEncoder<double>> MakePageEncoder<double>(Encoding, const ColumnDescriptor&);
extern template std::unique_ptr<PageValueEncoder<ByteArray>> MakePageEncoder<ByteArray>(Encoding, const ColumnDescriptor&);

}  // namespace parquet
