// The background thread of parquet_copy: while the query thread steps SQLite and converts
// cells into leaf batches, this thread gives the batches to the Parquet writer (encoding,
// compression, file writes), so that on two cores the two halves of a copy overlap.
//
// Tasks run one at a time, in the order submitted. At most `max_queued` wait at once:
// Submit blocks beyond that, which bounds the batches in flight (and so the memory). The
// first exception a task throws is kept, the tasks after it are dropped, and Submit or
// Drain throws it again on the query thread. The destructor drops what is still queued and
// waits for the running task, so nothing a task uses may be destroyed before this object.
// No task may call SQLite: the query thread owns the connection. Without threads
// (format/common/threads.h: the WebAssembly build) Submit runs the task itself.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace sqlite_parquet {

class CopyWriterThread {
 public:
  explicit CopyWriterThread(size_t max_queued = 2) : max_queued_(max_queued == 0 ? 1 : max_queued) {}
  ~CopyWriterThread();
  CopyWriterThread(const CopyWriterThread&) = delete;
  CopyWriterThread& operator=(const CopyWriterThread&) = delete;

  // Queues `task` (starting the thread on first use); throws a failed task's exception.
  void Submit(std::function<void()> task);

  // Waits until every submitted task has run; throws a failed task's exception. Afterwards
  // the query thread may use what the tasks used.
  void Drain();

 private:
  void Loop();
  void ThrowIfFailed();  // with mutex_ held

  const size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable changed_;  // a task was queued or finished, or stop_ was set
  std::deque<std::function<void()>> queue_;
  bool running_task_ = false;
  bool stop_ = false;
  std::exception_ptr failure_;
  std::thread thread_;
};

}  // namespace sqlite_parquet
