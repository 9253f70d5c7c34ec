/** Seconds as m:ss.mmm (timestamps stay in Western digits: they are read against other tools). */
export function formatClock(seconds: number | null | undefined, millis = false): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  const whole = Math.floor(rest);
  const base = `${m}:${String(whole).padStart(2, '0')}`;
  return millis
    ? `${base}.${String(Math.round((rest - whole) * 1000))
        .padStart(3, '0')
        .slice(0, 3)}`
    : base;
}

/** Index of the word sounding at `time`, or -1. Words are in transcript order with rising times. */
export function wordAt(words: { start: number | null; end: number | null }[], time: number): number {
  let lo = 0;
  let hi = words.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const w = words[mid]!;
    if (w.start === null || w.end === null) {
      // Unaligned words have no time: scan outwards for the nearest aligned neighbour.
      let j = mid;
      while (j <= hi && (words[j]!.start === null || words[j]!.end === null)) j++;
      if (j > hi) {
        hi = mid - 1;
        continue;
      }
      const wj = words[j]!;
      if (time < wj.start!) hi = mid - 1;
      else if (time >= wj.end!) lo = j + 1;
      else return j;
      continue;
    }
    if (time < w.start) hi = mid - 1;
    else if (time >= w.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}
