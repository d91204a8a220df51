#!/usr/bin/env python3
"""Differential testing of the compiler and the interpreter on random kernels.

    difftest.py COUNT [--seed S] [--target=cpu|cuda] [--sanitize] [--jobs N]
                [--with-op OP | --with-tma] [--tma]
    difftest.py --replay DIR [--target=cpu|cuda]

For each seed S..S+COUNT-1, tile-smith writes a random kernel (kernel.mlir),
its NumPy reference (ref.py) and its description (program.json). Then, in
stages:

  compile-sm_90, compile-sm_80   tile-opt --tile-to-ptx, specialized as the
                                 runtime specializes this launch (not for
                                 sm_80 where the kernel has 8-bit buffers,
                                 whose conversions need sm_89, or runs in
                                 clusters, which need sm_90)
  compile-sm_90a-tma             the same for sm_90a with TMA copies
                                 (tma=true), for kernels with dots (their
                                 descriptor loads, or loads proven boxes)
  ptxas-sm_90, ptxas-sm_80,      ptxas assembles the PTX (skipped, said once,
  ptxas-sm_90a-tma               where there is no ptxas)
  cpu-run, cpu                   tile-run --target=cpu on inputs made here
                                 (arg<N>.npy); every buffer against the
                                 reference, within the reference's bounds
  cuda-run, cuda, cuda-vs-cpu    (--target=cuda) tile-run --target=cuda
                                 --check (with --tma, tile-run --tma); every
                                 buffer against the reference, and against
                                 the interpreter's
  memcheck, racecheck            (--sanitize) the GPU run under
                                 compute-sanitizer; a reported error fails

One line per failure (the seed, the stage, the worst element or the tool's
error), then the failures reduced (at most --reduce-count, crashes with the
same message once): tile-smith's one-step simplifications of the program
(tile-smith --simplify) are kept while the same stage still fails. The last line is "COUNT kernels, N mismatches, N crashes": a
mismatch is a wrong value (stages cpu, cuda, cuda-vs-cpu), a crash anything
else (a tool failing or timing out, a sanitizer report). Exit status 1 if
any failed.

Binaries: --bin, else $TILE_BIN, else ${TILE_BUILD_DIR:-build}/bin of the
repository. ptxas: $TILE_PTXAS, else /usr/local/cuda/bin/ptxas, else PATH.
"""

import argparse
import json
import multiprocessing
import os
import re
import runpy
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tile_smith_ref as R  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MISMATCH_STAGES = {"cpu", "cuda", "cuda-vs-cpu", "cuda-check"}
CHIPS = ("sm_90", "sm_80")
# A compile of kernels whose descriptor loads feed a dot with TMA copies:
# the stage's name, the pipeline's options, ptxas's architecture.
TMA_COMPILE = ("sm_90a-tma", "chip=sm_90a tma=true", "sm_90a")
# --with-tma: kernels whose PTX for sm_90a with tma=true copies with TMA.
TMA = "TMA copies"
TIMEOUT = 300


class Failure(Exception):
    def __init__(self, stage, detail, output=""):
        super().__init__(stage + ": " + detail)
        self.stage, self.detail, self.output = stage, detail, output


class Tools:
    def __init__(self, options):
        bin_dir = options.bin or os.environ.get("TILE_BIN")
        if not bin_dir:
            # As scripts/build.sh has it: relative to the repository.
            build = os.path.join(ROOT, os.environ.get("TILE_BUILD_DIR", "build"))
            bin_dir = os.path.join(build, "bin")
        self.bin = os.path.abspath(bin_dir)
        self.smith = os.path.join(self.bin, "tile-smith")
        self.opt = os.path.join(self.bin, "tile-opt")
        self.run = os.path.join(self.bin, "tile-run")
        self.ptxas = find_tool("TILE_PTXAS", "ptxas")
        self.sanitizer = find_tool("TILE_COMPUTE_SANITIZER", "compute-sanitizer")
        self.target = options.target
        self.sanitize = options.sanitize
        self.tma = getattr(options, "tma", False)
        self.fault = options.inject_fault
        self.cache = options.cache


def find_tool(variable, name):
    path = os.environ.get(variable)
    if path:
        return path if os.path.exists(path) else None
    for candidate in ("/usr/local/cuda/bin/" + name, shutil.which(name)):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def run_tool(stage, command, cwd, env=None, timeout=TIMEOUT):
    """Runs a command; a failure names the stage and the tool's last words."""
    try:
        done = subprocess.run(
            command,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        raise Failure(stage, "timed out after %d s" % timeout)
    output = done.stdout.decode(errors="replace")
    if done.returncode != 0:
        if done.returncode < 0:
            what = "killed by signal %s" % signal.Signals(-done.returncode).name
        else:
            what = "exit status %d" % done.returncode
        lines = [line for line in output.splitlines() if line.strip()]
        errors = [line for line in lines if "error" in line.lower()]
        last = (errors or lines or ["(no output)"])[0]
        raise Failure(stage, "%s: %s" % (what, last.strip()[:300]), output)
    return output


def tile_run_args(launch, prefix):
    """tile-run's --grid, --arg and --out for a launch; outputs of every
    buffer to PREFIX<N>.npy."""
    args = ["--grid", launch["grid"]]
    outs = []
    for index, arg in enumerate(launch["args"]):
        if "buffer" in arg:
            args += ["--arg", "%s[%d]=@arg%d.npy" % (arg["type"], arg["size"], index)]
            outs += ["--out", "%d=%s%d.npy" % (index, prefix, index)]
        else:
            args += ["--arg", "%s=%r" % (arg["scalar"], arg["value"])]
    return args + outs


def compare_outputs(stage, launch, buffers, directory, prefix, against=None):
    """Every buffer a run wrote (PREFIX<N>.npy) against the reference's, or
    against another run's (`against`, with twice the reference's bounds)."""
    for index, arg in enumerate(launch["args"]):
        if "buffer" not in arg:
            continue
        buf = buffers[arg["buffer"]]
        got = np.load(os.path.join(directory, "%s%d.npy" % (prefix, index)))
        if against is not None:
            other = R.Buffer(buf.t, R.to_values(
                np.load(os.path.join(directory, "%s%d.npy" % (against, index))),
                buf.t))
            other.e, other.written = buf.e, buf.written
            result = R.compare_buffer(got, other, slack=4.0)
        else:
            result = R.compare_buffer(got, buf)
        if result:
            element, value, expected, tol, count = result
            raise Failure(
                stage,
                "argument %d (%s[%d]) element %d: got %r, expected %r "
                "(tolerance %.3g; %d element%s wrong)"
                % (index, arg["type"], arg["size"], element, value, expected,
                   tol, count, "" if count == 1 else "s"),
            )


def check_case(tools, directory, until=None):
    """Runs the stages on the case in `directory` (kernel.mlir, ref.py).
    Stops after stage class `until` when given (the reducer's test).
    Raises Failure."""
    env = dict(os.environ)
    env.pop("TILE_SMITH_FAULT", None)
    env["TILE_CACHE_DIR"] = tools.cache
    try:
        module = runpy.run_path(os.path.join(directory, "ref.py"))
    except Exception as error:  # a broken reference is tile-smith's bug
        raise Failure("reference", "ref.py: %s" % error)
    launch, reference = module["LAUNCH"], module["reference"]

    want = lambda group: until is None or until == group  # noqa: E731
    if want("compile"):
        with open(os.path.join(directory, "kernel.mlir")) as f:
            text = f.read()
        # 8-bit floats convert on sm_89 and later only (cvt ...e4m3x2);
        # clusters of programs need sm_90.
        compiles = [(chip, "chip=" + chip, chip) for chip in CHIPS
                    if not (("!tile.ptr<f8E" in text or "tile.cluster_size" in text)
                            and chip == "sm_80")]
        # Descriptor loads, and pointer loads tile-loads-to-descs proves to
        # be boxes, of dot operands.
        if "tile.dot" in text:
            compiles.append(TMA_COMPILE)
        for name, options, arch in compiles:
            ptx = "kernel-%s.ptx" % name
            run_tool(
                "compile-" + name,
                [tools.opt, "kernel.mlir",
                 "--tile-specialize-arguments=divisibility=" + launch["specialize"],
                 "--tile-to-ptx=%s dump-ptx=%s" % (options, ptx),
                 "-o", os.devnull],
                directory, env)
            if tools.ptxas:
                run_tool("ptxas-" + name,
                         [tools.ptxas, "-arch=" + arch, ptx, "-o",
                          "kernel-%s.cubin" % name],
                         directory, env)
        if until == "compile":
            return

    arrays = R.make_inputs(launch)
    for index, array in arrays.items():
        np.save(os.path.join(directory, "arg%d.npy" % index), array)
    try:
        R.FAULT = tools.fault or ""
        buffers = R.evaluate(reference, launch, arrays)
    except Exception as error:
        raise Failure("reference", "%s: %s" % (type(error).__name__, error))
    finally:
        R.FAULT = ""

    run = [tools.run, "kernel.mlir"]
    run_tool("cpu-run", run + ["--target=cpu"] + tile_run_args(launch, "cpu"),
             directory, env)
    compare_outputs("cpu", launch, buffers, directory, "cpu")
    if tools.target != "cuda" or until == "cpu":
        return

    tma = ["--tma"] if tools.tma else []
    gpu = run + ["--target=cuda"] + tma + tile_run_args(launch, "gpu")
    # --check compares with the interpreter under one absolute tolerance:
    # the largest of the reference's bounds, where all are finite.
    bounds = [2 * b.e[b.written] for b in buffers.values()]
    bounds = np.concatenate(bounds) if bounds else np.zeros(0)
    if bounds.size == 0 or np.all(np.isfinite(bounds)):
        atol = float(bounds.max()) if bounds.size else 0.0
        gpu += ["--check", "--rtol", "0", "--atol", "%.9g" % max(atol, 1e-30)]
    try:
        run_tool("cuda-run", gpu, directory, env)
    except Failure as failure:
        # tile-run --check names the worst element and exits 1.
        if "check against the CPU interpreter" in failure.output:
            lines = failure.output.strip().splitlines()
            worst = [line for line in lines if "argument" in line]
            raise Failure("cuda-check", (worst or lines)[-1].strip())
        raise
    compare_outputs("cuda", launch, buffers, directory, "gpu")
    compare_outputs("cuda-vs-cpu", launch, buffers, directory, "gpu",
                    against="cpu")
    if not tools.sanitize:
        return
    if not tools.sanitizer:
        raise Failure("memcheck", "no compute-sanitizer found")
    plain = (run + ["--target=cuda", "--no-guards"] + tma +
             tile_run_args(launch, "san"))
    for tool in ("memcheck", "racecheck"):
        output = run_tool(
            tool,
            [tools.sanitizer, "--tool", tool, "--error-exitcode", "99"] + plain,
            directory, env, timeout=3 * TIMEOUT)
        # "ERROR SUMMARY: 0 errors"; "RACECHECK SUMMARY: 2 hazards displayed
        # (1 error, 1 warning)": errors fail, racecheck's warnings do not.
        for line in output.splitlines():
            errors = re.search(r"ERROR SUMMARY: (\d+) error", line) or re.search(
                r"RACECHECK SUMMARY: .*\((\d+) error", line)
            if errors and int(errors.group(1)) > 0:
                raise Failure(tool, line.strip(" =\n"))


def generate(tools, directory, seed=None, program=None, simplify=None):
    command = [tools.smith, "-o", directory]
    if program:
        command += ["--from", program]
    else:
        command += ["--seed", str(seed)]
    if simplify is not None:
        command += ["--simplify", str(simplify)]
    done = subprocess.run(command, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=60)
    if done.returncode == 2 and simplify is not None:
        return False
    if done.returncode != 0:
        raise Failure("tile-smith", done.stdout.decode(errors="replace").strip())
    return True


def stage_group(stage):
    if stage.startswith(("compile", "ptxas")):
        return "compile"
    if stage in ("cpu-run", "cpu"):
        return "cpu"
    return None


def count_ops(directory):
    with open(os.path.join(directory, "program.json")) as f:
        return len(json.load(f)["ops"])


# The worker's state, set once per process.
WORKER = {}


def init_worker(options, work):
    WORKER["tools"] = Tools(options)
    WORKER["work"] = work
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def seed_has_op(job):
    """Whether seed's kernel uses the operation op (tile-smith to stdout);
    op TMA: whether its PTX for sm_90a with tma=true has TMA copies."""
    seed, op = job
    tools = WORKER["tools"]
    done = subprocess.run([tools.smith, "--seed", str(seed)],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          timeout=60)
    # A kernel tile-smith cannot write is kept: run_seed reports it.
    if done.returncode != 0:
        return seed, True
    text = done.stdout.decode(errors="replace")
    if op != TMA:
        return seed, (op + " ") in text
    if "tile.dot " not in text:
        return seed, False
    with tempfile.TemporaryDirectory(prefix="difftest-tma-") as directory:
        kernel = os.path.join(directory, "kernel.mlir")
        ptx = os.path.join(directory, "kernel.ptx")
        with open(kernel, "w") as f:
            f.write(text)
        compiled = subprocess.run(
            [tools.opt, kernel, "--tile-to-ptx=%s dump-ptx=%s"
             % (TMA_COMPILE[1], ptx), "-o", os.devnull],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        # One that does not compile is kept: run_seed reports it.
        if compiled.returncode != 0 or not os.path.exists(ptx):
            return seed, True
        with open(ptx) as f:
            return seed, "cp.async.bulk.tensor" in f.read()


def select_seeds(pool, first, count, op):
    """The first count seeds from first on whose kernels use op."""
    seeds = []
    start = first
    while len(seeds) < count:
        batch = range(start, start + max(256, 4 * (count - len(seeds))))
        for seed, has_op in pool.map(seed_has_op, [(s, op) for s in batch]):
            if has_op and len(seeds) < count:
                seeds.append(seed)
        start = batch.stop
    return seeds


def run_seed(seed):
    tools, work = WORKER["tools"], WORKER["work"]
    directory = os.path.join(work, "seed-%d" % seed)
    started = time.time()
    try:
        generate(tools, directory, seed=seed)
        check_case(tools, directory)
    except Failure as failure:
        return seed, failure.stage, failure.detail, directory, time.time() - started
    except Exception as error:  # the harness itself (a missing tool, ...)
        return (seed, "difftest", "%s: %s" % (type(error).__name__, error),
                directory, time.time() - started)
    shutil.rmtree(directory, ignore_errors=True)
    return seed, None, None, directory, time.time() - started


def reduce_seed(job):
    """Simplifies the failing program in `directory` while `stage` still
    fails; returns the reduced case's directory and the op counts."""
    seed, stage, directory, budget = job
    tools, work = WORKER["tools"], WORKER["work"]
    group = stage_group(stage)
    current = directory
    before = count_ops(current)
    candidate = os.path.join(work, "seed-%d-candidate" % seed)
    reduced = os.path.join(work, "seed-%d-reduced" % seed)
    # Greedy: keep the first simplification that still fails the same way,
    # go on from there; when none is left, start over if anything changed.
    k, tries, started, changed = 0, 0, time.time(), False
    while time.time() - started < budget:
        shutil.rmtree(candidate, ignore_errors=True)
        try:
            if not generate(tools, candidate,
                            program=os.path.join(current, "program.json"),
                            simplify=k):
                if not changed:
                    break
                k, changed = 0, False
                continue
        except Failure:
            k += 1
            continue
        tries += 1
        try:
            check_case(tools, candidate, until=group)
            same = False
        except Failure as failure:
            same = failure.stage == stage
        except Exception:
            same = False
        if same:
            shutil.rmtree(reduced, ignore_errors=True)
            shutil.move(candidate, reduced)
            current, changed = reduced, True
        else:
            k += 1
    shutil.rmtree(candidate, ignore_errors=True)
    return seed, current, before, count_ops(current), tries


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("count", nargs="?", type=int, help="how many kernels")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    parser.add_argument("--target", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--with-op", metavar="OP",
                        help="only kernels that use the operation OP (such "
                        "as tile.dot): seeds from --seed on whose kernels do "
                        "not are skipped until COUNT kernels have run")
    parser.add_argument("--with-tma", action="store_true",
                        help="only kernels whose descriptor loads sm_90a "
                        "copies with TMA (compiled with tma=true, looked for "
                        "in the PTX), as --with-op selects")
    parser.add_argument("--tma", action="store_true",
                        help="run on the GPU with tile-run --tma (TMA copies "
                        "of the descriptor loads that feed a dot, sm_90a)")
    parser.add_argument("--sanitize", action="store_true",
                        help="also run the GPU run under compute-sanitizer "
                        "(memcheck, racecheck)")
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--bin", help="the directory of tile-smith, tile-opt, "
                        "tile-run (default: $TILE_BIN, else "
                        "${TILE_BUILD_DIR:-build}/bin)")
    parser.add_argument("--keep", help="where to keep failing cases (default: "
                        "a new directory under $TMPDIR, printed)")
    parser.add_argument("--no-reduce", action="store_true")
    parser.add_argument("--reduce-seconds", type=float, default=300,
                        help="time for reducing each failure (default 300)")
    parser.add_argument("--reduce-count", type=int, default=5,
                        help="reduce at most this many failures (default 5); "
                        "a crash like one already reduced is not")
    parser.add_argument("--inject-fault", choices=["exp", "store", "tf32"],
                        help="perturb the reference (exp: tile.exp 10%% too "
                        "large; store: every stored element; tf32: f32 dots "
                        "without rounding their inputs to TF32), to see the "
                        "harness catch it")
    parser.add_argument("--replay", metavar="DIR",
                        help="run the stages on the case in DIR (kernel.mlir, "
                        "ref.py) as it is, and say what failed")
    parser.add_argument("--timing", action="store_true",
                        help="print the slowest seeds")
    options = parser.parse_args()

    work = os.path.abspath(options.keep) if options.keep else tempfile.mkdtemp(
        prefix="difftest-")
    os.makedirs(work, exist_ok=True)
    options.cache = os.path.join(work, "cache")
    tools = Tools(options)
    for tool in (tools.smith, tools.opt, tools.run):
        if not os.path.exists(tool):
            sys.exit("difftest: %s not found (build it, or set --bin or "
                     "$TILE_BIN)" % tool)
    if not tools.ptxas:
        print("difftest: no ptxas ($TILE_PTXAS, /usr/local/cuda/bin/ptxas, "
              "PATH): skipping the ptxas stage", flush=True)

    if options.replay:
        try:
            check_case(tools, os.path.abspath(options.replay))
        except Failure as failure:
            print("%s: %s: %s" % (options.replay, failure.stage, failure.detail))
            return 1
        print("%s: ok" % options.replay)
        return 0
    if options.count is None:
        parser.error("give COUNT or --replay DIR")

    failures = []
    details = {}
    times = []
    with multiprocessing.Pool(options.jobs, init_worker, (options, work)) as pool:
        seeds = range(options.seed, options.seed + options.count)
        with_op = TMA if options.with_tma else options.with_op
        if with_op and options.count > 0:
            seeds = select_seeds(pool, options.seed, options.count, with_op)
            print("difftest: the %d kernels with %s among seeds %d-%d"
                  % (len(seeds), with_op, options.seed, seeds[-1]),
                  flush=True)
        for seed, stage, detail, directory, seconds in pool.imap_unordered(
                run_seed, seeds):
            times.append((seconds, seed))
            # Progress, for a run cut off by a time limit: what ran, and
            # that it passed.
            if len(times) % 20 == 0:
                print("difftest: %d of %d kernels run, %d failed"
                      % (len(times), len(seeds), len(failures) + bool(stage)),
                      flush=True)
            if stage:
                failures.append((seed, stage, directory))
                details[seed] = detail
                print("seed %d: %s: %s" % (seed, stage, detail), flush=True)
        if failures and not options.no_reduce:
            jobs = []
            reduced = {}  # a crash's message (numbers aside) -> its seed
            for seed, stage, directory in sorted(failures):
                # Wrong values are each reduced; a crash like one reduced
                # already (its message, numbers aside) is not.
                signature = "%s %d" % (stage, seed)
                if stage not in MISMATCH_STAGES:
                    signature = stage + re.sub(r"[0-9]+", "#", details[seed])
                if signature in reduced:
                    print("seed %d: not reduced: fails as seed %d does"
                          % (seed, reduced[signature]))
                elif len(jobs) >= options.reduce_count:
                    print("seed %d: not reduced (--reduce-count %d)"
                          % (seed, options.reduce_count))
                else:
                    reduced[signature] = seed
                    jobs.append((seed, stage, directory, options.reduce_seconds))
            for seed, reduced, before, after, tries in pool.imap_unordered(
                    reduce_seed, jobs):
                print("seed %d: reduced from %d to %d operations (%d tries): "
                      "%s" % (seed, before, after, tries, reduced), flush=True)
    if options.timing:
        for seconds, seed in sorted(times, reverse=True)[:10]:
            print("seed %d took %.2f s" % (seed, seconds))
    mismatches = sum(1 for _, stage, _ in failures if stage in MISMATCH_STAGES)
    crashes = len(failures) - mismatches
    if not failures and not options.keep:
        shutil.rmtree(work, ignore_errors=True)
    elif failures:
        print("difftest: failing cases in %s" % work)
    print("%d kernels, %d mismatches, %d crashes"
          % (options.count, mismatches, crashes))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
