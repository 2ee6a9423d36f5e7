// The join index of the parquet table: building it from one column of every file, looking
// values up, and keeping it per table while the files are unchanged (see join_index.h).
#include "ext/table/join_index.h"

#include <sys/stat.h>

#include <cmath>
#include <cstring>

#include "ext/common/parquet_to_sql.h"
#include "format/column_reader.h"

namespace sqlite_parquet {

namespace {

constexpr uint32_t kEmpty = UINT32_MAX;

uint64_t Mix(int64_t key) {  // splitmix64's finalizer
  uint64_t x = static_cast<uint64_t>(key);
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// How a value is keyed: an integer (integers, and reals with an integral value in int64
// range), or bytes for the other map; false for values that equal nothing (NULL, NaN).
bool KeyOf(const SqlValue& value, bool* is_int, int64_t* int_key, std::string* other_key) {
  switch (value.type) {
    case SqlValue::Type::kNull: return false;
    case SqlValue::Type::kInteger:
      *is_int = true;
      *int_key = value.integer;
      return true;
    case SqlValue::Type::kReal: {
      const double d = value.real;
      if (std::isnan(d)) return false;
      // [-2^63, 2^63): the integral reals an int64 holds exactly.
      if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == std::floor(d)) {
        *is_int = true;
        *int_key = static_cast<int64_t>(d);
        return true;
      }
      *is_int = false;
      other_key->assign(1, 'r');
      other_key->append(reinterpret_cast<const char*>(&d), sizeof d);
      return true;
    }
    case SqlValue::Type::kText:
    case SqlValue::Type::kBlob:
      *is_int = false;
      other_key->assign(1, value.type == SqlValue::Type::kText ? 't' : 'b');
      other_key->append(value.bytes);
      return true;
  }
  return false;
}

// Per file: size and modification time, or -1s when it cannot be read.
std::vector<int64_t> FilesSignature(const std::vector<std::string>& files) {
  std::vector<int64_t> signature;
  signature.reserve(files.size() * 3);
  for (const std::string& path : files) {
    struct stat info;
    if (::stat(path.c_str(), &info) != 0) {
      signature.insert(signature.end(), {-1, -1, -1});
      continue;
    }
    signature.push_back(static_cast<int64_t>(info.st_size));
    signature.push_back(static_cast<int64_t>(info.st_mtim.tv_sec));
    signature.push_back(static_cast<int64_t>(info.st_mtim.tv_nsec));
  }
  return signature;
}

}  // namespace

void JoinIndex::Lookup(const SqlValue& value, std::vector<uint64_t>* positions) const {
  hits_++;
  bool is_int = false;
  int64_t int_key = 0;
  std::string other_key;
  if (!KeyOf(value, &is_int, &int_key, &other_key)) return;
  if (sorted_) {
    if (!is_int) return;
    const auto [from, to] = std::equal_range(sorted_keys_.begin(), sorted_keys_.end(), int_key);
    positions->insert(positions->end(), positions_.begin() + (from - sorted_keys_.begin()),
                      positions_.begin() + (to - sorted_keys_.begin()));
    return;
  }
  uint32_t group = kEmpty;
  if (is_int) {
    if (int_slots_.empty()) return;
    const size_t mask = int_slots_.size() - 1;
    for (size_t slot = Mix(int_key) & mask;; slot = (slot + 1) & mask) {
      if (int_slots_[slot].group == kEmpty) return;
      if (int_slots_[slot].key == int_key) {
        group = int_slots_[slot].group;
        break;
      }
    }
  } else {
    auto it = other_groups_.find(other_key);
    if (it == other_groups_.end()) return;
    group = it->second;
  }
  positions->insert(positions->end(), positions_.begin() + static_cast<ptrdiff_t>(group_start_[group]),
                    positions_.begin() + static_cast<ptrdiff_t>(group_start_[group + 1]));
}

JoinIndexBuilder::JoinIndexBuilder(uint64_t budget_bytes) : budget_(budget_bytes), index_(new JoinIndex) {}

uint64_t JoinIndexBuilder::Estimate() const {
  // The rows' groups and positions now, the final positions and group starts to come, the
  // integer table and the other map (about 64 bytes of node per key besides its bytes).
  return row_positions_.capacity() * (sizeof(uint64_t) * 2 + sizeof(uint32_t)) +
         sorted_keys_.capacity() * sizeof(int64_t) +
         static_cast<uint64_t>(groups_) * sizeof(uint64_t) +
         index_->int_slots_.size() * sizeof(JoinIndex::IntSlot) + other_bytes_;
}

// Makes the integer table large enough for `keys` keys at most half full.
void JoinIndexBuilder::GrowIntTable(size_t keys) {
  size_t size = index_->int_slots_.empty() ? 1024 : index_->int_slots_.size();
  while (keys * 2 > size) size *= 2;
  if (size == index_->int_slots_.size()) return;
  std::vector<JoinIndex::IntSlot> old = std::move(index_->int_slots_);
  index_->int_slots_.assign(size, JoinIndex::IntSlot{0, kEmpty});
  const size_t mask = size - 1;
  for (const JoinIndex::IntSlot& entry : old) {
    if (entry.group == kEmpty) continue;
    size_t slot = Mix(entry.key) & mask;
    while (index_->int_slots_[slot].group != kEmpty) slot = (slot + 1) & mask;
    index_->int_slots_[slot] = entry;
  }
}

uint32_t JoinIndexBuilder::IntGroupOf(int64_t key) {
  const size_t mask = index_->int_slots_.size() - 1;
  size_t slot = Mix(key) & mask;
  JoinIndex::IntSlot* slots = index_->int_slots_.data();
  while (slots[slot].group != kEmpty) {
    if (slots[slot].key == key) return slots[slot].group;
    slot = (slot + 1) & mask;
  }
  slots[slot] = JoinIndex::IntSlot{key, groups_};
  int_count_++;
  return groups_++;
}

uint32_t JoinIndexBuilder::GroupOf(const SqlValue& value) {
  bool is_int = false;
  int64_t int_key = 0;
  std::string other_key;
  if (!KeyOf(value, &is_int, &int_key, &other_key)) return kEmpty;
  if (!is_int) {
    auto [it, inserted] = index_->other_groups_.try_emplace(std::move(other_key), groups_);
    if (inserted) {
      other_bytes_ += 64 + it->first.size();
      groups_++;
    }
    return it->second;
  }
  GrowIntTable(int_count_ + 1);
  return IntGroupOf(int_key);
}

// Gives up (false, the builder emptied) when the index would exceed the budget or the
// group numbers.
bool JoinIndexBuilder::CheckBudget() {
  if (Estimate() <= budget_ && groups_ < kEmpty - 1) return true;
  index_.reset();
  row_positions_ = {};
  group_of_row_ = {};
  return false;
}

bool JoinIndexBuilder::Reserve(uint64_t more_rows) {
  if (!index_) return false;
  const size_t want = row_positions_.size() + static_cast<size_t>(more_rows);
  if (want > row_positions_.capacity()) {
    // Within the budget only: the estimate counts capacity.
    if (want * (sizeof(uint64_t) * 2 + sizeof(uint32_t)) > budget_) return CheckBudget();
    row_positions_.reserve(want);
    if (sorted_) {
      sorted_keys_.reserve(want);
    } else {
      group_of_row_.reserve(want);
    }
  }
  return CheckBudget();
}

void JoinIndexBuilder::Unsort() {
  sorted_ = false;
  GrowIntTable(static_cast<size_t>(index_->distinct_));
  group_of_row_.reserve(row_positions_.capacity());
  for (int64_t key : sorted_keys_) group_of_row_.push_back(IntGroupOf(key));
  sorted_keys_ = {};
}

bool JoinIndexBuilder::AddIntegers(uint64_t first_position, const int64_t* keys, size_t count) {
  if (!index_) return false;
  if (sorted_) {
    bool have_last = !sorted_keys_.empty();
    int64_t last = have_last ? sorted_keys_.back() : INT64_MIN;
    size_t i = 0;
    for (; i < count && keys[i] >= last; i++) {
      if (!have_last || keys[i] != last) index_->distinct_++;
      last = keys[i];
      have_last = true;
    }
    if (i == count) {
      sorted_keys_.insert(sorted_keys_.end(), keys, keys + count);
      for (size_t j = 0; j < count; j++) row_positions_.push_back(first_position + j);
      return CheckBudget();
    }
    // Not in order after all: the distinct count restarts with the hash.
    index_->distinct_ = 0;
    for (size_t j = 0; j < sorted_keys_.size(); j++) {
      if (j == 0 || sorted_keys_[j] != sorted_keys_[j - 1]) index_->distinct_++;
    }
    Unsort();
  }
  GrowIntTable(int_count_ + count);
  if (row_positions_.capacity() < row_positions_.size() + count) {
    row_positions_.reserve(std::max(row_positions_.size() + count, row_positions_.capacity() * 2));
    group_of_row_.reserve(row_positions_.capacity());
  }
  if (!CheckBudget()) return false;
  // The slot of key i + kAhead is fetched while key i is inserted.
  constexpr size_t kAhead = 8;
  const size_t mask = index_->int_slots_.size() - 1;
  const JoinIndex::IntSlot* slots = index_->int_slots_.data();
  for (size_t i = 0; i < count; i++) {
    if (i + kAhead < count) __builtin_prefetch(&slots[Mix(keys[i + kAhead]) & mask]);
    row_positions_.push_back(first_position + i);
    group_of_row_.push_back(IntGroupOf(keys[i]));
  }
  return CheckBudget();
}

bool JoinIndexBuilder::Add(uint64_t position, const SqlValue& value) {
  if (!index_) return false;
  if (sorted_) {
    if (value.is_null()) return true;
    if (value.type == SqlValue::Type::kInteger) return AddIntegers(position, &value.integer, 1);
    Unsort();
  }
  const uint32_t group = GroupOf(value);
  if (group == kEmpty) return true;  // equals nothing: not indexed
  const bool growing = row_positions_.size() == row_positions_.capacity();
  row_positions_.push_back(position);
  group_of_row_.push_back(group);
  if (growing || (groups_ & 1023) == 0) return CheckBudget();
  return true;
}

std::shared_ptr<JoinIndex> JoinIndexBuilder::Finish() {
  if (!index_) return nullptr;
  if (sorted_) {
    index_->sorted_ = true;
    index_->sorted_keys_ = std::move(sorted_keys_);
    index_->positions_ = std::move(row_positions_);
    index_->bytes_ = index_->positions_.size() * (sizeof(uint64_t) + sizeof(int64_t));
    return std::shared_ptr<JoinIndex>(std::move(index_));
  }
  index_->distinct_ = groups_;
  // Counting sort of the rows by group; within a group they stay in position order.
  JoinIndex& index = *index_;
  index.group_start_.assign(static_cast<size_t>(groups_) + 1, 0);
  for (uint32_t g : group_of_row_) index.group_start_[g + 1]++;
  for (size_t g = 1; g < index.group_start_.size(); g++) index.group_start_[g] += index.group_start_[g - 1];
  std::vector<uint64_t> next(index.group_start_.begin(), index.group_start_.end() - 1);
  index.positions_.resize(row_positions_.size());
  for (size_t i = 0; i < row_positions_.size(); i++) index.positions_[next[group_of_row_[i]]++] = row_positions_[i];
  row_positions_ = {};
  group_of_row_ = {};
  index.bytes_ = index.positions_.size() * sizeof(uint64_t) + index.group_start_.size() * sizeof(uint64_t) +
                 index.int_slots_.size() * sizeof(JoinIndex::IntSlot) + other_bytes_;
  return std::shared_ptr<JoinIndex>(std::move(index_));
}

std::shared_ptr<JoinIndex> BuildJoinIndex(const JoinIndexSource& source, uint64_t budget_bytes) {
  JoinIndexBuilder builder(budget_bytes);
  parquet::ColumnReaderOptions options;
  options.verify_crc = source.verify_crc;
  DateTextCache dates;
  FormatBuffer buffer;
  buffer.dates = &dates;
  parquet::ColumnBatch batch;
  for (size_t f = 0; f < source.files->size(); f++) {
    auto file = parquet::ParquetFileReader::Open((*source.files)[f], source.decryption);
    if (!builder.Reserve(static_cast<uint64_t>(file->num_rows()))) return nullptr;
    const ColumnMapping mapping = source.mapping_of(*file, f);
    if (mapping.kind == ValueKind::kNested) return nullptr;
    if (mapping.kind == ValueKind::kNull || mapping.leaf_column < 0) continue;  // NULL in every row
    for (int rg = 0; rg < file->num_row_groups(); rg++) {
      auto reader = parquet::ColumnChunkReader::Make(*file, rg, mapping.leaf_column, options);
      const int16_t max_def = reader->descriptor().max_definition_level;
      int64_t row = file->row_group_first_row(rg);
      const int64_t end = row + file->row_group_num_rows(rg);
      while (row < end) {
        const size_t n = reader->ReadBatch(static_cast<size_t>(std::min<int64_t>(end - row, 4096)), &batch);
        if (n == 0) break;
        const bool dense = max_def == 0 || batch.num_values == batch.num_levels;
        if (dense && mapping.kind == ValueKind::kInt64) {
          if (!builder.AddIntegers(RowPosition::Pack(f, row), batch.values<int64_t>(), batch.num_values)) return nullptr;
          row += static_cast<int64_t>(batch.num_levels);
          continue;
        }
        size_t value_index = 0;
        for (size_t slot = 0; slot < batch.num_levels; slot++, row++) {
          if (!dense && batch.def_levels[slot] != max_def) continue;
          SqlValue value;
          if (!BatchSqlValue(mapping, batch, value_index++, &buffer, &value)) return nullptr;
          if (!builder.Add(RowPosition::Pack(f, row), value)) return nullptr;
        }
      }
    }
  }
  return builder.Finish();
}

std::shared_ptr<JoinIndex> JoinIndexCache::Get(int column, const JoinIndexSource& source, uint64_t budget_bytes,
                                               bool may_build, bool* built) {
  *built = false;
  std::vector<int64_t> signature = FilesSignature(*source.files);
  auto it = slots_.find(column);
  if (it != slots_.end() && it->second.signature == signature) {
    if (it->second.index || it->second.unusable || !may_build) return it->second.index;
  }
  if (!may_build) return nullptr;
  Slot& slot = slots_[column];
  slot.signature = std::move(signature);
  slot.index.reset();
  slot.unusable = false;
  try {
    slot.index = BuildJoinIndex(source, budget_bytes);
  } catch (const std::bad_alloc&) {
    slot.index.reset();
  }
  slot.unusable = slot.index == nullptr;
  *built = slot.index != nullptr;
  return slot.index;
}

bool JoinIndexCache::Has(int column) const {
  auto it = slots_.find(column);
  return it != slots_.end() && it->second.index != nullptr;
}

double JoinIndexCache::RowsPerKey(int column) const {
  auto it = slots_.find(column);
  if (it == slots_.end() || !it->second.index || it->second.index->distinct_keys() == 0) return 0;
  return static_cast<double>(it->second.index->rows()) / static_cast<double>(it->second.index->distinct_keys());
}

}  // namespace sqlite_parquet
