// What AssemblyScript has built in, declared for the TypeScript build of the portable cores in
// this folder. The same .ts files compile with `asc` (where assembly/portable.ts defines these
// accessors as inlined globals over linear memory) and with `tsc`/tsx (where
// src/cost/engine-typescript.ts installs them over an ArrayBuffer heap).
//
// Rules the cores follow so both builds compute the same bits: integers stay below 2^31 (no
// reliance on i32 wrap-around), f64 -> i32 goes through trunc32, 32-bit products through mul32,
// only + - * / sqrt floor ceil min max on f64 (IEEE-exact in both), no Math.log/exp/pow (their
// last bits differ between engines; portable-math.ts has the cores' own, installed as the
// globals below), and no imports (asc wants no `.js` suffix, NodeNext wants one).

type i32 = number;
type f64 = number;
type usize = number;

/** The i-th 32-bit integer of the array at byte address `base`. */
declare function loadI32(base: usize, i: i32): i32;
declare function storeI32(base: usize, i: i32, value: i32): void;
/** The i-th f64 of the array at byte address `base` (8-byte aligned). */
declare function loadF64(base: usize, i: i32): f64;
declare function storeF64(base: usize, i: i32, value: f64): void;
/** Leading zero bits of a 32-bit integer (32 for 0). */
declare function clz32(x: i32): i32;
/** Truncation toward zero of a finite f64 within the i32 range. */
declare function trunc32(x: f64): i32;
/** Low 32 bits of a product, as a signed integer (Math.imul). */
declare function mul32(a: i32, b: i32): i32;
/** Natural logarithm of x > 0, to the bit the same in both builds (portable-math.ts). */
declare function lnPortable(x: f64): f64;
/** e^x, to the bit the same in both builds (portable-math.ts). */
declare function expPortable(x: f64): f64;
/** Base-2 logarithm of x > 0, exact for powers of two (portable-math.ts). */
declare function log2Portable(x: f64): f64;
/** base^n for a whole n >= 0 (portable-math.ts). */
declare function powPortable(base: f64, n: i32): f64;
