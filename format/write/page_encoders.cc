// The writer's page value encoders (see page_encoders.h).
#include "format/write/page_encoders.h"

#include <type_traits>
#include <utility>

#include "format/encoding/bit_packing.h"
#include "format/encoding/boolean_rle.h"
#include "format/encoding/byte_stream_split.h"
#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/delta_byte_array.h"
#include "format/encoding/delta_length_byte_array.h"
#include "format/encoding/plain.h"
#include "format/common/error.h"

namespace parquet {

namespace {

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
  DictionaryPageEncoder(DictionaryEncoder<T>* dictionary, size_t max_page_values) : dictionary_(dictionary) {
    dictionary_->set_page_index_hint(max_page_values);
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

}  // namespace

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

template <typename T>
std::unique_ptr<PageValueEncoder<T>> MakeDictionaryPageEncoder(DictionaryEncoder<T>* dictionary,
                                                               size_t max_page_values) {
  return std::make_unique<DictionaryPageEncoder<T>>(dictionary, max_page_values);
}

template std::unique_ptr<PageValueEncoder<bool>> MakePageEncoder<bool>(Encoding, const ColumnDescriptor&);
template std::unique_ptr<PageValueEncoder<int32_t>> MakePageEncoder<int32_t>(Encoding, const ColumnDescriptor&);
template std::unique_ptr<PageValueEncoder<int64_t>> MakePageEncoder<int64_t>(Encoding, const ColumnDescriptor&);
template std::unique_ptr<PageValueEncoder<Int96>> MakePageEncoder<Int96>(Encoding, const ColumnDescriptor&);
template std::unique_ptr<PageValueEncoder<float>> MakePageEncoder<float>(Encoding, const ColumnDescriptor&);
template std::unique_ptr<PageValueEncoder<double>> MakePageEncoder<double>(Encoding, const ColumnDescriptor&);
template std::unique_ptr<PageValueEncoder<ByteArray>> MakePageEncoder<ByteArray>(Encoding, const ColumnDescriptor&);

template std::unique_ptr<PageValueEncoder<int32_t>> MakeDictionaryPageEncoder(DictionaryEncoder<int32_t>*, size_t);
template std::unique_ptr<PageValueEncoder<int64_t>> MakeDictionaryPageEncoder(DictionaryEncoder<int64_t>*, size_t);
template std::unique_ptr<PageValueEncoder<Int96>> MakeDictionaryPageEncoder(DictionaryEncoder<Int96>*, size_t);
template std::unique_ptr<PageValueEncoder<float>> MakeDictionaryPageEncoder(DictionaryEncoder<float>*, size_t);
template std::unique_ptr<PageValueEncoder<double>> MakeDictionaryPageEncoder(DictionaryEncoder<double>*, size_t);
template std::unique_ptr<PageValueEncoder<ByteArray>> MakeDictionaryPageEncoder(DictionaryEncoder<ByteArray>*,
                                                                                size_t);

}  // namespace parquet
