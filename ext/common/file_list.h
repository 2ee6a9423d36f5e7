// Expansion of a path argument into the sorted list of files it names: a plain file, a
// directory, or a glob. Used by the metadata functions and by datasets of many files.
// Pure C++ over the platform layer (format/platform/system.h); no SQLite.
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
// A path that exists is taken as a file or directory even when it contains glob
// characters. The result is sorted by byte value and has no duplicates; paths keep the
// form of the argument (relative stays relative). Symbolic links are followed; a
// directory reached twice through links is walked once.
#pragma once

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
std::vector<std::string> ExpandFilePath(const std::string& path);

// The objects a URL names (parquet::IsRemoteUrl), with the rules above where they apply:
//   http(s)://...      the URL itself; a glob or a URL ending in '/' is an error, since a
//                      web server has no listing to expand it with
//   s3://b/key         the object itself
//   s3://b/prefix/     every object below the prefix whose name ends in ".parquet", skipping
//                      names and "directories" starting with "." or "_"
//   s3://b/glob        the objects matching the glob segment by segment (`**` as above),
//                      listed with ListObjectsV2 from the glob's literal prefix
// Throws FileListError ("no files match 's3://b/x*'") or parquet::ParquetError (listing failed).
std::vector<std::string> ExpandRemotePath(const std::string& url, const parquet::RemoteOptions& options);

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

}  // namespace sqlite_parquet
