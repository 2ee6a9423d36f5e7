// Z85 (ZeroMQ RFC 32): 4 bytes as 5 printable characters. Delta stores inline deletion
// vectors and the UUIDs of deletion-vector files in it. Characters outside the alphabet are
// errors; a group above 2^32 - 1 keeps its low 32 bits, as Delta's reader decodes it.
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
