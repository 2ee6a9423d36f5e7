// make_sample: writes the demo table examples/sample.parquet, twenty weather observations
// from four stations over five days, with our own writer (format/write/file_writer.h).
//
//   make_sample OUTPUT.parquet
//
// Columns: station STRING, observed DATE, temperature_c DOUBLE, humidity INT32 (some NULLs),
// conditions STRING (dictionary-encoded), wind_kmh FLOAT, recorded_at TIMESTAMP(MICROS, UTC).
// The content is fixed (no clock, no randomness): the same bytes come out every time.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "format/metadata/metadata.h"

namespace {

using parquet::ByteArray;
using parquet::ConvertedType;
using parquet::Encoding;
using parquet::FieldRepetitionType;
using parquet::LogicalType;
using parquet::SchemaElement;
using parquet::Type;

struct Observation {
  const char* station;
  int day;  // 0..4: 2024-06-01 .. 2024-06-05
  double temperature_c;
  int humidity;  // -1: not reported
  const char* conditions;
  float wind_kmh;
  int minutes_after_midnight;  // UTC time of the reading
};

constexpr int32_t kFirstDay = 19875;  // 2024-06-01, in days since 1970-01-01

const Observation kObservations[] = {
    {"Bergen", 0, 13.4, 81, "rain", 22.5f, 6 * 60 + 5},
    {"Bergen", 1, 14.1, 77, "cloudy", 18.0f, 6 * 60 + 2},
    {"Bergen", 2, 15.8, 70, "partly cloudy", 12.5f, 6 * 60 + 4},
    {"Bergen", 3, 12.9, -1, "rain", 27.0f, 6 * 60 + 1},
    {"Bergen", 4, 16.2, 68, "sunny", 9.5f, 6 * 60 + 3},
    {"Lisbon", 0, 24.6, 52, "sunny", 14.0f, 11 * 60 + 30},
    {"Lisbon", 1, 26.3, 48, "sunny", 16.5f, 11 * 60 + 32},
    {"Lisbon", 2, 23.7, -1, "partly cloudy", 19.0f, 11 * 60 + 29},
    {"Lisbon", 3, 22.1, 61, "cloudy", 21.5f, 11 * 60 + 31},
    {"Lisbon", 4, 25.4, 50, "sunny", 13.0f, 11 * 60 + 30},
    {"Nairobi", 0, 21.8, 58, "partly cloudy", 11.0f, 9 * 60 + 15},
    {"Nairobi", 1, 19.5, 74, "thunderstorm", 24.5f, 9 * 60 + 18},
    {"Nairobi", 2, 20.9, 66, "cloudy", 10.5f, 9 * 60 + 14},
    {"Nairobi", 3, 22.4, 55, "sunny", 8.0f, 9 * 60 + 16},
    {"Nairobi", 4, 21.2, -1, "partly cloudy", 12.0f, 9 * 60 + 15},
    {"Osaka", 0, 27.9, 71, "cloudy", 7.5f, 3 * 60 + 45},
    {"Osaka", 1, 29.3, 68, "sunny", 6.0f, 3 * 60 + 44},
    {"Osaka", 2, 25.6, 88, "rain", 15.5f, 3 * 60 + 47},
    {"Osaka", 3, 24.8, 92, "thunderstorm", 31.0f, 3 * 60 + 46},
    {"Osaka", 4, 28.1, 73, "partly cloudy", 9.0f, 3 * 60 + 45},
};
constexpr size_t kRows = sizeof(kObservations) / sizeof(kObservations[0]);

SchemaElement Column(const char* name, Type type, FieldRepetitionType repetition) {
  SchemaElement element;
  element.name = name;
  element.type = type;
  element.repetition_type = repetition;
  return element;
}

SchemaElement StringColumn(const char* name) {
  SchemaElement element = Column(name, Type::BYTE_ARRAY, FieldRepetitionType::REQUIRED);
  element.converted_type = ConvertedType::UTF8;
  element.logical_type = LogicalType{};
  element.logical_type->kind = LogicalType::Kind::STRING;
  return element;
}

std::vector<SchemaElement> WeatherSchema() {
  SchemaElement root;
  root.name = "schema";
  root.num_children = 7;

  SchemaElement observed = Column("observed", Type::INT32, FieldRepetitionType::REQUIRED);
  observed.converted_type = ConvertedType::DATE;
  observed.logical_type = LogicalType{};
  observed.logical_type->kind = LogicalType::Kind::DATE;

  SchemaElement recorded_at = Column("recorded_at", Type::INT64, FieldRepetitionType::REQUIRED);
  recorded_at.converted_type = ConvertedType::TIMESTAMP_MICROS;
  recorded_at.logical_type = LogicalType{};
  recorded_at.logical_type->kind = LogicalType::Kind::TIMESTAMP;
  recorded_at.logical_type->time_unit = parquet::TimeUnit::MICROS;
  recorded_at.logical_type->is_adjusted_to_utc = true;

  return {root,
          StringColumn("station"),
          observed,
          Column("temperature_c", Type::DOUBLE, FieldRepetitionType::REQUIRED),
          Column("humidity", Type::INT32, FieldRepetitionType::OPTIONAL),
          StringColumn("conditions"),
          Column("wind_kmh", Type::FLOAT, FieldRepetitionType::REQUIRED),
          recorded_at};
}

ByteArray Text(const char* text) {
  return ByteArray{reinterpret_cast<const uint8_t*>(text),
                   static_cast<uint32_t>(std::char_traits<char>::length(text))};
}

void WriteSample(const std::string& path) {
  parquet::WriterOptions options;
  options.dictionary = false;  // only the two low-cardinality text columns use a dictionary
  options.column_encoding[0] = Encoding::RLE_DICTIONARY;  // station
  options.column_encoding[4] = Encoding::RLE_DICTIONARY;  // conditions
  options.key_value_metadata.push_back(
      parquet::KeyValue{"description", std::string("sample weather observations for the sqlite-parquet demo")});

  std::vector<ByteArray> station, conditions;
  std::vector<int32_t> observed, humidity;
  std::vector<int16_t> humidity_defined;
  std::vector<double> temperature;
  std::vector<float> wind;
  std::vector<int64_t> recorded_at;
  for (const Observation& row : kObservations) {
    const int32_t day = kFirstDay + row.day;
    station.push_back(Text(row.station));
    observed.push_back(day);
    temperature.push_back(row.temperature_c);
    humidity_defined.push_back(row.humidity >= 0 ? 1 : 0);
    if (row.humidity >= 0) humidity.push_back(row.humidity);
    conditions.push_back(Text(row.conditions));
    wind.push_back(row.wind_kmh);
    recorded_at.push_back((int64_t{day} * 86400 + int64_t{row.minutes_after_midnight} * 60) * 1000000);
  }

  parquet::ParquetFileWriter writer(path, WeatherSchema(), options);
  writer.StartRowGroup();
  writer.WriteBatch<ByteArray>(0, kRows, nullptr, nullptr, station.data(), station.size());
  writer.WriteBatch<int32_t>(1, kRows, nullptr, nullptr, observed.data(), observed.size());
  writer.WriteBatch<double>(2, kRows, nullptr, nullptr, temperature.data(), temperature.size());
  writer.WriteBatch<int32_t>(3, kRows, humidity_defined.data(), nullptr, humidity.data(), humidity.size());
  writer.WriteBatch<ByteArray>(4, kRows, nullptr, nullptr, conditions.data(), conditions.size());
  writer.WriteBatch<float>(5, kRows, nullptr, nullptr, wind.data(), wind.size());
  writer.WriteBatch<int64_t>(6, kRows, nullptr, nullptr, recorded_at.data(), recorded_at.size());
  writer.EndRowGroup(static_cast<int64_t>(kRows));
  writer.Close();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.parquet\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  try {
    WriteSample(path);
    // Read the footer back as a check that the file is complete.
    auto file = parquet::ParquetFileReader::Open(path);
    if (file->num_rows() != static_cast<int64_t>(kRows)) {
      throw parquet::ParquetError("read back " + std::to_string(file->num_rows()) + " rows, wrote " +
                                  std::to_string(kRows));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_sample: %s\n", e.what());
    return 1;
  }
  return 0;
}
