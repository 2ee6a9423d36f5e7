// The listing of a scan narrowed by its partition constraints (listing_pruning.h).
#include "ext/table/listing_pruning.h"

#include "ext/table/lake_table.h"

#include <optional>
#include <string>
#include <string_view>

#include "ext/common/file_list.h"
#include "ext/common/hive_partitions.h"
#include "format/io/remote_file.h"

namespace sqlite_parquet {

namespace {

// The index of the partition key a directory segment names, or -1.
int KeyOfSegment(const ParquetTable& table, const std::optional<HivePair>& segment) {
  if (!segment) return -1;
  for (size_t k = 0; k < table.hive_keys.size(); k++) {
    if (table.hive_keys[k].name == segment->first) return static_cast<int>(k);
  }
  return -1;
}

}  // namespace

bool ListingPrunable(ParquetTable* table) {
  if (!table->listing_prunable) {
    table->listing_prunable =
        !table->hive_keys.empty() && PathNamesDataset(table->options.filename) && !IsLakeTable(table);
  }
  return *table->listing_prunable;
}

std::shared_ptr<const FileSet> ScanFiles(ParquetTable* table, const std::vector<ColumnFilter>& filters, bool whole_needed) {
  // The active filters on each partition key.
  std::vector<std::vector<const ColumnFilter*>> by_key(table->hive_keys.size());
  bool any = false;
  for (const ColumnFilter& filter : filters) {
    if (!filter.active || filter.column < table->hive_column() || filter.column >= table->filename_column()) continue;
    by_key[static_cast<size_t>(filter.column - table->hive_column())].push_back(&filter);
    any = true;
  }
  if (table->files || whole_needed || !any || !ListingPrunable(table)) {
    const bool listed = table->files != nullptr;
    ListTableFiles(table);
    // A local table planned without listing: the first footer's row estimate and column
    // order, for the plans that follow (a remote one keeps planning without I/O).
    if (!listed && !parquet::IsRemoteUrl(table->options.filename)) ReadOrderStatistics(table);
    return table->files;
  }
  const ParquetTable& t = *table;
  ListingOptions listing;
  listing.wanted_directory = [&t, &by_key](std::string_view name) {
    const std::optional<HivePair> segment = HiveSegment(name);
    const int k = KeyOfSegment(t, segment);
    if (k < 0 || by_key[static_cast<size_t>(k)].empty()) return true;
    const HiveKey& key = t.hive_keys[static_cast<size_t>(k)];
    HiveValue value;
    if (!ParseHiveValue(key, segment->second, &value)) return true;  // the scan reports it
    const SqlValue sql_value = HiveSqlValue(key, value);
    for (const ColumnFilter* filter : by_key[static_cast<size_t>(k)]) {
      if (!RowMatches(*filter, sql_value)) return false;
    }
    return true;
  };
  // A level is enumerated where the key after the deepest one named so far (in the order
  // the keys were found, which is the directories' order in a regular layout) is
  // constrained and not named yet: `year=2024 AND month=3` enumerates the years and then
  // year=2024's months, and lists below month=3 in one go. Elsewhere one listing of
  // everything below costs fewer requests.
  listing.list_by_level = [&t, &by_key](const std::vector<std::string_view>& segments) {
    std::vector<char> named(t.hive_keys.size(), 0);
    int deepest = -1;
    for (std::string_view segment : segments) {
      const int k = KeyOfSegment(t, HiveSegment(segment));
      if (k < 0) continue;
      named[static_cast<size_t>(k)] = 1;
      deepest = k;
    }
    const size_t next = static_cast<size_t>(deepest + 1);
    return next < by_key.size() && !by_key[next].empty() && !named[next];
  };
  listing.cache = &table->listings;
  listing.counts = &table->unreported_listing;
  return MakeFileSet(*table, ListFiles(*table, listing));
}

}  // namespace sqlite_parquet
