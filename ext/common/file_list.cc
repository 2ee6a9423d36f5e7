// Path, directory and glob expansion for the metadata functions and datasets (see
// file_list.h for the rules).
#include "ext/common/file_list.h"

#include <algorithm>
#include <memory>
#include <set>
#include <tuple>
#include <utility>

#include "format/io/random_access_file.h"
#include "format/io/s3.h"
#include "format/platform/system.h"
#include "format/values/text.h"

namespace sqlite_parquet {

namespace {

namespace platform = parquet::platform;
using SystemKind = platform::SystemResult::Kind;

std::string Join(const std::string& directory, const std::string& name, char separator = '/') {
  if (directory.empty()) return name;
  if (std::string_view(platform::kPathSeparators).find(directory.back()) != std::string_view::npos ||
      directory.size() == platform::PathRootLength(directory)) {
    return directory + name;  // ends in a separator, or is a bare drive root like "C:"
  }
  return directory + separator + name;
}

// The directory to open for a joined path prefix ("" is the current directory).
std::string OpenName(const std::string& directory) { return directory.empty() ? "." : directory; }

bool EndsWithParquet(const std::string& name) {
  static constexpr std::string_view kSuffix = ".parquet";
  return name.size() >= kSuffix.size() && parquet::AsciiLowercase(name.substr(name.size() - kSuffix.size())) == kSuffix;
}

// The names in a directory (without "." and ".."), or an error. `missing_ok`: a directory
// that does not exist (or is not one) gives no names instead of an error.
std::vector<std::string> ListDirectory(const std::string& directory, bool missing_ok) {
  std::vector<std::string> names;
  const platform::SystemResult listed = platform::ListDirectory(OpenName(directory), &names);
  if (!listed.ok()) {
    if (missing_ok && (listed.kind == SystemKind::kNotFound || listed.kind == SystemKind::kNotDirectory)) return {};
    throw FileListError("cannot read directory '" + OpenName(directory) + "': " + listed.text);
  }
  std::sort(names.begin(), names.end());
  return names;
}

enum class EntryKind { kMissing, kFile, kDirectory };

// Follows symbolic links; a path that does not exist (a dangling or looping link included)
// is missing, one that cannot be looked at (permissions) an error.
EntryKind KindOf(const std::string& path, platform::FileStatus* st) {
  const platform::SystemResult found = platform::PathStatus(path, true, st);
  if (!found.ok()) {
    if (found.kind == SystemKind::kNotFound || found.kind == SystemKind::kNotDirectory ||
        found.kind == SystemKind::kUnresolvable) {
      return EntryKind::kMissing;
    }
    throw FileListError("cannot access '" + path + "': " + found.text);
  }
  return st->type == platform::FileType::kDirectory ? EntryKind::kDirectory : EntryKind::kFile;
}

void CollectParquetFiles(const std::string& directory, const platform::FileStatus& directory_stat,
                         std::set<platform::FileIdentity>* visited, std::vector<std::string>* out) {
  if (!visited->insert(directory_stat.identity).second) return;
  for (const std::string& name : ListDirectory(directory, false)) {
    if (name[0] == '.' || name[0] == '_') continue;
    const std::string path = Join(directory, name);
    platform::FileStatus st;
    switch (KindOf(path, &st)) {
      case EntryKind::kDirectory: CollectParquetFiles(path, st, visited, out); break;
      case EntryKind::kFile:
        if (EndsWithParquet(name)) out->push_back(path);
        break;
      case EntryKind::kMissing: break;
    }
  }
}

// Removes the backslash escapes of a segment without wildcards.
std::string Unescape(std::string_view segment) {
  std::string out;
  for (size_t i = 0; i < segment.size(); i++) {
    if (segment[i] == '\\' && i + 1 < segment.size()) i++;
    out += segment[i];
  }
  return out;
}

// Matches a bracket expression starting at pattern[p] == '['. Returns the index after the
// closing ']' and sets *matched, or returns 0 when there is no closing ']' (then '[' is an
// ordinary character).
size_t MatchBracket(std::string_view pattern, size_t p, char c, bool* matched) {
  size_t i = p + 1;
  bool negate = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
    negate = true;
    i++;
  }
  bool found = false;
  bool first = true;
  while (i < pattern.size() && (pattern[i] != ']' || first)) {
    first = false;
    unsigned char low = static_cast<unsigned char>(pattern[i]);
    if (low == '\\' && i + 1 < pattern.size()) low = static_cast<unsigned char>(pattern[++i]);
    i++;
    unsigned char high = low;
    if (i + 1 < pattern.size() && pattern[i] == '-' && pattern[i + 1] != ']') {
      high = static_cast<unsigned char>(pattern[i + 1]);
      if (high == '\\' && i + 2 < pattern.size()) {
        high = static_cast<unsigned char>(pattern[i + 2]);
        i++;
      }
      i += 2;
    }
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= low && u <= high) found = true;
  }
  if (i >= pattern.size()) return 0;
  *matched = found != negate;
  return i + 1;
}

struct Expander {
  std::vector<std::string> segments;
  // What follows each segment in the pattern ('/' after the last): a Windows pattern may use
  // '\\' or '/', and the matched paths keep the pattern's own separators.
  std::vector<char> separators;
  std::set<std::pair<platform::FileIdentity, size_t>> visited;  // (directory, segment) pairs already expanded
  std::vector<std::string> out;

  char SeparatorBefore(size_t index) const { return index == 0 ? '/' : separators[index - 1]; }

  // `path` matched segments[index]: a file when it is the last segment, else a directory
  // to expand the next segment below.
  void Match(const std::string& path, size_t index) {
    platform::FileStatus st;
    const EntryKind kind = KindOf(path, &st);
    if (index + 1 == segments.size()) {
      if (kind == EntryKind::kFile) out.push_back(path);
    } else if (kind == EntryKind::kDirectory) {
      Expand(path, index + 1);
    }
  }

  // Expands segments[index..] below `directory`, which is known to exist.
  void Expand(const std::string& directory, size_t index) {
    const std::string& segment = segments[index];
    const bool last = index + 1 == segments.size();
    if (segment == "**") {
      platform::FileStatus st;
      if (KindOf(OpenName(directory), &st) != EntryKind::kDirectory) return;
      if (!visited.insert({st.identity, index}).second) return;
      if (last) {
        // Every file below, at any depth.
        for (const std::string& name : ListDirectory(directory, true)) {
          if (name[0] == '.') continue;
          const std::string path = Join(directory, name, separators[index]);
          platform::FileStatus child;
          EntryKind kind = KindOf(path, &child);
          if (kind == EntryKind::kFile) out.push_back(path);
          if (kind == EntryKind::kDirectory) Expand(path, index);
        }
        return;
      }
      Expand(directory, index + 1);  // no directory at all
      for (const std::string& name : ListDirectory(directory, true)) {
        if (name[0] == '.') continue;
        const std::string path = Join(directory, name, separators[index]);
        platform::FileStatus child;
        if (KindOf(path, &child) == EntryKind::kDirectory) Expand(path, index);
      }
      return;
    }
    if (!HasGlobCharacters(segment)) {
      Match(Join(directory, Unescape(segment), SeparatorBefore(index)), index);
      return;
    }
    for (const std::string& name : ListDirectory(directory, true)) {
      if (!MatchGlobSegment(segment, name)) continue;
      Match(Join(directory, name, SeparatorBefore(index)), index);
    }
  }
};

}  // namespace

bool HasGlobCharacters(std::string_view path) {
  for (size_t i = 0; i < path.size(); i++) {
    if (path[i] == '\\' && !platform::kWindows) {  // a path separator on Windows, not an escape
      i++;
      continue;
    }
    if (path[i] == '*' || path[i] == '?' || path[i] == '[') return true;
  }
  return false;
}

bool MatchGlobSegment(std::string_view pattern, std::string_view name) {
  // A wildcard does not match a leading dot.
  if (!name.empty() && name[0] == '.') {
    const bool literal_dot = (!pattern.empty() && pattern[0] == '.') ||
                             (pattern.size() >= 2 && pattern[0] == '\\' && pattern[1] == '.');
    if (!literal_dot) return false;
  }
  size_t p = 0, n = 0;
  size_t star_p = std::string_view::npos, star_n = 0;  // backtrack point after the last '*'
  while (n < name.size()) {
    bool advanced = false;
    if (p < pattern.size()) {
      const char pc = pattern[p];
      if (pc == '*') {
        while (p < pattern.size() && pattern[p] == '*') p++;
        star_p = p;
        star_n = n;
        continue;
      }
      if (pc == '?') {
        p++;
        n++;
        advanced = true;
      } else if (pc == '[') {
        bool matched = false;
        const size_t next = MatchBracket(pattern, p, name[n], &matched);
        if (next == 0) {
          if (name[n] == '[') {
            p++;
            n++;
            advanced = true;
          }
        } else if (matched) {
          p = next;
          n++;
          advanced = true;
        }
      } else {
        char literal = pc;
        size_t width = 1;
        if (pc == '\\' && p + 1 < pattern.size()) {
          literal = pattern[p + 1];
          width = 2;
        }
        if (literal == name[n]) {
          p += width;
          n++;
          advanced = true;
        }
      }
    }
    if (advanced) continue;
    if (star_p == std::string_view::npos) return false;
    // Let the last '*' swallow one more character and retry.
    p = star_p;
    n = ++star_n;
  }
  while (p < pattern.size() && pattern[p] == '*') p++;
  return p == pattern.size();
}

std::vector<std::string> ExpandFilePath(const std::string& path) {
  if (path.empty()) throw FileListError("empty path");
  if (std::string error = parquet::PathNulByteError(path); !error.empty()) throw FileListError(error);
  platform::FileStatus st;
  const EntryKind kind = KindOf(path, &st);
  if (kind == EntryKind::kFile) return {path};
  if (kind == EntryKind::kDirectory) {
    std::set<platform::FileIdentity> visited;
    std::vector<std::string> files;
    CollectParquetFiles(path, st, &visited, &files);
    if (files.empty()) throw FileListError("no parquet files in directory '" + path + "'");
    std::sort(files.begin(), files.end());
    return files;
  }
  if (!HasGlobCharacters(path)) {
    const platform::SystemResult found = platform::PathStatus(path, true, &st);
    throw FileListError("cannot open '" + path + "': " + (found.ok() ? std::string("No such file or directory") : found.text));
  }

  Expander expander;
  const size_t root = platform::PathRootLength(path);
  std::string base = path.substr(0, root);
  size_t start = root;
  while (start <= path.size()) {
    size_t slash = path.find_first_of(platform::kPathSeparators, start);
    if (slash == std::string::npos) slash = path.size();
    if (slash > start) {
      expander.segments.push_back(path.substr(start, slash - start));
      expander.separators.push_back(slash < path.size() ? path[slash] : '/');
    }
    start = slash + 1;
  }
  if (!expander.segments.empty()) expander.Expand(base, 0);
  std::vector<std::string>& files = expander.out;
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  if (files.empty()) throw FileListError("no files match '" + path + "'");
  return files;
}

std::vector<std::string_view> PathSegments(std::string_view path) {
  std::vector<std::string_view> segments;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) segments.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return segments;
}

namespace {

// The key's literal start before its first wildcard, escapes removed.
std::string LiteralPrefix(std::string_view pattern) {
  std::string prefix;
  for (size_t i = 0; i < pattern.size(); i++) {
    if (pattern[i] == '\\' && i + 1 < pattern.size()) {
      prefix += pattern[++i];
      continue;
    }
    if (pattern[i] == '*' || pattern[i] == '?' || pattern[i] == '[') break;
    prefix += pattern[i];
  }
  return prefix;
}

}  // namespace

bool MatchGlobPath(std::string_view pattern, std::string_view path) {
  const std::vector<std::string_view> globs = PathSegments(pattern);
  // reached[p]: the segments so far can be matched by globs[0..p). A "**" at p reaches p + 1
  // without a segment and stays at p by taking one.
  std::vector<char> reached(globs.size() + 1, 0), next(globs.size() + 1, 0);
  auto through_double_stars = [&](std::vector<char>* states) {
    for (size_t p = 0; p < globs.size(); p++) {
      if ((*states)[p] && globs[p] == "**") (*states)[p + 1] = 1;
    }
  };
  reached[0] = 1;
  through_double_stars(&reached);
  for (std::string_view segment : PathSegments(path)) {
    std::fill(next.begin(), next.end(), 0);
    bool any = false;
    for (size_t p = 0; p < globs.size(); p++) {
      if (!reached[p]) continue;
      if (globs[p] == "**") {
        if (segment[0] != '.') next[p] = 1;
      } else if (MatchGlobSegment(globs[p], segment)) {
        next[p + 1] = 1;
      }
      any = any || next[p] || next[p + 1];
    }
    if (!any) return false;
    through_double_stars(&next);
    reached.swap(next);
  }
  return reached[globs.size()] != 0;
}

std::vector<std::string> ExpandRemotePath(const std::string& url, const parquet::RemoteOptions& options) {
  if (std::string error = parquet::PathNulByteError(url); !error.empty()) throw FileListError(error);
  if (!parquet::IsS3Url(url)) {
    // '?' starts the query string of an http(s) URL; only its path can hold a glob.
    const std::string path = url.substr(0, url.find_first_of("?#"));
    const bool directory = path.back() == '/';
    if (HasGlobCharacters(path) || directory) {
      throw FileListError("cannot expand '" + parquet::UrlForDisplay(url) + "': " +
                          (directory ? "a directory" : "a glob") +
                          " needs a listing of files, which a plain http(s) server does not give; name each "
                          "file, or use s3://");
    }
    return {url};
  }
  const bool directory = url.back() == '/';
  const parquet::S3Location location = parquet::ParseS3Url(url);
  if (!directory && !HasGlobCharacters(location.key)) {
    if (location.key.empty()) throw FileListError("'" + url + "' names a bucket: add a key, a prefix ending in '/' or a glob");
    return {url};
  }
  const std::string prefix = directory ? location.key : LiteralPrefix(location.key);
  const size_t prefix_segments = PathSegments(prefix).size();
  // Each key is matched as the listing is parsed: only matches are kept (s3.h's limits).
  parquet::S3ListOptions list;
  list.keep = [&](const std::string& key) {
    if (key.empty() || key.back() == '/') return false;  // "directory" placeholder objects
    if (!directory) return MatchGlobPath(location.key, key);
    if (!EndsWithParquet(key)) return false;
    const std::vector<std::string_view> segments = PathSegments(key);
    for (size_t i = prefix_segments; i < segments.size(); i++) {
      if (segments[i][0] == '.' || segments[i][0] == '_') return false;
    }
    return true;
  };
  std::vector<std::string> files;
  for (const parquet::S3Object& object : parquet::ListS3Objects(options, location.bucket, prefix, list)) {
    files.push_back("s3://" + location.bucket + "/" + object.key);
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  if (files.empty()) {
    throw FileListError(directory ? "no parquet files under '" + url + "'" : "no files match '" + url + "'");
  }
  return files;
}

bool PathNamesDataset(const std::string& path) {
  if (parquet::IsS3Url(path)) return HasGlobCharacters(path) || path.back() == '/';
  if (parquet::IsRemoteUrl(path)) {
    const std::string url_path = path.substr(0, path.find_first_of("?#"));
    return HasGlobCharacters(url_path) || url_path.back() == '/';
  }
  platform::FileStatus info;
  if (platform::PathStatus(path, true, &info).ok()) return info.type == platform::FileType::kDirectory;
  return HasGlobCharacters(path);
}

}  // namespace sqlite_parquet
