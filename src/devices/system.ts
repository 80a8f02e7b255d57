// A system: the devices dype may schedule on and the links between their memories. Loaded from
// a JSON file or detected at run time; every field is validated with an error naming it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile } from '../io/json-file.js';
import { describe, FormatError, InvalidArgumentError } from '../errors.js';
import { packageRoot } from '../native/addon.js';
import { suggest } from '../validate.js';
import type { Availability, BackendDefinition } from './backend.js';
import { BACKENDS } from './backends/index.js';
import type { Device } from './device.js';
import { loadProfile, overrideSpec } from './spec.js';

/** The memory space of devices that work on main memory (the CPU and host-attached simulators). */
export const HOST = 'host';

/** A connection between two memory spaces, symmetric, one copy at a time per direction. */
export interface Link {
  /** The two memory spaces it joins (`host` or the name of a device with its own memory). */
  readonly between: readonly [string, string];
  /** Sustained copy bandwidth per direction, in bytes per second. */
  readonly bandwidth: number;
  /** Fixed cost of one copy, in seconds. */
  readonly latency: number;
  /** Link profile name (devices/links.json), or `custom`. */
  readonly profile: string;
  /** Where the figures come from. */
  readonly source: string;
}

/** Whether a backend can run on this machine: a detail line when it can, the reason when not. */
export type BackendStatus = { readonly backend: string } & Availability;

/** A system file's device entry. */
export interface DeviceEntry {
  readonly name: string;
  readonly backend: string;
  /** A shipped profile of the backend (devices/<backend>/<profile>.json). @default the backend's default */
  readonly profile?: string;
  /** Parameter values replacing the profile's. */
  readonly overrides?: Readonly<Record<string, number>>;
  /** Cap on the memory dype may use on this device, in bytes. */
  readonly memoryBytes?: number;
}

/** A system file's link entry: a shipped profile, or explicit figures. */
export interface LinkEntry {
  readonly between: readonly [string, string];
  readonly profile?: string;
  readonly bandwidth?: number;
  readonly latency?: number;
  readonly source?: string;
}

/** The content of a system file. */
export interface SystemDescription {
  readonly name?: string;
  readonly devices: readonly DeviceEntry[];
  readonly links?: readonly LinkEntry[];
}

/**
 * Devices and links, with transfer costs between memory spaces.
 *
 * @example
 * const system = await detectSystem();
 * system.transferSeconds(1 << 20, 'host', 'gpu'); // time to copy 1 MiB to the GPU
 */
/**
 * `value` as a System, for functions that take one: an InvalidArgumentError naming `fn` otherwise.
 * @internal
 */
export function checkSystem(fn: string, value: unknown, what = 'system'): System {
  if (!(value instanceof System)) {
    throw new InvalidArgumentError(`${fn}: ${what} must be a System (from buildSystem, loadSystem or detectSystem), got ${describe(value)}`);
  }
  return value;
}

export class System {
  readonly name: string;
  readonly devices: readonly Device[];
  readonly links: readonly Link[];

  constructor(name: string, devices: readonly Device[], links: readonly Link[]) {
    if (typeof name !== 'string') throw new InvalidArgumentError(`System: name must be a string, got ${describe(name)}`);
    if (!Array.isArray(devices) || !Array.isArray(links)) {
      throw new InvalidArgumentError(`System: devices and links must be arrays, got ${describe(devices)} and ${describe(links)} (build one with buildSystem)`);
    }
    this.name = name;
    this.devices = devices;
    this.links = links;
  }

  /** Memory spaces of the system: `host` first, then every device with memory of its own. */
  get memorySpaces(): string[] {
    return [HOST, ...new Set(this.devices.map((d) => d.memorySpace).filter((s) => s !== HOST))];
  }

  /**
   * The device called `name`.
   * @throws {InvalidArgumentError} when there is none (with a suggestion).
   */
  device(name: string): Device {
    const d = this.devices.find((x) => x.name === name);
    if (d) return d;
    throw new InvalidArgumentError(`System.device: no device ${describe(name)} in system ${this.name}${this.nameHint(name)}`);
  }

  /** What to say after an unknown device name: the closest name, else the devices there are. */
  nameHint(name: unknown): string {
    const names = this.devices.map((x) => x.name);
    const hint = suggest(String(name), names);
    return hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (devices: ${names.join(', ')})`;
  }

  /** The links a copy from `from` to `to` crosses: none within a space, the direct link, else through the host. */
  route(from: string, to: string): Link[] {
    const fn = 'System.route';
    for (const s of [from, to]) {
      if (!this.memorySpaces.includes(s)) {
        throw new InvalidArgumentError(`${fn}: ${describe(s)} is not a memory space of system ${this.name} (${this.memorySpaces.join(', ')})`);
      }
    }
    if (from === to) return [];
    const direct = this.link(from, to);
    if (direct) return [direct];
    const a = this.link(from, HOST);
    const b = this.link(HOST, to);
    if (!a || !b) throw new InvalidArgumentError(`${fn}: no path from ${from} to ${to}`);
    return [a, b];
  }

  /**
   * Modelled time to copy `bytes` from one memory space to another: latency plus bytes over
   * bandwidth on each link crossed (staged through host memory when there is no direct link).
   */
  transferSeconds(bytes: number, from: string, to: string): number {
    if (!(bytes >= 0) || !Number.isFinite(bytes)) {
      throw new InvalidArgumentError(`System.transferSeconds: bytes must be a finite number >= 0, got ${describe(bytes)}`);
    }
    let t = 0;
    for (const l of this.route(from, to)) t += l.latency + bytes / l.bandwidth;
    return t;
  }

  private link(a: string, b: string): Link | undefined {
    return this.links.find((l) => (l.between[0] === a && l.between[1] === b) || (l.between[0] === b && l.between[1] === a));
  }

  /** Release every device. */
  async dispose(): Promise<void> {
    await Promise.all(this.devices.map((d) => d.dispose()));
  }
}

interface LinkProfile {
  readonly description: string;
  readonly bandwidth: { readonly value: number; readonly source: string };
  readonly latency: { readonly value: number; readonly source: string };
}

let linkProfiles: Readonly<Record<string, LinkProfile>> | undefined;

/** The shipped link profiles (devices/links.json): PCIe generations, NVLink. */
export function linkProfileTable(): Readonly<Record<string, LinkProfile>> {
  linkProfiles ??= JSON.parse(readFileSync(join(packageRoot, 'devices', 'links.json'), 'utf8')) as Record<string, LinkProfile>;
  return linkProfiles;
}

/**
 * Build a system from a parsed system description (see `docs/system.md`).
 * @throws {FormatError} naming the field when the description is malformed (`where` labels it).
 * @throws {InvalidArgumentError} when a backend or profile does not exist.
 */
export function buildSystem(description: unknown, where = '<system>'): System {
  const fn = 'buildSystem';
  const bad = (field: string, detail: string): never => {
    throw new FormatError(fn, where, 0, `${field}: ${detail}`);
  };
  if (description === null || typeof description !== 'object' || Array.isArray(description)) {
    bad('system', `must be an object with "devices" and "links", got ${describe(description)}`);
  }
  const d = description as Record<string, unknown>;
  for (const key of Object.keys(d)) {
    if (!['name', 'devices', 'links', '$comment'].includes(key)) {
      const hint = suggest(key, ['name', 'devices', 'links']);
      bad(key, `unknown field${hint ? ` (did you mean "${hint}"?)` : ''}`);
    }
  }
  if (d['name'] !== undefined && typeof d['name'] !== 'string') bad('name', `must be a string, got ${describe(d['name'])}`);
  if (!Array.isArray(d['devices']) || d['devices'].length === 0) bad('devices', 'must be a non-empty array');
  const devices: Device[] = [];
  (d['devices'] as unknown[]).forEach((raw, i) => devices.push(buildDevice(fn, where, `devices[${i}]`, raw, devices)));
  const spaces = [HOST, ...devices.filter((x) => x.memorySpace !== HOST).map((x) => x.memorySpace)];
  const links: Link[] = [];
  const rawLinks = d['links'] ?? [];
  if (!Array.isArray(rawLinks)) bad('links', `must be an array, got ${describe(rawLinks)}`);
  (rawLinks as unknown[]).forEach((raw, i) => links.push(buildLink(fn, where, `links[${i}]`, raw, spaces, links)));
  for (const space of spaces.slice(1)) {
    if (!links.some((l) => l.between.includes(space) && l.between.includes(HOST))) {
      bad('links', `device ${space} has memory of its own but no link to host`);
    }
  }
  return new System(typeof d['name'] === 'string' ? d['name'] : where, devices, links);
}

function buildDevice(fn: string, where: string, field: string, raw: unknown, earlier: readonly Device[]): Device {
  const bad = (f: string, detail: string): never => {
    throw new FormatError(fn, where, 0, `${field}.${f}: ${detail}`);
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new FormatError(fn, where, 0, `${field}: must be an object, got ${describe(raw)}`);
  }
  const e = raw as Record<string, unknown>;
  const known = ['name', 'backend', 'profile', 'overrides', 'memoryBytes'];
  for (const key of Object.keys(e)) {
    if (!known.includes(key)) {
      const hint = suggest(key, known);
      bad(key, `unknown field${hint ? ` (did you mean "${hint}"?)` : ''}`);
    }
  }
  const name = e['name'];
  if (typeof name !== 'string' || !/^[A-Za-z][\w-]{0,63}$/.test(name)) bad('name', `must be an identifier (letters, digits, - and _), got ${describe(name)}`);
  if (name === HOST) bad('name', `"${HOST}" names host memory; choose another device name`);
  if (earlier.some((x) => x.name === name)) bad('name', `duplicate device name ${JSON.stringify(name)}`);
  const backendName = e['backend'];
  const backend = typeof backendName === 'string' ? BACKENDS.get(backendName) : undefined;
  if (!backend) {
    const hint = typeof backendName === 'string' ? suggest(backendName, [...BACKENDS.keys()]) : undefined;
    bad('backend', `${describe(backendName)} is not a backend` + (hint ? ` (did you mean "${hint}"?)` : ` (backends: ${[...BACKENDS.keys()].join(', ')})`));
  }
  const b = backend as BackendDefinition;
  const profile = e['profile'] ?? b.defaultProfile;
  if (typeof profile !== 'string') bad('profile', `must be a string, got ${describe(profile)}`);
  let spec = loadProfile(fn, b.name, profile as string, b.params);
  spec = overrideSpec(fn, where, field, spec, e['overrides'], b.params);
  let device = b.create(name as string, spec);
  if (e['memoryBytes'] !== undefined) {
    const m = e['memoryBytes'];
    if (typeof m !== 'number' || !Number.isSafeInteger(m) || m <= 0) bad('memoryBytes', `must be a positive integer, got ${describe(m)}`);
    device = withMemoryCap(device, Math.min(m as number, device.capabilities.memoryBytes));
  }
  return device;
}

/** The same device with a smaller memory capacity (a user's cap in the system file). */
function withMemoryCap(device: Device, memoryBytes: number): Device {
  const capabilities = { ...device.capabilities, memoryBytes };
  return new Proxy(device, {
    get(target, prop, receiver) {
      if (prop === 'capabilities') return capabilities;
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

function buildLink(fn: string, where: string, field: string, raw: unknown, spaces: readonly string[], earlier: readonly Link[]): Link {
  const bad = (f: string, detail: string): never => {
    throw new FormatError(fn, where, 0, `${field}${f ? `.${f}` : ''}: ${detail}`);
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) bad('', `must be an object, got ${describe(raw)}`);
  const e = raw as Record<string, unknown>;
  const known = ['between', 'profile', 'bandwidth', 'latency', 'source'];
  for (const key of Object.keys(e)) {
    if (!known.includes(key)) {
      const hint = suggest(key, known);
      bad(key, `unknown field${hint ? ` (did you mean "${hint}"?)` : ''}`);
    }
  }
  const between = e['between'];
  if (!Array.isArray(between) || between.length !== 2 || between.some((s) => typeof s !== 'string')) {
    bad('between', `must be two memory-space names, got ${describe(between)}`);
  }
  const [a, b] = between as [string, string];
  for (const s of [a, b]) {
    if (!spaces.includes(s)) {
      const hint = suggest(s, spaces);
      bad('between', `${JSON.stringify(s)} is not a memory space (${spaces.join(', ')})${hint ? `; did you mean "${hint}"?` : ''}`);
    }
  }
  if (a === b) bad('between', `a link joins two different memory spaces, got ${a} twice`);
  if (earlier.some((l) => l.between.includes(a) && l.between.includes(b))) bad('between', `a second link between ${a} and ${b}`);
  let bandwidth: number | undefined;
  let latency: number | undefined;
  let source = typeof e['source'] === 'string' ? e['source'] : undefined;
  let profile = 'custom';
  if (e['profile'] !== undefined) {
    const table = linkProfileTable();
    const p = typeof e['profile'] === 'string' ? table[e['profile']] : undefined;
    if (!p) {
      const hint = typeof e['profile'] === 'string' ? suggest(e['profile'], Object.keys(table)) : undefined;
      bad(
        'profile',
        `${describe(e['profile'])} is not a link profile` + (hint ? ` (did you mean "${hint}"?)` : ` (profiles: ${Object.keys(table).join(', ')})`),
      );
    }
    profile = e['profile'] as string;
    bandwidth = p!.bandwidth.value;
    latency = p!.latency.value;
    source ??= `${p!.description}: ${p!.bandwidth.source}; latency: ${p!.latency.source}`;
  }
  if (e['bandwidth'] !== undefined) bandwidth = e['bandwidth'] as number;
  if (e['latency'] !== undefined) latency = e['latency'] as number;
  if (typeof bandwidth !== 'number' || !Number.isFinite(bandwidth) || bandwidth <= 0) {
    bad('bandwidth', `must be a positive number of bytes per second (or give a profile), got ${describe(bandwidth)}`);
  }
  if (typeof latency !== 'number' || !Number.isFinite(latency) || latency < 0) {
    bad('latency', `must be a number of seconds >= 0 (or give a profile), got ${describe(latency)}`);
  }
  if (profile === 'custom' && source === undefined) bad('source', 'say where custom link figures come from');
  return { between: [a, b], bandwidth: bandwidth!, latency: latency!, profile, source: source! };
}

/**
 * Load and build a system file.
 * @throws {IoError} when the file cannot be read; {FormatError} when it is not a valid system.
 * @example
 * const system = await loadSystem('my-machine.json');
 */
export async function loadSystem(path: string): Promise<System> {
  const fn = 'loadSystem';
  if (typeof path !== 'string') throw new InvalidArgumentError(`${fn}: path must be a string, got ${describe(path)}`);
  const raw = await readJsonFile(fn, path);
  return buildSystem(raw, path);
}

/** Probe every backend in the table: which can run here, and why the others cannot. */
export async function probeBackends(): Promise<BackendStatus[]> {
  const out: BackendStatus[] = [];
  for (const b of BACKENDS.values()) out.push({ backend: b.name, ...(await b.probe()) });
  return out;
}

/**
 * The system of this machine: the CPU, a simulated CGRA, and a GPU: the real one when a GPU
 * backend finds a device, else a simulated H100 on PCIe 5.0.
 * @example
 * const system = await detectSystem();
 * system.devices.map((d) => `${d.name}: ${d.backend}`); // ['cpu: cpu', 'cgra: cgra-sim', 'gpu: gpu-sim']
 */
export async function detectSystem(): Promise<System> {
  const status = await probeBackends();
  const pick = (kind: string): BackendDefinition | undefined => {
    const candidates = [...BACKENDS.values()].filter((b) => b.kind === kind && status.find((s) => s.backend === b.name)?.available);
    return candidates.find((b) => !b.simulated) ?? candidates[0];
  };
  const devices: DeviceEntry[] = [];
  const links: LinkEntry[] = [];
  for (const [kind, name] of [
    ['cpu', 'cpu'],
    ['cgra', 'cgra'],
    ['gpu', 'gpu'],
  ] as const) {
    const b = pick(kind);
    if (!b) continue;
    devices.push({ name, backend: b.name });
    // A simulated card is priced on its modelled PCIe link; a real one on what dype's own copies
    // to it take (pageable memory through pinned staging: far below the link, see links.json).
    if (!b.hostMemory) links.push({ between: [HOST, name], profile: b.simulated ? 'pcie-gen5-x16' : 'cuda-staged' });
  }
  return buildSystem({ name: 'detected', devices, links }, 'detectSystem');
}
