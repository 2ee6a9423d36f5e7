// The partitions of parquet_copy's output and their files (copy_partitions.h).
#include "ext/copy/copy_partitions.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <string_view>
#include <utility>

#include "ext/common/hive_partitions.h"
#include "format/crypto/encryption.h"

namespace sqlite_parquet {

namespace {

// A random UUID, version 4: "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".
std::string NewUuid() {
  std::string bytes = parquet::RandomBytes(16);
  bytes[6] = static_cast<char>((static_cast<unsigned char>(bytes[6]) & 0x0F) | 0x40);
  bytes[8] = static_cast<char>((static_cast<unsigned char>(bytes[8]) & 0x3F) | 0x80);
  static const char kHex[] = "0123456789abcdef";
  std::string text;
  for (size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    text += kHex[static_cast<unsigned char>(bytes[i]) >> 4];
    text += kHex[static_cast<unsigned char>(bytes[i]) & 15];
  }
  return text;
}

void ReplaceAll(std::string* text, std::string_view from, const std::string& to) {
  for (size_t at = text->find(from); at != std::string::npos; at = text->find(from, at + to.size())) {
    text->replace(at, from.size(), to);
  }
}

}  // namespace

CopyPartitions::CopyPartitions(const CopyLayout& layout, FileNaming naming)
    : partitioned_(!layout.partition_columns().empty()),
      num_data_columns_(layout.num_data_columns()),
      naming_(std::move(naming)) {
  for (int index : layout.partition_columns()) {
    KeyColumn column;
    column.result_index = index;
    column.prefix = EscapePartitionText(layout.columns()[static_cast<size_t>(index)].name) + "=";
    key_columns_.push_back(std::move(column));
  }
  if (!partitioned_) single_ = NewPartition("");
}

std::unique_ptr<CopyPartition> CopyPartitions::NewPartition(std::string directory) const {
  auto partition = std::make_unique<CopyPartition>();
  partition->directory = std::move(directory);
  partition->values.resize(num_data_columns_);
  return partition;
}

CopyPartition& CopyPartitions::FindByKey(sqlite3_value* const* cells) {
  key_.clear();
  for (const KeyColumn& column : key_columns_) {
    if (!key_.empty()) key_ += '/';
    key_ += column.prefix;
    sqlite3_value* cell = cells[column.result_index];
    const int type = sqlite3_value_type(cell);
    std::string_view value;
    if (type == SQLITE_BLOB) {
      const void* blob = sqlite3_value_blob(cell);
      value = std::string_view(static_cast<const char*>(blob), blob ? static_cast<size_t>(sqlite3_value_bytes(cell)) : 0);
    } else if (type != SQLITE_NULL) {
      const unsigned char* text = sqlite3_value_text(cell);
      if (text == nullptr) throw std::bad_alloc();
      value = std::string_view(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(cell)));
    }
    if (value.empty()) {
      key_ += kHiveNullValue;
    } else {
      AppendEscapedPartitionText(value, &key_);
    }
  }
  auto found = by_key_.find(key_);
  if (found != by_key_.end()) return *found->second;
  std::unique_ptr<CopyPartition>& slot = by_key_[key_];
  slot = NewPartition(key_);
  return *slot;
}

std::vector<CopyPartition*> CopyPartitions::LargestFirst() {
  std::vector<CopyPartition*> order;
  for (auto& [key, partition] : by_key_) {
    if (partition->rows > 0) order.push_back(partition.get());
  }
  std::sort(order.begin(), order.end(), [](const CopyPartition* a, const CopyPartition* b) { return a->bytes > b->bytes; });
  return order;
}

CopyPartition* CopyPartitions::FileToClose() {
  if (!partitioned_ || open_writers_ < kMaxOpenPartitionFiles) return nullptr;
  CopyPartition* oldest = nullptr;
  for (auto& [key, partition] : by_key_) {
    if (partition->writer && (oldest == nullptr || partition->last_used < oldest->last_used)) oldest = partition.get();
  }
  return oldest;
}

std::string CopyPartitions::NextFileName(CopyPartition& partition) {
  for (;;) {
    std::string name = naming_.pattern;
    ReplaceAll(&name, "{i}", std::to_string(partition.next_file++));
    if (name.find("{uuid}") != std::string::npos) ReplaceAll(&name, "{uuid}", NewUuid());
    name += ".parquet";
    std::string relative = partition.directory.empty() ? name : partition.directory + "/" + name;
    parquet::platform::FileStatus info;
    if (naming_.existing_root.empty() ||
        !parquet::platform::PathStatus(naming_.existing_root + "/" + relative, false, &info).ok()) {
      return relative;
    }
  }
}

parquet::ParquetFileWriter& CopyPartitions::OpenWriter(CopyPartition& partition, const StagedOutput& output,
                                                       const CopyLayout& layout) {
  std::string file;
  parquet::platform::File out;
  WrittenFile written;
  if (naming_.directory_output) {
    written.relative = NextFileName(partition);
    file = output.temp_path() + "/" + written.relative;
    out = output.CreateInTree(written.relative);
  } else {
    file = output.temp_path();
    out = output.DuplicateTempFile();
  }
  partition.file_index = files_.size();
  files_.push_back(std::move(written));
  partition.writer = std::make_unique<parquet::ParquetFileWriter>(std::move(out), file, layout.schema(), layout.writer_options());
  ++open_writers_;
  return *partition.writer;
}

void CopyPartitions::CloseWriter(CopyPartition& partition) {
  WrittenFile& written = files_[partition.file_index];
  if (read_back_) {
    if (parquet::platform::SystemResult kept = partition.writer->file().Duplicate(&written.read_file); !kept.ok()) {
      throw CopyError("cannot keep a descriptor of '" + written.relative + "' to read it back: " + kept.text);
    }
  }
  partition.writer->Close();
  partition.writer.reset();
  --open_writers_;
  if (read_back_) {
    read_back_(written);
    written.read_file = parquet::platform::File();
  }
}

}  // namespace sqlite_parquet
