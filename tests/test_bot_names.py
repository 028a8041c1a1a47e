"""Bots' names (crisp_core/bot_names.py): a face and a plain first name per language, never a
person's name at the table, whatever the people call themselves."""

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from crisp_core import bot_names
from crisp_core.bot_names import FACES, NAMES, bot_name, first_name, name_bots


def key(name):
    return unicodedata.normalize("NFKC", first_name(name).casefold())


def test_each_language_has_plain_first_names_and_a_face_for_each_no_card_names():
    for lang in ("es", "en"):
        names = NAMES[lang]
        assert len(names) >= 8 and len(set(names)) == len(names)
        assert len(FACES) >= len(names)
        assert not {"jack", "king", "queen", "bot"} & {n.casefold() for n in names}
        assert all(n.isalpha() for n in names)


def test_a_new_bot_is_its_seats_face_and_name_in_the_hosts_language():
    assert bot_name("en", 1) == FACES[0] + " " + NAMES["en"][0]
    assert bot_name("es", 2) == FACES[1] + " " + NAMES["es"][1]
    assert bot_name("fr", 1) == bot_name("en", 1)           # any other language: English
    assert first_name(bot_name("es", 3)) == NAMES["es"][2]
    assert first_name("Ana") == "Ana"


def test_a_new_bot_skips_the_names_at_the_table_in_any_case_face_or_none():
    taken = ["EMMA", FACES[1] + " " + "Oliver"]
    name = bot_name("en", 1, taken)
    assert first_name(name) not in ("Emma", "Oliver")
    assert name == FACES[2] + " Lily"


def test_with_every_name_taken_a_number_makes_it_unique():
    taken = list(NAMES["en"])
    name = bot_name("en", 1, taken)
    assert key(name) not in {key(n) for n in taken}
    assert first_name(name) == "Emma 2"


def test_bots_keep_their_names_unless_a_person_has_them():
    bots = [None, bot_name("en", 1), bot_name("en", 2), "Bot 3"]
    assert name_bots("en", bots, ["Hana"]) == bots
    renamed = name_bots("en", bots, ["Hana", "oliver"])
    assert renamed[0] is None and renamed[1] == bots[1] and renamed[3] == "Bot 3"
    assert key(renamed[2]) != "oliver"


@settings(max_examples=200, deadline=None)
@given(lang=st.sampled_from(["es", "en", "xx"]),
       people=st.lists(st.one_of(st.sampled_from(NAMES["en"] + NAMES["es"]),
                                 st.sampled_from([f + " " + n for f in FACES[:3]
                                                  for n in NAMES["en"][:3]]),
                                 st.text(min_size=1, max_size=8)), max_size=4),
       bots=st.integers(min_value=0, max_value=7))
def test_no_bot_ever_shares_a_name_with_a_person_or_another_bot(lang, people, bots):
    current = [None] * len(people)
    for i in range(bots):
        current.append(bot_name(lang, len(current), people + [c for c in current if c]))
    names = name_bots(lang, current, people)
    bot_keys = [key(n) for n in names if n is not None]
    people_keys = {key(p) for p in people} | {unicodedata.normalize("NFKC", p.casefold())
                                                for p in people}
    assert len(set(bot_keys)) == len(bot_keys)
    assert not set(bot_keys) & people_keys
    assert not {unicodedata.normalize("NFKC", n.casefold()) for n in names if n} & people_keys
    assert bot_names.DEFAULT_LANG == "en"
