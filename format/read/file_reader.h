// Opening a Parquet file: validates the trailing magic bytes, reads and parses the footer
// (FileMetaData), rebuilds the schema and checks the row groups against it. Column data is
// read through ColumnChunkReader (column_reader.h).
//
// File layout:  "PAR1" <column chunks...> <FileMetaData, thrift compact> <4-byte LE footer length> "PAR1"
// An encrypted footer ends in "PARE" instead: <FileCryptoMetaData> <encrypted FileMetaData>
// <4-byte LE length of both> "PARE" (the file starts with "PARE" too). The leading magic is
// not checked (as Arrow and DuckDB do not): the end tells a Parquet file, and a remote file's
// start would cost a request. A plaintext footer of
// an encrypted file is followed by its 28-byte signature (nonce and GCM tag), inside the
// length. Open decrypts the footer and the ColumnMetaData of encrypted columns with the keys
// of FileDecryptionProperties (encryption.h); column_cipher gives the column reader the
// cipher of a chunk's pages.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "format/crypto/encryption.h"
#include "format/metadata/metadata.h"
#include "format/io/random_access_file.h"
#include "format/metadata/schema.h"

namespace parquet {

struct RemoteOptions;  // remote_file.h

// Byte range of one column chunk inside the file.
struct ColumnChunkRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};

class ParquetFileReader {
 public:
  // Reads the footer; throws ParquetError naming the file when it is not a valid Parquet file.
  // `decryption` (may be null) holds the keys for an encrypted file; it is not kept.
  static std::unique_ptr<ParquetFileReader> Open(std::unique_ptr<RandomAccessFile> file,
                                                 const FileDecryptionProperties* decryption = nullptr);
  // `path` may be an https:// or s3:// URL (remote_file.h), read with `remote` (null: defaults).
  static std::unique_ptr<ParquetFileReader> Open(const std::string& path,
                                                 const FileDecryptionProperties* decryption = nullptr,
                                                 const RemoteOptions* remote = nullptr);
  // Opens `path` through a persistent metadata store (metadata_store.h; null: as Open): the
  // footer (and the page indexes stored with it) come from `store` when it holds the
  // version the file shows now; otherwise they are read from the file and handed to the
  // store (not for files with modular encryption). A stored tail that does not open is
  // forgotten and the file opened again from its own bytes. `opened` (may be null) is the
  // file already opened (OpenFileOrUrl or FinishRemoteOpen with `store`).
  static std::unique_ptr<ParquetFileReader> OpenWithStore(const std::string& path,
                                                          const FileDecryptionProperties* decryption,
                                                          const RemoteOptions* remote, MetadataStore* store,
                                                          std::unique_ptr<RandomAccessFile> opened = nullptr);

  const FileMetaData& metadata() const { return metadata_; }
  const Schema& schema() const { return schema_; }
  RandomAccessFile& file() const { return *file_; }
  const std::string& name() const { return file_->Name(); }
  uint32_t footer_length() const { return footer_length_; }

  int num_row_groups() const { return static_cast<int>(metadata_.row_groups.size()); }
  const RowGroup& row_group(int index) const { return metadata_.row_groups[static_cast<size_t>(index)]; }
  int64_t row_group_num_rows(int index) const { return row_group(index).num_rows; }
  // Rows of all row groups (the footer's num_rows is not trusted: some writers leave it 0).
  int64_t num_rows() const { return total_rows_; }
  // Position of the first row of a row group among all rows of the file.
  int64_t row_group_first_row(int index) const { return first_rows_[static_cast<size_t>(index)]; }
  // The row group holding file row `row` (0 <= row < num_rows()): the last one starting at
  // or before it.
  int row_group_of_row(int64_t row) const;

  const ColumnMetaData& column_metadata(int row_group, int column) const;
  // Where the chunk's pages are (the dictionary page if any, else the first data page),
  // checked against the file size.
  ColumnChunkRange column_chunk_range(int row_group, int column) const;

  // Modular encryption. encryption_algorithm: from FileCryptoMetaData (encrypted footer) or
  // the plaintext footer; nullopt for a file without encryption.
  const std::optional<EncryptionAlgorithm>& encryption_algorithm() const { return encryption_algorithm_; }
  bool footer_encrypted() const { return footer_encrypted_; }
  // Plaintext footer whose signature was checked with the footer key (false when there was
  // no key to check it with, or the footer is encrypted or not signed).
  bool footer_signature_verified() const { return footer_signature_verified_; }
  // Whether the chunk is encrypted, and whether a key for it was given.
  bool column_encrypted(int row_group, int column) const;
  bool column_key_missing(int row_group, int column) const;
  // The cipher of an encrypted chunk's modules; nullptr for a plaintext chunk. Throws
  // ParquetError naming file, column and row group when no key was given for the chunk.
  const ModuleCipher* column_cipher(int row_group, int column) const;

  // "file 'x.parquet', column 'a.b', row group 2" for error messages.
  std::string Describe(int row_group, int column) const;

 private:
  ParquetFileReader() = default;
  void ReadEncryptedFooter(const std::vector<uint8_t>& footer, const FileDecryptionProperties* decryption);
  void ReadPlaintextFooter(const std::vector<uint8_t>& footer, const FileDecryptionProperties* decryption);
  void SetUpFileAad(const EncryptionAlgorithm& algorithm, const FileDecryptionProperties* decryption);
  void ResolveColumnKeys(const FileDecryptionProperties* decryption);
  // With FileDecryptionProperties::refuse_plaintext: throws for a column of column_keys
  // whose chunk is stored in plaintext.
  void RefusePlaintextKeyedColumns(const FileDecryptionProperties& decryption) const;
  std::string MissingAadPrefixMessage() const;
  std::optional<SecretString> FindKey(const SecretString* explicit_key, const std::optional<std::string>& key_metadata,
                                     const FileDecryptionProperties* decryption) const;

  std::unique_ptr<RandomAccessFile> file_;
  FileMetaData metadata_;
  Schema schema_;
  uint32_t footer_length_ = 0;
  int64_t total_rows_ = 0;
  std::vector<int64_t> first_rows_;

  std::optional<EncryptionAlgorithm> encryption_algorithm_;
  bool footer_encrypted_ = false;
  bool footer_signature_verified_ = false;
  bool aad_prefix_missing_ = false;  // needed (supply_aad_prefix) but not given
  std::string file_aad_;    // aad_prefix || aad_file_unique
  bool module_aad_ = true;  // false: no aad_file_unique (see ModuleCipher::module_aad)
  SecretString footer_key_;  // empty: none given
  std::vector<ModuleCipher> ciphers_;  // one per distinct key
  // Per chunk (row_group * num_columns + column): index into ciphers_, kPlaintextChunk or
  // kMissingKey. Empty for a file without encryption.
  static constexpr int32_t kPlaintextChunk = -1;
  static constexpr int32_t kMissingKey = -2;
  std::vector<int32_t> chunk_ciphers_;
};

}  // namespace parquet
