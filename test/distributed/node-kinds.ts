// The cluster the node-planning tests share: a node kind with a simulated GPU (on PCIe) and one
// with a simulated CGRA, priced by the specification model (nothing here depends on this machine's
// timings), one GPU node and three CGRA nodes on a declared network, and a road-like grid.

import type { CsrMatrix } from '../../src/data/csr.js';
import { buildSystem } from '../../src/devices/system.js';
import { generate } from '../../src/generators/index.js';
import { specModel } from '../scheduler/schedule-fixtures.js';

export const graph = generate({ kind: 'grid', rows: 96, cols: 96, seed: 4 }) as CsrMatrix;
export const gpuNode = buildSystem({
  name: 'gpu-node',
  devices: [{ name: 'gpu', backend: 'gpu-sim' }],
  links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
});
export const cgraNode = buildSystem({ name: 'cgra-node', devices: [{ name: 'cgra', backend: 'cgra-sim' }] });
export const models = { gpu: specModel(gpuNode), cgra: specModel(cgraNode) };
export const cluster = (bytesPerSecond: number, latencySeconds = 0) => ({
  nodes: [
    { name: 'gpu', system: gpuNode },
    { name: 'cgra', system: cgraNode, count: 3 },
  ],
  interconnect: { latencySeconds, bytesPerSecond, source: 'declared for the test' },
});
