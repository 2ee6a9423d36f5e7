// Parsing of parquet_copy's options into CopySettings (copy_settings.h).
#include "ext/copy/copy_settings.h"

#include <charconv>
#include <iterator>
#include <limits>
#include <string_view>
#include <system_error>

#include "ext/copy/copy_output.h"
#include "ext/common/encryption_options.h"
#include "ext/common/options.h"
#include "format/codec/compression.h"
#include "format/common/error.h"
#include "format/common/text_to_double.h"
#include "format/platform/system.h"

namespace sqlite_parquet {

namespace {

void ReplaceAll(std::string* text, std::string_view from, const std::string& to) {
  for (size_t at = text->find(from); at != std::string::npos; at = text->find(from, at + to.size())) {
    text->replace(at, from.size(), to);
  }
}

// `text` with control characters written as \xNN, for messages.
std::string ShowControlCharacters(std::string_view text) {
  static const char kHex[] = "0123456789abcdef";
  std::string shown;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) {
      shown += "\\x";
      shown += kHex[byte >> 4];
      shown += kHex[byte & 15];
    } else {
      shown += c;
    }
  }
  return shown;
}

const char* const kCodecWords[] = {"uncompressed", "snappy", "gzip", "brotli", "zstd", "lz4_raw"};
const parquet::CompressionCodec kCodecs[] = {
    parquet::CompressionCodec::UNCOMPRESSED, parquet::CompressionCodec::SNAPPY, parquet::CompressionCodec::GZIP,
    parquet::CompressionCodec::BROTLI,       parquet::CompressionCodec::ZSTD,   parquet::CompressionCodec::LZ4_RAW};

const char* const kEncodingWords[] = {"plain",           "dictionary",       "delta_binary_packed", "delta_length_byte_array",
                                      "delta_byte_array", "byte_stream_split", "rle"};
const parquet::Encoding kEncodings[] = {
    parquet::Encoding::PLAIN,           parquet::Encoding::RLE_DICTIONARY,   parquet::Encoding::DELTA_BINARY_PACKED,
    parquet::Encoding::DELTA_LENGTH_BYTE_ARRAY, parquet::Encoding::DELTA_BYTE_ARRAY, parquet::Encoding::BYTE_STREAM_SPLIT,
    parquet::Encoding::RLE};


std::vector<std::string> Words(const char* const* words, size_t count) { return std::vector<std::string>(words, words + count); }

const char* const kEdgeWords[] = {"spherical", "vincenty", "thomas", "andoyer", "karney"};

std::string_view TrimSettingText(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Splits `text` at `separator` outside braces, brackets and double quotes (a PROJJSON crs
// holds commas and colons).
std::vector<std::string_view> SplitOutside(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  int depth = 0;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); i++) {
    const char c = text[i];
    if (quoted) {
      if (c == '\\') i++;
      else if (c == '"') quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == '{' || c == '[') {
      depth++;
    } else if (c == '}' || c == ']') {
      depth--;
    } else if (c == separator && depth == 0) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

// geometry= / geography=: `col[:crs]` entries (geography: `col[:crs][:algorithm]`, the
// algorithm one of kEdgeWords as the last part).
void ParseGeoColumns(const std::string& option, std::string_view text, CopyKind kind,
                     std::vector<CopySettings::GeoColumn>* out) {
  for (std::string_view entry : SplitOutside(text, ',')) {
    entry = TrimSettingText(entry);
    const size_t colon = entry.find(':');
    CopySettings::GeoColumn column;
    column.kind = kind;
    column.name = std::string(TrimSettingText(entry.substr(0, colon)));
    if (column.name.empty()) throw CopyError(option + ": empty column name in '" + std::string(text) + "'");
    std::string_view rest = colon == std::string_view::npos ? std::string_view() : TrimSettingText(entry.substr(colon + 1));
    if (kind == CopyKind::kGeography) {
      const std::vector<std::string_view> parts = SplitOutside(rest, ':');
      const std::string last(TrimSettingText(parts.back()));
      for (size_t i = 0; i < std::size(kEdgeWords); i++) {
        if (last != kEdgeWords[i]) continue;
        column.edges = static_cast<parquet::EdgeInterpolationAlgorithm>(i);
        rest = parts.size() == 1 ? std::string_view() : TrimSettingText(rest.substr(0, rest.size() - parts.back().size() - 1));
        break;
      }
    }
    if (!rest.empty()) column.crs = std::string(rest);
    for (const CopySettings::GeoColumn& earlier : *out) {
      if (SameName(earlier.name, column.name)) throw CopyError(option + ": column " + column.name + " is named twice");
    }
    out->push_back(std::move(column));
  }
}

}  // namespace

void ParseSettings(const std::vector<parquet::SecretString>& arguments, CopySettings* settings) {
  OptionSet set;
  const std::vector<std::string> codecs = Words(kCodecWords, std::size(kCodecWords));
  const std::vector<std::string> encodings = Words(kEncodingWords, std::size(kEncodingWords));
  set.AddEnum("compression", codecs)
      .AddInteger("compression_level", std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max())
      .AddEnum("compression.*", codecs)
      .AddInteger("compression_level.*", std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max())
      .AddEnum("encoding.*", encodings)
      .AddBoolean("dictionary")
      .AddInteger("dictionary_size_limit", 1, int64_t{1} << 30)
      .AddBoolean("automatic_encoding")
      .AddInteger("data_page_version", 1, 2)
      .AddInteger("page_size", 1, int64_t{1} << 30)
      .AddInteger("row_group_size", 1, std::numeric_limits<int32_t>::max())
      .AddInteger("row_group_bytes", 1, std::numeric_limits<int64_t>::max())
      .AddBoolean("statistics")
      .AddInteger("statistics_truncate_length", 0, int64_t{1} << 30)
      .AddBoolean("write_crc")
      .AddBoolean("write_page_index")
      .AddString("bloom_filter")
      .AddString("bloom_fpp")
      .AddString("sorting_columns")
      .AddString("kv_metadata")
      .AddEnum("field_ids", {"none", "auto"})
      .AddString("schema")
      .AddEnum("on_type_error", {"error", "null"})
      .AddBoolean("overwrite")
      .AddString("partition_by")
      .AddString("geometry")
      .AddString("geography")
      .AddString("variant")
      .AddString("shredding")
      .AddEnum("geoparquet_version", {"none", "v1", "v2", "both"})
      .AddInteger("file_size_bytes", 1, std::numeric_limits<int64_t>::max())
      .AddInteger("row_groups_per_file", 1, std::numeric_limits<int32_t>::max())
      .AddString("filename_pattern")
      .AddBoolean("append")
      .AddBoolean("return_stats")
      .AddBoolean("verify")
      .AddBoolean("cdc")
      .AddInteger("cdc_min_chunk_size", 1, int64_t{1} << 30)
      .AddInteger("cdc_max_chunk_size", 2, int64_t{1} << 30)
      .AddInteger("cdc_norm_level", -8, 8);
  AddRemoteOptions(&set);
  AddEncryptionOptions(&set);
  std::vector<std::string_view> views(arguments.begin(), arguments.end());
  ParsedOptions parsed;
  std::string error;
  if (!set.Parse(views, &parsed, &error)) throw CopyError(error);
  if (!MakeEncryptionProperties(parsed, &settings->writer.encryption, &error)) throw CopyError(error);

  parquet::WriterOptions& w = settings->writer;
  w.codec = kCodecs[parsed.GetEnumIndex("compression", 1)];
  if (parsed.Has("compression_level")) w.compression_level = static_cast<int>(parsed.GetInteger("compression_level", 0));
  {
    // A level out of the codec's range is an error now, not after the first row group.
    std::string probe;
    parquet::Compress(w.codec, nullptr, 0, w.compression_level, &probe);
  }
  w.dictionary = parsed.GetBool("dictionary", w.dictionary);
  w.dictionary_page_size_limit =
      static_cast<size_t>(parsed.GetInteger("dictionary_size_limit", static_cast<int64_t>(w.dictionary_page_size_limit)));
  w.automatic_encoding = parsed.GetBool("automatic_encoding", w.automatic_encoding);
  w.data_page_version = static_cast<int>(parsed.GetInteger("data_page_version", w.data_page_version));
  w.page_size = static_cast<size_t>(parsed.GetInteger("page_size", static_cast<int64_t>(w.page_size)));
  w.write_statistics = parsed.GetBool("statistics", w.write_statistics);
  w.statistics_truncate_length = static_cast<size_t>(
      parsed.GetInteger("statistics_truncate_length", static_cast<int64_t>(w.statistics_truncate_length)));
  w.write_crc = parsed.GetBool("write_crc", w.write_crc);
  w.write_page_index = parsed.GetBool("write_page_index", w.write_page_index);
  settings->row_group_size = parsed.GetInteger("row_group_size", kDefaultRowGroupSize);
  settings->row_group_bytes = parsed.GetInteger("row_group_bytes", kDefaultRowGroupBytes);
  settings->overwrite = parsed.GetBool("overwrite", true);
  if (std::string error; !MakeRemoteOptions(parsed, &settings->remote, &error)) throw CopyError(error);
  settings->null_on_type_error = parsed.GetEnumIndex("on_type_error", 0) == 1;
  settings->field_ids = parsed.GetEnumIndex("field_ids", 0) == 1;

  auto column_compression = [settings](const std::string& name) -> CopySettings::ColumnCompression& {
    for (CopySettings::ColumnCompression& entry : settings->codecs) {
      if (SameName(entry.name, name)) return entry;
    }
    settings->codecs.push_back(CopySettings::ColumnCompression{name, std::nullopt, std::nullopt});
    return settings->codecs.back();
  };
  for (const OptionValue* value : parsed.WithPrefix("compression")) {
    column_compression(value->suffix).codec = kCodecs[value->integer];
  }
  for (const OptionValue* value : parsed.WithPrefix("compression_level")) {
    column_compression(value->suffix).level = static_cast<int>(value->integer);
  }
  for (const CopySettings::ColumnCompression& entry : settings->codecs) {
    // A level out of the codec's range is an error now, naming the column.
    std::string probe;
    try {
      parquet::Compress(entry.codec.value_or(w.codec), nullptr, 0, entry.level, &probe);
    } catch (const parquet::ParquetError& e) {
      throw CopyError("compression_level." + entry.name + ": " + e.what());
    }
  }
  for (const OptionValue* value : parsed.WithPrefix("encoding")) {
    settings->encodings.emplace_back(value->suffix, kEncodings[value->integer]);
  }
  if (const OptionValue* value = parsed.Find("schema")) {
    if (!ParseSchemaOverride(value->text, &settings->schema, &error)) throw CopyError("schema: " + error);
  }
  if (const OptionValue* value = parsed.Find("partition_by")) {
    if (!ParseNameList(value->text, &settings->partition_by, &error)) throw CopyError("partition_by: " + error);
  }
  w.cdc.enabled = parsed.GetBool("cdc", false);
  w.cdc.min_chunk_size = static_cast<size_t>(parsed.GetInteger("cdc_min_chunk_size", static_cast<int64_t>(w.cdc.min_chunk_size)));
  w.cdc.max_chunk_size = static_cast<size_t>(parsed.GetInteger("cdc_max_chunk_size", static_cast<int64_t>(w.cdc.max_chunk_size)));
  w.cdc.norm_level = static_cast<int>(parsed.GetInteger("cdc_norm_level", w.cdc.norm_level));
  if ((parsed.Has("cdc_min_chunk_size") || parsed.Has("cdc_max_chunk_size") || parsed.Has("cdc_norm_level")) && !w.cdc.enabled) {
    throw CopyError("cdc_min_chunk_size, cdc_max_chunk_size and cdc_norm_level need cdc=1");
  }
  if (w.cdc.min_chunk_size >= w.cdc.max_chunk_size) {
    throw CopyError("cdc_min_chunk_size (" + std::to_string(w.cdc.min_chunk_size) + ") must be below cdc_max_chunk_size (" +
                    std::to_string(w.cdc.max_chunk_size) + ")");
  }
  settings->file_size_bytes = parsed.GetInteger("file_size_bytes", 0);
  settings->row_groups_per_file = parsed.GetInteger("row_groups_per_file", 0);
  settings->append = parsed.GetBool("append", false);
  settings->return_stats = parsed.GetBool("return_stats", false);
  settings->verify = parsed.GetBool("verify", false);
  if (const OptionValue* value = parsed.Find("filename_pattern")) {
    const std::string_view pattern = value->text.view();
    if (!settings->directory_output()) {
      throw CopyError("filename_pattern needs a directory output (partition_by, file_size_bytes or row_groups_per_file)");
    }
    if (pattern.find("{i}") == std::string_view::npos && pattern.find("{uuid}") == std::string_view::npos) {
      throw CopyError("filename_pattern '" + std::string(pattern) + "' must contain {i} or {uuid} (files need distinct names)");
    }
    if (pattern.find('/') != std::string_view::npos || pattern.find('\0') != std::string_view::npos || pattern[0] == '.') {
      throw CopyError("filename_pattern '" + std::string(pattern) + "' must be a file name (no '/', not starting with '.')");
    }
    // A file name on every system, so that the dataset can be copied to any: the names it
    // makes ({i} any number, {uuid} any UUID; reserved names hold one digit at most, so
    // the digits 0 to 9 stand for every {i}) hold no '\', ':', control character or
    // character Windows refuses, and none is a Windows device name (COM{i} is COM1).
    for (char digit = '0'; digit <= '9'; ++digit) {
      std::string name(pattern);
      ReplaceAll(&name, "{i}", std::string(1, digit));
      ReplaceAll(&name, "{uuid}", "123e4567-e89b-42d3-a456-426614174000");
      name += ".parquet";
      if (const std::string why = parquet::platform::PortableFileNameError(name); !why.empty()) {
        throw CopyError("filename_pattern '" + ShowControlCharacters(pattern) + "' must be a file name on every system: '" +
                        ShowControlCharacters(name) + "' " + why);
      }
    }
    settings->filename_pattern = std::string(pattern);
  }
  if (settings->append && !settings->directory_output()) {
    throw CopyError("append=1 adds files to a directory output: it needs partition_by, file_size_bytes or row_groups_per_file");
  }
  if (const OptionValue* value = parsed.Find("bloom_filter")) {
    const size_t first = value->text.find_first_not_of(" \t");
    const size_t last = value->text.find_last_not_of(" \t");
    if (first != std::string::npos && first == last && value->text[first] == '*') {
      settings->bloom_all = true;
    } else if (!ParseNameList(value->text, &settings->bloom_columns, &error)) {
      throw CopyError("bloom_filter: " + error);
    }
  }
  if (const OptionValue* value = parsed.Find("bloom_fpp")) {
    double fpp = 0;
    const char* begin = value->text.data();
    const char* end = begin + value->text.size();
    const parquet::TextToDoubleResult result = parquet::TextToDouble(begin, end, fpp);
    if (result.error != std::errc() || result.end != end || !(fpp > 0 && fpp < 1)) {
      throw CopyError("invalid value for bloom_fpp: '" + std::string(value->text.view()) + "' (expected a number between 0 and 1)");
    }
    w.bloom_filter_fpp = fpp;
  }
  if (const OptionValue* value = parsed.Find("sorting_columns")) {
    if (!ParseSortingColumns(value->text, &settings->sorting, &error)) throw CopyError("sorting_columns: " + error);
  }
  if (const OptionValue* value = parsed.Find("geometry")) {
    ParseGeoColumns("geometry", value->text.view(), CopyKind::kGeometry, &settings->geo_columns);
  }
  if (const OptionValue* value = parsed.Find("geography")) {
    ParseGeoColumns("geography", value->text.view(), CopyKind::kGeography, &settings->geo_columns);
  }
  if (const OptionValue* value = parsed.Find("variant")) {
    if (!ParseNameList(value->text, &settings->variant_columns, &error)) throw CopyError("variant: " + error);
  }
  if (const OptionValue* value = parsed.Find("shredding")) {
    if (!ParseShreddingOption(value->text.view(), &settings->shred_all_auto, &settings->shredding, &error)) {
      throw CopyError("shredding: " + error);
    }
  }
  settings->geoparquet_version =
      static_cast<CopySettings::GeoParquetVersion>(parsed.GetEnumIndex("geoparquet_version", 3));
  if (const OptionValue* value = parsed.Find("kv_metadata")) {
    if (!ParseKeyValueMetadata(value->text, &w.key_value_metadata, &error)) throw CopyError("kv_metadata: " + error);
  }
}

}  // namespace sqlite_parquet
