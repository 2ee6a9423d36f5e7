// Counting the heap bytes that code under test allocates, for tests that bound memory: the
// unit test binary replaces the global operator new/delete (allocation_counter.cc) so that,
// while an AllocationLimit is alive, the live bytes allocated through them are counted,
// their peak is kept, and an allocation beyond the cap throws std::bad_alloc (so code that
// would take gigabytes fails fast instead of taking them). Not for use from several threads
// at once.
#pragma once

#include <cstddef>

namespace testing_support {

class AllocationLimit {
 public:
  explicit AllocationLimit(size_t cap_bytes);
  ~AllocationLimit();
  AllocationLimit(const AllocationLimit&) = delete;
  AllocationLimit& operator=(const AllocationLimit&) = delete;

  // Most bytes live at once (allocated since the limit began, not yet freed).
  size_t peak() const;
  // Whether an allocation was refused for going beyond the cap.
  bool refused() const;
};

}  // namespace testing_support
