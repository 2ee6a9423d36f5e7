// Encoding JSON text as a Parquet Variant (VariantEncoding.md): the metadata buffer (version
// 1, a sorted dictionary of every object key) and the value buffer. The decoder of the same
// encoding is variant.h; AppendVariantJson of an encoded value gives back the JSON (numbers
// in their shortest form, object members in key order, duplicate keys: the last one).
//
// JSON null, true, false -> null, true, false; integers (no fraction or exponent) that fit
// int64 -> the smallest of int8/16/32/64; other numbers -> double; strings -> short string
// (under 64 bytes) or string; arrays and objects -> array and object (offsets and ids of the
// fewest bytes that hold them).
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace parquet {

// False with *error saying why when `json` is not one JSON value. Time and memory are
// linear in the text's length (an object's repeated keys included: the last one is kept).
// `interrupted`, when given, is asked every kVariantInterruptInterval values while the text
// is parsed and encoded; when it says yes, the encoding stops at once: false, with
// *was_interrupted set (when given) and *error "interrupted".
bool EncodeJsonAsVariant(std::string_view json, std::string* metadata, std::string* value, std::string* error,
                         const std::function<bool()>* interrupted = nullptr, bool* was_interrupted = nullptr);

// How many JSON values are parsed or encoded between two calls of the interrupt check.
inline constexpr unsigned kVariantInterruptInterval = 4096;

}  // namespace parquet
