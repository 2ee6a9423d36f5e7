// ParquetFileWriter (see file_writer.h): level and value encoding, page assembly,
// compression, page checksums, statistics (column chunk, page index, size statistics),
// bloom filters, the automatic choice of encodings, and the footer.
//
// Data page v1 body (compressed as a whole):
//   [repetition levels][definition levels][values]; a level section is present only when
//   the column's maximum level is above 0: 4-byte little-endian length + RLE/bit-packed hybrid.
// Data page v2 body:
//   [repetition levels][definition levels] as hybrid runs without length prefix (their byte
//   lengths are in the header), never compressed; then [values], compressed.
// Pages of both versions start at a row boundary (repetition level 0), so the offset index
// can give each page a first row.
//
// Statistics are gathered per page (min/max in the column's order, null and NaN counts,
// level histograms, unencoded byte-array bytes): a page's go into the ColumnIndex /
// OffsetIndex entry of that page, and the pages' merged into the ColumnMetaData. Page
// headers carry no statistics.
#include "format/file_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

#include "format/bloom_filter.h"
#include "format/checksum.h"
#include "format/compression.h"
#include "format/encoding/bit_packing.h"
#include "format/encoding/boolean_rle.h"
#include "format/encoding/byte_stream_split.h"
#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/delta_byte_array.h"
#include "format/encoding/delta_length_byte_array.h"
#include "format/encoding/dictionary.h"
#include "format/encoding/plain.h"
#include "format/encoding/rle_bit_packed_hybrid.h"
#include "format/error.h"
#include "format/statistics.h"

namespace parquet {

namespace {

constexpr char kMagic[4] = {'P', 'A', 'R', '1'};
constexpr char kEncryptedMagic[4] = {'P', 'A', 'R', 'E'};
// Slots appended between two checks of the page size: bounds how far a page overshoots.
constexpr size_t kMaxSlotsPerStep = 1024;
// Slots of the first step into an empty page, before its bytes per slot are known (one, so
// that a page of large values holds just one when one passes page_size).
constexpr size_t kFirstStepSlots = 1;
// Cap on the slots of one page, whatever page_size says: a page of values that encode
// small (dictionary indices of a few distinct values, runs) still ends after this many, so
// the open page's level and index buffers stay small and the page index keeps a useful
// granularity (arrow-rs uses the same default row limit per page).
constexpr size_t kMaxSlotsPerPage = 20000;

template <typename T> constexpr const char* kValueTypeName = "";
template <> inline constexpr const char* kValueTypeName<bool> = "bool";
template <> inline constexpr const char* kValueTypeName<int32_t> = "int32_t";
template <> inline constexpr const char* kValueTypeName<int64_t> = "int64_t";
template <> inline constexpr const char* kValueTypeName<Int96> = "Int96";
template <> inline constexpr const char* kValueTypeName<float> = "float";
template <> inline constexpr const char* kValueTypeName<double> = "double";
template <> inline constexpr const char* kValueTypeName<ByteArray> = "ByteArray";

template <typename T>
bool StoresPhysicalType(Type type) {
  if constexpr (std::is_same_v<T, bool>) return type == Type::BOOLEAN;
  if constexpr (std::is_same_v<T, int32_t>) return type == Type::INT32;
  if constexpr (std::is_same_v<T, int64_t>) return type == Type::INT64;
  if constexpr (std::is_same_v<T, Int96>) return type == Type::INT96;
  if constexpr (std::is_same_v<T, float>) return type == Type::FLOAT;
  if constexpr (std::is_same_v<T, double>) return type == Type::DOUBLE;
  if constexpr (std::is_same_v<T, ByteArray>) {
    return type == Type::BYTE_ARRAY || type == Type::FIXED_LEN_BYTE_ARRAY;
  }
  return false;
}

void AppendLittleEndian32(uint32_t value, std::string* out) {
  char bytes[4] = {static_cast<char>(value), static_cast<char>(value >> 8),
                   static_cast<char>(value >> 16), static_cast<char>(value >> 24)};
  out->append(bytes, 4);
}

void WriteLittleEndian32(uint32_t value, char* out) {
  out[0] = static_cast<char>(value);
  out[1] = static_cast<char>(value >> 8);
  out[2] = static_cast<char>(value >> 16);
  out[3] = static_cast<char>(value >> 24);
}

const uint8_t* BytesOf(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }


// ---------------------------------------------------------------------------------------
// Column chunk statistics.

// How min/max compare for a column (the type-defined order of the spec).
enum class SortOrder {
  kNatural,    // BOOLEAN false < true, signed integers, IEEE floats (NaN skipped)
  kUnsigned,   // unsigned integers; byte arrays as unsigned bytes, lexicographically
  kDecimal,    // byte arrays holding big-endian two's-complement decimals
  kUndefined,  // INT96, INTERVAL, FLOAT16, geospatial: no min/max written
};

SortOrder SortOrderOf(const SchemaNode& node) {
  const std::optional<LogicalType>& logical = node.logical_type;
  const bool has_logical = logical.has_value() && logical->kind != LogicalType::Kind::UNRECOGNIZED;
  switch (*node.physical_type) {
    case Type::BOOLEAN:
    case Type::FLOAT:
    case Type::DOUBLE:
      return SortOrder::kNatural;
    case Type::INT32:
    case Type::INT64:
      if (has_logical && logical->kind == LogicalType::Kind::INTEGER) {
        return logical->int_is_signed ? SortOrder::kNatural : SortOrder::kUnsigned;
      }
      if (!has_logical && node.converted_type.has_value()) {
        switch (*node.converted_type) {
          case ConvertedType::UINT_8:
          case ConvertedType::UINT_16:
          case ConvertedType::UINT_32:
          case ConvertedType::UINT_64:
            return SortOrder::kUnsigned;
          default:
            break;
        }
      }
      return SortOrder::kNatural;
    case Type::INT96:
      return SortOrder::kUndefined;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (has_logical) {
        switch (logical->kind) {
          case LogicalType::Kind::DECIMAL:
            return SortOrder::kDecimal;
          case LogicalType::Kind::FLOAT16:
          case LogicalType::Kind::GEOMETRY:
          case LogicalType::Kind::GEOGRAPHY:
            return SortOrder::kUndefined;
          default:
            return SortOrder::kUnsigned;
        }
      }
      if (node.converted_type == ConvertedType::DECIMAL) return SortOrder::kDecimal;
      if (node.converted_type == ConvertedType::INTERVAL) return SortOrder::kUndefined;
      return SortOrder::kUnsigned;
  }
  return SortOrder::kUndefined;
}

// Whether a byte-array column holds UTF-8 text (its bounds are then cut at characters).
bool IsTextColumn(const SchemaNode& node) {
  if (node.logical_type.has_value()) {
    switch (node.logical_type->kind) {
      case LogicalType::Kind::STRING:
      case LogicalType::Kind::ENUM:
      case LogicalType::Kind::JSON:
        return true;
      default:
        break;
    }
  }
  return node.converted_type == ConvertedType::UTF8 || node.converted_type == ConvertedType::ENUM ||
         node.converted_type == ConvertedType::JSON;
}

// Decodes the UTF-8 character at the start of [data, data + size): its code point and
// length, or false when the bytes are not one well-formed character.
bool DecodeUtf8Character(const uint8_t* data, size_t size, uint32_t* code_point, size_t* length) {
  if (size == 0) return false;
  const uint8_t lead = data[0];
  size_t n;
  uint32_t cp;
  if (lead < 0x80) {
    n = 1, cp = lead;
  } else if ((lead & 0xE0) == 0xC0) {
    n = 2, cp = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    n = 3, cp = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    n = 4, cp = lead & 0x07;
  } else {
    return false;
  }
  if (n > size) return false;
  for (size_t i = 1; i < n; i++) {
    if ((data[i] & 0xC0) != 0x80) return false;
    cp = (cp << 6) | (data[i] & 0x3F);
  }
  static constexpr uint32_t kSmallest[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kSmallest[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
  *code_point = cp;
  *length = n;
  return true;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Length of the longest prefix of at most `limit` bytes that ends at a character boundary
// (for text; any cut for binary).
size_t CutPoint(std::string_view value, size_t limit, bool text) {
  size_t cut = std::min(limit, value.size());
  if (text) {
    while (cut > 0 && cut < value.size() && (static_cast<uint8_t>(value[cut]) & 0xC0) == 0x80) cut--;
  }
  return cut;
}

// A lower bound of `value` in unsigned byte order, at most `limit` bytes: a prefix.
std::string TruncatedLowerBound(std::string_view value, size_t limit, bool text) {
  return std::string(value.substr(0, CutPoint(value, limit, text)));
}

// An upper bound of `value` in unsigned byte order, at most `limit` bytes: a prefix whose
// last byte that can grow grew by one, what followed it dropped. For text, the last
// character that can grow becomes the next code point, so the bound stays valid UTF-8.
// nullopt when no such bound exists (a prefix of only 0xFF bytes, or of U+10FFFF).
std::optional<std::string> TruncatedUpperBound(std::string_view value, size_t limit, bool text) {
  if (text) {
    std::string_view prefix = value.substr(0, CutPoint(value, limit, text));
    // Split the prefix into characters; invalid UTF-8 falls back to bytes below.
    std::vector<size_t> starts;
    bool valid = true;
    for (size_t pos = 0; pos < prefix.size();) {
      uint32_t cp;
      size_t length;
      if (!DecodeUtf8Character(reinterpret_cast<const uint8_t*>(prefix.data()) + pos, prefix.size() - pos, &cp,
                               &length)) {
        valid = false;
        break;
      }
      starts.push_back(pos);
      pos += length;
    }
    if (valid) {
      for (size_t i = starts.size(); i-- > 0;) {
        uint32_t cp;
        size_t length;
        DecodeUtf8Character(reinterpret_cast<const uint8_t*>(prefix.data()) + starts[i],
                            prefix.size() - starts[i], &cp, &length);
        uint32_t next = cp + 1;
        if (next == 0xD800) next = 0xE000;  // surrogates are not characters
        if (next > 0x10FFFF) continue;
        std::string bound(prefix.substr(0, starts[i]));
        AppendUtf8(next, &bound);
        if (bound.size() <= limit) return bound;
      }
      return std::nullopt;
    }
  }
  for (size_t i = std::min(limit, value.size()); i-- > 0;) {
    const uint8_t byte = static_cast<uint8_t>(value[i]);
    if (byte != 0xFF) {
      std::string bound(value.substr(0, i));
      bound.push_back(static_cast<char>(byte + 1));
      return bound;
    }
  }
  return std::nullopt;
}

// Bounds of a page or column chunk, encoded as statistics store them (PLAIN, no length
// prefix), with whether each is the actual value.
struct EncodedBounds {
  std::string min, max;
  bool min_exact = true, max_exact = true;
};

// Shortens byte-array bounds longer than `limit` (0: no limit) where the order allows
// (unsigned bytes; decimals are left whole). A max with no shorter upper bound stays whole.
void TruncateBounds(EncodedBounds* bounds, size_t limit, SortOrder order, bool text) {
  if (limit == 0 || order != SortOrder::kUnsigned) return;
  if (bounds->min.size() > limit) {
    bounds->min = TruncatedLowerBound(bounds->min, limit, text);
    bounds->min_exact = false;
  }
  if (bounds->max.size() > limit) {
    if (std::optional<std::string> upper = TruncatedUpperBound(bounds->max, limit, text)) {
      bounds->max = std::move(*upper);
      bounds->max_exact = false;
    }
  }
}

template <typename T>
T LoadValue(const std::string& bytes) {
  T value{};
  std::memcpy(&value, bytes.data(), std::min(sizeof(T), bytes.size()));
  return value;
}

template <typename T>
int ThreeWay(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// Compares two encoded bounds of a column of physical type `type` in `order`.
int CompareEncoded(Type type, SortOrder order, const std::string& a, const std::string& b) {
  const bool is_unsigned = order == SortOrder::kUnsigned;
  switch (type) {
    case Type::BOOLEAN:
      return ThreeWay(LoadValue<uint8_t>(a), LoadValue<uint8_t>(b));
    case Type::INT32:
      return is_unsigned ? ThreeWay(LoadValue<uint32_t>(a), LoadValue<uint32_t>(b))
                         : ThreeWay(LoadValue<int32_t>(a), LoadValue<int32_t>(b));
    case Type::INT64:
      return is_unsigned ? ThreeWay(LoadValue<uint64_t>(a), LoadValue<uint64_t>(b))
                         : ThreeWay(LoadValue<int64_t>(a), LoadValue<int64_t>(b));
    case Type::FLOAT:
      return ThreeWay(LoadValue<float>(a), LoadValue<float>(b));
    case Type::DOUBLE:
      return ThreeWay(LoadValue<double>(a), LoadValue<double>(b));
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      return order == SortOrder::kDecimal ? CompareSignedBigEndian(a, b) : CompareUnsignedBytes(a, b);
    case Type::INT96:
      break;
  }
  return 0;
}

// Running min and max of non-null values in the column's order, and the NaN count.
template <typename T>
class MinMax {
 public:
  explicit MinMax(SortOrder order) : order_(order) {}

  void Update(const T* values, size_t count) {
    if constexpr (std::is_same_v<T, Int96>) {
      (void)values, (void)count;  // INT96 has no defined order
    } else {
      if (order_ == SortOrder::kUndefined) return;
      for (size_t i = 0; i < count; i++) {
        const T& value = values[i];
        if constexpr (std::is_floating_point_v<T>) {
          if (std::isnan(value)) {
            nan_count_++;
            continue;
          }
        }
        if (!has_value_) {
          min_ = value;
          max_ = value;
          has_value_ = true;
        } else if (Less(value, min_)) {
          min_ = value;
        } else if (Less(max_, value)) {
          max_ = value;
        }
      }
    }
  }

  // Folds another range (a page's) into this one (the chunk's).
  void Merge(const MinMax& other) {
    nan_count_ += other.nan_count_;
    if (other.has_value_) {
      Update(&other.min_, 1);
      Update(&other.max_, 1);
    }
  }

  void Reset() {
    has_value_ = false;
    nan_count_ = 0;
  }

  bool has_value() const { return has_value_; }
  int64_t nan_count() const { return nan_count_; }

  // The PLAIN encoding of min and max (no length prefix), as Statistics stores them.
  void Encode(std::string* min, std::string* max) const {
    if constexpr (std::is_same_v<T, bool>) {
      min->assign(1, static_cast<char>(min_ ? 1 : 0));
      max->assign(1, static_cast<char>(max_ ? 1 : 0));
    } else {
      T low = min_, high = max_;
      if constexpr (std::is_floating_point_v<T>) {
        // Zeros of either sign compare equal; the spec asks for -0 as min and +0 as max.
        if (low == 0) low = std::copysign(T(0), T(-1));
        if (high == 0) high = T(0);
      }
      min->assign(reinterpret_cast<const char*>(&low), sizeof(T));
      max->assign(reinterpret_cast<const char*>(&high), sizeof(T));
    }
  }

 private:
  bool Less(const T& a, const T& b) const {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (order_ == SortOrder::kUnsigned) {
        using Unsigned = std::make_unsigned_t<T>;
        return static_cast<Unsigned>(a) < static_cast<Unsigned>(b);
      }
    }
    return a < b;
  }

  SortOrder order_;
  bool has_value_ = false;
  int64_t nan_count_ = 0;
  T min_{};
  T max_{};
};

// Byte arrays: the extremes are copied (reusing the strings' capacity), the values compared
// as views.
template <>
class MinMax<ByteArray> {
 public:
  explicit MinMax(SortOrder order) : order_(order) {}

  void Update(const ByteArray* values, size_t count) {
    if (order_ == SortOrder::kUndefined) return;
    if (order_ == SortOrder::kDecimal) {
      for (size_t i = 0; i < count; i++) Update(values[i].view());
      return;
    }
    // Unsigned bytes: most values fall strictly between the bounds' first 8 bytes, which
    // settles them without a full comparison.
    for (size_t i = 0; i < count; i++) {
      const std::string_view value = values[i].view();
      if (has_value_) {
        const uint64_t prefix = PrefixOf(value);
        if (prefix > min_prefix_ && prefix < max_prefix_) continue;
        // Up to 8 bytes, equal prefix and length: the value is that bound.
        if (value.size() <= 8 && ((prefix == min_prefix_ && value.size() == min_.size()) ||
                                  (prefix == max_prefix_ && value.size() == max_.size()))) {
          continue;
        }
      }
      Update(value);
    }
  }

  void Merge(const MinMax& other) {
    if (other.has_value_) {
      Update(other.min_);
      Update(other.max_);
    }
  }

  void Reset() { has_value_ = false; }

  bool has_value() const { return has_value_; }
  int64_t nan_count() const { return 0; }

  void Encode(std::string* min, std::string* max) const {
    *min = min_;
    *max = max_;
  }

 private:
  void Update(std::string_view value) {
    if (!has_value_) {
      min_.assign(value);
      max_.assign(value);
      has_value_ = true;
    } else if (Compare(value, min_) < 0) {
      min_.assign(value);
    } else if (Compare(value, max_) > 0) {
      max_.assign(value);
    } else {
      return;
    }
    min_prefix_ = PrefixOf(min_);
    max_prefix_ = PrefixOf(max_);
  }

  // The first 8 bytes as a big-endian number, zero-padded: a < b for two prefixes implies
  // the same order of the values (equal prefixes settle nothing).
  static uint64_t PrefixOf(std::string_view value) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(value.data());
    if (value.size() >= 8) {
      uint64_t word;
      std::memcpy(&word, bytes, 8);
      return std::endian::native == std::endian::little ? __builtin_bswap64(word) : word;
    }
    uint64_t prefix = 0;
    for (size_t i = 0; i < value.size(); i++) prefix |= uint64_t{bytes[i]} << (56 - 8 * i);
    return prefix;
  }

  int Compare(std::string_view a, std::string_view b) const {
    return order_ == SortOrder::kDecimal ? CompareSignedBigEndian(a, b) : CompareUnsignedBytes(a, b);
  }

  SortOrder order_;
  bool has_value_ = false;
  std::string min_;
  std::string max_;
  uint64_t min_prefix_ = 0;  // PrefixOf(min_), PrefixOf(max_)
  uint64_t max_prefix_ = 0;
};

// Estimates the DELTA_BINARY_PACKED size of a stream of integers, as the encoding packs
// them: each miniblock of 32 deltas takes the bit width of its largest delta minus its
// smallest, plus about a bit per value of block headers.
template <typename T>
class DeltaSizeEstimate {
 public:
  void Put(const T* values, size_t count) {
    using Unsigned = std::make_unsigned_t<T>;
    for (size_t i = 0; i < count; i++) {
      const T value = values[i];
      if (!has_previous_) {
        has_previous_ = true;
        previous_ = value;
        continue;
      }
      const T delta = static_cast<T>(static_cast<Unsigned>(value) - static_cast<Unsigned>(previous_));
      previous_ = value;
      if (in_miniblock_ == 0) {
        min_delta_ = max_delta_ = delta;
      } else {
        min_delta_ = std::min(min_delta_, delta);
        max_delta_ = std::max(max_delta_, delta);
      }
      if (++in_miniblock_ == kMiniblock) {
        const Unsigned range = static_cast<Unsigned>(static_cast<Unsigned>(max_delta_) - static_cast<Unsigned>(min_delta_));
        bits_ += kMiniblock * (static_cast<uint64_t>(std::bit_width(range)) + 1);
        miniblocks_++;
        in_miniblock_ = 0;
      }
    }
  }

  double BitsPerValue() const {
    return miniblocks_ == 0 ? sizeof(T) * 8 : static_cast<double>(bits_) / static_cast<double>(miniblocks_ * kMiniblock);
  }


 private:
  static constexpr uint64_t kMiniblock = 32;
  bool has_previous_ = false;
  T previous_{};
  T min_delta_{}, max_delta_{};
  uint64_t in_miniblock_ = 0;
  uint64_t miniblocks_ = 0;
  uint64_t bits_ = 0;
};

// ---------------------------------------------------------------------------------------
// Value encoders of one data page, behind one interface per value type.

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

// PLAIN through PlainEncoder / PlainFixedLenEncoder: sizes are exact.
template <typename T, typename Encoder>
class PlainPageEncoder final : public PageValueEncoder<T> {
 public:
  template <typename... Args>
  explicit PlainPageEncoder(Args&&... args) : encoder_(std::forward<Args>(args)...) {}
  void Put(const T* values, size_t count) override { encoder_.Put(values, count); }
  size_t EstimatedBytes() const override { return encoder_.buffered_bytes(); }
  void Flush(std::string* out) override { encoder_.Flush(out); }

 private:
  Encoder encoder_;
};

// BOOLEAN in RLE: estimated at one bit per value (runs only make it smaller).
class BooleanRlePageEncoder final : public PageValueEncoder<bool> {
 public:
  void Put(const bool* values, size_t count) override {
    encoder_.Put(values, count);
    count_ += count;
  }
  size_t EstimatedBytes() const override { return 4 + (count_ + 7) / 8; }
  void Flush(std::string* out) override {
    encoder_.Flush(out);
    count_ = 0;
  }

 private:
  BooleanRleEncoder encoder_;
  size_t count_ = 0;
};

// Encoders that produce the page's stream in Finish (delta encodings, byte stream split):
// the size is estimated as the values' PLAIN size, `length_prefix` bytes per byte array
// included.
template <typename T, typename Encoder>
class StreamPageEncoder final : public PageValueEncoder<T> {
 public:
  template <typename... Args>
  explicit StreamPageEncoder(size_t length_prefix, Args&&... args)
      : length_prefix_(length_prefix), encoder_(std::forward<Args>(args)...) {}

  void Put(const T* values, size_t count) override {
    encoder_.Put(values, count);
    if constexpr (std::is_same_v<T, ByteArray>) {
      for (size_t i = 0; i < count; i++) plain_bytes_ += values[i].len + length_prefix_;
    } else {
      plain_bytes_ += count * sizeof(T);
    }
  }
  size_t EstimatedBytes() const override { return plain_bytes_; }
  void Flush(std::string* out) override {
    encoder_.Finish(*out);
    plain_bytes_ = 0;
  }

 private:
  size_t length_prefix_;
  Encoder encoder_;
  size_t plain_bytes_ = 0;
};

// RLE_DICTIONARY: the indices of values in the column chunk's dictionary.
template <typename T>
class DictionaryPageEncoder final : public PageValueEncoder<T> {
 public:
  explicit DictionaryPageEncoder(DictionaryEncoder<T>* dictionary) : dictionary_(dictionary) {
    dictionary_->set_page_index_hint(kMaxSlotsPerPage);
  }
  void Put(const T* values, size_t count) override { dictionary_->Put(values, count); }
  size_t EstimatedBytes() const override {
    size_t entries = dictionary_->dictionary_size();
    int bit_width = entries == 0 ? 0 : MinimalBitWidth(static_cast<uint64_t>(entries - 1));
    return 1 + PackedByteCount(dictionary_->buffered_indices(), bit_width);
  }
  void Flush(std::string* out) override { dictionary_->FlushIndices(out); }

 private:
  DictionaryEncoder<T>* dictionary_;
};

template <typename T>
std::unique_ptr<PageValueEncoder<T>> MakePageEncoder(Encoding encoding, const ColumnDescriptor& column) {
  const bool fixed_length = column.physical_type == Type::FIXED_LEN_BYTE_ARRAY;
  switch (encoding) {
    case Encoding::PLAIN:
      if constexpr (std::is_same_v<T, ByteArray>) {
        if (fixed_length) {
          return std::make_unique<PlainPageEncoder<T, PlainFixedLenEncoder>>(column.type_length);
        }
      }
      return std::make_unique<PlainPageEncoder<T, PlainEncoder<T>>>();
    case Encoding::RLE:
      if constexpr (std::is_same_v<T, bool>) return std::make_unique<BooleanRlePageEncoder>();
      break;
    case Encoding::DELTA_BINARY_PACKED:
      if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        return std::make_unique<StreamPageEncoder<T, DeltaBinaryPackedEncoder<T>>>(0);
      }
      break;
    case Encoding::DELTA_LENGTH_BYTE_ARRAY:
      if constexpr (std::is_same_v<T, ByteArray>) {
        if (!fixed_length) return std::make_unique<StreamPageEncoder<T, DeltaLengthByteArrayEncoder>>(4);
      }
      break;
    case Encoding::DELTA_BYTE_ARRAY:
      if constexpr (std::is_same_v<T, ByteArray>) {
        return std::make_unique<StreamPageEncoder<T, DeltaByteArrayEncoder>>(fixed_length ? 0 : 4);
      }
      break;
    case Encoding::BYTE_STREAM_SPLIT:
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        return std::make_unique<StreamPageEncoder<T, ByteStreamSplitEncoder<T>>>(0);
      } else if constexpr (std::is_same_v<T, ByteArray>) {
        if (fixed_length) {
          return std::make_unique<StreamPageEncoder<T, ByteStreamSplitFixedLenEncoder>>(
              0, static_cast<uint32_t>(column.type_length));
        }
      }
      break;
    default:
      break;
  }
  throw ParquetError("encoding " + ToString(encoding) + " does not apply to " +
                     ToString(column.physical_type) + " column '" + column.dotted_path + "'");
}

}  // namespace

bool EncodingApplies(Encoding encoding, Type type) {
  switch (encoding) {
    case Encoding::PLAIN:
      return true;
    case Encoding::RLE:
      return type == Type::BOOLEAN;
    case Encoding::PLAIN_DICTIONARY:
    case Encoding::RLE_DICTIONARY:
      return type != Type::BOOLEAN;
    case Encoding::DELTA_BINARY_PACKED:
      return type == Type::INT32 || type == Type::INT64;
    case Encoding::DELTA_LENGTH_BYTE_ARRAY:
      return type == Type::BYTE_ARRAY;
    case Encoding::DELTA_BYTE_ARRAY:
      return type == Type::BYTE_ARRAY || type == Type::FIXED_LEN_BYTE_ARRAY;
    case Encoding::BYTE_STREAM_SPLIT:
      return type == Type::INT32 || type == Type::INT64 || type == Type::FLOAT ||
             type == Type::DOUBLE || type == Type::FIXED_LEN_BYTE_ARRAY;
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------
// PageSpill: where finished data pages of the open row group wait once the pages held in
// memory pass WriterOptions::buffered_pages_limit. An unlinked temporary file in the
// output's directory (same file system, so copy_file_range can move the bytes without
// reading them into memory), emptied after each row group.

class PageSpill {
 public:
  PageSpill(std::string output_path, size_t limit) : output_path_(std::move(output_path)), limit_(limit) {}
  ~PageSpill() {
    if (fd_ >= 0) ::close(fd_);
  }
  PageSpill(const PageSpill&) = delete;
  PageSpill& operator=(const PageSpill&) = delete;

  // Bookkeeping of the pages held in memory by every chunk of the open row group.
  void Hold(size_t bytes) { held_ += bytes; }
  void Release(size_t bytes) { held_ -= std::min(held_, bytes); }
  bool OverLimit() const { return held_ > limit_; }

  // Appends `data` to the spill file; returns its offset there.
  uint64_t Append(const std::string& data) {
    if (fd_ < 0) Open();
    const uint64_t offset = size_;
    const char* pos = data.data();
    size_t left = data.size();
    while (left > 0) {
      const ssize_t written = ::pwrite(fd_, pos, left, static_cast<off_t>(size_));
      if (written < 0) {
        if (errno == EINTR) continue;
        throw ParquetError("cannot write to '" + output_path_ + "': " + std::strerror(errno) + " (its spill file)");
      }
      pos += written;
      left -= static_cast<size_t>(written);
      size_ += static_cast<uint64_t>(written);
    }
    return offset;
  }

  // Copies `size` bytes at `offset` of the spill file to `out_fd` at its file position.
  void CopyTo(int out_fd, uint64_t offset, uint64_t size, const std::string& out_path) {
    off64_t in = static_cast<off64_t>(offset);
    while (size > 0 && use_copy_file_range_) {
      const ssize_t copied = ::copy_file_range(fd_, &in, out_fd, nullptr, size, 0);
      if (copied < 0 && errno == EINTR) continue;
      if (copied <= 0) {
        // Not supported here (old kernel, file system, ...): copy through a buffer below.
        if (copied < 0 && errno != ENOSYS && errno != EXDEV && errno != EINVAL && errno != EOPNOTSUPP) {
          throw ParquetError("cannot write to '" + out_path + "': " + std::strerror(errno) + " (from its spill file)");
        }
        use_copy_file_range_ = false;
        break;
      }
      size -= static_cast<uint64_t>(copied);
    }
    std::string buffer;
    while (size > 0) {
      buffer.resize(static_cast<size_t>(std::min<uint64_t>(size, 256 * 1024)));
      const ssize_t got = ::pread(fd_, buffer.data(), buffer.size(), in);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) throw ParquetError("cannot read the spill file of '" + out_path + "': " + std::strerror(errno));
      for (size_t done = 0; done < static_cast<size_t>(got);) {
        const ssize_t written = ::write(out_fd, buffer.data() + done, static_cast<size_t>(got) - done);
        if (written < 0 && errno == EINTR) continue;
        if (written < 0) throw ParquetError("cannot write to '" + out_path + "': " + std::strerror(errno));
        done += static_cast<size_t>(written);
      }
      in += got;
      size -= static_cast<uint64_t>(got);
    }
  }

  // After a row group: forget the spilled bytes (the file keeps no blocks).
  void Reset() {
    held_ = 0;
    if (fd_ >= 0 && size_ > 0 && ::ftruncate(fd_, 0) != 0) {
      throw ParquetError("cannot truncate the spill file of '" + output_path_ + "': " + std::strerror(errno));
    }
    size_ = 0;
  }

 private:
  void Open() {
    const size_t slash = output_path_.rfind('/');
    const std::string directory = slash == std::string::npos ? "." : (slash == 0 ? "/" : output_path_.substr(0, slash));
#ifdef O_TMPFILE
    fd_ = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd_ < 0) {
      std::string name = output_path_ + ".spill-XXXXXX";
      fd_ = ::mkostemp(name.data(), O_CLOEXEC);
      if (fd_ < 0) {
        throw ParquetError("cannot create a spill file beside '" + output_path_ + "': " + std::strerror(errno));
      }
      ::unlink(name.c_str());
    }
  }

  std::string output_path_;
  size_t limit_;
  size_t held_ = 0;
  int fd_ = -1;
  uint64_t size_ = 0;
  bool use_copy_file_range_ = true;
};

// The buffers a data page is assembled in: encoded values, levels + values, compressed.
struct PageScratch {
  std::string values;
  std::string body;
  std::string compressed;
};

// ---------------------------------------------------------------------------------------
// ColumnChunkWriter: the type-independent part of writing one column chunk (levels, page
// assembly, compression, checksums, metadata, page index). The chunk's finished pages are
// held in memory, or in the writer's PageSpill once too many are held.

namespace {

// What the page index needs of one data page, gathered as it is written.
struct PageRecord {
  size_t offset = 0;      // within the data pages of the chunk
  int32_t size = 0;       // header and body
  int64_t first_row = 0;  // within the row group
  int64_t null_count = 0;
  int64_t nan_count = 0;
  bool null_page = false;   // no non-null value
  bool has_bounds = false;  // min/max exist (false for a null page or a page of only NaN)
  std::string min, max;     // encoded bounds, truncated
  int64_t unencoded_byte_array_bytes = 0;
};

}  // namespace

class ColumnChunkWriter {
 public:
  ColumnChunkWriter(const ColumnDescriptor& column, int column_index, const WriterOptions& options,
                    Encoding data_encoding, SortOrder sort_order)
      : column_(column),
        options_(options),
        codec_(options.codec),
        compression_level_(options.compression_level),
        data_encoding_(data_encoding),
        sort_order_(sort_order),
        def_encoder_(MinimalBitWidth(static_cast<uint64_t>(column.max_definition_level))),
        rep_encoder_(MinimalBitWidth(static_cast<uint64_t>(column.max_repetition_level))) {
    auto compression = options.column_compression.find(column_index);
    if (compression != options.column_compression.end()) {
      codec_ = compression->second.codec;
      compression_level_ = compression->second.level;
    }
    if (column.max_definition_level > 0) {
      page_def_histogram_.assign(static_cast<size_t>(column.max_definition_level) + 1, 0);
      def_histogram_.assign(page_def_histogram_.size(), 0);
    }
    if (column.max_repetition_level > 0) {
      page_rep_histogram_.assign(static_cast<size_t>(column.max_repetition_level) + 1, 0);
      rep_histogram_.assign(page_rep_histogram_.size(), 0);
    }
  }
  virtual ~ColumnChunkWriter() = default;

  const ColumnDescriptor& column() const { return column_; }
  int64_t rows() const { return rows_; }

  // Encrypts the chunk's pages and headers with `cipher` (null: plaintext), for the AAD of
  // this row group and column.
  void SetEncryption(const ModuleCipher* cipher, int row_group_ordinal, int column_ordinal) {
    cipher_ = cipher;
    row_group_ordinal_ = row_group_ordinal;
    column_ordinal_ = column_ordinal;
  }

  // Ends the last data page (an empty chunk gets one empty page, for data_page_offset to
  // point at) and writes the dictionary page, if any.
  void Finish() {
    if (page_slots_ > 0 || data_pages_written_ == 0) WriteDataPage();
    FinishValues();
  }

  // The chunk's bytes, in file order: dictionary_page() then each of data_pages() (kept
  // apart: a growing string of all of them would hold up to twice their size).
  // Spilled pages (ranges of the spill file, in order) precede the ones in memory.
  const std::string& dictionary_page() const { return dictionary_page_; }
  const std::vector<std::pair<uint64_t, uint64_t>>& spilled_pages() const { return spilled_pages_; }
  const std::vector<std::string>& data_pages() const { return data_pages_; }

  // Finished pages beyond the spill's limit go there (null: always held in memory).
  void SetSpill(PageSpill* spill) { spill_ = spill; }
  // Page assembly buffers shared with the file writer's other chunks.
  void SetScratch(PageScratch* scratch) { scratch_ = scratch; }
  // Gives back the in-memory pages' share of the spill's bookkeeping (the chunk is done).
  void ReleaseHeldPages() {
    if (spill_ != nullptr) spill_->Release(held_bytes_);
    held_bytes_ = 0;
  }

  // The chunk's metadata once it is placed at `offset` in the file.
  ColumnMetaData Metadata(int64_t offset) const {
    ColumnMetaData meta;
    meta.type = column_.physical_type;
    if (!dictionary_page_.empty()) meta.encodings.push_back(Encoding::PLAIN);
    if (column_.max_definition_level > 0 || column_.max_repetition_level > 0) {
      meta.encodings.push_back(Encoding::RLE);
    }
    for (Encoding encoding : data_encodings_) {
      if (std::find(meta.encodings.begin(), meta.encodings.end(), encoding) == meta.encodings.end()) {
        meta.encodings.push_back(encoding);
      }
    }
    meta.path_in_schema = column_.path;
    meta.codec = codec_;
    meta.num_values = slots_;
    meta.total_uncompressed_size = total_uncompressed_size_;
    meta.total_compressed_size = total_compressed_size_;
    meta.data_page_offset = offset + static_cast<int64_t>(dictionary_page_.size());
    if (!dictionary_page_.empty()) meta.dictionary_page_offset = offset;
    if (options_.write_statistics) {
      Statistics statistics;
      statistics.null_count = null_count_;
      EncodedBounds bounds;
      if (ChunkBounds(&bounds)) {
        statistics.min_value = std::move(bounds.min);
        statistics.max_value = std::move(bounds.max);
        statistics.is_min_value_exact = bounds.min_exact;
        statistics.is_max_value_exact = bounds.max_exact;
      }
      if (IsFloatingPoint()) statistics.nan_count = ChunkNanCount();
      meta.statistics = std::move(statistics);
    }
    meta.encoding_stats = encoding_stats_;
    SizeStatistics size;
    bool has_size = false;
    if (column_.physical_type == Type::BYTE_ARRAY) {
      size.unencoded_byte_array_data_bytes = unencoded_byte_array_bytes_;
      has_size = true;
    }
    if (!rep_histogram_.empty()) {
      size.repetition_level_histogram = rep_histogram_;
      has_size = true;
    }
    if (!def_histogram_.empty()) {
      size.definition_level_histogram = def_histogram_;
      has_size = true;
    }
    if (has_size) meta.size_statistics = std::move(size);
    return meta;
  }

  // The page index of the chunk once its data pages start at `data_offset` in the file.
  // The column index is left out where it cannot be right: statistics off, a type without
  // an order (INT96, INTERVAL, FLOAT16), or a page whose non-null values are all NaN.
  void PageIndex(int64_t data_offset, OffsetIndex* offset_index, std::optional<ColumnIndex>* column_index) const {
    offset_index->page_locations.clear();
    offset_index->page_locations.reserve(pages_.size());
    for (const PageRecord& page : pages_) {
      offset_index->page_locations.push_back(
          PageLocation{data_offset + static_cast<int64_t>(page.offset), page.size, page.first_row});
    }
    if (column_.physical_type == Type::BYTE_ARRAY) {
      std::vector<int64_t> bytes;
      bytes.reserve(pages_.size());
      for (const PageRecord& page : pages_) bytes.push_back(page.unencoded_byte_array_bytes);
      offset_index->unencoded_byte_array_data_bytes = std::move(bytes);
    }
    column_index->reset();
    if (!options_.write_statistics || sort_order_ == SortOrder::kUndefined) return;
    for (const PageRecord& page : pages_) {
      if (!page.null_page && !page.has_bounds) return;  // only NaN: no valid bounds
    }
    ColumnIndex index;
    std::vector<int64_t> null_counts, nan_counts;
    for (const PageRecord& page : pages_) {
      index.null_pages.push_back(page.null_page);
      index.min_values.push_back(page.null_page ? std::string() : page.min);
      index.max_values.push_back(page.null_page ? std::string() : page.max);
      null_counts.push_back(page.null_count);
      nan_counts.push_back(page.nan_count);
    }
    index.boundary_order = BoundaryOrderOfPages();
    index.null_counts = std::move(null_counts);
    if (IsFloatingPoint()) index.nan_counts = std::move(nan_counts);
    if (!rep_histograms_.empty()) index.repetition_level_histograms = rep_histograms_;
    if (!def_histograms_.empty()) index.definition_level_histograms = def_histograms_;
    *column_index = std::move(index);
  }

  // The serialized bloom filter (header and bitset) of the chunk; empty when it has none.
  virtual std::string BloomFilterBytes() = 0;

 protected:
  // Typed hooks.
  virtual void FlushPageValues(std::string* out) = 0;  // the page's encoded values
  virtual size_t PageValueBytes() const = 0;           // their (estimated) size so far
  virtual bool EncodingEnds() const = 0;  // the page's value encoding is to change after it
  virtual void AfterDataPage() = 0;                    // e.g. the fallback from the dictionary
  virtual void FinishValues() = 0;                     // e.g. the dictionary page
  // The page's statistics into *page (bounds, NaN and byte counts); then the page's
  // statistics are merged into the chunk's and reset.
  virtual void EndPageStatistics(PageRecord* page) = 0;
  virtual bool ChunkBounds(EncodedBounds* bounds) const = 0;
  virtual int64_t ChunkNanCount() const = 0;

  bool IsFloatingPoint() const {
    return column_.physical_type == Type::FLOAT || column_.physical_type == Type::DOUBLE;
  }

  // Checks a batch's levels before anything is appended; returns the number of values
  // the definition levels call for.
  size_t CheckLevels(size_t num_levels, const int16_t* def, const int16_t* rep) const {
    const int16_t max_def = column_.max_definition_level;
    const int16_t max_rep = column_.max_repetition_level;
    if (num_levels == 0) return 0;
    if (max_def > 0 && def == nullptr) {
      throw ParquetError("column '" + column_.dotted_path + "' needs definition levels (max level " +
                         std::to_string(max_def) + ")");
    }
    if (max_rep > 0 && rep == nullptr) {
      throw ParquetError("column '" + column_.dotted_path + "' needs repetition levels (max level " +
                         std::to_string(max_rep) + ")");
    }
    size_t values = num_levels;
    if (max_def > 0) {
      // One branch-free pass (the common case); the slow loop below only names the culprit.
      values = 0;
      uint32_t bad = 0;
      const auto max = static_cast<uint16_t>(max_def);
      for (size_t begin = 0; begin < num_levels; begin += 4096) {
        const size_t end = std::min(num_levels, begin + 4096);
        uint32_t defined = 0;
        for (size_t i = begin; i < end; i++) {
          const auto level = static_cast<uint16_t>(def[i]);
          bad |= level > max;
          defined += level == max;
        }
        values += defined;
      }
      for (size_t i = 0; bad && i < num_levels; i++) {
        if (def[i] < 0 || def[i] > max_def) {
          throw ParquetError("definition level " + std::to_string(def[i]) + " at slot " +
                             std::to_string(i) + " is outside 0.." + std::to_string(max_def) +
                             " for column '" + column_.dotted_path + "'");
        }
        values += (def[i] == max_def);
      }
    }
    if (max_rep > 0) {
      for (size_t i = 0; i < num_levels; i++) {
        if (rep[i] < 0 || rep[i] > max_rep) {
          throw ParquetError("repetition level " + std::to_string(rep[i]) + " at slot " +
                             std::to_string(i) + " is outside 0.." + std::to_string(max_rep) +
                             " for column '" + column_.dotted_path + "'");
        }
      }
      if (slots_ == 0 && rep[0] != 0) {
        throw ParquetError("first repetition level of column '" + column_.dotted_path + "' is " +
                           std::to_string(rep[0]) + ": a column chunk must start with a new row");
      }
    }
    return values;
  }

  // Appends levels [begin, end) to the open page; returns how many values they call for.
  size_t AppendLevels(const int16_t* def, const int16_t* rep, size_t begin, size_t end) {
    const size_t n = end - begin;
    size_t rows = n;
    size_t values = n;
    // Levels go in as runs of equal values (mostly one long run: no NULLs, no lists).
    if (column_.max_repetition_level > 0) {
      rows = 0;
      int64_t* histogram = page_rep_histogram_.data();
      for (size_t i = begin; i < end;) {
        const int16_t level = rep[i];
        size_t next = i + 1;
        while (next < end && rep[next] == level) next++;
        rep_encoder_.PutRun(static_cast<uint32_t>(level), next - i);
        histogram[level] += static_cast<int64_t>(next - i);
        if (level == 0) rows += next - i;
        i = next;
      }
    }
    if (column_.max_definition_level > 0) {
      const int16_t max_def = column_.max_definition_level;
      int64_t* histogram = page_def_histogram_.data();
      values = 0;
      for (size_t i = begin; i < end;) {
        const int16_t level = def[i];
        size_t next = i + 1;
        while (next < end && def[next] == level) next++;
        def_encoder_.PutRun(static_cast<uint32_t>(level), next - i);
        histogram[level] += static_cast<int64_t>(next - i);
        if (level == max_def) values += next - i;
        i = next;
      }
    }
    page_slots_ += n;
    page_values_ += values;
    page_rows_ += rows;
    slots_ += static_cast<int64_t>(n);
    rows_ += static_cast<int64_t>(rows);
    null_count_ += static_cast<int64_t>(n - values);
    return values;
  }

  // The open page's size: values plus an upper bound for its levels.
  size_t EstimatedPageBytes() const {
    int level_bits = def_encoder_.bit_width() + rep_encoder_.bit_width();
    return PageValueBytes() + PackedByteCount(page_slots_, level_bits);
  }

  // How many slots to append before the next look at the page size.
  size_t SlotsForNextStep() const {
    if (page_slots_ == 0) return kFirstStepSlots;
    const size_t used = EstimatedPageBytes();
    if (used >= options_.page_size) return 1;
    const size_t bytes_per_slot = std::max<size_t>(1, used / page_slots_);
    return std::clamp<size_t>((options_.page_size - used) / bytes_per_slot, 1, kMaxSlotsPerStep);
  }

  void UpdatePageFull() {
    page_full_ = EstimatedPageBytes() >= options_.page_size || page_slots_ >= kMaxSlotsPerPage ||
                 EncodingEnds();
  }

  void WriteDataPage() {
    PageRecord record;
    record.first_row = rows_ - static_cast<int64_t>(page_rows_);
    record.null_count = static_cast<int64_t>(page_slots_ - page_values_);
    record.null_page = page_values_ == 0;
    EndPageStatistics(&record);
    unencoded_byte_array_bytes_ += record.unencoded_byte_array_bytes;
    EndPageHistograms();

    PageHeader header;
    scratch_->body.clear();
    const std::string* body = &scratch_->body;
    if (options_.data_page_version == 1) {
      // Levels, then the values encoded straight after them (room made for their estimated
      // size at once: the buffer is kept, and doubling would leave it up to twice the page).
      if (column_.max_repetition_level > 0) AppendPrefixedLevels(&rep_encoder_, &scratch_->body);
      if (column_.max_definition_level > 0) AppendPrefixedLevels(&def_encoder_, &scratch_->body);
      ReserveExactly(&scratch_->body, scratch_->body.size() + PageValueBytes() + 64);
      FlushPageValues(&scratch_->body);
      header.type = PageType::DATA_PAGE;
      header.uncompressed_page_size = PageSizeField(scratch_->body.size());
      if (codec_ != CompressionCodec::UNCOMPRESSED) {
        scratch_->compressed.clear();
        Compress(codec_, BytesOf(scratch_->body), scratch_->body.size(), compression_level_, &scratch_->compressed);
        body = &scratch_->compressed;
      }
      DataPageHeader data_header;
      data_header.num_values = static_cast<int32_t>(page_slots_);
      data_header.encoding = data_encoding_;
      data_header.definition_level_encoding = Encoding::RLE;
      data_header.repetition_level_encoding = Encoding::RLE;
      header.data_page_header = data_header;
    } else {
      scratch_->values.clear();
      FlushPageValues(&scratch_->values);
      if (column_.max_repetition_level > 0) rep_encoder_.Flush(&scratch_->body);
      const size_t rep_length = scratch_->body.size();
      if (column_.max_definition_level > 0) def_encoder_.Flush(&scratch_->body);
      const size_t def_length = scratch_->body.size() - rep_length;
      header.type = PageType::DATA_PAGE_V2;
      header.uncompressed_page_size = PageSizeField(scratch_->body.size() + scratch_->values.size());
      const bool compressed = codec_ != CompressionCodec::UNCOMPRESSED;
      if (compressed) {
        Compress(codec_, BytesOf(scratch_->values), scratch_->values.size(), compression_level_, &scratch_->body);
      } else {
        scratch_->body += scratch_->values;
      }
      DataPageHeaderV2 data_header;
      data_header.num_values = static_cast<int32_t>(page_slots_);
      data_header.num_nulls = static_cast<int32_t>(page_slots_ - page_values_);
      data_header.num_rows = static_cast<int32_t>(page_rows_);
      data_header.encoding = data_encoding_;
      data_header.definition_levels_byte_length = static_cast<int32_t>(def_length);
      data_header.repetition_levels_byte_length = static_cast<int32_t>(rep_length);
      data_header.is_compressed = compressed;
      header.data_page_header_v2 = data_header;
    }
    record.offset = data_pages_bytes_;
    std::string& page = data_pages_.emplace_back();
    AppendPage(&header, *body, &page);
    data_pages_bytes_ += page.size();
    record.size = PageSizeField(page.size());
    if (spill_ != nullptr) {
      held_bytes_ += page.size();
      spill_->Hold(page.size());
      if (spill_->OverLimit()) SpillPages();
    }
    pages_.push_back(std::move(record));
    CountPage(header.type, data_encoding_);
    if (std::find(data_encodings_.begin(), data_encodings_.end(), data_encoding_) == data_encodings_.end()) {
      data_encodings_.push_back(data_encoding_);
    }
    data_pages_written_++;
    page_slots_ = 0;
    page_values_ = 0;
    page_rows_ = 0;
    page_full_ = false;
    ReleaseLargeScratch();
    AfterDataPage();
  }

  // Moves the chunk's pages held in memory to the spill file (one range: they are
  // consecutive in the chunk).
  void SpillPages() {
    for (const std::string& page : data_pages_) {
      const uint64_t offset = spill_->Append(page);
      if (!spilled_pages_.empty() && spilled_pages_.back().first + spilled_pages_.back().second == offset) {
        spilled_pages_.back().second += page.size();  // right after the chunk's last spilled page
      } else {
        spilled_pages_.emplace_back(offset, page.size());
      }
    }
    std::vector<std::string>().swap(data_pages_);
    ReleaseHeldPages();
  }

  // Scratch buffers grown by a large page are given back rather than kept for the next one
  // (when the chunk has its own: every chunk of a row group is open at once).
  void ReleaseLargeScratch() {
    if (scratch_ != &own_scratch_) return;
    constexpr size_t kKeep = 64 * 1024;
    if (scratch_->values.capacity() > kKeep) std::string().swap(scratch_->values);
    if (scratch_->body.capacity() > kKeep) std::string().swap(scratch_->body);
    if (scratch_->compressed.capacity() > kKeep) std::string().swap(scratch_->compressed);
  }

  // Writes the dictionary page from its PLAIN-encoded entries.
  void WriteDictionaryPage(const std::string& entries, size_t count) {
    PageHeader header;
    header.type = PageType::DICTIONARY_PAGE;
    header.uncompressed_page_size = PageSizeField(entries.size());
    DictionaryPageHeader dictionary_header;
    dictionary_header.num_values = static_cast<int32_t>(count);
    dictionary_header.encoding = Encoding::PLAIN;
    header.dictionary_page_header = dictionary_header;
    const std::string* body = &entries;
    if (codec_ != CompressionCodec::UNCOMPRESSED) {
      scratch_->compressed.clear();
      Compress(codec_, BytesOf(entries), entries.size(), compression_level_, &scratch_->compressed);
      body = &scratch_->compressed;
    }
    dictionary_page_.clear();
    AppendPage(&header, *body, &dictionary_page_);
    CountPage(PageType::DICTIONARY_PAGE, Encoding::PLAIN);
  }

  const ColumnDescriptor& column_;
  const WriterOptions& options_;
  CompressionCodec codec_;                // of this column's pages
  std::optional<int> compression_level_;
  Encoding data_encoding_;  // value encoding of the data pages being written
  SortOrder sort_order_;
  bool page_full_ = false;  // cut the page at the next row boundary

 private:
  static void AppendPrefixedLevels(RleBitPackedEncoder* encoder, std::string* out) {
    const size_t start = out->size();
    out->append(4, '\0');
    encoder->Flush(out);
    WriteLittleEndian32(static_cast<uint32_t>(out->size() - start - 4), out->data() + start);
  }

  const ModuleCipher* cipher_ = nullptr;
  int row_group_ordinal_ = 0;
  int column_ordinal_ = 0;
  std::string encrypted_body_;

  int32_t PageSizeField(size_t size) const {
    if (size > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      throw ParquetError("page of " + std::to_string(size) + " bytes in column '" + column_.dotted_path +
                         "' is too large for a parquet page header");
    }
    return static_cast<int32_t>(size);
  }

  // Completes the header (sizes, checksum) and appends header and body to *out. In an
  // encrypted column both are encrypted modules; the CRC covers the encrypted body.
  void AppendPage(PageHeader* header, const std::string& plain_body, std::string* out) {
    const std::string* body = &plain_body;
    const bool dictionary = header->type == PageType::DICTIONARY_PAGE;
    const int page_ordinal = dictionary ? -1 : static_cast<int>(data_pages_written_);
    if (cipher_ != nullptr) {
      encrypted_body_ = cipher_->Encrypt(dictionary ? ModuleType::kDictionaryPage : ModuleType::kDataPage, plain_body,
                                         row_group_ordinal_, column_ordinal_, page_ordinal);
      body = &encrypted_body_;
    }
    header->compressed_page_size = PageSizeField(body->size());
    if (options_.write_crc) header->crc = static_cast<int32_t>(Crc32(BytesOf(*body), body->size()));
    std::string serialized = Serialize(*header);
    if (cipher_ != nullptr) {
      serialized = cipher_->Encrypt(dictionary ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader,
                                    serialized, row_group_ordinal_, column_ordinal_, page_ordinal);
    }
    out->append(serialized);
    out->append(*body);
    total_compressed_size_ += static_cast<int64_t>(serialized.size() + body->size());
    total_uncompressed_size_ += static_cast<int64_t>(serialized.size()) + header->uncompressed_page_size;
  }

  void CountPage(PageType type, Encoding encoding) {
    for (PageEncodingStats& stats : encoding_stats_) {
      if (stats.page_type == type && stats.encoding == encoding) {
        stats.count++;
        return;
      }
    }
    encoding_stats_.push_back(PageEncodingStats{type, encoding, 1});
  }

  // Moves the open page's level histograms into the page index lists and the chunk totals.
  void EndPageHistograms() {
    for (size_t i = 0; i < page_rep_histogram_.size(); i++) {
      rep_histograms_.push_back(page_rep_histogram_[i]);
      rep_histogram_[i] += page_rep_histogram_[i];
      page_rep_histogram_[i] = 0;
    }
    for (size_t i = 0; i < page_def_histogram_.size(); i++) {
      def_histograms_.push_back(page_def_histogram_[i]);
      def_histogram_[i] += page_def_histogram_[i];
      page_def_histogram_[i] = 0;
    }
  }

  // ASCENDING when the non-null pages' min values and max values both never decrease,
  // DESCENDING when both never increase, otherwise UNORDERED (ASCENDING when both hold).
  BoundaryOrder BoundaryOrderOfPages() const {
    bool ascending = true, descending = true;
    const PageRecord* previous = nullptr;
    for (const PageRecord& page : pages_) {
      if (page.null_page) continue;
      if (previous != nullptr) {
        const int min_order = CompareEncoded(column_.physical_type, sort_order_, previous->min, page.min);
        const int max_order = CompareEncoded(column_.physical_type, sort_order_, previous->max, page.max);
        if (min_order > 0 || max_order > 0) ascending = false;
        if (min_order < 0 || max_order < 0) descending = false;
      }
      previous = &page;
    }
    if (ascending) return BoundaryOrder::ASCENDING;
    if (descending) return BoundaryOrder::DESCENDING;
    return BoundaryOrder::UNORDERED;
  }

  RleBitPackedEncoder def_encoder_;
  RleBitPackedEncoder rep_encoder_;

  // The open page.
  size_t page_slots_ = 0;
  size_t page_values_ = 0;
  size_t page_rows_ = 0;
  std::vector<int64_t> page_rep_histogram_;  // max level + 1 counts, or empty at max level 0
  std::vector<int64_t> page_def_histogram_;

  // The whole chunk.
  int64_t slots_ = 0;
  int64_t rows_ = 0;
  int64_t null_count_ = 0;
  int64_t unencoded_byte_array_bytes_ = 0;
  int64_t total_uncompressed_size_ = 0;
  int64_t total_compressed_size_ = 0;
  int data_pages_written_ = 0;
  std::vector<Encoding> data_encodings_;
  std::vector<PageEncodingStats> encoding_stats_;
  std::string dictionary_page_;  // header + body
  std::vector<std::pair<uint64_t, uint64_t>> spilled_pages_;  // offset, size in the spill file
  std::vector<std::string> data_pages_;  // each data page's header + body, after the spilled ones
  size_t data_pages_bytes_ = 0;          // spilled and held
  PageSpill* spill_ = nullptr;
  size_t held_bytes_ = 0;  // of data_pages_, counted in spill_
  std::vector<PageRecord> pages_;
  std::vector<int64_t> rep_histogram_, def_histogram_;    // chunk totals
  std::vector<int64_t> rep_histograms_, def_histograms_;  // per page, concatenated

  // Scratch buffers of page assembly, reused from page to page (and shared by the chunks of
  // a file writer: pages are assembled one at a time).
  PageScratch own_scratch_;
  PageScratch* scratch_ = &own_scratch_;
};

namespace {

// Bloom filter input of one column chunk: the hashes of its values, deduplicated now and
// then, so that the filter can be sized from the exact number of distinct values. Past
// kExactLimit distinct hashes the filter is made at once (sized for kOverflowValues
// distinct values) and takes the hashes directly; memory stays bounded either way.
class BloomFilterBuilder {
 public:
  explicit BloomFilterBuilder(double fpp) : fpp_(fpp) {}

  void Add(uint64_t hash) {
    if (filter_) {
      filter_->Insert(hash);
      return;
    }
    hashes_.push_back(hash);
    if (hashes_.size() >= next_dedup_) Deduplicate();
  }

  // The serialized filter of everything added.
  std::string Build() {
    if (!filter_) {
      Deduplicate();
      filter_ = std::make_unique<BloomFilter>(BloomFilter::OptimalNumBytes(hashes_.size(), fpp_));
      for (uint64_t hash : hashes_) filter_->Insert(hash);
      std::vector<uint64_t>().swap(hashes_);
    }
    std::string out;
    filter_->Serialize(&out);
    return out;
  }

 private:
  static constexpr size_t kExactLimit = size_t{1} << 21;
  static constexpr uint64_t kOverflowValues = uint64_t{1} << 24;

  void Deduplicate() {
    std::sort(hashes_.begin(), hashes_.end());
    hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
    if (hashes_.size() > kExactLimit) {
      filter_ = std::make_unique<BloomFilter>(BloomFilter::OptimalNumBytes(kOverflowValues, fpp_));
      for (uint64_t hash : hashes_) filter_->Insert(hash);
      std::vector<uint64_t>().swap(hashes_);
      return;
    }
    next_dedup_ = std::max<size_t>(hashes_.size() * 2, size_t{1} << 16);
  }

  double fpp_;
  std::vector<uint64_t> hashes_;
  size_t next_dedup_ = size_t{1} << 16;
  std::unique_ptr<BloomFilter> filter_;
};

// How a column chunk's value encoding evolves (see WriterOptions::automatic_encoding).
enum class EncodingPhase {
  kDictionary,  // dictionary-encoded, watching for the point to give up on it
  kProbe,       // the values of a first page (kFirstWindowValues of them at most) are kept
                // back, to pick the encoding of the chunk, this page included
  kSettled,     // the encoding stays
};

// The dictionary is weighed against the alternative encoding after the first
// kFirstWindowValues values, then each time their number doubled.
constexpr size_t kFirstWindowValues = 4096;

// The expected number of distinct values among `total` values, when `distinct` of the
// first `seen` were distinct: the values taken as drawn uniformly from a fixed set of D,
// D solved from distinct = D (1 - e^(-seen / D)).
double ExtrapolateDistinct(double seen, double distinct, double total) {
  if (distinct >= seen) return total;  // all different so far: assume they stay so
  auto expected = [seen](double domain) { return domain * -std::expm1(-seen / domain); };
  double low = distinct, high = distinct * 2;
  while (expected(high) < distinct && high < 1e15) high *= 2;
  for (int i = 0; i < 60; i++) {
    const double middle = (low + high) / 2;
    (expected(middle) < distinct ? low : high) = middle;
  }
  return std::min(total, high * -std::expm1(-total / high));
}

// Values of a column chunk copied to try encodings on: the first ones of a dictionary-
// encoded chunk (Add: at most kFirstWindowValues values and, of byte arrays, kMaxSampleBytes
// bytes), or every value of a probe page (AddAll).
constexpr size_t kMaxSampleBytes = 256 * 1024;

template <typename T>
class ValueSample {
 public:
  void Add(const T* values, size_t count) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      for (size_t i = 0; i < count && !full_ && lengths_.size() < kFirstWindowValues; i++) {
        if (bytes_.size() + values[i].len > kMaxSampleBytes) {
          full_ = true;
          return;
        }
        Append(values[i]);
      }
    } else if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, Int96>) {
      AddAll(values, std::min(count, kFirstWindowValues - std::min(kFirstWindowValues, values_.size())));
    } else {
      (void)values, (void)count;
    }
  }

  void AddAll(const T* values, size_t count) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      for (size_t i = 0; i < count; i++) Append(values[i]);
    } else if constexpr (!std::is_same_v<T, bool>) {
      values_.insert(values_.end(), values, values + count);
    } else {
      (void)values, (void)count;
    }
  }

  size_t size() const {
    if constexpr (std::is_same_v<T, ByteArray>) return lengths_.size();
    return values_.size();
  }
  bool empty() const { return size() == 0; }
  // The PLAIN size of the values (byte arrays with their 4-byte lengths).
  size_t plain_bytes() const {
    if constexpr (std::is_same_v<T, ByteArray>) return bytes_.size() + 4 * lengths_.size();
    return values_.size() * sizeof(T);
  }

  void PutInto(PageValueEncoder<T>* encoder) const {
    if constexpr (std::is_same_v<T, ByteArray>) {
      std::vector<ByteArray> views;
      views.reserve(lengths_.size());
      size_t offset = 0;
      for (uint32_t length : lengths_) {
        views.push_back(ByteArray{reinterpret_cast<const uint8_t*>(bytes_.data()) + offset, length});
        offset += length;
      }
      encoder->Put(views.data(), views.size());
    } else if constexpr (!std::is_same_v<T, bool>) {
      encoder->Put(values_.data(), values_.size());
    }
  }

  void Clear() {
    std::vector<Stored>().swap(values_);
    std::string().swap(bytes_);
    std::vector<uint32_t>().swap(lengths_);
  }

 private:
  void Append(const ByteArray& value) {
    bytes_.append(reinterpret_cast<const char*>(value.ptr), value.len);
    lengths_.push_back(value.len);
  }

  using Stored = std::conditional_t<std::is_same_v<T, bool>, char, T>;
  std::vector<Stored> values_;
  std::string bytes_;
  std::vector<uint32_t> lengths_;
  bool full_ = false;  // a byte array would have passed kMaxSampleBytes
};

// The typed part of a column chunk: value checks, value encoders, dictionary, min/max,
// bloom filter, and the choice of encoding.
template <typename T>
class TypedColumnChunkWriter final : public ColumnChunkWriter {
 public:
  // `automatic`: pick the encoding per WriterOptions::automatic_encoding (the column has no
  // explicit encoding). `bloom_filter`: collect the chunk's values for a bloom filter.
  TypedColumnChunkWriter(const ColumnDescriptor& column, int column_index, const SchemaNode& node,
                         const WriterOptions& options,
                         Encoding encoding, bool automatic, bool bloom_filter)
      : ColumnChunkWriter(column, column_index, options, encoding, SortOrderOf(node)),
        text_(IsTextColumn(node)),
        automatic_(automatic),
        page_min_max_(sort_order_),
        min_max_(sort_order_) {
    if (bloom_filter) {
      if constexpr (!std::is_same_v<T, bool>) bloom_ = std::make_unique<BloomFilterBuilder>(options.bloom_filter_fpp);
    }
    if (encoding == Encoding::RLE_DICTIONARY) {
      if constexpr (std::is_same_v<T, bool>) {
        throw ParquetError("BOOLEAN column '" + column.dotted_path + "' cannot be dictionary-encoded");
      } else {
        dictionary_ = std::make_unique<DictionaryEncoder<T>>(
            column.physical_type == Type::FIXED_LEN_BYTE_ARRAY ? column.type_length : -1);
        encoder_ = std::make_unique<DictionaryPageEncoder<T>>(dictionary_.get());
        phase_ = EncodingPhase::kDictionary;
      }
      return;
    }
    if (automatic_ && encoding == Encoding::PLAIN && AlternativeEncoding() != Encoding::PLAIN) {
      phase_ = EncodingPhase::kProbe;  // the first page's values tell whether the alternative pays
    }
    encoder_ = MakePageEncoder<T>(encoding, column);
  }

  // Checks a batch without changing anything; throws ParquetError naming what is wrong.
  void CheckBatch(size_t num_levels, const int16_t* def, const int16_t* rep, const T* values,
                  size_t num_values) const {
    const size_t expected = CheckLevels(num_levels, def, rep);
    if (expected != num_values) {
      throw ParquetError("column '" + column_.dotted_path + "': the definition levels call for " +
                         std::to_string(expected) + " values but the batch has " +
                         std::to_string(num_values));
    }
    if (num_values > 0 && values == nullptr) {
      throw ParquetError("column '" + column_.dotted_path + "': values are missing");
    }
    CheckValues(values, num_values);
  }

  // Appends a batch that CheckBatch accepted, cutting pages at row boundaries.
  void Append(size_t num_levels, const int16_t* def, const int16_t* rep, const T* values, size_t num_values) {
    batch_values_left_ = num_values;
    const bool repeated = column_.max_repetition_level > 0;
    size_t pos = 0;
    while (pos < num_levels) {
      const bool row_start = !repeated || rep[pos] == 0;
      if (page_full_ && row_start) WriteDataPage();
      size_t end;
      if (page_full_) {
        // The page is full but a row is in progress: append the rest of that row.
        end = pos + 1;
        while (end < num_levels && rep[end] != 0) end++;
      } else {
        end = pos + std::min(num_levels - pos, SlotsForNextStep());
      }
      const size_t count = AppendLevels(def, rep, pos, end);
      if (count > 0) AppendValues(values, count);
      values += count;
      batch_values_left_ -= count;
      UpdatePageFull();
      pos = end;
    }
  }

  std::string BloomFilterBytes() override { return bloom_ ? bloom_->Build() : std::string(); }

 private:
  void AppendValues(const T* values, size_t count) {
    if (phase_ == EncodingPhase::kProbe) {
      sample_.AddAll(values, count);  // encoded when the page ends, once the encoding is chosen
    } else {
      encoder_->Put(values, count);
      if (phase_ == EncodingPhase::kDictionary && automatic_) sample_.Add(values, count);
    }
    page_min_max_.Update(values, count);
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (column_.physical_type == Type::BYTE_ARRAY) {
        uint64_t bytes = 0;
        for (size_t i = 0; i < count; i++) bytes += values[i].len;
        page_unencoded_bytes_ += static_cast<int64_t>(bytes);
        if (dictionary_) dictionary_value_bytes_ += bytes;
      }
    }
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      if (automatic_ && phase_ == EncodingPhase::kDictionary) delta_estimate_.Put(values, count);
    }
    if constexpr (!std::is_same_v<T, bool>) {
      if (bloom_) {
        for (size_t i = 0; i < count; i++) bloom_->Add(BloomHashOf(values[i]));
      }
      if (automatic_ && dictionary_) WatchDictionary(count);
    }
  }

  // At the end of each window, weighs the dictionary against what would replace it over
  // the whole chunk, as far as it can be foreseen: the chunk taken to hold the values so far
  // and those left in the batch (at least twice the values so far), its distinct count
  // extrapolated from the values so far. The dictionary's size (entries, then an index of
  // the entry count's bit width per value) against AlternativeBytesPerValue per value;
  // sizes before compression. Gives up on the dictionary when it is the larger. Values
  // that were all different tell little about how many different ones will come (a cycle
  // of 5000 values looks unique for 5000 values): then the first window only waits for
  // the next.
  void WatchDictionary(size_t count) {
    if constexpr (!std::is_same_v<T, bool>) {
      dictionary_values_ += count;
      if (dictionary_values_ < next_window_end_) return;
      while (next_window_end_ <= dictionary_values_) next_window_end_ *= 2;
      const double seen = static_cast<double>(dictionary_values_);
      const double entries = static_cast<double>(dictionary_->dictionary_size());
      if (entries >= seen && dictionary_values_ < 2 * kFirstWindowValues) return;
      const double total = std::max(2 * seen, seen + static_cast<double>(batch_values_left_));
      const double final_entries = std::max(1.0, ExtrapolateDistinct(seen, entries, total));
      const double entry_bytes = static_cast<double>(dictionary_->dictionary_page_bytes()) / entries;
      const double index_bits = MinimalBitWidth(static_cast<uint64_t>(final_entries) - 1);
      const double dictionary_bytes = final_entries * entry_bytes + total * index_bits / 8;
      if (dictionary_bytes > total * AlternativeBytesPerValue()) give_up_dictionary_ = true;
    } else {
      (void)count;
    }
  }

  // Bytes per value without the dictionary, before compression: for integers the smaller of
  // PLAIN and the delta estimate, otherwise PLAIN (BYTE_STREAM_SPLIT and
  // DELTA_LENGTH_BYTE_ARRAY are about as large before compression).
  double AlternativeBytesPerValue() const {
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      return std::min<double>(sizeof(T), delta_estimate_.BitsPerValue() / 8);
    }
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (column_.physical_type == Type::FIXED_LEN_BYTE_ARRAY) return column_.type_length;
      return 4 + static_cast<double>(dictionary_value_bytes_) / static_cast<double>(std::max<size_t>(1, dictionary_values_));
    } else if constexpr (std::is_same_v<T, Int96>) {
      return 12;
    } else {
      return sizeof(T);
    }
  }

  // The encoding that may do better than PLAIN for this column, or PLAIN.
  Encoding AlternativeEncoding() const {
    if (!automatic_) return Encoding::PLAIN;
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      return Encoding::DELTA_BINARY_PACKED;
    } else if constexpr (std::is_floating_point_v<T>) {
      // Without compression the streams are the PLAIN bytes reordered: no gain.
      if (codec_ != CompressionCodec::UNCOMPRESSED) return Encoding::BYTE_STREAM_SPLIT;
    } else if constexpr (std::is_same_v<T, ByteArray>) {
      if (column_.physical_type == Type::BYTE_ARRAY) return Encoding::DELTA_LENGTH_BYTE_ARRAY;
    }
    return Encoding::PLAIN;
  }

  // The encoding after the dictionary or the probe page: the alternative encoding when the
  // sample of the first values, encoded and compressed with the chunk's codec, comes out
  // smaller that way than PLAIN (see WriterOptions::automatic_encoding).
  Encoding ChosenEncoding() const {
    const Encoding alternative = AlternativeEncoding();
    if (alternative == Encoding::PLAIN || sample_.empty()) return Encoding::PLAIN;
    return SampleBytes(alternative) < SampleBytes(Encoding::PLAIN) ? alternative : Encoding::PLAIN;
  }

  size_t SampleBytes(Encoding encoding) const {
    std::unique_ptr<PageValueEncoder<T>> encoder = MakePageEncoder<T>(encoding, column_);
    sample_.PutInto(encoder.get());
    std::string encoded, compressed;
    encoder->Flush(&encoded);
    if (codec_ == CompressionCodec::UNCOMPRESSED) return encoded.size();
    Compress(codec_, BytesOf(encoded), encoded.size(), compression_level_, &compressed);
    return compressed.size();
  }

  void SwitchEncoding(Encoding encoding) {
    encoder_ = MakePageEncoder<T>(encoding, column_);
    data_encoding_ = encoding;
    phase_ = EncodingPhase::kSettled;
  }

  void CheckValues(const T* values, size_t count) const {
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (column_.physical_type == Type::FIXED_LEN_BYTE_ARRAY) {
        const uint32_t length = static_cast<uint32_t>(column_.type_length);
        for (size_t i = 0; i < count; i++) {
          if (values[i].len != length) {
            throw ParquetError("value " + std::to_string(i) + " of " + std::to_string(values[i].len) +
                               " bytes does not match the type_length " + std::to_string(length) +
                               " of column '" + column_.dotted_path + "'");
          }
        }
      } else {
        for (size_t i = 0; i < count; i++) {
          if (values[i].len > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
            throw ParquetError("value " + std::to_string(i) + " of " + std::to_string(values[i].len) +
                               " bytes is too long for column '" + column_.dotted_path + "'");
          }
        }
      }
    } else {
      (void)values, (void)count;
    }
  }

  void FlushPageValues(std::string* out) override {
    if (phase_ == EncodingPhase::kProbe && !sample_.empty()) {
      SwitchEncoding(ChosenEncoding());
      sample_.PutInto(encoder_.get());
      sample_.Clear();
    }
    encoder_->Flush(out);
  }

  size_t PageValueBytes() const override {
    return phase_ == EncodingPhase::kProbe ? sample_.plain_bytes() : encoder_->EstimatedBytes();
  }

  bool DictionaryFull() const {
    if constexpr (std::is_same_v<T, bool>) {
      return false;
    } else {
      return dictionary_ &&
             (give_up_dictionary_ || dictionary_->dictionary_page_bytes() > options_.dictionary_page_size_limit);
    }
  }

  bool EncodingEnds() const override {
    return DictionaryFull() || (phase_ == EncodingPhase::kProbe && (sample_.size() >= kFirstWindowValues ||
                                                                      sample_.plain_bytes() >= kMaxSampleBytes));
  }

  void AfterDataPage() override {
    if constexpr (!std::is_same_v<T, bool>) {
      if (DictionaryFull()) {
        // The dictionary is complete: the pages that follow use the fallback encoding.
        SwitchEncoding(ChosenEncoding());
        sample_.Clear();
        WriteDictionary();
      }
    }
  }

  void FinishValues() override {
    if constexpr (!std::is_same_v<T, bool>) {
      if (dictionary_) WriteDictionary();
    }
  }

  void WriteDictionary() {
    if constexpr (!std::is_same_v<T, bool>) {
      std::string entries;
      dictionary_->WriteDictionaryPage(&entries);
      WriteDictionaryPage(entries, dictionary_->dictionary_size());
      dictionary_.reset();
    }
  }

  EncodedBounds Bounds(const MinMax<T>& range) const {
    EncodedBounds bounds;
    range.Encode(&bounds.min, &bounds.max);
    if constexpr (std::is_same_v<T, ByteArray>) {
      // FIXED_LEN_BYTE_ARRAY bounds stay whole: readers expect type_length bytes.
      if (column_.physical_type == Type::BYTE_ARRAY) {
        TruncateBounds(&bounds, options_.statistics_truncate_length, sort_order_, text_);
      }
    }
    return bounds;
  }

  void EndPageStatistics(PageRecord* page) override {
    page->nan_count = page_min_max_.nan_count();
    page->unencoded_byte_array_bytes = page_unencoded_bytes_;
    page_unencoded_bytes_ = 0;
    if (page_min_max_.has_value() && options_.write_statistics && options_.write_page_index) {
      EncodedBounds bounds = Bounds(page_min_max_);
      page->min = std::move(bounds.min);
      page->max = std::move(bounds.max);
      page->has_bounds = true;
    }
    min_max_.Merge(page_min_max_);
    page_min_max_.Reset();
  }

  bool ChunkBounds(EncodedBounds* bounds) const override {
    if (!min_max_.has_value()) return false;
    *bounds = Bounds(min_max_);
    return true;
  }

  int64_t ChunkNanCount() const override { return min_max_.nan_count(); }

  using Dictionary = std::conditional_t<std::is_same_v<T, bool>, char, DictionaryEncoder<T>>;
  using DeltaEstimate =
      std::conditional_t<std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>, DeltaSizeEstimate<T>, char>;

  const bool text_;       // byte arrays holding UTF-8 text
  const bool automatic_;  // the encoding is ours to choose
  EncodingPhase phase_ = EncodingPhase::kSettled;
  std::unique_ptr<Dictionary> dictionary_;  // while data pages are dictionary-encoded
  std::unique_ptr<PageValueEncoder<T>> encoder_;
  MinMax<T> page_min_max_;  // the open page
  MinMax<T> min_max_;       // the pages before it
  int64_t page_unencoded_bytes_ = 0;
  std::unique_ptr<BloomFilterBuilder> bloom_;

  // Watching the dictionary.
  bool give_up_dictionary_ = false;
  size_t dictionary_values_ = 0;
  uint64_t dictionary_value_bytes_ = 0;  // of byte arrays
  size_t next_window_end_ = kFirstWindowValues;
  size_t batch_values_left_ = 0;  // values of the batch being appended not appended yet

  // What the dictionary phase or the probe page saw, for WatchDictionary and ChosenEncoding.
  DeltaEstimate delta_estimate_{};
  ValueSample<T> sample_;
};

template <typename T>
std::unique_ptr<ColumnChunkWriter> MakeTypedWriter(const ColumnDescriptor& column, int column_index,
                                                   const SchemaNode& node,
                                                   const WriterOptions& options, Encoding encoding, bool automatic,
                                                   bool bloom_filter) {
  return std::make_unique<TypedColumnChunkWriter<T>>(column, column_index, node, options, encoding, automatic, bloom_filter);
}

}  // namespace

// ---------------------------------------------------------------------------------------
// ParquetFileWriter

ParquetFileWriter::ParquetFileWriter(const std::string& path, std::vector<SchemaElement> schema,
                                     WriterOptions options)
    : ParquetFileWriter(-1, path, std::move(schema), std::move(options)) {}

ParquetFileWriter::ParquetFileWriter(int fd, const std::string& path, std::vector<SchemaElement> schema,
                                     WriterOptions options)
    : path_(path) {
  // Owns `fd` from here on: closed if anything below throws.
  struct AdoptedFile {
    int fd;
    ~AdoptedFile() {
      if (fd >= 0) ::close(fd);
    }
  } adopted{fd};
  schema_ = Schema::FromElements(schema);
  options_ = std::move(options);
  if (schema_.num_columns() == 0) throw ParquetError("schema '" + schema[0].name + "' has no columns");
  if (options_.data_page_version != 1 && options_.data_page_version != 2) {
    throw ParquetError("data page version " + std::to_string(options_.data_page_version) +
                       " is not 1 or 2");
  }
  {
    // Rejects an unsupported codec or a level out of range now rather than at the first page.
    std::string probe;
    Compress(options_.codec, nullptr, 0, options_.compression_level, &probe);
  }
  for (const auto& [column, compression] : options_.column_compression) {
    if (column < 0 || column >= schema_.num_columns()) {
      throw ParquetError("compression override for column " + std::to_string(column) +
                         ", but the schema has " + std::to_string(schema_.num_columns()) + " columns");
    }
    std::string probe;
    Compress(compression.codec, nullptr, 0, compression.level, &probe);
  }
  for (const auto& [column, encoding] : options_.column_encoding) {
    if (column < 0 || column >= schema_.num_columns()) {
      throw ParquetError("encoding override for column " + std::to_string(column) +
                         ", but the schema has " + std::to_string(schema_.num_columns()) + " columns");
    }
    const ColumnDescriptor& descriptor = schema_.column(column);
    if (!EncodingApplies(encoding, descriptor.physical_type)) {
      throw ParquetError("encoding " + ToString(encoding) + " does not apply to " +
                         ToString(descriptor.physical_type) + " column '" + descriptor.dotted_path + "'");
    }
  }
  bloom_filter_column_.assign(static_cast<size_t>(schema_.num_columns()), false);
  for (int column : options_.bloom_filter_columns) {
    if (column < 0 || column >= schema_.num_columns()) {
      throw ParquetError("bloom filter for column " + std::to_string(column) + ", but the schema has " +
                         std::to_string(schema_.num_columns()) + " columns");
    }
    // BOOLEAN columns get none: two values, which the statistics already tell apart.
    if (schema_.column(column).physical_type != Type::BOOLEAN) {
      bloom_filter_column_[static_cast<size_t>(column)] = true;
    }
  }
  if (!options_.bloom_filter_columns.empty()) {
    BloomFilter::OptimalNumBytes(0, options_.bloom_filter_fpp);  // rejects an fpp outside (0, 1)
  }
  for (const SortingColumn& sorting : options_.sorting_columns) {
    if (sorting.column_idx < 0 || sorting.column_idx >= schema_.num_columns()) {
      throw ParquetError("sorting column " + std::to_string(sorting.column_idx) + ", but the schema has " +
                         std::to_string(schema_.num_columns()) + " columns");
    }
  }
  metadata_.version = 2;
  metadata_.schema = std::move(schema);
  SetUpEncryption();
  scratch_ = std::make_unique<PageScratch>();
  if (options_.buffered_pages_limit != std::numeric_limits<size_t>::max()) {
    spill_ = std::make_unique<PageSpill>(path_, options_.buffered_pages_limit);
  }

  if (adopted.fd >= 0) {
    fd_ = adopted.fd;
    adopted.fd = -1;
  } else {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) throw ParquetError("cannot create '" + path_ + "': " + std::strerror(errno));
  }
  try {
    const bool encrypted_footer = options_.encryption != nullptr && !options_.encryption->plaintext_footer;
    WriteBytes(encrypted_footer ? kEncryptedMagic : kMagic, sizeof(kMagic));
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

ParquetFileWriter::~ParquetFileWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void ParquetFileWriter::RequireWritable() const {
  if (closed_) throw ParquetError("parquet writer for '" + path_ + "' is already closed");
  if (failed_) throw ParquetError("parquet writer for '" + path_ + "' failed earlier; the file is incomplete");
}

void ParquetFileWriter::StartRowGroup() {
  RequireWritable();
  if (row_group_open_) throw ParquetError("a row group is already open: call EndRowGroup first");
  row_group_open_ = true;
  row_group_ = RowGroup();
  row_group_.columns.assign(static_cast<size_t>(schema_.num_columns()), ColumnChunk());
  column_rows_.assign(static_cast<size_t>(schema_.num_columns()), 0);
  row_group_bloom_filters_.assign(static_cast<size_t>(schema_.num_columns()), std::string());
  current_column_ = -1;
  open_chunks_.clear();
  open_chunks_.resize(static_cast<size_t>(schema_.num_columns()));
  if (spill_) spill_->Reset();  // nothing of an earlier row group is held
}

std::unique_ptr<ColumnChunkWriter> ParquetFileWriter::MakeColumnWriter(int column) const {
  std::unique_ptr<ColumnChunkWriter> writer = MakePlainColumnWriter(column);
  writer->SetEncryption(ColumnCipher(static_cast<size_t>(column)), static_cast<int>(metadata_.row_groups.size()), column);
  writer->SetSpill(spill_.get());
  writer->SetScratch(scratch_.get());
  return writer;
}

std::unique_ptr<ColumnChunkWriter> ParquetFileWriter::MakePlainColumnWriter(int column) const {
  const ColumnDescriptor& descriptor = schema_.column(column);
  const SchemaNode& node = schema_.node(descriptor.node);
  Encoding encoding = Encoding::PLAIN;
  if (options_.dictionary && descriptor.physical_type != Type::BOOLEAN) encoding = Encoding::RLE_DICTIONARY;
  bool automatic = options_.automatic_encoding;
  auto chosen = options_.column_encoding.find(column);
  if (chosen != options_.column_encoding.end()) {
    encoding = chosen->second == Encoding::PLAIN_DICTIONARY ? Encoding::RLE_DICTIONARY : chosen->second;
    automatic = false;
  }
  const bool bloom = bloom_filter_column_[static_cast<size_t>(column)];
  switch (descriptor.physical_type) {
    case Type::BOOLEAN: return MakeTypedWriter<bool>(descriptor, column, node, options_, encoding, automatic, bloom);
    case Type::INT32: return MakeTypedWriter<int32_t>(descriptor, column, node, options_, encoding, automatic, bloom);
    case Type::INT64: return MakeTypedWriter<int64_t>(descriptor, column, node, options_, encoding, automatic, bloom);
    case Type::INT96: return MakeTypedWriter<Int96>(descriptor, column, node, options_, encoding, automatic, bloom);
    case Type::FLOAT: return MakeTypedWriter<float>(descriptor, column, node, options_, encoding, automatic, bloom);
    case Type::DOUBLE: return MakeTypedWriter<double>(descriptor, column, node, options_, encoding, automatic, bloom);
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      return MakeTypedWriter<ByteArray>(descriptor, column, node, options_, encoding, automatic, bloom);
  }
  throw ParquetError("column '" + descriptor.dotted_path + "' has unknown physical type " +
                     ToString(descriptor.physical_type));
}

ColumnChunkWriter& ParquetFileWriter::WriterForColumn(int column) {
  RequireWritable();
  if (!row_group_open_) throw ParquetError("no row group is open: call StartRowGroup first");
  if (column < 0 || column >= schema_.num_columns()) {
    throw ParquetError("column index " + std::to_string(column) + " is out of range (the schema has " +
                       std::to_string(schema_.num_columns()) + " columns)");
  }
  std::unique_ptr<ColumnChunkWriter>& chunk = open_chunks_[static_cast<size_t>(column)];
  if (!chunk) chunk = MakeColumnWriter(column);
  return *chunk;
}

template <typename T>
void ParquetFileWriter::WriteBatch(int column, size_t num_levels, const int16_t* def_levels,
                                   const int16_t* rep_levels, const T* values, size_t num_values) {
  RequireWritable();
  if (column >= 0 && column < schema_.num_columns() &&
      !StoresPhysicalType<T>(schema_.column(column).physical_type)) {
    throw ParquetError("column '" + schema_.column(column).dotted_path + "' is " +
                       ToString(schema_.column(column).physical_type) + ", it cannot take " +
                       kValueTypeName<T> + " values");
  }
  auto& writer = static_cast<TypedColumnChunkWriter<T>&>(WriterForColumn(column));
  writer.CheckBatch(num_levels, def_levels, rep_levels, values, num_values);
  try {
    writer.Append(num_levels, def_levels, rep_levels, values, num_values);
  } catch (...) {
    failed_ = true;  // part of the batch may be in the chunk
    throw;
  }
}

void ParquetFileWriter::FinishColumn() {
  try {
    ColumnChunkWriter& writer = *column_writer_;
    writer.Finish();
    const int64_t chunk_offset = static_cast<int64_t>(offset_);
    WriteBytes(writer.dictionary_page().data(), writer.dictionary_page().size());
    for (const auto& [spill_offset, size] : writer.spilled_pages()) {
      spill_->CopyTo(fd_, spill_offset, size, path_);
      offset_ += size;
    }
    for (const std::string& page : writer.data_pages()) WriteBytes(page.data(), page.size());
    writer.ReleaseHeldPages();
    ColumnChunk& chunk = row_group_.columns[static_cast<size_t>(current_column_)];
    chunk.file_offset = chunk_offset;
    chunk.meta_data = writer.Metadata(chunk_offset);
    column_rows_[static_cast<size_t>(current_column_)] = writer.rows();
    if (options_.write_page_index) {
      OffsetIndex offset_index;
      std::optional<ColumnIndex> column_index;
      writer.PageIndex(chunk.meta_data->data_page_offset, &offset_index, &column_index);
      PendingPageIndex pending;
      pending.row_group = metadata_.row_groups.size();
      pending.column = static_cast<size_t>(current_column_);
      pending.offset_index = Serialize(offset_index);
      if (column_index.has_value()) pending.column_index = Serialize(*column_index);
      page_indexes_.push_back(std::move(pending));
    }
    row_group_bloom_filters_[static_cast<size_t>(current_column_)] = writer.BloomFilterBytes();
  } catch (...) {
    failed_ = true;
    throw;
  }
  column_writer_.reset();
  current_column_ = -1;
}

void ParquetFileWriter::EndRowGroup(int64_t num_rows) {
  RequireWritable();
  if (!row_group_open_) throw ParquetError("no row group is open: call StartRowGroup first");
  // Check every column's row count first, so that a mistake leaves the row group open.
  for (int c = 0; c < schema_.num_columns(); c++) {
    const std::unique_ptr<ColumnChunkWriter>& chunk = open_chunks_[static_cast<size_t>(c)];
    const int64_t rows = chunk ? chunk->rows() : 0;
    if (rows != num_rows) {
      throw ParquetError("column '" + schema_.column(c).dotted_path + "' has " + std::to_string(rows) +
                         " rows but the row group has " + std::to_string(num_rows));
    }
  }
  // The chunks go to the file in schema order; columns without rows get empty chunks.
  for (int c = 0; c < schema_.num_columns(); c++) {
    std::unique_ptr<ColumnChunkWriter>& chunk = open_chunks_[static_cast<size_t>(c)];
    column_writer_ = chunk ? std::move(chunk) : MakeColumnWriter(c);
    current_column_ = c;
    FinishColumn();
  }
  open_chunks_.clear();
  // Page buffers grown by large pages are given back between row groups (a writer per
  // partition may stay open long after its last row group).
  constexpr size_t kKeptScratch = 64 * 1024;
  for (std::string* buffer : {&scratch_->values, &scratch_->body, &scratch_->compressed}) {
    if (buffer->capacity() > kKeptScratch) std::string().swap(*buffer);
  }
  if (spill_) {
    try {
      spill_->Reset();
    } catch (...) {
      failed_ = true;
      throw;
    }
  }
  row_group_.num_rows = num_rows;
  int64_t uncompressed = 0, compressed = 0;
  for (const ColumnChunk& chunk : row_group_.columns) {
    uncompressed += chunk.meta_data->total_uncompressed_size;
    compressed += chunk.meta_data->total_compressed_size;
  }
  row_group_.total_byte_size = uncompressed;
  row_group_.total_compressed_size = compressed;
  row_group_.file_offset = row_group_.columns[0].file_offset;
  if (!options_.sorting_columns.empty()) row_group_.sorting_columns = options_.sorting_columns;
  // The row group's bloom filters follow its column chunks.
  try {
    for (size_t c = 0; c < row_group_bloom_filters_.size(); c++) {
      std::string& filter = row_group_bloom_filters_[c];
      if (filter.empty()) continue;
      ColumnMetaData& meta = *row_group_.columns[c].meta_data;
      if (const ModuleCipher* cipher = ColumnCipher(c)) {
        // Header and bitset are two modules.
        size_t header_size = 0;
        ParseBloomFilterHeader(BytesOf(filter), filter.size(), &header_size);
        const int rg = static_cast<int>(metadata_.row_groups.size()), column = static_cast<int>(c);
        filter = cipher->Encrypt(ModuleType::kBloomFilterHeader, std::string_view(filter).substr(0, header_size), rg, column) +
                 cipher->Encrypt(ModuleType::kBloomFilterBitset, std::string_view(filter).substr(header_size), rg, column);
      }
      meta.bloom_filter_offset = static_cast<int64_t>(offset_);
      meta.bloom_filter_length = static_cast<int32_t>(filter.size());
      WriteBytes(filter.data(), filter.size());
      std::string().swap(filter);
    }
  } catch (...) {
    failed_ = true;
    throw;
  }
  const size_t ordinal = metadata_.row_groups.size();
  if (ordinal <= static_cast<size_t>(std::numeric_limits<int16_t>::max())) {
    row_group_.ordinal = static_cast<int16_t>(ordinal);
  }
  metadata_.row_groups.push_back(std::move(row_group_));
  metadata_.num_rows += num_rows;
  row_group_ = RowGroup();
  row_group_open_ = false;
}

void ParquetFileWriter::Close() {
  if (closed_) return;
  RequireWritable();
  if (row_group_open_) throw ParquetError("a row group is still open: call EndRowGroup before Close");
  try {
    metadata_.created_by = options_.created_by;
    if (!options_.key_value_metadata.empty()) metadata_.key_value_metadata = options_.key_value_metadata;
    metadata_.column_orders = std::vector<ColumnOrder>(static_cast<size_t>(schema_.num_columns()),
                                                       ColumnOrder{ColumnOrder::Kind::TYPE_DEFINED_ORDER});
    // The page index: every column index, then every offset index.
    for (PendingPageIndex& pending : page_indexes_) {
      if (const ModuleCipher* cipher = ColumnCipher(pending.column)) {
        const int rg = static_cast<int>(pending.row_group), column = static_cast<int>(pending.column);
        if (!pending.column_index.empty()) {
          pending.column_index = cipher->Encrypt(ModuleType::kColumnIndex, pending.column_index, rg, column);
        }
        pending.offset_index = cipher->Encrypt(ModuleType::kOffsetIndex, pending.offset_index, rg, column);
      }
    }
    for (const PendingPageIndex& pending : page_indexes_) {
      if (pending.column_index.empty()) continue;
      ColumnChunk& chunk = metadata_.row_groups[pending.row_group].columns[pending.column];
      chunk.column_index_offset = static_cast<int64_t>(offset_);
      chunk.column_index_length = IndexLength(pending.column_index);
      WriteBytes(pending.column_index.data(), pending.column_index.size());
    }
    for (const PendingPageIndex& pending : page_indexes_) {
      ColumnChunk& chunk = metadata_.row_groups[pending.row_group].columns[pending.column];
      chunk.offset_index_offset = static_cast<int64_t>(offset_);
      chunk.offset_index_length = IndexLength(pending.offset_index);
      WriteBytes(pending.offset_index.data(), pending.offset_index.size());
    }
    page_indexes_.clear();
    std::string footer;
    if (options_.encryption != nullptr) {
      EncryptColumnMetadata();
      footer = EncryptedFooter();
    } else {
      footer = Serialize(metadata_);
    }
    if (footer.size() > std::numeric_limits<uint32_t>::max()) {
      throw ParquetError("footer of " + std::to_string(footer.size()) + " bytes is too large");
    }
    AppendLittleEndian32(static_cast<uint32_t>(footer.size()), &footer);
    const bool encrypted_footer = options_.encryption != nullptr && !options_.encryption->plaintext_footer;
    footer.append(encrypted_footer ? kEncryptedMagic : kMagic, sizeof(kMagic));
    WriteBytes(footer.data(), footer.size());
    CloseFile();
  } catch (...) {
    failed_ = true;
    throw;
  }
  closed_ = true;
}

void ParquetFileWriter::SetUpEncryption() {
  if (options_.encryption == nullptr) return;
  const FileEncryptionProperties& encryption = *options_.encryption;
  if (!IsValidAesKeyLength(encryption.footer_key.size())) {
    throw ParquetError("the footer key is " + std::to_string(encryption.footer_key.size()) +
                       " bytes long; AES keys are 16, 24 or 32 bytes");
  }
  if (encryption.algorithm == EncryptionAlgorithm::Kind::UNRECOGNIZED) throw ParquetError("unknown encryption algorithm");
  aad_file_unique_ = RandomBytes(8);
  const std::string file_aad = encryption.aad_prefix.value_or(std::string()) + aad_file_unique_;
  ciphers_.push_back(ModuleCipher{encryption.algorithm, encryption.footer_key, file_aad});
  auto find_column = [this](const std::string& path, const char* what) {
    for (int c = 0; c < schema_.num_columns(); c++) {
      if (schema_.column(c).dotted_path == path) return c;
    }
    throw ParquetError(std::string(what) + " names column '" + path + "', which is not a leaf column of the file");
  };
  column_cipher_.assign(static_cast<size_t>(schema_.num_columns()), encryption.encrypt_all_columns ? 0 : -1);
  for (const auto& [path, key] : encryption.column_keys) {
    const int column = find_column(path, "column_keys");
    if (!IsValidAesKeyLength(key.size())) {
      throw ParquetError("the key of column '" + path + "' is " + std::to_string(key.size()) +
                         " bytes long; AES keys are 16, 24 or 32 bytes");
    }
    ciphers_.push_back(ModuleCipher{encryption.algorithm, key, file_aad});
    column_cipher_[static_cast<size_t>(column)] = static_cast<int>(ciphers_.size() - 1);
  }
  for (const auto& [path, key_metadata] : encryption.column_key_metadata) find_column(path, "column_key_metadata");
  for (const std::string& path : encryption.plaintext_columns) {
    column_cipher_[static_cast<size_t>(find_column(path, "plaintext_columns"))] = -1;
  }
}

const ModuleCipher* ParquetFileWriter::ColumnCipher(size_t column) const {
  if (column_cipher_.empty() || column_cipher_[column] < 0) return nullptr;
  return &ciphers_[static_cast<size_t>(column_cipher_[column])];
}

// Sets crypto_metadata on every encrypted chunk and moves ColumnMetaData into
// encrypted_column_metadata where the footer does not protect it.
void ParquetFileWriter::EncryptColumnMetadata() {
  const FileEncryptionProperties& encryption = *options_.encryption;
  for (size_t g = 0; g < metadata_.row_groups.size(); g++) {
    for (size_t c = 0; c < metadata_.row_groups[g].columns.size(); c++) {
      const ModuleCipher* cipher = ColumnCipher(c);
      if (cipher == nullptr) continue;
      ColumnChunk& chunk = metadata_.row_groups[g].columns[c];
      const bool own_key = column_cipher_[c] != 0;
      ColumnCryptoMetaData crypto;
      if (own_key) {
        crypto.kind = ColumnCryptoMetaData::Kind::WITH_COLUMN_KEY;
        crypto.path_in_schema = schema_.column(static_cast<int>(c)).path;
        auto metadata = encryption.column_key_metadata.find(schema_.column(static_cast<int>(c)).dotted_path);
        if (metadata != encryption.column_key_metadata.end()) crypto.key_metadata = metadata->second;
      }
      chunk.crypto_metadata = crypto;
      if (!own_key && !encryption.plaintext_footer) continue;  // the encrypted footer protects it
      chunk.encrypted_column_metadata = cipher->Encrypt(ModuleType::kColumnMetaData, Serialize(*chunk.meta_data),
                                                        static_cast<int>(g), static_cast<int>(c));
      if (encryption.plaintext_footer) {
        // For readers without the key: where the chunk is, not what is in it.
        chunk.meta_data->statistics.reset();
        chunk.meta_data->encoding_stats.reset();
        chunk.meta_data->size_statistics.reset();
        chunk.meta_data->geospatial_statistics.reset();
      } else {
        chunk.meta_data.reset();
      }
    }
  }
}

// The footer bytes before the length: FileCryptoMetaData and the encrypted FileMetaData,
// or the plaintext FileMetaData and its signature.
std::string ParquetFileWriter::EncryptedFooter() const {
  const FileEncryptionProperties& encryption = *options_.encryption;
  EncryptionAlgorithm algorithm;
  algorithm.kind = encryption.algorithm;
  algorithm.aad_file_unique = aad_file_unique_;
  if (encryption.aad_prefix.has_value()) {
    if (encryption.store_aad_prefix) {
      algorithm.aad_prefix = encryption.aad_prefix;
    } else {
      algorithm.supply_aad_prefix = true;
    }
  }
  const ModuleCipher& footer_cipher = ciphers_[0];
  if (!encryption.plaintext_footer) {
    FileCryptoMetaData crypto;
    crypto.encryption_algorithm = algorithm;
    crypto.key_metadata = encryption.footer_key_metadata;
    return Serialize(crypto) + footer_cipher.Encrypt(ModuleType::kFooter, Serialize(metadata_), 0, 0);
  }
  FileMetaData signed_metadata = metadata_;
  signed_metadata.encryption_algorithm = algorithm;
  signed_metadata.footer_signing_key_metadata = encryption.footer_key_metadata;
  std::string out = Serialize(signed_metadata);
  const std::string sealed =
      GcmEncrypt(footer_cipher.key, out, ModuleAad(footer_cipher.file_aad, ModuleType::kFooter, 0, 0));
  out.append(sealed, 0, kNonceLength);
  out.append(sealed, sealed.size() - kGcmTagLength, kGcmTagLength);
  return out;
}

int32_t ParquetFileWriter::IndexLength(const std::string& index) const {
  if (index.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    throw ParquetError("page index of " + std::to_string(index.size()) + " bytes is too large");
  }
  return static_cast<int32_t>(index.size());
}

void ParquetFileWriter::WriteBytes(const void* data, size_t size) {
  const char* pos = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t written = ::write(fd_, pos, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      failed_ = true;
      throw ParquetError("cannot write to '" + path_ + "': " + std::strerror(errno));
    }
    pos += written;
    size -= static_cast<size_t>(written);
    offset_ += static_cast<uint64_t>(written);
  }
}

void ParquetFileWriter::CloseFile() {
  if (fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw ParquetError("cannot close '" + path_ + "': " + std::strerror(errno));
}

template void ParquetFileWriter::WriteBatch<bool>(int, size_t, const int16_t*, const int16_t*,
                                                  const bool*, size_t);
template void ParquetFileWriter::WriteBatch<int32_t>(int, size_t, const int16_t*, const int16_t*,
                                                     const int32_t*, size_t);
template void ParquetFileWriter::WriteBatch<int64_t>(int, size_t, const int16_t*, const int16_t*,
                                                     const int64_t*, size_t);
template void ParquetFileWriter::WriteBatch<Int96>(int, size_t, const int16_t*, const int16_t*,
                                                   const Int96*, size_t);
template void ParquetFileWriter::WriteBatch<float>(int, size_t, const int16_t*, const int16_t*,
                                                   const float*, size_t);
template void ParquetFileWriter::WriteBatch<double>(int, size_t, const int16_t*, const int16_t*,
                                                    const double*, size_t);
template void ParquetFileWriter::WriteBatch<ByteArray>(int, size_t, const int16_t*, const int16_t*,
                                                       const ByteArray*, size_t);

}  // namespace parquet
