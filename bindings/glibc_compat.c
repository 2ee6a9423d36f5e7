/* The glibc floor of the release binaries (docs/release-artefacts.md, "The glibc floor"):
 * linked only into the self-contained extension of `make dist` (-DSTATIC_DEPS=ON), which is
 * compiled and linked against Debian 11's glibc 2.31 but carries GCC 12's static libstdc++
 * and libgcc, built against Debian 12's glibc 2.36. This file answers the references that
 * would otherwise need a glibc newer than scripts/glibc_floor.sh's floor (2.28):
 *   - __libc_single_threaded (2.32), read by libstdc++'s reference counts: always "not
 *     single-threaded" here, so they always use atomic operations (correct, never faster);
 *   - _dl_find_object (2.35), which GCC 12's unwinder calls to find the unwind tables of the
 *     code that threw: the same answer, from dl_iterate_phdr (glibc 2.2.5), as unwinders
 *     before GCC 12 found it;
 *   - exp, exp2, log, log2, pow (2.29: new symbol versions without the SVID error handling):
 *     the linker's --wrap sends every call to the wrappers below, which call the older
 *     versions (same results; they also set errno on a range error, as the new ones do);
 *   - pthread_cond_clockwait (2.30), which libstdc++'s condition_variable uses for waits on
 *     the steady clock: a wait on the same deadline converted to the system clock, as
 *     libstdc++ itself does where glibc lacks it.
 * The symbols defined here are hidden (the version script exports sqlite3_parquet_init
 * alone), so they never stand in for glibc's in other code of the process. */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <time.h>

#if defined(__x86_64__)
#define PQ_GLIBC_BASE "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define PQ_GLIBC_BASE "GLIBC_2.17"
#else
#error "glibc_compat.c: unknown architecture (its first glibc symbol version is needed)"
#endif

char __libc_single_threaded = 0;

/* glibc 2.35's struct dl_find_object on x86-64 and aarch64 (no dlfo_eh_dbase, no
 * dlfo_eh_count there), of which the unwinder reads dlfo_eh_frame. */
struct dl_find_object {
  unsigned long long dlfo_flags;
  void* dlfo_map_start;
  void* dlfo_map_end;
  struct link_map* dlfo_link_map;
  void* dlfo_eh_frame;
  unsigned long long dlfo_reserved[7];
};

struct pq_object_search {
  ElfW(Addr) pc;
  struct dl_find_object* result;
};

static int pq_find_object_of(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  struct pq_object_search* search = data;
  const ElfW(Phdr)* eh_frame = NULL;
  int contains_pc = 0;
  ElfW(Addr) start = 0, end = 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)* phdr = &info->dlpi_phdr[i];
    if (phdr->p_type == PT_GNU_EH_FRAME) eh_frame = phdr;
    if (phdr->p_type != PT_LOAD) continue;
    ElfW(Addr) segment_start = info->dlpi_addr + phdr->p_vaddr;
    ElfW(Addr) segment_end = segment_start + phdr->p_memsz;
    if (start == 0 || segment_start < start) start = segment_start;
    if (segment_end > end) end = segment_end;
    if (search->pc >= segment_start && search->pc < segment_end) contains_pc = 1;
  }
  if (!contains_pc) return 0;
  search->result->dlfo_flags = 0;
  search->result->dlfo_map_start = (void*)start;
  search->result->dlfo_map_end = (void*)end;
  search->result->dlfo_link_map = NULL;  /* the unwinder does not read it */
  search->result->dlfo_eh_frame = eh_frame ? (void*)(info->dlpi_addr + eh_frame->p_vaddr) : NULL;
  return 1;
}

int _dl_find_object(void* pc, struct dl_find_object* result) {
  struct pq_object_search search = {(ElfW(Addr))pc, result};
  return dl_iterate_phdr(pq_find_object_of, &search) ? 0 : -1;
}

#define PQ_OLD_MATH(name, params, args)                                            \
  double pq_old_##name params;                                                     \
  __asm__(".symver pq_old_" #name "," #name "@" PQ_GLIBC_BASE);                    \
  double __wrap_##name params;                                                     \
  double __wrap_##name params { return pq_old_##name args; }
PQ_OLD_MATH(exp, (double x), (x))
PQ_OLD_MATH(exp2, (double x), (x))
PQ_OLD_MATH(log, (double x), (x))
PQ_OLD_MATH(log2, (double x), (x))
PQ_OLD_MATH(pow, (double x, double y), (x, y))

int __wrap_pthread_cond_clockwait(pthread_cond_t* cond, pthread_mutex_t* mutex, clockid_t clock,
                                  const struct timespec* deadline);
int __wrap_pthread_cond_clockwait(pthread_cond_t* cond, pthread_mutex_t* mutex, clockid_t clock,
                                  const struct timespec* deadline) {
  struct timespec system_deadline = *deadline;
  if (clock != CLOCK_REALTIME) {
    struct timespec now_clock, now_system;
    clock_gettime(clock, &now_clock);
    clock_gettime(CLOCK_REALTIME, &now_system);
    long long nanoseconds = (deadline->tv_sec - now_clock.tv_sec) * 1000000000LL +
                            (deadline->tv_nsec - now_clock.tv_nsec) +
                            now_system.tv_sec * 1000000000LL + now_system.tv_nsec;
    system_deadline.tv_sec = nanoseconds / 1000000000LL;
    system_deadline.tv_nsec = nanoseconds % 1000000000LL;
  }
  return pthread_cond_timedwait(cond, mutex, &system_deadline);
}
