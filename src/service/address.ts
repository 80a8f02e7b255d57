// Where a dype server listens: a Unix domain socket (the default, under $XDG_RUNTIME_DIR, else
// the cache folder) or loopback TCP. Addresses are written `unix:/path`, a path, or
// `tcp:HOST:PORT` / `HOST:PORT`; TCP must stay on this machine (127.0.0.0/8, ::1, localhost).

import { isIP } from 'node:net';
import { isAbsolute, join, resolve } from 'node:path';
import { calibrationDir } from '../cost/cache.js';
import { describe, InvalidArgumentError } from '../errors.js';

export type ServerAddress = { readonly kind: 'unix'; readonly path: string } | { readonly kind: 'tcp'; readonly host: string; readonly port: number };

/** Longest Unix socket path Linux accepts (sun_path is 108 bytes with its terminator). */
const MAX_SOCKET_PATH = 107;

/** The folder of the default socket and token file: `$XDG_RUNTIME_DIR/dype`, else the cache folder. */
export function defaultServiceDir(): string {
  const runtime = process.env['XDG_RUNTIME_DIR'];
  return runtime && isAbsolute(runtime) ? join(runtime, 'dype') : calibrationDir();
}

/** The default socket: `dype.sock` in {@link defaultServiceDir}. */
export function defaultSocketPath(): string {
  return join(defaultServiceDir(), 'dype.sock');
}

/** The token file beside a socket (`dype.sock` -> `dype.token`). */
export function tokenFileFor(address: ServerAddress): string {
  if (address.kind === 'unix') return address.path.replace(/(\.sock)?$/, '.token');
  return join(defaultServiceDir(), `dype-${address.port}.token`);
}

/** Whether `host` names this machine only. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/**
 * Parse an address.
 * @throws {InvalidArgumentError} for an empty address, a bad port, a socket path too long for the
 *   platform, or a TCP host that is not loopback.
 * @example
 * parseAddress('fn', 'tcp:127.0.0.1:7077'); // { kind: 'tcp', host: '127.0.0.1', port: 7077 }
 */
export function parseAddress(fn: string, raw: unknown): ServerAddress {
  if (typeof raw !== 'string' || raw.length === 0) throw new InvalidArgumentError(`${fn}: address must be a socket path or HOST:PORT, got ${describe(raw)}`);
  let s = raw;
  if (s.startsWith('unix:')) return unixAddress(fn, s.slice(5));
  if (s.startsWith('tcp://')) s = s.slice(6);
  else if (s.startsWith('tcp:')) s = s.slice(4);
  else if (s.includes('/') || !s.includes(':')) return unixAddress(fn, s);
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(s);
  if (!m) throw new InvalidArgumentError(`${fn}: a TCP address must be HOST:PORT (e.g. 127.0.0.1:7077), got ${describe(raw)}`);
  const host = (m[1] ?? m[2])!;
  const port = Number(m[3]);
  if (port > 65535) throw new InvalidArgumentError(`${fn}: port must be in [0, 65535], got ${port}`);
  if (!isLoopback(host)) {
    throw new InvalidArgumentError(`${fn}: ${host} is not a loopback address; dype serve listens on this machine only (127.0.0.1, ::1, localhost)`);
  }
  return { kind: 'tcp', host, port };
}

function unixAddress(fn: string, path: string): ServerAddress {
  if (path.length === 0) throw new InvalidArgumentError(`${fn}: the socket path is empty`);
  const full = resolve(path);
  if (Buffer.byteLength(full) > MAX_SOCKET_PATH) {
    throw new InvalidArgumentError(`${fn}: the socket path ${describe(full)} is ${Buffer.byteLength(full)} bytes; Unix sockets allow ${MAX_SOCKET_PATH}`);
  }
  return { kind: 'unix', path: full };
}

/** The address as written back (`unix:/path` or `tcp:HOST:PORT`). */
export function formatAddress(a: ServerAddress): string {
  return a.kind === 'unix' ? `unix:${a.path}` : `tcp:${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;
}
