// The join index of the parquet table: building it from one column of every file, looking
// values up, and keeping it per table while the files are unchanged (see join_index.h).
#include "ext/table/join_index.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ext/common/parquet_to_sql.h"
#include "format/read/column_reader.h"
#include "format/common/error.h"
#include "format/platform/system.h"

namespace sqlite_parquet {

namespace {

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

// The bytes a large array (LargeVector, FilledVector) of `elements` T's really holds: LargeArrayAllocator
// maps whole pages. Every size the budget checks goes through here.
template <typename T>
uint64_t ArrayBytes(uint64_t elements) {
  return LargeArrayReservedBytes(elements * sizeof(T));
}

template <typename Vector>
uint64_t HeldBytes(const Vector& array) {
  return ArrayBytes<typename Vector::value_type>(array.capacity());
}

// Whether `more` bytes can be allocated beside `held` within `limit` (an array growing
// holds its old and new storage at once, so the new size counts in full).
bool FitsBeside(uint64_t held, uint64_t more, uint64_t limit) { return more <= limit && held <= limit - more; }

// What `array` would newly hold to have room for `size` elements (0: it has the room).
template <typename Vector>
uint64_t GrowthBytes(const Vector& array, uint64_t size) {
  return size > array.capacity() ? ArrayBytes<typename Vector::value_type>(size) : 0;
}

// Per file: size and modification time, or -1s when it cannot be read.
std::vector<int64_t> FilesSignature(const std::vector<std::string>& files) {
  std::vector<int64_t> signature;
  signature.reserve(files.size() * 3);
  for (const std::string& path : files) {
    parquet::platform::FileStatus info;
    if (!parquet::platform::PathStatus(path, true, &info).ok()) {
      signature.insert(signature.end(), {-1, -1, -1});
      continue;
    }
    signature.push_back(static_cast<int64_t>(info.size));
    signature.push_back(info.modified_seconds);
    signature.push_back(info.modified_nanoseconds);
  }
  return signature;
}

}  // namespace

std::pair<size_t, size_t> SortedKeys::EqualRange(int64_t key) const {
  size_t lo = 0, n = size_;
  while (n > 0) {  // the first key not below `key`
    const size_t half = n / 2;
    if (this->key(lo + half) < key) {
      lo += half + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  size_t hi = lo;
  while (hi < size_ && this->key(hi) == key) hi++;
  return {lo, hi};
}

bool SortedKeys::MayAllocate(uint64_t more) const { return FitsBeside(bytes(), more, byte_limit_); }

bool SortedKeys::Reserve(uint64_t keys) {
  const uint64_t blocks = keys / kBlock + 1;
  const uint64_t more = (plain_ ? GrowthBytes(keys_, keys) : GrowthBytes(offsets_, keys) + GrowthBytes(bases_, blocks)) +
                        (has_rows_ ? GrowthBytes(rows_, keys) : 0);
  if (!MayAllocate(more)) return false;
  if (plain_) {
    keys_.reserve(keys);
  } else {
    offsets_.reserve(keys);
    bases_.reserve(blocks);
  }
  if (has_rows_) rows_.reserve(keys);
  return true;
}

bool SortedKeys::AppendConsecutive(const int64_t* keys, size_t count, uint32_t first_row) {
  size_t i = 0;
  if (!plain_ && !has_rows_ && first_row == size_) {
    // The common case (compact, a key in every row so far): no rows to keep. A block's
    // keys at a time, in a loop without branches; a block whose keys span too much is left
    // to Append (which goes plain).
    const size_t start = offsets_.size();
    offsets_.resize(start + count);
    uint16_t* offsets = offsets_.data() + start;
    while (i < count) {
      const size_t in_block = size_ % kBlock;
      const size_t n = std::min(count - i, kBlock - in_block);
      const uint64_t base = static_cast<uint64_t>(in_block == 0 ? keys[i] : bases_.back());
      uint64_t highest = 0;
      for (size_t j = 0; j < n; j++) {
        const uint64_t offset = static_cast<uint64_t>(keys[i + j]) - base;
        highest |= offset;
        offsets[i + j] = static_cast<uint16_t>(offset);
      }
      if (highest > UINT16_MAX) break;  // some offset does not fit 16 bits
      if (in_block == 0) bases_.push_back(keys[i]);
      size_ += n;
      i += n;
    }
    offsets_.resize(start + i);
  }
  for (; i < count; i++) {
    if (!Append(keys[i], first_row + static_cast<uint32_t>(i))) return false;
  }
  return true;
}

// Row i of key i so far, kept from now on; false when the rows would not fit the limit.
bool SortedKeys::KeepRows() {
  const size_t capacity = std::max({offsets_.capacity(), keys_.capacity(), size_ + 1});
  if (!MayAllocate(ArrayBytes<uint32_t>(capacity))) return false;
  has_rows_ = true;
  rows_.reserve(capacity);
  for (size_t i = 0; i < size_; i++) rows_.push_back(static_cast<uint32_t>(i));
  return true;
}

// Plain 64-bit keys from now on; false when they would not fit the limit beside the
// compact keys they are copied from.
bool SortedKeys::GoPlain() {
  const size_t capacity = std::max(offsets_.capacity(), size_ + 1);
  if (!MayAllocate(ArrayBytes<int64_t>(capacity))) return false;
  keys_.reserve(capacity);
  for (size_t i = 0; i < size_; i++) keys_.push_back(this->key(i));
  plain_ = true;
  LargeVector<int64_t>().swap(bases_);  // (swapped out: assigning {} would keep the memory)
  LargeVector<uint16_t>().swap(offsets_);
  return true;
}

bool SortedKeys::Append(int64_t key, uint32_t row) {
  if (!has_rows_ && row != size_ && !KeepRows()) return false;  // the first row without a key before this one
  // A new block starts at its key; a key too far from its block's first: plain keys.
  const bool new_block = !plain_ && size_ % kBlock == 0;
  const uint64_t offset = plain_ || new_block ? 0 : static_cast<uint64_t>(key) - static_cast<uint64_t>(bases_.back());
  if (offset > UINT16_MAX && !GoPlain()) return false;
  if (has_rows_) rows_.push_back(row);
  if (plain_) {
    keys_.push_back(key);
  } else {
    if (new_block) bases_.push_back(key);
    offsets_.push_back(static_cast<uint16_t>(offset));
  }
  size_++;
  return true;
}

uint64_t SortedKeys::bytes() const {
  return HeldBytes(bases_) + HeldBytes(offsets_) + HeldBytes(keys_) + HeldBytes(rows_);
}

uint64_t JoinIndex::PositionOf(uint32_t row) const {
  // The file holding table row `row`: the last one starting at or before it.
  size_t file = 0;
  if (file_first_row_.size() > 1) {
    file = static_cast<size_t>(std::upper_bound(file_first_row_.begin(), file_first_row_.end(), row) -
                               file_first_row_.begin()) - 1;
  }
  return RowPosition::Pack(file, static_cast<int64_t>(row - file_first_row_[file]));
}

void JoinIndex::AppendChain(uint32_t last_row, std::vector<uint64_t>* positions) const {
  const size_t first = positions->size();
  for (uint32_t row = last_row; row != kNoRow; row = previous_row_[row]) positions->push_back(PositionOf(row));
  std::reverse(positions->begin() + static_cast<ptrdiff_t>(first), positions->end());
}

void JoinIndex::Lookup(const SqlValue& value, std::vector<uint64_t>* positions) const {
  hits_++;
  bool is_int = false;
  int64_t int_key = 0;
  std::string other_key;
  if (!KeyOf(value, &is_int, &int_key, &other_key)) return;
  if (sorted_) {
    if (!is_int) return;
    const auto [from, to] = sorted_keys_.EqualRange(int_key);
    for (size_t i = from; i < to; i++) positions->push_back(PositionOf(sorted_keys_.row(i)));
    return;
  }
  if (!is_int) {
    auto it = other_last_rows_.find(other_key);
    if (it != other_last_rows_.end()) AppendChain(it->second, positions);
    return;
  }
  if (direct_) {
    const uint64_t offset = static_cast<uint64_t>(int_key) - static_cast<uint64_t>(direct_base_);
    if (offset < direct_last_row_.size() && direct_last_row_[offset] != kNoRow) AppendChain(direct_last_row_[offset], positions);
    return;
  }
  if (int_slots_.empty()) return;
  const size_t mask = int_slots_.size() - 1;
  for (size_t slot = Mix(int_key) & mask; int_slots_[slot].last_row != kNoRow; slot = (slot + 1) & mask) {
    if (int_slots_[slot].key == int_key) {
      AppendChain(int_slots_[slot].last_row, positions);
      return;
    }
  }
}

JoinIndexBuilder::JoinIndexBuilder(uint64_t budget_bytes) : budget_(budget_bytes), index_(new JoinIndex) {
  index_->sorted_ = true;  // until a key is not an integer at or above the one before
}

uint64_t JoinIndexBuilder::Estimate() const {
  const JoinIndex& index = *index_;
  return HeldBytes(index.previous_row_) +
         index.sorted_keys_.bytes() +
         HeldBytes(index.int_slots_) + HeldBytes(index.direct_last_row_) +
         other_bytes_ +
         index.file_first_row_.capacity() * sizeof(uint64_t);
}

// Whether `more` bytes (a large array's as ArrayBytes) can be allocated beside
// what the index holds.
bool JoinIndexBuilder::Fits(uint64_t more) const { return FitsBeside(Estimate(), more, budget_); }

// The sorted keys may grow to what the budget leaves beside the rest of the index.
void JoinIndexBuilder::LimitSortedKeys() {
  SortedKeys& keys = index_->sorted_keys_;
  const uint64_t rest = Estimate() - keys.bytes();
  keys.set_byte_limit(rest <= budget_ ? budget_ - rest : 0);
}

// Gives up (false, the builder emptied) when the index would exceed the budget.
bool JoinIndexBuilder::CheckBudget() { return Estimate() <= budget_ || GiveUp(); }

bool JoinIndexBuilder::GiveUp() {
  index_.reset();
  return false;
}

bool JoinIndexBuilder::StartFile(uint64_t rows) {
  if (!index_) return false;
  // Row numbers are 32-bit, kNoRow excluded.
  if (rows >= JoinIndex::kNoRow - table_rows_) return GiveUp();
  JoinIndex& index = *index_;
  // Row positions name the file in 64 - kRowBits bits (RowPosition): no index past them.
  if (index.file_first_row_.size() >= RowPosition::kMaxFiles) return GiveUp();
  index.file_first_row_.push_back(table_rows_);
  table_rows_ += rows;
  // Room for the file's rows, when the budget allows (the estimate counts capacity; the
  // sorted keys check what their form takes, 2 to 12 bytes a key, old and new arrays at once).
  const uint64_t per_row = index.sorted_ ? sizeof(uint16_t) : sizeof(uint32_t);
  if (LargeArrayReservedBytes(table_rows_ * per_row) > budget_) return GiveUp();
  // Growing by half at least, so that many small files do not copy the arrays again and
  // again; exactly when that would not fit the budget.
  const uint64_t capacity = index.sorted_ ? index.sorted_keys_.size() : index.previous_row_.capacity();
  uint64_t room = std::max(table_rows_, capacity + capacity / 2);
  if (LargeArrayReservedBytes(room * per_row) > budget_) room = table_rows_;
  if (index.sorted_) {
    LimitSortedKeys();
    if (!index.sorted_keys_.Reserve(room) && !index.sorted_keys_.Reserve(table_rows_)) return GiveUp();
  } else if (room > index.previous_row_.capacity()) {
    // The row chains grow beside what the index holds, their old storage included.
    if (!Fits(ArrayBytes<uint32_t>(room))) room = table_rows_;
    if (!Fits(ArrayBytes<uint32_t>(room))) return GiveUp();
    index.previous_row_.reserve(room);
  }
  return CheckBudget();
}

// Makes the integer table large enough for `keys` keys at most half full; false when the
// budget does not allow it.
bool JoinIndexBuilder::GrowIntTable(uint64_t keys) {
  FilledVector<JoinIndex::IntSlot>& slots = index_->int_slots_;
  size_t size = slots.empty() ? 1024 : slots.size();
  while (keys * 2 > size) size *= 2;
  if (size == slots.size()) return true;
  if (!Fits(ArrayBytes<JoinIndex::IntSlot>(size))) return false;
  FilledVector<JoinIndex::IntSlot> old = std::move(slots);
  slots.assign(size, JoinIndex::IntSlot{0, JoinIndex::kNoRow});
  const size_t mask = size - 1;
  for (const JoinIndex::IntSlot& entry : old) {
    if (entry.last_row == JoinIndex::kNoRow) continue;
    size_t slot = Mix(entry.key) & mask;
    while (slots[slot].last_row != JoinIndex::kNoRow) slot = (slot + 1) & mask;
    slots[slot] = entry;
  }
  return true;
}

// Makes `row` (the table's last so far) the last row of `key` in the hash table, chained
// to the one before. The table must have room for one more key.
inline void JoinIndexBuilder::LinkHashed(int64_t key, uint32_t row) {
  JoinIndex::IntSlot* slots = index_->int_slots_.data();
  const size_t mask = index_->int_slots_.size() - 1;
  size_t slot = Mix(key) & mask;
  while (slots[slot].last_row != JoinIndex::kNoRow && slots[slot].key != key) slot = (slot + 1) & mask;
  if (slots[slot].last_row == JoinIndex::kNoRow) {
    slots[slot].key = key;
    int_keys_++;
  }
  index_->previous_row_[row] = slots[slot].last_row;
  slots[slot].last_row = row;
}

// Widens the direct table to hold `key`, with room to grow on that side; false when the
// range would be too sparse (more than twice the table's rows, and more than 64Ki keys)
// or over the budget.
bool JoinIndexBuilder::WidenDirect(int64_t key) {
  JoinIndex& index = *index_;
  FilledVector<uint32_t>& last = index.direct_last_row_;
  const __int128 old_lo = index.direct_base_, old_size = static_cast<__int128>(last.size());
  __int128 lo = last.empty() ? key : std::min<__int128>(old_lo, key);
  __int128 hi = last.empty() ? key : std::max<__int128>(old_lo + old_size - 1, key);
  const __int128 limit = std::max<__int128>(__int128{1} << 16, static_cast<__int128>(table_rows_) * 2);
  if (hi - lo + 1 > limit) return false;
  // Room for as many keys again on the side that grew (or both, the first time), within
  // the limit and the int64 range.
  const __int128 room = std::min<__int128>(hi - lo + 1, (limit - (hi - lo + 1)) / 2);
  if (last.empty() || key > old_lo) hi = std::min<__int128>(hi + room, INT64_MAX);
  if (last.empty() || key < old_lo) lo = std::max<__int128>(lo - room, INT64_MIN);
  const uint64_t size = static_cast<uint64_t>(hi - lo + 1);
  if (!Fits(ArrayBytes<uint32_t>(size))) return false;
  FilledVector<uint32_t> widened(size, JoinIndex::kNoRow);
  if (!last.empty()) std::copy(last.begin(), last.end(), widened.begin() + static_cast<ptrdiff_t>(old_lo - lo));
  last = std::move(widened);
  index.direct_base_ = static_cast<int64_t>(lo);
  return true;
}

// The integer keys move from the direct table to the hash table; false when the budget
// does not allow it.
bool JoinIndexBuilder::DirectToHash() {
  JoinIndex& index = *index_;
  index.direct_ = false;
  if (!GrowIntTable(int_keys_)) return false;
  const uint64_t keys = int_keys_;
  int_keys_ = 0;
  JoinIndex::IntSlot* slots = index.int_slots_.data();
  const size_t mask = index.int_slots_.size() - 1;
  for (size_t i = 0; i < index.direct_last_row_.size(); i++) {
    if (index.direct_last_row_[i] == JoinIndex::kNoRow) continue;
    const int64_t key = static_cast<int64_t>(static_cast<uint64_t>(index.direct_base_) + i);
    size_t slot = Mix(key) & mask;
    while (slots[slot].last_row != JoinIndex::kNoRow) slot = (slot + 1) & mask;
    slots[slot] = JoinIndex::IntSlot{key, index.direct_last_row_[i]};
  }
  int_keys_ = keys;
  FilledVector<uint32_t>().swap(index.direct_last_row_);
  return true;
}

// Links the integer keys of table rows first_row, first_row + 1, ...: in the direct table
// while they fit it, else in the hash table (with the slot of key i + kAhead fetched while
// key i is linked). previous_row_ must hold these rows. False when the budget does not
// allow the tables to grow.
bool JoinIndexBuilder::LinkIntegers(const int64_t* keys, size_t count, uint32_t first_row) {
  JoinIndex& index = *index_;
  uint32_t* previous = index.previous_row_.data();
  size_t i = 0;
  while (index.direct_ && i < count) {
    uint32_t* last = index.direct_last_row_.data();
    const uint64_t base = static_cast<uint64_t>(index.direct_base_), size = index.direct_last_row_.size();
    uint64_t new_keys = 0;  // (a local: the member would be a store per row)
    // One pass, leaving at the first key outside the table's range (a branch taken once).
    const int64_t* key = keys + i;
    const int64_t* const keys_end = keys + count;
    uint32_t* previous_of = previous + first_row + i;
    uint32_t row = first_row + static_cast<uint32_t>(i);
#pragma GCC unroll 4
    for (; key != keys_end; ++key, ++previous_of, ++row) {
      const uint64_t offset = static_cast<uint64_t>(*key) - base;
      if (offset >= size) break;
      const uint32_t before = last[offset];
      new_keys += before == JoinIndex::kNoRow;
      *previous_of = before;
      last[offset] = row;
    }
    i = static_cast<size_t>(key - keys);
    int_keys_ += new_keys;
    if (i < count && !WidenDirect(keys[i]) && !DirectToHash()) return false;
  }
  if (i == count) return true;
  if (!GrowIntTable(int_keys_ + (count - i))) return false;
  constexpr size_t kAhead = 16;
  const size_t mask = index.int_slots_.size() - 1;
  const JoinIndex::IntSlot* slots = index.int_slots_.data();
  for (; i < count; i++) {
    if (i + kAhead < count) __builtin_prefetch(&slots[Mix(keys[i + kAhead]) & mask]);
    LinkHashed(keys[i], first_row + static_cast<uint32_t>(i));
  }
  return true;
}

// The keys so far were integers in ascending order, the next is not: they are linked as
// any others (see LinkIntegers). The sorted keys stay (and count) until they are linked.
// False when the budget does not allow it.
bool JoinIndexBuilder::Unsort() {
  JoinIndex& index = *index_;
  index.sorted_ = false;
  index.direct_ = true;
  if (!Fits(ArrayBytes<uint32_t>(table_rows_))) return false;
  index.previous_row_.reserve(table_rows_);
  const SortedKeys& keys = index.sorted_keys_;
  index.previous_row_.assign(keys.size() == 0 ? 0 : keys.row(keys.size() - 1) + 1, JoinIndex::kNoRow);
  int_keys_ = 0;
  for (size_t i = 0; i < keys.size(); i++) {
    const int64_t key = keys.key(i);
    if (!LinkIntegers(&key, 1, keys.row(i))) return false;
  }
  index.sorted_keys_ = SortedKeys();
  return true;
}

bool JoinIndexBuilder::AddIntegers(int64_t first_row, const int64_t* keys, size_t count) {
  if (!index_) return false;
  JoinIndex& index = *index_;
  const uint32_t first = static_cast<uint32_t>(index.file_first_row_.back() + static_cast<uint64_t>(first_row));
  if (index.sorted_) {
    // In order after the last key so far, and how many new distinct keys: one pass with
    // no branch per key.
    const bool have_last = index.sorted_keys_.size() > 0;
    bool in_order = true;
    uint64_t distinct = index.distinct_;
    if (count > 0) {
      const int64_t last = have_last ? index.sorted_keys_.key(index.sorted_keys_.size() - 1) : keys[0];
      in_order = keys[0] >= last;
      distinct += !have_last || keys[0] != last;
      uint64_t changes = 0;
      bool ascending = true;
      for (size_t i = 1; i < count; i++) {
        ascending &= keys[i] >= keys[i - 1];
        changes += keys[i] != keys[i - 1];
      }
      in_order = in_order && ascending;
      distinct += changes;
    }
    if (in_order) {
      index.distinct_ = distinct;
      LimitSortedKeys();
      if (!index.sorted_keys_.AppendConsecutive(keys, count, first)) return GiveUp();
      index.rows_ += count;
      return CheckBudget();
    }
    if (!Unsort()) return GiveUp();
  }
  index.previous_row_.resize(first, JoinIndex::kNoRow);  // rows of NULLs before these
  index.previous_row_.resize(first + count);
  if (!LinkIntegers(keys, count, first)) return GiveUp();
  index.rows_ += count;
  index.distinct_ = int_keys_ + index.other_last_rows_.size();
  return CheckBudget();
}

bool JoinIndexBuilder::Add(int64_t row, const SqlValue& value) {
  if (!index_) return false;
  JoinIndex& index = *index_;
  bool is_int = false;
  int64_t int_key = 0;
  std::string other_key;
  if (!KeyOf(value, &is_int, &int_key, &other_key)) return true;  // equals nothing: not indexed
  if (is_int && value.type == SqlValue::Type::kInteger) return AddIntegers(row, &int_key, 1);
  if (index.sorted_ && !Unsort()) return GiveUp();
  const uint32_t table_row = static_cast<uint32_t>(index.file_first_row_.back() + static_cast<uint64_t>(row));
  index.previous_row_.resize(table_row + 1, JoinIndex::kNoRow);
  if (is_int) {
    if (!LinkIntegers(&int_key, 1, table_row)) return GiveUp();
  } else {
    // A new key is counted before it is copied in (it may be long: text, blob).
    auto it = index.other_last_rows_.find(other_key);
    if (it == index.other_last_rows_.end()) {
      const uint64_t key_bytes = 64 + other_key.size();
      if (!Fits(key_bytes)) return GiveUp();
      other_bytes_ += key_bytes;
      it = index.other_last_rows_.emplace(std::move(other_key), JoinIndex::kNoRow).first;
    }
    index.previous_row_[table_row] = it->second;
    it->second = table_row;
  }
  index.rows_++;
  index.distinct_ = int_keys_ + index.other_last_rows_.size();
  return index.rows_ % 1024 != 0 || CheckBudget();
}

std::shared_ptr<JoinIndex> JoinIndexBuilder::Finish() {
  if (!index_ || !CheckBudget()) return nullptr;
  JoinIndex& index = *index_;
  if (!index.sorted_) index.previous_row_.resize(table_rows_, JoinIndex::kNoRow);
  index.bytes_ = Estimate();
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
  std::vector<int64_t> widened;  // an INT32 batch's keys
  for (size_t f = 0; f < source.files->size(); f++) {
    std::unique_ptr<parquet::ParquetFileReader> opened;
    if (!source.open_file || source.open_index != f) opened = parquet::ParquetFileReader::Open((*source.files)[f], source.decryption);
    const parquet::ParquetFileReader* file = opened ? opened.get() : source.open_file;
    if (!builder.StartFile(static_cast<uint64_t>(file->num_rows()))) return nullptr;
    const ColumnMapping mapping = source.mapping_of(*file, f);
    if (mapping.kind == ValueKind::kNested) return nullptr;
    if (mapping.constant) return nullptr;  // a lake column's default in every row: no index
    if (mapping.kind == ValueKind::kNull || mapping.leaf_column < 0) continue;  // NULL in every row
    std::unique_ptr<parquet::ColumnChunkReader> reader;  // one for the file's row groups (its buffers reused)
    for (int rg = 0; rg < file->num_row_groups(); rg++) {
      if (source.check_interrupt) source.check_interrupt();
      if (!reader) {
        reader = parquet::ColumnChunkReader::Make(*file, rg, mapping.leaf_column, options);
      } else {
        reader->Reset(rg);
      }
      const int16_t max_def = reader->descriptor().max_definition_level;
      int64_t row = file->row_group_first_row(rg);
      const int64_t end = row + file->row_group_num_rows(rg);
      // Batches end at each next check, so checks are exactly rows_per_interrupt_check apart.
      const int64_t interval = source.rows_per_interrupt_check > 0 ? source.rows_per_interrupt_check : end - row;
      int64_t next_check = row + interval;
      while (row < end) {
        if (row >= next_check) {
          if (source.check_interrupt) source.check_interrupt();
          next_check = row + interval;
        }
        const int64_t wanted = std::min<int64_t>({end - row, next_check - row, 4096});
        const size_t n = reader->ReadBatch(static_cast<size_t>(wanted), &batch);
        if (n == 0) break;
        const bool dense = max_def == 0 || batch.num_values == batch.num_levels;
        if (dense && mapping.kind == ValueKind::kInt64) {
          if (!builder.AddIntegers(row, batch.values<int64_t>(), batch.num_values)) return nullptr;
          row += static_cast<int64_t>(batch.num_levels);
          continue;
        }
        if (dense && mapping.kind == ValueKind::kInt32) {
          const int32_t* narrow = batch.values<int32_t>();
          widened.assign(narrow, narrow + batch.num_values);
          if (!builder.AddIntegers(row, widened.data(), widened.size())) return nullptr;
          row += static_cast<int64_t>(batch.num_levels);
          continue;
        }
        size_t value_index = 0;
        for (size_t slot = 0; slot < batch.num_levels; slot++, row++) {
          if (!dense && batch.def_levels[slot] != max_def) continue;
          SqlValue value;
          if (!BatchSqlValue(mapping, batch, value_index++, &buffer, &value)) return nullptr;
          if (!builder.Add(row, value)) return nullptr;
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
  for (auto& kept : slots_) {
    if (kept.second.signature != signature) kept.second.Release();  // the files changed
  }
  auto it = slots_.find(column);
  if (it != slots_.end() && it->second.signature == signature) {
    if (it->second.index || it->second.unusable || !may_build) return it->second.index;
  }
  if (!may_build) return nullptr;
  Slot& slot = slots_[column];
  slot.signature = std::move(signature);
  // The room left by the table's other indexes: those kept, and old ones a running
  // statement still holds. When this column's does not fit in it, the kept indexes no
  // statement is using are let go (a later lookup of their columns builds them again) and
  // the build is tried once more in the larger room.
  uint64_t held = HeldBytes();
  bool unreadable = false;
  slot.index = held < budget_bytes ? TryBuild(source, budget_bytes - held, &unreadable) : nullptr;
  if (!slot.index && !unreadable && ReleaseIdle(column)) {
    held = HeldBytes();
    if (held < budget_bytes) slot.index = TryBuild(source, budget_bytes - held, &unreadable);
  }
  // Not tried again while the files are unchanged when it cannot be had at all (a file
  // unreadable, or over the whole budget); over what other indexes left, a later statement
  // tries again.
  slot.unusable = !slot.index && (unreadable || held == 0);
  *built = slot.index != nullptr;
  return slot.index;
}

std::shared_ptr<JoinIndex> JoinIndexCache::TryBuild(const JoinIndexSource& source, uint64_t budget_bytes,
                                                    bool* unreadable) {
  try {
    return BuildJoinIndex(source, budget_bytes);
  } catch (const std::bad_alloc&) {
    return nullptr;
  } catch (const parquet::ParquetError&) {
    // A file the build cannot read (a corrupt chunk of the column, perhaps in a row group
    // or file the statement prunes): no index; the scans read what they need and report
    // what they cannot.
    *unreadable = true;
    return nullptr;
  }
}

uint64_t JoinIndexCache::HeldBytes() {
  uint64_t bytes = 0;
  for (auto& kept : slots_) {
    bytes += kept.second.ReleasedBytesHeld();
    if (kept.second.index) bytes += kept.second.index->bytes();
  }
  return bytes;
}

bool JoinIndexCache::ReleaseIdle(int column) {
  bool released = false;
  for (auto& kept : slots_) {
    if (kept.first == column || !kept.second.index || kept.second.index.use_count() > 1) continue;
    kept.second.Release();
    released = true;
  }
  return released;
}

void JoinIndexCache::Slot::Release() {
  if (index) released.push_back(index);
  index.reset();
  unusable = false;
}

uint64_t JoinIndexCache::Slot::ReleasedBytesHeld() {
  uint64_t bytes = 0;
  std::erase_if(released, [&bytes](const std::weak_ptr<JoinIndex>& old) {
    const std::shared_ptr<JoinIndex> held = old.lock();
    if (held) bytes += held->bytes();
    return !held;
  });
  return bytes;
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
