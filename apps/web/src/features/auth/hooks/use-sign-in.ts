import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { Tokens, User } from '@tazamun/contracts/auth';
import { PROFILE_QUERY_KEY } from '../../../lib/api/get-user.ts';
import { setTokens } from '../../../lib/token-storage.ts';

/** Stores a new session and goes on: waiting list when not approved, else where the person was heading. */
export function useSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (tokens: Tokens, user: User, rememberMe: boolean, waitlisted = false) => {
    queryClient.setQueryData(PROFILE_QUERY_KEY, user);
    setTokens(tokens, rememberMe);
    const next = params.get('next');
    const safeNext = next && next.startsWith('/') && !next.startsWith('//') ? next : '/dashboard';
    void navigate(waitlisted || !user.is_approved ? '/waitlist' : safeNext, { replace: true });
  };
}
