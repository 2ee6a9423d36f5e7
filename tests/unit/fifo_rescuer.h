// For tests that a FIFO is refused without blocking: while a FifoRescuer lives, a thread
// opens the FIFO for writing once `after` has passed (and again every 20 ms), which
// releases a reader stuck opening it. A regression then fails the test's time check
// instead of hanging the suite.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

namespace test_support {

class FifoRescuer {
 public:
  explicit FifoRescuer(std::string fifo, std::chrono::seconds after = std::chrono::seconds(5))
      : fifo_(std::move(fifo)), thread_([this, after] {
          const auto deadline = std::chrono::steady_clock::now() + after;
          while (!done_) {
            if (std::chrono::steady_clock::now() > deadline) {
              const int fd = ::open(fifo_.c_str(), O_WRONLY | O_NONBLOCK);
              if (fd >= 0) ::close(fd);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
          }
        }) {}
  ~FifoRescuer() {
    done_ = true;
    thread_.join();
  }
  FifoRescuer(const FifoRescuer&) = delete;
  FifoRescuer& operator=(const FifoRescuer&) = delete;

 private:
  std::string fifo_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace test_support
