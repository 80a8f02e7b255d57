// The CUDA part of the native addon as TypeScript sees it (native/src/cuda/gpu_binding.cc and
// the dense bindings): what the probe and each call report, and the entry points' signatures.

import { type GraphArgs, nativeAddon, type SpmmArgs } from '../../native/addon.js';

/** What the addon reports about CUDA on this machine (native/src/cuda/gpu.h, `Probe`). */
export interface CudaProbe {
  /** Whether the addon was built with CUDA (nvcc and the CUDA runtime found at build time). */
  readonly built: boolean;
  readonly available: boolean;
  /** Why not, when `available` is false: the CUDA runtime's error, or how the addon was built. */
  readonly reason: string;
  readonly name: string;
  readonly devices: number;
  readonly computeCapability: string;
  readonly sms: number;
  readonly totalBytes: number;
  readonly freeBytes: number;
  readonly l2Bytes: number;
  readonly clockMhz: number;
  readonly memoryClockMhz: number;
  readonly busWidthBits: number;
  /** CUDA runtime and driver versions as CUDA encodes them (13000 = 13.0). */
  readonly runtimeVersion: number;
  readonly driverVersion: number;
  /** Whether board power can be read from NVML. */
  readonly nvml: boolean;
  readonly powerLimitWatts: number;
}

/** Costs of one GPU operator as the addon reports them. */
export interface CudaRun {
  /** Host wall time of the whole call (copies, kernels, synchronisation). */
  readonly seconds: number;
  readonly kernelSeconds: number;
  readonly h2dSeconds: number;
  readonly d2hSeconds: number;
  readonly h2dBytes: number;
  readonly d2hBytes: number;
  readonly watts: number;
  readonly energyMeasured: boolean;
  readonly levels: number;
  /** Input bytes read from resident (prefetched) device copies instead of being copied. */
  readonly residentBytes: number;
}

/** What one `gpuPrefetch` call did. */
export interface CudaPrefetch {
  /** Host wall time of the call. */
  readonly seconds: number;
  /** The copies alone, from CUDA events. */
  readonly copySeconds: number;
  readonly bytes: number;
  /** Buffers made resident by this call, and buffers that were resident already. */
  readonly copied: number;
  readonly already: number;
}

/** SpMM strategies of the CUDA kernels: chosen from the row lengths, or forced. */
export const SPMM_STRATEGIES = { auto: 0, 'row-split': 1, 'nnz-split': 2 } as const;
export type SpmmStrategy = keyof typeof SPMM_STRATEGIES;

/** cuBLAS as the addon found it (loaded on the first ask): GEMM runs on the card only with it. */
export interface CudaBlasProbe {
  readonly available: boolean;
  /** Why not, when `available` is false. */
  readonly reason: string;
  /** Version and path, when found. */
  readonly library: string;
}

export interface CudaAddon {
  gpuProbe(): CudaProbe;
  gpuBlasProbe(): CudaBlasProbe;
  gpuSpmm(...args: [...SpmmArgs, strategy: number]): Promise<CudaRun & { readonly strategy: number; readonly group: number }>;
  gpuSpmv: CudaAddon['gpuSpmm'];
  gpuBfs(
    ...args: [...GraphArgs, source: number, depth: Int32Array, direction: 0 | 1 | 2, alpha: number, beta: number, startLevel?: number, maxLevels?: number]
  ): Promise<CudaRun & { readonly frontier: Float64Array; readonly bottomUp: Uint8Array; readonly edgesExamined: number }>;
  gpuFetch(buffers: readonly ArrayBufferView[]): Promise<CudaPrefetch>;
  gpuMsbfs(...args: [...GraphArgs, sources: Int32Array, depths: Int32Array]): Promise<CudaRun & { readonly edgesExamined: number }>;
  gpuPrefetch(buffers: readonly ArrayBufferView[]): Promise<CudaPrefetch>;
  gpuRelease(buffers: readonly ArrayBufferView[]): number;
  gpuExpectOutputs(buffers: readonly ArrayBufferView[], defer: boolean): void;
  gpuResident(): { readonly buffers: number; readonly bytes: number };
}

/** The addon's CUDA exports (native/src/cuda/gpu_binding.cc). */
export function cudaAddon(): CudaAddon {
  return nativeAddon() as unknown as CudaAddon;
}
