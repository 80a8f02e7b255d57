// The accessors the portable cores in src/cost/core use, as inlined globals over linear memory,
// and the cores' own elementary functions (src/cost/core/portable-math.ts) as globals. The
// TypeScript build defines the same names over an ArrayBuffer (src/cost/engine-typescript.ts);
// their declarations and the rules the cores follow are in src/cost/core/portable.d.ts.

import { expPortable as exp, lnPortable as ln, log2Portable as log2, powPortable as pow } from '../src/cost/core/portable-math';

// @ts-ignore: decorator
@global @inline export function loadI32(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

// @ts-ignore: decorator
@global @inline export function storeI32(base: usize, i: i32, value: i32): void {
  store<i32>(base + (<usize>i << 2), value);
}

// @ts-ignore: decorator
@global @inline export function loadF64(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}

// @ts-ignore: decorator
@global @inline export function storeF64(base: usize, i: i32, value: f64): void {
  store<f64>(base + (<usize>i << 3), value);
}

// @ts-ignore: decorator
@global @inline export function clz32(x: i32): i32 {
  return clz<i32>(x);
}

// @ts-ignore: decorator
@global @inline export function trunc32(x: f64): i32 {
  return <i32>x;
}

// @ts-ignore: decorator
@global @inline export function mul32(a: i32, b: i32): i32 {
  return a * b;
}

// @ts-ignore: decorator
@global @inline export function lnPortable(x: f64): f64 {
  return ln(x);
}

// @ts-ignore: decorator
@global @inline export function expPortable(x: f64): f64 {
  return exp(x);
}

// @ts-ignore: decorator
@global @inline export function log2Portable(x: f64): f64 {
  return log2(x);
}

// @ts-ignore: decorator
@global @inline export function powPortable(base: f64, n: i32): f64 {
  return pow(base, n);
}
