/* A driver-API program written for CUDA 13 (cuda13_program.c, compiled as C
 * with STREAMHAL_CUDA_API_VERSION=13000), run by the conformance tests. */
#ifndef STREAMHAL_CONFORMANCE_TESTS_CUDA13_PROGRAM_H_
#define STREAMHAL_CONFORMANCE_TESTS_CUDA13_PROGRAM_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the program on device 0 of an initialised driver: 0 when every call
 * succeeded and every value was right; otherwise non-zero, with what went
 * wrong in `message` (`size` bytes). */
int RunCuda13Program(char* message, size_t size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STREAMHAL_CONFORMANCE_TESTS_CUDA13_PROGRAM_H_ */
