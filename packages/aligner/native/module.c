// The engine's native module: the Gaussian kernel (gmm.c), the front end's spectra (frontend.c), the
// Viterbi search (search.c) and the speaker adaptation's statistics (adapt.c), one Node-API module built
// by build.mjs. Every function is synchronous and never calls back into JavaScript.
#include "napi-util.h"

static int define(napi_env env, napi_value exports, const char *name, napi_callback fn) {
  napi_value f;
  return napi_create_function(env, name, NAPI_AUTO_LENGTH, fn, NULL, &f) == napi_ok &&
         napi_set_named_property(env, exports, name, f) == napi_ok;
}

NAPI_MODULE_INIT() {
  if (!define(env, exports, "createModel", gmmCreateModel) || !define(env, exports, "topN", gmmTopN) ||
      !define(env, exports, "vectorLanes", gmmVectorLanes) ||
      !define(env, exports, "createFrontEnd", feCreate) || !define(env, exports, "melSpectra", feMelSpectra) ||
      !define(env, exports, "search", searchViterbi) ||
      !define(env, exports, "fmllrAccumulate", adaptAccumulate))
    return NULL;
  return exports;
}
