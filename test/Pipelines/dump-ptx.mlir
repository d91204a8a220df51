// tile-dump-ptx writes the compiled object and leaves the IR alone.
// RUN: tile-opt %s --tile-dump-ptx="output=%t.ptx" | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=FILE < %t.ptx
// RUN: tile-opt %s --tile-dump-ptx | FileCheck %s --check-prefix=STDOUT
// RUN: not tile-opt %s --tile-dump-ptx="output=%t.missing/x.ptx" 2>&1 | FileCheck %s --check-prefix=BAD-PATH
// RUN: echo 'module {}' | not tile-opt --tile-dump-ptx 2>&1 | FileCheck %s --check-prefix=NOTHING

// IR: gpu.binary @tile_kernels
// FILE: .visible .entry k()
// STDOUT: .visible .entry k()
// BAD-PATH: error: tile-dump-ptx: cannot open output file
// NOTHING: error: tile-dump-ptx: no compiled kernel to write; run gpu-module-to-binary first
module attributes {gpu.container_module} {
  gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".visible .entry k()\0A{\0A\09ret;\0A}\0A">]
}
