// An allocator for the large arrays of the join index (join_index.h): arrays of tens of
// megabytes, filled from end to end as the index is built.
// Allocations of 2 MiB or more are mapped directly (format/platform/system.h's
// MapLargeArray) and given back whole when freed; smaller ones come from operator new. A
// mapped array takes whole 4 KiB pages: what it really holds (LargeArrayReservedBytes) is
// what the join index counts against its budget. An allocator with kFilled maps its arrays
// populated (one system call instead of a page fault per page): for arrays every element
// of which is written (the index's per-row chains and its tables of keys), not for room
// that may never be used.
// Not in transparent huge pages: where a virtual machine's host takes back the memory the
// guest frees (free page reporting), a huge page touched for the first time costs 11-14 ms
// per MiB against 0.75 ms for 4 KiB pages (measured on the development machine), and a
// first join spent 78 ms zeroing the huge pages of its 24 MiB index instead of some 18.
#pragma once

#include <cstddef>
#include <new>
#include <utility>

#include "format/platform/system.h"

namespace sqlite_parquet {

constexpr size_t kLargeArray = size_t{2} << 20;  // from this size on, mapped directly
constexpr size_t kLargeArrayPage = 4096;

// The bytes LargeArrayAllocator reserves for an array of `bytes` bytes: as many below
// kLargeArray (operator new), else whole pages.
inline size_t LargeArrayReservedBytes(size_t bytes) {
  return bytes < kLargeArray ? bytes : (bytes + kLargeArrayPage - 1) / kLargeArrayPage * kLargeArrayPage;
}

template <typename T, bool kFilled = false>
struct LargeArrayAllocator {
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = LargeArrayAllocator<U, kFilled>;
  };

  LargeArrayAllocator() = default;
  template <typename U>
  LargeArrayAllocator(const LargeArrayAllocator<U, kFilled>&) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kLargeArray) return static_cast<T*>(::operator new(bytes));
    void* p = parquet::platform::MapLargeArray(LargeArrayReservedBytes(bytes), kFilled);
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }

  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kLargeArray) {
      ::operator delete(p);
    } else {
      parquet::platform::UnmapLargeArray(p, LargeArrayReservedBytes(bytes));
    }
  }

  // Elements made without a value are left uninitialized (resize(n) of integers does not
  // write them: the index writes every one it makes room for).
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <typename U>
  bool operator==(const LargeArrayAllocator<U, kFilled>&) const { return true; }
};

}  // namespace sqlite_parquet
