import { beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from './format.ts';
import { changeLanguage, initI18n } from './i18n.ts';

describe('formatBytes', () => {
  beforeAll(async () => {
    await initI18n('en');
  });

  it('says a small file in kilobytes or bytes, never "0 MB"', async () => {
    await changeLanguage('en');
    expect(formatBytes(31 * 1024)).toBe('31 kB');
    expect(formatBytes(148_059)).toBe('145 kB');
    expect(formatBytes(700)).toBe('700 byte');
    expect(formatBytes(0)).toBe('0 byte');
  });

  it('keeps megabytes with one decimal from about 1 MB', async () => {
    await changeLanguage('en');
    expect(formatBytes(1024 * 1024)).toBe('1 MB');
    expect(formatBytes(0.97 * 1024 * 1024)).toBe('1 MB');
    expect(formatBytes(14.26 * 1024 * 1024)).toBe('14.3 MB');
  });

  it('writes the unit and digits of the interface language', async () => {
    await changeLanguage('fr');
    expect(formatBytes(31 * 1024)).toMatch(/^31\sko$/);
    await changeLanguage('ar');
    expect(formatBytes(31 * 1024)).toMatch(/^٣١\s/);
  });
});
