#!/bin/sh
# The steps that turn a checkout into the image's application directory: install (better-sqlite3 compiles here, in
# the build stage, where python3, make and g++ are), compile to dist/, then drop the development packages. The
# Dockerfile runs this script; so does test/deploy/imageSteps.test.ts in a clean copy of the checkout, which proves
# the steps where no container engine runs.
set -eu
cd "${1:-.}"
npm ci --no-audit --no-fund --loglevel=warn
npm run build
npm prune --omit=dev --no-audit --no-fund --loglevel=warn
