// The client of `dype serve`: `connect(address, { token })` returns an object with the library's
// planning and running calls, so an application moves between in-process and served by changing
// the line that makes it. Matrices are uploaded once (content hash, remembered per matrix object)
// and referenced after; typed errors come back as the same classes the library throws.

import { type Socket, createConnection } from 'node:net';
import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import { AbortedError, describe, InvalidArgumentError, SessionClosedError } from '../errors.js';
import type { ExplorationResult, Plan } from '../scheduler/schedule.js';
import type { Value } from '../operators/kind.js';
import { checkNumber, checkOptions } from '../validate.js';
import type { Workload } from '../workloads/definition.js';
import { parseAddress, type ServerAddress, formatAddress } from './address.js';
import type {
  ConnectOptions,
  DataRef,
  ServedData,
  ServedExploreOptions,
  RunHereOptions,
  ServedPlan,
  ServedRunOptions,
  ServedRunResult,
  ServedRunSettings,
  ServedScheduleOptions,
  ServedStreamResult,
  ServedStreamSettings,
  ServerStatus,
} from './client-types.js';
import { DEFAULT_MAX_FRAME_BYTES, FrameReader, MessageCodec } from './frames.js';
import { isRecord, MAX_REQUEST_ID, PROTOCOL_VERSION, reviveError, type RequestType, type Welcome } from './protocol.js';
import type { Stored } from './data-store.js';
import type { SystemInfo } from './system-info.js';
import { packageVersion } from './version.js';
import { decodeValue, encodeMatrix, matrixBytes, type WireMatrix } from './wire-values.js';
import { SHARED_MIN_BYTES } from './region-layout.js';
import { fieldsInRegion, outputsFromRegion, probeRegions, streamOutputsFromRegion } from './shared-upload.js';
import { jobFields, withUploadedData, workloadFields } from './call-fields.js';
import { HotPoll, pollWindow } from './hot-poll.js';
import { LeaseKeeper } from './run-here.js';

export type * from './client-types.js';

interface Pending {
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

/**
 * A connection to a dype server; see {@link connect}. Calls mirror the library's `explore`,
 * `schedule` and `runPlan`, planned and run on the server.
 */
export interface DypeClient {
  /** The tenant the server knows this client as. */
  readonly tenant: string;
  /** The server's dype version. */
  readonly serverVersion: string;
  /** Whether the connection is closed. */
  readonly closed: boolean;
  /**
   * Send a matrix to the server once; later calls reference it by content hash (calls given the
   * matrix itself upload it on first use).
   * @throws the library's `CsrMatrix` / `DenseMatrix` errors as the server validates it; {LimitError} past the frame or store bound.
   */
  upload(matrix: CsrMatrix | DenseMatrix): Promise<DataRef & Stored>;
  /** As the library's `explore`, planned on the server; the result is plain data (no live problem). */
  explore(workload: Workload | string | object, data: ServedData, options?: ServedExploreOptions): Promise<ExplorationResult>;
  /** As the library's `schedule`: the plan's data, kept on the server for {@link DypeClient.runPlan}. */
  schedule(workload: Workload | string | object, data: ServedData, options?: ServedScheduleOptions): Promise<ServedPlan>;
  /** As the library's `runPlan`, for a plan from {@link DypeClient.schedule}: runs the very plan the server kept. */
  runPlan(plan: ServedPlan, options?: ServedRunOptions): Promise<ServedRunResult>;
  /**
   * Run a plan from {@link DypeClient.schedule} here when the server grants its devices (its turn on
   * the shared machine as a served run): `local` is the same mapping on this process's data
   * (`schedule(workload, data, { fixedMapping: plan.mapping, system })`, the server's system); the
   * outputs stay here. @throws {InvalidArgumentError} where `local` is another mapping or system.
   */
  runHere(plan: ServedPlan, local: Plan, options?: RunHereOptions): Promise<ServedRunResult>;
  /** Plan and run in one request (`schedule` then `runPlan` on the server). */
  run(workload: Workload | string | object, data: ServedData, options?: ServedScheduleOptions & { readonly run?: ServedRunSettings }): Promise<ServedRunResult>;
  /**
   * As the library's `runStream`: the workload's stream form planned on the first input and run
   * on every input, on the server (it holds the devices it uses for its pipelined makespan).
   */
  runStream(
    workload: Workload | string | object,
    inputs: readonly ServedData[],
    options?: ServedScheduleOptions & { readonly run?: ServedStreamSettings },
  ): Promise<ServedStreamResult>;
  /** The server's system (the fields of `dype system --json`). */
  system(): Promise<SystemInfo>;
  /** Tenants, queues, devices' busy time and shares, the store, and this tenant's jobs. */
  status(): Promise<ServerStatus>;
  /** Cancel one of this tenant's jobs by id (as `status` lists them). */
  cancel(job: string): Promise<void>;
  /** Close the connection; calls still waiting reject with a {@link SessionClosedError}. */
  close(): Promise<void>;
}

/**
 * Connect to a dype server.
 * @throws {InvalidArgumentError} for a bad address or option; {AccessError} for a wrong token;
 *   {UnsupportedError} when the server speaks another protocol version; {IoError}-like
 *   {SessionClosedError} when nothing answers there.
 * @example
 * const dype = await connect('unix:/run/user/1000/dype/dype.sock', { token });
 * const plan = await dype.schedule('gcn', graph);   // as schedule(), planned on the server
 * const result = await dype.runPlan(plan);
 * await dype.close();
 */
export async function connect(address: string, options: ConnectOptions = {}): Promise<DypeClient> {
  const fn = 'connect';
  checkOptions(fn, options, ['token', 'timeout', 'sharedMemory', 'pollMicroseconds']);
  const a = parseAddress(fn, address);
  const token = options.token ?? process.env['DYPE_TOKEN'];
  if (typeof token !== 'string' || token.length === 0)
    throw new InvalidArgumentError(`${fn}: token must be a non-empty string (or set DYPE_TOKEN), got ${describe(token)}`);
  const timeout = options.timeout === undefined ? 10 : checkNumber(fn, 'timeout', options.timeout, 0.001, 3600);
  if (options.sharedMemory !== undefined && typeof options.sharedMemory !== 'boolean')
    throw new InvalidArgumentError(`${fn}: sharedMemory must be true or false, got ${describe(options.sharedMemory)}`);
  const poll = pollWindow(fn, options.pollMicroseconds);
  const socket = a.kind === 'unix' ? createConnection(a.path) : createConnection(a.port, a.host);
  socket.setNoDelay(true);
  const client = new ServiceClient(socket, a, options.sharedMemory ?? true, new HotPoll(poll));
  await client.handshake(token, timeout);
  await client.probeSharedMemory();
  return client;
}

/** The client behind {@link DypeClient} (the interface keeps the socket out of the public types). */
class ServiceClient implements DypeClient {
  readonly #codec = new MessageCodec();
  readonly #reader = new FrameReader(2 ** 32 - 1);
  readonly #pending = new Map<number, Pending>();
  readonly #quiet = new Set<number>(); // pending requests awaited without polling
  /** Hash of each matrix sent (or being sent): a matrix goes over the wire once per connection. */
  readonly #uploaded = new WeakMap<object, Promise<string>>();
  #hello: Pending | undefined;
  #nextId = 1;
  #closed: Error | undefined;
  #maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
  /** The tenant the server knows this client as, and the server's dype version. */
  tenant = '';
  serverVersion = '';
  #sharedMemory = false; // large uploads through shared memory: offered, openable here, and working so far
  #system: Promise<SystemInfo> | undefined; // asked once: runHere checks local plans against it
  readonly #leases = new LeaseKeeper((type, fields, signal, quiet) => this.#call(type, fields, signal, quiet));

  constructor(
    private readonly socket: Socket,
    readonly address: ServerAddress,
    private readonly wantSharedMemory: boolean,
    /** Polls for a reply while one is awaited (hot-poll.ts). */
    private readonly poll: HotPoll,
  ) {
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', (e) => this.#fail(new SessionClosedError(`connect: ${formatAddress(address)}: ${e.message}`, { cause: e })));
    socket.on('close', () => {
      const n = this.#pending.size;
      const unanswered = n === 0 ? '' : ` with ${n} request(s) unanswered; one sent with a key can be sent again on a new connection to join its job`;
      this.#fail(new SessionClosedError(`connect: the connection to ${formatAddress(address)} closed${unanswered}`));
    });
  }

  /** @internal */
  handshake(token: string, timeout: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new SessionClosedError(`connect: no answer from ${formatAddress(this.address)} within ${timeout} s`));
        this.socket.destroy();
      }, timeout * 1000);
      this.#hello = {
        resolve: (w) => {
          clearTimeout(timer);
          const welcome = w as Welcome;
          this.tenant = welcome.tenant;
          this.serverVersion = welcome.server;
          this.#maxFrameBytes = welcome.maxFrameBytes;
          this.#sharedMemory = this.wantSharedMemory && welcome.sharedMemory === true;
          resolve();
        },
        reject: (e) => {
          clearTimeout(timer);
          this.socket.destroy();
          reject(e);
        },
      };
      this.socket.write(this.#codec.encode('connect', { type: 'hello', protocol: PROTOCOL_VERSION, client: packageVersion(), token }, this.#maxFrameBytes));
    });
  }

  /** @internal Use shared memory only where this process can open the server's regions. */
  async probeSharedMemory(): Promise<void> {
    if (!this.#sharedMemory) return;
    try {
      this.#sharedMemory = await probeRegions((type, fields) => this.#call(type, fields));
    } catch {
      this.#sharedMemory = false;
    }
  }

  /** Whether the connection is closed. */
  get closed(): boolean {
    return this.#closed !== undefined;
  }

  async upload(matrix: CsrMatrix | DenseMatrix): Promise<DataRef & Stored> {
    if (!(matrix instanceof CsrMatrix) && !(matrix instanceof DenseMatrix)) {
      throw new InvalidArgumentError(`DypeClient.upload: matrix must be a CsrMatrix or DenseMatrix, got ${describe(matrix)}`);
    }
    const wire = encodeMatrix(matrix);
    const sent = (
      this.#sharedMemory && matrixBytes(matrix) >= SHARED_MIN_BYTES ? this.#uploadShared(wire) : this.#call('upload', { matrix: wire })
    ) as Promise<Stored>;
    const hash = sent.then((s) => s.hash);
    hash.catch(() => this.#uploaded.delete(matrix));
    this.#uploaded.set(matrix, hash);
    return sent;
  }

  /** An upload through a shared-memory region; through the socket where the region cannot be written (and from then on). */
  async #uploadShared(wire: WireMatrix): Promise<unknown> {
    const fields = await fieldsInRegion((type, f) => this.#call(type, f), wire);
    if (!fields) this.#sharedMemory = false; // unreachable after all: the server's region expires unused
    return this.#call('upload', fields ?? { matrix: wire });
  }

  async explore(workload: Workload | string | object, data: ServedData, options: ServedExploreOptions = {}): Promise<ExplorationResult> {
    return (await this.#plan('explore', workload, data, options)) as ExplorationResult;
  }

  async schedule(workload: Workload | string | object, data: ServedData, options: ServedScheduleOptions = {}): Promise<ServedPlan> {
    return (await this.#plan('schedule', workload, data, options)) as ServedPlan;
  }

  async runPlan(plan: ServedPlan, options: ServedRunOptions = {}): Promise<ServedRunResult> {
    if (!isRecord(plan) || typeof (plan as { planId?: unknown }).planId !== 'string') {
      throw new InvalidArgumentError(`DypeClient.runPlan: plan must come from this client's schedule(), got ${describe(plan)}`);
    }
    const { signal, timeout: _t, arrival: _a, key: _k, ...run } = options;
    return this.#runReply(await this.#call('run', { plan: plan.planId, run, ...jobFields(options) }, signal));
  }

  async runHere(plan: ServedPlan, local: Plan, options: RunHereOptions = {}): Promise<ServedRunResult> {
    this.#system ??= this.system();
    this.#leases.check(plan, local, await this.#system);
    return this.#leases.run(plan, local, options);
  }

  async run(
    workload: Workload | string | object,
    data: ServedData,
    options: ServedScheduleOptions & { readonly run?: ServedRunSettings } = {},
  ): Promise<ServedRunResult> {
    const { signal, timeout: _t, arrival: _a, key: _k, run, ...planning } = options;
    const fields = { ...workloadFields(workload), options: planning, ...(run ? { run } : {}), ...jobFields(options) };
    return this.#runReply(await this.#withData([data], ([d]) => this.#call('run', { ...fields, data: d }, signal)));
  }

  async runStream(
    workload: Workload | string | object,
    inputs: readonly ServedData[],
    options: ServedScheduleOptions & { readonly run?: ServedStreamSettings } = {},
  ): Promise<ServedStreamResult> {
    if (!Array.isArray(inputs) || inputs.length === 0)
      throw new InvalidArgumentError(`DypeClient.runStream: inputs must be a non-empty array, got ${describe(inputs)}`);
    const { signal, timeout: _t, arrival: _a, key: _k, run, ...planning } = options;
    const fields = { workload: workloadFields(workload).workload, options: planning, ...(run ? { run } : {}), ...jobFields(options) };
    const reply = await this.#withData(inputs, (data) => this.#call('stream', { ...fields, data }, signal));
    const raw = streamOutputsFromRegion('DypeClient.runStream', reply as Record<string, unknown>, this.#mapped);
    return { ...(raw as unknown as ServedStreamResult), results: (raw['results'] as unknown[]).map((r) => this.#decodeRun(r)) };
  }

  async system(): Promise<SystemInfo> {
    return (await this.#call('system', {})) as SystemInfo;
  }

  async status(): Promise<ServerStatus> {
    return (await this.#call('status', {})) as ServerStatus;
  }

  async cancel(job: string): Promise<void> {
    await this.#call('cancel', { job });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#leases.release(); // its held-back runs go before the connection ends
    await new Promise<void>((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.end();
      setTimeout(() => this.socket.destroy(), 1000).unref?.();
    });
  }

  async #plan(type: 'explore' | 'schedule', workload: Workload | string | object, data: ServedData, options: ServedScheduleOptions): Promise<unknown> {
    const { signal, timeout: _t, arrival: _a, key: _k, ...planning } = options;
    return this.#withData([data], ([d]) => this.#call(type, { ...workloadFields(workload), data: d, options: planning, ...jobFields(options) }, signal));
  }

  /** Tell the server this client has mapped a reply's region. */
  readonly #mapped = (region: number): void => void this.#call('close-regions', { regions: [region] }).catch(() => undefined);

  #runReply(raw: unknown): ServedRunResult {
    return this.#decodeRun(outputsFromRegion('DypeClient.run', raw as Record<string, unknown>, this.#mapped));
  }

  /** A run's result with its outputs (wire form, or views of a region) decoded. */
  #decodeRun(raw: unknown): ServedRunResult {
    const r = raw as ServedRunResult & { outputs: Record<string, unknown> };
    const outputs: Record<string, Value> = {};
    for (const [k, v] of Object.entries(r.outputs)) outputs[k] = decodeValue('DypeClient.run', v);
    return { ...r, outputs };
  }

  /** Send a request naming `data`, uploading what this client has not sent yet, and again what the server evicted since. */
  #withData<T>(data: readonly ServedData[], send: (wire: (string | Record<string, string>)[]) => Promise<T>): Promise<T> {
    return withUploadedData(data, this.#uploaded, async (m) => (await this.upload(m)).hash, send);
  }

  /** Send a request; a `quiet` one is awaited without polling (it may wait long: a kept lease's hold). */
  #call(type: RequestType, fields: Record<string, unknown>, signal?: AbortSignal, quiet = false): Promise<unknown> {
    if (this.#closed) return Promise.reject(this.#closed);
    if (signal?.aborted) return Promise.reject(new AbortedError(`DypeClient.${type}: the signal is already aborted`, { cause: signal.reason }));
    const id = this.#nextId;
    this.#nextId = this.#nextId >= MAX_REQUEST_ID ? 1 : this.#nextId + 1;
    const frame = this.#codec.encode(`DypeClient.${type}`, { type, id, ...fields }, this.#maxFrameBytes);
    return new Promise((resolve, reject) => {
      // The server answers the request itself, with an AbortedError, once its job stops.
      const onAbort = (): void => void this.#call('cancel', { request: id }).catch(() => undefined);
      this.#pending.set(id, {
        resolve: (v) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(v);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.socket.write(frame);
      if (quiet) this.#quiet.add(id);
      else this.poll.arm();
    });
  }

  #onData(chunk: Buffer): void {
    this.poll.heard();
    this.#readFrames(chunk);
    if (this.#pending.size > this.#quiet.size) this.poll.arm();
  }

  #readFrames(chunk: Buffer): void {
    for (const ev of this.#reader.push(chunk)) {
      if (ev.state !== 'frame') continue;
      let msg: unknown;
      try {
        msg = this.#codec.decode('connect', ev.body);
      } catch (e) {
        this.#fail(e instanceof Error ? e : new Error(String(e)));
        this.socket.destroy();
        return;
      }
      if (!isRecord(msg)) continue;
      if (this.#hello) {
        const h = this.#hello;
        this.#hello = undefined;
        if (msg['type'] === 'welcome') h.resolve(msg);
        else h.reject(reviveError(msg['error']));
        continue;
      }
      const id = msg['id'];
      const p = typeof id === 'number' ? this.#pending.get(id) : undefined;
      if (!p) continue;
      this.#pending.delete(id as number);
      this.#quiet.delete(id as number);
      if (msg['type'] === 'result') p.resolve(msg['result']);
      else p.reject(reviveError(msg['error']));
    }
  }

  #fail(e: Error): void {
    if (this.#closed) return;
    this.#closed = e;
    this.poll.stop();
    this.#hello?.reject(e);
    this.#hello = undefined;
    for (const p of this.#pending.values()) p.reject(e);
    this.#pending.clear();
    this.#quiet.clear();
  }
}
