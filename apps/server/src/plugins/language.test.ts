import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage } from '@tazamun/contracts/errors';
import { approvedUser, bearer, createTestApp } from '@tazamun/server/testing/test-app';
import { negotiateLanguage } from './language.ts';

test('?lang= wins, then Accept-Language by weight, then English', () => {
  assert.equal(negotiateLanguage({ lang: 'AR' }, 'fr'), 'ar');
  assert.equal(negotiateLanguage({ lang: 'de' }, 'fr-CA,fr;q=0.9'), 'fr');
  assert.equal(negotiateLanguage({}, 'de-DE,de;q=0.9,ar;q=0.8,fr;q=0.7'), 'ar');
  assert.equal(negotiateLanguage({}, 'fr;q=0.5, en;q=0.9'), 'en');
  assert.equal(negotiateLanguage({}, 'ar;q=0, fr;q=0.1'), 'fr');
  assert.equal(negotiateLanguage(undefined, 'de, ja'), 'en');
  assert.equal(negotiateLanguage(undefined, undefined), 'en');
});

test('?lang= is honoured on routes whose query schema does not name it', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const missing = '00000000-0000-4000-8000-000000000000';
  // a route with a query schema (RevisionQuery) that drops unknown keys, and one without any
  for (const url of [`/api/alignments/${missing}/?lang=fr`, `/api/alignments/${missing}/progress/?lang=fr`]) {
    const res = await app.inject({ url, headers: { ...bearer(u.access), 'accept-language': 'ar' } });
    assert.equal(res.statusCode, 404, url);
    assert.equal(res.json().detail, errorMessage('not_found', 'fr'), url);
  }
  // the list's schema names other keys: a bad page is refused in the language asked for
  const bad = await app.inject({ url: '/api/alignments/?page=0&lang=ar', headers: bearer(u.access) });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().detail, errorMessage('validation_error', 'ar'));
  // without ?lang=, Accept-Language still decides
  const fr = await app.inject({
    url: `/api/alignments/${missing}/`,
    headers: { ...bearer(u.access), 'accept-language': 'fr-FR' },
  });
  assert.equal(fr.json().detail, errorMessage('not_found', 'fr'));
});
