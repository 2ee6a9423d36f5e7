// Fuzz target: the thrift compact parsers of every Parquet metadata structure (footer,
// page header, column metadata, page index, bloom filter header, crypto metadata) and the
// schema built from a footer. Malformed input must end in ParquetError; what parses must
// serialize and parse back to the same value.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "format/common/error.h"
#include "format/metadata/metadata.h"
#include "format/metadata/schema.h"
#include "format/metadata/thrift_compact.h"

namespace {

// Parses, then checks that Serialize(parsed) parses back to a value that serializes to the
// same bytes (bytes rather than operator==, which a NaN double in a bounding box fails).
template <typename T, typename Parse>
void RoundTrip(const uint8_t* data, size_t size, Parse parse) {
  T value;
  try {
    value = parse(data, size);
  } catch (const parquet::ParquetError&) {
    return;
  }
  std::string bytes;
  try {
    bytes = parquet::Serialize(value);
  } catch (const parquet::ParquetError&) {
    return;  // e.g. a union of a kind we do not know: not writable, fine
  }
  T again = parse(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (parquet::Serialize(again) != bytes) abort();
}

// Walks any compact-protocol value generically (Skip), as readers of unknown fields do.
void SkipAll(const uint8_t* data, size_t size) {
  try {
    parquet::ThriftCompactReader reader(data, size);
    reader.Skip(parquet::CompactType::STRUCT);
  } catch (const parquet::ParquetError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  size_t consumed = 0;
  RoundTrip<parquet::FileMetaData>(data, size, [](const uint8_t* d, size_t n) { return parquet::ParseFileMetaData(d, n); });
  RoundTrip<parquet::PageHeader>(data, size, [&](const uint8_t* d, size_t n) { return parquet::ParsePageHeader(d, n, &consumed); });
  RoundTrip<parquet::ColumnMetaData>(data, size, [](const uint8_t* d, size_t n) { return parquet::ParseColumnMetaData(d, n); });
  RoundTrip<parquet::ColumnIndex>(data, size, [](const uint8_t* d, size_t n) { return parquet::ParseColumnIndex(d, n); });
  RoundTrip<parquet::OffsetIndex>(data, size, [](const uint8_t* d, size_t n) { return parquet::ParseOffsetIndex(d, n); });
  RoundTrip<parquet::BloomFilterHeader>(data, size, [&](const uint8_t* d, size_t n) { return parquet::ParseBloomFilterHeader(d, n, &consumed); });
  RoundTrip<parquet::FileCryptoMetaData>(data, size, [&](const uint8_t* d, size_t n) { return parquet::ParseFileCryptoMetaData(d, n, &consumed); });
  SkipAll(data, size);
  try {
    parquet::FileMetaData metadata = parquet::ParseFileMetaData(data, size);
    parquet::Schema schema = parquet::Schema::FromElements(metadata.schema);
    (void)schema;
  } catch (const parquet::ParquetError&) {
  }
  return 0;
}
