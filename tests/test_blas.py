from __future__ import annotations

from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_info

from ripplemem.blas import single_threaded_blas


def _numpy_blas_threads() -> set[int]:
    """Threads of the BLAS that numpy itself links (the one our products run on)."""
    numpy_dir = Path(np.__file__).parent.parent  # site-packages: numpy.libs lives beside numpy
    return {
        p["num_threads"]
        for p in threadpool_info()
        if p["user_api"] == "blas" and Path(p["filepath"]).parent.name == "numpy.libs"
        or p["user_api"] == "blas" and str(p["filepath"]).startswith(str(numpy_dir / "numpy"))
    }


def test_numpy_blas_runs_on_one_thread_inside_and_is_restored_after():
    np.ones((4, 4)) @ np.ones(4)  # numpy's BLAS is loaded
    before = _numpy_blas_threads()
    assert before, "numpy's BLAS library was not found"
    with single_threaded_blas():
        assert _numpy_blas_threads() == {1}
    assert _numpy_blas_threads() == before
