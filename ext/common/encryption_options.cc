// Parsing of the key options and the key_table lookup (see encryption_options.h).
#include "ext/common/encryption_options.h"

#include <vector>

#include "ext/common/schema_guard.h"
#include "format/common/error.h"
#include "format/io/random_access_file.h"

namespace sqlite_parquet {

namespace {

// parquet-mr's key material file beside a data file holds a few keys' JSON.
constexpr size_t kMaxKeyMaterialFileBytes = 1 << 20;

std::string_view TrimKeyText(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

using parquet::SecretString;

// Splits "a:x,b:y" into (path, value) pairs; false with *error on an entry without ':'. The
// error names the entry by its position only: an entry without its path may be a bare key.
bool SplitPairs(std::string_view text, const char* option, std::vector<std::pair<std::string, SecretString>>* out,
                std::string* error) {
  for (int entry_number = 1; !text.empty(); entry_number++) {
    size_t comma = text.find(',');
    std::string_view entry = TrimKeyText(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (entry.empty()) continue;
    size_t colon = entry.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      *error = std::string("invalid entry ") + std::to_string(entry_number) + " in " + option +
               ": expected name:value (the entry is not shown: it may hold a key)";
      return false;
    }
    out->emplace_back(std::string(TrimKeyText(entry.substr(0, colon))), SecretString(entry.substr(colon + 1)));
  }
  return true;
}

bool ParseKeyOption(const ParsedOptions& parsed, const char* option, SecretString* key, std::string* error) {
  const OptionValue* value = parsed.Find(option);
  if (value == nullptr) return true;
  std::string why;
  if (!parquet::ParseKeyText(value->text, key, &why)) {
    *error = std::string("invalid value for ") + option + ": " + why;
    return false;
  }
  return true;
}

// Reads every (key_metadata, key) row of `table`. A key_table is read while a `parquet`
// table is being connected, before SQLite can refuse a use from a database someone else
// made: reading a virtual table (a `parquet` one, a module reading files) or a view that
// reads one could read files then. So the name is resolved to an ordinary table
// (ResolveOrdinaryTable: nothing a table of the database can shadow, eponymous virtual
// tables refused) and read qualified by its schema.
bool ReadKeyTable(sqlite3* db, const std::string& table, std::map<std::string, SecretString>* keys,
                  std::string* error) {
  std::string refusal, schema;
  try {
    schema = ResolveOrdinaryTable(db, table, &refusal);
  } catch (const std::runtime_error& e) {
    *error = "key_table '" + table + "' cannot be looked up: " + e.what();
    return false;
  }
  if (schema.empty()) {
    *error = refusal.empty() ? "key_table '" + table + "' cannot be read (it needs columns key_metadata and key): "
                               "no database has an ordinary table of that name"
                             : "key_table '" + table + "' is " + refusal + ": it must be an ordinary table";
    return false;
  }
  char* sql = sqlite3_mprintf("SELECT key_metadata, key FROM \"%w\".\"%w\"", schema.c_str(), table.c_str());
  if (sql == nullptr) {
    *error = "out of memory";
    return false;
  }
  sqlite3_stmt* statement = nullptr;
  int rc = sqlite3_prepare_v2(db, sql, -1, &statement, nullptr);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) {
    *error = "key_table '" + table + "' cannot be read (it needs columns key_metadata and key): " + sqlite3_errmsg(db);
    return false;
  }
  while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
    const void* metadata = sqlite3_column_blob(statement, 0);
    const int metadata_size = sqlite3_column_bytes(statement, 0);
    const unsigned char* key_text = sqlite3_column_text(statement, 1);
    if (metadata == nullptr && metadata_size == 0) continue;
    SecretString key;
    if (sqlite3_column_type(statement, 1) == SQLITE_BLOB) {
      const void* blob = sqlite3_column_blob(statement, 1);
      key.assign(static_cast<const char*>(blob), static_cast<size_t>(sqlite3_column_bytes(statement, 1)));
      if (!parquet::IsValidAesKeyLength(key.size())) {
        *error = "key_table '" + table + "' has a key of " + std::to_string(key.size()) +
                 " bytes; AES keys are 16, 24 or 32 bytes";
        sqlite3_finalize(statement);
        return false;
      }
    } else {
      std::string why;
      const std::string_view text = key_text != nullptr ? reinterpret_cast<const char*>(key_text) : "";
      if (!parquet::ParseKeyText(text, &key, &why)) {
        *error = "key_table '" + table + "' has an invalid key: " + why;
        sqlite3_finalize(statement);
        return false;
      }
    }
    (*keys)[std::string(static_cast<const char*>(metadata), static_cast<size_t>(metadata_size))] = key;
  }
  sqlite3_finalize(statement);
  if (rc != SQLITE_DONE) {
    *error = "key_table '" + table + "' cannot be read: " + sqlite3_errmsg(db);
    return false;
  }
  return true;
}

// ---- parquet-mr key material (PKMT1) --------------------------------------------------
//
// parquet-mr's key tools store, per key, a JSON "key material": masterKeyID, wrappedDEK
// (base64), doubleWrapping, and for double wrapping keyEncryptionKeyID and wrappedKEK.
// Wrapping is AES-GCM (nonce || ciphertext || tag) with a master key from the KMS: single
// wrapping DEK = open(master, wrappedDEK, AAD = masterKeyID); double wrapping
// KEK = open(master, wrappedKEK, AAD = masterKeyID), DEK = open(KEK, wrappedDEK,
// AAD = base64-decoded keyEncryptionKeyID). The file's key_metadata is either the material
// itself ("internalStorage":true) or a reference to it ("keyReference") in the companion
// file _KEY_MATERIAL_FOR_<file name>.json beside the file, a JSON object of key reference
// -> material text. kms_master_keys gives the master keys (as an in-memory KMS does).

// A flat JSON object: member name -> string value ("true"/"false" for booleans; other
// values are skipped). False for malformed text.
bool ParseFlatJsonObject(std::string_view text, std::map<std::string, std::string>* out) {
  size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++;
  };
  auto parse_string = [&](std::string* value) {
    if (i >= text.size() || text[i] != '"') return false;
    i++;
    value->clear();
    while (i < text.size() && text[i] != '"') {
      char c = text[i++];
      if (c != '\\') {
        value->push_back(c);
        continue;
      }
      if (i >= text.size()) return false;
      char e = text[i++];
      switch (e) {
        case 'n': value->push_back('\n'); break;
        case 't': value->push_back('\t'); break;
        case 'r': value->push_back('\r'); break;
        case 'b': value->push_back('\b'); break;
        case 'f': value->push_back('\f'); break;
        case 'u': {
          if (i + 4 > text.size()) return false;
          unsigned code = 0;
          for (int k = 0; k < 4; k++) {
            char h = text[i++];
            code = code * 16 + static_cast<unsigned>(h >= '0' && h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
          }
          if (code < 0x80) {
            value->push_back(static_cast<char>(code));
          } else if (code < 0x800) {
            value->push_back(static_cast<char>(0xC0 | (code >> 6)));
            value->push_back(static_cast<char>(0x80 | (code & 0x3F)));
          } else {
            value->push_back(static_cast<char>(0xE0 | (code >> 12)));
            value->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
            value->push_back(static_cast<char>(0x80 | (code & 0x3F)));
          }
          break;
        }
        default: value->push_back(e); break;  // \" \\ \/
      }
    }
    if (i >= text.size()) return false;
    i++;
    return true;
  };
  skip_space();
  if (i >= text.size() || text[i] != '{') return false;
  i++;
  skip_space();
  if (i < text.size() && text[i] == '}') return true;
  while (true) {
    std::string name, value;
    skip_space();
    if (!parse_string(&name)) return false;
    skip_space();
    if (i >= text.size() || text[i] != ':') return false;
    i++;
    skip_space();
    if (i < text.size() && text[i] == '"') {
      if (!parse_string(&value)) return false;
      (*out)[name] = value;
    } else {
      size_t start = i;
      while (i < text.size() && text[i] != ',' && text[i] != '}') i++;
      std::string_view word = TrimKeyText(text.substr(start, i - start));
      if (word == "true" || word == "false") (*out)[name] = std::string(word);
    }
    skip_space();
    if (i < text.size() && text[i] == ',') {
      i++;
      continue;
    }
    if (i < text.size() && text[i] == '}') return true;
    return false;
  }
}

SecretString Base64Field(const std::map<std::string, std::string>& material, const char* field) {
  auto found = material.find(field);
  SecretString bytes;
  if (found == material.end() || !parquet::DecodeBase64(found->second, &bytes)) {
    throw parquet::ParquetError(std::string("key material lacks a valid ") + field);
  }
  return bytes;
}

SecretString Unwrap(std::string_view key, std::string_view wrapped, std::string_view aad, const char* what) {
  constexpr size_t kOverhead = parquet::kNonceLength + parquet::kGcmTagLength;
  SecretString out(wrapped.size() > kOverhead ? wrapped.size() - kOverhead : 0, '\0');
  if (wrapped.size() < kOverhead ||
      !parquet::GcmDecrypt(key, reinterpret_cast<const uint8_t*>(wrapped.data()), wrapped.size(), aad,
                           reinterpret_cast<uint8_t*>(out.data()))) {
    throw parquet::ParquetError(std::string("cannot unwrap the ") + what + " of the key material: wrong master key");
  }
  return out;
}

// The data key of one key_metadata, or nullopt when it is not PKMT1 key material.
std::optional<SecretString> KeyFromMaterial(const std::map<std::string, SecretString>& master_keys,
                                           const std::string& key_metadata, const std::string& file_name) {
  std::map<std::string, std::string> metadata;
  if (!ParseFlatJsonObject(key_metadata, &metadata)) return std::nullopt;
  auto type = metadata.find("keyMaterialType");
  if (type == metadata.end() || type->second != "PKMT1") return std::nullopt;
  std::map<std::string, std::string> material;
  if (metadata["internalStorage"] == "true") {
    material = metadata;
  } else {
    auto reference = metadata.find("keyReference");
    if (reference == metadata.end()) throw parquet::ParquetError("key metadata has neither key material nor keyReference");
    const size_t slash = file_name.rfind('/');
    const std::string directory = slash == std::string::npos ? std::string() : file_name.substr(0, slash + 1);
    const std::string base = slash == std::string::npos ? file_name : file_name.substr(slash + 1);
    const std::string companion = directory + "_KEY_MATERIAL_FOR_" + base + ".json";
    // A regular file only (no FIFO to hang on), and small: it holds a few keys' JSON.
    std::string text;
    try {
      text = parquet::ReadSmallFile(companion, kMaxKeyMaterialFileBytes);
    } catch (const parquet::ParquetError&) {
      throw parquet::ParquetError("cannot read the key material file '" + companion + "'");
    }
    std::map<std::string, std::string> references;
    if (!ParseFlatJsonObject(text, &references)) throw parquet::ParquetError("'" + companion + "' is not a JSON object");
    auto entry = references.find(reference->second);
    if (entry == references.end()) {
      throw parquet::ParquetError("'" + companion + "' has no key material for '" + reference->second + "'");
    }
    if (!ParseFlatJsonObject(entry->second, &material)) {
      throw parquet::ParquetError("the key material for '" + reference->second + "' is not a JSON object");
    }
  }
  auto master_id = material.find("masterKeyID");
  if (master_id == material.end()) throw parquet::ParquetError("key material lacks masterKeyID");
  auto master = master_keys.find(master_id->second);
  if (master == master_keys.end()) {
    throw parquet::ParquetError("kms_master_keys has no key '" + master_id->second + "'");
  }
  const SecretString wrapped_dek = Base64Field(material, "wrappedDEK");
  if (material["doubleWrapping"] != "true") return Unwrap(master->second, wrapped_dek, master_id->second, "data key");
  const SecretString kek = Unwrap(master->second, Base64Field(material, "wrappedKEK"), master_id->second, "key encryption key");
  if (!parquet::IsValidAesKeyLength(kek.size())) throw parquet::ParquetError("the key encryption key has an invalid length");
  return Unwrap(kek, wrapped_dek, Base64Field(material, "keyEncryptionKeyID"), "data key");
}

}  // namespace

bool ParseColumnKeys(std::string_view text, const char* option, std::map<std::string, SecretString>* out,
                     std::string* error) {
  std::vector<std::pair<std::string, SecretString>> pairs;
  if (!SplitPairs(text, option, &pairs, error)) return false;
  for (auto& [path, key_text] : pairs) {
    SecretString key;
    std::string why;
    if (!parquet::ParseKeyText(TrimKeyText(key_text), &key, &why)) {
      *error = std::string("invalid key for column '") + path + "' in " + option + ": " + why;
      return false;
    }
    if (!out->emplace(path, key).second) {
      *error = std::string("column '") + path + "' appears twice in " + option;
      return false;
    }
  }
  return true;
}

void AddDecryptionOptions(OptionSet* set) {
  set->AddSecret("footer_key")
      .AddSecret("column_keys")
      .AddString("aad_prefix")
      .AddString("key_table")
      .AddSecret("kms_master_keys")
      .AddBoolean("verify_footer_signature")
      .AddBoolean("allow_plaintext_files");
}

bool MakeDecryptionProperties(sqlite3* db, const ParsedOptions& parsed,
                              std::shared_ptr<const parquet::FileDecryptionProperties>* out, std::string* error) {
  out->reset();
  const bool keys_given =
      parsed.Has("footer_key") || parsed.Has("column_keys") || parsed.Has("key_table") || parsed.Has("kms_master_keys");
  if (!keys_given && !parsed.Has("aad_prefix") && !parsed.Has("verify_footer_signature")) {
    if (parsed.Has("allow_plaintext_files")) {
      *error = "allow_plaintext_files needs a key option (footer_key, column_keys, key_table or kms_master_keys)";
      return false;
    }
    return true;
  }
  auto properties = std::make_shared<parquet::FileDecryptionProperties>();
  if (!ParseKeyOption(parsed, "footer_key", &properties->footer_key, error)) return false;
  if (const OptionValue* value = parsed.Find("column_keys")) {
    if (!ParseColumnKeys(value->text, "column_keys", &properties->column_keys, error)) return false;
  }
  if (const OptionValue* value = parsed.Find("aad_prefix")) properties->aad_prefix = std::string(value->text.view());
  properties->verify_footer_signature = parsed.GetBool("verify_footer_signature", true);
  properties->refuse_plaintext = keys_given && !parsed.GetBool("allow_plaintext_files", false);
  auto keys = std::make_shared<std::map<std::string, SecretString>>();
  if (const OptionValue* value = parsed.Find("key_table")) {
    if (!ReadKeyTable(db, std::string(value->text.view()), keys.get(), error)) return false;
  }
  auto master_keys = std::make_shared<std::map<std::string, SecretString>>();
  if (const OptionValue* value = parsed.Find("kms_master_keys")) {
    if (!ParseColumnKeys(value->text, "kms_master_keys", master_keys.get(), error)) return false;
  }
  if (!keys->empty() || !master_keys->empty()) {
    properties->key_retriever = [keys, master_keys](const std::string& key_metadata,
                                                    const std::string& file_name) -> std::optional<SecretString> {
      auto found = keys->find(key_metadata);
      if (found != keys->end()) return found->second;
      if (master_keys->empty()) return std::nullopt;
      return KeyFromMaterial(*master_keys, key_metadata, file_name);
    };
  }
  *out = std::move(properties);
  return true;
}

void AddEncryptionOptions(OptionSet* set) {
  set->AddEnum("encryption", {"aes_gcm", "aes_gcm_ctr"})
      .AddSecret("footer_key")
      .AddSecret("column_keys")
      .AddString("plaintext_columns")
      .AddBoolean("plaintext_footer")
      .AddString("aad_prefix")
      .AddBoolean("store_aad_prefix")
      .AddString("footer_key_metadata")
      .AddString("column_key_metadata");
}

bool MakeEncryptionProperties(const ParsedOptions& parsed,
                              std::shared_ptr<const parquet::FileEncryptionProperties>* out, std::string* error) {
  out->reset();
  static const char* const kDependent[] = {"footer_key",       "column_keys",      "plaintext_columns",
                                           "plaintext_footer", "aad_prefix",       "store_aad_prefix",
                                           "footer_key_metadata", "column_key_metadata"};
  if (!parsed.Has("encryption")) {
    for (const char* option : kDependent) {
      if (parsed.Has(option)) {
        *error = std::string(option) + " needs encryption=aes_gcm or encryption=aes_gcm_ctr";
        return false;
      }
    }
    return true;
  }
  auto properties = std::make_shared<parquet::FileEncryptionProperties>();
  properties->algorithm = parsed.GetEnumIndex("encryption", 0) == 1 ? parquet::EncryptionAlgorithm::Kind::AES_GCM_CTR_V1
                                                                    : parquet::EncryptionAlgorithm::Kind::AES_GCM_V1;
  if (!parsed.Has("footer_key")) {
    *error = "encryption needs footer_key (the key of the footer and of the columns without their own key)";
    return false;
  }
  if (!ParseKeyOption(parsed, "footer_key", &properties->footer_key, error)) return false;
  if (const OptionValue* value = parsed.Find("column_keys")) {
    if (!ParseColumnKeys(value->text, "column_keys", &properties->column_keys, error)) return false;
  }
  if (const OptionValue* value = parsed.Find("column_key_metadata")) {
    std::vector<std::pair<std::string, SecretString>> pairs;
    if (!SplitPairs(value->text, "column_key_metadata", &pairs, error)) return false;
    for (auto& [path, metadata] : pairs) {
      if (properties->column_keys.count(path) == 0) {
        *error = "column_key_metadata names column '" + path + "', which has no key in column_keys";
        return false;
      }
      properties->column_key_metadata[path] = std::string(metadata.view());
    }
  }
  if (const OptionValue* value = parsed.Find("plaintext_columns")) {
    std::string_view text = value->text;
    while (!text.empty()) {
      size_t comma = text.find(',');
      std::string path(TrimKeyText(text.substr(0, comma)));
      text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
      if (path.empty()) continue;
      if (properties->column_keys.count(path) != 0) {
        *error = "column '" + path + "' is in both plaintext_columns and column_keys";
        return false;
      }
      properties->plaintext_columns.push_back(path);
    }
  }
  properties->plaintext_footer = parsed.GetBool("plaintext_footer", false);
  if (const OptionValue* value = parsed.Find("aad_prefix")) properties->aad_prefix = std::string(value->text.view());
  properties->store_aad_prefix = parsed.GetBool("store_aad_prefix", true);
  if (!properties->store_aad_prefix && !properties->aad_prefix.has_value()) {
    *error = "store_aad_prefix=0 needs aad_prefix";
    return false;
  }
  if (const OptionValue* value = parsed.Find("footer_key_metadata")) {
    properties->footer_key_metadata = std::string(value->text.view());
  }
  *out = std::move(properties);
  return true;
}

}  // namespace sqlite_parquet
