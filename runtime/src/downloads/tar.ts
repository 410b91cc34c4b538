import { createReadStream, createWriteStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

const BLOCK = 512;

/**
 * Extracts the regular files named in `wanted` (archive path → destination file) from a
 * gzipped tar, streaming, with mode 0755 (they are executables). Reads ustar headers with the
 * long names of pax (`path=`) and GNU (`L`) entries, which is what Go's archive/tar and GNU tar
 * write. Resolves with the archive paths it found; a wanted path missing from the archive is
 * the caller's to report.
 *
 * @example
 * await extractFiles('envtest.tar.gz', new Map([['controller-tools/envtest/etcd', '/cache/etcd']]));
 */
export async function extractFiles(archive: string, wanted: ReadonlyMap<string, string>): Promise<Set<string>> {
  const found = new Set<string>();
  const input = createReadStream(archive).pipe(createGunzip());
  const reader = blockReader(input[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
  let longName: string | undefined;
  for (;;) {
    const header = await reader.read(BLOCK);
    if (header === undefined || header.every((byte) => byte === 0)) break;
    const size = readSize(header.subarray(124, 136));
    const type = String.fromCharCode(header[156] || 48);
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x' || type === 'L') {
      const body = (await reader.read(padded))?.subarray(0, size);
      if (body === undefined) throw new Error(`${archive}: the archive ends inside an entry`);
      longName = type === 'L' ? cString(body) : (paxPath(body) ?? longName);
      continue;
    }
    const name = normalise(longName ?? headerName(header));
    longName = undefined;
    const dest = type === '0' ? wanted.get(name) : undefined;
    if (dest === undefined) {
      if (!(await reader.skip(padded))) throw new Error(`${archive}: the archive ends inside ${name}`);
      continue;
    }
    const out = createWriteStream(dest, { mode: 0o755 });
    const complete = await reader.copy(size, out);
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    if (!complete || !(await reader.skip(padded - size))) throw new Error(`${archive}: the archive ends inside ${name}`);
    found.add(name);
  }
  input.destroy();
  return found;
}

/** Reads exact byte counts from a stream of chunks of any size. */
function blockReader(chunks: AsyncIterator<Buffer>) {
  let pending: Buffer = Buffer.alloc(0);
  const more = async (): Promise<boolean> => {
    const next = await chunks.next();
    if (next.done) return false;
    pending = pending.length === 0 ? next.value : Buffer.concat([pending, next.value]);
    return true;
  };
  return {
    async read(n: number): Promise<Buffer | undefined> {
      while (pending.length < n) if (!(await more())) return undefined;
      const out = pending.subarray(0, n);
      pending = pending.subarray(n);
      return out;
    },
    /** Writes the next n bytes to `out`; false when the stream ends first. */
    async copy(n: number, out: NodeJS.WritableStream): Promise<boolean> {
      while (n > 0) {
        if (pending.length === 0 && !(await more())) return false;
        const piece = pending.subarray(0, n);
        pending = pending.subarray(piece.length);
        n -= piece.length;
        if (!out.write(piece)) await new Promise((resolve) => out.once('drain', resolve));
      }
      return true;
    },
    async skip(n: number): Promise<boolean> {
      while (n > 0) {
        if (pending.length === 0 && !(await more())) return false;
        const taken = Math.min(n, pending.length);
        pending = pending.subarray(taken);
        n -= taken;
      }
      return true;
    },
  };
}

/** ustar splits long names into prefix (345..500) and name (0..100). */
function headerName(header: Buffer): string {
  const name = cString(header.subarray(0, 100));
  const ustar = header.subarray(257, 262).toString('latin1') === 'ustar';
  const prefix = ustar ? cString(header.subarray(345, 500)) : '';
  return prefix ? `${prefix}/${name}` : name;
}

/** Octal digits, or base-256 with the high bit set for sizes over 8 GiB. */
function readSize(field: Buffer): number {
  if ((field[0]! & 0x80) !== 0) {
    let value = field[0]! & 0x7f;
    for (const byte of field.subarray(1)) value = value * 256 + byte;
    return value;
  }
  const text = cString(field).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

/** A pax extended header's `path` record: lines of `<length> <key>=<value>\n`. */
function paxPath(body: Buffer): string | undefined {
  let offset = 0;
  let path: string | undefined;
  while (offset < body.length) {
    const space = body.indexOf(0x20, offset);
    if (space < 0) break;
    const length = parseInt(body.subarray(offset, space).toString('latin1'), 10);
    if (!(length > 0)) break;
    const record = body.subarray(space + 1, offset + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') path = record.slice(eq + 1);
    offset += length;
  }
  return path;
}

function cString(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end < 0 ? bytes.length : end).toString('utf8');
}

function normalise(name: string): string {
  return name.replace(/^(\.\/)+/, '');
}
