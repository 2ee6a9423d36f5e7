// Fuzz target: the S3 listing parser (ParseListObjectsV2, a ListObjectsV2 response as a
// hostile server could send it) with a glob kept while parsing, as ExpandRemotePath keeps
// it, and the glob matcher itself (MatchGlobPath, checked against a plain backtracking
// model on small inputs).
//
// Input: byte 0 sets the most objects kept (bit 7 set: the default, kMaxListedObjects;
// else 1 + the low 4 bits) and whether common prefixes are collected (bit 6, as a listing
// with a delimiter does); then a glob up to the first '\n' (none: every key is kept), then
// the response body.
//
// What must hold: the parse ends with a token or a ParquetError; each object kept matches
// the glob, has a key of at most kMaxS3KeyBytes, and at most the cap are kept, common
// prefixes included, which are no longer than keys; a token is at most
// kMaxListingElementBytes; MatchGlobPath and GlobMayMatchBelow agree with the model.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "ext/common/file_list.h"
#include "format/common/error.h"
#include "format/io/s3.h"

namespace {

// The glob rules by trying every split (exponential in the number of `**`: small inputs only).
bool ModelMatch(const std::vector<std::string_view>& glob, size_t g, const std::vector<std::string_view>& path, size_t p) {
  if (g == glob.size()) return p == path.size();
  if (glob[g] == "**") {
    for (size_t taken = p; taken <= path.size(); taken++) {
      if (ModelMatch(glob, g + 1, path, taken)) return true;
      if (taken < path.size() && path[taken][0] == '.') return false;  // ** takes no segment starting with '.'
    }
    return false;
  }
  return p < path.size() && sqlite_parquet::MatchGlobSegment(glob[g], path[p]) && ModelMatch(glob, g + 1, path, p + 1);
}

void CheckMatcher(std::string_view glob, std::string_view path) {
  const std::vector<std::string_view> globs = sqlite_parquet::PathSegments(glob), segments = sqlite_parquet::PathSegments(path);
  size_t double_stars = 0;
  for (std::string_view segment : globs) double_stars += segment == "**";
  if (globs.size() > 12 || segments.size() > 12 || double_stars > 4) return;
  if (sqlite_parquet::MatchGlobPath(glob, path) != ModelMatch(globs, 0, segments, 0)) abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  parquet::S3ListOptions list;
  if ((data[0] & 0x80) == 0) list.max_objects = 1 + (data[0] & 15);
  std::vector<std::string> prefixes;
  if (data[0] & 0x40) list.common_prefixes = &prefixes;
  const size_t newline = input.find('\n');
  const std::string glob = newline == std::string::npos ? "" : input.substr(0, newline);
  const std::string xml = newline == std::string::npos ? input : input.substr(newline + 1);
  if (newline != std::string::npos) {
    list.keep = [&](const std::string& key) { return sqlite_parquet::MatchGlobPath(glob, key); };
  }
  std::vector<parquet::S3Object> objects;
  std::string token;
  try {
    token = parquet::ParseListObjectsV2(xml, list, &objects);
  } catch (const parquet::ParquetError&) {
  }
  if (objects.size() + prefixes.size() > list.max_objects) abort();
  for (const std::string& prefix : prefixes) {
    if (prefix.size() > parquet::kMaxS3KeyBytes) abort();
    // A directory below which the glob may match: some path one segment longer matches
    // the model when GlobMayMatchBelow says so (checked for a plain name).
    if (!glob.empty() && !sqlite_parquet::GlobMayMatchBelow(glob, prefix)) {
      const std::string below = std::string(prefix) + "/x";
      if (sqlite_parquet::MatchGlobPath(glob, below)) abort();
    }
  }
  if (token.size() > parquet::kMaxListingElementBytes) abort();
  for (const parquet::S3Object& object : objects) {
    if (object.key.size() > parquet::kMaxS3KeyBytes) abort();
    if (list.keep && !sqlite_parquet::MatchGlobPath(glob, object.key)) abort();
    CheckMatcher(glob, object.key);
  }
  // The matcher on the raw input too: glob and body split as text.
  CheckMatcher(glob, xml.substr(0, 256));
  try {
    parquet::XmlElementTexts(xml, "Code");
  } catch (const parquet::ParquetError&) {
  }
  return 0;
}
