// Containers for key material that wipe their memory when it is freed, so keys do not stay
// behind in freed heap (and so in core dumps): SecretString for key bytes and key text,
// SecretBytes for decrypted key buffers. Every buffer they give back to the allocator, on
// destruction and on growth, is overwritten first with OPENSSL_cleanse (which the compiler
// cannot drop as a dead store); SecretString also wipes its inline (short string) buffer.
//
// What this does not cover: copies made outside these types (SQLite's copy of a CREATE
// VIRTUAL TABLE statement and of SQL argument values, OpenSSL's key schedules, which
// EVP_CIPHER_CTX_free wipes itself; the process environment, whose AWS_* credentials are
// copied into SecretStrings; libcurl's internal copies of the S3 key:secret, its request
// buffer and SigV4 keys, freed without wiping, while http_client.cc wipes the header
// strings it hands libcurl) and bytes swapped to disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace parquet {

// Overwrites [data, data + size) with zeros in a way the optimizer keeps.
void WipeMemory(void* data, size_t size);

// Test hook: when set, called with every region right after WipeMemory wiped it (before the
// memory is freed), so a test can see that freed key buffers hold zeros. Null by default.
extern void (*g_after_wipe_for_testing)(const void* data, size_t size);

// std::allocator that wipes every block before freeing it.
template <class T> struct WipingAllocator {
  using value_type = T;
  WipingAllocator() noexcept = default;
  template <class U> WipingAllocator(const WipingAllocator<U>&) noexcept {}
  T* allocate(size_t count) { return std::allocator<T>().allocate(count); }
  void deallocate(T* block, size_t count) noexcept {
    WipeMemory(block, count * sizeof(T));
    std::allocator<T>().deallocate(block, count);
  }
  template <class U> bool operator==(const WipingAllocator<U>&) const noexcept { return true; }
};

using SecretBytes = std::vector<uint8_t, WipingAllocator<uint8_t>>;

// A string of key material. Converts to std::string_view; build one from a string_view.
class SecretString : public std::basic_string<char, std::char_traits<char>, WipingAllocator<char>> {
  using Base = std::basic_string<char, std::char_traits<char>, WipingAllocator<char>>;

 public:
  using Base::Base;
  SecretString() = default;
  SecretString(std::string_view text) : Base(text.data(), text.size()) {}  // NOLINT: implicit on purpose
  SecretString(const std::string& text) : Base(text.data(), text.size()) {}  // NOLINT: implicit on purpose
  SecretString(const char* text) : Base(text) {}                             // NOLINT: implicit on purpose
  SecretString(const SecretString&) = default;
  SecretString(SecretString&&) noexcept = default;
  SecretString& operator=(const SecretString&) = default;
  SecretString& operator=(SecretString&&) noexcept = default;
  SecretString& operator=(std::string_view text) {
    assign(text.data(), text.size());
    return *this;
  }
  SecretString& operator=(const char* text) { return *this = std::string_view(text); }
  SecretString& operator=(const std::string& text) { return *this = std::string_view(text); }
  // The inline buffer of a short string is not freed through the allocator: wipe it here
  // (a heap buffer is wiped again by the allocator, which is harmless).
  ~SecretString() { WipeMemory(data(), capacity()); }

  std::string_view view() const { return std::string_view(data(), size()); }
};

}  // namespace parquet
