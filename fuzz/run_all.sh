#!/bin/bash
# Builds every libFuzzer target with sanitizer coverage and AddressSanitizer (the flags
# cargo-fuzz uses, so cargo-fuzz itself is not needed) and runs each for SECONDS (default 600)
# on a scratch copy of its seed corpus, JOBS targets at a time (default 2). Crashes go to
# $OUT/artifacts/<target>/, logs to $OUT/logs/<target>.log; the last lines of each log give the
# executions ("Done N runs in S second(s)"). Nightly toolchain only.
#   fuzz/run_all.sh                # from the repository root
#   SECONDS_PER_TARGET=60 JOBS=4 OUT=/tmp/fz fuzz/run_all.sh
#   SKIP_BUILD=1 ...              # reuse the binaries of an earlier build (CARGO_TARGET_DIR)
set -euo pipefail
cd "$(dirname "$0")"
SECS=${SECONDS_PER_TARGET:-600}
JOBS=${JOBS:-2}
OUT=${OUT:-$PWD/target/fuzz-run}
TRIPLE=$(rustc +nightly -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Zsanitizer=address \
-Cdebug-assertions -Coverflow-checks"
if [ -z "${SKIP_BUILD:-}" ]; then
  cargo +nightly build --release --target "$TRIPLE" --bins
fi
BIN=${CARGO_TARGET_DIR:-$PWD/target}/$TRIPLE/release
mkdir -p "$OUT/logs" "$OUT/artifacts" "$OUT/corpus"
run_one() {
  local t=$1
  rm -rf "$OUT/corpus/$t" && cp -r "corpus/$t" "$OUT/corpus/$t"
  mkdir -p "$OUT/artifacts/$t"
  "$BIN/$t" "$OUT/corpus/$t" -max_total_time="$SECS" -rss_limit_mb=4096 -timeout=20 \
    -artifact_prefix="$OUT/artifacts/$t/" -print_final_stats=1 > "$OUT/logs/$t.log" 2>&1 || true
  echo "$t: $(grep -h '^Done' "$OUT/logs/$t.log" || echo 'no summary (crash?)'); \
crashes: $(ls "$OUT/artifacts/$t" | wc -l)"
}
targets=$(ls fuzz_targets | sed 's/\.rs$//')
running=0
for t in $targets; do
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait
