import { queryOptions, useQuery } from '@tanstack/react-query';
import { AdminUserList } from '@tazamun/contracts/auth';
import type { ApprovalStatus } from '@tazamun/contracts/auth';
import { api } from '../../../lib/api-client.ts';

/** Every list of accounts (pending, approved, rejected) sits under this key. */
export const ADMIN_USERS_KEY = ['admin-users'] as const;

export const adminUsersQueryKey = (status: ApprovalStatus) => [...ADMIN_USERS_KEY, status] as const;

export function getAdminUsers(status: ApprovalStatus, signal?: AbortSignal) {
  return api(`/api/admin/users/?status=${status}`, { schema: AdminUserList, signal });
}

export const adminUsersQueryOptions = (status: ApprovalStatus) =>
  queryOptions({
    queryKey: adminUsersQueryKey(status),
    queryFn: ({ signal }) => getAdminUsers(status, signal),
  });

export function useAdminUsers(status: ApprovalStatus, enabled: boolean) {
  return useQuery({ ...adminUsersQueryOptions(status), enabled });
}
