// Snappy decompression from input in pieces (compression.cc's DecompressPieces): kept in a
// translation unit of its own, built without RTTI, because it derives from snappy::Source
// and snappy's own build (the PIC libsnappy.a of `make dist`) has no type information for
// it; Debian's libsnappy does, so either links.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/codec/compression.h"

namespace parquet {

// What SnappyUncompressPieces found.
enum class SnappyPiecesResult { kOk, kBadHeader, kOtherSize, kCorrupt };

// Snappy's RawUncompress over the `src_size` bytes `pieces` gives, into `dst` of `dst_size`
// bytes: kBadHeader when the first piece holds no valid length header, kOtherSize when the
// stream declares another length (*declared), before anything is written; kCorrupt when
// the stream is invalid or does not end with the last byte given.
SnappyPiecesResult SnappyUncompressPieces(CompressedPieces& pieces, size_t src_size, uint8_t* dst, size_t dst_size,
                                          size_t* declared);

}  // namespace parquet
