// Reading and validating ColumnIndex / OffsetIndex of a column chunk, and mapping page
// selections to row ranges (see page_index.h).
#include "format/index/page_index.h"

#include <string>

#include "format/common/error.h"
#include "format/io/remote_file.h"

namespace parquet {

namespace {

// Bytes of the file that may hold column data or indexes: everything before the footer.
uint64_t DataEnd(const ParquetFileReader& file) {
  const uint64_t size = file.file().Size();
  const uint64_t tail = uint64_t{file.footer_length()} + 8;
  return size > tail ? size - tail : 0;
}

// Reads [offset, offset + length) of an index structure after checking it against the file.
// In an encrypted column the structure is one encrypted module, decrypted here.
std::vector<uint8_t> ReadIndexBytes(const ParquetFileReader& file, int row_group, int column, const char* what,
                                    ModuleType type, int64_t offset, std::optional<int32_t> length) {
  if (!length.has_value()) {
    throw ParquetError(file.Describe(row_group, column) + ": " + what + " at offset " + std::to_string(offset) +
                       " has no length");
  }
  const uint64_t end = DataEnd(file);
  if (offset < 4 || *length <= 0 || static_cast<uint64_t>(offset) > end ||
      static_cast<uint64_t>(*length) > end - static_cast<uint64_t>(offset)) {
    throw ParquetError(file.Describe(row_group, column) + ": " + what + " at offset " + std::to_string(offset) +
                       " of " + std::to_string(*length) + " bytes lies outside the file's data (" +
                       std::to_string(end) + " bytes before the footer)");
  }
  if (file.file().IsRemote() && static_cast<uint64_t>(*length) > kMaxRemotePageIndexBytes) {
    throw ParquetError(file.Describe(row_group, column) + ": " + what + " of " + std::to_string(*length) +
                       " bytes is larger than the " + std::to_string(kMaxRemotePageIndexBytes) +
                       " bytes a remote file's page index module may hold");
  }
  std::vector<uint8_t> bytes;
  const ModuleCipher* cipher = file.column_cipher(row_group, column);  // throws naming the chunk without a key
  try {
    ReadIndexModule(file.file(), static_cast<uint64_t>(offset), static_cast<size_t>(*length), cipher, type,
                    row_group, column, &bytes);
  } catch (const ParquetError& e) {
    throw ParquetError(file.Describe(row_group, column) + ": " + e.what());
  }
  return bytes;
}

}  // namespace

void ValidateOffsetIndex(const OffsetIndex& index, const ParquetFileReader& file, int row_group, int column) {
  const int64_t num_rows = file.row_group_num_rows(row_group);
  const std::vector<PageLocation>& pages = index.page_locations;
  auto fail = [&](size_t page, const std::string& message) {
    throw ParquetError(file.Describe(row_group, column) + ": offset index page " + std::to_string(page) + ": " +
                       message);
  };
  if (pages.empty()) {
    if (num_rows > 0) {
      throw ParquetError(file.Describe(row_group, column) + ": offset index lists no pages for " +
                         std::to_string(num_rows) + " rows");
    }
    return;
  }
  const ColumnChunkRange chunk = file.column_chunk_range(row_group, column);
  const uint64_t data_end = DataEnd(file);
  for (size_t i = 0; i < pages.size(); i++) {
    const PageLocation& page = pages[i];
    if (page.offset < 0 || static_cast<uint64_t>(page.offset) < chunk.offset ||
        static_cast<uint64_t>(page.offset) >= chunk.offset + chunk.length) {
      fail(i, "offset " + std::to_string(page.offset) + " lies outside the column chunk [" +
                  std::to_string(chunk.offset) + ", " + std::to_string(chunk.offset + chunk.length) + ")");
    }
    // Sizes may run past total_compressed_size (PARQUET-816 writers), never past the data.
    if (page.compressed_page_size <= 0 ||
        static_cast<uint64_t>(page.compressed_page_size) > data_end - static_cast<uint64_t>(page.offset)) {
      fail(i, "size " + std::to_string(page.compressed_page_size) + " at offset " + std::to_string(page.offset) +
                  " runs past the file's data");
    }
    if (i == 0 && page.first_row_index != 0) {
      fail(i, "first_row_index is " + std::to_string(page.first_row_index) + ", not 0");
    }
    if (page.first_row_index < 0 || page.first_row_index >= num_rows) {
      fail(i, "first_row_index " + std::to_string(page.first_row_index) + " is outside the row group's " +
                  std::to_string(num_rows) + " rows");
    }
    if (i > 0) {
      const PageLocation& previous = pages[i - 1];
      if (page.first_row_index <= previous.first_row_index) {
        fail(i, "first_row_index " + std::to_string(page.first_row_index) + " does not follow the previous page's " +
                    std::to_string(previous.first_row_index));
      }
      if (page.offset < previous.offset + previous.compressed_page_size) {
        fail(i, "offset " + std::to_string(page.offset) + " overlaps the previous page (ending at " +
                    std::to_string(previous.offset + previous.compressed_page_size) + ")");
      }
    }
  }
}

void ValidateColumnIndex(const ColumnIndex& index, const ParquetFileReader& file, int row_group, int column) {
  const size_t pages = index.null_pages.size();
  auto check = [&](const char* what, size_t size) {
    if (size != pages) {
      throw ParquetError(file.Describe(row_group, column) + ": column index has " + std::to_string(size) + " " + what +
                         " for " + std::to_string(pages) + " pages");
    }
  };
  check("min_values", index.min_values.size());
  check("max_values", index.max_values.size());
  if (index.null_counts.has_value()) check("null_counts", index.null_counts->size());
  if (index.nan_counts.has_value()) check("nan_counts", index.nan_counts->size());
}

std::optional<ColumnIndex> ReadColumnIndex(const ParquetFileReader& file, int row_group, int column) {
  const ColumnChunk& chunk = file.row_group(row_group).columns[static_cast<size_t>(column)];
  if (!chunk.column_index_offset.has_value()) return std::nullopt;
  std::vector<uint8_t> bytes =
      ReadIndexBytes(file, row_group, column, "column index", ModuleType::kColumnIndex, *chunk.column_index_offset,
                     chunk.column_index_length);
  ColumnIndex index;
  try {
    index = ParseColumnIndex(bytes.data(), bytes.size());
  } catch (const ParquetError& e) {
    throw ParquetError(file.Describe(row_group, column) + ": column index: " + e.what());
  }
  ValidateColumnIndex(index, file, row_group, column);
  return index;
}

std::optional<OffsetIndex> ReadOffsetIndex(const ParquetFileReader& file, int row_group, int column) {
  const ColumnChunk& chunk = file.row_group(row_group).columns[static_cast<size_t>(column)];
  if (!chunk.offset_index_offset.has_value()) return std::nullopt;
  std::vector<uint8_t> bytes =
      ReadIndexBytes(file, row_group, column, "offset index", ModuleType::kOffsetIndex, *chunk.offset_index_offset,
                     chunk.offset_index_length);
  OffsetIndex index;
  try {
    index = ParseOffsetIndex(bytes.data(), bytes.size());
  } catch (const ParquetError& e) {
    throw ParquetError(file.Describe(row_group, column) + ": offset index: " + e.what());
  }
  ValidateOffsetIndex(index, file, row_group, column);
  return index;
}

PageIndex ReadPageIndex(const ParquetFileReader& file, int row_group, int column) {
  PageIndex result;
  std::optional<ColumnIndex> column_index = ReadColumnIndex(file, row_group, column);
  std::optional<OffsetIndex> offset_index = ReadOffsetIndex(file, row_group, column);
  if (!column_index.has_value() || !offset_index.has_value()) return result;
  if (column_index->null_pages.size() != offset_index->page_locations.size()) {
    throw ParquetError(file.Describe(row_group, column) + ": column index has " +
                       std::to_string(column_index->null_pages.size()) + " pages, offset index " +
                       std::to_string(offset_index->page_locations.size()));
  }
  result.available = true;
  result.column_index = std::move(*column_index);
  result.offset_index = std::move(*offset_index);
  return result;
}

RowRange PageRowRange(const OffsetIndex& index, size_t page, int64_t row_group_rows) {
  const std::vector<PageLocation>& pages = index.page_locations;
  if (page >= pages.size()) {
    throw ParquetError("page " + std::to_string(page) + " is beyond the offset index's " +
                       std::to_string(pages.size()) + " pages");
  }
  int64_t end = page + 1 < pages.size() ? pages[page + 1].first_row_index : row_group_rows;
  return {pages[page].first_row_index, end};
}

RowRanges RowRangesOfPages(const OffsetIndex& index, int64_t row_group_rows, const std::vector<bool>& page_selected) {
  if (page_selected.size() != index.page_locations.size()) {
    throw ParquetError("page selection has " + std::to_string(page_selected.size()) + " entries for " +
                       std::to_string(index.page_locations.size()) + " pages");
  }
  RowRanges result;
  for (size_t i = 0; i < page_selected.size(); i++) {
    if (!page_selected[i]) continue;
    RowRange rows = PageRowRange(index, i, row_group_rows);
    result.Append(rows.begin, rows.end);
  }
  return result;
}

std::vector<size_t> PagesOverlapping(const OffsetIndex& index, int64_t row_group_rows, const RowRanges& rows) {
  std::vector<size_t> result;
  size_t r = 0;
  for (size_t i = 0; i < index.page_locations.size() && r < rows.num_ranges(); i++) {
    RowRange page = PageRowRange(index, i, row_group_rows);
    while (r < rows.num_ranges() && rows.range(r).end <= page.begin) r++;
    if (r < rows.num_ranges() && rows.range(r).begin < page.end) result.push_back(i);
  }
  return result;
}

}  // namespace parquet
