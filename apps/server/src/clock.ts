// Time comes from one injectable source so lockouts, token expiry and the daily quota reset can be
// tested by moving a clock instead of sleeping.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private t: number;
  constructor(start: Date | string = '2026-03-01T10:00:00.000Z') {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(at: Date | string): void {
    this.t = new Date(at).getTime();
  }
}

export const iso = (d: Date): string => d.toISOString();
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** Midnight UTC after `d`, when the daily quota starts over. */
export function nextUtcMidnight(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
}
