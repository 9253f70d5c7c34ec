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
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage });
}

const server = await startServer();
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
    await page.screenshot({ path: join(OUT, `${tag}-editor.png`), fullPage: true });
    await page.locator('[data-word="3"]').dispatchEvent('click');
    for (const key of ['+', '+', '+', '?']) await page.keyboard.press(key);
    await page.waitForTimeout(800);
    await page.screenshot({ path: join(OUT, `${tag}-editor-zoomed.png`), fullPage: true });
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
    if (m.consoleErrors.length || b.consoleErrors.length || w.consoleErrors.length) {
      console.log('console errors:', [...b.consoleErrors, ...w.consoleErrors, ...m.consoleErrors]);
    }
    await m.close();
  }
  console.log(`screenshots in ${OUT}`);
} finally {
  await server.stop();
}
