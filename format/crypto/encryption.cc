// AES-GCM / AES-CTR module encryption with OpenSSL EVP, module AADs and key text parsing
// (see encryption.h).
#include "format/crypto/encryption.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cstring>
#include <memory>

#include "format/common/error.h"

namespace parquet {

namespace {

struct CipherContextDeleter {
  void operator()(EVP_CIPHER_CTX* context) const { EVP_CIPHER_CTX_free(context); }
};
using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, CipherContextDeleter>;

CipherContext NewContext() {
  CipherContext context(EVP_CIPHER_CTX_new());
  if (!context) throw ParquetError("cannot create an OpenSSL cipher context");
  return context;
}

const EVP_CIPHER* GcmCipher(size_t key_length) {
  switch (key_length) {
    case 16: return EVP_aes_128_gcm();
    case 24: return EVP_aes_192_gcm();
    case 32: return EVP_aes_256_gcm();
    default: throw ParquetError("invalid AES key length " + std::to_string(key_length) + " (expected 16, 24 or 32 bytes)");
  }
}

const EVP_CIPHER* CtrCipher(size_t key_length) {
  switch (key_length) {
    case 16: return EVP_aes_128_ctr();
    case 24: return EVP_aes_192_ctr();
    case 32: return EVP_aes_256_ctr();
    default: throw ParquetError("invalid AES key length " + std::to_string(key_length) + " (expected 16, 24 or 32 bytes)");
  }
}

const unsigned char* Bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

int CheckedLength(size_t size) {
  if (size > static_cast<size_t>(INT32_MAX)) throw ParquetError("module of " + std::to_string(size) + " bytes is too large to encrypt");
  return static_cast<int>(size);
}

std::string NonceOrRandom(std::string_view nonce) {
  if (nonce.empty()) return RandomBytes(kNonceLength);
  if (nonce.size() != kNonceLength) throw ParquetError("a nonce must be 12 bytes");
  return std::string(nonce);
}

void AppendOrdinal(int ordinal, const char* what, std::string* out) {
  if (ordinal < 0 || ordinal > INT16_MAX) {
    throw ParquetError(std::string(what) + " ordinal " + std::to_string(ordinal) +
                       " does not fit the 2 bytes encryption gives it (at most 32767)");
  }
  out->push_back(static_cast<char>(ordinal & 0xFF));
  out->push_back(static_cast<char>((ordinal >> 8) & 0xFF));
}

// CTR runs over nonce || 00 00 00 01.
void CtrIv(std::string_view nonce, unsigned char iv[16]) {
  std::memcpy(iv, nonce.data(), kNonceLength);
  iv[12] = 0;
  iv[13] = 0;
  iv[14] = 0;
  iv[15] = 1;
}

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

const char* ModuleTypeName(ModuleType type) {
  switch (type) {
    case ModuleType::kFooter: return "footer";
    case ModuleType::kColumnMetaData: return "column metadata";
    case ModuleType::kDataPage: return "data page";
    case ModuleType::kDictionaryPage: return "dictionary page";
    case ModuleType::kDataPageHeader: return "data page header";
    case ModuleType::kDictionaryPageHeader: return "dictionary page header";
    case ModuleType::kColumnIndex: return "column index";
    case ModuleType::kOffsetIndex: return "offset index";
    case ModuleType::kBloomFilterHeader: return "bloom filter header";
    case ModuleType::kBloomFilterBitset: return "bloom filter bitset";
  }
  return "module";
}

bool IsValidAesKeyLength(size_t length) { return length == 16 || length == 24 || length == 32; }

std::string ModuleAad(std::string_view file_aad, ModuleType type, int row_group, int column, int page_ordinal) {
  std::string aad(file_aad);
  aad.push_back(static_cast<char>(type));
  if (type == ModuleType::kFooter) return aad;
  AppendOrdinal(row_group, "row group", &aad);
  AppendOrdinal(column, "column", &aad);
  if (page_ordinal >= 0) AppendOrdinal(page_ordinal, "page", &aad);
  return aad;
}

bool UsesCtr(EncryptionAlgorithm::Kind algorithm, ModuleType type) {
  return algorithm == EncryptionAlgorithm::Kind::AES_GCM_CTR_V1 &&
         (type == ModuleType::kDataPage || type == ModuleType::kDictionaryPage);
}

std::string RandomBytes(size_t count) {
  std::string bytes(count, '\0');
  if (count > 0 && RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), CheckedLength(count)) != 1) {
    throw ParquetError("the random number generator failed");
  }
  return bytes;
}

std::string GcmEncrypt(std::string_view key, std::string_view plaintext, std::string_view aad,
                       std::string_view nonce) {
  const EVP_CIPHER* cipher = GcmCipher(key.size());
  const std::string iv = NonceOrRandom(nonce);
  CipherContext context = NewContext();
  std::string out(kNonceLength + plaintext.size() + kGcmTagLength, '\0');
  std::memcpy(out.data(), iv.data(), kNonceLength);
  unsigned char* ciphertext = reinterpret_cast<unsigned char*>(out.data()) + kNonceLength;
  int length = 0;
  bool ok = EVP_EncryptInit_ex(context.get(), cipher, nullptr, nullptr, nullptr) == 1 &&
            EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kNonceLength), nullptr) == 1 &&
            EVP_EncryptInit_ex(context.get(), nullptr, nullptr, Bytes(key), Bytes(iv)) == 1;
  if (ok && !aad.empty()) ok = EVP_EncryptUpdate(context.get(), nullptr, &length, Bytes(aad), CheckedLength(aad.size())) == 1;
  if (ok && !plaintext.empty()) {
    ok = EVP_EncryptUpdate(context.get(), ciphertext, &length, Bytes(plaintext), CheckedLength(plaintext.size())) == 1;
  }
  ok = ok && EVP_EncryptFinal_ex(context.get(), ciphertext + plaintext.size(), &length) == 1 &&
       EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kGcmTagLength),
                           ciphertext + plaintext.size()) == 1;
  if (!ok) throw ParquetError("AES-GCM encryption failed");
  return out;
}

bool GcmDecrypt(std::string_view key, const uint8_t* buffer, size_t size, std::string_view aad,
                std::vector<uint8_t>* out) {
  if (size < kNonceLength + kGcmTagLength) return false;
  out->resize(size - kNonceLength - kGcmTagLength);
  return GcmDecrypt(key, buffer, size, aad, out->data());
}

bool GcmDecrypt(std::string_view key, const uint8_t* buffer, size_t size, std::string_view aad, uint8_t* out) {
  const EVP_CIPHER* cipher = GcmCipher(key.size());
  if (size < kNonceLength + kGcmTagLength) return false;
  const size_t text_size = size - kNonceLength - kGcmTagLength;
  CipherContext context = NewContext();
  int length = 0;
  bool ok = EVP_DecryptInit_ex(context.get(), cipher, nullptr, nullptr, nullptr) == 1 &&
            EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kNonceLength), nullptr) == 1 &&
            EVP_DecryptInit_ex(context.get(), nullptr, nullptr, Bytes(key), buffer) == 1;
  if (ok && !aad.empty()) ok = EVP_DecryptUpdate(context.get(), nullptr, &length, Bytes(aad), CheckedLength(aad.size())) == 1;
  if (ok && text_size > 0) {
    ok = EVP_DecryptUpdate(context.get(), out, &length, buffer + kNonceLength, CheckedLength(text_size)) == 1;
  }
  unsigned char tag[kGcmTagLength];
  std::memcpy(tag, buffer + kNonceLength + text_size, kGcmTagLength);
  ok = ok && EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kGcmTagLength), tag) == 1;
  unsigned char final_block[16];
  return ok && EVP_DecryptFinal_ex(context.get(), final_block, &length) == 1;
}

std::string CtrEncrypt(std::string_view key, std::string_view plaintext, std::string_view nonce) {
  const EVP_CIPHER* cipher = CtrCipher(key.size());
  const std::string n = NonceOrRandom(nonce);
  unsigned char iv[16];
  CtrIv(n, iv);
  CipherContext context = NewContext();
  std::string out(kNonceLength + plaintext.size(), '\0');
  std::memcpy(out.data(), n.data(), kNonceLength);
  unsigned char* ciphertext = reinterpret_cast<unsigned char*>(out.data()) + kNonceLength;
  int length = 0;
  bool ok = EVP_EncryptInit_ex(context.get(), cipher, nullptr, Bytes(key), iv) == 1;
  if (ok && !plaintext.empty()) {
    ok = EVP_EncryptUpdate(context.get(), ciphertext, &length, Bytes(plaintext), CheckedLength(plaintext.size())) == 1;
  }
  ok = ok && EVP_EncryptFinal_ex(context.get(), ciphertext + plaintext.size(), &length) == 1;
  if (!ok) throw ParquetError("AES-CTR encryption failed");
  return out;
}

void CtrDecrypt(std::string_view key, const uint8_t* buffer, size_t size, std::vector<uint8_t>* out) {
  const EVP_CIPHER* cipher = CtrCipher(key.size());
  if (size < kNonceLength) throw ParquetError("AES-CTR buffer of " + std::to_string(size) + " bytes has no room for its nonce");
  unsigned char iv[16];
  CtrIv(std::string_view(reinterpret_cast<const char*>(buffer), kNonceLength), iv);
  const size_t text_size = size - kNonceLength;
  out->resize(text_size);
  CipherContext context = NewContext();
  int length = 0;
  bool ok = EVP_DecryptInit_ex(context.get(), cipher, nullptr, Bytes(key), iv) == 1;
  if (ok && text_size > 0) {
    ok = EVP_DecryptUpdate(context.get(), out->data(), &length, buffer + kNonceLength, CheckedLength(text_size)) == 1;
  }
  unsigned char final_block[16];
  ok = ok && EVP_DecryptFinal_ex(context.get(), final_block, &length) == 1;
  if (!ok) throw ParquetError("AES-CTR decryption failed");
}

std::string ModuleCipher::Aad(ModuleType type, int row_group, int column, int page_ordinal) const {
  if (!module_aad) return std::string();
  return ModuleAad(file_aad, type, row_group, column, page_ordinal);
}

std::string ModuleCipher::Encrypt(ModuleType type, std::string_view plaintext, int row_group, int column,
                                  int page_ordinal) const {
  std::string buffer = UsesCtr(algorithm, type)
                           ? CtrEncrypt(key, plaintext)
                           : GcmEncrypt(key, plaintext, Aad(type, row_group, column, page_ordinal));
  if (buffer.size() > UINT32_MAX) throw ParquetError("encrypted module is too large");
  std::string out;
  out.reserve(kModuleLengthPrefix + buffer.size());
  const uint32_t length = static_cast<uint32_t>(buffer.size());
  for (int i = 0; i < 4; i++) out.push_back(static_cast<char>((length >> (8 * i)) & 0xFF));
  out += buffer;
  return out;
}

size_t ModuleCipher::Decrypt(ModuleType type, const uint8_t* data, size_t size, int row_group, int column,
                             int page_ordinal, std::vector<uint8_t>* out) const {
  const bool ctr = UsesCtr(algorithm, type);
  if (size < kModuleLengthPrefix) {
    throw ParquetError(std::string("encrypted ") + ModuleTypeName(type) + " is cut off (" + std::to_string(size) +
                       " bytes)");
  }
  const uint32_t length = static_cast<uint32_t>(data[0]) | (static_cast<uint32_t>(data[1]) << 8) |
                          (static_cast<uint32_t>(data[2]) << 16) | (static_cast<uint32_t>(data[3]) << 24);
  const size_t minimum = ctr ? kNonceLength : kNonceLength + kGcmTagLength;
  if (length < minimum || length > size - kModuleLengthPrefix) {
    throw ParquetError(std::string("encrypted ") + ModuleTypeName(type) + " claims " + std::to_string(length) +
                       " bytes where " + std::to_string(size - kModuleLengthPrefix) + " are available");
  }
  const uint8_t* buffer = data + kModuleLengthPrefix;
  if (ctr) {
    CtrDecrypt(key, buffer, length, out);
  } else if (!GcmDecrypt(key, buffer, length, Aad(type, row_group, column, page_ordinal), out)) {
    throw ParquetError(std::string(ModuleTypeName(type)) +
                       " fails authentication: wrong key or AAD prefix, or the file was altered");
  }
  return kModuleLengthPrefix + length;
}

void ReadIndexModule(RandomAccessFile& file, uint64_t offset, size_t length, const ModuleCipher* cipher,
                     ModuleType type, int row_group, int column, std::vector<uint8_t>* out) {
  if (cipher == nullptr) {
    file.ReadAt(offset, length, out);
    return;
  }
  std::vector<uint8_t> module;
  file.ReadAt(offset, length, &module);
  const size_t used = cipher->Decrypt(type, module.data(), module.size(), row_group, column, -1, out);
  if (used != module.size()) {
    throw ParquetError(std::string("encrypted ") + ModuleTypeName(type) + " of " + std::to_string(used) +
                       " bytes does not fill its " + std::to_string(module.size()) + " bytes");
  }
}

bool DecodeBase64(std::string_view text, SecretString* out) {
  out->clear();
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  uint32_t accumulator = 0;
  int bits = 0;
  for (char c : text) {
    int value = Base64Value(c);
    if (value < 0) return false;
    accumulator = (accumulator << 6) | static_cast<uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((accumulator >> bits) & 0xFF));
    }
  }
  return bits < 6;  // a lone trailing character cannot encode a byte
}

bool ParseKeyText(std::string_view text, SecretString* key, std::string* error) {
  key->clear();
  if (text.substr(0, 4) == "hex:") {
    std::string_view digits = text.substr(4);
    if (digits.size() % 2 != 0) {
      *error = "hex key has an odd number of digits";
      return false;
    }
    for (size_t i = 0; i < digits.size(); i += 2) {
      int high = HexValue(digits[i]), low = HexValue(digits[i + 1]);
      if (high < 0 || low < 0) {
        *error = "hex key has a character that is not a hex digit";
        return false;
      }
      key->push_back(static_cast<char>(high * 16 + low));
    }
  } else if (text.substr(0, 7) == "base64:") {
    if (!DecodeBase64(text.substr(7), key)) {
      *error = "base64 key is not valid base64";
      return false;
    }
  } else {
    key->assign(text.data(), text.size());
  }
  if (!IsValidAesKeyLength(key->size())) {
    *error = "key is " + std::to_string(key->size()) + " bytes long; AES keys are 16, 24 or 32 bytes";
    return false;
  }
  return true;
}

std::string CryptoLibraryVersion() { return OpenSSL_version(OPENSSL_VERSION); }

}  // namespace parquet
