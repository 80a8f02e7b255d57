// MPI for distributed runs, through dype's MPI addon (build/Release/dype_mpi.node, built against
// the MPI the build found: scripts/mpi-config.cjs). MPI is started only in a process that a
// launcher (mpirun, mpiexec, srun) started, and only when asked (`initMpi`); a process that never
// asks never loads libmpi. The communicator is MPI_COMM_WORLD; its collectives are what the
// distributed operators need: the halo exchange (alltoallv, waited for off the JS thread so a rank
// can compute while its halo travels), gathering results (allgatherv) and small reductions
// (allreduce). Each is started on the JS thread, in the program's order, and stamps when this rank
// entered it and saw it complete; how the wait polls is `waitPolicy`'s.

import { writeSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, DistributedError, InvalidArgumentError, NativeError, UnsupportedError } from '../errors.js';
import { nativeAddon, packageRoot } from '../native/addon.js';
import { checkOptions } from '../validate.js';

/** Arrays a collective can carry (both sides of one call of the same type). */
export type Exchangeable = Float32Array | Float64Array | Int32Array | Uint8Array;

/**
 * What a collective says of its time on this rank: `seconds` from this rank's call until it saw
 * the collective complete (waiting for the other ranks included); MPI's also give both moments,
 * `enteredAt` and `completedAt`, in seconds on this host's monotonic clock, from which a run
 * separates the wait for the last rank from the exchange itself (exchange-timing.ts).
 */
export interface CollectiveTiming {
  readonly seconds: number;
  readonly enteredAt?: number;
  readonly completedAt?: number;
}

/** What distributed operators need of a communicator: MPI's, or one of its stand-ins in tests. */
export interface Communicator {
  readonly rank: number;
  readonly size: number;
  /**
   * Every rank sends `send[sendDispls[r], + sendCounts[r])` to rank r and receives rank r's part
   * at `recv[recvDispls[r], + recvCounts[r])` (counts in elements). Resolves when all has arrived.
   */
  alltoallv<T extends Exchangeable>(
    send: T,
    sendCounts: Int32Array,
    sendDispls: Int32Array,
    recv: T,
    recvCounts: Int32Array,
    recvDispls: Int32Array,
  ): Promise<CollectiveTiming>;
  /** Every rank's `send` (recvCounts[its rank] elements) placed in every rank's `recv` at recvDispls. */
  allgatherv<T extends Exchangeable>(send: T, recv: T, recvCounts: Int32Array, recvDispls: Int32Array): Promise<CollectiveTiming>;
  /** Combine `buffer` element-wise across ranks, in place. */
  allreduce(buffer: Float64Array | Int32Array, op: 'sum' | 'max' | 'min'): Promise<void>;
  /** Resolves once every rank has called it. */
  barrier(): Promise<void>;
}

interface MpiAddon {
  readonly abiVersion: number;
  info(): { abiVersion: number; available: boolean; reason: string; library: string };
  init(): { rank: number; size: number; threadLevel: string; host: string; localSize: number };
  waitPolicy(spinMicros: number, syncMicros: number): void;
  finalize(): void;
  abort(code: number): void;
  quit(code: number): void;
  alltoallv: Communicator['alltoallv'];
  allgatherv: Communicator['allgatherv'];
  allreduce: Communicator['allreduce'];
  barrier: Communicator['barrier'];
}

const EXPECTED_ABI = 2;
let addon: MpiAddon | undefined;

function mpiAddon(fn: string): MpiAddon {
  if (addon) return addon;
  const path = process.env['DYPE_MPI_ADDON'] ?? join(packageRoot, 'build', 'Release', 'dype_mpi.node');
  let loaded: MpiAddon;
  try {
    loaded = createRequire(import.meta.url)(path) as MpiAddon;
  } catch (cause) {
    throw new NativeError(
      `${fn}: cannot load dype's MPI addon from ${path} (${cause instanceof Error ? cause.message : String(cause)}); build it with \`npm run build:native\``,
      { cause },
    );
  }
  if (loaded.abiVersion !== EXPECTED_ABI)
    throw new NativeError(`${fn}: MPI addon ABI ${loaded.abiVersion} does not match ${EXPECTED_ABI}; rebuild with \`npm run build:native\``);
  addon = loaded;
  return loaded;
}

/** Environment variables a launcher sets in the processes it starts (Open MPI, PMIx, MPICH/Hydra, Slurm). */
const LAUNCHER_VARIABLES = ['OMPI_COMM_WORLD_SIZE', 'PMIX_RANK', 'PMI_RANK', 'PMI_SIZE', 'SLURM_PROCID'];

/** The launcher variable found in this process's environment, if any. */
export function launchedBy(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  return LAUNCHER_VARIABLES.find((v) => env[v] !== undefined);
}

/**
 * Open MPI settings a rank starts with unless its environment names them (the variables are read
 * when MPI starts). Ranks on one host move large messages by the kernel's cross-process copy
 * (CMA) by default: the receiver pins the sender's pages, which waits on the sender's memory map
 * while its allocator and V8's collector change it. Inside runs on the 2-vCPU VM a GCN's halo
 * exchanges of 0.85 and 1.7 MB took 0.27-4.1 and 0.51-20 ms that way, 0.12-0.2 and 0.25-0.37 ms
 * copied through the shared segment, and BFS levels lost their 3-8 ms stalls. Open MPI 5 calls
 * the transport `sm`, 4 `vader`; the name a version does not know is ignored.
 */
export const MPI_DEFAULT_SETTINGS: Readonly<Record<string, string>> = {
  OMPI_MCA_btl_vader_single_copy_mechanism: 'none',
  OMPI_MCA_btl_sm_single_copy_mechanism: 'none',
};

/** Set in `env` each of `MPI_DEFAULT_SETTINGS` it does not name; returns the names set. */
export function applyMpiDefaults(env: Record<string, string | undefined> = process.env): string[] {
  const set = Object.keys(MPI_DEFAULT_SETTINGS).filter((k) => env[k] === undefined);
  for (const k of set) env[k] = MPI_DEFAULT_SETTINGS[k];
  return set;
}

/**
 * Whether this build can run distributed, and why not: the MPI library it was built against, or
 * the reason (no MPI at build time, the addon missing).
 */
export function mpiInfo(): { available: boolean; reason: string; library: string } {
  try {
    const { available, reason, library } = mpiAddon('mpiInfo').info();
    return { available, reason, library };
  } catch (e) {
    return { available: false, reason: e instanceof Error ? e.message : String(e), library: '' };
  }
}

/** The world communicator of an initialised MPI process. */
export interface MpiCommunicator extends Communicator {
  readonly threadLevel: string;
  readonly host: string;
  /** Ranks on this host, how long a collective waiting for other ranks polls before it naps, and whether exchanges overlap compute (waitPolicy). */
  readonly wait: WaitPolicy & { readonly localRanks: number };
  readonly library: string;
  /** End MPI in this process (also done at exit). Collectives refuse afterwards. */
  finalize(): void;
  /** End every rank of the job at once, with `code`: for a rank that cannot go on. */
  abort(code?: number): void;
}

let world: MpiCommunicator | undefined;

/** A communicator's failed call as a typed error naming the call (the addon's codes kept as the cause). */
function failure(call: string, e: unknown): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'ERR_MPI') return new DistributedError(`${call}: ${(e as Error).message}`, { cause: e });
  if (code === 'ERR_INVALID_ARGUMENT') return new InvalidArgumentError(`${call}: ${(e as Error).message}`);
  return e;
}

/** How long a collective may wait for the other ranks before this rank ends the job: DYPE_MPI_TIMEOUT seconds, or 600. */
function collectiveTimeout(fn: string, given: number | undefined): number {
  const raw = given ?? (process.env['DYPE_MPI_TIMEOUT'] !== undefined ? Number(process.env['DYPE_MPI_TIMEOUT']) : 600);
  if (!(typeof raw === 'number' && raw > 0 && raw <= 86400 * 7))
    throw new InvalidArgumentError(
      `${fn}: the collective timeout must be seconds in (0, 604800] (option timeoutSeconds or DYPE_MPI_TIMEOUT), got ${describe(raw)}`,
    );
  return raw;
}

/** Microseconds a waiting collective polls before it naps where ranks share cores. */
const SHARED_CORES_SPIN_MICROSECONDS = 50;
/** Microseconds the JS thread tests a collective it started, where exchanges do not overlap compute, before a worker takes the wait. */
const SYNC_MICROSECONDS = 2000;
const nativeThreads = (): number => nativeAddon().threads();

/** How this rank waits for the other ranks, and whether its exchanges overlap its compute. */
export interface WaitPolicy {
  /** How long a waiting collective polls before it naps between tests (-1: it never naps). */
  readonly spinMicroseconds: number;
  /** Whether a halo exchange travels while the rank computes the rows that do not need it. */
  readonly overlap: boolean;
  /** How long the JS thread tests a collective it has started before a worker waits for it (where nothing overlaps, it has nothing else to do). */
  readonly syncMicroseconds: number;
  readonly reason: string;
}

/**
 * How a collective waits, from this host's ranks, each rank's kernel threads, the cores the rank
 * may use and the host's. MPI's own wait polls without pause: where the host's ranks' kernel
 * threads outnumber its cores, that polling takes a core another rank needs to arrive (two ranks
 * on two cores, each with a waiting thread: a 15 KB halo exchange took 1.4-14 ms, its bytes moving
 * in 0.06), so there a collective polls SHARED_CORES_SPIN_MICROSECONDS and then naps between tests
 * (10 us, doubling up to 200). And an exchange progresses only while its thread runs: where the rank
 * has no core beyond its kernel threads (mpirun binds each of two ranks on two cores to one), the
 * halo overlapped with the interior rows moved in 1-2.6 ms what takes 0.1-0.5 alone, so it is
 * awaited first there. DYPE_MPI_SPIN_US (microseconds, -1: never nap) overrides the wait.
 */
export function waitPolicy(
  host: { readonly localRanks: number; readonly kernelThreads: number; readonly rankCores: number; readonly hostCores: number },
  env: Readonly<Record<string, string | undefined>> = process.env,
): WaitPolicy {
  const { localRanks, kernelThreads, rankCores, hostCores } = host;
  const shared = localRanks * kernelThreads > hostCores;
  const overlap = !shared && rankCores > kernelThreads;
  const why = `${localRanks} ranks x ${kernelThreads} kernel threads on ${hostCores} cores, ${rankCores} for this rank`;
  const forced = env['DYPE_MPI_SPIN_US'];
  if (forced !== undefined) {
    const v = Number(forced);
    if (!Number.isInteger(v) || v < -1 || v > 1e9)
      throw new InvalidArgumentError(`initMpi: DYPE_MPI_SPIN_US must be an integer number of microseconds in [-1, 1e9], got ${describe(forced)}`);
    return { spinMicroseconds: v, overlap, syncMicroseconds: overlap ? 0 : SYNC_MICROSECONDS, reason: `${why}; the wait set by DYPE_MPI_SPIN_US` };
  }
  return { spinMicroseconds: shared ? SHARED_CORES_SPIN_MICROSECONDS : -1, overlap, syncMicroseconds: overlap ? 0 : SYNC_MICROSECONDS, reason: why };
}

/**
 * Start MPI in this process (once; later calls return the same communicator).
 *
 * A rank that fails must not leave the others waiting: a collective that has waited
 * `timeoutSeconds` (default 600, or DYPE_MPI_TIMEOUT) for the other ranks prints which call and
 * ends the whole job (MPI_Abort); and when the launcher ends the job because another rank died
 * (it sends SIGTERM), this rank prints what it was doing and exits at once with status 143
 * (without MPI_Finalize, which would wait for the dead rank), before anything else is written.
 * @throws {UnsupportedError} when the build has no MPI (the message says why) or the process was
 *   not started by an MPI launcher; {DistributedError} when MPI fails to start or grants less
 *   than serialized thread support; {InvalidArgumentError} for a bad timeout.
 * @example
 * // mpirun -np 4 node --import tsx my-run.ts
 * const comm = initMpi();
 * console.log(`rank ${comm.rank} of ${comm.size}`);
 */
export function initMpi(options: { readonly timeoutSeconds?: number } = {}): MpiCommunicator {
  const fn = 'initMpi';
  if (world) return world;
  checkOptions(fn, options, ['timeoutSeconds']);
  const timeout = collectiveTimeout(fn, options.timeoutSeconds);
  const m = mpiAddon(fn);
  const info = m.info();
  if (!info.available) throw new UnsupportedError(`${fn}: this build of dype has no MPI: ${info.reason}`);
  if (!launchedBy())
    throw new UnsupportedError(
      `${fn}: this process was not started by an MPI launcher (none of ${LAUNCHER_VARIABLES.join(', ')} is set); run it as \`mpirun -np N node ...\``,
    );
  let started: ReturnType<MpiAddon['init']>;
  applyMpiDefaults();
  try {
    started = m.init();
  } catch (e) {
    throw failure(fn, e);
  }
  const wait = waitPolicy({
    localRanks: started.localSize,
    kernelThreads: nativeThreads(),
    rankCores: availableParallelism(),
    hostCores: cpus().length || availableParallelism(),
  });
  m.waitPolicy(wait.spinMicroseconds, wait.syncMicroseconds);
  const who = `dype: rank ${started.rank} of ${started.size}`;
  // The collectives in flight (a count per call: two of one kind may overlap), for the messages below.
  const inFlight = new Map<string, number>();
  const wrap =
    <A extends unknown[], R>(name: string, f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const call = `comm.${name}`;
      inFlight.set(call, (inFlight.get(call) ?? 0) + 1);
      const watchdog = setTimeout(() => {
        writeSync(2, `${who}: ${call} has waited ${timeout} s for the other ranks (one may have died or hung); ending the job\n`);
        m.abort(75);
      }, timeout * 1000);
      try {
        return await f(...a);
      } catch (e) {
        throw failure(call, e);
      } finally {
        clearTimeout(watchdog);
        const left = inFlight.get(call)! - 1;
        if (left > 0) inFlight.set(call, left);
        else inFlight.delete(call);
      }
    };
  world = {
    rank: started.rank,
    size: started.size,
    threadLevel: started.threadLevel,
    host: started.host,
    wait: { localRanks: started.localSize, ...wait },
    library: info.library,
    alltoallv: wrap('alltoallv', m.alltoallv) as Communicator['alltoallv'],
    allgatherv: wrap('allgatherv', m.allgatherv) as Communicator['allgatherv'],
    allreduce: wrap('allreduce', m.allreduce),
    barrier: wrap('barrier', m.barrier),
    finalize: () => m.finalize(),
    abort: (code = 1) => {
      if (!Number.isInteger(code) || code < 0 || code > 255)
        throw new InvalidArgumentError(`comm.abort: code must be an integer in [0, 255], got ${describe(code)}`);
      m.abort(code);
    },
  };
  // The launcher ends the job with SIGTERM when another rank dies: say so, in this rank's words.
  process.once('SIGTERM', () => {
    const doing = inFlight.size ? `waiting in ${[...inFlight.keys()].join(', ')}` : 'computing';
    writeSync(2, `${who}: the MPI launcher is ending the job (another rank failed or was killed) while this rank was ${doing}\n`);
    m.quit(143);
  });
  // Finalise when the program ends without saying so: a rank that exits without MPI_Finalize
  // makes the launcher report the whole job as failed.
  process.once('exit', () => m.finalize());
  return world;
}
