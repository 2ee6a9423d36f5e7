// The credential rule for remote tables (README, Security, "Remote credentials"): the
// ambient S3 credentials (the AWS_* environment variables, ~/.aws/credentials) never sign
// a request whose endpoint, region, URL style, headers or CA bundle a database file chose.
//
// A `parquet` table read from a database file (connected, not created by CREATE VIRTUAL
// TABLE on this connection; temp tables always are this connection's) whose options set
// any of s3_endpoint, s3_region, s3_url_style, http_headers or http_ca_file and give no
// s3_access_key_id of their own does not use ambient credentials: a request that would
// use them fails, saying so, and nothing is sent. The application lifts this for its
// connection with parquet_allow_ambient_credentials(1), a SQLITE_DIRECTONLY function that
// also refuses to run while a schema object of a database file calls it (schema_guard.h),
// so only the application's own SQL can. Tables whose options set none of those (an
// s3://bucket/key on AWS's default endpoint, or an endpoint from AWS_ENDPOINT_URL) and
// tables with their own credentials are unaffected.
//
// The same opt-in covers the user's Windows logon: on Windows, opening a network path
// (\\server\share\..., //server/share/..., \\?\UNC\...: platform::IsWindowsNetworkPath) logs
// in to that server as the user (SMB, NTLM). A table read from a database file whose path
// or http_ca_file is one is refused (its listing fails, before anything is opened) until
// the application calls parquet_allow_ambient_credentials(1).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "ext/common/sqlite_api.h"
#include "format/crypto/secret.h"
#include "format/io/remote_file.h"

namespace sqlite_parquet {

// A table's refusal to open network paths until the connection's opt-in (see above).
struct NetworkPathGate {
  std::shared_ptr<const std::atomic<bool>> allowed;  // the connection's opt-in
  std::string refusal;                               // the error while it is off
  bool Open() const { return allowed->load(); }
};

// One connection's state: the application's opt-in and the definitions it created.
class CredentialRule {
 public:
  // Notes the arguments of a table created on this connection (xCreate): connecting a
  // table with the same arguments later (after SQLite reloads the schema) is as trusted.
  void NoteCreated(int argc, const char* const* argv);

  // The remote options table `table` of `schema` uses: `options` itself, or, for a table
  // read from a database file whose options route its requests without credentials of
  // their own, a copy whose ambient credentials wait for the opt-in.
  std::shared_ptr<const parquet::RemoteOptions> Apply(bool create, const std::string& schema, const std::string& table,
                                                      int argc, const char* const* argv,
                                                      std::shared_ptr<const parquet::RemoteOptions> options);

  // The gate of table `table` of `schema` naming `paths` (its path, its http_ca_file; empty
  // ones skipped): null when the table was created on this connection, is a temp table,
  // names no network path, or when `windows` is false (only Windows takes such strings as
  // network paths: the string rule is the same everywhere, so the unit tests pass true).
  std::shared_ptr<const NetworkPathGate> GateNetworkPaths(bool create, const std::string& schema,
                                                          const std::string& table, int argc,
                                                          const char* const* argv,
                                                          const std::vector<std::string>& paths, bool windows);

  // Whether table `table` of `schema` was read from a database file: connected (not
  // created by CREATE VIRTUAL TABLE on this connection, nor connected again with the
  // arguments of one so created), not in temp.
  bool FromDatabaseFile(bool create, const std::string& schema, int argc, const char* const* argv);

  // The opt-in itself (for a check made later than connecting, as of a catalog's location).
  std::shared_ptr<const std::atomic<bool>> network_paths_allowed() const { return allowed_; }

  // Sets the opt-in; returns the previous setting.
  bool SetAllowed(bool allowed) { return allowed_->exchange(allowed); }

  // The metadata cache rule (metadata_cache.h, docs/security.md): a table read from a
  // database file writes its metadata_cache table only while this holds, which only
  // parquet_allow_metadata_cache_writes(1) sets, and never with the tail of an object
  // fetched with ambient credentials.
  std::shared_ptr<const std::atomic<bool>> cache_writes_allowed() const { return cache_writes_allowed_; }
  bool SetCacheWritesAllowed(bool allowed) { return cache_writes_allowed_->exchange(allowed); }

 private:
  static parquet::SecretString DefinitionKey(int argc, const char* const* argv);

  std::shared_ptr<std::atomic<bool>> allowed_ = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<bool>> cache_writes_allowed_ = std::make_shared<std::atomic<bool>>(false);
  std::mutex mutex_;
  std::set<parquet::SecretString> created_;  // the arguments hold secrets (http_headers)
};

// Registers parquet_allow_ambient_credentials(on) and parquet_allow_metadata_cache_writes(on)
// on `db`, acting on `rule`.
int RegisterAmbientCredentialsFunction(sqlite3* db, std::shared_ptr<CredentialRule> rule);

}  // namespace sqlite_parquet
