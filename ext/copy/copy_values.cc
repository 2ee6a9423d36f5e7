// parquet_copy's value buffers (see copy_values.h): ByteArena, DateParseCache, ValueColumn,
// LeafData, and values quoted for error messages. The conversions into LeafData are in
// copy_scalar_values.cc and copy_nested_values.cc.
#include "ext/copy/copy_values.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "format/common/float_chars.h"
#include "format/values/logical_values.h"

namespace sqlite_parquet {

namespace {

constexpr size_t kArenaBlockSize = 16 * 1024;

}  // namespace

// ---- ByteArena ----

bool DateParseCache::ParseAndKeep(std::string_view text, uint64_t head, uint16_t tail, int32_t* days) {
  if (!parquet::ParseDate(text, days)) return false;
  if (entries_ == nullptr) entries_ = std::make_unique<Entry[]>(kEntries);
  Entry& entry = entries_[Slot(head, tail)];
  entry.head = head;
  entry.tail = tail;
  entry.days = *days;
  entry.valid = true;
  return true;
}

void ByteArena::CopyLongBytes(uint8_t* target, const uint8_t* source, size_t size) {
  std::memcpy(target, source, size);
}

uint8_t* ByteArena::AllocateInNewBlock(size_t size) {
  if (!blocks_.empty() && current_ + 1 < blocks_.size() && blocks_[current_ + 1].size >= size &&
      next_ != nullptr) {
    ++current_;  // a block kept by Clear
  } else if (blocks_.empty() || next_ != nullptr) {
    Block block;
    block.size = std::max(kArenaBlockSize, size);
    block.data.reset(new uint8_t[block.size]);  // not zero-filled
    const size_t position = blocks_.empty() ? 0 : current_ + 1;
    blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(position), std::move(block));
    current_ = position;
  } else if (blocks_[current_].size < size) {
    // After Clear, before anything was handed out: blocks_[0] is too small for this one.
    Block block;
    block.size = std::max(kArenaBlockSize, size);
    block.data.reset(new uint8_t[block.size]);
    blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(current_), std::move(block));
  }
  next_ = blocks_[current_].data.get() + size;
  left_in_block_ = blocks_[current_].size - size;
  used_total_ += size;
  return blocks_[current_].data.get();
}

void ByteArena::Clear() {
  constexpr size_t kKeptBlocks = 16;
  size_t kept = 0;
  for (Block& block : blocks_) {
    if (block.size == kArenaBlockSize && kept < kKeptBlocks) {
      if (&blocks_[kept] != &block) blocks_[kept] = std::move(block);
      ++kept;
    }
  }
  blocks_.resize(kept);
  current_ = 0;
  next_ = nullptr;  // blocks_[0], if any, is taken at the next allocation
  left_in_block_ = 0;
  used_total_ = 0;
}

// ---- ValueColumn ----

void ValueColumn::AppendNull() {
  types_.push_back(SqlValue::Type::kNull);
  payloads_.push_back(Payload{0});
}

void ValueColumn::AppendInteger(int64_t value) {
  types_.push_back(SqlValue::Type::kInteger);
  Payload payload;
  payload.integer = value;
  payloads_.push_back(payload);
  seen_ |= kSeenInteger;
}

void ValueColumn::AppendReal(double value) {
  types_.push_back(SqlValue::Type::kReal);
  Payload payload;
  payload.real = value;
  payloads_.push_back(payload);
  seen_ |= kSeenReal;
}

void ValueColumn::AppendBytes(SqlValue::Type type, const void* data, size_t size) {
  Payload payload;
  payload.bytes = size > 0 ? arena_.Append(data, size) : nullptr;
  types_.push_back(type);
  payloads_.push_back(payload);
  lengths_.push_back(static_cast<uint32_t>(size));
}

void ValueColumn::AppendText(const void* data, size_t size) {
  AppendBytes(SqlValue::Type::kText, data, size);
  seen_ |= kSeenText;
}

void ValueColumn::AppendBlob(const void* data, size_t size) {
  AppendBytes(SqlValue::Type::kBlob, data, size);
  seen_ |= kSeenBlob;
}

void ValueColumn::Append(const SqlValue& value) {
  switch (value.type) {
    case SqlValue::Type::kInteger: AppendInteger(value.integer); return;
    case SqlValue::Type::kReal: AppendReal(value.real); return;
    case SqlValue::Type::kText: AppendText(value.bytes.data(), value.bytes.size()); return;
    case SqlValue::Type::kBlob: AppendBlob(value.bytes.data(), value.bytes.size()); return;
    case SqlValue::Type::kNull: AppendNull(); return;
  }
}

void ValueColumn::Clear() {
  types_.clear();
  payloads_.clear();
  lengths_.clear();
  arena_.Clear();
  seen_ = 0;
}

SqlValue ValueColumn::Reader::Next() {
  SqlValue value;
  value.type = column_.types_[row_];
  const Payload& payload = column_.payloads_[row_];
  ++row_;
  switch (value.type) {
    case SqlValue::Type::kInteger: value.integer = payload.integer; break;
    case SqlValue::Type::kReal: value.real = payload.real; break;
    case SqlValue::Type::kText:
    case SqlValue::Type::kBlob: {
      const uint32_t length = column_.lengths_[bytes_index_++];
      value.bytes = length > 0 ? std::string_view(reinterpret_cast<const char*>(payload.bytes), length)
                               : std::string_view();
      break;
    }
    case SqlValue::Type::kNull: break;
  }
  return value;
}

// ---- LeafData ----

void LeafData::AppendBool(bool value) {
  if (num_bools_ == bool_capacity_) {
    const size_t capacity = std::max<size_t>(1024, bool_capacity_ * 2);
    auto grown = std::make_unique<bool[]>(capacity);
    if (num_bools_ > 0) std::copy(bools_.get(), bools_.get() + num_bools_, grown.get());
    bools_ = std::move(grown);
    bool_capacity_ = capacity;
  }
  bools_[num_bools_++] = value;
}

void LeafData::TruncateBools(size_t count) {
  if (count < num_bools_) num_bools_ = count;
}

size_t LeafData::num_values() const {
  switch (physical_type) {
    case parquet::Type::BOOLEAN: return num_bools_;
    case parquet::Type::INT32: return int32s.size();
    case parquet::Type::INT64: return int64s.size();
    case parquet::Type::FLOAT: return floats.size();
    case parquet::Type::DOUBLE: return doubles.size();
    default: return byte_arrays.size();
  }
}

void LeafData::Clear() {
  def_levels_.clear();
  pending_defined_ = 0;
  rep_levels.clear();
  int32s.clear();
  int64s.clear();
  floats.clear();
  doubles.clear();
  byte_arrays.clear();
  arena.Clear();
  num_bools_ = 0;
}

std::string QuoteValue(const SqlValue& value) {
  constexpr size_t kMaxTextShown = 60;
  constexpr size_t kMaxBlobShown = 32;
  switch (value.type) {
    case SqlValue::Type::kNull: return "NULL";
    case SqlValue::Type::kInteger: return std::to_string(value.integer);
    case SqlValue::Type::kReal: {
      char buffer[32];
      return std::string(buffer, FormatReal(value.real, buffer));
    }
    case SqlValue::Type::kText: {
      // Cut long text before kMaxTextShown bytes, never inside a UTF-8 sequence.
      size_t shown = value.bytes.size();
      if (shown > kMaxTextShown) {
        shown = kMaxTextShown;
        while (shown > 0 && (static_cast<unsigned char>(value.bytes[shown]) & 0xC0) == 0x80) --shown;
      }
      std::string quoted = "'";
      for (char c : value.bytes.substr(0, shown)) {
        quoted += c;
        if (c == '\'') quoted += '\'';
      }
      quoted += "'";
      if (shown < value.bytes.size()) quoted += "...";
      return quoted;
    }
    case SqlValue::Type::kBlob: {
      static constexpr char kHex[] = "0123456789ABCDEF";
      std::string quoted = "X'";
      const size_t shown = std::min(value.bytes.size(), kMaxBlobShown);
      for (size_t i = 0; i < shown; ++i) {
        const unsigned char c = static_cast<unsigned char>(value.bytes[i]);
        quoted += kHex[c >> 4];
        quoted += kHex[c & 15];
      }
      quoted += "'";
      if (value.bytes.size() > shown) quoted += "...";
      return quoted;
    }
  }
  return "NULL";
}

size_t FormatReal(double value, char* out) {
  if (std::isnan(value)) {
    std::memcpy(out, "NaN", 3);
    return 3;
  }
  if (std::isinf(value)) {
    if (value < 0) {
      std::memcpy(out, "-Inf", 4);
      return 4;
    }
    std::memcpy(out, "Inf", 3);
    return 3;
  }
  char digits[32];
  const size_t length = static_cast<size_t>(parquet::FloatToChars(digits, digits + sizeof(digits), value) - digits);
  const std::string_view text(digits, length);
  if (text.find('.') != std::string_view::npos) {
    std::memcpy(out, digits, length);
    return length;
  }
  // No '.': add ".0" before the exponent, or at the end.
  const size_t exponent = text.find('e');
  const size_t mantissa = exponent == std::string_view::npos ? length : exponent;
  std::memcpy(out, digits, mantissa);
  std::memcpy(out + mantissa, ".0", 2);
  std::memcpy(out + mantissa + 2, digits + mantissa, length - mantissa);
  return length + 2;
}

}  // namespace sqlite_parquet
