"""The successor rule's cases (ui/shared/successor.py, through ui/shared/handover.py), plain
functions that run on CPython (tests/test_handover.py imports them) and on MicroPython (the
guests' interpreter)."""

import json

from ui.shared.follow import (FOLLOW_TOKENS, Follow, check_follow_record, follow_record,
                              load_follow_record, reload_should_look)
from ui.shared.handover import (FOLLOW_EPOCHS, can_continue, epoch_after, is_secret, next_token,
                                room_id_after, successor)
from ui.shared.spectator_moves import (check_moved, id_mark, moved_entries, moved_for, moved_mac,
                                       moved_message, next_ids, watchers)

SECRET = "5e" * 16
OTHER = "a7" * 16



def players(spec):
    """spec: one letter a seat: H a person here, A a person away, B a bot."""
    return [{"seat": i, "name": "P%d" % i, "connected": c != "A", "bot": "easy" if c == "B"
             else None} for i, c in enumerate(spec)]


def test_the_new_host_is_the_lowest_connected_person_other_than_the_old_host():
    assert successor(players("HHH")) == 1
    assert successor(players("HBAH")) == 3
    assert successor(players("HBB")) is None
    assert successor(players("AHH"), host=2) == 1
    assert successor(players("HHH"), host=1) == 0


def test_every_page_names_the_same_seat_whatever_the_order_and_junk():
    base = players("HBHAHB")
    for k in range(len(base)):
        shuffled = base[k:] + base[:k]
        shuffled.reverse()
        assert successor(shuffled + [None, "x", {"seat": True, "connected": True}]) == 2


def test_the_round_goes_on_only_with_two_people_left():
    assert can_continue(players("HHH")) and not can_continue(players("HHB"))
    assert not can_continue(players("HHA"))


def _id_like(text):
    """A room id's loose shape without re (ui/shared/roomcode.py `is_room_id` is the strict
    one): letters and digits, single -."""
    parts = text.split("-")
    return 0 < len(text) <= 64 and all(p and all(c.isalpha() or c.isdigit() for c in p)
                                       for p in parts)


def test_the_room_moves_to_a_new_peerjs_id_on_each_handover():
    room_id = "crisp-" + "a" * 32
    first = room_id_after(room_id, 1, SECRET)
    assert first.startswith(room_id + "-h1-") and len(first) == len(room_id) + 4 + 20
    assert _id_like(first) and first == room_id_after(room_id, 1, SECRET)
    second = room_id_after(first, 2, SECRET)       # chained: from the base id, not the tag
    assert second.startswith(room_id + "-h2-") and second == room_id_after(room_id, 2, SECRET)
    assert second[-20:] != first[-20:]
    for bad in (0, -1, 100, True, "1"):
        try:
            room_id_after(room_id, bad, SECRET)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_a_stranger_with_the_room_id_cannot_name_the_next_id():
    # the squat attack: the link gives the room id; the old next id `<id>-h1` was all one
    # needed to register it first. Now it takes the room's succession secret.
    room_id = "crisp-7KQ2M9XRTB"
    mine = room_id_after(room_id, 1, SECRET)
    assert mine != room_id + "-h1" and room_id + "-h1" not in [mine]
    assert mine != room_id_after(room_id, 1, OTHER)   # same id, another secret: elsewhere
    assert SECRET not in mine and OTHER not in mine
    for bad in (None, "", "5e" * 15, "5E" * 16, "zz" * 16, 5, "5e" * 17):
        assert not is_secret(bad)
        try:
            room_id_after(room_id, 1, bad)
        except ValueError:
            continue
        raise AssertionError(bad)
    assert is_secret(SECRET)


def test_the_next_id_stays_a_peerjs_id_or_is_refused():
    longest = "c" * 39
    assert _id_like(room_id_after(longest, 99, SECRET))
    assert len(room_id_after(longest, 99, SECRET)) == 64
    try:
        room_id_after("c" * 40, 99, SECRET)
    except ValueError:
        pass
    else:
        raise AssertionError("a 65-character id")
    assert room_id_after("crisp-x", 1, SECRET) == \
        "crisp-x-h1-" + room_id_after("crisp-x", 1, SECRET)[-20:]


def test_the_next_id_is_the_same_on_every_interpreter():
    # pinned: MicroPython (guests) and CPython (the successor's engine, the old host's
    # probe) must name the same id, or the room splits in two
    assert room_id_after("crisp-7KQ2M9XRTB", 1, SECRET) == "crisp-7KQ2M9XRTB-h1-5e91e04992da9349f8c6"

def test_only_the_successor_can_prove_itself_to_a_holder():
    from ui.shared.handover import successor_key, successor_mac
    room = "crisp-" + "b" * 32
    tokens = {1: "1" * 32, 2: "2" * 32, 3: "3" * 32}
    # the old host gave holder 2 the key of seat 1; seat 1's page derives it from its token
    given = successor_key(tokens[1], room, 2)
    assert given == successor_key(tokens[1], room, 2)
    nonces = ("a" * 32, "c" * 32)
    right = successor_mac(successor_key(tokens[1], room, 2), room, 1, "peer-2", *nonces)
    assert right == successor_mac(given, room, 1, "peer-2", *nonces)
    # another seat's token, another holder, another peer or nonce: another proof
    assert successor_mac(successor_key(tokens[3], room, 2), room, 1, "peer-2", *nonces) != right
    assert successor_mac(successor_key(tokens[1], room, 3), room, 1, "peer-2", *nonces) != right
    assert successor_mac(given, room, 1, "peer-x", *nonces) != right
    assert successor_mac(given, room, 1, "peer-2", "d" * 32, nonces[1]) != right
    assert successor_mac(given, "crisp-other", 1, "peer-2", *nonces) != right
    # the key given to holder 2 is not the one holder 3 checks with
    assert successor_key(tokens[1], room, 3) != given


def test_every_page_derives_the_same_next_token_bound_to_the_successor():
    room = "crisp-" + "c" * 32
    token = "4" * 32
    mine = next_token(token, room, 1)
    assert mine == next_token(token, room, 1) and len(mine) == 32
    assert int(mine, 16) >= 0                               # hex
    assert mine != next_token(token, room, 2) and mine != next_token(token, room + "-h1", 1)
    assert mine != next_token("5" * 32, room, 1) and mine != token


def test_the_next_epoch_follows_the_room_id():
    room = "crisp-" + "d" * 32
    assert epoch_after(room) == 1
    one = room_id_after(room, 1, SECRET)
    twelve = room_id_after(room, 12, SECRET)
    assert epoch_after(one) == 2 and epoch_after(twelve) == 13
    assert room_id_after(one, epoch_after(one), SECRET) == room_id_after(room, 2, SECRET)
    assert epoch_after(None) == 1 and epoch_after("crisp-x-hx") == 1
    assert epoch_after(room + "-h1") == 1          # the old form is no handed-over room
    assert epoch_after(room + "-h1-" + "g" * 20) == 1


ROOM = "crisp-" + "b" * 32
TOKEN = "1f" * 16


def test_a_page_back_from_away_looks_at_the_next_ids_nearest_first():
    follow = Follow(ROOM, 2, TOKEN, 0, SECRET, players("HHHB"))
    seen = [follow.current()]
    while follow.missing() is not None:
        seen.append(follow.current())
    assert seen == [room_id_after(ROOM, e, SECRET) for e in range(1, FOLLOW_EPOCHS + 1)]
    follow.restart()
    assert follow.current() == seen[0]
    # from a room handed over already: the epochs after its own
    later = Follow(seen[0], 2, TOKEN, 1, SECRET, players("HHHB"))
    assert later.current() == seen[1]


def test_at_the_next_id_its_token_is_the_one_the_new_host_gave_its_seat():
    follow = Follow(ROOM, 2, TOKEN, 0, SECRET, players("HHHB"))
    assert follow.tokens(1) == [next_token(TOKEN, ROOM, 1)]
    # a room naming this page's own seat, or the old host one handover on, is no room of ours
    assert follow.tokens(2) == [] and follow.tokens(0) == []
    for junk in (None, True, -1, "1"):
        assert follow.tokens(junk) == []


def test_further_on_it_tries_every_way_the_room_may_have_got_there():
    """Two epochs on: a successor that never hosted (the same old room), or a room hosted
    by a person in between (0 the old host, 1 Ana; this page is seat 2; 3 a bot)."""
    follow = Follow(ROOM, 2, TOKEN, 0, SECRET, players("HHHB"))
    follow.missing()
    first = room_id_after(ROOM, 1, SECRET)
    tokens = follow.tokens(0)                       # Hana, back as a player, hosts the next
    # Ana hosted h1, then Hana took over from her at h2 (e2e test_handover's chain)
    assert next_token(next_token(TOKEN, ROOM, 1), first, 0) in tokens
    assert tokens[0] == next_token(TOKEN, ROOM, 0)  # no room between: tried first
    assert len(tokens) == len(set(tokens)) <= FOLLOW_TOKENS
    # a bot never hosts; this page's own seat never did (it was away)
    assert next_token(next_token(TOKEN, ROOM, 3), first, 0) not in tokens
    assert next_token(next_token(TOKEN, ROOM, 2), first, 0) not in tokens
    follow.missing()
    three = follow.tokens(1)
    assert len(three) <= FOLLOW_TOKENS and three[0] == next_token(TOKEN, ROOM, 1)


def test_without_the_succession_secret_it_cannot_look():
    for bad in (None, "", "x" * 32, SECRET.upper()):
        try:
            Follow(ROOM, 2, TOKEN, 0, bad, players("HHH"))
        except ValueError:
            continue
        raise AssertionError(bad)


WATCH = "3c" * 16          # a spectator's follow token (`watching`)


def test_a_spectator_takes_the_moved_message_its_follow_token_proves():
    new = room_id_after(ROOM, 1, SECRET)
    marks = [id_mark(i) for i in next_ids(ROOM, SECRET)]     # what `watching` told it
    assert len(marks) == 3 and next_ids(ROOM, SECRET)[0] == new
    assert check_moved(moved_message(WATCH, ROOM, new), WATCH, ROOM, marks) == new
    chained = room_id_after(ROOM, 2, SECRET)        # a room handed over again
    later = [id_mark(i) for i in next_ids(new, SECRET)]
    assert check_moved(moved_message(WATCH, new, chained), WATCH, new, later) == chained
    # the proofs the host computes itself for the next ids: one for each, none for another
    entries = moved_entries(WATCH, ROOM, SECRET)
    assert [e[0] for e in entries] == next_ids(ROOM, SECRET)
    assert moved_for({"peer": "p", "moved": entries}, new) == moved_message(WATCH, ROOM, new)
    assert moved_for({"peer": "p", "moved": entries}, ROOM + "-h1-" + "0" * 20) is None


def test_anything_else_on_an_incoming_connection_is_refused():
    """The attack: whoever learns a spectator's PeerJS id connects to it and says the room
    moved (to a room of its own, say). Without the spectator's follow token it cannot."""
    new = room_id_after(ROOM, 1, SECRET)
    mine = ROOM + "-h1-" + "0" * 20                  # an attacker's "new room"
    good = moved_mac(WATCH, ROOM, new)

    def text(**fields):
        msg = {"type": "moved", "v": 1, "room": new, "mac": good}
        msg.update(fields)
        return "{" + ",".join('"%s":%s' % (k, _json(v)) for k, v in msg.items()) + "}"

    bad = [text(mac=moved_mac("4d" * 16, ROOM, new)),          # another spectator's token
           text(room=mine, mac=moved_mac("4d" * 16, ROOM, mine)),
           text(room=mine),                                      # the mac of another id
           text(mac=good.upper()), text(mac=good[:-1]), text(mac=None),
           text(v=2), text(v=True), text(type="watching"), text(extra=1),
           text(room=ROOM, mac=moved_mac(WATCH, ROOM, ROOM)),     # where it is already
           text(room="crisp-other-h1-" + "0" * 20,
                mac=moved_mac(WATCH, ROOM, "crisp-other-h1-" + "0" * 20)),  # another room
           text(room="a b", mac=moved_mac(WATCH, ROOM, "a b")),
           '{"type":"moved","v":1,"room":"%s"}' % new,
           "not json", "[]", "", None, 17, text(room="x" * 500)]
    marks = [id_mark(i) for i in next_ids(ROOM, SECRET)]
    for t in bad:
        assert check_moved(t, WATCH, ROOM, marks) is None, t
    # a page with no follow token (a seated page, or the old room sent none) takes nothing
    for follow in (None, "", "zz" * 16, WATCH.upper()):
        assert check_moved(moved_message(WATCH, ROOM, new), follow, ROOM, marks) is None
    # an older epoch than the room it watches: a replayed `moved` of an earlier handover
    later = room_id_after(ROOM, 2, SECRET)
    assert check_moved(moved_message(WATCH, later, new), WATCH, later,
                       [id_mark(i) for i in next_ids(later, SECRET)]) is None
    # issue 18 attack 7: even with the right mac, an id that is not one of the room's real
    # next ids (told as marks in `watching`) is refused; so is any id without marks
    assert check_moved(moved_message(WATCH, ROOM, mine), WATCH, ROOM, marks) is None
    for none in (None, [], "x", [id_mark(mine)[:-1]]):
        assert check_moved(moved_message(WATCH, ROOM, new), WATCH, ROOM, none) is None


def _json(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if isinstance(v, str):
        return '"' + v + '"'
    return str(v)


def test_the_spectators_to_tell_are_checked_and_capped():
    new = room_id_after(ROOM, 1, SECRET)
    good = [{"peer": "peer-%d" % i, "moved": [[new, "%02x" % i * 32]]} for i in range(12)]
    assert watchers(good) == good[:8]
    mac = "ab" * 32
    junk = [None, "x", {"peer": "p"}, {"peer": "p", "moved": [[new, mac]], "x": 1},
            {"peer": "bad id", "moved": [[new, mac]]}, {"peer": "p", "moved": [[new, "AB" * 32]]},
            {"peer": 5, "moved": [[new, mac]]}, {"peer": "p", "moved": []},
            {"peer": "p", "moved": [["a b", mac]]}, {"peer": "p", "moved": "x"},
            {"peer": "p", "follow": "ab" * 16},          # a follow token: never any more
            good[0], dict(good[0])]
    assert watchers(junk) == [good[0]]
    assert watchers(None) == [] and watchers({"peer": "p"}) == []


# ---- a reloaded page's follow record (docs/protocol.md "Back from away") --------------------

def _copy(v):
    if isinstance(v, dict):
        return dict([(k, _copy(v[k])) for k in v])
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


def test_the_follow_record_keeps_only_what_follow_needs_and_loads_back():
    listed = players("HBHA")
    listed[0]["token"] = "ff" * 16                  # never kept: only seat, bot, connected
    record = follow_record(SECRET, 2, 0, listed)
    assert sorted(record) == ["host", "players", "seat", "secret", "v"]
    assert record["players"] == [{"seat": 0, "bot": False, "connected": True},
                                 {"seat": 1, "bot": True, "connected": True},
                                 {"seat": 2, "bot": False, "connected": True},
                                 {"seat": 3, "bot": False, "connected": False}]
    assert check_follow_record(_copy(record)) == record
    # a Follow made from the record tries the same tokens as one made from the full list
    full = Follow(ROOM, 2, TOKEN, 0, SECRET, listed)
    saved = Follow(ROOM, 2, TOKEN, 0, record["secret"], record["players"])
    for _ in range(FOLLOW_EPOCHS):
        assert saved.current() == full.current()
        for host in range(4):
            assert saved.tokens(host) == full.tokens(host)
        full.missing()
        saved.missing()
    # nothing worth keeping: no secret, no seat, the host's own seat
    assert follow_record(None, 2, 0, listed) is None
    assert follow_record(SECRET, None, 0, listed) is None
    assert follow_record(SECRET, 0, 0, listed) is None


def test_a_hostile_follow_record_is_ignored_whole():
    good = follow_record(SECRET, 1, 0, players("HHB"))
    assert check_follow_record(good) == good

    def but(**changes):
        blob = _copy(good)
        for key in changes:
            if changes[key] is KeyError:
                blob.pop(key)
            else:
                blob[key] = changes[key]
        return blob

    def player(i, **changes):
        blob = _copy(good)
        for key in changes:
            if changes[key] is KeyError:
                blob["players"][i].pop(key)
            else:
                blob["players"][i][key] = changes[key]
        return blob

    many = [{"seat": i, "bot": False, "connected": True} for i in range(9)]
    hostile = [
        None, [], "x", 7, {},
        but(extra=1), but(v=2), but(v=True), but(v="1"), but(v=1.0), but(v=KeyError),
        but(secret="AB" * 16), but(secret="zz" * 16), but(secret="ab" * 15),
        but(secret="ab" * 17), but(secret=None), but(secret=12), but(secret=KeyError),
        but(seat=True), but(seat=-1), but(seat=8), but(seat=1.0), but(seat="1"),
        but(seat=None), but(seat=0), but(seat=KeyError),
        but(host=False), but(host=99), but(host=-1), but(host=[0]), but(host=KeyError),
        but(players=None), but(players={}), but(players="HHB"), but(players=[]),
        but(players=many), but(players=[{"seat": 1, "bot": False, "connected": True}] * 3),
        but(players=good["players"] + [None]), but(players=good["players"] + [[1, 2]]),
        but(players=[{"seat": 0, "bot": False, "connected": True}]),      # its seat missing
        but(players=KeyError),
        player(0, name="Hana"), player(0, seat=KeyError), player(1, bot="easy"),
        player(1, bot=1), player(2, connected=None), player(2, seat=9), player(2, seat=True),
        player(1, bot=True),                                             # its seat a bot
    ]
    for blob in hostile:
        assert check_follow_record(blob) is None, blob
    # a list longer than the table: refused without walking it (ui/shared/limits.py MAX_PLAYERS)
    assert check_follow_record(but(players=[0] * 100000)) is None
    assert check_follow_record(good, max_players=2) is None              # seat 2 past 2
    # as stored: JSON text, short; anything else is not even parsed
    text = json.dumps(good)
    assert load_follow_record(text) == good
    for bad in (None, 5, "", "not json", "[1, 2]", "null", text[:-1], text + " " * 1000,
                json.dumps(but(players=[0] * 500)), text.replace('"v": 1', '"v": 1, "v2": 1')):
        assert load_follow_record(bad) is None, bad


def test_a_reloaded_page_looks_further_only_with_a_record_and_an_empty_room_id():
    record = follow_record(SECRET, 1, 0, players("HHB"))
    # the room id does not answer (peer-unavailable, or 3 attempts failed): look further
    assert reload_should_look(record, False, True, 1)
    assert reload_should_look(record, False, False, 3)
    # the room is (maybe) there: keep trying it; the usual no-room / host-gone path
    assert not reload_should_look(record, False, False, 0)
    assert not reload_should_look(record, False, False, 2)
    # no record (a page never seated at a game, or a refused blob): the no-room screen
    assert not reload_should_look(None, False, True, 5)
    # seen the room since the reload: it knows more than its record
    assert not reload_should_look(record, True, True, 5)
    # offline: it decides nothing
    assert not reload_should_look(record, False, True, 5, online=False)
    assert not reload_should_look(record, False, False, True)
