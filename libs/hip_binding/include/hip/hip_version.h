/* The HIP release whose names, numeric values and signatures streamhal's HIP
 * headers reproduce. HIP_VERSION uses HIP's published encoding
 * (major * 10000000 + minor * 100000 + patch), which is also what
 * hipRuntimeGetVersion and hipDriverGetVersion report. */
#ifndef STREAMHAL_HIP_HIP_VERSION_H_
#define STREAMHAL_HIP_HIP_VERSION_H_

#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 0
#define HIP_VERSION_PATCH 0

#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

#endif /* STREAMHAL_HIP_HIP_VERSION_H_ */
