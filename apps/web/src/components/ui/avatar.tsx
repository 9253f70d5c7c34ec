import { useState } from 'react';
import type { User } from '@tazamun/contracts/auth';
import { initialsOf } from '../../lib/auth.ts';

/** The user's picture, or their initials when there is none or it fails to load. */
export function Avatar({ user, size = 32 }: { user: User; size?: number }) {
  const [failed, setFailed] = useState(false);
  if (user.avatar && !failed) {
    return (
      <img
        src={user.avatar}
        alt=""
        width={size}
        height={size}
        className="shrink-0 rounded-full object-cover"
        style={{ width: size, height: size }}
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <span
      aria-hidden
      className="inline-flex shrink-0 items-center justify-center rounded-full bg-accent-soft font-semibold text-accent"
      style={{ width: size, height: size, fontSize: size * 0.4 }}
    >
      {initialsOf(user)}
    </span>
  );
}
