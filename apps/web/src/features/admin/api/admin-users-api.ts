import { z } from 'zod';
import { AdminUser } from '@tazamun/contracts/auth';
import { api } from '../../../lib/api-client.ts';

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
