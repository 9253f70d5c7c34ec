// ISO 639-3 codes of languages written right to left (content direction of transcripts).
const RTL_639_3 = new Set([
  'ara',
  'arb',
  'ary',
  'arz',
  'apc',
  'acm',
  'ajp',
  'aeb',
  'afb',
  'ayl',
  'arq',
  'apd',
  'acw',
  'ars',
  'ayn',
  'shu',
  'heb',
  'fas',
  'pes',
  'prs',
  'urd',
  'pus',
  'pbt',
  'snd',
  'uig',
  'ckb',
  'yid',
  'div',
  'syr',
  'kur',
  'bal',
  'skr',
]);

export function contentDirection(iso3: string | null | undefined): 'rtl' | 'ltr' {
  return iso3 && RTL_639_3.has(iso3) ? 'rtl' : 'ltr';
}
