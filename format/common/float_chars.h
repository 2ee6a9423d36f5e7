// Floating-point numbers to text as std::to_chars writes them (<charconv>): the shortest
// form that reads back as the same value, or a given precision. Standard libraries without
// floating-point std::to_chars (LLVM's libc++ before 14, which the WebAssembly build's
// emscripten 3.1.6 ships) get the same text from snprintf (exact in musl and glibc) and a
// read-back check; elsewhere these call std::to_chars. Each returns the end of what it wrote
// into [first, last), or `first` when it does not fit (32 characters hold every shortest
// form; a fixed form with a precision may need more, as with std::to_chars).
#pragma once

#include <charconv>

namespace parquet {

// std::to_chars(first, last, value): the shortest round trip, fixed or scientific,
// whichever is shorter (fixed on a tie).
char* FloatToChars(char* first, char* last, double value);
// std::to_chars(first, last, value, std::chars_format::scientific): the shortest round trip.
char* FloatToCharsScientific(char* first, char* last, double value);
char* FloatToCharsScientific(char* first, char* last, float value);
// std::to_chars(first, last, value, format, precision), format scientific or fixed.
char* FloatToChars(char* first, char* last, double value, std::chars_format format, int precision);

}  // namespace parquet
