# Sourced by bench/*/run.sh before anything else runs: names the run in every result record it writes
# (bench/record.py reads these): the command as typed from the checkout's root, with the settings the environment
# gave it, the commit it was built from, its start and the machine's load then.
#   bench_run_start "$0" "$@"
bench_run_start() {
  local script root env="" v
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  script="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  shift
  for v in BENCH_JVM_ARGS VARIANTS SKIP_LOAD REKEY_JAR; do
    # quoted as typed: VAR='a b' (a value with a quote in it is shell-escaped instead)
    if [[ -n "${!v:-}" ]]; then
      if [[ "${!v}" == *"'"* ]]; then env+="$v=$(printf %q "${!v}") "; else env+="$v='${!v}' "; fi
    fi
  done
  BENCH_COMMAND="$env${script#"$root"/}${*:+ $*}"
  BENCH_STARTED="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  BENCH_LOAD_START="$(cut -d' ' -f1-3 /proc/loadavg)"
  # A figure measured beside builds or tests mixes rekey with whatever else ran: a run that starts above a load of
  # 0.75 per core (1.5 on 2 cores) is refused; BENCH_ALLOW_BUSY=1 runs it anyway, and bench/collect.py leaves its
  # records out of the current table.
  if ! awk -v l="${BENCH_LOAD_START%% *}" -v c="$(nproc)" 'BEGIN { exit !(l <= 0.75 * c) }'; then
    if [[ "${BENCH_ALLOW_BUSY:-0}" != 1 ]]; then
      echo "bench: the machine is busy (load ${BENCH_LOAD_START%% *} on $(nproc) cores, above 0.75 per core): stop" \
        "builds, tests and other sessions, wait for the load to fall, and run again (BENCH_ALLOW_BUSY=1 runs it" \
        "anyway; its records are left out of docs/benchmarks.md's current table)" >&2
      exit 2
    fi
    echo "bench: running on a busy machine (load ${BENCH_LOAD_START%% *}); the figures will not enter the current table" >&2
  fi
  # the commit, marked +dirty when code differs from it (docs and notebooks do not change a measurement)
  BENCH_COMMIT="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  if [[ -n "$(git -C "$root" status --porcelain --untracked-files=no -- . ':!docs' ':!notebooks-export' 2>/dev/null)" ]]; then
    BENCH_COMMIT+="+dirty"
  fi
  export BENCH_COMMAND BENCH_STARTED BENCH_LOAD_START BENCH_COMMIT
}
