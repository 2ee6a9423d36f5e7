// The WKB walker of wkb.h.
#include "format/values/wkb.h"

#include <cstring>

namespace parquet {

namespace {

const char* const kTypeNames[] = {"", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString",
                                  "MultiPolygon", "GeometryCollection"};

class WkbWalker {
 public:
  WkbWalker(const uint8_t* bytes, size_t size, WkbSummary* out) : bytes_(bytes), size_(size), out_(out) {}

  bool Walk(std::string* error) {
    uint32_t code = 0;
    if (!Geometry(0, 0, &code)) {
      *error = error_;
      return false;
    }
    if (pos_ != size_) {
      *error = std::to_string(size_ - pos_) + " bytes after the geometry at byte " + std::to_string(pos_);
      return false;
    }
    out_->type_code = code;
    return true;
  }

 private:
  bool Fail(const std::string& message) {
    error_ = message;
    return false;
  }

  bool ReadByte(uint8_t* value) {
    if (pos_ >= size_) return false;
    *value = bytes_[pos_++];
    return true;
  }

  bool ReadUInt32(bool little, uint32_t* value) {
    if (size_ - pos_ < 4) return false;
    const uint8_t* p = bytes_ + pos_;
    *value = little ? (uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24)
                    : (uint32_t{p[3]} | uint32_t{p[2]} << 8 | uint32_t{p[1]} << 16 | uint32_t{p[0]} << 24);
    pos_ += 4;
    return true;
  }

  double ReadDouble(bool little) {  // the caller checked that 8 bytes are left
    uint64_t bits = 0;
    const uint8_t* p = bytes_ + pos_;
    for (int i = 0; i < 8; i++) bits |= uint64_t{p[little ? i : 7 - i]} << (8 * i);
    pos_ += 8;
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }

  // `count` points, each X, Y and (where the type has them) Z and M.
  bool Points(uint32_t count, bool little, bool has_z, bool has_m, const char* what) {
    const size_t per_point = 8 * (2 + (has_z ? 1 : 0) + (has_m ? 1 : 0));
    if (count > (size_ - pos_) / per_point) {
      return Fail(std::string("truncated ") + what + " at byte " + std::to_string(pos_));
    }
    for (uint32_t i = 0; i < count; i++) {
      const double x = ReadDouble(little), y = ReadDouble(little);
      const double z = has_z ? ReadDouble(little) : 0;
      const double m = has_m ? ReadDouble(little) : 0;
      // A point is skipped as a whole when X or Y is NaN (the empty point, Geospatial.md).
      if (x != x || y != y) continue;
      out_->x.Add(x);
      out_->y.Add(y);
      if (has_z) out_->z.Add(z);
      if (has_m) out_->m.Add(m);
    }
    return true;
  }

  // One geometry at pos_. `parent_dims`: the dimension thousands of the parent collection
  // (0 at the top), `required_base`: the base type a Multi* member must have (0: any).
  bool Geometry(int depth, uint32_t required_base, uint32_t* code_out, int parent_dims = -1) {
    if (depth > kMaxWkbDepth) return Fail("geometry nested deeper than " + std::to_string(kMaxWkbDepth) + " levels");
    const size_t start = pos_;
    uint8_t order = 0;
    if (!ReadByte(&order)) return Fail("truncated geometry at byte " + std::to_string(start));
    if (order > 1) return Fail("invalid byte order " + std::to_string(order) + " at byte " + std::to_string(start));
    const bool little = order == 1;
    uint32_t code = 0;
    if (!ReadUInt32(little, &code)) return Fail("truncated geometry type at byte " + std::to_string(start + 1));
    const uint32_t base = code % 1000, dims = code / 1000;
    if (base < 1 || base > 7 || dims > 3) return Fail("unknown geometry type " + std::to_string(code) + " at byte " + std::to_string(start));
    if (required_base != 0 && base != required_base) {
      return Fail(std::string(kTypeNames[base]) + " inside a " + kTypeNames[required_base + 3] + " at byte " +
                  std::to_string(start));
    }
    if (parent_dims >= 0 && static_cast<uint32_t>(parent_dims) != dims) {
      return Fail("member of other dimensions than its collection at byte " + std::to_string(start));
    }
    const bool has_z = dims == 1 || dims == 3, has_m = dims == 2 || dims == 3;
    *code_out = code;
    const char* name = kTypeNames[base];
    if (base == 1) return Points(1, little, has_z, has_m, name);
    uint32_t count = 0;
    if (!ReadUInt32(little, &count)) return Fail(std::string("truncated ") + name + " at byte " + std::to_string(pos_));
    if (base == 2) return Points(count, little, has_z, has_m, name);
    if (base == 3) {
      if (count > (size_ - pos_) / 4) return Fail(std::string("truncated Polygon at byte ") + std::to_string(pos_));
      for (uint32_t ring = 0; ring < count; ring++) {
        uint32_t points = 0;
        if (!ReadUInt32(little, &points)) return Fail("truncated Polygon ring at byte " + std::to_string(pos_));
        if (!Points(points, little, has_z, has_m, "Polygon ring")) return false;
      }
      return true;
    }
    // Multi* and collections: each member is a whole WKB geometry (at least 5 bytes).
    if (count > (size_ - pos_) / 5) return Fail(std::string("truncated ") + name + " at byte " + std::to_string(pos_));
    const uint32_t member_base = base == 7 ? 0 : base - 3;
    for (uint32_t i = 0; i < count; i++) {
      uint32_t member = 0;
      if (!Geometry(depth + 1, member_base, &member, static_cast<int>(dims))) return false;
    }
    return true;
  }

  const uint8_t* bytes_;
  size_t size_;
  size_t pos_ = 0;
  WkbSummary* out_;
  std::string error_;
};

}  // namespace

bool SummarizeWkb(const uint8_t* bytes, size_t size, WkbSummary* out, std::string* error) {
  *out = WkbSummary();
  if (size == 0) {
    *error = "empty value";
    return false;
  }
  WkbWalker walker(bytes, size, out);
  return walker.Walk(error);
}

std::string GeoParquetTypeName(uint32_t type_code) {
  const uint32_t base = type_code % 1000, dims = type_code / 1000;
  if (base < 1 || base > 7 || dims == 2 || dims == 3 || dims > 3) return std::string();
  return std::string(kTypeNames[base]) + (dims == 1 ? " Z" : "");
}

}  // namespace parquet
