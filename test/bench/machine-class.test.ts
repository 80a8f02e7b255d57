// The regression gate keeps one baseline per machine class (bench/common/machine-class.ts): the
// class must tell an AVX-512 Intel VM from an AVX2 AMD one, and a machine without a baseline of
// its own is judged on the deterministic metrics only (deterministicOnly in compare.ts).
import { describe, expect, it } from 'vitest';
import { machineClassOf } from '../../bench/common/machine-class.js';
import { compareMetrics, deterministicOnly } from '../../bench/gate/compare.js';
import type { Metric } from '../../bench/gate/metrics.js';

const cpuinfo = (vendor: string, flags: string): string =>
  `processor\t: 0\nvendor_id\t: ${vendor}\ncpu family\t: 25\nmodel name\t: Some CPU\nflags\t\t: ${flags}\n\nprocessor\t: 1\n`;

describe('machineClassOf', () => {
  it('names the architecture, the widest vector extension and the vendor', () => {
    expect(machineClassOf(cpuinfo('GenuineIntel', 'fpu sse2 avx avx2 fma avx512f avx512bw'), 'x64', 'Intel(R) Xeon(R) Processor')).toBe('x64-avx512-intel');
    expect(machineClassOf(cpuinfo('AuthenticAMD', 'fpu sse2 avx avx2 fma bmi2'), 'x64', 'AMD EPYC')).toBe('x64-avx2-amd');
    expect(machineClassOf(cpuinfo('HygonGenuine', 'fpu sse2'), 'x64', 'Hygon')).toBe('x64-scalar-hygongenuine');
  });

  it("tells an AVX-512 machine whose GEMM is OpenBLAS from one where it is dype's own kernel", () => {
    const intel = cpuinfo('GenuineIntel', 'fpu sse2 avx avx2 fma avx512f avx512bw');
    expect(machineClassOf(intel, 'x64', 'Intel(R) Xeon(R) Processor', 'builtin')).toBe('x64-avx512-intel');
    expect(machineClassOf(intel, 'x64', 'Intel(R) Xeon(R) Processor', 'openblas')).toBe('x64-avx512-intel-openblas');
    expect(machineClassOf(cpuinfo('AuthenticAMD', 'fpu sse2 avx avx2 fma bmi2'), 'x64', 'AMD EPYC', 'openblas')).toBe('x64-avx2-amd');
  });

  it('reads ARM features and falls back to the model name without /proc/cpuinfo', () => {
    expect(machineClassOf('processor\t: 0\nFeatures\t: fp asimd evtstrm aes\n', 'arm64', 'Neoverse-N1')).toBe('arm64-neon-neoverse-n1');
    expect(machineClassOf('', 'arm64', 'Apple M2 (TM)')).toBe('arm64-scalar-apple-m2');
  });
});

describe('deterministicOnly', () => {
  const base: Metric[] = [
    { name: 'bfs.gap/dype', kind: 'ratio', value: 1.2, higherIsBetter: true },
    { name: 'devices.cora.spmm.gpu-sim.cycles', kind: 'deterministic', value: 100, higherIsBetter: false },
  ];

  it('stops gating timed ratios and keeps gating modelled figures', () => {
    const now: Metric[] = [
      { name: 'bfs.gap/dype', kind: 'ratio', value: 0.4, higherIsBetter: true },
      { name: 'devices.cora.spmm.gpu-sim.cycles', kind: 'deterministic', value: 100, higherIsBetter: false },
    ];
    expect(compareMetrics(base, now).ok).toBe(false);
    const judged = compareMetrics(deterministicOnly(base), now);
    expect(judged.ok).toBe(true);
    expect(judged.verdicts.find((v) => v.name === 'bfs.gap/dype')!.status).toBe('info');
    const drifted = compareMetrics(deterministicOnly(base), [now[0]!, { ...now[1]!, value: 103 }]);
    expect(drifted.ok).toBe(false);
  });
});
