// The decoded batches a join-index scan keeps for the statement (see lookup_batch_cache.h).
#include "ext/table/lookup_batch_cache.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "format/error.h"

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

const parquet::ColumnBatch& LookupBatchCache::Find(const parquet::ParquetFileReader& file, size_t file_index, int rg,
                                                   int leaf, int64_t row, const parquet::ColumnReaderOptions& options,
                                                   int64_t* first_row) {
  // The kept batch starting at or before the row: it may hold it (batches end at page ends).
  int64_t start = row - row % kSlots;
  auto it = batches_.upper_bound(std::make_tuple(file_index, rg, leaf, row));
  if (it != batches_.begin()) {
    --it;
    const auto& [f, g, l, first] = it->first;
    if (f == file_index && g == rg && l == leaf) {
      const int64_t end = first + static_cast<int64_t>(it->second.num_levels);
      if (end > row) {
        *first_row = first;
        return it->second;
      }
      if (end > start) start = end;  // read on from where it ends
    }
  }
  Reader& r = readers_[leaf];
  if (!r.reader) {
    r.reader = parquet::ColumnChunkReader::Make(file, rg, leaf, options);
    r.row_group = rg;
    r.next_row = 0;
    r.counted = parquet::ColumnReadCounters();
  } else if (r.row_group != rg || r.next_row > start) {
    r.reader->Reset(rg);
    r.row_group = rg;
    r.next_row = 0;
  }
  const int64_t rows = file.row_group_num_rows(rg);
  const size_t value_size = ValueSize(r.reader->descriptor().physical_type);
  auto short_column = [&] {
    r.row_group = -1;
    return parquet::ParquetError(file.Describe(rg, leaf) + ": column has fewer values than the row group's " +
                                 std::to_string(rows) + " rows");
  };
  const size_t gap = static_cast<size_t>(start - r.next_row);
  if (gap > 0 && r.reader->Skip(gap) != gap) throw short_column();
  r.next_row = start;
  while (true) {
    parquet::ColumnBatch batch;
    const size_t n = r.reader->ReadBatch(static_cast<size_t>(std::min(kSlots, rows - start)), &batch);
    if (n == 0) throw short_column();
    r.next_row = start + static_cast<int64_t>(n);
    const uint64_t size = batch.num_values * value_size + batch.def_levels.size() * sizeof(int16_t) + 64;
    if (bytes_ + size > budget_) {
      batches_.clear();
      bytes_ = 0;
    }
    bytes_ += size;
    const parquet::ColumnBatch& kept = batches_.insert_or_assign(std::make_tuple(file_index, rg, leaf, start), std::move(batch)).first->second;
    if (r.next_row > row) {
      *first_row = start;
      return kept;
    }
    start = r.next_row;
  }
}

void LookupBatchCache::ForgetReaders() {
  const parquet::ColumnReadCounters now = TakeCounters();
  taken_ = now;
  readers_.clear();
}

size_t LookupBatchCache::Copy(const parquet::ParquetFileReader& file, size_t file_index, int rg, int leaf, int64_t row,
                              size_t max_slots, const parquet::ColumnReaderOptions& options,
                              parquet::ColumnBatch* out) {
  int64_t start = 0;
  const parquet::ColumnBatch& kept = Find(file, file_index, rg, leaf, row, options, &start);
  const parquet::ColumnDescriptor& column = file.schema().column(leaf);
  const size_t from = static_cast<size_t>(row - start);
  const size_t n = std::min(max_slots, kept.num_levels - from);
  const int16_t max_def = column.max_definition_level;
  size_t first_value = from, values = n;
  if (max_def > 0 && kept.num_values == kept.num_levels) {  // no nulls: slots are values
    out->def_levels.assign(kept.def_levels.begin() + static_cast<ptrdiff_t>(from),
                           kept.def_levels.begin() + static_cast<ptrdiff_t>(from + n));
  } else if (max_def > 0) {
    first_value = static_cast<size_t>(std::count(kept.def_levels.begin(), kept.def_levels.begin() + static_cast<ptrdiff_t>(from), max_def));
    values = static_cast<size_t>(std::count(kept.def_levels.begin() + static_cast<ptrdiff_t>(from),
                                            kept.def_levels.begin() + static_cast<ptrdiff_t>(from + n), max_def));
    out->def_levels.assign(kept.def_levels.begin() + static_cast<ptrdiff_t>(from),
                           kept.def_levels.begin() + static_cast<ptrdiff_t>(from + n));
  }
  const size_t value_size = ValueSize(column.physical_type);
  uint8_t* target = out->mutable_values<uint8_t>(std::max<size_t>(values, 1) * value_size);
  if (values > 0) std::memcpy(target, kept.values<uint8_t>() + first_value * value_size, values * value_size);
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
