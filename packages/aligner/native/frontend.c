// The front end's mel power spectra in C (Node-API): frontend/mfcc.ts's FrontEnd.logMel up to its mel
// filters, operation for operation (double precision, the same order, nothing fused: build.mjs passes
// -ffp-contract=off), so the spectra are the JavaScript's to the bit; mfcc.test.ts checks it. The noise
// removal and the logarithm stay in JavaScript: Math.log and the C library's log may differ in the last
// bit, and the noise estimate is a few operations a filter.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "napi-util.h"

/* samples are floats in [-1, 1); the Sphinx front end works on 16-bit integers' scale */
#define PCM_SCALE 32768.0

typedef struct {
  int size, shift, nfft, nfilt, nSwaps;
  double alpha;
  double *window, *cos, *sin;
  uint16_t *swaps;
  int *start, *length, *offset;
  double *coeffs;
  /* one frame's work: the half-length complex sequence and the power spectrum */
  double *zr, *zi, *spec;
} FrontEnd;

/* the kind of handle createFrontEnd returns */
static const napi_type_tag FRONT_END_TAG = {0x7a616d756e66726fULL, 0x6e74656e64763031ULL};

static void freeFrontEnd(napi_env env, void *data, void *hint) {
  (void)env, (void)hint;
  FrontEnd *fe = data;
  free(fe->window), free(fe->cos), free(fe->sin), free(fe->swaps);
  free(fe->start), free(fe->length), free(fe->offset), free(fe->coeffs);
  free(fe->zr), free(fe->zi), free(fe->spec);
  free(fe);
}

static void *copyOf(const void *src, size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (p && bytes) memcpy(p, src, bytes);
  return p;
}

/* mfcc.ts's fft with stride 2: in place, radix 2, the twiddles every other entry of the full tables */
static void fft(double *re, double *im, int n, const double *cos, const double *sin, const uint16_t *swaps,
                int nSwaps) {
  for (int s = 0; s < nSwaps; s += 2) {
    const int i = swaps[s], j = swaps[s + 1];
    double t = re[i];
    re[i] = re[j], re[j] = t;
    t = im[i];
    im[i] = im[j], im[j] = t;
  }
  for (int len = 2; len <= n; len <<= 1) {
    const int half = len >> 1;
    const int twStep = (n / len) * 2;
    for (int i = 0; i < n; i += len)
      for (int k = 0, tw = 0; k < half; k++, tw += twStep) {
        const double wr = cos[tw], wi = -sin[tw];
        const int a = i + k, b = a + half;
        const double xr = re[b] * wr - im[b] * wi;
        const double xi = re[b] * wi + im[b] * wr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] = re[a] + xr;
        im[a] = im[a] + xi;
      }
  }
}

static void melFrame(FrontEnd *fe, const float *samples, size_t nSamples, size_t from, double *out) {
  const int half = fe->nfft / 2;
  double *zr = fe->zr, *zi = fe->zi, *spec = fe->spec;
  const size_t left = nSamples > from ? nSamples - from : 0;
  const int len = left < (size_t)fe->size ? (int)left : fe->size;
  memset(zr, 0, sizeof(double) * half);
  memset(zi, 0, sizeof(double) * half);
  double prior = from > 0 ? samples[from - 1] * PCM_SCALE : 0;
  for (int i = 0; i < len; i++) {
    const double x = samples[from + i] * PCM_SCALE;
    const double v = (fe->alpha != 0 ? x - prior * fe->alpha : x) * fe->window[i];
    if ((i & 1) == 0) zr[i >> 1] = v;
    else zi[i >> 1] = v;
    prior = x;
  }
  fft(zr, zi, half, fe->cos, fe->sin, fe->swaps, fe->nSwaps);
  double e = zr[0] + zi[0], o = zr[0] - zi[0];
  spec[0] = e * e;
  spec[half] = o * o;
  for (int k = 1; k < half; k++) {
    const double ar = zr[k], ai = zi[k], br = zr[half - k], bi = -zi[half - k];
    const double er = (ar + br) / 2, ei = (ai + bi) / 2;
    const double or = (ai - bi) / 2, oi = -(ar - br) / 2;
    const double wr = fe->cos[k], wi = -fe->sin[k];
    const double xr = er + wr * or - wi * oi;
    const double xi = ei + wr * oi + wi * or ;
    spec[k] = xr * xr + xi * xi;
  }
  for (int f = 0; f < fe->nfilt; f++) {
    const double *c = fe->coeffs + fe->offset[f];
    const double *sp = spec + fe->start[f];
    double s = 0;
    for (int i = 0; i < fe->length[f]; i++) s += sp[i] * c[i];
    out[f] = s;
  }
}

/*
 * createFrontEnd(size, shift, nfft, alpha, window: Float64Array, cos: Float64Array, sin: Float64Array,
 * swaps: Uint16Array, starts: Int32Array, coeffs: Float64Array[]): an opaque handle (FrontEnd's tables)
 */
napi_value feCreate(napi_env env, napi_callback_info info) {
  size_t argc = 10;
  napi_value argv[10];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 10) return fail(env, "createFrontEnd: ten arguments");
  int size, shift, nfft;
  double alpha;
  double *window, *cos, *sin;
  uint16_t *swaps;
  int32_t *starts;
  size_t nWindow, nCos, nSin, nSwaps, nfilt;
  if (!int32Arg(env, argv[0], &size) || !int32Arg(env, argv[1], &shift) || !int32Arg(env, argv[2], &nfft) ||
      napi_get_value_double(env, argv[3], &alpha) != napi_ok ||
      !typedArray(env, argv[4], napi_float64_array, (void **)&window, &nWindow) ||
      !typedArray(env, argv[5], napi_float64_array, (void **)&cos, &nCos) ||
      !typedArray(env, argv[6], napi_float64_array, (void **)&sin, &nSin) ||
      !typedArray(env, argv[7], napi_uint16_array, (void **)&swaps, &nSwaps) ||
      !typedArray(env, argv[8], napi_int32_array, (void **)&starts, &nfilt))
    return fail(env, "createFrontEnd: (int, int, int, number, Float64Array x3, Uint16Array, Int32Array, array)");
  const int half = nfft / 2;
  if (nfft < 4 || nfft > 65536 || (nfft & (nfft - 1)) != 0 || size < 1 || size > nfft || shift < 1 ||
      nWindow < (size_t)size || nCos < (size_t)half || nSin < (size_t)half || nSwaps % 2 != 0 || nfilt < 1 ||
      nfilt > 1024)
    return fail(env, "createFrontEnd: frame geometry out of range");
  for (size_t s = 0; s < nSwaps; s++)
    if (swaps[s] >= half) return fail(env, "createFrontEnd: a swap out of range");
  FrontEnd *fe = calloc(1, sizeof *fe);
  if (!fe) return fail(env, "createFrontEnd: out of memory");
  fe->size = size, fe->shift = shift, fe->nfft = nfft, fe->nfilt = (int)nfilt, fe->alpha = alpha;
  fe->nSwaps = (int)nSwaps;
  fe->window = copyOf(window, sizeof(double) * size);
  fe->cos = copyOf(cos, sizeof(double) * half);
  fe->sin = copyOf(sin, sizeof(double) * half);
  fe->swaps = copyOf(swaps, sizeof(uint16_t) * nSwaps);
  fe->start = calloc(nfilt, sizeof(int));
  fe->length = calloc(nfilt, sizeof(int));
  fe->offset = calloc(nfilt, sizeof(int));
  fe->zr = calloc(half, sizeof(double));
  fe->zi = calloc(half, sizeof(double));
  fe->spec = calloc(half + 1, sizeof(double));
  size_t total = 0;
  const char *bad = NULL;
  double *cs[1024];
  for (size_t f = 0; f < nfilt && !bad; f++) {
    napi_value c;
    size_t n;
    if (napi_get_element(env, argv[9], (uint32_t)f, &c) != napi_ok ||
        !typedArray(env, c, napi_float64_array, (void **)&cs[f], &n))
      bad = "createFrontEnd: a filter's coefficients are not a Float64Array";
    else if (starts[f] < 0 || (size_t)starts[f] + n > (size_t)half + 1)
      bad = "createFrontEnd: a filter reaches past the spectrum";
    else if (fe->start && fe->length && fe->offset) {
      fe->start[f] = starts[f], fe->length[f] = (int)n, fe->offset[f] = (int)total;
      total += n;
    }
  }
  if (!bad) {
    fe->coeffs = malloc(sizeof(double) * (total ? total : 1));
    if (fe->coeffs)
      for (size_t f = 0; f < nfilt; f++) memcpy(fe->coeffs + fe->offset[f], cs[f], sizeof(double) * fe->length[f]);
  }
  if (!bad && (!fe->window || !fe->cos || !fe->sin || !fe->swaps || !fe->start || !fe->length || !fe->offset ||
               !fe->coeffs || !fe->zr || !fe->zi || !fe->spec))
    bad = "createFrontEnd: out of memory";
  if (bad) {
    freeFrontEnd(env, fe, NULL);
    return fail(env, bad);
  }
  return wrapHandle(env, fe, freeFrontEnd, &FRONT_END_TAG);
}

/* melSpectra(frontEnd, samples: Float32Array, nFrames, out: Float64Array): nfilt values per frame */
napi_value feMelSpectra(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 4) return fail(env, "melSpectra: four arguments");
  FrontEnd *fe = handleData(env, argv[0], &FRONT_END_TAG);
  if (!fe) return fail(env, "melSpectra: not a front end");
  float *samples;
  double *out;
  size_t nSamples, nOut;
  int nFrames;
  if (!typedArray(env, argv[1], napi_float32_array, (void **)&samples, &nSamples) ||
      !int32Arg(env, argv[2], &nFrames) || nFrames < 0 ||
      !typedArray(env, argv[3], napi_float64_array, (void **)&out, &nOut))
    return fail(env, "melSpectra: (front end, Float32Array, int, Float64Array)");
  if (nOut < (size_t)nFrames * fe->nfilt) return fail(env, "melSpectra: output array too short");
  for (int t = 0; t < nFrames; t++)
    melFrame(fe, samples, nSamples, (size_t)t * fe->shift, out + (size_t)t * fe->nfilt);
  return NULL;
}
