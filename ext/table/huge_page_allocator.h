// An allocator for the large arrays of the join index (join_index.h): arrays of tens of
// megabytes, filled from end to end as the index is built.
// Allocations of 2 MiB or more are mapped directly and advised to use transparent huge
// pages (format/platform/system.h's MapLargeArray), so filling them costs a page fault per 2 MiB instead of one per 4 KiB (on a
// virtual machine a fault costs about a microsecond: some 6 ms per 24 MiB array). Smaller
// ones come from operator new. A mapped array takes whole huge pages: what it really holds
// (HugePageReservedBytes) is what the join index counts against its budget.
#pragma once

#include <cstddef>
#include <new>

#include "format/platform/system.h"

namespace sqlite_parquet {

constexpr size_t kHugePage = size_t{2} << 20;

// The bytes HugePageAllocator reserves for an array of `bytes` bytes: as many below a huge
// page (operator new), else whole huge pages.
inline size_t HugePageReservedBytes(size_t bytes) {
  return bytes < kHugePage ? bytes : (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

template <typename T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return static_cast<T*>(::operator new(bytes));
    const size_t reserved = HugePageReservedBytes(bytes);
    void* p = parquet::platform::MapLargeArray(reserved);
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }

  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) {
      ::operator delete(p);
    } else {
      parquet::platform::UnmapLargeArray(p, HugePageReservedBytes(bytes));
    }
  }

  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
};

}  // namespace sqlite_parquet
