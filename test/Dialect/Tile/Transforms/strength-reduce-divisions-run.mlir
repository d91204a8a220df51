// tile-strength-reduce-divisions computes the quotients and remainders the
// divisions did, on the CPU (mlir-runner): a hash of them for each of 24
// divisors (1, -1, powers of two, their neighbours, primes, INT_MAX,
// INT_MIN...) over 3000 dividends each (special values, then a linear
// congruential sequence), signed and unsigned, printed with and without
// the pass and compared (INT_MIN / -1, undefined, is left out).
// REQUIRES: mlir-runner
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s --tile-strength-reduce-divisions -o %t/reduced.mlir
// RUN: not grep -E "arith.(div|rem)[su]i .*: i32" %t/reduced.mlir
// RUN: mlir-opt %s --convert-scf-to-cf --convert-math-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils > %t/divided.txt
// RUN: mlir-opt %t/reduced.mlir --convert-scf-to-cf --convert-math-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils > %t/multiplied.txt
// RUN: diff %t/divided.txt %t/multiplied.txt
// RUN: %python -c "import sys; lines = open(sys.argv[1]).read().split(); sys.exit(0 if len(lines) == 48 else 1)" %t/multiplied.txt

llvm.func @printI64(i64)
llvm.func @printNewline()

llvm.func @hash(%signed: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ndiv = arith.constant 24 : i32
  %divisors = llvm.mlir.constant(dense<[1, -1, 2, 3, 5, 7, -7, 10, 12, 641, 65536, 65537, 2147483647, -2147483648, -3, 1000000007, -1073741824, 6700417, 127, 128, 129, -65535, 2147483646, 1073741825]> : vector<24xi32>) : vector<24xi32>
  %nspecial = arith.constant 16 : i32
  %last = arith.constant 15 : i32
  %specials = llvm.mlir.constant(dense<[0, 1, -1, 2, -2, 2147483647, -2147483648, -2147483647, 12345, -12345, 1073741824, -1073741824, 65536, 65535, 2147483646, 7]> : vector<16xi32>) : vector<16xi32>
  %count = arith.constant 3000 : i32
  %imin = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  %mul = arith.constant 1664525 : i32
  %add = arith.constant 1013904223 : i32
  %k = arith.constant 1000003 : i32
  scf.for %j = %c0 to %ndiv step %c1 : i32 {
    %d = llvm.extractelement %divisors[%j : i32] : vector<24xi32>
    %h:2 = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0, %x = %d) -> (i32, i32) : i32 {
      %small = arith.cmpi ult, %i, %nspecial : i32
      %index = arith.minui %i, %last : i32
      %special = llvm.extractelement %specials[%index : i32] : vector<16xi32>
      %n0 = arith.select %small, %special, %x : i32
      %isMin = arith.cmpi eq, %n0, %imin : i32
      %isM1 = arith.cmpi eq, %d, %m1 : i32
      %both = arith.andi %isMin, %isM1 : i1
      %bad = arith.andi %both, %signed : i1
      %n = arith.select %bad, %c0, %n0 : i32
      %q, %r = scf.if %signed -> (i32, i32) {
        %qs = arith.divsi %n, %d : i32
        %rs = arith.remsi %n, %d : i32
        scf.yield %qs, %rs : i32, i32
      } else {
        %qu = arith.divui %n, %d : i32
        %ru = arith.remui %n, %d : i32
        scf.yield %qu, %ru : i32, i32
      }
      %a1 = arith.muli %acc, %k : i32
      %a2 = arith.xori %a1, %q : i32
      %a3 = arith.muli %a2, %k : i32
      %a4 = arith.xori %a3, %r : i32
      %x1 = arith.muli %x, %mul : i32
      %x2 = arith.addi %x1, %add : i32
      scf.yield %a4, %x2 : i32, i32
    }
    %wide = arith.extsi %h#0 : i32 to i64
    llvm.call @printI64(%wide) : (i64) -> ()
    llvm.call @printNewline() : () -> ()
  }
  llvm.return
}

llvm.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  llvm.call @hash(%t) : (i1) -> ()
  llvm.call @hash(%f) : (i1) -> ()
  llvm.return
}
