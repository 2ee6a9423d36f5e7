# Sourced by the scripts that build Windows libraries from Debian's source packages
# (build_mingw_deps.sh). A private apt configuration under OUTDIR/apt (private_apt.sh)
# knows the running release's deb-src entries (checked against the signed Sources index);
# the system's apt sources are not touched.
#   debian_source_index OUTDIR        reads the Sources index (sets the array debian_apt)
#   installed_source DEV-PACKAGE      "source=version" of an installed package (headers and
#                                     behaviour then agree with the installed -dev package)
#   fetch_debian_sources SRCDIR SOURCE=VERSION...   unpacks them into SRCDIR (`apt-get source`)
#   fetch_newest_source SRCDIR SOURCE  unpacks the newest version of SOURCE that the archive
#                                     serves (an index may name a version whose files are not
#                                     there yet); prints "source=version"
source "$(dirname "${BASH_SOURCE[0]}")/private_apt.sh"

debian_source_index() {
  command -v dpkg-source >/dev/null || { echo "debian_sources: dpkg-source missing (Debian package dpkg-dev)" >&2; return 1; }
  local codename
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:?}")
  private_apt_init "$1/apt" "deb-src http://deb.debian.org/debian $codename main" \
    "deb-src http://deb.debian.org/debian $codename-updates main" \
    "deb-src http://deb.debian.org/debian-security $codename-security main"
  debian_apt=("${private_apt[@]:1}")  # its options, for apt-get and apt-cache alike
}

installed_source() {
  dpkg-query -W -f='${source:Package}=${source:Version}' "$1" ||
    { echo "debian_sources: $1 is not installed" >&2; return 1; }
}

fetch_debian_sources() {
  local src=$1
  shift
  rm -rf "$src" && mkdir -p "$src"
  (cd "$src" && apt-get "${debian_apt[@]}" source "$@" </dev/null >"$src/source.log" 2>&1) ||
    { cat "$src/source.log" >&2; echo "debian_sources: apt-get source $* failed" >&2; return 1; }
}

fetch_newest_source() {
  local src=$1 source=$2 version
  mkdir -p "$src"
  for version in $(apt-cache "${debian_apt[@]}" showsrc --only-source "$source" 2>/dev/null |
                   sed -n 's/^Version: //p' | sort -rV); do
    if (cd "$src" && apt-get "${debian_apt[@]}" source "$source=$version" </dev/null >"$src/$source.log" 2>&1); then
      echo "$source=$version"
      return 0
    fi
  done
  cat "$src/$source.log" >&2 2>/dev/null
  echo "debian_sources: no version of source package $source could be fetched" >&2
  return 1
}
