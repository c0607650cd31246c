"""Contract suites: subclass one in a test module and provide its fixture.

* :class:`~ripplemem.testing.contracts.store.StoreContract` — fixture ``make_store``
* :class:`~ripplemem.testing.contracts.keys.KeyStoreContract` — fixture ``open_keys``
* :class:`~ripplemem.testing.contracts.jobs.JobStoreContract` — fixture ``jobs``
* :class:`~ripplemem.testing.contracts.embedder.EmbedderContract` — fixture ``embedder``
* :class:`~ripplemem.testing.contracts.extractor.ExtractorContract` — fixture ``extractor``
* :class:`~ripplemem.testing.contracts.planner.PlannerContract` — fixture ``planner``

They import pytest: import them from tests only.
"""
