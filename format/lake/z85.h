// Z85 (ZeroMQ RFC 32): 4 bytes as 5 printable characters. Delta stores inline deletion
// vectors and the UUIDs of deletion-vector files in it. Characters outside the alphabet and
// groups above 2^32 - 1 are errors; the last group may be in the padded form of Rust's z85
// crate (1 to 3 bytes: the value's leading zero digits written '#', one per padding byte),
// in which Delta writers in Rust store an inline deletion vector of 4n+1..3 bytes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace parquet::lake {

// The bytes of `text` (a multiple of 5 characters); nullopt when it is not valid Z85.
std::optional<std::string> DecodeZ85(std::string_view text);

// `data` (a multiple of 4 bytes) as Z85 text (tests).
std::string EncodeZ85(std::string_view data);

}  // namespace parquet::lake
