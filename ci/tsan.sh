#!/usr/bin/env bash
# Multi-threaded use under ThreadSanitizer: builds the conformance program
# with the tsan preset and runs the stream, event, launch, transfer and
# memory pool tests (threads launching on their own streams, several threads
# on one stream, host functions, cross-stream events, synchronous calls from
# a second thread against held streams, two threads freeing one pool block)
# with the validation layer on. Any
# ThreadSanitizer report, crash or failing test fails the script.
# Usage: ci/tsan.sh   (expects ci/install-deps.sh to have run)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset tsan >/dev/null
cmake --build --preset tsan --target streamhal-conformance
log=build/tsan/tsan-conformance.txt
status=0
# The program exits 1 when some table rows went untested, as a filtered run
# leaves them; 2 and above is a usage error, a TSan report (66) or a crash.
STREAMHAL_VALIDATION=1 \
  TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$(pwd)/ci/tsan.supp" \
  build/tsan/apps/streamhal-conformance/streamhal-conformance --verbose \
  --gtest_filter='StreamConformance.*:LaunchConformance.*:TransferConformance.*:LegacyOrderConformance.*:SchedulingConformance.*:MemPoolConformance.*' \
  >"$log" 2>&1 || status=$?
if grep -q "WARNING: ThreadSanitizer" "$log" || [ "$status" -ge 2 ] ||
  ! grep -Eq "^[0-9]+ tests ran, 0 failed" "$log"; then
  grep -E -A40 "WARNING: ThreadSanitizer|FAILED|Failure" "$log" | head -200 || true
  echo "ci/tsan.sh: failed (exit status $status); full log in $log" >&2
  exit 1
fi
grep -E "^[0-9]+ tests ran" "$log"
echo "ci/tsan.sh: no ThreadSanitizer reports"
