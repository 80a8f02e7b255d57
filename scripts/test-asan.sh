#!/usr/bin/env bash
# Rebuild the native addon with AddressSanitizer and UndefinedBehaviorSanitizer, run the tests
# that reach native code under them, then restore the optimised build (also on failure).
set -euo pipefail
cd "$(dirname "$0")/.."
trap 'echo "== restoring the optimised addon"; npm run --silent build:native >/dev/null' EXIT
DYPE_SANITIZE=1 npm run --silent build:native >/dev/null
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
# Node itself is not instrumented and keeps allocations alive at exit: leak reports would be noise.
LD_PRELOAD="$asan $ubsan" \
ASAN_OPTIONS=detect_leaks=0,abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1,print_stacktrace=1 \
  npx vitest run test/kernels test/devices test/cli "$@"
