// A machine without containers on which docs/deploy.md's commands run as written (reliability/
// deploy-guide.test.ts): a temporary root holding the paths the guide names, free ports in place of the
// guide's, and stand-ins for the commands that would change the real machine (packages, users, systemd,
// sudo, file owners) or that the test run has done already (npm ci). Each stand-in is a small script in
// `<root>/bin`, first on PATH, that prints what it emulated; everything else (bash, node, npm, psql,
// install, curl, openssl, mount) is the real command. docs/deploy.md ("How this guide is tested") lists
// the same substitutions for a reader.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The paths of the guide that live under the emulation's root. */
export const GUIDE_PATHS = [
  '/opt/tazamun',
  '/etc/tazamun',
  '/var/lib/tazamun',
  '/etc/systemd/system',
  '/etc/redis',
];

export interface Emulation {
  root: string;
  /** the guide's port -> the free port used instead */
  ports: Record<string, number>;
  /** the repository under test, mounted at /opt/tazamun by `git clone` */
  repo: string;
  /** PostgreSQL: its socket folder and port, for `sudo -u postgres psql` */
  pg: { socketDir: string; port: number };
  npm: string;
}

function patterns(e: Pick<Emulation, 'ports'>): { paths: RegExp; ports: RegExp } {
  const paths = GUIDE_PATHS.map((p) => p.replace(/\//g, '\\/')).join('|');
  return {
    paths: new RegExp(`(?<![\\w.-])(${paths})(?=[/\\s'"]|$)`, 'gm'),
    ports: new RegExp(`\\b(${Object.keys(e.ports).join('|')})\\b`, 'g'),
  };
}

/** The guide's text with its paths moved under the root and its ports replaced. */
export function rewrite(text: string, e: Pick<Emulation, 'root' | 'ports'>): string {
  const { paths, ports } = patterns(e);
  return text.replace(paths, (p) => `${e.root}${p}`).replace(ports, (p) => String(e.ports[p]));
}

// The stand-ins, as CommonJS node scripts sharing this header: the emulation's settings and the rewrite.
function header(e: Emulation): string {
  const { paths, ports } = patterns(e);
  return `'use strict';
const { spawnSync, spawn, execFileSync } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, writeFileSync, readdirSync, openSync } = require('node:fs');
const { join } = require('node:path');
const E = ${JSON.stringify(e)};
const args = process.argv.slice(2);
const say = (m) => console.error('[emulated] ' + m);
const run = (cmd, argv, env = process.env) => {
  const r = spawnSync(cmd, argv, { stdio: 'inherit', env });
  process.exit(r.status ?? 1);
};
const rewrite = (text) =>
  text
    .replace(new RegExp(${JSON.stringify(paths.source)}, 'gm'), (p) => E.root + p)
    .replace(new RegExp(${JSON.stringify(ports.source)}, 'g'), (p) => String(E.ports[p]));
`;
}

const STAND_INS: Record<string, string> = {
  // packages: the test machine has them (a command, or a file for a package without one); a package the
  // emulation does not know fails the step
  'apt-get': `
const tools = { nodejs: 'node', npm: 'npm', ffmpeg: 'ffmpeg', postgresql: 'psql', 'redis-server': 'redis-server', git: 'git', curl: 'curl', gcc: 'gcc', 'libc6-dev': '/usr/include/stdlib.h' };
for (const p of args.filter((a) => !a.startsWith('-') && a !== 'install')) {
  if (!tools[p]) { console.error('apt-get (emulated): no stand-in for package ' + p); process.exit(100); }
  const there = tools[p].startsWith('/') ? existsSync(tools[p]) : spawnSync('sh', ['-c', 'command -v ' + tools[p]]).status === 0;
  if (!there) { console.error(p + ' is not installed on the test machine'); process.exit(100); }
  say('apt-get: ' + p + ' present');
}`,
  useradd: `
const home = args[args.indexOf('--home') + 1];
if (args.includes('--create-home') && home) mkdirSync(home, { recursive: true });
say('useradd ' + args.at(-1) + ' (the test runs as its own user)');`,
  git: `
if (args[0] !== 'clone') run('/usr/bin/git', args);
const target = args.at(-1);
mkdirSync(target, { recursive: true });
execFileSync('mount', ['--bind', E.repo, target]);
say('git clone: the repository under test mounted at ' + target);`,
  npm: `
if (args[0] === 'ci') {
  if (!existsSync('package-lock.json') || !existsSync('node_modules')) { console.error('npm ci (emulated): no package-lock.json or node_modules here'); process.exit(1); }
  say('npm ci: node_modules installed by the test run');
  process.exit(0);
}
run(E.npm, args);`,
  // owners are not emulated: -o and -g are dropped, the rest is the real install
  install: `
const out = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '-o' || args[i] === '-g') { i++; continue; }
  out.push(args[i]);
}
run('/usr/bin/install', out);`,
  chown: `say('chown ' + args.join(' ') + ' (owners are not emulated)');`,
  sudo: `
if (args[0] !== '-u') { console.error('sudo (emulated): only sudo -u USER ...'); process.exit(1); }
const user = args[1];
const env = user === 'postgres'
  ? { ...process.env, PGHOST: E.pg.socketDir, PGPORT: String(E.pg.port), PGUSER: 'postgres' }
  : process.env;
run(args[2], args.slice(3), env);`,
  // fills in the CHANGE-ME values of the env file; one it has no value for fails the step
  editor: `
const file = args[0];
const secret = (a) => execFileSync('openssl', a, { encoding: 'utf8' }).trim();
const values = {
  DATABASE_URL: 'postgres://tazamun:CHANGE-ME-db-password@127.0.0.1:5432/tazamun',
  REDIS_URL: 'redis://127.0.0.1:6379',
  JWT_SECRET: secret(['rand', '-base64', '48']),
  PUBLIC_URL: 'http://127.0.0.1:8081',
  METRICS_TOKEN: secret(['rand', '-hex', '24']),
};
const lines = readFileSync(file, 'utf8').split('\\n').map((line) => {
  const m = /^([A-Z0-9_]+)=(.*CHANGE-ME.*)$/.exec(line);
  if (!m) return line;
  if (!(m[1] in values)) { console.error('editor (emulated): no value for ' + m[1]); process.exit(1); }
  return m[1] + '=' + values[m[1]];
});
writeFileSync(file, rewrite(lines.join('\\n')));
say('editor: CHANGE-ME values of ' + file + ' filled in');`,
  systemctl: `
const journal = join(E.root, 'journal');
const runDir = join(E.root, 'run');
mkdirSync(journal, { recursive: true });
mkdirSync(runDir, { recursive: true });
/** started under sh, which records the pid and, once it ends, the exit code */
function start(name, cmd, argv, env, cwd) {
  const log = openSync(join(journal, name + '.log'), 'a');
  const child = spawn('sh', ['-c', '"$@" & echo $! > "$P.pid"; wait $!; echo $? > "$P.exit"', 'sh', cmd, ...argv], {
    cwd, env: { ...env, P: join(runDir, name) }, detached: true, stdio: ['ignore', log, log],
  });
  child.unref();
}
const [verb, ...rest] = args;
if (verb === 'daemon-reload') { say('systemctl daemon-reload'); process.exit(0); }
if ((verb === 'restart' || verb === 'start') && rest[0] === 'redis-server') {
  const pidFile = join(runDir, 'redis-server.pid');
  if (existsSync(pidFile)) { try { process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM'); } catch {} }
  const conf = join(E.root, 'etc/redis/redis.conf');
  const port = /^port (\\d+)/m.exec(readFileSync(conf, 'utf8'))[1];
  for (let i = 0; i < 100 && spawnSync('redis-cli', ['-p', port, 'ping']).stdout?.toString().trim() === 'PONG'; i++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  start('redis-server', 'redis-server', [conf], process.env, E.root);
  for (let i = 0; i < 100; i++) {
    if (spawnSync('redis-cli', ['-p', port, 'ping']).stdout?.toString().trim() === 'PONG') { say('redis-server (re)started with ' + conf); process.exit(0); }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
  console.error('redis-server did not start'); process.exit(1);
}
if (verb === 'enable' && rest[0] === '--now') {
  for (const instance of rest.slice(1)) {
    const [unit, inst] = instance.split('@');
    const text = readFileSync(join(E.root, 'etc/systemd/system', unit + '@.service'), 'utf8');
    const service = rewrite(text.split('[Service]')[1].split(/^\\[/m)[0].replace(/%i/g, inst));
    const keys = (k) => [...service.matchAll(new RegExp('^' + k + '=(.*)$', 'gm'))].map((m) => m[1].trim());
    // systemd: Environment= first, then EnvironmentFile= over it
    const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: join(E.root, 'var/lib/tazamun'), LANG: 'C.UTF-8' };
    for (const e of keys('Environment')) { const i = e.indexOf('='); env[e.slice(0, i)] = e.slice(i + 1); }
    for (const f of keys('EnvironmentFile'))
      for (const line of readFileSync(f, 'utf8').split('\\n')) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
        if (m) env[m[1]] = m[2];
      }
    const [cmd, ...argv] = keys('ExecStart')[0].split(/\\s+/);
    if (!cmd.startsWith('/')) { console.error(instance + ': ExecStart must be an absolute path'); process.exit(1); }
    start(instance, cmd, argv, env, keys('WorkingDirectory')[0]);
    say('systemctl: ' + instance + ' started');
  }
  process.exit(0);
}
console.error('systemctl (emulated): no stand-in for ' + args.join(' ')); process.exit(1);`,
  journalctl: `
const journal = join(E.root, 'journal');
for (const f of readdirSync(journal).filter((f) => f.startsWith('tazamun-')).sort())
  process.stdout.write(readFileSync(join(journal, f), 'utf8'));`,
};

/** Writes the stand-ins into `<root>/bin` and returns that folder (first on the guide's PATH). */
export function installStandIns(e: Emulation): string {
  const bin = join(e.root, 'bin');
  mkdirSync(bin, { recursive: true });
  for (const [name, body] of Object.entries(STAND_INS)) {
    const file = join(bin, name);
    writeFileSync(file, `#!${process.execPath}\n${header(e)}\n${body}\n`);
    chmodSync(file, 0o755);
  }
  return bin;
}
