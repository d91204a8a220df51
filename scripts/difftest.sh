#!/usr/bin/env bash
# Differential testing on random kernels: tile-smith's kernels through the
# compiler (tile-opt --tile-to-ptx, ptxas for sm_90 and sm_80), the CPU
# interpreter and, with --target=cuda, a GPU, each checked against the
# kernel's NumPy reference; failures are reduced. See utils/difftest.py.
#
#   scripts/difftest.sh COUNT [--seed S] [--target=cpu|cuda] [--sanitize]
#                             [--jobs N] [--keep DIR] [--no-reduce]
#                             [--with-op OP | --with-tma] [--tma]
#   scripts/difftest.sh --replay DIR
#
# The last line is "COUNT kernels, N mismatches, N crashes"; the exit status
# is 1 if any kernel failed. Binaries: $TILE_BIN, else
# ${TILE_BUILD_DIR:-build}/bin (it does not build them). Python: $TILE_PYTHON,
# else the first of /usr/bin/python3 and python3 that has NumPy.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${TILE_PYTHON:-}"
if [ -z "$python" ]; then
  for candidate in /usr/bin/python3 python3; do
    if "$candidate" -c 'import numpy' >/dev/null 2>&1; then
      python="$candidate"
      break
    fi
  done
fi
if [ -z "$python" ]; then
  echo "difftest: no python3 with NumPy (set TILE_PYTHON)" >&2
  exit 2
fi
exec "$python" "$root/utils/difftest.py" "$@"
