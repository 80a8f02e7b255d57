#!/usr/bin/env bash
# Rebuild the native addon with AddressSanitizer and UndefinedBehaviorSanitizer, run the tests
# that reach native code under them, then restore the optimised build (also on failure).
#
#   bash scripts/test-asan.sh [--native-only] [--no-restore] [vitest args...]
#
# --native-only runs the native-facing subset CI uses (kernels, devices, the native fuzz and the
# concurrency checks) and leaves out the CLI tests, which spawn whole `dype` processes and take
# most of the sanitised run. --no-restore leaves the sanitised build in place (CI's last step).
# The tests on the real datasets (when ../shared/datasets is there) are left out: they run the
# same kernels as the generated inputs, on matrices big enough to take over six minutes sanitised.
set -euo pipefail
cd "$(dirname "$0")/.."
restore=1
# Also the input scans, the upload hash, the shared-memory regions and the distributed BFS level
# steps (native/src/input_scans.cc, content_hash.cc, shared_memory.cc, kernels/dist_bfs.cc).
scans=(test/distributed/dist-bfs-steps.test.ts test/distributed/dist-bfs-faults.test.ts test/data/first-non-finite.test.ts test/data/csr-check-native.test.ts test/data/off-thread-checks.test.ts test/service/content-hash.test.ts test/service/shared-memory-upload.test.ts test/service/shared-memory-replies.test.ts)
tests=(test/kernels test/devices test/fuzz/native.test.ts test/fuzz/bfs-resume.test.ts test/hardening test/cli "${scans[@]}")
while [[ $# -gt 0 ]]; do
  case "$1" in
    --native-only) tests=(test/kernels test/devices test/fuzz/native.test.ts test/fuzz/bfs-resume.test.ts test/hardening "${scans[@]}"); shift ;;
    --no-restore) restore=0; shift ;;
    *) break ;;
  esac
done
if [[ $restore == 1 ]]; then
  trap 'echo "== restoring the optimised addon"; npm run --silent build:native >/dev/null' EXIT
fi
start=$SECONDS
echo "== building the addon with -fsanitize=address,undefined"
# Without CUDA: nvcc compiles the .cu files without the sanitizers' flags (their host code is not
# instrumented either way), and compiling them for three GPU targets took about half of this
# build's 9.5 minutes on a 2-vCPU VM; the binding's argument checks are the same code without them.
DYPE_SANITIZE=1 DYPE_CUDA=0 npm run --silent build:native >/dev/null
echo "   built in $((SECONDS - start)) s"
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
# Node itself is not instrumented and keeps allocations alive at exit: leak reports would be noise.
# Sanitised code runs several times slower, hence the longer test timeout; the native fuzz runs
# at five times its `npm test` size here, since this is where an out-of-bounds read would abort.
LD_PRELOAD="$asan $ubsan" \
ASAN_OPTIONS=detect_leaks=0,abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1,print_stacktrace=1 \
DYPE_FUZZ_SCALE="${DYPE_FUZZ_SCALE:-5}" \
  npx vitest run --testTimeout=300000 "${tests[@]}" \
    --exclude test/devices/conformance/datasets.test.ts --exclude test/kernels/datasets.test.ts "$@"
echo "== sanitised tests passed in $((SECONDS - start)) s (build included)"
