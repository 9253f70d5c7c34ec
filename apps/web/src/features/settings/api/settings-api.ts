import type { z } from 'zod';
import { FeedbackRequest, PreferencesUpdate } from '@tazamun/contracts/auth';
import { api } from '../../../lib/api-client.ts';

export function saveAppearance(body: z.infer<typeof PreferencesUpdate>) {
  return api('/api/auth/preferences/', { method: 'PATCH', body: PreferencesUpdate.parse(body) });
}

export function sendFeedback(body: z.infer<typeof FeedbackRequest>) {
  return api('/api/feedback/', { method: 'POST', body: FeedbackRequest.parse(body) });
}
