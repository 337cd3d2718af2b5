// The JIT linker: cuLinkCreate / cuLinkAddData / cuLinkAddFile /
// cuLinkComplete / cuLinkDestroy and their hipLink* twins.
//
// A link state collects inputs and, at completion, writes one image that
// cuModuleLoadData loads: an ELF code object (code_object.h) with one SPIR-V
// module per compiled input, plus one for all PTX inputs linked together.
//  - PTX inputs (CU_JIT_INPUT_PTX, and the PTX entry of a fat binary given
//    as CU_JIT_INPUT_FATBINARY) are parsed when added and linked at
//    completion by libs/ptx (ptx/link.h): an `.extern .global` of one input
//    binds to the `.visible` definition of another, so relocatable device
//    code (nvcc -rdc) links as with NVIDIA's linker. A parse error is
//    kInvalidPtx when the input is added; an unresolved or doubly defined
//    symbol is kInvalidImage at completion; a construct the translator does
//    not cover is kInvalidPtx at completion. The error log names the input.
//  - Compiled inputs (CU_JIT_INPUT_CUBIN: an ELF code object or raw SPIR-V;
//    CU_JIT_INPUT_FATBINARY: a clang offload bundle; hipJitInputSpirv) and
//    GLSL source given as CU_JIT_INPUT_PTX (the JIT-source analogue) become
//    SPIR-V modules of their own when added. Those that declare the Linkage
//    capability are joined at completion by SPIRV-Tools' linker
//    (spirv_link.h): an Import binds to another input's Export; an
//    unresolved import is kInvalidImage. The others share no symbols. A
//    kernel name two modules define is kInvalidImage at completion.
//  - Host objects (CU_JIT_INPUT_OBJECT, as nvcc -c writes) add the NVIDIA fat
//    binaries of their .nv_fatbin / __nv_relfatbin sections as FATBINARY
//    inputs; static libraries (CU_JIT_INPUT_LIBRARY, ar archives) add every
//    member object's (host_object.h). A malformed object or archive, an
//    object without device code and an archive with none are kInvalidImage.
//    Each input is all or nothing: when one of its fat binaries fails,
//    nothing of it is added.
//  - NVVM IR and LLVM bitcode are kNotSupported; an input type outside the
//    enumeration, or one whose data is another format, is kInvalidValue /
//    kInvalidImage.
//
// CUDA: the inputs are copied (nothing of the caller's is kept); the image
// cuLinkComplete returns belongs to the state and lives until cuLinkDestroy;
// the option arrays given to cuLinkCreate are kept, and the logs and outputs
// they ask for (CU_JIT_WALL_TIME, log sizes) are written when an input fails
// and at completion. Options given to cuLinkAddData apply to that input and
// are written back before it returns. A state belongs to the context current
// at creation and is destroyed with it.
#ifndef STREAMHAL_CORE_LINKER_H_
#define STREAMHAL_CORE_LINKER_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "core/api.h"
#include "core/handle.h"

namespace streamhal {

// CUjitInputType values; HIP's hipJitInputType adds the LLVM kinds and SPIR-V.
enum class LinkInputType : int {
  kCubin = 0,
  kPtx = 1,
  kFatBinary = 2,
  kObject = 3,
  kLibrary = 4,
  kNvvm = 5,
  kLlvmBitcode = 100,
  kLlvmBundledBitcode = 101,
  kLlvmArchiveOfBundledBitcode = 102,
  kSpirv = 103,
};

// `option_count` is the number of option ids the caller's API defines.
// CUDA needs a current context; HIP works on the runtime's (lazy primary
// context).
absl::Status LinkCreate(HandleOut out, unsigned num_options, const int* options, void** values,
                        int option_count, Api api);
// `type` is a CUjitInputType / hipJitInputType value as given.
absl::Status LinkAddData(uint64_t state, int type, const void* data, size_t size, const char* name,
                         unsigned num_options, const int* options, void** values, int option_count);
absl::Status LinkAddFile(uint64_t state, int type, const char* path, unsigned num_options,
                         const int* options, void** values, int option_count);
// `size_out` may be null.
absl::Status LinkComplete(uint64_t state, void** image_out, size_t* size_out);
absl::Status LinkDestroy(uint64_t state);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_LINKER_H_
