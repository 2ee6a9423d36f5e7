// The layout of parquet_copy's output, worked out from the query's result columns and the
// options: which columns are stored and which become partition directories, each stored
// column's Parquet type and its range of leaf columns, the footer's schema elements, the
// writer options that name leaves (encoding.COL, compression.COL, compression_level.COL,
// bloom_filter) and the sorting_columns keys the rows are checked against. Pure C++ (no
// sqlite3.h); errors are CopyErrors naming the option and the column.
//
// Two steps: the constructor names the columns and checks every column an option names;
// Resolve, once every column's type is known (before the first row when schema= or the
// declared types give them all, else from the storage classes of the first row group's
// values), derives everything that depends on the types.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ext/copy/copy_schema.h"
#include "ext/copy/copy_settings.h"
#include "ext/copy/copy_sort_check.h"
#include "format/write/file_writer.h"
#include "format/metadata/metadata.h"

namespace sqlite_parquet {

// A result column as the prepared query describes it.
struct ResultColumn {
  std::string name;                          // as SQLite names it (names may repeat)
  std::optional<std::string> declared_type;  // sqlite3_column_decltype, when it has one
};

// A result column of the copy.
struct CopyColumn {
  std::string name;              // unique: a repeated name gets _1, _2, ... (ASCII case ignored)
  int result_index = 0;          // its cell in a result row
  bool is_partition = false;     // named by partition_by: a directory level, not stored in the files
  std::optional<CopyType> type;  // from schema= or the declared type; else fixed by Resolve
  int first_leaf = 0;            // once resolved: the index of its first leaf column in the files
};

class CopyLayout {
 public:
  // Names the columns, takes their types from schema= and the declared types, marks
  // partition_by's columns, and checks that every column an option names exists and (but
  // for partition_by and schema=) is stored. `settings` must outlive the layout.
  CopyLayout(const std::vector<ResultColumn>& result, const CopySettings& settings);
  CopyLayout(const CopyLayout&) = delete;
  CopyLayout& operator=(const CopyLayout&) = delete;

  const std::vector<CopyColumn>& columns() const { return columns_; }
  // The stored columns, in result order: data column i is field i of the files' schema.
  size_t num_data_columns() const { return data_columns_.size(); }
  const CopyColumn& data_column(size_t i) const { return *data_columns_[i]; }
  // The result indices of partition_by's columns, in its order (none: one output file).
  const std::vector<int>& partition_columns() const { return partition_columns_; }
  // Whether every stored column has its type before the first row (a VARIANT column with
  // shredding=auto has not: its shredding comes from the first row group's values).
  bool all_typed() const;
  // Gives a VARIANT column with shredding=auto the shredding chosen from its values
  // (nullopt: unshredded). Before Resolve.
  void SetVariantShredding(size_t data_column, std::optional<parquet::VariantShredding> shredding);

  // Gives each stored column without a type the one its values' storage classes call for
  // (seen[i]: the kSeen* bits of data column i, copy_schema.h), then derives the schema,
  // leaf ranges, writer options and sort keys. Throws CopyError for an option the types do
  // not allow. Does nothing once resolved.
  void Resolve(const std::vector<unsigned>& seen);
  bool resolved() const { return resolved_; }

  // Once resolved:
  const std::vector<parquet::SchemaElement>& schema() const { return schema_; }
  const std::vector<parquet::Type>& leaf_types() const { return leaf_types_; }  // per leaf column
  // The options' writer options, with the per-leaf ones the column options resolve to.
  const parquet::WriterOptions& writer_options() const { return writer_; }
  // sorting_columns' keys, and the data column of each.
  const std::vector<SortKey>& sort_keys() const { return sort_keys_; }
  const std::vector<size_t>& sort_columns() const { return sort_columns_; }

 private:
  CopyColumn* FindColumn(std::string_view name);
  // A stored column named by `option`: an error when there is none or it is a partition column.
  CopyColumn& DataColumn(const std::string& option, const std::string& name);
  void ResolveColumnOptions();
  void ResolveShredding();
  void CollectLeafTypes(const CopyType& type);
  void ResolveEncodings();
  void ResolveCompression();
  void ResolveBloomFilters(int num_leaves);
  void ResolveSorting();

  const CopySettings& settings_;
  std::vector<CopyColumn> columns_;
  // Each column's name in ASCII lower case -> its index in columns_: options naming columns
  // resolve in time linear in their length, however many names they hold.
  std::unordered_map<std::string, size_t> column_index_;
  std::vector<CopyColumn*> data_columns_;  // into columns_, which never grows after the constructor
  std::vector<int> partition_columns_;
  bool resolved_ = false;
  std::vector<parquet::SchemaElement> schema_;
  std::vector<parquet::Type> leaf_types_;
  parquet::WriterOptions writer_;
  std::vector<SortKey> sort_keys_;
  std::vector<size_t> sort_columns_;
};

}  // namespace sqlite_parquet
