"""What a short answer says with the question it answers.

"Where is Maya working these days?" / "At the Guardian now." states, in Maya's words, that she
is working at the Guardian now; "Did Ben buy that Mazda?" / "Yes, picked it up on Saturday!"
states that Ben bought it. The answer alone is a fragment (no clause of its own) or a bare
"yes", so the write path keeps such a reply with its question (``"Sam asked: ... Maya answered:
..."``) and this module turns the pair into the declarative sentence the answerer asserts
(question–answer ellipsis): the question's words in statement order — its subject before its
auxiliary — with the fragment in the place of the question word. A "no" or anything else
asserts nothing here (the question stays a question).
"""

from __future__ import annotations

import re
from typing import Any

#: a reply that grants a yes-or-no question
_YES = re.compile(r"^(?:yes|yeah|yep|yup|sure|definitely|absolutely|of course|totally|indeed)\b", re.IGNORECASE)
#: the tags of a question word (what, which, who, whose, where, when, how)
_WH_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})


def fragment(doc: Any) -> bool:
    """An answer with no verb of its own ("At the Guardian now, on the politics team.")."""
    return not any(t.pos_ in ("VERB", "AUX") for t in doc)


def affirms(answer: str) -> bool:
    """The answer grants a yes-or-no question ("Yes, picked it up on Saturday!")."""
    return bool(_YES.match(answer.strip()))


def _asked(question: Any) -> list[Any] | None:
    """The words of a parsed text's last sentence when it is a question, without punctuation."""
    sentences = list(question.sents)
    if not sentences or not sentences[-1].text.rstrip().endswith("?"):
        return None
    return [t for t in sentences[-1] if not t.is_punct]


def asks_for_a_thing(question: Any) -> bool:
    """A parsed question asks for a thing, not a yes or no nor a manner: its last sentence
    opens with a question word ("Where are you working these days?", "Which team ...?"), "how"
    only with the degree it asks for ("how many", "how old"; not "How's the new flat?")."""
    tokens = _asked(question)
    if not tokens or tokens[0].tag_ not in _WH_TAGS:
        return False
    return tokens[0].lower_ != "how" or (len(tokens) > 1 and tokens[1].pos_ in ("ADJ", "ADV"))


def declarative(question: Any, filler: str = "") -> str | None:
    """The statement a question's last sentence asks about, with ``filler`` in the place of its
    question word: "Where is Maya working these days?" + "At the Guardian now" -> "Maya is
    working these days At the Guardian now"; "Did Ben buy that Mazda?" -> "Ben did buy that
    Mazda". None when the sentence is not a question with an auxiliary before its subject (a
    question whose question word is its subject: "Who lives in Leeds?"), or asks for no thing
    (:func:`asks_for_a_thing`) that ``filler`` could be."""
    tokens = _asked(question)
    if tokens is None:
        return None
    start = 0
    if tokens and tokens[0].tag_ in _WH_TAGS:  # the question word and what it asks for
        if not filler or not asks_for_a_thing(question):
            return None
        while start < len(tokens) and tokens[start].pos_ not in ("AUX", "VERB"):
            start += 1
    elif filler:
        return None  # a yes-or-no question has no place for a thing
    if start >= len(tokens) or tokens[start].pos_ != "AUX":
        return None
    auxiliary = tokens[start]
    subject = next((t for t in tokens[start + 1 :] if t.dep_ in ("nsubj", "nsubjpass", "expl")), None)
    if subject is None:
        return None
    span = [t for t in subject.subtree if t.i > auxiliary.i]
    inside = {t.i for t in span}
    rest = [t for t in tokens[start + 1 :] if t.i not in inside]

    def word(token: Any) -> str:  # the question's first word is capitalised as the first
        first = token.i == tokens[0].i and token.pos_ != "PROPN"
        return token.text.lower() if first else token.text

    words = [*(word(t) for t in span), auxiliary.text.lower(), *(word(t) for t in rest)]
    text = " ".join(words)
    return re.sub(r" (n't|'s|'re|'ve|'ll|'d|'m)\b", r"\1", f"{text} {filler}".strip())
