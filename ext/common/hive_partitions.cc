// Hive partition paths: parsing key=value directories into typed partition values, and the
// escaping parquet_copy writes them with (hive_partitions.h).
#include "ext/common/hive_partitions.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "format/common/error.h"
#include "format/io/remote_file.h"
#include "format/platform/system.h"
#include "format/values/text.h"

namespace sqlite_parquet {

namespace {

bool ParseInteger(const std::string& text, int64_t* out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  errno = 0;
  char* end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size()) return false;
  *out = value;
  return true;
}

bool ParseReal(const std::string& text, double* out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  // Only decimal notation: no hex floats, inf or nan.
  for (char c : text) {
    if (!std::strchr("0123456789+-.eE", c)) return false;
  }
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) return false;
  *out = value;
  return true;
}

}  // namespace

const char* HiveTypeName(HiveType type) {
  switch (type) {
    case HiveType::kInteger: return "INTEGER";
    case HiveType::kReal: return "REAL";
    case HiveType::kText: break;
  }
  return "TEXT";
}

std::string PercentDecode(std::string_view text) {
  using parquet::HexDigit;
  std::string decoded;
  decoded.reserve(text.size());
  for (size_t i = 0; i < text.size(); i++) {
    if (text[i] == '%' && i + 2 < text.size() && HexDigit(text[i + 1]) >= 0 && HexDigit(text[i + 2]) >= 0) {
      decoded += static_cast<char>(HexDigit(text[i + 1]) * 16 + HexDigit(text[i + 2]));
      i += 2;
    } else {
      decoded += text[i];
    }
  }
  return decoded;
}

void AppendEscapedPartitionText(std::string_view text, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (char c : text) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F || std::strchr("\"#%'*/:=?\\{[]^", c) != nullptr) {
      *out += '%';
      *out += kHex[byte >> 4];
      *out += kHex[byte & 15];
    } else {
      *out += c;
    }
  }
}

std::string EscapePartitionText(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  AppendEscapedPartitionText(text, &escaped);
  return escaped;
}

std::optional<HivePair> HiveSegment(std::string_view segment) {
  const size_t equals = segment.find('=');
  if (equals == std::string_view::npos || equals == 0) return std::nullopt;
  const std::string_view raw = segment.substr(equals + 1);
  std::optional<std::string> value;
  if (raw != kHiveNullValue) value = PercentDecode(raw);
  return HivePair{PercentDecode(segment.substr(0, equals)), std::move(value)};
}

bool ParseHiveValue(const HiveKey& key, const std::optional<std::string>& text, HiveValue* out) {
  *out = HiveValue();
  if (!text) return true;
  out->is_null = false;
  out->text = *text;
  switch (key.type) {
    case HiveType::kInteger: return ParseInteger(out->text, &out->integer);
    case HiveType::kReal: return ParseReal(out->text, &out->real);
    case HiveType::kText: break;
  }
  return true;
}

SqlValue HiveSqlValue(const HiveKey& key, const HiveValue& value) {
  if (value.is_null) return SqlValue::Null();
  switch (key.type) {
    case HiveType::kInteger: return SqlValue::Integer(value.integer);
    case HiveType::kReal: return SqlValue::Real(value.real);
    case HiveType::kText: break;
  }
  return SqlValue::Text(value.text);
}

std::vector<HivePair> HivePairs(std::string_view path) {
  std::vector<HivePair> pairs;
  size_t start = 0;
  while (true) {
    size_t slash = path.find_first_of(parquet::platform::kPathSeparators, start);
    if (slash == std::string_view::npos) break;  // the last segment is the file name
    std::optional<HivePair> segment = HiveSegment(path.substr(start, slash - start));
    if (segment) {
      std::string& key = segment->first;
      std::optional<std::string>& value = segment->second;
      bool repeated = false;
      for (const HivePair& pair : pairs) {
        if (pair.first != key) continue;
        repeated = true;
        // A value differing from the one above would make a directory's value not the
        // value of every file below it, which listings pruned by the query rely on.
        if (pair.second != value) {
          auto shown = [](const std::optional<std::string>& v) { return v ? "'" + *v + "'" : std::string("NULL"); };
          throw parquet::ParquetError("partition key " + key + " has two values in path " +
                                      parquet::PathForDisplay(std::string(path)) + ": " + shown(pair.second) +
                                      " and below it " + shown(value));
        }
      }
      if (!repeated) pairs.emplace_back(std::move(key), std::move(value));
    }
    start = slash + 1;
  }
  return pairs;
}

std::vector<HiveKey> CollectHiveKeys(const std::vector<std::string>& files) {
  std::vector<HiveKey> keys;
  std::vector<std::vector<HivePair>> per_file;
  per_file.reserve(files.size());
  for (const std::string& path : files) {
    per_file.push_back(HivePairs(path));
    for (const HivePair& pair : per_file.back()) {
      bool known = false;
      for (const HiveKey& key : keys) known = known || key.name == pair.first;
      if (!known) keys.push_back(HiveKey{pair.first, HiveType::kInteger});
    }
  }
  for (HiveKey& key : keys) {
    bool all_integer = true, all_real = true, any_value = false;
    for (const auto& pairs : per_file) {
      for (const HivePair& pair : pairs) {
        if (pair.first != key.name || !pair.second) continue;
        any_value = true;
        int64_t integer;
        double real;
        all_integer = all_integer && ParseInteger(*pair.second, &integer);
        all_real = all_real && ParseReal(*pair.second, &real);
      }
    }
    key.type = !any_value ? HiveType::kText : all_integer ? HiveType::kInteger : all_real ? HiveType::kReal : HiveType::kText;
  }
  return keys;
}

std::vector<std::vector<HiveValue>> CollectHiveValues(const std::vector<std::string>& files,
                                                      const std::vector<HiveKey>& keys, const std::string& table) {
  std::vector<std::vector<HiveValue>> values(files.size(), std::vector<HiveValue>(keys.size()));
  for (size_t f = 0; f < files.size(); f++) {
    const std::vector<HivePair> pairs = HivePairs(files[f]);
    for (size_t k = 0; k < keys.size(); k++) {
      HiveValue& value = values[f][k];
      const HiveKey& key = keys[k];
      for (const HivePair& pair : pairs) {
        if (pair.first != key.name || !pair.second) continue;
        if (!ParseHiveValue(key, pair.second, &value)) {
          throw parquet::ParquetError("partition value " + key.name + "='" + value.text + "' of parquet file " +
                                      parquet::PathForDisplay(files[f]) + " is not " + HiveTypeName(key.type) + ", the type column " +
                                      key.name + " was given when table " + table + " was created (recreate the table)");
        }
      }
    }
  }
  return values;
}

}  // namespace sqlite_parquet
