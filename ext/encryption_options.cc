// Parsing of the key options and the key_table lookup (see encryption_options.h).
#include "ext/encryption_options.h"

#include <vector>

namespace sqlite_parquet {

namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Splits "a:x,b:y" into (path, value) pairs; false with *error on an entry without ':'.
bool SplitPairs(std::string_view text, const char* option, std::vector<std::pair<std::string, std::string>>* out,
                std::string* error) {
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view entry = Trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (entry.empty()) continue;
    size_t colon = entry.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      *error = std::string("invalid entry in ") + option + ": expected column:value, got '" +
               std::string(entry.substr(0, entry.find(':'))) + "'";
      return false;
    }
    out->emplace_back(std::string(Trim(entry.substr(0, colon))), std::string(entry.substr(colon + 1)));
  }
  return true;
}

bool ParseKeyOption(const ParsedOptions& parsed, const char* option, std::string* key, std::string* error) {
  const OptionValue* value = parsed.Find(option);
  if (value == nullptr) return true;
  std::string why;
  if (!parquet::ParseKeyText(value->text, key, &why)) {
    *error = std::string("invalid value for ") + option + ": " + why;
    return false;
  }
  return true;
}

// Reads every (key_metadata, key) row of `table`.
bool ReadKeyTable(sqlite3* db, const std::string& table, std::map<std::string, std::string>* keys,
                  std::string* error) {
  char* sql = sqlite3_mprintf("SELECT key_metadata, key FROM \"%w\"", table.c_str());
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
    std::string key;
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
      std::string text = key_text != nullptr ? reinterpret_cast<const char*>(key_text) : "";
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

}  // namespace

bool ParseColumnKeys(std::string_view text, const char* option, std::map<std::string, std::string>* out,
                     std::string* error) {
  std::vector<std::pair<std::string, std::string>> pairs;
  if (!SplitPairs(text, option, &pairs, error)) return false;
  for (auto& [path, key_text] : pairs) {
    std::string key, why;
    if (!parquet::ParseKeyText(Trim(key_text), &key, &why)) {
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
  set->AddString("footer_key")
      .AddString("column_keys")
      .AddString("aad_prefix")
      .AddString("key_table")
      .AddBoolean("verify_footer_signature");
}

bool MakeDecryptionProperties(sqlite3* db, const ParsedOptions& parsed,
                              std::shared_ptr<const parquet::FileDecryptionProperties>* out, std::string* error) {
  out->reset();
  if (!parsed.Has("footer_key") && !parsed.Has("column_keys") && !parsed.Has("aad_prefix") &&
      !parsed.Has("key_table") && !parsed.Has("verify_footer_signature")) {
    return true;
  }
  auto properties = std::make_shared<parquet::FileDecryptionProperties>();
  if (!ParseKeyOption(parsed, "footer_key", &properties->footer_key, error)) return false;
  if (const OptionValue* value = parsed.Find("column_keys")) {
    if (!ParseColumnKeys(value->text, "column_keys", &properties->column_keys, error)) return false;
  }
  if (const OptionValue* value = parsed.Find("aad_prefix")) properties->aad_prefix = value->text;
  properties->verify_footer_signature = parsed.GetBool("verify_footer_signature", true);
  if (const OptionValue* value = parsed.Find("key_table")) {
    auto keys = std::make_shared<std::map<std::string, std::string>>();
    if (!ReadKeyTable(db, value->text, keys.get(), error)) return false;
    properties->key_retriever = [keys](const std::string& key_metadata) -> std::optional<std::string> {
      auto found = keys->find(key_metadata);
      if (found == keys->end()) return std::nullopt;
      return found->second;
    };
  }
  *out = std::move(properties);
  return true;
}

void AddEncryptionOptions(OptionSet* set) {
  set->AddEnum("encryption", {"aes_gcm", "aes_gcm_ctr"})
      .AddString("footer_key")
      .AddString("column_keys")
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
    std::vector<std::pair<std::string, std::string>> pairs;
    if (!SplitPairs(value->text, "column_key_metadata", &pairs, error)) return false;
    for (auto& [path, metadata] : pairs) {
      if (properties->column_keys.count(path) == 0) {
        *error = "column_key_metadata names column '" + path + "', which has no key in column_keys";
        return false;
      }
      properties->column_key_metadata[path] = metadata;
    }
  }
  if (const OptionValue* value = parsed.Find("plaintext_columns")) {
    std::string_view text = value->text;
    while (!text.empty()) {
      size_t comma = text.find(',');
      std::string path(Trim(text.substr(0, comma)));
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
  if (const OptionValue* value = parsed.Find("aad_prefix")) properties->aad_prefix = value->text;
  properties->store_aad_prefix = parsed.GetBool("store_aad_prefix", true);
  if (!properties->store_aad_prefix && !properties->aad_prefix.has_value()) {
    *error = "store_aad_prefix=0 needs aad_prefix";
    return false;
  }
  if (const OptionValue* value = parsed.Find("footer_key_metadata")) properties->footer_key_metadata = value->text;
  *out = std::move(properties);
  return true;
}

}  // namespace sqlite_parquet
