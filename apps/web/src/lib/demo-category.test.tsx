import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { useCategoryLabel } from './demo-category.ts';
import { changeLanguage, initI18n } from './i18n.ts';
import { formatSeconds, formatSecondsRange } from './format.ts';

describe('words of the demo and workspace pages in the interface language', () => {
  it('names the project’s demo categories in Arabic and leaves an administrator’s own as written', async () => {
    await initI18n('ar');
    await changeLanguage('ar');
    const { result } = renderHook(() => useCategoryLabel());
    expect(result.current('audiobook')).toBe('كتاب مسموع');
    expect(result.current('Synthetic speech')).toBe('كلام مُركَّب');
    expect(result.current('Field recordings')).toBe('Field recordings');
  });

  it('writes durations and ranges with the page’s digits and unit', async () => {
    await changeLanguage('ar');
    expect(formatSeconds(0.487)).toBe('٠٫٤٨٧ ث');
    expect(formatSecondsRange(0.99, 1.3)).toBe('٠٫٩٩٠–١٫٣٠٠ ث');
    await changeLanguage('fr');
    expect(formatSeconds(0.487)).toBe('0,487 s');
    await changeLanguage('en');
    expect(formatSecondsRange(0.99, 1.3)).toBe('0.990–1.300 s');
  });
});
