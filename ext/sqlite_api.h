// Includes sqlite3ext.h the way every file of the loadable extension must: the API
// routines are reached through the pointer that sqlite3_parquet_init stores (defined once in
// extension.cc by SQLITE_EXTENSION_INIT1).
#pragma once

#include <sqlite3ext.h>

SQLITE_EXTENSION_INIT3
