// The background thread of parquet_copy (see copy_writer_thread.h).
#include "ext/copy/copy_writer_thread.h"

#include <utility>

#include "format/common/threads.h"

namespace sqlite_parquet {

CopyWriterThread::~CopyWriterThread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    queue_.clear();
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void CopyWriterThread::ThrowIfFailed() {
  if (failure_) std::rethrow_exception(failure_);
}

void CopyWriterThread::Submit(std::function<void()> task) {
  std::unique_lock<std::mutex> lock(mutex_);
  ThrowIfFailed();
  if constexpr (!parquet::kThreadsEnabled) {
    // No thread (the WebAssembly build): the task runs now, on the query thread; its
    // failure is kept and thrown as the thread's would be.
    lock.unlock();
    try {
      task();
    } catch (...) {
      lock.lock();
      failure_ = std::current_exception();
      ThrowIfFailed();
    }
    return;
  }
  if (!thread_.joinable()) thread_ = std::thread(&CopyWriterThread::Loop, this);
  changed_.wait(lock, [&] { return queue_.size() < max_queued_ || failure_; });
  ThrowIfFailed();
  queue_.push_back(std::move(task));
  lock.unlock();
  changed_.notify_all();
}

void CopyWriterThread::Drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return (queue_.empty() && !running_task_) || failure_; });
  ThrowIfFailed();
}

void CopyWriterThread::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    std::function<void()> task = std::move(queue_.front());
    queue_.pop_front();
    running_task_ = true;
    lock.unlock();
    changed_.notify_all();  // room in the queue
    std::exception_ptr failure;
    try {
      task();
    } catch (...) {
      failure = std::current_exception();
    }
    task = nullptr;  // what it captured goes before the query thread hears it is done
    lock.lock();
    running_task_ = false;
    if (failure && !failure_) {
      failure_ = failure;
      queue_.clear();
    }
    changed_.notify_all();
  }
}

}  // namespace sqlite_parquet
