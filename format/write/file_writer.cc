// ParquetFileWriter (see file_writer.h): options checks, row groups of column chunks
// written in schema order, bloom filters and the page index placed after them, encryption
// of column metadata and footer, and the footer itself. Each column chunk is written by a
// typed column writer (typed_column_writer.h) on top of ColumnChunkWriter
// (column_chunk_writer.h), whose finished pages may wait in a PageSpill (page_spill.h).
#include "format/write/file_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "format/index/bloom_filter.h"
#include "format/write/column_chunk_writer.h"
#include "format/codec/compression.h"
#include "format/common/error.h"
#include "format/platform/system.h"
#include "format/write/page_spill.h"
#include "format/write/typed_column_writer.h"

namespace parquet {

namespace {

constexpr char kMagic[4] = {'P', 'A', 'R', '1'};
constexpr char kEncryptedMagic[4] = {'P', 'A', 'R', 'E'};

template <typename T> constexpr const char* kValueTypeName = "";
template <> inline constexpr const char* kValueTypeName<bool> = "bool";
template <> inline constexpr const char* kValueTypeName<int32_t> = "int32_t";
template <> inline constexpr const char* kValueTypeName<int64_t> = "int64_t";
template <> inline constexpr const char* kValueTypeName<Int96> = "Int96";
template <> inline constexpr const char* kValueTypeName<float> = "float";
template <> inline constexpr const char* kValueTypeName<double> = "double";
template <> inline constexpr const char* kValueTypeName<ByteArray> = "ByteArray";

template <typename T>
bool StoresPhysicalType(Type type) {
  if constexpr (std::is_same_v<T, bool>) return type == Type::BOOLEAN;
  if constexpr (std::is_same_v<T, int32_t>) return type == Type::INT32;
  if constexpr (std::is_same_v<T, int64_t>) return type == Type::INT64;
  if constexpr (std::is_same_v<T, Int96>) return type == Type::INT96;
  if constexpr (std::is_same_v<T, float>) return type == Type::FLOAT;
  if constexpr (std::is_same_v<T, double>) return type == Type::DOUBLE;
  if constexpr (std::is_same_v<T, ByteArray>) {
    return type == Type::BYTE_ARRAY || type == Type::FIXED_LEN_BYTE_ARRAY;
  }
  return false;
}

void AppendLittleEndian32(uint32_t value, std::string* out) {
  char bytes[4] = {static_cast<char>(value), static_cast<char>(value >> 8),
                   static_cast<char>(value >> 16), static_cast<char>(value >> 24)};
  out->append(bytes, 4);
}

}  // namespace

bool EncodingApplies(Encoding encoding, Type type) {
  switch (encoding) {
    case Encoding::PLAIN:
      return true;
    case Encoding::RLE:
      return type == Type::BOOLEAN;
    case Encoding::PLAIN_DICTIONARY:
    case Encoding::RLE_DICTIONARY:
      return type != Type::BOOLEAN;
    case Encoding::DELTA_BINARY_PACKED:
      return type == Type::INT32 || type == Type::INT64;
    case Encoding::DELTA_LENGTH_BYTE_ARRAY:
      return type == Type::BYTE_ARRAY;
    case Encoding::DELTA_BYTE_ARRAY:
      return type == Type::BYTE_ARRAY || type == Type::FIXED_LEN_BYTE_ARRAY;
    case Encoding::BYTE_STREAM_SPLIT:
      return type == Type::INT32 || type == Type::INT64 || type == Type::FLOAT ||
             type == Type::DOUBLE || type == Type::FIXED_LEN_BYTE_ARRAY;
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------
// ParquetFileWriter

ParquetFileWriter::ParquetFileWriter(const std::string& path, std::vector<SchemaElement> schema,
                                     WriterOptions options)
    : ParquetFileWriter(platform::File(), path, std::move(schema), std::move(options)) {}

ParquetFileWriter::ParquetFileWriter(platform::File file, const std::string& path, std::vector<SchemaElement> schema,
                                     WriterOptions options)
    : path_(path) {
  // Owns `file` from here on: closed if anything below throws.
  platform::File adopted = std::move(file);
  schema_ = Schema::FromElements(schema);
  options_ = std::move(options);
  if (schema_.num_columns() == 0) throw ParquetError("schema '" + schema[0].name + "' has no columns");
  if (options_.data_page_version != 1 && options_.data_page_version != 2) {
    throw ParquetError("data page version " + std::to_string(options_.data_page_version) +
                       " is not 1 or 2");
  }
  {
    // Rejects an unsupported codec or a level out of range now rather than at the first page.
    std::string probe;
    Compress(options_.codec, nullptr, 0, options_.compression_level, &probe);
  }
  for (const auto& [column, compression] : options_.column_compression) {
    if (column < 0 || column >= schema_.num_columns()) {
      throw ParquetError("compression override for column " + std::to_string(column) +
                         ", but the schema has " + std::to_string(schema_.num_columns()) + " columns");
    }
    std::string probe;
    Compress(compression.codec, nullptr, 0, compression.level, &probe);
  }
  for (const auto& [column, encoding] : options_.column_encoding) {
    if (column < 0 || column >= schema_.num_columns()) {
      throw ParquetError("encoding override for column " + std::to_string(column) +
                         ", but the schema has " + std::to_string(schema_.num_columns()) + " columns");
    }
    const ColumnDescriptor& descriptor = schema_.column(column);
    if (!EncodingApplies(encoding, descriptor.physical_type)) {
      throw ParquetError("encoding " + ToString(encoding) + " does not apply to " +
                         ToString(descriptor.physical_type) + " column '" + descriptor.dotted_path + "'");
    }
  }
  bloom_filter_column_.assign(static_cast<size_t>(schema_.num_columns()), false);
  for (int column : options_.bloom_filter_columns) {
    if (column < 0 || column >= schema_.num_columns()) {
      throw ParquetError("bloom filter for column " + std::to_string(column) + ", but the schema has " +
                         std::to_string(schema_.num_columns()) + " columns");
    }
    // BOOLEAN columns get none: two values, which the statistics already tell apart.
    if (schema_.column(column).physical_type != Type::BOOLEAN) {
      bloom_filter_column_[static_cast<size_t>(column)] = true;
    }
  }
  if (!options_.bloom_filter_columns.empty()) {
    BloomFilter::OptimalNumBytes(0, options_.bloom_filter_fpp);  // rejects an fpp outside (0, 1)
  }
  for (const SortingColumn& sorting : options_.sorting_columns) {
    if (sorting.column_idx < 0 || sorting.column_idx >= schema_.num_columns()) {
      throw ParquetError("sorting column " + std::to_string(sorting.column_idx) + ", but the schema has " +
                         std::to_string(schema_.num_columns()) + " columns");
    }
  }
  metadata_.version = 2;
  metadata_.schema = std::move(schema);
  SetUpEncryption();
  scratch_ = std::make_unique<PageScratch>();
  if (options_.buffered_pages_limit != std::numeric_limits<size_t>::max()) {
    spill_ = std::make_unique<PageSpill>(path_, options_.buffered_pages_limit);
  }

  if (adopted.is_open()) {
    file_ = std::move(adopted);
  } else if (std::string error = platform::DeviceNameError(path_); !error.empty()) {
    throw ParquetError("cannot create '" + path_ + "': " + error);
  } else if (platform::SystemResult created = platform::CreateForWriting(path_, &file_); !created.ok()) {
    throw ParquetError("cannot create '" + path_ + "': " + created.text);
  }
  try {
    const bool encrypted_footer = options_.encryption != nullptr && !options_.encryption->plaintext_footer;
    WriteBytes(encrypted_footer ? kEncryptedMagic : kMagic, sizeof(kMagic));
  } catch (...) {
    file_ = platform::File();
    throw;
  }
}

ParquetFileWriter::~ParquetFileWriter() = default;

void ParquetFileWriter::RequireWritable() const {
  if (closed_) throw ParquetError("parquet writer for '" + path_ + "' is already closed");
  if (failed_) throw ParquetError("parquet writer for '" + path_ + "' failed earlier; the file is incomplete");
}

void ParquetFileWriter::StartRowGroup() {
  RequireWritable();
  if (row_group_open_) throw ParquetError("a row group is already open: call EndRowGroup first");
  row_group_open_ = true;
  row_group_ = RowGroup();
  row_group_.columns.assign(static_cast<size_t>(schema_.num_columns()), ColumnChunk());
  column_rows_.assign(static_cast<size_t>(schema_.num_columns()), 0);
  row_group_bloom_filters_.assign(static_cast<size_t>(schema_.num_columns()), std::string());
  current_column_ = -1;
  open_chunks_.clear();
  open_chunks_.resize(static_cast<size_t>(schema_.num_columns()));
  if (spill_) spill_->Reset();  // nothing of an earlier row group is held
}

std::unique_ptr<ColumnChunkWriter> ParquetFileWriter::MakeColumnWriter(int column) const {
  std::unique_ptr<ColumnChunkWriter> writer = MakePlainColumnWriter(column);
  writer->SetEncryption(ColumnCipher(static_cast<size_t>(column)), static_cast<int>(metadata_.row_groups.size()), column);
  writer->SetSpill(spill_.get());
  writer->SetScratch(scratch_.get());
  return writer;
}

std::unique_ptr<ColumnChunkWriter> ParquetFileWriter::MakePlainColumnWriter(int column) const {
  const ColumnDescriptor& descriptor = schema_.column(column);
  const SchemaNode& node = schema_.node(descriptor.node);
  Encoding encoding = Encoding::PLAIN;
  if (options_.dictionary && descriptor.physical_type != Type::BOOLEAN) encoding = Encoding::RLE_DICTIONARY;
  bool automatic = options_.automatic_encoding;
  auto chosen = options_.column_encoding.find(column);
  if (chosen != options_.column_encoding.end()) {
    encoding = chosen->second == Encoding::PLAIN_DICTIONARY ? Encoding::RLE_DICTIONARY : chosen->second;
    automatic = false;
  }
  const bool bloom = bloom_filter_column_[static_cast<size_t>(column)];
  return MakeTypedColumnWriter(descriptor, column, node, options_, encoding, automatic, bloom);
}

ColumnChunkWriter& ParquetFileWriter::WriterForColumn(int column) {
  RequireWritable();
  if (!row_group_open_) throw ParquetError("no row group is open: call StartRowGroup first");
  if (column < 0 || column >= schema_.num_columns()) {
    throw ParquetError("column index " + std::to_string(column) + " is out of range (the schema has " +
                       std::to_string(schema_.num_columns()) + " columns)");
  }
  std::unique_ptr<ColumnChunkWriter>& chunk = open_chunks_[static_cast<size_t>(column)];
  if (!chunk) chunk = MakeColumnWriter(column);
  return *chunk;
}

template <typename T>
void ParquetFileWriter::WriteBatch(int column, size_t num_levels, const int16_t* def_levels,
                                   const int16_t* rep_levels, const T* values, size_t num_values) {
  RequireWritable();
  if (column >= 0 && column < schema_.num_columns() &&
      !StoresPhysicalType<T>(schema_.column(column).physical_type)) {
    throw ParquetError("column '" + schema_.column(column).dotted_path + "' is " +
                       ToString(schema_.column(column).physical_type) + ", it cannot take " +
                       kValueTypeName<T> + " values");
  }
  ColumnChunkWriter& writer = WriterForColumn(column);
  CheckTypedBatch(writer, num_levels, def_levels, rep_levels, values, num_values);
  try {
    AppendTypedBatch(writer, num_levels, def_levels, rep_levels, values, num_values);
  } catch (...) {
    failed_ = true;  // part of the batch may be in the chunk
    throw;
  }
}

void ParquetFileWriter::FinishColumn() {
  try {
    ColumnChunkWriter& writer = *column_writer_;
    writer.Finish();
    const int64_t chunk_offset = static_cast<int64_t>(offset_);
    WriteBytes(writer.dictionary_page().data(), writer.dictionary_page().size());
    for (const auto& [spill_offset, size] : writer.spilled_pages()) {
      spill_->CopyTo(file_, spill_offset, size, path_);
      offset_ += size;
    }
    for (const std::string& page : writer.data_pages()) WriteBytes(page.data(), page.size());
    writer.ReleaseHeldPages();
    ColumnChunk& chunk = row_group_.columns[static_cast<size_t>(current_column_)];
    chunk.file_offset = chunk_offset;
    chunk.meta_data = writer.Metadata(chunk_offset);
    column_rows_[static_cast<size_t>(current_column_)] = writer.rows();
    if (options_.write_page_index) {
      OffsetIndex offset_index;
      std::optional<ColumnIndex> column_index;
      writer.PageIndex(chunk.meta_data->data_page_offset, &offset_index, &column_index);
      PendingPageIndex pending;
      pending.row_group = metadata_.row_groups.size();
      pending.column = static_cast<size_t>(current_column_);
      pending.offset_index = Serialize(offset_index);
      if (column_index.has_value()) pending.column_index = Serialize(*column_index);
      page_indexes_.push_back(std::move(pending));
    }
    row_group_bloom_filters_[static_cast<size_t>(current_column_)] = writer.BloomFilterBytes();
    if (const GeospatialAccumulator* geospatial = writer.geospatial()) {
      for (size_t i = 0; i < options_.geoparquet.columns.size(); i++) {
        if (options_.geoparquet.columns[i].leaf_column != current_column_) continue;
        geoparquet_summaries_.resize(options_.geoparquet.columns.size());
        geoparquet_summaries_[i].Merge(*geospatial);
      }
    }
  } catch (...) {
    failed_ = true;
    throw;
  }
  column_writer_.reset();
  current_column_ = -1;
}

void ParquetFileWriter::EndRowGroup(int64_t num_rows) {
  RequireWritable();
  if (!row_group_open_) throw ParquetError("no row group is open: call StartRowGroup first");
  // Check every column's row count first, so that a mistake leaves the row group open.
  for (int c = 0; c < schema_.num_columns(); c++) {
    const std::unique_ptr<ColumnChunkWriter>& chunk = open_chunks_[static_cast<size_t>(c)];
    const int64_t rows = chunk ? chunk->rows() : 0;
    if (rows != num_rows) {
      throw ParquetError("column '" + schema_.column(c).dotted_path + "' has " + std::to_string(rows) +
                         " rows but the row group has " + std::to_string(num_rows));
    }
  }
  // The chunks go to the file in schema order; columns without rows get empty chunks.
  for (int c = 0; c < schema_.num_columns(); c++) {
    std::unique_ptr<ColumnChunkWriter>& chunk = open_chunks_[static_cast<size_t>(c)];
    column_writer_ = chunk ? std::move(chunk) : MakeColumnWriter(c);
    current_column_ = c;
    FinishColumn();
  }
  open_chunks_.clear();
  // Page buffers grown by large pages are given back between row groups (a writer per
  // partition may stay open long after its last row group).
  constexpr size_t kKeptScratch = 64 * 1024;
  for (std::string* buffer : {&scratch_->values, &scratch_->body, &scratch_->compressed}) {
    if (buffer->capacity() > kKeptScratch) std::string().swap(*buffer);
  }
  if (spill_) {
    try {
      spill_->Reset();
    } catch (...) {
      failed_ = true;
      throw;
    }
  }
  row_group_.num_rows = num_rows;
  int64_t uncompressed = 0, compressed = 0;
  for (const ColumnChunk& chunk : row_group_.columns) {
    uncompressed += chunk.meta_data->total_uncompressed_size;
    compressed += chunk.meta_data->total_compressed_size;
  }
  row_group_.total_byte_size = uncompressed;
  row_group_.total_compressed_size = compressed;
  row_group_.file_offset = row_group_.columns[0].file_offset;
  if (!options_.sorting_columns.empty()) row_group_.sorting_columns = options_.sorting_columns;
  // The row group's bloom filters follow its column chunks.
  try {
    for (size_t c = 0; c < row_group_bloom_filters_.size(); c++) {
      std::string& filter = row_group_bloom_filters_[c];
      if (filter.empty()) continue;
      ColumnMetaData& meta = *row_group_.columns[c].meta_data;
      if (const ModuleCipher* cipher = ColumnCipher(c)) {
        // Header and bitset are two modules.
        size_t header_size = 0;
        ParseBloomFilterHeader(BytesOf(filter), filter.size(), &header_size);
        const int rg = static_cast<int>(metadata_.row_groups.size()), column = static_cast<int>(c);
        filter = cipher->Encrypt(ModuleType::kBloomFilterHeader, std::string_view(filter).substr(0, header_size), rg, column) +
                 cipher->Encrypt(ModuleType::kBloomFilterBitset, std::string_view(filter).substr(header_size), rg, column);
      }
      meta.bloom_filter_offset = static_cast<int64_t>(offset_);
      meta.bloom_filter_length = static_cast<int32_t>(filter.size());
      WriteBytes(filter.data(), filter.size());
      std::string().swap(filter);
    }
  } catch (...) {
    failed_ = true;
    throw;
  }
  const size_t ordinal = metadata_.row_groups.size();
  if (ordinal <= static_cast<size_t>(std::numeric_limits<int16_t>::max())) {
    row_group_.ordinal = static_cast<int16_t>(ordinal);
  }
  metadata_.row_groups.push_back(std::move(row_group_));
  metadata_.num_rows += num_rows;
  row_group_ = RowGroup();
  row_group_open_ = false;
  if (options_.start_writeback) StartWriteback();
}

void ParquetFileWriter::Close() {
  if (closed_) return;
  RequireWritable();
  if (row_group_open_) throw ParquetError("a row group is still open: call EndRowGroup before Close");
  try {
    metadata_.created_by = options_.created_by;
    if (!options_.key_value_metadata.empty()) metadata_.key_value_metadata = options_.key_value_metadata;
    // A `geo` entry the caller gave in key_value_metadata is written as given, in place of ours.
    bool caller_geo = false;
    for (const KeyValue& entry : options_.key_value_metadata) caller_geo = caller_geo || entry.key == "geo";
    if (!options_.geoparquet.version.empty() && !options_.geoparquet.columns.empty() && !caller_geo) {
      if (!metadata_.key_value_metadata) metadata_.key_value_metadata.emplace();
      metadata_.key_value_metadata->push_back(
          KeyValue{"geo", GeoParquetMetadataJson(options_.geoparquet, geoparquet_summaries_)});
    }
    metadata_.column_orders = std::vector<ColumnOrder>(static_cast<size_t>(schema_.num_columns()),
                                                       ColumnOrder{ColumnOrder::Kind::TYPE_DEFINED_ORDER});
    // The page index: every column index, then every offset index.
    for (PendingPageIndex& pending : page_indexes_) {
      if (const ModuleCipher* cipher = ColumnCipher(pending.column)) {
        const int rg = static_cast<int>(pending.row_group), column = static_cast<int>(pending.column);
        if (!pending.column_index.empty()) {
          pending.column_index = cipher->Encrypt(ModuleType::kColumnIndex, pending.column_index, rg, column);
        }
        pending.offset_index = cipher->Encrypt(ModuleType::kOffsetIndex, pending.offset_index, rg, column);
      }
    }
    for (const PendingPageIndex& pending : page_indexes_) {
      if (pending.column_index.empty()) continue;
      ColumnChunk& chunk = metadata_.row_groups[pending.row_group].columns[pending.column];
      chunk.column_index_offset = static_cast<int64_t>(offset_);
      chunk.column_index_length = IndexLength(pending.column_index);
      WriteBytes(pending.column_index.data(), pending.column_index.size());
    }
    for (const PendingPageIndex& pending : page_indexes_) {
      ColumnChunk& chunk = metadata_.row_groups[pending.row_group].columns[pending.column];
      chunk.offset_index_offset = static_cast<int64_t>(offset_);
      chunk.offset_index_length = IndexLength(pending.offset_index);
      WriteBytes(pending.offset_index.data(), pending.offset_index.size());
    }
    page_indexes_.clear();
    std::string footer;
    if (options_.encryption != nullptr) {
      EncryptColumnMetadata();
      footer = EncryptedFooter();
    } else {
      footer = Serialize(metadata_);
    }
    if (footer.size() > std::numeric_limits<uint32_t>::max()) {
      throw ParquetError("footer of " + std::to_string(footer.size()) + " bytes is too large");
    }
    AppendLittleEndian32(static_cast<uint32_t>(footer.size()), &footer);
    const bool encrypted_footer = options_.encryption != nullptr && !options_.encryption->plaintext_footer;
    footer.append(encrypted_footer ? kEncryptedMagic : kMagic, sizeof(kMagic));
    WriteBytes(footer.data(), footer.size());
    CloseFile();
  } catch (...) {
    failed_ = true;
    throw;
  }
  closed_ = true;
}

void ParquetFileWriter::SetUpEncryption() {
  if (options_.encryption == nullptr) return;
  const FileEncryptionProperties& encryption = *options_.encryption;
  if (!IsValidAesKeyLength(encryption.footer_key.size())) {
    throw ParquetError("the footer key is " + std::to_string(encryption.footer_key.size()) +
                       " bytes long; AES keys are 16, 24 or 32 bytes");
  }
  if (encryption.algorithm == EncryptionAlgorithm::Kind::UNRECOGNIZED) throw ParquetError("unknown encryption algorithm");
  aad_file_unique_ = RandomBytes(8);
  const std::string file_aad = encryption.aad_prefix.value_or(std::string()) + aad_file_unique_;
  ciphers_.push_back(ModuleCipher{encryption.algorithm, encryption.footer_key, file_aad});
  auto find_column = [this](const std::string& path, const char* what) {
    for (int c = 0; c < schema_.num_columns(); c++) {
      if (schema_.column(c).dotted_path == path) return c;
    }
    throw ParquetError(std::string(what) + " names column '" + path + "', which is not a leaf column of the file");
  };
  column_cipher_.assign(static_cast<size_t>(schema_.num_columns()), encryption.encrypt_all_columns ? 0 : -1);
  for (const auto& [path, key] : encryption.column_keys) {
    const int column = find_column(path, "column_keys");
    if (!IsValidAesKeyLength(key.size())) {
      throw ParquetError("the key of column '" + path + "' is " + std::to_string(key.size()) +
                         " bytes long; AES keys are 16, 24 or 32 bytes");
    }
    ciphers_.push_back(ModuleCipher{encryption.algorithm, key, file_aad});
    column_cipher_[static_cast<size_t>(column)] = static_cast<int>(ciphers_.size() - 1);
  }
  for (const auto& [path, key_metadata] : encryption.column_key_metadata) find_column(path, "column_key_metadata");
  for (const std::string& path : encryption.plaintext_columns) {
    column_cipher_[static_cast<size_t>(find_column(path, "plaintext_columns"))] = -1;
  }
}

const ModuleCipher* ParquetFileWriter::ColumnCipher(size_t column) const {
  if (column_cipher_.empty() || column_cipher_[column] < 0) return nullptr;
  return &ciphers_[static_cast<size_t>(column_cipher_[column])];
}

// Sets crypto_metadata on every encrypted chunk and moves ColumnMetaData into
// encrypted_column_metadata where the footer does not protect it.
void ParquetFileWriter::EncryptColumnMetadata() {
  const FileEncryptionProperties& encryption = *options_.encryption;
  for (size_t g = 0; g < metadata_.row_groups.size(); g++) {
    for (size_t c = 0; c < metadata_.row_groups[g].columns.size(); c++) {
      const ModuleCipher* cipher = ColumnCipher(c);
      if (cipher == nullptr) continue;
      ColumnChunk& chunk = metadata_.row_groups[g].columns[c];
      const bool own_key = column_cipher_[c] != 0;
      ColumnCryptoMetaData crypto;
      if (own_key) {
        crypto.kind = ColumnCryptoMetaData::Kind::WITH_COLUMN_KEY;
        crypto.path_in_schema = schema_.column(static_cast<int>(c)).path;
        auto metadata = encryption.column_key_metadata.find(schema_.column(static_cast<int>(c)).dotted_path);
        if (metadata != encryption.column_key_metadata.end()) crypto.key_metadata = metadata->second;
      }
      chunk.crypto_metadata = crypto;
      if (!own_key && !encryption.plaintext_footer) continue;  // the encrypted footer protects it
      chunk.encrypted_column_metadata = cipher->Encrypt(ModuleType::kColumnMetaData, Serialize(*chunk.meta_data),
                                                        static_cast<int>(g), static_cast<int>(c));
      if (encryption.plaintext_footer) {
        // For readers without the key: where the chunk is, not what is in it.
        chunk.meta_data->statistics.reset();
        chunk.meta_data->encoding_stats.reset();
        chunk.meta_data->size_statistics.reset();
        chunk.meta_data->geospatial_statistics.reset();
      } else {
        chunk.meta_data.reset();
      }
    }
  }
}

// The footer bytes before the length: FileCryptoMetaData and the encrypted FileMetaData,
// or the plaintext FileMetaData and its signature.
std::string ParquetFileWriter::EncryptedFooter() const {
  const FileEncryptionProperties& encryption = *options_.encryption;
  EncryptionAlgorithm algorithm;
  algorithm.kind = encryption.algorithm;
  algorithm.aad_file_unique = aad_file_unique_;
  if (encryption.aad_prefix.has_value()) {
    if (encryption.store_aad_prefix) {
      algorithm.aad_prefix = encryption.aad_prefix;
    } else {
      algorithm.supply_aad_prefix = true;
    }
  }
  const ModuleCipher& footer_cipher = ciphers_[0];
  if (!encryption.plaintext_footer) {
    FileCryptoMetaData crypto;
    crypto.encryption_algorithm = algorithm;
    crypto.key_metadata = encryption.footer_key_metadata;
    return Serialize(crypto) + footer_cipher.Encrypt(ModuleType::kFooter, Serialize(metadata_), 0, 0);
  }
  FileMetaData signed_metadata = metadata_;
  signed_metadata.encryption_algorithm = algorithm;
  signed_metadata.footer_signing_key_metadata = encryption.footer_key_metadata;
  std::string out = Serialize(signed_metadata);
  const std::string sealed =
      GcmEncrypt(footer_cipher.key, out, ModuleAad(footer_cipher.file_aad, ModuleType::kFooter, 0, 0));
  out.append(sealed, 0, kNonceLength);
  out.append(sealed, sealed.size() - kGcmTagLength, kGcmTagLength);
  return out;
}

int32_t ParquetFileWriter::IndexLength(const std::string& index) const {
  if (index.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    throw ParquetError("page index of " + std::to_string(index.size()) + " bytes is too large");
  }
  return static_cast<int32_t>(index.size());
}

void ParquetFileWriter::WriteBytes(const void* data, size_t size) {
  if (platform::SystemResult written = file_.Write(data, size); !written.ok()) {
    failed_ = true;
    throw ParquetError("cannot write to '" + path_ + "': " + written.text);
  }
  offset_ += size;
}

void ParquetFileWriter::StartWriteback() {
  if (!file_.is_open() || offset_ <= writeback_offset_) return;
  // Best effort: when it fails, the final fsync does all the writing, as without it.
  file_.StartWriteback(writeback_offset_, offset_);
  writeback_offset_ = offset_;
}

void ParquetFileWriter::CloseFile() {
  if (platform::SystemResult closed = file_.Close(); !closed.ok()) {
    throw ParquetError("cannot close '" + path_ + "': " + closed.text);
  }
}

template void ParquetFileWriter::WriteBatch<bool>(int, size_t, const int16_t*, const int16_t*,
                                                  const bool*, size_t);
template void ParquetFileWriter::WriteBatch<int32_t>(int, size_t, const int16_t*, const int16_t*,
                                                     const int32_t*, size_t);
template void ParquetFileWriter::WriteBatch<int64_t>(int, size_t, const int16_t*, const int16_t*,
                                                     const int64_t*, size_t);
template void ParquetFileWriter::WriteBatch<Int96>(int, size_t, const int16_t*, const int16_t*,
                                                   const Int96*, size_t);
template void ParquetFileWriter::WriteBatch<float>(int, size_t, const int16_t*, const int16_t*,
                                                   const float*, size_t);
template void ParquetFileWriter::WriteBatch<double>(int, size_t, const int16_t*, const int16_t*,
                                                    const double*, size_t);
template void ParquetFileWriter::WriteBatch<ByteArray>(int, size_t, const int16_t*, const int16_t*,
                                                       const ByteArray*, size_t);

}  // namespace parquet
