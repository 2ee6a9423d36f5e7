// Unit tests of Parquet modular encryption (format/crypto/encryption.h and its use by the file
// reader, column reader, bloom filter reader and file writer): AES-GCM against the NIST
// GCM test vectors, the AES-CTR IV layout against AES-ECB, module AAD bytes, key text
// parsing; round trips for every algorithm x footer mode x key layout x AAD handling x
// data page version, with dictionary pages, page index and bloom filters on encrypted
// columns; the errors for wrong or missing keys, a changed byte in each module type, and
// pages or chunks swapped between places; and modules of parquet-mr and Arrow corpus files
// (encrypted bloom filters and page index).
#include <doctest/doctest.h>

#include <openssl/evp.h>
#include <stdlib.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "format/index/bloom_filter.h"
#include "format/read/column_reader.h"
#include "format/crypto/encryption.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "format/metadata/metadata.h"
#include "tests/unit/temp_dir.h"

namespace parquet {
namespace {

std::string Hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

std::string ToHex(const uint8_t* data, size_t size) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < size; i++) {
    out.push_back(digits[data[i] >> 4]);
    out.push_back(digits[data[i] & 15]);
  }
  return out;
}
std::string ToHex(std::string_view s) { return ToHex(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }

using test_support::TempDir;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// ---------------------------------------------------------------------------------------
// Ciphers.

TEST_CASE("encryption: AES-GCM matches the NIST GCM test vectors (test cases 3 and 4)") {
  const std::string key = Hex("feffe9928665731c6d6a8f9467308308");
  const std::string nonce = Hex("cafebabefacedbaddecaf888");
  const std::string plaintext = Hex(
      "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657"
      "ba637b391aafd255");
  // Test case 3: no AAD.
  std::string sealed = GcmEncrypt(key, plaintext, "", nonce);
  CHECK(ToHex(sealed.substr(0, 12)) == "cafebabefacedbaddecaf888");
  CHECK(ToHex(sealed.substr(12, plaintext.size())) ==
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac97"
        "3d58e091473f5985");
  CHECK(ToHex(sealed.substr(12 + plaintext.size())) == "4d5c2af327cd64a62cf35abd2ba6fab4");
  // Test case 4: 60 bytes with 20 bytes of AAD.
  const std::string aad = Hex("feedfacedeadbeeffeedfacedeadbeefabaddad2");
  sealed = GcmEncrypt(key, plaintext.substr(0, 60), aad, nonce);
  CHECK(ToHex(sealed.substr(12, 60)) ==
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac97"
        "3d58e091");
  CHECK(ToHex(sealed.substr(72)) == "5bc94fbc3221a5db94fae95ae7121a47");
  std::vector<uint8_t> opened;
  REQUIRE(GcmDecrypt(key, reinterpret_cast<const uint8_t*>(sealed.data()), sealed.size(), aad, &opened));
  CHECK(std::string(opened.begin(), opened.end()) == plaintext.substr(0, 60));
  // Another AAD, a changed byte or another key: no authentication.
  CHECK_FALSE(GcmDecrypt(key, reinterpret_cast<const uint8_t*>(sealed.data()), sealed.size(), "other", &opened));
  std::string changed = sealed;
  changed[20] ^= 1;
  CHECK_FALSE(GcmDecrypt(key, reinterpret_cast<const uint8_t*>(changed.data()), changed.size(), aad, &opened));
  CHECK_FALSE(GcmDecrypt(Hex("00ffe9928665731c6d6a8f9467308308"), reinterpret_cast<const uint8_t*>(sealed.data()),
                         sealed.size(), aad, &opened));
}

TEST_CASE("encryption: AES-GCM round trips with 128, 192 and 256-bit keys; other key lengths are rejected") {
  for (size_t length : {16, 24, 32}) {
    const std::string key = RandomBytes(length);
    const std::string sealed = GcmEncrypt(key, "parquet", "aad");
    CHECK(sealed.size() == 12 + 7 + 16);
    std::vector<uint8_t> opened;
    REQUIRE(GcmDecrypt(key, reinterpret_cast<const uint8_t*>(sealed.data()), sealed.size(), "aad", &opened));
    CHECK(std::string(opened.begin(), opened.end()) == "parquet");
  }
  CHECK_THROWS_AS(GcmEncrypt(std::string(15, 'k'), "x", ""), ParquetError);
  CHECK_THROWS_AS(CtrEncrypt(std::string(33, 'k'), "x"), ParquetError);
}

TEST_CASE("encryption: AES-CTR runs over nonce || 00000001 (checked against AES-ECB)") {
  for (size_t length : {16, 24, 32}) {
    const std::string key = RandomBytes(length);
    const std::string nonce = RandomBytes(12);
    const std::string plaintext = "thirty-two bytes of page text!!!";
    const std::string sealed = CtrEncrypt(key, plaintext, nonce);
    REQUIRE(sealed.size() == 12 + plaintext.size());
    CHECK(sealed.substr(0, 12) == nonce);
    // Key stream = AES(key, nonce || 00000001), AES(key, nonce || 00000002).
    const EVP_CIPHER* ecb = length == 16 ? EVP_aes_128_ecb() : length == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
    EVP_CIPHER_CTX* context = EVP_CIPHER_CTX_new();
    REQUIRE(EVP_EncryptInit_ex(context, ecb, nullptr, reinterpret_cast<const unsigned char*>(key.data()), nullptr) == 1);
    EVP_CIPHER_CTX_set_padding(context, 0);
    unsigned char counters[32], stream[32];
    for (int block = 0; block < 2; block++) {
      std::memcpy(counters + 16 * block, nonce.data(), 12);
      counters[16 * block + 12] = counters[16 * block + 13] = counters[16 * block + 14] = 0;
      counters[16 * block + 15] = static_cast<unsigned char>(block + 1);
    }
    int produced = 0;
    REQUIRE(EVP_EncryptUpdate(context, stream, &produced, counters, 32) == 1);
    EVP_CIPHER_CTX_free(context);
    for (size_t i = 0; i < plaintext.size(); i++) {
      CHECK(static_cast<uint8_t>(sealed[12 + i]) == (static_cast<uint8_t>(plaintext[i]) ^ stream[i]));
    }
    std::vector<uint8_t> opened;
    CtrDecrypt(key, reinterpret_cast<const uint8_t*>(sealed.data()), sealed.size(), &opened);
    CHECK(std::string(opened.begin(), opened.end()) == plaintext);
  }
}

TEST_CASE("encryption: module AADs are prefix || file unique || type || ordinals (2-byte little-endian)") {
  const std::string file_aad = "pre" + Hex("0102030405060708");
  CHECK(ToHex(ModuleAad(file_aad, ModuleType::kFooter, 7, 7)) == ToHex("pre") + "010203040506070800");
  CHECK(ToHex(ModuleAad(file_aad, ModuleType::kColumnMetaData, 1, 2)) == ToHex("pre") + "0102030405060708" "01" "0100" "0200");
  CHECK(ToHex(ModuleAad(file_aad, ModuleType::kDataPage, 258, 3, 513)) ==
        ToHex("pre") + "0102030405060708" "02" "0201" "0300" "0102");
  CHECK(ToHex(ModuleAad("", ModuleType::kDataPageHeader, 0, 0, 0)) == "04" "0000" "0000" "0000");
  CHECK(ToHex(ModuleAad("", ModuleType::kDictionaryPageHeader, 0, 1)) == "05" "0000" "0100");
  CHECK(ToHex(ModuleAad("", ModuleType::kBloomFilterBitset, 0, 1)) == "09" "0000" "0100");
  CHECK_THROWS_WITH_AS(ModuleAad("", ModuleType::kDataPage, 32768, 0, 0),
                       "row group ordinal 32768 does not fit the 2 bytes encryption gives it (at most 32767)",
                       ParquetError);
}

TEST_CASE("encryption: module framing and the CTR / GCM choice per algorithm") {
  ModuleCipher gcm{EncryptionAlgorithm::Kind::AES_GCM_V1, "0123456789012345", "file"};
  ModuleCipher ctr{EncryptionAlgorithm::Kind::AES_GCM_CTR_V1, "0123456789012345", "file"};
  const std::string page = gcm.Encrypt(ModuleType::kDataPage, "abc", 0, 0, 0);
  CHECK(page.size() == 4 + 12 + 3 + 16);
  CHECK(static_cast<uint8_t>(page[0]) == 31);
  const std::string ctr_page = ctr.Encrypt(ModuleType::kDataPage, "abc", 0, 0, 0);
  CHECK(ctr_page.size() == 4 + 12 + 3);
  CHECK(ctr.Encrypt(ModuleType::kDataPageHeader, "abc", 0, 0, 0).size() == 4 + 12 + 3 + 16);
  std::vector<uint8_t> out;
  std::string with_tail = page + "tail";
  CHECK(gcm.Decrypt(ModuleType::kDataPage, reinterpret_cast<const uint8_t*>(with_tail.data()), with_tail.size(), 0, 0, 0,
                    &out) == page.size());
  CHECK(std::string(out.begin(), out.end()) == "abc");
  CHECK_THROWS_WITH_AS(gcm.Decrypt(ModuleType::kDataPage, reinterpret_cast<const uint8_t*>(page.data()), page.size(),
                                   0, 0, 1, &out),
                       "data page fails authentication: wrong key or AAD prefix, or the file was altered", ParquetError);
  CHECK_THROWS_WITH_AS(gcm.Decrypt(ModuleType::kDataPage, reinterpret_cast<const uint8_t*>(page.data()), 20, 0, 0, 0, &out),
                       "encrypted data page claims 31 bytes where 16 are available", ParquetError);
}

TEST_CASE("encryption: key text is hex:, base64: or raw bytes of an AES length") {
  SecretString key;
  std::string error;
  CHECK(ParseKeyText("0123456789012345", &key, &error));
  CHECK(key == "0123456789012345");
  CHECK(ParseKeyText("hex:000102030405060708090a0b0c0d0e0f", &key, &error));
  CHECK(ToHex(key) == "000102030405060708090a0b0c0d0e0f");
  CHECK(ParseKeyText("base64:AAECAwQFBgcICQoLDA0ODw==", &key, &error));
  CHECK(ToHex(key) == "000102030405060708090a0b0c0d0e0f");
  CHECK_FALSE(ParseKeyText("hex:0g0102030405060708090a0b0c0d0e0f", &key, &error));
  CHECK(error == "hex key has a character that is not a hex digit");
  CHECK_FALSE(ParseKeyText("short", &key, &error));
  CHECK(error == "key is 5 bytes long; AES keys are 16, 24 or 32 bytes");
  CHECK_FALSE(ParseKeyText("base64:@@@@", &key, &error));
}

// ---------------------------------------------------------------------------------------
// Files: an INT64 column "id" (required, dictionary-encoded: 50 distinct values) and an
// optional BYTE_ARRAY column "name" (every third row NULL) with a bloom filter, in two row
// groups of 600 rows and small pages.

constexpr int kRowsPerGroup = 600;

std::vector<SchemaElement> TestSchema() {
  std::vector<SchemaElement> schema(3);
  schema[0].name = "schema";
  schema[0].num_children = 2;
  schema[1].name = "id";
  schema[1].type = Type::INT64;
  schema[1].repetition_type = FieldRepetitionType::REQUIRED;
  schema[2].name = "name";
  schema[2].type = Type::BYTE_ARRAY;
  schema[2].repetition_type = FieldRepetitionType::OPTIONAL;
  return schema;
}

int64_t IdOf(int row) { return (row * 7) % 50; }
std::string NameOf(int row) { return "name-" + std::to_string(row); }
bool NameIsNull(int row) { return row % 3 == 0; }

void WriteTestFile(const std::string& path, WriterOptions options, int row_groups = 2) {
  options.page_size = 512;
  options.bloom_filter_columns = {1};
  ParquetFileWriter writer(path, TestSchema(), options);
  for (int g = 0; g < row_groups; g++) {
    writer.StartRowGroup();
    std::vector<int64_t> ids;
    std::vector<int16_t> def;
    std::vector<std::string> names;
    for (int i = 0; i < kRowsPerGroup; i++) {
      const int row = g * kRowsPerGroup + i;
      ids.push_back(IdOf(row));
      def.push_back(NameIsNull(row) ? 0 : 1);
      if (!NameIsNull(row)) names.push_back(NameOf(row));
    }
    std::vector<ByteArray> views;
    for (const std::string& s : names) views.push_back(ByteArray{reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())});
    writer.WriteBatch<int64_t>(0, ids.size(), nullptr, nullptr, ids.data(), ids.size());
    writer.WriteBatch<ByteArray>(1, def.size(), def.data(), nullptr, views.data(), views.size());
    writer.EndRowGroup(kRowsPerGroup);
  }
  writer.Close();
}

// Reads every value of both columns and checks them; checks the bloom filter and the page
// index of every chunk too.
void CheckTestFile(const ParquetFileReader& file, int row_groups = 2) {
  REQUIRE(file.num_row_groups() == row_groups);
  for (int g = 0; g < row_groups; g++) {
    auto ids = ColumnChunkReader::Make(file, g, 0);
    ColumnBatch batch;
    int row = g * kRowsPerGroup;
    while (size_t n = ids->ReadBatch(256, &batch)) {
      for (size_t i = 0; i < n; i++, row++) REQUIRE(batch.values<int64_t>()[i] == IdOf(row));
    }
    CHECK(row == (g + 1) * kRowsPerGroup);
    CHECK(ids->counters().pages_read >= 1);
    auto names = ColumnChunkReader::Make(file, g, 1);
    row = g * kRowsPerGroup;
    while (size_t n = names->ReadBatch(256, &batch)) {
      size_t value = 0;
      for (size_t i = 0; i < n; i++, row++) {
        REQUIRE((batch.def_levels[i] == 0) == NameIsNull(row));
        if (batch.def_levels[i] == 1) REQUIRE(batch.values<ByteArray>()[value++].view() == NameOf(row));
      }
    }
    CHECK(row == (g + 1) * kRowsPerGroup);
    // Bloom filter of "name".
    const ColumnMetaData& meta = file.column_metadata(g, 1);
    std::optional<BloomFilter> filter = ReadBloomFilter(file.file(), meta, file.column_cipher(g, 1), g, 1);
    REQUIRE(filter.has_value());
    CHECK(filter->MightContain(BloomHashOf(std::string_view(NameOf(g * kRowsPerGroup + 1)))));
    // Offset index: one location per data page, the first at data_page_offset.
    const ColumnChunk& chunk = file.row_group(g).columns[0];
    REQUIRE(chunk.offset_index_offset.has_value());
    std::vector<uint8_t> plain;
    ReadIndexModule(file.file(), static_cast<uint64_t>(*chunk.offset_index_offset),
                    static_cast<size_t>(*chunk.offset_index_length), file.column_cipher(g, 0), ModuleType::kOffsetIndex,
                    g, 0, &plain);
    OffsetIndex index = ParseOffsetIndex(plain.data(), plain.size());
    REQUIRE(!index.page_locations.empty());
    CHECK(index.page_locations[0].offset == file.column_metadata(g, 0).data_page_offset);
    REQUIRE(chunk.column_index_offset.has_value());
    ReadIndexModule(file.file(), static_cast<uint64_t>(*chunk.column_index_offset),
                    static_cast<size_t>(*chunk.column_index_length), file.column_cipher(g, 0), ModuleType::kColumnIndex,
                    g, 0, &plain);
    ColumnIndex column_index = ParseColumnIndex(plain.data(), plain.size());
    CHECK(column_index.null_pages.size() == index.page_locations.size());
  }
}

const std::string kFooterKey = "0123456789012345";
const std::string kIdKey = Hex("00112233445566778899aabbccddeeff0011223344556677");  // 192-bit
const std::string kNameKey = "01234567890123456789012345678901";                      // 256-bit

TEST_CASE("encryption: round trips for every algorithm, footer mode, key layout, AAD handling and page version") {
  TempDir dir;
  int files = 0;
  for (auto algorithm : {EncryptionAlgorithm::Kind::AES_GCM_V1, EncryptionAlgorithm::Kind::AES_GCM_CTR_V1}) {
    for (bool plaintext_footer : {false, true}) {
      for (int layout = 0; layout < 3; layout++) {  // 0: footer key, 1: column keys, 2: id plaintext, name own key
        for (int aad = 0; aad < 3; aad++) {         // 0: none, 1: stored prefix, 2: supplied prefix
          for (int page_version : {1, 2}) {
            CAPTURE(static_cast<int>(algorithm));
            CAPTURE(plaintext_footer);
            CAPTURE(layout);
            CAPTURE(aad);
            CAPTURE(page_version);
            auto encryption = std::make_shared<FileEncryptionProperties>();
            encryption->algorithm = algorithm;
            encryption->footer_key = kFooterKey;
            encryption->plaintext_footer = plaintext_footer;
            if (layout == 1) encryption->column_keys = {{"id", kIdKey}, {"name", kNameKey}};
            if (layout == 2) {
              encryption->column_keys = {{"name", kNameKey}};
              encryption->plaintext_columns = {"id"};
            }
            if (aad > 0) encryption->aad_prefix = "table.part0";
            encryption->store_aad_prefix = aad != 2;
            WriterOptions options;
            options.data_page_version = page_version;
            options.encryption = encryption;
            const std::string path = dir.File("f" + std::to_string(files++) + ".parquet");
            WriteTestFile(path, options);

            const std::string bytes = ReadAll(path);
            CHECK(bytes.substr(0, 4) == (plaintext_footer ? "PAR1" : "PARE"));
            CHECK(bytes.substr(bytes.size() - 4) == (plaintext_footer ? "PAR1" : "PARE"));
            CHECK(bytes.find("name-1") == std::string::npos);  // no plaintext values

            FileDecryptionProperties keys;
            keys.footer_key = kFooterKey;
            if (layout >= 1) keys.column_keys = {{"id", kIdKey}, {"name", kNameKey}};
            if (aad == 2) keys.aad_prefix = "table.part0";
            auto file = ParquetFileReader::Open(path, &keys);
            REQUIRE(file->encryption_algorithm().has_value());
            CHECK(file->encryption_algorithm()->kind == algorithm);
            CHECK(file->footer_encrypted() == !plaintext_footer);
            CHECK(file->footer_signature_verified() == plaintext_footer);
            CHECK(file->column_encrypted(0, 0) == (layout != 2));
            CHECK(file->column_encrypted(1, 1));
            // Statistics come back whole (decrypted column metadata).
            REQUIRE(file->column_metadata(1, 0).statistics.has_value());
            CHECK(file->column_metadata(1, 0).statistics->null_count == 0);
            CHECK(file->column_metadata(0, 1).statistics->null_count == kRowsPerGroup / 3);
            CheckTestFile(*file);
          }
        }
      }
    }
  }
}

TEST_CASE("encryption: key_retriever finds keys by the key_metadata the writer stored") {
  TempDir dir;
  auto encryption = std::make_shared<FileEncryptionProperties>();
  encryption->footer_key = kFooterKey;
  encryption->footer_key_metadata = "footer-key-id";
  encryption->column_keys = {{"name", kNameKey}};
  encryption->column_key_metadata = {{"name", "name-key-id"}};
  WriterOptions options;
  options.encryption = encryption;
  const std::string path = dir.File("kms.parquet");
  WriteTestFile(path, options);
  FileDecryptionProperties keys;
  std::vector<std::string> asked;
  keys.key_retriever = [&asked](const std::string& metadata, const std::string&) -> std::optional<SecretString> {
    asked.push_back(metadata);
    if (metadata == "footer-key-id") return kFooterKey;
    if (metadata == "name-key-id") return kNameKey;
    return std::nullopt;
  };
  auto file = ParquetFileReader::Open(path, &keys);
  CheckTestFile(*file);
  CHECK(asked == std::vector<std::string>{"footer-key-id", "name-key-id"});
}

TEST_CASE("encryption: wrong or missing keys are errors naming the file and column") {
  TempDir dir;
  auto encryption = std::make_shared<FileEncryptionProperties>();
  encryption->footer_key = kFooterKey;
  encryption->column_keys = {{"name", kNameKey}};
  WriterOptions options;
  options.encryption = encryption;
  const std::string path = dir.File("keys.parquet");
  WriteTestFile(path, options);

  CHECK_THROWS_WITH_AS(ParquetFileReader::Open(path), (path + " has an encrypted footer: a footer key is needed to read it").c_str(),
                       ParquetError);
  FileDecryptionProperties wrong_footer;
  wrong_footer.footer_key = "5123456789012345";
  CHECK_THROWS_WITH_AS(ParquetFileReader::Open(path, &wrong_footer),
                       ("cannot decrypt the footer of " + path +
                        ": footer fails authentication: wrong key or AAD prefix, or the file was altered").c_str(),
                       ParquetError);
  FileDecryptionProperties wrong_column;
  wrong_column.footer_key = kFooterKey;
  wrong_column.column_keys = {{"name", "01234567890123456789012345678900"}};
  CHECK_THROWS_WITH_AS(ParquetFileReader::Open(path, &wrong_column),
                       ("file '" + path + "', column 'name', row group 0: cannot decrypt the column metadata: column "
                        "metadata fails authentication: wrong key or AAD prefix, or the file was altered").c_str(),
                       ParquetError);
  // Without the column's key the other column reads; this one is an error naming it.
  FileDecryptionProperties footer_only;
  footer_only.footer_key = kFooterKey;
  auto file = ParquetFileReader::Open(path, &footer_only);
  CHECK(file->column_key_missing(0, 1));
  auto ids = ColumnChunkReader::Make(*file, 0, 0);
  ColumnBatch batch;
  CHECK(ids->ReadBatch(10, &batch) == 10);
  CHECK_THROWS_WITH_AS(ColumnChunkReader::Make(*file, 0, 1),
                       ("file '" + path + "', column 'name', row group 0: column is encrypted and no key was given for it").c_str(),
                       ParquetError);
  // An AAD prefix the file does not have.
  FileDecryptionProperties bad_prefix;
  bad_prefix.footer_key = kFooterKey;
  bad_prefix.aad_prefix = "other";
  CHECK_THROWS_AS(ParquetFileReader::Open(path, &bad_prefix), ParquetError);
}

TEST_CASE("encryption: a plaintext footer is signed; without keys its plaintext columns read") {
  TempDir dir;
  auto encryption = std::make_shared<FileEncryptionProperties>();
  encryption->footer_key = kFooterKey;
  encryption->column_keys = {{"name", kNameKey}};
  encryption->plaintext_columns = {"id"};
  encryption->plaintext_footer = true;
  WriterOptions options;
  options.encryption = encryption;
  const std::string path = dir.File("signed.parquet");
  WriteTestFile(path, options);

  auto file = ParquetFileReader::Open(path);  // no keys at all
  CHECK_FALSE(file->footer_signature_verified());
  CHECK_FALSE(file->row_group(0).columns[1].meta_data->statistics.has_value());  // redacted
  auto ids = ColumnChunkReader::Make(*file, 1, 0);
  ColumnBatch batch;
  REQUIRE(ids->ReadBatch(5, &batch) == 5);
  CHECK(batch.values<int64_t>()[0] == IdOf(kRowsPerGroup));
  CHECK_THROWS_AS(ColumnChunkReader::Make(*file, 1, 1), ParquetError);

  FileDecryptionProperties wrong;
  wrong.footer_key = "9999999999999999";
  CHECK_THROWS_WITH_AS(ParquetFileReader::Open(path, &wrong),
                       ("the footer signature of " + path +
                        " does not verify: wrong footer key or AAD prefix, or the footer was altered").c_str(),
                       ParquetError);
  wrong.verify_footer_signature = false;
  CHECK_NOTHROW(ParquetFileReader::Open(path, &wrong));

  // A changed footer byte (the created_by text) breaks the signature.
  std::string bytes = ReadAll(path);
  const size_t at = bytes.rfind("sqlite-parquet");
  REQUIRE(at != std::string::npos);
  bytes[at] = 'S';
  WriteAll(path, bytes);
  FileDecryptionProperties keys;
  keys.footer_key = kFooterKey;
  CHECK_THROWS_WITH_AS(ParquetFileReader::Open(path, &keys),
                       ("the footer signature of " + path +
                        " does not verify: wrong footer key or AAD prefix, or the footer was altered").c_str(),
                       ParquetError);
}

// Reads everything of the file, the page index and bloom filters included; returns the
// first error's text ("" when all reads succeed).
std::string ReadEverything(const std::string& path, const FileDecryptionProperties& keys) {
  try {
    auto file = ParquetFileReader::Open(path, &keys);
    CheckTestFile(*file, file->num_row_groups());
    return "";
  } catch (const ParquetError& e) {
    return e.what();
  }
}

// Offset and size (length prefix included) of the encrypted module at `offset`.
size_t ModuleSize(const std::string& bytes, size_t offset) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(bytes.data()) + offset;
  return 4 + (static_cast<size_t>(p[0]) | (static_cast<size_t>(p[1]) << 8) | (static_cast<size_t>(p[2]) << 16) |
              (static_cast<size_t>(p[3]) << 24));
}

TEST_CASE("encryption: a changed byte in any module type fails authentication, naming the module") {
  TempDir dir;
  auto encryption = std::make_shared<FileEncryptionProperties>();
  encryption->footer_key = kFooterKey;
  encryption->column_keys = {{"name", kNameKey}};
  WriterOptions options;
  options.encryption = encryption;
  options.write_crc = false;  // with CRCs (over the encrypted pages) a changed page byte is a CRC mismatch first
  const std::string path = dir.File("modules.parquet");
  WriteTestFile(path, options, 1);
  FileDecryptionProperties keys;
  keys.footer_key = kFooterKey;
  keys.column_keys = {{"name", kNameKey}};
  REQUIRE(ReadEverything(path, keys).empty());

  const std::string original = ReadAll(path);
  auto file = ParquetFileReader::Open(path, &keys);
  const ColumnMetaData& id_meta = file->column_metadata(0, 0);
  const ColumnMetaData& name_meta = file->column_metadata(0, 1);
  const ColumnChunk& id_chunk = file->row_group(0).columns[0];
  REQUIRE(id_meta.dictionary_page_offset.has_value());
  const size_t dictionary_header = static_cast<size_t>(*id_meta.dictionary_page_offset);
  const size_t dictionary_page = dictionary_header + ModuleSize(original, dictionary_header);
  const size_t data_header = static_cast<size_t>(id_meta.data_page_offset);
  const size_t data_page = data_header + ModuleSize(original, data_header);
  const size_t bloom_header = static_cast<size_t>(*name_meta.bloom_filter_offset);
  const size_t bloom_bitset = bloom_header + ModuleSize(original, bloom_header);
  const size_t footer_length = static_cast<uint8_t>(original[original.size() - 8]) |
                               (static_cast<size_t>(static_cast<uint8_t>(original[original.size() - 7])) << 8);
  const size_t footer_end = original.size() - 8;
  struct Target {
    const char* module;
    size_t offset;
  };
  const Target targets[] = {
      {"dictionary page header", dictionary_header}, {"dictionary page", dictionary_page},
      {"data page header", data_header},             {"data page", data_page},
      {"column index", static_cast<size_t>(*id_chunk.column_index_offset)},
      {"offset index", static_cast<size_t>(*id_chunk.offset_index_offset)},
      {"bloom filter header", bloom_header},         {"bloom filter bitset", bloom_bitset},
      {"footer", footer_end - 20},
  };
  (void)footer_length;
  for (const Target& target : targets) {
    CAPTURE(target.module);
    std::string changed = original;
    changed[target.offset + 10] = static_cast<char>(changed[target.offset + 10] ^ 0x40);  // inside nonce/text
    WriteAll(path, changed);
    const std::string error = ReadEverything(path, keys);
    CHECK_MESSAGE(error.find(std::string(target.module) + " fails authentication") != std::string::npos, error);
  }
  // The encrypted ColumnMetaData of "name" lives inside the encrypted footer: changing the
  // key of its column is the test (above); a changed byte of it shows as a footer error.
}

// Issue 20, finding 7 (what docs/encryption.md says of AES_GCM_CTR_V1): CTR page bodies carry no
// tag, so a flipped ciphertext bit flips the same plaintext bit unnoticed; a page CRC, which
// lies in the GCM-authenticated page header and covers the encrypted bytes, catches it.
TEST_CASE("encryption: AES_GCM_CTR_V1 page bodies are not authenticated; a page CRC catches a change") {
  for (const bool crc : {false, true}) {
    CAPTURE(crc);
    TempDir dir;
    auto encryption = std::make_shared<FileEncryptionProperties>();
    encryption->algorithm = EncryptionAlgorithm::Kind::AES_GCM_CTR_V1;
    encryption->footer_key = kFooterKey;
    WriterOptions options;
    options.encryption = encryption;
    options.codec = CompressionCodec::UNCOMPRESSED;
    options.write_crc = crc;
    const std::string path = dir.File("ctr.parquet");
    WriteTestFile(path, options, 1);
    FileDecryptionProperties keys;
    keys.footer_key = kFooterKey;
    const std::string original = ReadAll(path);
    size_t dictionary_page = 0;
    std::vector<int64_t> original_entries;
    {
      auto file = ParquetFileReader::Open(path, &keys);
      const ColumnMetaData& id_meta = file->column_metadata(0, 0);
      REQUIRE(id_meta.dictionary_page_offset.has_value());
      const size_t dictionary_header = static_cast<size_t>(*id_meta.dictionary_page_offset);
      dictionary_page = dictionary_header + ModuleSize(original, dictionary_header);
      original_entries = ReadChunkDictionary(*file, 0, 0)->int64s;
    }
    std::string changed = original;
    const size_t first_value = dictionary_page + kModuleLengthPrefix + kNonceLength;  // PLAIN int64 entries
    changed[first_value] = static_cast<char>(changed[first_value] ^ 0x01);
    WriteAll(path, changed);
    auto file = ParquetFileReader::Open(path, &keys);
    if (!crc) {
      const std::optional<ChunkDictionary> dictionary = ReadChunkDictionary(*file, 0, 0);
      REQUIRE(dictionary.has_value());
      REQUIRE(dictionary->int64s.size() == original_entries.size());
      CHECK(dictionary->int64s[0] == (original_entries[0] ^ 1));  // changed, and no error
    } else {
      CHECK_THROWS_WITH_AS(ReadChunkDictionary(*file, 0, 0), doctest::Contains("page CRC mismatch"), ParquetError);
    }
  }
}

TEST_CASE("encryption: pages swapped within a chunk and chunks swapped between row groups fail authentication") {
  TempDir dir;
  auto encryption = std::make_shared<FileEncryptionProperties>();
  encryption->footer_key = kFooterKey;
  WriterOptions options;
  options.encryption = encryption;
  options.dictionary = false;
  options.automatic_encoding = false;
  options.codec = CompressionCodec::UNCOMPRESSED;
  options.write_crc = false;
  const std::string path = dir.File("swap.parquet");
  // "id" only repeats with period 50, so both row groups' id chunks have equal sizes.
  WriteTestFile(path, options);
  FileDecryptionProperties keys;
  keys.footer_key = kFooterKey;
  REQUIRE(ReadEverything(path, keys).empty());
  const std::string original = ReadAll(path);
  auto file = ParquetFileReader::Open(path, &keys);

  // Two data pages of the same size inside row group 0's id chunk.
  std::vector<uint8_t> bytes, plain;
  const ColumnChunk& chunk = file->row_group(0).columns[0];
  file->file().ReadAt(static_cast<uint64_t>(*chunk.offset_index_offset), static_cast<size_t>(*chunk.offset_index_length), &bytes);
  file->column_cipher(0, 0)->Decrypt(ModuleType::kOffsetIndex, bytes.data(), bytes.size(), 0, 0, -1, &plain);
  OffsetIndex index = ParseOffsetIndex(plain.data(), plain.size());
  REQUIRE(index.page_locations.size() >= 3);
  const PageLocation& first = index.page_locations[0];
  const PageLocation& second = index.page_locations[1];
  REQUIRE(first.compressed_page_size == second.compressed_page_size);
  std::string swapped = original;
  const size_t size = static_cast<size_t>(first.compressed_page_size);
  swapped.replace(static_cast<size_t>(first.offset), size, original, static_cast<size_t>(second.offset), size);
  swapped.replace(static_cast<size_t>(second.offset), size, original, static_cast<size_t>(first.offset), size);
  WriteAll(path, swapped);
  std::string error = ReadEverything(path, keys);
  CHECK_MESSAGE(error.find("row group 0, page 0: data page header fails authentication") != std::string::npos, error);

  // Whole id chunks of row groups 0 and 1 exchanged.
  const ColumnMetaData& meta0 = file->column_metadata(0, 0);
  const ColumnMetaData& meta1 = file->column_metadata(1, 0);
  REQUIRE(meta0.total_compressed_size == meta1.total_compressed_size);
  swapped = original;
  const size_t chunk_size = static_cast<size_t>(meta0.total_compressed_size);
  swapped.replace(static_cast<size_t>(meta0.data_page_offset), chunk_size, original,
                  static_cast<size_t>(meta1.data_page_offset), chunk_size);
  swapped.replace(static_cast<size_t>(meta1.data_page_offset), chunk_size, original,
                  static_cast<size_t>(meta0.data_page_offset), chunk_size);
  WriteAll(path, swapped);
  error = ReadEverything(path, keys);
  CHECK_MESSAGE(error.find("column 'id', row group 0, page 0: data page header fails authentication") != std::string::npos,
                error);

  // The same file under another AAD prefix: every module fails.
  WriteAll(path, original);
  FileDecryptionProperties other_prefix = keys;
  other_prefix.aad_prefix = "elsewhere";
  CHECK(ReadEverything(path, other_prefix).find("footer fails authentication") != std::string::npos);
}

TEST_CASE("encryption: offset-index jumps land on encrypted pages with the right page ordinals") {
  TempDir dir;
  for (auto algorithm : {EncryptionAlgorithm::Kind::AES_GCM_V1, EncryptionAlgorithm::Kind::AES_GCM_CTR_V1}) {
    auto encryption = std::make_shared<FileEncryptionProperties>();
    encryption->algorithm = algorithm;
    encryption->footer_key = kFooterKey;
    encryption->column_keys = {{"name", kNameKey}};
    WriterOptions options;
    options.encryption = encryption;
    options.dictionary = false;
    const std::string path = dir.File("jump.parquet");
    WriteTestFile(path, options);
    FileDecryptionProperties keys;
    keys.footer_key = kFooterKey;
    keys.column_keys = {{"name", kNameKey}};
    auto file = ParquetFileReader::Open(path, &keys);
    for (int column : {0, 1}) {
      CAPTURE(column);
      auto reader = ColumnChunkReader::Make(*file, 1, column);
      const int64_t target = 517;
      REQUIRE(reader->SeekToRow(target) == target);
      ColumnBatch batch;
      REQUIRE(reader->ReadBatch(1, &batch) == 1);
      const int row = kRowsPerGroup + static_cast<int>(target);
      if (column == 0) {
        CHECK(batch.values<int64_t>()[0] == IdOf(row));
      } else {
        REQUIRE(batch.def_levels[0] == (NameIsNull(row) ? 0 : 1));
        if (!NameIsNull(row)) CHECK(batch.values<ByteArray>()[0].view() == NameOf(row));
      }
      CHECK(reader->counters().pages_skipped > 0);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Modules written by other writers (parquet-testing corpus; keys from its INDEX.md).

const std::string kTestingData = "../shared/parquet-testing/data/";

TEST_CASE("encryption: parquet-mr's encrypted bloom filters and page index decrypt") {
  FileDecryptionProperties keys;
  keys.footer_key = "0123456789012345";
  keys.column_keys = {{"double_field", "1234567890123450"}, {"float_field", "1234567890123451"}};
  auto file = ParquetFileReader::Open(kTestingData + "encrypt_columns_and_footer_bloom_filter.parquet.encrypted", &keys);
  REQUIRE(file->num_row_groups() == 1);
  // double_field = i + 0.5, float_field = i + 0.25 for i < 2000 (column keys kc1, kc2).
  std::optional<BloomFilter> doubles = ReadBloomFilter(file->file(), file->column_metadata(0, 0), file->column_cipher(0, 0), 0, 0);
  std::optional<BloomFilter> floats = ReadBloomFilter(file->file(), file->column_metadata(0, 1), file->column_cipher(0, 1), 0, 1);
  REQUIRE(doubles.has_value());
  REQUIRE(floats.has_value());
  int absent_found = 0;
  for (int i = 0; i < 2000; i++) {
    REQUIRE(doubles->MightContain(BloomHashOf(i + 0.5)));
    REQUIRE(floats->MightContain(BloomHashOf(static_cast<float>(i) + 0.25f)));
    absent_found += doubles->MightContain(BloomHashOf(i + 0.75)) ? 1 : 0;
  }
  CHECK(absent_found < 200);  // false positives only
  // The filter authenticates with its own chunk's ordinals only.
  CHECK_THROWS_WITH_AS(ReadBloomFilter(file->file(), file->column_metadata(0, 0), file->column_cipher(0, 0), 0, 1),
                       "bloom filter header fails authentication: wrong key or AAD prefix, or the file was altered",
                       ParquetError);
  // Offset index of double_field: its pages cover the 2000 rows.
  const ColumnChunk& chunk = file->row_group(0).columns[0];
  REQUIRE(chunk.offset_index_offset.has_value());
  std::vector<uint8_t> plain;
  ReadIndexModule(file->file(), static_cast<uint64_t>(*chunk.offset_index_offset),
                  static_cast<size_t>(*chunk.offset_index_length), file->column_cipher(0, 0), ModuleType::kOffsetIndex, 0,
                  0, &plain);
  OffsetIndex index = ParseOffsetIndex(plain.data(), plain.size());
  REQUIRE(index.page_locations.size() == 3);
  CHECK(index.page_locations[0].first_row_index == 0);
  CHECK(index.page_locations[0].offset == file->column_metadata(0, 0).data_page_offset);
}

TEST_CASE("encryption: the corpus files' key layouts and algorithms are recognized") {
  FileDecryptionProperties keys;
  keys.footer_key = "0123456789012345";
  keys.column_keys = {{"double_field", "1234567890123450"}, {"float_field", "1234567890123451"}};
  auto ctr = ParquetFileReader::Open(kTestingData + "encrypt_columns_and_footer_ctr.parquet.encrypted", &keys);
  CHECK(ctr->encryption_algorithm()->kind == EncryptionAlgorithm::Kind::AES_GCM_CTR_V1);
  CHECK(ctr->footer_encrypted());
  auto signed_footer = ParquetFileReader::Open(kTestingData + "encrypt_columns_plaintext_footer.parquet.encrypted", &keys);
  CHECK_FALSE(signed_footer->footer_encrypted());
  CHECK(signed_footer->footer_signature_verified());
  // double_field has its own key: its statistics come from the encrypted column metadata.
  const int double_column = 5;
  REQUIRE(signed_footer->schema().column(double_column).dotted_path == "double_field");
  REQUIRE(signed_footer->column_metadata(0, double_column).statistics.has_value());
  CHECK(signed_footer->column_metadata(0, double_column).statistics->min_value.has_value());
}

}  // namespace
}  // namespace parquet
