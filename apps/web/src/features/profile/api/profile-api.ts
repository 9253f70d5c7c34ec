import { z } from 'zod';
import type { ChangePasswordRequest, DeleteAccountRequest } from '@tazamun/contracts/auth';
import { PreferencesUpdate, ProfileUpdate, RevokedCount, User } from '@tazamun/contracts/auth';
import type { User as UserT } from '@tazamun/contracts/auth';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { PROFILE_QUERY_KEY } from '../../../lib/api/get-user.ts';
import { useRefreshingMutation } from '../../../lib/react-query.ts';
import type { MutationConfig } from '../../../lib/react-query.ts';
import { SESSIONS_KEY } from './get-sessions.ts';

const UserResponse = z.union([User, z.object({ user: User }).transform((r) => r.user)]);

export function updateProfile(body: z.infer<typeof ProfileUpdate>) {
  return api('/api/auth/profile/', {
    method: 'PATCH',
    body: ProfileUpdate.parse(body),
    schema: UserResponse,
  });
}

export function changePassword(body: z.infer<typeof ChangePasswordRequest>) {
  return api('/api/auth/change-password/', { method: 'POST', body });
}

export function updatePreferences(body: z.infer<typeof PreferencesUpdate>) {
  return api('/api/auth/preferences/', { method: 'PATCH', body: PreferencesUpdate.parse(body) });
}

export function uploadAvatar(file: File) {
  const form = new FormData();
  form.append('avatar', file);
  return api('/api/auth/avatar/', { method: 'POST', body: form });
}

export function removeAvatar() {
  return api('/api/auth/avatar/', { method: 'DELETE' });
}

export function revokeSession(id: string) {
  return api(`/api/auth/sessions/${encodeURIComponent(id)}/`, { method: 'DELETE' });
}

export function revokeOtherSessions() {
  return api('/api/auth/sessions/revoke-others/', { method: 'POST', schema: RevokedCount });
}

export function deleteAccount(body: z.infer<typeof DeleteAccountRequest>) {
  return api('/api/auth/account/', { method: 'DELETE', body });
}

export function downloadExport(): Promise<Blob> {
  return api<Blob>('/api/auth/export/', { responseType: 'blob' });
}

const refreshProfile = (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
const refreshSessions = (queryClient: QueryClient) =>
  void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });

/** The profile's answer is the new profile: it replaces the cached one. */
export function useUpdateProfile(config?: MutationConfig<UserT, z.infer<typeof ProfileUpdate>>) {
  return useRefreshingMutation(
    updateProfile,
    (queryClient, updated) => queryClient.setQueryData(PROFILE_QUERY_KEY, updated),
    config,
  );
}

export function useChangePassword(config?: MutationConfig<unknown, z.infer<typeof ChangePasswordRequest>>) {
  return useRefreshingMutation(changePassword, null, config);
}

export function useUpdatePreferences(config?: MutationConfig<unknown, z.infer<typeof PreferencesUpdate>>) {
  return useRefreshingMutation(updatePreferences, refreshProfile, config);
}

/** A new picture or none: the profile (and its avatar URL) is read again. */
export function useUploadAvatar(config?: MutationConfig<unknown, File>) {
  return useRefreshingMutation(uploadAvatar, refreshProfile, config);
}

export function useRemoveAvatar(config?: MutationConfig<unknown>) {
  return useRefreshingMutation(removeAvatar, refreshProfile, config);
}

export function useRevokeSession(config?: MutationConfig<unknown, string>) {
  return useRefreshingMutation(revokeSession, refreshSessions, config);
}

export function useRevokeOtherSessions(config?: MutationConfig<z.infer<typeof RevokedCount>>) {
  return useRefreshingMutation(revokeOtherSessions, refreshSessions, config);
}

/** Signing out follows (the caller's onSuccess): nothing of this account is read again. */
export function useDeleteAccount(config?: MutationConfig<unknown, z.infer<typeof DeleteAccountRequest>>) {
  return useRefreshingMutation(deleteAccount, null, config);
}

export function useDownloadExport(config?: MutationConfig<Blob>) {
  return useRefreshingMutation(downloadExport, null, config);
}
