// Parquet modular encryption (the spec's "Parquet Modular Encryption" section): AES-GCM and
// AES-CTR with OpenSSL EVP, the AAD of every module, and the key properties a reader and a
// writer are given.
//
// In our words: every "module" of an encrypted column (page headers, pages, dictionary page
// and its header, column index, offset index, bloom filter header and bitset, and the
// ColumnMetaData when it is encrypted apart from the footer) and the footer itself are
// encrypted separately. On disk a module is
//   GCM:  <4-byte LE length n> <12-byte nonce> <n - 28 bytes ciphertext> <16-byte tag>
//   CTR:  <4-byte LE length n> <12-byte nonce> <n - 12 bytes ciphertext>
// AES_GCM_V1 uses GCM for all modules; AES_GCM_CTR_V1 uses CTR for data and dictionary
// pages (IV = nonce || 00 00 00 01) and GCM for the rest. GCM authenticates a module
// together with its AAD = aad_prefix || aad_file_unique || module type (1 byte)
// [|| row group ordinal || column ordinal (2-byte LE each, not for the footer)]
// [|| page ordinal (2-byte LE, data pages and their headers only)]. So a module moved to
// another place or another file fails authentication.
//
// Keys are 16, 24 or 32 bytes (AES-128/192/256), held in SecretString (secret.h), wiped
// when freed. Key material never appears in errors.
//
// What AES_GCM_CTR_V1 leaves unauthenticated: CTR mode encrypts data and dictionary pages
// without a tag, so their bytes can be changed undetected (each flipped ciphertext bit
// flips the same plaintext bit); only page CRCs, when the writer stored them and the reader
// checks them, catch such a change, and an attacker who knows the page's plaintext can
// recompute the CRC. Page headers (which hold the CRC), the footer, column metadata, page
// indexes and bloom filters are GCM modules and authenticated in both algorithms.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/metadata/metadata.h"
#include "format/io/random_access_file.h"
#include "format/crypto/secret.h"

namespace parquet {

enum class ModuleType : uint8_t {
  kFooter = 0,
  kColumnMetaData = 1,
  kDataPage = 2,
  kDictionaryPage = 3,
  kDataPageHeader = 4,
  kDictionaryPageHeader = 5,
  kColumnIndex = 6,
  kOffsetIndex = 7,
  kBloomFilterHeader = 8,
  kBloomFilterBitset = 9,
};

// "data page header" etc., for error messages.
const char* ModuleTypeName(ModuleType type);

constexpr size_t kNonceLength = 12;
constexpr size_t kGcmTagLength = 16;
constexpr size_t kModuleLengthPrefix = 4;
// Bytes a module grows by when encrypted (length prefix included).
constexpr size_t kGcmModuleOverhead = kModuleLengthPrefix + kNonceLength + kGcmTagLength;
constexpr size_t kCtrModuleOverhead = kModuleLengthPrefix + kNonceLength;
// The plaintext footer's signature: nonce and GCM tag.
constexpr size_t kFooterSignatureLength = kNonceLength + kGcmTagLength;

// True for a key length AES accepts (16, 24, 32 bytes).
bool IsValidAesKeyLength(size_t length);

// The module AAD: file_aad (prefix || file unique) || type [|| ordinals]. row_group and
// column are left out for the footer; page_ordinal < 0 leaves the page ordinal out.
// Throws ParquetError for an ordinal above 32767 (the spec's 2-byte ordinals).
std::string ModuleAad(std::string_view file_aad, ModuleType type, int row_group, int column,
                      int page_ordinal = -1);

// Whether pages of this type are CTR-encrypted under the algorithm.
bool UsesCtr(EncryptionAlgorithm::Kind algorithm, ModuleType type);

// --- Ciphers. The buffers are nonce || ciphertext [|| tag], without the length prefix. ---

// AES-GCM: nonce (12 bytes) || ciphertext || tag. `nonce` empty: a fresh random one.
std::string GcmEncrypt(std::string_view key, std::string_view plaintext, std::string_view aad,
                       std::string_view nonce = {});
// Returns false when the tag does not authenticate ciphertext and aad (wrong key, changed
// byte, module from elsewhere); *out is then unspecified. Throws for a bad key length.
bool GcmDecrypt(std::string_view key, const uint8_t* buffer, size_t size, std::string_view aad,
                std::vector<uint8_t>* out);
// The same into `out`, which has room for size - 28 bytes (for decrypted key material).
bool GcmDecrypt(std::string_view key, const uint8_t* buffer, size_t size, std::string_view aad, uint8_t* out);
// AES-CTR with IV = nonce || 00000001: nonce (12 bytes) || ciphertext.
std::string CtrEncrypt(std::string_view key, std::string_view plaintext, std::string_view nonce = {});
void CtrDecrypt(std::string_view key, const uint8_t* buffer, size_t size, std::vector<uint8_t>* out);

// The cipher state of one column (or of the footer): algorithm, key and file AAD.
struct ModuleCipher {
  EncryptionAlgorithm::Kind algorithm = EncryptionAlgorithm::Kind::AES_GCM_V1;
  SecretString key;
  std::string file_aad;  // aad_prefix || aad_file_unique
  // False: modules are authenticated without any AAD. Files without aad_file_unique (DuckDB
  // writes them so) are read this way; a spec-conforming file always has it.
  bool module_aad = true;

  // The AAD of a module (empty when module_aad is false).
  std::string Aad(ModuleType type, int row_group, int column, int page_ordinal) const;

  // Encrypts one module, length prefix included (fresh random nonce).
  std::string Encrypt(ModuleType type, std::string_view plaintext, int row_group, int column,
                      int page_ordinal = -1) const;
  // Decrypts the module at the start of [data, data + size) into *out; returns the bytes the
  // module occupies (length prefix included). Throws ParquetError naming the module type
  // when the module does not fit, or fails authentication.
  size_t Decrypt(ModuleType type, const uint8_t* data, size_t size, int row_group, int column,
                 int page_ordinal, std::vector<uint8_t>* out) const;
};

// Reads the `length` bytes at `offset` of a structure stored whole (a ColumnIndex or
// OffsetIndex: ColumnChunk.*_index_offset/length) into *out; in an encrypted column
// (`cipher` not null) they are one module, decrypted with the chunk's ordinals. Throws
// ParquetError for a range outside the file or a module that does not authenticate.
void ReadIndexModule(RandomAccessFile& file, uint64_t offset, size_t length, const ModuleCipher* cipher,
                     ModuleType type, int row_group, int column, std::vector<uint8_t>* out);

// Everything a reader may be given. Keys are raw bytes. Column keys are looked up by the
// column's dotted path ("a.b.c"); a key not given explicitly is asked of key_retriever
// with the key_metadata stored in the file (if any). An empty footer_key means none.
struct FileDecryptionProperties {
  SecretString footer_key;
  std::map<std::string, SecretString> column_keys;
  std::optional<std::string> aad_prefix;  // required for files written with supply_aad_prefix
  // (key_metadata, name of the file being opened) -> key; nullopt when it knows no such
  // key. May throw ParquetError (e.g. key material that cannot be unwrapped).
  std::function<std::optional<SecretString>(const std::string& key_metadata, const std::string& file_name)>
      key_retriever;
  bool verify_footer_signature = true;  // plaintext footers
  // Keys were given, so the file must be encrypted (as parquet-mr and Arrow require unless
  // plaintext files are allowed): opening a file without encryption, or a file whose
  // chunk of a column named in column_keys is stored in plaintext, is an error.
  bool refuse_plaintext = false;
};

// What a writer is given. Columns named in column_keys get their own key; the other columns
// are encrypted with the footer key unless listed in plaintext_columns (or, when
// encrypt_all_columns is false, unless they are not in column_keys).
struct FileEncryptionProperties {
  EncryptionAlgorithm::Kind algorithm = EncryptionAlgorithm::Kind::AES_GCM_V1;
  SecretString footer_key;
  std::map<std::string, SecretString> column_keys;       // dotted path -> key
  std::map<std::string, std::string> column_key_metadata;  // dotted path -> key_metadata
  std::vector<std::string> plaintext_columns;              // dotted paths
  bool encrypt_all_columns = true;  // columns in neither map nor plaintext_columns: footer key
  bool plaintext_footer = false;    // PAR1 footer signed with the footer key
  std::optional<std::string> aad_prefix;
  bool store_aad_prefix = true;
  std::optional<std::string> footer_key_metadata;
};

// Cryptographically random bytes (OpenSSL RAND_bytes); throws ParquetError on failure.
std::string RandomBytes(size_t count);

// Parses a key written as "hex:<hex digits>", "base64:<base64>" or else taken as the raw
// bytes of the text. Returns false with *error (which never contains the key) for bad
// hex/base64 or a length other than 16, 24 or 32 bytes.
bool ParseKeyText(std::string_view text, SecretString* key, std::string* error);
// Standard base64 (with or without padding); false on invalid input. (A SecretString: it
// decodes keys and wrapped keys.)
bool DecodeBase64(std::string_view text, SecretString* out);

// The crypto library as linked, e.g. "OpenSSL 3.0.15 3 Sep 2024" (parquet_version()).
std::string CryptoLibraryVersion();

}  // namespace parquet
