//===- Passes.td - Passes of the tile-to-ptx pipeline -------------*- tablegen -*-===//

#ifndef TILE_PIPELINES_PASSES_TD
#define TILE_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileDumpPTX : Pass<"tile-dump-ptx", "ModuleOp"> {
  let summary = "Write the compiled kernels to a file";
  let description = [{
    After `gpu-module-to-binary`, writes the object of each `gpu.binary`
    (the PTX text, or the cubin when the pipeline's format is `cubin`) to
    the file `output` (`-` for standard output). The IR is unchanged.

    ```
    tile-opt --tile-to-ptx="dump-ptx=softmax.ptx" examples/softmax.mlir
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "The file to write (- for standard output)">,
  ];
}

#endif // TILE_PIPELINES_PASSES_TD
