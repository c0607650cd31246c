"""Verb forms the small English tagger and parser get wrong, mended on the doc they made.

* **A past taken for a present.** Chat drops the "I" of a sentence about the speaker ("Got a
  ThinkPad X1 second-hand", "Took the job at Ocado", "Ran my first 10k"); at the head of a
  sentence the tagger reads some such verbs as an imperative's base form (``VB``), and some pasts
  after a subject as a present (``VBP``: "I forgot I'd switched"), so the sentence states nothing
  of the speaker's, or states it now. A word spelled as another verb's irregular past ("got":
  "get") is neither a base form nor a present: it is retagged as the past it is.
* **"'d" before a participle** is "had", not "would" ("I'd switched to Octopus": a past, not a
  wish): a modal takes a base form.
* **A subject hung on an auxiliary** ("I got pre-approved": "I" under "got") belongs to the verb
  the auxiliary serves, which has none of its own (a true auxiliary, "be", "have", "do", "get"
  or a modal: the parse also calls a main verb one, "I love running my studio").

The past forms come from the pipeline's own lemmatizer tables (its verb exceptions), not from a
list of ours; a form that is also a verb's base form ("found", "saw", "lay", "felt"), a form of
"be", "have" or "do", a third person or an ``-ing`` form is left as tagged. The mending is a
function of the doc alone: a parse kept before it is mended as it is rebuilt.
"""

from __future__ import annotations

from typing import Any

#: the morphology of a finite past, as the tagger gives it to "Bought"
_PAST_MORPH = "Tense=Past|VerbForm=Fin"
#: the verbs whose forms the tagger reads right and whose present forms the tables also hold
_AUXILIARY_LEMMAS = frozenset({"be", "have", "do"})
#: the tags of a verb's base form and of its present, not the third person
_BASE_TAGS = frozenset({"VB", "VBP"})
#: the verbs that serve another as its auxiliary ("I got pre-approved"); the parse also calls a
#: main verb one ("I love running my studio": "love"), whose subject is its own
_AUXILIARY_VERBS = _AUXILIARY_LEMMAS | {"get"}
_HAD = frozenset({"'d", "\u2019d"})
_SUBJECTS = frozenset({"nsubj", "nsubjpass"})
_AUXILIARIES = frozenset({"aux", "auxpass"})


def irregular_pasts(nlp: Any) -> dict[str, str]:
    """Each irregular past or participle of ``nlp``'s lemmatizer tables that is no verb's base
    form, with its lemma ("got": "get", "took": "take"); empty without the tables."""
    if "lemmatizer" not in getattr(nlp, "component_names", ()):
        return {}
    lookups = getattr(nlp.get_pipe("lemmatizer"), "lookups", None)
    if lookups is None or not (lookups.has_table("lemma_exc") and lookups.has_table("lemma_index")):
        return {}
    forms = lookups.get_table("lemma_exc").get("verb", {})
    bases = set(lookups.get_table("lemma_index").get("verb", ()))
    found: dict[str, str] = {}
    for form, lemmas in forms.items():
        if not lemmas or lemmas[0] == form or lemmas[0] in _AUXILIARY_LEMMAS or "_" in form:
            continue
        if form in bases or form.replace("-", "") in bases or form.replace("-", "") == lemmas[0].replace("-", ""):
            continue  # a base form, or one spelled another way ("co-ordinate")
        if not form.endswith(("ing", "s")):
            found[form] = lemmas[0]
    return found


def past_forms(doc: Any, pasts: dict[str, str]) -> Any:
    """``doc`` mended as the module doc says; ``pasts``: :func:`irregular_pasts`."""
    for token in doc:
        if token.tag_ in _BASE_TAGS and token.lower_ in pasts and not any(
            c.dep_ in _AUXILIARIES for c in token.children
        ):
            _past(token, pasts[token.lower_], "VERB")
        elif token.lower_ in _HAD and token.tag_ == "MD" and token.dep_ == "aux" and token.head.tag_ == "VBN" and not any(
            c.dep_ in _AUXILIARIES and c.i > token.i for c in token.head.children
        ):  # not "I'd have gone": "would" takes "have"
            _past(token, "have", "AUX")
    for token in doc:
        auxiliary = token.head
        if (
            token.dep_ in _SUBJECTS and auxiliary.dep_ in _AUXILIARIES and auxiliary.head is not auxiliary
            and _serves(auxiliary)
        ):
            verb = auxiliary.head
            while verb.dep_ in _AUXILIARIES and verb.head is not verb and _serves(verb):
                verb = verb.head  # a parse may chain auxiliaries: the verb they serve
            if verb.i > token.i and not any(c.dep_ in _SUBJECTS for c in verb.children):
                token.dep_ = "nsubjpass" if auxiliary.dep_ == "auxpass" else "nsubj"
                token.head = verb
    return doc


def _serves(auxiliary: Any) -> bool:
    """A true auxiliary: a modal, or a form of "be", "have", "do" or "get"."""
    return auxiliary.tag_ == "MD" or auxiliary.lemma_.casefold() in _AUXILIARY_VERBS


def _past(token: Any, lemma: str, pos: str) -> None:
    token.tag_ = "VBD"
    token.pos_ = pos
    token.lemma_ = lemma
    token.set_morph(_PAST_MORPH)
