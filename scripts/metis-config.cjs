#!/usr/bin/env node
// Decides at build time whether the addon links METIS (graph partitioning), for binding.gyp:
//   node scripts/metis-config.cjs enabled  -> 1 when metis.h (32-bit indices) and libmetis exist
//                                            (and DYPE_METIS is not 0), else 0
//   node scripts/metis-config.cjs off      -> why METIS is off, as a code for partition_binding.cc
//                                            (0 on, 1 no metis.h, 2 no libmetis, 3 DYPE_METIS=0,
//                                            4 metis.h with 64-bit indices)
// Without METIS, row partitions are contiguous blocks only; `dype system` says why.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const INCLUDES = ['/usr/include', '/usr/local/include'];
const LIBS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib', '/usr/local/lib'];

function detect() {
  const flag = (process.env.DYPE_METIS || '').toLowerCase();
  if (['0', 'off', 'false', 'no'].includes(flag)) return 3;
  const include = INCLUDES.find((d) => existsSync(join(d, 'metis.h')));
  if (!include) return 1;
  // The addon passes CSR's 32-bit indices straight through: Debian's libmetis-dev uses 32-bit idx_t.
  if (!/#define\s+IDXTYPEWIDTH\s+32\b/.test(readFileSync(join(include, 'metis.h'), 'utf8'))) return 4;
  if (!LIBS.some((d) => existsSync(join(d, 'libmetis.so')))) return 2;
  return 0;
}

const off = detect();
const what = process.argv[2];
const out = { enabled: off === 0 ? '1' : '0', off: String(off) }[what];
if (out === undefined) {
  process.stderr.write(`metis-config: unknown query ${JSON.stringify(what)} (enabled, off)\n`);
  process.exit(2);
}
process.stdout.write(out);
