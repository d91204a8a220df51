//===- Compiler.h - Compiling kernels in-process, with a cache --*- C++ -*-===//
//
// The compiler half of the runtime: one kernel, specialized on the arguments
// of a launch, through the tile-to-ptx pipeline to PTX (or a cubin), with an
// on-disk cache of the results.
//
//   KernelSpecialization spec = *specializeArguments(kernel, args);
//   CompileOptions options;
//   options.chip = "sm_90";
//   options.cacheDir = getDefaultCacheDir();
//   llvm::Expected<CompiledKernel> compiled =
//       compileKernel(kernel, spec, options);
//   // compiled->binary is the PTX, compiled->name the kernel's entry,
//   // compiled->getBlockSize() the threads per block to launch with.
//
// Specialization follows Triton: a pointer argument is 16-byte aligned
// (cuMemAlloc aligns to 256), an integer argument that is a multiple of 16
// (or 8, 4, 2) is promised to be one, through `tile.divisibility` hints
// (the pass tile-specialize-arguments) added before the pipeline runs. Those
// hints let the compiler use 128-bit accesses; they are part of the cache
// key, so another launch whose arguments divide differently compiles again.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_COMPILER_H
#define TILE_RUNTIME_COMPILER_H

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/HostData/KernelArg.h"
#include "tile/Pipelines/Pipelines.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class OpPassManager;
class DialectRegistry;
namespace tile {

/// How to compile: the tile-to-ptx pipeline's options, and the cache.
struct CompileOptions {
  /// The GPU to compile for, "sm_" and its compute capability.
  std::string chip = "sm_90";
  /// LLVM's NVPTX features (the PTX ISA version); empty picks the version
  /// the chip needs (getDefaultPTXFeatures).
  std::string features;
  /// Warps per block for kernels without a `tile.num_warps` attribute.
  unsigned numWarps = 4;
  unsigned optLevel = 3;
  /// .loc line information pointing at the kernel's source.
  bool lineInfo = true;
  /// PTX text, or a cubin made by the toolkit's ptxas (under cudaPath).
  OutputFormat format = OutputFormat::PTX;
  std::string cudaPath = "/usr/local/cuda";
  /// The directory of the on-disk cache; empty compiles without it.
  std::string cacheDir;
  /// Whether loops keep their tile.num_stages requests. The runtime compiles
  /// a kernel again without them when, pipelined, it spills (a choice the
  /// compiler makes must never make a kernel spill).
  bool pipelineLoops = true;
  /// On sm_90a, TMA copies for the descriptor loads that feed a dot (the
  /// pipeline's `tma` option, on by default); the kernel then takes tensor
  /// maps, which launchKernel makes. Other chips ignore it.
  bool tma = true;
};

/// Whether a loop of `kernel` asks to be pipelined (tile.num_stages >= 2).
bool requestsPipelining(FuncOp kernel);

/// The PTX features a chip needs: "+ptx81" (st.async, for clusters) up to
/// sm_90, "+ptx88" from sm_100.
std::string getDefaultPTXFeatures(llvm::StringRef chip);

/// Checks a chip name: "sm_" and a compute capability, such as "sm_90".
llvm::Error checkChipName(llvm::StringRef chip);

/// The cache directory to use by default: $TILE_CACHE_DIR, else
/// $XDG_CACHE_HOME/tile, else $HOME/.cache/tile; empty if none is set.
std::string getDefaultCacheDir();

/// Identifies the compiler in cache keys: a hash of the project's sources at
/// build time and LLVM's version.
llvm::StringRef getCompilerVersion();

/// What a compilation is specialized on besides the kernel's text.
struct KernelSpecialization {
  /// Per parameter, the divisibility promised to the compiler (a power of
  /// two; bytes for a pointer), or 0 for none. Shorter than the parameter
  /// list means no promise for the rest.
  llvm::SmallVector<int64_t> divisibility;
  /// The integer parameters whose argument is 1 (Triton's specialization of
  /// unit strides): the kernel is compiled with the constant 1 in their
  /// place.
  llvm::SmallVector<unsigned> ones;

  /// "0:16,1:16,3:16,4:=1": the divisibilities (tile-specialize-arguments'
  /// option) and the ones, the form in the cache key.
  std::string str() const;
};

/// Triton's specialization for a launch with `args` (one per parameter, of
/// the right types): 16 for each buffer; for each i32 or i64 argument the
/// largest power of two up to 16 dividing it (16 for 0), if more than 1,
/// and whether it is 1.
/// A hint the kernel already carries is kept when larger; an integer
/// argument that breaks such a hint is an error.
llvm::Expected<KernelSpecialization>
specializeArguments(FuncOp kernel, llvm::ArrayRef<KernelArg> args);

/// Adds tile-specialize-arguments with `specialization`'s promises to `pm`
/// (nothing where it promises nothing): what a launch's compilation runs
/// first, and what the cost model runs before it judges the loops.
void addSpecializeArgumentsPass(OpPassManager &pm,
                                const KernelSpecialization &specialization);

/// The warps per block `kernel` runs with: its `tile.num_warps`, else
/// `options.numWarps`.
unsigned getKernelNumWarps(FuncOp kernel, const CompileOptions &options);

/// The time one pass of the pipeline took.
struct PassTiming {
  std::string pass;
  double seconds = 0;
};

/// A compiled kernel.
struct CompiledKernel {
  /// The kernel's entry point in the module: the tile.func's name.
  std::string name;
  /// PTX text, or a cubin.
  std::string binary;
  OutputFormat format = OutputFormat::PTX;
  unsigned numWarps = 4;
  /// The key of the cache entry (a SHA-256 in hex), and its file when the
  /// cache is used.
  std::string cacheKey;
  std::string cachePath;
  /// True when the binary came from the cache and nothing was compiled.
  bool fromCache = false;
  /// What went wrong with the cache (empty if nothing did, or the cache is
  /// off): an entry that was ignored (and replaced), or why the result could
  /// not be stored. The compilation itself succeeded.
  std::string cacheWarning;
  /// One entry per pass in pipeline order; empty on a cache hit.
  std::vector<PassTiming> passTimings;
  /// The whole compilation (or the cache lookup), in seconds.
  double seconds = 0;
  /// What it was compiled for: the chip, and the specialization's str().
  std::string chip;
  std::string specialization;

  /// Threads per block: 32 x numWarps.
  unsigned getBlockSize() const { return 32 * numWarps; }
};

/// Registers what compileKernel needs in the context that holds the kernel:
/// the dialects of kernels (tile, arith, math, scf) and everything the
/// tile-to-ptx pipeline creates and translates.
void registerCompilerDialects(DialectRegistry &registry);

/// Compiles `kernel` alone (a copy of it: its module is not changed) for
/// `options.chip`, with the divisibility hints of `specialization`, through
/// the tile-to-ptx pipeline. With a cache directory, returns the cached
/// binary when there is one and stores a new one atomically (a temporary
/// file, then a rename). Diagnostics of the pipeline become the error.
llvm::Expected<CompiledKernel>
compileKernel(FuncOp kernel, const KernelSpecialization &specialization,
              const CompileOptions &options);

/// The same from the text of a kernel file: applies `defines` (-D
/// NAME=VALUE), parses it in a context of its own, picks the kernel named
/// `kernelName` (or the only one when empty) and compiles it.
llvm::Expected<CompiledKernel>
compileKernelSource(llvm::StringRef source, llvm::StringRef kernelName,
                    llvm::ArrayRef<std::string> defines,
                    const KernelSpecialization &specialization,
                    const CompileOptions &options);

} // namespace tile
} // namespace mlir

#endif // TILE_RUNTIME_COMPILER_H
