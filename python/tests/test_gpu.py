"""The Python package on a GPU, with PyTorch: skipped without either.

On the GPU machine (test/cuda/python.test, or by hand):

    PYTHONPATH=python python3 -m pytest -q python/tests/test_gpu.py

Softmax of torch tensors at the seeds' shapes in f32, f16 and bf16 against
torch.softmax (through examples/python/softmax.py, the README's example),
odd shapes and strided rows, streams, clusters, the fast path, tuning, the
errors of GPU launches, and the host time of a launch beside Triton's.
"""

import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU for PyTorch", allow_module_level=True)

import tile  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
sys.path.insert(0, os.path.join(EXAMPLES, "python"))
import softmax as example  # noqa: E402  examples/python/softmax.py


def example_file(name):
    return os.path.join(EXAMPLES, name)


DTYPES = [torch.float32, torch.float16, torch.bfloat16]
SHAPES = example.SEED_SHAPES


@pytest.mark.parametrize("dtype", DTYPES, ids=["f32", "f16", "bf16"])
@pytest.mark.parametrize("shape", SHAPES, ids=["%dx%d" % s for s in SHAPES])
def test_softmax_seeds(dtype, shape):
    torch.manual_seed(0)
    x = torch.randn(*shape, device="cuda", dtype=dtype)
    y = example.softmax(x)
    example.check(x, y)


@pytest.mark.parametrize("dtype", DTYPES, ids=["f32", "f16", "bf16"])
@pytest.mark.parametrize("shape", [(1823, 781), (1, 1), (7, 3), (3, 4097), (1, 50)])
def test_softmax_odd_shapes(dtype, shape):
    x = torch.randn(*shape, device="cuda", dtype=dtype)
    example.check(x, example.softmax(x))


def test_strided_rows():
    # Rows of 781 in rows of 1024: the kernel gets the strides; the columns
    # past 781 stay as they were.
    big = torch.randn(300, 1024, device="cuda")
    out = torch.full((300, 1024), 7.0, device="cuda")
    x, y = big[:, :781], out[:, :781]
    example.softmax_into(y, x)
    example.check(x, y)
    assert (out[:, 781:] == 7.0).all()


def test_current_stream_and_explicit_stream():
    x = torch.randn(4096, 2048, device="cuda")
    k = example.kernel(torch.float32)
    side = torch.cuda.Stream()
    y = torch.zeros_like(x)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        k["persistent:4096"](y, x, 2048, 2048, 4096, 2048)  # torch's current: side
    side.synchronize()
    example.check(x, y)
    z = torch.zeros_like(x)
    k["persistent:4096"](z, x, 2048, 2048, 4096, 2048, stream=side)
    k["persistent:4096"](z, x, 2048, 2048, 4096, 2048, stream=side.cuda_stream)
    side.synchronize()
    example.check(x, z)


def test_fast_path_makes_no_call_but_the_launch(monkeypatch):
    k = tile.load(example_file("softmax.mlir"), BLOCK_SIZE=1024)
    x = torch.randn(512, 1000, device="cuda")
    y = torch.empty_like(x)
    k[512](y, x, 1000, 1000, 512, 1000)  # the slow path: prepares, stores
    assert len(k._fast_cache) == 1

    def no_slow_path(*args):
        raise AssertionError("the slow path ran")

    monkeypatch.setattr(k, "_slow", no_slow_path)
    k._fast, k._key = tile._fastpath._generate_fast_path(k)
    y.zero_()
    k[512](y, x, 1000, 1000, 512, 1000)  # same key: the fast path only
    x2 = torch.randn(512, 1000, device="cuda")
    k[512](y, x2, 1000, 1000, 512, 1000)  # another tensor, same key
    example.check(x2, y)


def test_a_new_key_prepares_again():
    k = tile.load(example_file("softmax.mlir"))
    for n in (256, 1000, 3000):  # each a configuration of its own
        x = torch.randn(64, n, device="cuda")
        y = torch.empty_like(x)
        k[64](y, x, n, n, 64, n)
        example.check(x, y)
    assert k.prepare(y, x, 3000, 3000, 64, 3000).meta["BLOCK_SIZE"] >= 3000
    # Within a bucket, a bound that the cached function breaks is never run:
    # the block chosen for rows of 1000 serves rows of 1024 only where it
    # holds them.
    x = torch.randn(64, 1024, device="cuda")
    y = torch.empty_like(x)
    k[64](y, x, 1024, 1024, 64, 1024)
    example.check(x, y)


def test_callable_grid_and_vector_add():
    k = tile.load(example_file("vector_add.mlir"))
    n = 98432
    a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    out = torch.empty_like(a)
    k[lambda meta: ((meta["n_elements"] + meta["BLOCK_SIZE"] - 1) // meta["BLOCK_SIZE"],)](
        a, b, out, n
    )
    assert torch.equal(out, a + b)


def test_clusters():
    k = tile.load(example_file("softmax_cluster.mlir"), CLUSTER=8, BLOCK_SIZE=8192)
    x = torch.randn(64, 65536, device="cuda")
    y = torch.empty_like(x)
    k["persistent:64"](y, x, 65536, 65536, 64, 65536)
    example.check(x, y)
    function = k.prepare(y, x, 65536, 65536, 64, 65536)
    assert function.cluster_size == 8
    with pytest.raises(tile.CudaError, match=r"must be a multiple of that"):
        k[12](y, x, 65536, 65536, 64, 65536)
        torch.cuda.synchronize()


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=["f16", "bf16"])
def test_tma_descriptor_matmul(dtype):
    # tma=True: the descriptor matmul's A and B tiles copied by TMA on
    # sm_90a (elsewhere the option changes nothing), edges in M, N and K,
    # against float64.
    desc = os.path.join(ROOT, "test", "Pipelines", "Inputs", "matmul-desc.mlir")
    m, n, k = 300, 200, 136
    gen = torch.Generator(device="cuda").manual_seed(5)
    a = torch.randn(m, k, device="cuda", generator=gen).to(dtype)
    b = torch.randn(k, n, device="cuda", generator=gen).to(dtype)
    ref = a.double() @ b.double()
    for tma in (False, True):
        kernel = tile.load(desc, DTYPE="f16" if dtype == torch.float16 else "bf16",
                           BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, NUM_STAGES=3,
                           tma=tma, tuning="defaults")
        c = torch.zeros(m, n, device="cuda", dtype=dtype)
        grid = ((m + 127) // 128) * ((n + 127) // 128)
        kernel[grid](a, b, c, m, n, k, k, n, n)
        err = ((c.double() - ref).abs().max() / ref.abs().max()).item()
        assert err < 1e-2, (tma, err)


def test_tma_fallback_overlapping_rows():
    # By default (tma=True) the matmul example's A and B tiles get TMA
    # copies on sm_90a (tile-loads-to-descs); A's rows here are 16 elements apart but 64
    # long, which a tensor map cannot describe: the launch runs the kernel
    # compiled without TMA instead (the C API's fallback), against float64.
    m, n, k = 128, 128, 64
    gen = torch.Generator(device="cuda").manual_seed(7)
    flat = torch.randn((m - 1) * 16 + k, device="cuda", generator=gen).half()
    b = torch.randn(k, n, device="cuda", generator=gen).half()
    ref = flat.double().as_strided((m, k), (16, 1)) @ b.double()
    kernel = tile.load(example_file("matmul.mlir"), DTYPE="f16", BLOCK_M=128,
                       BLOCK_N=128, BLOCK_K=32, tuning="defaults")
    c = torch.zeros(m, n, device="cuda", dtype=torch.float16)
    kernel[1](flat, b, c, m, n, k, 16, 1, n, 1, n, 1)
    err = ((c.double() - ref).abs().max() / ref.abs().max()).item()
    assert err < 2e-3, err


def test_persistent_kernel_grid_names_the_work():
    # examples/matmul_persistent.mlir carries tile.persistent: its grid is
    # the tiles of C (the work), which run on the programs that fit on the
    # GPU at once (the C API's launch caps the grid). 2048 x 2048 in tiles
    # of 64 x 64 is 1024 tiles, more than fit: each program walks several.
    # Against float64; a 2-D grid is refused, naming the attribute.
    m, n, k = 2048, 2048, 200
    gen = torch.Generator(device="cuda").manual_seed(5)
    a = torch.randn(m, k, device="cuda", generator=gen).half()
    b = torch.randn(k, n, device="cuda", generator=gen).half()
    ref = a.double() @ b.double()
    kernel = tile.load(example_file("matmul_persistent.mlir"), DTYPE="f16",
                       BLOCK_M=64, BLOCK_N=64, BLOCK_K=64, NUM_WARPS=4,
                       NUM_STAGES=3, tuning="defaults")
    c = torch.zeros(m, n, device="cuda", dtype=torch.float16)
    kernel[(m // 64) * (n // 64)](a, b, c, m, n, k, k, 1, n, 1, n, 1)
    err = ((c.double() - ref).abs().max() / ref.abs().max()).item()
    assert err < 2e-3, err
    with pytest.raises(tile.ArgumentError, match="tile.persistent.*its grid names the work along x alone"):
        kernel[(32, 32)](a, b, c, m, n, k, k, 1, n, 1, n, 1)
        torch.cuda.synchronize()


def test_float8_tensors():
    # torch.float8_e4m3fn in, torch.float8_e5m2 out: y = f8(f32(x) * s)
    # on the GPU (tile.cast: cvt on sm_89 and later), against
    # utils/float8.py (the formats in float64 from their definitions).
    sys.path.insert(0, os.path.join(ROOT, "utils"))
    import float8
    kernel = tile.load(os.path.join(ROOT, "test", "Interpreter", "Inputs", "f8-scale.mlir"))
    gen = torch.Generator(device="cuda").manual_seed(11)
    x = (torch.randn(3000, device="cuda", generator=gen) * 30).to(torch.float8_e4m3fn)
    y = torch.zeros(3000, device="cuda", dtype=torch.float8_e5m2)
    kernel[(3000 + 255) // 256](x, y, 3000, 7.0)
    bits = x.view(torch.uint8).cpu().numpy()
    product = (float8.decode(bits, "e4m3").astype(np.float32) * np.float32(7.0)).astype(np.float64)
    expected = float8.encode(product, "e5m2")
    assert np.array_equal(y.view(torch.uint8).cpu().numpy(), expected)


def test_cpu_tensors_run_on_the_interpreter():
    k = tile.load(example_file("softmax.mlir"), DTYPE="bf16")
    x = torch.randn(8, 300, dtype=torch.bfloat16)
    y = torch.empty_like(x)
    k[8](y, x, 300, 300, 8, 300)
    torch.testing.assert_close(y, torch.softmax(x.float(), dim=1).bfloat16(), rtol=1.6e-2, atol=1e-5)


def test_errors():
    k = example.kernel(torch.float32)
    x = torch.randn(16, 64, device="cuda")
    y = torch.empty_like(x)
    with pytest.raises(tile.ArgumentError, match=r"takes 6 arguments"):
        k[16](y, x, 64, 64, 16)
    with pytest.raises(tile.ArgumentError, match=r"argument 1 \(input\) of @softmax is a "
                       r"buffer of f32 \(float32\), not a torch.float16 CUDA tensor"):
        k[16](y, x.half(), 64, 64, 16, 64)
    with pytest.raises(tile.ArgumentError, match=r"argument 1 \(input\) of @softmax is a "
                       r"torch.float32 CPU tensor in host memory, but the kernel runs on "
                       r"the GPU"):
        k[16](y, x.cpu(), 64, 64, 16, 64)
    with pytest.raises(tile.ArgumentError, match=r"is a NumPy float32 array in host memory, "
                       r"but the kernel runs on the GPU"):
        k[16](y, x.cpu().numpy(), 64, 64, 16, 64)
    # A view 4 bytes into its storage breaks the kernel's 16-byte promise.
    flat = torch.randn(16 * 64 + 1, device="cuda")
    with pytest.raises(tile.ArgumentError, match=r"breaks its promise 'tile.divisibility = 16'"):
        k[16](y, flat[1:].view(16, 64), 64, 64, 16, 64)
    small = tile.load(example_file("softmax.mlir"), BLOCK_SIZE=32)
    with pytest.raises(tile.ArgumentError, match=r"above its bound 'tile.max_value = 32'"):
        small[16](y, x, 64, 64, 16, 64)
    with pytest.raises(tile.CudaError, match=r"programs along y"):
        small[16, 70000](y, x, 32, 32, 16, 32)
    if torch.cuda.device_count() > 1:
        other = torch.empty(16, 64, device="cuda:1")
        with pytest.raises(tile.ArgumentError, match=r"a launch runs on one GPU"):
            k[16](other, x, 64, 64, 16, 64)


def test_tune_and_the_tuning_cache(tmp_path):
    # softmax.mlir alone at 4096 x 1024: a few configurations to time.
    k = tile.load(example_file("softmax.mlir"), cache_dir=str(tmp_path))
    x = torch.randn(4096, 1024, device="cuda")
    y = torch.zeros_like(x)
    result = k.tune("persistent:4096", y, x, 1024, 1024, 4096, 1024, warmup=2, reps=10)
    assert result.config["BLOCK_SIZE"] == 1024
    assert "tune: stored in the tuning cache" in result.report
    assert (y == 0).all()  # tuning ran on copies
    again = tile.load(example_file("softmax.mlir"), cache_dir=str(tmp_path))
    again["persistent:4000"](y[:4000], x[:4000], 1024, 1024, 4000, 1000)
    assert "from the tuning cache" in again.messages
    example.check(x[:4000, :1000], y[:4000, :1000])


def test_a_choice_of_waves_launches_them(tmp_path):
    # A tuned choice's waves are part of what the tuner timed: "waves all"
    # (one program per row) must launch the cap, not one wave. The Python
    # launch used to run one wave whatever the choice said (run 36, issue
    # 27: tuned and shipped choices of all waves ran 7-10% slower there).
    k = tile.load(example_file("softmax.mlir"), cache_dir=str(tmp_path / "a"))
    x = torch.randn(4096, 1024, device="cuda")
    y = torch.empty_like(x)
    k.tune("persistent:4096", y, x, 1024, 1024, 4096, 1024, warmup=2, reps=10)
    exported = str(tmp_path / "tuned.txt")
    tile.tune_export(exported, cache_dir=str(tmp_path / "a"))
    text = open(exported).read()
    assert "\nwaves " in text, text
    lines = [("waves all" if line.startswith("waves ") else line) for line in text.splitlines()]
    edited = str(tmp_path / "all.txt")
    open(edited, "w").write("\n".join(lines) + "\n")
    tile.tune_import(edited, cache_dir=str(tmp_path / "b"))
    k = tile.load(example_file("softmax.mlir"), cache_dir=str(tmp_path / "b"))
    k["persistent:4096"](y, x, 1024, 1024, 4096, 1024)
    assert "waves=all from the" in k.messages, k.messages
    example.check(x, y)
    function = k.prepare(y, x, 1024, 1024, 4096, 1024, grid="persistent:4096")
    assert function.config.endswith(" waves=all"), function.config
    assert function.persistent_grid(4096) == (4096, 1, 1)
    # Without a cap, all waves cannot launch: one wave.
    assert function.persistent_grid(0)[0] < 4096


def test_auto_tuning(tmp_path):
    k = tile.load(example_file("softmax.mlir"), cache_dir=str(tmp_path), tuning="auto")
    x = torch.randn(2048, 512, device="cuda")
    y = torch.empty_like(x)
    k["persistent:2048"](y, x, 512, 512, 2048, 512)
    assert "tune: " in k.messages
    example.check(x, y)
    x = torch.randn(2000, 500, device="cuda")  # the same bucket
    y = torch.empty_like(x)
    k["persistent:2000"](y, x, 500, 500, 2000, 500)
    assert "from the tuning cache" in k.messages and "tune: " not in k.messages
    example.check(x, y)


def test_first_launch_says_what_it_runs(tmp_path):
    # The softmax variants, first launch on a shape no cache holds: the cost
    # model's choice, or with the shipped tuning database on the GPU it was
    # tuned on, the database's; kernel.messages says which (issue 27).
    files = [example_file(name + ".mlir") for name in
             ("softmax_rows", "softmax", "online_softmax", "softmax_cluster")]
    x = torch.randn(1000, 30000, device="cuda")
    y = torch.empty_like(x)
    k = tile.load(*files, cache_dir=str(tmp_path), tuning_databases=False)
    k["persistent:1000"](y, x, 30000, 30000, 1000, 30000)
    first = k.messages.splitlines()[0]
    assert first.startswith("model: ") and "(estimated " in first, k.messages
    example.check(x, y)
    k = tile.load(*files, cache_dir=str(tmp_path))
    k["persistent:1000"](y, x, 30000, 30000, 1000, 30000)
    first = k.messages.splitlines()[0]
    assert first.startswith("model: ") or (
        first.startswith("tuned: ") and "tuning database" in first), k.messages
    example.check(x, y)


def test_launch_overhead_beside_triton():
    """The host time of a launch (compiled), beside Triton's for its own
    softmax kernel on the same tensors: reported, and no more than Triton's
    with a margin for noise (bench/python_bench.py measures it properly)."""
    triton = pytest.importorskip("triton")
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import triton_softmax

    x = torch.randn(1, 256, device="cuda")
    y = torch.empty_like(x)
    k = tile.load(example_file("softmax.mlir"), BLOCK_SIZE=256, NUM_WARPS=4)
    launch = k[1]
    ours = tile.testing.launch_overhead(lambda: launch(y, x, 256, 256, 1, 256))
    theirs = tile.testing.launch_overhead(
        lambda: triton_softmax.fused_kernel[(1,)](
            y, x, 256, 256, 1, 256, BLOCK_SIZE=256, num_stages=1, num_warps=4
        )
    )
    print("launch host time: tile %.2f us, Triton %s %.2f us" % (ours, triton.__version__, theirs))
    assert ours <= 1.2 * theirs
