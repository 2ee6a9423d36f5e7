// CRC-32 for page checksums. On x86-64 CPUs with carry-less multiplication (PCLMULQDQ,
// checked at run time) the bulk of a buffer is folded 64 bytes at a time with it, the
// method of Intel's white paper "Fast CRC Computation for Generic Polynomials Using
// PCLMULQDQ Instruction" (Gopal et al., 2009), several times faster than a table-driven
// CRC; the rest (short buffers, the last bytes, other CPUs) goes to zlib's crc32, in
// pieces its 32-bit length argument accepts.
#include "format/codec/checksum.h"

#include <zlib.h>

#include <algorithm>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define PQ_CRC32_PCLMUL 1
#endif

namespace parquet {

namespace {

constexpr size_t kMaxCrcChunk = size_t{1} << 30;

uint32_t Crc32Zlib(uint32_t running, const uint8_t* data, size_t size) {
  uLong crc = running;
  while (size > 0) {
    const size_t chunk = std::min(size, kMaxCrcChunk);
    crc = crc32(crc, data, static_cast<uInt>(chunk));
    data += chunk;
    size -= chunk;
  }
  return static_cast<uint32_t>(crc);
}

#ifdef PQ_CRC32_PCLMUL

inline __m128i Load(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

// One lane x folded forward over 128 (k = k3k4) or 512 (k = k1k2) bits, then added to `next`.
__attribute__((target("pclmul,sse4.1"), always_inline)) inline __m128i Fold(__m128i x, __m128i k, __m128i next) {
  return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)), next);
}

// Folds `size` bytes (a multiple of 16, at least 64) into the CRC state `state` (the
// register, i.e. the complement of a zlib-style CRC value) of the reflected CRC-32
// (polynomial 0x04C11DB7, reflected 0xEDB88320). Constants are powers of x modulo the
// polynomial, bit-reflected, as the white paper derives them:
//   k1 = x^(4*128+32) mod P, k2 = x^(4*128-32) mod P   (fold four 128-bit lanes by 512 bits)
//   k3 = x^(128+32) mod P,   k4 = x^(128-32) mod P     (fold one lane by 128 bits)
//   k5 = x^64 mod P                                    (128 -> 64 bits)
//   mu = floor(x^64 / P), P itself                     (Barrett reduction 64 -> 32 bits)
__attribute__((target("pclmul,sse4.1"))) uint32_t FoldPclmul(uint32_t state, const uint8_t* data, size_t size) {
  const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
  const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
  const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
  const __m128i poly_mu = _mm_set_epi64x(0x01f7011641, 0x01db710641);
  const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
  __m128i x1 = _mm_xor_si128(Load(data), _mm_cvtsi32_si128(static_cast<int>(state)));
  __m128i x2 = Load(data + 16);
  __m128i x3 = Load(data + 32);
  __m128i x4 = Load(data + 48);
  data += 64;
  size -= 64;
  while (size >= 64) {
    x1 = Fold(x1, k1k2, Load(data));
    x2 = Fold(x2, k1k2, Load(data + 16));
    x3 = Fold(x3, k1k2, Load(data + 32));
    x4 = Fold(x4, k1k2, Load(data + 48));
    data += 64;
    size -= 64;
  }
  x1 = Fold(x1, k3k4, x2);
  x1 = Fold(x1, k3k4, x3);
  x1 = Fold(x1, k3k4, x4);
  while (size >= 16) {
    x1 = Fold(x1, k3k4, Load(data));
    data += 16;
    size -= 16;
  }
  // 128 -> 64 bits (appending 32 zero bits to the message), then 64 -> 32 bits.
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x10), _mm_srli_si128(x1, 8));
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00), _mm_srli_si128(x1, 4));
  // Barrett reduction.
  __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly_mu, 0x10);
  t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), poly_mu, 0x00);
  return static_cast<uint32_t>(_mm_extract_epi32(_mm_xor_si128(x1, t), 1));
}

bool CpuHasPclmul() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}

const bool kHasPclmul = CpuHasPclmul();

#endif  // PQ_CRC32_PCLMUL

}  // namespace

uint32_t Crc32(uint32_t running, const uint8_t* data, size_t size) {
#ifdef PQ_CRC32_PCLMUL
  if (size >= 64 && kHasPclmul) {
    const size_t folded = size & ~size_t{15};
    running = ~FoldPclmul(~running, data, folded);
    data += folded;
    size -= folded;
  }
#endif
  return Crc32Zlib(running, data, size);
}

uint32_t Crc32(const uint8_t* data, size_t size) { return Crc32(0, data, size); }

}  // namespace parquet
