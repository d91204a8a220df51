# -*- Python -*-
# lit configuration of the tile test suite.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "TILE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")
config.excludes = ["CMakeLists.txt", "Inputs", "README.md", "lit.cfg.py", "lit.site.cfg.py"]

llvm_config.use_default_substitutions()
config.substitutions.append(("%tile_src_root", config.tile_src_root))
config.substitutions.append(("%tile_obj_root", config.tile_obj_root))
config.substitutions.append(("%examples", os.path.join(config.tile_src_root, "examples")))

# The project's tools first, then LLVM's (FileCheck, not, count).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tile_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["tile-opt", "tile-run"], [config.tile_tools_dir])

# Checkers run with a Python that has numpy (TILE_TEST_PYTHON, by default
# /usr/bin/python3: Debian's python3-numpy installs for it, not for another
# python3 that may come first on PATH). This replaces the %python of LLVM's
# default substitutions, which is the Python running lit.
config.substitutions = [s for s in config.substitutions if s[0] != "%python"]
config.substitutions.append(("%python", config.tile_test_python))
config.substitutions.append(
    (
        "%reference",
        config.tile_test_python
        + " "
        + os.path.join(config.tile_src_root, "utils", "reference.py"),
    )
)

# clang-format checks the style of the sources where it is installed.
import shutil

if shutil.which("clang-format"):
    config.available_features.add("clang-format")

# ptxas assembles the compiler's PTX, where the CUDA toolkit is installed (on
# every machine of this project's kind, CI included; no GPU needed).
ptxas = os.environ.get("TILE_PTXAS", "/usr/local/cuda/bin/ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
