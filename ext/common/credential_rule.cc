// The credential rule for remote tables and parquet_allow_ambient_credentials (see
// credential_rule.h).
#include "ext/common/credential_rule.h"

#include <exception>
#include <vector>

#include "ext/common/schema_guard.h"
#include "format/platform/system.h"

namespace sqlite_parquet {

namespace {

constexpr const char* kFunctionName = "parquet_allow_ambient_credentials";

// The options of `options` that choose where or how its requests go, by option name.
std::vector<std::string> RoutingOptionsSet(const parquet::RemoteOptions& options) {
  std::vector<std::string> names;
  if (!options.s3_endpoint.empty()) names.push_back("s3_endpoint");
  if (!options.s3_region.empty()) names.push_back("s3_region");
  if (options.s3_url_style != parquet::S3UrlStyle::kDefault) names.push_back("s3_url_style");
  if (!options.http_headers.empty()) names.push_back("http_headers");
  if (!options.http_ca_file.empty()) names.push_back("http_ca_file");
  return names;
}

}  // namespace

parquet::SecretString CredentialRule::DefinitionKey(int argc, const char* const* argv) {
  parquet::SecretString key;
  for (int i = 3; i < argc; i++) {
    key += argv[i];
    key += '\0';
  }
  return key;
}

void CredentialRule::NoteCreated(int argc, const char* const* argv) {
  std::lock_guard<std::mutex> lock(mutex_);
  created_.insert(DefinitionKey(argc, argv));
}

bool CredentialRule::FromDatabaseFile(bool create, const std::string& schema, int argc, const char* const* argv) {
  if (create || schema == "temp") return false;
  std::lock_guard<std::mutex> lock(mutex_);
  return created_.count(DefinitionKey(argc, argv)) == 0;
}

std::shared_ptr<const parquet::RemoteOptions> CredentialRule::Apply(bool create, const std::string& schema,
                                                                    const std::string& table, int argc,
                                                                    const char* const* argv,
                                                                    std::shared_ptr<const parquet::RemoteOptions> options) {
  if (!options->s3_access_key_id.empty()) return options;
  const std::vector<std::string> routing = RoutingOptionsSet(*options);
  if (routing.empty() || !FromDatabaseFile(create, schema, argc, argv)) return options;
  std::string names;
  for (const std::string& name : routing) names += (names.empty() ? "" : ", ") + name;
  auto gated = std::make_shared<parquet::RemoteOptions>(*options);
  gated->ambient_credentials_allowed = allowed_;
  gated->ambient_credentials_refusal =
      "parquet table " + table + " of database " + schema + " was read from the database file and its options set " +
      names +
      ": s3 credentials from the environment or the credentials file are not used for it (a database file must "
      "not send the user's credentials where it chooses); give the table s3_access_key_id and "
      "s3_secret_access_key, or let this connection's tables use them with SELECT " + kFunctionName + "(1)";
  return gated;
}

std::shared_ptr<const NetworkPathGate> CredentialRule::GateNetworkPaths(bool create, const std::string& schema,
                                                                        const std::string& table, int argc,
                                                                        const char* const* argv,
                                                                        const std::vector<std::string>& paths,
                                                                        bool windows) {
  if (!windows || create || schema == "temp") return nullptr;
  const std::string* network = nullptr;
  for (const std::string& path : paths) {
    if (!path.empty() && parquet::platform::IsWindowsNetworkPath(path)) {
      network = &path;
      break;
    }
  }
  if (network == nullptr) return nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (created_.count(DefinitionKey(argc, argv)) != 0) return nullptr;
  }
  auto gate = std::make_shared<NetworkPathGate>();
  gate->allowed = allowed_;
  gate->refusal = "parquet table " + table + " of database " + schema +
                  " was read from the database file and names the network path '" + *network +
                  "': opening it would make Windows log in to that server with the user's credentials, so it is not "
                  "opened (a database file must not choose where the user's credentials go); to read it, let this "
                  "connection's tables use network paths with SELECT " + kFunctionName + "(1)";
  return gate;
}

namespace {

constexpr const char* kCacheFunctionName = "parquet_allow_metadata_cache_writes";

// What a registered opt-in function acts on.
struct OptIn {
  std::shared_ptr<CredentialRule> rule;
  const char* name;
  bool (CredentialRule::*set)(bool);
};

void AllowOptIn(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const OptIn* opt_in = static_cast<const OptIn*>(sqlite3_user_data(ctx));
  const std::string name = opt_in->name;
  try {
    // SQLITE_DIRECTONLY has gaps in some load orders and versions (schema_guard.h): refuse
    // while a table or index of a database file names us.
    if (const std::string object = FindSchemaObjectCalling(sqlite3_context_db_handle(ctx), opt_in->name);
        !object.empty()) {
      sqlite3_result_error(ctx, (name + ": refusing while " + object + " calls " + name +
                                 " in its schema (only the application may allow this)").c_str(), -1);
      return;
    }
  } catch (const std::exception& e) {
    sqlite3_result_error(ctx, (name + ": " + e.what()).c_str(), -1);
    return;
  }
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_error(ctx, (name + ": expected 1 (allow) or 0 (refuse), not NULL").c_str(), -1);
    return;
  }
  sqlite3_result_int(ctx, ((*opt_in->rule).*(opt_in->set))(sqlite3_value_int(argv[0]) != 0) ? 1 : 0);
}

void DeleteOptIn(void* opt_in) { delete static_cast<OptIn*>(opt_in); }

int RegisterOptIn(sqlite3* db, std::shared_ptr<CredentialRule> rule, const char* name, bool (CredentialRule::*set)(bool)) {
  return sqlite3_create_function_v2(db, name, 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, new OptIn{std::move(rule), name, set},
                                    AllowOptIn, nullptr, nullptr, DeleteOptIn);
}

}  // namespace

int RegisterAmbientCredentialsFunction(sqlite3* db, std::shared_ptr<CredentialRule> rule) {
  int rc = RegisterOptIn(db, rule, kFunctionName, &CredentialRule::SetAllowed);
  if (rc == SQLITE_OK) rc = RegisterOptIn(db, rule, kCacheFunctionName, &CredentialRule::SetCacheWritesAllowed);
  return rc;
}

}  // namespace sqlite_parquet
