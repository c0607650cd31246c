from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_info

from ripplemem.blas import single_threaded_blas


def _blas_threads() -> set[int]:
    return {p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"}


def test_blas_runs_on_one_thread_inside_and_is_restored_after():
    np.ones((4, 4)) @ np.ones(4)  # make sure numpy's BLAS is loaded
    before = _blas_threads()
    with single_threaded_blas():
        assert _blas_threads() == {1}
    assert _blas_threads() == before
