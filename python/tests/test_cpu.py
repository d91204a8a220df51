"""The Python package on the CPU interpreter, with NumPy (no GPU needed).

Run by the lit suite (test/python/pytest.test), and so by scripts/test.sh:

    PYTHONPATH=python /usr/bin/python3 -m pytest python/tests
"""

import ctypes
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import tile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")


def example(name):
    return os.path.join(EXAMPLES, name)


def softmax_reference(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def bf16_bits(x):
    """float32 -> bfloat16 bit patterns (round to nearest even), as uint16."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def bf16_values(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


@pytest.fixture(scope="module")
def softmax():
    return tile.load(example("softmax.mlir"))


# -- Running kernels ---------------------------------------------------------


@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (64, 781), (37, 1024), (5, 4097)])
def test_softmax_f32(softmax, shape):
    m, n = shape
    x = np.random.default_rng(0).standard_normal(shape, dtype=np.float32)
    y = np.zeros_like(x)
    softmax[m](y, x, x.strides[0] // 4, y.strides[0] // 4, m, n)
    np.testing.assert_allclose(y, softmax_reference(x), rtol=1e-5, atol=1e-7)


def test_softmax_in_place(softmax):
    # One array as output and input: the interpreter runs on a copy of each
    # argument, and only the bytes the kernel changed come back (before,
    # the unchanged copy of the input was copied back over the output).
    x = np.random.default_rng(1).standard_normal((37, 781), dtype=np.float32)
    expected = softmax_reference(x)
    softmax[37](x, x, 781, 781, 37, 781)
    np.testing.assert_allclose(x, expected, rtol=1e-5, atol=1e-7)


def test_softmax_f16():
    kernel = tile.load(example("softmax.mlir"), DTYPE="f16")
    x = np.random.default_rng(1).standard_normal((16, 300)).astype(np.float16)
    y = np.zeros_like(x)
    kernel[16](y, x, 300, 300, 16, 300)
    np.testing.assert_allclose(y.astype(np.float32), softmax_reference(x), rtol=2e-3, atol=1e-4)


def test_float8_reinterpreted():
    # NumPy has no 8-bit floats: their bits in uint8 arrays, reinterpreted.
    # y = f8E5M2(f32(x) * 3.5) for x in f8E4M3FN, against utils/float8.py
    # (the formats in float64 from their definitions).
    sys.path.insert(0, os.path.join(ROOT, "utils"))
    import float8
    kernel = tile.load(os.path.join(ROOT, "test", "Interpreter", "Inputs", "f8-scale.mlir"))
    x = np.arange(256, dtype=np.uint8)
    y = np.zeros(256, dtype=np.uint8)
    kernel[1](tile.reinterpret(x, "f8E4M3FN"), tile.reinterpret(y, "f8E5M2"), 256, 3.5)
    product = (float8.decode(x, "e4m3").astype(np.float32) * np.float32(3.5)).astype(np.float64)
    expected = float8.encode(product, "e5m2")
    nan = np.isnan(product)
    assert np.array_equal(y[~nan], expected[~nan])
    assert np.isnan(float8.decode(y[nan], "e5m2")).all()
    with pytest.raises(tile.ArgumentError, match="2-byte elements; f8E4M3FN has 1"):
        kernel[1](tile.reinterpret(np.zeros(4, dtype=np.uint16), "f8E4M3FN"), y, 4, 1.0)


def test_softmax_bf16_reinterpreted():
    # NumPy has no bfloat16: the bit patterns in uint16 arrays, reinterpreted.
    kernel = tile.load(example("softmax.mlir"), DTYPE="bf16")
    x = bf16_bits(np.random.default_rng(2).standard_normal((8, 200), dtype=np.float32))
    y = np.zeros_like(x)
    kernel[8](tile.reinterpret(y, "bf16"), tile.reinterpret(x, "bf16"), 200, 200, 8, 200)
    expected = softmax_reference(bf16_values(x))
    np.testing.assert_allclose(bf16_values(y), expected, rtol=1.6e-2, atol=1e-5)


def test_strided_rows(softmax):
    # Rows of 781 inside rows of 1000: a view whose strides the kernel is
    # given, spanning more than its elements.
    big = np.random.default_rng(3).standard_normal((20, 1000), dtype=np.float32)
    x = big[:, :781]
    out = np.full((20, 1000), 7.0, dtype=np.float32)
    y = out[:, :781]
    softmax[20](y, x, 1000, 1000, 20, 781)
    np.testing.assert_allclose(y, softmax_reference(x), rtol=1e-5, atol=1e-7)
    assert (out[:, 781:] == 7.0).all()  # nothing past the rows written


def test_defaults_fitted_to_the_launch(softmax):
    # Rows of 3000 are past the default BLOCK_SIZE (1024): the launch runs
    # with the nearest that fits, and says so.
    x = np.random.default_rng(4).standard_normal((4, 3000), dtype=np.float32)
    y = np.zeros_like(x)
    softmax[4](y, x, 3000, 3000, 4, 3000)
    np.testing.assert_allclose(y, softmax_reference(x), rtol=1e-5, atol=1e-7)
    assert "fitted: the defaults do not fit the launch" in softmax.messages
    assert "BLOCK_SIZE=4096" in softmax.messages
    function = softmax.prepare(y, x, 3000, 3000, 4, 3000)
    assert function.target == "cpu"
    assert function.meta["BLOCK_SIZE"] == 4096


def test_variants_choose_the_first_that_fits():
    kernel = tile.load(example("softmax.mlir"), example("online_softmax.mlir"), NUM_WARPS=4)
    x = np.random.default_rng(5).standard_normal((2, 40000), dtype=np.float32)
    y = np.zeros_like(x)
    kernel[2](y, x, 40000, 40000, 2, 40000)
    np.testing.assert_allclose(y, softmax_reference(x), rtol=1e-5, atol=1e-7)
    assert "variant: " in kernel.messages and "online_softmax.mlir" in kernel.messages
    assert kernel.prepare(y, x, 40000, 40000, 2, 40000).variant == 1


@pytest.mark.parametrize(
    "grid",
    [
        (97,),
        97,
        [97],
        (97, 1, 1),
        lambda meta: ((meta["n_elements"] + meta["BLOCK_SIZE"] - 1) // meta["BLOCK_SIZE"],),
        lambda meta: -(-meta["n_elements"] // meta["BLOCK_SIZE"]),
    ],
)
def test_vector_add_grids(grid):
    kernel = tile.load(example("vector_add.mlir"))
    n = 98432
    rng = np.random.default_rng(6)
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    out = np.zeros(n, dtype=np.float32)
    kernel[grid](a, b, out, n)
    np.testing.assert_array_equal(out, a + b)


def test_zero_programs_launch_nothing(softmax):
    x = np.ones((2, 8), dtype=np.float32)
    y = np.zeros_like(x)
    softmax[0](y, x, 8, 8, 2, 8)
    assert (y == 0).all()


def test_numpy_scalars_and_run(softmax):
    x = np.random.default_rng(7).standard_normal((3, 10), dtype=np.float32)
    y = np.zeros_like(x)
    softmax.run((3,), y, x, np.int32(10), np.int64(10), 3, 10)
    np.testing.assert_allclose(y, softmax_reference(x), rtol=1e-5, atol=1e-7)


def test_load_string_and_introspection():
    kernel = tile.load_string(
        textwrap.dedent(
            """\
            // tile.param N = 4 in 2, 4, 8
            tile.func @fill(%out: !tile.ptr<i32>, %value: i32, %flag: i1,
                            %scale: f32) {
              %range = tile.range 0, ${N} : tensor<${N}xi32>
              %base = tile.splat %out : !tile.ptr<i32> -> tensor<${N}x!tile.ptr<i32>>
              %ptrs = tile.addptr %base, %range : tensor<${N}x!tile.ptr<i32>>, tensor<${N}xi32>
              %v = tile.splat %value : i32 -> tensor<${N}xi32>
              tile.store %ptrs, %v : tensor<${N}x!tile.ptr<i32>>
              tile.return
            }
            """
        ),
        "fill.mlir",
        N=8,
    )
    assert kernel.name == "fill"
    assert kernel.signature == "@fill(!tile.ptr<i32>, i32, i1, f32)"
    assert [(p.name, p.is_pointer, p.dtype) for p in kernel.params] == [
        ("out", True, "i32"),
        ("value", False, "i32"),
        ("flag", False, "i1"),
        ("scale", False, "f32"),
    ]
    assert kernel.meta["N"].value == "8" and kernel.meta["N"].is_defined
    assert kernel.meta["N"].values == ["2", "4", "8"]
    out = np.zeros(8, dtype=np.int32)
    kernel[1](out, -5, True, 0.5)
    assert (out == -5).all()


def test_compile_to_ptx_without_a_gpu(softmax):
    ptx = softmax.compile(chip="sm_90")
    assert ".entry softmax" in ptx and ".target sm_90" in ptx
    # Specialized on a launch: rows of 1024 floats load 4 at a time.
    x = np.zeros((4, 1024), dtype=np.float32)
    ptx = softmax.compile(x, x, 1024, 1024, 4, 1024, chip="sm_90")
    assert "ld.global.v4" in ptx


def test_version_and_library():
    assert tile.version().startswith("tile ")
    assert os.path.basename(tile.library_path()) == "libtile-c.so"


# -- Errors: each a Python exception naming what is wrong ------------------


def test_wrong_number_of_arguments(softmax):
    x = np.zeros((2, 8), dtype=np.float32)
    with pytest.raises(tile.ArgumentError, match=r"takes 6 arguments \(output, input, "
                       r"input_row_stride, output_row_stride, n_rows, n_cols\); got 5"):
        softmax[2](x, x, 8, 8, 2)
    with pytest.raises(TypeError):  # ArgumentError is a TypeError too
        softmax[2](x, x, 8, 8, 2, 8, 9)


def test_wrong_dtype(softmax):
    x = np.zeros((2, 8), dtype=np.float16)
    y = np.zeros((2, 8), dtype=np.float32)
    with pytest.raises(tile.ArgumentError, match=r"argument 1 \(input\) of @softmax is a "
                       r"buffer of f32 \(float32\), not a NumPy float16 array"):
        softmax[2](y, x, 8, 8, 2, 8)
    with pytest.raises(tile.ArgumentError, match=r"argument 0 \(output\) .* not a NumPy "
                       r"float64 array"):
        softmax[2](np.zeros((2, 8)), y, 8, 8, 2, 8)


def test_wrong_scalars(softmax):
    x = np.zeros((2, 8), dtype=np.float32)
    with pytest.raises(tile.ArgumentError, match=r"argument 2 \(input_row_stride\) of "
                       r"@softmax is an i32: pass a Python int, not a float"):
        softmax[2](x, x, 8.0, 8, 2, 8)
    with pytest.raises(tile.ArgumentError, match=r"does not fit it"):
        softmax[2](x, x, 2**31, 8, 2, 8)
    with pytest.raises(tile.ArgumentError, match=r"argument 4 \(n_rows\) of @softmax is a "
                       r"scalar of type i32, not a NumPy float32 array"):
        softmax[2](x, x, 8, 8, x, 8)
    with pytest.raises(tile.ArgumentError, match=r"argument 1 \(input\) of @softmax is a "
                       r"buffer of f32 .*, not an int \(3\)"):
        softmax[2](x, 3, 8, 8, 2, 8)


def test_bound_broken():
    kernel = tile.load(example("softmax.mlir"), BLOCK_SIZE=256)
    x = np.zeros((2, 300), dtype=np.float32)
    with pytest.raises(tile.ArgumentError, match=r"argument 5 is 300, above its bound "
                       r"'tile.max_value = 256' \(the value of BLOCK_SIZE"):
        kernel[2](x, x, 300, 300, 2, 300)


class FakeCudaArray:
    """A device array as CuPy or Numba present one (never dereferenced:
    every test here fails before a launch)."""

    def __init__(self, shape, typestr="<f4"):
        self.__cuda_array_interface__ = {
            "shape": shape,
            "typestr": typestr,
            "data": (0x7F0000000000, False),
            "strides": None,
            "version": 3,
        }


def test_numpy_array_where_the_kernel_runs_on_the_gpu(softmax):
    x = np.zeros((2, 8), dtype=np.float32)
    with pytest.raises(tile.ArgumentError, match=r"argument 1 \(input\) of @softmax is a "
                       r"NumPy float32 array in host memory, but the kernel runs on the GPU: "
                       r"the other buffers are on the GPU \(argument 0 \(output\) of @softmax "
                       r"is a CUDA array"):
        softmax[2](FakeCudaArray((2, 8)), x, 8, 8, 2, 8)
    gpu = tile.load(example("softmax.mlir"), target="cuda")
    with pytest.raises(tile.ArgumentError, match=r"argument 0 \(output\) of @softmax is a "
                       r"NumPy float32 array in host memory, but the kernel runs on the GPU: "
                       r"the kernel was loaded with target='cuda'"):
        gpu[2](x, x, 8, 8, 2, 8)
    cpu = tile.load(example("softmax.mlir"), target="cpu")
    with pytest.raises(tile.ArgumentError, match=r"is a CUDA array .* but the kernel runs "
                       r"on the CPU interpreter"):
        cpu[2](FakeCudaArray((2, 8)), x, 8, 8, 2, 8)


def test_tuner_times_the_models_32_first_by_default():
    # The C API's default options, which Kernel.tune and tuning="auto" use
    # unless given top=: the cost model's 32 first of each kernel.
    assert tile._capi.lib().prepare_options_default().tune_top == 32


def test_tune_needs_a_gpu(softmax):
    x = np.zeros((2, 8), dtype=np.float32)
    with pytest.raises(tile.ArgumentError, match=r"times the kernel on a GPU"):
        softmax.tune("persistent", x, x, 8, 8, 2, 8)
    with pytest.raises(tile.ArgumentError, match=r"one grid"):
        softmax.tune(lambda meta: (2,), x, x, 8, 8, 2, 8)
    for top in (-1, 1.5, True, 2**32):
        with pytest.raises(tile.ArgumentError, match=r"top is a count of configurations"):
            softmax.tune("persistent", x, x, 8, 8, 2, 8, top=top)


def test_kernel_file_that_does_not_parse(tmp_path):
    path = tmp_path / "broken.mlir"
    path.write_text("tile.func @broken(%x: !tile.ptr<f32>) {\n  %y = tile.nonsense %x\n}\n")
    with pytest.raises(tile.KernelError, match=r"broken.mlir:2:8: error: .*tile.nonsense"):
        tile.load(str(path))
    with pytest.raises(tile.KernelError, match=r"cannot read .*missing.mlir"):
        tile.load(str(tmp_path / "missing.mlir"))
    with pytest.raises(tile.KernelError, match=r"-D BLOCK_SIZE=100 is not one of the values"):
        tile.load(example("softmax.mlir"), BLOCK_SIZE=100)
    with pytest.raises(tile.KernelError, match=r"no kernel named 'nope'"):
        tile.load(example("softmax.mlir"), kernel="nope")
    with pytest.raises(tile.KernelError, match=r"the variants of a launch take the same "
                       r"arguments"):
        tile.load(example("softmax.mlir"), example("vector_add.mlir"))


def test_runtime_errors_on_the_interpreter(softmax):
    # Buffers smaller than the sizes given: the interpreter names the access.
    x = np.zeros((2, 8), dtype=np.float32)
    with pytest.raises(tile.RunError, match=r"out-of-bounds tile.load: buffer 1 "
                       r"\(f32\[2x8\]\) has 16 elements"):
        softmax[3](x, x, 8, 8, 3, 8)
    # A read-only array the kernel writes: an error, and the array unchanged.
    y = np.zeros((2, 8), dtype=np.float32)
    y.flags.writeable = False
    with pytest.raises(tile.RunError, match=r"wrote argument 0 \(output\), which is read-only"):
        softmax[2](y, np.ones((2, 8), dtype=np.float32), 8, 8, 2, 8)
    assert (y == 0).all()
    with pytest.raises(tile.ArgumentError, match=r"persistent grid is sized from a GPU"):
        softmax["persistent"](x, x, 8, 8, 2, 8)
    with pytest.raises(tile.ArgumentError, match=r"the grid is 'sideways'"):
        softmax["sideways"](x, x, 8, 8, 2, 8)
    with pytest.raises(tile.ArgumentError, match=r"the grid is \(1, 2, 3, 4\)"):
        softmax[1, 2, 3, 4](x, x, 8, 8, 2, 8)


def test_c_api_misuse_is_an_error_not_a_crash(softmax):
    from tile import _capi

    lib = _capi.lib()
    x = np.zeros((2, 8), dtype=np.float32)
    cpu_function = softmax.prepare(x, x, 8, 8, 2, 8)
    # Launching a function prepared for the interpreter on a GPU.
    grid = (ctypes.c_uint32 * 3)(1, 1, 1)
    status = lib.function_launch(cpu_function.handle, grid, None, None, 0)
    assert status == 1 and "was prepared for the CPU interpreter" in _capi.text(lib.last_error())
    assert lib.launch_packed(None) == 1
    assert lib.function_launch(None, grid, None, None, 0) == 1
    assert lib.load_files(None, 0, None, None) == 1
    with pytest.raises(tile.TileError, match="null"):
        lib.check(lib.prepare(None, None, None, 0, None))


def test_no_gpu_here_is_a_clear_error():
    # Where there is no driver (TILE_CUDA_DRIVER at a missing library), a
    # launch on the GPU says so; the process goes on.
    code = textwrap.dedent(
        """\
        import tile
        k = tile.load(%r, target="cuda")
        class Dev:
            __cuda_array_interface__ = {"shape": (2, 8), "typestr": "<f4",
                                        "data": (1 << 40, False), "version": 3}
        try:
            k[2](Dev(), Dev(), 8, 8, 2, 8)
        except tile.CudaError as e:
            print("CudaError:", e)
        print("alive")
        """
        % example("softmax.mlir")
    )
    env = dict(os.environ, TILE_CUDA_DRIVER="/nonexistent/libcuda.so.1")
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "CudaError: no CUDA driver found" in result.stdout
    assert result.stdout.endswith("alive\n")
    assert tile.cuda_device_count() >= 0


# -- The fast path, with a stand-in for PyTorch ------------------------------


class FakeDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


class FakeTensor:
    """What the package reads of a torch tensor."""

    def __init__(self, shape, dtype, address, device=0):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.address = address
        self.index = device
        self.device = type("Device", (), {"type": "cuda" if device >= 0 else "cpu"})()

    def data_ptr(self):
        return self.address

    def get_device(self):
        return self.index

    def stride(self):
        strides, step = [], 1
        for size in reversed(self.shape):
            strides.insert(0, step)
            step *= size
        return tuple(strides)

    def element_size(self):
        return 4


class FakeLibrary:
    """The C library with its launches recorded instead of made."""

    def __init__(self, real):
        self.real = real
        self.launches = []
        self.packets = []

    def function_launch(self, handle, sizes, stream, slots, count):
        self.launches.append((handle, tuple(sizes), stream, [slots[i] for i in range(count)]))
        return 0

    def launch_packed(self, packet):
        self.packets.append(bytes(packet))
        return 0

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_fast_path_with_a_stand_in_for_torch(monkeypatch):
    import struct
    import types

    import tile._arguments
    import tile._fastpath

    fake = types.ModuleType("torch")
    fake.dtype = FakeDtype
    for name in ("float16", "bfloat16", "float32", "bool", "int32", "int64"):
        setattr(fake, name, FakeDtype(name))
    fake.Tensor = FakeTensor
    fake._C = types.SimpleNamespace(_cuda_getCurrentRawStream=lambda device: 700 + device)
    monkeypatch.setitem(sys.modules, "torch", fake)
    monkeypatch.setattr(tile._arguments, "_TORCH_DTYPES", None)

    kernel = tile.load(example("softmax.mlir"))
    prepared = []

    class FakeFunction:
        handle = 0x1234
        meta = {"BLOCK_SIZE": 1024}

        def __init__(self, bound):
            self.check = eval("lambda args: args[5] <= %d" % bound)

        def persistent_grid(self, cap):
            return (min(132 * 4, cap or 1 << 30), 1, 1)

    def prepare(target, device, c_args, *rest, **options):
        assert target == "cuda" and device == 1
        n_cols = c_args[5].value
        prepared.append(n_cols)
        if n_cols > 4096:
            raise tile.ArgumentError("above its bound")
        # A bound that is no power of two: the launch's own n_cols.
        return FakeFunction(n_cols)

    library = FakeLibrary(kernel._lib)
    monkeypatch.setattr(kernel, "_prepare", prepare)
    monkeypatch.setattr(kernel, "_lib", library)
    kernel._fast, kernel._key = tile._fastpath._generate_fast_path(kernel)

    y = FakeTensor((4096, 1000), fake.float32, 0x10000, device=1)
    x = FakeTensor((4096, 1000), fake.float32, 0x90000, device=1)
    launch = kernel["persistent:4096"]
    launch(y, x, 1000, 1000, 4096, 1000)  # the slow path: prepares, launches
    assert prepared == [1000] and len(library.launches) == 1
    handle, grid, stream, values = library.launches[0]
    assert (handle, grid, stream) == (0x1234, (528, 1, 1), 701)
    assert values[:2] == [0x10000, 0x90000] and values[5] == 1000

    launch(y, x, 1000, 1000, 4096, 1000)  # the fast path: one packet
    x2 = FakeTensor((4096, 1000), fake.float32, 0xA0000, device=1)
    kernel["persistent:4096"](y, x2, 1000, 1000, 4096, 1000, stream=5)
    assert prepared == [1000] and len(library.packets) == 2
    header = struct.calcsize(tile._capi.PACKET_HEADER)
    fields = struct.unpack(kernel._format, library.packets[1])
    assert fields[:6] == (0x1234, 5, 528, 1, 1, 6)
    assert fields[6:] == (0x10000, 0xA0000, 1000, 1000, 4096, 1000)
    assert len(library.packets[1]) == header + 6 * 8

    # Another divisibility of n_cols (1000 is a multiple of 8, 1001 of 1),
    # another shape, another grid or an address off 16 bytes: a new key.
    launch(y, x, 1000, 1000, 4096, 1001)
    assert prepared == [1000, 1001]
    launch(y, x, 1000, 1000, 4096, 1001)
    assert prepared == [1000, 1001]
    kernel[64](y, x, 1000, 1000, 4096, 1001)
    assert prepared == [1000, 1001, 1001]
    launch(y, FakeTensor((4096, 1000), fake.float32, 0x90004, device=1), 1000, 1000, 4096, 1001)
    assert prepared == [1000, 1001, 1001, 1001]
    # A key whose function's bound the launch breaks goes the slow way: 1017
    # is in 1001's bucket (1024) and leaves its remainder modulo 16.
    launch(y, x, 1000, 1000, 4096, 1017)
    assert prepared[-1] == 1017
    launch(y, x, 1000, 1000, 4096, 1017)
    assert prepared[-1] == 1017 and len(prepared) == 5
    # Integers are keyed by the tuning cache's buckets, a quarter of an
    # octave: 3568 (bucket 3584) and 3056 (3072), both multiples of 16 in the
    # same octave, are two launches; 2576 shares 3056's bucket (and passes
    # its bound), so it shares its launch.
    launch(y, x, 1000, 1000, 4096, 3568)
    assert prepared[-1] == 3568 and len(prepared) == 6
    launch(y, x, 1000, 1000, 4096, 3056)
    assert prepared[-1] == 3056 and len(prepared) == 7
    launch(y, x, 1000, 1000, 4096, 2576)
    assert len(prepared) == 7
    assert kernel._key("persistent:4096", (y, x, 1000, 1000, 4096, 2576)) == \
        kernel._key("persistent:4096", (y, x, 1000, 1000, 4096, 3056))
    assert kernel._key("persistent:4096", (y, x, 1000, 1000, 4096, 2560)) != \
        kernel._key("persistent:4096", (y, x, 1000, 1000, 4096, 2576))
    # Out of i32's range: the packing fails, the slow path says why.
    with pytest.raises(tile.ArgumentError, match=r"argument 2 \(input_row_stride\) of "
                       r"@softmax is an i32, and 4294967296 does not fit it"):
        launch(y, x, 1 << 32, 1000, 4096, 1001)
    # A dtype or a device the kernel does not take.
    with pytest.raises(tile.ArgumentError, match=r"not a torch.float16 CUDA tensor"):
        launch(y, FakeTensor((4096, 1000), fake.float16, 0x90000, device=1), 1000, 1000, 4096, 1000)
    with pytest.raises(tile.ArgumentError, match=r"argument 1 \(input\) of @softmax is on "
                       r"GPU 0, but argument 0 \(output\) of @softmax is on GPU 1"):
        launch(y, FakeTensor((4096, 1000), fake.float32, 0x90000, device=0), 1000, 1000, 4096, 1000)
    with pytest.raises(tile.ArgumentError, match=r"is a torch.float32 CPU tensor in host "
                       r"memory, but the kernel runs on the GPU"):
        launch(y, FakeTensor((4096, 1000), fake.float32, 0x90000, device=-1), 1000, 1000, 4096, 1000)
    # A callable grid gets the arguments by name and the meta-parameters.
    seen = []

    def grid(meta):
        seen.append(meta)
        return (meta["n_rows"] // 4, 2)

    kernel[grid](y, x, 1000, 1000, 4096, 1000)
    kernel[grid](y, x, 1000, 1000, 4096, 1000)
    assert len(seen) == 2 and seen[0]["BLOCK_SIZE"] == 1024 and seen[0]["input"] is x
    assert struct.unpack(kernel._format, library.packets[-1])[2:5] == (1024, 2, 1)


def tuning_record_digest(text_digests, names, fixed, gpu, buckets):
    """A tuning database record's key, computed here as docs/tuning.md
    describes it: SHA-256 over NUL-terminated fields."""
    import hashlib

    fields = ["tile tuning record 1"]
    for digest, name in zip(text_digests, names):
        fields += [digest, name]
    fields += [" ".join(fixed), gpu, " ".join(buckets)]
    return hashlib.sha256(b"".join(f.encode() + b"\0" for f in fields)).hexdigest()


def test_tuning_database_import_and_export(tmp_path):
    import hashlib

    text = open(example("softmax.mlir"), "rb").read()
    text_digest = hashlib.sha256(text).hexdigest()
    gpu = "Some GPU (sm_90, 132 SMs, 50 MiB L2)"
    buckets = ["f32[4096x1024]", "f32[4096x1024]", "i32:1024", "i32:1024", "i32:4096", "i32:1024"]
    # DTYPE is part of the key at its value (f32, the default, here).
    key = tuning_record_digest([text_digest], ["softmax"], ["DTYPE=f32"], gpu, buckets)
    database = tmp_path / "db.txt"
    database.write_text(
        "tile tuning database 1\n\n"
        "entry %s\ngpu %s\nkernel %s @softmax softmax.mlir\nfixed DTYPE=f32\nshapes %s\n"
        "variant 0\nchoice BLOCK_SIZE=1024 NUM_WARPS=8\ntime 1.5e-02\n"
        % (key, gpu, text_digest, " ".join(buckets))
    )
    cache = tmp_path / "cache"
    report = tile.tune_import(str(database), cache_dir=str(cache))
    assert "1 records from" in report and "ignored" not in report
    assert (cache / "tuning-imported.txt").read_text().count("\nentry ") == 1
    # A record whose key does not match its fields is left out, and said so.
    database.write_text(database.read_text().replace("i32:4096", "i32:2048"))
    report = tile.tune_import(str(database), cache_dir=str(cache))
    assert "its key is not the digest of its fields" in report
    assert "0 records from" in report
    # The export of a cache with no tuning entries: an empty database.
    exported = tmp_path / "out.txt"
    report = tile.tune_export(str(exported), cache_dir=str(cache))
    assert "wrote 0 records" in report
    assert exported.read_text().startswith("tile tuning database 1\n")
    with pytest.raises(tile.TileError, match="not a tuning database"):
        tile.tune_import(example("softmax.mlir"), cache_dir=str(cache))
    with pytest.raises(ValueError, match="tuning_databases is True or False"):
        tile.load(example("softmax.mlir"), tuning_databases="yes")


def test_tma_option():
    # tma= is the pipeline's TMA option (sm_90a only), on by default as in
    # the C API: checked, and on the interpreter it changes nothing.
    assert tile._capi.lib().prepare_options_default().tma == 1
    assert tile.load(example("softmax.mlir"))._tma is True
    with pytest.raises(ValueError, match="tma is True or False"):
        tile.load(example("softmax.mlir"), tma=1)
    x = np.random.default_rng(3).standard_normal((5, 40)).astype(np.float32)
    y = np.zeros_like(x)
    k = tile.load(example("softmax.mlir"), BLOCK_SIZE=64, tma=True)
    k[(5,)](y, x, 40, 40, 5, 40)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)
