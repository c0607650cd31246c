"""Past forms the tagger took for base forms.

Chat drops the "I" of a sentence about the speaker ("Got a ThinkPad X1 second-hand", "Took the job
at Ocado", "Ran my first 10k"). At the head of a sentence the small English tagger reads some such
verbs as an imperative's base form (``VB``), so the sentence reads as an order with no subject and
states nothing of the speaker's. A word spelled as another verb's irregular form ("got": "get") is
no base form, whatever its place: :func:`past_forms` retags it as the past it is.

The forms come from the pipeline's own lemmatizer tables (its verb exceptions), not from a list
of ours; a form that is also a verb's base form ("found", "saw", "lay", "felt") is left as tagged.
The retagging is a function of the doc alone: a parse kept before it is retagged as it is rebuilt.
"""

from __future__ import annotations

from typing import Any

#: the morphology of a finite past, as the tagger gives it to "Bought"
_PAST_MORPH = "Tense=Past|VerbForm=Fin"


def irregular_pasts(nlp: Any) -> dict[str, str]:
    """Each irregular verb form of ``nlp``'s lemmatizer that is no verb's base form and no
    ``-ing`` form, with its lemma ("got": "get", "took": "take"); empty without the tables."""
    if "lemmatizer" not in getattr(nlp, "component_names", ()):
        return {}
    lookups = getattr(nlp.get_pipe("lemmatizer"), "lookups", None)
    if lookups is None or not (lookups.has_table("lemma_exc") and lookups.has_table("lemma_index")):
        return {}
    forms = lookups.get_table("lemma_exc").get("verb", {})
    bases = set(lookups.get_table("lemma_index").get("verb", ()))
    return {
        form: lemmas[0] for form, lemmas in forms.items()
        if lemmas and lemmas[0] != form and form not in bases and not form.endswith("ing")
    }


def past_forms(doc: Any, pasts: dict[str, str]) -> Any:
    """``doc`` with each verb tagged as a base form (``VB``) but spelled as an irregular past of
    ``pasts`` retagged as a finite past (``VBD``, its lemma the table's), when nothing makes it an
    infinitive (no auxiliary, no "to")."""
    for token in doc:
        if token.tag_ != "VB":
            continue
        lemma = pasts.get(token.lower_)
        if lemma is None or any(c.dep_ in ("aux", "auxpass") for c in token.children):
            continue
        token.tag_ = "VBD"
        token.pos_ = "VERB"
        token.lemma_ = lemma
        token.set_morph(_PAST_MORPH)
    return doc
