// Helpers the native module's Node-API functions share (argument checks, errors), and the functions each
// source file exports to module.c.
#ifndef TAZAMUN_NAPI_UTIL_H
#define TAZAMUN_NAPI_UTIL_H
#include <node_api.h>
#include <stdbool.h>
#include <stddef.h>

#define CHECK(call)                                                                                      \
  do {                                                                                                   \
    if ((call) != napi_ok) return NULL;                                                                  \
  } while (0)

static inline napi_value fail(napi_env env, const char *msg) {
  napi_throw_type_error(env, NULL, msg);
  return NULL;
}

static inline int typedArray(napi_env env, napi_value v, napi_typedarray_type want, void **data, size_t *length) {
  bool is = false;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return 0;
  napi_typedarray_type type;
  if (napi_get_typedarray_info(env, v, &type, length, data, NULL, NULL) != napi_ok) return 0;
  return type == want;
}

static inline int int32Arg(napi_env env, napi_value v, int *out) {
  return napi_get_value_int32(env, v, out) == napi_ok;
}

/*
 * A handle for JavaScript: `data` in an external tagged with `tag` (one per kind of handle), freed by
 * `finalize` when the handle is collected, or at once when it cannot be made (NULL then).
 */
static inline napi_value wrapHandle(napi_env env, void *data, napi_finalize finalize, const napi_type_tag *tag) {
  napi_value out;
  if (napi_create_external(env, data, finalize, NULL, &out) != napi_ok) {
    finalize(env, data, NULL);
    return NULL;
  }
  if (napi_type_tag_object(env, out, tag) != napi_ok) return NULL;
  return out;
}

/* The data of a handle wrapHandle made with `tag`, or NULL: not an external, or another kind of handle. */
static inline void *handleData(napi_env env, napi_value v, const napi_type_tag *tag) {
  napi_valuetype kind;
  bool ours = false;
  void *data = NULL;
  if (napi_typeof(env, v, &kind) != napi_ok || kind != napi_external) return NULL;
  if (napi_check_object_type_tag(env, v, tag, &ours) != napi_ok || !ours) return NULL;
  if (napi_get_value_external(env, v, &data) != napi_ok) return NULL;
  return data;
}

/* gmm.c */
napi_value gmmCreateModel(napi_env env, napi_callback_info info);
napi_value gmmTopN(napi_env env, napi_callback_info info);
napi_value gmmVectorLanes(napi_env env, napi_callback_info info);
/* frontend.c */
napi_value feCreate(napi_env env, napi_callback_info info);
napi_value feMelSpectra(napi_env env, napi_callback_info info);
/* search.c */
napi_value searchViterbi(napi_env env, napi_callback_info info);
/* adapt.c */
napi_value adaptAccumulate(napi_env env, napi_callback_info info);

#endif
