"""What a memory states, read from the dependency parse: who, which predicate, which value, and
whether it is asserted as a fact (:mod:`ripplemem.statements.clauses`); the statements of memory
units, parsed once and cached (:mod:`ripplemem.statements.reader`).

The write path links a unit to an earlier one it updates (:mod:`ripplemem.write.supersede`), the
read path finds the latest of the statements that answer a question about the present
(:mod:`ripplemem.read.supersession`); both read statements the same way, so they live below both.
"""

from ripplemem.statements.clauses import Clause, Parse, clauses_of, counts, frequency, same_place
from ripplemem.statements.reader import StatementReader, speaker_parts

__all__ = ["Clause", "Parse", "StatementReader", "clauses_of", "counts", "frequency", "same_place", "speaker_parts"]
