"""Keep numba's on-disk cache from running stale code.

numba keys a cached function on its own source file only. atout's kernels inline functions of other
files (the solver inlines :mod:`atout.fast.kernels`) and bake in tables built from the rules core
(:mod:`atout.tables`), so an edit there would leave the cache answering with the old code or the old
card values. Each compiled module calls :func:`guard` once its functions are defined: the cache is
stamped with a digest of every compiled module's source, the tables and numba's version, and
flushed when the stamp differs, so the next call compiles afresh.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from types import ModuleType

import numba
import numpy as np

#: The packages whose modules are compiled and cached; each such module calls :func:`guard`.
COMPILED = ("fast", "solver")
_STAMP = "atout-kernels.stamp"


def digest(tables: tuple[np.ndarray, ...]) -> str:
    """The digest of what the compiled code depends on: the compiled packages' sources, the tables."""
    sha = hashlib.sha256(numba.__version__.encode())
    root = Path(__file__).resolve().parent.parent
    for package in COMPILED:
        for source in sorted((root / package).glob("*.py")):
            sha.update(source.name.encode())
            sha.update(source.read_bytes())
    for table in tables:
        sha.update(np.ascontiguousarray(table).tobytes())
    return sha.hexdigest()


def guard(module: ModuleType, tables: tuple[np.ndarray, ...]) -> None:
    """Flush the cache of ``module``'s compiled functions unless it was made from the same sources
    and tables (see the module's doc)."""
    functions = [f for f in vars(module).values() if isinstance(f, numba.core.registry.CPUDispatcher)]
    caches = [cache for f in functions if (cache := getattr(f, "_cache", None)) is not None and cache.cache_path]
    if not caches:
        return
    stamp = Path(caches[0].cache_path) / f"{module.__name__}.{_STAMP}"
    current = digest(tables)
    try:
        if stamp.read_text() == current:
            return
    except OSError:
        pass
    for cache in caches:
        cache.flush()
    try:
        stamp.write_text(current)
    except OSError as err:  # a read-only cache: numba recompiles in memory each time
        print(f"atout: cannot stamp numba's cache ({err})", file=sys.stderr)
