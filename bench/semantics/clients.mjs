// The two ways of calling hack/semantics-wasm from Node, behind one shape:
// `{ call(request) → Promise<response>, close() }`. The WebAssembly build runs in-process as a
// WASI reactor; the native helper is a child process speaking one JSON line each way.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { WASI } from 'node:wasi';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Compiles and instantiates the WASI reactor at `path`. */
export async function wasmClient(path) {
  const module = await WebAssembly.compile(await readFile(path));
  // klog's init reads os.Args[0]: a reactor still needs a program name.
  const wasi = new WASI({ version: 'preview1', args: ['semantics'], env: {}, returnOnExit: true });
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  wasi.initialize(instance);
  const { alloc, call, memory } = instance.exports;
  return {
    call: async (request) => {
      const bytes = encoder.encode(JSON.stringify(request));
      const ptr = alloc(bytes.length);
      new Uint8Array(memory.buffer, ptr, bytes.length).set(bytes);
      const packed = call(ptr, bytes.length);
      const out = new Uint8Array(memory.buffer, Number(packed >> 32n), Number(packed & 0xffffffffn));
      return JSON.parse(decoder.decode(out));
    },
    close: () => {},
  };
}

/** Starts the native helper at `path`; calls are answered in order. */
export async function nativeClient(path) {
  const child = spawn(path, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift().resolve(JSON.parse(line)));
  child.on('exit', (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`semantics helper exited with ${code}`));
  });
  return {
    call: (request) =>
      new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`${JSON.stringify(request)}\n`);
      }),
    close: () => child.stdin.end(),
    pid: child.pid,
  };
}
