// `tazamun languages`: every language with its codes and pronunciation route.
import { listLanguages } from '../text/languages.ts';

export async function run(args: string[]): Promise<number> {
  const langs = listLanguages();
  if (args.includes('--json')) {
    console.log(JSON.stringify(langs, null, 1));
    return 0;
  }
  console.log(['iso3', 'iso1', 'name', 'route', 'model'].join('\t'));
  for (const l of langs) {
    const model = l.iso3 === 'fra' ? 'hmm:fr-fr' : 'hmm:en-us';
    console.log([l.iso3, l.iso1 ?? '', l.name, l.routes.join(','), model].join('\t'));
  }
  // On stderr so the table stays machine-readable.
  process.stderr.write(
    `written text: these ${langs.length} languages on hmm; an IPA transcript (--ipa) and --engine mms ` +
      'accept every ISO 639-3 code\n',
  );
  return 0;
}
