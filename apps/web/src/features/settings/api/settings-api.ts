import type { z } from 'zod';
import { FeedbackRequest, PreferencesUpdate } from '@tazamun/contracts/auth';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { PROFILE_QUERY_KEY } from '../../../lib/api/get-user.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';

export function saveAppearance(body: z.infer<typeof PreferencesUpdate>) {
  return api('/api/auth/preferences/', { method: 'PATCH', body: PreferencesUpdate.parse(body) });
}

export function sendFeedback(body: z.infer<typeof FeedbackRequest>) {
  return api('/api/feedback/', { method: 'POST', body: FeedbackRequest.parse(body) });
}

/** The account keeps the choice: the profile (which carries the preferences) is read again. */
export function useSaveAppearance(config?: MutationConfig<unknown, z.infer<typeof PreferencesUpdate>>) {
  return useRefreshingMutation(
    saveAppearance,
    (queryClient: QueryClient) => void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
    config,
  );
}

export function useSendFeedback(config?: MutationConfig<unknown, z.infer<typeof FeedbackRequest>>) {
  return useRefreshingMutation(sendFeedback, null, config);
}
