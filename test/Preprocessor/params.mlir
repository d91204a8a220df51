// Specialization parameters: defaults, -D overrides in both spellings, uses
// in types, attributes and constants, and text left alone in comments and
// strings.
// RUN: tile-opt %s | FileCheck %s --check-prefix=DEFAULT
// RUN: tile-opt %s -D BLOCK=64 -D WARPS=8 | FileCheck %s --check-prefix=SET
// RUN: tile-opt %s -DBLOCK=64 -DWARPS=8 | FileCheck %s --check-prefix=SET
// RUN: tile-opt %s -D BLOCK=16 | FileCheck %s --check-prefix=PARTIAL
// RUN: tile-opt %s -D DTYPE=bf16 | FileCheck %s --check-prefix=TYPE
// RUN: tile-opt %s -D C_TYPE=f16 | FileCheck %s --check-prefix=OWN
// RUN: tile-opt %s -D DTYPE=bf16 -D C_TYPE=f32 | FileCheck %s --check-prefix=BOTH

// tile.param BLOCK = 1024
//   tile.param   WARPS=4
// tile.param DTYPE = f32
// A default may name a parameter declared above: its value, default or -D.
// tile.param C_TYPE = DTYPE in f16, bf16, f32
// tile.param HALF = BLOCK

// DEFAULT: tile.func @k(%{{.*}}: i32) attributes {note = "${BLOCK}", warps = 4 : i32}
// DEFAULT: tile.range 0, 1024 : tensor<1024xi32>
// DEFAULT: arith.constant 1024 : i32
// DEFAULT: arith.constant 8192 : i32
// DEFAULT: arith.constant 2048 : i64
// SET: tile.func @k(%{{.*}}: i32) attributes {note = "${BLOCK}", warps = 8 : i32}
// SET: tile.range 0, 64 : tensor<64xi32>
// SET: arith.constant 64 : i32
// SET: arith.constant 1024 : i32
// SET: arith.constant 128 : i64
// PARTIAL: attributes {note = "${BLOCK}", warps = 4 : i32}
// PARTIAL: tile.range 0, 16 : tensor<16xi32>
// DEFAULT: tile.func @typed(%{{.*}}: !tile.ptr<f32>)
// TYPE: tile.func @typed(%{{.*}}: !tile.ptr<bf16>)
// DEFAULT: tile.func @derived(%{{.*}}: !tile.ptr<f32>)
// DEFAULT: arith.constant 1024 : i32
// SET: tile.func @derived(%{{.*}}: !tile.ptr<f32>)
// SET: arith.constant 64 : i32
// TYPE: tile.func @derived(%{{.*}}: !tile.ptr<bf16>)
// OWN: tile.func @typed(%{{.*}}: !tile.ptr<f32>)
// OWN: tile.func @derived(%{{.*}}: !tile.ptr<f16>)
// BOTH: tile.func @typed(%{{.*}}: !tile.ptr<bf16>)
// BOTH: tile.func @derived(%{{.*}}: !tile.ptr<f32>)
tile.func @k(%n: i32) attributes {warps = ${WARPS} : i32, note = "${BLOCK}"} {
  // A comment may mention ${UNDECLARED}: comments are left alone.
  %r = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
  %b = arith.constant ${BLOCK} : i32
  // Products of parameters and integers.
  %p = arith.constant ${ WARPS*BLOCK * 2 } : i32
  %q = arith.constant ${2 * BLOCK} : i64
  tile.return
}

tile.func @typed(%p: !tile.ptr<${DTYPE}>) {
  tile.return
}

tile.func @derived(%p: !tile.ptr<${C_TYPE}>) {
  %h = arith.constant ${HALF} : i32
  tile.return
}
