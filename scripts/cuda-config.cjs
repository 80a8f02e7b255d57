#!/usr/bin/env node
// Decides at build time whether the addon gets the CUDA backend, for binding.gyp:
//   node scripts/cuda-config.cjs enabled   -> 1 when nvcc and the static CUDA runtime exist (and
//                                             DYPE_CUDA is not 0), else 0
//   node scripts/cuda-config.cjs home      -> the CUDA toolkit folder
//   node scripts/cuda-config.cjs nvcc      -> the nvcc to run
//   node scripts/cuda-config.cjs off       -> why CUDA is off, as a code for runtime_stub.cc
//                                             (0 on, 1 no nvcc, 2 no libcudart_static.a, 3 DYPE_CUDA=0)
// Nothing here needs a GPU or a driver: the addon links the CUDA runtime statically and the
// runtime looks for libcuda only when first asked, so a CUDA build loads everywhere.
'use strict';
const { existsSync } = require('node:fs');
const { delimiter, join } = require('node:path');

function which(cmd) {
  for (const dir of (process.env.PATH || '').split(delimiter)) {
    if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  return undefined;
}

function detect() {
  const flag = (process.env.DYPE_CUDA || '').toLowerCase();
  const home = process.env.CUDA_HOME || process.env.CUDA_PATH || '/usr/local/cuda';
  if (['0', 'off', 'false', 'no'].includes(flag)) return { off: 3, home, nvcc: '' };
  const nvcc = existsSync(join(home, 'bin', 'nvcc')) ? join(home, 'bin', 'nvcc') : which('nvcc');
  if (!nvcc) return { off: 1, home, nvcc: '' };
  const lib = ['lib64', 'lib', join('targets', 'x86_64-linux', 'lib')].map((d) => join(home, d)).find((d) => existsSync(join(d, 'libcudart_static.a')));
  if (!lib) return { off: 2, home, nvcc };
  return { off: 0, home, nvcc, lib };
}

const c = detect();
const what = process.argv[2];
const out = { enabled: c.off === 0 ? '1' : '0', home: c.home, nvcc: c.nvcc || 'nvcc', off: String(c.off), lib: c.lib || '' }[what];
if (out === undefined) {
  process.stderr.write(`cuda-config: unknown query ${JSON.stringify(what)} (enabled, home, nvcc, lib, off)\n`);
  process.exit(2);
}
process.stdout.write(out);
