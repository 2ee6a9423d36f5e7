// A PyIceberg SQLite catalog (SqlCatalog's `iceberg_tables`: catalog_name, table_namespace,
// table_name, metadata_location) read to find the metadata file of the table that
// `parquet(catalog='catalog.db', table='namespace.table')` names. The catalog database is
// opened read-only on a connection of its own, and its table is read only when it is an
// ordinary table (a view or a virtual table there would run SQL of the file's author).
#pragma once

#include <optional>
#include <string>

namespace sqlite_parquet {

// The table that catalog= and table= name.
struct IcebergCatalogTable {
  std::string catalog_path;               // the SQLite database file (a local path)
  std::string table;                      // "namespace.table" (the namespace may hold dots)
  std::optional<std::string> catalog_name;  // catalog_name=: which catalog of the file
  bool allow_moved_paths = false;
};

// The metadata file the catalog row names, resolved to a path to read: a file: URI or an
// absolute path as it is, a relative path below the catalog database's directory, a URL
// (s3://, https://) as it is. With allow_moved_paths, a local location that does not exist
// is looked for below the catalog's directory by its trailing segments (the longest that
// exists: a catalog moved with its warehouse). Throws ParquetError naming the catalog and
// the table when there is no such row, several, or the catalog cannot be read.
std::string ResolveIcebergCatalogTable(const IcebergCatalogTable& table);

// "catalog 'c.db' table 'ns.t'" for messages.
std::string IcebergCatalogTableName(const IcebergCatalogTable& table);

}  // namespace sqlite_parquet
