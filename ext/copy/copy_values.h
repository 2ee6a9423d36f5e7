// Values of parquet_copy on their way from SQLite to Parquet: the row-group buffer that
// holds a result column's values as SQLite gave them (ValueColumn), and their conversion to
// the typed level/value buffers the Parquet writer takes (ConvertColumn), with the checks
// that reject values which do not fit the column's type. Pure C++ (no sqlite3.h): the
// caller copies each sqlite3_value in with the Append* functions.
//
// Conversions (a value that fits none of them is a type error):
//   integers    INTEGER in range; REAL with an integral value in range (UINT64: the REAL
//               2^64, which is how the parquet table reads values near UINT64_MAX, is UINT64_MAX)
//   BOOLEAN     INTEGER or REAL 0 / 1
//   FLOAT, DOUBLE, FLOAT16   INTEGER or REAL; finite values beyond the type's range fail
//   STRING, ENUM, JSON       TEXT; INTEGER and REAL as their text; BLOB holding valid UTF-8
//   BINARY      BLOB or TEXT bytes; INTEGER and REAL as their text
//   FIXED(n)    BLOB or TEXT of exactly n bytes
//   UUID        TEXT xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (or 32 hex digits, any case);
//               BLOB of 16 bytes
//   DECIMAL(p,s) TEXT decimal number (exact: no digits may be lost); INTEGER; REAL rounded
//               to s fraction digits (half to even on the double's exact value); at most p digits
//   DATE        TEXT YYYY-MM-DD (or a timestamp at midnight); INTEGER Unix seconds at
//               midnight; REAL Julian day number of a midnight
//   TIME(u)     TEXT HH:MM[:SS[.fraction]]; INTEGER or REAL seconds since midnight
//   TIMESTAMP(u) TEXT as SQLite's date functions write it (optional 'T', fraction, 'Z' or
//               +HH:MM); INTEGER Unix seconds; REAL Julian day number (to the millisecond,
//               as SQLite's julianday())
//   LIST, MAP, STRUCT  TEXT (or BLOB) holding JSON: an array for LIST; for MAP an object
//               (keys converted to the key type) or an array of {"key": k, "value": v}
//               objects (the parquet table's form for maps with non-text keys); an object
//               for STRUCT (fields by name, case-sensitive first, then ignoring case;
//               missing fields are NULL, unknown ones an error). JSON null is NULL,
//               true/false are 1/0, numbers INTEGER or REAL, strings TEXT; an array or
//               object in a STRING or BINARY leaf is its JSON text, and a JSON leaf holds
//               the element's JSON text whatever its kind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ext/common/sql_value.h"
#include "ext/copy/copy_schema.h"
#include "format/values/logical_values.h"
#include "format/common/physical_values.h"

namespace sqlite_parquet {

// Bytes with stable addresses: appended data never moves until Clear. Memory comes in
// blocks of at least 16 KiB, so small values cost no allocation of their own.
class ByteArena {
 public:
  uint8_t* Allocate(size_t size) {
    if (size <= left_in_block_ && next_ != nullptr) {  // the common case inline
      uint8_t* result = next_;
      next_ += size;
      left_in_block_ -= size;
      used_total_ += size;
      return result;
    }
    return AllocateInNewBlock(size);
  }
  const uint8_t* Append(const void* data, size_t size) {
    uint8_t* target = Allocate(size);
    CopyBytes(target, static_cast<const uint8_t*>(data), size);
    return target;
  }
  // Forgets the contents; keeps up to 16 blocks of the standard size for reuse (a batch of
  // parquet_copy's rows then costs no allocation).
  void Clear();
  // Bytes handed out since the last Clear.
  size_t bytes_used() const { return used_total_; }

 private:
  struct Block {
    std::unique_ptr<uint8_t[]> data;
    size_t size = 0;
  };
  uint8_t* AllocateInNewBlock(size_t size);
  // memcpy with the short sizes of typical text cells inline: two fixed-size copies that
  // overlap in the middle (no library call, no byte loop; nothing outside either range
  // is read or written).
  static void CopyBytes(uint8_t* target, const uint8_t* source, size_t size) {
    if (size > 32) {
      CopyLongBytes(target, source, size);
    } else if (size >= 16) {
      CopyFixed<16>(target, source, size);
    } else if (size >= 8) {
      CopyFixed<8>(target, source, size);
    } else if (size >= 4) {
      CopyFixed<4>(target, source, size);
    } else if (size > 0) {
      target[0] = source[0];
      target[size / 2] = source[size / 2];
      target[size - 1] = source[size - 1];
    }
  }
  // memcpy, out of line (inlined, it had GCC warn about callers' short arrays).
  [[gnu::noinline]] static void CopyLongBytes(uint8_t* target, const uint8_t* source, size_t size);
  // size in [n, 2n]: the first n bytes and the last n.
  template <size_t n>
  static void CopyFixed(uint8_t* target, const uint8_t* source, size_t size) {
    uint8_t head[n];
    uint8_t tail[n];
    std::memcpy(head, source, n);
    std::memcpy(tail, source + size - n, n);
    std::memcpy(target, head, n);
    std::memcpy(target + size - n, tail, n);
  }

  std::vector<Block> blocks_;
  size_t current_ = 0;       // block being filled (blocks after it are free for reuse)
  uint8_t* next_ = nullptr;  // free space of blocks_[current_]
  size_t left_in_block_ = 0;
  size_t used_total_ = 0;
};

// The values of one result column in the open row group, in row order.
class ValueColumn {
 public:
  void AppendNull();
  void AppendInteger(int64_t value);
  void AppendReal(double value);
  void AppendText(const void* data, size_t size);
  void AppendBlob(const void* data, size_t size);
  void Append(const SqlValue& value);  // by its type, one of the above

  size_t size() const { return types_.size(); }
  // Approximate memory the buffered values take.
  size_t memory_bytes() const { return types_.size() * 9 + lengths_.size() * 4 + arena_.bytes_used(); }
  // kSeen* bits (copy_schema.h) of the classes of the non-NULL values since the last Clear.
  unsigned seen() const { return seen_; }
  void Clear();

  // Reads the values in order.
  class Reader {
   public:
    explicit Reader(const ValueColumn& column) : column_(column) {}
    SqlValue Next();
   private:
    const ValueColumn& column_;
    size_t row_ = 0;
    size_t bytes_index_ = 0;
  };

 private:
  union Payload {
    int64_t integer;
    double real;
    const uint8_t* bytes;
  };
  void AppendBytes(SqlValue::Type type, const void* data, size_t size);

  std::vector<SqlValue::Type> types_;
  std::vector<Payload> payloads_;
  std::vector<uint32_t> lengths_;  // of the TEXT and BLOB values, in order
  ByteArena arena_;
  unsigned seen_ = 0;
};

// Levels and values of one leaf column for one row group, ready for
// ParquetFileWriter::WriteBatch. Only the vector of the leaf's physical type is used.
struct LeafData {
  int16_t max_definition_level = 1;
  int16_t max_repetition_level = 0;
  parquet::Type physical_type = parquet::Type::BYTE_ARRAY;

  // The definition levels. parquet_copy's per-cell path counts the non-NULL cells of a flat
  // leaf (max_definition_level 1) with CountDefined instead of appending a level per cell;
  // every way to the levels below appends those pending 1s first, so none can be missed.
  std::vector<int16_t>& def_levels() {
    FlushPendingLevels();
    return def_levels_;
  }
  const std::vector<int16_t>& def_levels() const {
    FlushPendingLevels();
    return def_levels_;
  }
  void AppendLevel(int16_t level) { def_levels().push_back(level); }
  void CountDefined() { ++pending_defined_; }  // a level 1, appended when the levels are next used
  std::vector<int16_t> rep_levels;  // filled only when max_repetition_level > 0
  std::vector<int32_t> int32s;
  std::vector<int64_t> int64s;
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<parquet::ByteArray> byte_arrays;  // point into a ValueColumn or into `arena`
  ByteArena arena;

  const bool* bools() const { return bools_.get(); }
  size_t num_bools() const { return num_bools_; }
  void AppendBool(bool value);
  void TruncateBools(size_t count);  // keeps the first `count`

  size_t num_values() const;
  void Clear();

 private:
  // Logically const: appending the counted levels does not change what the levels are.
  void FlushPendingLevels() const {
    if (pending_defined_ == 0) return;
    def_levels_.insert(def_levels_.end(), pending_defined_, int16_t{1});
    pending_defined_ = 0;
  }

  mutable std::vector<int16_t> def_levels_;
  mutable size_t pending_defined_ = 0;
  std::unique_ptr<bool[]> bools_;
  size_t num_bools_ = 0;
  size_t bool_capacity_ = 0;
};

// A value that does not fit its column.
struct ConversionFailure {
  size_t row = 0;       // index of the row within the ValueColumn
  std::string message;  // "cannot convert TEXT 'abc' to INT64"
};

// Prepares `leaves` (resized to LeafCount(type)) for the leaf columns of a top-level
// OPTIONAL field of `type`: levels, physical types; contents cleared.
void PrepareLeaves(const CopyType& type, std::vector<LeafData>* leaves);

// Converts every value of `column` and appends it to the leaves (prepared by PrepareLeaves).
// A value that does not fit becomes NULL when null_on_error, otherwise the conversion stops:
// false is returned with *failure set, and the leaves are then unspecified.
bool ConvertColumn(const CopyType& type, const ValueColumn& column, bool null_on_error,
                   std::vector<LeafData>* leaves, ConversionFailure* failure);

// Appends one value of a flat (not nested) column to its leaf, prepared by PrepareLeaves:
// definition level 1 and the converted value, or level 0 for NULL (and, when
// null_on_error, for a value that does not fit). The value's bytes are copied (they need
// not outlive the call). Without null_on_error a value that does not fit returns false
// with *message saying why ("cannot convert TEXT 'abc' to INT64"); the leaf is unchanged.
// The same conversions as ConvertColumn, one value at a time (parquet_copy converts
// each cell as it reads it once the column types are fixed).
bool AppendFlatValue(const CopyType& type, const SqlValue& value, bool null_on_error, LeafData* leaf,
                     std::string* message);

// shredding=auto: the shredding of a VARIANT column chosen (parquet::VariantShreddingChooser)
// from the JSON values of `samples` (values that are not JSON text are left out); nullopt
// when nothing qualifies.
std::optional<parquet::VariantShredding> ChooseVariantShredding(const std::vector<const ValueColumn*>& samples);

// parquet::ParseDate with a memory of the texts of exactly ten bytes ("YYYY-MM-DD") it
// parsed: a direct-mapped table of 4096 entries (64 KiB, allocated on first use) holding
// the text's bytes. Dates repeat (a few thousand distinct days in millions of rows), so
// most cells cost a hash and a compare instead of the calendar computation (parquet_copy
// of the bench's 6M rows: ParseDate was about 5% of the query thread's instructions).
class DateParseCache {
 public:
  bool Parse(std::string_view text, int32_t* days) {
    if (text.size() != 10) return parquet::ParseDate(text, days);
    uint64_t head = 0;
    uint16_t tail = 0;
    std::memcpy(&head, text.data(), sizeof head);
    std::memcpy(&tail, text.data() + sizeof head, sizeof tail);
    if (entries_ != nullptr) {
      const Entry& entry = entries_[Slot(head, tail)];
      if (entry.valid && entry.head == head && entry.tail == tail) {
        *days = entry.days;
        return true;
      }
    }
    return ParseAndKeep(text, head, tail, days);
  }

 private:
  static constexpr size_t kEntries = 4096;
  struct Entry {
    uint64_t head = 0;  // bytes 0..7 of the text
    int32_t days = 0;
    uint16_t tail = 0;  // bytes 8..9
    bool valid = false;
  };
  // From the digits of "YYYY-MM-DD": the year's last digit modulo 8, the month and the day,
  // so the days of any eight consecutive years have slots of their own (a multiplicative
  // hash of the bytes missed a quarter of the bench's lookups). Any text has some slot: the
  // entry's bytes decide.
  static size_t Slot(uint64_t head, uint16_t tail) {
    const uint64_t year = (head >> 24) & 7;                                // Y (4th)
    const uint64_t month = ((head >> 40) & 1) * 10 + ((head >> 48) & 15);  // MM
    const uint64_t day = (tail & 3u) * 10u + ((tail >> 8) & 15u);          // DD
    return static_cast<size_t>(((year << 9) | (month << 5) | day) & (kEntries - 1));
  }
  bool ParseAndKeep(std::string_view text, uint64_t head, uint16_t tail, int32_t* days);

  std::unique_ptr<Entry[]> entries_;
};

// A value for error messages, as SQLite's quote() would show it, shortened when long:
// 'it''s', X'00FF', 12, 1.5.
std::string QuoteValue(const SqlValue& value);

// Text of a REAL: the shortest form that reads back as the same double, with ".0" when it
// would otherwise look like an integer ("1.0", "0.1", "1.0e+20").
size_t FormatReal(double value, char* out);  // out: at least 32 characters

}  // namespace sqlite_parquet
