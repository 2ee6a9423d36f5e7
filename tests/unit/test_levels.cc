// Tests for the definition-level helpers of format/common/levels.h (FillLevels, LevelRunLength,
// CheckDefinitionLevels), which work several levels at a time: each is compared with the
// plain one-level-at-a-time loop on every length around their word and block sizes, at
// every alignment, and on levels out of range.
#include "format/common/levels.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

using namespace parquet;

namespace {

// The plain loops the helpers must agree with.
size_t PlainRunLength(const int16_t* levels, size_t count, int16_t level) {
  size_t i = 0;
  while (i < count && levels[i] == level) i++;
  return i;
}

size_t PlainCheck(const int16_t* levels, size_t count, int16_t max, bool* bad) {
  size_t defined = 0;
  *bad = false;
  for (size_t i = 0; i < count; i++) {
    *bad |= levels[i] < 0 || levels[i] > max;
    defined += levels[i] == max;
  }
  return defined;
}

}  // namespace

TEST_CASE("levels: FillLevels sets exactly the slots asked, at every length and alignment") {
  for (size_t offset = 0; offset < 4; offset++) {
    for (size_t count = 0; count <= 40; count++) {
      std::vector<int16_t> levels(offset + count + 4, -7);
      FillLevels(levels.data() + offset, count, 3);
      for (size_t i = 0; i < levels.size(); i++) {
        const bool inside = i >= offset && i < offset + count;
        CHECK(levels[i] == (inside ? 3 : -7));
      }
    }
  }
}

TEST_CASE("levels: LevelRunLength is the length of the leading run") {
  std::mt19937 random(7);
  for (int trial = 0; trial < 2000; trial++) {
    const size_t count = random() % 70;
    std::vector<int16_t> levels(count + 1, 1);
    if (count > 0 && random() % 3 != 0) levels[random() % count] = static_cast<int16_t>(random() % 3);
    const size_t offset = count > 0 ? random() % (count + 1) : 0;
    const int16_t level = static_cast<int16_t>(random() % 2);
    CHECK(LevelRunLength(levels.data() + offset, count - offset, level) ==
          PlainRunLength(levels.data() + offset, count - offset, level));
  }
}

TEST_CASE("levels: CheckDefinitionLevels counts the defined slots and finds levels out of range") {
  std::mt19937 random(11);
  // Lengths around the 8-lane steps and the 65,536-level blocks whose lane counts are flushed.
  std::vector<size_t> lengths = {0, 1, 7, 8, 9, 15, 16, 17, 100, 65535, 65536, 65537, 65536 * 2 + 5, 300000};
  for (size_t count : lengths) {
    for (int16_t max : {int16_t{1}, int16_t{2}, int16_t{5}}) {
      std::vector<int16_t> levels(count);
      for (int16_t& level : levels) level = static_cast<int16_t>(random() % (max + 1));
      bool bad = true, plain_bad = true;
      CHECK(CheckDefinitionLevels(levels.data(), count, max, &bad) == PlainCheck(levels.data(), count, max, &plain_bad));
      CHECK_FALSE(bad);
      CHECK_FALSE(plain_bad);
      // All defined: the lane counters must not wrap.
      FillLevels(levels.data(), count, max);
      CHECK(CheckDefinitionLevels(levels.data(), count, max, &bad) == count);
      CHECK_FALSE(bad);
      if (count == 0) continue;
      // One level above the maximum, one negative, at a random slot (the tail too).
      for (int16_t wrong : {static_cast<int16_t>(max + 1), int16_t{-1}, int16_t{32767}}) {
        const size_t at = random() % count;
        const int16_t kept = levels[at];
        levels[at] = wrong;
        CheckDefinitionLevels(levels.data(), count, max, &bad);
        CHECK(bad);
        levels[at] = kept;
      }
    }
  }
}
