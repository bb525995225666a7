#!/usr/bin/env bash
# Cross-builds bin/outpost for the release targets without cgo (the release
# binaries need no C toolchain or shared library; docs/install.md).
#   usage: cross.sh OUTDIR GOOS/GOARCH...
# Writes OUTDIR/outpost-GOOS-GOARCH (".exe" on windows). Needs the pure-Go
# build of every package (issue #28 item 2: models without ONNX Runtime).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$1; shift
mkdir -p "$out"
for target in "$@"; do
  goos=${target%/*} goarch=${target#*/}
  ext=; [ "$goos" = windows ] && ext=.exe
  printf 'cross: %s/%s\n' "$goos" "$goarch" >&2
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -o "$out/outpost-$goos-$goarch$ext" ./cmd/outpost
done
