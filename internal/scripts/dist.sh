#!/usr/bin/env bash
# Release archives: one per cross-built binary, with the README, the
# licences, the example configuration, the install guide and the systemd
# unit, and SHA256SUMS over the archives.
#   usage: dist.sh CROSSDIR OUTDIR
# outpost-VERSION-GOOS-GOARCH.tar.gz (.zip for windows); VERSION is
# `git describe --tags --always --dirty`. The archives are reproducible:
# fixed owner, file order and times (the last commit's), gzip without a name
# or time stamp.
set -euo pipefail
cd "$(dirname "$0")/../.."
cross=$1 out=$2
version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
epoch=$(git log -1 --format=%ct 2>/dev/null || echo 0)
log() { printf 'dist: %s\n' "$*" >&2; }
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# Licences of the Go modules compiled into the binary, one after another.
third="$stage/THIRD_PARTY_LICENSES.txt"
go list -deps -f '{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}} {{.Dir}}{{end}}{{end}}' ./cmd/outpost |
  sort -u | while read -r path ver dir; do
    lic=$(find "$dir" -maxdepth 1 -type f \( -iname 'LICENSE*' -o -iname 'LICENCE*' -o -iname 'COPYING*' \) | sort | head -1)
    [ -n "$lic" ] || { log "no licence file in module $path $ver"; exit 1; }
    printf '=== %s %s (%s)\n\n' "$path" "$ver" "$(basename "$lic")"
    cat "$lic"; printf '\n'
  done >"$third"

{ printf "=== Go standard library and runtime %s (LICENSE)\n\n" "$(go env GOVERSION)"; cat "$(go env GOROOT)/LICENSE"; printf "\n"; } >>"$third"

n=0
for bin in "$cross"/outpost-*; do
  name=$(basename "$bin" .exe)
  target=${name#outpost-}
  dir="$stage/outpost-$version-$target"
  mkdir -p "$dir"
  cp "$bin" "$dir/"
  [[ $bin == *.exe ]] || mv "$dir/$name" "$dir/outpost"
  [[ $bin == *.exe ]] && mv "$dir/$name.exe" "$dir/outpost.exe"
  cp README.md config.example.toml "$dir/"
  cp docs/install.md "$dir/INSTALL.md"
  cp "$third" "$dir/"
  if [ -f LICENSE ]; then cp LICENSE "$dir/"; fi
  case $target in linux-*) cp contrib/outpost.service "$dir/";; esac
  find "$dir" -exec touch -h -d "@$epoch" {} +
  base="outpost-$version-$target"
  if [[ $target == windows-* ]]; then
    (cd "$stage" && find "$base" -print | LC_ALL=C sort | TZ=UTC zip -X -q -@ "$out/$base.zip")
  else
    tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "$base" |
      gzip -9 -n >"$out/$base.tar.gz"
  fi
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { log "no binaries in $cross (run make cross)"; exit 1; }
[ -f LICENSE ] || log "NOTE: the repository has no LICENSE file; the archives carry THIRD_PARTY_LICENSES.txt only"
(cd "$out" && sha256sum -- *.tar.gz *.zip 2>/dev/null >SHA256SUMS)
log "$n archives and SHA256SUMS in $out/ (version $version)"
