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

/** 10^0 .. 10^22: every one is exact in a double, which is what makes the fast path exact. */
const POW10 = Float64Array.from({ length: 23 }, (_, i) => 10 ** i);

const EMPTY = Buffer.alloc(0);

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
    if (v > Number.MAX_SAFE_INTEGER) this.fail(`${what} ${this.describeToken(start)} exceeds 2^53 - 1 in magnitude`);
    this.pos = p;
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
