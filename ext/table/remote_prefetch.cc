// Prefetch planning for remote files (see remote_prefetch.h).
#include "ext/table/remote_prefetch.h"

#include <algorithm>

#include "format/common/error.h"
#include "format/index/page_index.h"

namespace sqlite_parquet {

std::vector<parquet::ByteRange> ChunkRangesForRows(const parquet::ParquetFileReader& file, int row_group, int leaf,
                                                   const parquet::RowRanges& rows) {
  const parquet::ColumnChunkRange chunk = file.column_chunk_range(row_group, leaf);
  const int64_t num_rows = file.row_group_num_rows(row_group);
  const bool all_rows = rows.num_ranges() == 1 && rows.range(0).begin == 0 && rows.range(0).end >= num_rows;
  std::optional<parquet::OffsetIndex> index;
  if (!all_rows) {
    try {
      index = parquet::ReadOffsetIndex(file, row_group, leaf);
    } catch (const parquet::ParquetError&) {
      index.reset();  // the reader will fall back too; fetch the whole chunk
    }
  }
  if (!index || index->page_locations.empty()) return {parquet::ByteRange{chunk.offset, chunk.length}};
  const std::vector<parquet::PageLocation>& pages = index->page_locations;
  std::vector<parquet::ByteRange> ranges;
  const uint64_t first_page = static_cast<uint64_t>(pages.front().offset);
  if (first_page > chunk.offset) ranges.push_back(parquet::ByteRange{chunk.offset, first_page - chunk.offset});
  for (size_t p = 0; p < pages.size(); p++) {
    const int64_t begin = pages[p].first_row_index;
    const int64_t end = p + 1 < pages.size() ? pages[p + 1].first_row_index : num_rows;
    // The first data page too: the column reader loads it before its first skip, which is
    // when it reads the offset index and jumps.
    if (p == 0 || rows.NextRowAtOrAfter(begin, end) < end) {
      ranges.push_back(parquet::ByteRange{static_cast<uint64_t>(pages[p].offset),
                                          static_cast<uint64_t>(std::max(0, pages[p].compressed_page_size))});
    }
  }
  return ranges;
}

void PrefetchPageIndexes(const parquet::ParquetFileReader& file, int row_group, const std::vector<int>& filter_leaves,
                         const std::vector<int>& read_leaves) {
  parquet::RandomAccessFile& source = file.file();
  if (!source.IsRemote()) return;
  source.DropPrefetched();
  if (filter_leaves.empty()) return;
  std::vector<parquet::ByteRange> ranges;
  auto add = [&](const std::optional<int64_t>& offset, const std::optional<int32_t>& length) {
    if (offset && length && *offset >= 0 && *length > 0) {
      ranges.push_back(parquet::ByteRange{static_cast<uint64_t>(*offset), static_cast<uint64_t>(*length)});
    }
  };
  const std::vector<parquet::ColumnChunk>& columns = file.row_group(row_group).columns;
  for (int leaf : filter_leaves) {
    if (leaf < 0 || static_cast<size_t>(leaf) >= columns.size()) continue;
    add(columns[static_cast<size_t>(leaf)].column_index_offset, columns[static_cast<size_t>(leaf)].column_index_length);
  }
  for (const std::vector<int>* leaves : {&filter_leaves, &read_leaves}) {
    for (int leaf : *leaves) {
      if (leaf < 0 || static_cast<size_t>(leaf) >= columns.size()) continue;
      add(columns[static_cast<size_t>(leaf)].offset_index_offset, columns[static_cast<size_t>(leaf)].offset_index_length);
    }
  }
  source.Prefetch(ranges);
}

void PrefetchRowGroup(const parquet::ParquetFileReader& file, int row_group, const std::vector<int>& leaves,
                      const parquet::RowRanges& rows) {
  parquet::RandomAccessFile& source = file.file();
  if (!source.IsRemote()) return;
  std::vector<parquet::ByteRange> ranges;
  for (int leaf : leaves) {
    if (leaf < 0 || leaf >= file.schema().num_columns()) continue;
    try {
      std::vector<parquet::ByteRange> chunk = ChunkRangesForRows(file, row_group, leaf, rows);
      ranges.insert(ranges.end(), chunk.begin(), chunk.end());
    } catch (const parquet::ParquetError&) {
      // A corrupt chunk is not prefetched: its reader reports it, in the scan's column order.
    }
  }
  source.Prefetch(ranges);
}

void ReadAheadRowGroups(const parquet::ParquetFileReader& file, int row_group, int depth, const std::vector<int>& leaves,
                        int64_t rows_wanted, int* queued_through) {
  parquet::RandomAccessFile& source = file.file();
  if (!source.IsRemote() || leaves.empty()) return;
  int64_t rows_covered = 0;
  const int last = std::min(file.num_row_groups() - 1, row_group + depth);
  for (int g = row_group + 1; g <= last; g++) {
    if (rows_wanted >= 0 && rows_covered >= rows_wanted) return;
    rows_covered += file.row_group_num_rows(g);
    if (g <= *queued_through) continue;
    std::vector<parquet::ByteRange> ranges;
    for (int leaf : leaves) {
      if (leaf < 0 || leaf >= file.schema().num_columns()) continue;
      try {
        const parquet::ColumnChunkRange chunk = file.column_chunk_range(g, leaf);
        ranges.push_back(parquet::ByteRange{chunk.offset, chunk.length});
      } catch (const parquet::ParquetError&) {
        // A corrupt chunk is not fetched ahead: its reader reports it when the scan gets there.
      }
    }
    if (!source.PrefetchAhead(ranges, static_cast<uint64_t>(g))) return;  // the window is full: later
    *queued_through = g;
  }
}

int ColumnsUsedHandles::HandleOf(uint64_t col_used) {
  if (col_used <= static_cast<uint64_t>(INT32_MAX)) return static_cast<int>(col_used);
  auto known = std::find(wide_masks_.begin(), wide_masks_.end(), col_used);
  if (known == wide_masks_.end()) {
    if (wide_masks_.size() >= kMaxWideMasks) return kAllColumnsHandle;
    known = wide_masks_.insert(wide_masks_.end(), col_used);
  }
  return -1 - static_cast<int>(known - wide_masks_.begin());
}

uint64_t ColumnsUsedHandles::ColumnsUsedOf(int handle) const {
  if (handle >= 0) return static_cast<uint64_t>(handle);
  if (handle == kAllColumnsHandle) return ~uint64_t{0};
  const size_t index = static_cast<size_t>(-1 - handle);
  return index < wide_masks_.size() ? wide_masks_[index] : ~uint64_t{0};
}

bool UsesColumn(uint64_t col_used, size_t column) { return ((col_used >> std::min<size_t>(column, 63)) & 1) != 0; }

}  // namespace sqlite_parquet
