// Record assembly (Dremel): rebuilds the values of one top-level nested field, row by row,
// from the definition and repetition levels and the values of its leaf columns.
//
// A row comes out as a flat sequence of structural events in document order. A struct
// {a: list<int32>, m: map<string, bool>} holding a = [1, NULL] and m = {"k": true} gives
//
//   BeginStruct  BeginList(a) Value(a's element, #0) Null(a's element) EndList
//                BeginMap(m) Value(m's key, #0) Value(m's value, #0) EndMap  EndStruct
//
// Every event names its shape (nested_schema.h); Value events also carry the index of the
// value within the leaf's buffered values, read with values<T>(leaf). Inside a map the
// events alternate key, value (a map without a value field has key events only). The
// extension turns the events into JSON; format/ knows nothing of JSON or SQLite.
//
// Cost: every slot of every leaf is looked at a bounded number of times, so a row costs
// time proportional to its slots plus its events, whatever the depth or list lengths.
// Nothing recurses on the data: the walk keeps its own stack, bounded by the schema depth.
//
// Memory: each leaf keeps the slots of the current row plus the rest of the batch it was
// decoded in. Values of a row that spans batches (or pages) are copied out of the decoder's
// buffers before the next batch is read; otherwise values stay views into the page.
//
// Corrupt levels (a level above the column's maximum, leaves that disagree on the
// structure, a chunk that starts inside a row, more or fewer rows than the row group
// says) end in a ParquetError naming the file, column and row group.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "format/read/column_reader.h"
#include "format/read/file_reader.h"
#include "format/metadata/nested_schema.h"

namespace parquet {

enum class NestedEventKind : uint8_t {
  kNull,         // the shape is null (also a map value when the map has no value field)
  kValue,        // a leaf value: values<T>(leaf)[value]
  kBeginStruct,
  kEndStruct,
  kBeginList,
  kEndList,
  kBeginMap,
  kEndMap,
};

struct NestedEvent {
  NestedEventKind kind = NestedEventKind::kNull;
  int32_t shape = 0;   // index into NestedFieldShape::shapes
  uint32_t value = 0;  // kValue: index into the leaf's buffered values
};

class RecordAssembler {
 public:
  // Reads top-level field `field` of `file`; `batch_slots` is the size of the batches the
  // leaf columns are decoded in (small values are for tests). Call Reset before reading.
  RecordAssembler(const ParquetFileReader& file, int field, const ColumnReaderOptions& options = {},
                  size_t batch_slots = 2048);
  ~RecordAssembler();
  RecordAssembler(const RecordAssembler&) = delete;
  RecordAssembler& operator=(const RecordAssembler&) = delete;

  const NestedFieldShape& shape() const { return shape_; }

  // Moves to the first row of `row_group`.
  void Reset(int row_group);

  // Index (within the row group) of the row ReadRow assembles next.
  int64_t next_row() const { return next_row_; }
  int64_t rows_in_group() const { return rows_in_group_; }

  // Skips n rows; a row group with fewer rows left is an error.
  void SkipRows(int64_t n);

  // Assembles the next row into events(). Reading past the row group's last row is an error.
  void ReadRow();

  const std::vector<NestedEvent>& events() const { return events_; }

  // The buffered values of leaf `leaf` (0 = the field's first leaf column), valid until the
  // next ReadRow, SkipRows or Reset. T is the physical type's in-memory form
  // (physical_values.h): bool, int32_t, int64_t, Int96, float, double or ByteArray.
  template <typename T>
  const T* values(int leaf) const {
    return reinterpret_cast<const T*>(LeafValueData(leaf));
  }
  Type leaf_physical_type(int leaf) const;

  // "file 'f', column 'a.b', row group g, row r" for leaf `leaf` and the row ReadRow
  // assembled last (r counts from 0 within the row group), to start error messages.
  std::string DescribeRow(int leaf) const;

  // Sum of the leaf readers' counters.
  ColumnReadCounters counters() const;

 private:
  struct Leaf;

  const void* LeafValueData(int leaf) const;
  void EnsureRow(Leaf& leaf, bool last_row);
  void Refill(Leaf& leaf);
  void SkipLeafRows(Leaf& leaf, int64_t n);
  void Assemble();
  [[noreturn]] void Corrupt(const Leaf& leaf, const std::string& what) const;

  const ParquetFileReader& file_;
  ColumnReaderOptions options_;
  size_t batch_slots_;
  NestedFieldShape shape_;
  std::vector<std::unique_ptr<Leaf>> leaves_;
  std::vector<NestedEvent> events_;
  int row_group_ = -1;
  int64_t next_row_ = 0;
  int64_t rows_in_group_ = 0;

  // Walk stack of Assemble (kept to reuse its memory).
  struct Frame {
    int32_t shape;
    int32_t state;  // 0: not entered yet; k > 0: the next child to visit is k - 1
  };
  std::vector<Frame> stack_;
};

}  // namespace parquet
