# Sourced by scripts that fetch Debian packages or source packages of a given release
# without touching the system's apt configuration: a private apt state (sources list,
# package lists, cache) under a directory of the caller's, checked against Debian's archive
# keyring like the system's own. After `private_apt_init DIR LINE...` the array
# `private_apt` is an apt-get command line on that state, already updated.
#   private_apt_init DIR 'deb-src http://deb.debian.org/debian bullseye main' ...
# Each LINE is a sources.list line without the [signed-by] option, which is added.

private_apt_options() {  # private_apt_options DIR: fills private_apt for a state made before
  local dir=$1
  private_apt=(apt-get -q -o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
               -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
               -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
               -o APT::Sandbox::User=root)
}

private_apt_init() {  # private_apt_init DIR LINE...: fills private_apt, runs apt-get update
  local dir=$1 line kind rest
  shift
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  : >"$dir/sources.list"
  for line in "$@"; do
    read -r kind rest <<<"$line"
    echo "$kind [signed-by=$keyring] $rest" >>"$dir/sources.list"
  done
  private_apt_options "$dir"
  "${private_apt[@]}" update </dev/null >"$dir/update.log" 2>&1 || {
    cat "$dir/update.log" >&2
    echo "private_apt: cannot read the package index of: $*" >&2
    return 1
  }
}
