// The global operator new/delete of the unit test binary, counting for AllocationLimit
// (allocation_counter.h). Each block carries its size in a 16-byte header, so that a block
// freed while counting is subtracted exactly, whenever it was allocated.
#include "tests/unit/allocation_counter.h"

#include <cstdlib>
#include <new>

namespace {

constexpr size_t kHeader = 16;  // keeps the 16-byte alignment of malloc
bool g_counting = false;
size_t g_live = 0;  // bytes allocated while counting, not yet freed
size_t g_peak = 0;
size_t g_cap = 0;
bool g_refused = false;

struct BlockHeader {
  size_t size;
  bool counted;
};
static_assert(sizeof(BlockHeader) <= kHeader);

void* Allocate(size_t size) {
  if (g_counting && (size > g_cap || g_live > g_cap - size)) {
    g_refused = true;
    throw std::bad_alloc();
  }
  void* raw = std::malloc(size + kHeader);
  if (raw == nullptr) throw std::bad_alloc();
  auto* header = static_cast<BlockHeader*>(raw);
  header->size = size;
  header->counted = g_counting;
  if (g_counting) {
    g_live += size;
    if (g_live > g_peak) g_peak = g_live;
  }
  return static_cast<char*>(raw) + kHeader;
}

void Free(void* block) noexcept {
  if (block == nullptr) return;
  void* raw = static_cast<char*>(block) - kHeader;
  const auto* header = static_cast<const BlockHeader*>(raw);
  if (header->counted && g_counting) g_live -= header->size < g_live ? header->size : g_live;
  std::free(raw);
}

}  // namespace

void* operator new(size_t size) { return Allocate(size); }
void* operator new[](size_t size) { return Allocate(size); }
void operator delete(void* block) noexcept { Free(block); }
void operator delete[](void* block) noexcept { Free(block); }
void operator delete(void* block, size_t) noexcept { Free(block); }
void operator delete[](void* block, size_t) noexcept { Free(block); }
// The nothrow forms too: ASan's runtime defines them itself (libstdc++'s would call the
// ones above), and std::stable_sort's temporary buffer comes from them, freed by the sized
// delete above, which expects the header.
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void operator delete(void* block, const std::nothrow_t&) noexcept { Free(block); }
void operator delete[](void* block, const std::nothrow_t&) noexcept { Free(block); }

namespace testing_support {

AllocationLimit::AllocationLimit(size_t cap_bytes) {
  g_live = 0;
  g_peak = 0;
  g_cap = cap_bytes;
  g_refused = false;
  g_counting = true;
}

AllocationLimit::~AllocationLimit() { g_counting = false; }

size_t AllocationLimit::peak() const { return g_peak; }
bool AllocationLimit::refused() const { return g_refused; }

}  // namespace testing_support
