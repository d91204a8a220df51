#!/usr/bin/env python3
"""Checks that the commands the documentation shows print what it quotes.

    check_docs.py [--bin DIR] [--lib DIR] [--python PY] [--update] PAGE.md...

A page marks what is checked with an HTML comment on the line right before
a fenced block (GitHub does not render the comment):

    <!-- check -->             before a ```sh (or ```python) block: the block
    <!-- check exit=N -->      runs, as a bash script with `set -e -o pipefail`
                               (or as a Python script), and must exit 0 (or
                               N). If the next block, separated by blank lines
                               only, is a ```text or bare ``` block, it is the
                               output: stdout and stderr together.
    <!-- check output -->      before any block: it is (an abridgement of) the
                               output of the last block run above it on the
                               page, for output shown after some prose.
    <!-- check from=PATH -->   before any block: it is (an abridgement of) the
                               committed file PATH (relative to the repository
                               root; a .xz file is decompressed). For the
                               outputs of GPU runs, quoted from their logs
                               under bench/results/, and for excerpts of
                               kernels.
    <!-- not checked: WHY -->  before a ```sh block: not run, for the reason
                               given (it needs a GPU, it takes minutes, ...).

Every ```sh block of a page must carry one of these markers: a command that
is not checked says so, and why.

Matching. A quoted block is compared with the whole text, line by line,
trailing whitespace and blank lines at the end ignored. A line that is `...` alone (indented or not)
stands for any number of lines, none included; `...` within a line stands
for any text on that line. These are the only wildcards; everything else
must be exactly as printed.

Normalization, for the output of a run only (not for committed files):

  - a duration, a decimal number followed by ` s` or ` ms` (`in 0.055 s`),
    matches any duration;
  - `/tmp/` in a block that runs is replaced by a fresh directory of the
    check's own (so that checks do not share files), and that directory is
    printed as `/tmp/` again in the output.

Blocks run in a fresh working directory that holds links to the
repository's top-level entries (so `examples/...`, `utils/...` and
`scripts/...` resolve as in the repository root, and a file written to the
current directory stays out of the checkout), with `build/bin` and
`build/lib` linked to the build's tools and library (`--bin`, `--lib`),
the tools first on PATH, TILE_TARGET=cpu (as in the lit suite), a fresh
TILE_CACHE_DIR, and PYTHONPATH and TILE_LIBRARY set for the Python package.
The blocks of one page run in order in the same directory, so a block may
read what an earlier one wrote.

--update rewrites each failing output block (of `check` and `check output`)
with what the run printed, except blocks abridged with `...`, which are
reported for a fix by hand. scripts/update-docs.sh runs it on every page.

Exit status 0 when every marked block matches, 1 otherwise; each failure is
printed as PAGE:LINE: error: ..., with a diff.
"""

import argparse
import difflib
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MARKER = re.compile(r"^\s*<!--\s*(check|not checked)\b(.*?)-->\s*$")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([^`\s]*)")
DURATION = re.compile(r"\d+(?:\.\d+)?(?:e[-+]?\d+)? m?s\b")
RUNNABLE = ("sh", "python")
OUTPUT_INFO = ("", "text")
ELLIPSIS = "..."
TIMEOUT = 300


class Block:
    """A fenced block: its info string, first and last lines (1-based: the
    fences), its text (de-indented by the fence's indentation) and marker."""

    def __init__(self, info, indent, start):
        self.info = info
        self.indent = indent
        self.start = start
        self.end = None
        self.lines = []
        self.marker = None  # (kind, options text, line)


def parse(path):
    with open(path, encoding="utf-8") as f:
        text = f.read().split("\n")
    blocks = []
    current = None
    pending = None
    for number, line in enumerate(text, 1):
        if current is not None:
            stripped = line.strip()
            if stripped.startswith(current.fence) and stripped.strip("`~") == "":
                current.end = number
                blocks.append(current)
                current = None
            else:
                body = line[len(current.indent):] if line.startswith(current.indent) else line.lstrip()
                current.lines.append(body.rstrip())
            continue
        m = MARKER.match(line)
        if m:
            pending = (m.group(1), m.group(2).strip(), number)
            continue
        f = FENCE.match(line)
        if f:
            current = Block(f.group(3), f.group(1), number)
            current.fence = f.group(2)
            current.marker = pending
        elif pending is not None and line.strip():
            raise SystemExit("%s:%d: error: a check marker must be followed by a fenced block" % (path, pending[2]))
        if not f and line.strip():
            pending = None
        elif f:
            pending = None
    if current is not None:
        raise SystemExit("%s:%d: error: unterminated fenced block" % (path, current.start))
    return text, blocks


def options(text):
    opts = {}
    for word in text.split():
        key, _, value = word.partition("=")
        opts[key] = value
    return opts


def line_regex(pattern, durations):
    parts = []
    for i, piece in enumerate(pattern.split(ELLIPSIS)):
        if i:
            parts.append(".*")
        escaped = []
        last = 0
        if durations:
            for d in DURATION.finditer(piece):
                escaped.append(re.escape(piece[last:d.start()]))
                escaped.append(r"\d+(?:\.\d+)?(?:e[-+]?\d+)? " + ("ms" if d.group(0).endswith("ms") else "s"))
                last = d.end()
        escaped.append(re.escape(piece[last:]))
        parts.append("".join(escaped))
    return re.compile("".join(parts))


def match(expected, actual, durations):
    """Whether the lines `actual` are those of `expected`, with `...` lines
    and in-line `...` as wildcards. Returns None on a match, else the index
    of the first expected line not found."""
    expected = [line.rstrip() for line in expected]
    actual = [line.rstrip() for line in actual]
    while expected and not expected[-1]:
        expected.pop()
    while actual and not actual[-1]:
        actual.pop()
    runs = [[]]
    starts = [0]
    for i, line in enumerate(expected):
        if line.strip() == ELLIPSIS:
            runs.append([])
            starts.append(i + 1)
        else:
            runs[-1].append((i, line_regex(line, durations)))
    anchored_start = True  # the first run (maybe empty) must start at 0
    anchored_end = True  # the last run must end at the end

    def fits(run, at):
        if at < 0 or at + len(run) > len(actual):
            return False
        return all(regex.fullmatch(actual[at + k]) for k, (_, regex) in enumerate(run))

    pos = 0
    for r, run in enumerate(runs):
        first = r == 0
        last = r == len(runs) - 1
        if first and last:
            if len(run) != len(actual) or not fits(run, 0):
                return first_mismatch(run, actual, 0, starts[r])
            return None
        if first and anchored_start:
            if not fits(run, 0):
                return first_mismatch(run, actual, 0, starts[r])
            pos = len(run)
            continue
        if last and anchored_end:
            at = len(actual) - len(run)
            if at < pos or not fits(run, at):
                return first_mismatch(run, actual, max(at, pos), starts[r])
            return None
        found = next((at for at in range(pos, len(actual) - len(run) + 1) if fits(run, at)), None)
        if found is None:
            return run[0][0] if run else starts[r]
        pos = found + len(run)
    return None


def first_mismatch(run, actual, at, default):
    for k, (i, regex) in enumerate(run):
        if at + k >= len(actual) or not regex.fullmatch(actual[at + k]):
            return i
    return run[-1][0] + 1 if run else default


class Checker:
    def __init__(self, args):
        self.args = args
        self.failures = 0
        self.checked = 0

    def setup(self, work):
        for name in os.listdir(ROOT):
            if name in (".git", "dist") or name.startswith("build"):
                continue
            os.symlink(os.path.join(ROOT, name), os.path.join(work, name))
        os.mkdir(os.path.join(work, "build"))
        os.symlink(self.args.bin, os.path.join(work, "build", "bin"))
        if self.args.lib:
            os.symlink(self.args.lib, os.path.join(work, "build", "lib"))
        os.mkdir(os.path.join(work, "tmp"))
        env = dict(os.environ)
        env["PATH"] = self.args.bin + os.pathsep + env.get("PATH", "")
        env["TILE_TARGET"] = "cpu"
        env["TILE_CACHE_DIR"] = os.path.join(work, "cache")
        env["PYTHONPATH"] = os.path.join(ROOT, "python")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        if self.args.lib:
            env["TILE_LIBRARY"] = os.path.join(self.args.lib, "libtile-c.so")
        env["LC_ALL"] = "C"
        return env

    def error(self, page, line, message, diff=None):
        self.failures += 1
        print("%s:%d: error: %s" % (page, line, message))
        if diff:
            sys.stdout.write(diff)

    def run(self, block, work, env):
        tmp = os.path.join(work, "tmp") + "/"
        script = "\n".join(block.lines).replace("/tmp/", tmp) + "\n"
        if block.info == "python":
            command = [self.args.python, "-c", script]
        else:
            command = ["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script]
        try:
            done = subprocess.run(command, cwd=work, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=TIMEOUT)
            out = done.stdout.decode("utf-8", "replace")
            status = done.returncode
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode("utf-8", "replace") + "\n(timed out after %d s)\n" % TIMEOUT
            status = None
        out = out.replace(tmp, "/tmp/").replace(work + "/", "")
        lines = out.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return status, lines

    def compare(self, page, block, actual, durations, what, updates):
        i = match(block.lines, actual, durations)
        if i is None:
            return True
        shown = [line.rstrip() for line in block.lines]
        diff = "".join(difflib.unified_diff([l + "\n" for l in shown], [l + "\n" for l in actual],
                                            "%s:%d (quoted)" % (page, block.start), what, n=2))
        if len(diff) > 6000:
            diff = diff[:6000] + "... (diff cut)\n"
        self.error(page, block.start + 1 + min(i, len(block.lines)),
                   "the block at line %d does not match %s (first line not matched: %d)"
                   % (block.start, what, block.start + 1 + min(i, len(block.lines))), diff)
        if updates is not None:
            if any(line.strip() == ELLIPSIS or ELLIPSIS in line for line in block.lines) or not durations:
                print("%s:%d: note: not updated: the block is abridged with '...' or quotes a file; fix it by hand"
                      % (page, block.start))
            else:
                updates.append((block, actual))
        return False

    def check_page(self, page):
        text, blocks = parse(page)
        rel = os.path.relpath(page)
        updates = [] if self.args.update else None
        failures_before = self.failures
        with tempfile.TemporaryDirectory(prefix="check-docs-") as work:
            work = os.path.realpath(work)
            env = self.setup(work)
            last_output = None
            last_block = None
            for n, block in enumerate(blocks):
                marker = block.marker
                if marker is None:
                    if block.info == "sh":
                        self.error(rel, block.start, "a ```sh block without <!-- check --> or "
                                   "<!-- not checked: WHY -->")
                    continue
                kind, opts_text, _ = marker
                if kind == "not checked":
                    if not opts_text.lstrip(":").strip():
                        self.error(rel, marker[2], "<!-- not checked: WHY --> must say why")
                    continue
                opts = options(opts_text)
                self.checked += 1
                if "from" in opts:
                    path = os.path.join(ROOT, opts["from"])
                    try:
                        if path.endswith(".xz"):
                            with lzma.open(path, "rt", encoding="utf-8") as f:
                                content = f.read()
                        else:
                            with open(path, encoding="utf-8") as f:
                                content = f.read()
                    except OSError as e:
                        self.error(rel, block.start, "cannot read %s: %s" % (opts["from"], e.strerror))
                        continue
                    lines = content.split("\n")
                    if lines and lines[-1] == "":
                        lines.pop()
                    self.compare(rel, block, lines, False, opts["from"], None)
                elif "output" in opts:
                    if last_output is None:
                        self.error(rel, block.start, "<!-- check output --> with no block run above it")
                        continue
                    self.compare(rel, block, last_output, True,
                                 "the output of the block at line %d" % last_block.start, updates)
                else:
                    if block.info not in RUNNABLE:
                        self.error(rel, block.start, "<!-- check --> runs ```sh or ```python blocks, not ```%s"
                                   % block.info)
                        continue
                    status, actual = self.run(block, work, env)
                    last_output, last_block = actual, block
                    want = int(opts.get("exit", "0"))
                    if status != want:
                        self.error(rel, block.start, "the block exited with status %s, not %d; it printed:\n%s"
                                   % (status, want, "".join("  " + l + "\n" for l in actual[-40:])))
                    following = blocks[n + 1] if n + 1 < len(blocks) else None
                    if (following is not None and following.marker is None
                            and following.info in OUTPUT_INFO
                            and all(not l.strip() for l in text[block.end:following.start - 1])):
                        self.checked += 1
                        self.compare(rel, following, actual, True,
                                     "the output of the block at line %d" % block.start, updates)
        if updates:
            for block, actual in sorted(updates, key=lambda u: -u[0].start):
                text[block.start:block.end - 1] = [(block.indent + l) if l else l for l in actual]
            with open(page, "w", encoding="utf-8") as f:
                f.write("\n".join(text))
            print("%s: updated %d block(s)" % (rel, len(updates)))
        return self.failures == failures_before


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="+", metavar="PAGE.md")
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"),
                        help="the build's tools (default build/bin)")
    parser.add_argument("--lib", default=None, help="the build's libraries (default: beside --bin)")
    parser.add_argument("--python", default=sys.executable, help="the Python that runs ```python blocks")
    parser.add_argument("--update", action="store_true", help="rewrite failing output blocks with the output")
    args = parser.parse_args()
    args.bin = os.path.realpath(args.bin)
    if args.lib is None:
        lib = os.path.join(os.path.dirname(args.bin), "lib")
        args.lib = lib if os.path.isdir(lib) else None
    else:
        args.lib = os.path.realpath(args.lib)
    checker = Checker(args)
    failed = []
    for page in args.pages:
        if not checker.check_page(page):
            failed.append(os.path.relpath(page))
    print("check_docs: %d block(s) in %d page(s), %d failure(s)%s"
          % (checker.checked, len(args.pages), checker.failures,
             (" in " + ", ".join(failed)) if failed else ""))
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
