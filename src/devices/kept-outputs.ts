// Outputs kept on the device that made them. A piece of a run on a CUDA GPU can leave its result
// on the card as its host array's resident copy, so that the next operator there reads it in
// place, and (deferred) not copy it home until something on the host needs it (`fetch`). The
// executor passes a request with the call (`RunOptions.keepOutputs` for a device's own kernels,
// the own-kernel `run`'s last argument for dense ones); the GPU code that allocates an output
// announces it to the addon right before the native call that writes it (`announceOutputs`).
// (Not through an AsyncLocalStorage: once used, its hooks slow every promise in the process.)

import { cudaAddon } from './backends/cuda-addon.js';

/** What a piece asks of the device call it makes. */
export interface KeepOutputs {
  /** Leave the host arrays unwritten until fetched. */
  readonly defer: boolean;
  /** Filled in by the call: the output arrays now resident on the GPU (release them when dead). */
  readonly kept: ArrayBufferView[];
}

/** Output arrays resident on the GPU because a call kept them (not prefetched inputs). */
const keptOnGpu = new Set<ArrayBufferView>();

/**
 * Called by the GPU code right before a native call that writes `outputs` (each exactly the bytes
 * the call writes): with a `request`, the addon keeps them on the card. Returns whether they are
 * kept with their host copy deferred (undefined where nothing is kept).
 */
export function announceOutputs(outputs: readonly ArrayBufferView[], request: KeepOutputs | undefined): boolean | undefined {
  if (!request) return undefined;
  const list = outputs.filter((b) => b.byteLength > 0 && !keptOnGpu.has(b));
  if (list.length === 0) return undefined;
  cudaAddon().gpuExpectOutputs(list, request.defer);
  for (const b of list) keptOnGpu.add(b);
  request.kept.push(...list);
  return request.defer;
}

/** Of `buffers`, those kept as outputs, forgotten here (the caller drops their device copies). */
export function takeKeptOutputs(buffers: readonly ArrayBufferView[]): ArrayBufferView[] {
  const out: ArrayBufferView[] = [];
  for (const b of buffers) if (keptOnGpu.delete(b)) out.push(b);
  return out;
}
