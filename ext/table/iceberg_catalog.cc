// A PyIceberg SQLite catalog read to find an Iceberg table's metadata file
// (iceberg_catalog.h).
#include "ext/table/iceberg_catalog.h"

#include <cctype>
#include <vector>

#include "ext/common/sqlite_api.h"
#include "format/common/error.h"
#include "format/io/remote_file.h"
#include "format/platform/system.h"

namespace sqlite_parquet {

namespace {

constexpr size_t kMaxLocationBytes = 64 * 1024;

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool IsRegularFile(const std::string& path) {
  parquet::platform::FileStatus status;
  return parquet::platform::PathStatus(path, true, &status).ok() && status.type == parquet::platform::FileType::kRegular;
}

bool IsAbsolute(const std::string& path) {
  if (!path.empty() && (path[0] == '/' || path[0] == '\\')) return true;
  // A Windows drive letter: C:\ or C:/
  return path.size() >= 3 && ((path[0] >= 'a' && path[0] <= 'z') || (path[0] >= 'A' && path[0] <= 'Z')) &&
         path[1] == ':' && (path[2] == '/' || path[2] == '\\');
}

// The directory holding `path` ("." when it names none).
std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.find_last_of(parquet::platform::kWindows ? "/\\" : "/");
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// The segments of a path (empty ones and "." dropped).
std::vector<std::string> Segments(const std::string& path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find_first_of(parquet::platform::kWindows ? "/\\" : "/", start);
    if (end == std::string::npos) end = path.size();
    std::string segment = path.substr(start, end - start);
    if (!segment.empty() && segment != ".") out.push_back(std::move(segment));
    start = end + 1;
  }
  return out;
}

struct Connection {
  sqlite3* db = nullptr;
  ~Connection() { sqlite3_close(db); }
};

// The metadata_location of the catalog row, as written.
std::string ReadCatalogRow(const IcebergCatalogTable& table, const std::string& name) {
  const std::string& path = table.catalog_path;
  if (parquet::IsRemoteUrl(path)) {
    throw parquet::ParquetError(name + ": catalog= names a SQLite database file on this machine, not a URL");
  }
  parquet::platform::FileStatus status;
  if (!parquet::platform::PathStatus(path, true, &status).ok()) {
    throw parquet::ParquetError(name + ": the catalog database cannot be opened (no such file)");
  }
  if (status.type != parquet::platform::FileType::kRegular) {
    throw parquet::ParquetError(name + ": the catalog database is not a regular file");
  }
  const size_t dot = table.table.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == table.table.size()) {
    throw parquet::ParquetError(name + ": table= is 'namespace.table'");
  }
  const std::string ns = table.table.substr(0, dot);
  const std::string table_name = table.table.substr(dot + 1);
  // A name starting "file:" would be taken as a URI (with its parameters) by a SQLite
  // built to accept them: "./file:..." is the same file and never a URI.
  const std::string open_path = StartsWith(path, "file:") ? "./" + path : path;
  Connection connection;
  if (sqlite3_open_v2(open_path.c_str(), &connection.db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    throw parquet::ParquetError(name + ": the catalog database cannot be opened: " +
                                (connection.db != nullptr ? sqlite3_errmsg(connection.db) : "out of memory"));
  }
  sqlite3_busy_timeout(connection.db, 2000);
  // Nothing of the file's schema runs: functions in its views, triggers or defaults are not
  // trusted (the table read is checked to be an ordinary table below).
  sqlite3_exec(connection.db, "PRAGMA trusted_schema=OFF", nullptr, nullptr, nullptr);
  auto fail = [&](const std::string& what) -> parquet::ParquetError {
    return parquet::ParquetError(name + ": " + what + ": " + sqlite3_errmsg(connection.db));
  };
  {
    StatementGuard check;
    if (sqlite3_prepare_v2(connection.db,
                           "SELECT type, rootpage, sql FROM main.sqlite_master WHERE name = 'iceberg_tables' COLLATE NOCASE",
                           -1, &check.stmt, nullptr) != SQLITE_OK) {
      throw fail("the catalog database cannot be read");
    }
    const int rc = sqlite3_step(check.stmt);
    if (rc == SQLITE_DONE) throw parquet::ParquetError(name + ": the database has no iceberg_tables table (not a PyIceberg SQLite catalog)");
    if (rc != SQLITE_ROW) throw fail("the catalog database cannot be read");
    const char* type = reinterpret_cast<const char*>(sqlite3_column_text(check.stmt, 0));
    const char* sql = reinterpret_cast<const char*>(sqlite3_column_text(check.stmt, 2));
    if (type == nullptr || std::string(type) != "table" || sqlite3_column_int64(check.stmt, 1) <= 0 || sql == nullptr ||
        sqlite3_strnicmp(sql, "CREATE TABLE", 12) != 0) {
      throw parquet::ParquetError(name + ": iceberg_tables of the catalog database is not an ordinary table");
    }
  }
  StatementGuard select;
  const char* sql = table.catalog_name
                        ? "SELECT metadata_location, catalog_name FROM main.iceberg_tables WHERE table_namespace = ?1 AND "
                          "table_name = ?2 AND catalog_name = ?3"
                        : "SELECT metadata_location, catalog_name FROM main.iceberg_tables WHERE table_namespace = ?1 AND "
                          "table_name = ?2";
  if (sqlite3_prepare_v2(connection.db, sql, -1, &select.stmt, nullptr) != SQLITE_OK) {
    throw fail("iceberg_tables of the catalog database cannot be read");
  }
  sqlite3_bind_text(select.stmt, 1, ns.data(), static_cast<int>(ns.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(select.stmt, 2, table_name.data(), static_cast<int>(table_name.size()), SQLITE_TRANSIENT);
  if (table.catalog_name) {
    sqlite3_bind_text(select.stmt, 3, table.catalog_name->data(), static_cast<int>(table.catalog_name->size()),
                      SQLITE_TRANSIENT);
  }
  std::vector<std::string> locations, catalogs;
  int rc;
  while ((rc = sqlite3_step(select.stmt)) == SQLITE_ROW) {
    if (locations.size() >= 16) break;
    const unsigned char* text = sqlite3_column_text(select.stmt, 0);
    const int bytes = sqlite3_column_bytes(select.stmt, 0);
    if (text == nullptr) throw parquet::ParquetError(name + ": the catalog row has no metadata_location");
    if (bytes <= 0 || static_cast<size_t>(bytes) > kMaxLocationBytes) {
      throw parquet::ParquetError(name + ": the catalog row's metadata_location is empty or longer than 64 KiB");
    }
    std::string location(reinterpret_cast<const char*>(text), static_cast<size_t>(bytes));
    if (location.find('\0') != std::string::npos) {
      throw parquet::ParquetError(name + ": the catalog row's metadata_location holds a NUL byte");
    }
    locations.push_back(std::move(location));
    const unsigned char* catalog = sqlite3_column_text(select.stmt, 1);
    catalogs.push_back(catalog != nullptr ? std::string(reinterpret_cast<const char*>(catalog)) : std::string());
  }
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) throw fail("iceberg_tables of the catalog database cannot be read");
  if (locations.empty()) throw parquet::ParquetError(name + ": the catalog has no such table");
  if (locations.size() > 1) {
    std::string list;
    for (const std::string& c : catalogs) list += (list.empty() ? "'" : ", '") + c + "'";
    throw parquet::ParquetError(name + ": several catalogs of the file hold it (" + list +
                                "): choose one with catalog_name=");
  }
  return locations.front();
}

}  // namespace

std::string IcebergCatalogTableName(const IcebergCatalogTable& table) {
  return "catalog '" + table.catalog_path + "' table '" + table.table + "'" +
         (table.catalog_name ? " of catalog_name '" + *table.catalog_name + "'" : std::string());
}

std::string ResolveIcebergCatalogTable(const IcebergCatalogTable& table) {
  const std::string name = IcebergCatalogTableName(table);
  std::string location = ReadCatalogRow(table, name);
  // Remote locations are read as they are (s3a:// and s3n:// are Hadoop's names of s3://).
  if (StartsWith(location, "s3a://") || StartsWith(location, "s3n://")) location = "s3://" + location.substr(6);
  if (parquet::IsRemoteUrl(location)) return location;
  std::string local;
  if (StartsWith(location, "file:")) {
    // file:///a/b, file:/a/b and file://localhost/a/b name /a/b; on Windows file:///C:/a/b
    // names C:/a/b, and so does file://C:/a/b (a drive where the host would be).
    local = location.substr(5);
    auto is_drive = [](const std::string& text, size_t at) {
      return text.size() >= at + 2 && std::isalpha(static_cast<unsigned char>(text[at])) && text[at + 1] == ':' &&
             (text.size() == at + 2 || text[at + 2] == '/' || text[at + 2] == '\\');
    };
    if (StartsWith(local, "//") && is_drive(local, 2)) {
      local = local.substr(2);
    } else if (StartsWith(local, "//")) {
      const size_t slash = local.find('/', 2);
      const std::string host = local.substr(2, slash == std::string::npos ? std::string::npos : slash - 2);
      if (!host.empty() && host != "localhost") {
        throw parquet::ParquetError(name + ": the catalog names '" + location + "', a file on another host");
      }
      local = slash == std::string::npos ? std::string("/") : local.substr(slash);
    }
    if (local.size() > 1 && local[0] == '/' && is_drive(local, 1)) local = local.substr(1);
  } else if (location.find("://") != std::string::npos) {
    // Another system's location (hdfs://...): only a moved table can be found.
    const size_t scheme = location.find("://");
    const size_t slash = location.find('/', scheme + 3);
    if (!table.allow_moved_paths || slash == std::string::npos) {
      throw parquet::ParquetError(name + ": the catalog names '" + location +
                                  "', which cannot be read here: set allow_moved_paths=1 to look for it below the "
                                  "catalog's directory");
    }
    local = location.substr(slash);
  } else {
    local = location;
  }
  const std::string catalog_dir = DirectoryOf(table.catalog_path);
  const std::string direct = IsAbsolute(local) ? local : catalog_dir + "/" + local;
  // A path or file: URI is read where it points; another system's location only when moved.
  const bool other_system = !StartsWith(location, "file:") && location.find("://") != std::string::npos;
  if (!other_system) {
    if (IsRegularFile(direct)) return direct;
    if (!table.allow_moved_paths) {
      throw parquet::ParquetError(name + ": the metadata file '" + location + "' the catalog names is not at '" + direct +
                                  "': set allow_moved_paths=1 to look for it below the catalog's directory");
    }
  }
  // Moved: the longest trailing part of the location that names a file below the catalog's
  // directory (never outside it: no '..' segment is followed).
  const std::vector<std::string> segments = Segments(local);
  for (size_t first = 0; first < segments.size(); first++) {
    std::string candidate = catalog_dir;
    bool parent = false;
    for (size_t k = first; k < segments.size(); k++) {
      parent |= segments[k] == "..";
      candidate += "/" + segments[k];
    }
    if (parent) continue;
    if (IsRegularFile(candidate)) return candidate;
  }
  throw parquet::ParquetError(name + ": the metadata file '" + location +
                              "' the catalog names is neither there nor below the catalog's directory");
}

}  // namespace sqlite_parquet
