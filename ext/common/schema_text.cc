// Finding function calls in schema SQL text (see schema_text.h).
#include "ext/common/schema_text.h"

#include <cstddef>

namespace sqlite_parquet {

namespace {

// sqlite3IsIdChar: the bytes SQLite's tokenizer takes as part of an identifier.
bool IsIdentifierByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c >= 0x80;
}

unsigned char LowerAscii(unsigned char c) { return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c - 'A' + 'a') : c; }

// Whether the first byte at or after `at` that is not white space or inside a comment is
// '(' (an unterminated comment runs to the end).
bool OpeningParenthesisFollows(std::string_view sql, size_t at) {
  while (at < sql.size()) {
    const char c = sql[at];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r') {
      ++at;
    } else if (sql.compare(at, 2, "--") == 0) {
      const size_t end = sql.find('\n', at);
      if (end == std::string_view::npos) return false;
      at = end + 1;
    } else if (sql.compare(at, 2, "/*") == 0) {
      const size_t end = sql.find("*/", at + 2);
      if (end == std::string_view::npos) return false;
      at = end + 2;
    } else {
      return c == '(';
    }
  }
  return false;
}

char ClosingQuote(char opening) {
  switch (opening) {
    case '"': return '"';
    case '`': return '`';
    case '\'': return '\'';
    case '[': return ']';
    default: return 0;
  }
}

}  // namespace

bool CallsFunction(std::string_view sql, std::string_view name) {
  if (name.empty() || sql.size() < name.size()) return false;
  for (size_t start = 0; start + name.size() <= sql.size(); ++start) {
    const char before = start > 0 ? sql[start - 1] : ' ';
    if (IsIdentifierByte(static_cast<unsigned char>(before))) continue;
    size_t i = 0;
    while (i < name.size() && LowerAscii(static_cast<unsigned char>(sql[start + i])) == static_cast<unsigned char>(name[i])) ++i;
    if (i < name.size()) continue;
    const size_t end = start + name.size();
    // The bare name, or the name quoted on its own ("x", `x`, [x], 'x'): each tried, so that
    // a quote that ends an earlier token does not hide a bare name after it.
    if (end < sql.size() && IsIdentifierByte(static_cast<unsigned char>(sql[end]))) continue;
    if (OpeningParenthesisFollows(sql, end)) return true;
    const char closing = ClosingQuote(before);
    if (closing != 0 && end < sql.size() && sql[end] == closing && OpeningParenthesisFollows(sql, end + 1)) return true;
  }
  return false;
}

}  // namespace sqlite_parquet
