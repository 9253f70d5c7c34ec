import { z } from 'zod';
import { AdminUser } from '@tazamun/contracts/auth';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';
import { ADMIN_USERS_KEY } from './get-admin-users.ts';

const UserAnswer = z.object({ user: AdminUser });

export function approveUser(id: string) {
  return api(`/api/admin/users/${encodeURIComponent(id)}/approve/`, { method: 'POST', schema: UserAnswer });
}

export function rejectUser(id: string) {
  return api(`/api/admin/users/${encodeURIComponent(id)}/reject/`, { method: 'POST', schema: UserAnswer });
}

export function setDailyLimit(id: string, dailyLimit: number) {
  return api(`/api/admin/users/${encodeURIComponent(id)}/quota/`, {
    method: 'PATCH',
    body: { daily_limit: dailyLimit },
    schema: UserAnswer,
  });
}

type UserAnswer = z.infer<typeof UserAnswer>;

const refreshUsers = (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });

export function useApproveUser(config?: MutationConfig<UserAnswer, string>) {
  return useRefreshingMutation(approveUser, refreshUsers, config);
}

export function useRejectUser(config?: MutationConfig<UserAnswer, string>) {
  return useRefreshingMutation(rejectUser, refreshUsers, config);
}

export function useSetDailyLimit(id: string, config?: MutationConfig<UserAnswer, number>) {
  return useRefreshingMutation((limit: number) => setDailyLimit(id, limit), refreshUsers, config);
}
