// Hive partitioning: the `key=value` directory segments of a dataset's file paths. The
// parquet table reads them as partition columns (CollectHiveKeys, CollectHiveValues);
// parquet_copy's partition_by writes them (EscapePartitionText): both directions live here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ext/common/sql_value.h"

namespace sqlite_parquet {

// The directory value that stands for NULL (and for an empty value when writing).
constexpr const char* kHiveNullValue = "__HIVE_DEFAULT_PARTITION__";

// A partition key's type: INTEGER when all its values are 64-bit integers, else REAL when
// all are decimal numbers, else TEXT.
enum class HiveType : uint8_t { kInteger, kReal, kText };

// The declared type of a partition column of type `type` (also how stored_schema.h
// stores it).
const char* HiveTypeName(HiveType type);

struct HiveKey {
  std::string name;
  HiveType type = HiveType::kText;
};

struct HiveValue {
  bool is_null = true;
  int64_t integer = 0;  // kInteger keys
  double real = 0;      // kReal keys
  std::string text;     // every key: the decoded directory value
};

// A key and its decoded value (nullopt: NULL) from one directory segment.
using HivePair = std::pair<std::string, std::optional<std::string>>;

// The key and value of one directory segment "key=value" (nullopt: not such a segment).
std::optional<HivePair> HiveSegment(std::string_view segment);

// The value of `key` for the decoded directory value `text` (nullopt: NULL); false when it
// is not of the key's type.
bool ParseHiveValue(const HiveKey& key, const std::optional<std::string>& text, HiveValue* out);

// `value` of `key` as SQLite sees it (INTEGER, REAL, TEXT viewing value.text, or NULL).
SqlValue HiveSqlValue(const HiveKey& key, const HiveValue& value);

// The key=value directory segments of `path` (not its last segment, the file name),
// percent-decoded, in path order. A key repeated deeper must repeat its value (a
// directory's value is that of every file below it): another value throws
// parquet::ParquetError naming the path.
std::vector<HivePair> HivePairs(std::string_view path);

// The partition keys of `files`' paths, in order of first appearance, each typed by all
// its values.
std::vector<HiveKey> CollectHiveKeys(const std::vector<std::string>& files);

// Each file's values of `keys` ([file][key]; NULL where its path lacks the key, and a
// key=value directory of another key is ignored). A value that is not of its key's type
// (the files changed since the keys were collected) throws parquet::ParquetError naming
// the file and `table`, the table the keys were collected for.
std::vector<std::vector<HiveValue>> CollectHiveValues(const std::vector<std::string>& files,
                                                      const std::vector<HiveKey>& keys, const std::string& table);

// `text` with %XX escapes decoded (a malformed escape is kept as it is).
std::string PercentDecode(std::string_view text);

// Hive-style escaping of a partition directory's key or value: control characters and
// "#%'*/:=?\{[]^ become %XX, so PercentDecode gives the text back.
std::string EscapePartitionText(std::string_view text);
// EscapePartitionText appended to *out (parquet_copy's per-row partition key, no allocation).
void AppendEscapedPartitionText(std::string_view text, std::string* out);

}  // namespace sqlite_parquet
