"""The page's catalogue (ui/page/i18n/i18n.py) is put together from its parts by topic
(ui/page/i18n/i18n_*.py): every part has the same keys in both languages, no key is in two parts
(a later part would silently win), and nothing is lost or added on the way."""

import ast
import os
import re

from ui.page.i18n import i18n

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
    names = sorted(n[:-3] for n in os.listdir(os.path.join(ROOT, "ui", "page", "i18n"))
                   if n.startswith("i18n_") and n.endswith(".py"))
    assert names == sorted(part.__name__.split(".")[-1] for part in i18n.PARTS)


def test_a_lookup_falls_back_to_english_then_to_the_key_and_never_raises():
    assert i18n.t("es", "round_n", n=3) == "Ronda 3"
    assert i18n.t("fr", "round_n", n=3) == "Round 3"
    assert i18n.t("es", "no_such_key") == "no_such_key"
    assert i18n.t("en", "round_n", wrong=1) == "Round {n}"


# ---- every key is used by the code, and every key the code names is there ---------------

PRODUCT = ("ui", "crisp_core")
LOOKUP = re.compile(r"\b(?:ctx|i18n)\.(?:t|tn|has)\(")
PLURAL = re.compile(r"_(?:one|other)$")


def product_modules():
    """(path, source, tree) of every product module but the catalogue's own parts."""
    for top in PRODUCT:
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for name in sorted(files):
                if name.endswith(".py") and not name.startswith("i18n"):
                    path = os.path.join(folder, name)
                    source = open(path, encoding="utf-8").read()
                    yield path, source, ast.parse(source)


def code_words():
    """What the code may name a text with: (words, halves, constants). `words`: the string
    constants of the modules that look texts up (ctx.t, ctx.tn, i18n.t...), but a dict's
    keys, a subscript's or a .get()'s field (a model's "connected" is no text's name);
    `halves`: ("pre", "err_") and ("suf", "_you") of every `"err_" + code` / `key +
    "_you"` (in any module: ui/shared/reactions.py builds "react_" + name); `constants`:
    every string constant of the product (what a half is joined to: an error code, a
    step's name)."""
    words, halves, constants = set(), set(), set()
    for path, source, tree in product_modules():
        looks = LOOKUP.search(source) is not None
        fields = set()
        for n in ast.walk(tree):
            if isinstance(n, ast.Dict):
                fields.update(id(k) for k in n.keys if k is not None)
            elif isinstance(n, ast.Subscript):
                fields.add(id(n.slice))
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                    and n.func.attr in ("get", "pop", "setdefault") and n.args:
                fields.add(id(n.args[0]))
            elif isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
                for side, kind in ((n.left, "pre"), (n.right, "suf")):
                    if isinstance(side, ast.Constant) and isinstance(side.value, str) and (
                            looks or (kind == "pre" and side.value.endswith("_"))
                            or (kind == "suf" and side.value.startswith("_"))):
                        halves.add((kind, side.value))
        for n in ast.walk(tree):
            if isinstance(n, ast.Constant) and isinstance(n.value, str):
                constants.add(n.value)
                if looks and id(n) not in fields:
                    words.add(n.value)
    return words, halves, constants


def named_by_code(key, words, halves, constants):
    """Whether the code names text `key`: as a word, or as a half joined to a constant (a
    one-letter rest to a letter of one: "rank_" + "AJQK"[i]); a plural's base counts."""
    for k in (key, PLURAL.sub("", key)):
        if k in words:
            return True
        for kind, half in halves:
            if len(k) <= len(half) or not (k.startswith(half) if kind == "pre"
                                           else k.endswith(half)):
                continue
            rest = k[len(half):] if kind == "pre" else k[:-len(half)]
            if rest in constants or (len(rest) == 1 and any(rest in c for c in constants)):
                return True
    return False


def test_every_text_of_the_catalogue_is_named_by_the_code():
    words, halves, constants = code_words()
    unused = [k for k in sorted(i18n.EN) if not named_by_code(k, words, halves, constants)]
    assert unused == []
    # the check itself: a key nobody names, a field's name, are found unused
    assert not named_by_code("no_such_text", words, halves, constants)
    assert "connected" not in words           # (a player's field, not a text)


def test_every_text_the_code_looks_up_by_name_is_in_both_languages():
    asked = set()
    for path, source, tree in product_modules():
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                    and n.func.attr in ("t", "tn"):
                for a in n.args[:2]:
                    if isinstance(a, ast.Constant) and isinstance(a.value, str):
                        asked.add((a.value, n.func.attr, path))
    assert len(asked) > 100
    for key, how, path in sorted(asked):
        keys = [key] if how == "t" else [key + "_one", key + "_other"]
        for lang in i18n.LANGS:
            for k in keys:
                assert k in i18n.CATALOG[lang], (lang, k, path)


def test_every_lookup_by_name_fills_every_placeholder_of_its_text():
    # a placeholder the call does not fill shows as "{n}" to the player (t never raises)
    holes = re.compile(r"\{(\w+)\}")
    checked, bad = 0, []
    for path, source, tree in product_modules():
        for n in ast.walk(tree):
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    and n.func.attr in ("t", "tn")) or any(k.arg is None for k in n.keywords):
                continue
            names = [a.value for a in n.args[:2]
                     if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if not names:
                continue
            given = {k.arg for k in n.keywords}
            keys = [names[0]] if n.func.attr == "t" else [names[0] + "_one", names[0] + "_other"]
            for key in keys:
                for lang in i18n.LANGS:
                    text = i18n.CATALOG[lang].get(key, "")
                    checked += 1
                    missing = set(holes.findall(text)) - given
                    if missing:
                        bad.append((path, n.lineno, key, lang, sorted(missing)))
    assert checked > 300 and bad == []
