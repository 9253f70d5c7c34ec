// A small ZIP writer (APPNOTE 6.3: local headers, central directory, end record; no ZIP64, so under
// 4 GiB and 65,535 entries), enough for an EPUB: entries are written in the order given, each stored or
// deflated. An EPUB's first entry must be `mimetype`, stored, with no extra field: `store: true` and
// this writer never writes extra fields.
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** path inside the archive, forward slashes, UTF-8 */
  name: string;
  data: Uint8Array | string;
  /** keep the bytes as they are (method 0); default: deflate (method 8) */
  store?: boolean;
}

const UTF8_FLAG = 0x0800;
const MAX = 0xffffffff;

/** DOS date and time fields (local time has no meaning here: UTC is written). */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.min(Math.max(d.getUTCFullYear(), 1980), 2107);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** The archive as one buffer; `modified` dates every entry (default now). */
export function zip(entries: readonly ZipEntry[], modified: Date = new Date()): Uint8Array {
  const { time, date } = dosDateTime(modified);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const seen = new Set<string>();
  for (const e of entries) {
    if (!e.name || e.name.startsWith('/') || e.name.includes('\\') || e.name.split('/').includes('..'))
      throw new Error(`zip: "${e.name}" is not a relative path`);
    if (seen.has(e.name)) throw new Error(`zip: "${e.name}" is written twice`);
    seen.add(e.name);
    const name = Buffer.from(e.name, 'utf8');
    const raw = typeof e.data === 'string' ? Buffer.from(e.data, 'utf8') : Buffer.from(e.data);
    const body = e.store ? raw : deflateRawSync(raw, { level: 9 });
    const method = e.store ? 0 : 8;
    const crc = crc32(raw);
    if (raw.length >= MAX || body.length >= MAX || offset >= MAX)
      throw new Error('zip: the archive would need ZIP64 (over 4 GiB)');

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(UTF8_FLAG, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28); // no extra field
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(UTF8_FLAG, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}
