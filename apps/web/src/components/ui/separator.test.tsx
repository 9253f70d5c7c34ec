import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { Facts } from './separator.tsx';
import { changeLanguage, initI18n } from '../../lib/i18n.ts';

describe('a line of facts', () => {
  it('puts the locale’s separator between the parts present only, the Arabic comma in Arabic', async () => {
    await initI18n('en');
    await changeLanguage('en');
    const missing: number | null = null;
    const line = (
      <Facts>
        {'English'}
        {missing !== null && 'never shown'}
        <>
          <b>a.wav</b> (1 MB)
        </>
        {'48s'}
      </Facts>
    );
    expect(render(line).container.textContent).toBe('English · a.wav (1 MB) · 48s');
    await changeLanguage('ar');
    expect(render(line).container.textContent).toBe('English، a.wav (1 MB)، 48s');
  });
});
