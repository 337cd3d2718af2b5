#!/bin/sh
# Regenerates the checked-in PTX and fat binary of the example kernels (needs
# nvcc; building and running the examples never do).
# Usage: apps/examples/cuda_kernels/regenerate.sh [path/to/nvcc]
set -e
cd "$(dirname "$0")"
NVCC=${1:-${NVCC:-nvcc}}
"$NVCC" -ptx -arch=compute_75 -O3 -o blur_histogram.ptx blur_histogram.cu
# nvcc's default compression (zstd since CUDA 13), PTX and SASS.
"$NVCC" -fatbin -gencode arch=compute_75,code=compute_75 -gencode arch=compute_75,code=sm_75 \
  -o blur_histogram.fatbin blur_histogram.cu
