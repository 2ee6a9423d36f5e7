// Footer reading and validation for ParquetFileReader (see file_reader.h).
#include "format/read/file_reader.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "format/common/error.h"
#include "format/io/http_client.h"
#include "format/io/remote_file.h"
#include "format/metadata/schema.h"

namespace parquet {

namespace {
constexpr size_t kMagicLength = 4;
constexpr size_t kFooterTrailerLength = 8;  // 4-byte footer length + magic
}  // namespace

std::unique_ptr<ParquetFileReader> ParquetFileReader::Open(const std::string& path,
                                                           const FileDecryptionProperties* decryption,
                                                           const RemoteOptions* remote) {
  return Open(OpenFileOrUrl(path, remote), decryption);
}

namespace {

// The tail a store keeps of an opened file: from its footer (or from its page indexes, when
// they start at most kMaxStoredPageIndexSpan before the footer, or from where the bytes
// opening fetched start: a remote tail, which holds a small file whole) to its end. So an
// open from the store holds what an open from the file would.
std::shared_ptr<const FileTail> StorableTail(const ParquetFileReader& reader) {
  RandomAccessFile& file = reader.file();
  const uint64_t size = file.Size();
  const uint64_t footer_start = size - kFooterTrailerLength - reader.footer_length();
  uint64_t start = footer_start;
  uint64_t indexes_start = UINT64_MAX, indexes_end = 0;
  for (const RowGroup& row_group : reader.metadata().row_groups) {
    for (const ColumnChunk& chunk : row_group.columns) {
      const std::pair<std::optional<int64_t>, std::optional<int32_t>> modules[] = {
          {chunk.column_index_offset, chunk.column_index_length}, {chunk.offset_index_offset, chunk.offset_index_length}};
      for (const auto& [offset, length] : modules) {
        if (!offset || !length || *offset < 0 || *length < 0) continue;
        indexes_start = std::min<uint64_t>(indexes_start, static_cast<uint64_t>(*offset));
        indexes_end = std::max<uint64_t>(indexes_end, static_cast<uint64_t>(*offset) + static_cast<uint64_t>(*length));
      }
    }
  }
  if (indexes_start >= kMagicLength && indexes_end <= footer_start && footer_start - indexes_start <= kMaxStoredPageIndexSpan) {
    start = indexes_start;
  }
  if (const std::optional<uint64_t> held = file.HeldTailOffset()) {
    start = std::min(start, *held);
  }
  auto tail = std::make_shared<FileTail>();
  tail->offset = start;
  if (size - start > kMaxStoredTailBytes) return nullptr;
  file.ReadAt(start, static_cast<size_t>(size - start), &tail->bytes);
  return tail;
}

}  // namespace

std::unique_ptr<ParquetFileReader> ParquetFileReader::OpenWithStore(const std::string& path,
                                                                    const FileDecryptionProperties* decryption,
                                                                    const RemoteOptions* remote, MetadataStore* store,
                                                                    std::unique_ptr<RandomAccessFile> opened) {
  if (store == nullptr) return opened ? Open(std::move(opened), decryption) : Open(path, decryption, remote);
  std::unique_ptr<RandomAccessFile> file = opened ? std::move(opened) : OpenFileOrUrl(path, remote, store);
  const std::optional<FileVersion> version = file->Version();
  if (file->StoredTailUsed()) {
    try {
      return Open(std::move(file), decryption);
    } catch (const HttpInterrupted&) {
      throw;
    } catch (const ParquetError&) {
      // The stored bytes are not this file's footer (a damaged or forged row): read its own.
      store->Forget(*version);
      file = OpenFileOrUrl(path, remote);
    }
  }
  std::unique_ptr<ParquetFileReader> reader = Open(std::move(file), decryption);
  const std::optional<FileVersion> opened_version = reader->file().Version();
  if (opened_version && !reader->encryption_algorithm() && store->Remembers()) {
    if (std::shared_ptr<const FileTail> tail = StorableTail(*reader)) store->Remember(*opened_version, std::move(tail));
  }
  return reader;
}

std::unique_ptr<ParquetFileReader> ParquetFileReader::Open(std::unique_ptr<RandomAccessFile> file,
                                                           const FileDecryptionProperties* decryption) {
  std::unique_ptr<ParquetFileReader> reader(new ParquetFileReader());
  const std::string name = file->Name();
  const uint64_t size = file->Size();
  if (size < kMagicLength + kFooterTrailerLength) {
    throw ParquetError("not a parquet file: " + name + " is only " + std::to_string(size) + " bytes");
  }
  // Only the end is checked: the trailing magic, the footer length and the footer itself
  // (a Thrift structure that must parse and agree with itself) tell a Parquet file, and the
  // leading magic would cost a remote file a request of its own. Column chunks never start
  // before byte 4 (ColumnChunkRange), so the first bytes are never read as data.
  uint8_t trailer[kFooterTrailerLength];
  file->ReadAt(size - kFooterTrailerLength, kFooterTrailerLength, trailer);
  const bool encrypted_footer = std::memcmp(trailer + 4, "PARE", 4) == 0;
  if (!encrypted_footer && std::memcmp(trailer + 4, "PAR1", 4) != 0) {
    throw ParquetError("not a parquet file: " + name + " does not end with the PAR1 magic bytes");
  }
  uint32_t footer_length = static_cast<uint32_t>(trailer[0]) | (static_cast<uint32_t>(trailer[1]) << 8) |
                           (static_cast<uint32_t>(trailer[2]) << 16) |
                           (static_cast<uint32_t>(trailer[3]) << 24);
  if (footer_length == 0 || footer_length > size - kMagicLength - kFooterTrailerLength) {
    throw ParquetError("corrupt parquet file " + name + ": footer length " +
                       std::to_string(footer_length) + " does not fit in a file of " +
                       std::to_string(size) + " bytes");
  }
  if (file->IsRemote() && footer_length > kMaxRemoteFooterBytes) {
    throw ParquetError("remote file " + name + " states a footer of " + std::to_string(footer_length) +
                       " bytes; a remote footer may hold at most " + std::to_string(kMaxRemoteFooterBytes));
  }
  std::vector<uint8_t> footer;
  file->ReadAt(size - kFooterTrailerLength - footer_length, footer_length, &footer);
  reader->file_ = std::move(file);
  if (encrypted_footer) {
    reader->ReadEncryptedFooter(footer, decryption);
  } else {
    reader->ReadPlaintextFooter(footer, decryption);
  }
  reader->footer_length_ = footer_length;

  // Row groups must match the schema; row counts must be sane.
  const int num_columns = reader->schema_.num_columns();
  int64_t total = 0;
  reader->first_rows_.reserve(reader->metadata_.row_groups.size());
  for (size_t i = 0; i < reader->metadata_.row_groups.size(); i++) {
    const RowGroup& rg = reader->metadata_.row_groups[i];
    if (static_cast<int>(rg.columns.size()) != num_columns) {
      throw ParquetError("corrupt footer in " + name + ": row group " + std::to_string(i) + " has " +
                         std::to_string(rg.columns.size()) + " column chunks, the schema has " +
                         std::to_string(num_columns) + " columns");
    }
    if (rg.num_rows < 0 || total > INT64_MAX - rg.num_rows) {
      throw ParquetError("corrupt footer in " + name + ": row group " + std::to_string(i) +
                         " has invalid num_rows " + std::to_string(rg.num_rows));
    }
    reader->first_rows_.push_back(total);
    total += rg.num_rows;
  }
  reader->total_rows_ = total;
  if (reader->encryption_algorithm_.has_value()) {
    reader->ResolveColumnKeys(decryption);
    if (decryption != nullptr && decryption->refuse_plaintext) reader->RefusePlaintextKeyedColumns(*decryption);
  } else if (decryption != nullptr && decryption->refuse_plaintext) {
    throw ParquetError(name + " is not encrypted, but keys were given to read it (a plaintext file where an "
                       "encrypted one was expected; allow_plaintext_files=1 reads it)");
  }
  return reader;
}

namespace {

// Parses the footer's FileMetaData and the schema, naming the file in errors.
void ParseFooter(const std::string& name, const uint8_t* data, size_t size, FileMetaData* metadata, Schema* schema) {
  try {
    *metadata = ParseFileMetaData(data, size);
    *schema = Schema::FromElements(metadata->schema);
  } catch (const ParquetError& e) {
    throw ParquetError("corrupt footer in " + name + ": " + e.what());
  }
}

std::string JoinPath(const std::vector<std::string>& path) {
  std::string text;
  for (const std::string& part : path) {
    if (!text.empty()) text += '.';
    text += part;
  }
  return text;
}

}  // namespace

std::optional<SecretString> ParquetFileReader::FindKey(const SecretString* explicit_key,
                                                      const std::optional<std::string>& key_metadata,
                                                      const FileDecryptionProperties* decryption) const {
  if (explicit_key != nullptr && !explicit_key->empty()) return *explicit_key;
  if (decryption == nullptr || !decryption->key_retriever || !key_metadata.has_value()) return std::nullopt;
  std::optional<SecretString> key;
  try {
    key = decryption->key_retriever(*key_metadata, name());
  } catch (const ParquetError& e) {
    throw ParquetError("cannot find a key for " + name() + ": " + e.what());
  }
  if (key.has_value() && !IsValidAesKeyLength(key->size())) {
    throw ParquetError("the key found for key metadata of " + name() + " is " + std::to_string(key->size()) +
                       " bytes long; AES keys are 16, 24 or 32 bytes");
  }
  return key;
}

void ParquetFileReader::SetUpFileAad(const EncryptionAlgorithm& algorithm, const FileDecryptionProperties* decryption) {
  if (algorithm.kind == EncryptionAlgorithm::Kind::UNRECOGNIZED) {
    throw ParquetError(name() + " is encrypted with an algorithm this reader does not know");
  }
  std::string prefix;
  const bool supplied = decryption != nullptr && decryption->aad_prefix.has_value();
  if (algorithm.aad_prefix.has_value()) {
    if (supplied && *decryption->aad_prefix != *algorithm.aad_prefix) {
      throw ParquetError("the AAD prefix given for " + name() + " differs from the one stored in the file");
    }
    prefix = *algorithm.aad_prefix;
  } else if (supplied) {
    prefix = *decryption->aad_prefix;
  } else if (algorithm.supply_aad_prefix.value_or(false)) {
    // With a plaintext footer the plaintext columns stay readable without it.
    if (footer_encrypted_) throw ParquetError(MissingAadPrefixMessage());
    aad_prefix_missing_ = true;
  }
  file_aad_ = prefix + algorithm.aad_file_unique.value_or(std::string());
  module_aad_ = algorithm.aad_file_unique.has_value() || !prefix.empty();
  encryption_algorithm_ = algorithm;
}

void ParquetFileReader::ReadEncryptedFooter(const std::vector<uint8_t>& footer,
                                            const FileDecryptionProperties* decryption) {
  FileCryptoMetaData crypto;
  size_t crypto_size = 0;
  try {
    crypto = ParseFileCryptoMetaData(footer.data(), footer.size(), &crypto_size);
  } catch (const ParquetError& e) {
    throw ParquetError("corrupt encrypted footer in " + name() + ": " + e.what());
  }
  footer_encrypted_ = true;
  SetUpFileAad(crypto.encryption_algorithm, decryption);
  std::optional<SecretString> key =
      FindKey(decryption != nullptr ? &decryption->footer_key : nullptr, crypto.key_metadata, decryption);
  if (!key.has_value()) throw ParquetError(name() + " has an encrypted footer: a footer key is needed to read it");
  footer_key_ = *key;
  ModuleCipher cipher{encryption_algorithm_->kind, footer_key_, file_aad_, module_aad_};
  std::vector<uint8_t> plaintext;
  try {
    cipher.Decrypt(ModuleType::kFooter, footer.data() + crypto_size, footer.size() - crypto_size, 0, 0, -1, &plaintext);
  } catch (const ParquetError& e) {
    throw ParquetError("cannot decrypt the footer of " + name() + ": " + e.what());
  }
  ParseFooter(name(), plaintext.data(), plaintext.size(), &metadata_, &schema_);
}

void ParquetFileReader::ReadPlaintextFooter(const std::vector<uint8_t>& footer,
                                            const FileDecryptionProperties* decryption) {
  ParseFooter(name(), footer.data(), footer.size(), &metadata_, &schema_);
  if (!metadata_.encryption_algorithm.has_value()) return;
  // A plaintext footer of an encrypted file, followed by its signature.
  SetUpFileAad(*metadata_.encryption_algorithm, decryption);
  if (footer.size() < kFooterSignatureLength) throw ParquetError("corrupt footer in " + name() + ": no room for its signature");
  std::optional<SecretString> key = FindKey(decryption != nullptr ? &decryption->footer_key : nullptr,
                                           metadata_.footer_signing_key_metadata, decryption);
  if (!key.has_value() || aad_prefix_missing_) return;  // plaintext columns stay readable
  footer_key_ = *key;
  if (decryption != nullptr && !decryption->verify_footer_signature) return;
  const size_t signed_size = footer.size() - kFooterSignatureLength;
  const uint8_t* signature = footer.data() + signed_size;
  std::string_view nonce(reinterpret_cast<const char*>(signature), kNonceLength);
  const ModuleCipher cipher{encryption_algorithm_->kind, footer_key_, file_aad_, module_aad_};
  const std::string expected =
      GcmEncrypt(footer_key_, std::string_view(reinterpret_cast<const char*>(footer.data()), signed_size),
                 cipher.Aad(ModuleType::kFooter, 0, 0, -1), nonce);
  if (std::memcmp(expected.data() + expected.size() - kGcmTagLength, signature + kNonceLength, kGcmTagLength) != 0) {
    throw ParquetError("the footer signature of " + name() +
                       " does not verify: wrong footer key or AAD prefix, or the footer was altered");
  }
  footer_signature_verified_ = true;
}

void ParquetFileReader::ResolveColumnKeys(const FileDecryptionProperties* decryption) {
  const size_t num_columns = static_cast<size_t>(schema_.num_columns());
  chunk_ciphers_.assign(metadata_.row_groups.size() * num_columns, kPlaintextChunk);
  if (aad_prefix_missing_) {
    for (size_t g = 0; g < metadata_.row_groups.size(); g++) {
      for (size_t c = 0; c < num_columns; c++) {
        if (metadata_.row_groups[g].columns[c].crypto_metadata.has_value()) chunk_ciphers_[g * num_columns + c] = kMissingKey;
      }
    }
    return;
  }
  auto cipher_index = [this](const SecretString& key) {
    for (size_t i = 0; i < ciphers_.size(); i++) {
      if (ciphers_[i].key == key) return static_cast<int32_t>(i);
    }
    ciphers_.push_back(ModuleCipher{encryption_algorithm_->kind, key, file_aad_, module_aad_});
    return static_cast<int32_t>(ciphers_.size() - 1);
  };
  // The key retriever is asked once per distinct key_metadata.
  std::map<std::string, std::optional<SecretString>> retrieved;
  FileDecryptionProperties caching;
  if (decryption != nullptr && decryption->key_retriever) {
    caching.key_retriever = [&retrieved, decryption](const std::string& key_metadata, const std::string& file_name) {
      auto found = retrieved.find(key_metadata);
      if (found == retrieved.end()) {
        found = retrieved.emplace(key_metadata, decryption->key_retriever(key_metadata, file_name)).first;
      }
      return found->second;
    };
  }
  std::vector<uint8_t> plaintext;
  for (size_t g = 0; g < metadata_.row_groups.size(); g++) {
    for (size_t c = 0; c < num_columns; c++) {
      ColumnChunk& chunk = metadata_.row_groups[g].columns[c];
      if (!chunk.crypto_metadata.has_value()) {
        // DuckDB writes encrypted footers without aad_file_unique and without crypto_metadata
        // on its chunks, all of which it encrypts with the footer key.
        if (footer_encrypted_ && !module_aad_) chunk_ciphers_[g * num_columns + c] = cipher_index(footer_key_);
        continue;
      }
      const int rg = static_cast<int>(g), column = static_cast<int>(c);
      const ColumnCryptoMetaData& crypto = *chunk.crypto_metadata;
      std::optional<SecretString> key;
      if (crypto.kind == ColumnCryptoMetaData::Kind::WITH_FOOTER_KEY) {
        if (!footer_key_.empty()) key = footer_key_;
      } else if (crypto.kind == ColumnCryptoMetaData::Kind::WITH_COLUMN_KEY) {
        const SecretString* explicit_key = nullptr;
        if (decryption != nullptr) {
          auto found = decryption->column_keys.find(schema_.column(column).dotted_path);
          if (found == decryption->column_keys.end()) found = decryption->column_keys.find(JoinPath(crypto.path_in_schema));
          if (found != decryption->column_keys.end()) explicit_key = &found->second;
        }
        key = FindKey(explicit_key, crypto.key_metadata, decryption != nullptr ? &caching : nullptr);
        if (!key.has_value() && !chunk.encrypted_column_metadata.has_value()) {
          throw ParquetError(Describe(rg, column) + ": encrypted column has no encrypted column metadata");
        }
      }
      if (!key.has_value()) {
        chunk_ciphers_[g * num_columns + c] = kMissingKey;
        continue;
      }
      const int32_t index = cipher_index(*key);
      chunk_ciphers_[g * num_columns + c] = index;
      if (!chunk.encrypted_column_metadata.has_value()) continue;  // metadata in place (footer key)
      const std::string& module = *chunk.encrypted_column_metadata;
      // The ColumnMetaData module is stored without the 4-byte length of other modules in
      // some writers' files and with it in others: accept both.
      std::string framed;
      const uint8_t* data = reinterpret_cast<const uint8_t*>(module.data());
      size_t size = module.size();
      if (size < 4 || (static_cast<size_t>(data[0]) | (static_cast<size_t>(data[1]) << 8) |
                       (static_cast<size_t>(data[2]) << 16) | (static_cast<size_t>(data[3]) << 24)) != size - 4) {
        framed.resize(4);
        for (int i = 0; i < 4; i++) framed[static_cast<size_t>(i)] = static_cast<char>((size >> (8 * i)) & 0xFF);
        framed += module;
        data = reinterpret_cast<const uint8_t*>(framed.data());
        size = framed.size();
      }
      try {
        ciphers_[static_cast<size_t>(index)].Decrypt(ModuleType::kColumnMetaData, data, size, rg, column, -1, &plaintext);
        chunk.meta_data = ParseColumnMetaData(plaintext.data(), plaintext.size());
      } catch (const ParquetError& e) {
        throw ParquetError(Describe(rg, column) + ": cannot decrypt the column metadata: " + e.what());
      }
    }
  }
}

void ParquetFileReader::RefusePlaintextKeyedColumns(const FileDecryptionProperties& decryption) const {
  const size_t num_columns = static_cast<size_t>(schema_.num_columns());
  for (size_t g = 0; g < metadata_.row_groups.size(); g++) {
    for (size_t c = 0; c < num_columns; c++) {
      if (chunk_ciphers_[g * num_columns + c] != kPlaintextChunk) continue;
      if (decryption.column_keys.count(schema_.column(static_cast<int>(c)).dotted_path) != 0) {
        throw ParquetError(Describe(static_cast<int>(g), static_cast<int>(c)) +
                           ": column has a key in column_keys but is stored in plaintext (allow_plaintext_files=1 "
                           "reads it)");
      }
    }
  }
}

std::string ParquetFileReader::MissingAadPrefixMessage() const {
  return name() + " was encrypted with an AAD prefix that is not stored in it: the reader must supply it";
}

bool ParquetFileReader::column_encrypted(int row_group, int column) const {
  if (chunk_ciphers_.empty()) return false;
  return chunk_ciphers_[static_cast<size_t>(row_group) * static_cast<size_t>(schema_.num_columns()) +
                        static_cast<size_t>(column)] != kPlaintextChunk;
}

bool ParquetFileReader::column_key_missing(int row_group, int column) const {
  if (chunk_ciphers_.empty()) return false;
  return chunk_ciphers_[static_cast<size_t>(row_group) * static_cast<size_t>(schema_.num_columns()) +
                        static_cast<size_t>(column)] == kMissingKey;
}

const ModuleCipher* ParquetFileReader::column_cipher(int row_group, int column) const {
  if (chunk_ciphers_.empty()) return nullptr;
  const int32_t index = chunk_ciphers_[static_cast<size_t>(row_group) * static_cast<size_t>(schema_.num_columns()) +
                                       static_cast<size_t>(column)];
  if (index == kPlaintextChunk) return nullptr;
  if (index == kMissingKey) {
    if (aad_prefix_missing_) throw ParquetError(Describe(row_group, column) + ": column is encrypted: " + MissingAadPrefixMessage());
    throw ParquetError(Describe(row_group, column) + ": column is encrypted and no key was given for it");
  }
  return &ciphers_[static_cast<size_t>(index)];
}

int ParquetFileReader::row_group_of_row(int64_t row) const {
  const auto after = std::upper_bound(first_rows_.begin(), first_rows_.end(), row);
  return after == first_rows_.begin() ? 0 : static_cast<int>(after - first_rows_.begin()) - 1;
}

const ColumnMetaData& ParquetFileReader::column_metadata(int row_group, int column) const {
  const ColumnChunk& chunk = this->row_group(row_group).columns[static_cast<size_t>(column)];
  if (column_key_missing(row_group, column)) column_cipher(row_group, column);  // throws the reason
  if (!chunk.meta_data.has_value()) {
    throw ParquetError(Describe(row_group, column) + ": column chunk has no metadata");
  }
  if (chunk.file_path.has_value() && !chunk.file_path->empty()) {
    throw ParquetError(Describe(row_group, column) + ": column chunk is stored in another file ('" +
                       *chunk.file_path + "'), which is not supported");
  }
  return *chunk.meta_data;
}

ColumnChunkRange ParquetFileReader::column_chunk_range(int row_group, int column) const {
  const ColumnMetaData& meta = column_metadata(row_group, column);
  int64_t start = meta.data_page_offset;
  // A dictionary page, when present, comes first. Some writers store 0 for "absent".
  if (meta.dictionary_page_offset.has_value() && *meta.dictionary_page_offset > 0 &&
      *meta.dictionary_page_offset < start) {
    start = *meta.dictionary_page_offset;
  }
  const uint64_t size = file_->Size();
  if (start < static_cast<int64_t>(kMagicLength) || meta.total_compressed_size < 0 ||
      static_cast<uint64_t>(start) > size ||
      static_cast<uint64_t>(meta.total_compressed_size) > size - static_cast<uint64_t>(start)) {
    throw ParquetError(Describe(row_group, column) + ": column chunk at offset " + std::to_string(start) +
                       " of " + std::to_string(meta.total_compressed_size) +
                       " bytes lies outside the file (" + std::to_string(size) + " bytes)");
  }
  return {static_cast<uint64_t>(start), static_cast<uint64_t>(meta.total_compressed_size)};
}

std::string ParquetFileReader::Describe(int row_group, int column) const {
  std::string text = "file '" + name() + "'";
  if (column >= 0 && column < schema_.num_columns()) {
    text += ", column '" + schema_.column(column).dotted_path + "'";
  }
  if (row_group >= 0) text += ", row group " + std::to_string(row_group);
  return text;
}

}  // namespace parquet
