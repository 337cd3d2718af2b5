#!/bin/sh
# Regenerates the checked-in PTX from the .cu kernels (needs nvcc; builds and
# tests never do). Usage: conformance/ptx_corpus/regenerate.sh [path/to/nvcc]
set -e
cd "$(dirname "$0")"
NVCC=${1:-${NVCC:-nvcc}}
for cu in *.cu; do
  # link_*.cu are inputs of cuLink* tests: relocatable device code, whose
  # externs only a link resolves.
  case "$cu" in link_*) rdc=-rdc=true ;; *) rdc= ;; esac
  # redux.sync and bf16 arithmetic need compute_80.
  case "$cu" in warp_redux.cu|bf16_ops.cu) arch=compute_80 ;; *) arch=compute_75 ;; esac
  "$NVCC" -ptx $rdc -arch=$arch -O3 -o "${cu%.cu}.ptx" "$cu"
done
# compute_90 has bf16 add/sub/mul, setp.bf16 and cvt.f32.bf16 of its own.
"$NVCC" -ptx -arch=compute_90 -O3 -o bf16_ops_sm90.ptx bf16_ops.cu
# Fat binaries of vector_add: PTX and SASS uncompressed, SASS only, PTX
# compressed as nvcc does by default since CUDA 13 (zstd) and in its "speed"
# mode (LZ4); and of matmul_tiled, PTX and SASS compressed for size (zstd).
"$NVCC" -fatbin --no-compress -gencode arch=compute_75,code=compute_75 \
  -gencode arch=compute_75,code=sm_75 -o vector_add.fatbin vector_add.cu
"$NVCC" -fatbin -gencode arch=compute_75,code=sm_75 -o vector_add_sass.fatbin vector_add.cu
"$NVCC" -fatbin -gencode arch=compute_75,code=compute_75 -o vector_add_compressed.fatbin vector_add.cu
"$NVCC" -fatbin -gencode arch=compute_75,code=compute_75 --compress-mode=speed \
  -o vector_add_lz4.fatbin vector_add.cu
"$NVCC" -fatbin -gencode arch=compute_75,code=compute_75 -gencode arch=compute_75,code=sm_75 \
  --compress-mode=size -o matmul_tiled_compressed.fatbin matmul_tiled.cu
# Host objects and a static library for the CU_JIT_INPUT_OBJECT / LIBRARY
# inputs. One PTX-only arch, uncompressed, keeps them small and linkable.
dev="--no-compress -gencode arch=compute_75,code=compute_75"
# Whole-program device code: a .nv_fatbin section.
"$NVCC" -c $dev -o vector_add.o vector_add.cu
# Relocatable device code: an __nv_relfatbin section.
"$NVCC" -c -rdc=true $dev -o link_scale.o link_scale.cu
"$NVCC" -c -rdc=true $dev -o link_offset.o link_offset.cu
# No device code at all.
"${CC:-cc}" -c -O2 -o host_only.o host_only.c
# The link_call pair and the host-only object as one archive; members named
# past ar's 16 characters exercise GNU's long-name table.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$NVCC" -c -rdc=true $dev -o "$tmp/link_call_a_relocatable.o" link_call_a.cu
"$NVCC" -c -rdc=true $dev -o "$tmp/link_call_b_relocatable.o" link_call_b.cu
cp host_only.o "$tmp/host_only.o"
rm -f link_call.a
"$NVCC" -lib -o link_call.a "$tmp/link_call_a_relocatable.o" "$tmp/link_call_b_relocatable.o" \
  "$tmp/host_only.o"
