// Tests of the join index's builder and lookups (ext/table/join_index.h): every layout it
// picks (a sorted key, compact or plain; integer keys in a direct table, widened or moved
// to the hash; other keys in the map), the switches between them mid-build, NULL rows and
// several files, against a reference that compares every row with SQLite's order
// (CompareSqlValues), and the memory budget (mapped pages counted whole; sorted keys switch
// to a wider form, and row chains grow for the next file, only within it). Then builds from
// files: interrupt checks within a row group, and the table's cache letting go of old
// indexes (or counting them while still held) before it builds.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ext/common/sql_value.h"
#include "ext/table/join_index.h"
#include "format/write/file_writer.h"
#include "tests/unit/allocation_counter.h"
#include "tests/unit/schema_elements.h"
#include "tests/unit/temp_dir.h"

using namespace sqlite_parquet;

namespace {

// The rows of a table: per file, the value of each row (NULL: not indexed).
using Rows = std::vector<std::vector<SqlValue>>;

// Feeds `files` to a builder, integers of consecutive rows in runs through AddIntegers
// (as BuildJoinIndex does with a batch without NULLs), the others one by one.
std::shared_ptr<JoinIndex> Build(const Rows& files, uint64_t budget = uint64_t{1} << 30) {
  JoinIndexBuilder builder(budget);
  for (const std::vector<SqlValue>& rows : files) {
    if (!builder.StartFile(rows.size())) return nullptr;
    size_t row = 0;
    while (row < rows.size()) {
      std::vector<int64_t> run;
      while (row + run.size() < rows.size() && rows[row + run.size()].type == SqlValue::Type::kInteger && run.size() < 700) {
        run.push_back(rows[row + run.size()].integer);
      }
      if (!run.empty()) {
        if (!builder.AddIntegers(static_cast<int64_t>(row), run.data(), run.size())) return nullptr;
        row += run.size();
        continue;
      }
      if (!builder.Add(static_cast<int64_t>(row), rows[row])) return nullptr;
      row++;
    }
  }
  return builder.Finish();
}

// The positions of the rows equal to `value` (SQLite's equality), ascending.
std::vector<uint64_t> Expected(const Rows& files, const SqlValue& value) {
  std::vector<uint64_t> positions;
  if (value.is_null()) return positions;
  for (size_t f = 0; f < files.size(); f++) {
    for (size_t r = 0; r < files[f].size(); r++) {
      if (!files[f][r].is_null() && CompareSqlValues(files[f][r], value) == 0) {
        positions.push_back(RowPosition::Pack(f, static_cast<int64_t>(r)));
      }
    }
  }
  return positions;
}

// Every value of the table and some absent ones find exactly their rows (each distinct
// value probed once: Expected scans every row).
void CheckLookups(const Rows& files, const std::vector<SqlValue>& absent = {}) {
  std::shared_ptr<JoinIndex> index = Build(files);
  REQUIRE(index);
  std::vector<SqlValue> probes;
  std::set<std::string> seen;  // the probes' storage class and bits
  auto add_probe = [&](const SqlValue& v) {
    std::string key(1, static_cast<char>(v.type));
    key.append(reinterpret_cast<const char*>(&v.integer), sizeof v.integer);
    key.append(reinterpret_cast<const char*>(&v.real), sizeof v.real);
    key.append(v.bytes);
    if (seen.insert(key).second) probes.push_back(v);
  };
  for (const SqlValue& v : absent) add_probe(v);
  uint64_t rows = 0;
  for (const auto& rows_of_file : files) {
    for (const SqlValue& v : rows_of_file) {
      add_probe(v);
      rows += !v.is_null();
    }
  }
  CHECK(index->rows() == rows);
  for (const SqlValue& probe : probes) {
    std::vector<uint64_t> found;
    index->Lookup(probe, &found);
    CHECK(found == Expected(files, probe));
  }
}

// Writes `rows` rows in one row group to `path`: leaf 0 "a" INT64, the rows' numbers
// scattered (row * 7919 % rows); leaf 1 "b" INT64, the row number.
void WriteTwoKeys(const std::string& path, int64_t rows) {
  using test_support::LeafElement;
  parquet::ParquetFileWriter writer(path,
                                    {test_support::RootElement(2),
                                     LeafElement("a", parquet::FieldRepetitionType::REQUIRED, parquet::Type::INT64),
                                     LeafElement("b", parquet::FieldRepetitionType::REQUIRED, parquet::Type::INT64)},
                                    parquet::WriterOptions());
  std::vector<int64_t> a, b;
  for (int64_t r = 0; r < rows; r++) {
    a.push_back(r * 7919 % rows);
    b.push_back(r);
  }
  writer.StartRowGroup();
  writer.WriteBatch<int64_t>(0, a.size(), nullptr, nullptr, a.data(), a.size());
  writer.WriteBatch<int64_t>(1, b.size(), nullptr, nullptr, b.data(), b.size());
  writer.EndRowGroup(rows);
  writer.Close();
}

// Where a build of leaf `leaf` (INTEGER) of `files` reads from.
JoinIndexSource SourceOf(const std::vector<std::string>& files, int leaf) {
  JoinIndexSource source;
  source.files = &files;
  source.mapping_of = [leaf](const parquet::ParquetFileReader&, size_t) {
    ColumnMapping mapping;
    mapping.kind = ValueKind::kInt64;
    mapping.leaf_column = leaf;
    return mapping;
  };
  return source;
}

}  // namespace

TEST_CASE("join index: a sorted key, compact and plain, with NULL rows and duplicates") {
  // Ascending with duplicates: compact (offsets within each block of 256 keys).
  Rows files(2);
  for (int64_t i = 0; i < 1000; i++) files[0].push_back(SqlValue::Integer(i / 3));
  for (int64_t i = 0; i < 700; i++) files[1].push_back(SqlValue::Integer(400 + i / 2));
  CheckLookups(files, {SqlValue::Integer(-1), SqlValue::Integer(2000), SqlValue::Real(5.0), SqlValue::Real(5.5),
                       SqlValue::Text("5")});
  // NULL rows in between: rows kept beside the keys.
  files[0][10] = SqlValue::Null();
  files[1][0] = SqlValue::Null();
  CheckLookups(files, {SqlValue::Integer(3)});
  // A block spanning 65536 or more: plain keys from there on.
  for (size_t i = 300; i < files[1].size(); i++) files[1][i] = SqlValue::Integer(100000 + static_cast<int64_t>(i));
  CheckLookups(files, {SqlValue::Integer(100000)});
}

TEST_CASE("join index: a key out of order moves the sorted keys to the direct table or the hash") {
  Rows files(1);
  for (int64_t i = 0; i < 5000; i++) files[0].push_back(SqlValue::Integer(i / 4));
  files[0].push_back(SqlValue::Integer(3));  // out of order: a direct table over 0..1249
  for (int64_t i = 0; i < 3000; i++) files[0].push_back(SqlValue::Integer((i * 7919) % 1500));
  CheckLookups(files, {SqlValue::Integer(1500), SqlValue::Integer(-1)});
  // Then keys far apart: the direct table would be too sparse, they move to the hash.
  files[0].push_back(SqlValue::Integer(int64_t{1} << 40));
  files[0].push_back(SqlValue::Integer(INT64_MIN));
  files[0].push_back(SqlValue::Integer(INT64_MAX));
  for (int64_t i = 0; i < 100; i++) files[0].push_back(SqlValue::Integer(i * 1000003));
  CheckLookups(files, {SqlValue::Integer((int64_t{1} << 40) + 1), SqlValue::Real(9.5)});
}

TEST_CASE("join index: the direct table widens both ways") {
  Rows files(3);
  std::mt19937_64 random(7);
  for (auto& rows : files) {
    for (int i = 0; i < 4000; i++) rows.push_back(SqlValue::Integer(static_cast<int64_t>(random() % 3000) - 1500));
  }
  // Starting high, then lower and higher keys than any so far.
  files[0].insert(files[0].begin(), SqlValue::Integer(5000));
  files[2].push_back(SqlValue::Integer(-6000));
  files[2].push_back(SqlValue::Integer(9000));
  CheckLookups(files, {SqlValue::Integer(-1501), SqlValue::Integer(8999), SqlValue::Real(-6000.0)});
}

TEST_CASE("join index: reals, text, blobs and NULLs beside integers") {
  Rows files(2);
  const std::string texts[] = {"a", "abc", "", "3", "x y"};
  std::mt19937_64 random(11);
  for (auto& rows : files) {
    for (int i = 0; i < 3000; i++) {
      switch (random() % 6) {
        case 0: rows.push_back(SqlValue::Integer(static_cast<int64_t>(random() % 50))); break;
        case 1: rows.push_back(SqlValue::Real(static_cast<double>(random() % 50))); break;  // integral: keyed as integers
        case 2: rows.push_back(SqlValue::Real(static_cast<double>(random() % 50) + 0.25)); break;
        case 3: rows.push_back(SqlValue::Text(texts[random() % 5])); break;
        case 4: rows.push_back(SqlValue::Blob(texts[random() % 5])); break;
        default: rows.push_back(SqlValue::Null()); break;
      }
    }
  }
  CheckLookups(files, {SqlValue::Integer(51), SqlValue::Real(0.5), SqlValue::Text("b"), SqlValue::Blob("zz"),
                       SqlValue::Null(), SqlValue::Real(std::nan(""))});
}

TEST_CASE("join index: the memory budget") {
  Rows files(1);
  for (int64_t i = 0; i < 20000; i++) files[0].push_back(SqlValue::Integer((i * 7919) % 20000));
  // 4 bytes a row and the direct table over the keys: not in 50,000 bytes.
  CHECK(Build(files, 50000) == nullptr);
  std::shared_ptr<JoinIndex> index = Build(files, 1 << 20);
  REQUIRE(index);
  CHECK(index->bytes() <= uint64_t{1} << 20);
  CHECK(index->distinct_keys() == 20000);
  // A sorted key: about 2 bytes a row.
  Rows sorted(1);
  for (int64_t i = 0; i < 20000; i++) sorted[0].push_back(SqlValue::Integer(i));
  index = Build(sorted, 1 << 20);
  REQUIRE(index);
  CHECK(index->bytes() < 20000 * 3);
}

TEST_CASE("join index: the budget bounds the memory held while building, growth included") {
  // Scattered integer keys: the hash table doubles as it fills; its old and new slots are
  // held at once while it grows, and the table and the row chains together must stay within
  // the budget (the arrays are under 2 MiB here, so operator new counts them).
  constexpr uint64_t kBudget = 1 << 20;
  Rows files(1);
  for (int64_t i = 0; i < 100000; i++) files[0].push_back(SqlValue::Integer(i * 2654435761LL % 1000000007));
  testing_support::AllocationLimit limit(size_t{64} << 20);
  CHECK(Build(files, kBudget) == nullptr);  // 100,000 keys need over 3 MiB of slots
  CHECK_FALSE(limit.refused());
  CHECK(limit.peak() <= kBudget + 16 * 1024);  // the builder's own bookkeeping aside
}

TEST_CASE("join index: the budget bounds the memory of long text keys") {
  // Distinct text keys of 10 KB each: far past the budget within the first rows.
  constexpr uint64_t kBudget = 64 * 1024;
  std::vector<std::string> texts;
  for (int i = 0; i < 200; i++) texts.push_back(std::string(10000, 'a') + std::to_string(i));
  Rows files(1);
  for (const std::string& text : texts) files[0].push_back(SqlValue::Text(text));
  testing_support::AllocationLimit limit(size_t{64} << 20);
  CHECK(Build(files, kBudget) == nullptr);
  CHECK(limit.peak() <= kBudget + 16 * 1024);
}

TEST_CASE("join index: none for more files than a row position can name") {
  // Empty files, as a glob of very many would give: the first kMaxFiles are taken, the next
  // makes the builder give up (a position would wrap into another file's).
  JoinIndexBuilder builder(uint64_t{1} << 30);
  bool all_started = true;
  for (size_t f = 0; f < RowPosition::kMaxFiles; f++) all_started = builder.StartFile(0) && all_started;
  CHECK(all_started);
  CHECK_FALSE(builder.StartFile(0));
  CHECK(builder.Finish() == nullptr);
}

TEST_CASE("join index: the budget counts the whole pages of large arrays") {
  // A sorted key of 1,100,000 rows: 2.2 MB of 16-bit offsets, mapped as 538 pages.
  constexpr uint64_t kRows = 1100000;
  std::vector<int64_t> keys(kRows);
  std::iota(keys.begin(), keys.end(), int64_t{0});
  auto build = [&keys](uint64_t budget) -> std::shared_ptr<JoinIndex> {
    JoinIndexBuilder builder(budget);
    if (!builder.StartFile(kRows) || !builder.AddIntegers(0, keys.data(), keys.size())) return nullptr;
    return builder.Finish();
  };
  const uint64_t bases = (kRows / SortedKeys::kBlock + 1) * sizeof(int64_t);  // one a block of keys
  const uint64_t requested = kRows * sizeof(uint16_t) + bases;
  const uint64_t reserved = 538 * kLargeArrayPage + bases;
  REQUIRE(LargeArrayReservedBytes(kRows * sizeof(uint16_t)) == 538 * kLargeArrayPage);
  // A budget above what the arrays ask for but below what they hold: no index.
  CHECK(build((requested + reserved) / 2) == nullptr);
  std::shared_ptr<JoinIndex> index = build(reserved + 1024);
  REQUIRE(index);
  CHECK(index->bytes() >= reserved);
  CHECK(index->bytes() <= reserved + 1024);
}

TEST_CASE("join index: sorted keys switch to a wider form only within their byte limit") {
  // 1000 keys reserved: 2 bytes each and a base per block of 256, until a key lies 65536 or
  // more past its block's first (plain: 8 bytes each) or a row has no key (rows: 4 each).
  constexpr uint64_t kKeys = 1000;
  auto hundred_keys = [](uint64_t compact_limit_extra, SortedKeys* keys) {
    REQUIRE(keys->Reserve(kKeys));
    for (uint32_t i = 0; i < 100; i++) REQUIRE(keys->Append(i, i));
    keys->set_byte_limit(keys->bytes() + compact_limit_extra);
  };
  SortedKeys plain;
  hundred_keys(kKeys * sizeof(int64_t) - 1, &plain);
  const uint64_t compact_bytes = plain.bytes();
  CHECK(compact_bytes == kKeys * sizeof(uint16_t) + (kKeys / SortedKeys::kBlock + 1) * sizeof(int64_t));
  CHECK_FALSE(plain.Append(100000, 100));  // the plain keys would not fit beside the compact ones
  CHECK_FALSE(plain.plain());
  CHECK(plain.bytes() == compact_bytes);  // nothing allocated
  plain.set_byte_limit(compact_bytes + kKeys * sizeof(int64_t));
  CHECK(plain.Append(100000, 100));
  CHECK(plain.plain());
  CHECK(plain.bytes() == kKeys * sizeof(int64_t));  // the compact arrays let go
  CHECK(plain.key(99) == 99);
  CHECK(plain.key(100) == 100000);

  SortedKeys with_rows;
  hundred_keys(kKeys * sizeof(uint32_t) - 1, &with_rows);
  const uint64_t keyed_bytes = with_rows.bytes();
  CHECK_FALSE(with_rows.AppendConsecutive(std::vector<int64_t>{200, 201}.data(), 2, 105));  // rows 100..104: none
  CHECK_FALSE(with_rows.has_rows());
  CHECK(with_rows.bytes() == keyed_bytes);
  with_rows.set_byte_limit(keyed_bytes + kKeys * sizeof(uint32_t));
  CHECK(with_rows.AppendConsecutive(std::vector<int64_t>{200, 201}.data(), 2, 105));
  CHECK(with_rows.has_rows());
  CHECK(with_rows.bytes() == keyed_bytes + kKeys * sizeof(uint32_t));
  CHECK(with_rows.row(99) == 99);
  CHECK(with_rows.row(101) == 106);
  // Room for more keys in the form they have: within the limit too.
  CHECK_FALSE(with_rows.Reserve(2 * kKeys));
  CHECK(with_rows.bytes() == keyed_bytes + kKeys * sizeof(uint32_t));
}

TEST_CASE("join index: a sorted key that would outgrow the budget in a wider form gives up before allocating it") {
  // 20,000 ascending keys: compact about 41 KB, plain 160 KB, rows 80 KB more; the arrays are
  // under 2 MiB, so operator new holds them and the allocation counter sees every one.
  constexpr int64_t kRows = 20000;
  constexpr uint64_t kCompact = kRows * sizeof(uint16_t) + (kRows / SortedKeys::kBlock + 1) * sizeof(int64_t);
  constexpr uint64_t kSlack = 16 * 1024;  // the builder's own bookkeeping and the test's runs
  constexpr int64_t kJumpRow = kRows - 100;  // not the first of its block of 256
  static_assert(kJumpRow % SortedKeys::kBlock != 0);
  auto ascending = [](bool jump, bool null) {
    Rows files(1);
    for (int64_t i = 0; i < kRows; i++) files[0].push_back(SqlValue::Integer(i * 4 + (jump && i >= kJumpRow ? 1 << 20 : 0)));
    if (null) files[0][kJumpRow] = SqlValue::Null();
    return files;
  };
  // Without a wider form the keys fit a budget that the wider form does not.
  constexpr uint64_t kTight = 64 * 1024;
  static_assert(kCompact + kSlack < kTight && kCompact + kRows * sizeof(uint32_t) > kTight + kSlack);
  CHECK(Build(ascending(false, false), kTight));
  struct Case {
    bool jump, null;
  };
  for (const Case wider : {Case{true, false}, Case{false, true}, Case{true, true}}) {
    CAPTURE(wider.jump);
    CAPTURE(wider.null);
    const Rows files = ascending(wider.jump, wider.null);
    {
      testing_support::AllocationLimit limit(size_t{64} << 20);
      CHECK(Build(files, kTight) == nullptr);
      CHECK(limit.peak() <= kTight + kSlack);  // the plain keys or the rows never allocated
    }
    // A budget that allows the switch: built, and every key finds its rows.
    constexpr uint64_t kRoomy = 320 * 1024;
    static_assert(kCompact + kRows * (sizeof(int64_t) + sizeof(uint32_t)) < kRoomy);
    testing_support::AllocationLimit limit(size_t{64} << 20);
    std::shared_ptr<JoinIndex> index = Build(files, kRoomy);
    REQUIRE(index);
    CHECK(limit.peak() <= kRoomy + kSlack);
    CHECK(index->bytes() > kCompact + kRows);  // wider than compact
    CHECK(index->rows() == static_cast<uint64_t>(kRows - (wider.null ? 1 : 0)));
    std::vector<SqlValue> probes{SqlValue::Integer(-1), SqlValue::Integer(kJumpRow * 4), SqlValue::Integer(1 << 20),
                                 SqlValue::Integer(kRows * 4 + (1 << 20))};
    for (int64_t row = 0; row < kRows; row += 37) probes.push_back(files[0][row]);
    for (int64_t row = kJumpRow - 3; row < kJumpRow + 3; row++) probes.push_back(files[0][row]);
    for (const SqlValue& probe : probes) {
      std::vector<uint64_t> found;
      index->Lookup(probe, &found);
      CHECK(found == Expected(files, probe));
    }
  }
}

TEST_CASE("join index: room for the next file's plain sorted keys only within the budget") {
  // Two files of 10,000 ascending keys, plain from the first file's middle on (80 KB): room
  // for the second file's (160 KB beside the first's 80 KB while they are copied) does not
  // fit 128 KB; the compact keys would.
  constexpr int64_t kRows = 10000;
  constexpr uint64_t kBudget = 128 * 1024;
  auto two_files = [](bool jump) {
    Rows files(2);
    for (int64_t i = 0; i < 2 * kRows; i++) {
      files[i / kRows].push_back(SqlValue::Integer(i + (jump && i >= kRows / 2 + 10 ? 1 << 20 : 0)));
    }
    return files;
  };
  CHECK(Build(two_files(false), kBudget));
  const Rows files = two_files(true);
  testing_support::AllocationLimit limit(size_t{64} << 20);
  CHECK(Build(files, kBudget) == nullptr);
  CHECK(limit.peak() <= kBudget + 16 * 1024);
}

TEST_CASE("join index: room for the next file's row chains only beside what the index holds") {
  // Two files of 10,000 scattered keys, each file's a permutation of its own range: after
  // the first, the row chains (40 KB) and the direct table (40 KB) are held; room for the
  // second file's chains (80 KB, beside the old 40 KB and the table) does not fit 128 KB.
  constexpr int64_t kRows = 10000;
  constexpr uint64_t kBudget = 128 * 1024;
  Rows files(2);
  for (int64_t i = 0; i < 2 * kRows; i++) {
    files[i / kRows].push_back(SqlValue::Integer(i / kRows * kRows + (i % kRows) * 7919 % kRows));
  }
  CHECK(Build(files));  // without a budget
  testing_support::AllocationLimit limit(size_t{64} << 20);
  CHECK(Build(files, kBudget) == nullptr);
  CHECK(limit.peak() <= kBudget + 16 * 1024);
}

TEST_CASE("join index: a build checks for interrupts within a row group") {
  test_support::TempDir dir;
  constexpr int64_t kRows = 300000;  // one row group
  constexpr int64_t kInterval = 65536;
  const std::vector<std::string> files{dir.File("one_group.parquet")};
  WriteTwoKeys(files[0], kRows);
  JoinIndexSource source = SourceOf(files, 0);
  source.rows_per_interrupt_check = kInterval;
  int checks = 0;
  source.check_interrupt = [&checks] { checks++; };
  std::shared_ptr<JoinIndex> index = BuildJoinIndex(source, uint64_t{1} << 30);
  REQUIRE(index);
  CHECK(index->rows() == kRows);
  CHECK(checks == 1 + (kRows - 1) / kInterval);  // at rows 0, 65536, ... 262144
  // An interrupt (the callback throws) at the third check ends the build there.
  struct Interrupted {};
  checks = 0;
  source.check_interrupt = [&checks] {
    if (++checks == 3) throw Interrupted();
  };
  CHECK_THROWS_AS(BuildJoinIndex(source, uint64_t{1} << 30), Interrupted);
  CHECK(checks == 3);
}

TEST_CASE("join index cache: once the files change, every column's old index is let go before a build") {
  test_support::TempDir dir;
  const std::vector<std::string> files{dir.File("t.parquet")};
  constexpr uint64_t kBudget = uint64_t{1} << 30;
  WriteTwoKeys(files[0], 20000);
  JoinIndexCache cache;
  bool built = false;
  const std::weak_ptr<JoinIndex> old_a = cache.Get(0, SourceOf(files, 0), kBudget, true, &built);
  CHECK(built);
  const std::weak_ptr<JoinIndex> old_b = cache.Get(1, SourceOf(files, 1), kBudget, true, &built);
  CHECK(built);
  REQUIRE_FALSE(old_a.expired());  // kept by the cache
  REQUIRE_FALSE(old_b.expired());
  WriteTwoKeys(files[0], 25000);  // the file changed (its size)
  JoinIndexSource source = SourceOf(files, 0);
  int checks = 0;
  bool old_held_while_building = false;
  source.check_interrupt = [&] {
    checks++;
    old_held_while_building = old_held_while_building || !old_a.expired() || !old_b.expired();
  };
  std::shared_ptr<JoinIndex> index = cache.Get(0, source, kBudget, true, &built);
  REQUIRE(index);
  CHECK(built);
  CHECK(index->rows() == 25000);
  CHECK(checks > 0);
  CHECK_FALSE(old_held_while_building);
  CHECK_FALSE(cache.Has(1));
}

TEST_CASE("join index cache: an old index a running statement holds counts against the rebuild's budget") {
  test_support::TempDir dir;
  const std::vector<std::string> files{dir.File("t.parquet")};
  WriteTwoKeys(files[0], 20000);
  JoinIndexCache cache;
  bool built = false;
  // A statement's cursor holds the index while the file changes.
  std::shared_ptr<JoinIndex> held = cache.Get(0, SourceOf(files, 0), uint64_t{1} << 30, true, &built);
  REQUIRE(held);
  WriteTwoKeys(files[0], 21000);
  JoinIndexCache other;
  const std::shared_ptr<JoinIndex> alone = other.Get(0, SourceOf(files, 0), uint64_t{1} << 30, true, &built);
  REQUIRE(alone);
  const uint64_t new_bytes = alone->bytes();
  // Room for the new index, not for both.
  const uint64_t budget = held->bytes() + new_bytes / 2;
  REQUIRE(budget >= new_bytes);
  CHECK(cache.Get(0, SourceOf(files, 0), budget, true, &built) == nullptr);
  CHECK_FALSE(built);
  // Once that statement lets go of it, the next one builds (not refused for good).
  held.reset();
  std::shared_ptr<JoinIndex> rebuilt = cache.Get(0, SourceOf(files, 0), budget, true, &built);
  REQUIRE(rebuilt);
  CHECK(built);
  CHECK(rebuilt->bytes() == new_bytes);
}
