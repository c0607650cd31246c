"""Words in another language: the stages that rewrite references leave them as written.

The deterministic restatement rewrites English references: "I", "me", "my" become the speaker
(:mod:`ripplemem.write.restate`), "she", "her", "he" a person named before
(:mod:`ripplemem.write.pronouns`). Other languages written in the Latin alphabet share some of
those spellings with other meanings: French and Spanish "me" (*je me suis installée*, *me mudé*),
Danish and Norwegian "her" (here), Polish "my" (we). Rewriting them puts words in a memory that
nobody said ("Je Élodie suis installée à Lyon").

A sentence is read as another language when its function words say so: at least
:data:`EVIDENCE` words of the closed classes (articles, pronouns, auxiliaries, conjunctions,
prepositions) of French, Spanish, Italian, Portuguese, German, Dutch, Danish, Norwegian,
Swedish or Polish that are no English word, and more of them than of English function words.
Function words are the most frequent words of any text and a closed set per language, the oldest
cue of language identification. A sentence with one such word, or none, stays English: a name ("Café
del Mar"), a greeting ("Merci!") or a foreign phrase among English words changes nothing; a text
in another script has no English reference to rewrite.
"""

from __future__ import annotations

import re

__all__ = ["EVIDENCE", "in_other_language"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: function words of French, Spanish, Italian, Portuguese, German, Dutch, the Scandinavian
#: languages and Polish that are no English word (not "die", "den", "son", "con", "per", "also", "was",
#: "will", "war", "bin", "ton", "an", "in", "so", "man", "non", "er", "ale"; nor names: "Ben", "Mia")
_OTHER = _words(
    """
    je tu il elle nous vous ils elles suis est sont était les une du aux et mais pas très
    avec pour dans ce cette qui où mes ses leur leurs sommes êtes avons
    él ella nosotros soy estoy eres está están estaba el los las una unos unas y pero muy
    para por en del mi mis tus su sus qué porque también cuando donde
    io sono sei siamo gli della delle degli che anche perché mio miei sua suo
    sou não com uma uns meu minha você estou
    ich du sie wir ihr bist ist sind waren der das dem des ein eine einen und
    aber nicht mit für auf mein meine dein sein seine ihre auch noch schon sehr habe hast
    ik het een niet mijn zijn maar ook wij jij hij zij heb
    jeg jag ikke inte og och det är hun hon han på af av meg mig deg dig att med nu
    się nie jest że jestem jesteśmy mam mój moja moje bardzo tylko przez dla już też jak tak czy nam nas
    """
)
#: English function words (the lexical index's stopwords that no language above spells the same
#: way but "i" and "at", Scandinavian words too)
_ENGLISH = _words(
    """
    the and is are was were to of my i you it that this for with have has had be been not but
    we he she they will would can could just what how at our your his her them their
    there which who because from about or if when
    """
)
#: foreign function words a sentence must hold to be read as another language
EVIDENCE = 2
_WORD = re.compile(r"[^\W\d_]+")


def in_other_language(text: str) -> bool:
    """Whether ``text`` reads as a language other than English by its function words (see the
    module doc)."""
    if text.isascii() and " " not in text:
        return False
    other = english = 0
    for match in _WORD.finditer(text):
        word = match.group().lower()
        if word in _OTHER:
            other += 1
        elif word in _ENGLISH:
            english += 1
    return other >= EVIDENCE and other > english
