"""The crash tests' store comparison: floats agree within a tolerance, everything else exactly."""

from __future__ import annotations

from .scenario import FLOAT_TOLERANCE, difference


def test_one_ulp_apart_is_the_same_store() -> None:
    clean = {"ns": {"links": [("a", [("b", 1.000000238418579)])], "units": [({"id": "a"}, b"\x00")]}}
    rebuilt = {"ns": {"links": [("a", [("b", 1.0000004768371582)])], "units": [({"id": "a"}, b"\x00")]}}
    assert difference(clean, rebuilt) is None


def test_a_weight_beyond_the_tolerance_an_other_id_or_a_missing_row_is_named() -> None:
    clean = {"ns": {"links": [("a", [("b", 0.8)])]}}
    assert difference(clean, {"ns": {"links": [("a", [("b", 0.8 + 10 * FLOAT_TOLERANCE)])]}}) == (
        "/ns/links[0][1][0][1]: 0.8 != 0.8001"
    )
    assert difference(clean, {"ns": {"links": [("a", [("c", 0.8)])]}}) == "/ns/links[0][1][0][0]: 'b' != 'c'"
    assert difference(clean, {"ns": {"links": []}}) == "/ns/links: 1 items != 0 items"
    assert difference(clean, {"other": {}}) == ": keys ['ns'] != ['other']"
