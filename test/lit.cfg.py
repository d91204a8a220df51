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

# FileCheck, not and count come from LLVM's tools. The GPU bundle
# (scripts/build-gpu-bundle.sh) runs its tests where there are none: only
# the tests under cuda/, which need none of them, run there.
if os.path.exists(os.path.join(config.llvm_tools_dir, "FileCheck")):
    llvm_config.use_default_substitutions()
config.substitutions.append(("%tile_src_root", config.tile_src_root))
config.substitutions.append(("%tile_obj_root", config.tile_obj_root))
config.substitutions.append(("%examples", os.path.join(config.tile_src_root, "examples")))

# tile-run's target is the CPU interpreter unless a test asks for the GPU
# (--target=cuda): a GPU on the machine must not change what a test runs.
config.environment["TILE_TARGET"] = "cpu"
# Permissions hold back only users other than root: the tests of a cache
# that cannot be written need one.
if hasattr(os, "geteuid") and os.geteuid() != 0:
    config.available_features.add("non-root")
# A build with AddressSanitizer (TILE_SANITIZE=ON, or TILE_ENABLE_FUZZER=ON
# as scripts/build-sanitized.sh builds): `sanitized`, for the tests that
# start thousands of threads or limit the address space.
def _is_on(value):
    return str(value).upper() in ("ON", "1", "TRUE", "YES")
if _is_on(getattr(config, "tile_sanitize", "OFF")) or _is_on(getattr(config, "tile_enable_fuzzer", "OFF")):
    config.available_features.add("sanitized")
# Compiled kernels are cached in the build tree, not in the user's
# ~/.cache/tile.
config.environment["TILE_CACHE_DIR"] = os.path.join(config.tile_obj_root, "test", "tile-cache")

# The project's tools first, then LLVM's (FileCheck, not, count).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tile_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["tile-opt", "tile-run", "tile-smith", "tile-compile-source", "tile-runner-test", "tile-tensor-map-test", "tile-capi-test", "tile-cache-test"], [config.tile_tools_dir])

config.substitutions.append(("%tile_bin", config.tile_tools_dir))

# MLIR's own mlir-opt and mlir-runner (mlir-22-tools) run lowered IR on the
# CPU, with the runner's C library (libmlir-22-dev).
mlir_c_runner_utils = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib", "libmlir_c_runner_utils.so")
if os.path.exists(os.path.join(config.llvm_tools_dir, "mlir-runner")) and os.path.exists(mlir_c_runner_utils):
    config.available_features.add("mlir-runner")
config.substitutions.append(("%mlir_c_runner_utils", mlir_c_runner_utils))

# The C API's shared library (libtile-c.so), which the Python package
# (python/tile) loads: `tile-c-library` where it is built (not in sanitized
# builds). %tile_python runs the package's Python with it: the tests'
# Python with the package on its path and this build's library.
tile_c_library = os.path.join(getattr(config, "tile_lib_dir", ""), "libtile-c.so")
if os.path.exists(tile_c_library):
    config.available_features.add("tile-c-library")
config.substitutions.append(("%tile_c_library", tile_c_library))
config.substitutions.append(
    (
        "%tile_python",
        "env PYTHONPATH=%s TILE_LIBRARY=%s PYTHONDONTWRITEBYTECODE=1 %s"
        % (os.path.join(config.tile_src_root, "python"), tile_c_library, config.tile_test_python),
    )
)

# Checkers run with a Python that has numpy (TILE_TEST_PYTHON, by default
# /usr/bin/python3: Debian's python3-numpy installs for it, not for another
# python3 that may come first on PATH). This replaces the %python of LLVM's
# default substitutions, which is the Python running lit.
config.substitutions = [s for s in config.substitutions if s[0] != "%python"]
config.substitutions.append(("%python", config.tile_test_python))
# difftest: the random-kernel driver (utils/difftest.py), on this build's
# tools, with the Python the checkers use.
config.substitutions.append(
    (
        "%difftest",
        config.tile_test_python
        + " "
        + os.path.join(config.tile_src_root, "utils", "difftest.py")
        + " --bin "
        + config.tile_tools_dir,
    )
)
# check_docs: runs the commands a documentation page shows and compares
# their output with what the page quotes (utils/check_docs.py), on this
# build's tools and library, with the Python the checkers use.
config.substitutions.append(
    (
        "%check_docs",
        "%s %s --bin %s --lib %s --python %s"
        % (
            config.tile_test_python,
            os.path.join(config.tile_src_root, "utils", "check_docs.py"),
            config.tile_tools_dir,
            getattr(config, "tile_lib_dir", os.path.join(config.tile_obj_root, "lib")),
            config.tile_test_python,
        ),
    )
)
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

# The CUDA target is always built (the driver is loaded at run time): `cuda`
# when a GPU answers (tile-run --list-devices), so the tests that need one
# run only there (REQUIRES: cuda). Tests that want to see "no CUDA driver
# found" point TILE_CUDA_DRIVER at a missing library.
if True:
    import subprocess

    try:
        listed = subprocess.run(
            [os.path.join(config.tile_tools_dir, "tile-run"), "--list-devices"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=120,
        )
        if listed.returncode == 0:
            config.available_features.add("cuda")
            lit_config.note("GPU tests enabled: " + listed.stdout.decode().strip())
    except (OSError, subprocess.TimeoutExpired):
        pass

# PyTorch, for the tests that compare with torch.softmax on the GPU.
if "cuda" in config.available_features:
    import subprocess

    try:
        if subprocess.run([config.tile_test_python, "-c", "import torch"], timeout=300).returncode == 0:
            config.available_features.add("torch")
    except (OSError, subprocess.TimeoutExpired):
        pass
