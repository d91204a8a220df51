"""check_bundle_imports.py ROOT: checks that the GPU bundle
(scripts/build-gpu-bundle.sh) carries every module of utils/ that the
Python it carries imports: the bundled utils/*.py themselves, the Python
package's tests (python/tests) and the GPU tests' helpers
(test/cuda/Inputs/*.py), which run there from the bundle's src/. Prints
each missing module with its importer and exits 1; else prints the count.
(A bundle built by the script alone once lacked utils/float8.py, which
test_gpu.py and tile-smith's references import.)
"""

import ast
import glob
import os
import re
import sys

root = sys.argv[1]
script = open(os.path.join(root, "scripts", "build-gpu-bundle.sh")).read()
bundled = set(re.findall(r'"\$root/utils/([A-Za-z0-9_]+)\.py"', script))
available = {os.path.basename(p)[:-3]
             for p in glob.glob(os.path.join(root, "utils", "*.py"))}

importers = [os.path.join(root, "utils", name + ".py") for name in sorted(bundled)]
importers += sorted(glob.glob(os.path.join(root, "python", "tests", "*.py")))
importers += sorted(glob.glob(os.path.join(root, "test", "cuda", "Inputs", "*.py")))

missing = []
for path in importers:
    tree = ast.parse(open(path).read(), path)
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module.split(".")[0]]
        for name in names:
            if name in available and name not in bundled:
                missing.append("%s imports utils/%s.py, which the bundle lacks"
                               % (os.path.relpath(path, root), name))
for line in sorted(set(missing)):
    print(line)
if missing:
    sys.exit(1)
print("bundle imports: %d files, every utils module they import carried"
      % len(importers))
