#!/usr/bin/env bash
# Regenerates the README's front picture (docs/img/front.png) and prints the table that goes
# with it, by running `dype explore` as a new user does: the default workload and input, and no
# calibration (an empty cache folder), so the result is the same on every machine.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build:ts
cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT
DYPE_CACHE_DIR="$cache" node dist/cli/main.js explore --out docs/img/front.png
ls -l docs/img/front.png
