# TILE_STATIC_LLVM: link against LLVM's static component libraries.
#
# Debian's MLIR libraries are static archives, but their imported targets
# (MLIRTargets.cmake) link the LLVM shared library (libLLVM.so.22.1) through
# the target `LLVM`. This retargets every imported MLIR target from `LLVM`
# to the static archives of the components below (their dependencies come
# along through LLVMExports.cmake), and makes the project's own libraries
# (LINK_COMPONENTS) use the archives too. The binaries then need only libc,
# libm, libstdc++/libgcc (linked statically too) and zlib/zstd.

set(TILE_STATIC_LLVM_COMPONENTS
  # What the MLIR libraries the project uses link: IR, bitcode, the LLVM IR
  # translation, the optimizer the NVVM target runs, and NVPTX codegen.
  Analysis AsmParser BinaryFormat BitReader BitWriter Core Demangle
  FrontendOffloading FrontendOpenMP IPO IRReader InstCombine Linker MC
  MCParser Object Passes ScalarOpts Support Target TargetParser
  TransformUtils Vectorize
  NVPTXCodeGen NVPTXDesc NVPTXInfo
  CACHE STRING "The LLVM components TILE_STATIC_LLVM links")

# The project's libraries and tools: static components, not libLLVM.
set(LLVM_LINK_LLVM_DYLIB OFF)

llvm_map_components_to_libnames(tile_static_llvm_libs
  ${TILE_STATIC_LLVM_COMPONENTS})

foreach(target IN LISTS MLIR_EXPORTED_TARGETS)
  if(NOT TARGET ${target})
    continue()
  endif()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE")
    continue()
  endif()
  get_target_property(libs ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT libs)
    continue()
  endif()
  list(FIND libs LLVM index)
  if(index EQUAL -1)
    continue()
  endif()
  list(REMOVE_ITEM libs LLVM)
  list(APPEND libs ${tile_static_llvm_libs})
  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")
endforeach()

# LLVMSupport names libz3.so and the shared zstd; neither Z3 (LLVM's
# constraint solver, unused here) nor a shared zstd is wanted: link the
# static zstd and zlib.
if(TARGET LLVMSupport)
  get_target_property(libs LLVMSupport INTERFACE_LINK_LIBRARIES)
  list(FILTER libs EXCLUDE REGEX "z3")
  find_library(TILE_ZSTD_STATIC libzstd.a)
  find_library(TILE_ZLIB_STATIC libz.a)
  if(TILE_ZSTD_STATIC)
    list(TRANSFORM libs REPLACE "^zstd::libzstd_shared$" "${TILE_ZSTD_STATIC}")
  endif()
  if(TILE_ZLIB_STATIC)
    list(TRANSFORM libs REPLACE "^ZLIB::ZLIB$" "${TILE_ZLIB_STATIC}")
  endif()
  set_target_properties(LLVMSupport PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")
endif()

# The C++ runtime inside the binaries too, and no library that nothing uses.
string(APPEND CMAKE_EXE_LINKER_FLAGS
  " -static-libstdc++ -static-libgcc -Wl,--as-needed")
message(STATUS "TILE_STATIC_LLVM: linking LLVM's static libraries")
