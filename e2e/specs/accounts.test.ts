// The accounts screens against the real server and a real browser: registration to the waiting list,
// approval by the admin CLI, the dashboard, logout; the login lockout; a phone-sized viewport.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { admin, openBrowser, startServer } from '../src/harness.ts';
import type { OpenBrowser, RunningServer } from '../src/harness.ts';

const PASSWORD = 'quiet-river-2025';

let server: RunningServer;
before(async () => {
  // No demo seeding: these tests do not use the gallery, and its alignments would compete for the CPU.
  server = await startServer({ DEMO_MEDIA_DIR: '' });
});
after(async () => {
  await server?.stop();
});

/** Console errors, minus the failed-resource lines of requests the test makes fail on purpose. */
function unexpectedErrors(b: OpenBrowser, expectedStatuses: number[] = []): string[] {
  return b.consoleErrors.filter(
    (e) =>
      !expectedStatuses.some((s) => e.includes('Failed to load resource') && e.includes(`status of ${s}`)),
  );
}

function createApprovedUser(email: string) {
  admin(
    server,
    'create',
    '--email',
    email,
    '--password',
    PASSWORD,
    '--first-name',
    'Layla',
    '--last-name',
    'Haddad',
    '--role',
    'user',
  );
}

describe('accounts in the browser', () => {
  test('first visit: Arabic, right-to-left, dark theme; the theme toggle persists light', async () => {
    const b = await openBrowser();
    try {
      const { page } = b;
      await page.goto(server.url);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const html = await page.evaluate(
        '({ dir: document.documentElement.dir, lang: document.documentElement.lang, dark: document.documentElement.classList.contains("dark"), bar: document.querySelector(\'meta[name="theme-color"]\').content, title: document.title })',
      );
      assert.deepEqual(html, {
        dir: 'rtl',
        lang: 'ar',
        dark: true,
        bar: '#0B0E14',
        title: 'محاذاة الصوت والنص للبحث العلمي · تزامن',
      });
      await page.getByRole('button', { name: 'التبديل إلى المظهر الفاتح' }).click();
      assert.equal(await page.evaluate('localStorage.getItem("theme")'), 'light');
      assert.equal(
        await page.evaluate('document.querySelector(\'meta[name="theme-color"]\').content'),
        '#F6F7FB',
      );
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      assert.equal(await page.evaluate('document.documentElement.classList.contains("dark")'), false);
      await page.getByRole('button', { name: 'اللغة' }).click();
      await page.getByRole('menuitemradio', { name: 'English' }).click();
      await page.getByRole('link', { name: 'Log in' }).first().waitFor();
      assert.equal(await page.evaluate('document.documentElement.dir'), 'ltr');
      assert.deepEqual(unexpectedErrors(b), []);
    } finally {
      await b.close();
    }
  });

  test('register → waiting list → approved by the admin CLI → Check status → dashboard → logout', async () => {
    const b = await openBrowser({ language: 'en', theme: 'light' });
    try {
      const { page } = b;
      const email = 'omar.benali@example.org';
      await page.goto(`${server.url}/register`);
      await page.waitForURL(/\/auth\?view=register$/);
      await page.getByLabel('First name').fill('Omar');
      await page.getByLabel('Last name').fill('Benali');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password').fill(PASSWORD);
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Create account' }).click();

      await page.waitForURL(/\/waitlist$/);
      assert.equal(await page.getByTestId('waitlist-status').textContent(), 'Pending approval');
      assert.equal(await page.getByTestId('waitlist-email').textContent(), email);
      // Approval-only pages send a waitlisted user back here.
      await page.goto(`${server.url}/dashboard`);
      await page.waitForURL(/\/waitlist$/);

      await page.getByRole('button', { name: 'Check status' }).click();
      await page.getByText('Your account is still pending approval. Check again later.').waitFor();

      assert.match(admin(server, 'approve', email), /approved|omar/i);
      await page.getByRole('button', { name: 'Check status' }).click();
      await page.getByText('Your account is approved. Taking you to your dashboard…').waitFor();
      await page.waitForURL(/\/dashboard$/);
      await page.getByRole('heading', { name: 'Welcome, Omar' }).waitFor();
      assert.equal(await page.title(), 'Dashboard · Tazamun');

      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Log out' }).click();
      await page.waitForURL(`${server.url}/`);
      await page.getByRole('link', { name: 'Log in' }).first().waitFor();
      assert.equal(await page.evaluate('localStorage.getItem("access_token")'), null);
      assert.equal(await page.evaluate('localStorage.getItem("refresh_token")'), null);
      await page.goto(`${server.url}/profile`);
      await page.waitForURL(/\/auth\?next=%2Fprofile$/);
      assert.deepEqual(unexpectedErrors(b), []);
    } finally {
      await b.close();
    }
  });

  test('wrong passwords count down attempts, then the account is locked', async () => {
    const email = 'locked.user@example.org';
    createApprovedUser(email);
    const b = await openBrowser({ language: 'en' });
    try {
      const { page } = b;
      await page.goto(`${server.url}/auth`);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      for (let remaining = 4; remaining >= 1; remaining--) {
        await page.getByRole('button', { name: 'Log in', exact: true }).click();
        await page.getByText(`Attempts remaining: ${remaining}/5`).waitFor();
      }
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.getByText('Account locked. Try again in 15 minutes.').waitFor();
      assert.equal(
        await page.getByTestId('login-max').textContent(),
        'Maximum number of attempts reached (5).',
      );

      // Even the right password is refused while the lock lasts.
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.getByTestId('login-locked').waitFor();
      assert.match(page.url(), /\/auth$/);
      assert.deepEqual(unexpectedErrors(b, [401, 429]), []);
    } finally {
      await b.close();
    }
  });

  test('a 390 px phone: no horizontal overflow, slide-out menu with the e-mail', async () => {
    const email = 'phone.user@example.org';
    createApprovedUser(email);
    const b = await openBrowser({ width: 390, height: 844 });
    try {
      const { page } = b;
      const overflow = () =>
        page.evaluate('document.documentElement.scrollWidth - window.innerWidth') as Promise<number>;
      await page.goto(server.url);
      await page.getByRole('heading', { level: 1 }).waitFor();
      assert.equal(await overflow(), 0, 'landing overflows horizontally');

      await page.getByRole('button', { name: 'فتح القائمة' }).click();
      await page.getByRole('dialog').getByRole('link', { name: 'تسجيل الدخول' }).click();
      await page.waitForURL(/\/auth$/);
      // Navigation closes the menu.
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.getByLabel('البريد الإلكتروني').fill(email);
      await page.getByLabel('كلمة المرور', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'تسجيل الدخول', exact: true }).click();
      await page.waitForURL(/\/dashboard$/);
      await page.getByRole('heading', { name: 'أهلًا بك، Layla' }).waitFor();
      assert.equal(await overflow(), 0, 'dashboard overflows horizontally');

      await page.getByRole('button', { name: 'فتح القائمة' }).click();
      assert.equal(await page.getByTestId('mobile-user-email').textContent(), email);
      await page.getByRole('dialog').getByRole('link', { name: 'الملف الشخصي' }).click();
      await page.waitForURL(/\/profile$/);
      await page.getByRole('heading', { name: 'الملف الشخصي', level: 1 }).waitFor();
      assert.equal(await overflow(), 0, 'profile overflows horizontally');
      assert.deepEqual(unexpectedErrors(b), []);
    } finally {
      await b.close();
    }
  });
});
