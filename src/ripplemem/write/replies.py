"""A bare reply: a text that only says yes, no, thanks or an interjection, in any language the
library reads (:mod:`ripplemem.language`), and so holds no fact to remember.

"Oui", "Ja.", "Sí", "はい", "是的", "Nein.", "Да, конечно.", "Okay, oui 👍" are bare replies;
"J'habite à Lyon.", "Nein, ich wohne jetzt in Köln." and "我住在上海。" are not: one word outside the
lists (or a digit) makes a statement. The deterministic extractor drops a bare reply of another
language than English (:func:`foreign_reply`) as it drops English chit-chat, which its own word
lists decide (:meth:`~ripplemem.write.extract_rules.DeterministicExtractor.is_chitchat`: a
"Correct." or "Agreed." that confirms what was asked is kept there), and ``Memory.update``
refuses any bare reply whatever the extractor (:mod:`ripplemem.write.update`).

A question ("Do I still live in Hull?", "¿Sigo en Hull?", "まだハルに住んでいますか？") asserts no
fact either: :func:`question` says whether a text ends as one, and ``Memory.update`` refuses it as
the new value (a question asked and then answered, "Where do I live? In Leeds now.", is not one).

Words are read with Unicode letters (accents kept, case folded, apostrophes inside a word kept:
"d'accord"); punctuation, emoji and other symbols are ignored. Chinese, Japanese and Thai, written
without spaces, are read as a run of the listed replies ("好的好的", "いいえ、違います").
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["QUESTION_MARKS", "REPLIES", "bare_reply", "foreign_reply", "question"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: the replies of each language (ISO 639-1): yes, no, thanks, agreement, interjections, and the
#: few words that only come in them ("de" of "de nada", "you" of "thank you"); nothing a fact is
#: made of, so a sentence with one content word is never bare, and no word that is also a name or
#: a word of a statement in another listed language ("Jo", "Ben"; Danish "mange" is French "eats")
REPLIES: dict[str, frozenset[str]] = {
    "en": _words(
        """yes yeah yep yup yea no nope nah ok okay k sure right alright fine thanks thank you
        cheers cool great agreed correct exactly indeed absolutely definitely totally of course
        sounds good hmm um uh oh ah wow haha lol please sorry bye hi hello hey"""
    ),
    "fr": _words(
        """oui ouais ouaip non nan si d'accord ok okay merci beaucoup bien sûr exactement
        voilà bon ah oh euh bah super parfait génial entendu volontiers absolument
        certes certainement tout à fait pas du c'est ça vrai carrément bof hein"""
    ),
    "es": _words(
        """sí si no vale claro bueno gracias muchas de nada ok okay perfecto exacto acuerdo
        por supuesto ajá genial venga que sí vale bien jaja jajaja listo"""
    ),
    "it": _words(
        """sì si no certo va bene grazie mille ok okay esatto perfetto d'accordo certamente
        assolutamente ecco ah boh già infatti davvero volentieri prego"""
    ),
    "pt": _words(
        """sim não nao claro obrigado obrigada ok okay certo tá ta beleza com certeza exato
        perfeito valeu pois é muito bem combinado"""
    ),
    "de": _words(
        """ja jep jawohl nein nee nö ne ok okay okey klar genau danke bitte gut stimmt
        richtig natürlich sicher alles na gerne vielen dank schön doch ach so achso super prima
        einverstanden selbstverständlich"""
    ),
    "nl": _words(
        """ja jawel nee neen nou oké okee ok prima klopt goed dankjewel dankuwel bedankt zeker
        natuurlijk inderdaad precies tuurlijk graag"""
    ),
    "da": _words("ja nej ok okay tak fint godt klart præcis absolut selvfølgelig"),
    "no": _words("ja nei ok okei takk fint bra godt klart akkurat absolutt selvfølgelig"),
    "sv": _words("ja nej nä ok okej tack så mycket fint bra klart precis absolut självklart visst"),
    "pl": _words(
        """tak nie no dobrze ok okej jasne dzięki dziękuję pewnie oczywiście zgoda spoko właśnie
        racja super świetnie"""
    ),
    "ru": _words(
        """да нет ага угу ладно хорошо спасибо большое конечно ок окей точно верно правильно ну
        пожалуйста понятно договорились"""
    ),
    "uk": _words("так ні ага добре дякую звісно звичайно гаразд ок окей авжеж зрозуміло"),
    "el": _words("ναι όχι οχι εντάξει ευχαριστώ πολύ βεβαίως σίγουρα μάλιστα οκ"),
    "ar": _words("نعم لا أجل حسنا حسناً شكرا شكراً جزيلا طيب تمام أكيد بالتأكيد أيوه اه"),
    "he": _words("כן לא בסדר תודה רבה אוקיי בטח נכון ברור"),
    "hi": _words("हाँ हां जी नहीं ठीक है धन्यवाद शुक्रिया अच्छा बिल्कुल ओके ना"),
    # written without spaces: read as a run of these (see the module notes)
    "th": _words("ใช่ ไม่ ไม่ใช่ ครับ ค่ะ คะ จ้ะ จ้า ขอบคุณ โอเค ได้ ถูก ถูกต้อง"),
    "zh": _words(
        """是 是的 是啊 对 对的 对啊 嗯 嗯嗯 好 好的 好啊 好吧 行 可以 没错 不 不是 不对 没有 谢谢 多谢
        当然 哦 啊 知道了 明白"""
    ),
    "ja": _words(
        """はい ええ うん ううん いいえ いや そう そうです そうだ そうですね ね よ ありがとう
        ありがとうございます どうも 了解 了解です わかりました 分かりました オーケー 大丈夫 いいよ
        いいです なるほど 確かに もちろん 違います ちがいます"""
    ),
    "ko": _words(
        """네 예 응 아니요 아니오 아니 그래 그래요 좋아요 감사합니다 고마워 고마워요 알겠습니다 알았어
        맞아 맞아요 물론 오케이"""
    ),
}
_ALL = frozenset().union(*REPLIES.values())
#: the listed replies of the languages written without spaces, longest first
_RUNS = tuple(sorted((w for code in ("th", "zh", "ja") for w in REPLIES[code]), key=len, reverse=True))
_RUNS_BY_FIRST: dict[str, tuple[str, ...]] = {
    first: tuple(w for w in _RUNS if w[0] == first) for first in {w[0] for w in _RUNS}
}
#: a word: letters and marks (Devanagari and Thai vowels are marks), an apostrophe inside it kept
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|[\u0300-\u036f\u0900-\u097f\u0e00-\u0e7f]|['’](?=[^\W\d_]))*")
_UNSPACED = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff]")


def bare_reply(text: str) -> bool:
    """Whether ``text`` holds words and only replies (see the module notes): no fact to store."""
    if any(char.isdigit() for char in text):
        return False  # "Ja, 3." answers with an amount
    words = _words_in(text)
    return bool(words) and all(w in _ALL or (_UNSPACED.search(w) and _run(w)) for w in words)


#: the question marks of the scripts the library reads: ASCII, full-width (Chinese, Japanese),
#: Arabic, Greek's own code point, Armenian, Ethiopic, and the interrobangs ("?!" ends as "!")
QUESTION_MARKS = frozenset("?\uff1f\u061f\u037e\u055e\u1367\u203d\u2047\u2048\u2049\ufe56")
#: what may follow a question's mark: white space, "!", closing brackets and quotes, emoji
_AFTER_MARK = frozenset("!！\"'")


def question(text: str) -> bool:
    """Whether ``text`` ends as a question: its last question mark comes after every other
    character but white space, "!", closing brackets and quotes, and symbols ("Hull?!",
    "(Hull?)", "«Hull?»", "Hull? 🤔"), in any script ("？", "؟"; "¿…?" ends in "?")."""
    end = len(text)
    while end and (text[end - 1] in _AFTER_MARK or unicodedata.category(text[end - 1])[:2] in _TRAILING):
        end -= 1
    return bool(end) and text[end - 1] in QUESTION_MARKS


#: the Unicode categories that may trail a question's mark: separators, closing punctuation,
#: final quotes, symbols (emoji), format characters (an emoji's joiners)
_TRAILING = frozenset({"Zs", "Zl", "Zp", "Cc", "Pe", "Pf", "So", "Sk", "Cf", "Mn"})


def foreign_reply(text: str) -> bool:
    """Whether ``text`` is a bare reply with a word of another language than English's replies
    ("Oui", "Okay, oui", "はい"; not "Correct.", which English chit-chat's lists judge)."""
    return bare_reply(text) and any(w not in REPLIES["en"] for w in _words_in(text))


def _words_in(text: str) -> list[str]:
    return [w.replace("’", "'") for w in _WORD.findall(text.casefold())]


def _run(word: str) -> bool:
    """Whether ``word`` (of a script written without spaces) is a run of listed replies: the
    positions a run of them reaches, left to right (a loop, not a recursion: a text of
    thousands of characters, "好好好…", is read in one pass), given up at the first position
    past every one reached."""
    reach = [True] + [False] * len(word)
    furthest = 0
    for at in range(len(word)):
        if at > furthest:
            return False  # nothing reached lies this far: nothing further can be
        if reach[at]:
            for reply in _RUNS_BY_FIRST.get(word[at], ()):
                if word.startswith(reply, at):
                    reach[at + len(reply)] = True
                    furthest = max(furthest, at + len(reply))
    return reach[len(word)]
