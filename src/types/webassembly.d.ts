// The slice of the WebAssembly JS API dype uses. Node has it at run time, but @types/node does
// not declare it and lib.dom would drag in browser globals.

declare namespace WebAssembly {
  class Module {
    constructor(bytes: ArrayBufferView | ArrayBuffer);
    static imports(module: Module): { module: string; name: string; kind: string }[];
    static exports(module: Module): { name: string; kind: string }[];
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
  class Global {
    value: unknown;
  }
}
