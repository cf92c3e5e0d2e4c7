"""``python -m ecs``: the same command line as ``tcg-counters``."""
import gc
import sys


def run() -> int:
    """The ``tcg-counters`` command: ``ecs.cli.main``, and Ctrl-C while it loads is one line.
    The process is the command's own, so it skips two costs a library could not: numba's
    probe for a BLAS, and collecting every object at exit."""
    try:
        _without_blas_probe()
        from .cli import main
    except KeyboardInterrupt:  # Ctrl-C while the command's modules load
        print("tcg-counters: interrupted", file=sys.stderr)
        return 130
    rc = main()
    # The interpreter's teardown collects what is left: after a first run the kernel
    # compiler's hundreds of thousands of objects, about half a second. Frozen, they are
    # not walked.
    gc.freeze()
    return rc


def _without_blas_probe() -> None:
    """Load numba's array functions with SciPy's linear algebra hidden: they import it to
    learn whether ``np.dot`` can call a BLAS (about 0.3 s, in every run), which no kernel
    of the engine calls. SciPy imports as usual afterwards."""
    hidden = "scipy.linalg" not in sys.modules
    if hidden:
        sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # an import of it fails
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if hidden:
            del sys.modules["scipy.linalg"]


if __name__ == "__main__":
    sys.exit(run())
