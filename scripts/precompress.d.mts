/** Compresses every text asset under `dir`; returns the bytes before and after (brotli) for a report. */
export function precompress(dir: string): Promise<{ files: number; before: number; after: number }>;
