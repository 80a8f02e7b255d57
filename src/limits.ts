// The memory budget: how many bytes one request (a loaded file, a generated graph, a dense
// operand, a result) may ask for. Sizes are checked against it before anything is allocated, so
// a lying header or an absurd parameter is a LimitError naming the function and the sizes
// instead of an out-of-memory crash minutes later.

import { totalmem } from 'node:os';
import { InvalidArgumentError, LimitError } from './errors.js';

/** Share of the machine's memory one request may use when nothing else is set. */
export const DEFAULT_BUDGET_SHARE = 0.5;

let override: number | undefined;
// The machine's memory, read once: os.totalmem() costs about 16 us on a virtual machine, and the
// budget is consulted for every dense result the kernels allocate.
let machineBytes: number | undefined;

function parseBytes(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)i?[bB]?\s*$/.exec(text);
  if (!m) return undefined;
  const unit = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40 }[m[2]!.toLowerCase()]!;
  const bytes = Math.floor(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

/**
 * Bytes one request may allocate: the value given to setMemoryBudget, else `DYPE_MEMORY_BUDGET`
 * (bytes, or with a K/M/G/T suffix: `512M`, `4G`), else half of the machine's memory.
 * @throws {InvalidArgumentError} when `DYPE_MEMORY_BUDGET` is set but is not a positive size.
 * @example
 * memoryBudget(); // e.g. 12_000_000_000 on a 24 GB machine
 */
export function memoryBudget(): number {
  if (override !== undefined) return override;
  const env = process.env['DYPE_MEMORY_BUDGET'];
  if (env !== undefined && env !== '') {
    const bytes = parseBytes(env);
    if (bytes === undefined) {
      throw new InvalidArgumentError(`memoryBudget: DYPE_MEMORY_BUDGET must be a positive size such as 4G or 500000000, got ${JSON.stringify(env)}`);
    }
    return bytes;
  }
  machineBytes ??= totalmem();
  return Math.floor(machineBytes * DEFAULT_BUDGET_SHARE);
}

/**
 * Set the memory budget for this process (bytes), or `undefined` to go back to
 * `DYPE_MEMORY_BUDGET` / the default. Returns the previous setting.
 * @throws {InvalidArgumentError} when `bytes` is not a positive safe integer.
 * @example
 * const before = setMemoryBudget(2 ** 30); // refuse requests above 1 GiB
 * try { loadMatrixMarket('big.mtx'); } finally { setMemoryBudget(before); }
 */
export function setMemoryBudget(bytes: number | undefined): number | undefined {
  if (bytes !== undefined && (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes <= 0)) {
    throw new InvalidArgumentError(`setMemoryBudget: bytes must be a positive safe integer or undefined, got ${String(bytes)}`);
  }
  const before = override;
  override = bytes;
  return before;
}

function formatBytes(b: number): string {
  if (b >= 2 ** 30) return `${(b / 2 ** 30).toFixed(1)} GiB`;
  if (b >= 2 ** 20) return `${(b / 2 ** 20).toFixed(1)} MiB`;
  if (b >= 2 ** 10) return `${(b / 2 ** 10).toFixed(1)} KiB`;
  return `${b} B`;
}

/**
 * Refuse a request whose arrays need more than the memory budget, before allocating them.
 * `what` says what would be allocated (`"a 100000x100000 dense matrix"`).
 * @throws {LimitError} naming `fn`, `what`, the bytes needed and the budget.
 */
export function checkMemory(fn: string, what: string, bytes: number): void {
  const budget = memoryBudget();
  if (!(bytes <= budget)) {
    throw new LimitError(
      `${fn}: ${what} needs ${formatBytes(bytes)} (${bytes} bytes), more than the memory budget of ${formatBytes(budget)} ` +
        '(setMemoryBudget or DYPE_MEMORY_BUDGET)',
    );
  }
}
