// The decoded values a join-index scan keeps for the statement (see lookup_batch_cache.h).
#include "ext/table/lookup_batch_cache.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "format/common/error.h"
#include "format/read/column_reader.h"

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

// Counts `bytes` more kept by `column` (null: bookkeeping of a column to come), in `group`
// when given; past the budget every other column is dropped first, then the blocks
// `column` holds. Call it before writing into `column` (its arrays may be replaced).
void LookupBatchCache::Count(uint64_t bytes, KeptColumn* column, KeptGroup* group) {
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
  if (group) group->counted += bytes;
}

// Drops the decoded blocks of `column`, returning their memory.
void LookupBatchCache::ForgetBlocks(KeptColumn* column) {
  for (KeptGroup& group : column->groups) {
    const bool values_only = group.values_only;
    group = KeptGroup();
    group.values_only = values_only;
  }
  std::fill(column->decoded.begin(), column->decoded.end(), 0);
  std::fill(column->alone.begin(), column->alone.end(), 0);
  column->blocks_decoded = 0;
  bytes_ -= column->counted - column->bookkeeping;
  column->counted = column->bookkeeping;
}

void LookupBatchCache::ForgetGroup(KeptColumn* column, int rg) {
  KeptGroup& group = column->groups[static_cast<size_t>(rg)];
  const uint64_t first = column->first_block[static_cast<size_t>(rg)];
  const uint64_t end = static_cast<size_t>(rg) + 1 < column->first_block.size()
                           ? column->first_block[static_cast<size_t>(rg) + 1]
                           : column->decoded.size();
  for (uint64_t b = first; b < end; b++) {
    column->blocks_decoded -= column->decoded[b];
    column->decoded[b] = 0;
  }
  bytes_ -= group.counted;
  column->counted -= group.counted;
  const bool values_only = group.values_only;
  group = KeptGroup();
  group.values_only = values_only;
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
    column.groups.resize(column.first_block.size());
    // Rows are counted block by block as decoded (DecodeBlock), the bookkeeping now.
    const uint64_t bookkeeping =
        blocks + column.first_block.size() * (sizeof(uint64_t) + sizeof(uint32_t) + sizeof(KeptGroup)) + 64;
    Count(bookkeeping, nullptr, nullptr);
    column.bookkeeping = column.counted = bookkeeping;
    column.rows = static_cast<size_t>(file.num_rows());
    column.decoded.assign(blocks, 0);
    it = columns_.emplace(key, std::move(column)).first;
  }
  last_key_ = key;
  last_column_ = &it->second;
  return it->second;
}

void LookupBatchCache::StartGroup(const parquet::ColumnChunkReader& reader, int rg, int64_t group_rows,
                                  int64_t block_rows, bool indices, KeptColumn* column) {
  KeptGroup& group = column->groups[static_cast<size_t>(rg)];
  size_t entries = 0;
  if (indices) reader.dictionary_entries(&entries);
  // Indices are kept when they and the dictionary take less than the values would.
  const uint64_t index_width = entries <= 256 ? 1 : entries <= 65536 ? 2 : column->value_size;
  const uint64_t rows = static_cast<uint64_t>(group_rows);
  const bool keep_indices = indices && index_width < column->value_size &&
                            entries * column->value_size + rows * index_width <= rows * column->value_size;
  const uint8_t width = static_cast<uint8_t>(keep_indices ? index_width : column->value_size);
  const uint64_t dictionary_bytes = keep_indices ? entries * column->value_size : 0;
  Count(static_cast<uint64_t>(block_rows) * (width + column->level_bytes()) + dictionary_bytes, column, &group);
  group.width = width;
  group.rows.reset(new uint8_t[static_cast<size_t>(std::max<int64_t>(group_rows, 1)) * width]);
  if (keep_indices) {
    size_t count = 0;
    const void* dictionary = reader.dictionary_entries(&count);
    group.dictionary.reset(new uint8_t[std::max<uint64_t>(dictionary_bytes, 1)]);
    if (dictionary_bytes > 0) std::memcpy(group.dictionary.get(), dictionary, dictionary_bytes);
  }
}

void LookupBatchCache::StoreBatch(const parquet::ColumnChunkReader& reader, int rg, int64_t group_rows,
                                  int64_t block_row, int64_t at, int index_bytes, KeptColumn* column) {
  KeptGroup& group = column->groups[static_cast<size_t>(rg)];
  const size_t n = scratch_.num_levels;
  const size_t width = group.width, vs = column->value_size;
  const bool dense = scratch_.num_values == n;
  if (!dense && !group.def_levels) {
    // The first null of the row group: the rows of its blocks decoded so far had none.
    group.def_levels.reset(new int16_t[static_cast<size_t>(group_rows)]);
    std::fill_n(group.def_levels.get() + block_row, at - block_row, column->max_def);
    const uint64_t first = column->first_block[static_cast<size_t>(rg)];
    for (int64_t b = 0; b * kSlots < group_rows; b++) {
      if (!column->decoded[first + static_cast<uint64_t>(b)]) continue;
      std::fill_n(group.def_levels.get() + b * kSlots, std::min(kSlots, group_rows - b * kSlots), column->max_def);
    }
  }
  if (group.def_levels) {
    if (dense) {
      std::fill_n(group.def_levels.get() + at, n, column->max_def);
    } else {
      std::copy_n(scratch_.def_levels.begin(), n, group.def_levels.get() + at);
    }
  }
  // Row `at + slot` of the batch's value `v`: stored as `width` bytes.
  uint8_t* to = group.rows.get() + static_cast<size_t>(at) * width;
  auto for_each_value = [&](auto store) {
    if (dense) {
      for (size_t slot = 0; slot < n; slot++) store(slot, slot);
    } else {
      size_t v = 0;
      for (size_t slot = 0; slot < n; slot++) {
        if (scratch_.def_levels[slot] == column->max_def) store(slot, v++);
      }
    }
  };
  if (index_bytes == 0 || (group.dictionary && static_cast<size_t>(index_bytes) == width)) {
    // Values, or indices read as wide as they are kept.
    const size_t bytes = index_bytes == 0 ? vs : width;
    const uint8_t* from = scratch_.values<uint8_t>();
    if (dense) {
      std::memcpy(to, from, n * bytes);
    } else {
      for_each_value([&](size_t slot, size_t v) { std::memcpy(to + slot * bytes, from + v * bytes, bytes); });
    }
    return;
  }
  // The row group's first batch, of 4-byte indices (the dictionary's size unknown until
  // it): narrowed, or looked up when the row group keeps values.
  const uint32_t* index = scratch_.values<uint32_t>();
  if (group.dictionary && width == 1) {
    for_each_value([&](size_t slot, size_t v) { to[slot] = static_cast<uint8_t>(index[v]); });
  } else if (group.dictionary && width == 2) {
    for_each_value([&](size_t slot, size_t v) {
      const uint16_t i = static_cast<uint16_t>(index[v]);
      std::memcpy(to + slot * 2, &i, 2);
    });
  } else {
    // More entries than indices are kept for: their values, from the reader's dictionary.
    size_t count = 0;
    const uint8_t* entries = static_cast<const uint8_t*>(reader.dictionary_entries(&count));
    for_each_value([&](size_t slot, size_t v) { std::memcpy(to + slot * vs, entries + index[v] * vs, vs); });
  }
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
  KeptGroup* group = &column->groups[static_cast<size_t>(rg)];
  // The block's rows (and levels, when the column may have nulls), counted before the
  // column's arrays are written; a row group's first block once its first batch shows
  // how its rows are kept (StartGroup).
  if (group->width > 0) {
    const uint64_t bytes = static_cast<uint64_t>(end - block_row) * (group->width + column->level_bytes());
    Count(bytes, column, group);
    if (group->width == 0) {
      // Count dropped what the column kept, this row group's too: StartGroup counts the
      // block again.
      bytes_ -= bytes;
      column->counted -= bytes;
      group->counted -= bytes;
    }
  }
  // Indices are read while the row group keeps them, or may (asked of the metadata only
  // before the row group's first batch).
  bool dictionary_chunk = group->width == 0 && !group->values_only &&
                          parquet::ChunkIsFullyDictionaryEncoded(file.column_metadata(rg, leaf));
  int64_t row = block_row;
  while (row < end) {
    group = &column->groups[static_cast<size_t>(rg)];  // (Count may have dropped what it kept)
    const bool indices = group->width > 0 ? group->dictionary != nullptr : dictionary_chunk;
    // Indices as wide as they are kept, once the row group's first batch has shown how.
    const int index_bytes = !indices ? 0 : group->width > 0 ? group->width : 4;
    bool not_dictionary = false;
    const size_t n = indices ? r.reader->ReadIndices(static_cast<size_t>(end - row), &scratch_, &not_dictionary,
                                                     index_bytes)
                             : r.reader->ReadBatch(static_cast<size_t>(end - row), &scratch_);
    if (not_dictionary) {
      // A page that is not dictionary-encoded (the metadata said otherwise): the row group
      // keeps values. Before anything of it is kept, read on; else what it kept is dropped
      // and the block read again from the row group's start.
      group->values_only = true;
      dictionary_chunk = false;
      if (group->width == 0) continue;
      ForgetGroup(column, rg);
      r.row_group = -1;
      DecodeBlock(file, rg, leaf, block_row, options, column);
      return true;
    }
    if (n == 0) throw short_column();
    if (group->width == 0) StartGroup(*r.reader, rg, rows, end - block_row, indices, column);
    StoreBatch(*r.reader, rg, rows, block_row, row, index_bytes, column);
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
    const uint32_t alone_limit =
        column->groups[static_cast<size_t>(rg)].dictionary ? kAloneBeforeIndexGroup : kAloneBeforeGroup;
    const bool whole_group =
        (column->blocks_decoded * 4 >= column->decoded.size() || alone >= alone_limit) && whole_column <= budget_;
    const uint64_t from = whole_group ? first : block;
    const uint64_t to = whole_group ? first + BlocksOf(file.row_group_num_rows(rg)) : block + 1;
    for (uint64_t b = from; b < to; b++) {
      if (column->decoded[b]) continue;
      const bool started_over = DecodeBlock(file, rg, leaf, static_cast<int64_t>(b - first) * kSlots, options, column);
      if (!whole_group && started_over) alone++;
      column->decoded[b] = 1;
      column->blocks_decoded++;
    }
    if (!column->decoded[block]) {
      // Dropped again in the pass (a row group that turned out to need its values).
      DecodeBlock(file, rg, leaf, block_row, options, column);
      column->decoded[block] = 1;
      column->blocks_decoded++;
    }
  }
  const int64_t block_end = std::min(block_row + kSlots, file.row_group_num_rows(rg));
  const size_t n = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(max_slots), block_end - row));
  const KeptGroup& group = column->groups[static_cast<size_t>(rg)];
  const size_t vs = column->value_size, width = group.width;
  const uint8_t* from = group.rows.get() + static_cast<size_t>(row) * width;
  uint8_t* target = out->mutable_values<uint8_t>(std::max<size_t>(n, 1) * vs);
  const int16_t* levels = group.def_levels ? group.def_levels.get() + row : nullptr;
  if (column->max_def > 0) {
    out->def_levels.resize(n);
    if (levels) {
      std::copy_n(levels, n, out->def_levels.begin());
    } else {
      std::fill_n(out->def_levels.begin(), n, column->max_def);
    }
  }
  size_t values = 0;
  const uint8_t* dictionary = group.dictionary.get();
  if (!dictionary && !levels) {
    std::memcpy(target, from, n * vs);  // values, none null: one copy
    values = n;
  } else {
    // Index `slot`'s value: in place, or the dictionary entry its 1- or 2-byte index names.
    auto value_of = [&](size_t slot) -> const uint8_t* {
      if (!dictionary) return from + slot * vs;
      uint16_t index = from[slot];
      if (width == 2) std::memcpy(&index, from + slot * 2, 2);
      return dictionary + size_t{index} * vs;
    };
    for (size_t slot = 0; slot < n; slot++) {
      if (levels && levels[slot] != column->max_def) continue;
      std::memcpy(target + values * vs, value_of(slot), vs);
      values++;
    }
  }
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
