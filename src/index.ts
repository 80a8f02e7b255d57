// dype's public API: data containers, loaders and generators, the native CPU kernels, the
// devices (real and simulated) with the system that joins them, the cost model, workloads, and
// the scheduler (`schedule`, `explore`), the client of a dype server (`connect`), and row
// partitions with the distributed (MPI) operators built on them.

export {
  DypeError,
  FormatError,
  InvalidArgumentError,
  MissingDataError,
  ExecutionError,
  AbortedError,
  SessionClosedError,
  OperatorError,
  AccessError,
  InfeasibleError,
  IoError,
  LimitError,
  NativeError,
  UnsupportedError,
  DistributedError,
  type DypeErrorCode,
} from './errors.js';

export { memoryBudget, setMemoryBudget } from './limits.js';
export { CsrMatrix, type CsrInit, type RowPtrArray, type ValueArray } from './data/csr.js';
export { DenseMatrix, type DenseArray, type Precision } from './data/dense.js';
export { cooToCsr, type CooInit, type CooToCsrOptions, type DuplicatePolicy, type MirrorMode } from './data/coo.js';
export { dropSelfLoops, symmetrize, toCoo, transpose, type SymmetrizeOptions } from './data/convert.js';
export {
  metisAvailable,
  partitionMetis,
  partitionRows,
  partitionStats,
  type PartStats,
  type PartitionStats,
  type RowPartition,
} from './data/partition.js';
export {
  type CollectiveTiming,
  type Communicator,
  type Exchangeable,
  initMpi,
  launchedBy,
  MPI_DEFAULT_SETTINGS,
  type MpiCommunicator,
  mpiInfo,
  type WaitPolicy,
} from './distributed/mpi.js';
export { DistributedCsr } from './distributed/halo.js';
export { type DistributedProduct, type DistributedTimes, distributedSpmm, localRowsOf } from './distributed/spmm.js';
export { gatherRows, gatherVertices } from './distributed/gather.js';
export { type DistributedBfsOptions, type DistributedLevel, type DistributedSearch, distributedBfs } from './distributed/bfs.js';
export { type DistributedRunResult, type RunDistributedOptions, runDistributed } from './distributed/run.js';
export { DistributedLayouts } from './distributed/layouts.js';
export { type CacheState, type Interconnect, measureInterconnect, predictExchange } from './distributed/interconnect.js';
export { predictScaling, type ScalingOptions, type ScalingPoint, type ScalingPrediction } from './distributed/scaling.js';
export {
  type ClusterDescription,
  type KindAlone,
  type NodeKind,
  type NodesPlan,
  type NodesPoint,
  type PlanNodesOptions,
  planNodes,
  type RankShare,
} from './distributed/nodes.js';
export { type BfsPredictionOptions, type PredictedBfsLevel, predictBfsExchange } from './distributed/bfs-prediction.js';
export { type BfsScalingOptions, type BfsScalingPoint, type BfsScalingPrediction, bfsWork, predictBfsScaling } from './distributed/bfs-scaling.js';

export * from './io/index.js';
export {
  bandedMatrix,
  denseFeatures,
  erdosRenyiGraph,
  formatGeneratorSpec,
  generate,
  GENERATORS,
  gridGraph,
  kroneckerGraph,
  parseGeneratorSpec,
  type BandedOptions,
  type DenseFeaturesOptions,
  type ErdosRenyiOptions,
  type GeneratorSpec,
  type GridOptions,
  type KroneckerOptions,
} from './generators/index.js';

export { spmm, type SpmmOptions } from './kernels/spmm.js';
export { spmv, type SpmvOptions } from './kernels/spmv.js';
export { bfs, type BfsDirection, type BfsOptions, type BfsResult } from './kernels/bfs.js';
export { msbfs, type MsBfsOptions, type MsBfsResult } from './kernels/msbfs.js';
export { bfsReference, msbfsReference, spmmReference } from './kernels/reference.js';
export { rowLengthStats, type RowLengthStats } from './webassembly/row-stats.js';
export {
  DEFAULT_SAMPLE_ABOVE,
  DEFAULT_SAMPLE_ROWS,
  graphFeatures,
  matrixFeatures,
  type GraphFeaturesOptions,
  type MatrixFeaturesOptions,
} from './cost/features.js';
export { LOG2_BUCKETS, type Coverage, type GraphFeatures, type MatrixFeatures, type PowerLaw } from './cost/feature-types.js';
export type { FeatureEngineName } from './cost/engine.js';

export type {
  BfsOperator,
  BfsOutput,
  Device,
  DeviceCapabilities,
  DeviceKind,
  DevicePower,
  DeviceResult,
  DeviceSpec,
  EnergySource,
  GraphInputs,
  InputsOf,
  MatrixInputs,
  MsBfsOperator,
  MsBfsOutput,
  Operator,
  OperatorKind,
  OperatorOf,
  OutputOf,
  RowRange,
  RunOptions,
  SpecParam,
  SpmmOperator,
  SpmvOperator,
  TimeSource,
} from './devices/device.js';
export type { Availability, BackendDefinition } from './devices/backend.js';
export type { ParamRule, ParamRules } from './devices/spec.js';
export { BACKENDS } from './devices/backends/index.js';
export {
  buildSystem,
  detectSystem,
  HOST,
  loadSystem,
  probeBackends,
  System,
  type BackendStatus,
  type DeviceEntry,
  type Link,
  type LinkEntry,
  type SystemDescription,
} from './devices/system.js';
export { Placement, type BufferKey } from './devices/placement.js';

import { nativeAddon } from './native/addon.js';

/** Threads the native kernels use (one per usable core; `DYPE_THREADS` overrides). */
export function nativeThreads(): number {
  return nativeAddon().threads();
}
export { CostModel, type ModelState, type OperatorShape, type Prediction } from './cost/model.js';
export { loadCostModel, readStoredCalibration, saveCalibration } from './cost/store.js';
export { calibrate, type CalibrateOptions, type Sample } from './cost/calibrate.js';
export { MODEL_VERSION, deviceKey, type CalibrationPayload, type DeviceCalibration, type OperatorFit } from './cost/calibration.js';
export { measureAccuracy, type AccuracyCase, type AccuracyOptions, type AccuracyReport, type AccuracySummary } from './cost/accuracy.js';
export { OnlineCorrection, type OnlineCorrectionOptions } from './cost/online-correction.js';
export { calibrationDir, machineFingerprint, type CalibrationRead } from './cost/cache.js';

export {
  defineWorkload,
  WORKLOAD_OPERATORS,
  streamOf,
  TRANSFORM_NAMES,
  type InputDefinition,
  type OperatorDefinition,
  type Workload,
  type WorkloadDefinition,
  type WorkloadOpKind,
  type OperatorName,
} from './workloads/definition.js';
export { loadWorkload, shippedWorkloads, workload } from './workloads/library.js';
export {
  defineOperator,
  undefineOperator,
  USER_OPERATOR_DEVICES,
  type UserImplementation,
  type UserOperand,
  type UserOperatorDevice,
  type UserOperatorSpec,
} from './operators/define.js';
export { nativeImplementation } from './operators/native-library.js';
export { wasmImplementation, type WasmImports, type WasmSource } from './operators/wasm-library.js';
export { operatorKind, operatorKinds } from './operators/registry.js';
export type { OperatorKind as OperatorKindRecord, ValueShape } from './operators/kind.js';
export { pagerankDefinition, WorkloadBuilder } from './workloads/builder.js';
export { bindWorkload, type BindOptions, type BoundOp, type BoundValue, type BoundWorkload, type WorkloadData } from './workloads/bind.js';
export { referenceValues, type Value } from './workloads/reference.js';
export {
  explore,
  schedule,
  type BaselinePoint,
  type Exploration,
  type ExploreOptions,
  type MappingPoint,
  type Plan,
  type ScheduleOptions,
} from './scheduler/schedule.js';
export type { Constraints, Metrics, Objective, TimelineEntry, TransferEntry } from './scheduler/evaluate.js';
export { POLICY_NAMES, type Policy } from './scheduler/policy.js';
export type { Explanation, FeatureNote, OperatorExplanation } from './scheduler/explain.js';
export type { PortableMapping } from './scheduler/baselines.js';
export { Oracle, type OracleOptions } from './oracle/oracle.js';
export { hypervolume, paretoFront } from './scheduler/pareto.js';
export { STRATEGIES as SEARCH_STRATEGIES, type SearchStrategy } from './scheduler/search/index.js';
export {
  DeviceLoss,
  runPlan,
  type ExecutionObserver,
  type PieceRecord,
  type ReplanRecord,
  type RunPlanOptions,
  type RunResult,
  type TimedPieceRecord,
} from './executor/run.js';
export type { GateTurn, OperatorGate, OperatorPlacement } from './executor/gate.js';
export { chromeTrace, TraceRecorder, type TraceEvent } from './executor/trace.js';
export type { PieceSource } from './executor/piece.js';
export { DriftMonitor, type DriftOptions, type DriftState } from './executor/drift.js';
export { pipelinedMakespan, runStream, type RunStreamOptions, type StreamReplan, type StreamResult } from './executor/stream.js';
export {
  session,
  Session,
  type BatchRecord,
  type DenseOperand,
  type SessionOptions,
  type SessionRunOptions,
  type SparseOperand,
} from './session/session.js';
export { Handle, type HandleKind, type HandleShape, type HandleState, type SessionValue } from './session/handle.js';
export {
  connect,
  type DypeClient,
  type ConnectOptions,
  type DataRef,
  type ServedData,
  type ServedExploreOptions,
  type ServedPlan,
  type RunHereOptions,
  type ServedRunOptions,
  type ServedRunResult,
  type ServedScheduleOptions,
  type ServerStatus,
} from './service/client.js';
export { startServer, DypeServer, type ServeOptions } from './service/server.js';
