# Sourced by every build that compiles a library from Debian's source packages (the mingw
# libraries of parquet.dll, the PIC codecs of `make dist`, the wasm libraries): the one place
# that decides which source version a build takes, and fetches it once.
#
# A build wants the source of an installed -dev package ("libzstd=1.5.4+dfsg2-5+deb12u1"),
# but the archive does not always serve that exact version's source: security updates may be
# served as binaries only (the .dsc of bookworm-security's libzstd answers 404 here). So a
# wanted version resolves to the first of these that the archive actually serves:
#   1. the wanted version itself;
#   2. the newest other version with the same upstream version (same code, other patches);
#   3. the newest version the archive serves at all;
# and the build says on stderr which it took when it is not the wanted one. The build then
# takes its headers from that same source (never the host's -dev headers).
#
# Downloads are cached outside the build folders, under DEBIAN_SOURCE_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/sqlite-parquet/debian-sources): each source version's files
# (.dsc and tarballs, checked by apt against the signed Sources index) in SOURCE_VERSION/,
# and each resolution in resolved/, keyed by what was wanted, so a second run reads neither
# the index nor the archive. A private apt state (private_apt.sh) knows the running
# release's deb-src entries; the system's apt sources are not touched. flock serialises
# concurrent builds (the Windows build in the background, make dist, the wasm build).
#
#   installed_source DEV-PACKAGE            "source=version" of an installed -dev package
#   resolve_debian_source SOURCE=VERSION    prints the "source=version" taken (see above),
#                                           downloaded into the cache; fails with one line
#                                           naming the source and version when none can be had
#   resolve_installed_source DEV-PACKAGE    the same, for the installed package's source
#   unpack_debian_source SRCDIR SOURCE=VERSION   unpacks a resolved source (Debian's patches
#                                           applied) into SRCDIR/SOURCE-UPSTREAM
#   DEBIAN_SOURCE_PACKAGES                  the -dev packages whose sources the builds use
source "$(dirname "${BASH_SOURCE[0]}")/private_apt.sh"

DEBIAN_SOURCE_PACKAGES=(libzstd-dev liblz4-dev libsnappy-dev libbrotli-dev zlib1g-dev libxxhash-dev libssl-dev)
DEBIAN_SOURCE_CACHE=${DEBIAN_SOURCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sqlite-parquet/debian-sources}

installed_source() {
  dpkg-query -W -f='${source:Package}=${source:Version}' "$1" 2>/dev/null ||
    { echo "debian_sources: $1 is not installed" >&2; return 1; }
}

_debian_source_lock() {  # runs "$@" holding the cache's lock
  mkdir -p "$DEBIAN_SOURCE_CACHE"
  (flock 9 && "$@") 9>"$DEBIAN_SOURCE_CACHE/.lock"
}

# The private apt state, its index read again when older than a day (security updates change
# what is served). Sets debian_apt (the options, for apt-get and apt-cache alike).
_debian_source_index() {
  command -v dpkg-source >/dev/null ||
    { echo "debian_sources: dpkg-source missing (Debian package dpkg-dev)" >&2; return 1; }
  local dir=$DEBIAN_SOURCE_CACHE/apt codename
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:?}")
  if [[ -n ${debian_apt+x} ]]; then return 0; fi
  if [[ -n $(find "$dir/updated" -mtime -1 -print 2>/dev/null) ]]; then
    private_apt_options "$dir"
  else
    private_apt_init "$dir" "deb-src http://deb.debian.org/debian $codename main" \
      "deb-src http://deb.debian.org/debian $codename-updates main" \
      "deb-src http://deb.debian.org/debian-security $codename-security main" || return 1
    touch "$dir/updated"
  fi
  debian_apt=("${private_apt[@]:1}")
}

_upstream_of() {  # the upstream part of a Debian version: no epoch, no Debian revision
  local v=${1#*:}
  [[ $v == *-* ]] && v=${v%-*}
  echo "$v"
}

# Downloads SOURCE=VERSION into the cache unless it is there; fails when not served.
_debian_source_download() {
  local pv=$1 dir=$DEBIAN_SOURCE_CACHE/${1/=/_}
  [[ -f $dir/.complete ]] && return 0
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  (cd "$dir.tmp" && apt-get "${debian_apt[@]}" source --download-only "$pv" </dev/null >download.log 2>&1) ||
    { mv "$dir.tmp/download.log" "$DEBIAN_SOURCE_CACHE/last-failure.log" 2>/dev/null; rm -rf "$dir.tmp"; return 1; }
  rm -f "$dir.tmp/download.log"
  compgen -G "$dir.tmp/*.dsc" >/dev/null || { rm -rf "$dir.tmp"; return 1; }
  touch "$dir.tmp/.complete"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

_resolve_debian_source_locked() {
  local wanted=$1 source=${1%%=*} version=${1#*=} key
  key=$DEBIAN_SOURCE_CACHE/resolved/${wanted/=/_}
  if [[ -f $key ]]; then  # line 1: what was taken; line 2, if any: why (said again)
    local taken note
    { read -r taken; read -r note || true; } <"$key"
    if [[ -f $DEBIAN_SOURCE_CACHE/${taken/=/_}/.complete ]]; then
      [[ -z $note ]] || echo "$note" >&2
      echo "$taken"
      return 0
    fi
  fi
  _debian_source_index || { echo "debian_sources: cannot read Debian's source index (wanted $wanted)" >&2; return 1; }
  local served upstream candidate ordered=() tried=()
  served=$(apt-cache "${debian_apt[@]}" showsrc --only-source "$source" 2>/dev/null |
           sed -n 's/^Version: //p' | sort -u | sort -rV)
  upstream=$(_upstream_of "$version")
  ordered+=("$version")
  for candidate in $served; do
    [[ $candidate != "$version" && $(_upstream_of "$candidate") == "$upstream" ]] && ordered+=("$candidate")
  done
  for candidate in $served; do
    [[ $(_upstream_of "$candidate") != "$upstream" ]] && ordered+=("$candidate")
  done
  for candidate in "${ordered[@]}"; do
    tried+=("$candidate")
    if _debian_source_download "$source=$candidate"; then
      local note=
      if [[ $candidate != "$version" ]]; then
        local why="the newest served of upstream version $upstream"
        [[ $(_upstream_of "$candidate") == "$upstream" ]] || why="the newest served at all (none of upstream version $upstream is)"
        note="debian_sources: $source: the source of $version is not served; took $candidate, $why"
        echo "$note" >&2
      fi
      mkdir -p "$DEBIAN_SOURCE_CACHE/resolved"
      printf '%s\n%s\n' "$source=$candidate" "$note" >"$key"
      echo "$source=$candidate"
      return 0
    fi
  done
  echo "debian_sources: no source of $source can be had for $version (tried: ${tried[*]}; the archive lists: ${served:-nothing})" >&2
  return 1
}

resolve_debian_source() {  # resolve_debian_source SOURCE=VERSION
  [[ $1 == ?*=?* ]] || { echo "debian_sources: resolve_debian_source wants SOURCE=VERSION, not '$1'" >&2; return 1; }
  _debian_source_lock _resolve_debian_source_locked "$1"
}

resolve_installed_source() {  # resolve_installed_source DEV-PACKAGE
  local wanted
  wanted=$(installed_source "$1") || return 1
  resolve_debian_source "$wanted"
}

unpack_debian_source() {  # unpack_debian_source SRCDIR SOURCE=VERSION (resolved)
  local srcdir=$1 pv=$2 source=${2%%=*} dir dsc
  dir=$DEBIAN_SOURCE_CACHE/${pv/=/_}
  [[ -f $dir/.complete ]] || { echo "debian_sources: $pv is not downloaded (resolve it first)" >&2; return 1; }
  dsc=$(compgen -G "$dir/*.dsc" | head -1)
  mkdir -p "$srcdir"
  local target=$srcdir/$source-$(_upstream_of "${pv#*=}")
  rm -rf "$target"
  dpkg-source --no-check -x "$dsc" "$target" >"$srcdir/$source.unpack.log" 2>&1 ||
    { cat "$srcdir/$source.unpack.log" >&2; echo "debian_sources: cannot unpack $pv" >&2; return 1; }
}
