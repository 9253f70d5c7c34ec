// Levenshtein alignment of two label sequences, with the operations needed to say which reference items
// were recognised.

export interface EditResult {
  distance: number;
  /** for each reference position, whether it was matched exactly */
  refHit: boolean[];
}

export function editAlign<T>(ref: readonly T[], hyp: readonly T[]): EditResult {
  const n = ref.length;
  const m = hyp.length;
  const D = new Uint32Array((n + 1) * (m + 1));
  const W = m + 1;
  for (let i = 0; i <= n; i++) D[i * W] = i;
  for (let j = 0; j <= m; j++) D[j] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const sub = D[(i - 1) * W + j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      D[i * W + j] = Math.min(sub, D[(i - 1) * W + j]! + 1, D[i * W + j - 1]! + 1);
    }
  }
  const refHit = new Array<boolean>(n).fill(false);
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && ref[i - 1] === hyp[j - 1] && D[i * W + j] === D[(i - 1) * W + j - 1]) {
      refHit[i - 1] = true;
      i--;
      j--;
    } else if (i > 0 && j > 0 && D[i * W + j] === D[(i - 1) * W + j - 1]! + 1) {
      i--;
      j--;
    } else if (i > 0 && D[i * W + j] === D[(i - 1) * W + j]! + 1) {
      i--;
    } else {
      j--;
    }
  }
  return { distance: D[n * W + m]!, refHit };
}
