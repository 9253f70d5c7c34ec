// EPUB 3 with media overlays: the transcript as an XHTML page whose words are spans, the recording, and
// a SMIL document pairing each aligned word with its stretch of audio, so a reading system (Thorium,
// Apple Books, …) highlights the words as it reads the book aloud. Layout (EPUB 3.3, Media Overlays 3.3):
//
//   mimetype                  "application/epub+zip", first, stored, no extra field
//   META-INF/container.xml    points to the package document
//   EPUB/package.opf          metadata (media:duration, media:active-class), manifest, spine
//   EPUB/nav.xhtml            the navigation document
//   EPUB/text.xhtml           the text, media-overlay="overlay"
//   EPUB/text.smil            one <par> per aligned word: <text src="text.xhtml#wN"/> + <audio clipBegin clipEnd/>
//   EPUB/style.css            the active class
//   EPUB/audio.mp3 | .m4a     the recording (a core media type: MP3 or AAC in MP4)
//
// Clip times are the result's word times written exactly (at most 6 decimals, as seconds).
import { randomUUID } from 'node:crypto';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { decimal, timedWords, totalDuration } from './common.ts';
import { xmlEscape } from './eaf.ts';
import type { ExportMedia } from './export-media.ts';
import { languageTag, transcriptPieces } from './read-along.ts';
import { zip } from './zip.ts';

export interface EpubOptions {
  media: ExportMedia;
  title: string;
  /** a URN naming the publication (default: a random urn:uuid) */
  identifier?: string;
  /** the package's dcterms:modified (default now) */
  modified?: Date;
  /** dc:creator, when known */
  creator?: string;
}

export const EPUB_MIMETYPE = 'application/epub+zip';
export const EPUB_ACTIVE_CLASS = '-epub-media-overlay-active';

/** A SMIL/EPUB clock value h:mm:ss.fff. */
export function clockValue(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h}:${String(m).padStart(2, '0')}:${s.toFixed(3).padStart(6, '0')}`;
}

/** dcterms:modified wants CCYY-MM-DDThh:mm:ssZ, without fractions. */
const modifiedValue = (d: Date): string => `${d.toISOString().slice(0, 19)}Z`;

/** Line breaks of the transcript as XHTML: a blank line starts a paragraph, a single one is a <br/>. */
function paragraphs(inline: string): string {
  return inline
    .split(/\n[ \t]*\n\s*/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `      <p>${p.replace(/\s*\n\s*/g, '<br/>')}</p>`)
    .join('\n');
}

export function toEpub(result: AlignmentResult, options: EpubOptions): Uint8Array {
  const { tag, rtl } = languageTag(result.language);
  const dir = rtl ? 'rtl' : 'ltr';
  const modified = options.modified ?? new Date();
  const identifier = options.identifier ?? `urn:uuid:${randomUUID()}`;
  const audioHref = `audio.${options.media.extension}`;
  const timed = timedWords(result);
  const ids = new Map(timed.map((t) => [t.word, `w${t.word.index}`]));
  const duration = totalDuration(result);
  const title = xmlEscape(options.title);

  const body = transcriptPieces(result, xmlEscape, (pos, label) => {
    const id = ids.get(result.words[pos]!);
    return id ? `<span id="${id}">${label}</span>` : `<span class="missing">${label}</span>`;
  });

  const container = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`;

  const revision = result.revision
    ? `\n    <meta property="dcterms:description">Tazamun revision ${result.revision.number}${result.revision.hand_corrected ? ', corrected by hand' : ''}</meta>`
    : '';
  const creator = options.creator ? `\n    <dc:creator>${xmlEscape(options.creator)}</dc:creator>` : '';
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="pub-id" xml:lang="${xmlEscape(tag)}" dir="${dir}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="pub-id">${xmlEscape(identifier)}</dc:identifier>
    <dc:title>${title}</dc:title>
    <dc:language>${xmlEscape(tag)}</dc:language>${creator}
    <meta property="dcterms:modified">${modifiedValue(modified)}</meta>${revision}
    <meta property="media:duration" refines="#overlay">${clockValue(duration)}</meta>
    <meta property="media:duration">${clockValue(duration)}</meta>
    <meta property="media:active-class">${EPUB_ACTIVE_CLASS}</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="text" href="text.xhtml" media-type="application/xhtml+xml" media-overlay="overlay"/>
    <item id="overlay" href="text.smil" media-type="application/smil+xml"/>
    <item id="audio" href="${audioHref}" media-type="${xmlEscape(options.media.mimeType)}"/>
    <item id="style" href="style.css" media-type="text/css"/>
  </manifest>
  <spine page-progression-direction="${dir}">
    <itemref idref="text"/>
  </spine>
</package>
`;

  const head = (pageTitle: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${xmlEscape(tag)}" lang="${xmlEscape(tag)}" dir="${dir}">
  <head>
    <meta charset="UTF-8"/>
    <title>${pageTitle}</title>
    <link rel="stylesheet" type="text/css" href="style.css"/>
  </head>`;

  const nav = `${head(title)}
  <body>
    <nav epub:type="toc" id="toc">
      <h1>${title}</h1>
      <ol>
        <li><a href="text.xhtml">${title}</a></li>
      </ol>
    </nav>
  </body>
</html>
`;

  const text = `${head(title)}
  <body>
    <section epub:type="bodymatter chapter" id="text">
      <h1>${title}</h1>
${paragraphs(body)}
    </section>
  </body>
</html>
`;

  const pars = timed
    .map(
      (t) =>
        `      <par id="p${t.word.index}">\n` +
        `        <text src="text.xhtml#w${t.word.index}"/>\n` +
        `        <audio src="${audioHref}" clipBegin="${decimal(t.start)}s" clipEnd="${decimal(t.end)}s"/>\n` +
        '      </par>',
    )
    .join('\n');
  const smil = `<?xml version="1.0" encoding="UTF-8"?>
<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
  <body>
    <seq id="s1" epub:textref="text.xhtml#text" epub:type="bodymatter chapter">
${pars}
    </seq>
  </body>
</smil>
`;

  const css = `body { line-height: 1.9; }
p { font-size: 1.25em; }
.missing { opacity: 0.6; }
.${EPUB_ACTIVE_CLASS} { background-color: #ffd970; color: #1b1d24; border-radius: 0.2em; }
`;

  return zip(
    [
      { name: 'mimetype', data: EPUB_MIMETYPE, store: true },
      { name: 'META-INF/container.xml', data: container },
      { name: 'EPUB/package.opf', data: opf },
      { name: 'EPUB/nav.xhtml', data: nav },
      { name: 'EPUB/text.xhtml', data: text },
      { name: 'EPUB/text.smil', data: smil },
      { name: 'EPUB/style.css', data: css },
      // already compressed: stored
      { name: `EPUB/${audioHref}`, data: options.media.bytes, store: true },
    ],
    modified,
  );
}
