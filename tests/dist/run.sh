#!/usr/bin/env bash
# The `dist` suite (make test-dist): checks the artefacts of `make dist`.
#   - dist/parquet.so needs only glibc (readelf -d), exports only sqlite3_parquet_init,
#     and no glibc symbol version above the floor (scripts/glibc_floor.sh, objdump -T, as
#     auditwheel checks), the floor README.md states;
#   - a real run in an older userland: Debian 11's libc6 (glibc 2.31), sqlite3 shell and
#     libsqlite3, unpacked from Debian's packages (scripts/debian_userland.sh, cached in
#     ~/.cache/sqlite-parquet/debian-userland) and started through their own ld-2.31.so with --library-path, no
#     chroot, no root: the shell loads the extension (or, where Debian 11's SQLite is below
#     the extension's SQLite floor, refuses it with that message and nothing from the
#     dynamic linker); the sql suite (DIST_BUILD's sql_test_runner, linked against Debian 11's
#     libc) passes there, with a SQLite of the version matrix compiled against Debian 11's
#     libc (OLD_USERLAND_SQLITE, default the newest of the matrix) and, when its version is
#     supported, with Debian 11's own libsqlite3; and the shell writes a parquet_copy and
#     reads its rows back;
#   - the sql suite passes with dist/parquet.so where the system's copies of every library
#     the normal build links (codecs, libcrypto, libstdc++, libgcc_s) are hidden: a private
#     mount namespace (unshare -m) bind-mounts /dev/null over each of them. The hide is
#     proved in the same namespace: the normal build's BUILD/parquet.so must fail to load;
#   - the wheel, pip-installed with --no-index into a fresh venv of Debian's python3:
#     tests/dist/python_test.py, and Debian's sqlite-utils loading the extension it carries;
#   - dist/linux-arm64/parquet.so (AArch64) likewise needs only glibc up to the floor, and
#     under qemu-aarch64 (-L: the guest's own loader and libraries, no binfmt, no root) the
#     arm64 sqlite3 shells of Debian 12 and Debian 11, unpacked from Debian's arm64 packages,
#     load it: the sql suite passes (DIST_BUILD-arm64's sql_test_runner, cross-built) and a
#     parquet_copy reads back, with each SQLite the extension supports; an older one refuses
#     it with the SQLite-version message;
#   - the npm tarball, installed into a fresh project: tests/dist/node_test.js with
#     better-sqlite3 (installed once from the npm registry into tests/dist/node/).
# One "ok"/"FAIL" line per check; the last line is "N passed, M failed".
#   usage: tests/dist/run.sh [BUILD (default build)] [DIST_BUILD (default build-dist)]
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build} dist_build=${2:-build-dist}
userland_cache=${XDG_CACHE_HOME:-$HOME/.cache}/sqlite-parquet/debian-userland  # as make_dist.sh
runner=$dist_build/sql_test_runner
passed=0 failed=0
check() {  # check STATUS NAME [DETAIL]: STATUS first, expanded before any $(...) in NAME
  if [[ $1 == 0 ]]; then
    passed=$((passed + 1)); echo "ok   $2"
  else
    failed=$((failed + 1)); echo "FAIL $2${3:+: $3}"
  fi
}
add_counts() {  # add_counts LABEL OUTPUT-FILE STATUS: adds a sub-runner's "N passed, M failed"
  local line
  line=$(grep -oE '[0-9]+ passed, [0-9]+ failed$' "$2" | tail -n1)
  if [[ -z $line ]]; then
    check 1 "$1 ran to its summary" "exit status $3, no summary line"
    return
  fi
  local p f
  read -r p _ f _ <<<"$line"
  passed=$((passed + p)) failed=$((failed + f))
  if [[ $3 != 0 && $f == 0 ]]; then check 1 "$1 exit status" "$3"; fi
}
# copy_round_trip EXTENSION OUT COMPRESSION SHELL...: the sqlite3 shell (SHELL..., reading
# stdin) loads EXTENSION, writes 1000 rows with parquet_copy to OUT and reads them back;
# succeeds when the copy's rows and the table's agree.
copy_round_trip() {
  local extension=$1 out=$2 compression=$3 got lines
  shift 3
  got=$(printf '%s\n' ".load $extension" \
    "CREATE TABLE t AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT i, 'row ' || i AS s, i / 8.0 AS r FROM n;" \
    "SELECT parquet_copy('SELECT * FROM t', '$out', 'compression=$compression');" \
    "CREATE VIRTUAL TABLE back USING parquet('$out');" \
    "SELECT count(*), sum(i), group_concat(s, ','), sum(r) FROM back;" \
    "SELECT count(*), sum(i), group_concat(s, ','), sum(r) FROM t;" | "$@" -bail :memory: 2>&1)
  mapfile -t lines <<<"$got"
  [[ ${#lines[@]} == 3 && ${lines[0]} == 1000 && ${lines[1]} == "${lines[2]}" && ${lines[1]} == 1000\|500500\|* ]] ||
    { head -c 300 <<<"$got"; return 1; }
}
# refused_for_sqlite_version OWN OUTPUT: OUTPUT (of a .load) is the extension refusing SQLite
# OWN for being below its SQLite floor, and nothing from the dynamic linker; prints the floor.
refused_for_sqlite_version() {
  local needs
  needs=$(sed -n 's/.*needs SQLite \([0-9.]*\) or later.*/\1/p' <<<"$2")
  echo "$needs"
  [[ -n $needs && $(printf '%s\n' "$1" "$needs" | sort -V | head -1) == "$1" && $1 != "$needs" ]] &&
    ! grep -qiE 'GLIBC|version .* not found|cannot open shared' <<<"$2"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$(head -n1 VERSION)

so=dist/parquet.so
wheels=(dist/sqlite_parquet-"$version"-py3-none-manylinux_2_28_x86_64.whl)
arm64_wheel=dist/sqlite_parquet-$version-py3-none-manylinux_2_28_aarch64.whl
tarball=dist/sqlite-parquet-$version.tgz
[[ -f $so && -f ${wheels[0]} && -f $tarball && -x $runner ]]
check $? "make dist made $so, the wheel, $tarball and $runner"

# --- the binary ------------------------------------------------------------------------
glibc_libs='^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64)\.so\.[0-9]+$'
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
others=$(grep -Ev "$glibc_libs" <<<"$needed")
[[ -n $needed && -z $others ]]
check $? "readelf -d: NEEDED only glibc ($(echo $needed))" "also needs: $(echo $others)"
! readelf -d "$so" | grep -Eq '\((RUNPATH|RPATH)\)'
check $? "no RUNPATH/RPATH"
exports=$(nm -D --defined-only "$so" | awk '{print $3}')
[[ $exports == sqlite3_parquet_init ]]
check $? "the only exported symbol is sqlite3_parquet_init" "$(echo $exports | head -c 300)"
floor=$(bash scripts/glibc_floor.sh "$so")
bash scripts/glibc_floor.sh --check "$so" 2>"$tmp/floor.log"
check $? "objdump -T: the highest GLIBC_ symbol version is $floor, at most $(bash scripts/glibc_floor.sh --floor)" "$(cat "$tmp/floor.log")"
grep -q "glibc $(bash scripts/glibc_floor.sh --floor) or later" README.md
check $? "README states the glibc floor" "README.md lacks 'glibc $(bash scripts/glibc_floor.sh --floor) or later'"

# --- Debian 11's userland: its ld-2.31.so, libc, sqlite3 shell and libsqlite3 ----------------
old_sqlite_version=${OLD_USERLAND_SQLITE:-3.53.2}
if userland=$(bash scripts/debian_userland.sh "$userland_cache" bullseye amd64 2>"$tmp/userland.log"); then
  check 0 "Debian 11's libc6, sqlite3 and libsqlite3-0 unpacked (${userland#"$PWD"/})"
  multiarch=x86_64-linux-gnu
  old_loader=$userland/lib/$multiarch/ld-2.31.so
  old_libs=$userland/lib/$multiarch:$userland/usr/lib/$multiarch
  in_old_userland() {  # in_old_userland LIBDIR|"" PROGRAM ARGS...: PROGRAM on Debian 11's libc
    local first=$1
    shift
    "$old_loader" --library-path "${first:+$first:}$old_libs" "$@"
  }
  shell_load() {  # shell_load LIBDIR|"" SHELL: a sqlite3 shell on Debian 11's libc loads dist/parquet.so
    printf '%s\n' ".load $PWD/dist/parquet" "SELECT sqlite_version(), json_extract(parquet_version(), '\$.version');" |
      in_old_userland "$1" "$2" -bail :memory: 2>&1
  }
  own=$(in_old_userland "" "$userland/usr/bin/sqlite3" :memory: 'SELECT sqlite_version()' </dev/null 2>&1)
  got=$(shell_load "" "$userland/usr/bin/sqlite3")
  if [[ $got == "$own|$version" ]]; then
    check 0 "Debian 11's sqlite3 shell (SQLite $own, glibc 2.31) loads $so and runs parquet_version()"
    own_supported=1
  else
    needs=$(refused_for_sqlite_version "$own" "$got")
    check $? "Debian 11's sqlite3 shell (SQLite $own, glibc 2.31) loads $so past the dynamic linker; refused for SQLite $own < $needs" "$got"
    own_supported=0
  fi

  # A SQLite of the matrix and its shell, compiled against Debian 11's libc (the matrix's
  # own builds are linked against this machine's newer glibc, and Debian 11's shell has its
  # SQLite linked in): the sql suite, the shell and the copy on Debian 11's loader and libc.
  old_sqlite=$dist_build/old-userland-sqlite/$old_sqlite_version
  versions_dir=${SQLITE_VERSIONS_DIR:-build/sqlite-versions}
  sysroot_cc() {  # gcc against Debian 11's libc: its start files and library folders before GCC's own
    gcc --sysroot="$userland" -B"$userland/usr/lib/$multiarch/" -L"$userland/usr/lib/$multiarch" \
      -L"$userland/lib/$multiarch" -O1 -w "$@"
  }
  if [[ ! -x $old_sqlite/sqlite3 ]] &&
     bash scripts/setup_sqlite_versions.sh "$versions_dir" "$old_sqlite_version" >"$tmp/old-sqlite.log" 2>&1; then
    src=$versions_dir/$old_sqlite_version/src
    mkdir -p "$old_sqlite"
    sysroot_cc -fPIC -shared -Wl,-soname,libsqlite3.so.0 -DSQLITE_THREADSAFE=1 -DSQLITE_ENABLE_COLUMN_METADATA \
      -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_USE_URI=1 "$src/sqlite3.c" -o "$old_sqlite/libsqlite3.so.0" \
      -lm -ldl -lpthread >>"$tmp/old-sqlite.log" 2>&1 &&
      sysroot_cc -I"$src" "$src/shell.c" -o "$old_sqlite/sqlite3.tmp" "$old_sqlite/libsqlite3.so.0" \
        -lm -ldl -lpthread >>"$tmp/old-sqlite.log" 2>&1 &&
      mv "$old_sqlite/sqlite3.tmp" "$old_sqlite/sqlite3"
  fi
  [[ -x $old_sqlite/sqlite3 ]] && bash scripts/glibc_floor.sh "$old_sqlite/libsqlite3.so.0" >"$tmp/old-floor" &&
    [[ $(printf '%s\n' "$(cat "$tmp/old-floor")" 2.31 | sort -V | tail -1) == 2.31 ]]
  check $? "SQLite $old_sqlite_version and its shell compiled against Debian 11's libc (glibc $(cat "$tmp/old-floor" 2>/dev/null))" \
    "$(tail -n 5 "$tmp/old-sqlite.log" 2>/dev/null)"
  got=$(shell_load "$old_sqlite" "$old_sqlite/sqlite3")
  [[ $got == "$old_sqlite_version|$version" ]]
  check $? "the sqlite3 shell of SQLite $old_sqlite_version on Debian 11's loader and libc loads $so" "$got"

  old_suite() {  # old_suite LABEL LIBDIR|"": the sql suite on Debian 11's loader and libc
    in_old_userland "$2" "$runner" --extension dist/parquet --root . sql/*.test >"$tmp/old-sql.log" 2>&1
    local rc=$?
    grep -E 'FAIL|passed, .* failed' "$tmp/old-sql.log" | tail -n 20
    add_counts "sql suite in Debian 11's userland, $1" "$tmp/old-sql.log" $rc
  }
  old_suite "SQLite $old_sqlite_version" "$old_sqlite"
  ((own_supported)) && old_suite "its own SQLite $own" ""

  # parquet_copy through that shell, and its rows read back.
  got=$(copy_round_trip "$PWD/dist/parquet" "$tmp/old-userland-copy.parquet" zstd in_old_userland "$old_sqlite" "$old_sqlite/sqlite3")
  check $? "the SQLite $old_sqlite_version shell on Debian 11's libc: parquet_copy of 1000 rows (zstd) reads back the same rows" "$got"
else
  check 1 "Debian 11's packages unpacked" "$(tail -n 5 "$tmp/userland.log")"
fi

# --- the aarch64 wheel: the arm64 binary under its manylinux tag -------------------------------
/usr/bin/python3 -m zipfile -e "$arm64_wheel" "$tmp/arm64-wheel" 2>/dev/null &&
  readelf -h "$tmp/arm64-wheel/sqlite_parquet/parquet.so" | grep -q AArch64 &&
  grep -qx 'Tag: py3-none-manylinux_2_28_aarch64' "$tmp"/arm64-wheel/*.dist-info/WHEEL
check $? "${arm64_wheel##*/} carries the AArch64 parquet.so under the tag manylinux_2_28_aarch64"

# --- linux-arm64 under qemu-user: Debian 12's and Debian 11's arm64 userlands ---------------
arm64_so=dist/linux-arm64/parquet.so
arm64_runner=$dist_build-arm64/sql_test_runner
[[ -f $arm64_so && -x $arm64_runner ]] && readelf -h "$arm64_so" | grep -q 'AArch64'
check $? "make dist made the AArch64 $arm64_so and $arm64_runner"
needed=$(readelf -d "$arm64_so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
others=$(grep -Ev '^(libc|libm|libdl|libpthread|librt|ld-linux-aarch64)\.so\.[0-9]+$' <<<"$needed")
[[ -n $needed && -z $others ]] && [[ $(nm -D --defined-only "$arm64_so" | awk '{print $3}') == sqlite3_parquet_init ]]
check $? "$arm64_so: NEEDED only glibc ($(echo $needed)), exports only sqlite3_parquet_init" "also needs: $(echo $others)"
bash scripts/glibc_floor.sh --check "$arm64_so" 2>"$tmp/floor-arm64.log"
check $? "objdump -T: the highest GLIBC_ symbol version of $arm64_so is $(bash scripts/glibc_floor.sh "$arm64_so"), at most $(bash scripts/glibc_floor.sh --floor)" "$(cat "$tmp/floor-arm64.log")"
for release in bookworm bullseye; do
  name=$([[ $release == bookworm ]] && echo "Debian 12" || echo "Debian 11")
  packages=()  # bullseye: the folder make dist unpacked as the sysroot (it has the shell too)
  [[ $release == bookworm ]] && packages=(libc6 sqlite3 libsqlite3-0 libreadline8 libtinfo6 zlib1g)
  if ! arm64_root=$(bash scripts/debian_userland.sh "$userland_cache" "$release" arm64 "${packages[@]}" 2>"$tmp/arm64.log"); then
    check 1 "$name's arm64 packages unpacked" "$(tail -n 5 "$tmp/arm64.log")"
    continue
  fi
  in_arm64() { qemu-aarch64 -L "$arm64_root" "$@"; }  # the guest's loader and libraries from the folder
  own=$(in_arm64 "$arm64_root/usr/bin/sqlite3" :memory: 'SELECT sqlite_version()' </dev/null 2>&1)
  got=$(printf '%s\n' ".load $PWD/${arm64_so%.so}" "SELECT json_extract(parquet_version(), '\$.version');" |
        in_arm64 "$arm64_root/usr/bin/sqlite3" -bail :memory: 2>&1)
  if [[ $got == "$version" ]]; then
    check 0 "$name's arm64 sqlite3 shell (SQLite $own) loads $arm64_so under qemu-aarch64"
    in_arm64 "$arm64_runner" --extension "${arm64_so%.so}" --root . sql/*.test >"$tmp/arm64-sql.log" 2>&1
    rc=$?
    grep -E 'FAIL|passed, .* failed' "$tmp/arm64-sql.log" | tail -n 20
    add_counts "sql suite on arm64 ($name's libc and SQLite $own, qemu-aarch64)" "$tmp/arm64-sql.log" $rc
    got=$(copy_round_trip "$PWD/${arm64_so%.so}" "$tmp/arm64-$release.parquet" snappy in_arm64 "$arm64_root/usr/bin/sqlite3")
    check $? "$name's arm64 shell: parquet_copy of 1000 rows (snappy) reads back the same rows" "$got"
  else
    needs=$(refused_for_sqlite_version "$own" "$got")
    check $? "$name's arm64 sqlite3 shell (SQLite $own) loads $arm64_so past the dynamic linker under qemu-aarch64; refused for SQLite $own < $needs" "$got"
  fi
done

# --- the sql suite with the system libraries hidden --------------------------------------
if [[ ! -f $build/parquet.so ]]; then
  check 1 "normal build $build/parquet.so exists (needed to prove the hide)"
elif ! command -v unshare >/dev/null || ! unshare -m true 2>/dev/null; then
  check 1 "unshare -m works (root needed to hide the system libraries)"
else
  # Every library the normal build loads beyond glibc, by its real path (so every name of it is hidden).
  mapfile -t hide < <(ldd "$build/parquet.so" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' |
                      grep -Ev '^(libc|libm|libdl|libpthread|librt)\.so' | awk '{print $2}' | xargs -r realpath | sort -u)
  ((${#hide[@]} >= 8))
  check $? "found the normal build's libraries to hide (${#hide[@]}: $(printf '%s ' "${hide[@]##*/}"))"
  unshare -m bash -c '
    runner=$1 build=$2 tmp=$3
    shift 3
    for lib in "$@"; do mount --bind /dev/null "$lib" || exit 1; done
    "$runner" --extension "$build/parquet" --root . sql/smoke.test >"$tmp/proof.log" 2>&1
    echo $? >"$tmp/proof.rc"
    "$runner" --extension dist/parquet --root . sql/*.test >"$tmp/sql.log" 2>&1
    echo $? >"$tmp/sql.rc"
  ' hide "$runner" "$build" "$tmp" "${hide[@]}"
  check $? "/dev/null bind-mounted over each of them in a private mount namespace"
  [[ $(cat "$tmp/proof.rc" 2>/dev/null) != 0 ]] && grep -Eq 'file too short|cannot open shared object' "$tmp/proof.log"
  check $? "proof of the hide: the normal $build/parquet.so fails to load there" "$(tail -n 3 "$tmp/proof.log" 2>/dev/null)"
  grep -E 'FAIL|passed, .* failed' "$tmp/sql.log" | tail -n 20
  add_counts "sql suite with the system libraries hidden" "$tmp/sql.log" "$(cat "$tmp/sql.rc" 2>/dev/null || echo 1)"
fi

# --- the Python wheel ----------------------------------------------------------------------
if /usr/bin/python3 -m venv "$tmp/venv" >"$tmp/venv.log" 2>&1 &&
   "$tmp/venv/bin/pip" install --no-index --disable-pip-version-check -q "${wheels[0]}" >>"$tmp/venv.log" 2>&1; then
  check 0 "pip install --no-index ${wheels[0]##*/} into a fresh venv"
  mkdir -p "$tmp/py"
  (cd "$tmp/py" && "$tmp/venv/bin/python" "$OLDPWD/tests/dist/python_test.py" "$OLDPWD/VERSION" "$tmp/py") >"$tmp/python.log" 2>&1
  rc=$?
  cat "$tmp/python.log"
  add_counts "python_test.py" "$tmp/python.log" $rc
  # Debian's sqlite-utils (3.30, no plugin hooks) loads the extension the wheel carries.
  loadable=$("$tmp/venv/bin/python" -c 'import sqlite_parquet; print(sqlite_parquet.loadable_path())')
  rows=$(sqlite-utils query "$tmp/su.db" --load-extension "$loadable" --csv --no-headers \
         "SELECT num_rows FROM parquet_file_metadata('$tmp/py/orders.parquet')" 2>&1 | tr -d '\r')
  expected=$("$tmp/venv/bin/python" -c 'import sqlite3, sys, sqlite_parquet
c = sqlite3.connect(":memory:"); sqlite_parquet.load(c)
c.execute("CREATE VIRTUAL TABLE t USING parquet(%r)" % sys.argv[1]); print(c.execute("SELECT count(*) FROM t").fetchone()[0])' "$tmp/py/orders.parquet" 2>&1)
  [[ -n $rows && $rows == "$expected" ]]
  check $? "sqlite-utils query --load-extension \$(loadable_path) reads the file ($rows rows)" "got '$rows', python counts '$expected'"
else
  cat "$tmp/venv.log"
  check 1 "pip install --no-index ${wheels[0]##*/} into a fresh venv"
fi

# --- the npm package -----------------------------------------------------------------------
if bash scripts/install_node_packages.sh tests/dist/node better-sqlite3 dist >"$tmp/npm.log" 2>&1 &&
   mkdir -p "$tmp/node" && (cd "$tmp/node" && npm init -y >/dev/null &&
   npm install --no-audit --no-fund --loglevel=error "$OLDPWD/$tarball") >>"$tmp/npm.log" 2>&1; then
  check 0 "npm install ${tarball##*/} into a fresh project"
  (cd "$tmp/node" && cp "$OLDPWD/tests/dist/node_test.js" . && NODE_PATH="$OLDPWD/tests/dist/node/node_modules" node node_test.js "$OLDPWD/VERSION" "$tmp/node") >"$tmp/node.log" 2>&1
  rc=$?
  cat "$tmp/node.log"
  add_counts "node_test.js" "$tmp/node.log" $rc
else
  cat "$tmp/npm.log"
  check 1 "npm install ${tarball##*/} into a fresh project (and better-sqlite3 in tests/dist/node)"
fi

echo "$passed passed, $failed failed"
((failed == 0))
