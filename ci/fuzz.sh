#!/usr/bin/env bash
# Builds the libFuzzer targets of libs/core (clang, ASan + UBSan) in their own
# build folder and runs each one from its checked-in corpus
# (libs/core/fuzz_corpus/<target>/; the runs add to a copy, never to it).
#
#   ci/fuzz.sh [SECONDS]     run every target for SECONDS (default 30); CI
#                            runs 30, a long run is `ci/fuzz.sh 600`
#   ci/fuzz.sh --corpus      rewrite the generated corpora: kernel images
#                            from the tree's kernels (GLSL, raw SPIR-V, ELF
#                            code objects, fat binaries, a HIP wrapper) and the
#                            JIT options seeds; commit the result
#
# Targets: code_object (kernel images of every format), launch_params (a
# launch's kernelParams and extra array), jit_options (cuModuleLoadDataEx's
# options array, the logs it asks for and the outputs written back, with
# small GLSL kernels compiled by glslang), host_object (the JIT linker's host
# objects and ar archives; its corpus is the nvcc objects and library of
# conformance/ptx_corpus, checked in).
#
# Environment: STREAMHAL_FUZZ_BUILD_DIR (default <repo>/build-fuzz),
# CC/CXX (default clang-14/clang++-14, else clang/clang++).
# Exit status: non-zero when a target found a crash; its input is saved in
# the build folder as <target>-crash-* (replay: <fuzzer binary> FILE).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${STREAMHAL_FUZZ_BUILD_DIR:-${root}/build-fuzz}"
corpora="${root}/libs/core/fuzz_corpus"
targets=(code_object launch_params jit_options host_object)

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

# Seeds for jit_options, written byte by byte in the layout
# libs/core/jit_options_fuzz.cc decodes: a header (the API's option count,
# the number of options, which array is null, where the logs come from, three
# buffer sizes), then per option a kind, a choice and that kind's words, then
# the logs when they do not come from a compile.
make_jit_options_corpus() {
  local out="${corpora}/jit_options"
  rm -rf "${out}"
  mkdir -p "${out}"
  b() { local v; for v in "$@"; do printf "\\$(printf %03o "$((v & 255))")"; done; }
  w() { local v; for v in "$@"; do b "$v" "$((v >> 8))"; done; }
  d() { local v; for v in "$@"; do w "$((v & 65535))" "$(((v >> 16) & 65535))"; done; }
  # header COUNT NUM_OPTIONS ARRAY_FLAGS LOG_SOURCE SIZE0 SIZE1 SIZE2
  header() { b "$1" "$2" "$3" "$4"; w "$5" "$6" "$7"; }
  info_buffer() { b 0 "$1"; }   # buffer 0..2, 3 = null
  error_buffer() { b 1 "$1"; }
  info_size() { b 2 "$1"; w "$2"; }  # choice: 0 -> 0, 1 -> 1, 2 -> SIZE_MAX, 3 -> huge, else the word
  error_size() { b 3 "$1"; w "$2"; }
  verbose() { if (($1)); then b 4 1; d "$1"; else b 4 0; fi; }
  wall_time() { b 5 0; d 0; }
  other_id() { b 6 "$1"; d "$2" 0; }  # an id the API defines (choice % count)
  raw_id() { b 7 0; d "$1" "$2"; }    # any int id
  # logs ERROR_LENGTH ERROR_SEED INFO_LENGTH INFO_SEED WALL_TIME_EIGHTHS
  logs() { w "$1"; b "$2"; w "$3"; b "$4"; w "$5"; }
  local cuda=31 hip=17
  # LOG_SOURCE: 0, 4, 8, 12, 16 compile kernel 0..4 of the fuzzer's list (a
  # clean one, a warning, a compile error, a link error, the prelude); 1 takes
  # the logs from the input.
  { header $cuda 6 0 0 4096 4096 16; wall_time; info_buffer 0; info_size 4 4096
    error_buffer 1; error_size 4 4096; verbose 1; } > "${out}/compile_clean_all_options"
  { header $cuda 3 0 4 256 0 0; info_buffer 0; info_size 4 256; wall_time
  } > "${out}/compile_warning_info_log"
  { header $cuda 2 0 8 0 0 16; error_buffer 2; error_size 4 16; } > "${out}/compile_error_truncated"
  { header $hip 4 0 12 64 64 0; error_buffer 1; error_size 4 64; info_buffer 0; info_size 4 64
  } > "${out}/compile_link_error_hip"
  { header $cuda 4 0 16 8192 0 0; verbose 1; info_buffer 0; info_size 4 8192; wall_time
  } > "${out}/compile_prelude_verbose"
  { header $cuda 4 0 8 4096 0 0; error_buffer 0; error_size 0 0; info_size 2 0; wall_time
  } > "${out}/compile_error_size_zero"
  { header $cuda 5 0 1 100 50 8; info_buffer 0; info_size 4 40; error_buffer 1; error_size 1 0
    wall_time; logs 300 7 30 65 12; } > "${out}/input_logs_sizes_below_buffers"
  { header $cuda 3 0 1 0 0 0; info_size 2 0; error_size 3 0; wall_time; logs 500 1 500 2 3
  } > "${out}/input_logs_huge_sizes_no_buffers"
  { header $cuda 6 0 1 16 4096 32; error_buffer 0; error_size 4 4096; error_buffer 1
    error_size 4 16; error_buffer 2; error_size 4 32; logs 100 9 0 0 1; } > "${out}/input_logs_last_option_wins"
  { header $cuda 2 0 1 64 0 0; info_buffer 0; info_buffer 3; logs 0 0 64 3 1
  } > "${out}/input_logs_buffer_given_then_null"
  { header $cuda 4 0 1 0 0 0; other_id 0 0xdeadbeef; other_id 7 4; other_id 14 1; other_id 30 7
    logs 10 0 10 0 0; } > "${out}/ignored_options_garbage_values"
  { header $hip 1 0 1 0 0 0; raw_id $hip 0; } > "${out}/hip_num_options_is_invalid"
  { header $cuda 2 0 1 16 0 0; info_buffer 0; raw_id $((0xffffffff)) 0; } > "${out}/negative_id_is_invalid"
  { header $cuda 1 0 1 0 0 0; raw_id $((0x7fffffff)) 0; } > "${out}/int_max_id_is_invalid"
  { header $cuda 1 1 1 0 0 0; wall_time; } > "${out}/null_options_array"
  { header $cuda 1 2 1 0 0 0; wall_time; } > "${out}/null_values_array"
  { header $cuda 0 1 0 0 0 0; } > "${out}/no_options_null_arrays"
  echo "fuzz.sh: wrote $(ls "${out}" | wc -l) seeds to libs/core/fuzz_corpus/jit_options"
}

if [[ "${1:-}" == "--corpus" ]]; then
  make_image_corpus
  make_jit_options_corpus
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
