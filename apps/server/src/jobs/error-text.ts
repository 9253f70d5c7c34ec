// Turns whatever was thrown into words and a stack. WASM and some libraries throw plain objects or
// strings; `String(obj)` gave users "engine: [object Object]" (issue 11).

const MAX_REASON = 300;

export function errorText(err: unknown): { message: string; stack: string | null } {
  if (err instanceof Error) {
    const message = err.message || err.name || 'unknown error';
    return { message, stack: err.stack ?? null };
  }
  if (typeof err === 'string') return { message: err || 'unknown error', stack: null };
  if (err && typeof err === 'object') {
    const o = err as { message?: unknown; error?: unknown; code?: unknown };
    if (typeof o.message === 'string' && o.message) return { message: o.message, stack: null };
    if (typeof o.error === 'string' && o.error) return { message: o.error, stack: null };
    try {
      const json = JSON.stringify(err);
      if (json && json !== '{}') return { message: json, stack: null };
    } catch {
      // a cycle: fall through to the constructor's name
    }
    return { message: `${(err as object).constructor?.name ?? 'object'} thrown`, stack: null };
  }
  return { message: String(err), stack: null };
}

/** One line of the cause, short enough for the job's error message. */
export function reasonOf(message: string): string {
  const line = message.split('\n')[0]!.trim() || 'unknown error';
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON - 1)}…` : line;
}
