// Small helpers shared by the bench/*.cc programs (header only: bench/*.cc files are each
// built as a program, so shared code lives here): wall-clock timing, peak-RSS measurement
// through /proc/self, JSON output and command-line flags.
#pragma once

#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

inline double NowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// CPU time this process has used (all threads), in ms: on a shared machine it varies much
// less than wall-clock time.
inline double CpuMs() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

// A "VmRSS:" or "VmHWM:" line of /proc/self/status, in KiB (0 when unreadable).
inline int64_t ProcStatusKb(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  const size_t field_length = std::strlen(field);
  while (std::getline(status, line)) {
    if (line.compare(0, field_length, field) == 0) return std::atoll(line.c_str() + field_length);
  }
  return 0;
}

// Peak resident memory of a stretch of work, measured as VmHWM at the end minus VmRSS at
// the start. Start() resets the kernel's high-water mark to the current RSS (writing "5"
// to /proc/self/clear_refs, Linux 4.0+), so set-up done before Start() does not count.
class PeakRss {
 public:
  void Start() {
    if (FILE* clear = std::fopen("/proc/self/clear_refs", "w")) {
      reset_ok_ = std::fputs("5", clear) >= 0;
      reset_ok_ = (std::fclose(clear) == 0) && reset_ok_;
    }
    baseline_kb_ = ProcStatusKb("VmRSS:");
  }
  int64_t baseline_kb() const { return baseline_kb_; }
  int64_t peak_kb() const { return ProcStatusKb("VmHWM:"); }
  // Growth over the baseline; only meaningful when the high-water mark could be reset.
  int64_t delta_kb() const { return peak_kb() - baseline_kb_; }
  bool reset_ok() const { return reset_ok_; }

 private:
  int64_t baseline_kb_ = 0;
  bool reset_ok_ = false;
};

inline std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\u%04x", c);
          out += escape;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// Shortest text that reads back as the same double (JSON has no NaN/inf: those are null).
inline std::string JsonNumber(double value) {
  if (value != value || value - value != 0) return "null";
  char text[32];
  for (int precision = 15; precision <= 17; precision++) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

inline std::string JsonTimes(const std::vector<double>& times_ms) {
  std::string out = "[";
  for (size_t i = 0; i < times_ms.size(); i++) out += (i ? "," : "") + JsonNumber(times_ms[i]);
  return out + "]";
}

// Command-line flags of the form --name value (and bare --name for booleans).
class Flags {
 public:
  Flags(int argc, char** argv) : args_(argv + 1, argv + argc) {}
  bool Has(std::string_view name) const {
    for (const std::string& arg : args_) {
      if (arg == name) return true;
    }
    return false;
  }
  std::string Get(std::string_view name, const std::string& fallback = "") const {
    for (size_t i = 0; i + 1 < args_.size(); i++) {
      if (args_[i] == name) return args_[i + 1];
    }
    return fallback;
  }
  // Every value given for a repeatable flag, in order.
  std::vector<std::string> GetAll(std::string_view name) const {
    std::vector<std::string> values;
    for (size_t i = 0; i + 1 < args_.size(); i++) {
      if (args_[i] == name) values.push_back(args_[++i]);
    }
    return values;
  }
  int64_t GetInt(std::string_view name, int64_t fallback) const {
    std::string value = Get(name);
    if (value.empty()) return fallback;
    char* end = nullptr;
    long long parsed = std::strtoll(value.c_str(), &end, 10);
    if (*end != '\0') {
      std::fprintf(stderr, "%.*s: not an integer: %s\n", static_cast<int>(name.size()), name.data(), value.c_str());
      std::exit(2);
    }
    return parsed;
  }

 private:
  std::vector<std::string> args_;
};

}  // namespace bench
