// The CGRA simulator's native exports (native/src/sim/cgra_binding.cc), declared here rather than
// in src/native/addon.ts so the simulator stays one self-contained backend.

import type { RowPtrArray } from '../../data/csr.js';
import { NativeError } from '../../errors.js';
import { nativeAddon, type SpmmArgs } from '../../native/addon.js';

/** The device spec's values by parameter name, as the simulator reads them. */
export type CgraParams = Readonly<Record<string, number>>;

/** What every simulation resolves with: the simulator's counters plus its own wall time. */
export interface CgraCounters {
  /** Wall time the simulation itself took on this machine (not the simulated time). */
  readonly seconds: number;
  readonly cycles: number;
  readonly computeCycles: number;
  readonly bankStallCycles: number;
  readonly dmaStallCycles: number;
  readonly configCycles: number;
  readonly passOverheadCycles: number;
  readonly ii: number;
  readonly unrollLanes: number;
  readonly unrollNonzeros: number;
  readonly iterations: number;
  readonly operations: number;
  readonly aluOperations: number;
  readonly memoryOperations: number;
  readonly spmAccesses: number;
  readonly dramBytes: number;
  readonly dmaTransactions: number;
  readonly lineMisses: number;
  readonly tiles: number;
  readonly passes: number;
  readonly resident: number;
  readonly simulatedSeconds: number;
  readonly joules: number;
  readonly utilisation: number;
}

export interface CgraAddon {
  /** `timing` false: the result alone, accumulated as the simulation does; the counters come back zero (default true). */
  cgraSpmm(...args: [...SpmmArgs, params: CgraParams, inline?: boolean, timing?: boolean]): Promise<CgraCounters>;
  /** cgraSpmm whose errors name cgraSpmv. */
  cgraSpmv: CgraAddon['cgraSpmm'];
  /**
   * `startLevel` -1 (default) searches from `source`; L >= 0 resumes from the depths already in
   * `depth` (each in [-1, L]) at the frontier of depth L. `maxLevels` > 0 stops after that many
   * levels (0, the default: no limit). `frontier[0]` is the starting frontier's size.
   */
  cgraBfs(
    n: number,
    rowPtr: RowPtrArray,
    colIdx: Int32Array,
    source: number,
    depth: Int32Array,
    params: CgraParams,
    inline?: boolean,
    startLevel?: number,
    maxLevels?: number,
  ): Promise<CgraCounters & { readonly frontier: Float64Array }>;
  cgraMsbfs(
    n: number,
    rowPtr: RowPtrArray,
    colIdx: Int32Array,
    sources: Int32Array,
    depths: Int32Array,
    params: CgraParams,
    inline?: boolean,
  ): Promise<CgraCounters>;
}

/**
 * The addon seen through the simulator's exports.
 * @throws {NativeError} when the addon was built without the simulator (rebuild it).
 */
export function cgraAddon(): CgraAddon {
  const addon = nativeAddon() as unknown as Partial<CgraAddon>;
  if (typeof addon.cgraSpmm !== 'function' || typeof addon.cgraBfs !== 'function' || typeof addon.cgraMsbfs !== 'function') {
    throw new NativeError('cgraAddon: the native addon has no CGRA simulator; rebuild it with `npm run build:native`');
  }
  return addon as CgraAddon;
}
