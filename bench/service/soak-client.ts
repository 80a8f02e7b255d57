// One process of the hostile soak (bench/service/soak.ts): `connections` clients of one tenant,
// each making a seeded random sequence of requests against a `dype serve` process. Valid runs
// (SpMM with an X of their own, so each reply can be checked against a local reference and a
// reply meant for another request is caught) are mixed with status calls, cancels of job ids that
// may belong to another tenant, connections with a wrong token, frames of random bytes, oversized
// and malformed frames, misused shared-memory regions, and clients that vanish mid-job. A quarter
// of the valid runs send an X of 256 KiB, which goes (and whose output comes back) through
// shared memory where the server offers it. Prints one JSON line of counts.
// Run by soak.ts: node --import tsx bench/service/soak-client.ts '<config JSON>'

import { connect as netConnect } from 'node:net';
import { DenseMatrix } from '../../src/data/dense.js';
import { DypeError } from '../../src/errors.js';
import { denseFeatures, kroneckerGraph } from '../../src/generators/index.js';
import { Rng } from '../../src/generators/rng.js';
import { spmm } from '../../src/kernels/spmm.js';
import { connect, type DypeClient, type ServedRunResult } from '../../src/service/client.js';
import { FrameReader, MessageCodec } from '../../src/service/frames.js';
import { PROTOCOL_VERSION } from '../../src/service/protocol.js';

export interface SoakConfig {
  readonly address: string;
  readonly token: string;
  readonly seed: number;
  readonly connections: number;
  /** Requests per connection. */
  readonly requests: number;
  /** The server's frame limit. */
  readonly maxFrame: number;
}

export interface SoakCounts {
  valid: number;
  verified: number;
  /** A reply whose output is not this request's (misdelivered or wrong). */
  mismatched: number;
  /** Requests that got no reply at all within the timeout. */
  lost: number;
  /** Refusals by error code (hostile requests, and valid ones cancelled by a stray cancel). */
  typed: Record<string, number>;
  /** Errors that are not dype's typed errors (a crash would show here). */
  untyped: string[];
  hostile: number;
}

const config = JSON.parse(process.argv[2]!) as SoakConfig;
const counts: SoakCounts = { valid: 0, verified: 0, mismatched: 0, lost: 0, typed: {}, untyped: [], hostile: 0 };
const graph = kroneckerGraph({ scale: 6, edgeFactor: 4, seed: 1 });
const codec = new MessageCodec();

function refused(e: unknown): void {
  if (e instanceof DypeError) counts.typed[e.code] = (counts.typed[e.code] ?? 0) + 1;
  else counts.untyped.push(e instanceof Error ? e.message : String(e));
}

/** Send raw frames on a fresh connection; resolves with the first reply's error code (or 'closed'). */
function rawExchange(frames: Buffer[]): Promise<string> {
  return new Promise((resolve) => {
    const s = netConnect(config.address.replace(/^unix:/, ''));
    const reader = new FrameReader(2 ** 31);
    const done = (what: string): void => {
      s.destroy();
      resolve(what);
    };
    s.on('data', (b: Buffer) => {
      for (const ev of reader.push(b)) {
        if (ev.state !== 'frame') continue;
        const m = codec.decode('soak', ev.body) as { type?: string; error?: { code?: string } };
        if (m.type === 'error') return done(m.error?.code ?? 'error-without-code');
      }
    });
    s.on('error', () => done('closed'));
    s.on('close', () => done('closed'));
    s.on('connect', () => {
      for (const f of frames) s.write(f);
    });
    setTimeout(() => done('timeout'), 30_000).unref();
  });
}

const framed = (body: Uint8Array): Buffer => {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
};
const hello = (token: string): Buffer => codec.encode('soak', { type: 'hello', protocol: PROTOCOL_VERSION, client: 'soak', token }, 2 ** 31);

async function hostile(rng: Rng): Promise<void> {
  counts.hostile++;
  const kind = Math.floor(rng.nextFloat() * 5);
  const junk = new Uint8Array(1 + Math.floor(rng.nextFloat() * 200)).map(() => Math.floor(rng.nextFloat() * 256));
  const frames =
    kind === 0
      ? [hello(config.token), framed(junk)] // random bytes after a good hello
      : kind === 1
        ? [hello(config.token), Buffer.from([0x7f, 0xff, 0xff, 0xff]), Buffer.alloc(64)] // a frame far over the limit
        : kind === 2
          ? [hello('a-wrong-token-that-no-tenant-has')] // wrong token
          : kind === 3
            ? [framed(junk)] // no hello at all
            : [hello(config.token), ...misusedRegion(rng)];
  const code = await rawExchange(frames);
  if (code === 'timeout') counts.untyped.push(`hostile frame kind ${kind}: no answer within 30 s`);
  else counts.typed[code] = (counts.typed[code] ?? 0) + 1;
}

/** Shared-memory requests no real client sends: an upload from a region never reserved, or a malformed close. */
function misusedRegion(rng: Rng): Buffer[] {
  const frame = (m: unknown): Buffer => codec.encode('soak', m, 2 ** 31);
  const upload = { kind: 'dense', rows: 1, cols: 16, data: { type: 'Float32Array', offset: 0, length: 16 } };
  return rng.nextFloat() < 0.5
    ? [frame({ type: 'reserve', id: 1, bytes: 64 }), frame({ type: 'upload', id: 2, region: 1000 + Math.floor(rng.nextFloat() * 1000), matrix: upload })]
    : [frame({ type: 'close-regions', id: 1, regions: 'all' })];
}

async function validRun(client: DypeClient, rng: Rng, seed: number): Promise<void> {
  counts.valid++;
  const x = denseFeatures({ rows: graph.cols, cols: rng.nextFloat() < 0.25 ? 1024 : 4, seed });
  const want = await spmm(graph, x);
  const timer = new Promise<'lost'>((r) => setTimeout(() => r('lost'), 60_000).unref());
  const got = await Promise.race([
    client.run('spmm', { A: graph, X: x }, { probe: false, params: { k: x.cols }, run: { replan: false, learn: rng.nextFloat() < 0.5 } }),
    timer,
  ]).catch((e: unknown) => e);
  if (got === 'lost') counts.lost++;
  else if (got instanceof Error) refused(got);
  else {
    const y = Object.values((got as ServedRunResult).outputs)[0] as DenseMatrix;
    const ok = y instanceof DenseMatrix && y.rows === want.rows && y.data.every((v, i) => Math.abs(v - want.data[i]!) <= 1e-5 * (1 + Math.abs(want.data[i]!)));
    if (ok) counts.verified++;
    else counts.mismatched++;
  }
}

async function connection(k: number): Promise<void> {
  const rng = new Rng(config.seed, k);
  let client = await connect(config.address, { token: config.token, timeout: 60 });
  for (let r = 0; r < config.requests; r++) {
    const p = rng.nextFloat();
    try {
      if (p < 0.55) await validRun(client, rng, config.seed * 100_000 + k * 1000 + r);
      else if (p < 0.65) await client.status();
      else if (p < 0.75) await client.cancel(`j${1 + Math.floor(rng.nextFloat() * 2000)}`).catch(refused);
      else if (p < 0.9) await hostile(rng);
      else {
        // Vanish mid-job: send a run and drop the connection; then come back on a new one.
        void client.run('spmm', graph, { probe: false }).catch(() => undefined);
        await new Promise((res) => setTimeout(res, rng.nextFloat() * 2));
        (client as unknown as { socket: { destroy(): void } }).socket.destroy();
        client = await connect(config.address, { token: config.token, timeout: 60 });
      }
    } catch (e) {
      refused(e);
    }
  }
  await client.close();
}

await Promise.all(Array.from({ length: config.connections }, (_, k) => connection(k)));
process.stdout.write(`${JSON.stringify(counts)}\n`);
