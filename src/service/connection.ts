// One client connection on the server: the handshake, then requests and their replies. Nothing
// a client sends can crash the server: every bad frame or field is answered with a typed error
// frame (id 0 when the request's id could not be read), and the connection goes on. A reply goes
// only to the connection that asked, once; when the client leaves, its jobs are cancelled and
// their results dropped. A client that stops reading is disconnected once its unread replies
// pass a bound, so it holds no memory hostage.

import type { Socket } from 'node:net';
import { AccessError, describe, InvalidArgumentError, LimitError, UnsupportedError } from '../errors.js';
import type { FairScheduler } from './fair-scheduler.js';
import { FrameReader, MessageCodec } from './frames.js';
import { checkEnvelope, checkFields, type Envelope, isRecord, PROTOCOL_VERSION, type Reply, RequestError, type Welcome, wireError } from './protocol.js';
import { answer, type ServiceState } from './requests.js';
import type { LeaseGrant } from './leases.js';
import { regionLayouts, SHARED_MIN_BYTES, viewsInRegion } from './region-layout.js';
import { type Reservation, SharedRegions } from './shared-regions.js';
import type { TenantDirectory } from './tokens.js';

export interface ConnectionHost {
  readonly state: ServiceState;
  readonly scheduler: FairScheduler;
  directory(): TenantDirectory;
  readonly maxFrameBytes: number;
  /** Unread reply bytes after which a client is cut off. */
  readonly maxBufferedBytes: number;
  /** Seconds a client has to say hello. */
  readonly helloSeconds: number;
  /** Seconds a frame may stall half-sent before the connection is dropped (it holds what was received); also how long a shared-memory region waits for its upload. */
  readonly stallSeconds: number;
  /** Shared-memory regions a connection may hold unused at once. */
  readonly regionsPerConnection: number;
  log(line: string): void;
  closed(c: Connection): void;
  /** A frame came in (the server's poller stops: the next request is here). */
  heard(): void;
  /** A reply went out (the server may poll for the next request). */
  replied(): void;
}

export class Connection {
  readonly #reader: FrameReader;
  readonly #codec = new MessageCodec();
  #tenant: string | undefined;
  #closed = false;
  /** Jobs this connection waits for, by request id: whether each is keyed (it survives this connection), and when its request was read (performance.now()). */
  readonly #inflight = new Map<number, { jobId: string; keyed: boolean; received: number }>();
  /** Leases granted to this connection and not yet reported done. */
  readonly #leases = new Set<string>();
  readonly #helloTimer: NodeJS.Timeout;
  /** Shared-memory regions for uploads and replies, where this client may use them (it came through the Unix socket). */
  readonly #regions: SharedRegions | undefined;

  /** @param sharedMemory whether this client may use shared-memory regions (uploads, and replies once it shows it can map them). */
  constructor(
    private readonly socket: Socket,
    private readonly host: ConnectionHost,
    readonly label: string,
    sharedMemory = false,
  ) {
    this.#reader = new FrameReader(host.maxFrameBytes);
    this.#regions = sharedMemory ? new SharedRegions({ maxOpen: host.regionsPerConnection, seconds: host.stallSeconds }) : undefined;
    this.#helloTimer = setTimeout(() => this.#refuse(new AccessError(`serve: no hello within ${host.helloSeconds} s`)), host.helloSeconds * 1000);
    this.#helloTimer.unref?.();
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', () => undefined); // 'close' follows and cleans up
    // Idle between frames is fine; idle in the middle of one holds memory for nothing.
    socket.setTimeout(host.stallSeconds * 1000, () => {
      if (this.#reader.pending === 0) return;
      host.log(`disconnected ${this.label}: a frame stalled for ${host.stallSeconds} s after ${this.#reader.pending} bytes`);
      socket.destroy();
    });
    socket.on('close', () => this.#onClose());
  }

  get tenant(): string | undefined {
    return this.#tenant;
  }

  /** Requests of this connection still running. */
  get inflight(): number {
    return this.#inflight.size;
  }

  /** Reply regions sent and not yet mapped by the client (a draining server waits for them: its exit would close them unread). */
  get repliesUnmapped(): number {
    return this.#closed ? 0 : (this.#regions?.repliesWaiting ?? 0);
  }

  /** Close after the replies already written (draining). */
  end(): void {
    if (!this.#closed) this.socket.end();
  }

  #onData(chunk: Buffer): void {
    if (this.#closed) return;
    this.host.heard();
    for (const ev of this.#reader.push(chunk)) {
      if (this.#closed) return;
      if (ev.state === 'oversized') {
        const e = new LimitError(`serve: a frame of ${ev.bytes} bytes is over the limit of ${ev.limit} bytes (dype serve --max-frame); its bytes were skipped`);
        if (this.#tenant === undefined) this.#refuse(e);
        else this.#send({ type: 'error', id: 0, error: wireError(e) });
        continue;
      }
      let message: unknown;
      try {
        message = this.#codec.decode('serve', ev.body);
      } catch (e) {
        if (this.#tenant === undefined) this.#refuse(e);
        else this.#send({ type: 'error', id: 0, error: wireError(e) });
        continue;
      }
      if (this.#tenant === undefined) this.#hello(message);
      else this.#request(message);
    }
  }

  #hello(message: unknown): void {
    clearTimeout(this.#helloTimer);
    const fn = 'serve.hello';
    if (!isRecord(message) || message['type'] !== 'hello') {
      this.#refuse(
        new AccessError(
          `${fn}: the first message must be a hello (type "hello", protocol, client, token), got ${isRecord(message) ? `type ${describe(message['type'])}` : describe(message)}`,
        ),
      );
      return;
    }
    const protocol = message['protocol'];
    if (protocol !== PROTOCOL_VERSION) {
      this.#refuse(
        new UnsupportedError(
          `${fn}: the client speaks protocol ${describe(protocol)} (dype ${describe(message['client'])}); this server speaks ${PROTOCOL_VERSION} (dype ${this.host.state.version}): use matching versions`,
        ),
      );
      return;
    }
    try {
      const tenant = this.host.directory().authenticate(fn, message['token']);
      this.#tenant = tenant.name;
    } catch (e) {
      this.host.log(`refused ${this.label}: bad token`);
      this.#refuse(e);
      return;
    }
    const welcome: Welcome = {
      type: 'welcome',
      protocol: PROTOCOL_VERSION,
      server: this.host.state.version,
      tenant: this.#tenant,
      maxFrameBytes: this.host.maxFrameBytes,
      ...(this.#regions ? { sharedMemory: true } : {}),
    };
    this.#send(welcome);
  }

  #request(message: unknown): void {
    const received = performance.now();
    const tenant = this.#tenant!;
    let id = 0;
    try {
      const req = checkEnvelope(message);
      id = req.id;
      if (id === 0) throw new InvalidArgumentError('serve: field "id" must not be 0 (0 marks replies to frames whose id could not be read)');
      if (req.type === 'cancel' && req.fields['request'] !== undefined) {
        this.#cancelRequest(tenant, id, req.fields);
        return;
      }
      if (this.#inflight.has(id)) throw new InvalidArgumentError(`serve.${req.type}: request id ${id} is still in flight on this connection; use a new id`);
      if (req.type === 'reserve' || req.type === 'close-regions') {
        this.#send({ type: 'result', id, result: req.type === 'reserve' ? this.#reserve(tenant, req.fields) : this.#closeRegions(req.fields) });
        return;
      }
      const fromRegion = req.type === 'upload' && req.fields['region'] !== undefined;
      const a = answer(this.host.state, tenant, fromRegion ? this.#fromRegion(req) : req);
      // A kept lease stays this connection's (to end it if the connection leaves) until it ends.
      if (req.type === 'lease-done' && !this.host.state.leases.isOpen(req.fields['lease'])) this.#leases.delete(req.fields['lease'] as string);
      if (a.state === 'now') {
        const result = (v: unknown): Reply => ({ type: 'result', id, result: fromRegion ? { ...(v as object), via: 'shared-memory' } : v });
        if (a.value instanceof Promise)
          a.value.then(
            (v) => this.#send(result(v)),
            (e: unknown) => this.#send({ type: 'error', id, error: wireError(e) }),
          );
        else this.#send(result(a.value));
        return;
      }
      this.#inflight.set(id, { jobId: a.jobId, keyed: a.keyed === true, received });
      // A granted lease outlives its request: it ends with its record, or when this connection leaves.
      if (req.type === 'lease')
        a.value.then(
          (g) => (this.#closed ? this.host.state.leases.abandon(tenant, [(g as LeaseGrant).lease]) : this.#leases.add((g as LeaseGrant).lease)),
          () => undefined,
        );
      a.value.then(
        (result) => this.#settle(id, { type: 'result', id, result }),
        (e: unknown) => this.#settle(id, { type: 'error', id, error: wireError(e) }),
      );
    } catch (e) {
      const err = e instanceof RequestError ? e.error : e;
      this.#send({ type: 'error', id: e instanceof RequestError ? e.id : id, error: wireError(err) });
    }
  }

  /** `reserve`: a shared-memory region for an upload, at most what one upload of this tenant may hold. */
  #reserve(tenant: string, fields: Readonly<Record<string, unknown>>): Reservation {
    const fn = 'serve.reserve';
    checkFields(fn, fields, ['bytes'], []);
    if (!this.#regions)
      throw new UnsupportedError(
        `${fn}: shared-memory uploads are off here (not a Unix-socket client, not Linux, or dype serve --no-shared-memory); send the arrays in the upload`,
      );
    const store = this.host.state.store;
    const quota = this.host.state.tenantPolicy(tenant)?.memoryBytes;
    return this.#regions.reserve(fn, fields['bytes'], Math.min(store.maxBytes, quota ?? Number.POSITIVE_INFINITY));
  }

  /** An upload from a region: the region sealed, mapped and used up, its arrays put in the matrix. */
  #fromRegion(req: Envelope): Envelope {
    const fn = 'serve.upload';
    checkFields(fn, req.fields, ['matrix', 'region'], []);
    if (!this.#regions) throw new UnsupportedError(`${fn}: field "region": shared-memory uploads are off here; send the arrays in the upload`);
    const buffer = this.#regions.take(fn, req.fields['region']);
    return { ...req, fields: { matrix: viewsInRegion(fn, 'matrix', req.fields['matrix'], buffer) } };
  }

  /** `close-regions`: regions the client is done with; `maps: true` says it could open this server's regions (replies may come in them). */
  #closeRegions(fields: Readonly<Record<string, unknown>>): { closed: number } {
    const fn = 'serve.close-regions';
    checkFields(fn, fields, ['regions'], ['maps']);
    if (!this.#regions) throw new UnsupportedError(`${fn}: shared-memory regions are off here`);
    if (fields['maps'] !== undefined && typeof fields['maps'] !== 'boolean') {
      throw new InvalidArgumentError(`${fn}: field "maps" must be a boolean, got ${describe(fields['maps'])}`);
    }
    if (fields['maps'] === true) this.#regions.clientMaps = true;
    return { closed: this.#regions.closeRegions(fn, fields['regions']) };
  }

  /**
   * A run's reply with its large outputs in a region the client maps, where it can (else as it is);
   * a stream's, with every result's large outputs in one region.
   */
  #outputsInRegion(reply: Reply): Reply {
    if (!this.#regions?.clientMaps || reply.type !== 'result' || !isRecord(reply.result)) return reply;
    const result = reply.result;
    const results = Array.isArray(result['results']) ? (result['results'] as unknown[]) : undefined;
    const outputsOf = (r: unknown): Record<string, unknown> | undefined => (isRecord(r) && isRecord(r['outputs']) ? r['outputs'] : undefined);
    const single = results ? undefined : outputsOf(result);
    const outputs = results ? results.map((r) => outputsOf(r) ?? {}) : single && [single];
    if (!outputs) return reply;
    const layout = regionLayouts(outputs, SHARED_MIN_BYTES);
    try {
      const region = this.#regions.offer(layout);
      if (!region) return reply;
      const laid = results
        ? { results: results.map((r, i) => (outputsOf(r) ? { ...(r as object), outputs: layout.messages[i] } : r)) }
        : { outputs: layout.messages[0] };
      return { ...reply, result: { ...result, ...laid, region: { region: region.region, path: region.path } } };
    } catch (e) {
      this.host.log(`${this.label}: a reply went through the socket: ${e instanceof Error ? e.message : String(e)}`);
      return reply;
    }
  }

  /** `cancel` by request id: the job answering that request of this connection (its reply says it was cancelled). */
  #cancelRequest(tenant: string, id: number, fields: Readonly<Record<string, unknown>>): void {
    const fn = 'serve.cancel';
    checkFields(fn, fields, ['request'], []);
    const target = fields['request'];
    const jobId = typeof target === 'number' ? this.#inflight.get(target)?.jobId : undefined;
    if (jobId === undefined) throw new InvalidArgumentError(`${fn}: field "request": no request ${describe(target)} of this connection is waiting for a job`);
    this.host.scheduler.cancel(fn, tenant, jobId);
    this.#send({ type: 'result', id, result: { cancelled: jobId } });
  }

  /** A job's reply: sent once, and only while this connection is open. */
  #settle(id: number, reply: Reply): void {
    const job = this.#inflight.get(id);
    if (!job) return;
    this.#inflight.delete(id);
    const sent = this.#outputsInRegion(reply);
    // How long the server held the job, its outputs' region written (not the reply's encoding):
    // a client's call time beyond it is the transport and its own decoding. On a copy: a keyed
    // job's result is shared by every request under its key.
    const serverSeconds = (performance.now() - job.received) / 1000;
    this.#send(sent.type === 'result' && isRecord(sent.result) ? { ...sent, result: { ...sent.result, serverSeconds } } : sent);
  }

  #send(reply: Reply | Welcome): void {
    if (this.#closed || this.socket.destroyed) return;
    let frame: Buffer;
    try {
      frame = this.#codec.encode('serve', reply, this.host.maxFrameBytes);
    } catch (e) {
      // Too large (or not encodable): the request still gets its one reply, as an error.
      const id = 'id' in reply ? reply.id : 0;
      frame = this.#codec.encode('serve', { type: 'error', id, error: wireError(e) }, this.host.maxFrameBytes);
    }
    this.socket.write(frame);
    this.host.replied();
    if (this.socket.writableLength > this.host.maxBufferedBytes) {
      this.host.log(`disconnected ${this.label} (${this.#tenant}): ${this.socket.writableLength} reply bytes unread`);
      this.socket.destroy();
    }
  }

  /** Answer with an error and close (handshake failures). */
  #refuse(e: unknown): void {
    if (this.#closed) return;
    this.#send({ type: 'error', id: 0, error: wireError(e) });
    this.#closed = true;
    clearTimeout(this.#helloTimer);
    this.socket.end();
    // A peer that never reads must not keep the socket open.
    setTimeout(() => this.socket.destroy(), 2000).unref?.();
  }

  #onClose(): void {
    this.#closed = true;
    this.#regions?.closeAll();
    clearTimeout(this.#helloTimer);
    const tenant = this.#tenant;
    if (tenant !== undefined) {
      for (const { jobId, keyed } of this.#inflight.values()) {
        if (keyed) continue; // its key outlives this connection: the client may come back for it
        try {
          this.host.scheduler.cancel('serve', tenant, jobId, 'cancelled: its client disconnected');
        } catch {
          // finished meanwhile
        }
      }
    }
    this.#inflight.clear();
    if (tenant !== undefined) this.host.state.leases.abandon(tenant, this.#leases);
    this.#leases.clear();
    this.host.closed(this);
  }
}
