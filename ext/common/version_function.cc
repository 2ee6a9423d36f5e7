// parquet_version(): a JSON object with the extension's version (the VERSION file, through
// format/common/version.h), the library behind each compression codec, the crypto library of
// modular encryption, the SQLite version of the headers it was compiled with and of the
// library running it, and whether its libraries are linked in (`make dist`) or shared.
#include "ext/common/version_function.h"

#include <string>

#include "format/codec/compression.h"
#include "format/crypto/encryption.h"
#include "format/values/json_text.h"
#include "format/values/text.h"
#include "format/common/version.h"

namespace sqlite_parquet {
namespace {

void AppendMember(const char* name, const std::string& value, std::string* json) {
  if (json->size() > 1) *json += ',';
  parquet::AppendJsonString(name, json);
  *json += ':';
  parquet::AppendJsonString(value, json);
}

std::string CodecsJson() {
  std::string json = "{";
  for (int number = 0; number <= static_cast<int>(parquet::CompressionCodec::LZ4_RAW); ++number) {
    const auto codec = static_cast<parquet::CompressionCodec>(number);
    const std::string library = parquet::CodecLibraryVersion(codec);
    if (!parquet::IsSupported(codec) || library.empty()) continue;
    AppendMember(parquet::AsciiLowercase(parquet::ToString(codec)).c_str(), library, &json);
  }
  return json + "}";
}

void VersionFunction(sqlite3_context* context, int, sqlite3_value**) {
  std::string json = "{";
  AppendMember("version", parquet::LibraryVersion(), &json);
  json += ",\"codecs\":" + CodecsJson();
  AppendMember("encryption", parquet::CryptoLibraryVersion(), &json);
  AppendMember("sqlite_headers", SQLITE_VERSION, &json);
  AppendMember("sqlite_library", sqlite3_libversion(), &json);
  AppendMember("linkage", PQ_STATIC_DEPS ? "static" : "shared", &json);
  json += '}';
  sqlite3_result_text(context, json.c_str(), static_cast<int>(json.size()), SQLITE_TRANSIENT);
}

}  // namespace

int RegisterVersionFunction(sqlite3* db) {
  return sqlite3_create_function_v2(db, "parquet_version", 0, SQLITE_UTF8 | SQLITE_INNOCUOUS, nullptr,
                                    VersionFunction, nullptr, nullptr, nullptr);
}

}  // namespace sqlite_parquet
