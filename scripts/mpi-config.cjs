#!/usr/bin/env node
// Decides at build time whether dype builds its MPI addon (build/Release/dype_mpi.node) against an
// MPI library, for binding.gyp:
//   node scripts/mpi-config.cjs enabled   -> 1 when mpi.h and libmpi exist (and DYPE_MPI is not 0), else 0
//   node scripts/mpi-config.cjs cflags    -> the compile flags (include folders) of that MPI
//   node scripts/mpi-config.cjs libs      -> its link flags
//   node scripts/mpi-config.cjs off       -> why MPI is off, as a code for mpi_binding.cc
//                                            (0 on, 1 no MPI compiler wrapper or pkg-config entry,
//                                            2 no mpi.h in its include folders, 3 DYPE_MPI=0)
// The wrapper compiler says where its MPI lives (Open MPI: `mpicc --showme:compile` and
// `--showme:link`; MPICH: `mpicc -compile-info`); pkg-config's ompi-c or mpich entries are the
// fallback. Without MPI the addon builds anyway and says why distributed runs are unavailable.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

function run(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** Compile and link flags from the MPI wrapper compiler or pkg-config, or undefined. */
function flags() {
  const cc = process.env.MPICC || 'mpicc';
  const compile = run(cc, ['--showme:compile']);
  const link = run(cc, ['--showme:link']);
  if (compile !== undefined && link !== undefined) return { cflags: compile, libs: link };
  // MPICH: "-compile-info" prints the whole compile line; keep its -I and -L/-l/-Wl words.
  const info = run(cc, ['-compile-info']);
  if (info !== undefined) {
    const words = info.split(/\s+/);
    return {
      cflags: words.filter((w) => w.startsWith('-I')).join(' '),
      libs: words.filter((w) => /^-(L|l|Wl,)/.test(w)).join(' '),
    };
  }
  for (const pkg of ['ompi-c', 'mpich']) {
    const c = run('pkg-config', ['--cflags', pkg]);
    const l = run('pkg-config', ['--libs', pkg]);
    if (c !== undefined && l !== undefined) return { cflags: c, libs: l };
  }
  return undefined;
}

function detect() {
  const flag = (process.env.DYPE_MPI || '').toLowerCase();
  if (['0', 'off', 'false', 'no'].includes(flag)) return { off: 3 };
  const f = flags();
  if (!f) return { off: 1 };
  const includes = f.cflags
    .split(/\s+/)
    .filter((w) => w.startsWith('-I'))
    .map((w) => w.slice(2));
  if (![...includes, '/usr/include', '/usr/local/include'].some((d) => existsSync(join(d, 'mpi.h')))) return { off: 2 };
  return { off: 0, ...f };
}

const found = detect();
const what = process.argv[2];
const out = {
  enabled: found.off === 0 ? '1' : '0',
  off: String(found.off),
  cflags: found.cflags ?? '',
  libs: found.libs ?? '',
}[what];
if (out === undefined) {
  process.stderr.write(`mpi-config: unknown query ${JSON.stringify(what)} (enabled, off, cflags, libs)\n`);
  process.exit(2);
}
process.stdout.write(out);
