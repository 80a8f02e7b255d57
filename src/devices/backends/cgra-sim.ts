// The `cgra-sim` backend: a cycle-approximate simulator of a HyCUBE-style CGRA that DMAs its
// operands from host memory. It computes the true result on the real data and reports simulated
// cycles, time and energy (docs/cgra-sim.md describes the model and its sources).

import { denseElements } from '../../data/dense.js';
import { InvalidArgumentError } from '../../errors.js';
import { callNative } from '../../kernels/native-call.js';
import { inlineWork } from '../../kernels/inline.js';
import { INLINE_WORK } from '../../native/addon.js';
import type { Availability, BackendDefinition } from '../backend.js';
import { BackendDevice, everyOperator, type Execution, outputRows, SpmmFigures, searchComplete, spmmArgs } from '../backend-device.js';
import type { Device, DeviceCapabilities, DevicePower, DeviceSpec } from '../device.js';
import type { CheckedBfs, CheckedMsbfs, CheckedSpmm } from '../run-checks.js';
import { type ParamRules, specValues } from '../spec.js';
import { type DeviceTraits, specNumber } from '../traits.js';
import { cgraAddon, type CgraCounters, type CgraParams } from './cgra-native.js';

/** Every parameter a cgra-sim spec gives (devices/cgra-sim/*.json). */
export const CGRA_PARAMS: ParamRules = {
  peRows: { min: 1, max: 64, integer: true, unit: 'PEs', description: 'rows of the PE array' },
  peCols: { min: 1, max: 64, integer: true, unit: 'PEs', description: 'columns of the PE array' },
  memPorts: { min: 1, max: 4096, integer: true, unit: 'PEs', description: 'memory-capable PEs (one scratchpad access per cycle each)' },
  clockHz: { min: 1e6, max: 1e11, unit: 'Hz', description: 'array clock' },
  spmBytes: { min: 1024, max: 2 ** 30, integer: true, unit: 'B', description: 'data scratchpad capacity' },
  spmBanks: { min: 1, max: 64, integer: true, unit: 'banks', description: 'word-interleaved scratchpad banks, one access per cycle each' },
  fpLatencyCycles: { min: 1, max: 64, integer: true, unit: 'cycles', description: 'latency of a floating-point multiply-add (the accumulator recurrence)' },
  fp64OpSlots: { min: 1, max: 16, integer: true, unit: 'slots', description: 'PE issue slots of one FP64 operation' },
  dmaBytesPerCycle: { min: 0.01, max: 4096, unit: 'B/cycle', description: 'DMA bandwidth to host memory' },
  dmaLatencyCycles: { min: 0, max: 1e6, integer: true, unit: 'cycles', description: 'latency of one DMA transaction' },
  dmaOutstanding: { min: 1, max: 1024, integer: true, unit: 'transactions', description: 'DMA transactions in flight at once' },
  lineBytes: { min: 4, max: 65536, integer: true, unit: 'B', description: 'line of the scratchpad line buffers (one DMA burst)' },
  configBytesPerSlot: { min: 1, max: 4096, integer: true, unit: 'B', description: 'configuration bytes per PE per II slot' },
  passOverheadCycles: { min: 0, max: 1e9, integer: true, unit: 'cycles', description: 'start-up cost of one BFS pass' },
  opEnergyPj: { min: 0, max: 1e6, unit: 'pJ', description: 'energy per PE operation' },
  spmAccessEnergyPj: { min: 0, max: 1e6, unit: 'pJ', description: 'energy per scratchpad word access' },
  dramByteEnergyPj: { min: 0, max: 1e6, unit: 'pJ', description: 'energy per byte moved to or from DRAM' },
  staticWatts: { min: 0, max: 1e6, unit: 'W', description: 'static power of the array and scratchpad' },
  hostMemoryBytes: { min: 0, max: 2 ** 53, integer: true, unit: 'B', description: 'host memory the DMA engine can address' },
};

/**
 * Rates and caches of a CGRA from its spec. Gathered rows of X get an eighth of the scratchpad
 * before they start to miss and half of it at most: the rest holds tiles of A and Y.
 */
function cgraTraits(spec: DeviceSpec, at: (key: string) => number, activeWatts: number): DeviceTraits {
  const clock = at('clockHz');
  const pes = at('peRows') * at('peCols');
  const spm = at('spmBytes');
  return {
    caches: { near: spm / 8, far: spm / 2, source: `an eighth and a half of the ${spec.name} scratchpad (the rest holds tiles of A and Y)` },
    // A bit per source in a 32-bit PE word: batches of 32 (docs/cgra-sim.md).
    searchLanes: 32,
    dense: {
      // One multiply-add (2 flops) per PE per cycle when the loop is fully pipelined.
      flopsPerSecond: { f32: 2 * pes * clock, f64: 2 * at('fp64OpSlots') * clock },
      bytesPerSecond: at('dmaBytesPerCycle') * clock,
      launchSeconds: at('passOverheadCycles') / clock,
      busyWatts: at('staticWatts'),
      joulesPerFlop: (at('opEnergyPj') * 1e-12) / 2,
      joulesPerByte: at('dramByteEnergyPj') * 1e-12,
      source: `roofline from the ${spec.name} spec (one multiply-add per PE per cycle, DMA bandwidth)`,
    },
    sparse: {
      machine: 'spatial',
      clockHz: clock,
      memoryPorts: at('memPorts'),
      dmaBytesPerCycle: at('dmaBytesPerCycle'),
      dmaLatencyCycles: at('dmaLatencyCycles') / Math.max(1, at('dmaOutstanding')),
      passOverheadCycles: at('passOverheadCycles'),
      busyWatts: activeWatts,
    },
  };
}

class CgraSimDevice extends BackendDevice {
  readonly capabilities: DeviceCapabilities;
  readonly power: DevicePower;
  readonly traits: DeviceTraits;
  private readonly params: CgraParams;
  // Each SpMM's simulated counters: a later product of the matrix computes its result alone, in the simulation's own order.
  private readonly simulations = new SpmmFigures<CgraCounters>();

  constructor(name: string, spec: DeviceSpec) {
    super(cgraSimBackend, name, spec);
    const fn = 'cgraSimBackend.create';
    const at = (key: string): number => specNumber(fn, spec, key);
    const pes = at('peRows') * at('peCols');
    if (at('memPorts') > pes) throw new InvalidArgumentError(`${fn}: memPorts = ${at('memPorts')} exceeds the ${pes} PEs of spec ${spec.name}`);
    if (at('lineBytes') % 4 !== 0 || at('lineBytes') > at('spmBytes') / 2) {
      throw new InvalidArgumentError(`${fn}: lineBytes = ${at('lineBytes')} must be a multiple of 4 and at most half of spmBytes`);
    }
    this.params = specValues(spec);
    this.capabilities = everyOperator({ memoryBytes: at('hostMemoryBytes'), concurrency: 1, bfsResume: true });
    // Fully busy: every PE issues an operation and every memory port a scratchpad access each cycle.
    const dynamic = (pes * at('opEnergyPj') + at('memPorts') * at('spmAccessEnergyPj')) * 1e-12 * at('clockHz');
    this.power = { idleWatts: at('staticWatts'), activeWatts: at('staticWatts') + dynamic, source: 'simulated' };
    this.traits = cgraTraits(spec, at, this.power.activeWatts);
  }

  protected async spmm(req: CheckedSpmm, fn: string): Promise<Execution> {
    const { a, x, range } = req;
    const y = outputRows(fn, x, range);
    const call = req.kind === 'spmm' ? cgraAddon().cgraSpmm : cgraAddon().cgraSpmv;
    const small = inlineWork(a, range[0], range[1], x.cols) !== 0;
    const known = this.simulations.get(req);
    if (known) {
      const r = await callNative(fn, () => call(...spmmArgs(a, x, y, range), this.params, small, false));
      return simulated(y, { ...known, seconds: r.seconds }, 1);
    }
    const c = await callNative(fn, () => call(...spmmArgs(a, x, y, range), this.params, small));
    this.simulations.set(req, c);
    return simulated(y, c, 0);
  }

  protected async bfs(req: CheckedBfs, fn: string): Promise<Execution> {
    const { graph: g, source, depth, startLevel, maxLevels } = req;
    const c = await callNative(fn, () =>
      cgraAddon().cgraBfs(g.rows, g.rowPtr, g.colIdx, source, depth, this.params, g.rows + g.nnz < INLINE_WORK, startLevel, maxLevels),
    );
    return simulated({ depth, frontier: c.frontier, complete: searchComplete(maxLevels, c.frontier) }, c);
  }

  protected async msbfs(req: CheckedMsbfs, fn: string): Promise<Execution> {
    const {
      graph: g,
      sources,
      range: [begin, end],
    } = req;
    const depths = new Int32Array(denseElements(fn, end - begin, g.rows));
    // A copy, so the sources cannot change under the simulation.
    const chosen = sources.slice(begin, end);
    const c = await callNative(fn, () =>
      cgraAddon().cgraMsbfs(g.rows, g.rowPtr, g.colIdx, chosen, depths, this.params, (g.rows + g.nnz) * chosen.length < INLINE_WORK),
    );
    return simulated({ depths }, c);
  }
}

/**
 * A simulation's result: simulated time and energy, and every simulator counter but its own wall
 * time; for an SpMM or SpMV, `reused` 1 where the counters are an earlier simulation's of the
 * same structure (only the result was computed), else 0.
 */
function simulated(output: Execution['output'], c: CgraCounters, reused?: 0 | 1): Execution {
  const { seconds, ...rest } = c;
  const counters: Record<string, number> = { simulationWallSeconds: seconds, ...(reused === undefined ? {} : { reused }) };
  for (const [k, v] of Object.entries(rest)) if (typeof v === 'number') counters[k] = v;
  return { output, seconds: c.simulatedSeconds, energy: { joules: c.joules, source: 'simulated' }, counters };
}

/**
 * The cgra-sim backend: always available (it is a simulator).
 * @example
 * const spec = loadProfile('example', 'cgra-sim', 'hycube-4x4', cgraSimBackend.params);
 * const dev = cgraSimBackend.create('cgra0', spec);
 * const { seconds, joules, counters } = await dev.run({ kind: 'spmv' }, { a, x });
 */
export const cgraSimBackend: BackendDefinition = {
  name: 'cgra-sim',
  description: 'cycle-approximate HyCUBE-style CGRA simulator (banked scratchpad, DMA from host memory)',
  kind: 'cgra',
  simulated: true,
  hostMemory: true,
  defaultProfile: 'hycube-4x4',
  params: CGRA_PARAMS,
  probe(): Promise<Availability> {
    return Promise.resolve({ available: true, detail: 'simulator built into the native addon' });
  },
  create(name: string, spec: DeviceSpec): Device {
    return new CgraSimDevice(name, spec);
  },
};
