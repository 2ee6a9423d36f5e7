// The automatic encoding choice's distinct-count extrapolation (see encoding_choice.h).
#include "format/write/encoding_choice.h"

#include <cmath>

namespace parquet {

double ExtrapolateDistinct(double seen, double distinct, double total) {
  if (distinct >= seen) return total;  // all different so far: assume they stay so
  auto expected = [seen](double domain) { return domain * -std::expm1(-seen / domain); };
  double low = distinct, high = distinct * 2;
  while (expected(high) < distinct && high < 1e15) high *= 2;
  for (int i = 0; i < 60; i++) {
    const double middle = (low + high) / 2;
    (expected(middle) < distinct ? low : high) = middle;
  }
  return std::min(total, high * -std::expm1(-total / high));
}

}  // namespace parquet
