// The compile-time switch for the library's own threads: the decompression ahead of a scan
// (read/decompress_ahead), parquet_copy's writer thread (ext/copy/copy_writer_thread) and
// the parallel fetches of remote files (io/remote_file's RunFetchWorkers). On by default;
// off (PQ_THREADS=0) in the WebAssembly build, which is built without threads so that it
// runs on any page, without cross-origin isolation (SharedArrayBuffer): there each of these
// runs on the calling thread, one step after another (docs/wasm.md says what that costs).
#pragma once

#ifndef PQ_THREADS
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define PQ_THREADS 0
#else
#define PQ_THREADS 1
#endif
#endif

namespace parquet {

// Whether the library may start threads of its own.
inline constexpr bool kThreadsEnabled = PQ_THREADS != 0;

}  // namespace parquet
