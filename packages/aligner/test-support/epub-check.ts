// A structural check of an EPUB 3 with media overlays, written from the specifications (OCF 3.3, EPUB
// Packages 3.3, Media Overlays 3.3) independently of the writer: the zip is read entry by entry from its
// local headers, every XML part must be well formed, and the links between them must resolve.
import { crc32, inflateRawSync } from 'node:zlib';
import { parseXml } from './format-parsers.ts';
import type { XmlElement } from './format-parsers.ts';

export interface ZipRead {
  name: string;
  method: number;
  extraLength: number;
  data: Buffer;
  /** where its local header starts */
  offset: number;
}

/** The entries in file order, from their local headers; throws on anything but stored/deflated data. */
export function readZipEntries(bytes: Uint8Array): ZipRead[] {
  const b = Buffer.from(bytes);
  const out: ZipRead[] = [];
  let at = 0;
  while (at + 4 <= b.length && b.readUInt32LE(at) === 0x04034b50) {
    const flags = b.readUInt16LE(at + 6);
    if (flags & 0x08) throw new Error('zip: data descriptors are not expected');
    const method = b.readUInt16LE(at + 8);
    const crc = b.readUInt32LE(at + 14);
    const compressed = b.readUInt32LE(at + 18);
    const size = b.readUInt32LE(at + 22);
    const nameLength = b.readUInt16LE(at + 26);
    const extraLength = b.readUInt16LE(at + 28);
    const name = b.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const start = at + 30 + nameLength + extraLength;
    const body = b.subarray(start, start + compressed);
    let data: Buffer;
    if (method === 0) data = Buffer.from(body);
    else if (method === 8) data = inflateRawSync(body);
    else throw new Error(`zip: ${name} uses method ${method}`);
    if (data.length !== size)
      throw new Error(`zip: ${name} is ${data.length} bytes, its header says ${size}`);
    if (crc32(data) !== crc) throw new Error(`zip: ${name} fails its CRC`);
    out.push({ name, method, extraLength, data, offset: at });
    at = start + compressed;
  }
  // The central directory lists the same entries, at the same offsets, and the end record finds it.
  const directoryStart = at;
  for (const e of out) {
    if (b.readUInt32LE(at) !== 0x02014b50) throw new Error(`zip: the central directory lacks ${e.name}`);
    const nameLength = b.readUInt16LE(at + 28);
    const extra = b.readUInt16LE(at + 30);
    const comment = b.readUInt16LE(at + 32);
    const name = b.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (name !== e.name || b.readUInt32LE(at + 42) !== e.offset)
      throw new Error(`zip: the central directory's ${name} does not match the local header of ${e.name}`);
    at += 46 + nameLength + extra + comment;
  }
  if (b.readUInt32LE(at) !== 0x06054b50) throw new Error('zip: no end of central directory record');
  if (b.readUInt16LE(at + 10) !== out.length || b.readUInt32LE(at + 16) !== directoryStart)
    throw new Error('zip: the end record does not describe the directory');
  return out;
}

const children = (el: XmlElement, name: string): XmlElement[] => el.children.filter((c) => c.name === name);
function descendants(el: XmlElement, name: string): XmlElement[] {
  return el.children.flatMap((c) => [...(c.name === name ? [c] : []), ...descendants(c, name)]);
}

/** "1.2345s", "0:00:01.234" or "01.5" as seconds. */
export function clockSeconds(v: string): number {
  const s = v.trim();
  const timecount = /^(\d+(?:\.\d+)?)(h|min|s|ms)?$/.exec(s);
  if (timecount) {
    const n = Number(timecount[1]);
    const unit = timecount[2] ?? 's';
    return unit === 'h' ? n * 3600 : unit === 'min' ? n * 60 : unit === 'ms' ? n / 1000 : n;
  }
  const parts = s.split(':').map(Number);
  if (parts.some((p) => !Number.isFinite(p)) || parts.length < 2 || parts.length > 3)
    throw new Error(`not a clock value: ${v}`);
  return parts.reduce((acc, p) => acc * 60 + p, 0);
}

export interface EpubCheck {
  entries: ZipRead[];
  opfPath: string;
  language: string;
  title: string;
  direction: string | undefined;
  activeClass: string | undefined;
  /** the overlay's pars in document order: the word element id, and the clip in seconds */
  pars: { id: string; textId: string; audioSrc: string; clipBegin: number; clipEnd: number }[];
  /** the text document's elements by id */
  textIds: Set<string>;
  textContent: string;
}

/** Throws with the first structural fault; returns what the tests compare with the result. */
export function checkEpub(bytes: Uint8Array): EpubCheck {
  const entries = readZipEntries(bytes);
  const first = entries[0];
  if (!first || first.name !== 'mimetype') throw new Error('the first entry must be mimetype');
  if (first.method !== 0) throw new Error('mimetype must be stored, not compressed');
  if (first.extraLength !== 0) throw new Error('mimetype must have no extra field');
  if (first.data.toString('latin1') !== 'application/epub+zip')
    throw new Error('mimetype is not application/epub+zip');
  const byName = new Map(entries.map((e) => [e.name, e]));
  const file = (name: string): Buffer => {
    const e = byName.get(name);
    if (!e) throw new Error(`missing ${name}`);
    return e.data;
  };
  const container = parseXml(file('META-INF/container.xml').toString('utf8'));
  const rootfile = descendants(container, 'rootfile')[0];
  if (!rootfile || rootfile.attrs['media-type'] !== 'application/oebps-package+xml')
    throw new Error('container.xml names no package document');
  const opfPath = rootfile.attrs['full-path']!;
  const base = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  const opf = parseXml(file(opfPath).toString('utf8'));
  if (opf.name !== 'package' || opf.attrs.version !== '3.0') throw new Error('not an EPUB 3 package');
  const metadata = children(opf, 'metadata')[0]!;
  const uid = opf.attrs['unique-identifier'];
  const identifier = children(metadata, 'dc:identifier').find((e) => e.attrs.id === uid);
  if (!identifier?.text.trim()) throw new Error('no dc:identifier matching unique-identifier');
  const title = children(metadata, 'dc:title')[0]?.text ?? '';
  const language = children(metadata, 'dc:language')[0]?.text ?? '';
  if (!title || !language) throw new Error('dc:title and dc:language are required');
  const metas = children(metadata, 'meta');
  const modified = metas.find((m) => m.attrs.property === 'dcterms:modified')?.text ?? '';
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(modified))
    throw new Error(`dcterms:modified is "${modified}"`);
  const manifest = children(children(opf, 'manifest')[0]!, 'item');
  const items = new Map(manifest.map((i) => [i.attrs.id!, i]));
  for (const i of manifest) file(base + i.attrs.href!);
  const nav = manifest.find((i) => (i.attrs.properties ?? '').split(' ').includes('nav'));
  if (!nav) throw new Error('no navigation document');
  const spine = children(children(opf, 'spine')[0]!, 'itemref');
  if (spine.length === 0) throw new Error('empty spine');
  const textItem = items.get(spine[0]!.attrs.idref!)!;
  const overlayId = textItem.attrs['media-overlay'];
  const overlay = overlayId ? items.get(overlayId) : undefined;
  if (!overlay || overlay.attrs['media-type'] !== 'application/smil+xml')
    throw new Error('the text has no media overlay');
  const durations = metas.filter((m) => m.attrs.property === 'media:duration');
  if (!durations.some((m) => m.attrs.refines === `#${overlayId}`) || !durations.some((m) => !m.attrs.refines))
    throw new Error('media:duration is required for the overlay and for the publication');
  const activeClass = metas.find((m) => m.attrs.property === 'media:active-class')?.text;

  const text = parseXml(file(base + textItem.attrs.href!).toString('utf8'));
  const textIds = new Set<string>();
  const collect = (el: XmlElement) => {
    if (el.attrs.id) {
      if (textIds.has(el.attrs.id)) throw new Error(`duplicate id ${el.attrs.id}`);
      textIds.add(el.attrs.id);
    }
    el.children.forEach(collect);
  };
  collect(text);
  const smil = parseXml(file(base + overlay.attrs.href!).toString('utf8'));
  if (smil.name !== 'smil' || smil.attrs.version !== '3.0') throw new Error('not a SMIL 3.0 overlay');
  const pars = descendants(smil, 'par').map((par) => {
    const t = children(par, 'text')[0];
    const a = children(par, 'audio')[0];
    if (!t || !a) throw new Error('a par needs a text and an audio');
    const [doc, id = ''] = t.attrs.src!.split('#');
    if (doc !== textItem.attrs.href || !textIds.has(id))
      throw new Error(`par text ${t.attrs.src} does not resolve`);
    const audioItem = manifest.find((i) => i.attrs.href === a.attrs.src);
    if (!audioItem || !/^audio\/(mpeg|mp4)$/.test(audioItem.attrs['media-type'] ?? ''))
      throw new Error(`par audio ${a.attrs.src} is not a core audio type of the manifest`);
    const clipBegin = clockSeconds(a.attrs.clipBegin ?? '0');
    const clipEnd = clockSeconds(a.attrs.clipEnd!);
    if (!(clipEnd > clipBegin)) throw new Error(`par ${par.attrs.id} ends before it begins`);
    return { id: par.attrs.id ?? '', textId: id, audioSrc: a.attrs.src!, clipBegin, clipEnd };
  });
  return {
    entries,
    opfPath,
    language,
    title,
    direction: opf.attrs.dir,
    activeClass,
    pars,
    textIds,
    textContent: text.children
      .map(function flat(e: XmlElement): string {
        return e.text + e.children.map(flat).join('');
      })
      .join(''),
  };
}
