#!/usr/bin/env bash
# Makes the ablation kernels of layer_norm_backward.mlir in $1.
set -euo pipefail
out="$1"; mkdir -p "$out"
src=examples/layer_norm_backward.mlir
cp $src "$out/ln_v0.mlir"
# V1: one reduction per row (c2 = c1; wrong math, same bytes).
python3 - "$src" "$out/ln_v1.mlir" <<'PY'
import sys,re
t=open(sys.argv[1]).read()
a=t.index('    %g_sum = tile.reduce sum'); b=t.index('    %c2_col')
t=t[:a]+'    %c2 = arith.addf %c1, %c1 : tensor<${ROWS}xf32>\n'+t[b:]
open(sys.argv[2],'w').write(t)
PY
# V2: no dw/db accumulation.
sed -e 's/%dw_next = arith.addf %dw_i, %dyx/%dw_next = arith.addf %zero_2d, %zero_2d/' \
    -e 's/%db_next = arith.addf %db_i, %dyf/%db_next = arith.addf %zero_2d, %zero_2d/' $src > "$out/ln_v2.mlir"
# V3: both.
sed -e 's/%dw_next = arith.addf %dw_i, %dyx/%dw_next = arith.addf %zero_2d, %zero_2d/' \
    -e 's/%db_next = arith.addf %db_i, %dyf/%db_next = arith.addf %zero_2d, %zero_2d/' "$out/ln_v1.mlir" > "$out/ln_v3.mlir"
