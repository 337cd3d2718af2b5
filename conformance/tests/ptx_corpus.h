// The PTX that nvcc -ptx -arch=compute_75 wrote for conformance/ptx_corpus/*.cu
// (the .ptx files, compiled in by conformance/CMakeLists.txt).
#ifndef STREAMHAL_CONFORMANCE_TESTS_PTX_CORPUS_H_
#define STREAMHAL_CONFORMANCE_TESTS_PTX_CORPUS_H_

namespace streamhal::conformance {

const char* PtxVectorAdd();
const char* PtxSaxpy();
const char* PtxGridStride();
const char* PtxBlockReduce();
const char* PtxHistogram();
const char* PtxEarlyReturn();
const char* PtxDynShared();
const char* PtxModuleVars();
const char* PtxLocalArray();

}  // namespace streamhal::conformance

#endif  // STREAMHAL_CONFORMANCE_TESTS_PTX_CORPUS_H_
