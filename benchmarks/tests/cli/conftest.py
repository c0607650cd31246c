"""A CLI runner without environment leaks."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

CLEAN_ENV = {
    "RIPPLEMEM_STORE": None,
    "RIPPLEMEM_LLM_BASE_URL": None,
    "RIPPLEMEM_LLM_MODEL": None,
    "RIPPLEMEM_LLM_API_KEY": None,
    "RIPPLEMEM_RECIPE": None,
    "RIPPLEMEM_ASSO_WEIGHTS": None,
    "OPENAI_API_KEY": None,
    "OMP_NUM_THREADS": "1",
}


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env=CLEAN_ENV)
