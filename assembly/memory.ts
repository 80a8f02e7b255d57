// Raw blocks of linear memory for the host to fill with typed-array contents. They sit outside
// the garbage collector, so a block stays put until the host frees it (views must still be
// re-created after memory grows, because the ArrayBuffer itself is replaced).

/** Allocate `bytes` bytes aligned to 16; returns the address. */
export function alloc(bytes: usize): usize {
  return heap.alloc(bytes);
}

/** Release a block returned by `alloc`. */
export function free(ptr: usize): void {
  heap.free(ptr);
}
