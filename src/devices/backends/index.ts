// The backend table: the one place that names backends. Everything else (systems, the
// scheduler, the CLI) looks backends up here by the name a system file gives.

import type { BackendDefinition } from '../backend.js';
import { cgraSimBackend } from './cgra-sim.js';
import { cpuBackend } from './cpu.js';
import { gpuBackend } from './gpu.js';
import { gpuSimBackend } from './gpu-sim.js';

/** Every backend dype knows, by name. */
export const BACKENDS: ReadonlyMap<string, BackendDefinition> = new Map(
  [cpuBackend, gpuBackend, cgraSimBackend, gpuSimBackend].map((b) => [b.name, b] as const),
);
