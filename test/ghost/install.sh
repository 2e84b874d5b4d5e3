#!/usr/bin/env bash
# Installs a real Ghost 5 (SQLite) for the Ghost destination's tests, into a cache directory outside the checkout.
# Only the npm registry is reachable, and `npm install ghost@5` fails (its package.json names file:components/*.tgz and
# a GitHub dev dependency), so the published tarball is unpacked, its devDependencies dropped and its runtime
# dependencies installed in place (sqlite3 and re2 compile from source: about 7 minutes on 2 cores, 530 MB).
# Idempotent: a complete install ends with a marker naming the node binary it was built with (its native modules fit
# that ABI only); the tests start Ghost with that binary whatever Node runs the suite. Quiet unless it fails.
set -euo pipefail

version="5.130.4"
dir="${SIGHTLINE_GHOST_DIR:-$HOME/.cache/sightline/ghost-$version}"
marker="$dir/.sightline-ghost-installed"

if [ -f "$marker" ]; then
  exit 0
fi
mkdir -p "$(dirname "$dir")"
# Two installs at once (two checkouts' test runs) wait for each other; the second then finds the first one's marker.
exec 9>"$dir.lock"
flock 9
if [ -f "$marker" ]; then
  exit 0
fi

node_bin="$(command -v node)"
node_bin="$(readlink -f "$node_bin")"
major="$("$node_bin" -p 'process.versions.node.split(".")[0]')"
case "$major" in
  18 | 20 | 22) ;;
  *)
    echo "Ghost $version supports Node 18, 20 and 22; this is Node $major: not installed" >&2
    exit 1
    ;;
esac

# Built beside the target and moved in at the end, so an interrupted install never looks complete.
staging="$(mktemp -d "$(dirname "$dir")/.ghost-staging.XXXXXX")"
log="$staging/install.log"
trap 'rm -rf "$staging"' EXIT

if ! (
  cd "$staging"
  npm pack --silent "ghost@$version" >/dev/null
  tar xzf "ghost-$version.tgz"
  cd package
  node -e "const p = require('./package.json'); delete p.devDependencies; require('fs').writeFileSync('package.json', JSON.stringify(p, null, 2))"
  npm install --omit=dev --legacy-peer-deps --no-audit --no-fund --loglevel=error
  # The native modules the tests need: a missing one means a build failed that npm did not report.
  "$node_bin" -e "require('sqlite3'); require('re2')"
) >"$log" 2>&1; then
  echo "Installing Ghost $version failed; the last lines of its log:" >&2
  tail -n 30 "$log" >&2
  exit 1
fi

rm -rf "$dir"
mv -T "$staging/package" "$dir"
printf '%s\n' "$node_bin" >"$marker"
