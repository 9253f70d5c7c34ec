// Builds the JSGF grammar the HMM search runs: the transcript's units in order, each an alternation of its
// pronunciations, with optional garbage (a phone loop) where audio may hold speech that is not in the text,
// and optional units where the text may hold words that are not in the audio. pocketsphinx inserts optional
// silence and noise fillers between words by itself (fsgusefiller).

export interface GrammarUnit {
  /** grammar-safe dictionary names of the unit's pronunciations */
  alternatives: string[];
  /** the unit may be skipped (weight of taking it, in (0, 1]) */
  skippable?: number;
}

export interface GrammarOptions {
  /** dictionary names of single-phone words forming the garbage loop; empty: no garbage path */
  garbage: string[];
  /** probability of entering the garbage loop between two units */
  garbageWeight: number;
  /** allow the path to end after any unit (long-audio windows cut inside the text) */
  openEnd: boolean;
}

const alt = (names: string[]): string => (names.length === 1 ? names[0]! : `( ${names.join(' | ')} )`);

export function buildGrammar(units: GrammarUnit[], opts: GrammarOptions): string {
  const lines = ['#JSGF V1.0;', 'grammar tz;'];
  const useGarbage = opts.garbage.length > 0;
  const g = useGarbage ? `( /${opts.garbageWeight}/ <g> | /1/ <NULL> )` : '';
  const parts: string[] = [];
  for (const u of units) {
    let item = alt(u.alternatives);
    if (u.skippable !== undefined && u.skippable < 1) {
      // A skipped unit leaves its audio (if any) to the garbage loop around it.
      item = `( /${u.skippable}/ ${item} | /${(1 - u.skippable).toPrecision(3)}/ <NULL> )`;
    }
    parts.push(item);
  }
  let body: string;
  if (opts.openEnd) {
    // Nested optionals give every prefix of the sequence: the window may end inside the text.
    body = '';
    for (let i = parts.length - 1; i >= 0; i--)
      body = (i === parts.length - 1 ? `${g} ${parts[i]}` : `${g} ${parts[i]} [ ${body} ]`).trim();
    body = body.trim();
  } else {
    body = parts.map((p) => `${g} ${p}`.trim()).join(' ');
  }
  if (useGarbage) body = `${body} ${g}`;
  lines.push(`public <utt> = ${body || '<NULL>'} ;`);
  if (useGarbage) {
    lines.push(`<g> = ( ${opts.garbage.join(' | ')} )+ ;`);
  }
  return lines.join('\n') + '\n';
}
