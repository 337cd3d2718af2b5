/* Names of result codes, looked up through C: a result code is any int the
 * call returned, which a C++ CUresult or hipError_t may not hold. */
#ifndef STREAMHAL_APPS_STREAMHAL_SWEEP_RESULT_NAMES_H_
#define STREAMHAL_APPS_STREAMHAL_SWEEP_RESULT_NAMES_H_

#ifdef __cplusplus
extern "C" {
#endif

/* cuGetErrorName's name for `code`, or null when it has none. */
const char* SweepCudaErrorName(int code);
/* hipGetErrorName's name for `code`. */
const char* SweepHipErrorName(int code);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STREAMHAL_APPS_STREAMHAL_SWEEP_RESULT_NAMES_H_ */
