// Builds the seed corpora of the fuzz targets at run time (nothing is copied into the
// repository): from every .parquet file under the given corpus directories, and from small
// files our own writer makes.
//
// Usage: fuzz_seeds OUTDIR CORPUS_DIR...
// Writes OUTDIR/thrift (footers, page headers, page indexes), OUTDIR/pages (column chunks
// in the fuzz_pages input layout, fuzz_common.h), OUTDIR/read (whole files up to 128 KiB)
// OUTDIR/writer (fixed pseudo-random inputs) and OUTDIR/copy (inputs of fuzz_copy that
// set each of its options, declared types and schema= types), OUTDIR/stored_schema,
// OUTDIR/metadata_cache (each way of rewriting a cache row) and OUTDIR/s3_listing
// (ListObjectsV2 responses, well-formed and hostile, with globs). Prints
// how many seeds each got.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "format/metadata/metadata.h"
#include "format/io/random_access_file.h"
#include "tests/fuzz/fuzz_common.h"

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxReadSeed = 128 * 1024;
constexpr size_t kMaxPageSeed = 64 * 1024;
constexpr int kMaxPageSeedsPerFile = 12;

struct Counts {
  int thrift = 0, pages = 0, read = 0, writer = 0, copy = 0, stored_schema = 0, s3_listing = 0, metadata_cache = 0;
};

void WriteSeed(const fs::path& dir, const std::string& name, const std::string& bytes) {
  std::ofstream out(dir / name, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string Slice(const std::vector<uint8_t>& bytes, uint64_t offset, uint64_t length) {
  if (offset > bytes.size() || length > bytes.size() - offset) return {};
  return std::string(reinterpret_cast<const char*>(bytes.data() + offset), static_cast<size_t>(length));
}

void SeedsFromFile(const fs::path& path, const fs::path& out, int file_number, Counts* counts) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string stem = std::to_string(file_number) + "-" + path.stem().string();
  if (bytes.size() <= kMaxReadSeed) {
    WriteSeed(out / "read", stem, std::string(bytes.begin(), bytes.end()));
    counts->read++;
  }
  std::unique_ptr<parquet::ParquetFileReader> file;
  try {
    file = parquet::ParquetFileReader::Open(parquet::OpenMemoryFile(bytes.data(), bytes.size(), path.string()));
  } catch (const parquet::ParquetError&) {
    return;
  }
  uint64_t footer_start = bytes.size() - 8 - file->footer_length();
  WriteSeed(out / "thrift", stem + "-footer", Slice(bytes, footer_start, file->footer_length()));
  counts->thrift++;
  int page_seeds = 0;
  for (int g = 0; g < file->num_row_groups(); g++) {
    for (int c = 0; c < file->schema().num_columns(); c++) {
      try {
        const parquet::ColumnChunk& chunk = file->row_group(g).columns[static_cast<size_t>(c)];
        if (chunk.column_index_offset && chunk.column_index_length && g == 0 && c < 4) {
          std::string index = Slice(bytes, static_cast<uint64_t>(*chunk.column_index_offset),
                                    static_cast<uint64_t>(*chunk.column_index_length));
          if (!index.empty()) {
            WriteSeed(out / "thrift", stem + "-ci" + std::to_string(c), index);
            counts->thrift++;
          }
        }
        parquet::ColumnChunkRange range = file->column_chunk_range(g, c);
        if (g == 0 && c < 4) {
          WriteSeed(out / "thrift", stem + "-ph" + std::to_string(c), Slice(bytes, range.offset, std::min<uint64_t>(range.length, 256)));
          counts->thrift++;
        }
        if (range.length > kMaxPageSeed || page_seeds >= kMaxPageSeedsPerFile) continue;
        const parquet::ColumnDescriptor& column = file->schema().column(c);
        const parquet::ColumnMetaData& meta = file->column_metadata(g, c);
        parquet_fuzz::PageInputHeader header;
        header.physical_type = static_cast<uint8_t>(column.physical_type);
        header.codec = static_cast<uint8_t>(meta.codec);
        // The levels of the column, approximated by the fuzz schema: optional groups for
        // the definition levels, one repeated group when it repeats.
        int def = column.max_definition_level, rep = column.max_repetition_level > 0 ? 1 : 0;
        int optional_groups = std::min(3, std::max(0, def - rep));
        header.levels = static_cast<uint8_t>(optional_groups | (rep ? 0x10 : 0));
        header.type_length = static_cast<uint8_t>(column.type_length);
        header.num_values = static_cast<uint32_t>(meta.num_values);
        std::string chunk_bytes = Slice(bytes, range.offset, range.length);
        WriteSeed(out / "pages", stem + "-rg" + std::to_string(g) + "-c" + std::to_string(c),
                  parquet_fuzz::EncodePageInput(header, reinterpret_cast<const uint8_t*>(chunk_bytes.data()), chunk_bytes.size()));
        counts->pages++;
        page_seeds++;
      } catch (const parquet::ParquetError&) {
      }
    }
  }
}

// Small files of our writer: every codec and page version, dictionary and delta encodings,
// a repeated column.
void WriterFiles(const fs::path& out, Counts* counts) {
  using parquet::FieldRepetitionType;
  using parquet::Type;
  const parquet::CompressionCodec codecs[] = {parquet::CompressionCodec::UNCOMPRESSED, parquet::CompressionCodec::SNAPPY,
                                              parquet::CompressionCodec::GZIP, parquet::CompressionCodec::BROTLI,
                                              parquet::CompressionCodec::ZSTD, parquet::CompressionCodec::LZ4_RAW};
  int number = 0;
  for (auto codec : codecs) {
    for (int version = 1; version <= 2; version++) {
      std::vector<parquet::SchemaElement> schema(5);
      schema[0].name = "schema";
      schema[0].num_children = 4;
      schema[1].name = "i";
      schema[1].type = Type::INT64;
      schema[1].repetition_type = FieldRepetitionType::OPTIONAL;
      schema[2].name = "s";
      schema[2].type = Type::BYTE_ARRAY;
      schema[2].repetition_type = FieldRepetitionType::REQUIRED;
      schema[3].name = "d";
      schema[3].type = Type::DOUBLE;
      schema[3].repetition_type = FieldRepetitionType::REQUIRED;
      schema[4].name = "r";
      schema[4].type = Type::INT32;
      schema[4].repetition_type = FieldRepetitionType::REPEATED;
      parquet::WriterOptions options;
      options.codec = codec;
      options.data_page_version = version;
      options.page_size = 256;
      options.bloom_filter_columns = {0};
      if (version == 2) options.column_encoding[1] = parquet::Encoding::DELTA_BYTE_ARRAY;
      fs::path file = out / "read" / ("writer-" + std::to_string(number++));
      parquet::ParquetFileWriter writer(file.string(), schema, options);
      writer.StartRowGroup();
      const int rows = 60;
      std::vector<int16_t> defs, reps;
      std::vector<int64_t> ints;
      std::vector<std::string> strings;
      std::vector<parquet::ByteArray> arrays;
      std::vector<double> doubles;
      std::vector<int32_t> repeated;
      for (int r = 0; r < rows; r++) {
        defs.push_back(r % 5 ? 1 : 0);
        if (r % 5) ints.push_back(r * 3);
        strings.push_back("value " + std::to_string(r % 7));
        doubles.push_back(r * 0.5);
      }
      for (auto& s : strings) arrays.push_back({reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())});
      writer.WriteBatch<int64_t>(0, rows, defs.data(), nullptr, ints.data(), ints.size());
      writer.WriteBatch<parquet::ByteArray>(1, rows, nullptr, nullptr, arrays.data(), arrays.size());
      writer.WriteBatch<double>(2, rows, nullptr, nullptr, doubles.data(), doubles.size());
      std::vector<int16_t> rdefs, rreps;
      for (int r = 0; r < rows; r++) {
        int items = r % 3;
        if (items == 0) {
          rdefs.push_back(0);
          rreps.push_back(0);
        }
        for (int k = 0; k < items; k++) {
          rdefs.push_back(1);
          rreps.push_back(k ? 1 : 0);
          repeated.push_back(r * 10 + k);
        }
      }
      writer.WriteBatch<int32_t>(3, rdefs.size(), rdefs.data(), rreps.data(), repeated.data(), repeated.size());
      writer.EndRowGroup(rows);
      writer.Close();
      counts->read++;
    }
  }
}

// Inputs of fuzz_copy (its byte layout: tests/fuzz/fuzz_copy.cc, RunInput). Every column
// draws its values from the PRNG, so a seed is the table description, the option flags and
// random option bytes: one seed per option flag, per declared type and per schema= type.
void CopySeeds(const fs::path& out, Counts* counts) {
  constexpr int kOptionFlags = 26, kDeclaredTypes = 36, kSchemaTypes = 42;
  std::mt19937_64 rng(7);
  // Value modes of fuzz_copy's MakeValue (bit m allows mode m; 0: all): NULL and
  // integers, NULL and texts, NULL and reals.
  const uint16_t kIntegers = 0x000B, kTexts = 0x0581, kReals = 0x0051;
  auto seed = [&](const std::string& name, int columns, const std::vector<int>& declared, const std::vector<int>& schema,
                  uint8_t rows_byte, uint32_t flags, const std::vector<uint16_t>& modes) {
    std::string bytes;
    bytes += static_cast<char>(columns - 1);
    bytes += static_cast<char>(1);  // plain column names
    for (int c = 0; c < columns; c++) {
      bytes += static_cast<char>(declared[static_cast<size_t>(c)]);
      int type = schema[static_cast<size_t>(c)];
      bytes += static_cast<char>(type < 0 ? 1 : 0);
      if (type >= 0) bytes += static_cast<char>(type);
    }
    bytes += static_cast<char>(rows_byte);
    for (int c = 0; c < columns; c++) {
      uint16_t mode = c < static_cast<int>(modes.size()) ? modes[static_cast<size_t>(c)] : static_cast<uint16_t>(rng());
      bytes += static_cast<char>(mode & 0xFF);
      bytes += static_cast<char>(mode >> 8);
      bytes += static_cast<char>(1);  // values from the PRNG, seeded by the next 8 bytes
      for (int i = 0; i < 8; i++) bytes += static_cast<char>(rng());
    }
    for (int i = 0; i < 4; i++) bytes += static_cast<char>((flags >> (8 * i)) & 0xFF);
    for (int i = 0; i < 48; i++) bytes += static_cast<char>(rng());
    WriteSeed(out / "copy", name, bytes);
    counts->copy++;
  };
  for (int flag = 0; flag < kOptionFlags; flag++) {
    seed("option-" + std::to_string(flag), 3, {4, 6, 10}, {-1, -1, flag % 3 == 0 ? 12 : -1}, 192 + 20,
         (1u << flag) | (flag == 1 ? 1u : 0u) | (flag == 24 ? 1u << 23 : 0u) |
             (flag == 25 ? 1u << 20 : 0u), {kIntegers, kTexts, kReals});
  }
  for (int type = 0; type < kDeclaredTypes; type++) {
    seed("declared-" + std::to_string(type), 2, {type, (type * 7) % kDeclaredTypes}, {-1, -1}, 192 + 12,
         type % 2 ? (1u << 20) : 0u, {});
  }
  for (int type = 0; type < kSchemaTypes; type++) {
    seed("schema-" + std::to_string(type), 2, {0, 6}, {type, -1}, 30, type % 2 ? (1u << 20) : 0u, {});
  }
}

// Inputs of fuzz_stored_schema (its byte layout: tests/fuzz/fuzz_stored_schema.cc): each way
// of reshaping the shadow table, with the rows CREATE stored (a INTEGER, b TEXT, c TEXT)
// and with rows a hostile file might hold (a type that adds a column, a hive row, a name
// that clashes with a hidden column, a flat column stored as nested).
void StoredSchemaSeeds(const fs::path& out, Counts* counts) {
  auto integer = [](int64_t v) {
    std::string bytes(1, '\x01');
    for (int i = 0; i < 8; i++) bytes += static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xFF);
    return bytes;
  };
  auto word = [](int index) { return std::string{'\x04', static_cast<char>(index)}; };
  // Words of BindValue: 0 file, 1 hive, 2 a, 3 b, 4 c, 5 INTEGER, 6 TEXT, 7 REAL,
  // 10 TEXT HIDDEN, 11 "INTEGER, evil TEXT", 12 filename.
  auto row = [&](int position, int kind, int name, int type, int nested) {
    return integer(position) + word(kind) + word(name) + word(type) + integer(nested);
  };
  const std::string created = row(0, 0, 2, 5, 0) + row(1, 0, 3, 6, 0) + row(2, 0, 4, 6, 0);
  const std::string hostile = row(0, 0, 2, 11, 0) + row(1, 1, 12, 7, 0) + row(2, 0, 3, 10, 0) + row(3, 0, 4, 6, 1);
  for (int mode = 0; mode < 8; mode++) {
    WriteSeed(out / "stored_schema", "created-" + std::to_string(mode), std::string{static_cast<char>(mode), '\x03'} + created);
    WriteSeed(out / "stored_schema", "hostile-" + std::to_string(mode), std::string{static_cast<char>(mode), '\x04'} + hostile);
    counts->stored_schema += 2;
  }
}

// Inputs of fuzz_metadata_cache (layout: tests/fuzz/fuzz_metadata_cache.cc): each mode of
// rewriting the cache row, with a few edits: bytes of the footer's length and magic, a byte
// inside the footer, the tail cut or lengthened, values of each storage class.
void MetadataCacheSeeds(const fs::path& out, Counts* counts) {
  const std::vector<std::string> seeds = {
      std::string("\x00\x01\xff\xff\xff\xff\x01\x01", 8),         // the last byte (the magic) flipped
      std::string("\x00\x02\xfb\xff\xff\xff\x40\xf7\xff\xff\xff\x02\x00", 13),  // the footer's length
      std::string("\x01\x03\x10\x00\x00\x00\x04\x20\x00\x00\x00\x08\x30\x00\x00\x00\x10\x01\x40\x00\x00\x00", 22),
      std::string("\x01\x00\x00\x10PAR1garbage-before", 20),
      std::string("\x02\x03\x02\x01\xff\xff\xff\xff\xff\xff\xff\x7f\x04\x04\x03\x00\x01\x05\x05x", 21),
      std::string("\x03\x02\x05\x04" "key1" "\x05\x01" "f" "\x04\x03\x05\x03" "etag" "\x04\x02\x03\x05" "abcde"
                  "\x01\x00\x00\x00\x00\x00\x00\x00\x00", 32),
      std::string("\x04\x00", 2), std::string("\x04\x01", 2), std::string("\x04\x02", 2),
      std::string("\x05\x08PAR1PAR1", 10),
  };
  int number = 0;
  for (const std::string& seed : seeds) {
    WriteSeed(out / "metadata_cache", "rewrite-" + std::to_string(number++), seed);
    counts->metadata_cache++;
  }
}

// Inputs of fuzz_s3_listing (layout: tests/fuzz/fuzz_s3_listing.cc): a cap byte, a glob line,
// then a ListObjectsV2 response: pages as S3 sends them (with common prefixes too), and the
// hostile shapes the parser refuses (a DOCTYPE with entities, a long key, a long token, deep
// nesting, unclosed XML).
void S3ListingSeeds(const fs::path& out, Counts* counts) {
  auto contents = [](const std::vector<std::string>& keys) {
    std::string xml;
    for (const std::string& key : keys) xml += "<Contents><Key>" + key + "</Key><Size>7</Size><ETag>\"e\"</ETag></Contents>";
    return xml;
  };
  auto page = [](const std::string& truncated, const std::string& token, const std::string& body) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
           "<Name>b</Name><Prefix>d/</Prefix><KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>" +
           truncated + "</IsTruncated>" + body +
           (token.empty() ? "" : "<NextContinuationToken>" + token + "</NextContinuationToken>") + "</ListBucketResult>";
  };
  const std::vector<std::string> keys = {"d/a.parquet", "d/x=1/y=2/b.parquet", "d/.hidden/c.parquet", "d/_SUCCESS",
                                         "d/../../e.parquet", "d/a&amp;b.parquet"};
  const std::vector<std::pair<std::string, std::string>> seeds = {
      {"\x80" "d/**/*.parquet\n", page("true", "tok/+=", contents(keys))},
      {"\x80" "d/*.parquet\n", page("false", "", contents(keys))},
      {"\x02**/a/**/*.parquet\n", page("false", "", contents({"a/a/a/a.parquet", "a/b.parquet", "d/a/x/a/y.parquet"}))},
      {"\x80", page("true", "", contents(keys))},
      {"\x80" "d/[a-c]?.parquet\n", page("false", "", contents({"d/a1.parquet", "d/d1.parquet"}))},
      {"\x80**\n", "<?xml version=\"1.0\"?><!DOCTYPE ListBucketResult [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b "
                    "\"&a;&a;&a;&a;&a;\">]><ListBucketResult><Contents><Key>&b;</Key></Contents></ListBucketResult>"},
      {"\x80", page("false", "", contents({std::string(1025, 'k')}))},
      {"\x80", page("true", std::string(4097, 't'), "")},
      {"\x80", std::string(20, '<') + "<a><a><a><a><a><a><a><a><a><a><a><a><a><a><a><a><a><a>"},
      {"\x80", "<Error><Code>SlowDown</Code><Message>m</Message></Error>"},
      {"\x80", "<ListBucketResult><Contents><Key>d/x"},
      // Delimiter listings (bit 6 of the cap byte): common prefixes, one too long.
      {"\xc0" "d/year=*/month=*/*.parquet\n",
       page("false", "", contents({"d/a.parquet"}) + "<CommonPrefixes><Prefix>d/year=2024/</Prefix></CommonPrefixes>"
                         "<CommonPrefixes><Prefix>d/x=1/</Prefix></CommonPrefixes>")},
      {"\x41" "d/**\n", page("false", "", "<CommonPrefixes><Prefix>d/a/</Prefix></CommonPrefixes><CommonPrefixes><Prefix>" +
                                                std::string(1030, 'p') + "/</Prefix></CommonPrefixes>")},
  };
  int number = 0;
  for (const auto& [head, body] : seeds) {
    WriteSeed(out / "s3_listing", "listing-" + std::to_string(number++), head + body);
    counts->s3_listing++;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUTDIR [CORPUS_DIR...]\n", argv[0]);
    return 2;
  }
  fs::path out = argv[1];
  for (const char* dir : {"thrift", "pages", "read", "writer", "copy", "stored_schema", "metadata_cache", "s3_listing", "geo_variant", "lake", "iceberg"}) {
    fs::remove_all(out / dir);
    fs::create_directories(out / dir);
  }
  Counts counts;
  std::vector<fs::path> files;
  int lake = 0;
  for (int i = 2; i < argc; i++) {
    std::error_code error;
    // --iceberg=DIR: the Iceberg tables' Avro manifests, metadata.json and Puffin files seed
    // fuzz_iceberg (the smallest 64 of them, plus up to 4 metadata.json files with v3
    // initial-default values; none of their Parquet files seed the others).
    if (std::string(argv[i]).rfind("--iceberg=", 0) == 0) {
      std::vector<std::pair<uintmax_t, fs::path>> lake_files;
      for (const auto& entry : fs::recursive_directory_iterator(std::string(argv[i]).substr(10), error)) {
        const std::string name = entry.path().filename().string();
        const bool wanted = entry.path().extension() == ".avro" || entry.path().extension() == ".puffin" ||
                            (name.size() > 14 && name.compare(name.size() - 14, 14, ".metadata.json") == 0);
        if (entry.is_regular_file() && wanted && name[0] != '.') lake_files.emplace_back(entry.file_size(), entry.path());
      }
      std::sort(lake_files.begin(), lake_files.end());
      // Plus up to 4 larger metadata.json files with v3 initial-default values (their parser).
      std::vector<std::pair<uintmax_t, fs::path>> defaults;
      for (size_t k = 64; k < lake_files.size() && defaults.size() < 4; k++) {
        if (lake_files[k].second.extension() != ".json") continue;
        std::ifstream in(lake_files[k].second, std::ios::binary);
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        if (text.find("\"initial-default\"") != std::string::npos) defaults.push_back(lake_files[k]);
      }
      if (lake_files.size() > 64) lake_files.resize(64);
      lake_files.insert(lake_files.end(), defaults.begin(), defaults.end());
      for (const auto& file : lake_files) {
        std::ifstream in(file.second, std::ios::binary);
        WriteSeed(out / "iceberg", "iceberg-" + std::to_string(lake++), std::string(std::istreambuf_iterator<char>(in), {}));
      }
      continue;
    }
    for (const auto& entry : fs::recursive_directory_iterator(argv[i], error)) {
      const std::string name = entry.path().filename().string();
      const bool encrypted = name.size() > 18 && name.compare(name.size() - 18, 18, ".parquet.encrypted") == 0;
      if (entry.is_regular_file() && (entry.path().extension() == ".parquet" || encrypted)) {
        files.push_back(entry.path());
      }
    }
  }
  std::sort(files.begin(), files.end());
  int number = 0;
  for (const auto& path : files) SeedsFromFile(path, out, number++, &counts);
  try {
    WriterFiles(out, &counts);
  } catch (const parquet::ParquetError& e) {
    std::fprintf(stderr, "fuzz_seeds: writing a seed file failed: %s\n", e.what());
    return 1;
  }
  std::mt19937_64 rng(42);
  for (int i = 0; i < 32; i++) {
    std::string bytes(64 + 32 * i, '\0');
    for (auto& b : bytes) b = static_cast<char>(rng());
    WriteSeed(out / "writer", "random-" + std::to_string(i), bytes);
    counts.writer++;
  }
  CopySeeds(out, &counts);
  StoredSchemaSeeds(out, &counts);
  MetadataCacheSeeds(out, &counts);
  S3ListingSeeds(out, &counts);
  // fuzz_geo_variant: WKB (first byte even) and JSON (odd).
  const std::string wkb_seeds[] = {
      std::string("\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\xf0\x3f\x00\x00\x00\x00\x00\x00\x00\x40", 21),
      std::string("\x01\x03\x00\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00", 13) + std::string(32, '\x11'),
      std::string("\x01\x07\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x40\x08\x00\x00\x00\x00\x00\x00\x40\x10\x00\x00\x00\x00\x00\x00", 30),
      std::string("\x01\xb9\x0b\x00\x00", 5) + std::string(32, '\x22')};
  int geo_number = 0;
  for (const std::string& wkb : wkb_seeds) WriteSeed(out / "geo_variant", "wkb-" + std::to_string(geo_number++), '\x00' + wkb);
  // (The last two match the fuzz target's fixed shredding {a:INT64,b:[{c:STRING}],d:DECIMAL(9,2)}.)
  for (const char* json : {"{\"a\":[1,2.5,null,true,\"x\"],\"b\":{\"c\":-300}}", "[[],{},\"\\u00e9\"]", "9223372036854775807",
                           "{\"a\":5,\"b\":[{\"c\":\"s\",\"e\":1},null,{\"c\":2}],\"d\":12.50,\"z\":0.001}",
                           "[{\"a\":1,\"b\":[]},{\"a\":\"x\",\"d\":1e3},{\"a\":123456789012345678901234567890.5}]"}) {
    WriteSeed(out / "geo_variant", "json-" + std::to_string(geo_number++), std::string("\x01") + json);
  }
  // fuzz_lake: a roaring bitmap (array and run containers), a framed deletion vector, Z85,
  // a Delta log of three commits, a schema and a _last_checkpoint (the first byte picks the decoder).
  {
    const std::string bitmap32 = std::string("\x3a\x30\x00\x00\x01\x00\x00\x00\x00\x00\x01\x00\x10\x00\x00\x00\x00\x00\x09\x00", 20);
    const std::string runs32 = std::string("\x3b\x30\x00\x00\x01\x00\x00\x0a\x00\x01\x00\x05\x00\x06\x00", 15);
    const std::string bitmap64 = std::string("\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 12) + bitmap32 +
                                 std::string("\x01\x00\x00\x00", 4) + runs32;
    const std::string framed = std::string("\x00\x00\x00\x24\xd1\xd3\x39\x64\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 20) +
                               bitmap32 + std::string("\x2a\x67\x18\x46", 4);
    WriteSeed(out / "lake", "roaring", '\x00' + bitmap64);
    WriteSeed(out / "lake", "dv", '\x01' + framed);
    WriteSeed(out / "lake", "z85", std::string("\x02HelloWorld"));
    const std::string log = std::string("\x03") +
        "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\",\"columnMapping\"]}}\n"
        "{\"metaData\":{\"id\":\"x\",\"format\":{\"provider\":\"parquet\"},\"schemaString\":\"{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"a\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}},{\\\"name\\\":\\\"p\\\",\\\"type\\\":\\\"date\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}\",\"partitionColumns\":[\"p\"],\"configuration\":{}}}\n"
        "{\"add\":{\"path\":\"p=2024-01-01/a.parquet\",\"partitionValues\":{\"p\":\"2024-01-01\"},\"size\":10,\"modificationTime\":1,\"dataChange\":true,\"stats\":\"{\\\"numRecords\\\":3,\\\"minValues\\\":{\\\"a\\\":1},\\\"maxValues\\\":{\\\"a\\\":7},\\\"nullCount\\\":{\\\"a\\\":0}}\"}}\n" +
        std::string(1, '\0') +
        "{\"remove\":{\"path\":\"p=2024-01-01/a.parquet\",\"dataChange\":true}}\n"
        "{\"add\":{\"path\":\"p=2024-01-01/a.parquet\",\"partitionValues\":{\"p\":\"2024-01-01\"},\"size\":10,\"modificationTime\":1,\"dataChange\":true,\"deletionVector\":{\"storageType\":\"u\",\"pathOrInlineDv\":\"vBn[lx{q8@P<9BNH/isA\",\"offset\":1,\"sizeInBytes\":36,\"cardinality\":2}}}\n" +
        std::string(1, '\0') + "{\"add\":{\"path\":\"b%20c.parquet\",\"partitionValues\":{\"p\":null},\"size\":1,\"dataChange\":true}}\n";
    WriteSeed(out / "lake", "delta-log", log);
    WriteSeed(out / "lake", "last-checkpoint", std::string("\x05{\"version\":10,\"size\":13,\"parts\":2,\"sizeInBytes\":21857,\"numOfAddFiles\":10}"));
    WriteSeed(out / "lake", "schema", std::string("\x04{\"type\":\"struct\",\"fields\":[{\"name\":\"x\",\"type\":\"decimal(10,2)\",\"nullable\":false,\"metadata\":{}}]}"));
  }
  std::printf("fuzz_seeds: %d thrift, %d pages, %d read, %d writer, %d copy, %d stored_schema, %d metadata_cache, "
              "%d s3_listing seeds in %s\n",
              counts.thrift, counts.pages, counts.read, counts.writer, counts.copy, counts.stored_schema,
              counts.metadata_cache, counts.s3_listing, out.c_str());
  return 0;
}
