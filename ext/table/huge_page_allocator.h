// An allocator for the large arrays of the join index (join_index.h): arrays of tens of
// megabytes, filled from end to end as the index is built.
// Allocations of 2 MiB or more are mapped directly and advised to use transparent huge
// pages, so filling them costs a page fault per 2 MiB instead of one per 4 KiB (on a
// virtual machine a fault costs about a microsecond: some 6 ms per 24 MiB array). Smaller
// ones come from operator new.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <new>

namespace sqlite_parquet {

template <typename T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHugePage = size_t{2} << 20;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return static_cast<T*>(::operator new(bytes));
    void* p = ::mmap(nullptr, Rounded(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    ::madvise(p, Rounded(bytes), MADV_HUGEPAGE);  // only advice: fine if refused
    return static_cast<T*>(p);
  }

  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) {
      ::operator delete(p);
    } else {
      ::munmap(p, Rounded(bytes));
    }
  }

  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }

 private:
  static size_t Rounded(size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }
};

}  // namespace sqlite_parquet
