// The decoded values a join-index scan keeps for the statement (see lookup_batch_cache.h).
#include "ext/table/lookup_batch_cache.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "format/common/error.h"

namespace sqlite_parquet {

namespace {

size_t ValueSize(parquet::Type type) {
  return type == parquet::Type::INT32 || type == parquet::Type::FLOAT ? 4 : 8;
}

void AddCounters(const parquet::ColumnReadCounters& now, parquet::ColumnReadCounters* since,
                 parquet::ColumnReadCounters* sum) {
  sum->pages_read += now.pages_read - since->pages_read;
  sum->pages_skipped += now.pages_skipped - since->pages_skipped;
  sum->bytes_read += now.bytes_read - since->bytes_read;
  sum->dictionary_pages_read += now.dictionary_pages_read - since->dictionary_pages_read;
  *since = now;
}

}  // namespace

bool LookupBatchCache::Cacheable(parquet::Type type) {
  return type == parquet::Type::INT32 || type == parquet::Type::INT64 || type == parquet::Type::FLOAT ||
         type == parquet::Type::DOUBLE;
}

// Counts `bytes` more kept by `column` (null: bookkeeping of a column to come); past the
// budget every other column is dropped first, then the blocks `column` holds. Call it
// before writing into `column` (its arrays may be replaced).
void LookupBatchCache::Count(uint64_t bytes, KeptColumn* column) {
  if (bytes_ + bytes > budget_) {
    for (auto it = columns_.begin(); it != columns_.end();) {
      if (&it->second == column) {
        ++it;
        continue;
      }
      bytes_ -= it->second.counted;
      if (&it->second == last_column_) last_column_ = nullptr;
      it = columns_.erase(it);
    }
  }
  if (column && bytes_ + bytes > budget_) ForgetBlocks(column);
  bytes_ += bytes;
  if (column) column->counted += bytes;
}

// Drops the decoded blocks of `column`, returning their memory: a fresh array, untouched.
void LookupBatchCache::ForgetBlocks(KeptColumn* column) {
  const size_t rows = column->rows;
  column->values.reset();
  column->values.reset(new uint8_t[std::max<size_t>(rows * column->value_size, 1)]);
  column->def_levels.reset();
  std::fill(column->decoded.begin(), column->decoded.end(), 0);
  std::fill(column->alone.begin(), column->alone.end(), 0);
  column->blocks_decoded = 0;
  bytes_ -= column->counted - column->bookkeeping;
  column->counted = column->bookkeeping;
}

LookupBatchCache::KeptColumn& LookupBatchCache::ColumnOf(const parquet::ParquetFileReader& file, size_t file_index,
                                                         int leaf) {
  const std::pair<size_t, int> key{file_index, leaf};
  if (last_column_ && last_key_ == key) return *last_column_;
  last_column_ = nullptr;
  auto it = columns_.find(key);
  if (it == columns_.end()) {
    KeptColumn column;
    const parquet::ColumnDescriptor& descriptor = file.schema().column(leaf);
    column.value_size = ValueSize(descriptor.physical_type);
    column.max_def = descriptor.max_definition_level;
    uint64_t blocks = 0;
    for (int rg = 0; rg < file.num_row_groups(); rg++) {
      column.first_block.push_back(blocks);
      column.alone.push_back(0);
      blocks += BlocksOf(file.row_group_num_rows(rg));
    }
    const uint64_t rows = static_cast<uint64_t>(file.num_rows());
    const uint64_t bytes = rows * column.value_size;
    // Values are counted block by block as decoded (DecodeBlock), the bookkeeping now.
    const uint64_t bookkeeping = blocks + column.first_block.size() * (sizeof(uint64_t) + sizeof(uint32_t)) + 64;
    Count(bookkeeping, nullptr);
    column.bookkeeping = column.counted = bookkeeping;
    column.rows = static_cast<size_t>(rows);
    column.values.reset(new uint8_t[std::max<uint64_t>(bytes, 1)]);
    column.decoded.assign(blocks, 0);
    it = columns_.emplace(key, std::move(column)).first;
  }
  last_key_ = key;
  last_column_ = &it->second;
  return it->second;
}

// Decodes the block of rows from `block_row` (a multiple of kSlots) of row group `rg` into
// `column`, reading on across page ends.
bool LookupBatchCache::DecodeBlock(const parquet::ParquetFileReader& file, int rg, int leaf, int64_t block_row,
                                   const parquet::ColumnReaderOptions& options, KeptColumn* column) {
  Reader& r = readers_[leaf];
  const bool started_over = !r.reader || r.row_group != rg || r.next_row > block_row;
  if (!r.reader) {
    r.reader = parquet::ColumnChunkReader::Make(file, rg, leaf, options);
    r.row_group = rg;
    r.next_row = 0;
    r.counted = parquet::ColumnReadCounters();
  } else if (r.row_group != rg || r.next_row > block_row) {
    r.reader->Reset(rg);
    r.row_group = rg;
    r.next_row = 0;
  }
  const int64_t rows = file.row_group_num_rows(rg);
  const int64_t end = std::min(block_row + kSlots, rows);
  auto short_column = [&] {
    r.row_group = -1;
    return parquet::ParquetError(file.Describe(rg, leaf) + ": column has fewer values than the row group's " +
                                 std::to_string(rows) + " rows");
  };
  const size_t gap = static_cast<size_t>(block_row - r.next_row);
  if (gap > 0 && r.reader->Skip(gap) != gap) throw short_column();
  r.next_row = block_row;
  // The block's values (and levels, when the column may have nulls), counted before the
  // column's arrays are written.
  const size_t vs = column->value_size;
  Count(static_cast<uint64_t>(end - block_row) * column->bytes_per_row(), column);
  uint8_t* values = column->values.get();
  int64_t row = block_row;
  while (row < end) {
    const size_t n = r.reader->ReadBatch(static_cast<size_t>(end - row), &scratch_);
    if (n == 0) throw short_column();
    const uint64_t at = static_cast<uint64_t>(file.row_group_first_row(rg) + row);
    if (scratch_.num_values == n) {
      std::memcpy(values + at * vs, scratch_.values<uint8_t>(), n * vs);
      if (column->def_levels) std::fill_n(column->def_levels.get() + at, n, column->max_def);
    } else {
      if (!column->def_levels) {
        // The first null: the rows of the blocks decoded so far had none.
        column->def_levels.reset(new int16_t[static_cast<size_t>(file.num_rows())]);
        const uint64_t block_start = static_cast<uint64_t>(file.row_group_first_row(rg) + block_row);
        std::fill_n(column->def_levels.get() + block_start, at - block_start, column->max_def);
        for (int g = 0; g < file.num_row_groups(); g++) {
          const int64_t first = file.row_group_first_row(g), rows_in_group = file.row_group_num_rows(g);
          for (int64_t b = 0; b * kSlots < rows_in_group; b++) {
            if (!column->decoded[column->first_block[static_cast<size_t>(g)] + static_cast<uint64_t>(b)]) continue;
            const int64_t n_rows = std::min(kSlots, rows_in_group - b * kSlots);
            std::fill_n(column->def_levels.get() + first + b * kSlots, n_rows, column->max_def);
          }
        }
      }
      const uint8_t* from = scratch_.values<uint8_t>();
      for (size_t slot = 0; slot < n; slot++) {
        column->def_levels[at + slot] = scratch_.def_levels[slot];
        if (scratch_.def_levels[slot] == column->max_def) {
          std::memcpy(values + (at + slot) * vs, from, vs);
          from += vs;
        }
      }
    }
    row += static_cast<int64_t>(n);
    r.next_row = row;
  }
  return started_over;
}

void LookupBatchCache::ForgetReaders() {
  const parquet::ColumnReadCounters now = TakeCounters();
  taken_ = now;
  readers_.clear();
}

size_t LookupBatchCache::Copy(const parquet::ParquetFileReader& file, size_t file_index, int rg, int leaf, int64_t row,
                              size_t max_slots, const parquet::ColumnReaderOptions& options,
                              parquet::ColumnBatch* out) {
  KeptColumn* column = &ColumnOf(file, file_index, leaf);
  const int64_t block_row = row - row % kSlots;
  const uint64_t block = column->first_block[static_cast<size_t>(rg)] + static_cast<uint64_t>(row / kSlots);
  if (!column->decoded[block]) {
    // A quarter of the column's blocks decoded, or kAloneBeforeGroup of this row group's
    // one by one with the reader starting the row group over: the row group's other
    // missing blocks too, when the whole column fits the
    // budget (else a block decoded in the pass could make Count forget the others, the
    // requested one included).
    const uint64_t first = column->first_block[static_cast<size_t>(rg)];
    const uint64_t whole_column = column->bookkeeping + column->rows * column->bytes_per_row();
    uint32_t& alone = column->alone[static_cast<size_t>(rg)];
    const bool whole_group =
        (column->blocks_decoded * 4 >= column->decoded.size() || alone >= kAloneBeforeGroup) && whole_column <= budget_;
    const uint64_t from = whole_group ? first : block;
    const uint64_t to = whole_group ? first + BlocksOf(file.row_group_num_rows(rg)) : block + 1;
    for (uint64_t b = from; b < to; b++) {
      if (column->decoded[b]) continue;
      const bool started_over = DecodeBlock(file, rg, leaf, static_cast<int64_t>(b - first) * kSlots, options, column);
      if (!whole_group && started_over) alone++;
      column->decoded[b] = 1;
      column->blocks_decoded++;
    }
  }
  const int64_t block_end = std::min(block_row + kSlots, file.row_group_num_rows(rg));
  const size_t n = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(max_slots), block_end - row));
  const uint64_t at = static_cast<uint64_t>(file.row_group_first_row(rg) + row);
  const size_t vs = column->value_size;
  const uint8_t* from = column->values.get() + at * vs;
  uint8_t* target = out->mutable_values<uint8_t>(std::max<size_t>(n, 1) * vs);
  size_t values = n;
  if (column->max_def > 0) {
    out->def_levels.resize(n);
    if (!column->def_levels) {
      std::fill_n(out->def_levels.begin(), n, column->max_def);
    } else {
      const int16_t* levels = column->def_levels.get() + at;
      std::copy_n(levels, n, out->def_levels.begin());
      values = 0;
      for (size_t slot = 0; slot < n; slot++) {
        if (levels[slot] != column->max_def) continue;
        std::memcpy(target + values * vs, from + slot * vs, vs);
        values++;
      }
    }
  }
  if (values == n && n > 0) std::memcpy(target, from, n * vs);
  out->num_levels = n;
  out->num_values = values;
  out->text_terminated = false;
  out->rep_levels.clear();
  return n;
}

parquet::ColumnReadCounters LookupBatchCache::TakeCounters() {
  parquet::ColumnReadCounters sum = taken_;
  taken_ = parquet::ColumnReadCounters();
  for (auto& [leaf, r] : readers_) {
    if (r.reader) AddCounters(r.reader->counters(), &r.counted, &sum);
  }
  return sum;
}

}  // namespace sqlite_parquet
