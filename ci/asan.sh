#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (the asan preset), with the validation layer on. Any sanitizer report in
# the project's code, crash or failing test fails the script. Leaks inside
# the Vulkan driver (lavapipe, LLVM) are suppressed by ci/lsan.supp, which
# names driver libraries only.
# Usage: ci/asan.sh   (expects ci/install-deps.sh to have run)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)"
export STREAMHAL_VALIDATION=1
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=${root}/ci/lsan.supp:print_suppressions=0"
log=build/asan/asan-ctest.txt
status=0
# The bad-input sweep runs on its own below, without the validation layer
# (the release suite runs it with validation): ~2,500 driver start-ups under
# ASan are the longest part of this script.
ctest --preset asan -j "$(nproc)" -E '^streamhal_sweep$' >"$log" 2>&1 || status=$?
sweep_log=build/asan/asan-sweep.txt
sweep_status=0
build/asan/apps/streamhal-sweep/streamhal-sweep --jobs="$(nproc)" >"$sweep_log" 2>&1 ||
  sweep_status=$?
head -n 5 "$sweep_log"
if [ "$sweep_status" -ne 0 ]; then
  cat "$sweep_log" >&2
  echo "ci/asan.sh: the bad-input sweep failed under ASan (exit status $sweep_status)" >&2
  exit 1
fi
if [ "$status" -ne 0 ] || grep -Eq "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$log"; then
  grep -E -B5 -A40 "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|\*\*\*Failed|Failed  |FAILED" "$log" |
    head -300 || true
  echo "ci/asan.sh: failed (ctest exit status $status); full log in $log" >&2
  exit 1
fi
tail -n 3 "$log"
echo "ci/asan.sh: no AddressSanitizer, LeakSanitizer or UndefinedBehaviorSanitizer reports"
