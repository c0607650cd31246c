"""The public names of ``ripplemem`` are pinned: adding or removing one is a deliberate change."""

from __future__ import annotations

import ripplemem

PUBLIC = {
    "RECIPES",
    "AddResult",
    "Answer",
    "AsyncMemory",
    "Conversation",
    "Cues",
    "Edge",
    "Evidence",
    "LLMSettings",
    "Memory",
    "MemoryUnit",
    "Recall",
    "RecallRecipe",
    "RecallTrace",
    "RippleMemError",
    "Session",
    "Settings",
    "TimeSpan",
    "Turn",
    "Version",
    "WriteSettings",
    "get_recipe",
}


def test_all_is_pinned():
    assert set(ripplemem.__all__) == PUBLIC
    assert len(ripplemem.__all__) == len(PUBLIC)  # no name listed twice


def test_every_public_name_resolves():
    for name in ripplemem.__all__:
        assert getattr(ripplemem, name) is not None, name


def test_the_store_seam_names_are_public_where_backends_need_them():
    from ripplemem import stores, testing
    from ripplemem.testing.contracts import store as store_contract

    assert {"MemoryStore", "StoreCapabilities", "open_store", "register_store"} <= set(stores.__all__)
    assert {"FakeEmbedder", "ScriptedChatModel"} <= set(dir(testing))
    assert hasattr(store_contract, "StoreContract")
