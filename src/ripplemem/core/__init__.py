"""The one core behind every face: :class:`~ripplemem.core.engine.Core` implements each verb
once, namespace first, with the policies all faces share; :mod:`.identity` turns user, agent and
run ids into namespaces; :mod:`.lanes` runs the core for ``AsyncMemory`` (thread limits,
per-namespace write turns, search workers); :mod:`.keys`, :mod:`.copy`, :mod:`.neighbourhood`
and :mod:`.timeline` hold the verbs for API keys, store copies and the viewer.
``ripplemem.Memory`` and ``ripplemem.AsyncMemory`` are the public faces over it."""
