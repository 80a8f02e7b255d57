// Portable core (builds with asc and with tsc; see portable.d.ts): the elementary functions the
// other cores use, from + - * / floor only, so both builds agree to the bit. The engines install
// them as globals (assembly/portable.ts, src/cost/engine-typescript.ts), since cores import
// nothing.

// Literals rather than Math.LN2 and Math.SQRT2: cores use no library, only arithmetic.
// biome-ignore lint/suspicious/noApproximativeNumericConstant: see above
const LN2: f64 = 0.6931471805599453;
// biome-ignore lint/suspicious/noApproximativeNumericConstant: see above
const SQRT2: f64 = 1.4142135623730951;

/** Natural logarithm of x > 0 from + - * / only, so both builds agree to the bit. */
export function lnPortable(x: f64): f64 {
  let m: f64 = x;
  let k: f64 = 0;
  while (m >= 2) {
    m *= 0.5; // exact
    k += 1;
  }
  while (m < 1) {
    m *= 2;
    k -= 1;
  }
  if (m > SQRT2) {
    m *= 0.5;
    k += 1;
  }
  // ln m = 2 atanh(s), |s| <= 0.172: 15 odd terms reach below 2^-53 relative.
  const s: f64 = (m - 1) / (m + 1);
  const s2: f64 = s * s;
  let term: f64 = s;
  let sum: f64 = s;
  for (let i: i32 = 3; i <= 31; i += 2) {
    term *= s2;
    sum += term / <f64>i;
  }
  return 2 * sum + k * LN2;
}

/** e^x from + - * / floor only; 0 below -700 (far under anything a CDF comparison can see). */
export function expPortable(x: f64): f64 {
  if (x < -700) return 0;
  const k: f64 = Math.floor(x / LN2 + 0.5);
  const r: f64 = x - k * LN2; // |r| <= 0.35
  let term: f64 = 1;
  let sum: f64 = 1;
  for (let i: i32 = 1; i <= 18; i++) {
    term *= r / <f64>i;
    sum += term;
  }
  let scale: f64 = 1;
  const up: boolean = k > 0;
  let n: i32 = trunc32(up ? k : -k);
  while (n > 0) {
    scale *= up ? 2 : 0.5;
    n--;
  }
  return sum * scale;
}

/**
 * Base-2 logarithm of a finite x > 0 (-Infinity for 0). Exact for powers of two, so that
 * floor(log2Portable(x)) is x's binary exponent: the cost terms pick histogram buckets by it.
 */
export function log2Portable(x: f64): f64 {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  if (x === Infinity) return x;
  let m: f64 = x;
  let k: f64 = 0;
  while (m >= 2) {
    m *= 0.5;
    k += 1;
  }
  while (m < 1) {
    m *= 2;
    k -= 1;
  }
  // m in [1, 2): ln m >= 0, so the result never falls below the exponent k.
  return m === 1 ? k : k + lnPortable(m) / LN2;
}

/** base^n for a whole n >= 0, by repeated squaring (exact for powers of two). */
export function powPortable(base: f64, n: i32): f64 {
  let result: f64 = 1;
  let b: f64 = base;
  let e: i32 = n;
  while (e > 0) {
    if ((e & 1) === 1) result *= b;
    b *= b;
    e >>= 1;
  }
  return result;
}
