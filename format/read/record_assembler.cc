// Record assembly from definition and repetition levels (see record_assembler.h).
//
// Each leaf column is a stream of slots (definition level, repetition level, value if
// defined). For one row, every leaf holds the slots from a repetition level 0 up to the
// next one. The walk goes down the shape tree with an explicit stack; at each shape the
// first leaf below it decides (from its next slot) whether the shape is null, an empty list
// or map, or present; a list or map goes on with a further element while its first leaf's
// next slot has the list's repetition level. The other leaves follow the same structure;
// they are checked against it as their slots are consumed:
//   * a slot's repetition level must be the one the walk expects (0 at the start of a row,
//     the list's level at the start of a further element, nothing else),
//   * a leaf of a null or empty shape must show the same definition level as the first
//     leaf, and a leaf below a present shape a level at least that shape's,
//   * at the end of a row every leaf must have used all its slots of the row.
#include "format/read/record_assembler.h"

#include <algorithm>
#include <cstring>

#include "format/common/error.h"
#include "format/common/levels.h"

namespace parquet {

namespace {

size_t ValueSize(Type type) {
  switch (type) {
    case Type::BOOLEAN: return sizeof(bool);
    case Type::INT32: return sizeof(int32_t);
    case Type::INT64: return sizeof(int64_t);
    case Type::INT96: return sizeof(Int96);
    case Type::FLOAT: return sizeof(float);
    case Type::DOUBLE: return sizeof(double);
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY: return sizeof(ByteArray);
  }
  return sizeof(ByteArray);
}

// Owned copies of byte-array values whose page buffer is about to go. Blocks never move,
// so the ByteArray views pointing into them stay valid until Clear.
class ByteArena {
 public:
  uint8_t* Allocate(size_t n) {
    if (n > capacity_ - used_) {
      size_t size = std::max(n, kBlockSize);
      blocks_.push_back(std::make_unique<uint8_t[]>(size));
      used_ = 0;
      capacity_ = size;
    }
    uint8_t* p = blocks_.back().get() + used_;
    used_ += n;
    return p;
  }
  void Clear() {
    blocks_.clear();
    used_ = capacity_ = 0;
  }

 private:
  static constexpr size_t kBlockSize = 64 * 1024;
  std::vector<std::unique_ptr<uint8_t[]>> blocks_;
  size_t used_ = 0;
  size_t capacity_ = 0;
};

}  // namespace

struct RecordAssembler::Leaf {
  int column = 0;  // index into Schema::columns()
  Type type = Type::INT32;
  size_t value_size = 0;
  int16_t max_def = 0;
  int16_t max_rep = 0;
  std::unique_ptr<ColumnChunkReader> reader;
  ColumnBatch batch;
  bool exhausted = false;

  // Buffered slots; [slot_pos, row_end) is what is left of the current row.
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  size_t slot_pos = 0;
  size_t row_end = 0;
  size_t scan_pos = 0;  // the search for the next row start resumes here

  // Buffered values (value_size bytes each); value_pos is the value of the slot at slot_pos
  // or the next defined one.
  std::vector<uint64_t> value_words;
  size_t value_count = 0;
  size_t value_pos = 0;
  size_t reader_backed_from = 0;  // byte-array values from here on point into the reader
  ByteArena arena;

  int pending_rep = 0;  // the repetition level the next consumed slot must have; -1: none

  uint8_t* value_bytes() { return reinterpret_cast<uint8_t*>(value_words.data()); }
};

RecordAssembler::RecordAssembler(const ParquetFileReader& file, int field, const ColumnReaderOptions& options,
                                 size_t batch_slots)
    : file_(file), options_(options), batch_slots_(std::max<size_t>(batch_slots, 1)) {
  shape_ = DescribeNestedField(file.schema(), field);
  for (int c = 0; c < shape_.column_count; c++) {
    auto leaf = std::make_unique<Leaf>();
    const ColumnDescriptor& column = file.schema().column(shape_.first_column + c);
    leaf->column = shape_.first_column + c;
    leaf->type = column.physical_type;
    leaf->value_size = ValueSize(column.physical_type);
    leaf->max_def = column.max_definition_level;
    leaf->max_rep = column.max_repetition_level;
    leaves_.push_back(std::move(leaf));
  }
}

RecordAssembler::~RecordAssembler() = default;

Type RecordAssembler::leaf_physical_type(int leaf) const { return leaves_[static_cast<size_t>(leaf)]->type; }

const void* RecordAssembler::LeafValueData(int leaf) const {
  return leaves_[static_cast<size_t>(leaf)]->value_words.data();
}

ColumnReadCounters RecordAssembler::counters() const {
  ColumnReadCounters total;
  for (const auto& leaf : leaves_) {
    if (!leaf->reader) continue;
    total.pages_read += leaf->reader->counters().pages_read;
    total.pages_skipped += leaf->reader->counters().pages_skipped;
    total.bytes_read += leaf->reader->counters().bytes_read;
    total.dictionary_pages_read += leaf->reader->counters().dictionary_pages_read;
  }
  return total;
}

void RecordAssembler::Corrupt(const Leaf& leaf, const std::string& what) const {
  throw ParquetError(file_.Describe(row_group_, leaf.column) + ", row " + std::to_string(next_row_) +
                     ": corrupt nested data: " + what);
}

std::string RecordAssembler::DescribeRow(int leaf) const {
  return file_.Describe(row_group_, shape_.first_column + leaf) + ", row " + std::to_string(next_row_ - 1);
}

void RecordAssembler::Reset(int row_group) {
  row_group_ = row_group;
  rows_in_group_ = file_.row_group_num_rows(row_group);
  next_row_ = 0;
  for (auto& leaf : leaves_) {
    if (!leaf->reader) {
      leaf->reader = ColumnChunkReader::Make(file_, row_group, leaf->column, options_);
    } else {
      leaf->reader->Reset(row_group);
    }
    leaf->exhausted = false;
    leaf->def.clear();
    leaf->rep.clear();
    leaf->slot_pos = leaf->row_end = leaf->scan_pos = 0;
    leaf->value_count = leaf->value_pos = leaf->reader_backed_from = 0;
    leaf->arena.Clear();
  }
}

// Appends the next batch of the leaf's column to its buffers.
void RecordAssembler::Refill(Leaf& leaf) {
  // The decoder's buffers are reused by the next batch: copy the byte-array values still
  // needed (the current row's) out of them first.
  if (leaf.type == Type::BYTE_ARRAY || leaf.type == Type::FIXED_LEN_BYTE_ARRAY) {
    if (leaf.value_pos >= leaf.reader_backed_from) leaf.arena.Clear();  // no needed value lives there
    ByteArray* values = reinterpret_cast<ByteArray*>(leaf.value_bytes());
    for (size_t i = std::max(leaf.value_pos, leaf.reader_backed_from); i < leaf.value_count; i++) {
      if (values[i].len == 0) continue;
      uint8_t* copy = leaf.arena.Allocate(values[i].len);
      std::memcpy(copy, values[i].ptr, values[i].len);
      values[i].ptr = copy;
    }
    leaf.reader_backed_from = leaf.value_count;
  }
  // Drop what has been consumed once it is at least half of the buffer (amortized O(1)).
  if (leaf.slot_pos > 0 && leaf.slot_pos * 2 >= leaf.def.size()) {
    const size_t shift = leaf.slot_pos;
    leaf.def.erase(leaf.def.begin(), leaf.def.begin() + static_cast<ptrdiff_t>(shift));
    leaf.rep.erase(leaf.rep.begin(), leaf.rep.begin() + static_cast<ptrdiff_t>(shift));
    leaf.slot_pos = 0;
    leaf.row_end = leaf.row_end >= shift ? leaf.row_end - shift : 0;
    leaf.scan_pos = leaf.scan_pos >= shift ? leaf.scan_pos - shift : 0;
    const size_t value_shift = leaf.value_pos;
    if (value_shift > 0) {
      std::memmove(leaf.value_bytes(), leaf.value_bytes() + value_shift * leaf.value_size,
                   (leaf.value_count - value_shift) * leaf.value_size);
      leaf.value_count -= value_shift;
      leaf.value_pos = 0;
      leaf.reader_backed_from = leaf.reader_backed_from >= value_shift ? leaf.reader_backed_from - value_shift : 0;
    }
  }

  size_t n = leaf.reader->ReadBatch(batch_slots_, &leaf.batch);
  if (n == 0) {
    leaf.exhausted = true;
    return;
  }
  const size_t old_size = leaf.def.size();
  leaf.def.resize(old_size + n);
  leaf.rep.resize(old_size + n);
  if (leaf.max_def > 0) {
    std::memcpy(leaf.def.data() + old_size, leaf.batch.def_levels.data(), n * sizeof(int16_t));
  } else {
    std::fill(leaf.def.begin() + static_cast<ptrdiff_t>(old_size), leaf.def.end(), int16_t{0});
  }
  if (leaf.max_rep > 0) {
    std::memcpy(leaf.rep.data() + old_size, leaf.batch.rep_levels.data(), n * sizeof(int16_t));
  } else {
    std::fill(leaf.rep.begin() + static_cast<ptrdiff_t>(old_size), leaf.rep.end(), int16_t{0});
  }
  int16_t highest_def = 0, highest_rep = 0;
  for (size_t i = old_size; i < old_size + n; i++) {
    highest_def = std::max(highest_def, leaf.def[i]);
    highest_rep = std::max(highest_rep, leaf.rep[i]);
  }
  if (highest_def > leaf.max_def) {
    Corrupt(leaf, "definition level " + std::to_string(highest_def) + " exceeds the column's maximum " +
                      std::to_string(leaf.max_def));
  }
  if (highest_rep > leaf.max_rep) {
    Corrupt(leaf, "repetition level " + std::to_string(highest_rep) + " exceeds the column's maximum " +
                      std::to_string(leaf.max_rep));
  }
  const size_t values = leaf.batch.num_values;
  const size_t bytes_needed = (leaf.value_count + values) * leaf.value_size;
  if (leaf.value_words.size() * sizeof(uint64_t) < bytes_needed) {
    leaf.value_words.resize(std::max(leaf.value_words.size() * 2, (bytes_needed + 7) / 8));
  }
  if (values > 0) {
    std::memcpy(leaf.value_bytes() + leaf.value_count * leaf.value_size, leaf.batch.values<uint8_t>(),
                values * leaf.value_size);
  }
  leaf.value_count += values;
}

// Makes [slot_pos, row_end) the complete current row of the leaf.
void RecordAssembler::EnsureRow(Leaf& leaf, bool last_row) {
  while (leaf.slot_pos >= leaf.def.size()) {
    if (leaf.exhausted) {
      Corrupt(leaf, "the column ends after " + std::to_string(next_row_) + " rows but the row group has " +
                        std::to_string(rows_in_group_));
    }
    Refill(leaf);
  }
  if (leaf.rep[leaf.slot_pos] != 0) {
    Corrupt(leaf, "the row starts with repetition level " + std::to_string(leaf.rep[leaf.slot_pos]) +
                      " instead of 0");
  }
  leaf.scan_pos = std::max(leaf.scan_pos, leaf.slot_pos + 1);
  while (true) {
    size_t j = leaf.scan_pos;
    const size_t size = leaf.rep.size();
    const int16_t* rep = leaf.rep.data();
    while (j < size && rep[j] != 0) j++;
    leaf.scan_pos = j;
    if (j < size || leaf.exhausted) break;
    Refill(leaf);
  }
  leaf.row_end = leaf.scan_pos;
  if (last_row && leaf.row_end < leaf.rep.size()) {
    Corrupt(leaf, "the column holds more rows than the row group's " + std::to_string(rows_in_group_));
  }
}

void RecordAssembler::SkipLeafRows(Leaf& leaf, int64_t n) {
  size_t starts_needed;  // row starts to pass in the reader (stopping before the last one)
  if (leaf.slot_pos < leaf.rep.size()) {
    int64_t left = n;
    for (size_t j = leaf.slot_pos + 1; j < leaf.rep.size(); j++) {
      if (leaf.rep[j] == 0 && --left == 0) {
        leaf.value_pos += CountDefinedLevels(leaf.def.data() + leaf.slot_pos, j - leaf.slot_pos, leaf.max_def);
        leaf.slot_pos = leaf.scan_pos = leaf.row_end = j;
        return;
      }
    }
    starts_needed = static_cast<size_t>(left);
  } else {
    starts_needed = static_cast<size_t>(n) + 1;
  }
  leaf.def.clear();
  leaf.rep.clear();
  leaf.slot_pos = leaf.row_end = leaf.scan_pos = 0;
  leaf.value_count = leaf.value_pos = leaf.reader_backed_from = 0;
  leaf.arena.Clear();
  size_t found = leaf.exhausted ? 0 : leaf.reader->SkipToRowStart(starts_needed);
  if (found < starts_needed) {
    leaf.exhausted = true;
    if (found + 1 == starts_needed && next_row_ + n == rows_in_group_) return;  // skipped to the very end
    Corrupt(leaf, "the column ends before row " + std::to_string(next_row_ + n) + " of the row group's " +
                      std::to_string(rows_in_group_));
  }
}

void RecordAssembler::SkipRows(int64_t n) {
  if (n <= 0) return;
  if (next_row_ + n > rows_in_group_) {
    throw ParquetError(file_.Describe(row_group_, shape_.first_column) + ": cannot skip to row " +
                       std::to_string(next_row_ + n) + " of a row group of " + std::to_string(rows_in_group_));
  }
  for (auto& leaf : leaves_) SkipLeafRows(*leaf, n);
  next_row_ += n;
}

void RecordAssembler::ReadRow() {
  if (next_row_ >= rows_in_group_) {
    throw ParquetError(file_.Describe(row_group_, shape_.first_column) + ": no row " + std::to_string(next_row_) +
                       " in a row group of " + std::to_string(rows_in_group_));
  }
  const bool last_row = next_row_ + 1 == rows_in_group_;
  for (auto& leaf : leaves_) {
    EnsureRow(*leaf, last_row);
    leaf->pending_rep = 0;
  }
  events_.clear();
  Assemble();
  for (auto& leaf : leaves_) {
    if (leaf->slot_pos != leaf->row_end) {
      Corrupt(*leaf, "repetition levels disagree with the other columns of the field (" +
                         std::to_string(leaf->row_end - leaf->slot_pos) + " slots of the row left over)");
    }
  }
  next_row_++;
}

void RecordAssembler::Assemble() {
  const std::vector<Shape>& shapes = shape_.shapes;
  auto emit = [this](NestedEventKind kind, int shape, uint32_t value = 0) {
    events_.push_back(NestedEvent{kind, static_cast<int32_t>(shape), value});
  };
  // Consumes the leaf's next slot of the row, checking its repetition level.
  auto take_slot = [this](Leaf& leaf) -> int16_t {
    if (leaf.slot_pos >= leaf.row_end) {
      Corrupt(leaf, "the column has fewer slots in the row than its structure needs");
    }
    const int16_t rep = leaf.rep[leaf.slot_pos];
    if (rep != leaf.pending_rep) {
      Corrupt(leaf, "repetition level " + std::to_string(rep) + " where " +
                        (leaf.pending_rep < 0 ? std::string("no further slot")
                                              : "level " + std::to_string(leaf.pending_rep)) +
                        " belongs");
    }
    leaf.pending_rep = -1;
    return leaf.def[leaf.slot_pos++];
  };
  // A null shape, or an empty list or map: every leaf below has one slot at level `def`.
  auto skip_instance = [&](const Shape& s, int16_t def) {
    for (int i = 0; i < s.leaf_count; i++) {
      Leaf& leaf = *leaves_[static_cast<size_t>(s.first_leaf + i)];
      int16_t d = take_slot(leaf);
      if (d != def) {
        Corrupt(leaf, "definition level " + std::to_string(d) + " where the field's other columns have " +
                          std::to_string(def));
      }
    }
  };
  // The lowest definition level a leaf below a shape can have while its parent is present.
  auto parent_floor = [&](const Shape& s) -> int16_t {
    if (s.parent < 0) return 0;
    const Shape& parent = shapes[static_cast<size_t>(s.parent)];
    return parent.kind == ShapeKind::kStruct ? parent.def_level : parent.element_def_level;
  };

  // Frame.state: 0 = not entered; k > 0 = the next child to visit is k - 1.
  stack_.clear();
  stack_.push_back({0, 0});
  while (!stack_.empty()) {
    const int32_t index = stack_.back().shape;
    const Shape& s = shapes[static_cast<size_t>(index)];
    if (stack_.back().state == 0) {
      if (s.kind == ShapeKind::kEmpty) {
        emit(NestedEventKind::kNull, index);
        stack_.pop_back();
        continue;
      }
      Leaf& first = *leaves_[static_cast<size_t>(s.first_leaf)];
      if (first.slot_pos >= first.row_end) {
        Corrupt(first, "the column has fewer slots in the row than its structure needs");
      }
      const int16_t def = first.def[first.slot_pos];
      if (def < parent_floor(s)) {
        Corrupt(first, "definition level " + std::to_string(def) +
                           " contradicts the structure the field's other columns give");
      }
      if (def < s.def_level) {
        emit(NestedEventKind::kNull, index);
        skip_instance(s, def);
        stack_.pop_back();
        continue;
      }
      switch (s.kind) {
        case ShapeKind::kValue:
          take_slot(first);
          emit(NestedEventKind::kValue, index, static_cast<uint32_t>(first.value_pos++));
          stack_.pop_back();
          continue;
        case ShapeKind::kStruct:
          emit(NestedEventKind::kBeginStruct, index);
          break;
        case ShapeKind::kList:
        case ShapeKind::kMap: {
          const bool is_list = s.kind == ShapeKind::kList;
          emit(is_list ? NestedEventKind::kBeginList : NestedEventKind::kBeginMap, index);
          if (def < s.element_def_level) {
            skip_instance(s, def);
            emit(is_list ? NestedEventKind::kEndList : NestedEventKind::kEndMap, index);
            stack_.pop_back();
            continue;
          }
          break;
        }
        case ShapeKind::kEmpty:
          break;
      }
      stack_.back().state = 1;
    }
    // A struct, list or map in progress.
    const size_t next_child = static_cast<size_t>(stack_.back().state - 1);
    if (next_child < s.children.size()) {
      stack_.back().state++;
      stack_.push_back({s.children[next_child], 0});
      continue;
    }
    if (s.kind == ShapeKind::kStruct) {
      emit(NestedEventKind::kEndStruct, index);
      stack_.pop_back();
      continue;
    }
    // The element is complete: does the list go on?
    Leaf& first = *leaves_[static_cast<size_t>(s.first_leaf)];
    if (first.slot_pos < first.row_end && first.rep[first.slot_pos] == s.rep_level) {
      for (int i = 0; i < s.leaf_count; i++) leaves_[static_cast<size_t>(s.first_leaf + i)]->pending_rep = s.rep_level;
      stack_.back().state = 1;
      continue;
    }
    emit(s.kind == ShapeKind::kList ? NestedEventKind::kEndList : NestedEventKind::kEndMap, index);
    stack_.pop_back();
  }
}

}  // namespace parquet
