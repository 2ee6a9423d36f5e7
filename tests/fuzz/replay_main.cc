// Standalone driver for the fuzz targets when libFuzzer is not linked in (the GCC Release
// and ASan builds of `make test`): replays files and directories through
// LLVMFuzzerTestOneInput, then optionally mutates them for a few seconds with a fixed seed,
// a crude stand-in for libFuzzer that still finds shallow bugs in every build.
//
// Usage: fuzz_TARGET [-seconds=N] [-seed=N] [-timeout=N] [-max_len=N] [-rss_limit_mb=N]
//                    [-corpus=DIR] PATH...
//   PATH          a file or a directory (read recursively, files in name order)
//   -corpus=DIR   more inputs, replayed and mutated but counted as one test (seed corpora)
//   -seconds=N    mutate the inputs for N seconds after the replay (default 0)
//   -timeout=N    an input running longer than N seconds is a failure (default 20)
//   -rss_limit_mb=N  the input after which the process's peak RSS passes N MiB is a
//                 failure (default 512)
// An input that crashes, times out or passes the RSS limit is written to ./crash-TARGET-N
// (or ./timeout-..., ./oom-...) and
// the driver exits non-zero. The last line is "N passed, 0 failed" when everything ran (N:
// the PATH inputs, plus one for the -corpus inputs and the mutation run).
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
// Present when the program is built with a sanitizer: called before a sanitizer report ends the process.
extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

namespace {

const std::vector<uint8_t>* g_current = nullptr;
const char* g_target = "fuzz";
const char* g_kind = "crash";

void SaveCurrentInput() {
  if (g_current == nullptr) return;
  char name[256];
  std::snprintf(name, sizeof(name), "%s-%s-%d", g_kind, g_target, static_cast<int>(getpid()));
  FILE* out = std::fopen(name, "wb");
  if (out) {
    std::fwrite(g_current->data(), 1, g_current->size(), out);
    std::fclose(out);
    std::fprintf(stderr, "replay: the failing input (%zu bytes) is in %s\n", g_current->size(), name);
  }
  g_current = nullptr;
}

void OnSignal(int signal_number) {
  if (signal_number == SIGALRM) g_kind = "timeout";
  std::fprintf(stderr, "replay: %s on an input\n", signal_number == SIGALRM ? "timeout" : strsignal(signal_number));
  SaveCurrentInput();
  signal(signal_number, SIG_DFL);
  raise(signal_number == SIGALRM ? SIGABRT : signal_number);
}

void Collect(const std::filesystem::path& path, std::vector<std::filesystem::path>* out) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    std::vector<std::filesystem::path> entries;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path, error)) {
      if (entry.is_regular_file()) entries.push_back(entry.path());
    }
    std::sort(entries.begin(), entries.end());
    out->insert(out->end(), entries.begin(), entries.end());
  } else if (std::filesystem::is_regular_file(path, error)) {
    out->push_back(path);
  } else {
    std::fprintf(stderr, "replay: no such file or directory: %s\n", path.c_str());
    std::exit(2);
  }
}

long g_rss_limit_mb = 512;

long PeakRssMegabytes() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

void Run(const std::vector<uint8_t>& input, unsigned timeout_seconds) {
  g_current = &input;
  alarm(timeout_seconds);
  LLVMFuzzerTestOneInput(input.data(), input.size());
  alarm(0);
  long peak = PeakRssMegabytes();
  if (peak > g_rss_limit_mb) {
    g_kind = "oom";
    std::fprintf(stderr, "replay: peak RSS %ld MiB passed the limit of %ld MiB\n", peak, g_rss_limit_mb);
    SaveCurrentInput();
    std::exit(1);
  }
  g_current = nullptr;
}

// One random edit: flip, set to an interesting value, insert, erase, duplicate a range, or
// splice with another input.
void Mutate(std::mt19937_64& rng, std::vector<uint8_t>* data, const std::vector<std::vector<uint8_t>>& pool,
            size_t max_len) {
  static const uint8_t kInteresting[] = {0x00, 0x01, 0x7F, 0x80, 0xFF, 0x15, 0x16, 0x18, 0x19, 0x1C, 0x0F, 0x40};
  auto pick = [&](size_t n) { return n ? static_cast<size_t>(rng() % n) : 0; };
  int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; e++) {
    size_t n = data->size();
    switch (rng() % 6) {
      case 0:
        if (n) (*data)[pick(n)] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;
      case 1:
        if (n) (*data)[pick(n)] = kInteresting[pick(sizeof(kInteresting))];
        break;
      case 2:
        if (n < max_len) data->insert(data->begin() + static_cast<long>(pick(n + 1)), static_cast<uint8_t>(rng()));
        break;
      case 3:
        if (n) {
          size_t at = pick(n);
          size_t count = std::min<size_t>(1 + pick(16), n - at);
          data->erase(data->begin() + static_cast<long>(at), data->begin() + static_cast<long>(at + count));
        }
        break;
      case 4:
        if (n && n < max_len) {
          size_t at = pick(n);
          size_t count = std::min<size_t>({1 + pick(32), n - at, max_len - n});
          std::vector<uint8_t> copy(data->begin() + static_cast<long>(at), data->begin() + static_cast<long>(at + count));
          data->insert(data->begin() + static_cast<long>(pick(n + 1)), copy.begin(), copy.end());
        }
        break;
      default: {
        const std::vector<uint8_t>& other = pool[pick(pool.size())];
        if (!other.empty() && n) {
          size_t cut = pick(n);
          size_t from = pick(other.size());
          data->resize(cut);
          data->insert(data->end(), other.begin() + static_cast<long>(from), other.end());
          if (data->size() > max_len) data->resize(max_len);
        }
        break;
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const char* slash = std::strrchr(argv[0], '/');
  g_target = slash ? slash + 1 : argv[0];
  double seconds = 0;
  unsigned timeout_seconds = 20;
  uint64_t seed = 1;
  size_t max_len = 1 << 20;
  std::vector<std::filesystem::path> paths;
  std::vector<std::filesystem::path> corpus_paths;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    if (arg.rfind("-seconds=", 0) == 0) seconds = std::atof(arg.c_str() + 9);
    else if (arg.rfind("-seed=", 0) == 0) seed = std::strtoull(arg.c_str() + 6, nullptr, 10);
    else if (arg.rfind("-timeout=", 0) == 0) timeout_seconds = static_cast<unsigned>(std::atoi(arg.c_str() + 9));
    else if (arg.rfind("-max_len=", 0) == 0) max_len = std::strtoull(arg.c_str() + 9, nullptr, 10);
    else if (arg.rfind("-rss_limit_mb=", 0) == 0) g_rss_limit_mb = std::atol(arg.c_str() + 14);
    else if (arg.rfind("-corpus=", 0) == 0) Collect(arg.substr(8), &corpus_paths);
    else if (arg.rfind("-", 0) == 0) {
      std::fprintf(stderr, "usage: %s [-seconds=N] [-seed=N] [-timeout=N] [-max_len=N] [-rss_limit_mb=N] [-corpus=DIR] PATH...\n",
                   argv[0]);
      return 2;
    } else {
      Collect(arg, &paths);
    }
  }
  signal(SIGSEGV, OnSignal);
  signal(SIGBUS, OnSignal);
  signal(SIGABRT, OnSignal);
  signal(SIGFPE, OnSignal);
  signal(SIGALRM, OnSignal);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(SaveCurrentInput);

  std::vector<std::vector<uint8_t>> inputs;
  size_t counted = paths.size();
  paths.insert(paths.end(), corpus_paths.begin(), corpus_paths.end());
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() > max_len) continue;
    Run(bytes, timeout_seconds);
    inputs.push_back(std::move(bytes));
  }
  size_t mutations = 0;
  if (seconds > 0) {
    if (inputs.empty()) inputs.emplace_back();
    std::mt19937_64 rng(seed);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    std::vector<uint8_t> input;
    while (std::chrono::steady_clock::now() < deadline) {
      input = inputs[rng() % inputs.size()];
      Mutate(rng, &input, inputs, max_len);
      Run(input, timeout_seconds);
      mutations++;
    }
  }
  std::printf("%s: %zu inputs replayed, %zu mutated inputs run (seed %llu)\n", g_target, inputs.size(), mutations,
              static_cast<unsigned long long>(seed));
  std::printf("%zu passed, 0 failed\n", counted + (corpus_paths.empty() && mutations == 0 ? 0 : 1));
  return 0;
}
