"""The solver's compiled code: whether it is ready, and preparing it with a progress report.

numba compiles the solver the first time it is called after an install (or an upgrade), once: about
15 seconds on the development machine (docs/performance.md), after which every process loads it from
numba's disk cache in under a second. The expert's first decision, a hint or ``atout analyse`` would
wait for it without a word; the interfaces instead call :func:`prepare` at start-up (the terminal table
in the background, while the player looks at his cards), and say what is happening while
:func:`compiling` reports a compilation under way.

>>> from atout.solver.prepare import is_ready, prepare
>>> seen = []
>>> prepare(lambda done, total, label: seen.append((done, total)))
>>> is_ready(), seen[-1] == (len(FUNCTIONS), len(FUNCTIONS)), compiling()
(True, True, None)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numba
from numba.core import event, types
from numba.core.dispatcher import Dispatcher
from numba.np.numpy_support import from_dtype

from atout.fast import kernels
from atout.solver import bounds, search
from atout.solver.stack import STACK

__all__ = ["FUNCTIONS", "Progress", "compiling", "entry_points", "is_ready", "needs_compiling", "prepare"]

#: ``progress(done, total, label)``: ``done`` of ``total`` steps are done, the last one ``label`` (a
#: compiled function's name; empty at the end). Called from the thread that compiles.
Progress = Callable[[int, int, str], None]

#: What compiling the solver compiles after an install, in order (each an inner function compiled while
#: typing the next ones): the steps :func:`prepare` reports. (A test checks that each exists.)
FUNCTIONS = (
    "atout.fast.kernels.card_points",
    "atout.solver.bounds.upper_bound",
    "atout.solver.ordering.equivalent_above",
    "atout.solver.table.suit_keys",
    "atout.fast.kernels.legal_mask",
    "atout.solver.endgames.last_two",
    "atout.solver.bounds._sure_points",
    "atout.solver.bounds._cheapest",
    "atout.solver.bounds._quick_points",
    "atout.solver.bounds.leader_sure",
    "atout.solver.endgames.three_tricks",
    "atout.solver.ordering._trick_guess",
    "atout.solver.ordering.order",
    "atout.solver.ordering.equivalents",
    "atout.solver.search._search",
    "atout.solver.search.run",
)

_INT = types.int64
_BOOL = types.boolean
_INTS = types.Array(types.int64, 1, "C")
_GRID = types.Array(types.int64, 2, "C")

#: A compiled function, and the argument types it is compiled for.
Entry = tuple["Dispatcher[Any]", tuple[types.Type, ...]]

_lock = threading.Lock()
#: The compilation under way (steps done, total), for :func:`compiling`.
_underway: tuple[int, int] | None = None
#: Local variables of :func:`_deep_stack`'s first frame (see there): 320 KB, so a 512 KB chunk.
_PAD = 40_000


def entry_points() -> tuple[Entry, ...]:
    """The compiled functions :class:`atout.solver.Solver` calls, each with the argument types it passes
    (the rest is compiled into them): a card mask's points, the bound on a node's value, the search."""
    stack = types.Array(from_dtype(STACK), 1, "C")
    run = (_INT, _INTS, _INT, _GRID, _INT, _INT, _INT, _BOOL, _BOOL, _INT, _INT, _INT, _INTS, _INTS, _INTS, _INTS)
    return (
        (kernels.card_points, (_INT, _INT)),
        (bounds.upper_bound, (_INTS, _GRID, _INT, _INT, _INTS)),
        (search.run, (*run, _GRID, stack, _GRID, _INTS, _INTS)),
    )


def is_ready() -> bool:
    """Whether the solver is compiled and loaded in this process: its next query waits for nothing."""
    if getattr(numba.config, "DISABLE_JIT", False):  # the "compiled" functions are Python's
        return True
    return all(signature in function.overloads for function, signature in entry_points())


def needs_compiling() -> bool:
    """Whether :func:`prepare` will compile (numba's disk cache lacks part of the solver: the first run
    after an install or an upgrade), rather than load it in under a second."""
    if is_ready():
        return False
    return not all(_cached(function, signature) for function, signature in entry_points())


def compiling() -> tuple[int, int] | None:
    """The compilation :func:`prepare` has under way, as (steps done, total); None when there is none
    (nothing asked yet, loading from the cache, or ready)."""
    return _underway


def prepare(progress: Progress | None = None) -> None:
    """Compile the solver, or load it from numba's disk cache, calling ``progress(done, total, label)``
    as it goes (``done`` rises to ``total``, reached once all is ready). Safe from any thread, and at
    once once ready (``progress`` then hears ``(total, total, "")`` only)."""
    total = len(FUNCTIONS)
    with _lock:
        if not is_ready():
            if needs_compiling():
                _deep_stack(lambda: _compile(total, progress))
            else:
                _load()  # from the cache: nothing to report on the way
    if progress is not None:
        progress(total, total, "")


def _load() -> None:
    """Compile each entry point, or load it from numba's cache."""
    for function, signature in entry_points():
        function.compile(signature)


def _compile(total: int, progress: Progress | None) -> None:
    """:func:`_load`, counting and reporting the functions compiled."""
    global _underway
    done = 0

    class Steps(event.Listener):
        """Each of atout's functions compiled meanwhile (in any thread: a bot may be the one compiling) is
        a step, reported up to ``total - 1``: the last once everything is ready."""

        def on_start(self, ev: event.Event) -> None:
            pass

        def on_end(self, ev: event.Event) -> None:
            global _underway
            nonlocal done
            py_func = ev.data["dispatcher"].py_func
            if py_func.__module__.startswith("atout.") and done < total - 1:
                done += 1
                _underway = (done, total)
                if progress is not None:
                    progress(done, total, f"{py_func.__module__}.{py_func.__name__}")

    _underway = (0, total)
    try:
        with event.install_listener("numba:compile", Steps()):
            _load()
    finally:
        _underway = None


def _cached(function: Dispatcher[Any], signature: tuple[types.Type, ...]) -> bool:
    """Whether numba's disk cache holds ``function`` compiled for ``signature`` on this machine (read from
    its index the way numba looks an entry up)."""
    try:
        cache: Any = getattr(function, "_cache")  # noqa: B009  # numba's own, not in its type stubs
        codegen: Any = getattr(function.targetctx, "codegen")()  # noqa: B009
        return bool(cache._index_key(signature, codegen) in cache._cache_file._load_index())
    except Exception:  # numba's internals changed, or no cache: say it is missing (a message too many)
        return False


def _deep_stack(call: Callable[[], None]) -> None:
    """Run ``call`` in a thread of its own, from a first frame that reserves a large part of the thread's
    data stack; raise what it raises.

    CPython 3.11 keeps the frames of Python calls in 16 KB chunks, maps a new chunk when a call does not
    fit in the last one and unmaps it when that call returns. numba's compiler recurses up and down
    thousands of times a second: where its depth hovers around the end of a chunk, a chunk is mapped and
    unmapped at each call (1.9 million times in one compilation of the solver, which took 27 s instead
    of 16, 11 of them in the kernel), and where that happens depends on how deep the caller already is.
    The first frame here is big enough (:data:`_PAD` local variables) that its chunk, sized to it, leaves
    room for the whole compilation above it."""
    names = " = ".join(f"_{i}" for i in range(_PAD))
    namespace: dict[str, Any] = {}
    exec(f"def padded(call):\n    if call is None:\n        {names} = None\n    call()\n", namespace)
    padded: Callable[[Callable[[], None]], None] = namespace["padded"]
    errors: list[BaseException] = []

    def target() -> None:
        try:
            padded(call)
        except BaseException as err:  # handed to the caller
            errors.append(err)

    thread = threading.Thread(target=target, name="atout-prepare", daemon=True)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
