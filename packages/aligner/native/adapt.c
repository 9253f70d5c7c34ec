// The speaker adaptation's statistics in C (Node-API): one frame's contribution to a stream's fMLLR
// statistics (adapt/fmllr.ts, AdaptationStats.add), G_i += wg_i ζζᵀ (its upper triangle) and
// k_i += wk_i ζ for every row i, ζ = [1, x]. The same double operations in the same order as the
// JavaScript (build.mjs's -ffp-contract=off: no multiply-add fused), so the statistics are its bits;
// the per-row weights, which need the exponential, stay in JavaScript. The update is d (d + 1)² / 2
// multiply-adds a frame (31,980 on a 39-dimension stream): the loop over a row's columns is what the
// compiler vectorises here and JavaScript cannot.
#include <stdint.h>
#include "napi-util.h"

/*
 * fmllrAccumulate(g: Float64Array, k: Float64Array, stream: Float32Array, at: number, d: number,
 * wg: Float64Array, wk: Float64Array): the frame is stream[at .. at + d).
 */
napi_value adaptAccumulate(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 7) return fail(env, "fmllrAccumulate: seven arguments");
  double *g, *k, *wg, *wk;
  float *xs;
  size_t nG, nK, nX, nWg, nWk;
  int at, d;
  if (!typedArray(env, argv[0], napi_float64_array, (void **)&g, &nG) ||
      !typedArray(env, argv[1], napi_float64_array, (void **)&k, &nK) ||
      !typedArray(env, argv[2], napi_float32_array, (void **)&xs, &nX) || !int32Arg(env, argv[3], &at) ||
      !int32Arg(env, argv[4], &d) || !typedArray(env, argv[5], napi_float64_array, (void **)&wg, &nWg) ||
      !typedArray(env, argv[6], napi_float64_array, (void **)&wk, &nWk))
    return fail(env, "fmllrAccumulate: (Float64Array, Float64Array, Float32Array, int, int, Float64Array, Float64Array)");
  const size_t n = (size_t)d + 1;
  if (d < 1 || d > 1024 || at < 0 || (size_t)at + (size_t)d > nX || nG < (size_t)d * n * n || nK < (size_t)d * n ||
      nWg < (size_t)d || nWk < (size_t)d)
    return fail(env, "fmllrAccumulate: arrays too short for the stream");
  double x[1025];
  for (int c = 0; c < d; c++) x[c] = xs[at + c];
  for (int i = 0; i < d; i++) {
    const double w = wg[i], v = wk[i];
    double *gi = g + (size_t)i * n * n;
    gi[0] = gi[0] + w;
    for (size_t c = 1; c < n; c++) gi[c] = gi[c] + w * x[c - 1];
    for (size_t r = 1; r < n; r++) {
      const double xr = w * x[r - 1];
      double *row = gi + r * n;
      for (size_t c = r; c < n; c++) row[c] = row[c] + xr * x[c - 1];
    }
    double *ki = k + (size_t)i * n;
    ki[0] = ki[0] + v;
    for (size_t c = 1; c < n; c++) ki[c] = ki[c] + v * x[c - 1];
  }
  return NULL;
}
