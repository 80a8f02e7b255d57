// `dype serve`'s daemon: owns the system's devices, the cost model, the data store and the one
// fair dispatcher, and listens on a Unix socket (mode 0600) and optionally loopback TCP. Drains on
// request: no new connections or jobs, accepted jobs finish and their replies are sent, then it closes.

import { existsSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import type { CostModel } from '../cost/model.js';
import { loadCostModel } from '../cost/store.js';
import { detectSystem, probeBackends, type System } from '../devices/system.js';
import { describe, IoError, InvalidArgumentError } from '../errors.js';
import { checkEnum, checkInt, checkOptions } from '../validate.js';
import { defaultSocketPath, formatAddress, parseAddress, type ServerAddress, tokenFileFor } from './address.js';
import { Connection, type ConnectionHost } from './connection.js';
import { DataStore } from './data-store.js';
import { FairScheduler } from './fair-scheduler.js';
import { DEFAULT_MAX_FRAME_BYTES, MAX_FRAME_LIMIT } from './frames.js';
import { Leases } from './leases.js';
import { PlanCache } from './plan-cache.js';
import { defaultPolicy, loadPolicy, type ServicePolicy } from './policy.js';
import type { ServiceClock, ServiceState } from './requests.js';
import { KeyedJobs } from './idempotency.js';
import { JobMemory } from './job-memory.js';
import { Interleaver } from './interleaver.js';
import { GRANULARITY, type Granularity, MachineTimeline, SHARING, type Sharing } from './machine-timeline.js';
import { backlogNames } from '../scheduler/backlog.js';
import { generateToken, TenantDirectory, writeTokenFile } from './tokens.js';
import { HotPoll, pollWindow } from './hot-poll.js';
import { sharedRegionsAvailable } from './shared-regions.js';
import { packageVersion } from './version.js';

import type { ServeOptions } from './serve-options.js';
export type { ServeOptions } from './serve-options.js';

/** Connections held at once, per listener. */
const MAX_CONNECTIONS = 1024;
/** How long a draining server waits for its clients to map the reply regions it sent them. */
const DRAIN_REGION_WAIT_MS = 2000;

const KEYS = [
  'socket',
  'tcp',
  'policy',
  'maxFrameBytes',
  'storeBytes',
  'slots',
  'granularity',
  'elastic',
  'sharing',
  'clock',
  'backlogPlanning',
  'sharedMemory',
  'pollMicroseconds',
  'system',
  'model',
  'log',
] as const;

/**
 * Start a dype server.
 * @throws {InvalidArgumentError} for bad options (a non-loopback TCP host included);
 *   {FormatError} / {IoError} for a bad policy file; {IoError} when the socket is taken by a live server.
 * @example
 * const server = await startServer({ socket: '/tmp/dype.sock' });
 * console.log(server.addresses, server.tokenFile);
 * await server.drain();
 */
export async function startServer(options: ServeOptions = {}): Promise<DypeServer> {
  const fn = 'startServer';
  checkOptions(fn, options, KEYS as unknown as (keyof ServeOptions & string)[]);
  const unix = parseAddress(fn, options.socket ?? defaultSocketPath());
  if (unix.kind !== 'unix') throw new InvalidArgumentError(`${fn}: socket must be a path, got ${JSON.stringify(options.socket)}`);
  const tcp =
    options.tcp !== undefined ? parseAddress(fn, options.tcp.includes(':') && !options.tcp.startsWith('tcp:') ? `tcp:${options.tcp}` : options.tcp) : undefined;
  if (tcp && tcp.kind !== 'tcp') throw new InvalidArgumentError(`${fn}: tcp must be HOST:PORT on loopback, got ${JSON.stringify(options.tcp)}`);
  const maxFrameBytes =
    options.maxFrameBytes === undefined ? DEFAULT_MAX_FRAME_BYTES : checkInt(fn, 'maxFrameBytes', options.maxFrameBytes, 1024, MAX_FRAME_LIMIT);
  const storeBytes = options.storeBytes === undefined ? 4 * 2 ** 30 : checkInt(fn, 'storeBytes', options.storeBytes, 1);
  const granularity = checkEnum(fn, 'granularity', options.granularity ?? 'job', GRANULARITY);
  const slots = options.slots === undefined ? (granularity === 'operator' ? 64 : 1) : checkInt(fn, 'slots', options.slots, 1, 64);
  const sharing = checkEnum(fn, 'sharing', options.sharing ?? 'shared', SHARING);
  if (granularity === 'operator' && sharing !== 'shared')
    throw new InvalidArgumentError(`${fn}: granularity 'operator' interleaves jobs on a shared machine; it cannot go with sharing ${JSON.stringify(sharing)}`);
  const elastic = options.elastic ?? true;
  if (typeof elastic !== 'boolean') throw new InvalidArgumentError(`${fn}: elastic must be true or false, got ${describe(elastic)}`);
  const clock = checkEnum(fn, 'clock', options.clock ?? 'wall', ['wall', 'declared'] as const);
  const backlogPlanning = options.backlogPlanning ?? true;
  if (typeof backlogPlanning !== 'boolean') throw new InvalidArgumentError(`${fn}: backlogPlanning must be true or false, got ${describe(backlogPlanning)}`);
  const sharedMemory = options.sharedMemory ?? true;
  if (typeof sharedMemory !== 'boolean') throw new InvalidArgumentError(`${fn}: sharedMemory must be true or false, got ${describe(sharedMemory)}`);
  const pollMicroseconds = pollWindow(fn, options.pollMicroseconds);
  const system = options.system ?? (await detectSystem());
  const devices = system.devices.map((d) => d.name);
  let tokenFile: string | undefined;
  let policy: ServicePolicy;
  if (options.policy !== undefined) policy = loadPolicy(options.policy, devices);
  else {
    const token = generateToken();
    policy = defaultPolicy(token);
    tokenFile = tokenFileFor(unix);
  }
  const model = options.model ?? (await loadCostModel(system));
  const server = new DypeServer(system, model, await probeBackends(), policy, options.policy, {
    maxFrameBytes,
    storeBytes,
    slots,
    granularity,
    elastic,
    sharing,
    clock,
    backlogPlanning,
    sharedMemory: sharedMemory && sharedRegionsAvailable().available,
    pollMicroseconds,
    ownsSystem: options.system === undefined,
    log: options.log ?? ((l) => void process.stderr.write(`dype serve: ${l}\n`)),
  });
  await server.listen(unix, tcp);
  if (tokenFile) {
    writeTokenFile(tokenFile, policy.tenants[0]!.token);
    server.tokenFile = tokenFile;
  }
  return server;
}

export class DypeServer {
  readonly state: ServiceState;
  readonly scheduler: FairScheduler;
  readonly maxFrameBytes: number;
  readonly log: (line: string) => void;
  /** What each connection is given of the server (kept out of the public types: it names sockets). */
  readonly #host: ConnectionHost;
  /** Where the default tenant's token was written (no policy file). */
  tokenFile: string | undefined;
  readonly addresses: string[] = [];
  readonly #connections = new Set<Connection>();
  readonly #servers: Server[] = [];
  #directory: TenantDirectory;
  #policy: ServicePolicy;
  #socketPath: string | undefined;
  #draining: Promise<void> | undefined;
  #next = 1;
  readonly #ownsSystem: boolean;
  /** Whether Unix-socket clients may upload through shared-memory regions. */
  readonly #sharedMemory: boolean;

  constructor(
    system: System,
    model: CostModel,
    backends: Awaited<ReturnType<typeof probeBackends>>,
    policy: ServicePolicy,
    private readonly policyPath: string | undefined,
    settings: {
      maxFrameBytes: number;
      storeBytes: number;
      slots: number;
      granularity: Granularity;
      elastic: boolean;
      sharing: Sharing;
      clock: ServiceClock;
      backlogPlanning: boolean;
      sharedMemory: boolean;
      pollMicroseconds: number;
      ownsSystem: boolean;
      log: (line: string) => void;
    },
  ) {
    this.maxFrameBytes = settings.maxFrameBytes;
    this.log = settings.log;
    this.#ownsSystem = settings.ownsSystem;
    this.#sharedMemory = settings.sharedMemory;
    this.#policy = policy;
    this.#directory = new TenantDirectory(policy);
    const devices = system.devices.map((d) => d.name);
    const machine = new MachineTimeline(backlogNames(system), devices, settings.sharing);
    const interleaver = settings.granularity === 'operator' ? new Interleaver(machine, settings.elastic, () => this.scheduler.poke()) : undefined;
    // Replayed arrivals are reached as the machine's clock gets there; received ones as they come.
    this.scheduler = new FairScheduler(policy, devices, settings.slots, undefined, {
      order: settings.sharing === 'exclusive' ? 'fifo' : 'fair',
      fairWindow: interleaver !== undefined,
      ...(settings.clock === 'declared' ? { horizon: () => interleaver?.clock ?? machine.earliestFree } : {}),
      queued: () => this.state.leases.revokeAll(),
    });
    const store = new DataStore(settings.storeBytes);
    this.state = {
      system,
      model,
      backends,
      store,
      scheduler: this.scheduler,
      machine,
      interleaver,
      keys: new KeyedJobs(),
      jobMemory: new JobMemory(),
      tenantPolicy: (name) => this.#policy.tenants.find((t) => t.name === name),
      clock: settings.clock,
      backlogPlanning: settings.backlogPlanning,
      plans: new PlanCache(store),
      leases: new Leases(),
      version: packageVersion(),
      started: performance.now() / 1000,
      connections: () => this.#connections.size,
    };
    const poll = new HotPoll(settings.pollMicroseconds);
    this.#host = {
      state: this.state,
      scheduler: this.scheduler,
      directory: () => this.#directory,
      maxFrameBytes: this.maxFrameBytes,
      maxBufferedBytes: Math.max(64 * 2 ** 20, 2 * this.maxFrameBytes),
      helloSeconds: 10,
      stallSeconds: 60,
      regionsPerConnection: 4,
      log: (line) => this.log(line),
      closed: (c) => void this.#connections.delete(c),
      heard: () => poll.heard(),
      // Only an idle machine polls: a running job's kernels need the cores.
      replied: () => {
        if (this.scheduler.idle) poll.arm();
      },
    };
  }

  get policy(): ServicePolicy {
    return this.#policy;
  }

  /** Listen on the addresses (called once by {@link startServer}). */
  async listen(unix: ServerAddress & { kind: 'unix' }, tcp: (ServerAddress & { kind: 'tcp' }) | undefined): Promise<void> {
    mkdirSync(dirname(unix.path), { recursive: true, mode: 0o700 });
    await clearStaleSocket(unix.path);
    // The socket is created with mode 0600: no moment when another user could connect.
    const umask = process.umask(0o177);
    try {
      await this.#listenOn(unix);
    } finally {
      process.umask(umask);
    }
    this.#socketPath = unix.path;
    if (tcp) await this.#listenOn(tcp);
  }

  #listenOn(a: ServerAddress): Promise<void> {
    const server = createServer((socket) => this.#accept(socket, a.kind === 'unix'));
    // Each connection costs a little memory and a descriptor: a flood of them is turned away.
    server.maxConnections = MAX_CONNECTIONS;
    return new Promise((resolve, reject) => {
      server.once('error', (e) => reject(new IoError('serve', formatAddress(a), e)));
      const ready = (): void => {
        server.removeAllListeners('error');
        server.on('error', (e) => this.log(`listener error: ${e.message}`));
        const bound = server.address();
        this.addresses.push(
          a.kind === 'tcp' && bound && typeof bound === 'object' ? formatAddress({ kind: 'tcp', host: a.host, port: bound.port }) : formatAddress(a),
        );
        this.#servers.push(server);
        resolve();
      };
      if (a.kind === 'unix') server.listen(a.path, ready);
      else server.listen(a.port, a.host, ready);
    });
  }

  /** @param local whether the client came through the Unix socket (the same user, the same machine: it may upload through shared memory). */
  #accept(socket: Socket, local: boolean): void {
    if (this.#draining) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    const c = new Connection(socket, this.#host, `connection ${this.#next++}`, local && this.#sharedMemory);
    this.#connections.add(c);
  }

  /**
   * Read the policy file again (SIGHUP). A bad file keeps the policy in force.
   * @returns whether the new policy took effect; the log says why not.
   */
  reload(): boolean {
    if (this.policyPath === undefined) {
      this.log('reload: no policy file (the default tenant stays)');
      return false;
    }
    try {
      const next = loadPolicy(
        this.policyPath,
        this.state.system.devices.map((d) => d.name),
      );
      this.#policy = next;
      this.#directory = new TenantDirectory(next);
      this.scheduler.setPolicy(next);
      this.log(`reload: policy ${this.policyPath} in force, ${next.tenants.length} tenant(s)`);
      return true;
    } catch (e) {
      this.log(`reload: kept the policy in force: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
  }

  /** Stop accepting connections and jobs, let accepted jobs finish and their replies go out, then close. */
  drain(): Promise<void> {
    this.#draining ??= (async () => {
      for (const s of this.#servers) s.close();
      this.state.leases.revokeAll();
      await this.scheduler.drain();
      // The last jobs' replies travel through a few promise reactions: let those run (they all
      // do before the next turn of the event loop) so every reply is written, then end each connection.
      await new Promise((r) => setImmediate(r));
      // A reply whose outputs are in a region lives in this process: wait (a while) until each
      // client has mapped its regions, which this process's exit would close unread (a client got
      // ENOENT opening its last reply's region when the server exited first).
      for (const until = Date.now() + DRAIN_REGION_WAIT_MS; Date.now() < until && [...this.#connections].some((c) => c.repliesUnmapped > 0); )
        await new Promise((r) => setTimeout(r, 5));
      await Promise.all(
        [...this.#connections].map(
          (c) =>
            new Promise<void>((res) => {
              c.end();
              // Not unref'd: this wait must keep the process alive (it exits once the drain resolves).
              setTimeout(res, 50);
            }),
        ),
      );
      if (this.#socketPath && existsSync(this.#socketPath)) unlinkSync(this.#socketPath);
      if (this.tokenFile && existsSync(this.tokenFile)) unlinkSync(this.tokenFile);
    })();
    return this.#draining;
  }

  /** Drain, and release the system when the server made it. */
  async close(): Promise<void> {
    await this.drain();
    if (this.#ownsSystem) await this.state.system.dispose();
  }
}

/** Remove a socket file left by a server that is gone; refuse when one answers there. */
async function clearStaleSocket(path: string): Promise<void> {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(path);
  } catch {
    return;
  }
  if (!stat.isSocket()) throw new IoError('serve', path, new Error('exists and is not a socket'));
  const alive = await new Promise<boolean>((resolve) => {
    const s = createConnection(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
  if (alive) throw new IoError('serve', path, new Error('another dype server is listening there'));
  unlinkSync(path);
}
