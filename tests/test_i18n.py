"""The page's catalogue (ui/page/i18n.py) is put together from its parts by topic
(ui/page/i18n_*.py): every part has the same keys in both languages, no key is in two parts
(a later part would silently win), and nothing is lost or added on the way."""

import os

from ui.page import i18n

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_part_has_both_languages_with_the_same_keys():
    for part in i18n.PARTS:
        assert sorted(part.EN) == sorted(part.ES), part.__name__


def test_no_key_is_in_two_parts_and_the_catalogue_is_their_union():
    seen = {}
    for part in i18n.PARTS:
        for key in part.EN:
            assert key not in seen, "%s is in %s and %s" % (key, seen.get(key), part.__name__)
            seen[key] = part.__name__
    assert set(i18n.EN) == set(seen) == set(i18n.ES)
    assert i18n.CATALOG == {"en": i18n.EN, "es": i18n.ES}


def test_every_part_of_the_catalogue_in_the_folder_is_used():
    names = sorted(n[:-3] for n in os.listdir(os.path.join(ROOT, "ui", "page"))
                   if n.startswith("i18n_") and n.endswith(".py"))
    assert names == sorted(part.__name__.split(".")[-1] for part in i18n.PARTS)


def test_a_lookup_falls_back_to_english_then_to_the_key_and_never_raises():
    assert i18n.t("es", "round_n", n=3) == "Ronda 3"
    assert i18n.t("fr", "round_n", n=3) == "Round 3"
    assert i18n.t("es", "no_such_key") == "no_such_key"
    assert i18n.t("en", "round_n", wrong=1) == "Round {n}"
