// Helpers of the service tests: a server in this process or in a real child process (the built
// CLI), and a raw client that speaks frames by hand (for hostile input).

import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { connect, type DypeClient } from '../../src/service/client.js';
import { FrameReader, MessageCodec } from '../../src/service/frames.js';
import { PROTOCOL_VERSION } from '../../src/service/protocol.js';
import { startServer, type DypeServer, type ServeOptions } from '../../src/service/server.js';
import { specModel, twoDeviceSystem } from '../scheduler/schedule-fixtures.js';
import { builtCli } from '../support/build-cli.js';
import { tempFolder } from '../support/temp.js';

export const TOKENS = { a: 'token-of-tenant-a-0123456789', b: 'token-of-tenant-b-9876543210' } as const;

/** The server and clients a test opened: closed after each test, or when the test says. */
export class OpenServer {
  #open: { server: DypeServer; clients: DypeClient[] } | undefined;

  keep(server: DypeServer, clients: DypeClient[]): void {
    this.#open = { server, clients };
  }

  async close(): Promise<void> {
    const open = this.#open;
    if (!open) return;
    this.#open = undefined;
    for (const c of open.clients) await c.close();
    await open.server.close();
  }
}

/** An OpenServer closed after each test of the file. */
export function closedAfterEach(): OpenServer {
  const o = new OpenServer();
  afterEach(() => o.close());
  return o;
}

/** A policy with two tenants, a and b. */
export function twoTenantPolicy(dir: string, extra: Record<string, unknown> = {}): string {
  const path = join(dir, 'policy.json');
  writeFileSync(
    path,
    JSON.stringify({
      tenants: [
        { name: 'a', token: TOKENS.a, ...extra },
        { name: 'b', token: TOKENS.b },
      ],
    }),
  );
  return path;
}

const simulated = twoDeviceSystem();
const simulatedModel = specModel(simulated);

/**
 * A server in this process with the two-tenant policy (`tenantA` fields added to tenant a) on a
 * simulated GPU and CGRA with the spec model, so nothing it plans depends on this machine's timings.
 */
export async function simulatedServer(
  options: Omit<ServeOptions, 'socket' | 'policy' | 'system' | 'model'> = {},
  tenantA: Record<string, unknown> = {},
): Promise<DypeServer> {
  const dir = tempFolder('dype-serve-sim-');
  return startServer({
    socket: join(dir, 'd.sock'),
    policy: twoTenantPolicy(dir, tenantA),
    system: simulated,
    model: simulatedModel,
    log: () => {},
    ...options,
  });
}

/** A simulated server (see {@link simulatedServer}) with a client of tenant a and one of b; `close` ends all three. */
export async function simulatedServerWithClients(): Promise<{ server: DypeServer; a: DypeClient; b: DypeClient; close(): Promise<void> }> {
  const server = await simulatedServer();
  const a = await connect(server.addresses[0]!, { token: TOKENS.a });
  const b = await connect(server.addresses[0]!, { token: TOKENS.b });
  return {
    server,
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await server.close();
    },
  };
}

/** A server in this process on a socket in a fresh temporary folder (the cache folder is there too). */
export async function inProcessServer(
  options: { policy?: boolean; maxFrameBytes?: number; storeBytes?: number } = {},
): Promise<{ server: DypeServer; dir: string; address: string; logs: string[] }> {
  const dir = tempFolder('dype-serve-');
  process.env['DYPE_CACHE_DIR'] = dir;
  const logs: string[] = [];
  const server = await startServer({
    socket: join(dir, 'd.sock'),
    ...(options.policy ? { policy: twoTenantPolicy(dir) } : {}),
    ...(options.maxFrameBytes ? { maxFrameBytes: options.maxFrameBytes } : {}),
    ...(options.storeBytes ? { storeBytes: options.storeBytes } : {}),
    log: (l) => void logs.push(l),
  });
  return { server, dir, address: server.addresses[0]!, logs };
}

/**
 * An in-process server (see {@link inProcessServer}) and a client with its token, opened before
 * the file's tests and closed after them; read them through the getters once the tests run.
 */
export function serverForFile(options: Parameters<typeof inProcessServer>[0] = {}): { readonly server: DypeServer; readonly client: DypeClient } {
  let server: DypeServer | undefined;
  let client: DypeClient | undefined;
  beforeAll(async () => {
    server = (await inProcessServer(options)).server;
    client = await connect(server.addresses[0]!, { token: readFileSync(server.tokenFile!, 'utf8').trim() });
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });
  return {
    get server() {
      return server!;
    },
    get client() {
      return client!;
    },
  };
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly address: string;
  readonly dir: string;
  output(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

/** `dype serve` as a real process (the built CLI), with the two-tenant policy; resolves once it listens. */
export async function serverProcess(extraArgs: readonly string[] = []): Promise<ServerProcess> {
  const dir = tempFolder('dype-serve-proc-');
  const socket = join(dir, 'd.sock');
  const child = spawn(process.execPath, [builtCli, 'serve', '--socket', socket, '--policy', twoTenantPolicy(dir), ...extraArgs], {
    env: { ...process.env, DYPE_CACHE_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => void (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => void (out += b.toString()));
  // 'close', not 'exit': the output is all read by then.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dype serve did not start:\n${out}`)), 30_000);
    const check = (): void => {
      if (out.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => reject(new Error(`dype serve exited:\n${out}`)));
  });
  return { child, address: `unix:${socket}`, dir, output: () => out, exited };
}

/** A client that writes raw bytes and reads decoded replies, for input no real client sends. */
export class RawClient {
  readonly socket: Socket;
  readonly codec = new MessageCodec();
  readonly #reader = new FrameReader(2 ** 32 - 1);
  readonly #queue: unknown[] = [];
  #waiters: ((m: unknown) => void)[] = [];
  closed = false;
  readonly #closeWaiters: (() => void)[] = [];

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (b: Buffer) => {
      for (const ev of this.#reader.push(b)) {
        if (ev.state !== 'frame') continue;
        const m = this.codec.decode('test', ev.body);
        const w = this.#waiters.shift();
        if (w) w(m);
        else this.#queue.push(m);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      for (const w of this.#closeWaiters.splice(0)) w();
    });
  }

  static open(address: string): Promise<RawClient> {
    const path = address.replace(/^unix:/, '');
    return new Promise((resolve, reject) => {
      const s = netConnect(path);
      s.once('connect', () => resolve(new RawClient(s)));
      s.once('error', reject);
    });
  }

  /** Open and say hello with `token`; resolves with the welcome (or the refusal). */
  static async hello(address: string, token: string): Promise<{ raw: RawClient; reply: Record<string, unknown> }> {
    const raw = await RawClient.open(address);
    raw.send({ type: 'hello', protocol: PROTOCOL_VERSION, client: 'test', token });
    return { raw, reply: (await raw.next()) as Record<string, unknown> };
  }

  send(message: unknown): void {
    this.socket.write(this.codec.encode('test', message, 2 ** 32 - 1));
  }

  /** A frame around `body`, as is. */
  sendBody(body: Uint8Array): void {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length, 0);
    this.socket.write(Buffer.concat([head, body]));
  }

  sendBytes(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  /** The next reply (rejects after `ms`). */
  next(ms = 20_000): Promise<Record<string, unknown>> {
    const m = this.#queue.shift();
    if (m !== undefined) return Promise.resolve(m as Record<string, unknown>);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no reply')), ms);
      this.#waiters.push((x) => {
        clearTimeout(timer);
        resolve(x as Record<string, unknown>);
      });
    });
  }

  whenClosed(): Promise<void> {
    return this.closed ? Promise.resolve() : new Promise((r) => this.#closeWaiters.push(r));
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Shared-memory regions open in this process (a server running here): memfds named dype-upload. */
export function regionDescriptors(): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith('/memfd:dype-upload');
    } catch {
      return false; // closed meanwhile
    }
  }).length;
}

/** Wait until `count()` is `target` (at most two seconds); returns the last count. */
export async function settle(count: () => number, target: number): Promise<number> {
  for (let i = 0; i < 200 && count() !== target; i++) await new Promise((r) => setTimeout(r, 10));
  return count();
}
