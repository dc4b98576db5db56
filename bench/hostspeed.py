"""How fast the host runs Python right now, for reading a benchmark's times.

This machine's virtual cores run from 1.0 to about 2.0 times slower from one
hour (sometimes one minute) to the next, with nothing else running. Each
benchmark therefore times this fixed workload, which never changes with the
app's code, before and after its own measures and prints both: a run whose
reference is well above REFERENCE_FAST_MS ran on a slow host, whatever the
code did.
"""

from __future__ import annotations

import gc
import time

# The reference's best time on this machine when the host is fast (see
# bench/README.md, "How fast is the host?").
REFERENCE_FAST_MS = 3.2


def _workload() -> int:
    """Interpreted Python of the kind the app runs: calls, small tuples,
    dicts and lists, string formatting, sorting."""
    counts: dict[str, int] = {}
    for i in range(6000):
        key = f"{i % 13}-{i % 4}"
        counts[key] = counts.get(key, 0) + _points(i % 14)
    rows = sorted(((value, key) for key, value in counts.items()), reverse=True)
    heap = [(i * 7919 % 1009, i) for i in range(3000)]
    heap.sort()
    return rows[0][0] + heap[0][1]


def _points(rank: int) -> int:
    return 10 if rank >= 10 else rank


def reference_ms(tries: int = 7) -> float:
    """The workload's best time of ``tries``, in ms: the best, because a
    single time may include a pause of the process that is not the host's
    speed. The garbage collector is held off: how much the calling process
    holds must not change the figure."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        best = float("inf")
        for _ in range(tries):
            started = time.perf_counter()
            _workload()
            best = min(best, time.perf_counter() - started)
    finally:
        if collecting:
            gc.enable()
    return best * 1000


def describe(before: float, after: float) -> str:
    """A line for a benchmark's output."""
    return (f"host speed: reference {before:.2f} ms before, {after:.2f} ms after "
            f"(about {REFERENCE_FAST_MS:.1f} at the host's full speed, "
            f"{2 * REFERENCE_FAST_MS:.1f} in its slow spells)")
