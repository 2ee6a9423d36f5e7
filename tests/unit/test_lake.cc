// Tests of the shared lake-table pieces (format/lake/): Z85, the portable roaring bitmaps
// (array, bitmap and run containers; 64-bit buckets), deletion vectors (framing, checksum,
// cardinality, file names, a real Delta .bin file), the Delta log replay (reconciliation
// by path and deletion vector, the protocol check, broken logs) and the removal of deleted
// rows from a row group's ranges (ext/table/lake_table.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ext/table/lake_table.h"
#include "format/codec/checksum.h"
#include "format/common/error.h"
#include "format/lake/deletion_vector.h"
#include "format/lake/delta_log.h"
#include "format/lake/lake_storage.h"
#include "format/lake/roaring.h"
#include "format/lake/z85.h"

using namespace parquet;
using namespace parquet::lake;

namespace {

void Put16(std::string* s, uint16_t v) {
  s->push_back(static_cast<char>(v & 0xFF));
  s->push_back(static_cast<char>(v >> 8));
}
void Put32(std::string* s, uint32_t v) {
  for (int i = 0; i < 4; i++) s->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void Put64(std::string* s, uint64_t v) {
  Put32(s, static_cast<uint32_t>(v));
  Put32(s, static_cast<uint32_t>(v >> 32));
}
void PutBE32(std::string* s, uint32_t v) {
  for (int i = 3; i >= 0; i--) s->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// A 32-bit portable bitmap without run containers: one array container per key.
std::string ArrayBitmap(const std::vector<std::pair<uint16_t, std::vector<uint16_t>>>& containers) {
  std::string s;
  Put32(&s, 12346);
  Put32(&s, static_cast<uint32_t>(containers.size()));
  for (const auto& c : containers) {
    Put16(&s, c.first);
    Put16(&s, static_cast<uint16_t>(c.second.size() - 1));
  }
  uint32_t offset = static_cast<uint32_t>(s.size() + 4 * containers.size());
  for (const auto& c : containers) {
    Put32(&s, offset);
    offset += static_cast<uint32_t>(2 * c.second.size());
  }
  for (const auto& c : containers) {
    for (uint16_t v : c.second) Put16(&s, v);
  }
  return s;
}

std::string Bitmap64(const std::vector<std::pair<uint32_t, std::string>>& buckets) {
  std::string s;
  Put64(&s, buckets.size());
  for (const auto& b : buckets) {
    Put32(&s, b.first);
    s += b.second;
  }
  return s;
}

std::string Framed(const std::string& data) {
  std::string s;
  PutBE32(&s, static_cast<uint32_t>(data.size()));
  s += data;
  PutBE32(&s, Crc32(reinterpret_cast<const uint8_t*>(data.data()), data.size()));
  return s;
}

std::string WithMagic(const std::string& bitmap) {
  std::string s;
  Put32(&s, 1681511377);
  return s + bitmap;
}

}  // namespace

TEST_CASE("Z85 decodes the ZeroMQ example and refuses malformed text") {
  const std::optional<std::string> bytes = DecodeZ85("HelloWorld");
  REQUIRE(bytes);
  const std::string expected("\x86\x4F\xD2\x6F\xB5\x59\xF7\x5B", 8);
  CHECK(*bytes == expected);
  CHECK(EncodeZ85(expected) == "HelloWorld");
  CHECK_FALSE(DecodeZ85("Hello"  "W"));  // not a multiple of 5
  CHECK_FALSE(DecodeZ85("Hell~"));       // not in the alphabet
  CHECK_FALSE(DecodeZ85("#####"));       // above 2^32 - 1
  CHECK_FALSE(DecodeZ85("#0000Hello"));  // a padded group that is not the last: above 2^32 - 1
  // The z85 crate's padded last group: "##093" is 768 = 00 00 03 00 with two padding bytes,
  // so the bytes 03 00 (kernel-data's cdf-table-with-dv version 5: row 3 deleted).
  CHECK(DecodeZ85("##093") == std::string("\x03\x00", 2));
  CHECK(DecodeZ85("#0001") == std::string("\x00\x00\x01", 3));
  CHECK(DecodeZ85("###03") == std::string("\x03", 1));
  CHECK(DecodeZ85("HelloWorld").value() + std::string("\x03\x00", 2) == DecodeZ85("HelloWorld##093"));
  CHECK_FALSE(DecodeZ85("###3E"));       // 3 * 85 + 40 = 295: more than one byte
  CHECK_FALSE(DecodeZ85("####0"));       // four padding bytes
  CHECK(DecodeZ85("")->empty());
}

TEST_CASE("roaring: array containers across keys and buckets") {
  const std::string b32 = ArrayBitmap({{0, {1, 2, 3, 9}}, {2, {0}}});
  std::vector<PositionRange> out;
  CHECK(DecodeRoaring32(b32, 0, &out) == b32.size());
  CHECK(out == std::vector<PositionRange>{{1, 4}, {9, 10}, {131072, 131073}});
  const std::vector<PositionRange> r64 = DecodeRoaring64(Bitmap64({{0, ArrayBitmap({{0, {5}}})}, {3, ArrayBitmap({{1, {7}}})}}));
  CHECK(r64 == std::vector<PositionRange>{{5, 6}, {(uint64_t{3} << 32) + 65536 + 7, (uint64_t{3} << 32) + 65536 + 8}});
  CHECK(CountPositions(r64) == 2);
}

TEST_CASE("roaring: bitmap and run containers") {
  // A bitmap container: rows 0..4999 and 6000.
  std::string bitmap;
  Put32(&bitmap, 12346);
  Put32(&bitmap, 1);
  Put16(&bitmap, 0);
  Put16(&bitmap, 5000);  // cardinality 5001
  Put32(&bitmap, 16);
  std::vector<uint64_t> words(1024, 0);
  for (int i = 0; i < 5000; i++) words[static_cast<size_t>(i / 64)] |= uint64_t{1} << (i % 64);
  words[6000 / 64] |= uint64_t{1} << (6000 % 64);
  for (uint64_t w : words) Put64(&bitmap, w);
  std::vector<PositionRange> out;
  DecodeRoaring32(bitmap, 0, &out);
  CHECK(out == std::vector<PositionRange>{{0, 5000}, {6000, 6001}});
  // A wrong cardinality in the header is an error.
  std::string wrong = bitmap;
  wrong[10] = 1;
  out.clear();
  CHECK_THROWS_AS(DecodeRoaring32(wrong, 0, &out), ParquetError);

  // A run container (cookie 12347, one container, run flag set): [10, 20] and [100, 100].
  std::string runs;
  Put32(&runs, 12347);  // (containers - 1) << 16 | 12347
  runs.push_back(1);    // run flags
  Put16(&runs, 0);
  Put16(&runs, 11);     // cardinality - 1
  Put16(&runs, 2);      // runs
  Put16(&runs, 10);
  Put16(&runs, 10);
  Put16(&runs, 100);
  Put16(&runs, 0);
  out.clear();
  CHECK(DecodeRoaring32(runs, 1, &out) == runs.size());
  CHECK(out == std::vector<PositionRange>{{(uint64_t{1} << 32) + 10, (uint64_t{1} << 32) + 21},
                                          {(uint64_t{1} << 32) + 100, (uint64_t{1} << 32) + 101}});
}

TEST_CASE("roaring: malformed input is an error, never a crash") {
  std::vector<PositionRange> out;
  CHECK_THROWS_AS(DecodeRoaring32(std::string("\x01\x02", 2), 0, &out), ParquetError);
  CHECK_THROWS_AS(DecodeRoaring32(std::string("\x00\x00\x00\x00\x00\x00\x00\x00", 8), 0, &out), ParquetError);
  // Keys out of order.
  CHECK_THROWS_AS(DecodeRoaring32(ArrayBitmap({{2, {1}}, {1, {1}}}), 0, &out), ParquetError);
  // Values out of order within an array container.
  out.clear();
  CHECK_THROWS_AS(DecodeRoaring32(ArrayBitmap({{0, {3, 1}}}), 0, &out), ParquetError);
  // Every truncation of a valid 64-bit bitmap fails cleanly; trailing bytes too.
  const std::string valid = Bitmap64({{0, ArrayBitmap({{0, {1, 2}}, {4, {9}}})}, {7, ArrayBitmap({{0, {0}}})}});
  for (size_t n = 0; n < valid.size(); n++) CHECK_THROWS_AS(DecodeRoaring64(valid.substr(0, n)), ParquetError);
  CHECK_THROWS_AS(DecodeRoaring64(valid + "x"), ParquetError);
  CHECK_NOTHROW(DecodeRoaring64(valid));
  // A bucket count far beyond the data.
  std::string huge;
  Put64(&huge, uint64_t{1} << 60);
  CHECK_THROWS_AS(DecodeRoaring64(huge), ParquetError);
}

TEST_CASE("deletion vectors: framing, checksum and magic") {
  const std::string data = WithMagic(Bitmap64({{0, ArrayBitmap({{0, {0, 9}}})}}));
  CHECK(DecodeFramedDeletionVector(Framed(data), "test") == std::vector<PositionRange>{{0, 1}, {9, 10}});
  std::string bad = Framed(data);
  bad[bad.size() - 1] ^= 1;
  CHECK_THROWS_WITH_AS(DecodeFramedDeletionVector(bad, "test"), doctest::Contains("checksum"), ParquetError);
  std::string wrong_magic = data;
  wrong_magic[0] ^= 1;
  CHECK_THROWS_WITH_AS(DecodeFramedDeletionVector(Framed(wrong_magic), "test"), doctest::Contains("magic"), ParquetError);
  std::string wrong_length = Framed(data);
  wrong_length[3] ^= 1;
  CHECK_THROWS_AS(DecodeFramedDeletionVector(wrong_length, "test"), ParquetError);
}

TEST_CASE("deletion vectors: inline, cardinality and file names") {
  std::string data = WithMagic(Bitmap64({{0, ArrayBitmap({{0, {3, 4, 5}}})}}));
  const size_t size = data.size();
  while (data.size() % 4 != 0) data.push_back('\0');
  DeletionVectorDescriptor dv;
  dv.storage_type = 'i';
  dv.path_or_inline = EncodeZ85(data);
  dv.size_in_bytes = static_cast<int64_t>(size);
  dv.cardinality = 3;
  CHECK(ReadDeletionVector(dv, "/nowhere", nullptr) == std::vector<PositionRange>{{3, 6}});
  dv.cardinality = 4;
  CHECK_THROWS_WITH_AS(ReadDeletionVector(dv, "/nowhere", nullptr), doctest::Contains("cardinality"), ParquetError);
  dv.size_in_bytes = int64_t{1} << 40;
  CHECK_THROWS_AS(ReadDeletionVector(dv, "/nowhere", nullptr), ParquetError);

  DeletionVectorDescriptor u;
  u.storage_type = 'u';
  u.path_or_inline = "ab" + EncodeZ85(std::string("\x61\xd1\x6c\x75\x69\x94\x46\xb7\xa1\x5b\x8b\x53\x88\x52\xe5\x0e", 16));
  CHECK(DeletionVectorFile(u, "/t") == "/t/ab/deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin");
  u.path_or_inline = "../" + u.path_or_inline.substr(2);
  CHECK_THROWS_AS(DeletionVectorFile(u, "/t"), ParquetError);
  CHECK(u.UniqueId().front() == 'u');
  // A padded last group (fewer than 16 bytes) is no UUID.
  u.path_or_inline = EncodeZ85(std::string(12, 'x')) + "##093";
  CHECK_THROWS_WITH_AS(DeletionVectorFile(u, "/t"), doctest::Contains("not Z85 of 16 bytes"), ParquetError);
}

TEST_CASE("deletion vectors: a Delta .bin file written by Databricks") {
  DeletionVectorDescriptor dv;
  dv.storage_type = 'u';
  dv.path_or_inline = "vBn[lx{q8@P<9BNH/isA";
  dv.offset = 1;
  dv.size_in_bytes = 36;
  dv.cardinality = 2;
  const std::string root = "../shared/lake/delta/kernel-data/table-with-dv-small";
  CHECK(ReadDeletionVector(dv, root, nullptr) == std::vector<PositionRange>{{0, 1}, {9, 10}});
  dv.offset = 2;
  CHECK_THROWS_AS(ReadDeletionVector(dv, root, nullptr), ParquetError);
}

namespace {

const char* kProtocol = R"({"protocol":{"minReaderVersion":1,"minWriterVersion":2}})";
const char* kMetadata =
    R"({"metaData":{"id":"x","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}},{\"name\":\"p\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":["p"],"configuration":{}}})";

std::string Add(const std::string& path, const std::string& p, const std::string& extra = "") {
  return R"({"add":{"path":")" + path + R"(","partitionValues":{"p":)" + p + R"(},"size":1,"modificationTime":1,"dataChange":true)" +
         extra + "}}";
}

}  // namespace

TEST_CASE("Delta replay: adds and removes reconciled by path and deletion vector") {
  DeltaLogReplay replay("/t", DeltaReadOptions());
  replay.AddCommit(std::string(kProtocol) + "\n" + kMetadata + "\n" + Add("p=1/a.parquet", "\"1\"") + "\n" +
                       Add("p%3D2/b%20c.parquet", "null", R"(,"stats":"{\"numRecords\":5,\"minValues\":{\"a\":3},\"maxValues\":{\"a\":9},\"nullCount\":{\"a\":0}}")"),
                   "0.json");
  const std::string dv = R"(,"deletionVector":{"storageType":"i","pathOrInlineDv":"x","sizeInBytes":4,"cardinality":1})";
  replay.AddCommit(R"({"remove":{"path":"p=1/a.parquet","dataChange":true}})" "\n" + Add("p=1/a.parquet", "\"1\"", dv), "1.json");
  const LakeSnapshot s = replay.Finish(1, 0);
  REQUIRE(s.files.size() == 2);
  CHECK(s.columns.size() == 2);
  CHECK(s.partition_columns == std::vector<int>{1});
  CHECK(s.files[0].path == "/t/p=1/a.parquet");
  CHECK(s.files[0].deleted != nullptr);
  CHECK(s.files[0].partition_values[0].kind == LakeValue::Kind::kInteger);
  CHECK(s.files[1].path == "/t/p=2/b c.parquet");
  CHECK(s.files[1].partition_values[0].kind == LakeValue::Kind::kNull);
  CHECK(s.files[1].record_count == 5);
  CHECK(s.files[1].stats[0].min.integer == 3);
  CHECK(s.files[1].stats[0].max.integer == 9);
  CHECK(s.files[1].stats[0].null_count == 0);
}

TEST_CASE("Delta replay: protocol check, missing actions, paths outside the root") {
  {
    DeltaLogReplay replay("/t", DeltaReadOptions());
    replay.AddCommit(R"({"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["deletionVectors","futureThing"]}})"
                     "\n" + std::string(kMetadata), "0.json");
    CHECK_THROWS_WITH_AS(replay.Finish(0, 0), doctest::Contains("'futureThing' (reader version 3)"), ParquetError);
  }
  {
    DeltaLogReplay replay("/t", DeltaReadOptions());
    replay.AddCommit(R"({"protocol":{"minReaderVersion":4,"minWriterVersion":7}})" "\n" + std::string(kMetadata), "0.json");
    CHECK_THROWS_WITH_AS(replay.Finish(0, 0), doctest::Contains("reader version 4"), ParquetError);
  }
  {
    DeltaLogReplay replay("/t", DeltaReadOptions());
    replay.AddCommit(kMetadata, "0.json");
    CHECK_THROWS_WITH_AS(replay.Finish(0, 0), doctest::Contains("no protocol"), ParquetError);
  }
  {
    DeltaLogReplay replay("/t", DeltaReadOptions());
    replay.AddCommit(kProtocol, "0.json");
    CHECK_THROWS_WITH_AS(replay.Finish(0, 0), doctest::Contains("no metaData"), ParquetError);
  }
  for (const char* path : {"/etc/passwd", "../x.parquet", "file:///etc/passwd", "a/../../x.parquet"}) {
    DeltaLogReplay replay("/t", DeltaReadOptions());
    replay.AddCommit(std::string(kProtocol) + "\n" + kMetadata + "\n" + Add(path, "\"1\""), "0.json");
    CHECK_THROWS_WITH_AS(replay.Finish(0, 0), doctest::Contains("allow_external_paths"), ParquetError);
  }
  {
    DeltaLogReplay replay("/t", DeltaReadOptions());
    CHECK_THROWS_WITH_AS(replay.AddCommit("{\"add\":", "7.json"), doctest::Contains("7.json line 1"), ParquetError);
  }
}

TEST_CASE("Delta tables: missing versions and time travel bounds") {
  std::unique_ptr<LakeStorage> storage = MakeLocalStorage();
  CHECK_THROWS_WITH_AS(ReadDeltaSnapshot(*storage, "../shared/lake/delta/golden/versions-not-contiguous/delta", {}),
                       doctest::Contains("missing version"), ParquetError);
  DeltaReadOptions options;
  options.version = 1000;
  CHECK_THROWS_WITH_AS(ReadDeltaSnapshot(*storage, "../shared/lake/delta/kernel-data/table-with-dv-small", options),
                       doctest::Contains("has no version 1000"), ParquetError);
  options.version = 0;
  const LakeSnapshot v0 = ReadDeltaSnapshot(*storage, "../shared/lake/delta/kernel-data/table-with-dv-small", options);
  REQUIRE(v0.files.size() == 1);
  CHECK(v0.files[0].deleted == nullptr);
  const LakeSnapshot v1 = ReadDeltaSnapshot(*storage, "../shared/lake/delta/kernel-data/table-with-dv-small", {});
  REQUIRE(v1.files.size() == 1);
  REQUIRE(v1.files[0].deleted != nullptr);
  CHECK(v1.files[0].deleted->Load()->count() == 2);
}

TEST_CASE("RemoveDeletedRows takes deleted positions out of a row group's ranges") {
  const DeletedRows deleted({{2, 4}, {10, 11}, {20, 30}});
  int64_t removed = 0;
  // Row group starting at file row 5: its rows 0..9 are file rows 5..14.
  const RowRanges out = sqlite_parquet::RemoveDeletedRows(RowRanges::FromRanges({{0, 10}}), deleted, 5, &removed);
  CHECK(out.ToString() == RowRanges::FromRanges({{0, 5}, {6, 10}}).ToString());
  CHECK(removed == 1);
  removed = 0;
  const RowRanges all = sqlite_parquet::RemoveDeletedRows(RowRanges::FromRanges({{0, 3}, {5, 8}}), deleted, 20, &removed);
  CHECK(all.empty());
  CHECK(removed == 6);
  removed = 0;
  const RowRanges first = sqlite_parquet::RemoveDeletedRows(RowRanges::FromRanges({{0, 5}}), deleted, 0, &removed);
  CHECK(first.ToString() == RowRanges::FromRanges({{0, 2}, {4, 5}}).ToString());
  CHECK(removed == 2);
}

namespace {

// The data files (relative to the root) of a golden table's snapshot.
std::vector<std::string> GoldenFiles(const std::string& name, DeltaReadOptions options = {}) {
  std::unique_ptr<LakeStorage> storage = MakeLocalStorage();
  const std::string root = "../shared/lake/delta/golden/" + name + "/delta";
  const LakeSnapshot snapshot = ReadDeltaSnapshot(*storage, root, options);
  std::vector<std::string> files;
  for (const LakeDataFile& f : snapshot.files) {
    files.push_back(f.path.rfind(root + "/", 0) == 0 ? f.path.substr(root.size() + 1) : f.path);
  }
  return files;
}

}  // namespace

TEST_CASE("Delta golden logs: the files each replay leaves") {
  // Added as "/x", removed as "file:/x" or "file:///x" (with escapes in the special cases).
  for (const char* name : {"canonicalized-paths-normal-a", "canonicalized-paths-normal-b", "canonicalized-paths-special-a",
                           "canonicalized-paths-special-b"}) {
    CAPTURE(name);
    CHECK(GoldenFiles(name).empty());
    DeltaReadOptions v0;
    v0.version = 0;
    v0.allow_external_paths = true;
    CHECK(GoldenFiles(name, v0).size() == 1);
  }
  DeltaReadOptions external;
  external.version = 0;
  external.allow_external_paths = true;
  CHECK(GoldenFiles("canonicalized-paths-special-a", external) ==
        std::vector<std::string>{"/some/unqualified/with space/p@#h"});
  CHECK(GoldenFiles("delete-re-add-same-file-different-transactions") == std::vector<std::string>{"bar", "foo"});
  CHECK(GoldenFiles("checkpoint") == std::vector<std::string>{"15"});
  CHECK(GoldenFiles("log-replay-special-characters-b") == std::vector<std::string>{"special p@#h"});
  // A corrupt _last_checkpoint changes nothing: the listing finds the checkpoint.
  CHECK(GoldenFiles("corrupted-last-checkpoint-kernel").size() > 0);
}

TEST_CASE("Delta history: one entry per commit") {
  std::unique_ptr<LakeStorage> storage = MakeLocalStorage();
  const std::vector<LakeHistoryEntry> history =
      ReadDeltaHistory(*storage, "../shared/lake/delta/kernel-data/table-with-dv-small");
  REQUIRE(history.size() == 2);
  CHECK(history[0].operation == "WRITE");
  CHECK(history[0].rows_added == 10);
  CHECK(history[1].operation == "DELETE");
  CHECK(history[1].parent_id == 0);
  CHECK(history[1].timestamp_ms == 1677811194429);
}

namespace {

// Local files seen as a remote storage (LakeStorage::remote): what a Delta reader lists and
// reads, recorded, so that the S3 way of opening a log (_last_checkpoint, a listing from the
// checkpoint on) is checked without a server.
class RecordingStorage : public LakeStorage {
 public:
  bool List(const std::string& dir, size_t max_entries, std::vector<LakeEntry>* out) override {
    calls.push_back("list " + Base(dir));
    return local_->List(dir, max_entries, out);
  }
  bool ListAfter(const std::string& dir, const std::string& start_after, size_t max_entries,
                 std::vector<LakeEntry>* out) override {
    calls.push_back("list " + Base(dir) + " after " + start_after);
    std::vector<LakeEntry> all;
    if (!local_->List(dir, max_entries, &all)) return false;
    for (LakeEntry& e : all) {
      if (e.name > start_after) out->push_back(LakeEntry{e.name, -1});  // (S3 gives no times)
    }
    return true;
  }
  std::string ReadWhole(const std::string& path, size_t max_bytes) override {
    calls.push_back("read " + Base(path));
    return local_->ReadWhole(path, max_bytes);
  }
  std::unique_ptr<RandomAccessFile> Open(const std::string& path) override {
    calls.push_back("open " + Base(path));
    return local_->Open(path);
  }
  bool IsDirectory(const std::string& path) override { return local_->IsDirectory(path); }
  bool remote() const override { return true; }
  std::vector<std::string> calls;

 private:
  static std::string Base(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }
  std::unique_ptr<LakeStorage> local_ = MakeLocalStorage();
};

std::vector<std::string> PathsOf(const LakeSnapshot& snapshot) {
  std::vector<std::string> paths;
  for (const LakeDataFile& f : snapshot.files) paths.push_back(f.path + "#" + std::to_string(f.record_count));
  return paths;
}

}  // namespace

TEST_CASE("Delta over a remote storage: _last_checkpoint, then the log listed from the checkpoint on") {
  const std::string root = "../shared/lake/delta/golden/dv-with-columnmapping/delta";  // checkpoint 10, commits to 15
  std::unique_ptr<LakeStorage> local = MakeLocalStorage();
  const LakeSnapshot expected = ReadDeltaSnapshot(*local, root, {});
  RecordingStorage remote;
  const LakeSnapshot got = ReadDeltaSnapshot(remote, root, {});
  CHECK(PathsOf(got) == PathsOf(expected));
  CHECK(got.version == expected.version);
  CHECK(remote.calls == std::vector<std::string>{
                           "read _last_checkpoint", "list _delta_log after 00000000000000000010",
                           "open 00000000000000000010.checkpoint.parquet", "read 00000000000000000011.json",
                           "read 00000000000000000012.json", "read 00000000000000000013.json",
                           "read 00000000000000000014.json", "read 00000000000000000015.json"});
  // A version at or after the checkpoint lists from it; an older one, or a timestamp, the whole log.
  DeltaReadOptions options;
  options.version = 12;
  remote.calls.clear();
  CHECK(PathsOf(ReadDeltaSnapshot(remote, root, options)) == PathsOf(ReadDeltaSnapshot(*local, root, options)));
  CHECK(remote.calls.at(1) == "list _delta_log after 00000000000000000010");
  options.version = 4;
  remote.calls.clear();
  CHECK(PathsOf(ReadDeltaSnapshot(remote, root, options)) == PathsOf(ReadDeltaSnapshot(*local, root, options)));
  CHECK(remote.calls.at(1) == "list _delta_log");
  // Multi-part checkpoints: every part read.
  const std::string multi = "../shared/lake/delta/kernel-data/v1-multi-part-struct-stats-only";
  remote.calls.clear();
  CHECK(PathsOf(ReadDeltaSnapshot(remote, multi, {})) == PathsOf(ReadDeltaSnapshot(*local, multi, {})));
  CHECK(remote.calls.at(1) == "list _delta_log after 00000000000000000005");
  CHECK(std::count_if(remote.calls.begin(), remote.calls.end(),
                      [](const std::string& c) { return c.find(".checkpoint.") != std::string::npos; }) == 3);
  // A corrupt _last_checkpoint, or none: the whole log is listed and the checkpoint found.
  for (const char* name : {"golden/corrupted-last-checkpoint-kernel/delta", "kernel-data/with_checkpoint_no_last_checkpoint"}) {
    CAPTURE(name);
    const std::string path = std::string("../shared/lake/delta/") + name;
    remote.calls.clear();
    CHECK(PathsOf(ReadDeltaSnapshot(remote, path, {})) == PathsOf(ReadDeltaSnapshot(*local, path, {})));
    CHECK(remote.calls.at(1) == "list _delta_log");
  }
}

TEST_CASE("Delta _last_checkpoint: the version it names, or none") {
  CHECK(ParseDeltaLastCheckpoint(R"({"version":10,"size":13})") == 10);
  CHECK(ParseDeltaLastCheckpoint(R"({"version":0,"parts":0})") == 0);  // parts is not used
  CHECK(ParseDeltaLastCheckpoint(R"({"size":13})") == std::nullopt);
  CHECK(ParseDeltaLastCheckpoint(R"({"version":-1})") == std::nullopt);
  CHECK(ParseDeltaLastCheckpoint(R"({"version":10.5})") == std::nullopt);
  CHECK(ParseDeltaLastCheckpoint(R"({"version":1e3})") == std::nullopt);
  CHECK(ParseDeltaLastCheckpoint(R"({"version":"10"})") == std::nullopt);
  CHECK(ParseDeltaLastCheckpoint(R"({"version":9223372036854775807})") == std::nullopt);  // beyond kMaxDeltaVersion
  CHECK(ParseDeltaLastCheckpoint(R"({"version":99999999999999999999999})") == std::nullopt);
  CHECK(ParseDeltaLastCheckpoint(R"({"version":10,"si)") == std::nullopt);
  CHECK(ParseDeltaLastCheckpoint(R"([10])") == std::nullopt);
  CHECK(ParseDeltaLastCheckpoint("") == std::nullopt);
  CHECK(ParseDeltaLastCheckpoint(std::string(kMaxLastCheckpointBytes + 1, ' ')) == std::nullopt);
}

namespace {

// A remote storage (as S3Storage: a listing of nothing is "no such directory") over local
// files whose _last_checkpoint says `hint` (nullopt: missing) and whose listings may ignore
// start-after, come reversed with every key twice, and add `extra` names.
class ForgingStorage : public LakeStorage {
 public:
  bool List(const std::string& dir, size_t max_entries, std::vector<LakeEntry>* out) override {
    return ListAfter(dir, "", max_entries, out);
  }
  bool ListAfter(const std::string& dir, const std::string& start_after, size_t max_entries,
                 std::vector<LakeEntry>* out) override {
    lists.push_back(start_after);
    std::vector<LakeEntry> all;
    if (!local_->List(dir, max_entries, &all)) return false;
    std::vector<LakeEntry> listed;
    for (LakeEntry& e : all) {
      if (e.name == "_last_checkpoint" && !hint) continue;
      if (hostile_listing || e.name > start_after) listed.push_back(LakeEntry{e.name, -1});
    }
    if (hostile_listing) {
      std::sort(listed.begin(), listed.end(), [](const LakeEntry& a, const LakeEntry& b) { return a.name > b.name; });
      const size_t n = listed.size();
      for (size_t i = 0; i < n; i++) listed.push_back(listed[i]);
      for (const std::string& name : extra) listed.push_back(LakeEntry{name, -1});
    }
    if (listed.empty()) return false;
    out->insert(out->end(), listed.begin(), listed.end());
    return true;
  }
  std::string ReadWhole(const std::string& path, size_t max_bytes) override {
    if (path.ends_with("/_last_checkpoint")) {
      if (!hint) throw ParquetError("404 " + path);
      if (hint->size() > max_bytes) throw ParquetError("'" + path + "' is too big");
      return *hint;
    }
    return local_->ReadWhole(path, max_bytes);
  }
  std::unique_ptr<RandomAccessFile> Open(const std::string& path) override { return local_->Open(path); }
  bool IsDirectory(const std::string& path) override { return local_->IsDirectory(path); }
  bool remote() const override { return true; }
  std::optional<std::string> hint;
  bool hostile_listing = false;
  std::vector<std::string> extra;
  std::vector<std::string> lists;  // the start-after of each listing

 private:
  std::unique_ptr<LakeStorage> local_ = MakeLocalStorage();
};

}  // namespace

TEST_CASE("Delta over S3: a missing, wrong or hostile _last_checkpoint and listings that ignore start-after") {
  const std::string root = "../shared/lake/delta/golden/dv-with-columnmapping/delta";  // checkpoint 10, commits to 15
  std::unique_ptr<LakeStorage> local = MakeLocalStorage();
  const LakeSnapshot expected = ReadDeltaSnapshot(*local, root, {});
  DeltaReadOptions at12;
  at12.version = 12;
  const LakeSnapshot expected12 = ReadDeltaSnapshot(*local, root, at12);
  struct Case {
    std::optional<std::string> hint;
    std::vector<std::string> lists;  // the listings made
  };
  const std::string whole;
  const std::string from10 = "00000000000000000010";
  const std::vector<Case> cases = {
      {std::nullopt, {whole}},
      {R"({"version":10,"size":100})", {from10}},
      {R"({"version":7,"size":100})", {"00000000000000000007"}},  // no checkpoint at 7: the one at 10 is listed
      {R"({"version":4,"size":100})", {"00000000000000000004"}},
      {R"({"version":15})", {"00000000000000000015", whole}},              // the last commit, no checkpoint
      {R"({"version":50})", {"00000000000000000050", whole}},              // a future version: nothing listed
      {R"({"version":4611686018427387904})", {"04611686018427387904", whole}},
      {R"({"version":9223372036854775807})", {whole}},
      {R"({"version":-10})", {whole}},
      {R"({"version":10.0})", {whole}},
      {R"({"version":"10"})", {whole}},
      {R"({"version":123456789012345678901234567890})", {whole}},
      {R"({"version":10,"parts":0})", {from10}},
      {R"({"version":10,"parts":1000000000000})", {from10}},
      {R"({"version":10,"si)", {whole}},
      {"", {whole}},
      {std::string(kMaxLastCheckpointBytes + 10, ' ') + R"({"version":10})", {whole}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.hint.value_or("(missing)").substr(0, 60));
    ForgingStorage remote;
    remote.hint = c.hint;
    CHECK(PathsOf(ReadDeltaSnapshot(remote, root, {})) == PathsOf(expected));
    CHECK(remote.lists == c.lists);
    remote.lists.clear();
    CHECK(PathsOf(ReadDeltaSnapshot(remote, root, at12)) == PathsOf(expected12));
  }
  // A listing that ignores start-after (every name from the start), unordered, every key twice,
  // with names that are not one segment of _delta_log/: the same snapshot.
  ForgingStorage hostile;
  hostile.hint = R"({"version":10})";
  hostile.hostile_listing = true;
  hostile.extra = {"00000000000000000099.checkpoint.x/../../../other/_delta_log/00000000000000000010.checkpoint.parquet",
                   "00000000000000000098.json/..", "00000000000000000097..json", "../00000000000000000096.json",
                   "00000000000000000016.json\n"};
  CHECK(PathsOf(ReadDeltaSnapshot(hostile, root, {})) == PathsOf(expected));
  CHECK(hostile.lists == std::vector<std::string>{from10});
  CHECK(PathsOf(ReadDeltaSnapshot(hostile, root, at12)) == PathsOf(expected12));
  DeltaReadOptions at4;
  at4.version = 4;
  CHECK(PathsOf(ReadDeltaSnapshot(hostile, root, at4)) == PathsOf(ReadDeltaSnapshot(*local, root, at4)));
  // A log file naming a version beyond 2^62: an error naming it, never an overflow.
  hostile.extra = {"09223372036854775807.checkpoint.parquet"};
  CHECK_THROWS_WITH_AS(ReadDeltaSnapshot(hostile, root, {}),
                       doctest::Contains("has log file '09223372036854775807.checkpoint.parquet' of version"), ParquetError);
}
