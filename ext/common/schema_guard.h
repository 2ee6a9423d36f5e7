// Keeps the schema of a database file (made by someone else) from making the extension
// write files, in any load order and on SQLite versions with gaps in SQLITE_DIRECTONLY.
//
// SQLite applies SQLITE_DIRECTONLY when it resolves a function name while parsing a schema
// object (views, triggers, DEFAULT clauses; CHECK constraints only from 3.50.0, and only for
// deterministic functions before that). Two gaps remain for a scalar function such as
// parquet_copy:
//   - a schema parsed before the extension was loaded: its expressions were resolved when
//     the function did not exist, and SQLite looks the name up again only when it generates
//     code, without the check, so a generated column, an index expression, a partial
//     index's WHERE or a CHECK constraint calls the function;
//   - before SQLite 3.50.0, a CHECK constraint calling a non-deterministic function
//     (SQLite never marks that call as coming from the schema).
// Two defences close them:
//   ReloadSchemas       at load, after registering the functions: SQLite re-reads every
//                       schema, now resolving the names with their flags (generated
//                       columns and indexes calling parquet_copy make the schema fail to
//                       load, views/triggers/DEFAULT calls are refused as when the
//                       extension was loaded first);
//   FindSchemaObjectCalling
//                       at each call of parquet_copy: a table or index of any database but
//                       temp whose SQL calls the function makes the call fail. The text is
//                       searched, not parsed, erring on the side of a call: the name as a
//                       whole identifier (ASCII case-insensitive, as SQLite compares
//                       function names), bare or quoted, followed by '(' after any white
//                       space and comments, counts wherever it is (in a string too).
#pragma once

#include <string>
#include <string_view>

#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

// Makes SQLite re-read the schema of every database of `db` before the next statement
// (PRAGMA writable_schema=RESET, then writable_schema restored as it was; before SQLite
// 3.37, which lacks RESET, a temp table created and rolled back to a savepoint, after
// which SQLite drops every schema of the connection). Returns an SQLite result code.
int ReloadSchemas(sqlite3* db);

// Whether a row of sqlite_master (type, rootpage, sql) is an ordinary table: type 'table',
// a root page, and SQL starting "CREATE TABLE" (not CREATE VIRTUAL TABLE, whatever white
// space or case a crafted file puts in it). Reading such a table runs no module and no view.
bool IsOrdinaryTableEntry(const char* type, sqlite3_int64 rootpage, const char* sql);

// The schema ("main", "temp", an attached name) of the table an unqualified `name` resolves
// to as SQLite resolves it (temp, main, then the attached databases in order), when it is
// an ordinary table (IsOrdinaryTableEntry); otherwise "" and *refusal says what it is ("a
// view", "a virtual table"), or is "" when no database has a table or view of that name (an
// eponymous virtual table such as pragma_database_list is none of theirs). Uses the PRAGMA statement and each schema's own sqlite_master, nothing
// a table of the database could shadow.
std::string ResolveOrdinaryTable(sqlite3* db, const std::string& name, std::string* refusal);

// "" when no table or index of a database other than temp calls `name` in its SQL
// (CallsFunction, schema_text.h); otherwise a description such as "table 'g' of database 'main'". Throws
// std::runtime_error when a schema cannot be read (callers refuse then too).
std::string FindSchemaObjectCalling(sqlite3* db, std::string_view name);

}  // namespace sqlite_parquet
