"""Uncommon first names: a gazetteer for the people spaCy's small model misses.

The small English NER model knows common first names ("Maya", "Caroline") but often misses or
mislabels uncommon ones: "I went to Lisbon with Priya" has no entity for Priya, "I called Adriene"
makes Adriene an organisation. The gazetteer is the first-name lists of Faker's person providers
(MIT licensed, on PyPI; every locale, names in Latin script only: about 19k names), minus every
name that is also a word the embedder's WordPiece vocabulary holds whole. That vocabulary is our
lexicon of common English: it drops the names that are ordinary words ("Will", "May", "Grace",
"Hope", "Art", "Rock", "Summer") and the names common enough for the NER model to know already
("Maya", "Sofia", "Max"). What is left (about 16.5k names: "Priya", "Adriene", "Siobhan",
"Zoltan") is rarely anything but a name.

:func:`uncommon_first_names` loads the set once per process (~0.6 s: the providers are ~90 small
modules). Without Faker installed it raises :class:`~ripplemem.errors.MissingExtraError`.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import unicodedata
from functools import lru_cache
from importlib import resources

from ripplemem.errors import MissingExtraError
from ripplemem.providers.local_embedder import TOKENIZER_RESOURCE

__all__ = ["FAKER_LISTS", "faker_first_names", "uncommon_first_names"]

#: The class attributes of a Faker person provider that hold first names (lists or weighted dicts).
FAKER_LISTS = ("first_names", "first_names_male", "first_names_female", "first_names_nonbinary")
_LATIN_NAME = re.compile(r"[A-Z][a-zß-ÿ]+(?:-[A-Z][a-zß-ÿ]+)?")


def _ascii_folded(word: str) -> str:
    """Lower case without accents, as the uncased WordPiece vocabulary writes words."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def _wordpiece_words() -> frozenset[str]:
    source = resources.files("ripplemem.providers").joinpath(TOKENIZER_RESOURCE)
    vocab = json.loads(source.read_text(encoding="utf-8"))["model"]["vocab"]
    return frozenset(word for word in vocab if word.isalpha())


@lru_cache(maxsize=1)
def faker_first_names() -> frozenset[str]:
    """Every Latin-script first name of every Faker person provider."""
    try:
        from faker.providers import person
    except ImportError as error:
        raise MissingExtraError(
            "finding uncommon first names needs Faker's name lists. Install it with: "
            "pip install 'faker==40.63.0'"
        ) from error
    names: set[str] = set()
    for module in pkgutil.iter_modules(person.__path__):
        locale = importlib.import_module(f"{person.__name__}.{module.name}")
        provider = getattr(locale, "Provider", None)
        for attribute in FAKER_LISTS if provider is not None else ():
            values = vars(provider).get(attribute)  # not inherited: each locale's own list
            if isinstance(values, dict | list | tuple):
                names.update(n for n in values if isinstance(n, str) and _LATIN_NAME.fullmatch(n))
    return frozenset(names)


@lru_cache(maxsize=1)
def uncommon_first_names() -> frozenset[str]:
    """First names (as written: "Priya") that are no common English word; see the module notes."""
    common = _wordpiece_words()
    return frozenset(n for n in faker_first_names() if _ascii_folded(n) not in common)
