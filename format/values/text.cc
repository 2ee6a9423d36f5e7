// UTF-8 validation, decoding and encoding (text.h).
#include "format/values/text.h"

namespace parquet {

bool DecodeUtf8Character(const uint8_t* data, size_t size, uint32_t* code_point, size_t* length) {
  if (size == 0) return false;
  const uint8_t lead = data[0];
  size_t n;
  uint32_t cp;
  if (lead < 0x80) {
    n = 1, cp = lead;
  } else if ((lead & 0xE0) == 0xC0) {
    n = 2, cp = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    n = 3, cp = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    n = 4, cp = lead & 0x07;
  } else {
    return false;
  }
  if (n > size) return false;
  for (size_t i = 1; i < n; i++) {
    if ((data[i] & 0xC0) != 0x80) return false;
    cp = (cp << 6) | (data[i] & 0x3F);
  }
  static constexpr uint32_t kSmallest[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kSmallest[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
  *code_point = cp;
  *length = n;
  return true;
}

bool IsValidUtf8(std::string_view bytes) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t i = 0;
  while (i < bytes.size()) {
    if (data[i] < 0x80) {  // the common case, without the call
      i++;
      continue;
    }
    uint32_t code_point;
    size_t length;
    if (!DecodeUtf8Character(data + i, bytes.size() - i, &code_point, &length)) return false;
    i += length;
  }
  return true;
}

std::string WithInvalidUtf8Replaced(std::string_view bytes) {
  if (IsValidUtf8(bytes)) return std::string(bytes);
  std::string out;
  size_t i = 0;
  while (i < bytes.size()) {
    uint32_t code_point = 0;
    size_t length = 0;
    if (DecodeUtf8Character(reinterpret_cast<const uint8_t*>(bytes.data()) + i, bytes.size() - i, &code_point, &length)) {
      out.append(bytes, i, length);
      i += length;
    } else {
      out += "\xEF\xBF\xBD";
      i++;
    }
  }
  return out;
}

void AppendUtf8(uint32_t code_point, std::string* out) {
  if (code_point < 0x80) {
    out->push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code_point >> 6)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else if (code_point < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (code_point >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (code_point >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
}

}  // namespace parquet
