// Tests of hive partition paths (ext/hive_partitions): key=value segments, percent
// escapes both ways, the NULL directory value, and how a key's type follows its values.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "ext/common/hive_partitions.h"
#include "format/common/error.h"

using namespace sqlite_parquet;

TEST_CASE("HivePairs reads the key=value directories, not the file name") {
  const auto pairs = HivePairs("data/year=2024/month=03/x=1.parquet");
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[0].first == "year");
  CHECK(*pairs[0].second == "2024");
  CHECK(pairs[1].first == "month");
  CHECK(*pairs[1].second == "03");
  CHECK(HivePairs("plain/dir/file.parquet").empty());
  CHECK(HivePairs("=x/file.parquet").empty());  // no key
  CHECK(HivePairs("k=v").empty());              // a file name only
}

TEST_CASE("HivePairs decodes escapes, maps the default partition to NULL and refuses a key with two values") {
  auto pairs = HivePairs("a%3Db=x%2Fy/k=__HIVE_DEFAULT_PARTITION__/f.parquet");
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[0].first == "a=b");
  CHECK(*pairs[0].second == "x/y");
  CHECK(pairs[1].first == "k");
  CHECK(!pairs[1].second.has_value());
  pairs = HivePairs("k=1/x/k=1/f.parquet");  // the same value again
  REQUIRE(pairs.size() == 1);
  CHECK(*pairs[0].second == "1");
  CHECK_THROWS_WITH_AS(HivePairs("d/k=1/k=2/f.parquet"),
                       "partition key k has two values in path d/k=1/k=2/f.parquet: '1' and below it '2'",
                       parquet::ParquetError);
  CHECK_THROWS_AS(HivePairs("k=1/k=__HIVE_DEFAULT_PARTITION__/f.parquet"), parquet::ParquetError);
  CHECK(*HivePairs("k=/f.parquet")[0].second == "");  // empty, not NULL
}

TEST_CASE("PercentDecode keeps malformed escapes") {
  CHECK(PercentDecode("a%41%4a") == "aAJ");
  CHECK(PercentDecode("100%") == "100%");
  CHECK(PercentDecode("%G1%2") == "%G1%2");
}

TEST_CASE("EscapePartitionText is undone by PercentDecode") {
  const std::string special = std::string("a/b=c%d:e?f#g'h\"i*j\\k{l[m]n^o") + '\x01' + '\x7f' + " ok";
  const std::string escaped = EscapePartitionText(special);
  CHECK(escaped.find('/') == std::string::npos);
  CHECK(escaped.find('=') == std::string::npos);
  CHECK(PercentDecode(escaped) == special);
  CHECK(EscapePartitionText("plain-text_1.5 é") == "plain-text_1.5 é");
  CHECK(EscapePartitionText("a/b") == "a%2Fb");
}

TEST_CASE("CollectHiveKeys types each key by all its values; CollectHiveValues converts them") {
  const std::vector<std::string> files = {
      "d/i=1/r=1.5/t=7/n=__HIVE_DEFAULT_PARTITION__/f.parquet",
      "d/i=-20/r=2/t=x/n=__HIVE_DEFAULT_PARTITION__/f.parquet",
      "d/i=9223372036854775807/r=3e2/t=8/g.parquet",  // no n
  };
  struct {
    std::vector<HiveKey> keys;
    std::vector<std::vector<HiveValue>> values;
  } hive;
  hive.keys = CollectHiveKeys(files);
  hive.values = CollectHiveValues(files, hive.keys, "t");
  REQUIRE(hive.keys.size() == 4);
  CHECK(hive.keys[0].name == "i");
  CHECK(hive.keys[0].type == HiveType::kInteger);
  CHECK(hive.keys[1].type == HiveType::kReal);
  CHECK(hive.keys[2].type == HiveType::kText);
  CHECK(hive.keys[3].type == HiveType::kText);  // only NULLs
  CHECK(std::string(HiveTypeName(hive.keys[0].type)) == "INTEGER");
  CHECK(std::string(HiveTypeName(hive.keys[1].type)) == "REAL");
  CHECK(std::string(HiveTypeName(hive.keys[2].type)) == "TEXT");
  REQUIRE(hive.values.size() == 3);
  CHECK(hive.values[1][0].integer == -20);
  CHECK(hive.values[2][0].integer == INT64_MAX);
  CHECK(hive.values[0][1].real == 1.5);
  CHECK(hive.values[2][1].real == 300.0);
  CHECK(hive.values[1][2].text == "x");
  CHECK(hive.values[0][3].is_null);
  CHECK(hive.values[2][3].is_null);
  CHECK(!hive.values[2][2].is_null);
}

TEST_CASE("CollectHiveKeys does not take overflowing, spaced or non-decimal numbers as numbers") {
  CHECK(CollectHiveKeys({"k=9223372036854775808/f.parquet"})[0].type == HiveType::kReal);
  CHECK(CollectHiveKeys({"k= 1/f.parquet"})[0].type == HiveType::kText);
  CHECK(CollectHiveKeys({"k=0x10/f.parquet"})[0].type == HiveType::kText);
  CHECK(CollectHiveKeys({"k=inf/f.parquet"})[0].type == HiveType::kText);
  CHECK(CollectHiveKeys({"k=1e999/f.parquet"})[0].type == HiveType::kText);
}

TEST_CASE("CollectHiveValues refuses a value that no longer has its key's type, naming file and table") {
  const std::vector<HiveKey> keys = {{"year", HiveType::kInteger}, {"other", HiveType::kText}};
  const auto values = CollectHiveValues({"year=2024/f.parquet", "x=1/year=7/g.parquet"}, keys, "t");
  CHECK(values[0][0].integer == 2024);
  CHECK(values[1][0].integer == 7);
  CHECK(values[0][1].is_null);  // x=1 is not a key of the table: ignored
  try {
    CollectHiveValues({"year=2024/f.parquet", "year=soon/g.parquet"}, keys, "sales");
    FAIL("no error");
  } catch (const std::exception& e) {
    const std::string message = e.what();
    CHECK(message.find("year=soon/g.parquet") != std::string::npos);
    CHECK(message.find("sales") != std::string::npos);
    CHECK(message.find("INTEGER") != std::string::npos);
  }
}
