"""ripplemem-bench: the benchmark harness of ripplemem, a distribution of its own.

Retrieval benchmarks on LoCoMo and LongMemEval (:mod:`.retrieval`), answers with F1, BLEU-1 and
an LLM judge (:mod:`.answers`), speed and scale (:mod:`.speed`), the results page and its plots
(:mod:`.reports`) and peer memory systems run beside ours (:mod:`.peers`). The commands live under
``ripplemem bench`` (an entry-point plugin of the ``ripplemem`` command) and ``ripplemem-bench``.
"""
