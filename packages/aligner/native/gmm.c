// Tazamun's Gaussian kernel in C (Node-API): for every frame, stream and codebook of a phonetically-tied
// model, the TOP_N best densities and their log-likelihoods, as scoring/gaussians.ts's kernels compute
// them (the layout of GaussianTopN). Written for one core: a codebook's parameters for one stream (13 KB
// on the English model) stay in the first-level cache while a block of 64 frames is scored against them;
// on AVX2 with FMA, eight frames fill a vector's lanes, so each density costs two fused operations per
// dimension for eight frames, and each frame's best four are kept by an insertion network without a
// branch.
//
// Both paths use the same fused operations in the same order (fmaf on the scalar one), and build.mjs
// passes -ffp-contract=off so the compiler fuses nothing else: the vector path gives the scalar path's
// bits, and a job's result does not depend on the processor it ran on (gaussians.test.ts checks it).
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "napi-util.h"

#define TOP_N 4
#define MAX_STREAMS 8
#define MAX_DENSITIES 256
/* frames scored against one codebook before the next (its parameters stay in cache meanwhile) */
#define BLOCK 64
/* the vector path's longest stream (the Sphinx models' are 13 or 39) */
#define MAX_VEC_LEN 64

typedef struct Model Model;
typedef void (*BlockFn)(const Model *m, const float *const *x, int t0, int n, float *ll, uint8_t *cw);

struct Model {
  BlockFn block;
  int nCodebooks, nStreams, nDensities;
  int len[MAX_STREAMS];
  /*
   * per codebook, stream and density: len scales s_j = sqrt(1 / 2 var_j), len offsets s_j mean_j, and the
   * constant -1/2 sum log(2 pi var_j); the density's log-likelihood is then
   * constant - sum_j (s_j x_j - s_j mean_j)^2, each square's base one fused multiply-subtract.
   */
  float *params;
  size_t blockOffset[MAX_STREAMS]; /* where stream f's block starts inside a codebook's */
  size_t perCodebook;
};

/* The TOP_N best of the running four (v, i) when value v of index d arrives: ties keep the earlier index. */
#define INSERT(v, d)                                                                                     \
  do {                                                                                                   \
    if ((v) > v3) {                                                                                      \
      if ((v) > v1) {                                                                                    \
        v3 = v2, i3 = i2, v2 = v1, i2 = i1;                                                              \
        if ((v) > v0) v1 = v0, i1 = i0, v0 = (v), i0 = (d);                                              \
        else v1 = (v), i1 = (d);                                                                         \
      } else if ((v) > v2) {                                                                             \
        v3 = v2, i3 = i2, v2 = (v), i2 = (d);                                                            \
      } else {                                                                                           \
        v3 = (v), i3 = (d);                                                                              \
      }                                                                                                  \
    }                                                                                                    \
  } while (0)

static inline size_t outIndex(const Model *m, int t, int f, int cb) {
  return (((size_t)t * m->nStreams + f) * m->nCodebooks + cb) * TOP_N;
}

/*
 * Frames t0..t0+n of every stream against every codebook, one frame and density at a time: the reference
 * the vector path equals bit for bit (the same fused operations in the same order), and the path on
 * processors without AVX2 and FMA.
 */
static void blockScalar(const Model *m, const float *const *x, int t0, int n, float *ll, uint8_t *cw) {
  const int nD = m->nDensities;
  for (int cb = 0; cb < m->nCodebooks; cb++)
    for (int f = 0; f < m->nStreams; f++) {
      const int len = m->len[f];
      const float *p = m->params + (size_t)cb * m->perCodebook + m->blockOffset[f];
      for (int t = t0; t < t0 + n; t++) {
        const float *xt = x[f] + (size_t)t * len;
        float v0 = -INFINITY, v1 = -INFINITY, v2 = -INFINITY, v3 = -INFINITY;
        int i0 = 0, i1 = 0, i2 = 0, i3 = 0;
        for (int d = 0; d < nD; d++) {
          const float *pd = p + (size_t)d * (2 * len + 1);
          float acc = 0.0f;
          for (int j = 0; j < len; j++) {
            const float diff = fmaf(xt[j], pd[j], -pd[len + j]);
            acc = fmaf(diff, diff, acc);
          }
          const float y = pd[2 * len] - acc;
          INSERT(y, d);
        }
        const size_t o = outIndex(m, t, f, cb);
        ll[o] = v0, ll[o + 1] = v1, ll[o + 2] = v2, ll[o + 3] = v3;
        cw[o] = (uint8_t)i0, cw[o + 1] = (uint8_t)i1, cw[o + 2] = (uint8_t)i2, cw[o + 3] = (uint8_t)i3;
      }
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2_PATH 1

/*
 * blockScalar with eight frames in the lanes of a vector: every density's score is computed for eight
 * frames at once, and each frame's best four are kept by an insertion network without a branch (the
 * scalar loop's branch was mispredicted whenever a score entered the running four: 17 times in 128).
 */
__attribute__((target("avx2,fma"))) static void blockAvx2(const Model *m, const float *const *x, int t0,
                                                          int n, float *ll, uint8_t *cw) {
  const int nD = m->nDensities;
  const int groups = (n + 7) / 8;
  for (int f = 0; f < m->nStreams; f++) {
    const int len = m->len[f];
    __m256 xt[BLOCK / 8][MAX_VEC_LEN];
    for (int g = 0; g < groups; g++)
      for (int j = 0; j < len; j++) {
        float lane[8];
        for (int k = 0; k < 8; k++) {
          const int t = t0 + (8 * g + k < n ? 8 * g + k : n - 1);
          lane[k] = x[f][(size_t)t * len + j];
        }
        xt[g][j] = _mm256_loadu_ps(lane);
      }
    for (int cb = 0; cb < m->nCodebooks; cb++) {
      const float *p = m->params + (size_t)cb * m->perCodebook + m->blockOffset[f];
      for (int g = 0; g < groups; g++) {
        const __m256 *X = xt[g];
        const __m256 lowest = _mm256_set1_ps(-INFINITY);
        __m256 v0 = lowest, v1 = lowest, v2 = lowest, v3 = lowest;
        /* indices travel as float bit patterns through the blends */
        __m256 i0 = _mm256_setzero_ps(), i1 = i0, i2 = i0, i3 = i0;
        for (int d = 0; d < nD; d++) {
          const float *pd = p + (size_t)d * (2 * len + 1);
          __m256 acc = _mm256_setzero_ps();
          for (int j = 0; j < len; j++) {
            const __m256 diff = _mm256_fmsub_ps(X[j], _mm256_broadcast_ss(pd + j), _mm256_broadcast_ss(pd + len + j));
            acc = _mm256_fmadd_ps(diff, diff, acc);
          }
          /*
           * The running four are sorted, so the score y belongs at the first level it beats (strictly: ties
           * keep the earlier index), and every level below that one takes the level above's old value.
           */
          const __m256 y = _mm256_sub_ps(_mm256_broadcast_ss(pd + 2 * len), acc);
          const __m256 yi = _mm256_castsi256_ps(_mm256_set1_epi32(d));
          const __m256 g0 = _mm256_cmp_ps(y, v0, _CMP_GT_OQ), g1 = _mm256_cmp_ps(y, v1, _CMP_GT_OQ);
          const __m256 g2 = _mm256_cmp_ps(y, v2, _CMP_GT_OQ), g3 = _mm256_cmp_ps(y, v3, _CMP_GT_OQ);
          v3 = _mm256_blendv_ps(_mm256_blendv_ps(v3, y, g3), v2, g2);
          i3 = _mm256_blendv_ps(_mm256_blendv_ps(i3, yi, g3), i2, g2);
          v2 = _mm256_blendv_ps(_mm256_blendv_ps(v2, y, g2), v1, g1);
          i2 = _mm256_blendv_ps(_mm256_blendv_ps(i2, yi, g2), i1, g1);
          v1 = _mm256_blendv_ps(_mm256_blendv_ps(v1, y, g1), v0, g0);
          i1 = _mm256_blendv_ps(_mm256_blendv_ps(i1, yi, g1), i0, g0);
          v0 = _mm256_blendv_ps(v0, y, g0);
          i0 = _mm256_blendv_ps(i0, yi, g0);
        }
        float V[4][8];
        int32_t I[4][8];
        _mm256_storeu_ps(V[0], v0), _mm256_storeu_ps(V[1], v1), _mm256_storeu_ps(V[2], v2);
        _mm256_storeu_ps(V[3], v3);
        _mm256_storeu_ps((float *)I[0], i0), _mm256_storeu_ps((float *)I[1], i1);
        _mm256_storeu_ps((float *)I[2], i2), _mm256_storeu_ps((float *)I[3], i3);
        for (int k = 0; k < 8 && 8 * g + k < n; k++) {
          const size_t o = outIndex(m, t0 + 8 * g + k, f, cb);
          for (int r = 0; r < TOP_N; r++) ll[o + r] = V[r][k], cw[o + r] = (uint8_t)I[r][k];
        }
      }
    }
  }
}

/*
 * blockAvx2 with sixteen frames to a vector (AVX-512F): half the broadcasts and insertion steps a frame.
 */
__attribute__((target("avx512f"))) static void blockAvx512(const Model *m, const float *const *x, int t0,
                                                          int n, float *ll, uint8_t *cw) {
  const int nD = m->nDensities;
  const int groups = (n + 15) / 16;
  for (int f = 0; f < m->nStreams; f++) {
    const int len = m->len[f];
    __m512 xt[BLOCK / 16][MAX_VEC_LEN];
    for (int g = 0; g < groups; g++)
      for (int j = 0; j < len; j++) {
        float lane[16];
        for (int k = 0; k < 16; k++) {
          const int t = t0 + (16 * g + k < n ? 16 * g + k : n - 1);
          lane[k] = x[f][(size_t)t * len + j];
        }
        xt[g][j] = _mm512_loadu_ps(lane);
      }
    for (int cb = 0; cb < m->nCodebooks; cb++) {
      const float *p = m->params + (size_t)cb * m->perCodebook + m->blockOffset[f];
      for (int g = 0; g < groups; g++) {
        const __m512 *X = xt[g];
        const __m512 lowest = _mm512_set1_ps(-INFINITY);
        __m512 v0 = lowest, v1 = lowest, v2 = lowest, v3 = lowest;
        __m512i i0 = _mm512_setzero_si512(), i1 = i0, i2 = i0, i3 = i0;
        for (int d = 0; d < nD; d++) {
          const float *pd = p + (size_t)d * (2 * len + 1);
          __m512 acc = _mm512_setzero_ps();
          for (int j = 0; j < len; j++) {
            const __m512 diff = _mm512_fmsub_ps(X[j], _mm512_set1_ps(pd[j]), _mm512_set1_ps(pd[len + j]));
            acc = _mm512_fmadd_ps(diff, diff, acc);
          }
          /* the insertion of blockAvx2, sixteen frames at a time, with mask registers */
          const __m512 y = _mm512_sub_ps(_mm512_set1_ps(pd[2 * len]), acc);
          const __m512i yi = _mm512_set1_epi32(d);
          const __mmask16 g0 = _mm512_cmp_ps_mask(y, v0, _CMP_GT_OQ), g1 = _mm512_cmp_ps_mask(y, v1, _CMP_GT_OQ);
          const __mmask16 g2 = _mm512_cmp_ps_mask(y, v2, _CMP_GT_OQ), g3 = _mm512_cmp_ps_mask(y, v3, _CMP_GT_OQ);
          v3 = _mm512_mask_blend_ps(g2, _mm512_mask_blend_ps(g3, v3, y), v2);
          i3 = _mm512_mask_blend_epi32(g2, _mm512_mask_blend_epi32(g3, i3, yi), i2);
          v2 = _mm512_mask_blend_ps(g1, _mm512_mask_blend_ps(g2, v2, y), v1);
          i2 = _mm512_mask_blend_epi32(g1, _mm512_mask_blend_epi32(g2, i2, yi), i1);
          v1 = _mm512_mask_blend_ps(g0, _mm512_mask_blend_ps(g1, v1, y), v0);
          i1 = _mm512_mask_blend_epi32(g0, _mm512_mask_blend_epi32(g1, i1, yi), i0);
          v0 = _mm512_mask_blend_ps(g0, v0, y);
          i0 = _mm512_mask_blend_epi32(g0, i0, yi);
        }
        float V[4][16];
        int32_t I[4][16];
        _mm512_storeu_ps(V[0], v0), _mm512_storeu_ps(V[1], v1), _mm512_storeu_ps(V[2], v2);
        _mm512_storeu_ps(V[3], v3);
        _mm512_storeu_si512(I[0], i0), _mm512_storeu_si512(I[1], i1);
        _mm512_storeu_si512(I[2], i2), _mm512_storeu_si512(I[3], i3);
        for (int k = 0; k < 16 && 16 * g + k < n; k++) {
          const size_t o = outIndex(m, t0 + 16 * g + k, f, cb);
          for (int r = 0; r < TOP_N; r++) ll[o + r] = V[r][k], cw[o + r] = (uint8_t)I[r][k];
        }
      }
    }
  }
}
#endif

/* the fastest path this processor runs, up to `widest` (0: scalar, 8: AVX2, 16: AVX-512) */
static BlockFn chooseBlock(const Model *m, int widest) {
#ifdef HAVE_AVX2_PATH
  int fits = 1;
  for (int f = 0; f < m->nStreams; f++) fits &= m->len[f] <= MAX_VEC_LEN;
  __builtin_cpu_init();
  if (fits && widest >= 16 && __builtin_cpu_supports("avx512f")) return blockAvx512;
  if (fits && widest >= 8 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return blockAvx2;
#endif
  (void)m, (void)widest;
  return blockScalar;
}

/* the kind of handle createModel returns */
static const napi_type_tag MODEL_TAG = {0x7a616d756e676d6dULL, 0x4d6f64656c763031ULL};

static void freeModel(napi_env env, void *data, void *hint) {
  (void)env, (void)hint;
  Model *m = data;
  free(m->params);
  free(m);
}

/*
 * createModel(means, variances, nCodebooks, nDensities, streamLengths, widest): an opaque handle, scoring on
 * the widest path the processor runs up to `widest` lanes (0: the scalar reference, 8: AVX2, 16: AVX-512).
 */
napi_value gmmCreateModel(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 6) return fail(env, "createModel: six arguments");
  int widest;
  if (!int32Arg(env, argv[5], &widest)) return fail(env, "createModel: widest is a lane count");
  float *means, *vars;
  int32_t *lens;
  size_t nMeans, nVars, nStreams;
  int nCb, nD;
  if (!typedArray(env, argv[0], napi_float32_array, (void **)&means, &nMeans) ||
      !typedArray(env, argv[1], napi_float32_array, (void **)&vars, &nVars) || !int32Arg(env, argv[2], &nCb) ||
      !int32Arg(env, argv[3], &nD) || !typedArray(env, argv[4], napi_int32_array, (void **)&lens, &nStreams))
    return fail(env, "createModel: (Float32Array, Float32Array, int, int, Int32Array)");
  if (nStreams < 1 || nStreams > MAX_STREAMS || nCb < 1 || nD < 1 || nD > MAX_DENSITIES)
    return fail(env, "createModel: model shape out of range");
  size_t blk = 0;
  for (size_t f = 0; f < nStreams; f++) {
    if (lens[f] < 1 || lens[f] > 1024) return fail(env, "createModel: stream length out of range");
    blk += (size_t)lens[f];
  }
  if (nMeans != (size_t)nCb * nD * blk || nVars != nMeans) return fail(env, "createModel: parameter count");
  Model *m = calloc(1, sizeof *m);
  if (!m) return fail(env, "createModel: out of memory");
  m->nCodebooks = nCb, m->nStreams = (int)nStreams, m->nDensities = nD;
  size_t per = 0;
  for (size_t f = 0; f < nStreams; f++) {
    m->len[f] = lens[f];
    m->blockOffset[f] = per;
    per += (size_t)(2 * lens[f] + 1) * nD;
  }
  m->perCodebook = per;
  m->params = malloc(sizeof(float) * per * nCb);
  if (!m->params) {
    free(m);
    return fail(env, "createModel: out of memory");
  }
  for (int cb = 0; cb < nCb; cb++) {
    size_t streamStart = 0;
    for (size_t f = 0; f < nStreams; f++) {
      const int len = lens[f];
      float *p = m->params + (size_t)cb * per + m->blockOffset[f];
      for (int d = 0; d < nD; d++, p += 2 * len + 1) {
        /* the source order is [codebook][stream][density][dim] (gaussians.ts, densityOffset) */
        const size_t o = (size_t)cb * nD * blk + (size_t)nD * streamStart + (size_t)d * len;
        double det = 0;
        for (int j = 0; j < len; j++) {
          const double v = vars[o + j];
          const float scale = (float)sqrt(0.5 / v);
          p[j] = scale;
          p[len + j] = (float)((double)scale * means[o + j]);
          det += -0.5 * log(2 * M_PI * v);
        }
        p[2 * len] = (float)det;
      }
      streamStart += (size_t)len;
    }
  }
  m->block = chooseBlock(m, widest);
  return wrapHandle(env, m, freeModel, &MODEL_TAG);
}

/* vectorLanes(): the frames a vector of the widest path this processor runs holds (16, 8, or 1: scalar) */
napi_value gmmVectorLanes(napi_env env, napi_callback_info info) {
  (void)info;
  Model probe = {0};
  probe.nStreams = 1, probe.len[0] = 1;
  const BlockFn b = chooseBlock(&probe, 16);
  napi_value out;
  int lanes = 1;
#ifdef HAVE_AVX2_PATH
  if (b == blockAvx512) lanes = 16;
  else if (b == blockAvx2) lanes = 8;
#endif
  (void)b;
  CHECK(napi_create_int32(env, lanes, &out));
  return out;
}

/*
 * Frames t0..t0+n's density costs as senones.ts's densityCosts(topn, null) computes them, to the bit: per
 * frame and stream, each top-N log-likelihood in the decoders' integer units (truncated to a multiple of
 * log base, then floored to 1024 of them), below the best codebook's best, at most maxNeg.
 */
static void densityCosts(const Model *m, const float *ll, int t0, int n, double lnBase, int maxNeg,
                         uint8_t *dens) {
  const int perStream = m->nCodebooks * TOP_N;
  for (int t = t0; t < t0 + n; t++)
    for (int f = 0; f < m->nStreams; f++) {
      const size_t base = outIndex(m, t, f, 0);
      double norm = -INFINITY;
      for (int cb = 0; cb < m->nCodebooks; cb++) {
        const double s = floor(trunc((double)ll[base + (size_t)cb * TOP_N] / lnBase) / 1024);
        if (s > norm) norm = s;
      }
      for (int i = 0; i < perStream; i++) {
        double c = norm - floor(trunc((double)ll[base + i] / lnBase) / 1024);
        if (c > maxNeg) c = maxNeg;
        dens[base + i] = (uint8_t)c;
      }
    }
}

/*
 * topN(model, streams: Float32Array[], nFrames, ll: Float32Array, cw: Uint8Array[, dens: Uint8Array,
 * lnBase, maxNeg]): with dens, the density costs too (densityCosts above), each block's while its
 * log-likelihoods are still in cache.
 */
napi_value gmmTopN(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 5) return fail(env, "topN: five arguments");
  Model *m = handleData(env, argv[0], &MODEL_TAG);
  if (!m) return fail(env, "topN: not a model");
  int nFrames;
  if (!int32Arg(env, argv[2], &nFrames) || nFrames < 0) return fail(env, "topN: frame count");
  float *ll;
  uint8_t *cw;
  size_t nLl, nCw;
  if (!typedArray(env, argv[3], napi_float32_array, (void **)&ll, &nLl) ||
      !typedArray(env, argv[4], napi_uint8_array, (void **)&cw, &nCw))
    return fail(env, "topN: output arrays");
  const size_t need = (size_t)nFrames * m->nStreams * m->nCodebooks * TOP_N;
  if (nLl < need || nCw < need) return fail(env, "topN: output arrays too short");
  const float *x[MAX_STREAMS];
  for (int f = 0; f < m->nStreams; f++) {
    napi_value s;
    size_t n;
    CHECK(napi_get_element(env, argv[1], (uint32_t)f, &s));
    if (!typedArray(env, s, napi_float32_array, (void **)&x[f], &n) || n < (size_t)nFrames * m->len[f])
      return fail(env, "topN: a stream's features are missing or too short");
  }
  uint8_t *dens = NULL;
  double lnBase = 0;
  int maxNeg = 0;
  napi_valuetype densKind = napi_undefined;
  if (argc >= 6) CHECK(napi_typeof(env, argv[5], &densKind));
  if (densKind != napi_undefined) {
    size_t nDens;
    if (argc < 8 || !typedArray(env, argv[5], napi_uint8_array, (void **)&dens, &nDens) ||
        napi_get_value_double(env, argv[6], &lnBase) != napi_ok || !int32Arg(env, argv[7], &maxNeg))
      return fail(env, "topN: density costs need (Uint8Array, log base, largest cost)");
    if (nDens < need) return fail(env, "topN: density cost array too short");
    if (!(lnBase > 0) || maxNeg < 0 || maxNeg > 255) return fail(env, "topN: log base or largest cost out of range");
  }
  for (int t0 = 0; t0 < nFrames; t0 += BLOCK) {
    const int n = nFrames - t0 < BLOCK ? nFrames - t0 : BLOCK;
    m->block(m, x, t0, n, ll, cw);
    if (dens) densityCosts(m, ll, t0, n, lnBase, maxNeg, dens);
  }
  return NULL;
}
