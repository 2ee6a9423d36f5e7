// Snappy decompression from input in pieces (snappy_pieces.h); built with -fno-rtti.
#include "format/codec/snappy_pieces.h"

#include <snappy-sinksource.h>
#include <snappy.h>

#include <algorithm>

namespace parquet {

namespace {

// CompressedPieces as snappy's Source: snappy reads a tag cut between two pieces through a
// scratch copy of its own.
class SnappyPieceSource : public snappy::Source {
 public:
  SnappyPieceSource(CompressedPieces& pieces, size_t size) : pieces_(pieces), left_(size) {}
  size_t Available() const override { return left_; }
  const char* Peek(size_t* length) override {
    if (piece_left_ == 0 && left_ > 0) piece_left_ = std::min(pieces_.Next(&piece_), left_);
    *length = piece_left_;  // 0 before the end: snappy reports the data as corrupt
    return reinterpret_cast<const char*>(piece_);
  }
  void Skip(size_t n) override {
    piece_ += n;
    piece_left_ -= n;
    left_ -= n;
  }

 private:
  CompressedPieces& pieces_;
  size_t left_;
  const uint8_t* piece_ = nullptr;
  size_t piece_left_ = 0;
};

}  // namespace

SnappyPiecesResult SnappyUncompressPieces(CompressedPieces& pieces, size_t src_size, uint8_t* dst, size_t dst_size,
                                          size_t* declared) {
  SnappyPieceSource source(pieces, src_size);
  size_t available = 0;
  const char* start = source.Peek(&available);
  // The length header (at most 5 bytes); a first piece shorter than that leaves the check
  // to RawUncompress, which writes no more than the header declares.
  if (available >= 5 || available == src_size) {
    if (!snappy::GetUncompressedLength(start, available, declared)) return SnappyPiecesResult::kBadHeader;
    if (*declared != dst_size) return SnappyPiecesResult::kOtherSize;
  }
  if (!snappy::RawUncompress(&source, reinterpret_cast<char*>(dst)) || source.Available() != 0) {
    return SnappyPiecesResult::kCorrupt;
  }
  return SnappyPiecesResult::kOk;
}

}  // namespace parquet
