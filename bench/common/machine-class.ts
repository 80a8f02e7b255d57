// Which kind of machine a run was timed on, as far as the timed ratios care: the CPU's vendor and
// the widest vector instructions the native build uses. dype's kernels take their AVX-512 paths
// only where the CPU has them, and the references pick their own kernels by CPU (OpenBLAS's Zen
// or SkylakeX code, Eigen's vector width), so a ratio measured on one kind says nothing about
// another: on 28 November 2026 the same code read OpenBLAS/dype GEMM 3.16 on the Intel Xeon
// (AVX-512) development VM and 0.86 on an AMD EPYC (AVX2) one. The regression gate therefore
// keeps one baseline per machine class (bench/gate/files.ts).

import { readFileSync } from 'node:fs';
import { arch, cpus } from 'node:os';
import { nativeAddon } from '../../src/native/addon.js';

/** The vector extensions the native build's paths are chosen by, widest first. */
const VECTOR_LEVELS: readonly (readonly [flag: string, name: string])[] = [
  ['avx512f', 'avx512'],
  ['avx2', 'avx2'],
  ['avx', 'avx'],
  ['asimd', 'neon'],
];

const VENDORS: Readonly<Record<string, string>> = { GenuineIntel: 'intel', AuthenticAMD: 'amd' };

/**
 * The machine class of a /proc/cpuinfo text: `<arch>-<vector level>-<vendor>`, such as
 * `x64-avx512-intel` or `x64-avx2-amd`, and `-openblas` after an AVX-512 one where dype's GEMM
 * calls OpenBLAS (`gemmLibrary`). On AVX-512 machines dype's GEMM is its own kernel unless
 * OpenBLAS knows the CPU's vector units (native/src/kernels/gemm.cc): two Intel Xeon VMs of
 * November 2026 differed just there, OpenBLAS falling back to SSE3 code on one (OpenBLAS/dype
 * GEMM 3.16, against the built-in kernel) and taking its SkylakeX kernels on the other (0.92,
 * OpenBLAS against itself). Pure, so tests can feed it any text.
 */
export function machineClassOf(cpuinfo: string, cpuArch: string, model: string, gemmLibrary?: string): string {
  const field = (name: string): string | undefined => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(cpuinfo)?.[1]?.trim();
  const flags = new Set((field('flags') ?? field('Features') ?? '').split(/\s+/));
  const level = VECTOR_LEVELS.find(([flag]) => flags.has(flag))?.[1] ?? 'scalar';
  const vendorId = field('vendor_id');
  const vendor = vendorId !== undefined ? (VENDORS[vendorId] ?? slug(vendorId)) : slug(model) || 'unknown';
  return `${cpuArch}-${level}-${vendor}${level === 'avx512' && gemmLibrary === 'openblas' ? '-openblas' : ''}`;
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/\(r\)|\(tm\)/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}

/** This machine's class (see machineClassOf); from the CPU model alone where /proc/cpuinfo is absent. */
export function machineClass(): string {
  let info = '';
  try {
    info = readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    // Not Linux: the model name stands in for vendor and vector level alike.
  }
  let gemm: string | undefined;
  try {
    gemm = nativeAddon().gemmInfo().library;
  } catch {
    // No addon: the class is the CPU's alone.
  }
  return machineClassOf(info, arch(), cpus()[0]?.model ?? '', gemm);
}
