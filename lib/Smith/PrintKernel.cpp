//===- PrintKernel.cpp - A program as a tile kernel -----------------------===//
//
// The kernel is printed in parts: the top of the kernel holds what does not
// depend on the block (constants, ranges, splats of arguments, block-local
// offsets); the work item's body computes a block (or, with a column loop,
// a row block: before the loop, what the loop needs of the row block; the
// column loop, computing a block and carrying the accumulators; after it,
// what is computed from them). With a persistent grid the work item's body
// is the persistent loop's; otherwise it is at the kernel's top level.
// Helper values (index tiles, masks, pointers) are made on first use and
// reused, keyed by what they compute.
//
// This file holds the frame: the header comment with the launch as
// command lines, the signature, the persistent loop and the column loop,
// around the lines the other parts emit: integers, indices, pointers and
// masks in PrintKernelMemory.cpp, the program's operations in
// PrintKernelOps.cpp (KernelPrinter.h).
//
//===----------------------------------------------------------------------===//

#include "tile/Smith/Print.h"

#include "KernelPrinter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::tile;
using namespace mlir::tile::smith;

std::string smith::getTypeText(llvm::ArrayRef<int64_t> dims,
                               llvm::StringRef element) {
  if (dims.empty())
    return element.str();
  std::string text = "tensor<";
  for (int64_t dim : dims)
    text += std::to_string(dim) + "x";
  return text + element.str() + ">";
}

std::string smith::getTypeText(const Value &value) {
  return getTypeText(value.dims, value.element);
}

/// A float argument as the header's tile-run command line writes it.
static std::string formatNumber(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.9g", value);
  return text;
}

Value KernelPrinter::define(llvm::StringRef hint, std::vector<int64_t> dims,
                            llvm::StringRef element, int level,
                            const std::string &text, const std::string &key) {
  if (!key.empty()) {
    auto it = cache.find(key);
    if (it != cache.end())
      return it->second;
  }
  Value value{freshName(hint), std::move(dims), element.str(), level};
  emitLine(level, value.name + " = " + text);
  if (!key.empty())
    cache[key] = value;
  return value;
}

void KernelPrinter::print(llvm::raw_ostream &os, llvm::StringRef fileName) {
  // The work item this program (or this iteration) handles.
  int64_t numItems = p.getNumWorkItems();
  Value numItemsValue;
  // With clusters, a cluster takes a work item: its id and count stand for
  // the program's.
  bool clusters = p.clusterSize > 1;
  // Split over the grid, every program visits every row block: the
  // persistent loop starts at 0 and steps by 1.
  bool grid = p.gridReduce;
  bool splits = p.splitsRows();
  std::string idText =
      clusters ? "tile.cluster_id : i32" : "tile.program_id x : i32";
  switch (p.grid) {
  case GridKind::Blocks:
    item = define("pid", {}, "i32", Top, idText, "pid");
    break;
  case GridKind::Blocks2D:
    break;
  case GridKind::Persistent: {
    if (grid) {
      programId = constI32(0);
      numPrograms = constI32(1);
    } else {
      programId = define("pid", {}, "i32", Top, idText, "pid");
      numPrograms = define("nprog", {}, "i32", Top,
                           clusters ? "tile.num_clusters : i32"
                                    : "tile.num_programs x : i32",
                           "nprog");
    }
    if (!p.sizesAreArgs) {
      numItemsValue = constI32(numItems);
    } else if (p.columnLoop) {
      numItemsValue =
          p.rank == 2
              ? ceilDiv(argOrConst(ArgKind::Rows, 0, 0, true), p.blockRows)
              : constI32(1);
    } else {
      numItemsValue = colBlocks();
      if (p.rank == 2)
        numItemsValue =
            arith("muli", numItemsValue,
                  ceilDiv(argOrConst(ArgKind::Rows, 0, 0, true), p.blockRows));
    }
    item = Value{p.columnLoop ? "%row_block" : "%block", {}, "i32", Item};
    break;
  }
  }
  if (p.columnLoop) {
    columnCount = colBlocks();
    zero = constI32(0);
    one = constI32(1);
    if (clusters) {
      // Program `rank` walks column blocks rank, rank + clusterSize, ...
      rank = define("rank", {}, "i32", Top, "tile.cluster_rank : i32", "rank");
      firstRank = compare("eq", rank, zero);
      clusterStep = constI32(p.clusterSize);
    } else if (grid) {
      // Program `pid` walks column blocks pid, pid + programs, ...
      rank = define("rank", {}, "i32", Top, "tile.program_id x : i32", "rank");
      firstRank = compare("eq", rank, zero);
      clusterStep =
          define("nprog", {}, "i32", Top, "tile.num_programs x : i32", "nprog");
    }
    for (auto [index, op] : llvm::enumerate(p.ops)) {
      if (op.kind != OpKind::Accumulate)
        continue;
      accumulators.push_back(index);
      Value initial = floatConstant(op.shape, op.type, op.value);
      // A sum's start counts once in the cluster's: rank 0's.
      if (splits && op.reduce == ReduceFn::Sum && op.value != 0) {
        Value none = floatConstant(op.shape, op.type, 0);
        initial =
            define("start", {}, initial.element, Top,
                   "arith.select " + firstRank.name + ", " + initial.name +
                       ", " + none.name + " : " + initial.element);
      }
      initials.push_back(initial);
      accumulatorResults.push_back("%accs#" +
                                   std::to_string(accumulators.size() - 1));
    }
    if (splits) {
      // With gridLogSumExp, the float accumulators travel as
      // tile.grid_reduce logsumexp pairs, four at a time: a maximum m beside
      // a sum of 0, whose merged maximum is max m, and a sum s beside a
      // maximum of 0 in every program, whose merged sum is sum s exp(0) =
      // sum s, exactly.
      bool pairs = grid && p.gridLogSumExp;
      if (pairs) {
        std::vector<size_t> floats;
        for (size_t k = 0; k < accumulators.size(); ++k)
          if (!isInteger(p.ops[accumulators[k]].type))
            floats.push_back(k);
        for (size_t first = 0; first < floats.size(); first += 4) {
          size_t count = std::min<size_t>(4, floats.size() - first);
          std::string name = "%grid_pairs" + std::to_string(first / 4);
          std::string line = name + ":" + std::to_string(2 * count) +
                             " = tile.grid_reduce logsumexp ";
          std::string types;
          for (size_t j = 0; j < count; ++j) {
            size_t k = floats[first + j];
            const Op &op = p.ops[accumulators[k]];
            Value partner = floatConstant(Shape::Scalar, op.type, 0);
            bool isMax = op.reduce == ReduceFn::Max;
            line += (j ? ", " : "") +
                    (isMax ? accumulatorResults[k] : partner.name) + ", " +
                    (isMax ? partner.name : accumulatorResults[k]);
            types += (j ? ", " : "") + typeOf(op) + ", " + typeOf(op);
            accumulatorResults[k] =
                name + "#" + std::to_string(2 * j + (isMax ? 0 : 1));
          }
          clusterReduces.push_back(line + " : " + types);
        }
      }
      // One tile.cluster_reduce (or tile.grid_reduce) per kind, of all the
      // (other) accumulators of that kind (one exchange each).
      for (ReduceFn kind : {ReduceFn::Sum, ReduceFn::Max}) {
        std::vector<size_t> of;
        for (size_t k = 0; k < accumulators.size(); ++k)
          if (p.ops[accumulators[k]].reduce == kind &&
              !(pairs && !isInteger(p.ops[accumulators[k]].type)))
            of.push_back(k);
        if (of.empty())
          continue;
        std::string name = std::string(grid ? "%grid_" : "%cluster_") +
                           (kind == ReduceFn::Sum ? "sums" : "maxes");
        std::string line =
            name +
            (of.size() > 1 ? ":" + std::to_string(of.size()) : std::string()) +
            (grid ? " = tile.grid_reduce " : " = tile.cluster_reduce ") +
            (kind == ReduceFn::Sum ? "sum " : "max ");
        std::string types;
        for (auto [j, k] : llvm::enumerate(of)) {
          line += (j ? ", " : "") + accumulatorResults[k];
          types += (j ? ", " : "") + typeOf(p.ops[accumulators[k]]);
          accumulatorResults[k] =
              of.size() > 1 ? name + "#" + std::to_string(j) : name;
        }
        clusterReduces.push_back(line + " : " + types);
      }
    }
  }
  values.resize(p.ops.size());
  for (size_t i = 0; i < p.ops.size(); ++i) {
    if (p.ops[i].phase == 1 && phase == 0) {
      // The column loop ends: each accumulator's next value, yielded.
      for (auto [k, index] : llvm::enumerate(accumulators)) {
        const Op &op = p.ops[index];
        std::string type = typeOf(op);
        std::string next = "%next" + std::to_string(k);
        std::string acc = "%acc" + std::to_string(k);
        if (op.reduce == ReduceFn::Dot) {
          if (op.restart) {
            // Zeros at every restart-th block: select(col_block % restart
            // == 0, zeros, acc).
            std::string kText = std::to_string(k);
            std::string mask = type;
            size_t element = mask.rfind("f32>");
            mask.replace(element, 4, "i1>");
            inner.push_back("%phase" + kText + " = arith.remsi %col_block, " +
                            constI32(op.restart).name + " : i32");
            inner.push_back("%restart" + kText + " = arith.cmpi eq, %phase" +
                            kText + ", " + zero.name + " : i32");
            inner.push_back("%restarts" + kText + " = tile.splat %restart" +
                            kText + " : i1 -> " + mask);
            inner.push_back("%from" + kText + " = arith.select %restarts" +
                            kText + ", " + initials[k].name + ", " + acc +
                            " : " + mask + ", " + type);
            acc = "%from" + kText;
          }
          inner.push_back(next + " = " +
                          dotText(values[op.operands[0]],
                                  values[op.operands[1]], acc, op.precision));
          continue;
        }
        inner.push_back(
            next + " = " +
            (op.reduce == ReduceFn::Sum
                 ? (isInteger(op.type) ? "arith.addi " : "arith.addf ")
                 : (isInteger(op.type) ? "arith.maxsi " : "arith.maximumf ")) +
            acc + ", " + values[op.operands[0]].name + " : " + type);
      }
      phase = 1;
    }
    emitOp(i);
  }

  // The header: what the program is, and how to run and compile it.
  os << "// Generated by tile-smith --seed " << p.seed << ": rank " << p.rank
     << ", blocks of ";
  if (p.rank == 2)
    os << p.blockRows << " x ";
  os << p.blockCols << " over ";
  if (p.rank == 2)
    os << p.rows << " x ";
  int64_t numBlocks = p.getNumBlocks();
  os << p.cols << " elements (" << numBlocks << " block"
     << (numBlocks == 1 ? "" : "s") << "), ";
  if (p.dotK)
    os << "tile.dot over K = " << p.dotK << ", ";
  if (p.columnLoop)
    os << "a loop over the column blocks of each row block"
       << (p.innerStages
               ? " (tile.num_stages = " + std::to_string(p.innerStages) + ")"
               : std::string())
       << (clusters
               ? " split over a cluster of " + std::to_string(p.clusterSize) +
                     " programs (tile.cluster_reduce)"
           : grid ? std::string(" split over the whole grid (tile.grid_reduce)")
                  : std::string())
       << ", ";
  switch (p.grid) {
  case GridKind::Blocks:
    os << "one " << (clusters ? "cluster" : "program") << " per "
       << (p.columnLoop ? "row block" : "block");
    break;
  case GridKind::Blocks2D:
    os << "a 2-D grid of one program per block";
    break;
  case GridKind::Persistent:
    os << "a persistent grid of " << p.programs << " program"
       << (p.programs == 1 ? "" : "s")
       << (clusters ? " (" + std::to_string(p.programs / p.clusterSize) +
                          " cluster" +
                          (p.programs / p.clusterSize == 1 ? "" : "s") + ")"
                    : std::string());
    if (p.numStages)
      os << " (tile.num_stages = " << p.numStages << ")";
    break;
  }
  os << ", " << p.numWarps << " warp" << (p.numWarps == 1 ? "" : "s")
     << (p.specials ? "; some inputs are inf or NaN" : "") << ".\n";
  os << "//\n// Its inputs are arg<N>.npy beside it (python3 utils/difftest.py "
        "--replay DIR\n// writes them, runs it and checks it against ref.py, "
        "the NumPy reference).\n// On the interpreter:\n//\n//   tile-run "
     << fileName << " --target=cpu --grid " << getGrid(p);
  for (const Arg &arg : args) {
    os << " \\\n//     --arg ";
    if (arg.kind == ArgKind::Pointer) {
      const Buffer &buffer = p.buffers[arg.index];
      os << "'" << getStoredTypeName(buffer) << "[" << getBufferSize(p, buffer)
         << "]=@arg" << arg.index << ".npy'";
    } else if (arg.kind == ArgKind::FloatParam) {
      os << arg.type << "="
         << (arg.type == "i32" || arg.type == "i64"
                 ? std::to_string(static_cast<int64_t>(arg.value))
                 : formatNumber(arg.value));
    } else {
      os << "i32=" << static_cast<int64_t>(arg.value);
    }
  }
  for (auto [index, buffer] : llvm::enumerate(p.buffers))
    if (buffer.isOutput)
      os << " \\\n//     --out " << index << "=out" << index << ".npy";
  os << "\n//\n// Compiled as the runtime compiles it for this launch:\n//\n"
     << "//   tile-opt " << fileName
     << " --tile-specialize-arguments=\"divisibility=" << getSpecialization(p)
     << "\" \\\n//     --tile-to-ptx=\"chip=sm_90 dump-ptx=kernel.ptx\" -o "
        "/dev/null\n\n";

  // The signature.
  os << "tile.func @smith(";
  for (auto [index, arg] : llvm::enumerate(args)) {
    if (index)
      os << ",\n                ";
    os << "%" << arg.name << ": " << arg.type;
    if (arg.divisibility)
      os << " {tile.divisibility = " << arg.divisibility << " : i64}";
  }
  os << ")\n    attributes {tile.num_warps = " << p.numWarps << " : i32"
     << (p.fpContract ? "" : ", tile.fp_contract = false")
     << (clusters ? ", tile.cluster_size = " + std::to_string(p.clusterSize) +
                        " : i32"
                  : std::string())
     << (grid ? ", tile.persistent" : "") << "} {\n";
  auto lines = [&](llvm::ArrayRef<std::string> text, llvm::StringRef indent) {
    for (const std::string &line : text)
      os << indent << line << "\n";
  };
  lines(top, "  ");
  std::string indent = persistent ? "    " : "  ";
  if (persistent)
    os << "  scf.for " << item.name << " = " << programId.name << " to "
       << numItemsValue.name << " step " << numPrograms.name << " : i32 {\n";
  lines(before, indent);
  if (p.columnLoop)
    printColumnLoop(os, indent);
  if (splits) {
    // Every program of the cluster (or grid) holds the row block's
    // accumulators; rank 0 computes and stores what follows.
    lines(clusterReduces, indent);
    os << indent << "scf.if " << firstRank.name << " {\n";
    lines(after, indent + "  ");
    os << indent << "}\n";
  } else {
    lines(after, indent);
  }
  if (persistent) {
    os << "  }";
    if (p.numStages)
      os << " {tile.num_stages = " << p.numStages << " : i32}";
    os << "\n";
  }
  os << "  tile.return\n}\n";
}

void KernelPrinter::printColumnLoop(llvm::raw_ostream &os,
                                    const std::string &indent) {
  os << indent;
  if (!accumulators.empty())
    os << "%accs:" << accumulators.size() << " = ";
  bool splits = p.splitsRows();
  os << "scf.for %col_block = " << (splits ? rank.name : zero.name) << " to "
     << columnCount.name << " step " << (splits ? clusterStep.name : one.name);
  if (!accumulators.empty()) {
    os << " iter_args(";
    for (auto [k, index] : llvm::enumerate(accumulators)) {
      const Op &op = p.ops[index];
      (void)op;
      os << (k ? ", " : "") << "%acc" << k << " = " << initials[k].name;
    }
    os << ")\n" << indent << "    -> (";
    for (auto [k, index] : llvm::enumerate(accumulators))
      os << (k ? ", " : "") << typeOf(p.ops[index]);
    os << ")";
  }
  os << " : i32 {\n";
  for (const std::string &line : inner)
    os << indent << "  " << line << "\n";
  if (!accumulators.empty()) {
    os << indent << "  scf.yield ";
    for (size_t k = 0; k < accumulators.size(); ++k)
      os << (k ? ", " : "") << "%next" << k;
    os << " : ";
    for (auto [k, index] : llvm::enumerate(accumulators))
      os << (k ? ", " : "") << typeOf(p.ops[index]);
    os << "\n";
  }
  os << indent << "}";
  if (p.innerStages)
    os << " {tile.num_stages = " << p.innerStages << " : i32}";
  os << "\n";
}

void smith::printKernel(const Program &program, llvm::raw_ostream &os,
                        llvm::StringRef fileName) {
  KernelPrinter(program).print(os, fileName);
}
