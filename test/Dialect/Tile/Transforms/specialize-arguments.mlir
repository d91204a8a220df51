// RUN: tile-opt %s --tile-specialize-arguments="divisibility=0:16,2:8" | FileCheck %s
// RUN: not tile-opt %s --tile-specialize-arguments="divisibility=0:12" 2>&1 | FileCheck %s --check-prefix=NOT-POW2
// RUN: not tile-opt %s --tile-specialize-arguments="divisibility=7:16" 2>&1 | FileCheck %s --check-prefix=NO-ARG
// RUN: not tile-opt %s --tile-specialize-arguments="divisibility=1:16" 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: not tile-opt %s --tile-specialize-arguments="divisibility=x" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: tile-opt %s --tile-specialize-arguments="ones=2" | FileCheck %s --check-prefix=ONE
// RUN: not tile-opt %s --tile-specialize-arguments="ones=1" 2>&1 | FileCheck %s --check-prefix=ONE-FLOAT
// RUN: not tile-opt %s --tile-specialize-arguments="ones=3" 2>&1 | FileCheck %s --check-prefix=ONE-NO-ARG

// CHECK: tile.func @k(%{{.*}}: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %{{.*}}: f32, %{{.*}}: i32 {tile.divisibility = 8 : i64})
// NOT-POW2: error: tile-specialize-arguments: expected ARGUMENT:DIVISIBILITY with a power-of-two divisibility, got '0:12'
// NO-ARG: error: tile-specialize-arguments: kernel 'k' has no argument 7
// FLOAT: error: tile-specialize-arguments: argument 1 of kernel 'k' is 'f32'; divisibility applies to pointers and integers
// SYNTAX: error: tile-specialize-arguments: expected ARGUMENT:DIVISIBILITY with a power-of-two divisibility, got 'x'
// ONE-LABEL: tile.func @k(
// ONE: %[[ONE:.*]] = arith.constant 1 : i32
// ONE: tile.addptr %{{.*}}, %[[ONE]]
// ONE-FLOAT: error: tile-specialize-arguments: argument 1 of kernel 'k' is 'f32'; only integers can be known to equal 1
// ONE-NO-ARG: error: tile-specialize-arguments: kernel 'k' has no argument 3
tile.func @k(%p: !tile.ptr<f32> {tile.divisibility = 4 : i64}, %x: f32, %n: i32) {
  %q = tile.addptr %p, %n : !tile.ptr<f32>, i32
  tile.return
}
