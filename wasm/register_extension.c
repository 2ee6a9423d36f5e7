/* The WebAssembly build's SQLite has the extension linked in: this registers
 * sqlite3_parquet_init with sqlite3_auto_extension when the module starts, so that every
 * connection it opens (the JavaScript API's, the wasm test runner's) has it, as if loaded. */
#include "sqlite3.h"

int sqlite3_parquet_init(sqlite3* db, char** error_message, const void* api);

__attribute__((constructor)) static void pq_register_extension(void) {
  sqlite3_auto_extension((void (*)(void))sqlite3_parquet_init);
}
