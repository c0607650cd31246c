"""Machine facts recorded in every result file."""

from __future__ import annotations

from pathlib import Path

from ripplemem_bench.measure import cpu_info, machine_info

CPUINFO = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Example CPU @ 2.60GHz
flags\t\t: fpu sse2 avx2 avx512f avx512_vnni amx_tile

processor\t: 1
model name\t: Another CPU
flags\t\t: fpu
"""


def test_cpu_info_reads_the_model_and_the_int8_instruction_sets(tmp_path: Path) -> None:
    path = tmp_path / "cpuinfo"
    path.write_text(CPUINFO)
    # the first processor's block; amx_tile alone is not AMX int8
    assert cpu_info(path) == {
        "model": "Example CPU @ 2.60GHz",
        "isa": ["avx2", "avx512f", "avx512_vnni"],
    }
    path.write_text("processor\t: 0\nflags\t\t: sse2 avx_vnni\n")
    assert cpu_info(path) == {"model": None, "isa": ["avx_vnni"]}
    assert cpu_info(tmp_path / "missing") == {}


def test_machine_info_carries_the_cpu() -> None:
    info = machine_info()
    assert {"cpus", "cpu", "python", "platform", "packages"} <= set(info)
