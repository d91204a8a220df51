#!/usr/bin/env bash
set -uo pipefail
O=$OUT
run="$(bash bench/unpack-tile-run.sh)"
export TILE_CACHE_DIR=/tmp/abl-cache
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $O/env.txt 2>&1
for n in bench/.abl/cubin/*.cubin; do cuobjdump -sass $n > $O/$(basename $n .cubin).sass 2>&1; done
xz -9 $O/*.sass
for r in 1 2 3; do
  while IFS='|' read -r name kern shape bytes rest; do
    line=$(timeout 60 $run bench/.abl/k/$kern.mlir --ptx bench/.abl/ptx/$name.ptx $rest --bench --bench-reps 40 --bytes $bytes 2>&1 | grep -E '^bench:|error' | head -2)
    echo "$r|$name|$shape|$bytes|$line" >> $O/abl.txt
  done < bench/.abl/cases.txt
  date >> $O/env.txt
done
python3 - > $O/copy.txt 2>&1 <<'PY'
import torch
for m,n in [(4096,1024),(4096,4096),(16384,4096),(4096,8192),(32768,1024),(2048,16384)]:
    b=3*m*n*2; a=torch.empty(b//2,dtype=torch.uint8,device='cuda'); c=torch.empty_like(a)
    flush=torch.empty(256<<20,dtype=torch.uint8,device='cuda')
    ts=[]
    for i in range(40):
        flush.zero_(); s=torch.cuda.Event(enable_timing=True); e=torch.cuda.Event(enable_timing=True)
        s.record(); c.copy_(a); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); print(f"{m}x{n} copy_ms {ts[len(ts)//2]:.5f} GBs {b/ts[len(ts)//2]/1e6:.1f}")
PY
IFS='|' read -r name kern shape bytes rest < <(grep '^ln-head-4096x4096|' bench/.abl/cases.txt)
timeout 150 ncu --kernel-name regex:layer_norm --launch-skip 2 --launch-count 1 --section SourceCounters --section WarpStateStats --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis --section SchedulerStats --import-source no -o /tmp/ln4096 $run bench/.abl/k/$kern.mlir --ptx bench/.abl/ptx/$name.ptx $rest --bench --bench-warmup 2 --bench-reps 1 > $O/ncu-run.log 2>&1
ncu -i /tmp/ln4096.ncu-rep --page details > $O/ncu-details.txt 2>&1
ncu -i /tmp/ln4096.ncu-rep --page source --csv --print-source sass 2>&1 | xz -9 > $O/ncu-source.csv.xz
for s in 4096x4096 4096x8192 2048x16384; do
  m=${s%x*}; n=${s#*x}
  args="--arg bf16[${m}x${n}]=zeros --arg f32[264x${n}]=zeros --arg f32[264x${n}]=zeros --arg bf16[${m}x${n}]=fill:0.75 --arg bf16[${m}x${n}]=fill:1.25 --arg bf16[${n}]=fill:0.5 --arg f32[${m}]=fill:0.1 --arg f32[${m}]=fill:1.5 --arg i32=$n --arg i32=$n --arg i32=$n --arg i32=$m --arg i32=$n"
  TILE_CACHE_DIR=/tmp/tune-$s timeout 100 $run examples/layer_norm_backward.mlir examples/layer_norm_backward_cluster.mlir -D DTYPE=bf16 --grid persistent:264 $args --tune --no-tuning-database --bench --bench-reps 40 --bytes $((3*m*n*2+3*n*2+8*m)) >> $O/tune.log 2>&1
done
