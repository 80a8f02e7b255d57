// Byte-level tokenizer shared by the text loaders: reads integers and decimals straight from the
// bytes of a whole-line block, tracks the 1-based line number and turns every problem into a
// FormatError that names the file and the line.

import { FormatError } from '../errors.js';

const SPACE = 32;
const TAB = 9;
const CR = 13;
const NEWLINE = 10;
const ZERO = 48;
const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const LOWER_E = 101;
const UPPER_E = 69;
const HASH = 35;
const PERCENT = 37;

/** 10^0 .. 10^22: every one is exact in a double, which is what makes the fast path exact. */
const POW10 = Float64Array.from({ length: 23 }, (_, i) => 10 ** i);

const EMPTY = Buffer.alloc(0);

/**
 * What follows the two integers of a data line: nothing, an integer of at most 2^53 - 1 in
 * magnitude, a 64-bit integer (readInt64) or a decimal number.
 */
export type LineValue = 'none' | 'integer' | 'int64' | 'real';

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/**
 * A position in a block of whole lines (see `LineSink.lines`). Every line ends with '\n', so the
 * scanning loops stop at the newline and never need a bounds check.
 */
export class LineCursor {
  /** Always a Buffer, so hot loops see one array type and tokens decode without a copy. */
  buf: Buffer = EMPTY;
  pos = 0;
  end = 0;
  /** 1-based number of the line `pos` is on. */
  line = 1;
  /** The two integers scanPair read. */
  first = 0;
  second = 0;
  /** The number scanLineEnd read. */
  value = 0;
  /** 64-bit integers readInt64 could not hold exactly in a double, and the first of them. */
  inexact = 0;
  inexactLine = 0;
  inexactText = '';

  constructor(
    readonly fn: string,
    readonly file: string,
  ) {}

  /** Point the cursor at a new block; the line count carries on. */
  reset(buf: Uint8Array, start: number, end: number): void {
    this.buf = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    this.pos = start;
    this.end = end;
  }

  fail(detail: string, line: number = this.line): never {
    throw new FormatError(this.fn, this.file, line, detail);
  }

  /** Skip spaces, tabs and carriage returns; returns the byte at the new position. */
  skipBlanks(): number {
    const buf = this.buf;
    let p = this.pos;
    let c = buf[p]!;
    while (c === SPACE || c === TAB || c === CR) c = buf[++p]!;
    this.pos = p;
    return c;
  }

  /** Move past the '\n' the cursor is on. */
  nextLine(): void {
    this.pos++;
    this.line++;
  }

  /** Move to the start of the next line whatever is left on this one. */
  skipLine(): void {
    const nl = this.buf.indexOf(NEWLINE, this.pos);
    this.pos = nl < 0 ? this.end : nl + 1;
    this.line++;
  }

  /**
   * Move past the line at the cursor when it is blank or a comment (starting with '%', or with
   * '#' as well when `hash` is set) and return true; otherwise stop at its first field and
   * return false.
   */
  skipEmptyLine(hash = false): boolean {
    const b = this.skipBlanks();
    if (b === NEWLINE) {
      this.nextLine();
      return true;
    }
    if (b === PERCENT || (hash && b === HASH)) {
      this.skipLine();
      return true;
    }
    return false;
  }

  /** Finish a line that must hold nothing more than blanks. */
  endLine(expected: string): void {
    if (this.skipBlanks() !== NEWLINE) {
      this.fail(`unexpected extra field ${this.describeToken(this.pos)} after ${expected}`);
    }
    this.pos++;
    this.line++;
  }

  /** The rest of the current line as text (header lines only: this allocates). */
  restOfLine(): string {
    const nl = this.buf.indexOf(NEWLINE, this.pos);
    const stop = nl < 0 ? this.end : nl;
    const text = this.buf.toString('latin1', this.pos, stop);
    this.pos = stop;
    return text;
  }

  /** A non-negative integer of at most 2^53 - 1, preceded by optional blanks. */
  readUint(what: string): number {
    const buf = this.buf;
    let p = this.pos;
    let c = buf[p]!;
    while (c === SPACE || c === TAB || c === CR) c = buf[++p]!;
    const start = p;
    let d = c - ZERO;
    if (d >>> 0 > 9) return this.badField(start, what, 'a non-negative integer');
    let v = 0;
    do {
      v = v * 10 + d;
      d = buf[++p]! - ZERO;
    } while (d >>> 0 <= 9);
    c = buf[p]!;
    if (c !== SPACE && c !== NEWLINE && c !== TAB && c !== CR) return this.badField(start, what, 'a non-negative integer');
    // Rounding is monotonic, so a value that ends up above 2^53 - 1 was too large to start with.
    if (v > Number.MAX_SAFE_INTEGER) this.fail(`${what} ${this.describeToken(start)} exceeds 2^53 - 1`);
    this.pos = p;
    return v;
  }

  /** An integer in [-(2^53 - 1), 2^53 - 1] with an optional sign, preceded by optional blanks. */
  readInt(what: string): number {
    const v = this.scanInt(what);
    if (Math.abs(v) > Number.MAX_SAFE_INTEGER) this.fail(`${what} ${this.describeToken(this.tokenStart)} exceeds 2^53 - 1 in magnitude`);
    return v;
  }

  /**
   * A 64-bit signed integer (up to 2^63 - 1 in magnitude, as numpy's and scipy's int64), preceded
   * by optional blanks, as the nearest double: exact up to 2^53, rounded beyond (counted in
   * `inexact`, with the first such value and its line, for the caller's warning).
   */
  readInt64(what: string): number {
    const v = this.scanInt(what);
    // Up to 15 digits the running value is exact; longer ones are read again exactly.
    if (this.pos - this.tokenStart <= 15) return v;
    const text = this.buf.toString('latin1', this.tokenStart, this.pos);
    const exact = BigInt(text);
    if (exact > INT64_MAX || exact < INT64_MIN)
      this.fail(`${what} ${this.describeToken(this.tokenStart)} is outside the 64-bit integer range [-2^63, 2^63 - 1]`);
    const nearest = Number(exact);
    if (BigInt(nearest) !== exact && this.inexact++ === 0) {
      this.inexactLine = this.line;
      this.inexactText = text;
    }
    return nearest;
  }

  /** Where the last integer scanInt read starts (its sign included). */
  private tokenStart = 0;

  /** An integer with an optional sign, preceded by optional blanks, as a (maybe rounded) double. */
  private scanInt(what: string): number {
    const buf = this.buf;
    let p = this.pos;
    let c = buf[p]!;
    while (c === SPACE || c === TAB || c === CR) c = buf[++p]!;
    const start = p;
    let negative = false;
    if (c === MINUS || c === PLUS) {
      negative = c === MINUS;
      c = buf[++p]!;
    }
    let d = c - ZERO;
    if (d >>> 0 > 9) return this.badField(start, what, 'an integer');
    let v = 0;
    do {
      v = v * 10 + d;
      d = buf[++p]! - ZERO;
    } while (d >>> 0 <= 9);
    c = buf[p]!;
    if (c !== SPACE && c !== NEWLINE && c !== TAB && c !== CR) return this.badField(start, what, 'an integer');
    this.pos = p;
    this.tokenStart = start;
    return negative ? -v : v;
  }

  /**
   * A finite decimal number (`[+-]digits[.digits][(e|E)[+-]digits]`, either digit run may be
   * empty but not both). Short inputs take Clinger's fast path, which is exact because the
   * mantissa and the power of ten are both exact doubles and one division or product rounds
   * once; anything longer goes through Number(), which rounds correctly too.
   */
  readReal(what: string): number {
    const buf = this.buf;
    let p = this.pos;
    let c = buf[p]!;
    while (c === SPACE || c === TAB || c === CR) c = buf[++p]!;
    const start = p;
    let negative = false;
    if (c === MINUS || c === PLUS) {
      negative = c === MINUS;
      c = buf[++p]!;
    }
    let mantissa = 0;
    let digits = 0;
    let fraction = 0;
    let d = c - ZERO;
    while (d >>> 0 <= 9) {
      mantissa = mantissa * 10 + d;
      digits++;
      d = buf[++p]! - ZERO;
    }
    c = buf[p]!;
    if (c === DOT) {
      d = buf[++p]! - ZERO;
      while (d >>> 0 <= 9) {
        mantissa = mantissa * 10 + d;
        digits++;
        fraction++;
        d = buf[++p]! - ZERO;
      }
      c = buf[p]!;
    }
    if (digits === 0) return this.badField(start, what, 'a number');
    let exponent = 0;
    if (c === LOWER_E || c === UPPER_E) {
      c = buf[++p]!;
      let expNegative = false;
      if (c === MINUS || c === PLUS) {
        expNegative = c === MINUS;
        c = buf[++p]!;
      }
      d = c - ZERO;
      if (d >>> 0 > 9) return this.badField(start, what, 'a number');
      while (d >>> 0 <= 9) {
        // Saturate: beyond this every value has long overflowed or underflowed anyway.
        if (exponent < 100000) exponent = exponent * 10 + d;
        d = buf[++p]! - ZERO;
      }
      c = buf[p]!;
      if (expNegative) exponent = -exponent;
    }
    if (c !== SPACE && c !== NEWLINE && c !== TAB && c !== CR) return this.badField(start, what, 'a number');
    this.pos = p;
    const scale = exponent - fraction;
    let v: number;
    if (digits <= 15 && scale >= -22 && scale <= 22) {
      v = scale < 0 ? mantissa / POW10[-scale]! : mantissa * POW10[scale]!;
      if (negative) v = -v;
    } else {
      v = Number(buf.toString('latin1', start, p));
      if (!Number.isFinite(v)) this.fail(`${what} ${this.describeToken(start)} is out of the range of a double`);
    }
    return v;
  }

  /**
   * Inline fast path of the data-line loops ("i j" or "i j value" lines): reads two unsigned
   * integers at `p`, the start of a line, separated by one space or tab, into `first` and
   * `second`, and returns the position after the second, or -1 when the line does not start
   * that way (the caller then re-reads it with the checking readers). Nothing is range-checked,
   * and the cursor does not move.
   */
  scanPair(p: number): number {
    const buf = this.buf;
    let d = buf[p]! - ZERO;
    if (d >>> 0 > 9) return -1;
    let a = 0;
    do {
      a = a * 10 + d;
      d = buf[++p]! - ZERO;
    } while (d >>> 0 <= 9);
    const ch = buf[p]!;
    if (ch !== SPACE && ch !== TAB) return -1;
    d = buf[++p]! - ZERO;
    if (d >>> 0 > 9) return -1;
    let b = 0;
    do {
      b = b * 10 + d;
      d = buf[++p]! - ZERO;
    } while (d >>> 0 <= 9);
    this.first = a;
    this.second = b;
    return p;
  }

  /**
   * The rest of the fast path after scanPair: unless `value` is 'none', one space or tab and a
   * number (readInt or readReal, into `value`; a malformed one fails here, on line `line`, as it
   * would on the checked path), then the line end ('\n' or "\r\n"). Returns the position after
   * the line, or -1 when the line goes on otherwise.
   */
  scanLineEnd(q: number, line: number, value: LineValue, what: string): number {
    const buf = this.buf;
    if (value !== 'none') {
      const ch = buf[q]!;
      if (ch !== SPACE && ch !== TAB) return -1;
      this.pos = q;
      this.line = line;
      this.value = value === 'integer' ? this.readInt(what) : value === 'int64' ? this.readInt64(what) : this.readReal(what);
      q = this.pos;
    }
    if (buf[q] === CR && buf[q + 1] === NEWLINE) q++;
    return buf[q] === NEWLINE ? q + 1 : -1;
  }

  /** The whitespace-delimited token at `start`, quoted and shortened, for messages. */
  describeToken(start: number): string {
    const buf = this.buf;
    let p = start;
    let c = buf[p];
    while (p < this.end && c !== SPACE && c !== TAB && c !== CR && c !== NEWLINE) c = buf[++p];
    const text = buf.toString('latin1', start, Math.min(p, start + 40));
    return JSON.stringify(p - start > 40 ? `${text}...` : text);
  }

  private badField(start: number, what: string, expected: string): never {
    const c = this.buf[start];
    if (c === NEWLINE || c === undefined) this.fail(`missing ${what} (expected ${expected})`);
    this.fail(`${what} must be ${expected}, got ${this.describeToken(start)}`);
  }
}
