import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import type { UiLanguage } from '@tazamun/contracts/limits';
import { App, createQueryClient } from '../app/app.tsx';
import { routes } from '../app/routes.tsx';
import { setApiBaseUrl } from '../lib/api-client.ts';
import { changeLanguage, i18n, initI18n } from '../lib/i18n.ts';

/** Renders the real route table in a memory router against the given API base URL. */
export async function renderApp(
  path: string,
  options: { apiUrl: string; language?: UiLanguage; storeLanguage?: boolean },
) {
  await initI18n(options.language ?? 'ar');
  // storeLanguage: false shows the language without making it this browser's stored choice.
  if (options.storeLanguage === false) await i18n.changeLanguage(options.language ?? 'ar');
  else await changeLanguage(options.language ?? 'ar');
  setApiBaseUrl(options.apiUrl);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  const view = render(<App router={router} queryClient={queryClient} />);
  return { router, queryClient, ...view };
}
