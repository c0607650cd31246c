"""Store tests; the synthetic units they share come from ripplemem.testing.builders."""

from ripplemem.testing.builders import CREATED, DIM, T0, day_span, make_unit, unit_vectors

__all__ = ["CREATED", "DIM", "T0", "day_span", "make_unit", "unit_vectors"]
