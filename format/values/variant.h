// Decoding of the Parquet Variant binary encoding (VariantEncoding.md in parquet-format):
// a metadata buffer (version, string dictionary) and a value buffer, turned into JSON text.
//
// JSON forms of the variant types (the same text forms as top-level columns and nested
// JSON, ext/common/nested_json.h):
//   null, true/false; int8..int64 exact digits; float/double the shortest digits that read
//   back as the same value of that width, in JavaScript's number form (1e+21, 1e-7), ".0"
//   appended when neither '.' nor an exponent appears, NaN and infinities null;
//   decimal4/8/16 the exact decimal number with `scale` fraction digits;
//   date "YYYY-MM-DD"; time "HH:MM:SS[.fraction]"; timestamps (micros or nanos, UTC or
//   not) "YYYY-MM-DD HH:MM:SS[.fraction]" in UTC; binary a base64 string (RFC 4648, '='
//   padding); string and short string JSON strings; uuid "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
//   object {"key":value,...} in field-id order (keys sorted, as the encoding stores them);
//   array [...].
//
// Every length, offset and dictionary index is checked against its buffer; nesting is
// limited to kMaxVariantDepth levels. Malformed input throws ParquetError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parquet {

inline constexpr int kMaxVariantDepth = 256;

// Parsed view of a variant metadata buffer (the bytes must outlive the view).
class VariantMetadata {
 public:
  // Checks the header, version (1) and the offset table's bounds.
  VariantMetadata(const uint8_t* bytes, size_t length);

  uint32_t dictionary_size() const { return dictionary_size_; }
  // The dictionary string at `id`; throws ParquetError when id is out of range or its
  // offsets are not increasing within the buffer.
  std::string_view Key(uint32_t id) const;

 private:
  const uint8_t* bytes_;
  size_t length_;
  uint32_t offset_size_ = 1;
  uint32_t dictionary_size_ = 0;
  size_t offsets_start_ = 0;
  size_t strings_start_ = 0;
};

// Appends the JSON text of the variant value in value[0..length) to *out.
void AppendVariantJson(const VariantMetadata& metadata, const uint8_t* value, size_t length,
                       std::string* out);

// One field of a variant object: its key (from the metadata dictionary) and the bytes of
// its value (views into the buffers given to ReadVariantObjectFields).
struct VariantField {
  std::string_view key;
  uint32_t id = 0;  // its index in the metadata dictionary
  const uint8_t* value = nullptr;
  size_t length = 0;
};

// When value[0..length) is a variant object, replaces *fields with its fields in stored
// (key) order and returns true; returns false, leaving *fields alone, for any other variant
// type. Offsets and field ids are checked as AppendVariantJson checks them.
bool ReadVariantObjectFields(const VariantMetadata& metadata, const uint8_t* value, size_t length,
                             std::vector<VariantField>* fields);

// When value[0..length) is a variant array, replaces *elements with views of its elements
// (each exactly its encoded bytes) and returns true; false for any other variant type.
bool ReadVariantArrayElements(const uint8_t* value, size_t length, std::vector<std::pair<const uint8_t*, size_t>>* elements);

// The number of bytes of the one encoded value that starts at value[0] (a value of an
// object field may be followed by others: this is where it ends). Throws ParquetError when
// it does not fit in `length`.
size_t VariantValueSize(const uint8_t* value, size_t length);

// Convenience: the JSON text of a metadata + value pair.
std::string VariantToJson(const uint8_t* metadata, size_t metadata_length, const uint8_t* value,
                          size_t value_length);

}  // namespace parquet
