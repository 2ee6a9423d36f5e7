// Tests of the network path rule of ext/common/credential_rule.h (issue 45, finding 8): a
// table read from a database file naming a Windows network path waits for the
// application's opt-in. The rule is checked here on strings (windows = true); the windows
// suite (tests/windows/windows_paths.test) checks it under wine on a real share.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "ext/common/credential_rule.h"

using sqlite_parquet::CredentialRule;

namespace {

// CREATE VIRTUAL TABLE's arguments: module, database, table, then the options.
std::vector<const char*> Arguments(const char* database, const char* path) {
  return {"parquet", database, "t", path};
}

}  // namespace

TEST_CASE("credential rule: network paths of a table read from a database file wait for the opt-in") {
  CredentialRule rule;
  const std::vector<std::string> unc = {"\\\\attacker\\share\\x.parquet", ""};
  auto args = Arguments("evil", "'\\\\attacker\\share\\x.parquet'");
  auto gate = rule.GateNetworkPaths(false, "evil", "t", static_cast<int>(args.size()), args.data(), unc, true);
  REQUIRE(gate != nullptr);
  CHECK(!gate->Open());
  CHECK(gate->refusal ==
        "parquet table t of database evil was read from the database file and names the network path "
        "'\\\\attacker\\share\\x.parquet': opening it would make Windows log in to that server with the user's "
        "credentials, so it is not opened (a database file must not choose where the user's credentials go); to read "
        "it, let this connection's tables use network paths with SELECT parquet_allow_ambient_credentials(1)");
  // The connection's opt-in opens it, and withdrawing it closes it again.
  CHECK(!rule.SetAllowed(true));
  CHECK(gate->Open());
  CHECK(rule.SetAllowed(false));
  CHECK(!gate->Open());
  // Each network form, the CA file too.
  for (const char* path : {"//attacker/share/x.parquet", "\\\\?\\UNC\\attacker\\share\\x", "\\??\\UNC\\attacker\\s\\x"}) {
    INFO(path);
    CHECK(rule.GateNetworkPaths(false, "evil", "t", static_cast<int>(args.size()), args.data(), {path}, true) != nullptr);
  }
  CHECK(rule.GateNetworkPaths(false, "evil", "t", static_cast<int>(args.size()), args.data(),
                              {"", "\\\\attacker\\share\\ca.pem"}, true) != nullptr);
  // Not gated: local paths, temp tables, tables created (or created before) on this
  // connection, and systems that do not take such strings as network paths.
  CHECK(rule.GateNetworkPaths(false, "evil", "t", static_cast<int>(args.size()), args.data(),
                              {"C:\\data\\x.parquet", "\\\\?\\C:\\ca.pem"}, true) == nullptr);
  CHECK(rule.GateNetworkPaths(false, "temp", "t", static_cast<int>(args.size()), args.data(), unc, true) == nullptr);
  CHECK(rule.GateNetworkPaths(true, "main", "t", static_cast<int>(args.size()), args.data(), unc, true) == nullptr);
  CHECK(rule.GateNetworkPaths(false, "evil", "t", static_cast<int>(args.size()), args.data(), unc, false) == nullptr);
  auto mine = Arguments("main", "'\\\\server\\share\\mine.parquet'");
  rule.NoteCreated(static_cast<int>(mine.size()), mine.data());
  CHECK(rule.GateNetworkPaths(false, "main", "t", static_cast<int>(mine.size()), mine.data(),
                              {"\\\\server\\share\\mine.parquet"}, true) == nullptr);
}
