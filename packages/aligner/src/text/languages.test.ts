import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineError } from '../errors.ts';
import { espeakIpa, espeakVoiceNames } from './g2p.ts';
import {
  acceptLanguage,
  isArabicLanguage,
  listLanguages,
  lookupIso639,
  resolveIpaLanguage,
  resolveLanguage,
} from './languages.ts';

test('every language selects its eSpeak voice and reads a number (except voices without digits)', async () => {
  // These voices do not read digits: Cherokee (reads romanised text), Chuvash, Sindarin.
  const noDigits = new Set(['chr', 'chv', 'sjn']);
  const silent: string[] = [];
  for (const l of listLanguages()) {
    assert.ok(l.espeakVoice, l.iso3);
    const [phones] = await espeakIpa(['12'], l.iso3); // throws if the voice cannot be selected
    if (!phones?.length) silent.push(l.iso3);
  }
  assert.deepEqual(silent.sort(), [...noDigits].sort());
  assert.deepEqual((await espeakIpa(['osiyo'], 'chr'))[0], ['oː', 's', 'iː', 'j', 'õ']);
});

test('language names match the voices of the WASM build', async () => {
  const voices = new Set(await espeakVoiceNames());
  for (const code of ['ar', 'en-us', 'fr', 'de', 'cmn', 'sw', 'yue']) assert.ok(voices.has(code), code);
});

test('the table: ~120 eSpeak languages plus Arabic varieties, unique ISO 639-3 codes', () => {
  const langs = listLanguages();
  assert.ok(langs.length >= 120, String(langs.length));
  const codes = langs.map((l) => l.iso3);
  assert.equal(new Set(codes).size, codes.length);
  for (const c of codes) assert.match(c, /^[a-z]{3}$/);
  const iso1 = langs.flatMap((l) => (l.iso1 ? [l.iso1] : []));
  assert.equal(new Set(iso1).size, iso1.length);
});

test('resolveLanguage accepts 639-3, 639-1, 639-2/B and BCP 47 tags', () => {
  assert.equal(resolveLanguage('ara').iso3, 'ara');
  assert.equal(resolveLanguage('ar').iso3, 'ara');
  assert.equal(resolveLanguage('fr').iso3, 'fra');
  assert.equal(resolveLanguage('fre').iso3, 'fra');
  assert.equal(resolveLanguage('EN').iso3, 'eng');
  assert.equal(resolveLanguage('en-US').iso3, 'eng');
  assert.equal(resolveLanguage('en-US').espeakVoice, 'en-us');
  assert.equal(resolveLanguage('en-AU').espeakVoice, 'en-gb');
  assert.equal(resolveLanguage('pt_BR').espeakVoice, 'pt-br');
  assert.equal(resolveLanguage('zh').iso3, 'cmn');
  assert.equal(resolveLanguage('aeb').iso3, 'aeb');
});

test('routes: dictionary for English and French, Arabic rules for Arabic and its varieties', () => {
  assert.deepEqual(resolveLanguage('eng').routes, ['dictionary', 'espeak-ipa']);
  assert.deepEqual(resolveLanguage('fra').routes, ['dictionary', 'espeak-ipa']);
  assert.deepEqual(resolveLanguage('ara').routes, ['arabic-rules', 'espeak-ipa']);
  assert.deepEqual(resolveLanguage('aeb').routes, ['arabic-rules', 'espeak-ipa']);
  assert.equal(resolveLanguage('aeb').espeakVoice, 'ar');
  assert.deepEqual(resolveLanguage('deu').routes, ['espeak-ipa']);
  assert.ok(isArabicLanguage('arz'));
  assert.ok(!isArabicLanguage('fas'));
});

test('right-to-left scripts', () => {
  for (const c of ['ara', 'heb', 'fas', 'urd', 'aeb']) assert.equal(resolveLanguage(c).rtl, true, c);
  for (const c of ['eng', 'fra', 'rus', 'cmn']) assert.equal(resolveLanguage(c).rtl, false, c);
});

test('unknown or empty codes throw a clear error', () => {
  assert.throws(() => resolveLanguage('xyz'), /unknown language code "xyz"/);
  assert.throws(() => resolveLanguage(''), /empty/);
  assert.throws(() => resolveLanguage('e'), /unknown language code/);
});

const engineError = (code: string, message: RegExp) => (e: unknown) =>
  e instanceof EngineError &&
  e.code === code &&
  message.test(e.message) &&
  !/listLanguages|\(\)/.test(e.message);

test('IPA transcripts accept every ISO 639-3 code; written text on hmm only the table', () => {
  // Achinese: not in eSpeak's table, in ISO 639-3.
  // the text rules read the IPA rules' entry for it
  assert.deepEqual(acceptLanguage('ace', { inputKind: 'ipa' }), {
    code: 'ace',
    iso3: 'ace',
    name: 'Achinese',
    info: null,
    text: resolveIpaLanguage('ace'),
  });
  assert.deepEqual(acceptLanguage('ace', { inputKind: 'ipa', engine: 'hmm' }).iso3, 'ace');
  assert.equal(resolveIpaLanguage('ace').routes[0], 'ipa-input');
  assert.equal(resolveIpaLanguage('eng').iso3, 'eng');
  assert.equal(acceptLanguage('ar', { inputKind: 'ipa' }).info?.iso3, 'ara');
  assert.equal(lookupIso639('fre')?.iso3, 'fra');
  assert.equal(lookupIso639('pt-BR')?.iso3, 'por');
  assert.equal(lookupIso639('und'), null, 'special codes name no language');
  assert.throws(
    () => acceptLanguage('zzz', { inputKind: 'ipa' }),
    engineError('unknown_language', /^unknown language code "zzz": not an ISO 639-3 or 639-1 code/),
  );
  // Written Achinese: hmm has no route and says where to go (mms or IPA), naming commands.
  assert.throws(
    () => acceptLanguage('ace', { engine: 'hmm' }),
    engineError(
      'unknown_language',
      /written Achinese .*`tazamun languages`.*--engine mms.*`tazamun models pull mms`.*--ipa/,
    ),
  );
  assert.throws(
    () => resolveLanguage('xyz'),
    engineError('unknown_language', /^unknown language code "xyz".*`tazamun languages`/),
  );
});

test('written text on mms or auto accepts every ISO 639-3 code before the model is installed', () => {
  for (const engine of ['mms', 'auto'] as const) {
    // written text only MMS reads: no text rules (kept as written)
    assert.deepEqual(acceptLanguage('ace', { engine }), {
      code: 'ace',
      iso3: 'ace',
      name: 'Achinese',
      info: null,
      text: null,
    });
    assert.equal(acceptLanguage('fra', { engine }).info?.iso3, 'fra');
  }
  // mms does not read IPA: the message sends the user to hmm, which accepts the code (no circle).
  assert.throws(
    () => acceptLanguage('ace', { inputKind: 'ipa', engine: 'mms' }),
    engineError(
      'unsupported_option',
      /not IPA; an IPA transcript is aligned by the hmm engine .*every ISO 639-3 code/,
    ),
  );
});

test('returned objects are copies', () => {
  const a = resolveLanguage('eng');
  a.routes.push('x');
  assert.deepEqual(resolveLanguage('eng').routes, ['dictionary', 'espeak-ipa']);
});
