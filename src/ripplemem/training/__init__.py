"""AssoMem's training data from labelled conversations: fitted fusion weights and fine-tuning files.

``ripplemem fit-weights`` (:mod:`.signal_rows`, :mod:`.fit_weights`, :mod:`.temperature`) and
``ripplemem export-finetune`` (:mod:`.finetune`) read LoCoMo / LongMemEval files as
``(conversation, [GoldQuestion])`` pairs (:mod:`.gold_questions`) and ingest each conversation into
a fresh namespace of one memory (:mod:`.workspace`).
"""
