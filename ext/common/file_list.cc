// Path, directory and glob expansion for the metadata functions and datasets (see
// file_list.h for the rules).
#include "ext/common/file_list.h"

#include <algorithm>
#include <memory>
#include <set>
#include <tuple>
#include <utility>

#include "format/common/error.h"
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
std::vector<std::string> ReadDirectory(const std::string& directory, bool missing_ok, ListingCounts* counts) {
  std::vector<std::string> names;
  const platform::SystemResult listed = platform::ListDirectory(OpenName(directory), &names);
  if (!listed.ok()) {
    if (missing_ok && (listed.kind == SystemKind::kNotFound || listed.kind == SystemKind::kNotDirectory)) return {};
    throw FileListError("cannot read directory '" + OpenName(directory) + "': " + listed.text);
  }
  if (counts) {
    counts->requests++;
    counts->entries += names.size();
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The directory reads of one local expansion, through the listing's cache and counts, and
// its test of the directories it may skip.
class LocalLister {
 public:
  explicit LocalLister(const ListingOptions& options) : options_(options) {}

  std::vector<std::string> Names(const std::string& directory, bool missing_ok) const {
    if (options_.cache == nullptr) return ReadDirectory(directory, missing_ok, options_.counts);
    if (const DirectoryListings::Entry* kept = options_.cache->Find(directory)) return kept->names;
    DirectoryListings::Entry entry;
    entry.names = ReadDirectory(directory, missing_ok, options_.counts);
    return options_.cache->Put(directory, std::move(entry)).names;
  }

  bool Wanted(std::string_view directory_name) const {
    return !options_.wanted_directory || options_.wanted_directory(directory_name);
  }

 private:
  const ListingOptions& options_;
};

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

void CollectParquetFiles(const LocalLister& lister, const std::string& directory, const platform::FileStatus& directory_stat,
                         std::set<platform::FileIdentity>* visited, std::vector<std::string>* out) {
  if (!visited->insert(directory_stat.identity).second) return;
  for (const std::string& name : lister.Names(directory, false)) {
    if (name[0] == '.' || name[0] == '_') continue;
    const std::string path = Join(directory, name);
    platform::FileStatus st;
    switch (KindOf(path, &st)) {
      case EntryKind::kDirectory:
        if (lister.Wanted(name)) CollectParquetFiles(lister, path, st, visited, out);
        break;
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
  explicit Expander(const LocalLister& l) : lister(l) {}
  const LocalLister& lister;
  std::vector<std::string> segments;
  // What follows each segment in the pattern ('/' after the last): a Windows pattern may use
  // '\\' or '/', and the matched paths keep the pattern's own separators.
  std::vector<char> separators;
  std::set<std::pair<platform::FileIdentity, size_t>> visited;  // (directory, segment) pairs already expanded
  std::vector<std::string> out;

  char SeparatorBefore(size_t index) const { return index == 0 ? '/' : separators[index - 1]; }

  // `path` matched segments[index]: a file when it is the last segment, else a directory
  // to expand the next segment below.
  void Match(const std::string& path, std::string_view name, size_t index) {
    platform::FileStatus st;
    const EntryKind kind = KindOf(path, &st);
    if (index + 1 == segments.size()) {
      if (kind == EntryKind::kFile) out.push_back(path);
    } else if (kind == EntryKind::kDirectory && lister.Wanted(name)) {
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
        for (const std::string& name : lister.Names(directory, true)) {
          if (name[0] == '.') continue;
          const std::string path = Join(directory, name, separators[index]);
          platform::FileStatus child;
          EntryKind kind = KindOf(path, &child);
          if (kind == EntryKind::kFile) out.push_back(path);
          if (kind == EntryKind::kDirectory && lister.Wanted(name)) Expand(path, index);
        }
        return;
      }
      Expand(directory, index + 1);  // no directory at all
      for (const std::string& name : lister.Names(directory, true)) {
        if (name[0] == '.') continue;
        const std::string path = Join(directory, name, separators[index]);
        platform::FileStatus child;
        if (KindOf(path, &child) == EntryKind::kDirectory && lister.Wanted(name)) Expand(path, index);
      }
      return;
    }
    if (!HasGlobCharacters(segment)) {
      const std::string name = Unescape(segment);
      Match(Join(directory, name, SeparatorBefore(index)), name, index);
      return;
    }
    for (const std::string& name : lister.Names(directory, true)) {
      if (!MatchGlobSegment(segment, name)) continue;
      Match(Join(directory, name, SeparatorBefore(index)), name, index);
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

std::vector<std::string> ExpandFilePath(const std::string& path, const ListingOptions& listing) {
  if (path.empty()) throw FileListError("empty path");
  if (std::string error = parquet::PathNulByteError(path); !error.empty()) throw FileListError(error);
  const bool pruned = static_cast<bool>(listing.wanted_directory);
  const LocalLister lister(listing);
  platform::FileStatus st;
  const EntryKind kind = KindOf(path, &st);
  if (kind == EntryKind::kFile) return {path};
  if (kind == EntryKind::kDirectory) {
    std::set<platform::FileIdentity> visited;
    std::vector<std::string> files;
    CollectParquetFiles(lister, path, st, &visited, &files);
    if (files.empty() && !pruned) throw FileListError("no parquet files in directory '" + path + "'");
    std::sort(files.begin(), files.end());
    return files;
  }
  if (!HasGlobCharacters(path)) {
    const platform::SystemResult found = platform::PathStatus(path, true, &st);
    throw FileListError("cannot open '" + path + "': " + (found.ok() ? std::string("No such file or directory") : found.text));
  }

  Expander expander(lister);
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
  if (files.empty() && !pruned) throw FileListError("no files match '" + path + "'");
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

namespace {

// The glob states after matching `path`'s segments: states[p] when the segments can be
// matched by globs[0..p). A "**" at p reaches p + 1 without a segment and stays at p by
// taking one. Empty when no state is left.
std::vector<char> GlobStates(const std::vector<std::string_view>& globs, std::string_view path) {
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
    if (!any) return {};
    through_double_stars(&next);
    reached.swap(next);
  }
  return reached;
}

}  // namespace

bool MatchGlobPath(std::string_view pattern, std::string_view path) {
  const std::vector<std::string_view> globs = PathSegments(pattern);
  const std::vector<char> states = GlobStates(globs, path);
  return !states.empty() && states[globs.size()] != 0;
}

bool GlobMayMatchBelow(std::string_view pattern, std::string_view directory) {
  const std::vector<std::string_view> globs = PathSegments(pattern);
  const std::vector<char> states = GlobStates(globs, directory);
  // A path below has at least one more segment, which a glob not yet at its end can take.
  for (size_t p = 0; p < globs.size() && p < states.size(); p++) {
    if (states[p]) return true;
  }
  return false;
}

namespace {

bool HasHiddenSegmentBelow(std::string_view key, size_t first_segment) {
  const std::vector<std::string_view> segments = PathSegments(key);
  for (size_t i = first_segment; i < segments.size(); i++) {
    if (segments[i][0] == '.' || segments[i][0] == '_') return true;
  }
  return false;
}

// One expansion of an s3 glob or prefix: listed from its literal prefix, one listing of
// everything below it or, where ListingOptions::list_by_level asks, a directory at a time,
// skipping the directories ListingOptions::wanted_directory refuses.
class RemoteExpansion {
 public:
  RemoteExpansion(const parquet::RemoteOptions& options, const ListingOptions& listing, const parquet::S3Location& location,
                  bool directory)
      : options_(options), listing_(listing), location_(location), directory_(directory) {
    prefix_ = directory ? location.key : LiteralPrefix(location.key);
    // The segments of the directory the listing starts in (the prefix up to its last '/').
    prefix_segments_ = PathSegments(std::string_view(prefix_).substr(0, prefix_.rfind('/') + 1)).size();
  }

  std::vector<std::string> Run() {
    Expand(prefix_);
    return std::move(files_);
  }

 private:
  // Whether `key` is a file the argument names (the glob's or the directory's rules).
  bool Names(const std::string& key) const {
    if (key.empty() || key.back() == '/') return false;  // "directory" placeholder objects
    if (!directory_) return MatchGlobPath(location_.key, key);
    return EndsWithParquet(key) && !HasHiddenSegmentBelow(key, PathSegments(location_.key).size());
  }

  // Whether every directory segment of `key` (not its last, the file name) is wanted.
  bool Wanted(std::string_view key) const {
    if (!listing_.wanted_directory) return true;
    const std::vector<std::string_view> segments = PathSegments(key);
    for (size_t i = 0; i + 1 < segments.size(); i++) {
      if (!listing_.wanted_directory(segments[i])) return false;
    }
    return true;
  }

  // The listing of `prefix` (with the delimiter when `by_level`), from the cache when kept.
  const DirectoryListings::Entry& List(const std::string& prefix, bool by_level) {
    const std::string cache_key = (by_level ? "level:" : "all:") + prefix;
    if (listing_.cache) {
      if (const DirectoryListings::Entry* kept = listing_.cache->Find(cache_key)) return *kept;
    }
    parquet::S3ListOptions list;
    // Each key is matched as the listing is parsed: only what the argument names is kept
    // (s3.h's limits), whatever the query.
    list.keep = [this](const std::string& key) { return Names(key); };
    list.until_first_kept = listing_.first_file_only && !by_level;
    DirectoryListings::Entry entry;
    if (by_level) {
      list.delimiter = "/";
      list.common_prefixes = &entry.prefixes;
    }
    uint64_t requests = 0;
    list.requests = &requests;
    list.entries = &entry.returned;
    // One expansion keeps the limits of one listing (s3.h), whatever a server answers a
    // walk level by level with (every level's prefixes, each leading to more).
    if (listings_made_ >= static_cast<uint64_t>(parquet::kMaxListingPages)) {
      throw parquet::ParquetError("cannot list s3://" + location_.bucket + "/" + prefix_ + ": more than " +
                                  std::to_string(parquet::kMaxListingPages) + " listings");
    }
    listings_made_++;
    std::vector<parquet::S3Object> objects;
    try {
      objects = parquet::ListS3Objects(options_, location_.bucket, prefix, list);
    } catch (...) {
      Count(requests, entry.returned);
      throw;
    }
    Count(requests, entry.returned);
    for (parquet::S3Object& object : objects) entry.names.push_back(std::move(object.key));
    entries_kept_ += entry.names.size() + entry.prefixes.size();
    if (entries_kept_ > parquet::kMaxListedObjects) {
      throw parquet::ParquetError("cannot list s3://" + location_.bucket + "/" + prefix_ + ": more than " +
                                  std::to_string(parquet::kMaxListedObjects) +
                                  " objects match (the most a listing keeps)");
    }
    if (!listing_.cache || list.until_first_kept) {  // a partial listing is not kept
      uncached_ = std::move(entry);
      return uncached_;
    }
    return listing_.cache->Put(cache_key, std::move(entry));
  }

  void Count(uint64_t requests, uint64_t entries) {
    if (!listing_.counts) return;
    listing_.counts->requests += requests;
    listing_.counts->entries += entries;
  }

  // Whether a level whose delimiter listing (`entry`) named no directory has objects in
  // directories below it all the same: a server may answer a level that holds only
  // directories (no object directly in each) with no common prefix at all (s3rver 3.7 does).
  // One listing without the delimiter, of one key more than the level's own objects, tells:
  // its keys come in order, so one of them lies below a directory if any does.
  bool HasObjectsBelow(const std::string& prefix, const DirectoryListings::Entry& entry) {
    if (!entry.prefixes.empty()) return false;
    if (entry.returned >= 1000) return true;  // too many to look past: list the level whole
    const std::string probed_key = "probed:" + prefix;  // a probe that found none, kept
    if (listing_.cache && listing_.cache->Find(probed_key)) return false;
    parquet::S3ListOptions probe;
    probe.max_keys = static_cast<int>(entry.returned) + 1;
    uint64_t requests = 0, entries = 0;
    probe.requests = &requests;
    probe.entries = &entries;
    std::vector<parquet::S3Object> first;
    try {
      first = parquet::ListS3Objects(options_, location_.bucket, prefix, probe);
    } catch (...) {
      Count(requests, entries);
      throw;
    }
    Count(requests, entries);
    listings_made_++;
    for (const parquet::S3Object& object : first) {
      if (object.key.find('/', prefix.size()) != std::string::npos) return true;
    }
    if (listing_.cache) listing_.cache->Put(probed_key, DirectoryListings::Entry());
    return false;
  }

  void Keep(const std::vector<std::string>& keys) {
    for (const std::string& key : keys) {
      if (Wanted(key)) files_.push_back("s3://" + location_.bucket + "/" + key);
    }
  }

  // A listing of everything below `prefix` or below a directory above it (down to the
  // expansion's own prefix) that the cache keeps: it holds every file below `prefix`.
  const DirectoryListings::Entry* KeptListingAbove(const std::string& prefix) const {
    if (!listing_.cache) return nullptr;
    if (const DirectoryListings::Entry* kept = listing_.cache->Find("all:" + prefix_)) return kept;
    for (size_t slash = prefix.find('/', prefix_.size()); slash != std::string::npos; slash = prefix.find('/', slash + 1)) {
      if (const DirectoryListings::Entry* kept = listing_.cache->Find("all:" + prefix.substr(0, slash + 1))) return kept;
    }
    return nullptr;
  }

  void Expand(const std::string& prefix) {
    if (const DirectoryListings::Entry* kept = KeptListingAbove(prefix)) {
      for (const std::string& key : kept->names) {
        if (key.compare(0, prefix.size(), prefix) == 0 && Wanted(key)) {
          files_.push_back("s3://" + location_.bucket + "/" + key);
        }
      }
      return;
    }
    const std::string directory = prefix.substr(0, prefix.rfind('/') + 1);
    const std::vector<std::string_view> segments = PathSegments(directory);
    const bool by_level = listing_.wanted_directory && listing_.list_by_level && listing_.list_by_level(segments);
    if (!by_level) {
      Keep(List(prefix, false).names);
      return;
    }
    const DirectoryListings::Entry& entry = List(prefix, true);
    if (HasObjectsBelow(prefix, entry)) {
      if (listing_.counts) listing_.counts->fallbacks++;
      Keep(List(prefix, false).names);
      return;
    }
    Keep(entry.names);
    // Copied: expanding a subdirectory may add to the cache.
    const std::vector<std::string> subdirectories = entry.prefixes;
    for (const std::string& subdirectory : subdirectories) {
      const std::vector<std::string_view> below = PathSegments(subdirectory);
      if (below.empty()) continue;
      const std::string_view name = below.back();
      if (directory_ ? (below.size() > prefix_segments_ && (name[0] == '.' || name[0] == '_'))
                     : !GlobMayMatchBelow(location_.key, subdirectory)) {
        continue;
      }
      if (!listing_.wanted_directory(name)) continue;
      Expand(subdirectory);
    }
  }

  const parquet::RemoteOptions& options_;
  const ListingOptions& listing_;
  const parquet::S3Location& location_;
  const bool directory_;
  std::string prefix_;
  size_t prefix_segments_ = 0;
  DirectoryListings::Entry uncached_;
  std::vector<std::string> files_;
  uint64_t listings_made_ = 0;  // ListS3Objects calls of this expansion
  size_t entries_kept_ = 0;     // objects and common prefixes they kept
};

}  // namespace

const DirectoryListings::Entry* DirectoryListings::Find(const std::string& key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

const DirectoryListings::Entry& DirectoryListings::Put(const std::string& key, Entry entry) {
  return entries_[key] = std::move(entry);
}

std::vector<std::string> ExpandRemotePath(const std::string& url, const parquet::RemoteOptions& options,
                                          const ListingOptions& listing) {
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
  std::vector<std::string> files = RemoteExpansion(options, listing, location, directory).Run();
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  if (files.empty() && !listing.wanted_directory) {
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
