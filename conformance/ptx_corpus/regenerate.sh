#!/bin/sh
# Regenerates the checked-in PTX from the .cu kernels (needs nvcc; builds and
# tests never do). Usage: conformance/ptx_corpus/regenerate.sh [path/to/nvcc]
set -e
cd "$(dirname "$0")"
NVCC=${1:-${NVCC:-nvcc}}
for cu in *.cu; do
  "$NVCC" -ptx -arch=compute_75 -O3 -o "${cu%.cu}.ptx" "$cu"
done
