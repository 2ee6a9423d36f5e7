// BYTE_STREAM_SPLIT decoders and encoders (layout in byte_stream_split.h). Decoding
// gathers byte k of each value from stream k; encoding scatters them back. Widths 2, 4
// and 8 are gathered 16 values at a time with SSE2 byte interleaving where available;
// other widths use a generic loop.
#include "format/encoding/byte_stream_split.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "format/common/error.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace parquet {

namespace {

[[noreturn]] void FailByteStreamSplit(const std::string& message) {
  throw ParquetError("byte stream split: " + message);
}

void CheckSize(size_t size, size_t num_values, size_t width) {
  if (size % width != 0 || size / width != num_values) {
    FailByteStreamSplit("data of " + std::to_string(size) + " bytes does not hold exactly " +
         std::to_string(num_values) + " values of " + std::to_string(width) + " bytes");
  }
}

// Values first .. first+count of the N-value split data, joined into out (count*Width bytes).
template <size_t Width>
void GatherScalar(const uint8_t* data, size_t num_values, size_t first, size_t count,
                  uint8_t* __restrict out) {
  const uint8_t* __restrict streams[Width];
  for (size_t k = 0; k < Width; ++k) streams[k] = data + k * num_values + first;
  for (size_t i = 0; i < count; ++i) {
    uint8_t value[Width];
    for (size_t k = 0; k < Width; ++k) value[k] = streams[k][i];
    std::memcpy(out + i * Width, value, Width);
  }
}

#ifdef __SSE2__
// 16 values at a time: load 16 bytes of each stream, then interleave bytes, then 16-bit
// pairs, then 32-bit quads (as many rounds as log2(Width)) to get whole values in order.
template <size_t Width>
void GatherFixed(const uint8_t* data, size_t num_values, size_t first, size_t count,
                 uint8_t* out) {
  static_assert(Width == 2 || Width == 4 || Width == 8);
  const uint8_t* streams[Width];
  for (size_t k = 0; k < Width; ++k) streams[k] = data + k * num_values + first;
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    __m128i a[Width];
    for (size_t k = 0; k < Width; ++k) {
      a[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(streams[k] + i));
    }
    __m128i b[Width];  // byte-interleaved pairs of streams: (0,1), (2,3), ...
    for (size_t k = 0; k < Width / 2; ++k) {
      b[2 * k] = _mm_unpacklo_epi8(a[2 * k], a[2 * k + 1]);
      b[2 * k + 1] = _mm_unpackhi_epi8(a[2 * k], a[2 * k + 1]);
    }
    __m128i* dest = reinterpret_cast<__m128i*>(out + i * Width);
    if constexpr (Width == 2) {
      _mm_storeu_si128(dest, b[0]);
      _mm_storeu_si128(dest + 1, b[1]);
    } else {
      __m128i c[Width];  // 16-bit pairs of b: bytes 0-3 (and 4-7) of four values each
      for (size_t h = 0; h < Width / 4; ++h) {
        const __m128i* low = b + 4 * h;  // streams 4h, 4h+1 and 4h+2, 4h+3
        c[4 * h + 0] = _mm_unpacklo_epi16(low[0], low[2]);
        c[4 * h + 1] = _mm_unpackhi_epi16(low[0], low[2]);
        c[4 * h + 2] = _mm_unpacklo_epi16(low[1], low[3]);
        c[4 * h + 3] = _mm_unpackhi_epi16(low[1], low[3]);
      }
      if constexpr (Width == 4) {
        for (size_t k = 0; k < 4; ++k) _mm_storeu_si128(dest + k, c[k]);
      } else {
        for (size_t k = 0; k < 4; ++k) {
          _mm_storeu_si128(dest + 2 * k, _mm_unpacklo_epi32(c[k], c[k + 4]));
          _mm_storeu_si128(dest + 2 * k + 1, _mm_unpackhi_epi32(c[k], c[k + 4]));
        }
      }
    }
  }
  GatherScalar<Width>(data, num_values, first + i, count - i, out + i * Width);
}
#else
template <size_t Width>
void GatherFixed(const uint8_t* data, size_t num_values, size_t first, size_t count,
                 uint8_t* out) {
  GatherScalar<Width>(data, num_values, first, count, out);
}
#endif

void Gather(const uint8_t* data, size_t num_values, size_t width, size_t first, size_t count,
            uint8_t* out) {
  switch (width) {
    case 2: return GatherFixed<2>(data, num_values, first, count, out);
    case 4: return GatherFixed<4>(data, num_values, first, count, out);
    case 8: return GatherFixed<8>(data, num_values, first, count, out);
    default:
      for (size_t k = 0; k < width; ++k) {
        const uint8_t* stream = data + k * num_values + first;
        for (size_t i = 0; i < count; ++i) out[i * width + k] = stream[i];
      }
  }
}

// Splits count values of `width` bytes at `values` into streams appended to out.
void Scatter(const uint8_t* values, size_t count, size_t width, std::string& out) {
  const size_t start = out.size();
  out.resize(start + count * width);
  uint8_t* streams = reinterpret_cast<uint8_t*>(out.data() + start);
  for (size_t k = 0; k < width; ++k) {
    uint8_t* stream = streams + k * count;
    for (size_t i = 0; i < count; ++i) stream[i] = values[i * width + k];
  }
}

// The in-memory bytes of T, put in little-endian order (the order the streams use).
template <typename T>
void ToLittleEndian(uint8_t* bytes) {
  if constexpr (std::endian::native == std::endian::big) std::reverse(bytes, bytes + sizeof(T));
}

}  // namespace

template <typename T>
void ByteStreamSplitDecoder<T>::SetData(const uint8_t* data, size_t size, size_t num_values) {
  CheckSize(size, num_values, sizeof(T));
  data_ = data;
  num_values_ = num_values;
  next_value_ = 0;
}

template <typename T>
size_t ByteStreamSplitDecoder<T>::Decode(T* out, size_t n) {
  n = std::min(n, num_values_ - next_value_);
  uint8_t* bytes = reinterpret_cast<uint8_t*>(out);
  GatherFixed<sizeof(T)>(data_, num_values_, next_value_, n, bytes);
  if constexpr (std::endian::native == std::endian::big) {
    for (size_t i = 0; i < n; ++i) ToLittleEndian<T>(bytes + i * sizeof(T));
  }
  next_value_ += n;
  return n;
}

template <typename T>
size_t ByteStreamSplitDecoder<T>::Skip(size_t n) {
  n = std::min(n, num_values_ - next_value_);
  next_value_ += n;
  return n;
}

ByteStreamSplitFixedLenDecoder::ByteStreamSplitFixedLenDecoder(uint32_t type_length)
    : type_length_(type_length) {
  if (type_length == 0) FailByteStreamSplit("fixed length 0 is not a valid type_length");
}

void ByteStreamSplitFixedLenDecoder::SetData(const uint8_t* data, size_t size,
                                             size_t num_values) {
  CheckSize(size, num_values, type_length_);
  data_ = data;
  num_values_ = num_values;
  next_value_ = 0;
}

size_t ByteStreamSplitFixedLenDecoder::Decode(ByteArray* out, size_t n) {
  n = std::min(n, num_values_ - next_value_);
  // n * type_length_ <= the data size checked in SetData.
  if (buffer_.size() < n * type_length_) buffer_.resize(n * type_length_);
  Gather(data_, num_values_, type_length_, next_value_, n, buffer_.data());
  for (size_t i = 0; i < n; ++i) {
    out[i] = ByteArray{buffer_.data() + i * type_length_, type_length_};
  }
  next_value_ += n;
  return n;
}

size_t ByteStreamSplitFixedLenDecoder::Skip(size_t n) {
  n = std::min(n, num_values_ - next_value_);
  next_value_ += n;
  return n;
}

template <typename T>
void ByteStreamSplitEncoder<T>::Put(const T* values, size_t count) {
  const size_t start = values_.size();
  values_.resize(start + count * sizeof(T));
  uint8_t* bytes = reinterpret_cast<uint8_t*>(values_.data() + start);
  if (count > 0) std::memcpy(bytes, values, count * sizeof(T));
  if constexpr (std::endian::native == std::endian::big) {
    for (size_t i = 0; i < count; ++i) ToLittleEndian<T>(bytes + i * sizeof(T));
  }
}

template <typename T>
void ByteStreamSplitEncoder<T>::Finish(std::string& out) {
  Scatter(reinterpret_cast<const uint8_t*>(values_.data()), values_.size() / sizeof(T),
          sizeof(T), out);
  values_.clear();
}

ByteStreamSplitFixedLenEncoder::ByteStreamSplitFixedLenEncoder(uint32_t type_length)
    : type_length_(type_length) {
  if (type_length == 0) FailByteStreamSplit("fixed length 0 is not a valid type_length");
}

void ByteStreamSplitFixedLenEncoder::Put(const ByteArray* values, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (values[i].len != type_length_) {
      FailByteStreamSplit("value of " + std::to_string(values[i].len) + " bytes in a column of fixed length " +
           std::to_string(type_length_));
    }
    values_.append(reinterpret_cast<const char*>(values[i].ptr), type_length_);
  }
}

void ByteStreamSplitFixedLenEncoder::Finish(std::string& out) {
  Scatter(reinterpret_cast<const uint8_t*>(values_.data()), values_.size() / type_length_,
          type_length_, out);
  values_.clear();
}

template class ByteStreamSplitDecoder<float>;
template class ByteStreamSplitDecoder<double>;
template class ByteStreamSplitDecoder<int32_t>;
template class ByteStreamSplitDecoder<int64_t>;
template class ByteStreamSplitEncoder<float>;
template class ByteStreamSplitEncoder<double>;
template class ByteStreamSplitEncoder<int32_t>;
template class ByteStreamSplitEncoder<int64_t>;

}  // namespace parquet
