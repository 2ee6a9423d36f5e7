// The string rules of Windows paths (system.h): which paths name a device rather than a
// file, and how long a path's root is (C:\, \\server\share\, \\?\C:\). Pure string
// logic, compiled everywhere so the unit tests check it on Linux too.
#include <cstring>

#include "format/platform/system.h"

namespace parquet::platform {

namespace {

bool IsSeparator(char c) { return c == '\\' || c == '/'; }

char Upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

bool EqualsIgnoringCase(const std::string& a, const char* b) {
  if (a.size() != std::strlen(b)) return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (Upper(a[i]) != b[i]) return false;
  }
  return true;
}

// Whether a path component is a reserved device name: CON, PRN, AUX, NUL, COM0-9, LPT0-9,
// COM and LPT with a superscript 1, 2 or 3 (UTF-8), CONIN$, CONOUT$, whatever extension
// follows and with trailing spaces or dots ignored ("nul.parquet", "COM1 .txt" and "con."
// all name the device).
bool IsReservedName(const std::string& component) {
  std::string stem = component.substr(0, component.find_first_of(".:"));
  while (!stem.empty() && stem.back() == ' ') stem.pop_back();
  for (const char* name : {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}) {
    if (EqualsIgnoringCase(stem, name)) return true;
  }
  const bool com_or_lpt =
      stem.size() >= 4 && (EqualsIgnoringCase(stem.substr(0, 3), "COM") || EqualsIgnoringCase(stem.substr(0, 3), "LPT"));
  if (!com_or_lpt) return false;
  const std::string number = stem.substr(3);
  if (number.size() == 1) return number[0] >= '0' && number[0] <= '9';
  // U+00B9, U+00B2, U+00B3: Windows takes COM¹ like COM1.
  return number == "\xC2\xB9" || number == "\xC2\xB2" || number == "\xC2\xB3";
}

// \??\ (either separator): the NT object manager's prefix, which the Win32 path functions
// pass through as it is: \??\pipe\x, \??\GLOBALROOT\..., \??\UNC\host\share\....
bool HasNtPrefix(const std::string& path) {
  return path.size() >= 4 && IsSeparator(path[0]) && path[1] == '?' && path[2] == '?' && IsSeparator(path[3]);
}

}  // namespace

std::string WindowsDeviceNameError(const std::string& path) {
  if (HasNtPrefix(path)) return "'" + path + "' names a device or pipe, not a file (an NT path: \\??\\)";
  // \\.\anything and \\?\ paths other than \\?\X:\... and \\?\UNC\... are the device
  // namespace: named pipes (\\.\pipe\name), mailslots, physical drives, consoles.
  if (path.size() >= 4 && IsSeparator(path[0]) && IsSeparator(path[1]) && (path[2] == '.' || path[2] == '?') &&
      IsSeparator(path[3])) {
    const std::string rest = path.substr(4);
    const bool drive = rest.size() >= 2 && rest[1] == ':' && ((rest[0] >= 'A' && rest[0] <= 'Z') || (rest[0] >= 'a' && rest[0] <= 'z'));
    const bool unc = path[2] == '?' && rest.size() >= 4 && EqualsIgnoringCase(rest.substr(0, 3), "UNC") && IsSeparator(rest[3]);
    if (!(drive || unc)) return "'" + path + "' names a device or pipe, not a file";
    if (path[2] == '.' && unc) return "'" + path + "' names a device or pipe, not a file";
  }
  size_t start = path.find_last_of("\\/");
  start = start == std::string::npos ? 0 : start + 1;
  std::string last = path.substr(start);
  if (last.size() >= 2 && last[1] == ':' && start == 0) last = last.substr(2);  // "C:nul"
  if (IsReservedName(last)) return "'" + last + "' is a windows device name, not a file";
  return "";
}

bool IsWindowsNetworkPath(const std::string& path) {
  if (HasNtPrefix(path)) {  // \??\UNC\host\share
    return path.size() >= 8 && EqualsIgnoringCase(path.substr(4, 3), "UNC") && IsSeparator(path[7]);
  }
  if (path.size() < 2 || !IsSeparator(path[0]) || !IsSeparator(path[1])) return false;
  // \\.\ and \\?\ are the local device and long-path forms, but for their UNC\ (\\?\UNC\host).
  if (path.size() >= 4 && (path[2] == '.' || path[2] == '?') && IsSeparator(path[3])) {
    return path.size() >= 8 && EqualsIgnoringCase(path.substr(4, 3), "UNC") && IsSeparator(path[7]);
  }
  return true;  // \\server\share, //server/share, \\\share (any two separators)
}

std::string PortableFileNameError(const std::string& name) {
  if (name.empty() || name == "." || name == "..") return "not a file name";
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7F) return "holds a control character";
    if (c == '/' || c == '\\') return "holds a path separator ('/' or '\\')";
    if (c == ':') return "holds ':' (a drive or, on Windows, an alternate data stream)";
    if (std::strchr("<>\"|?*", c) != nullptr) return std::string("holds '") + static_cast<char>(c) + "', which Windows refuses in names";
  }
  if (name.back() == '.' || name.back() == ' ') return "ends with a dot or a space, which Windows drops";
  if (IsReservedName(name)) return "is a windows device name";
  return "";
}

size_t WindowsRootLength(const std::string& path) {
  const auto is_letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  // "C:\" or "C:" (drive-relative).
  if (path.size() >= 2 && is_letter(path[0]) && path[1] == ':') return path.size() >= 3 && IsSeparator(path[2]) ? 3 : 2;
  if (path.size() >= 2 && IsSeparator(path[0]) && IsSeparator(path[1])) {
    size_t start = 2;
    if (path.size() >= 4 && (path[2] == '?' || path[2] == '.') && IsSeparator(path[3])) {
      const std::string rest = path.substr(4);
      if (rest.size() >= 2 && is_letter(rest[0]) && rest[1] == ':') return rest.size() >= 3 && IsSeparator(rest[2]) ? 7 : 6;
      if (rest.size() >= 4 && EqualsIgnoringCase(rest.substr(0, 3), "UNC") && IsSeparator(rest[3])) {
        start = 8;
      } else {
        return 4;
      }
    }
    // \\server\share\: the server and share names are the root.
    size_t end = start;
    for (int part = 0; part < 2 && end < path.size(); part++) {
      while (end < path.size() && !IsSeparator(path[end])) end++;
      if (end < path.size()) end++;
    }
    return end;
  }
  return !path.empty() && IsSeparator(path[0]) ? 1 : 0;
}

size_t PathRootLength(const std::string& path) {
  if (kWindows) return WindowsRootLength(path);
  return !path.empty() && path[0] == '/' ? 1 : 0;
}

}  // namespace parquet::platform
