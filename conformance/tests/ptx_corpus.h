// The PTX that nvcc -ptx -arch=compute_75 wrote for conformance/ptx_corpus/*.cu
// (the .ptx files, compiled in by conformance/CMakeLists.txt).
#ifndef STREAMHAL_CONFORMANCE_TESTS_PTX_CORPUS_H_
#define STREAMHAL_CONFORMANCE_TESTS_PTX_CORPUS_H_

#include <vector>

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
const char* PtxBitOps();
const char* PtxAtomicsExt();
const char* PtxGenericShared();
const char* PtxBitFind();
const char* PtxFloatToInt();
// __noinline__ device functions: device_calls and call_barrier.
const char* PtxDeviceCalls();
// Kernels of the second corpus round: tiled matrix multiply, padded
// transpose, prefix scan, bitonic sort, Mandelbrot, N-body, stencil, 64-bit
// integer math, a switch with early returns, structs by value.
const char* PtxMatmulTiled();
const char* PtxTransposePadded();
const char* PtxPrefixScan();
const char* PtxBitonicSort();
const char* PtxMandelbrot();
const char* PtxNbody();
const char* PtxStencil();
const char* PtxInt64Math();
const char* PtxSwitchReturns();
const char* PtxStructParam();
// Texture objects as kernel parameters: tex.2d, tex.1d of linear memory,
// integer texels, a handle chosen with selp, one passed to a device function.
const char* PtxTextureFetch();
// Warp instructions: shuffle reductions (warp_reduce, warp_down_loop),
// votes (warp_vote), shfl.idx broadcast, butterfly scan and segmented
// shuffles (warp_broadcast, warp_xor_scan, warp_segments), match.sync
// (warp_match), redux.sync (warp_redux, compute_80).
const char* PtxWarpReduce();
const char* PtxWarpVote();
const char* PtxWarpShuffle();
const char* PtxWarpMatch();
const char* PtxWarpRedux();
// Half precision: .f16/.f16x2 arithmetic and conversions (half_ops), __half
// arrays in memory (half_scale).
const char* PtxHalfOps();
// bfloat16 (bf16_ops.cu): compute_80 (fma.rn.bf16, min/max, set.f32) and
// compute_90 (add/sub/mul.bf16, setp.bf16, cvt.f32.bf16) builds of one kernel.
const char* PtxBf16Ops();
const char* PtxBf16OpsSm90();
// Relocatable device code (nvcc -rdc=true) for the linker: link_scale defines
// the .visible global link_factor, link_offset only declares it .extern;
// link_call_a defines the .visible .func link_weight that link_call_b
// declares .extern and calls.
const char* PtxLinkScale();
const char* PtxLinkOffset();
const char* PtxLinkCallA();
const char* PtxLinkCallB();

// nvcc -fatbin of vector_add.cu: PTX and SASS (uncompressed), SASS only, PTX
// compressed with zstd (nvcc's default) and with LZ4 (--compress-mode=speed);
// of matmul_tiled.cu: PTX and SASS compressed with zstd (--compress-mode=size).
std::vector<unsigned char> FatbinVectorAdd();
std::vector<unsigned char> FatbinVectorAddSass();
std::vector<unsigned char> FatbinVectorAddCompressed();
std::vector<unsigned char> FatbinVectorAddLz4();
std::vector<unsigned char> FatbinMatmulTiledCompressed();

// Host objects for CU_JIT_INPUT_OBJECT (nvcc -c, PTX for compute_75 only):
// vector_add.o has a .nv_fatbin section; link_scale.o and link_offset.o
// (-rdc=true) an __nv_relfatbin section; host_only.o (the C compiler's) no
// device code.
std::vector<unsigned char> ObjectVectorAdd();
std::vector<unsigned char> ObjectLinkScale();
std::vector<unsigned char> ObjectLinkOffset();
std::vector<unsigned char> ObjectHostOnly();
// nvcc -lib of link_call_a.cu and link_call_b.cu (-rdc=true, members with
// long names) and host_only.o: a CU_JIT_INPUT_LIBRARY input.
std::vector<unsigned char> LibraryLinkCall();

}  // namespace streamhal::conformance

#endif  // STREAMHAL_CONFORMANCE_TESTS_PTX_CORPUS_H_
