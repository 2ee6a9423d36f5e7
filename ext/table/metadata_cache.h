// The `metadata_cache=NAME` option of the parquet table: the footers (with the page indexes
// stored shortly before them, and so the bloom filter locations they hold) of the table's
// files kept in an ordinary table NAME of the table's own database, so that a new
// connection or process opens an unchanged file without reading its footer again:
//
//   CREATE TABLE "NAME"(file_key TEXT PRIMARY KEY, file TEXT NOT NULL, size INTEGER NOT NULL,
//                       validator TEXT NOT NULL, tail_offset INTEGER NOT NULL,
//                       tail BLOB NOT NULL, last_used INTEGER NOT NULL)
//
// A row is one version of one file (parquet::FileVersion: key, size and validator) and the
// bytes [tail_offset, size) of it. Rows are data from a database file that may be hostile:
// the library uses one only when the file shows that very size and validator now (a remote
// server: its 304 to If-None-Match with the row's ETag), and parses it like the file's own bytes; a row of the wrong types or
// lengths is skipped, one that does not parse is deleted and the file read again.
//
// A file whose row already holds its version is not written again (a file opened from the
// process's own footer cache). Writes: the table is created by CREATE VIRTUAL TABLE (never by connecting a table from a
// database file). Rows are written on the table's own connection, as single INSERT / UPDATE
// / DELETE statements (each atomic, joining the statement's transaction when one is open)
// while a scan runs: every kFlushFiles footers, at the end of the scan and at the next
// scan. Nothing is written to a read-only database, or into a table that is not exactly
// this module's (its CREATE TABLE text, its primary key's index and nothing else naming it:
// no trigger, no other index, no foreign key pointing at it while foreign keys are on).
// Eviction keeps the tails' bytes within metadata_cache_size, least recently used first.
//
// A table read from a database file (credential_rule.h: FromDatabaseFile) writes nothing
// into its cache table (no row, no last use, no delete) unless the application called
// parquet_allow_metadata_cache_writes(1) on the connection, and never the tail of an
// object fetched with ambient credentials: the database's author could read the footers
// (statistics, a small object whole) the victim's query fetched (docs/security.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ext/common/sqlite_api.h"
#include "format/io/metadata_store.h"

namespace sqlite_parquet {

constexpr int64_t kDefaultMetadataCacheSize = int64_t{64} << 20;  // bytes of tails
// Footers a scan remembers before the cache is written (also written at the scan's end).
constexpr size_t kFlushFiles = 64;

// "" when `name` may name a cache table (1 to 128 bytes, no NUL, not starting with
// "sqlite_" in any case), else the error.
std::string MetadataCacheNameProblem(const std::string& name);

// xCreate: makes sure `schema`.`name` is a cache table, creating it when no table of that
// name exists. False with *error (naming the table) when a table, view or index of that
// name exists and is not one.
bool CreateMetadataCacheTable(sqlite3* db, const std::string& schema, const std::string& name, std::string* error);

class SqliteMetadataStore final : public parquet::MetadataStore {
 public:
  // `from_file_writes` (a table read from a database file): writes only while it holds,
  // and never a tail fetched with ambient credentials. Null: the application's own table.
  SqliteMetadataStore(sqlite3* db, std::string schema, std::string table, int64_t max_bytes,
                      std::shared_ptr<const std::atomic<bool>> from_file_writes = nullptr);

  enum class State : uint8_t {
    kReady,    // a cache table: Find reads it; writable() says whether Flush writes
    kMissing,  // no table of that name (a table connected from a file does not create it)
    kInvalid,  // something else has the name: *problem says what
  };
  // At the first scan of each statement: what the name holds now (a schema may have changed).
  // kMissing and kInvalid make Find and Flush do nothing.
  State Check(std::string* problem);
  bool ready() const { return ready_; }
  bool writable() const { return writable_; }

  std::shared_ptr<const parquet::StoredTail> Find(const std::string& key) override;
  bool Remembers() const override { return ready_ && writable_ && WritesAllowed(); }
  void Remember(const parquet::FileVersion& version, std::shared_ptr<const parquet::FileTail> tail) override;
  void Forget(const parquet::FileVersion& version) override;

  // Files remembered and not written yet.
  size_t pending() const { return pending_.size(); }
  // Writes what was remembered and forgotten, the last use of the rows found, and evicts
  // beyond the size bound. Errors (a locked or read-only database, an authorizer's
  // refusal) leave the table as it was: a cache write never fails a query.
  void Flush();

 private:
  struct Pending {
    parquet::FileVersion version;
    std::shared_ptr<const parquet::FileTail> tail;
  };
  bool WritesAllowed() const { return !from_file_writes_ || from_file_writes_->load(); }
  bool Execute(const std::string& sql, const std::vector<std::string>& texts);
  void WritePending();
  void Evict();

  sqlite3* db_;
  std::string schema_;
  std::string table_;
  std::string qualified_;  // "schema"."table"
  int64_t max_bytes_;
  std::shared_ptr<const std::atomic<bool>> from_file_writes_;  // null: the application's own table
  bool ready_ = false;
  bool writable_ = false;
  std::map<std::string, Pending> pending_;  // by key
  std::vector<std::string> forgotten_;      // keys
  std::vector<std::string> used_;           // keys of rows found whose last use is old
};

}  // namespace sqlite_parquet
