// Strict, independent readers used by the format tests. They are written from the format
// specifications, not from the writers, and throw on anything unexpected.

// ---------------------------------------------------------------- Praat TextGrid (long text format)

export interface TgInterval {
  xmin: number;
  xmax: number;
  text: string;
}
export interface TgPoint {
  number: number;
  mark: string;
}
export type TgTier =
  | { class: 'IntervalTier'; name: string; xmin: number; xmax: number; intervals: TgInterval[] }
  | { class: 'TextTier'; name: string; xmin: number; xmax: number; points: TgPoint[] };
export interface TextGrid {
  xmin: number;
  xmax: number;
  tiers: TgTier[];
}

class LineReader {
  private i = 0;
  constructor(private readonly lines: string[]) {}
  next(): string {
    if (this.i >= this.lines.length) throw new Error('unexpected end of TextGrid');
    return this.lines[this.i++] ?? '';
  }
  expect(re: RegExp, what: string): RegExpExecArray {
    const line = this.next();
    const m = re.exec(line);
    if (!m) throw new Error(`line ${this.i}: expected ${what}, got ${JSON.stringify(line)}`);
    return m;
  }
  rest(): string[] {
    return this.lines.slice(this.i);
  }
}

const NUM = '(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)';
// A Praat string: quotes inside are doubled; may not span lines in what we write.
const STR = '"((?:[^"]|"")*)"';

function num(s: string | undefined): number {
  const n = Number(s);
  if (!Number.isFinite(n)) throw new Error(`bad number ${s}`);
  return n;
}
function str(s: string | undefined): string {
  return (s ?? '').replace(/""/g, '"');
}

export function parseTextGrid(content: string): TextGrid {
  if (content.charCodeAt(0) === 0xfeff) throw new Error('unexpected BOM');
  // Praat ignores a line's text after "!": comment lines are skipped as Praat would.
  const r = new LineReader(
    content
      .replace(/\r\n/g, '\n')
      .split('\n')
      .filter((l) => !l.startsWith('!')),
  );
  r.expect(/^File type = "ooTextFile"$/, 'file type');
  r.expect(/^Object class = "TextGrid"$/, 'object class');
  r.expect(/^$/, 'blank line');
  const xmin = num(r.expect(new RegExp(`^xmin = ${NUM} ?$`), 'xmin')[1]);
  const xmax = num(r.expect(new RegExp(`^xmax = ${NUM} ?$`), 'xmax')[1]);
  if (!(xmax > xmin)) throw new Error('empty time domain');
  r.expect(/^tiers\? <exists> ?$/, 'tiers?');
  const size = num(r.expect(/^size = (\d+) ?$/, 'size')[1]);
  r.expect(/^item \[\]: ?$/, 'item []');
  const tiers: TgTier[] = [];
  for (let t = 1; t <= size; t++) {
    r.expect(new RegExp(`^ {4}item \\[${t}\\]:$`), `item [${t}]`);
    const cls = r.expect(/^ {8}class = "(IntervalTier|TextTier)" ?$/, 'class')[1];
    const name = str(r.expect(new RegExp(`^ {8}name = ${STR} ?$`), 'name')[1]);
    const txmin = num(r.expect(new RegExp(`^ {8}xmin = ${NUM} ?$`), 'tier xmin')[1]);
    const txmax = num(r.expect(new RegExp(`^ {8}xmax = ${NUM} ?$`), 'tier xmax')[1]);
    if (txmin !== xmin || txmax !== xmax) throw new Error(`tier ${t} domain differs from the grid`);
    if (cls === 'IntervalTier') {
      const n = num(r.expect(/^ {8}intervals: size = (\d+) ?$/, 'intervals size')[1]);
      if (n < 1) throw new Error('an interval tier needs at least one interval');
      const intervals: TgInterval[] = [];
      for (let k = 1; k <= n; k++) {
        r.expect(new RegExp(`^ {8}intervals \\[${k}\\]:$`), `intervals [${k}]`);
        const a = num(r.expect(new RegExp(`^ {12}xmin = ${NUM} ?$`), 'xmin')[1]);
        const b = num(r.expect(new RegExp(`^ {12}xmax = ${NUM} ?$`), 'xmax')[1]);
        const text = str(r.expect(new RegExp(`^ {12}text = ${STR} ?$`), 'text')[1]);
        const prev = intervals[intervals.length - 1];
        if (prev ? a !== prev.xmax : a !== txmin)
          throw new Error(`tier ${t} interval ${k}: gap or overlap at ${a}`);
        if (!(b > a)) throw new Error(`tier ${t} interval ${k}: empty or reversed (${a}..${b})`);
        intervals.push({ xmin: a, xmax: b, text });
      }
      if (intervals[intervals.length - 1]?.xmax !== txmax) throw new Error(`tier ${t} does not reach xmax`);
      tiers.push({ class: 'IntervalTier', name, xmin: txmin, xmax: txmax, intervals });
    } else {
      const n = num(r.expect(/^ {8}points: size = (\d+) ?$/, 'points size')[1]);
      const points: TgPoint[] = [];
      for (let k = 1; k <= n; k++) {
        r.expect(new RegExp(`^ {8}points \\[${k}\\]:$`), `points [${k}]`);
        const at = num(r.expect(new RegExp(`^ {12}number = ${NUM} ?$`), 'number')[1]);
        const mark = str(r.expect(new RegExp(`^ {12}mark = ${STR} ?$`), 'mark')[1]);
        if (at < txmin || at > txmax) throw new Error('point outside the tier');
        if (points.length && at < (points[points.length - 1]?.number ?? 0))
          throw new Error('points out of order');
        points.push({ number: at, mark });
      }
      tiers.push({ class: 'TextTier', name, xmin: txmin, xmax: txmax, points });
    }
  }
  const rest = r.rest();
  if (rest.some((l) => l !== '')) throw new Error('trailing content after the last tier');
  return { xmin, xmax, tiers };
}

// ---------------------------------------------------------------- WebVTT / SRT

export interface ParsedCue {
  id: string;
  start: number; // ms
  end: number;
  lines: string[];
}

function ms(h: string, m: string, s: string, f: string): number {
  const mm = Number(m);
  const ss = Number(s);
  if (mm > 59 || ss > 59) throw new Error('bad timestamp');
  return Number(h) * 3_600_000 + mm * 60_000 + ss * 1000 + Number(f);
}

/** WebVTT: header, blank-line separated cues, no overlap; returns the cue payload lines as written. */
export function parseVtt(content: string): ParsedCue[] {
  if (/\r/.test(content)) throw new Error('this writer uses LF line ends only');
  const blocks = content.split(/\n{2,}/);
  if (blocks[0] !== 'WEBVTT') throw new Error(`bad header ${JSON.stringify(blocks[0])}`);
  if (!content.endsWith('\n')) throw new Error('no final newline');
  const cues: ParsedCue[] = [];
  for (const block of blocks.slice(1)) {
    if (block.trim() === '') continue;
    // a NOTE block is a comment (WebVTT section 4.1): not a cue
    if (/^NOTE(?:[ \n]|$)/.test(block)) continue;
    const lines = block.split('\n').filter((l, i, a) => !(i === a.length - 1 && l === ''));
    const id = lines[0] ?? '';
    if (id.includes('-->')) throw new Error('cue without id');
    const m = /^(\d{2,}):(\d{2}):(\d{2})\.(\d{3}) --> (\d{2,}):(\d{2}):(\d{2})\.(\d{3})$/.exec(
      lines[1] ?? '',
    );
    if (!m) throw new Error(`bad timing line ${JSON.stringify(lines[1])}`);
    const start = ms(m[1] ?? '', m[2] ?? '', m[3] ?? '', m[4] ?? '');
    const end = ms(m[5] ?? '', m[6] ?? '', m[7] ?? '', m[8] ?? '');
    if (!(end > start)) throw new Error('cue end not after start');
    const payload = lines.slice(2);
    if (payload.length === 0) throw new Error('empty cue');
    for (const l of payload) {
      if (l.includes('-->')) throw new Error('"-->" in a cue payload');
      // only our inline timestamp tags may appear; a bare < or > or & not starting an entity is an error
      const stripped = l.replace(/<\d{2,}:\d{2}:\d{2}\.\d{3}>/g, '');
      if (/[<>]/.test(stripped)) throw new Error(`unescaped < or > in ${JSON.stringify(l)}`);
      if (/&(?!(amp|lt|gt);)/.test(stripped)) throw new Error(`unescaped & in ${JSON.stringify(l)}`);
      for (const tm of l.matchAll(/<(\d{2,}):(\d{2}):(\d{2})\.(\d{3})>/g)) {
        const t = ms(tm[1] ?? '', tm[2] ?? '', tm[3] ?? '', tm[4] ?? '');
        if (t < start || t > end) throw new Error('inline timestamp outside its cue');
      }
    }
    const prev = cues[cues.length - 1];
    if (prev && start < prev.end) throw new Error(`cue ${id} overlaps the previous one`);
    cues.push({ id, start, end, lines: payload });
  }
  return cues;
}

/** SubRip: CRLF, numbered from 1, hh:mm:ss,mmm, no overlap, no markup characters. */
export function parseSrt(content: string): ParsedCue[] {
  if (content === '') return [];
  if (/[^\r]\n/.test(content) || /\r(?!\n)/.test(content)) throw new Error('line ends must be CRLF');
  const blocks = content.replace(/\r\n$/, '').split('\r\n\r\n');
  const cues: ParsedCue[] = [];
  blocks.forEach((block, i) => {
    const lines = block.split('\r\n');
    if (lines[0] !== String(i + 1)) throw new Error(`cue ${i + 1} numbered ${JSON.stringify(lines[0])}`);
    const m = /^(\d{2,}):(\d{2}):(\d{2}),(\d{3}) --> (\d{2,}):(\d{2}):(\d{2}),(\d{3})$/.exec(lines[1] ?? '');
    if (!m) throw new Error(`bad timing line ${JSON.stringify(lines[1])}`);
    const start = ms(m[1] ?? '', m[2] ?? '', m[3] ?? '', m[4] ?? '');
    const end = ms(m[5] ?? '', m[6] ?? '', m[7] ?? '', m[8] ?? '');
    if (!(end > start)) throw new Error('cue end not after start');
    const payload = lines.slice(2);
    if (payload.length === 0 || payload.some((l) => l === '')) throw new Error('empty cue line');
    for (const l of payload)
      if (/[<>{}]/.test(l)) throw new Error(`markup character in ${JSON.stringify(l)}`);
    const prev = cues[cues.length - 1];
    if (prev && start < prev.end) throw new Error('overlapping cues');
    cues.push({ id: lines[0] ?? '', start, end, lines: payload });
  });
  return cues;
}

// ---------------------------------------------------------------- CSV (RFC 4180)

export function parseCsv(content: string, sep: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = content.length;
  if (n === 0) return rows;
  while (i < n) {
    let value = '';
    if (content[i] === '"') {
      i++;
      for (;;) {
        if (i >= n) throw new Error('unterminated quoted field');
        const c = content[i];
        if (c === '"') {
          if (content[i + 1] === '"') {
            value += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else {
          value += c;
          i++;
        }
      }
      if (i < n && content[i] !== sep && content[i] !== '\r')
        throw new Error(`garbage after quoted field at ${i}`);
    } else {
      while (i < n && content[i] !== sep && content[i] !== '\r' && content[i] !== '\n') {
        if (content[i] === '"') throw new Error(`quote inside an unquoted field at ${i}`);
        value += content[i];
        i++;
      }
      if (content[i] === '\n') throw new Error(`bare LF at ${i} (records end with CRLF)`);
    }
    row.push(value);
    if (content[i] === sep) {
      i++;
      continue;
    }
    if (content[i] === '\r') {
      if (content[i + 1] !== '\n') throw new Error('CR without LF');
      i += 2;
      rows.push(row);
      row = [];
      continue;
    }
    if (i >= n) throw new Error('last record has no CRLF');
  }
  const width = rows[0]?.length ?? 0;
  for (const r of rows) if (r.length !== width) throw new Error('ragged rows');
  return rows;
}

// ---------------------------------------------------------------- XML well-formedness (the subset EAF uses)

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = '[A-Za-z_][\\w.:-]*';

function decodeEntities(s: string): string {
  if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(s))
    throw new Error(`bad entity in ${JSON.stringify(s)}`);
  return s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    if (e === 'amp') return '&';
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    return String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
  });
}

/** Parses an XML document (declaration, elements, attributes, text, entities); throws if not well-formed. */
export function parseXml(content: string): XmlElement {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(content))
    throw new Error('invalid XML character');
  let i = 0;
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(content);
  if (!decl) throw new Error('missing XML declaration');
  i = decl[0].length;
  // XHTML documents (EPUB) carry the HTML doctype after the declaration
  const doctype = /^<!DOCTYPE html>\s*/.exec(content.slice(i));
  if (doctype) i += doctype[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const tagRe = new RegExp(`<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*"[^"<]*")*)\\s*(/?)>`, 'y');
  const attrRe = new RegExp(`(${NAME})\\s*=\\s*"([^"<]*)"`, 'g');
  while (i < content.length) {
    const lt = content.indexOf('<', i);
    const text = content.slice(i, lt < 0 ? content.length : lt);
    if (text) {
      if (stack.length === 0) {
        if (text.trim()) throw new Error('text outside the root element');
      } else {
        if (text.includes('>')) throw new Error(`unescaped > in text ${JSON.stringify(text)}`);
        const top = stack[stack.length - 1] as XmlElement;
        top.text += decodeEntities(text);
      }
    }
    if (lt < 0) break;
    tagRe.lastIndex = lt;
    const m = tagRe.exec(content);
    if (!m) throw new Error(`malformed tag at ${lt}: ${JSON.stringify(content.slice(lt, lt + 60))}`);
    i = tagRe.lastIndex;
    const [, close, name = '', attrText = '', selfClose] = m;
    if (close) {
      if (selfClose || attrText.trim()) throw new Error('bad end tag');
      const top = stack.pop();
      if (!top || top.name !== name) throw new Error(`mismatched </${name}>`);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText.matchAll(attrRe)) {
      const key = a[1] ?? '';
      if (key in attrs) throw new Error(`duplicate attribute ${key}`);
      attrs[key] = decodeEntities(a[2] ?? '');
    }
    const el: XmlElement = { name, attrs, children: [], text: '' };
    if (stack.length === 0) {
      if (root) throw new Error('two root elements');
      root = el;
    } else (stack[stack.length - 1] as XmlElement).children.push(el);
    if (!selfClose) stack.push(el);
  }
  if (stack.length) throw new Error(`unclosed <${stack[stack.length - 1]?.name}>`);
  if (!root) throw new Error('no root element');
  return root;
}
