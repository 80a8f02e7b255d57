#!/usr/bin/env node
// Decides at build time whether the addon's GEMM calls OpenBLAS, for binding.gyp:
//   node scripts/blas-config.cjs enabled   -> 1 when OpenBLAS's cblas.h and libopenblas exist (and
//                                             DYPE_BLAS is not 0), else 0
//   node scripts/blas-config.cjs include   -> the folder holding OpenBLAS's cblas.h
//   node scripts/blas-config.cjs off       -> why OpenBLAS is off, as a code for gemm.cc
//                                             (0 on, 1 no cblas.h, 2 no libopenblas, 3 DYPE_BLAS=0)
// Without OpenBLAS the addon uses its own blocked GEMM; `dype system` says which one it has.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

// Debian's libopenblas-dev (pthread variant first, as Debian's alternatives prefer it), then the
// plain layouts of other distributions and of a source install.
const INCLUDES = [
  '/usr/include/x86_64-linux-gnu/openblas-pthread',
  '/usr/include/aarch64-linux-gnu/openblas-pthread',
  '/usr/include/openblas',
  '/usr/local/include/openblas',
];
const LIBS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib', '/usr/local/lib'];

function detect() {
  const flag = (process.env.DYPE_BLAS || '').toLowerCase();
  if (['0', 'off', 'false', 'no'].includes(flag)) return { off: 3, include: '' };
  // cblas.h alone is not enough: the reference CBLAS ships one too; openblas_config.h beside it
  // is OpenBLAS's own.
  const include = INCLUDES.find((d) => existsSync(join(d, 'cblas.h')) && existsSync(join(d, 'openblas_config.h')));
  if (!include) return { off: 1, include: '' };
  if (!LIBS.some((d) => existsSync(join(d, 'libopenblas.so')))) return { off: 2, include };
  return { off: 0, include };
}

const c = detect();
const what = process.argv[2];
const out = { enabled: c.off === 0 ? '1' : '0', include: c.include || '.', off: String(c.off) }[what];
if (out === undefined) {
  process.stderr.write(`blas-config: unknown query ${JSON.stringify(what)} (enabled, include, off)\n`);
  process.exit(2);
}
process.stdout.write(out);
