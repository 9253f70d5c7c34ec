// The engine's Viterbi search in C (Node-API): search/viterbi.ts's search under its default rules, step for
// step, over the same network arrays (search/network.ts) and the same senone costs (scoring/senones.ts,
// SenoneCosts.at), so that it returns the path the JavaScript returns, to the bit: the scores are doubles
// added in the same order, the senone costs integers, the ties broken the same way (the active HMMs, the
// touched slots and the pending entries are kept in the same lists in the same order). The JavaScript stays
// as the reference and the fallback (search.test.ts compares the two on real windows); pocketsphinx's rules
// (TAZAMUN_EMULATE=pocketsphinx) are searched by the JavaScript only.
//
// Every index read from the network and the costs is checked against its array once, before the search, so
// a wrong argument is a TypeError and never a read outside an array. The search allocates its state per
// call and frees it before returning; it never calls back into JavaScript.
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "napi-util.h"

#define TOP_N 4
#define LOGADD_LEN 1024

typedef struct {
  int32_t *prev, *hmm, *start;
  size_t n, cap;
} Records;

typedef struct {
  /* the network */
  int H, S;
  const int32_t *sen, *tmatOf, *exitFirst, *exitList, *nextFirst, *nextList;
  const int32_t *enterFirst, *enterList, *nullFirst, *nullSlot;
  const double *entryCost, *nullCost, *trans;
  const uint8_t *slotFinal;
  int startSlot;
  /* the senone costs (SenoneCosts.at) */
  int nSen;
  const int32_t *senModel, *cb, *logadd;
  const uint8_t *mixw, *cw, *dens;
  int nStreams, nDens;
  size_t perFrame, streamStride;
  /* the search in progress */
  double *score, *exitScore, *pendScore, *slotScore;
  int32_t *hist, *exitHist, *active, *nextActive, *activeStamp;
  int32_t *pendPrev, *pendStamp, *pendList, *slotHist, *slotStamp, *touched, *heap;
  int32_t *frameCost, *costStamp;
  int nActive, nNext, nPend, nTouched, heapN, heapFrom;
  double entryFloor;
  Records rec;
  int oom;
  /* a top-N density index out of range was read (a wrong argument: the search fails) */
  int badIndex;
} Search;

static int recAdd(Search *s, int32_t prev, int32_t hmm, int32_t start) {
  Records *r = &s->rec;
  if (r->n == r->cap) {
    const size_t cap = r->cap ? r->cap * 2 : 4096;
    int32_t *p = realloc(r->prev, cap * sizeof *p);
    if (p) r->prev = p;
    int32_t *h = p ? realloc(r->hmm, cap * sizeof *h) : NULL;
    if (h) r->hmm = h;
    int32_t *st = h ? realloc(r->start, cap * sizeof *st) : NULL;
    if (st) r->start = st;
    if (!st) {
      s->oom = 1;
      return -1;
    }
    r->cap = cap;
  }
  r->prev[r->n] = prev, r->hmm[r->n] = hmm, r->start[r->n] = start;
  return (int)r->n++;
}

/* addNear in senones.ts: -log(e^-a + e^-b) in units, for costs less than 1024 units apart, without a branch */
static inline int32_t addNear(const int32_t *logadd, int32_t a, int32_t b) {
  const int32_t d = a - b;
  const int32_t m = d >> 31;
  return b + (d & m) - logadd[((d ^ m) - m) & (LOGADD_LEN - 1)];
}

/*
 * Frame t's costs of the active HMMs' senones (SenoneCosts.at: per stream, the senone's four best densities
 * log-added, summed over streams), each computed once; returns the lowest. The tables are read through
 * local restrict pointers, so that the stores into costStamp and frameCost need not reload them. Its time
 * is mostly the wait for the senones' mixture weights (a row of 128 bytes each, about 0.7 MB in all on the
 * English model) and for the log-add table.
 */
static int32_t frameCosts(Search *s, int32_t t) {
  const int32_t *restrict active = s->active, *restrict sen = s->sen, *restrict cbOf = s->cb;
  const int32_t *restrict senModel = s->senModel, *restrict logadd = s->logadd;
  const uint8_t *restrict mixw = s->mixw, *restrict cwAll = s->cw, *restrict densAll = s->dens;
  int32_t *restrict costStamp = s->costStamp, *restrict frameCost = s->frameCost;
  const int nActive = s->nActive, nStreams = s->nStreams;
  const size_t nDens = (size_t)s->nDens, stride = s->streamStride, frame = (size_t)t * s->perFrame;
  int32_t best = 1 << 30;
  int bad = 0;
  for (int i = 0; i < nActive; i++) {
    const int32_t *sn = sen + (size_t)active[i] * 3;
    for (int j = 0; j < 3; j++) {
      const int32_t k = sn[j];
      if (costStamp[k] == t) continue;
      costStamp[k] = t;
      size_t o = frame + (size_t)cbOf[k] * TOP_N;
      const uint8_t *mw = mixw + (size_t)senModel[k] * nStreams * nDens;
      int32_t total = 0;
      for (int f = 0; f < nStreams; f++, o += stride, mw += nDens) {
        const uint8_t *cw = cwAll + o, *dn = densAll + o;
        size_t c0 = cw[0], c1 = cw[1], c2 = cw[2], c3 = cw[3];
        /* a density index past the senone's weights (never from the kernel) is flagged and read as 0 */
        const int out = (c0 >= nDens) | (c1 >= nDens) | (c2 >= nDens) | (c3 >= nDens);
        bad |= out;
        if (out) c0 = c1 = c2 = c3 = 0;
        int32_t fden = mw[c0] + dn[0];
        fden = addNear(logadd, fden, mw[c1] + dn[1]);
        fden = addNear(logadd, fden, mw[c2] + dn[2]);
        fden = addNear(logadd, fden, mw[c3] + dn[3]);
        total += fden;
      }
      frameCost[k] = total;
      if (total < best) best = total;
    }
  }
  s->badIndex |= bad;
  return best;
}

/* Emits frame t and moves inside every active HMM (3-state left-to-right); returns the frame's best score. */
static double emitAndMove(Search *s) {
  const int32_t *restrict active = s->active, *restrict sen = s->sen, *restrict tmatOf = s->tmatOf;
  const int32_t *restrict frameCost = s->frameCost;
  const double *restrict trans = s->trans;
  double *restrict score = s->score, *restrict exitScore = s->exitScore;
  int32_t *restrict hist = s->hist, *restrict exitHist = s->exitHist;
  const int nActive = s->nActive;
  double best = -INFINITY;
  for (int i = 0; i < nActive; i++) {
    const int32_t h = active[i];
    const size_t b3 = (size_t)h * 3;
    double *sc = score + b3;
    int32_t *hi = hist + b3;
    const int32_t *sn = sen + b3;
    const double e0 = sc[0] - frameCost[sn[0]];
    const double e1 = sc[1] - frameCost[sn[1]];
    const double e2 = sc[2] - frameCost[sn[2]];
    const int32_t h0 = hi[0], h1 = hi[1], h2 = hi[2];
    const double *tr = trans + (size_t)tmatOf[h] * 8;
    /* exit (non-emitting state 3) */
    const double x2 = e2 + tr[7];
    const double x1 = e1 + tr[6];
    double xs;
    if (x2 >= x1) {
      xs = x2;
      exitHist[h] = h2;
    } else {
      xs = x1;
      exitHist[h] = h1;
    }
    exitScore[h] = xs;
    /* state 2 */
    double n2 = e2 + tr[5];
    int32_t g2 = h2;
    const double a12 = e1 + tr[4];
    if (a12 > n2) n2 = a12, g2 = h1;
    const double a02 = e0 + tr[2];
    if (a02 > n2) n2 = a02, g2 = h0;
    /* state 1 */
    double n1 = e1 + tr[3];
    int32_t g1 = h1;
    const double a01 = e0 + tr[1];
    if (a01 > n1) n1 = a01, g1 = h0;
    const double n0 = e0 + tr[0];
    sc[0] = n0, sc[1] = n1, sc[2] = n2;
    hi[1] = g1, hi[2] = g2;
    double hb = n0 > n1 ? n0 : n1;
    if (n2 > hb) hb = n2;
    if (xs > hb) hb = xs;
    if (hb > best) best = hb;
  }
  return best;
}

static inline void pushNext(Search *s, int32_t h, int32_t t) {
  if (s->activeStamp[h] == t) return;
  s->activeStamp[h] = t;
  s->nextActive[s->nNext++] = h; /* at most H: an HMM is listed once per frame */
}

static inline void propose(Search *s, int32_t h, double v, int32_t prevRec, int32_t t) {
  if (v < s->entryFloor) return;
  if (s->pendStamp[h] != t) {
    s->pendStamp[h] = t;
    s->pendScore[h] = -INFINITY;
    s->pendList[s->nPend++] = h;
  }
  if (v > s->pendScore[h]) {
    s->pendScore[h] = v;
    s->pendPrev[h] = prevRec;
  }
}

static inline void touch(Search *s, int32_t slot, double v, int32_t hRec, int32_t t) {
  if (s->slotStamp[slot] != t) {
    s->slotStamp[slot] = t;
    s->slotScore[slot] = -INFINITY;
    s->touched[s->nTouched++] = slot;
  }
  if (v > s->slotScore[slot]) {
    s->slotScore[slot] = v;
    s->slotHist[slot] = hRec;
  }
}

static void heapPush(Search *s, int32_t v) {
  int i = s->heapN++;
  while (i > 0) {
    const int p = (i - 1) >> 1;
    if (s->heap[p] <= v) break;
    s->heap[i] = s->heap[p];
    i = p;
  }
  s->heap[i] = v;
}

static int32_t heapPop(Search *s) {
  const int32_t top = s->heap[0];
  const int32_t last = s->heap[--s->heapN];
  int i = 0;
  for (;;) {
    const int l = 2 * i + 1;
    if (l >= s->heapN) break;
    const int r = l + 1;
    const int c = r < s->heapN && s->heap[r] < s->heap[l] ? r : l;
    if (s->heap[c] >= last) break;
    s->heap[i] = s->heap[c];
    i = c;
  }
  s->heap[i] = last;
  return top;
}

/* Empty transitions and entries from the slots touched in frame t, in slot order (topological). */
static void leaveSlots(Search *s, int32_t t, double threshold) {
  s->heapN = 0;
  for (int i = 0; i < s->nTouched; i++) heapPush(s, s->touched[i]);
  s->heapFrom = s->nTouched;
  while (s->heapN > 0) {
    const int32_t slot = heapPop(s);
    const double v = s->slotScore[slot];
    if (v < threshold) continue;
    for (int32_t q = s->nullFirst[slot], q1 = s->nullFirst[slot + 1]; q < q1; q++) {
      touch(s, s->nullSlot[q], v - s->nullCost[q], s->slotHist[slot], t);
      if (s->nTouched > s->heapFrom) {
        heapPush(s, s->touched[s->heapFrom]);
        s->heapFrom = s->nTouched;
      }
    }
    for (int32_t q = s->enterFirst[slot], q1 = s->enterFirst[slot + 1]; q < q1; q++) {
      const int32_t h = s->enterList[q];
      propose(s, h, v - s->entryCost[h], s->slotHist[slot], t);
    }
  }
}

static void applyPending(Search *s, int32_t t) {
  for (int i = 0; i < s->nPend; i++) {
    const int32_t h = s->pendList[i];
    const double v = s->pendScore[h];
    if (v > s->score[h * 3]) {
      s->score[h * 3] = v;
      s->hist[h * 3] = recAdd(s, s->pendPrev[h], h, t + 1);
    }
    pushNext(s, h, t + 1);
  }
  s->nPend = 0;
}

static void swapActive(Search *s) {
  int32_t *a = s->active;
  s->active = s->nextActive;
  s->nextActive = a;
  s->nActive = s->nNext;
  s->nNext = 0;
}

/*
 * The search proper (viterbi.ts, search() without `sphinx`). Returns 1 with a path (bestFinalHist,
 * bestFinal, lastExit), 0 with none, -1 out of memory, -2 when a top-N density index was out of range.
 */
static int run(Search *s, int nFrames, double beam, double pbeam, double wbeam, int32_t *bestActive,
               int32_t *outHist, double *outScore, int32_t *outLast) {
  const double NEG = -INFINITY;
  s->nTouched = 0;
  touch(s, s->startSlot, 0, -1, -1);
  leaveSlots(s, -1, NEG);
  applyPending(s, -1);
  if (s->oom) return -1;
  swapActive(s);

  double bestFinal = NEG;
  int32_t bestFinalHist = -1;
  int32_t lastExit = -1;
  for (int32_t t = 0; t < nFrames; t++) {
    /* 0. the costs of the active HMMs' senones at frame t; 1. emit it and move inside every active HMM */
    bestActive[t] = frameCosts(s, t);
    if (s->badIndex) return -2;
    const double best = emitAndMove(s);
    if (best == NEG) return 0;
    const double thr = best - beam, pthr = best - pbeam, wthr = best - wbeam;
    s->entryFloor = thr;
    /* 2. exits: to the next phone of the word, or from a word's last phone to its slot */
    s->nTouched = 0;
    for (int i = 0; i < s->nActive; i++) {
      const int32_t h = s->active[i];
      const double x = s->exitScore[h];
      const int32_t e0 = s->exitFirst[h], e1 = s->exitFirst[h + 1];
      if (e1 > e0) {
        if (x >= wthr)
          for (int32_t e = e0; e < e1; e++) touch(s, s->exitList[e], x, s->exitHist[h], t);
      } else if (x >= pthr) {
        for (int32_t q = s->nextFirst[h], q1 = s->nextFirst[h + 1]; q < q1; q++) {
          const int32_t n = s->nextList[q];
          propose(s, n, x - s->entryCost[n], s->exitHist[h], t);
        }
      }
    }
    /* 3. slots: empty transitions, entries, and the best accepting one at the latest frame with a word exit */
    leaveSlots(s, t, wthr);
    if (s->nTouched > 0) {
      lastExit = t;
      bestFinal = NEG;
      bestFinalHist = -1;
      for (int i = 0; i < s->nTouched; i++) {
        const int32_t slot = s->touched[i];
        if (s->slotFinal[slot] && s->slotScore[slot] > bestFinal) {
          bestFinal = s->slotScore[slot];
          bestFinalHist = s->slotHist[slot];
        }
      }
    }
    /* 4. prune, then add the entered HMMs */
    s->nNext = 0;
    for (int i = 0; i < s->nActive; i++) {
      const int32_t h = s->active[i];
      double *sc = s->score + (size_t)h * 3;
      if (sc[0] >= thr || sc[1] >= thr || sc[2] >= thr) pushNext(s, h, t + 1);
      else {
        sc[0] = sc[1] = sc[2] = NEG;
        s->activeStamp[h] = -2;
      }
    }
    applyPending(s, t);
    if (s->oom) return -1;
    swapActive(s);
  }
  if (bestFinalHist < 0 && bestFinal == NEG) return 0;
  *outHist = bestFinalHist;
  *outScore = bestFinal;
  *outLast = lastExit;
  return 1;
}

static void freeSearch(Search *s) {
  free(s->score), free(s->exitScore), free(s->pendScore), free(s->slotScore);
  free(s->hist), free(s->exitHist), free(s->active), free(s->nextActive), free(s->activeStamp);
  free(s->pendPrev), free(s->pendStamp), free(s->pendList), free(s->slotHist), free(s->slotStamp);
  free(s->touched), free(s->heap), free(s->frameCost), free(s->costStamp);
  free(s->rec.prev), free(s->rec.hmm), free(s->rec.start);
}

static int allocSearch(Search *s) {
  /* at least one of each, so that malloc never sees 0 */
  const size_t H = s->H > 0 ? (size_t)s->H : 1, S = (size_t)s->S, K = s->nSen > 0 ? (size_t)s->nSen : 1;
  s->score = malloc(H * 3 * sizeof(double));
  s->hist = malloc(H * 3 * sizeof(int32_t));
  s->exitScore = calloc(H, sizeof(double));
  s->exitHist = calloc(H, sizeof(int32_t));
  s->active = malloc(H * sizeof(int32_t));
  s->nextActive = malloc(H * sizeof(int32_t));
  s->activeStamp = malloc(H * sizeof(int32_t));
  s->pendScore = malloc(H * sizeof(double));
  s->pendPrev = calloc(H, sizeof(int32_t));
  s->pendStamp = malloc(H * sizeof(int32_t));
  s->pendList = malloc(H * sizeof(int32_t));
  s->slotScore = malloc(S * sizeof(double));
  s->slotHist = calloc(S, sizeof(int32_t));
  s->slotStamp = malloc(S * sizeof(int32_t));
  s->touched = malloc(S * sizeof(int32_t));
  s->heap = malloc(S * sizeof(int32_t));
  s->frameCost = calloc(K, sizeof(int32_t));
  s->costStamp = malloc(K * sizeof(int32_t));
  if (!s->score || !s->hist || !s->exitScore || !s->exitHist || !s->active || !s->nextActive ||
      !s->activeStamp || !s->pendScore || !s->pendPrev || !s->pendStamp || !s->pendList || !s->slotScore ||
      !s->slotHist || !s->slotStamp || !s->touched || !s->heap || !s->frameCost || !s->costStamp)
    return 0;
  for (size_t i = 0; i < H * 3; i++) s->score[i] = -INFINITY, s->hist[i] = -1;
  for (size_t i = 0; i < H; i++) s->activeStamp[i] = -2, s->pendStamp[i] = -2, s->pendScore[i] = -INFINITY;
  for (size_t i = 0; i < S; i++) s->slotScore[i] = -INFINITY, s->slotStamp[i] = -2;
  for (size_t i = 0; i < K; i++) s->costStamp[i] = -1;
  s->entryFloor = -INFINITY;
  return 1;
}

/* obj[name] as a typed array of the given type, its data and length; 0 when it is not one */
static int field(napi_env env, napi_value obj, const char *name, napi_typedarray_type type, void **data,
                 size_t *len) {
  napi_value v;
  if (napi_get_named_property(env, obj, name, &v) != napi_ok) return 0;
  return typedArray(env, v, type, data, len);
}

static int intField(napi_env env, napi_value obj, const char *name, int *out) {
  napi_value v;
  return napi_get_named_property(env, obj, name, &v) == napi_ok && int32Arg(env, v, out);
}

/* every value of a[0..n) in [lo, hi) */
static int within(const int32_t *a, size_t n, int32_t lo, int32_t hi) {
  for (size_t i = 0; i < n; i++)
    if (a[i] < lo || a[i] >= hi) return 0;
  return 1;
}

/* a CSR index: n + 1 offsets, ascending from 0, the last at most the list's length */
static int offsets(const int32_t *first, size_t nFirst, size_t n, size_t listLen) {
  if (nFirst < n + 1 || first[0] != 0) return 0;
  for (size_t i = 0; i < n; i++)
    if (first[i + 1] < first[i]) return 0;
  return (size_t)first[n] <= listLen;
}

/*
 * search(net, costs, nFrames, beam, pbeam, wbeam, trans, logadd, bestActive): net is a search/network.ts
 * Network; costs holds SenoneCosts.at's tables { senones, cb, mixw, cw, dens, nStreams, nDensities,
 * perFrame, streamStride }; trans the 8 transition scores of each matrix (viterbi.ts's order); logadd
 * senones.ts's LOGADD_WIDE; bestActive (Int32Array, nFrames) receives each frame's lowest active senone
 * cost. Returns null (no path within the beams) or { phones: Int32Array of (hmm, start, end) triples,
 * score, nFrames }.
 */
napi_value searchViterbi(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value argv[9];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 9) return fail(env, "search: nine arguments");
  Search s;
  memset(&s, 0, sizeof s);
  napi_value net = argv[0], costs = argv[1];
  int nFrames, nEmit;
  double beam, pbeam, wbeam;
  if (!int32Arg(env, argv[2], &nFrames) || nFrames < 0 || napi_get_value_double(env, argv[3], &beam) != napi_ok ||
      napi_get_value_double(env, argv[4], &pbeam) != napi_ok ||
      napi_get_value_double(env, argv[5], &wbeam) != napi_ok)
    return fail(env, "search: (network, costs, frames, beam, pbeam, wbeam, ...)");
  size_t nSen3, nTmatOf, nExitF, nExitL, nNextF, nNextL, nEnterF, nEnterL, nNullF, nNullS, nEntry, nNullC, nFinal,
      nTrans, nLogadd, nBest;
  if (!intField(env, net, "nHmms", &s.H) || !intField(env, net, "nSlots", &s.S) ||
      !intField(env, net, "nEmit", &nEmit) || !intField(env, net, "startSlot", &s.startSlot) ||
      !field(env, net, "hmmSenones", napi_int32_array, (void **)&s.sen, &nSen3) ||
      !field(env, net, "hmmTmat", napi_int32_array, (void **)&s.tmatOf, &nTmatOf) ||
      !field(env, net, "hmmEntryCost", napi_float64_array, (void **)&s.entryCost, &nEntry) ||
      !field(env, net, "exitFirst", napi_int32_array, (void **)&s.exitFirst, &nExitF) ||
      !field(env, net, "exitList", napi_int32_array, (void **)&s.exitList, &nExitL) ||
      !field(env, net, "nextFirst", napi_int32_array, (void **)&s.nextFirst, &nNextF) ||
      !field(env, net, "nextList", napi_int32_array, (void **)&s.nextList, &nNextL) ||
      !field(env, net, "enterFirst", napi_int32_array, (void **)&s.enterFirst, &nEnterF) ||
      !field(env, net, "enterList", napi_int32_array, (void **)&s.enterList, &nEnterL) ||
      !field(env, net, "nullFirst", napi_int32_array, (void **)&s.nullFirst, &nNullF) ||
      !field(env, net, "nullSlot", napi_int32_array, (void **)&s.nullSlot, &nNullS) ||
      !field(env, net, "nullCost", napi_float64_array, (void **)&s.nullCost, &nNullC) ||
      !field(env, net, "slotFinal", napi_uint8_array, (void **)&s.slotFinal, &nFinal))
    return fail(env, "search: not a network");
  if (nEmit != 3) return fail(env, "search: only 3-state phone models");
  if (s.H < 0 || s.S < 1 || s.startSlot < 0 || s.startSlot >= s.S || nSen3 < (size_t)s.H * 3 ||
      nTmatOf < (size_t)s.H || nEntry < (size_t)s.H || nFinal < (size_t)s.S || nNullC < nNullS ||
      !offsets(s.exitFirst, nExitF, (size_t)s.H, nExitL) || !offsets(s.nextFirst, nNextF, (size_t)s.H, nNextL) ||
      !offsets(s.enterFirst, nEnterF, (size_t)s.S, nEnterL) || !offsets(s.nullFirst, nNullF, (size_t)s.S, nNullS) ||
      !within(s.exitList, nExitL, 0, s.S) || !within(s.nextList, nNextL, 0, s.H) ||
      !within(s.enterList, nEnterL, 0, s.H) || !within(s.nullSlot, nNullS, 0, s.S))
    return fail(env, "search: the network's arrays do not fit together");
  size_t nSenModel, nCb, nMixw, nCw, nDens;
  int nCodebooks = 0, perFrame, streamStride;
  if (!field(env, costs, "senones", napi_int32_array, (void **)&s.senModel, &nSenModel) ||
      !field(env, costs, "cb", napi_int32_array, (void **)&s.cb, &nCb) ||
      !field(env, costs, "mixw", napi_uint8_array, (void **)&s.mixw, &nMixw) ||
      !field(env, costs, "cw", napi_uint8_array, (void **)&s.cw, &nCw) ||
      !field(env, costs, "dens", napi_uint8_array, (void **)&s.dens, &nDens) ||
      !intField(env, costs, "nStreams", &s.nStreams) || !intField(env, costs, "nDensities", &s.nDens) ||
      !intField(env, costs, "nCodebooks", &nCodebooks) || !intField(env, costs, "perFrame", &perFrame) ||
      !intField(env, costs, "streamStride", &streamStride))
    return fail(env, "search: not senone costs");
  int32_t *bestActive;
  if (!typedArray(env, argv[6], napi_float64_array, (void **)&s.trans, &nTrans) ||
      !typedArray(env, argv[7], napi_int32_array, (void **)&s.logadd, &nLogadd) ||
      !typedArray(env, argv[8], napi_int32_array, (void **)&bestActive, &nBest))
    return fail(env, "search: (..., trans: Float64Array, logadd: Int32Array, bestActive: Int32Array)");
  s.nSen = (int)nSenModel;
  s.perFrame = (size_t)perFrame;
  s.streamStride = (size_t)streamStride;
  const size_t nTmat = nTrans / 8;
  if (nLogadd != LOGADD_LEN || nBest < (size_t)nFrames || nTmat == 0 || !within(s.tmatOf, (size_t)s.H, 0, (int32_t)nTmat))
    return fail(env, "search: transition scores, log-add table or output too short");
  /* the costs: every senone of the network within the model's mixture weights, every top-N index within
     the densities, and the tables long enough for every frame */
  if (s.nStreams < 1 || s.nDens < 1 || s.nDens > 256 || nCodebooks < 1 || nCb < nSenModel ||
      perFrame != s.nStreams * nCodebooks * TOP_N || streamStride != nCodebooks * TOP_N ||
      nCw < (size_t)nFrames * s.perFrame || nDens < (size_t)nFrames * s.perFrame ||
      !within(s.sen, (size_t)s.H * 3, 0, s.nSen) || !within(s.cb, nSenModel, 0, nCodebooks) ||
      !within(s.senModel, nSenModel, 0, (int32_t)(nMixw / ((size_t)s.nStreams * s.nDens))))
    return fail(env, "search: the senone costs do not fit the network");

  int32_t hist = -1, lastExit = -1;
  double score = 0;
  int found = allocSearch(&s) ? run(&s, nFrames, beam, pbeam, wbeam, bestActive, &hist, &score, &lastExit) : -1;
  if (found < 0) {
    freeSearch(&s);
    if (found == -2) return fail(env, "search: a top-N density index is out of range");
    napi_throw_error(env, "ERR_TAZAMUN_NATIVE_MEMORY", "search: out of memory");
    return NULL;
  }
  napi_value out = NULL;
  if (found == 0) {
    freeSearch(&s);
    if (napi_get_null(env, &out) != napi_ok) return NULL;
    return out;
  }
  /* trace back the phone occurrences, last first, then write them in order */
  size_t n = 0;
  for (int32_t r = hist; r >= 0; r = s.rec.prev[r]) n++;
  napi_value buf, phones, v;
  int32_t *p;
  int ok = napi_create_arraybuffer(env, n * 3 * sizeof(int32_t), (void **)&p, &buf) == napi_ok &&
           napi_create_typedarray(env, napi_int32_array, n * 3, buf, 0, &phones) == napi_ok;
  if (ok) {
    int32_t end = lastExit;
    size_t i = n;
    for (int32_t r = hist; r >= 0; r = s.rec.prev[r]) {
      i--;
      p[i * 3] = s.rec.hmm[r], p[i * 3 + 1] = s.rec.start[r], p[i * 3 + 2] = end;
      end = s.rec.start[r] - 1;
    }
  }
  freeSearch(&s);
  if (!ok || napi_create_object(env, &out) != napi_ok || napi_set_named_property(env, out, "phones", phones) != napi_ok)
    return NULL;
  CHECK(napi_create_double(env, score, &v));
  CHECK(napi_set_named_property(env, out, "score", v));
  CHECK(napi_create_int32(env, lastExit + 1, &v));
  CHECK(napi_set_named_property(env, out, "nFrames", v));
  return out;
}
