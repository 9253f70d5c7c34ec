import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { checkEpub } from '@tazamun/aligner/testing/epub-check';
import { readWavAtRate16, wavBytes16 } from '../audio/wav.ts';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../../bin/tazamun.mjs');
const UTT = join(evalDir(), 'timit-dev', 'dr1-fvmh0_sa1');
const dir = mkdtempSync(join(tmpdir(), 'tz-cli-'));

function tazamun(...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: dir });
}

function textFile(): string {
  assert.ok(existsSync(`${UTT}.wav`), `eval set missing: ${UTT}.wav`);
  const f = join(dir, 'sa1.txt');
  writeFileSync(f, (JSON.parse(readFileSync(`${UTT}.json`, 'utf8')) as { text: string }).text);
  return f;
}

test('align writes the platform JSON and a TextGrid', () => {
  const txt = textFile();
  const r = tazamun('align', `${UTT}.wav`, txt, '--lang', 'eng', '-o', join(dir, 'out.json'));
  assert.equal(r.status, 0, r.stderr);
  const res = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
    schema_version: number;
    words: unknown[];
  };
  assert.equal(res.schema_version, 1);
  assert.equal(res.words.length, 11);
  const tg = tazamun('align', `${UTT}.wav`, txt, '--lang', 'en', '--format', 'textgrid', '--no-recognition');
  assert.equal(tg.status, 0, tg.stderr);
  assert.match(tg.stdout, /ooTextFile/);
  assert.match(tg.stdout, /"she"|"She"/);
});

test('a result longer than a pipe holds reaches the end of the pipe (align … | cat)', () => {
  // twelve sentences joined: about 36 s of speech, a JSON result of about 130 KB; a pipe takes 64 KB at a
  // time, and the program used to exit with the rest still queued (the reader got 64 KB of broken JSON)
  const names = readdirSync(join(evalDir(), 'timit-dev'))
    .filter((f) => f.endsWith('.wav'))
    .sort()
    .slice(0, 12)
    .map((f) => f.slice(0, -4));
  const parts = names.map((n) => readWavAtRate16(join(evalDir(), 'timit-dev', `${n}.wav`), 16000)!.samples);
  const joined = new Int16Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    joined.set(p, at);
    at += p.length;
  }
  const wav = join(dir, 'joined.wav');
  writeFileSync(wav, wavBytes16(joined, 16000));
  const text = names
    .map(
      (n) =>
        (JSON.parse(readFileSync(join(evalDir(), 'timit-dev', `${n}.json`), 'utf8')) as { text: string })
          .text,
    )
    .join('\n');
  const txt = join(dir, 'joined-text.txt');
  writeFileSync(txt, text);
  const out = join(dir, 'piped.json');
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const r = spawnSync(
    'sh',
    [
      '-c',
      `${quote(process.execPath)} ${quote(BIN)} align ${quote(wav)} ${quote(txt)} --lang en | cat > ${quote(out)}`,
    ],
    { encoding: 'utf8', cwd: dir },
  );
  assert.equal(r.status, 0, r.stderr);
  const piped = readFileSync(out, 'utf8');
  assert.ok(
    Buffer.byteLength(piped) > 65_536,
    `${Buffer.byteLength(piped)} bytes: not more than a pipe holds`,
  );
  const res = JSON.parse(piped) as { words: unknown[] };
  assert.equal(res.words.length, text.split(/\s+/u).length);
});

test('batch alignment from a manifest writes one JSON per item', () => {
  const txt = textFile();
  const manifest = join(dir, 'm.jsonl');
  writeFileSync(
    manifest,
    [
      JSON.stringify({ id: 'one', audio: `${UTT}.wav`, text_file: txt, lang: 'eng' }),
      JSON.stringify({
        id: 'two',
        audio: `${UTT}.wav`,
        text: 'She had your dark suit in greasy wash water all year.',
        lang: 'en',
      }),
    ].join('\n'),
  );
  const r = tazamun('align', '--manifest', manifest, '--out-dir', join(dir, 'batch'), '--no-recognition');
  assert.equal(r.status, 0, r.stderr);
  for (const id of ['one', 'two']) {
    const res = JSON.parse(readFileSync(join(dir, 'batch', `${id}.json`), 'utf8')) as {
      words: { status: string }[];
    };
    assert.equal(res.words.length, 11);
  }
});

test('languages lists codes and routes', () => {
  const r = tazamun('languages');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^ara\tar\tArabic\tarabic-rules/m);
  assert.match(r.stdout, /^fra\tfr\tFrench/m);
});

test('bad input gives a clear error and a non-zero exit', () => {
  const f = join(dir, 'bad.wav');
  writeFileSync(f, 'not audio');
  const r = tazamun('align', f, textFile(), '--lang', 'en');
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /not a readable audio file|could not decode/);
  assert.equal(tazamun('frobnicate').status, 2);
});

test('a batch of 12 items on one thread: no listener leak; an engine fault retires the thread and the item is retried once', () => {
  const txt = textFile();
  const manifest = join(dir, 'm12.jsonl');
  const ids = Array.from({ length: 12 }, (_, i) => `item-${i}`);
  writeFileSync(
    manifest,
    ids.map((id) => JSON.stringify({ id, audio: `${UTT}.wav`, text_file: txt, lang: 'eng' })).join('\n'),
  );
  // One fault, taken by the first decode of the batch (the hook removes the file when it trips).
  const fault = join(dir, 'fault-once');
  writeFileSync(fault, 'once');
  const out = join(dir, 'batch12');
  const r = spawnSync(
    process.execPath,
    [BIN, 'align', '--manifest', manifest, '--out-dir', out, '--jobs', '1', '--no-recognition'],
    { encoding: 'utf8', cwd: dir, env: { ...process.env, TAZAMUN_TEST_FAULT_FILE: fault } },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /MaxListenersExceededWarning/);
  assert.equal(existsSync(fault), false, 'the injected fault was taken');
  assert.match(r.stderr, /^item-0: ok \(after an engine fault, on a fresh thread\)$/m);
  for (const id of ids.slice(1)) assert.match(r.stderr, new RegExp(`^${id}: ok$`, 'm'));
  assert.match(r.stderr, /^12\/12 items aligned$/m);
  for (const id of ids) {
    const res = JSON.parse(readFileSync(join(out, `${id}.json`), 'utf8')) as { words: { status: string }[] };
    assert.equal(res.words.length, 11);
  }
});

test('a batch item that faults on the fresh thread too fails with its real cause', () => {
  const txt = textFile();
  const manifest = join(dir, 'm-fault.jsonl');
  writeFileSync(
    manifest,
    [
      JSON.stringify({ id: 'doomed', audio: `${UTT}.wav`, text_file: txt, lang: 'eng' }),
      JSON.stringify({ id: 'no-audio', audio: join(dir, 'absent.wav'), text_file: txt, lang: 'eng' }),
    ].join('\n'),
  );
  const fault = join(dir, 'fault-always');
  writeFileSync(fault, 'always');
  const out = join(dir, 'batch-fault');
  const r = spawnSync(
    process.execPath,
    [BIN, 'align', '--manifest', manifest, '--out-dir', out, '--jobs', '1', '--no-recognition'],
    { encoding: 'utf8', cwd: dir, env: { ...process.env, TAZAMUN_TEST_FAULT_FILE: fault } },
  );
  assert.equal(r.status, 1);
  const doomed = readFileSync(join(out, 'doomed.error.txt'), 'utf8');
  assert.match(
    doomed,
    /^engine_fault: decoding \(model cmusphinx-en-us-ptm-(16k|8k)\): memory access out of bounds \(injected by TAZAMUN_TEST_FAULT_FILE\)\n$/,
  );
  assert.doesNotMatch(doomed, /object Object/);
  // An input error is not retried and says what is wrong with the input.
  assert.match(readFileSync(join(out, 'no-audio.error.txt'), 'utf8'), /^not_found: audio file not found: /);
  assert.match(r.stderr, /^0\/2 items aligned$/m);
});

test('an IPA transcript aligns with any ISO 639-3 code (--lang ace); the engine messages name commands', () => {
  const word = join(evalDir(), 'ar-voxangeles-aeb', 'aeb-000-000');
  assert.ok(existsSync(`${word}.wav`), `eval set missing: ${word}.wav`);
  const ipa = join(dir, 'ipa.txt');
  writeFileSync(ipa, 'baxiːl');
  const r = tazamun('align', `${word}.wav`, ipa, '--lang', 'ace', '--ipa', '-o', join(dir, 'ace.json'));
  assert.equal(r.status, 0, r.stderr);
  const res = JSON.parse(readFileSync(join(dir, 'ace.json'), 'utf8')) as {
    language: string;
    engine: { backend: string; route: string };
    words: { word: string; status: string; start: number; end: number }[];
  };
  assert.equal(res.language, 'ace');
  assert.deepEqual([res.engine.backend, res.engine.route], ['hmm', 'ipa-input']);
  assert.equal(res.words.length, 1);
  assert.equal(res.words[0]!.status, 'aligned');
  // The reference puts the word at 0.152-0.622 s.
  assert.ok(Math.abs(res.words[0]!.start - 0.152) < 0.1 && Math.abs(res.words[0]!.end - 0.622) < 0.1);

  // Written Achinese: mms is the way, and without the model the user is told to pull it.
  const txt = join(dir, 'ace.txt');
  writeFileSync(txt, 'bak');
  const models = mkdtempSync(join(tmpdir(), 'tz-no-models-'));
  const mms = spawnSync(
    process.execPath,
    [BIN, 'align', `${word}.wav`, txt, '--lang', 'ace', '--engine', 'mms'],
    {
      encoding: 'utf8',
      cwd: dir,
      env: { ...process.env, TAZAMUN_MODELS_DIR: models },
    },
  );
  assert.equal(mms.status, 1);
  assert.match(mms.stderr, /^tazamun: the MMS model is not installed: run `tazamun models pull mms` once/m);
  const hmm = tazamun('align', `${word}.wav`, txt, '--lang', 'ace', '--engine', 'hmm');
  assert.equal(hmm.status, 1);
  assert.match(hmm.stderr, /written Achinese .*`tazamun languages`.*--engine mms.*--ipa/);
  // IPA on mms sends the user to hmm, which takes it: no circle.
  const ipaMms = tazamun('align', `${word}.wav`, ipa, '--lang', 'ace', '--ipa', '--engine', 'mms');
  assert.equal(ipaMms.status, 1);
  assert.match(
    ipaMms.stderr,
    /not IPA; an IPA transcript is aligned by the hmm engine \(--engine hmm or auto\)/,
  );
  for (const out of [mms.stderr, hmm.stderr, ipaMms.stderr]) assert.doesNotMatch(out, /\w\(\)/);
});

test('the CLI runs compiled (dist/, built from the sources when stale) and aligns as the sources do', () => {
  const txt = textFile();
  const compiled = tazamun('align', `${UTT}.wav`, txt, '--lang', 'eng', '--no-recognition');
  assert.equal(compiled.status, 0, compiled.stderr);
  assert.doesNotMatch(compiled.stderr, /running from the sources/);
  const dist = resolve(here, '../../dist');
  assert.ok(existsSync(join(dist, 'main.mjs')) && existsSync(join(dist, 'engine-thread.mjs')));
  const sources = spawnSync(
    process.execPath,
    [BIN, 'align', `${UTT}.wav`, txt, '--lang', 'eng', '--no-recognition'],
    {
      encoding: 'utf8',
      cwd: dir,
      env: { ...process.env, TAZAMUN_CLI_SOURCES: '1' },
    },
  );
  assert.equal(sources.status, 0, sources.stderr);
  const words = (out: string) =>
    (JSON.parse(out) as { words: { word: string; start: number; end: number }[] }).words.map((w) => [
      w.word,
      w.start,
      w.end,
    ]);
  assert.equal(words(compiled.stdout).length, 11);
  assert.deepEqual(words(compiled.stdout), words(sources.stdout));
});

test('the read-along page, the EPUB and the ELAN file from the CLI, and `export` from a result JSON', () => {
  const txt = textFile();
  const epubPath = join(dir, 'sa1.epub');
  const r = tazamun(
    'align',
    `${UTT}.wav`,
    txt,
    '--lang',
    'eng',
    '--format',
    'epub',
    '-o',
    epubPath,
    '--no-recognition',
  );
  assert.equal(r.status, 0, r.stderr);
  const epub = checkEpub(readFileSync(epubPath));
  assert.equal(epub.title, 'dr1-fvmh0_sa1');
  assert.equal(epub.pars.length, 11);
  assert.ok(
    epub.entries.some((e) => e.name === 'EPUB/audio.m4a'),
    'the WAV was encoded to AAC',
  );
  assert.match(
    tazamun('align', `${UTT}.wav`, txt, '--lang', 'eng', '--format', 'epub').stderr,
    /binary file: name it with -o/,
  );

  // a result JSON (the platform's download of a revision) is exported without aligning again
  const json = join(dir, 'sa1.json');
  assert.equal(
    tazamun('align', `${UTT}.wav`, txt, '--lang', 'eng', '-o', json, '--no-recognition').status,
    0,
  );
  const result = JSON.parse(readFileSync(json, 'utf8')) as { words: { start: number; end: number }[] };
  const page = tazamun('export', json, `${UTT}.wav`, '--format', 'readalong', '--title', 'Dark suit');
  assert.equal(page.status, 0, page.stderr);
  assert.match(page.stdout, /<title>Dark suit<\/title>/);
  const times = [...page.stdout.matchAll(/data-b="([\d.]+)" data-e="([\d.]+)"/g)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);
  assert.deepEqual(
    times,
    result.words.map((w) => [w.start, w.end]),
  );
  const eaf = tazamun('export', json, `${UTT}.wav`, '--format', 'eaf', '-o', join(dir, 'out', 'sa1.eaf'));
  assert.notEqual(eaf.status, 0, 'no such folder: a clear failure');
  const eafOk = tazamun('export', json, `${UTT}.wav`, '--format', 'eaf', '-o', join(dir, 'sa1.eaf'));
  assert.equal(eafOk.status, 0, eafOk.stderr);
  const header = readFileSync(join(dir, 'sa1.eaf'), 'utf8');
  assert.match(
    header,
    /<MEDIA_DESCRIPTOR MEDIA_URL="file:\/\/\/[^"]+dr1-fvmh0_sa1\.wav" MIME_TYPE="audio\/x-wav" RELATIVE_MEDIA_URL="(\.\.\/)+[^"]*dr1-fvmh0_sa1\.wav"\/>/,
  );
});

test("the engine's thread starts without what it does not use: no zod, no pinyin-pro in its static imports", () => {
  // Every thread compiles and runs the modules its entry imports before it aligns anything: zod's
  // schemas cost the thread about 30 ms of CPU a start (the CLI starts a thread per command), and the
  // engine validates nothing (the caller does). Dynamic imports (a language's romaniser) load on demand.
  const dist = resolve(here, '../../dist');
  const graph = new Set<string>();
  const visit = (name: string) => {
    if (graph.has(name)) return;
    graph.add(name);
    const code = readFileSync(join(dist, name), 'utf8');
    for (const m of code.matchAll(/^import\s*(?:[^'"]*?\sfrom\s*)?"\.\/([\w.-]+\.mjs)"/gm)) visit(m[1]!);
  };
  visit('engine-thread.mjs');
  assert.ok(graph.size > 2, `the engine thread's graph: ${[...graph].join(', ')}`);
  const sources = [...graph].flatMap(
    (name) => (JSON.parse(readFileSync(join(dist, `${name}.map`), 'utf8')) as { sources: string[] }).sources,
  );
  assert.ok(
    sources.some((s) => s.includes('src/engine.ts')),
    'the graph holds the engine',
  );
  for (const pkg of ['zod', 'pinyin-pro'])
    assert.deepEqual(
      sources.filter((s) => s.includes(`node_modules/${pkg}/`)),
      [],
      `${pkg} is in the engine thread's static imports`,
    );
});

test('the compiled bundles are ASCII, and escaping them keeps what their code means', async () => {
  const { asciiOnly } = await import('../../../../scripts/build-node.mjs');
  // the bundles exist: the tests above ran the compiled CLI
  const dist = resolve(here, '../../dist');
  // the entries and the chunks they share (scripts/build-cli.mjs splits them)
  const bundles = readdirSync(dist).filter((n) => n.endsWith('.mjs'));
  for (const entry of ['main.mjs', 'engine-thread.mjs', 'window-worker.mjs'])
    assert.ok(bundles.includes(entry));
  assert.ok(
    bundles.some((n) => n.startsWith('chunk-')),
    'the bundles share chunks',
  );
  for (const name of bundles) {
    const bytes = readFileSync(join(dist, name));
    assert.equal(
      bytes.findIndex((b) => b > 0x7f),
      -1,
      `${name} has a byte outside ASCII`,
    );
  }
  // strings, identity escapes, regular expressions (with and without the u flag), astral characters
  const cases = [
    '"ā😀"',
    '"\\é"',
    '"\\\\é"',
    '/^(ā|á)$/.test("á")',
    '/^[😀]$/u.test("😀")',
    '/^.$/u.test("😀")',
    '"中国".length',
    '`x${1}é`',
  ];
  for (const src of cases) {
    const escaped = asciiOnly(src);
    assert.ok(
      [...escaped].every((c) => c.charCodeAt(0) < 0x80),
      escaped,
    );
    assert.deepEqual((0, eval)(escaped), (0, eval)(src), src);
  }
});
