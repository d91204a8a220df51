#!/usr/bin/env bash
set -uo pipefail
O=$OUT
run="$(bash bench/unpack-tile-run.sh)"
export TILE_CACHE_DIR=/tmp/abl-cache
head -3 dist/tile-gpu/MANIFEST > $O/env.txt
for r in 1 2; do
  while IFS='|' read -r name kern shape bytes rest; do
    line=$(timeout 60 $run bench/.abl/k/$kern.mlir --ptx bench/.abl/ptx/$name.ptx $rest --bench --bench-reps 40 --bytes $bytes 2>&1 | grep -E '^bench:|error' | head -2)
    echo "$r|$name|$shape|$bytes|$line" >> $O/abl.txt
  done < bench/.abl/cases.txt
done
mkdir -p /tmp/o
( while sleep 20; do tar cJf $O/partial.tar.xz.tmp -C /tmp o 2>/dev/null && mv $O/partial.tar.xz.tmp $O/partial.tar.xz; done ) &
p=$!
OUT=/tmp/o/suite LIT_FILTER='python|float8' timeout 270 bash dist/tile-gpu/run-gpu-tests.sh tests > /tmp/o/tests.log 2>&1
echo "tests rc=$?" >> /tmp/o/tests.log
kill $p; rm -f $O/partial.tar.xz.tmp $O/partial.tar.xz
tar cJf $O/suite.tar.xz -C /tmp o
