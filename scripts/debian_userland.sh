#!/usr/bin/env bash
# Unpacks Debian binary packages of one release and architecture into a folder, without
# root, chroot or touching the system's apt state: a private apt configuration (its own
# sources.list, lists and cache under CACHE/apt-RELEASE-ARCH) downloads the .debs, checked
# against the release's signed index, and `dpkg-deb -x` unpacks each into the folder.
# Used by `make dist` (the sysroot the extension is linked against: an older glibc) and
# tests/dist (that release's sqlite3 shell and libsqlite3 started through its own loader).
# Without PACKAGE names it unpacks USERLAND below: libc6 and its -dev packages (the sysroot)
# with the sqlite3 shell and libsqlite3 (and its -dev, which sql_test_runner links) and what
# they load. The folder is kept, keyed by release, architecture and the packages' versions:
# a second run with the same versions does nothing.
#   usage: scripts/debian_userland.sh CACHE RELEASE ARCH [PACKAGE...]
#   prints the unpacked folder (CACHE/RELEASE-ARCH-HASH) on stdout
set -euo pipefail
cache=$(mkdir -p "${1:?usage: $0 CACHE RELEASE ARCH [PACKAGE...]}" && cd "$1" && pwd)
release=${2:?release, e.g. bullseye} arch=${3:?architecture, e.g. amd64 or arm64}
shift 3
USERLAND=(libc6 libc6-dev linux-libc-dev libsqlite3-0 libsqlite3-dev sqlite3 libreadline8 libtinfo6 zlib1g)
(($# > 0)) || set -- "${USERLAND[@]}"

apt_dir=$cache/apt-$release-$arch
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
if [[ $arch == amd64 || $arch == i386 || $arch == arm64 || $arch == armhf ]]; then
  mirror=http://deb.debian.org/debian security=http://deb.debian.org/debian-security
else
  echo "debian_userland: architecture '$arch' not supported" >&2; exit 1
fi
cat >"$apt_dir/sources.list" <<LIST
deb [arch=$arch signed-by=$keyring] $mirror $release main
deb [arch=$arch signed-by=$keyring] $mirror $release-updates main
deb [arch=$arch signed-by=$keyring] $security $release-security main
LIST
: >"$apt_dir/status"  # an empty dpkg status: nothing counts as installed
apt_options=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
     -o "Dir::State::status=$apt_dir/status" -o "APT::Architecture=$arch"
     -o "APT::Architectures::=$arch" -o Dir::Etc::Preferences=/dev/null
     -o Dir::Etc::PreferencesParts=/dev/null -o APT::Sandbox::User=root)
apt=(apt-get -q "${apt_options[@]}")

# The index is read again when it is older than a day (security updates change versions).
if [[ -z $(find "$apt_dir/updated" -mtime -1 -print 2>/dev/null) ]]; then
  "${apt[@]}" update </dev/null >"$apt_dir/update.log" 2>&1 ||
    { cat "$apt_dir/update.log" >&2; echo "debian_userland: cannot read the $release $arch index" >&2; exit 1; }
  touch "$apt_dir/updated"
fi

# Versions decide the folder's name: the same versions are the same folder, kept.
candidates=$(apt-cache "${apt_options[@]}" policy "$@" 2>/dev/null |
             awk '/^[^ ]/ {sub(/:$/, ""); pkg=$1} /^ *Candidate:/ {print pkg "=" $2}')
versions=()
for pkg in "$@"; do
  v=$(awk -F= -v p="$pkg" '$1 == p {print $2}' <<<"$candidates")
  [[ -n $v && $v != "(none)" ]] || { echo "debian_userland: no package $pkg in $release $arch" >&2; exit 1; }
  versions+=("$pkg=$v")
done
key=$(printf '%s\n' "${versions[@]}" | sha256sum | cut -c1-12)
root=$cache/$release-$arch-$key
if [[ -f $root/.complete ]]; then
  echo "$root"
  exit 0
fi

rm -rf "$root" "$apt_dir/debs" && mkdir -p "$root" "$apt_dir/debs"
# The candidate versions; where a mirror lacks one (a security update not mirrored for this
# architecture), the release's own version of that package.
if ! (cd "$apt_dir/debs" && "${apt[@]}" download "${versions[@]}" </dev/null >"$apt_dir/download.log" 2>&1); then
  fallback=()
  for pv in "${versions[@]}"; do
    pkg=${pv%%=*}
    compgen -G "$apt_dir/debs/${pkg}_*.deb" >/dev/null || fallback+=("$pkg/$release")
  done
  (cd "$apt_dir/debs" && "${apt[@]}" download "${fallback[@]}" </dev/null >>"$apt_dir/download.log" 2>&1) ||
    { cat "$apt_dir/download.log" >&2; echo "debian_userland: apt-get download failed" >&2; exit 1; }
fi
for pkg in "$@"; do
  compgen -G "$apt_dir/debs/${pkg}_*.deb" >/dev/null ||
    { echo "debian_userland: downloaded no .deb for $pkg" >&2; exit 1; }
done
for deb in "$apt_dir/debs"/*.deb; do
  dpkg-deb -x "$deb" "$root"
done
# Absolute symbolic links (/lib64/ld-linux-x86-64.so.2 -> /lib/...) made relative, so they
# point into the folder: a linker using it as a sysroot follows them there.
while IFS= read -r link; do
  target=$(readlink "$link")
  ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$root$target")" "$link"
done < <(find "$root" -type l -lname '/*')
printf '%s\n' "${versions[@]}" >"$root/.packages"
touch "$root/.complete"
echo "$root"
