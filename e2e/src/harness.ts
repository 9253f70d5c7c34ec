// Runs the real server (API + built web app) on a free loopback port with a throw-away DATA_DIR, and
// Debian's Chromium through playwright-core. The server runs compiled, as `npm start` runs it (compiled
// here when stale, by apps/server/scripts/build-server.mjs); the web bundle must exist.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { BrowserContext, Locator, Page } from 'playwright-core';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = '/usr/bin/chromium';
const SERVER_ENTRY = join(ROOT, 'apps/server/dist/server.mjs');
const ADMIN_ENTRY = join(ROOT, 'apps/server/dist/admin.mjs');
const BUILD_SERVER = join(ROOT, 'apps/server/scripts/build-server.mjs');

let compiled = false;
/** Compiles the server when its bundles are missing or older than the sources (once per process). */
function compileServer(): void {
  if (compiled) return;
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { server } = await import(${JSON.stringify(BUILD_SERVER)}); if (!server.isFresh()) await server.build();`,
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`compiling the server failed: ${r.stderr}`);
  compiled = true;
}
const WEB_BUNDLE = join(ROOT, 'apps/web/dist/index.html');

export interface RunningServer {
  url: string;
  dataDir: string;
  logs: () => string;
  stop: () => Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, logs: () => string): Promise<void> {
  // Readiness, not timing: poll until the server serves (it listens before its database is migrated, and
  // answers /api/ready/ 200 once it is), fail if it exits or never comes up.
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${logs()}`);
    try {
      const res = await fetch(`${url}/api/ready/`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not answer /api/ready/ within 120 s:\n${logs()}`);
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(WEB_BUNDLE)) {
    throw new Error(`the web bundle is missing (${WEB_BUNDLE}): run \`npm run build -w apps/web\` first`);
  }
  compileServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'tazamun-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      ORG_NAME: 'Tazamun Lab',
      SUPPORT_EMAIL: 'support@tazamun.example',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const logs = () => output.slice(-4000);
  await waitForHealth(url, child, logs);
  return {
    url,
    dataDir,
    logs,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The admin CLI on the same database, e.g. admin(server, 'approve', email). */
export function admin(server: RunningServer, ...args: string[]): string {
  compileServer();
  const r = spawnSync(process.execPath, [ADMIN_ENTRY, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`admin ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

export interface BrowserOptions {
  width?: number;
  height?: number;
  language?: 'ar' | 'fr' | 'en';
  theme?: 'dark' | 'light';
}

export interface OpenBrowser {
  context: BrowserContext;
  page: Page;
  consoleErrors: string[];
  /** requests that failed or were answered 5xx, for a failing test's message */
  networkErrors: string[];
  close: () => Promise<void>;
}

/** Debian Chromium, headless, in a fresh profile; fails (does not skip) when Chromium is absent. */
export async function openBrowser(options: BrowserOptions = {}): Promise<OpenBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install it with \`apt-get install -y chromium\``);
  }
  const profile = mkdtempSync(join(tmpdir(), 'tazamun-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.theme === 'light' ? 'light' : 'dark',
  });
  // Playwright's 30 s default is reached on a loaded 2-core machine (seen in a logout navigation); the tests
  // check behaviour, not speed, so only a real hang should time out.
  context.setDefaultTimeout(120_000);
  context.setDefaultNavigationTimeout(120_000);
  const settings: string[] = [];
  if (options.language)
    settings.push(`localStorage.setItem('language', ${JSON.stringify(options.language)});`);
  if (options.theme) settings.push(`localStorage.setItem('theme', ${JSON.stringify(options.theme)});`);
  if (settings.length > 0) {
    // Only before the first document of the origin, so later choices in the page are kept.
    await context.addInitScript(
      `if (!sessionStorage.getItem('__e2e_init')) { ${settings.join(' ')} sessionStorage.setItem('__e2e_init', '1'); }`,
    );
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${err.message}`));
  const networkErrors: string[] = [];
  page.on('requestfailed', (r) =>
    networkErrors.push(`${new Date().toISOString()} ${r.method()} ${r.url()}: ${r.failure()?.errorText}`),
  );
  page.on('response', (r) => {
    if (r.status() >= 500)
      networkErrors.push(`${new Date().toISOString()} ${r.request().method()} ${r.url()}: ${r.status()}`);
  });
  return {
    context,
    page,
    consoleErrors,
    networkErrors,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Waits for `locator`; when it does not come, the error says what the page showed instead (the URL, the
 * text of `shown`), what the browser logged and which requests failed, and the server's last lines.
 */
export async function waitOrExplain(
  b: OpenBrowser,
  server: RunningServer,
  locator: Locator,
  shown: Locator,
  timeout = 120_000,
): Promise<void> {
  try {
    await locator.waitFor({ timeout });
  } catch (err) {
    const texts = await shown.allTextContents().catch((e: unknown) => [`(unreadable: ${String(e)})`]);
    throw new Error(
      [
        `${(err as Error).message.split('\n')[0]}`,
        `page: ${b.page.url()}`,
        `shown instead: ${JSON.stringify(texts)}`,
        `console errors: ${JSON.stringify(b.consoleErrors.slice(-10))}`,
        `failed requests: ${JSON.stringify(b.networkErrors.slice(-10))}`,
        `server log (tail):\n${server.logs().slice(-2000)}`,
      ].join('\n'),
      { cause: err },
    );
  }
}
