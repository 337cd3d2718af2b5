// The public API a call came through. CUDA and HIP agree on almost every
// rule; where their vendors document different argument rules (HIP rejects
// an empty module path or symbol name, accepts AMD's event release flags),
// the core function takes the caller's Api and applies that API's rule, so
// the bindings stay free of validation.
#ifndef STREAMHAL_CORE_API_H_
#define STREAMHAL_CORE_API_H_

namespace streamhal {

enum class Api { kCuda, kHip };

}  // namespace streamhal

#endif  // STREAMHAL_CORE_API_H_
