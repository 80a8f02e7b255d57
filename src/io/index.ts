// Public surface of the file loaders and the writer of the data layer.

export {
  loadMatrixMarket,
  parseMatrixMarket,
  type MatrixMarketFormat,
  type MatrixMarketOptions,
  type ParseMatrixMarketOptions,
} from './matrix-market.js';
export {
  loadEdgeList,
  parseEdgeList,
  type EdgeList,
  type EdgeListDelimiter,
  type EdgeListOptions,
  type EdgeListVertices,
  type ParseEdgeListOptions,
} from './snap.js';
export { loadNpz, parseNpz, type NpzOptions, type ParseNpzOptions } from './npz.js';
export { loadMetis, parseMetis, type MetisOptions, type ParseMetisOptions } from './metis.js';
export {
  formatMatrixMarket,
  writeMatrixMarket,
  type FormatMatrixMarketOptions,
  type WriteMatrixMarketOptions,
} from './write-matrix-market.js';
