// Unit tests for parquet_copy's writer thread (ext/copy/copy_writer_thread.h): tasks run in
// order, Submit blocks beyond the queue bound, a failing task's exception reaches the
// submitting thread and the tasks after it are dropped, and destruction waits for the
// running task.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ext/copy/copy_writer_thread.h"

namespace sqlite_parquet {
namespace {

TEST_CASE("copy writer thread: tasks run in submission order, Drain waits for them") {
  CopyWriterThread thread(2);
  std::vector<int> order;  // written by the writer thread only, read after Drain
  for (int i = 0; i < 100; ++i) thread.Submit([&order, i] { order.push_back(i); });
  thread.Drain();
  REQUIRE(order.size() == 100);
  for (int i = 0; i < 100; ++i) CHECK(order[static_cast<size_t>(i)] == i);
  thread.Drain();  // nothing left: returns at once
}

TEST_CASE("copy writer thread: Submit blocks while the queue is full") {
  CopyWriterThread thread(1);
  std::atomic<bool> release{false};
  std::atomic<int> done{0};
  thread.Submit([&] {
    while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    done++;
  });
  thread.Submit([&] { done++; });  // queued behind the running task
  std::atomic<bool> third_submitted{false};
  std::thread submitter([&] {
    thread.Submit([&] { done++; });
    third_submitted = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(third_submitted.load());  // one running, one queued: the bound is reached
  release = true;
  submitter.join();
  CHECK(third_submitted.load());
  thread.Drain();
  CHECK(done.load() == 3);
}

TEST_CASE("copy writer thread: a task's exception reaches Submit and Drain; later tasks are dropped") {
  CopyWriterThread thread(4);
  std::atomic<int> ran{0};
  thread.Submit([&] { ran++; });
  thread.Submit([] { throw std::runtime_error("disk full"); });
  // Whether these are queued before the failure or refused after it, none of them runs.
  try {
    thread.Submit([&] { ran += 100; });
    thread.Submit([&] { ran += 100; });
  } catch (const std::runtime_error&) {
  }
  CHECK_THROWS_WITH_AS(thread.Drain(), "disk full", std::runtime_error);
  CHECK_THROWS_WITH_AS(thread.Submit([&] { ran += 100; }), "disk full", std::runtime_error);
  CHECK(ran.load() == 1);
}

TEST_CASE("copy writer thread: destruction drops queued tasks and waits for the running one") {
  std::atomic<int> ran{0};
  std::atomic<bool> started{false};
  {
    CopyWriterThread thread(4);
    thread.Submit([&] {
      started = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      ran++;
    });
    thread.Submit([&] { ran += 100; });
    while (!started.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(ran.load() == 1);
  CopyWriterThread unused;  // never started: nothing to join
}

}  // namespace
}  // namespace sqlite_parquet
