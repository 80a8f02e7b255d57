// The `gpu` backend: dype's CUDA kernels on a real NVIDIA GPU (native/src/cuda). Time is the
// kernels' own time from CUDA events (copies to and from the device are reported beside it, and
// priced by the scheduler on the system's links); energy is NVML's board power over that time
// where NVML can be read, else the profile's active power over it (modelled). Where dype was
// built without CUDA, or there is no driver or device, the probe says why and the default
// system uses `gpu-sim` instead.

import { BEAMER_ALPHA, BEAMER_BETA } from '../../beamer.js';
import { denseElements } from '../../data/dense.js';
import { InvalidArgumentError, UnsupportedError } from '../../errors.js';
import { callNative } from '../../kernels/native-call.js';
import { type CudaAddon, type CudaBlasProbe, type CudaProbe, type CudaRun, cudaAddon, SPMM_STRATEGIES } from './cuda-addon.js';
import { announceOutputs, type KeepOutputs, takeKeptOutputs } from '../kept-outputs.js';
import type { BackendDefinition } from '../backend.js';
import { BackendDevice, entriesIn, everyOperator, type Execution, outputRows, searchComplete, spmmArgs } from '../backend-device.js';
import type { Device, DeviceCapabilities, DevicePower, DeviceSpec, RunOptions } from '../device.js';
import type { CheckedBfs, CheckedMsbfs, CheckedSpmm } from '../run-checks.js';
import type { ParamRules } from '../spec.js';
import { GPU_TRAIT_PARAMS, gpuTraits, specNumber, type DeviceTraits } from '../traits.js';
import { operatorKinds } from '../../operators/registry.js';

export { type CudaBlasProbe, type CudaPrefetch, type CudaProbe, type CudaRun, cudaAddon, SPMM_STRATEGIES, type SpmmStrategy } from './cuda-addon.js';

let probed: CudaProbe | undefined;
let blasProbed: CudaBlasProbe | undefined;

/**
 * Whether cuBLAS was found for GEMM on the card, looked for once per process (it is loaded
 * then: a fraction of a second). Looked for only where a CUDA device answers.
 * @example
 * const b = cudaBlas(); // { available: false, reason: 'cuBLAS was not looked for: no CUDA device (...)' } here
 */
export function cudaBlas(): CudaBlasProbe {
  blasProbed ??= cudaAddon().gpuBlasProbe();
  return blasProbed;
}

/**
 * The host-computed kinds this card runs on kernels of its own: every kind with a `gpu` kernel,
 * GEMM only where cuBLAS was found. None without a device.
 */
function cudaDenseKinds(p: CudaProbe): string[] {
  if (!p.available) return [];
  return operatorKinds()
    .filter((k) => {
      const own = k.execution.on === 'host' ? k.execution.onDevice?.['gpu'] : undefined;
      return own !== undefined && (own.needs !== 'blas' || cudaBlas().available);
    })
    .map((k) => k.name);
}

/**
 * What CUDA looks like here, probed once per process (the first probe starts the CUDA runtime,
 * which takes a fraction of a second where a driver exists).
 * @example
 * const p = cudaProbe();
 * console.log(p.available ? `${p.name}, ${p.sms} SMs` : `no CUDA device (${p.reason})`);
 */
export function cudaProbe(): CudaProbe {
  probed ??= cudaAddon().gpuProbe();
  return probed;
}

const GIB = 1024 ** 3;

/**
 * The device's own figures, read at run time, in the parameter names every GPU backend shares
 * (GPU_TRAIT_PARAMS), replacing the profile's: the device's traits read them as a simulated
 * card's are read.
 */
function probedParams(p: CudaProbe): Record<string, { value: number; unit: string; source: string }> {
  if (!p.available) return {};
  const source = `read from the device (${p.name}) through the CUDA runtime at run time`;
  const out: Record<string, { value: number; unit: string; source: string }> = {
    sms: { value: p.sms, unit: 'SMs', source },
    clockMhz: { value: p.clockMhz, unit: 'MHz', source },
    l2Mb: { value: p.l2Bytes / 1e6, unit: 'MB', source },
    memoryGb: { value: p.totalBytes / 1e9, unit: 'GB', source },
  };
  // Double data rate over the bus: what the card's spec sheet quotes as peak bandwidth.
  if (p.memoryClockMhz > 0 && p.busWidthBits > 0) {
    out['dramGbs'] = { value: (p.memoryClockMhz * 1e6 * 2 * (p.busWidthBits / 8)) / 1e9, unit: 'GB/s', source };
  }
  return out;
}
// Buffers resident on the device, with how many prefetches hold each. The native table is keyed
// by address and length, so this map also keeps each resident buffer reachable: its memory
// cannot be freed and its address reused by another array while the device holds its copy.
const residentHolds = new Map<ArrayBufferView, number>();

/** Buffers worth keeping on the device: typed arrays with bytes, each once. */
function residentCandidates(buffers: readonly ArrayBufferView[]): ArrayBufferView[] {
  const out: ArrayBufferView[] = [];
  for (const b of buffers) if (b.byteLength > 0 && !out.includes(b)) out.push(b);
  return out;
}

/**
 * A run's result: the kernels' own time from CUDA events (copies are reported beside it), the
 * operator's counters, then the copies and power every CUDA call reports. Energy is NVML's board
 * power over that time where NVML was read; else the envelope models it from the active power.
 */
function measured(output: Execution['output'], r: CudaRun, counters: Record<string, number>): Execution {
  return {
    output,
    seconds: r.kernelSeconds,
    ...(r.energyMeasured ? { energy: { joules: r.watts * r.kernelSeconds, source: 'measured' as const } } : {}),
    counters: {
      ...counters,
      h2dSeconds: r.h2dSeconds,
      d2hSeconds: r.d2hSeconds,
      h2dBytes: r.h2dBytes,
      d2hBytes: r.d2hBytes,
      wallSeconds: r.seconds,
      watts: r.watts,
      residentBytes: r.residentBytes,
    },
  };
}

class CudaDevice extends BackendDevice {
  readonly capabilities: DeviceCapabilities;
  readonly power: DevicePower;
  readonly traits: DeviceTraits;
  private readonly probe: CudaProbe;

  constructor(name: string, spec: DeviceSpec) {
    const probe = cudaProbe();
    super(gpuBackend, name, { ...spec, params: { ...spec.params, ...probedParams(probe) } });
    const fn = 'gpuBackend.create';
    this.probe = probe;
    this.capabilities = {
      ...everyOperator({ memoryBytes: probe.totalBytes, concurrency: specNumber(fn, spec, 'streams'), bfsResume: true }),
      denseKernels: cudaDenseKinds(probe),
    };
    this.power = {
      idleWatts: specNumber(fn, spec, 'idleWatts'),
      activeWatts: probe.powerLimitWatts > 0 ? probe.powerLimitWatts : specNumber(fn, spec, 'activeWatts'),
      source: probe.nvml ? 'measured' : 'modelled',
    };
    this.traits = gpuTraits(fn, this.spec, this.power);
  }

  protected async spmm(req: CheckedSpmm, fn: string, keep?: KeepOutputs): Promise<Execution> {
    const addon = this.addon(fn);
    const { a, x, range } = req;
    const y = outputRows(fn, x, range);
    announceOutputs([y.data], keep);
    const call = req.kind === 'spmm' ? addon.gpuSpmm : addon.gpuSpmv;
    const s = await callNative(fn, () => call(...spmmArgs(a, x, y, range), SPMM_STRATEGIES.auto));
    return measured(y, s, { strategy: s.strategy, group: s.group, flops: 2 * entriesIn(a, range) * x.cols });
  }

  protected async bfs(req: CheckedBfs, fn: string, keep?: KeepOutputs): Promise<Execution> {
    const addon = this.addon(fn);
    // `req.depth` is fresh, holding the search so far when resuming; the card's depths land in it.
    const { graph: g, inEdges, depth, startLevel, maxLevels } = req;
    announceOutputs([depth], keep);
    const s = await callNative(fn, () =>
      addon.gpuBfs(g.rows, g.rowPtr, g.colIdx, inEdges.rowPtr, inEdges.colIdx, req.source, depth, 0, BEAMER_ALPHA, BEAMER_BETA, startLevel, maxLevels),
    );
    const bottomUpLevels = s.bottomUp.reduce((t, b) => t + b, 0);
    const output = { depth, frontier: s.frontier, complete: searchComplete(maxLevels, s.frontier) };
    return measured(output, s, { levels: s.frontier.length, bottomUpLevels, edgesExamined: s.edgesExamined });
  }

  protected async msbfs(req: CheckedMsbfs, fn: string, keep?: KeepOutputs): Promise<Execution> {
    const addon = this.addon(fn);
    const { graph: g, inEdges } = req;
    const sources = req.sources.slice(req.range[0], req.range[1]);
    const depths = new Int32Array(denseElements(fn, sources.length, g.rows));
    announceOutputs([depths], keep);
    const s = await callNative(fn, () => addon.gpuMsbfs(g.rows, g.rowPtr, g.colIdx, inEdges.rowPtr, inEdges.colIdx, sources, depths));
    return measured({ depths }, s, { levels: s.levels, edgesExamined: s.edgesExamined });
  }

  /** The CUDA exports, once a device has answered; else the reason, as a typed error. */
  private addon(fn: string): CudaAddon {
    if (!this.probe.available) throw new UnsupportedError(`${fn}: no CUDA device (${this.probe.reason})`);
    return cudaAddon();
  }

  /**
   * Copy these buffers to the GPU ahead of the operators that read them; those operators then
   * read the device copy (counted in `residentBytes`) instead of copying. Copies are made once
   * however often a buffer is prefetched; each prefetch is undone by one `release`. The device
   * copy is the buffer as it was at prefetch time: do not change a buffer while it is resident.
   */
  async prefetch(
    buffers: readonly ArrayBufferView[],
    _options?: RunOptions,
  ): Promise<{ readonly seconds: number; readonly bytes: number; readonly source: 'measured' }> {
    const fn = `${this.name}.prefetch`;
    if (!Array.isArray(buffers) || !buffers.every((b) => ArrayBuffer.isView(b))) {
      throw new InvalidArgumentError(`${fn}: buffers must be an array of typed arrays`);
    }
    if (!this.probe.available) throw new UnsupportedError(`${fn}: no CUDA device (${this.probe.reason})`);
    const list = residentCandidates(buffers);
    const r = await callNative(fn, () => cudaAddon().gpuPrefetch(list));
    for (const b of list) residentHolds.set(b, (residentHolds.get(b) ?? 0) + 1);
    for (const b of list) this.holds.set(b, (this.holds.get(b) ?? 0) + 1);
    return { seconds: r.copySeconds, bytes: r.bytes, source: 'measured' };
  }

  /**
   * Undo one prefetch of each buffer (the device copy goes when no prefetch holds it), and drop
   * the device copies of outputs kept on the card (kept-outputs.ts); a deferred output's host
   * array keeps what it had unless fetched first.
   */
  async release(buffers: readonly ArrayBufferView[]): Promise<void> {
    const kept = takeKeptOutputs(buffers);
    if (kept.length > 0) cudaAddon().gpuRelease(kept);
    this.drop(residentCandidates(buffers).map((b) => [b, Math.min(1, this.holds.get(b) ?? 0)] as const));
  }

  /** Copy outputs kept on the card with their host copy deferred home (the rest cost nothing). */
  async fetch(buffers: readonly ArrayBufferView[]): Promise<{ readonly seconds: number; readonly bytes: number; readonly source: 'measured' }> {
    const fn = `${this.name}.fetch`;
    if (!Array.isArray(buffers) || !buffers.every((b) => ArrayBuffer.isView(b))) {
      throw new InvalidArgumentError(`${fn}: buffers must be an array of typed arrays`);
    }
    const list = residentCandidates(buffers);
    if (list.length === 0) return { seconds: 0, bytes: 0, source: 'measured' };
    const r = await callNative(fn, () => this.addon(fn).gpuFetch(list));
    return { seconds: r.copySeconds, bytes: r.bytes, source: 'measured' };
  }

  /** Releases every buffer this device still holds on the GPU. */
  override async dispose(): Promise<void> {
    this.drop([...this.holds]);
  }

  /** Give up `n` of this device's holds on each buffer, and the device copies no one holds any more. */
  private drop(list: readonly (readonly [ArrayBufferView, number])[]): void {
    const gone: ArrayBufferView[] = [];
    for (const [b, n] of list) {
      if (n === 0) continue;
      const mine = this.holds.get(b)! - n;
      if (mine > 0) this.holds.set(b, mine);
      else this.holds.delete(b);
      const all = (residentHolds.get(b) ?? n) - n;
      if (all > 0) residentHolds.set(b, all);
      else {
        residentHolds.delete(b);
        gone.push(b);
      }
    }
    if (gone.length > 0) cudaAddon().gpuRelease(gone);
  }

  private readonly holds = new Map<ArrayBufferView, number>();
}

/** Buffers and bytes resident on the GPU now (all devices of this process). */
export function cudaResident(): { readonly buffers: number; readonly bytes: number } {
  return cudaProbe().built ? cudaAddon().gpuResident() : { buffers: 0, bytes: 0 };
}

/**
 * Parameters of a `gpu` profile (devices/gpu/). The device's own figures (SMs, clock, L2,
 * bandwidth) replace the profile's at run time where the CUDA runtime reports them.
 */
export const CUDA_PARAMS: ParamRules = {
  ...GPU_TRAIT_PARAMS,
  idleWatts: { min: 0, max: 5000, unit: 'W', description: "board power when idle (the idle share of a plan's energy)" },
  activeWatts: { min: 1, max: 5000, unit: 'W', description: 'board power when busy, used only where NVML cannot be read' },
  streams: { min: 1, max: 1024, integer: true, unit: 'streams', description: 'operators run at once' },
};

function describeProbe(p: CudaProbe): string {
  const gib = (b: number) => `${(b / GIB).toFixed(0)} GiB`;
  const cuda = (v: number) => `${Math.floor(v / 1000)}.${Math.floor((v % 1000) / 10)}`;
  return (
    `${p.name}, compute capability ${p.computeCapability}, ${p.sms} SMs, ${gib(p.totalBytes)}, ` +
    `CUDA runtime ${cuda(p.runtimeVersion)}, driver ${cuda(p.driverVersion)}, ` +
    (p.nvml ? 'energy from NVML power readings' : 'energy modelled (NVML unreadable)') +
    `; GEMM ${cudaBlas().available ? `through ${cudaBlas().library}` : `not on the card (${cudaBlas().reason})`}`
  );
}

/**
 * The gpu backend definition: available where the addon was built with CUDA and a device answers.
 * @example
 * const status = await gpuBackend.probe(); // { available: false, reason: 'no CUDA device (...)' } on a machine without one
 */
export const gpuBackend: BackendDefinition = {
  name: 'gpu',
  description: "dype's CUDA kernels on a real NVIDIA GPU (measured time from CUDA events; NVML or modelled energy)",
  kind: 'gpu',
  simulated: false,
  hostMemory: false,
  defaultProfile: 'cuda',
  params: CUDA_PARAMS,
  async probe() {
    const p = cudaProbe();
    return p.available ? { available: true, detail: describeProbe(p) } : { available: false, reason: `no CUDA device (${p.reason})` };
  },
  create(name: string, spec: DeviceSpec): Device {
    return new CudaDevice(name, spec);
  },
};
