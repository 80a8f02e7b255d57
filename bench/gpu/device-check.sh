#!/usr/bin/env bash
# The CUDA checks for a lent GPU machine (the team's `device` tool), as one script: unpack what
# was carried (a Node binary, node_modules, the shared datasets, an addon built with
# DYPE_PORTABLE=1 and CUDA), run the device conformance suite and the CUDA tests with the GPU
# required, then the GPU benchmark. Everything lands in $OUT: the probe, nvidia-smi, the test log,
# the benchmark's JSON and Markdown; with DECISIONS=1, the decision suite on the real CPU + GPU
# (`decisions.json`, `decisions.md`); with DENSE_OPS=1, the dense operators on the card beside the CPU. See bench/gpu/README.md for how to prepare the carry folder.
set -u
cd "$(dirname "$0")/../.."
C=${DYPE_CARRY:-.devcarry}
OUT=${OUT:-/tmp/dype-out}
mkdir -p "$OUT"
t0=$(date +%s)
step() { echo "== $(($(date +%s) - t0)) s: $*"; }

step setup
if ! command -v node >/dev/null 2>&1 || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  mkdir -p /tmp/nodebin && xz -dc "$C/node.xz" >/tmp/nodebin/node && chmod +x /tmp/nodebin/node
  export PATH=/tmp/nodebin:$PATH
fi
node -v
[ -d node_modules/vitest ] || tar -xJf "$C/nm.tar.xz"
mkdir -p /tmp/datasets && tar -xJf "$C/datasets.tar.xz" -C /tmp/datasets
# The addon, carried compressed or not, and the system libraries it links that the lent machine's
# image lacks (OpenBLAS, METIS and their runtime), carried as libs.tar.xz holding lib/.
addon=$PWD/$C/dype_native.node
if [ -f "$C/dype_native.node.xz" ]; then addon=/tmp/dype_native.node && xz -dc "$C/dype_native.node.xz" >"$addon"; fi
if [ -f "$C/libs.tar.xz" ]; then
  mkdir -p /tmp/devlibs && tar -xJf "$C/libs.tar.xz" -C /tmp/devlibs && export LD_LIBRARY_PATH=/tmp/devlibs/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
export DYPE_SKIP_CLI_BUILD=1 DYPE_DATASETS=/tmp/datasets DYPE_NATIVE_ADDON=$addon DYPE_CACHE_DIR=/tmp/dype-cache
nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
nproc
# cuBLAS for GEMM on the card: the toolkit's, else NVIDIA's pip wheel where the image has one.
if [ -z "${DYPE_CUBLAS:-}" ] && ! ls /usr/local/cuda/lib64/libcublas.so* >/dev/null 2>&1; then
  DYPE_CUBLAS=$(find / -xdev -name 'libcublas.so.1[0-9]*' -not -path '*/proc/*' 2>/dev/null | sort | tail -1)
  [ -n "$DYPE_CUBLAS" ] && export DYPE_CUBLAS && echo "cuBLAS: $DYPE_CUBLAS"
fi

step probe
node -e 'const a = require(process.env.DYPE_NATIVE_ADDON); console.log(JSON.stringify({ ...a.gpuProbe(), blas: a.gpuBlasProbe() }))' | tee "$OUT/probe.json"
node --import tsx src/cli/main.ts system 2>&1 | tee "$OUT/system.txt" | head -12

if [ "${SKIP_TESTS:-0}" != 1 ]; then
  step tests
  DYPE_REQUIRE_CUDA=1 timeout "${TEST_TIMEOUT:-240}" node_modules/.bin/vitest run --maxWorkers 6 \
    ${TESTS:-test/devices/conformance test/devices/gpu/} >"$OUT/tests.log" 2>&1
  echo "tests exit $?"
  grep -E "Test Files|Tests |FAIL|✗|×" "$OUT/tests.log" | head -30
fi

if [ "${DECISIONS:-0}" = 1 ]; then
  # Decision quality on this machine's CPU + its GPU + a simulated CGRA, against the oracle by execution.
  step decisions
  # Progress lines stamped with the seconds since the step began.
  (timeout "${DECISIONS_TIMEOUT:-240}" node --import tsx bench/scheduler/decision-quality.ts --quick --systems "${DECISION_SYSTEMS:-cpu-cuda-cgra}" \
    ${DECISION_ARGS:-} --json "$OUT/decisions.json" 2>&1 >"$OUT/decisions.md"; echo "decisions exit $?") |
    { s=$SECONDS; while IFS= read -r l; do echo "$((SECONDS - s)) $l"; done; } >"$OUT/decisions.log"
  tail -1 "$OUT/decisions.log"
  tail -25 "$OUT/decisions.md"
  grep -E "loss [0-9]" "$OUT/decisions.log" | tail -16
fi

if [ "${DENSE_OPS:-0}" = 1 ]; then
  step dense-ops
  timeout "${DENSE_TIMEOUT:-60}" node --import tsx bench/gpu/dense-ops.ts --repeats 5 >"$OUT/dense-ops.md" 2>&1
  echo "dense-ops exit $?"
  cat "$OUT/dense-ops.md"
fi

if [ -n "${EXTRA:-}" ]; then
  # One more script with its arguments, e.g. EXTRA="bench/gpu/kept-intermediates.ts --scale 20".
  step extra
  timeout "${EXTRA_TIMEOUT:-120}" node --import tsx ${EXTRA} 2>&1 | tee "$OUT/extra.log"
fi

if [ "${SKIP_BENCH:-0}" != 1 ]; then
  step bench
  timeout "${BENCH_TIMEOUT:-300}" node --import tsx bench/gpu/run.ts ${BENCH_ARGS:-} --datasets /tmp/datasets \
    --out "$OUT/gpu-bench.json" >"$OUT/bench.md" 2>"$OUT/bench.log"
  echo "bench exit $?"
  cat "$OUT/bench.md"
  tail -4 "$OUT/bench.log"
fi
step done
