// WebAssembly entry point: structural statistics of CSR inputs, read in place from linear memory.
// Large arrays are written once into blocks this module allocates (alloc/free) and passed by
// pointer, never copied per call. The cost model of a later stage builds on these exports.

export { alloc, free } from './memory';
export { rowLengthStats, ROW_STATS_FIELDS } from './row-stats';
export {
  MF_FIELDS,
  MF_GAP_BUCKETS,
  GF_FIELDS,
  SPMM_TERMS,
  BFS_TERMS,
  MSBFS_TERMS,
  spmmTerms,
  bfsTerms,
  bfsLevelTerms,
  msbfsTerms,
  dot,
  predictSpmm,
  predictBfs,
  predictBfsLevel,
  predictMsbfs,
} from './cost-model';
export { rowLengthFeatures, scanRows, scanDraws, bandwidthOf, graphFeatures, reuseWindow } from './features';
