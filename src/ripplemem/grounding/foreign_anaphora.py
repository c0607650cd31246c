"""Anaphoric times in French, German, Spanish, Italian, Portuguese and Dutch, read as English.

An anaphoric time counts from the time named before it: "trois jours plus tard", "zwei Tage
später", "la veille", "al día siguiente", "la settimana dopo", "no fim de semana seguinte", "de dag
ervoor". :data:`FOREIGN_ANAPHORA` finds them (the rules mark each as a vague time), and
:func:`english_anaphor` says each in the English words the anaphora rules count from ("three days
later", "the day before", "the next day", "the week after", "the weekend after"), so one rule
grounds them in every language. The word lists are closed classes of each language: the units of
time, the words for later, earlier, next, previous, the numbers up to twelve.

A count before an event is not an anaphor: "deux jours avant le mariage", "dos días antes de la
boda" name their own event, so a "before" or "after" word followed by "de", "di", "von", "van" ...
is not read.
"""

from __future__ import annotations

import re

from ripplemem.language import FUNCTION_WORDS, span_prepositions

#: the words for a unit of time in each language (singular and plural): its English unit (a night
#: counts as a day, as in English)
_UNITS = {
    "day": "jour jours journée journées tag tage tagen día días giorno giorni dia dias dag dagen "
           "nacht nächte nuit nuits noche noches notte notti noite noites",
    "week": "semaine semaines woche wochen semana semanas settimana settimane week weken",
    "month": "mois monat monate monaten mes meses mese mesi mês maand maanden",
    "year": "an ans année années jahr jahre jahren año años anno anni ano anos jaar jaren",
}
_UNIT_OF = {word: unit for unit, words in _UNITS.items() for word in words.split()}

#: the numbers up to twelve in each language (the articles "un", "eine", "een" ... are one)
_NUMBERS = {
    **dict.fromkeys(["un", "une", "ein", "eine", "einen", "einem", "uno", "una", "um", "uma", "een"], 1),
    **dict.fromkeys(["deux", "zwei", "dos", "due", "dois", "duas", "twee"], 2),
    **dict.fromkeys(["trois", "drei", "tres", "tre", "três", "drie"], 3),
    **dict.fromkeys(["quatre", "vier", "cuatro", "quattro", "quatro"], 4),
    **dict.fromkeys(["cinq", "fünf", "cinco", "cinque", "vijf"], 5),
    **dict.fromkeys(["six", "sechs", "seis", "sei", "zes"], 6),
    **dict.fromkeys(["sept", "sieben", "siete", "sette", "sete", "zeven"], 7),
    **dict.fromkeys(["huit", "acht", "ocho", "otto", "oito"], 8),
    **dict.fromkeys(["neuf", "neun", "nueve", "nove", "negen"], 9),
    **dict.fromkeys(["dix", "zehn", "diez", "dieci", "dez", "tien"], 10),
    **dict.fromkeys(["onze", "elf", "once", "undici"], 11),
    **dict.fromkeys(["douze", "zwölf", "doce", "dodici", "doze", "twaalf"], 12),
}
_NUMBER = r"\d{1,3}|" + "|".join(sorted(_NUMBERS, key=len, reverse=True))
_UNIT = "|".join(sorted(_UNIT_OF, key=len, reverse=True))
#: after a count: later ("plus tard", "später", "después", "dopo", "depois", "later") or earlier
_LATER = r"plus tard|après|später|danach|darauf|después|más tarde|dopo|più tardi|depois|mais tarde|later|daarna|erna"
_EARLIER = r"plus tôt|auparavant|avant|früher|vorher|davor|antes|prima|eerder|ervoor|daarvoor"
#: a "before" or "after" word that names its own event ("avant le mariage", "antes de la boda")
_OWN_EVENT = r"(?!\s+(?:de|du|des|d'|di|del|della|dello|dei|da|do|dos|das|von|vom|der|dem|den|van|la|le|il|el)\b)"

#: the day before / the next day, the week, weekend, month or year before or after, as said
_FIXED = {
    # French
    r"la veille": "the day before", r"le lendemain": "the next day",
    r"l[ea] (?:jour|soir|nuit|semaine|mois|week-end|weekend) (?:suivante?|d'après)": "next",
    r"l'année (?:suivante|d'après)": "the next year", r"l'an (?:suivant|d'après)": "the next year",
    r"l[ea] (?:jour|soir|nuit|semaine|mois|week-end|weekend) (?:précédente?|d'avant)": "previous",
    r"l'année (?:précédente|d'avant)": "the previous year",
    # German
    r"(?:am|den) (?:tag|abend) (?:davor|vorher)": "the day before", r"am vortag": "the day before",
    r"(?:am|den) (?:nächsten|folgenden) (?:tag|morgen|abend)": "the next day",
    r"(?:am|den) (?:tag|abend) (?:danach|darauf)": "the next day",
    r"(?:die|in der) woche (?:danach|darauf)": "the week after", r"(?:die|in der) woche (?:davor|vorher)": "the week before",
    r"(?:am|das) wochenende (?:danach|darauf)": "the weekend after",
    r"(?:am|das) wochenende (?:davor|vorher)": "the weekend before",
    r"(?:im|den) monat (?:danach|darauf)": "the month after", r"(?:im|das) jahr (?:danach|darauf)": "the year after",
    # Spanish
    r"(?:el|al) día (?:siguiente|después)": "the next day", r"el día (?:anterior|antes)": "the day before",
    r"la (?:noche|tarde|mañana) anterior": "the day before",
    r"la semana (?:siguiente|después)": "the week after", r"la semana anterior": "the week before",
    r"el fin de semana (?:siguiente|después)": "the weekend after", r"el fin de semana anterior": "the weekend before",
    r"el mes (?:siguiente|después)": "the month after", r"el mes anterior": "the month before",
    r"el año (?:siguiente|después)": "the year after", r"el año anterior": "the year before",
    # Italian
    r"il giorno (?:dopo|seguente|successivo)": "the next day", r"il giorno (?:prima|precedente)": "the day before",
    r"la (?:sera|notte|mattina) (?:prima|precedente)": "the day before",
    r"la settimana (?:dopo|seguente|successiva)": "the week after", r"la settimana (?:prima|precedente)": "the week before",
    r"il (?:weekend|fine settimana) (?:dopo|seguente|successivo)": "the weekend after",
    r"il (?:weekend|fine settimana) (?:prima|precedente)": "the weekend before",
    r"il mese (?:dopo|seguente|successivo)": "the month after", r"il mese (?:prima|precedente)": "the month before",
    r"l'anno (?:dopo|seguente|successivo)": "the year after", r"l'anno (?:prima|precedente)": "the year before",
    # Portuguese
    r"(?:o|no) dia (?:seguinte|depois)": "the next day", r"(?:o|no) dia anterior": "the day before",
    r"(?:na )?véspera": "the day before", r"a (?:noite|tarde|manhã) anterior": "the day before",
    r"(?:a|na) semana (?:seguinte|depois)": "the week after", r"(?:a|na) semana anterior": "the week before",
    r"(?:o|no) fim de semana (?:seguinte|depois)": "the weekend after",
    r"(?:o|no) fim de semana anterior": "the weekend before",
    r"(?:o|no) mês (?:seguinte|depois)": "the month after", r"(?:o|no) ano (?:seguinte|depois)": "the year after",
    # Dutch
    r"de dag (?:erna|daarna|daarop)": "the next day", r"de volgende dag": "the next day",
    r"de dag (?:ervoor|daarvoor)": "the day before",
    r"de week (?:erna|daarna|daarop)": "the week after", r"de week (?:ervoor|daarvoor)": "the week before",
    r"het weekend (?:erna|daarna|daarop)": "the weekend after", r"het weekend (?:ervoor|daarvoor)": "the weekend before",
    r"de maand (?:erna|daarna)": "the month after", r"het jaar (?:erna|daarna)": "the year after",
}
#: the weekdays in each language, Monday first: "le samedi suivant", "am Samstag darauf", "el
#: sábado siguiente", "il sabato dopo", "o sábado seguinte", "de zaterdag erna"
_WEEKDAYS = [
    "lundi montag lunes lunedì segunda maandag", "mardi dienstag martes martedì terça dinsdag",
    "mercredi mittwoch miércoles mercoledì quarta woensdag",
    "jeudi donnerstag jueves giovedì quinta donderdag", "vendredi freitag viernes venerdì sexta vrijdag",
    "samedi samstag sábado sabato zaterdag", "dimanche sonntag domingo domenica zondag",
]
#: the weekdays' names by language (Portuguese's "segunda" ... "sexta" are ordinals too, and
#: "sábado", "domingo" Spanish as well: left out), for a text too short to tell its language
_DAYS_OF = {
    "fr": "lundi mardi mercredi jeudi vendredi samedi dimanche",
    "de": "montag dienstag mittwoch donnerstag freitag samstag sonntag",
    "es": "lunes martes miércoles jueves viernes sábado domingo",
    "it": "lunedì martedì mercoledì giovedì venerdì sabato domenica",
    "nl": "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag",
}
_LANGUAGE_OF_DAY = {word: language for language, words in _DAYS_OF.items() for word in words.split()}
_A_DAY = re.compile(r"(?<![\w'-])(?:" + "|".join(_LANGUAGE_OF_DAY) + r")(?![\w'-])", re.IGNORECASE)


def named_weekday(text: str) -> re.Match[str] | None:
    """The first weekday ``text`` names in French, German, Spanish, Italian or Dutch."""
    return _A_DAY.search(text)


def weekday_language(text: str) -> str | None:
    """The language whose weekday ``text`` names ("Je partirai à Rome lundi": French), None when
    it names none or the weekdays of two languages."""
    languages = {_LANGUAGE_OF_DAY[m.group().lower()] for m in _A_DAY.finditer(text)}
    return languages.pop() if len(languages) == 1 else None


#: the months' names by language, for a text too short to tell its language ("Da marzo studio
#: spagnolo"); a name two languages share ("marzo", "mai") is told by the text's closed classes
_MONTHS_OF = {
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "de": "januar februar märz april mai juni juli august september oktober november dezember",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
}
_LANGUAGES_OF_MONTH: dict[str, set[str]] = {}
for _language, _names in _MONTHS_OF.items():
    for _name in _names.split():
        _LANGUAGES_OF_MONTH.setdefault(_name, set()).add(_language)
_A_MONTH = re.compile(r"(?<![\w'-])(?:" + "|".join(_LANGUAGES_OF_MONTH) + r")(?![\w'-])", re.IGNORECASE)
_A_WORD = re.compile(r"[^\W\d_]+")


def names_a_month(text: str) -> bool:
    """Whether ``text`` names a month in one of the languages of :data:`_MONTHS_OF` ("mai",
    "maggio", "mei"; Japanese "5月" by its kanji)."""
    return _A_MONTH.search(text) is not None or re.search(r"\d\s*月", text) is not None


def month_language(text: str) -> str | None:
    """The language whose month ``text`` names and whose closed classes it holds a word of (its
    function words or its prepositions of a span: "Da marzo studio spagnolo": Italian), None when
    not one language is both."""
    named = set().union(*(_LANGUAGES_OF_MONTH[m.group().lower()] for m in _A_MONTH.finditer(text)))
    words = {m.group().lower() for m in _A_WORD.finditer(text)}
    told = {code for code in named if words & (FUNCTION_WORDS.get(code, frozenset()) | span_prepositions(code))}
    return told.pop() if len(told) == 1 else None


_ENGLISH_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAY_OF = {word: _ENGLISH_DAYS[n] for n, words in enumerate(_WEEKDAYS) for word in words.split()}
_WEEKDAY = "|".join(sorted(_WEEKDAY_OF, key=len, reverse=True))
_FIXED |= {
    r"l[ea] (?P<wa>" + _WEEKDAY + r") (?:suivant|d'après)": "after",
    r"l[ea] (?P<wb>" + _WEEKDAY + r") (?:précédent|d'avant)": "before",
    r"(?:am|den) (?P<wc>" + _WEEKDAY + r") (?:darauf|danach)": "after",
    r"(?:am|den) (?P<wd>" + _WEEKDAY + r") (?:davor|vorher)": "before",
    r"el (?P<we>" + _WEEKDAY + r") (?:siguiente|después)": "after", r"el (?P<wf>" + _WEEKDAY + r") anterior": "before",
    r"il (?P<wg>" + _WEEKDAY + r") (?:dopo|seguente|successivo)": "after",
    r"il (?P<wh>" + _WEEKDAY + r") (?:prima|precedente)": "before",
    r"(?:o|no|a|na) (?P<wi>" + _WEEKDAY + r")(?:-feira)? (?:seguinte|depois)": "after",
    r"(?:o|no|a|na) (?P<wj>" + _WEEKDAY + r")(?:-feira)? anterior": "before",
    r"de (?P<wk>" + _WEEKDAY + r") (?:erna|daarna|daarop)": "after", r"de (?P<wl>" + _WEEKDAY + r") (?:ervoor|daarvoor)": "before",
}
_FIXED_RE = [(re.compile(pattern + r"$", re.IGNORECASE), english) for pattern, english in _FIXED.items()]
#: French nouns of a period whose "suivant(e)" / "précédent(e)" names one unit after or before
_FRENCH_UNIT = {"jour": "day", "soir": "day", "nuit": "day", "semaine": "week", "mois": "month",
                "week-end": "weekend", "weekend": "weekend"}

_COUNTED = (
    r"(?P<n>" + _NUMBER + r")\s+(?P<unit>" + _UNIT + r")\s+"
    r"(?:(?P<later>" + _LATER + r")|(?P<earlier>" + _EARLIER + r"))" + _OWN_EVENT
)
FOREIGN_ANAPHORA = re.compile(
    r"(?<![\w'])(?:" + _COUNTED + "|" + "|".join(f"(?:{re.sub(r'[?]P<w.>', ':', p)})" for p in _FIXED)
    + r")(?![\w'-])",
    re.IGNORECASE,
)
_COUNTED_RE = re.compile(_COUNTED + r"$", re.IGNORECASE)


def english_anaphor(phrase: str) -> str | None:
    """``phrase`` (a find of :data:`FOREIGN_ANAPHORA`) in the English words the anaphora rules
    read ("trois jours plus tard" -> "3 days later", "la veille" -> "the day before"); None for
    a phrase it does not read."""
    m = _COUNTED_RE.match(phrase)
    if m is not None:
        number = m.group("n").lower()
        count = int(number) if number.isdigit() else _NUMBERS[number]
        unit = _UNIT_OF.get(m.group("unit").lower())
        if unit is None:
            return None
        return f"{count} {unit}s {'later' if m.group('later') else 'earlier'}"
    for pattern, english in _FIXED_RE:
        if (found := pattern.match(phrase)) is not None:
            day = next((v for k, v in found.groupdict().items() if k.startswith("w") and v), None)
            if day is not None:  # "el sábado siguiente": "the Saturday after"
                return f"the {_WEEKDAY_OF[day.lower()]} {english}"
            if english in ("next", "previous"):  # French: "la semaine suivante"
                noun = phrase.split()[1].lower()
                return f"the {english} {_FRENCH_UNIT[noun]}"
            return english
    return None
