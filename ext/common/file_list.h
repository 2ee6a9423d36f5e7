// Expansion of a path argument into the sorted list of files it names: a plain file, a
// directory, or a glob. Used by the metadata functions and by datasets of many files.
// Pure C++ over the platform layer (format/platform/system.h) and s3.h's listings; no SQLite.
//
//   file        the file itself (whatever its name), when it exists and is not a directory
//   directory   every file whose name ends in ".parquet" (any case) below it, recursively,
//               as DuckDB reads a directory; names starting with "." or "_" are skipped,
//               files and directories alike (hidden files, _SUCCESS, _temporary/ of
//               Spark and Hive jobs)
//   glob        matched one path segment at a time:
//                 *       any characters except '/'
//                 ?       one character except '/'
//                 [abc] [a-z] [!a-z] [^a-z]   one character of (or not of) the set
//                 \c      the character c itself
//                 **      a whole segment: any number of directories, including none
//               A wildcard never matches a leading "." of a name unless the pattern
//               segment itself starts with "." (as in the shell). Only files match;
//               directories matched by the last segment are ignored.
//
// A listing may be narrowed (ListingOptions, which the parquet table's listing_pruning.h
// fills from a query's partition constraints): directories it refuses are neither read
// (local walks) nor listed below (s3), and levels it asks for are listed one at a time
// with a delimiter; directory reads and listings can be kept for reuse and are counted.
//
// A path that exists is taken as a file or directory even when it contains glob
// characters. The result is sorted by byte value and has no duplicates; paths keep the
// form of the argument (relative stays relative). Symbolic links are followed; a
// directory reached twice through links is walked once.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "format/io/remote_file.h"

namespace sqlite_parquet {

class FileListError : public std::runtime_error {
 public:
  explicit FileListError(const std::string& message) : std::runtime_error(message) {}
};

// What listings did: listing calls (a directory read; a ListObjectsV2 request, retries
// included) and the entries they returned (names in a directory; objects and common
// prefixes of a listing), before any matching.
struct ListingCounts {
  uint64_t requests = 0;
  uint64_t entries = 0;
  // S3 levels whose delimiter listing reported no directory while objects lay below them
  // (a server without delimiter support for such levels, as s3rver 3.7): listed whole instead.
  uint64_t fallbacks = 0;
};

// The directory reads and S3 listings of one table, kept for reuse by later listings of it
// (ListingOptions::cache): a listing answered from here costs no call and counts nothing.
class DirectoryListings {
 public:
  struct Entry {
    std::vector<std::string> names;     // local: a directory's names; s3: the object keys
    std::vector<std::string> prefixes;  // s3 with a delimiter: the common prefixes
    uint64_t returned = 0;              // s3: the objects and common prefixes the server returned
  };
  // The entry kept under `key`, or null.
  const Entry* Find(const std::string& key) const;
  const Entry& Put(const std::string& key, Entry entry);

 private:
  std::map<std::string, Entry> entries_;
};

// How a listing may be narrowed, reused and counted. Every member may be left empty.
struct ListingOptions {
  // Asked for a directory below the listing's start (one path segment, as listed) and for
  // the directory segments of a key: false when no file below it is wanted, so that it is
  // not listed (local walks skip it; s3 listings do not descend into it, and drop keys
  // below it).
  std::function<bool(std::string_view directory_name)> wanted_directory;
  // S3: whether to list the directory whose key has these segments one level at a time
  // (a delimiter listing, whose subdirectories wanted_directory then picks) rather than
  // everything below it in one listing.
  std::function<bool(const std::vector<std::string_view>& directory_segments)> list_by_level;
  DirectoryListings* cache = nullptr;
  ListingCounts* counts = nullptr;
  // S3: only the first file (in key order) is wanted; the listing stops at the page holding
  // it (S3ListOptions::until_first_kept). Ignored by local walks and delimiter listings.
  bool first_file_only = false;
};

// The files `path` names (see above). Throws FileListError:
//   "no files match 'x'"                        a glob that matches no file
//   "no parquet files in directory 'x'"         a directory without *.parquet files
//   "cannot open 'x': No such file or directory" a plain path that does not exist
//   "cannot read directory 'd': Permission denied" (or another system error) for a
//                                                directory that a directory or glob
//                                                expansion needs and cannot list
//   "cannot access 'p': Permission denied"      a path that cannot be looked at
//   "empty path"
//   "path 'a\0b' contains a NUL byte"            (parquet::PathNulByteError)
// With `listing.wanted_directory`, an empty result is no error (every file was pruned).
std::vector<std::string> ExpandFilePath(const std::string& path, const ListingOptions& listing = {});

// The objects a URL names (parquet::IsRemoteUrl), with the rules above where they apply:
//   http(s)://...      the URL itself; a glob or a URL ending in '/' is an error, since a
//                      web server has no listing to expand it with
//   s3://b/key         the object itself
//   s3://b/prefix/     every object below the prefix whose name ends in ".parquet", skipping
//                      names and "directories" starting with "." or "_"
//   s3://b/glob        the objects matching the glob segment by segment (`**` as above),
//                      listed with ListObjectsV2 from the glob's literal prefix
// Throws FileListError ("no files match 's3://b/x*'"; not with `listing.wanted_directory`)
// or parquet::ParquetError (listing failed).
std::vector<std::string> ExpandRemotePath(const std::string& url, const parquet::RemoteOptions& options,
                                          const ListingOptions& listing = {});

// Whether a table's path names a set of files (a glob or a directory) rather than one file.
bool PathNamesDataset(const std::string& path);

// Whether `path` contains an unescaped *, ? or [ (and so is a glob).
bool HasGlobCharacters(std::string_view path);

// Whether one name (no '/') matches one glob segment (no '/'); `**` inside a segment
// acts as `*`.
bool MatchGlobSegment(std::string_view pattern, std::string_view name);

// The non-empty segments of a '/'-separated path, in order.
std::vector<std::string_view> PathSegments(std::string_view path);

// Whether a whole path (an S3 key) matches a glob, segment by segment with the rules above
// (empty segments ignored). Every (glob segment, path segment) pair is tried at most once,
// however many `**` the glob holds: the time is at most their product.
bool MatchGlobPath(std::string_view pattern, std::string_view path);

// Whether some path below the directory `directory` (segments as MatchGlobPath takes them)
// may match the glob.
bool GlobMayMatchBelow(std::string_view pattern, std::string_view directory);

}  // namespace sqlite_parquet
