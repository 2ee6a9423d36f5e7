// PageReader: the pages of one column chunk as stored, the layer under the column reader
// (column_reader.h). It owns the I/O of a chunk: a buffered read window over the file,
// page headers (with the PARQUET-816 tolerance for chunks whose recorded size is too
// small), decryption of headers and bodies in encrypted columns, page CRCs, decompression
// into its buffers, and the offset index that lets a reader jump to the page holding a
// row. It knows nothing of levels, values or dictionaries: a page's body is bytes.
//
// I/O: a page header is read with a first guess of its size (grown when it does not parse),
// its body only when asked for; each read is at least kMinRead bytes and brings the next
// page's header along, so a sequential scan costs one read per page and skipping a page
// costs one header read. (When a DecompressAhead worker reads the bodies, a header's read
// brings only the header, and DecompressValuesInPieces reads a body a piece at a time.)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/crypto/encryption.h"
#include "format/read/file_reader.h"
#include "format/metadata/metadata.h"

namespace parquet {

class DecompressAhead;

// Bytes that the page buffers of several column readers may hold together (e.g. all the
// columns one scan reads): the read window (compressed page bodies), decompressed data and
// dictionary pages and decoded dictionaries. A reader takes from the budget when a buffer
// grows and gives everything back when it is destroyed. Not thread-safe: one per scan.
class MemoryBudget {
 public:
  // `option` names the setting for messages (e.g. "max_memory").
  MemoryBudget(uint64_t limit, std::string option) : limit_(limit), option_(std::move(option)) {}
  // Takes `bytes`; throws ParquetError (nothing taken) when the budget cannot cover them.
  void Take(uint64_t bytes);
  void Give(uint64_t bytes) { used_ -= std::min(bytes, used_); }
  uint64_t used() const { return used_; }
  uint64_t peak() const { return peak_; }  // the most used at once
  uint64_t limit() const { return limit_; }

 private:
  uint64_t limit_;
  uint64_t used_ = 0;
  uint64_t peak_ = 0;
  std::string option_;
};

struct ColumnReaderOptions {
  bool verify_crc = true;  // check page CRCs when the writer stored them
  // Shared by the readers of one scan; null: no limit beyond the 1 GiB per page.
  std::shared_ptr<MemoryBudget> memory_budget;
  // When a skip goes past the end of the current page, read the chunk's offset index (once
  // per chunk, only then) and jump over whole pages without reading them. An offset index that fails validation is ignored (pages are then walked
  // header by header, as without one). SetOffsetIndex supplies one already read.
  bool use_offset_index = true;
  // Decompresses each column's next pages on a worker thread (decompress_ahead.h); null:
  // every page is decompressed where it is read.
  std::shared_ptr<DecompressAhead> decompress_ahead;
};

// Statistics of what a reader did, for observability (parquet_scan_stats) and tests.
struct ColumnReadCounters {
  uint64_t pages_read = 0;             // data pages decompressed and decoded
  uint64_t pages_skipped = 0;          // data pages skipped without decompression (also
                                       // those jumped over through the offset index)
  uint64_t bytes_read = 0;             // bytes read from the file (page-index jumps and
                                       // skipped page bodies show as fewer bytes)
  uint64_t dictionary_pages_read = 0;  // dictionary pages decompressed and decoded
  uint64_t pages_decompressed_ahead = 0;  // data pages a DecompressAhead worker decompressed
};

// Where a data page's values lie in its body (PageReader::ValueSection): v1 pages compress
// the whole body (levels included); v2 pages store their level bytes first, uncompressed,
// and compress only the values after them, when they say so.
struct PageValueSection {
  size_t offset = 0;       // into the body
  size_t stored_size = 0;  // bytes in the body
  size_t size = 0;         // bytes once decompressed
  bool compressed = true;
};

// A data page of the offset index to jump to (PageReader::FindJump).
struct PageJump {
  int64_t page = 0;       // index among the chunk's data pages
  int64_t offset = 0;     // file offset of its header
  int32_t size = 0;       // its header and body
  int64_t first_row = 0;  // its first row within the row group
  int64_t rows = 0;       // the rows it holds, as the index tells
};

// A read window that several PageReaders of one thread take turns with (the worker of
// decompress_ahead.h, one reader per column): each finds its bytes gone once another has
// read into it. For readers without a memory budget.
struct SharedReadWindow {
  std::vector<uint8_t> bytes;
  const void* holder = nullptr;  // the reader whose bytes it holds
};

class PageReader {
 public:
  // Bytes of a page body read at a time when it is decompressed in pieces
  // (DecompressValuesInPieces); a body up to this size is read whole. 32 KiB pieces keep the
  // worker's window small (0.2 MB less peak memory on a scan than 256 KiB) at the same speed,
  // given a window allocated once (DecompressAhead's constructor): regrown page by page they
  // cost a scan of the bench's lineitem file about 8%.
  static constexpr size_t kBodyPiece = 32 * 1024;
  // The most a read window holds for such a body: the piece, a page header's first read
  // and the bytes read along past it.
  static constexpr size_t kPieceWindow = kBodyPiece + 8192;
  // Reads pages of leaf `column` of `file`; bytes read are added to counters->bytes_read.
  // `counters` must outlive the reader.
  PageReader(const ParquetFileReader& file, int column, const ColumnReaderOptions& options,
             ColumnReadCounters* counters);
  ~PageReader();
  PageReader(const PageReader&) = delete;
  PageReader& operator=(const PageReader&) = delete;

  // Moves to the chunk of `row_group` (its first page next), forgetting the offset index.
  void Reset(int row_group);
  // Reads into `window` (which must outlive the reader) instead of a window of its own.
  void ShareReadWindow(SharedReadWindow* window) {
    shared_window_ = window;
    window_size_ = 0;
  }
  // Reads only what is asked for, without read-ahead (a dictionary page alone).
  void ReadNoMoreThanAsked() { min_read_ = 0, read_ahead_ = 0; }

  // Parses the next page's header into header(); false at the end of the chunk. A data
  // page counts towards data_page_index(), a dictionary page towards dictionary_pages().
  // The body is not read.
  bool NextPage();
  const PageHeader& header() const { return header_; }
  // Index of the current data page among the chunk's data pages (-1: none yet).
  int64_t data_page_index() const { return data_page_index_; }
  int dictionary_pages() const { return dictionary_pages_; }
  // File offset of the current page's header, of the next one, and the chunk's end.
  uint64_t page_offset() const { return page_offset_; }
  uint64_t next_page_offset() const { return next_page_offset_; }
  uint64_t chunk_end() const { return chunk_end_; }

  // Reads the current page's body, checks its CRC (over the bytes as stored) and decrypts
  // it; then body() / body_size() are the page's plaintext, compressed as the header says.
  void ReadBody();
  const uint8_t* body() const { return body_; }
  size_t body_size() const { return body_size_; }
  // The current data page v1's whole body (levels and values), decompressed: *size bytes,
  // valid until the next page. The DecompressAhead worker's copy when it has one: the body
  // is then not read here (the worker read it and checked its CRC; the bytes of it that
  // this reader did not read with the header count in bytes_read); else read (ReadBody)
  // and decompressed here.
  const uint8_t* DataPageV1Body(size_t* size);
  // The current data page v2's value section (`section`: ValueSection, after ReadBody),
  // decompressed: the worker's copy when it has one, else decompressed here; the body
  // itself when not compressed. Valid until the next page. Throws ParquetError when the
  // sizes do not agree.
  const uint8_t* DataPageV2Values(const PageValueSection& section);
  // The current data page's value section (after ReadBody; for a v1 page of an unencrypted
  // column the header's sizes suffice). Throws ParquetError when a v2 page's level lengths
  // do not fit in it or its values are missing.
  PageValueSection ValueSection() const;
  // For the DecompressAhead worker: the current data page's value section (`section`:
  // ValueSection, compressed), decompressed into the buffer `destination(size)` gives; null
  // when that gives null (no room). The claimed size is checked against what the stored
  // bytes can hold before `destination` is asked. With a codec that decompresses in pieces
  // (compression.h) a body larger than a piece (kBodyPiece) is read a piece at a time, its
  // CRC computed as the bytes pass, so the reader never holds the page as stored; else as
  // ReadBody and DecompressInto. Throws ParquetError as they do.
  uint8_t* DecompressValuesInPieces(const PageValueSection& section,
                                    const std::function<uint8_t*(size_t)>& destination);
  // Decompresses `src_size` bytes at `src` into `buffer` (grown by GrowBuffer), or gives
  // `src` itself when not `compressed` (or the chunk is uncompressed). Throws ParquetError
  // when the sizes do not agree.
  const uint8_t* DecompressInto(const uint8_t* src, size_t src_size, size_t uncompressed_size, bool compressed,
                                std::vector<uint8_t>* buffer);
  // The current page, a dictionary page: its body read and decompressed into a buffer of
  // its own (valid until the next dictionary page); *size its uncompressed size. With
  // decompress_ahead a compressed one is read as DecompressValuesInPieces reads.
  const uint8_t* DictionaryPageBytes(size_t* size);

  // The chunk's offset index: given (SetOffsetIndex, which must be this chunk's and valid;
  // nullptr forgets it) or read on first need when the options allow; null when there is
  // none or it is unusable. DisableOffsetIndex: none for the rest of the chunk.
  void SetOffsetIndex(std::shared_ptr<const OffsetIndex> index) { offset_index_ = std::move(index); }
  const OffsetIndex* OffsetIndexForJumps();
  void DisableOffsetIndex() { offset_index_tried_ = true; }

  // The data page of the offset index that holds row `target`, when it lies beyond the
  // current data page (and beyond the next one when `current_page_done`: that one comes
  // next anyway) and within the chunk's bytes not yet passed; nullopt otherwise.
  std::optional<PageJump> FindJump(int64_t target, bool current_page_done);
  // File offset of the chunk's first data page by the offset index (FindJump succeeded).
  int64_t FirstIndexedDataPageOffset() const { return offset_index_->page_locations.front().offset; }
  // Moves to data page `jump.page` (found by FindJump): NextPage reads its header next,
  // and its header and body are read in one read. The pages in between are never read.
  void JumpTo(const PageJump& jump);

  // "file 'x', row group r, column 'c', page p" for messages.
  std::string Context() const;

  // Grows `buffer` to `size` elements (never shrinks), taking the growth of its capacity
  // from the memory budget first; everything taken is given back when the reader is
  // destroyed. The charge follows the capacity, which a smaller size (clear, resize) keeps:
  // a buffer shrunk and grown back is not charged again.
  template <typename V>
  void GrowBuffer(V* buffer, size_t size) {
    if (buffer->size() >= size) return;
    if (buffer->capacity() < size) {
      const uint64_t bytes = uint64_t{size - buffer->capacity()} * sizeof(typename V::value_type);
      if (options_.memory_budget) {
        options_.memory_budget->Take(bytes);
        budget_taken_ += bytes;
      }
      buffer->reserve(size);  // exactly `size`: what the budget was charged for
    }
    buffer->resize(size);
  }

  const ParquetFileReader& file() const { return file_; }
  int column() const { return column_; }
  int row_group() const { return row_group_; }
  const ColumnMetaData& metadata() const { return *meta_; }
  const ColumnReaderOptions& options() const { return options_; }

 private:
  const uint8_t* Fetch(uint64_t offset, size_t length, uint64_t limit) { return Fetch(offset, length, limit, min_read_); }
  const uint8_t* Fetch(uint64_t offset, size_t length, uint64_t limit, size_t min_read);
  void ReadPageHeader();
  void FetchBody();
  void VerifyCrc();
  // Throws ParquetError when the current page stores a CRC other than `computed` (and CRCs
  // are checked).
  void CheckCrc(uint32_t computed) const;
  size_t DecryptPageHeader(uint64_t offset, uint64_t limit);
  size_t EncryptedModuleSize(uint64_t offset, uint64_t limit);
  size_t DecryptHeaderModule(ModuleType type, uint64_t offset, uint64_t limit);
  void DecryptPageBody(ModuleType type, int page_ordinal);
  class BodyPieces;  // the current page's body read a piece at a time (DecompressValuesInPieces)
  // Gives back a read window grown beyond what page headers need, once the page in it is
  // done with (the DecompressAhead worker reads the data pages), keeping the bytes read
  // along past the page.
  void TrimWindow();
  // Gives `bytes` of a buffer freed back to the memory budget.
  void GiveBack(uint64_t bytes);
  // Throws ParquetError when `claimed` bytes are more than the codec can make of
  // `src_size` stored bytes, of which the first `available` are at `src`.
  void RequirePlausibleSize(const uint8_t* src, size_t available, size_t src_size, size_t claimed) const;
  // The current data page's value section as the DecompressAhead worker decompressed it
  // (counted in the counters), or null: no worker, a section not compressed, or the
  // worker does not have it.
  const uint8_t* TakeDecompressedAhead(const PageValueSection& section);

  const ParquetFileReader& file_;
  const int column_;
  const ColumnReaderOptions options_;
  ColumnReadCounters* counters_;
  uint64_t budget_taken_ = 0;  // given back to options_.memory_budget on destruction
  int row_group_ = -1;
  const ColumnMetaData* meta_ = nullptr;
  const ModuleCipher* cipher_ = nullptr;  // encrypted column: its cipher (file_reader.h)

  // The chunk's bytes in the file: [chunk_begin_, chunk_end_). chunk_end_ grows past the
  // recorded size for PARQUET-816 pages, never beyond data_end_ (the footer's start).
  uint64_t chunk_begin_ = 0;
  uint64_t chunk_end_ = 0;
  uint64_t data_end_ = 0;
  uint64_t next_page_offset_ = 0;  // file offset of the next page header
  // Where the page a jump (JumpTo) landed on ends, by the offset index; 0 once its header
  // is read. Its header's read stays inside it: a remote file fetched just that page.
  uint64_t jumped_page_end_ = 0;
  // The read window: file bytes [window_offset_, window_offset_ + window_size_).
  std::vector<uint8_t> window_;
  SharedReadWindow* shared_window_ = nullptr;  // when set, the window's bytes are there
  uint64_t window_offset_ = 0;
  size_t window_size_ = 0;
  size_t min_read_;    // smallest read (within the chunk)
  size_t read_ahead_;  // bytes read past a page body: the next page's header

  std::shared_ptr<const OffsetIndex> offset_index_;
  bool offset_index_tried_ = false;  // OffsetIndexForJumps looked for one in this chunk
  int64_t data_page_index_ = -1;     // index of the current data page among the chunk's data pages
  int dictionary_pages_ = 0;
  int page_ordinal_ = -1;            // index of the current page within the chunk (for messages)

  PageHeader header_;                // the current page
  uint64_t page_offset_ = 0;         // where its header starts in the file
  uint64_t body_offset_ = 0;         // where its body starts in the file
  const uint8_t* body_ = nullptr;    // its body in the read window, once fetched (FetchBody)
  bool body_fetched_ = false;
  size_t body_size_ = 0;
  int body_page_ordinal_ = 0;        // the current data page's ordinal (AAD)
  bool body_encrypted_ = false;      // body_ still points at the encrypted module
  std::vector<uint8_t> decrypted_header_;
  std::vector<uint8_t> decrypted_body_;
  std::vector<uint8_t> page_buffer_;        // decompressed data page
  std::vector<uint8_t> dictionary_buffer_;  // decompressed dictionary page
};

}  // namespace parquet
