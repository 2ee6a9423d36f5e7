// How the virtual tables' callbacks (the parquet table, the metadata functions) turn a C++
// exception into SQLite's result code and error message; no exception leaves a callback.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "ext/common/sqlite_api.h"
#include "format/io/http_client.h"

namespace sqlite_parquet {

// Thrown when sqlite3_interrupt() stopped a scan (a transfer it stopped throws
// parquet::HttpInterrupted: both are SQLITE_INTERRUPT).
struct ScanInterrupted {};

// Replaces the table's error message, which SQLite reports for a callback's SQLITE_ERROR.
inline void SetVtabError(sqlite3_vtab* vtab, const std::string& message) {
  sqlite3_free(vtab->zErrMsg);
  vtab->zErrMsg = sqlite3_mprintf("%s", message.c_str());
}

// Call only inside a catch block of xFilter, xNext or xRowid: the result code for the
// exception being handled. An interrupt or an error ends the scan (*eof, when given, is
// set); an error's message becomes the table's. Out of memory leaves both alone.
inline int CursorCallbackError(sqlite3_vtab* vtab, bool* eof) {
  try {
    throw;
  } catch (const ScanInterrupted&) {
    if (eof != nullptr) *eof = true;
    return SQLITE_INTERRUPT;
  } catch (const parquet::HttpInterrupted&) {
    if (eof != nullptr) *eof = true;
    return SQLITE_INTERRUPT;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    if (eof != nullptr) *eof = true;
    SetVtabError(vtab, e.what());
    return SQLITE_ERROR;
  } catch (...) {
    if (eof != nullptr) *eof = true;
    SetVtabError(vtab, "unexpected error");
    return SQLITE_ERROR;
  }
}

// Call only inside a catch block of xColumn: sets the cell's result to the error as well.
inline int ColumnCallbackError(sqlite3_vtab* vtab, sqlite3_context* ctx) {
  try {
    throw;
  } catch (const parquet::HttpInterrupted&) {
    sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
    return SQLITE_INTERRUPT;
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    SetVtabError(vtab, e.what());
    sqlite3_result_error(ctx, e.what(), -1);
    return SQLITE_ERROR;
  } catch (...) {
    SetVtabError(vtab, "unexpected error");
    sqlite3_result_error(ctx, "unexpected error", -1);
    return SQLITE_ERROR;
  }
}

}  // namespace sqlite_parquet
