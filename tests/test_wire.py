"""The wire schema (ui/shared/wire.py) and docs/protocol.md declare the same messages, and the
one decoder refuses what a hostile peer may send."""

import json
import os

import pytest

from ui.shared import wire
from ui.shared.wire import BadMessage

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def doc_messages(text):
    """{type: the set of its fields} for every `{"type": "x", ...}` written in `text`: the keys
    at the top level of each such object (nested objects' keys are not the message's)."""
    out = {}
    at = text.find('{"type": "')
    while at >= 0:
        kind = text[at + 10:text.index('"', at + 10)]
        keys, depth, expect_key, j = [], 0, False, at
        while j < len(text):
            c = text[j]
            if c in "{[":
                depth += 1
                expect_key = depth == 1
            elif c in "}]":
                depth -= 1
                if depth == 0:
                    break
            elif c == "," and depth == 1:
                expect_key = True
            elif c == '"':
                end = text.index('"', j + 1)
                if depth == 1 and expect_key:
                    keys.append(text[j + 1:end])
                expect_key = False
                j = end
            elif not c.isspace() and depth == 1:
                expect_key = False
            j += 1
        out.setdefault(kind, set()).update(k for k in keys if k not in ("type", "v"))
        at = text.find('{"type": "', at + 1)
    return out


def protocol():
    with open(os.path.join(ROOT, "docs/protocol.md"), encoding="utf-8") as f:
        return f.read()


def between(text, start, end):
    a = text.index(start)
    return text[a:text.index(end, a)]


def fields(*rows):
    out = set()
    for row in rows:
        out |= set(row["required"]) | set(row["optional"])
    return out


def test_the_scan_reads_top_level_fields_only():
    text = '{"type": "x", "v": 1, "a": {"b": 1}, "c", "d": [{"e": 2}]} (the "f" prose)'
    assert doc_messages(text) == {"x": {"a", "c", "d"}}


def test_every_message_type_in_the_docs_is_in_the_table_with_the_same_fields():
    text = protocol()
    documented = doc_messages(text[text.index("## Room messages"):])
    tables = (wire.TO_ROOM, wire.FROM_ROOM, wire.BETWEEN)
    declared = {}
    for table in tables:
        for kind, row in table.items():
            declared.setdefault(kind, set()).update(fields(row))
    assert sorted(documented) == sorted(declared)
    for kind in declared:
        assert documented[kind] == declared[kind], kind


def test_the_docs_list_each_message_under_its_sender():
    text = protocol()
    guest = doc_messages(between(text, "Guest to host:", "Host-only"))
    host = doc_messages(between(text, "Host-only", "The room checks every message"))
    room = doc_messages(between(text, "Host to guest:", "## Spectators"))
    exchange = doc_messages(between(text, "### The share exchange", "The successor answers"))
    assert sorted(guest) == sorted(k for k, r in wire.TO_ROOM.items() if r["from"] != "host")
    assert sorted(host) == sorted(k for k, r in wire.TO_ROOM.items() if r["from"] == "host")
    assert set(room) <= set(wire.FROM_ROOM)
    assert sorted(exchange) == sorted(wire.SHARE_TYPES)
    assert all(wire.BETWEEN[k]["from"] in ("holder", "successor") for k in wire.SHARE_TYPES)


@pytest.mark.parametrize("text, code", [
    (None, "bad_message"), ("not json", "bad_message"), ("[1]", "bad_message"),
    ('{"v": 1}', "bad_message"), ('{"type": "ping"}', "bad_version"),
    ('{"type": "ping", "v": true}', "bad_version"), ('{"type": "ping", "v": 2}', "bad_version"),
    ('{"type": "ping", "v": 1, "t": "' + "x" * wire.MAX_TEXT + '"}', "too_big"),
    ('{"type": "ping", "v": 1, "t": ' + "[" * 70 + "]" * 70 + "}", "bad_message"),
])
def test_parse_refuses_what_is_not_a_message(text, code):
    with pytest.raises(BadMessage) as e:
        wire.parse(text)
    assert e.value.code == code


def test_a_message_of_the_table_is_checked_field_by_field():
    row = wire.TO_ROOM["contribute"]
    good = {"type": "contribute", "v": 1, "round": 2, "value": "ab" * 16}
    assert wire.check_fields(row, dict(good)) == good
    for bad in ({"round": 2}, dict(good, round=True), dict(good, value="AB" * 16),
                dict(good, seat=1)):
        with pytest.raises(BadMessage) as e:
            wire.check_fields(row, dict(bad, type="contribute", v=1))
        assert e.value.code == "bad_message"
    with pytest.raises(BadMessage) as e:
        wire.row_of(wire.TO_ROOM, {"type": "share"})
    assert e.value.code == "unknown_type"


def test_encode_keeps_characters_and_read_takes_only_messages():
    text = wire.encode(wire.message("lobby", name="Zoë \U0001F600"))
    assert "\U0001F600" in text and json.loads(text)["name"] == "Zoë \U0001F600"
    assert wire.read(text)["type"] == "lobby"
    assert [wire.read(t) for t in ("x", "[]", '{"type": "a"}', '{"type": "a", "v": true}',
                                   '{"type": "a", "v": 2}', 5)] == [None] * 6


def test_the_shared_checks():
    assert wire.is_int(3) and not wire.is_int(True) and not wire.is_int(3.0)
    assert wire.is_number(2.5) and not wire.is_number(float("nan"))
    assert not wire.is_number(float("inf")) and not wire.is_number(False)
    assert wire.is_hex("0f" * 16, 32) and not wire.is_hex("0F" * 16, 32)
    assert wire.same("abc", "abc") and not wire.same("abc", "abd") and not wire.same("a", None)
    assert wire.is_seat(7) and not wire.is_seat(8) and not wire.is_seat(-1)
