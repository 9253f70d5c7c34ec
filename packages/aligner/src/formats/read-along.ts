// A read-along page: one self-contained HTML file (the recording embedded as a data: URL, the styles and
// the script inline, nothing fetched) that highlights each word as it is spoken, plays a word when it is
// clicked, and reads right to left for Arabic. It works opened from a disk, offline, in any browser.
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { resolveIpaLanguage } from '../text/languages.ts';
import { decimal, timedWords } from './common.ts';
import type { ExportMedia } from './export-media.ts';

export type ReadAlongLanguage = 'ar' | 'fr' | 'en';

export interface ReadAlongOptions {
  /** the recording, as portableMedia gives it */
  media: ExportMedia;
  /** the page's heading and <title> */
  title: string;
  /** language of the few words around the text (hint, footer) */
  uiLanguage: ReadAlongLanguage;
}

const LABELS: Record<ReadAlongLanguage, { hint: string; made: string; engine: string; corrected: string }> = {
  en: {
    hint: 'Click a word to hear it; the word being read is highlighted.',
    made: 'Made with Tazamun',
    engine: 'revision {n}, the aligner’s result',
    corrected: 'revision {n}, corrected by hand',
  },
  fr: {
    hint: 'Cliquez sur un mot pour l’entendre ; le mot lu est surligné.',
    made: 'Réalisé avec Tazamun',
    engine: 'révision {n}, résultat de l’aligneur',
    corrected: 'révision {n}, corrigée à la main',
  },
  ar: {
    hint: 'انقر على كلمة لسماعها؛ تُبرَز الكلمة المقروءة.',
    made: 'صُنع بتزامن',
    engine: 'المراجعة {n}، نتيجة المحاذاة',
    corrected: 'المراجعة {n}، مصحَّحة يدويًا',
  },
};

/** Text for HTML content and attribute values (both quote kinds escaped). */
export function htmlEscape(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The language's BCP 47 tag (ISO 639-1 when it has one) and its direction. */
export function languageTag(iso3: string): { tag: string; rtl: boolean } {
  try {
    const info = resolveIpaLanguage(iso3);
    return { tag: info.iso1 ?? info.iso3, rtl: info.rtl };
  } catch {
    return { tag: iso3, rtl: false };
  }
}

/**
 * The transcript as written, each word of the result wrapped by `wrap(word position)`; what lies between
 * the words (spaces, punctuation, line breaks) is kept. Labels corrected in a revision are shown as
 * corrected.
 */
export function transcriptPieces(
  result: AlignmentResult,
  escape: (s: string) => string,
  wrap: (pos: number, label: string) => string,
): string {
  const original = result.text.original;
  const out: string[] = [];
  let cursor = 0;
  result.words.forEach((w, pos) => {
    if (w.char_start >= cursor) out.push(escape(original.slice(cursor, w.char_start)));
    else out.push(' ');
    out.push(wrap(pos, escape(w.word.replace(/\s+/g, ' '))));
    cursor = Math.max(cursor, w.char_end);
  });
  out.push(escape(original.slice(cursor)));
  return out.join('');
}

const STYLE = `
:root{color-scheme:light dark;--bg:#fbfbfd;--fg:#1b1d24;--muted:#5d6372;--on:#ffd970;--on-fg:#1b1d24;--ring:#2f6fde}
@media (prefers-color-scheme:dark){:root{--bg:#0b0e14;--fg:#e7e9ef;--muted:#a2a9b8;--on:#8c6a12;--on-fg:#fff;--ring:#7aa7ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:1.125rem/1.6 system-ui,"Segoe UI","Noto Sans","Noto Sans Arabic",sans-serif}
main{max-width:46rem;margin:0 auto;padding:1rem 1rem 4rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
.player{position:sticky;top:0;background:var(--bg);padding:.5rem 0 .75rem;z-index:1}
audio{display:block;width:100%}
.hint{color:var(--muted);font-size:.9rem;margin:.25rem 0 0}
#text{white-space:pre-wrap;font-size:1.5rem;line-height:2.1;margin:1rem 0}
.w{border-radius:.3em;padding:0 .06em;cursor:pointer}
.w:hover{text-decoration:underline}
.w:focus-visible{outline:2px solid var(--ring);outline-offset:1px}
.w.on{background:var(--on);color:var(--on-fg)}
.w.missing{color:var(--muted);cursor:default;text-decoration:none}
footer{color:var(--muted);font-size:.85rem;border-top:1px solid color-mix(in srgb,var(--muted) 35%,transparent);padding-top:.75rem}
`;

// Highlights the word sounding now (a frame loop while playing, and on every seek), plays one word on a
// click or Enter, and moves between words with the arrow keys (one tab stop for the whole text).
const SCRIPT = `
(function () {
  var audio = document.getElementById('audio');
  var text = document.getElementById('text');
  var words = Array.prototype.slice.call(text.querySelectorAll('.w[data-b]'));
  var starts = words.map(function (w) { return Number(w.getAttribute('data-b')); });
  var ends = words.map(function (w) { return Number(w.getAttribute('data-e')); });
  var current = -1, stopAt = null, ours = false, frame = 0, focused = 0;
  function find(t) {
    var lo = 0, hi = words.length - 1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (t < starts[mid]) hi = mid - 1; else if (t >= ends[mid]) lo = mid + 1; else return mid;
    }
    return -1;
  }
  function show() {
    var t = audio.currentTime;
    if (stopAt !== null && t >= stopAt) { stopAt = null; audio.pause(); }
    var i = find(t);
    if (i === current) return;
    if (current >= 0) { words[current].classList.remove('on'); words[current].removeAttribute('aria-current'); }
    current = i;
    if (i < 0) return;
    var w = words[i];
    w.classList.add('on');
    w.setAttribute('aria-current', 'true');
    var r = w.getBoundingClientRect();
    if (r.top < 80 || r.bottom > window.innerHeight - 20) w.scrollIntoView({ block: 'center' });
  }
  function loop() { show(); if (!audio.paused) frame = requestAnimationFrame(loop); }
  audio.addEventListener('play', function () { cancelAnimationFrame(frame); frame = requestAnimationFrame(loop); });
  ['pause', 'seeked', 'timeupdate', 'loadedmetadata'].forEach(function (e) { audio.addEventListener(e, show); });
  audio.addEventListener('seeking', function () { if (!ours) stopAt = null; ours = false; });
  function hear(i) {
    ours = true;
    stopAt = ends[i];
    audio.currentTime = starts[i];
    var p = audio.play();
    if (p && p.catch) p.catch(function () {});
  }
  function focusWord(i) {
    words[focused].tabIndex = -1;
    focused = i;
    words[i].tabIndex = 0;
    words[i].focus();
  }
  words.forEach(function (w, i) {
    w.tabIndex = i === 0 ? 0 : -1;
    w.setAttribute('role', 'button');
    w.addEventListener('click', function () { focused = i; hear(i); });
    w.addEventListener('keydown', function (e) {
      var rtl = getComputedStyle(text).direction === 'rtl';
      var next = rtl ? 'ArrowLeft' : 'ArrowRight', prev = rtl ? 'ArrowRight' : 'ArrowLeft';
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); hear(i); }
      else if ((e.key === next || e.key === 'ArrowDown') && i + 1 < words.length) { e.preventDefault(); focusWord(i + 1); }
      else if ((e.key === prev || e.key === 'ArrowUp') && i > 0) { e.preventDefault(); focusWord(i - 1); }
    });
  });
})();
`;

/** The read-along page of a result; times are the result's own, to the tenth of a millisecond. */
export function toReadAlongHtml(result: AlignmentResult, options: ReadAlongOptions): string {
  const { tag, rtl } = languageTag(result.language);
  const dir = rtl ? 'rtl' : 'ltr';
  const labels = LABELS[options.uiLanguage];
  const timed = new Map(timedWords(result).map((t) => [t.word, t]));
  const text = transcriptPieces(result, htmlEscape, (pos, label) => {
    const w = result.words[pos]!;
    const t = timed.get(w);
    if (!t) return `<span class="w missing">${label}</span>`;
    return `<span class="w" data-b="${decimal(t.start)}" data-e="${decimal(t.end)}">${label}</span>`;
  });
  const r = result.revision;
  const note = r
    ? ` · ${(r.hand_corrected ? labels.corrected : labels.engine).replace('{n}', String(r.number))}`
    : '';
  const audio = `data:${options.media.mimeType};base64,${Buffer.from(options.media.bytes).toString('base64')}`;
  const ui = options.uiLanguage;
  const uiDir = ui === 'ar' ? 'rtl' : 'ltr';
  return `<!DOCTYPE html>
<html lang="${htmlEscape(ui)}" dir="${uiDir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; media-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="generator" content="Tazamun">
<title>${htmlEscape(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1 dir="auto">${htmlEscape(options.title)}</h1>
<div class="player">
<audio id="audio" controls preload="auto" src="${audio}"></audio>
<p class="hint">${htmlEscape(labels.hint)}</p>
</div>
<p id="text" lang="${htmlEscape(tag)}" dir="${dir}">${text}</p>
<footer>${htmlEscape(labels.made)}${htmlEscape(note)}</footer>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
