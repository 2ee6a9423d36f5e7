// The registry of corrupt files (as arrow-rs keeps for its bad_data directory): this file
// makes the project's own corrupt-file corpus in a temporary directory (small hand-made,
// truncated and mutated files, zip bombs), and every file must be listed in
// tests/bad_files/registry.tsv with the error it must give; a file without an entry, or an
// entry without a file, fails the test. Each file is read completely (every column of every
// row group, nested fields assembled) in a child process, which must fail with that error
// within kMaxSeconds and a peak RSS under kMaxMegabytes above a child that reads nothing.
#include <doctest/doctest.h>

#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "format/read/column_reader.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/io/random_access_file.h"
#include "format/metadata/metadata.h"
#include "format/metadata/nested_schema.h"
#include "format/read/record_assembler.h"
#include "format/metadata/thrift_compact.h"
#include "tests/unit/schema_elements.h"

#ifndef PQ_SOURCE_DIR
#define PQ_SOURCE_DIR "."
#endif

namespace parquet {
namespace {

using test_support::LeafElement;
using test_support::RootElement;

constexpr double kMaxSeconds = 5.0;
constexpr long kMaxMegabytes = 50;

// ---------------------------------------------------------------------------------------
// Building blocks of the corrupt files.

std::string Le32(uint32_t v) {
  std::string out(4, '\0');
  for (int i = 0; i < 4; i++) out[static_cast<size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
  return out;
}

// "PAR1" body footer length "PAR1".
std::string Assemble(const std::string& body, const std::string& footer) {
  return "PAR1" + body + footer + Le32(static_cast<uint32_t>(footer.size())) + "PAR1";
}

// A one-column file: `chunk` (page headers + bodies) as column "v" of one row group.
std::string OneColumnFile(const std::string& chunk, CompressionCodec codec, int64_t num_values,
                          FieldRepetitionType repetition = FieldRepetitionType::REQUIRED,
                          const std::function<void(FileMetaData&)>& tweak = {}) {
  FileMetaData metadata;
  metadata.schema = {RootElement(1), LeafElement("v", repetition)};
  ColumnMetaData meta;
  meta.type = Type::INT32;
  meta.encodings = {Encoding::PLAIN};
  meta.path_in_schema = {"v"};
  meta.codec = codec;
  meta.num_values = num_values;
  meta.total_compressed_size = static_cast<int64_t>(chunk.size());
  meta.total_uncompressed_size = static_cast<int64_t>(chunk.size());
  meta.data_page_offset = 4;
  ColumnChunk column;
  column.file_offset = 4;
  column.meta_data = meta;
  RowGroup group;
  group.columns = {column};
  group.num_rows = num_values;
  group.total_byte_size = static_cast<int64_t>(chunk.size());
  metadata.row_groups = {group};
  metadata.num_rows = num_values;
  if (tweak) tweak(metadata);
  return Assemble(chunk, Serialize(metadata));
}

std::string DataPage(int32_t num_values, int32_t uncompressed, const std::string& body,
                     Encoding encoding = Encoding::PLAIN, int32_t compressed = -1) {
  PageHeader header;
  header.type = PageType::DATA_PAGE;
  header.uncompressed_page_size = uncompressed;
  header.compressed_page_size = compressed >= 0 ? compressed : static_cast<int32_t>(body.size());
  DataPageHeader data;
  data.num_values = num_values;
  data.encoding = encoding;
  header.data_page_header = data;
  return Serialize(header) + body;
}

// zstd frames of `total` zero bytes, streamed (no content size in the frame header), so
// ZSTD_decompressBound sees only the block count. Never holds more than 1 MiB of input.
std::string ZstdZeros(uint64_t total) {
  ZSTD_CCtx* context = ZSTD_createCCtx();
  std::vector<char> zeros(1 << 20, 0);
  std::string out;
  std::vector<char> buffer(ZSTD_CStreamOutSize());
  for (uint64_t done = 0; done < total;) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(zeros.size(), total - done));
    done += n;
    ZSTD_inBuffer in{zeros.data(), n, 0};
    ZSTD_EndDirective mode = done == total ? ZSTD_e_end : ZSTD_e_continue;
    size_t remaining = 0;
    do {
      ZSTD_outBuffer o{buffer.data(), buffer.size(), 0};
      remaining = ZSTD_compressStream2(context, &o, &in, mode);
      REQUIRE(!ZSTD_isError(remaining));
      out.append(buffer.data(), o.pos);
    } while (mode == ZSTD_e_end ? remaining != 0 : in.pos < in.size);
  }
  ZSTD_freeCCtx(context);
  return out;
}

// A gzip member of `total` zero bytes (deflate at its best ratio, about 1030:1).
std::string GzipZeros(uint64_t total) {
  z_stream stream{};
  REQUIRE(deflateInit2(&stream, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) == Z_OK);
  std::vector<unsigned char> zeros(1 << 20, 0), buffer(1 << 16);
  std::string out;
  for (uint64_t done = 0; done < total;) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(zeros.size(), total - done));
    done += n;
    stream.next_in = zeros.data();
    stream.avail_in = static_cast<uInt>(n);
    int flush = done == total ? Z_FINISH : Z_NO_FLUSH;
    do {
      stream.next_out = buffer.data();
      stream.avail_out = static_cast<uInt>(buffer.size());
      deflate(&stream, flush);
      out.append(reinterpret_cast<char*>(buffer.data()), buffer.size() - stream.avail_out);
    } while (stream.avail_out == 0);
  }
  deflateEnd(&stream);
  return out;
}

std::string Uleb(uint64_t v) {
  std::string out;
  do {
    uint8_t byte = v & 0x7F;
    v >>= 7;
    if (v) byte |= 0x80;
    out.push_back(static_cast<char>(byte));
  } while (v);
  return out;
}

// The corpus: file name -> bytes.
std::map<std::string, std::string> MakeCorruptFiles() {
  std::map<std::string, std::string> files;
  const auto kRequired = FieldRepetitionType::REQUIRED;
  const auto kOptional = FieldRepetitionType::OPTIONAL;
  const std::string ten_kb(10240, '\x01');

  // Sizes: pages claiming far more than they hold.
  files["page_claims_2gb.parquet"] =
      OneColumnFile(DataPage(2560, INT32_MAX, ten_kb), CompressionCodec::ZSTD, 2560);
  {
    std::string frame(ZSTD_compressBound(ten_kb.size()), '\0');
    frame.resize(ZSTD_compress(frame.data(), frame.size(), ten_kb.data(), ten_kb.size(), 1));
    files["page_claims_1gb_zstd.parquet"] =
        OneColumnFile(DataPage(2560, 1 << 30, frame), CompressionCodec::ZSTD, 2560);
  }
  files["page_claims_1gb_gzip.parquet"] =
      OneColumnFile(DataPage(2560, 1 << 30, GzipZeros(10240)), CompressionCodec::GZIP, 2560);
  files["page_claims_1gb_lz4_raw.parquet"] =
      OneColumnFile(DataPage(2560, 1 << 30, ten_kb), CompressionCodec::LZ4_RAW, 2560);
  files["page_claims_1gb_snappy.parquet"] =
      OneColumnFile(DataPage(2560, 1 << 30, ten_kb), CompressionCodec::SNAPPY, 2560);
  // Real bombs: a small page header claim, a body that inflates to 1 GiB (zstd) or 100 MiB
  // (gzip); decompression must stop at the claim.
  files["zstd_bomb_1gb.parquet"] =
      OneColumnFile(DataPage(262144, 1 << 20, ZstdZeros(uint64_t{1} << 30)), CompressionCodec::ZSTD, 262144);
  files["gzip_bomb_100mb.parquet"] =
      OneColumnFile(DataPage(262144, 1 << 20, GzipZeros(100u << 20)), CompressionCodec::GZIP, 262144);
  // Counts: 2^31 - 1 values in a 10 KB page, plain and as an RLE run of definition levels,
  // a delta header and a dictionary claiming as many.
  files["values_2g_plain.parquet"] =
      OneColumnFile(DataPage(INT32_MAX, 10240, ten_kb), CompressionCodec::UNCOMPRESSED, INT32_MAX);
  {
    // RLE run of 2^31-1 ones (defined), then 10 KB of values.
    std::string levels = Uleb(uint64_t{INT32_MAX} << 1) + std::string(1, '\x01');
    std::string body = Le32(static_cast<uint32_t>(levels.size())) + levels + ten_kb;
    files["values_2g_levels.parquet"] = OneColumnFile(DataPage(INT32_MAX, static_cast<int32_t>(body.size()), body),
                                                      CompressionCodec::UNCOMPRESSED, INT32_MAX, kOptional);
  }
  {
    // DELTA_BINARY_PACKED: block 128, 4 miniblocks, total count 2^31-1, first value 0.
    std::string body = Uleb(128) + Uleb(4) + Uleb(INT32_MAX) + Uleb(0) + std::string(64, '\0');
    files["values_2g_delta.parquet"] =
        OneColumnFile(DataPage(INT32_MAX, static_cast<int32_t>(body.size()), body, Encoding::DELTA_BINARY_PACKED),
                      CompressionCodec::UNCOMPRESSED, INT32_MAX);
  }
  {
    PageHeader header;
    header.type = PageType::DICTIONARY_PAGE;
    header.uncompressed_page_size = 1024;
    header.compressed_page_size = 1024;
    DictionaryPageHeader dict;
    dict.num_values = INT32_MAX;
    header.dictionary_page_header = dict;
    std::string chunk = Serialize(header) + std::string(1024, '\0') + DataPage(1, 2, "\x08\x00", Encoding::RLE_DICTIONARY);
    files["dictionary_2g_values.parquet"] = OneColumnFile(chunk, CompressionCodec::UNCOMPRESSED, 1);
  }
  // A definition level above the column's maximum (2, in a 2-bit stream that can hold 3):
  // four slots of level 3, which must not read as nulls.
  {
    std::string levels = Uleb(4 << 1) + std::string(1, '\x03');
    std::string body = Le32(static_cast<uint32_t>(levels.size())) + levels;
    files["def_level_above_max.parquet"] = OneColumnFile(
        DataPage(4, static_cast<int32_t>(body.size()), body), CompressionCodec::UNCOMPRESSED, 4, kOptional,
        [](FileMetaData& m) {
          SchemaElement group;
          group.name = "g";
          group.repetition_type = FieldRepetitionType::OPTIONAL;
          group.num_children = 1;
          m.schema = {RootElement(1), group, LeafElement("v", FieldRepetitionType::OPTIONAL)};
          m.row_groups[0].columns[0].meta_data->path_in_schema = {"g", "v"};
        });
  }
  // Negative sizes.
  {
    PageHeader header;
    header.type = PageType::DATA_PAGE;
    header.uncompressed_page_size = 16;
    header.compressed_page_size = -16;
    DataPageHeader data;
    data.num_values = 4;
    header.data_page_header = data;
    files["negative_page_size.parquet"] =
        OneColumnFile(Serialize(header) + std::string(16, '\0'), CompressionCodec::UNCOMPRESSED, 4);
  }
  files["negative_chunk_size.parquet"] = OneColumnFile(
      DataPage(4, 16, std::string(16, '\0')), CompressionCodec::UNCOMPRESSED, 4, kRequired,
      [](FileMetaData& m) { m.row_groups[0].columns[0].meta_data->total_compressed_size = -5; });
  files["negative_num_rows.parquet"] = OneColumnFile(
      DataPage(4, 16, std::string(16, '\0')), CompressionCodec::UNCOMPRESSED, 4, kRequired,
      [](FileMetaData& m) { m.row_groups[0].num_rows = -1; });
  files["negative_num_values.parquet"] =
      OneColumnFile(DataPage(-4, 16, std::string(16, '\0')), CompressionCodec::UNCOMPRESSED, 4);
  // Footer and file framing.
  {
    std::string good = OneColumnFile(DataPage(4, 16, std::string(16, '\0')), CompressionCodec::UNCOMPRESSED, 4);
    std::string beyond = good;
    beyond.replace(beyond.size() - 8, 4, Le32(0x7FFFFFFF));
    files["footer_length_beyond_file.parquet"] = beyond;
    files["truncated_half.parquet"] = good.substr(0, good.size() / 2);
    std::string zero = good;
    zero.replace(zero.size() - 8, 4, Le32(0));
    files["footer_length_zero.parquet"] = zero;
  }
  // A schema 100 groups deep.
  {
    FileMetaData metadata;
    metadata.schema.push_back(RootElement(1));
    for (int i = 0; i < 100; i++) {
      SchemaElement group;
      group.name = "g" + std::to_string(i);
      group.repetition_type = kOptional;
      group.num_children = 1;
      metadata.schema.push_back(group);
    }
    metadata.schema.push_back(LeafElement("v", kOptional));
    files["schema_100_deep.parquet"] = Assemble("", Serialize(metadata));
  }
  // Thrift bombs in the footer: structs nested 100000 deep, a list claiming 2^31 elements,
  // a string claiming 2 GB, an invalid wire type.
  {
    std::string nested;
    for (int i = 0; i < 100000; i++) nested += '\x1c';  // field +1, type struct
    files["thrift_nesting_bomb.parquet"] = Assemble("", nested);
    // FileMetaData field 2 (schema): list of structs, long-form count 2^31 - 1.
    std::string list_bomb = std::string("\x15\x02") + "\x29" + "\xfc" + Uleb(INT32_MAX) + std::string(64, '\0');
    files["thrift_list_bomb.parquet"] = Assemble("", list_bomb);
    // FileMetaData field 6 (created_by): binary of 2^31 bytes.
    std::string string_bomb = std::string("\x68") + Uleb(uint64_t{1} << 31) + std::string(64, 'x');
    files["thrift_string_bomb.parquet"] = Assemble("", string_bomb);
    files["thrift_invalid_type.parquet"] = Assemble("", std::string("\x1d\x00", 2));
  }
  // Mutations of a valid file: every byte of its page header zeroed in turn would be too
  // many files; the first byte of the page header and of the footer stand for them.
  {
    std::string good = OneColumnFile(DataPage(4, 16, std::string(16, '\0')), CompressionCodec::UNCOMPRESSED, 4);
    std::string page_header_mutated = good;
    page_header_mutated[4] = '\x0d';  // field 1 of the PageHeader with wire type 13
    files["mutated_page_header.parquet"] = page_header_mutated;
  }
  return files;
}

// ---------------------------------------------------------------------------------------
// Reading a file completely, as the extension does, and stopping at the first error.

void ReadEverything(const std::string& path) {
  auto file = ParquetFileReader::Open(path);
  const Schema& schema = file->schema();
  int fields = static_cast<int>(schema.top_level_fields().size());
  for (int g = 0; g < file->num_row_groups(); g++) {
    for (int field = 0; field < fields; field++) {
      if (IsNestedField(schema, field)) {
        RecordAssembler assembler(*file, field);
        assembler.Reset(g);
        for (int64_t row = 0; row < assembler.rows_in_group(); row++) assembler.ReadRow();
      } else {
        auto reader = ColumnChunkReader::Make(*file, g, schema.first_column_of_field(field));
        ColumnBatch batch;
        while (reader->ReadBatch(4096, &batch) > 0) {
        }
      }
    }
  }
}

struct ChildResult {
  std::string error;   // empty: the file read without error
  long max_rss_kb = 0;
  double seconds = 0;
  int status = 0;
};

// Runs ReadEverything (or nothing, for the baseline) in a child process.
ChildResult ReadInChild(const std::string& path, bool baseline) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    alarm(60);
    std::string message;
    if (!baseline) {
      try {
        ReadEverything(path);
      } catch (const ParquetError& e) {
        message = e.what();
        if (message.empty()) message = "(empty error message)";
      }
    }
    if (!message.empty() && write(fds[1], message.data(), message.size()) < 0) _exit(3);
    _exit(0);
  }
  close(fds[1]);
  ChildResult result;
  char buffer[4096];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof(buffer))) > 0) result.error.append(buffer, static_cast<size_t>(n));
  close(fds[0]);
  struct rusage usage {};
  REQUIRE(wait4(pid, &result.status, 0, &usage) == pid);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.max_rss_kb = usage.ru_maxrss;
  return result;
}

// registry.tsv: file<TAB>substring of the error it must give (comments start with '#').
std::map<std::string, std::string> ReadRegistry(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::map<std::string, std::string> entries;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    REQUIRE_MESSAGE(tab != std::string::npos, "registry line without a tab: " << line);
    entries[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return entries;
}

TEST_CASE("bad files: only a file's end tells Parquet: its first four bytes are not checked") {
  // (A remote file's start would cost a request of its own; Arrow and DuckDB check the end.)
  std::string file = OneColumnFile(DataPage(1, 4, Le32(7)), CompressionCodec::UNCOMPRESSED, 1);
  file.replace(0, 4, "XXXX");
  auto reader = ParquetFileReader::Open(
      OpenMemoryFile(reinterpret_cast<const uint8_t*>(file.data()), file.size(), "headless.parquet"), nullptr);
  CHECK(reader->num_rows() == 1);
  file.replace(file.size() - 4, 4, "PAR2");
  CHECK_THROWS_WITH_AS(
      ParquetFileReader::Open(OpenMemoryFile(reinterpret_cast<const uint8_t*>(file.data()), file.size(), "tail.bin"),
                              nullptr),
      "not a parquet file: tail.bin does not end with the PAR1 magic bytes", ParquetError);
}

TEST_CASE("bad files: every corrupt file fails fast, in bounded memory, with its registered error") {
  std::string pattern = (std::filesystem::temp_directory_path() / "bad_files_XXXXXX").string();
  std::vector<char> dir_buffer(pattern.begin(), pattern.end());
  dir_buffer.push_back('\0');
  REQUIRE(mkdtemp(dir_buffer.data()) != nullptr);
  const std::filesystem::path dir = dir_buffer.data();
  for (const auto& [name, bytes] : MakeCorruptFiles()) {
    std::ofstream out(dir / name, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  const auto registry = ReadRegistry(std::string(PQ_SOURCE_DIR) + "/tests/bad_files/registry.tsv");
  const long baseline_kb = ReadInChild("", true).max_rss_kb;

  std::set<std::string> seen;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    seen.insert(name);
    CAPTURE(name);
    auto expected = registry.find(name);
    CHECK_MESSAGE(expected != registry.end(), "corrupt file " << name << " has no entry in tests/bad_files/registry.tsv");
    ChildResult result = ReadInChild(entry.path().string(), false);
    CAPTURE(result.error);
    CHECK_MESSAGE(WIFEXITED(result.status), name << " crashed or was killed (status " << result.status << ")");
    CHECK(WEXITSTATUS(result.status) == 0);
    CHECK_MESSAGE(result.seconds < kMaxSeconds, name << " took " << result.seconds << " s");
    long extra_mb = (result.max_rss_kb - baseline_kb) / 1024;
    // BAD_FILES_PRINT=1 prints the registry lines of what the files give (to update it).
    if (std::getenv("BAD_FILES_PRINT")) {
      std::printf("%s\t%s\t(%ld MB, %.2f s)\n", name.c_str(), result.error.c_str(), extra_mb, result.seconds);
    }
    CHECK_MESSAGE(extra_mb < kMaxMegabytes, name << " peaked at " << extra_mb << " MB above the baseline");
    if (expected != registry.end()) {
      CHECK_MESSAGE(!result.error.empty(), name << " read without error");
      CHECK_MESSAGE(result.error.find(expected->second) != std::string::npos,
                    name << ": error '" << result.error << "' lacks '" << expected->second << "'");
    }
  }
  // Not a structured binding: doctest's CHECK_MESSAGE captures it in a lambda, which clang
  // before 16 does not allow for structured bindings (make test's clang step).
  for (const auto& entry : registry) {
    CHECK_MESSAGE(seen.count(entry.first) == 1, "registry entry " << entry.first << " names no generated file");
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

}  // namespace
}  // namespace parquet
