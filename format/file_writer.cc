// ParquetFileWriter (see file_writer.h): level and value encoding, page assembly,
// compression, page checksums, column chunk statistics and the footer.
//
// Data page v1 body (compressed as a whole):
//   [repetition levels][definition levels][values]; a level section is present only when
//   the column's maximum level is above 0: 4-byte little-endian length + RLE/bit-packed hybrid.
// Data page v2 body:
//   [repetition levels][definition levels] as hybrid runs without length prefix (their byte
//   lengths are in the header), never compressed; then [values], compressed.
// Pages of both versions start at a row boundary (repetition level 0), so a page index can
// later give each page a first row.
#include "format/file_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

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

namespace parquet {

namespace {

constexpr char kMagic[4] = {'P', 'A', 'R', '1'};
// Slots appended between two checks of the page size: bounds how far a page overshoots.
constexpr size_t kMaxSlotsPerStep = 1024;
// Slots of the first step into an empty page, before its bytes per slot are known (one, so
// that a page of large values holds just one when one passes page_size).
constexpr size_t kFirstStepSlots = 1;
// Hard cap on the slots of one page, whatever page_size says (num_values is an int32).
constexpr size_t kMaxSlotsPerPage = size_t{1} << 24;

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

// Whether `encoding` may encode the data pages of a column of physical type `type`.
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

// Compares big-endian two's-complement integers of any lengths (the shorter sign-extended).
int CompareDecimal(std::string_view a, std::string_view b) {
  const bool a_negative = !a.empty() && (static_cast<uint8_t>(a[0]) & 0x80);
  const bool b_negative = !b.empty() && (static_cast<uint8_t>(b[0]) & 0x80);
  if (a_negative != b_negative) return a_negative ? -1 : 1;
  const uint8_t pad = a_negative ? 0xFF : 0x00;
  const size_t length = std::max(a.size(), b.size());
  const size_t a_start = length - a.size(), b_start = length - b.size();
  for (size_t i = 0; i < length; i++) {
    uint8_t x = i < a_start ? pad : static_cast<uint8_t>(a[i - a_start]);
    uint8_t y = i < b_start ? pad : static_cast<uint8_t>(b[i - b_start]);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

int CompareUnsignedBytes(std::string_view a, std::string_view b) {
  const size_t common = std::min(a.size(), b.size());
  int c = common == 0 ? 0 : std::memcmp(a.data(), b.data(), common);
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// Running min and max of the non-null values of a column chunk, in the column's order.
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
          if (std::isnan(value)) continue;
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

  bool has_value() const { return has_value_; }

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
    for (size_t i = 0; i < count; i++) {
      std::string_view value = values[i].view();
      if (!has_value_) {
        min_.assign(value);
        max_.assign(value);
        has_value_ = true;
      } else if (Compare(value, min_) < 0) {
        min_.assign(value);
      } else if (Compare(value, max_) > 0) {
        max_.assign(value);
      }
    }
  }

  bool has_value() const { return has_value_; }

  void Encode(std::string* min, std::string* max) const {
    *min = min_;
    *max = max_;
  }

 private:
  int Compare(std::string_view a, std::string_view b) const {
    return order_ == SortOrder::kDecimal ? CompareDecimal(a, b) : CompareUnsignedBytes(a, b);
  }

  SortOrder order_;
  bool has_value_ = false;
  std::string min_;
  std::string max_;
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
  explicit DictionaryPageEncoder(DictionaryEncoder<T>* dictionary) : dictionary_(dictionary) {}
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

// ---------------------------------------------------------------------------------------
// ColumnChunkWriter: the type-independent part of writing one column chunk (levels, page
// assembly, compression, checksums, metadata). The chunk's pages are buffered in memory.

class ColumnChunkWriter {
 public:
  ColumnChunkWriter(const ColumnDescriptor& column, const WriterOptions& options, Encoding data_encoding)
      : column_(column),
        options_(options),
        data_encoding_(data_encoding),
        def_encoder_(MinimalBitWidth(static_cast<uint64_t>(column.max_definition_level))),
        rep_encoder_(MinimalBitWidth(static_cast<uint64_t>(column.max_repetition_level))) {}
  virtual ~ColumnChunkWriter() = default;

  const ColumnDescriptor& column() const { return column_; }
  int64_t rows() const { return rows_; }

  // Ends the last data page (an empty chunk gets one empty page, for data_page_offset to
  // point at) and writes the dictionary page, if any.
  void Finish() {
    if (page_slots_ > 0 || data_pages_written_ == 0) WriteDataPage();
    FinishValues();
  }

  // The chunk's bytes, in file order: dictionary_page() then data_pages().
  const std::string& dictionary_page() const { return dictionary_page_; }
  const std::string& data_pages() const { return data_pages_; }

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
    meta.codec = options_.codec;
    meta.num_values = slots_;
    meta.total_uncompressed_size = total_uncompressed_size_;
    meta.total_compressed_size = total_compressed_size_;
    meta.data_page_offset = offset + static_cast<int64_t>(dictionary_page_.size());
    if (!dictionary_page_.empty()) meta.dictionary_page_offset = offset;
    if (options_.write_statistics) {
      Statistics statistics;
      statistics.null_count = null_count_;
      std::string min, max;
      if (EncodeMinMax(&min, &max)) {
        statistics.min_value = std::move(min);
        statistics.max_value = std::move(max);
        statistics.is_min_value_exact = true;
        statistics.is_max_value_exact = true;
      }
      meta.statistics = std::move(statistics);
    }
    meta.encoding_stats = encoding_stats_;
    return meta;
  }

 protected:
  // Typed hooks.
  virtual void FlushPageValues(std::string* out) = 0;  // the page's encoded values
  virtual size_t PageValueBytes() const = 0;           // their (estimated) size so far
  virtual bool DictionaryFull() const = 0;             // the dictionary passed its limit
  virtual void AfterDataPage() = 0;                    // e.g. the fallback from the dictionary
  virtual void FinishValues() = 0;                     // e.g. the dictionary page
  virtual bool EncodeMinMax(std::string* min, std::string* max) const = 0;

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
      values = 0;
      for (size_t i = 0; i < num_levels; i++) {
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
    if (column_.max_repetition_level > 0) {
      rows = 0;
      for (size_t i = begin; i < end; i++) {
        rep_encoder_.Put(static_cast<uint32_t>(rep[i]));
        rows += (rep[i] == 0);
      }
    }
    if (column_.max_definition_level > 0) {
      const int16_t max_def = column_.max_definition_level;
      values = 0;
      for (size_t i = begin; i < end; i++) {
        def_encoder_.Put(static_cast<uint32_t>(def[i]));
        values += (def[i] == max_def);
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
                 DictionaryFull();
  }

  void WriteDataPage() {
    values_.clear();
    FlushPageValues(&values_);
    PageHeader header;
    body_.clear();
    const std::string* body = &body_;
    if (options_.data_page_version == 1) {
      if (column_.max_repetition_level > 0) AppendPrefixedLevels(&rep_encoder_, &body_);
      if (column_.max_definition_level > 0) AppendPrefixedLevels(&def_encoder_, &body_);
      body_ += values_;
      header.type = PageType::DATA_PAGE;
      header.uncompressed_page_size = PageSizeField(body_.size());
      if (options_.codec != CompressionCodec::UNCOMPRESSED) {
        compressed_.clear();
        Compress(options_.codec, BytesOf(body_), body_.size(), options_.compression_level, &compressed_);
        body = &compressed_;
      }
      DataPageHeader data_header;
      data_header.num_values = static_cast<int32_t>(page_slots_);
      data_header.encoding = data_encoding_;
      data_header.definition_level_encoding = Encoding::RLE;
      data_header.repetition_level_encoding = Encoding::RLE;
      header.data_page_header = data_header;
    } else {
      if (column_.max_repetition_level > 0) rep_encoder_.Flush(&body_);
      const size_t rep_length = body_.size();
      if (column_.max_definition_level > 0) def_encoder_.Flush(&body_);
      const size_t def_length = body_.size() - rep_length;
      header.type = PageType::DATA_PAGE_V2;
      header.uncompressed_page_size = PageSizeField(body_.size() + values_.size());
      const bool compressed = options_.codec != CompressionCodec::UNCOMPRESSED;
      if (compressed) {
        Compress(options_.codec, BytesOf(values_), values_.size(), options_.compression_level, &body_);
      } else {
        body_ += values_;
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
    AppendPage(&header, *body, &data_pages_);
    CountPage(header.type, data_encoding_);
    if (std::find(data_encodings_.begin(), data_encodings_.end(), data_encoding_) == data_encodings_.end()) {
      data_encodings_.push_back(data_encoding_);
    }
    data_pages_written_++;
    page_slots_ = 0;
    page_values_ = 0;
    page_rows_ = 0;
    page_full_ = false;
    AfterDataPage();
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
    if (options_.codec != CompressionCodec::UNCOMPRESSED) {
      compressed_.clear();
      Compress(options_.codec, BytesOf(entries), entries.size(), options_.compression_level, &compressed_);
      body = &compressed_;
    }
    dictionary_page_.clear();
    AppendPage(&header, *body, &dictionary_page_);
    CountPage(PageType::DICTIONARY_PAGE, Encoding::PLAIN);
  }

  const ColumnDescriptor& column_;
  const WriterOptions& options_;
  Encoding data_encoding_;  // value encoding of the data pages being written
  bool page_full_ = false;  // cut the page at the next row boundary

 private:
  static void AppendPrefixedLevels(RleBitPackedEncoder* encoder, std::string* out) {
    const size_t start = out->size();
    out->append(4, '\0');
    encoder->Flush(out);
    WriteLittleEndian32(static_cast<uint32_t>(out->size() - start - 4), out->data() + start);
  }

  int32_t PageSizeField(size_t size) const {
    if (size > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      throw ParquetError("page of " + std::to_string(size) + " bytes in column '" + column_.dotted_path +
                         "' is too large for a parquet page header");
    }
    return static_cast<int32_t>(size);
  }

  // Completes the header (sizes, checksum) and appends header and body to *out.
  void AppendPage(PageHeader* header, const std::string& body, std::string* out) {
    header->compressed_page_size = PageSizeField(body.size());
    if (options_.write_crc) header->crc = static_cast<int32_t>(Crc32(BytesOf(body), body.size()));
    const std::string serialized = Serialize(*header);
    out->append(serialized);
    out->append(body);
    total_compressed_size_ += static_cast<int64_t>(serialized.size() + body.size());
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

  RleBitPackedEncoder def_encoder_;
  RleBitPackedEncoder rep_encoder_;

  // The open page.
  size_t page_slots_ = 0;
  size_t page_values_ = 0;
  size_t page_rows_ = 0;

  // The whole chunk.
  int64_t slots_ = 0;
  int64_t rows_ = 0;
  int64_t null_count_ = 0;
  int64_t total_uncompressed_size_ = 0;
  int64_t total_compressed_size_ = 0;
  int data_pages_written_ = 0;
  std::vector<Encoding> data_encodings_;
  std::vector<PageEncodingStats> encoding_stats_;
  std::string dictionary_page_;  // header + body
  std::string data_pages_;       // headers + bodies

  // Scratch buffers, reused from page to page.
  std::string values_;
  std::string body_;
  std::string compressed_;
};

namespace {

// The typed part of a column chunk: value checks, value encoders, dictionary, min/max.
template <typename T>
class TypedColumnChunkWriter final : public ColumnChunkWriter {
 public:
  TypedColumnChunkWriter(const ColumnDescriptor& column, const SchemaNode& node,
                         const WriterOptions& options, Encoding encoding)
      : ColumnChunkWriter(column, options, encoding), min_max_(SortOrderOf(node)) {
    if (encoding == Encoding::RLE_DICTIONARY) {
      if constexpr (std::is_same_v<T, bool>) {
        throw ParquetError("BOOLEAN column '" + column.dotted_path + "' cannot be dictionary-encoded");
      } else {
        dictionary_ = std::make_unique<DictionaryEncoder<T>>(
            column.physical_type == Type::FIXED_LEN_BYTE_ARRAY ? column.type_length : -1);
        encoder_ = std::make_unique<DictionaryPageEncoder<T>>(dictionary_.get());
      }
    } else {
      encoder_ = MakePageEncoder<T>(encoding, column);
    }
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
  void Append(size_t num_levels, const int16_t* def, const int16_t* rep, const T* values) {
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
      if (count > 0) {
        encoder_->Put(values, count);
        min_max_.Update(values, count);
        values += count;
      }
      UpdatePageFull();
      pos = end;
    }
  }

 private:
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

  void FlushPageValues(std::string* out) override { encoder_->Flush(out); }
  size_t PageValueBytes() const override { return encoder_->EstimatedBytes(); }

  bool DictionaryFull() const override {
    if constexpr (std::is_same_v<T, bool>) {
      return false;
    } else {
      return dictionary_ && dictionary_->dictionary_page_bytes() > options_.dictionary_page_size_limit;
    }
  }

  void AfterDataPage() override {
    if constexpr (!std::is_same_v<T, bool>) {
      if (DictionaryFull()) {
        // The dictionary is complete: the pages that follow are PLAIN.
        encoder_ = MakePageEncoder<T>(Encoding::PLAIN, column_);
        data_encoding_ = Encoding::PLAIN;
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

  bool EncodeMinMax(std::string* min, std::string* max) const override {
    if (!min_max_.has_value()) return false;
    min_max_.Encode(min, max);
    return true;
  }

  using Dictionary = std::conditional_t<std::is_same_v<T, bool>, char, DictionaryEncoder<T>>;
  std::unique_ptr<Dictionary> dictionary_;  // while data pages are dictionary-encoded
  std::unique_ptr<PageValueEncoder<T>> encoder_;
  MinMax<T> min_max_;
};

template <typename T>
std::unique_ptr<ColumnChunkWriter> MakeTypedWriter(const ColumnDescriptor& column, const SchemaNode& node,
                                                   const WriterOptions& options, Encoding encoding) {
  return std::make_unique<TypedColumnChunkWriter<T>>(column, node, options, encoding);
}

}  // namespace

// ---------------------------------------------------------------------------------------
// ParquetFileWriter

ParquetFileWriter::ParquetFileWriter(const std::string& path, std::vector<SchemaElement> schema,
                                     WriterOptions options)
    : path_(path), schema_(Schema::FromElements(schema)), options_(std::move(options)) {
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
  metadata_.version = 2;
  metadata_.schema = std::move(schema);

  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) throw ParquetError("cannot create '" + path_ + "': " + std::strerror(errno));
  try {
    WriteBytes(kMagic, sizeof(kMagic));
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
  current_column_ = -1;
  next_column_ = 0;
}

std::unique_ptr<ColumnChunkWriter> ParquetFileWriter::MakeColumnWriter(int column) const {
  const ColumnDescriptor& descriptor = schema_.column(column);
  const SchemaNode& node = schema_.node(descriptor.node);
  Encoding encoding = Encoding::PLAIN;
  if (options_.dictionary && descriptor.physical_type != Type::BOOLEAN) encoding = Encoding::RLE_DICTIONARY;
  auto chosen = options_.column_encoding.find(column);
  if (chosen != options_.column_encoding.end()) {
    encoding = chosen->second == Encoding::PLAIN_DICTIONARY ? Encoding::RLE_DICTIONARY : chosen->second;
  }
  switch (descriptor.physical_type) {
    case Type::BOOLEAN: return MakeTypedWriter<bool>(descriptor, node, options_, encoding);
    case Type::INT32: return MakeTypedWriter<int32_t>(descriptor, node, options_, encoding);
    case Type::INT64: return MakeTypedWriter<int64_t>(descriptor, node, options_, encoding);
    case Type::INT96: return MakeTypedWriter<Int96>(descriptor, node, options_, encoding);
    case Type::FLOAT: return MakeTypedWriter<float>(descriptor, node, options_, encoding);
    case Type::DOUBLE: return MakeTypedWriter<double>(descriptor, node, options_, encoding);
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY: return MakeTypedWriter<ByteArray>(descriptor, node, options_, encoding);
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
  if (column == current_column_) return *column_writer_;
  if (column < next_column_) {
    throw ParquetError("column '" + schema_.column(column).dotted_path +
                       "' was already written in this row group (columns go in schema order)");
  }
  if (current_column_ >= 0) FinishColumn();
  // Columns skipped over get empty chunks.
  while (next_column_ < column) {
    column_writer_ = MakeColumnWriter(next_column_);
    current_column_ = next_column_++;
    FinishColumn();
  }
  column_writer_ = MakeColumnWriter(column);
  current_column_ = column;
  next_column_ = column + 1;
  return *column_writer_;
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
    writer.Append(num_levels, def_levels, rep_levels, values);
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
    WriteBytes(writer.data_pages().data(), writer.data_pages().size());
    ColumnChunk& chunk = row_group_.columns[static_cast<size_t>(current_column_)];
    chunk.file_offset = chunk_offset;
    chunk.meta_data = writer.Metadata(chunk_offset);
    column_rows_[static_cast<size_t>(current_column_)] = writer.rows();
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
    int64_t rows = 0;
    if (c == current_column_) {
      rows = column_writer_->rows();
    } else if (c < next_column_) {
      rows = column_rows_[static_cast<size_t>(c)];
    }
    if (rows != num_rows) {
      throw ParquetError("column '" + schema_.column(c).dotted_path + "' has " + std::to_string(rows) +
                         " rows but the row group has " + std::to_string(num_rows));
    }
  }
  if (current_column_ >= 0) FinishColumn();
  while (next_column_ < schema_.num_columns()) {
    column_writer_ = MakeColumnWriter(next_column_);
    current_column_ = next_column_++;
    FinishColumn();
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
    std::string footer = Serialize(metadata_);
    if (footer.size() > std::numeric_limits<uint32_t>::max()) {
      throw ParquetError("footer of " + std::to_string(footer.size()) + " bytes is too large");
    }
    AppendLittleEndian32(static_cast<uint32_t>(footer.size()), &footer);
    footer.append(kMagic, sizeof(kMagic));
    WriteBytes(footer.data(), footer.size());
    CloseFile();
  } catch (...) {
    failed_ = true;
    throw;
  }
  closed_ = true;
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
