//===- RunnerTest.h - tile-runner-test's shared parts ----------*- C++ -*-===//
//
// What tile-runner-test's modes share: the parsed command line, loading the
// kernel with its arguments, and failing with the library's message. The
// cost-model and spill modes live in RunnerTestModel.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TEST_LIB_RUNTIME_RUNNERTEST_H
#define TILE_TEST_LIB_RUNTIME_RUNNERTEST_H

#include "tile/Runtime/KernelSource.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::tile::runner_test {

/// FILE, -D definitions, --grid, --chip and argument specs.
struct Command {
  std::string file;
  KernelSource::Options sourceOptions;
  std::string grid;
  std::string chip = "sm_90";
  std::vector<std::string> specs;
  std::string device, choice, time, waves, ptxas, vary, checkSeconds, corrupt;
  /// model: a GPU of 132 SMs whose memory runs at KHZ over BITS
  /// (GpuModel::fromDevice), not the H100's figures.
  std::string memory;
  bool databases = false;
  bool raw = false;
};

/// Prints `err` and returns 1.
int fail(llvm::Error err);

/// Loads the kernel and makes its arguments from the specs.
llvm::Expected<std::unique_ptr<KernelSource>>
load(const Command &command, llvm::SmallVector<ArgSpec> &specs,
     llvm::SmallVector<KernelArg> &args);

/// The modes of RunnerTestModel.cpp (see tile-runner-test.cpp's header).
int model(const Command &command);
int choose(const Command &command);
int checkSpills(const Command &command);

} // namespace mlir::tile::runner_test

#endif // TILE_TEST_LIB_RUNTIME_RUNNERTEST_H
