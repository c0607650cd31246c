"""numpy's BLAS on one thread for ripplemem's own small products.

Our matrix-vector products (exact kNN below the ANN threshold, ranking, diffusion) take well under
a few milliseconds; spread over BLAS threads on a small machine they wait for cores that the
embedder's onnxruntime threads hold, and idle BLAS threads spin against the embedder. Measured on
LongMemEval-S (2.3k units, 2 cores, under load): dense search 9-13 ms -> 0.6 ms, the query
embedding 15-25 ms -> 6-7 ms, a whole recall 64 ms -> 22 ms. The limit is scoped to our calls,
so the caller's own numpy keeps its settings. The controller is made once, on first use (a fresh
one costs ~1 ms): it covers numpy's BLAS, which our products use; a BLAS that another library
loads later (faiss bundles its own) is left alone.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

_controller = None


def single_threaded_blas() -> AbstractContextManager:
    global _controller
    if _controller is None:
        from threadpoolctl import ThreadpoolController

        _controller = ThreadpoolController()
    return _controller.limit(limits=1, user_api="blas")
