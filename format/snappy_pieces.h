// Snappy decompression from input in pieces (compression.cc's DecompressPieces): kept in a
// translation unit of its own, built without RTTI, because it derives from snappy::Source
// and snappy's own build (the PIC libsnappy.a of `make dist`) has no type information for
// it; Debian's libsnappy does, so either links.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/compression.h"

namespace parquet {

// Snappy's RawUncompress over the `src_size` bytes `pieces` gives, into `dst`, which must
// hold the stream's declared length: true when the stream is valid, holds that length and
// ends with the last byte given.
bool SnappyUncompressPieces(CompressedPieces& pieces, size_t src_size, uint8_t* dst);

}  // namespace parquet
