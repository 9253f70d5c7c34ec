// Rows become the contract's User shape here and nowhere else.
import type { AdminUser, Quota, User } from '@tazamun/contracts/auth';
import { nextUtcMidnight, utcDay } from '../clock.ts';
import type { AppDeps } from '../context.ts';
import { getPreferences } from '../db/preferences.ts';
import type { UserRow } from '../db/schema.ts';

export function presentQuota(row: UserRow, now: Date): Quota {
  const used = row.quota_day === utcDay(now) ? row.used_today : 0;
  return {
    daily_limit: row.daily_limit,
    used_today: used,
    remaining: Math.max(0, row.daily_limit - used),
    resets_at: nextUtcMidnight(now).toISOString(),
  };
}

export function avatarUrl(row: UserRow): string | null {
  return row.avatar_file ? `/api/auth/avatar/${row.id}/${row.avatar_file}` : null;
}

export async function presentUser(deps: AppDeps, row: UserRow): Promise<User> {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    name: `${row.first_name} ${row.last_name}`.trim(),
    avatar: avatarUrl(row),
    is_approved: row.status === 'approved',
    role: row.role,
    preferred_language: row.preferred_language,
    date_joined: row.created_at,
    quota: presentQuota(row, deps.clock.now()),
    preferences: await getPreferences(deps.db, row.id),
  };
}

export async function presentAdminUser(deps: AppDeps, row: UserRow): Promise<AdminUser> {
  return { ...(await presentUser(deps, row)), status: row.status, last_login_at: row.last_login_at };
}
