//===- Passes.td - Passes of the tile dialect --------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileSpecializeArguments
    : Pass<"tile-specialize-arguments", "ModuleOp"> {
  let summary = "Promise divisibilities of kernel arguments";
  let description = [{
    Adds `tile.divisibility` hints to kernel arguments, the way Triton
    specializes a kernel on which integer arguments are multiples of 16 and
    which pointers are 16-byte aligned. A runtime that knows the arguments of
    a launch applies it before compiling; from the command line it shows
    what the hints buy:

    ```
    tile-opt --tile-specialize-arguments="divisibility=0:16,1:16,2:16,3:16" ...
    ```

    Each entry is `ARGUMENT:DIVISIBILITY`, the argument's index and a power
    of two (bytes, for a pointer). A hint already on the argument is
    replaced.
  }];
  let options = [
    ListOption<"divisibility", "divisibility", "std::string",
               "ARGUMENT:DIVISIBILITY pairs">,
  ];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
