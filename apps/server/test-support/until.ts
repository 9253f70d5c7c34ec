// How a test waits for what another thread, process or server does: poll until the check gives a
// value. One deadline for every wait, which only turns a hang into a failure that says what never
// happened; it is never what a test measures (speed belongs in `npm run bench`). It is generous (a
// database restart under several processes on a busy two-core machine fits in it): a test's own
// `timeout` is the tighter bound where one is set.

/** Every wait's limit. */
export const DEADLINE_MS = 480_000;
const EVERY_MS = 100;

/**
 * Resolves with the first value of `check` that is not undefined, null or false. `what` names the
 * awaited event in the failure (a function, to include what was last seen).
 */
export async function until<T>(
  what: string | (() => string),
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
): Promise<T> {
  const giveUp = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > giveUp)
      throw new Error(
        `gave up after ${DEADLINE_MS / 1000} s waiting for ${typeof what === 'string' ? what : what()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
}
