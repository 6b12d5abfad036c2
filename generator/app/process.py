"""What a process that prints does once, before its first page: load the layout engine, then
keep everything loaded so far out of the cyclic garbage collector's sight.

A process that prints holds some 190,000 long-lived objects (modules, the validated rules,
compiled templates, fonts) that no collection will ever free, and Python's full collections
walk every one of them: measured on a 2-core machine, about 0.2 CPU-s a collection and one or
two a packet, some 15 % of a packet made in a new process (2.8 against 2.3 CPU-s, static
sheets cached). `gc.freeze` moves them to a generation the collector skips. It is done once
per process, after the rules are loaded: freezing again later would keep whatever became
garbage in between for good, which a long-running process (the web app) must not do. Batch
workers are forked from a settled process and inherit it.
"""

from __future__ import annotations

import atexit
import gc

_settled = False


def settle() -> None:
    """Import the layout engine and freeze what is loaded, once per process."""
    global _settled
    if _settled:
        return
    import weasyprint  # noqa: F401  (the first layout imports it anyway: before the freeze)

    gc.collect()
    gc.freeze()
    # at exit the frozen objects go back to the collector, so that they are finalised as
    # they would have been, while the modules are whole (frozen, WeasyPrint's font
    # configuration was finalised after its module was torn down: "Exception ignored")
    atexit.register(gc.unfreeze)
    _settled = True


def settled() -> bool:
    """Return whether this process has settled (`settle`)."""
    return _settled
