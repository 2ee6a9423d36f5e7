// The key options of the parquet table, the metadata functions and parquet_copy: parsing
// them into parquet::FileDecryptionProperties / FileEncryptionProperties, and the
// key_table lookup (a SQLite table mapping key_metadata to keys).
//
// Keys are written `hex:<hex>`, `base64:<base64>` or as the raw text (its bytes are the key,
// e.g. the 16-character strings of the Arrow/parquet-mr test files); 16, 24 or 32 bytes.
// column_keys is a comma-separated list `path:key` with the column's dotted path
// (`a.b.c`); a raw key cannot contain ',' (write it in hex or base64). Error messages name
// the option and the column (the text before an entry's first ':'), never the key nor an
// entry that does not parse. Keys are held in parquet::SecretString (wiped when freed).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "ext/common/options.h"
#include "ext/common/sqlite_api.h"
#include "format/crypto/encryption.h"

namespace sqlite_parquet {

// Declares footer_key, column_keys, aad_prefix, key_table, kms_master_keys,
// verify_footer_signature, allow_plaintext_files. With a key option (footer_key,
// column_keys, key_table, kms_master_keys) a file without encryption, or a column of
// column_keys stored in plaintext, is refused unless allow_plaintext_files=1. kms_master_keys ('id:key,...') unwraps parquet-mr key material
// (PKMT1, in key_metadata or in the _KEY_MATERIAL_FOR_<file>.json beside the file).
void AddDecryptionOptions(OptionSet* set);

// Reads the options AddDecryptionOptions declared. *out stays null when none was given.
// key_table is read here, through `db`: every row (key_metadata, key) of that table, at
// the time of the call; a virtual table is refused (a `parquet` table connecting reads its
// key_table before SQLite's direct-only check, and a virtual table could read files).
// Returns false with *error.
bool MakeDecryptionProperties(sqlite3* db, const ParsedOptions& parsed,
                              std::shared_ptr<const parquet::FileDecryptionProperties>* out, std::string* error);

// Parses "path:key,path:key" into path -> key bytes.
bool ParseColumnKeys(std::string_view text, const char* option, std::map<std::string, parquet::SecretString>* out,
                     std::string* error);

// Declares encryption, footer_key, column_keys, plaintext_columns, plaintext_footer,
// aad_prefix, store_aad_prefix, footer_key_metadata, column_key_metadata.
void AddEncryptionOptions(OptionSet* set);

// Reads them; *out stays null without `encryption` (the other options then are an error).
bool MakeEncryptionProperties(const ParsedOptions& parsed,
                              std::shared_ptr<const parquet::FileEncryptionProperties>* out, std::string* error);

}  // namespace sqlite_parquet
