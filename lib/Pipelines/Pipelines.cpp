//===- Pipelines.cpp - The tile-to-ptx pipeline ---------------------------===//
//
// The stages, as tile-opt --tile-to-ptx --mlir-print-ir-after-all shows them:
//
//   tile        tile-expand-tensor-descs, canonicalize, cse,
//               tile-pipeline-loops
//   tilegpu     convert-tile-to-tilegpu, tilegpu-coalesce,
//               tilegpu-remove-layout-conversions, tilegpu-pipeline,
//               tilegpu-warpgroup-dot (sm_90a), tilegpu-split-dot,
//               tilegpu-prefetch, tilegpu-remove-layout-conversions,
//               canonicalize, cse
//   LLVM/NVVM   convert-scf-to-cf, convert-tilegpu-to-llvm,
//   convert-nvvm-to-llvm,
//               canonicalize, cse,
//               ensure-debug-info-scope-on-llvm-func (line info),
//               reconcile-unrealized-casts
//   PTX         nvvm-attach-target, gpu-module-to-binary (MLIR's NVVM target:
//               LLVM's NVPTX backend; ptxas for a cubin), tile-dump-ptx
//
//===----------------------------------------------------------------------===//

#include "tile/Pipelines/Pipelines.h"

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"
#include "tile/Pipelines/Passes.h"

#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

/// Shared-memory addresses in 32 bits, as they are on the chip: LLVM's
/// NVPTX backend otherwise keeps them in 64-bit registers, which doubles the
/// registers a matmul's ldmatrix and cp.async addresses take. The backend
/// reads this from its command-line option when the NVVM target creates
/// the target machine; there is no other way to ask for it.
static void useShortSharedPointers() {
  static bool done = [] {
    auto options = llvm::cl::getRegisteredOptions();
    if (llvm::cl::Option *option = options.lookup("nvptx-short-ptr"))
      static_cast<llvm::cl::opt<bool> *>(option)->setValue(true);
    return true;
  }();
  (void)done;
}

void tile::buildTileToLLVMPipeline(OpPassManager &pm,
                                   const TileToPTXOptions &options) {
  // tile
  TileExpandTensorDescsOptions expandOptions;
  expandOptions.tma = options.tma && options.chip == "sm_90a";
  expandOptions.numWarps = options.numWarps;
  // Which descriptor loads TMA serves depends on their loops' trip counts,
  // folded first (a loop of one iteration is inlined later); loads of dot
  // operands proven to be boxes become descriptor loads first.
  if (expandOptions.tma) {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createTileLoadsToDescs());
  }
  pm.addPass(createTileExpandTensorDescs(expandOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  TilePipelineLoopsOptions pipelineOptions;
  pipelineOptions.numWarps = options.numWarps;
  pm.addPass(createTilePipelineLoops(pipelineOptions));

  // tilegpu
  ConvertTileToTileGPUOptions layoutOptions;
  layoutOptions.numWarps = options.numWarps;
  pm.addPass(createConvertTileToTileGPU(layoutOptions));
  pm.addPass(tilegpu::createTileGPUCoalesce());
  // Stores stay where they are until the dots have their final layouts
  // (tilegpu-warpgroup-dot turns mma.sync's into wgmma's on sm_90a).
  tilegpu::TileGPURemoveLayoutConversionsOptions keepStores;
  keepStores.storeFromMma = false;
  keepStores.storeFromWgmma = false;
  pm.addPass(tilegpu::createTileGPURemoveLayoutConversions(keepStores));
  pm.addPass(tilegpu::createTileGPUPipeline());
  tilegpu::TileGPUWarpgroupDotOptions wgmmaOptions;
  wgmmaOptions.chip = options.chip;
  pm.addPass(tilegpu::createTileGPUWarpgroupDot(wgmmaOptions));
  pm.addPass(tilegpu::createTileGPUSplitDot());
  pm.addPass(tilegpu::createTileGPUPrefetch());
  tilegpu::TileGPURemoveLayoutConversionsOptions conversionOptions;
  conversionOptions.storeFromMma = options.storeFromMma;
  conversionOptions.storeFromWgmma = options.storeFromWgmma;
  pm.addPass(tilegpu::createTileGPURemoveLayoutConversions(conversionOptions));
  // Last, so that the divisions the pipeliners compute ahead are covered.
  pm.addPass(createTileStrengthReduceDivisions());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // LLVM and NVVM
  pm.addPass(createSCFToControlFlowPass());
  ConvertTileGPUToLLVMOptions llvmOptions;
  llvmOptions.chip = options.chip;
  llvmOptions.gridReduceLeader = options.gridReduceLeader;
  llvmOptions.gridReduceBackoff = options.gridReduceBackoff;
  pm.addPass(createConvertTileGPUToLLVM(llvmOptions));
  // NVVM operations without an LLVM intrinsic (wgmma.mma_async) become
  // inline PTX.
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.lineInfo) {
    // .loc and .file directives only: full debug info would make the PTX
    // target "debug" and its sections would weigh on the JIT.
    LLVM::DIScopeForLLVMFuncOpPassOptions debug;
    debug.emissionKind = LLVM::DIEmissionKind::DebugDirectivesOnly;
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(debug));
  }
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void tile::buildTileToPTXPipeline(OpPassManager &pm,
                                  const TileToPTXOptions &options) {
  buildTileToLLVMPipeline(pm, options);

  // PTX
  useShortSharedPointers();
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  GpuModuleToBinaryPassOptions binary;
  bool cubin = options.format == OutputFormat::Cubin;
  binary.compilationTarget = cubin ? "bin" : "isa";
  binary.toolkitPath = options.cudaPath;
  if (options.lineInfo && cubin)
    binary.cmdOptions = "-lineinfo";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  if (!options.dumpPTX.empty()) {
    TileDumpPTXOptions dump;
    dump.output = options.dumpPTX;
    pm.addPass(createTileDumpPTX(dump));
  }
}

void tile::registerTileToPTXPipeline() {
  PassPipelineRegistration<TileToPTXOptions>(
      "tile-to-ptx", "Compile tile kernels to PTX (or a cubin) for NVIDIA GPUs",
      [](OpPassManager &pm, const TileToPTXOptions &options) {
        buildTileToPTXPipeline(pm, options);
      });
}

void tile::registerTileToPTXDependencies(DialectRegistry &registry) {
  registry.insert<gpu::GPUDialect, LLVM::LLVMDialect, NVVM::NVVMDialect>();
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

std::string tile::getBinaryObjects(ModuleOp module) {
  std::string objects;
  for (auto binary : module.getOps<gpu::BinaryOp>())
    for (Attribute attr : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
        objects += object.getObject().getValue();
  return objects;
}
