#!/usr/bin/env bash
# Sets everything up and runs the whole test suite on lavapipe with the
# Vulkan validation layer on (every test fails on any validation message),
# then the fuzz targets, the whole suite again under AddressSanitizer +
# UndefinedBehaviorSanitizer, and the multi-threaded tests under
# ThreadSanitizer.
# Usage: ci/test.sh [preset]   (default: release)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
bash ci/install-deps.sh
bash ci/build.sh "$preset"
export STREAMHAL_VALIDATION=1
ctest --preset "$preset" -j "$(nproc)"
# Each fuzz target briefly, from its checked-in corpus (libFuzzer, clang).
bash ci/fuzz.sh 30
# The whole suite under ASan + UBSan.
bash ci/asan.sh
# Multi-threaded streams and launches under ThreadSanitizer.
bash ci/tsan.sh
