// Writing Parquet files: ParquetFileWriter lays out row groups of column chunks in a local
// file and finishes it with the footer (FileMetaData).
//
// File layout:
//   "PAR1"
//   per row group: <column chunks, in schema order> <bloom filters of its chunks, if any>
//   <ColumnIndex of every chunk that has one> <OffsetIndex of every chunk>  (page index)
//   <FileMetaData, thrift compact> <4-byte LE length> "PAR1"
// A column chunk is an optional dictionary page (PLAIN entries) followed by data pages
// (v1 or v2). Each page is a thrift PageHeader followed by its body; data pages start at
// row boundaries. A bloom filter is a BloomFilterHeader followed by its bitset
// (format/index/bloom_filter.h). ColumnMetaData points at the chunk's bloom filter, ColumnChunk
// at its page index.
//
// Statistics: every column chunk gets null_count, min_value/max_value in the column's
// order (signed integers; unsigned for UINT annotations; DECIMAL as signed big-endian
// integers; strings and binary as unsigned bytes; floats without NaN, zero written as -0.0
// for min and +0.0 for max; none for INT96, INTERVAL and FLOAT16), is_min/max_value_exact,
// nan_count for FLOAT/DOUBLE, and SizeStatistics (unencoded BYTE_ARRAY bytes; repetition /
// definition level histograms for the levels the column has). The same per page go into
// the ColumnIndex, not into the page headers.
//
// Usage: for each row group, StartRowGroup(); then the leaf columns' values in WriteBatch
// calls, in any order (columns may be interleaved: a caller can stream rows in small
// batches); then EndRowGroup(rows). Finally Close(). Each column chunk of the open row group
// is kept as finished pages (encoded and compressed as soon as they fill) plus its open page
// and dictionary; finished pages beyond WriterOptions::buffered_pages_limit wait in a spill
// file rather than in memory, so memory stays well under one compressed row group; the
// chunks go to the file in schema order at EndRowGroup. The file is complete only after Close(); a writer
// destroyed earlier leaves a truncated file behind (the caller writes to a temporary name
// and renames it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/crypto/encryption.h"
#include "format/write/content_defined_chunking.h"
#include "format/metadata/enums.h"
#include "format/metadata/metadata.h"
#include "format/common/physical_values.h"
#include "format/metadata/schema.h"
#include "format/common/version.h"
#include "format/platform/system.h"
#include "format/write/geoparquet_metadata.h"

namespace parquet {

// Whether `encoding` may encode the data pages of a leaf of physical type `type` (the
// per-type list below; PLAIN_DICTIONARY as RLE_DICTIONARY).
bool EncodingApplies(Encoding encoding, Type type);

struct WriterOptions {
  CompressionCodec codec = CompressionCodec::SNAPPY;
  std::optional<int> compression_level;  // codec-specific, see compression.h; nullopt = default
  int data_page_version = 1;             // 1: DATA_PAGE, 2: DATA_PAGE_V2
  // A data page is cut (at the next row boundary) once its encoded size passes this, or
  // once it holds 20000 level entries.
  size_t page_size = 256 << 10;
  // Dictionary-encode every column but BOOLEAN; a column chunk falls back (to PLAIN, or
  // see automatic_encoding) for the pages after the one during which its dictionary passed
  // dictionary_page_size_limit bytes.
  bool dictionary = true;
  size_t dictionary_page_size_limit = 1 << 20;
  bool write_crc = true;         // PageHeader.crc on every page
  bool write_statistics = true;  // column chunk statistics and the ColumnIndex (see above)
  std::string created_by = DefaultCreatedBy();  // "sqlite-parquet version <VERSION>"
  std::vector<KeyValue> key_value_metadata;
  // Per leaf column (by index): the value encoding of its data pages, instead of the
  // dictionary / PLAIN default. RLE_DICTIONARY (or PLAIN_DICTIONARY, written as
  // RLE_DICTIONARY) turns the dictionary on for that column even when `dictionary` is false.
  // Accepted per type: PLAIN (all), RLE (BOOLEAN), DELTA_BINARY_PACKED (INT32, INT64),
  // DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY), DELTA_BYTE_ARRAY (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY),
  // BYTE_STREAM_SPLIT (INT32, INT64, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY).
  // A column listed here never gets the automatic choice below.
  std::map<int, Encoding> column_encoding;  // each must pass EncodingApplies
  // Per leaf column (by index): the codec of its pages and its level, instead of `codec`
  // and `compression_level` (which the column then does not use).
  struct ColumnCompression {
    CompressionCodec codec = CompressionCodec::SNAPPY;
    std::optional<int> level;  // nullopt: the codec's default
  };
  std::map<int, ColumnCompression> column_compression;

  // Page index: ColumnIndex (page min/max, null_pages, boundary_order, null_counts,
  // nan_counts, level histograms) and OffsetIndex (page locations, unencoded BYTE_ARRAY
  // bytes) per column chunk, written after the last row group, before the footer. The
  // ColumnIndex is left out where it cannot be right: write_statistics off, a type without
  // an order (INT96, INTERVAL, FLOAT16), or a page whose non-null values are all NaN.
  bool write_page_index = true;
  // After each row group, ask the kernel to start writing the file's new bytes to disk
  // (Linux: sync_file_range, asynchronous; elsewhere nothing), so that an fsync at the end
  // (parquet_copy's) finds little left to write: the disk works while the next row groups
  // are encoded. Durability is the fsync's business, not this.
  bool start_writeback = false;
  // Leaf column indices that get a split-block bloom filter per column chunk, sized from the
  // chunk's exact number of distinct values (beyond 2^21 of them: sized for 2^24) for the
  // false-positive probability bloom_filter_fpp, which must be in (0, 1). BOOLEAN columns
  // in the list get none; an index out of range is an error.
  std::vector<int> bloom_filter_columns;
  double bloom_filter_fpp = 0.01;
  // Recorded in every RowGroup.sorting_columns (not checked against the data); column_idx
  // must be a leaf column index.
  std::vector<SortingColumn> sorting_columns;
  // BYTE_ARRAY min/max longer than this many bytes (0: no limit) are shortened: min to a
  // prefix, max to a prefix whose last byte that can grow grew by one (for UTF-8 text the
  // cut is at a character and the last character that can grow becomes the next one);
  // is_min/max_value_exact say so. A max that has no shorter upper bound (all 0xFF),
  // DECIMAL values and FIXED_LEN_BYTE_ARRAY values (readers expect type_length bytes) stay
  // whole. Applies to the ColumnIndex as well.
  size_t statistics_truncate_length = 64;
  // The automatic choice of value encodings, for columns without a column_encoding entry.
  // Each column type has one alternative to PLAIN: DELTA_BINARY_PACKED for INT32/INT64,
  // BYTE_STREAM_SPLIT for FLOAT/DOUBLE when a codec compresses the pages, and
  // DELTA_LENGTH_BYTE_ARRAY for BYTE_ARRAY (none for BOOLEAN, INT96, FIXED_LEN_BYTE_ARRAY).
  //  - With `dictionary` on, every column but BOOLEAN starts dictionary-encoded. After the
  //    first 4096 values and each time their number doubled, the dictionary is weighed
  //    against the alternative over the whole chunk as far as it can be foreseen (the values
  //    left in the current batch count; the distinct count is extrapolated): entries plus
  //    index bits against PLAIN bytes, or the delta-packed size estimated from the values'
  //    deltas for integers; sizes before compression. The dictionary ends when it is the
  //    larger, or at dictionary_page_size_limit: low-cardinality columns keep it; sorted
  //    integers leave it after 4096 values, unique columns after 8192 (values all
  //    different so far could be a long cycle, so the first look waits for a second).
  //  - What follows the dictionary (or, without a dictionary, the whole chunk) is PLAIN or
  //    the alternative, whichever encodes a sample of the chunk's first values (up to 4096,
  //    256 KiB) smaller after compression with the chunk's codec. Without a dictionary the
  //    first page ends after those values, which are encoded the chosen way too.
  // Measured on TPC-H-like line items (1M rows, snappy) this comes to about 13 % smaller
  // files than DuckDB's (sorted keys become deltas; prices with two decimals stay PLAIN:
  // their byte streams compress worse). Off: dictionary (if on) with fallback to PLAIN,
  // otherwise PLAIN.
  bool automatic_encoding = true;
  // Parquet modular encryption (format/crypto/encryption.h); null: a plaintext file. Every module
  // of an encrypted column (page headers, pages, dictionary page, column and offset index,
  // bloom filter header and bitset) is encrypted with a fresh random nonce; the file gets a
  // random 8-byte aad_file_unique. Columns with their own key (and, with a plaintext footer,
  // every encrypted column) carry their ColumnMetaData encrypted in
  // encrypted_column_metadata; a plaintext footer keeps a copy without statistics for
  // readers without the key, and is signed with the footer key. Page CRCs cover the
  // encrypted page bytes.
  std::shared_ptr<const FileEncryptionProperties> encryption;
  // Finished pages of the open row group held in memory (all columns together) before they
  // go to a spill file: an unlinked temporary file beside the output, copied into place
  // (copy_file_range) when the row group ends, since each column chunk must be contiguous.
  // Memory then is this much plus the open pages and dictionaries, instead of the whole
  // compressed row group. SIZE_MAX: never spill.
  size_t buffered_pages_limit = 64 * 1024;
  // The GeoParquet `geo` key/value metadata (geoparquet_metadata.h), written at Close with
  // the geometry types and bounding box of every value written to its columns; those
  // columns gather them even without a GEOMETRY / GEOGRAPHY annotation (GeoParquet 1.0
  // files store plain BYTE_ARRAY). No version: none is written; a `geo` entry in
  // key_value_metadata is written instead of this one (the caller's wins).
  GeoParquetOptions geoparquet;
  // Content-defined chunking (content_defined_chunking.h): when enabled, a data page also
  // ends where a rolling hash of the column's values says so, so that equal runs of values
  // give equal pages wherever they sit in the column.
  ContentDefinedChunkingOptions cdc;
};

class ColumnChunkWriter;  // one column chunk being buffered (column_chunk_writer.h)
class PageSpill;          // the spill file of finished pages (page_spill.h)
struct PageScratch;       // buffers of page assembly, shared by the chunks (column_chunk_writer.h)

class ParquetFileWriter {
 public:
  // Creates (or truncates) the file at `path` and writes the leading magic. `schema` is the
  // flat depth-first SchemaElement list of the footer, root first. Throws ParquetError for
  // a malformed schema, invalid options or a file that cannot be created.
  ParquetFileWriter(const std::string& path, std::vector<SchemaElement> schema,
                    WriterOptions options = {});
  // Writes to `file`, an empty file open for writing that the writer takes over (and closes,
  // also when the constructor throws); `path` names it in messages, and the spill file goes
  // beside it. The file is never opened by name. A closed File: as the constructor above.
  ParquetFileWriter(platform::File file, const std::string& path, std::vector<SchemaElement> schema,
                    WriterOptions options = {});
  ~ParquetFileWriter();
  ParquetFileWriter(const ParquetFileWriter&) = delete;
  ParquetFileWriter& operator=(const ParquetFileWriter&) = delete;

  void StartRowGroup();

  // Appends slots to leaf column `column` of the open row group: num_levels level entries,
  // and the non-null values (num_values == count of def_levels[i] == max_definition_level).
  // def_levels / rep_levels may be null when the column's max level is 0 (they are then
  // ignored). T = bool, int32_t, int64_t, Int96, float, double, ByteArray (BYTE_ARRAY and
  // FIXED_LEN_BYTE_ARRAY, whose values must be type_length bytes long). Values are copied.
  // Columns may come in any order and take any number of calls; a column that gets none
  // has no rows. The batch is checked before anything is written: a
  // ParquetError for a bad batch leaves the writer as it was.
  template <typename T>
  void WriteBatch(int column, size_t num_levels, const int16_t* def_levels,
                  const int16_t* rep_levels, const T* values, size_t num_values);

  // Every column must hold exactly num_rows rows (entries with repetition level 0).
  void EndRowGroup(int64_t num_rows);

  // Writes the footer and closes the file. The file is complete only after Close. Closing
  // again does nothing.
  void Close();

  // The file written to, open until Close (for a caller that keeps a duplicate to read the
  // file back once complete, rather than a descriptor per file all along).
  const platform::File& file() const { return file_; }
  const Schema& schema() const { return schema_; }
  const WriterOptions& options() const { return options_; }
  // The footer: row groups so far, complete after Close.
  const FileMetaData& metadata() const { return metadata_; }
  uint64_t bytes_written() const { return offset_; }

 private:
  void RequireWritable() const;
  ColumnChunkWriter& WriterForColumn(int column);
  std::unique_ptr<ColumnChunkWriter> MakeColumnWriter(int column) const;
  std::unique_ptr<ColumnChunkWriter> MakePlainColumnWriter(int column) const;
  // Writes the open column chunk to the file and records its metadata.
  void FinishColumn();
  void WriteBytes(const void* data, size_t size);
  void StartWriteback();  // options_.start_writeback
  void CloseFile();
  int32_t IndexLength(const std::string& index) const;
  // Encryption: sets up ciphers_ and column_cipher_ from options_.encryption.
  void SetUpEncryption();
  const ModuleCipher* ColumnCipher(size_t column) const;
  void EncryptColumnMetadata();
  std::string EncryptedFooter() const;

  // The serialized page index of a column chunk, written at Close.
  struct PendingPageIndex {
    size_t row_group = 0;
    size_t column = 0;
    std::string column_index;  // empty: the chunk has none
    std::string offset_index;
  };

  std::string path_;
  platform::File file_;
  uint64_t offset_ = 0;
  uint64_t writeback_offset_ = 0;  // bytes before this were handed to StartWriteback already
  Schema schema_;
  WriterOptions options_;
  FileMetaData metadata_;
  bool closed_ = false;
  bool failed_ = false;  // an I/O error or an inconsistent row group: no more writing

  bool row_group_open_ = false;
  RowGroup row_group_;
  std::vector<int64_t> column_rows_;  // rows written per column in the open row group
  int current_column_ = -1;           // column whose chunk FinishColumn writes, or -1
  std::unique_ptr<ColumnChunkWriter> column_writer_;  // that chunk
  // Per column of the open row group: its chunk being buffered (null: no batch yet).
  std::vector<std::unique_ptr<ColumnChunkWriter>> open_chunks_;
  std::vector<bool> bloom_filter_column_;               // per leaf column
  std::vector<std::string> row_group_bloom_filters_;    // serialized, per column of the open row group
  std::vector<PendingPageIndex> page_indexes_;          // every chunk so far
  // Encryption: ciphers_[0] has the footer key; column_cipher_[c] indexes ciphers_ (-1:
  // plaintext column). Empty without encryption.
  std::vector<ModuleCipher> ciphers_;
  std::vector<int> column_cipher_;
  std::string aad_file_unique_;
  std::unique_ptr<PageSpill> spill_;  // finished pages of the open row group beyond the limit
  std::unique_ptr<PageScratch> scratch_;
  std::vector<GeospatialAccumulator> geoparquet_summaries_;  // per options_.geoparquet column
};

extern template void ParquetFileWriter::WriteBatch<bool>(int, size_t, const int16_t*, const int16_t*,
                                                         const bool*, size_t);
extern template void ParquetFileWriter::WriteBatch<int32_t>(int, size_t, const int16_t*,
                                                            const int16_t*, const int32_t*, size_t);
extern template void ParquetFileWriter::WriteBatch<int64_t>(int, size_t, const int16_t*,
                                                            const int16_t*, const int64_t*, size_t);
extern template void ParquetFileWriter::WriteBatch<Int96>(int, size_t, const int16_t*, const int16_t*,
                                                          const Int96*, size_t);
extern template void ParquetFileWriter::WriteBatch<float>(int, size_t, const int16_t*, const int16_t*,
                                                          const float*, size_t);
extern template void ParquetFileWriter::WriteBatch<double>(int, size_t, const int16_t*, const int16_t*,
                                                           const double*, size_t);
extern template void ParquetFileWriter::WriteBatch<ByteArray>(int, size_t, const int16_t*,
                                                              const int16_t*, const ByteArray*, size_t);

}  // namespace parquet
