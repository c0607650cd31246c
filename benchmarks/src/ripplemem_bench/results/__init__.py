"""Typed result records: what every benchmark writes and ``bench report`` reads.

A runner builds one of these records and writes it with :func:`write_result`; the report loads
any result file with :func:`load_result` (older files too: fields a record does not declare are
kept, fields an older file lacks take their defaults). One module per kind:
:mod:`.retrieval` (LoCoMo, LongMemEval), :mod:`.growth` (speed, scale), :mod:`.index`
(the dense index alone), :mod:`.service` (serve), :mod:`.writers`, :mod:`.asso` (AssoMem
speed), :mod:`.updates` (the update suite, LongMemEval's knowledge updates), :mod:`.times` (the
time-expression suite) and :mod:`.knn` (PostgreSQL kNN).
"""

from ripplemem_bench.results.asso import AssoSpeedResult
from ripplemem_bench.results.base import Facts, Machine, Record, Scores
from ripplemem_bench.results.growth import GrowthResult
from ripplemem_bench.results.index import IndexScaleResult
from ripplemem_bench.results.knn import KnnResult
from ripplemem_bench.results.load import (
    OtherResult,
    Result,
    kind_of,
    load_result,
    parse_result,
    write_result,
)
from ripplemem_bench.results.retrieval import RecipeScores, RetrievalResult, RetrievalVariants
from ripplemem_bench.results.service import ServeResult
from ripplemem_bench.results.times import TimesResult
from ripplemem_bench.results.updates import LmeUpdatesResult, UpdatesResult
from ripplemem_bench.results.writers import WritersResult

__all__ = [
    "AssoSpeedResult",
    "Facts",
    "GrowthResult",
    "IndexScaleResult",
    "KnnResult",
    "LmeUpdatesResult",
    "Machine",
    "OtherResult",
    "RecipeScores",
    "Record",
    "Result",
    "RetrievalResult",
    "RetrievalVariants",
    "Scores",
    "ServeResult",
    "TimesResult",
    "UpdatesResult",
    "WritersResult",
    "kind_of",
    "load_result",
    "parse_result",
    "write_result",
]
