// The decoded values of the columns a join-index scan reads (join_index.h), kept for the
// statement: the rows a join index names lie far apart and each lookup names a few, so
// fetching them one by one would decode most of a page per row (the reader skips from the
// start of the page to the row), lookup after lookup. Instead the block of kSlots rows
// around a row is decoded once (across page ends), kept in place in an array of the
// row group's rows, and later lookups of rows in it copy their slots: finding a
// row is an index computation, not a search. Once lookups have decoded a quarter of a
// column's blocks, or kAloneBeforeGroup blocks of one row group (kAloneBeforeIndexGroup of
// one kept as dictionary indices) one by one with the reader
// starting that row group over for each (lookups in no order of rows), they are taken to
// want most of the rest (of the column, of that row group): a block missing from the row
// group is decoded with every other missing block of it, in one pass through its pages
// (seeking back block by block reads the chunk again and decompresses a page for each: on
// lineitem's 120-block row groups such a block costs about what five cost in the pass, so
// a row group of which nine blocks are wanted costs at most some four times what it would
// block by block, and one wanted whole, by a join's thousand keys, a fifth less). Lookups
// in the order of rows (a sorted key's) only move the reader forward, and go on block by
// block.
// Only columns whose values live in the batch itself (INT32, INT64, FLOAT, DOUBLE; not
// text, whose values point into page buffers) are kept. A row group whose chunk is
// dictionary-encoded throughout (its metadata says so) with at most 65536 entries keeps
// each row's dictionary index (1 byte up to 256 entries, else 2) beside a copy of the
// dictionary, not the value: a thousand-key join over a 6-million-row file touches 6 MiB
// instead of 48 for an 8-byte column of 50 values, and first-touched memory is what a first
// join pays most for (on a virtual machine a page fault costs some microseconds). A page
// that turns out not to be dictionary-encoded makes that row group keep values instead.
// The cache reads with readers of its own. Memory is counted by the blocks decoded (with a
// 2-byte level per row of a column that may hold nulls) and the dictionaries copied; past
// the budget the other columns are dropped, then the blocks of the column being read: what
// is kept stays within the budget (or one block, for a budget smaller than that).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "format/read/column_reader.h"
#include "format/read/file_reader.h"

namespace sqlite_parquet {

class LookupBatchCache {
 public:
  static constexpr int64_t kSlots = 1024;
  // Blocks of a row group decoded one by one, the reader starting over for each, before a
  // missing block brings the rest.
  static constexpr uint32_t kAloneBeforeGroup = 8;
  // The same for a row group kept as dictionary indices: its pass decodes a byte or two a
  // row, about what one block read alone costs for its page.
  static constexpr uint32_t kAloneBeforeIndexGroup = 2;

  explicit LookupBatchCache(uint64_t budget_bytes) : budget_(budget_bytes) {}

  // Whether values of this physical type can be kept (see above).
  static bool Cacheable(parquet::Type type);

  // Copies into *out the slots of leaf column `leaf` from row `row` of row group `rg` of
  // `file` (the table's file `file_index`), at most `max_slots` and not past the block
  // holding the row, which is decoded when missing. Returns the slots copied.
  size_t Copy(const parquet::ParquetFileReader& file, size_t file_index, int rg, int leaf, int64_t row,
              size_t max_slots, const parquet::ColumnReaderOptions& options, parquet::ColumnBatch* out);

  // Forgets the readers (before the current file is closed); kept values stay.
  void ForgetReaders();

  // What the cache's readers did since the last call.
  parquet::ColumnReadCounters TakeCounters();

  // The bytes counted as kept.
  uint64_t kept_bytes() const { return bytes_; }

 private:
  // One row group of a kept column: its rows' values, or dictionary indices, in place.
  struct KeptGroup {
    uint8_t width = 0;  // bytes a row keeps: the value's, or 1 or 2 (an index); 0: nothing kept yet
    bool values_only = false;  // a page of the chunk was not dictionary-encoded: keep values
    std::unique_ptr<uint8_t[]> rows;        // row r at r * width (a null slot's bytes unspecified)
    std::unique_ptr<uint8_t[]> dictionary;  // the chunk's entries, when indices are kept
    std::unique_ptr<int16_t[]> def_levels;  // per row, once a decoded block had a null (else null)
    uint64_t counted = 0;                   // bytes counted for it
  };
  // One leaf column of one file, blocks of kSlots rows per row group.
  struct KeptColumn {
    size_t value_size = 0;
    int16_t max_def = 0;
    size_t rows = 0;  // the file's
    // Allocated uninitialized: only the pages of decoded blocks are touched (a few rows
    // spread over the file touch little memory).
    std::vector<KeptGroup> groups;
    std::vector<uint64_t> first_block;  // per row group: the number of its first block
    std::vector<uint8_t> decoded;       // per block: 1 once decoded
    std::vector<uint32_t> alone;        // per row group: blocks decoded one by one
    uint64_t blocks_decoded = 0;
    uint64_t bookkeeping = 0;           // bytes counted for the above
    uint64_t counted = 0;               // bytes counted for it (bookkeeping, blocks, dictionaries)
    // The bytes a row kept as its value counts: its value, and its level when the column
    // may have nulls (what a row costs at most).
    uint64_t bytes_per_row() const { return value_size + level_bytes(); }
    uint64_t level_bytes() const { return max_def > 0 ? sizeof(int16_t) : 0; }
  };
  struct Reader {
    std::unique_ptr<parquet::ColumnChunkReader> reader;
    int row_group = -1;
    int64_t next_row = 0;  // the row the reader stands at
    parquet::ColumnReadCounters counted;
  };
  // The blocks of a row group of `rows` rows.
  static uint64_t BlocksOf(int64_t rows) { return static_cast<uint64_t>((rows + kSlots - 1) / kSlots); }
  KeptColumn& ColumnOf(const parquet::ParquetFileReader& file, size_t file_index, int leaf);
  // Whether the reader had to start the row group over (it reads forward only).
  bool DecodeBlock(const parquet::ParquetFileReader& file, int rg, int leaf, int64_t block_row,
                   const parquet::ColumnReaderOptions& options, KeptColumn* column);
  // Sets up row group `rg` of `column` for its first block, of `block_rows` rows, as the
  // reader's first batch of it came (indices or values); counts its bytes.
  void StartGroup(const parquet::ColumnChunkReader& reader, int rg, int64_t group_rows, int64_t block_rows,
                  bool indices, KeptColumn* column);
  // Stores the reader's batch as rows [at, at + n) of group `rg`: values, or indices of
  // `index_bytes` bytes.
  void StoreBatch(const parquet::ColumnChunkReader& reader, int rg, int64_t group_rows, int64_t block_row,
                  int64_t at, int index_bytes, KeptColumn* column);
  void Count(uint64_t bytes, KeptColumn* column, KeptGroup* group);
  void ForgetBlocks(KeptColumn* column);
  // Drops what row group `rg` of `column` keeps (its blocks are no longer decoded).
  void ForgetGroup(KeptColumn* column, int rg);

  uint64_t budget_;
  uint64_t bytes_ = 0;
  std::map<std::pair<size_t, int>, KeptColumn> columns_;  // by file, leaf
  KeptColumn* last_column_ = nullptr;                      // the one of the last Copy
  std::pair<size_t, int> last_key_{SIZE_MAX, -1};
  std::map<int, Reader> readers_;  // by leaf
  parquet::ColumnBatch scratch_;
  parquet::ColumnReadCounters taken_;  // of readers forgotten since the last TakeCounters
};

}  // namespace sqlite_parquet
