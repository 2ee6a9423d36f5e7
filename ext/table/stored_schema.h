// The column list of a `parquet` table, kept in the database beside the table, so that
// connecting the table (which SQLite does before it can refuse a use from a view or
// trigger of a database someone else made, and for PRAGMA table_info, PRAGMA table_list
// and `.schema`) declares its columns without touching the file system.
//
// xCreate reads the files once (the user ran CREATE VIRTUAL TABLE directly) and stores the
// columns it declared in the shadow table `<table>_schema`, in the table's own schema
// (main, temp or an attached database):
//
//   CREATE TABLE "<table>_schema"(position INTEGER PRIMARY KEY, kind TEXT NOT NULL,
//                                 name TEXT NOT NULL, declared_type TEXT NOT NULL,
//                                 nested INTEGER NOT NULL)
//
// one row per column in declaration order: kind 'file' (a top-level field of the files:
// its name, declared type, 1 when nested JSON) then kind 'hive' (a partition key: its
// name and INTEGER, REAL or TEXT). xConnect reads it back; xDestroy drops it, xRename
// renames it. The module's xShadowName marks the table as a shadow table (SQLite 3.26+:
// read-only to ordinary SQL under SQLITE_DBCONFIG_DEFENSIVE).
//
// The stored rows come from a database file that may be hostile, so loading checks them
// like any input: the shadow table must be an ordinary table with exactly these columns
// and no generated ones (reading it then runs no code of the file's schema and opens no
// file), names must hold no NUL byte, declared types must be type words (so that the
// declaration has exactly the stored columns), and sizes are bounded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

struct StoredColumn {
  enum class Kind : uint8_t { kFile, kHive };
  Kind kind = Kind::kFile;
  std::string name;
  std::string declared_type;  // kHive: INTEGER, REAL or TEXT
  bool nested = false;
};

// The shadow table's suffix (after the last '_'), for xShadowName.
bool IsStoredSchemaSuffix(const char* suffix);

// Creates `schema`.`<table>_schema` and stores `columns`. False with *error on failure
// (e.g. a table of that name exists already).
bool SaveStoredSchema(sqlite3* db, const std::string& schema, const std::string& table,
                      const std::vector<StoredColumn>& columns, std::string* error);

enum class StoredSchemaState : uint8_t {
  kLoaded,   // *columns holds the stored columns
  kMissing,  // no `<table>_schema` table (a table made by an older version)
  kInvalid,  // a `<table>_schema` that is not one this module made: *problem says why
};

// Reads the stored columns of `schema`.`table`. Runs only SELECTs on sqlite_master and the
// shadow table (after checking it is an ordinary table without generated columns).
StoredSchemaState LoadStoredSchema(sqlite3* db, const std::string& schema, const std::string& table,
                                   std::vector<StoredColumn>* columns, std::string* problem);

// DROP TABLE / ALTER TABLE RENAME of the shadow table. False with *error on failure.
bool DropStoredSchema(sqlite3* db, const std::string& schema, const std::string& table, std::string* error);
bool RenameStoredSchema(sqlite3* db, const std::string& schema, const std::string& table,
                        const std::string& new_table, std::string* error);

// Whether `type` is a declared type this module can have written (column_mapping.cc): empty,
// or INTEGER, REAL, TEXT or BLOB, optionally followed by one space and one of the words the
// mapping adds (BOOLEAN, FLOAT, FLOAT16, JSON, ENUM, BSON, GEOMETRY, GEOGRAPHY, UUID, DATE,
// TIMESTAMP, TIMESTAMP_<unit>, TIME_<unit>, UINT<digits>, DECIMAL(<digits>,<digits>)).
// Nothing else: a declared type is copied into the table's declaration, where HIDDEN would
// hide the column (and let a statement pass it as a table-valued function's argument) and
// words such as NOT NULL, PRIMARY KEY or COLLATE would change what the column is.
bool IsStorableDeclaredType(const std::string& type);

}  // namespace sqlite_parquet
