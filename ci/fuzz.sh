#!/usr/bin/env bash
# Builds the libFuzzer targets of libs/core (clang, ASan + UBSan) in their own
# build folder and runs each one from its checked-in corpus
# (libs/core/fuzz_corpus/<target>/; the runs add to a copy, never to it).
#
#   ci/fuzz.sh [SECONDS]     run every target for SECONDS (default 30); CI
#                            runs 30, a long run is `ci/fuzz.sh 600`
#   ci/fuzz.sh --corpus      rewrite the kernel-image corpus from the tree's
#                            kernels (GLSL, raw SPIR-V, ELF code objects, fat
#                            binaries, a HIP wrapper); commit the result
#
# Targets: code_object (kernel images of every format), launch_params (a
# launch's kernelParams and extra array).
#
# Environment: STREAMHAL_FUZZ_BUILD_DIR (default <repo>/build-fuzz),
# CC/CXX (default clang-14/clang++-14, else clang/clang++).
# Exit status: non-zero when a target found a crash; its input is saved in
# the build folder as <target>-crash-* (replay: <fuzzer binary> FILE).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${STREAMHAL_FUZZ_BUILD_DIR:-${root}/build-fuzz}"
corpora="${root}/libs/core/fuzz_corpus"
targets=(code_object launch_params)

pick() { for c in "$@"; do if command -v "$c" > /dev/null; then echo "$c"; return; fi; done; }
cc="${CC:-$(pick clang-14 clang)}"
cxx="${CXX:-$(pick clang++-14 clang++)}"
if [[ -z "${cxx}" ]]; then
  echo "fuzz.sh: clang is required (libFuzzer)" >&2
  exit 2
fi

# Warnings stay warnings here: the flags are tuned for GCC.
cmake -S "${root}" -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="${cc}" -DCMAKE_CXX_COMPILER="${cxx}" \
  -DSTREAMHAL_BUILD_FUZZERS=ON -DSTREAMHAL_BUILD_TESTS=OFF \
  -DSTREAMHAL_BUILD_BENCHMARKS=OFF -DSTREAMHAL_WERROR=OFF > "${build}.configure.log" \
  || { cat "${build}.configure.log" >&2; exit 1; }
# shellcheck disable=SC2046  # one word per target
ninja -C "${build}" streamhal_fuzz_pack $(printf 'streamhal_%s_fuzz ' "${targets[@]}")

make_image_corpus() {
  local glslang pack out src name spvs=()
  glslang="$(pick glslangValidator glslang)"
  if [[ -z "${glslang}" ]]; then
    echo "fuzz.sh: glslangValidator is required for the image corpus" >&2
    exit 2
  fi
  pack="${build}/libs/core/streamhal_fuzz_pack"
  out="${corpora}/code_object"
  local work="${build}/corpus-src"
  rm -rf "${out}" "${work}"
  mkdir -p "${out}" "${work}"
  # Two kernels written here (a parameter block; literal workgroup size with
  # dynamic shared memory) and the example kernels of the tree.
  cat > "${work}/seed_scale.comp" <<'GLSL'
#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params { float_ptr x; float a; uint n; } p;
void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.x.v[i] *= p.a;
}
GLSL
  cat > "${work}/seed_shared.comp" <<'GLSL'
#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_LITERAL_WORKGROUP_SIZE
#include "streamhal/kernel.glsl"
layout(local_size_x = 64) in;
STREAMHAL_DECLARE_PTR(uint);
STREAMHAL_DYNAMIC_SHARED(uint, 4, scratch);
layout(push_constant) uniform Params { uint_ptr out_; } p;
void main() {
  scratch[threadIdx.x % scratch.length()] = threadIdx.x;
  __syncthreads();
  p.out_.v[blockIdx.x * 64 + threadIdx.x] = scratch[0];
}
GLSL
  cp "${root}"/apps/examples/kernels/*.comp "${work}/"
  for src in "${work}"/*.comp; do
    name="$(basename "${src}" .comp)"
    "${glslang}" --quiet -V --target-env vulkan1.2 -I"${root}/libs/core/include_glsl" \
      -e "${name}" --source-entrypoint main -o "${work}/${name}.spv" "${src}" > /dev/null
    # GLSL as cuModuleLoadData takes it: NUL-terminated.
    { cat "${src}"; printf '\0'; } > "${out}/${name}.glsl"
    cp "${work}/${name}.spv" "${out}/${name}.spv"
    "${pack}" --format=elf -o "${out}/${name}.elf" "${work}/${name}.spv"
    "${pack}" --format=fatbin -o "${out}/${name}.fatbin" "${work}/${name}.spv"
    spvs+=("${work}/${name}.spv")
  done
  "${pack}" --format=elf -o "${out}/all.elf" "${spvs[@]}"
  "${pack}" --format=fatbin -o "${out}/all.fatbin" "${spvs[@]}"
  # The HIP fat-binary wrapper: magic, version, then the bundle it points
  # at (the fuzzer reads the bytes after the 24-byte wrapper as that bundle).
  { printf 'FPIH\x01\x00\x00\x00'; head -c 16 /dev/zero; cat "${out}/all.fatbin"; } \
    > "${out}/all.hipwrapper"
  echo "fuzz.sh: wrote $(ls "${out}" | wc -l) images to libs/core/fuzz_corpus/code_object"
}

if [[ "${1:-}" == "--corpus" ]]; then
  make_image_corpus
  exit 0
fi
seconds="${1:-30}"

status=0
for target in "${targets[@]}"; do
  fuzzer="${build}/libs/core/streamhal_${target}_fuzz"
  work="${build}/run/${target}"
  rm -rf "${work}"
  mkdir -p "${work}/corpus"
  cp -r "${corpora}/${target}/." "${work}/corpus/"
  options=()
  [[ -f "${corpora}/${target}.dict" ]] && options+=("-dict=${corpora}/${target}.dict")
  echo "fuzz.sh: ${target}: $(ls "${work}/corpus" | wc -l) seeds, ${seconds} s"
  if ! (cd "${work}" && "${fuzzer}" corpus "${options[@]}" -max_total_time="${seconds}" \
      -max_len=65536 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="${build}/${target}-" > "${work}/log.txt" 2>&1); then
    tail -n 60 "${work}/log.txt" >&2
    echo "fuzz.sh: ${target} found a crash; the input is in ${build}/${target}-crash-*" >&2
    status=1
  fi
  grep -E "^stat::(number_of_executed_units|new_units_added)" "${work}/log.txt" |
    sed "s/^/fuzz.sh: ${target}: /" || true
done
exit "${status}"
