"""Players' names as an attack surface (ui/worker/names.py `clean_name`, ui/worker/seats.py
`name_for`).

Each test is an attack a guest could make with its `join` message: a name that renders as
another player's, an invisible one, a tower of combining marks, a copy of a seat's name, a
rename in the middle of a game. The room is the one place that checks (guests render what
it sends), so these tests drive it through the same messages a page sends.
"""

import json
import unicodedata

import pytest

from roomnet import Net
from ui.worker.room import LOCAL, MAX_NAME, BadMessage, Room, bot_maker, clean_name
MAX_MARKS = 3

RLO = "\u202e"
ZWJ = "\u200d"


def room(host="Hana", **kwargs):
    """A lobby whose host has joined (its screen is the connection "local")."""
    net = Net(host=host, **kwargs)
    net.host.join(host)
    return net


def lobby_names(net, conn=LOCAL):
    return [p["name"] for p in net.last(conn, "lobby")["players"]]


def refused(net, conn, code):
    client = net.clients[conn]
    assert client.error is not None and client.error["code"] == code, client.error
    assert client.seat is None


def no_format_characters(name):
    """True when `name` holds no Unicode format character (Cf) but a joiner between emoji."""
    for i, ch in enumerate(name):
        if unicodedata.category(ch) == "Cf" and ch != ZWJ:
            return False
    return True


# ---- what a name may hold -------------------------------------------------------------------

def test_a_right_to_left_override_cannot_dress_a_name_up_as_another_players():
    net = room("Hana")
    net.guest("a", "Ana")
    # "\u202eanA" renders as "Ana": the override goes, and what is left is Ana's name again
    net.guest("b", RLO + "anA")
    refused(net, "b", "name_taken")
    net.guest("c", "Bea" + RLO + "\u2066x\u2069\u200e")
    assert lobby_names(net) == ["Hana", "Ana", "Beax"]
    for name in lobby_names(net):
        assert no_format_characters(name), repr(name)


@pytest.mark.parametrize("name", [
    "\u200b", "\u200b\u200c\u200d\u2060\ufeff", "\u3164\u3164", "\u115f\u1160", "\u2800",
    "\u0301\u0301\u0301", "\u00ad", " \u3000 \u2003 ", "\ud800", "\ue000", "\U000e0041\U000e0042",
])
def test_an_invisible_name_is_refused(name):
    net = room()
    net.guest("a", name)
    refused(net, "a", "bad_name")
    assert len(net.room.seats) == 1


def test_zero_width_characters_inside_a_name_are_dropped():
    net = room()
    net.guest("a", "A\u200bn\u2060a\ufeff\u00ad")
    assert lobby_names(net)[1] == "Ana"


def test_a_joiner_is_kept_inside_an_emoji_sequence_only():
    family = "\U0001F469" + ZWJ + "\U0001F467"             # woman ZWJ girl
    cook = "\U0001F469\U0001F3FD" + ZWJ + "\U0001F373"     # woman, skin tone, ZWJ, pan
    heart = "\u2764\ufe0f" + ZWJ + "\U0001F525"             # heart, VS16, ZWJ, fire
    assert clean_name(family + " Ana") == family + " Ana"
    assert clean_name(cook) == cook
    assert clean_name(heart) == heart
    assert clean_name("A" + ZWJ + "na") == "Ana"
    assert clean_name(ZWJ + "\U0001F469") == "\U0001F469"
    assert clean_name("\U0001F469" + ZWJ) == "\U0001F469"


def test_whitespace_of_every_kind_collapses_to_one_space():
    assert clean_name("  Ana \u3000\u2003\t\n Bea\u2028Cleo\u00a0 ") == "Ana Bea Cleo"


def test_a_pile_of_combining_marks_is_cut_down_per_character():
    zalgo = "Z" + "\u0334\u0335\u0336\u0337\u0338" * 20 + "oe"
    name = clean_name(zalgo)
    assert name == "Z\u0334\u0335\u0336oe"
    assert sum(1 for ch in name if unicodedata.category(ch).startswith("M")) == MAX_MARKS
    # what real scripts need stays: Vietnamese, Thai tone marks, Devanagari
    for real in ("Nguy\u1ec5n", "\u0e01\u0e34\u0e48\u0e07", "\u0938\u094d\u0924\u094d\u0930\u0940"):
        assert clean_name(real) == unicodedata.normalize("NFC", real)


def test_names_are_nfc_and_at_most_20_characters():
    assert clean_name("A\u0301na") == "\u00c1na"
    assert clean_name("B" * 50) == "B" * MAX_NAME
    # a cut never leaves a dangling joiner or mark-less emoji half
    long = "x" * 19 + "\U0001F469" + ZWJ + "\U0001F467"
    assert not clean_name(long).endswith(ZWJ)


def test_a_cut_at_20_characters_never_turns_an_emoji_sequence_into_another():
    # five families (man ZWJ woman ZWJ girl ZWJ boy: 7 characters each): a cut at 20 inside the
    # third would leave "man woman girl", a different emoji; the whole sequence goes instead
    family = ZWJ.join(["\U0001F468", "\U0001F469", "\U0001F467", "\U0001F466"])
    assert clean_name(family * 5) == family * 2
    # a skin tone or a presentation selector is never cut off its emoji
    thumbs = "\U0001F44D\U0001F3FD"
    assert clean_name("x" * 19 + thumbs) == "x" * 19
    heart = "\u2764\ufe0f"
    assert clean_name("y" * 19 + heart) == "y" * 19
    # a flag is two regional indicators: never one of them alone
    flag = "\U0001F1EA\U0001F1F8"
    assert clean_name(flag * 11) == flag * 10
    assert clean_name("z" + flag * 10) == "z" + flag * 9
    # a letter with its accent stays whole; plain text is cut at 20 as before
    assert clean_name("a" * 19 + "e\u0308\u0323") == "a" * 19
    assert clean_name("Maximiliano Quintero Ruiz") == "Maximiliano Quintero"
    # a name field's maxlength (20 UTF-16 units) cut the second family after a joiner: the
    # man-woman-girl left of it is not what was typed, it goes too
    assert clean_name(family + family[:6]) == family


def test_a_name_that_is_not_text_is_refused():
    with pytest.raises(BadMessage) as e:
        clean_name(5)
    assert e.value.code == "bad_name"


def test_a_lone_surrogate_cannot_break_the_views_of_everyone():
    # "\ud800" survives json.loads; left in a name, encoding a view to UTF-8 would fail for
    # every seat at every move from then on.
    net = room()
    net.raw("a", '{"type": "join", "v": 1, "name": "Ana\\ud800"}')
    assert lobby_names(net)[1] == "Ana"
    net.host.host({"type": "start"})
    net.later(20000)            # (the deal may wait for the guests' shuffle contributions)
    assert net.last("a", "view") is not None


# ---- names are unique ------------------------------------------------------------------------

@pytest.mark.parametrize("copy", ["Ana", "ANA", "  ana ", "A\u200bna", "\u212bna"])
def test_a_name_equal_to_another_seats_is_refused(copy):
    net = room("\u00c5na" if copy == "\u212bna" else "Hana")
    net.guest("a", "Ana")
    net.guest("b", copy)
    refused(net, "b", "name_taken" if copy != "\u212bna" else "name_taken")
    assert len(net.room.seats) == 2
    assert "taken" in net.clients["b"].error["text"]


def test_a_guest_cannot_take_the_hosts_name():
    net = room("Hana")
    net.guest("a", "hana")
    refused(net, "a", "name_taken")


def test_a_person_cannot_pass_for_a_bot():
    net = room(make_bot=lambda level, seat: None)
    net.host.host({"type": "add_bot", "level": "easy"})
    net.guest("a", "bot 1")
    refused(net, "a", "name_taken")
    net.guest("b", "Bot 5")      # a bot's name, even for a seat no bot holds yet
    refused(net, "b", "name_taken")
    net.guest("c", "Bot Builder")
    assert lobby_names(net)[-1] == "Bot Builder"


def test_a_lobby_rename_by_joining_again_is_checked_too():
    net = room("Hana")
    net.guest("a", "Ana")
    net.guest("b", "Bea")
    token = net.clients["b"].token
    net.close("b")
    net.guest("b2", "ana", token=token)
    assert net.clients["b2"].error["code"] == "name_taken"
    assert lobby_names(net) == ["Hana", "Ana", "Bea"]
    net.guest("b3", "BEA", token=token)       # its own name, in other letters: fine
    assert net.clients["b3"].seat == 2 and lobby_names(net) == ["Hana", "Ana", "BEA"]


# ---- names are frozen once the game starts ---------------------------------------------------

def test_a_rejoin_in_the_middle_of_a_game_keeps_the_seats_name():
    net = room("Hana")
    net.guest("a", "Ana")
    net.host.host({"type": "start"})
    token = net.clients["a"].token
    net.close("a")
    back = net.guest("a2", "Hana (host)", token=token)
    assert back.seat == 1 and back.error is None
    names = [p["name"] for p in net.last("a2", "view")["players"]]
    assert names == ["Hana", "Ana"]
    # the same connection joining again cannot rename its seat either
    net.raw("a2", json.dumps({"type": "join", "v": 1, "name": "Hana!", "token": token}))
    assert [p["name"] for p in net.last(LOCAL, "view")["players"]] == ["Hana", "Ana"]
    # nor can the host's own screen
    net.host.join("Boss", None)
    assert [p["name"] for p in net.last(LOCAL, "view")["players"]] == ["Hana", "Ana"]


def test_a_saved_room_with_a_hostile_name_loads_it_cleaned():
    net = room("Hana")
    net.guest("a", "Ana")
    saved = json.loads(json.dumps(net.room.to_dict()))
    saved["seats"][1]["name"] = RLO + "Bea"
    assert Room.from_dict(saved).seats[1].name == "Bea"


# ---- what the refused player sees -------------------------------------------------------------

def test_the_join_screen_says_why_a_name_was_refused_and_the_link_does_not_retry_it():
    from ui.page.net.link import Link
    from ui.page.screens.screens import build
    from ui.page.dom.vdom import find, text_of
    from ui.page.screens.viewmodel import Ctx, new_ui
    net = room(host="Hana")
    client = net.guest("a", "hana")
    assert client.name_error == "name_taken" and client.screen == "join"
    tree = build(client, new_ui("es"), Ctx("es"))
    assert text_of(find(tree, "name-error")) == "Ese nombre ya lo tiene otro jugador: elige otro."
    assert find(tree, "error") is None          # said once, on the join screen itself
    link = Link(0)
    link.connecting(0)
    link.opened(10)
    link.joining(20)
    link.heard(30)                              # the refusal
    link.refused()
    # no welcome will come: that is no failed attempt (ATTEMPT_MS is 8 s)
    assert "drop" not in link.step(30 + 8500) and link.status() == "ok"
    client.join("Ana", None)
    assert client.name_error is None and client.seat == 1
    assert find(build(client, new_ui(), Ctx()), "name-error") is None


def test_names_show_isolated_everywhere_and_the_host_is_marked_at_the_table():
    from ui.page.screens.screens import build
    from ui.page.dom.vdom import find, find_all, text_of
    from ui.page.screens.viewmodel import Ctx, new_ui
    evil = RLO + "olleH" + "\u2066"
    net = room(host="Hana")
    net.guest("a", "Ana")
    net.guest("b", "Bea")
    # the room drops the controls; a hostile host could still send them: the screen drops
    # them too, and shows every name in its own <bdi>
    net.room.seats[2].name = evil
    net.host.host({"type": "start"})
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    tree = build(net.clients["b"], new_ui(), Ctx())
    bdis = find_all(tree, lambda nd: nd["tag"] == "bdi")
    names = [text_of(b) for b in bdis]
    assert "olleH" in names and "Hana" in names and "Ana" in names     # log, seats, status
    assert all(RLO not in n and "\u2066" not in n for n in names)
    assert all(len(b["kids"]) == 1 and b["kids"][0]["tag"] == "#text" for b in bdis)
    seat0 = find(tree, "seat-0")
    assert find(seat0, "host-badge") is not None
    assert find(find(tree, "seat-2"), "host-badge") is None
    # in a sentence: the status line names the player whose turn it is, isolated
    status = find(tree, "status")
    assert any(k["tag"] == "bdi" for k in status["kids"]), status
    # attributes are spoken, not laid out: no isolate marks left in them
    assert all("\u2068" not in str(v) for nd in find_all(tree, lambda nd: True)
               for v in nd["attrs"].values())


# ---- bots' names: a face and a first name, never a person's -------------------------------

def test_bots_have_a_face_and_a_first_name_in_the_rooms_language():
    net = room(make_bot=lambda level, seat: None)
    net.room.lang = "es"
    for _ in range(3):
        net.host.host({"type": "add_bot", "level": "easy"})
    assert lobby_names(net) == ["Hana", "\U0001F98A Luc\u00eda", "\U0001F43C Mateo",
                                "\U0001F438 Sof\u00eda"]


def test_a_person_who_takes_a_bots_name_keeps_it_and_the_bot_takes_another():
    net = room(make_bot=lambda level, seat: None)
    net.host.host({"type": "add_bot", "level": "easy"})
    net.host.host({"type": "add_bot", "level": "easy"})
    assert lobby_names(net)[1:] == ["\U0001F98A Emma", "\U0001F43C Oliver"]
    net.guest("a", "EMMA")                    # a bot's first name, in another case
    names = lobby_names(net)
    assert names[3] == "EMMA" and net.clients["a"].seat == 3
    assert names[2] == "\U0001F43C Oliver"    # the other bot keeps its name
    assert names[1] not in names[2:] and "emma" not in names[1].casefold()
    net.guest("b", names[1])                  # a bot's whole name, face and all
    after = lobby_names(net)
    assert after[4] == names[1] and after[1] != names[1]
    keys = [n.casefold().split(" ")[-1] for n in after]
    assert len(set(keys)) == len(keys), after


def test_a_watcher_given_a_bots_seat_never_shares_a_bots_name():
    net = room(make_bot=bot_maker(5, 0.01))
    net.host.host({"type": "add_bot", "level": "easy"})
    net.host.host({"type": "add_bot", "level": "easy"})
    net.host.host({"type": "start"})
    client = net._client("w")
    net.deliver(net.room.open("w", net.clock, peer="peer-w"))
    client.connected()
    client.watch()
    client.sit("oliver", 1)              # the other bot's first name
    net.host.host({"type": "approve", "seat": 1})
    names = [net.host.players[s]["name"] for s in range(3)]
    assert client.seat == 1 and names[1] == "oliver"
    assert names[2] != "\U0001F43C Oliver" and "oliver" not in names[2].casefold(), names


def test_the_rooms_language_is_saved_with_it():
    net = room(make_bot=lambda level, seat: None)
    net.room.lang = "es"
    saved = json.loads(json.dumps(net.room.to_dict()))
    assert saved["lang"] == "es"
    assert Room.from_dict(saved).lang == "es"
    saved["lang"] = "<script>"
    assert Room.from_dict(saved).lang == "en"
