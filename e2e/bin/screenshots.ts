// Screenshots of every screen in Arabic/dark and English/light (and a 390 px phone), for looking at
// the layout by eye. Output: e2e/artifacts/screens/ (not committed).
// Run: node --import tsx e2e/bin/screenshots.ts  (after `npm run build -w apps/web`)
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT, admin, openBrowser, startServer } from '../src/harness.ts';

const OUT = join(ROOT, 'e2e/artifacts/screens');
mkdirSync(OUT, { recursive: true });

const PASSWORD = 'quiet-river-2025';
const MEDIA = '/work/shared/demo-media';

async function login(page: Page, url: string, email: string) {
  await page.goto(`${url}/auth`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/\/(dashboard|waitlist)/);
}

async function shot(page: Page, name: string, path: string, url: string, fullPage = true) {
  await page.goto(`${url}${path}`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(350);
  await capture(page, name, fullPage);
}

/** The page as one image, and a long page also in 900 px slices that can be looked at one by one. */
async function capture(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage });
  if (!fullPage) return;
  const { width, height } = await page.evaluate(() => ({
    width: document.documentElement.clientWidth,
    height: document.documentElement.scrollHeight,
  }));
  if (height <= 1200) return;
  for (let k = 0; k * 900 < Math.min(height, 5400); k++)
    await page.screenshot({
      path: join(OUT, `${name}.part${k}.png`),
      fullPage: true,
      clip: { x: 0, y: k * 900, width, height: Math.min(900, height - k * 900) },
    });
}

const server = await startServer();
let resultsPath = '/';
try {
  admin(
    server,
    'create',
    '--email',
    'layla@example.org',
    '--password',
    PASSWORD,
    '--first-name',
    'Layla',
    '--last-name',
    'Haddad',
    '--role',
    'user',
  );
  admin(server, 'promote', 'layla@example.org');
  const reg = await fetch(`${server.url}/api/auth/register/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Omar',
      last_name: 'Benali',
      email: 'omar@example.org',
      password: PASSWORD,
      password_confirm: PASSWORD,
    }),
  });
  if (!reg.ok) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);

  for (const [language, theme] of [
    ['ar', 'dark'],
    ['en', 'light'],
  ] as const) {
    const tag = `${language}-${theme}`;
    const b = await openBrowser({ language, theme });
    const { page } = b;
    for (const [name, path] of [
      ['landing', '/'],
      ['about', '/about'],
      ['privacy', '/privacy'],
      ['terms', '/terms'],
      ['login', '/auth'],
      ['register', '/auth?view=register'],
      ['forgot', '/auth?view=forgot'],
      ['reset', '/auth?view=reset&token=abc'],
      ['not-found', '/no/such/page'],
      ['demos', '/demos'],
    ] as const) {
      await shot(page, `${tag}-${name}`, path, server.url);
    }
    // Register form with live rules and errors.
    await page.goto(`${server.url}/auth?view=register`);
    await page.locator('input[name="password"]').fill('12345');
    await page.locator('form button[type="submit"]').click();
    await page.screenshot({ path: join(OUT, `${tag}-register-errors.png`), fullPage: true });
    // Login failure with attempts remaining.
    await page.goto(`${server.url}/auth`);
    await page.locator('input[name="email"]').fill('layla@example.org');
    await page.locator('input[name="password"]').fill('wrong-password');
    await page.locator('form button[type="submit"]').click();
    await page.getByTestId('login-attempts').waitFor();
    await page.screenshot({ path: join(OUT, `${tag}-login-error.png`), fullPage: true });

    await login(page, server.url, 'layla@example.org');
    // a few lexicon entries in two languages, through the API with the page's session
    await page.evaluate(async () => {
      const token = localStorage.getItem('access_token');
      const entries = [
        { language: 'eng', word: 'tazamun', ipa: 't a z a m u n' },
        { language: 'eng', word: 'bennet', ipa: 'b ɛ n ɪ t' },
        { language: 'eng', word: 'longbourn', ipa: 'l ɒ ŋ b ɔː n' },
        { language: 'ara', word: 'تزامن', ipa: 't a z aː m u n' },
      ];
      for (const e of entries)
        await fetch('/api/lexicon/', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(e),
        });
    });
    for (const [name, path] of [
      ['dashboard', '/dashboard'],
      ['profile-account', '/profile?tab=account'],
      ['profile-security', '/profile?tab=security'],
      ['profile-usage', '/profile?tab=usage'],
      ['profile-preferences', '/profile?tab=preferences'],
      ['profile-sessions', '/profile?tab=sessions'],
      ['profile-data', '/profile?tab=data'],
      ['settings', '/settings'],
      ['landing-signed-in', '/'],
      ['lexicon', '/lexicon?x=1'],
      ['admin-accounts', '/admin/accounts'],
    ] as const) {
      await shot(page, `${tag}-${name}`, path, server.url);
    }
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('button', { name: language === 'ar' ? 'قائمة الحساب' : 'Account menu' }).click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(OUT, `${tag}-user-menu.png`) });
    // Alignment screens: a real upload through the studio, its progress, then the result.
    await shot(page, `${tag}-upload`, '/upload', server.url);
    await page
      .locator('[data-testid="audio-input"]')
      .setInputFiles(join(MEDIA, 'en-librivox-austen/audio.wav'));
    await page.locator('textarea').fill(readFileSync(join(MEDIA, 'en-librivox-austen/text.txt'), 'utf8'));
    await page.locator('input[role="combobox"]').fill('eng');
    await page.locator('input[role="combobox"]').press('Tab');
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(/\/results\//);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(OUT, `${tag}-results-progress.png`), fullPage: true });
    await page
      .getByTestId('alignment-status')
      .filter({ hasText: /Completed|مكتملة/ })
      .waitFor({ timeout: 240_000 });
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(OUT, `${tag}-results.png`), fullPage: true });
    await page.getByRole('tab').nth(1).click();
    await page.screenshot({ path: join(OUT, `${tag}-results-words.png`), fullPage: true });
    await page.getByRole('tab').nth(2).click();
    await page.screenshot({ path: join(OUT, `${tag}-results-metrics.png`), fullPage: true });
    // The correction workspace: tiers under the spectrogram, then a word selected, zoomed, with help.
    await page.goto(`${page.url().split('?')[0]}?mode=correct`);
    await page.locator('[data-boundary="w3-end"]').waitFor();
    await page.waitForTimeout(1500);
    await capture(page, `${tag}-editor`);
    resultsPath = new URL(page.url()).pathname;
    await page.locator('[data-tier="words"] [data-word="3"]').click();
    for (const key of ['+', '+', '+', '?']) await page.keyboard.press(key);
    await page.waitForTimeout(800);
    await capture(page, `${tag}-editor-zoomed`);
    await shot(page, `${tag}-projects`, '/projects', server.url);
    await shot(page, `${tag}-dashboard-after`, '/dashboard', server.url);
    await shot(page, `${tag}-demos-gallery`, '/demos', server.url);
    const firstDemo = page.locator('[data-testid="demo-list"] a').first();
    if (await firstDemo.count()) {
      await firstDemo.click();
      await page.getByTestId('transcript').waitFor();
      await page.waitForTimeout(1500);
      await page.screenshot({ path: join(OUT, `${tag}-demo-player.png`), fullPage: true });
    }
    await b.close();

    const w = await openBrowser({ language, theme });
    await login(w.page, server.url, 'omar@example.org');
    await shot(w.page, `${tag}-waitlist`, '/waitlist', server.url);
    await w.close();

    const m = await openBrowser({ language, theme, width: 390, height: 844 });
    await shot(m.page, `${tag}-mobile-landing`, '/', server.url);
    await shot(m.page, `${tag}-mobile-login`, '/auth', server.url);
    await login(m.page, server.url, 'layla@example.org');
    await shot(m.page, `${tag}-mobile-dashboard`, '/dashboard', server.url);
    await m.page.getByRole('button', { name: language === 'ar' ? 'فتح القائمة' : 'Open menu' }).click();
    await m.page.waitForTimeout(400);
    await m.page.screenshot({ path: join(OUT, `${tag}-mobile-menu.png`) });
    await shot(m.page, `${tag}-mobile-profile`, '/profile', server.url);
    await shot(m.page, `${tag}-mobile-lexicon`, '/lexicon', server.url);
    await shot(m.page, `${tag}-mobile-results`, resultsPath, server.url);
    await m.page.getByRole('tab').nth(1).click();
    await m.page.waitForTimeout(300);
    await capture(m.page, `${tag}-mobile-results-words`);
    await m.page.goto(`${server.url}${resultsPath}?mode=correct`);
    await m.page.locator('[data-boundary="w3-end"]').waitFor();
    await m.page.waitForTimeout(1500);
    await m.page.locator('[data-tier="words"] [data-word="3"]').click();
    await m.page.waitForTimeout(500);
    await capture(m.page, `${tag}-mobile-editor`);
    if (m.consoleErrors.length || b.consoleErrors.length || w.consoleErrors.length) {
      console.log('console errors:', [...b.consoleErrors, ...w.consoleErrors, ...m.consoleErrors]);
    }
    await m.close();
  }
  console.log(`screenshots in ${OUT}`);
} finally {
  await server.stop();
}
