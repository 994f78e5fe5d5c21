#!/usr/bin/env bash
# Executes every notebook in notebooks-export/ on rekey's outputs and writes self-contained HTML (charts embedded as
# images, no scripts to fetch) beside each notebook, or into --html-dir.
#
#   notebooks-export/export.sh                          # the outputs `bin/rekey demo` left under .rekey
#   notebooks-export/export.sh --from DIR               # another run directory (REKEY_RUN_DIR of a demo)
#   notebooks-export/export.sh --from DIR --html-dir D  # write the HTML elsewhere (tests do)
#
# It installs what it needs on a fresh Debian machine and says so: jupyter-nbconvert, python3-nbclient,
# python3-ipykernel, python3-pandas, python3-matplotlib from Debian (apt-get, as root or through sudo), and a venv
# with pyarrow for the Parquet outputs (Debian has no python3-pyarrow), kept in .rekey/notebook-venv.
# Exit codes: 0 every notebook ran and exported, 1 a notebook failed (its cell error is printed), 2 usage.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
FROM="$ROOT/.rekey"
HTML_DIR="$HERE"
BENCH="$ROOT/docs/benchmarks.json"
VENV="${REKEY_NOTEBOOK_VENV:-$ROOT/.rekey/notebook-venv}"

usage() { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while (($#)); do
  case "$1" in
    --from) FROM="${2:?--from needs a directory}"; shift 2 ;;
    --html-dir) HTML_DIR="${2:?--html-dir needs a directory}"; shift 2 ;;
    --bench) BENCH="${2:?--bench needs a file}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "Cannot export notebooks: unknown option $1 (see notebooks-export/export.sh --help)" >&2; exit 2 ;;
  esac
done
if [[ ! -d "$FROM" ]]; then
  echo "Cannot export notebooks: $FROM does not exist (run bin/rekey demo first, or give --from RUN_DIR)" >&2
  exit 2
fi
FROM="$(cd "$FROM" && pwd)"
mkdir -p "$HTML_DIR"
HTML_DIR="$(cd "$HTML_DIR" && pwd)"

# 1. Debian packages
packages=(jupyter-nbconvert python3-nbclient python3-ipykernel python3-pandas python3-matplotlib python3-venv)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "export: installing Debian packages: ${missing[*]}"
  SUDO=""; [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 2. a venv on Debian's Python with its packages visible, plus pyarrow, and a kernel that runs in it
if ! "$VENV/bin/python" -c "import pyarrow, pandas, matplotlib" 2>/dev/null; then
  echo "export: creating $VENV with pyarrow (pip; Debian has no python3-pyarrow)"
  rm -rf "$VENV"
  /usr/bin/python3 -m venv --system-site-packages "$VENV"
  "$VENV/bin/pip" install -q pyarrow
fi
if [[ ! -f "$VENV/share/jupyter/kernels/rekey-notebooks/kernel.json" ]]; then
  "$VENV/bin/python" -m ipykernel install --prefix "$VENV" --name rekey-notebooks \
    --display-name "rekey notebooks" >/dev/null 2>&1
fi

# 3. execute and export each notebook; the notebooks find their inputs through these variables
export REKEY_OUTPUTS="$FROM" REKEY_BENCHMARKS="$BENCH" MPLBACKEND=Agg
export JUPYTER_PATH="$VENV/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
status=0
for nb in "$HERE"/*.ipynb; do
  name="$(basename "$nb" .ipynb)"
  echo "export: running $name.ipynb on $FROM"
  # readers get the story (markdown, charts, tables); the code stays in the .ipynb
  if "$VENV/bin/python" -m nbconvert --to html --execute --ExecutePreprocessor.kernel_name=rekey-notebooks \
      --ExecutePreprocessor.timeout=300 --no-input --no-prompt --output-dir "$HTML_DIR" --output "$name" "$nb" \
      >"$HTML_DIR/.$name.log" 2>&1 && "$VENV/bin/python" "$HERE/self_contained.py" "$HTML_DIR/$name.html"
  then
    echo "export: wrote $HTML_DIR/$name.html"
    rm -f "$HTML_DIR/.$name.log"
  else
    echo "Cannot export $name.ipynb: a cell failed (its error below; the notebook reads $FROM)" >&2
    grep -v "^\[NbConvertApp\]" "$HTML_DIR/.$name.log" | tail -40 >&2
    status=1
  fi
done
exit $status
