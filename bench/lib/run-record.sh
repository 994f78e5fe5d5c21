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
  # the commit, marked +dirty when code differs from it (docs and notebooks do not change a measurement)
  BENCH_COMMIT="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  if [[ -n "$(git -C "$root" status --porcelain --untracked-files=no -- . ':!docs' ':!notebooks-export' 2>/dev/null)" ]]; then
    BENCH_COMMIT+="+dirty"
  fi
  export BENCH_COMMAND BENCH_STARTED BENCH_LOAD_START BENCH_COMMIT
}
