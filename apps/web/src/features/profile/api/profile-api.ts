import { z } from 'zod';
import type { ChangePasswordRequest, DeleteAccountRequest } from '@tazamun/contracts/auth';
import { PreferencesUpdate, ProfileUpdate, RevokedCount, User } from '@tazamun/contracts/auth';
import { api } from '../../../lib/api-client.ts';

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
