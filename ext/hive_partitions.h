// Hive partitioning: the `key=value` directory segments of a dataset's file paths. The
// parquet table reads them as partition columns (CollectHivePartitions); parquet_copy's
// partition_by writes them (EscapePartitionText), so both directions live here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sqlite_parquet {

// The directory value that stands for NULL (and for an empty value when writing).
constexpr const char* kHiveNullValue = "__HIVE_DEFAULT_PARTITION__";

// A partition key's type: INTEGER when all its values are 64-bit integers, else REAL when
// all are decimal numbers, else TEXT.
enum class HiveType : uint8_t { kInteger, kReal, kText };

// The declared type of a partition column of type `type`.
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

// The partition columns of a list of files: keys in order of first appearance, and each
// file's value of each key (NULL where the file's path lacks the key).
struct HivePartitions {
  std::vector<HiveKey> keys;
  std::vector<std::vector<HiveValue>> values;  // [file][key]
};

// A key and its decoded value (nullopt: NULL) from one directory segment.
using HivePair = std::pair<std::string, std::optional<std::string>>;

// The key=value directory segments of `path` (not its last segment, the file name),
// percent-decoded, in path order; a key repeated deeper takes the deeper value.
std::vector<HivePair> HivePairs(std::string_view path);

HivePartitions CollectHivePartitions(const std::vector<std::string>& files);

// `text` with %XX escapes decoded (a malformed escape is kept as it is).
std::string PercentDecode(std::string_view text);

// Hive-style escaping of a partition directory's key or value: control characters and
// "#%'*/:=?\{[]^ become %XX, so PercentDecode gives the text back.
std::string EscapePartitionText(std::string_view text);

}  // namespace sqlite_parquet
