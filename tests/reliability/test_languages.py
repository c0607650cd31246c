"""Every language is stored, never dropped: a turn in any script becomes a unit with its vector,
and a question in the same language finds it, on SQLite and on PostgreSQL.

The shipped embedder (MiniLM) is English; the lexical view carries the other scripts (CJK and
Thai as character bigrams, Han characters and Hangul syllables also alone, Devanagari with its
vowel signs, words elsewhere). Each language has
three turns on different topics; the question shares words with one of them, never its whole
text, and that unit must rank first in the lexical view and among the first three of ``ripple``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ripplemem import Memory
from ripplemem.settings import Settings
from ripplemem.stores.sqlite import lexical
from ripplemem.stores.text import bigram_terms, document_terms, legacy_terms, terms

#: language -> (three turns on different topics, a question about the first)
LANGUAGES: dict[str, tuple[tuple[str, str, str], str]] = {
    "Chinese": (
        ("我昨天在北京见了王伟。", "我的猫叫小白，它很喜欢吃鱼。", "下个月我要去上海出差。"),
        "我在北京见了谁？",
    ),
    "Japanese": (
        ("昨日、東京駅で田中さんに会いました。", "週末は京都でお寺を見に行きます。", "私の犬はとても元気です。"),
        "田中さんにどこで会いましたか？",
    ),
    "Korean": (
        ("어제 서울에서 김민수를 만났어요.", "제 고양이는 생선을 좋아해요.", "다음 주에 부산으로 출장을 가요."),
        "김민수를 어디서 만났어요?",
    ),
    "Russian": (
        ("Вчера я встретил Ивана в Москве.", "Моя собака любит гулять в парке.", "В июле мы поедем на море."),
        "Где я встретил Ивана?",
    ),
    "Arabic": (
        ("التقيت أمس بأحمد في القاهرة.", "قطتي تحب السمك كثيرا.", "سأسافر إلى دبي الشهر القادم."),
        "أين التقيت بأحمد؟",
    ),
    "Hindi": (
        ("मैंने कल दिल्ली में राम से मुलाकात की।", "मेरी बिल्ली को मछली बहुत पसंद है।", "अगले महीने मैं मुंबई जाऊंगा।"),
        "मैंने राम से कहाँ मुलाकात की?",
    ),
    "Spanish": (
        ("Ayer conocí a María en Madrid.", "Mi gato se llama Tomás y le encanta el pescado.", "El mes que viene viajo a Sevilla."),
        "¿Dónde conocí a María?",
    ),
    "German": (
        ("Gestern traf ich Jürgen in Berlin.", "Meine Katze frisst am liebsten Fisch.", "Nächsten Monat fahre ich nach München."),
        "Wo traf ich Jürgen?",
    ),
    "Thai": (
        ("เมื่อวานผมเจอสมชายที่กรุงเทพ", "แมวของฉันชอบกินปลามาก", "เดือนหน้าฉันจะไปเชียงใหม่"),
        "ผมเจอสมชายที่ไหน",
    ),
    "Hebrew": (
        ("אתמול פגשתי את דוד בתל אביב.", "החתול שלי אוהב דגים.", "בחודש הבא אני נוסע לאילת."),
        "איפה פגשתי את דוד?",
    ),
}


def _add_all(memory: Memory) -> dict[str, str]:
    """Each language's three turns in a namespace of its own; the first turn's unit id."""
    wanted = {}
    for language, (turns, _) in LANGUAGES.items():
        messages = [{"speaker": "Alex", "text": text} for text in turns]
        result = memory.add(messages, namespace=language, session_time="2024-03-01T10:00")
        assert len(result.units) == 3, (language, [u.restatement for u in result.units])
        for unit in result.units:
            assert unit.vector is not None and unit.vector.any()
        (first,) = [u for u in result.units if turns[0] in u.restatement]
        wanted[language] = first.id
    return wanted


def _check_found(memory: Memory, wanted: dict[str, str]) -> None:
    for language, (_, question) in LANGUAGES.items():
        lexical_view = memory.search(question, namespace=language, recipe="bm25")
        assert lexical_view.evidence[0].unit.id == wanted[language], language
        ripple = memory.search(question, namespace=language)
        assert wanted[language] in [e.unit.id for e in ripple.evidence[:3]], language


@pytest.fixture(params=["sqlite", "postgres"])
def memory(request, tmp_path, embedder):
    if request.param == "sqlite":
        url = str(tmp_path / "memory.db")
    else:
        url = request.getfixturevalue("postgres_store_url")("languages")
    with Memory(Settings(store=url), embedder=embedder) as memory:
        yield memory


def test_every_language_is_stored_and_found_by_a_question_in_it(memory: Memory) -> None:
    wanted = _add_all(memory)
    _check_found(memory, wanted)
    again = memory.add(
        [{"speaker": "Alex", "text": t} for t in LANGUAGES["Chinese"][0]],
        namespace="Chinese", session_time="2024-03-01T10:00",
    )
    assert again.units == [] and again.skipped == 3  # re-adding is a no-op in any script


def test_the_lexical_terms_of_unspaced_scripts_are_bigrams() -> None:
    assert bigram_terms("我昨天在北京见了王伟。") == ["我昨", "昨天", "天在", "在北", "北京", "京见", "见了", "了王", "王伟"]
    assert bigram_terms("北京") == ["北京"] and terms("京") == ["京"]
    assert bigram_terms("I met Wang Wei (王伟) in 北京's centre") == ["met", "wang", "wei", "王伟", "北京", "centr"]
    # vowel signs are part of Devanagari words (the old tokeniser cut them into letters)
    assert terms("मैंने कल दिल्ली") == ["मैंने", "कल", "दिल्ली"]
    assert legacy_terms("मैंने कल दिल्ली") != terms("मैंने कल दिल्ली")
    english = "I went hiking with Priya in Lisbon last weekend; she didn't like the café."
    assert terms(english) == legacy_terms(english)


def test_han_characters_and_hangul_syllables_are_terms_of_their_own() -> None:
    """A one-character word (猫 cat, 家 home, 집 house) is spelled by no bigram of the sentence
    it is said in: each Han character and Hangul syllable is a term too, before the bigram it
    starts; kana and Thai letters spell sounds and stay in bigrams only."""
    assert terms("我养了一只猫") == [
        "我", "我养", "养", "养了", "了", "了一", "一", "一只", "只", "只猫", "猫"
    ]
    assert terms("北京") == ["北", "北京", "京"] and terms("京") == ["京"]
    assert terms("私の犬はポチ") == ["私", "私の", "の犬", "犬", "犬は", "はポ", "ポチ"]
    assert terms("우리 집에서") == ["우", "우리", "리", "집", "집에", "에", "에서", "서"]
    assert terms("เมื่อวาน") == bigram_terms("เมื่อวาน")
    assert terms("I met Wang Wei (王伟) in 北京's centre") == [
        "met", "wang", "wei", "王", "王伟", "伟", "北", "北京", "京", "centr"
    ]
    english = "I went hiking with Priya in Lisbon last weekend; she didn't like the café."
    assert terms(english) == bigram_terms(english)


#: one-character words said inside sentences, and a question naming each (Chinese, Japanese)
ONE_CHARACTER_WORDS = (
    ("我养了一只猫，叫小白。", "我在北京的一家银行工作。", "我的妹妹住在上海。", "家の近くに公園があります。"),
    (("猫", 0), ("我的猫叫什么名字？", 0), ("家の近くに何がありますか？", 3)),
)


def test_a_one_character_word_is_found_alike_on_sqlite_and_postgres(
    tmp_path: Path, postgres_store_url, embedder
) -> None:
    turns, questions = ONE_CHARACTER_WORDS
    found: dict[str, list[list[tuple[str, float]]]] = {}
    for backend, url in (("sqlite", str(tmp_path / "m.db")), ("postgres", postgres_store_url("one"))):
        with Memory(Settings(store=url), embedder=embedder) as memory:
            added = memory.add(
                [{"speaker": "Li", "text": text} for text in turns],
                namespace="zh", session_time="2024-03-01T10:00",
            )
            texts = {u.id: u.restatement for u in added.units}
            found[backend] = []
            for question, wanted in questions:
                evidence = memory.search(question, namespace="zh", recipe="bm25").evidence
                assert evidence and turns[wanted] in evidence[0].unit.restatement, (backend, question)
                found[backend].append([(texts[e.unit.id], round(e.score, 9)) for e in evidence])
    assert found["sqlite"] == found["postgres"]  # one tokeniser, one BM25: the same ranking


def test_a_sqlite_store_of_bigrams_is_reindexed_with_unigrams(tmp_path: Path, embedder) -> None:
    path = tmp_path / "bigrams.db"
    turns, questions = ONE_CHARACTER_WORDS
    with Memory(Settings(store=str(path)), embedder=embedder) as memory:
        memory.add([{"speaker": "Li", "text": t} for t in turns], namespace="zh", session_time="2024-03-01T10:00")
        listed = memory.list(namespace="zh")
    raw = sqlite3.connect(path, isolation_level=None)  # the file as schemas 8 to 11 wrote it
    raw.execute("BEGIN IMMEDIATE")
    for unit in listed:
        (seq,) = raw.execute("SELECT seq FROM unit WHERE namespace = 'zh' AND id = ?", (unit.id,)).fetchone()
        lexical.unindex_terms(raw, "zh", seq, document_terms(unit.restatement, unit.keywords))
        lexical.index_units(raw, [("zh", seq, bigram_terms(" ".join((unit.restatement, *unit.keywords))))])
    raw.execute("DELETE FROM schema_version WHERE version >= 12")
    raw.execute("COMMIT")
    raw.close()
    with Memory(Settings(store=str(path)), embedder=embedder) as memory:
        for question, wanted in questions:
            evidence = memory.search(question, namespace="zh", recipe="bm25").evidence
            assert evidence and turns[wanted] in evidence[0].unit.restatement, question
        for unit in listed:  # deletes find every posting under the new terms
            memory.delete(unit.id, namespace="zh")
    raw = sqlite3.connect(path)
    for table in ("lexical_posting", "lexical_recent", "lexical_term", "lexical_namespace"):
        assert raw.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
    raw.close()


def test_a_postgres_store_of_bigrams_is_reindexed_with_unigrams(
    postgres_url: str, postgres_store_url, embedder
) -> None:
    import psycopg

    from ripplemem.stores.postgres import lexical as pg_lexical

    url = postgres_store_url("bigrams")
    schema = url.rsplit("schema=", 1)[1]
    turns, questions = ONE_CHARACTER_WORDS
    with Memory(Settings(store=url), embedder=embedder) as memory:
        memory.add([{"speaker": "Li", "text": t} for t in turns], namespace="zh", session_time="2024-03-01T10:00")
        listed = memory.list(namespace="zh")
    with psycopg.connect(postgres_url) as raw:  # one transaction: the store of schemas 3 to 7
        raw.execute(f'SET search_path TO "{schema}", public')
        for unit in listed:
            (seq,) = raw.execute(
                "SELECT seq FROM unit WHERE namespace = 'zh' AND id = %s", (unit.id,)
            ).fetchone()
            new = document_terms(unit.restatement, unit.keywords)
            old = bigram_terms(" ".join((unit.restatement, *unit.keywords)))
            pg_lexical.unindex_terms(raw, "zh", seq, new)
            pg_lexical.index_units(raw, [("zh", seq, old)])
            raw.execute(
                "UPDATE namespace_state SET tokens = tokens + %s WHERE namespace = 'zh'",
                (len(old) - len(new),),
            )
        raw.execute("DELETE FROM schema_version WHERE version >= 8")
    with Memory(Settings(store=url), embedder=embedder) as memory:
        for question, wanted in questions:
            evidence = memory.search(question, namespace="zh", recipe="bm25").evidence
            assert evidence and turns[wanted] in evidence[0].unit.restatement, question
        for unit in listed:
            memory.delete(unit.id, namespace="zh")
    with psycopg.connect(postgres_url) as raw:
        raw.execute(f'SET search_path TO "{schema}", public')
        for table in ("lexical_posting", "lexical_term"):
            assert raw.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
        assert raw.execute("SELECT coalesce(sum(tokens), 0) FROM namespace_state").fetchone() == (0,)


def test_an_older_sqlite_store_is_reindexed_with_the_new_terms(tmp_path: Path, embedder) -> None:
    path = tmp_path / "old.db"
    with Memory(Settings(store=str(path)), embedder=embedder) as memory:
        wanted = _add_all(memory)
        units = {ns: memory.list(namespace=ns) for ns in LANGUAGES}
    # the file as the tokeniser before schema 8 wrote it
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("BEGIN IMMEDIATE")
    for namespace, listed in units.items():
        for unit in listed:
            (seq,) = raw.execute(
                "SELECT seq FROM unit WHERE namespace = ? AND id = ?", (namespace, unit.id)
            ).fetchone()
            text = " ".join((unit.restatement, *unit.keywords))
            lexical.unindex_terms(raw, namespace, seq, document_terms(unit.restatement, unit.keywords))
            lexical.index_units(raw, [(namespace, seq, legacy_terms(text))])
    for statement in (  # and before schema 9, the filter index, and 10, the kept parses
        "DROP TABLE unit_facet", "DROP TABLE unit_said", "DROP TABLE namespace_person",
        "ALTER TABLE unit DROP COLUMN speakers", "ALTER TABLE unit DROP COLUMN metadata",
        "DROP TABLE unit_parse",
    ):
        raw.execute(statement)
    raw.execute("DELETE FROM schema_version WHERE version >= 8")
    raw.execute("COMMIT")
    raw.close()
    with Memory(Settings(store=str(path)), embedder=embedder) as memory:
        _check_found(memory, wanted)
        for namespace, listed in units.items():  # deletes find every posting under the new terms
            for unit in listed:
                memory.delete(unit.id, namespace=namespace)
    raw = sqlite3.connect(path)
    for table in ("lexical_posting", "lexical_recent", "lexical_term", "lexical_namespace"):
        assert raw.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
    raw.close()


def test_an_older_postgres_store_is_reindexed_with_the_new_terms(
    postgres_url: str, postgres_store_url, embedder
) -> None:
    import psycopg

    from ripplemem.stores.postgres import lexical as pg_lexical

    url = postgres_store_url("old")
    schema = url.rsplit("schema=", 1)[1]
    with Memory(Settings(store=url), embedder=embedder) as memory:
        wanted = _add_all(memory)
        units = {ns: memory.list(namespace=ns) for ns in LANGUAGES}
    with psycopg.connect(postgres_url) as raw:  # one transaction: the store before schema 3
        raw.execute(f'SET search_path TO "{schema}", public')
        for namespace, listed in units.items():
            for unit in listed:
                (seq,) = raw.execute(
                    "SELECT seq FROM unit WHERE namespace = %s AND id = %s", (namespace, unit.id)
                ).fetchone()
                new = document_terms(unit.restatement, unit.keywords)
                old = legacy_terms(" ".join((unit.restatement, *unit.keywords)))
                pg_lexical.unindex_terms(raw, namespace, seq, new)
                pg_lexical.index_units(raw, [(namespace, seq, old)])
                raw.execute(
                    "UPDATE namespace_state SET tokens = tokens + %s WHERE namespace = %s",
                    (len(old) - len(new), namespace),
                )
        raw.execute("DROP TABLE unit_facet, unit_said, namespace_person")  # schema 4, after it
        raw.execute("DROP TABLE job, unit_parse")  # and schemas 5 and 6
        raw.execute("ALTER TABLE unit DROP COLUMN speakers, DROP COLUMN metadata")
        raw.execute("DELETE FROM schema_version WHERE version >= 3")
    with Memory(Settings(store=url), embedder=embedder) as memory:
        _check_found(memory, wanted)
        for namespace, listed in units.items():
            for unit in listed:
                memory.delete(unit.id, namespace=namespace)
    with psycopg.connect(postgres_url) as raw:
        raw.execute(f'SET search_path TO "{schema}", public')
        for table in ("lexical_posting", "lexical_term"):
            assert raw.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
        tokens = raw.execute("SELECT coalesce(sum(tokens), 0) FROM namespace_state").fetchone()
        assert tokens == (0,)


def test_a_question_in_french_ranks_its_memory_first_among_other_languages(tmp_path: Path, embedder) -> None:
    """QA3 Q3-6: the memories in French and Spanish were read with English grammar as one
    speaker's values of one thing and ordered by when they were said, so the exact match of
    "Comment s'appelle mon chat ?" came third; another language's words state nothing."""
    facts = (
        "我养了一只猫，叫小白。", "我在北京的一家银行工作。", "我的妹妹住在上海。",
        "Je travaille chez Airbus à Toulouse.", "Mi hermano vive en Sevilla.",
        "J'ai un chat qui s'appelle Minou.", "I have a dog called Rex.",
    )
    with Memory(Settings(store=str(tmp_path / "m.db")), embedder=embedder) as memory:
        for text in facts:
            memory.add([{"speaker": "Li", "text": text}], user_id="z", session_time="2024-03-01")
        found = memory.search("Comment s'appelle mon chat ?", user_id="z", limit=3)
        assert "Minou" in found.evidence[0].unit.restatement


def test_a_one_character_question_ranks_its_lexical_match_above_the_dense_view_alone(
    tmp_path: Path, embedder
) -> None:
    """QA3 Q3-6: for "猫" the English MiniLM put the memory of a dog first by its cosine of
    subword pieces, above the Chinese memory the lexical view found; for a question in a
    language the embedder was not trained on, rho's alignment is the lexical view's. An English
    question keeps the English share (the trace says which)."""
    facts = (
        "我养了一只猫，叫小白。", "我在北京的一家银行工作。", "我的妹妹住在上海。",
        "Je travaille chez Airbus à Toulouse.", "Mi hermano vive en Sevilla.",
        "J'ai un chat qui s'appelle Minou.", "I have a dog called Rex.",
    )
    with Memory(Settings(store=str(tmp_path / "m.db")), embedder=embedder) as memory:
        for text in facts:
            memory.add([{"speaker": "Li", "text": text}], user_id="z", session_time="2024-03-01")
        found = memory.search("猫", user_id="z", limit=3)
        assert "小白" in found.evidence[0].unit.restatement
        assert any(note.startswith("language: the question is in zh") for note in found.trace.notes)
        english = memory.search("What is my dog called?", user_id="z", limit=3)
        assert "Rex" in english.evidence[0].unit.restatement
        assert not any(note.startswith("language:") for note in english.trace.notes)
