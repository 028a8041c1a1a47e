"""The screen model (ui/page/client/client.py): what it keeps from the room's messages, what it sends, and
that it runs unchanged on MicroPython (the guests' interpreter)."""

import json
import os
import shutil
import subprocess
import tempfile

import pytest

from roomnet import Net
from test_room import DECK, play_round, started
from ui.page.client.client import REVEAL_MS, SETTLE_MS, Client, left_ms
from ui.page.client.presence import elapsed_ms
from ui.worker.room import LOCAL

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, "node_modules", "@micropython",
                           "micropython-webassembly-pyscript", "micropython.mjs")


def msg(kind, **fields):
    fields.update(type=kind, v=1)
    return json.dumps(fields)


def view_msg(n, events=(), **view):
    base = {"seat": 1, "phase": "peek", "round": 1, "ready": [False, False], "held": None,
            "allowed": [{"do": "ready"}], "draw_left": None}
    base.update(view)
    return msg("view", n=n, view=base, events=list(events),
               players=[{"seat": 0, "name": "H", "connected": True, "bot": None},
                        {"seat": 1, "name": "A", "connected": True, "bot": None}])


def peek(seat=1, left="2c", right="5h"):
    return {"type": "reveal", "to": seat, "reason": "peek",
            "cards": [{"seat": seat, "pos": "left", "card": left},
                      {"seat": seat, "pos": "right", "card": right}]}


def seated():
    sent = []
    client = Client(sent.append)
    client.receive(msg("welcome", seat=1, token="ab" * 16, room="r1"), 0)
    return client, sent


# ---- messages out ---------------------------------------------------------------------------

def test_join_act_host_and_ping_build_versioned_messages():
    sent = []
    client = Client(sent.append)
    client.join("Ana", None)
    client.act({"do": "draw", "from": "deck"})
    client.host({"type": "options", "target": 50})
    client.ping(1234)
    assert [json.loads(t) for t in sent] == [
        {"type": "join", "v": 1, "name": "Ana"},
        {"type": "action", "v": 1, "action": {"do": "draw", "from": "deck"}},
        {"type": "options", "v": 1, "target": 50},
        {"type": "ping", "v": 1, "t": 1234}]


# ---- messages in ----------------------------------------------------------------------------

def test_starts_on_join_screen_connecting():
    client = Client(lambda t: None)
    assert client.screen == "join" and client.status == "connecting"
    assert client.view is None and client.log == [] and client.reveals == {}


def test_welcome_then_lobby_then_view():
    client, _ = seated()
    assert (client.seat, client.token, client.room, client.status) == (1, "ab" * 16, "r1", "ok")
    lobby = msg("lobby", players=[{"seat": 0, "name": "H", "connected": True, "bot": None}],
                options={"target": 100, "draw_seconds": None, "draw_from_discard": False},
                host=0, started=False)
    assert client.receive(lobby, 5)
    assert client.screen == "lobby" and client.players[0]["name"] == "H"
    client.receive(view_msg(1, [{"type": "deal", "round": 1, "dealer": 0}, peek()]), 10)
    assert client.screen == "table" and client.n == 1 and client.view_at == 10
    assert client.log == [{"type": "deal", "round": 1, "dealer": 0}]
    assert client.reveals == {(1, "left"): "2c", (1, "right"): "5h"}


def test_peek_stays_until_this_seat_is_ready():
    client, _ = seated()
    client.receive(view_msg(1, [peek()]), 0)
    assert not client.tick(60000)
    assert (1, "left") in client.reveals
    client.receive(view_msg(2, [], ready=[True, False]), 61000)   # the other seat is ready
    assert (1, "left") in client.reveals
    client.receive(view_msg(3, [], ready=[False, True]), 62000)   # this seat is ready
    assert client.reveals == {}


def test_a_jack_reveal_stays_until_the_next_turn_begins_not_3_seconds():
    """Issue 11: a Jack's (or Queen's) reveal no longer flips back while the 3 s crisp prompt
    flashes: it stays until the next turn begins, or until its player hides it."""
    client, _ = seated()
    client.receive(view_msg(1, [], phase="play", ready=[True, True]), 0)
    jack = {"type": "reveal", "to": 1, "reason": "jack",
            "cards": [{"seat": 1, "pos": "center", "card": "Td"}]}
    client.receive(view_msg(2, [{"type": "jack", "seat": 1, "card": "Jc"}, jack],
                            phase="play", ready=[True, True]), 1000)
    assert client.reveals == {(1, "center"): "Td"}
    assert client.reveal_until == {(1, "center"): "turn"}
    assert client.next_wakeup() is None
    assert not client.tick(1000 + 60000)
    assert client.reveals == {(1, "center"): "Td"}          # the crisp window's 3 s are over
    client.receive(view_msg(3, [{"type": "turn", "seat": 0}], phase="play",
                            ready=[True, True]), 62000)
    assert client.reveals == {} and client.next_wakeup() is None


def test_a_reveal_and_the_next_turn_in_one_message_stay_until_the_turn_after():
    client, _ = seated()
    queen = {"type": "reveal", "to": 1, "reason": "queen",
             "cards": [{"seat": 1, "pos": "left", "card": "7h"}]}
    client.receive(view_msg(1, [{"type": "queen", "seat": 1, "card": "Qs", "pos": "left",
                                 "target": 0, "target_pos": "right"}, queen,
                                {"type": "turn", "seat": 0}], phase="play"), 0)
    assert client.reveals == {(1, "left"): "7h"}
    client.receive(view_msg(2, [{"type": "turn", "seat": 1}], phase="play"), 9000)
    assert client.reveals == {}


def test_a_jack_reveal_can_be_hidden_by_its_player():
    client, _ = seated()
    jack = {"type": "reveal", "to": 1, "reason": "jack",
            "cards": [{"seat": 1, "pos": "center", "card": "Td"}]}
    client.receive(view_msg(1, [jack], phase="play"), 0)
    assert client.dismiss_reveals()
    assert client.reveals == {} and not client.dismiss_reveals()


def test_a_drawn_card_reveal_still_turns_back_after_about_3_seconds():
    client, _ = seated()
    draw = {"type": "reveal", "to": 1, "reason": "draw",
            "cards": [{"seat": 1, "pos": "held", "card": "6d"}]}
    held = {"seat": 1, "from": "deck", "card": "6d"}
    client.receive(view_msg(1, [draw], phase="play", held=held), 1000)
    assert client.next_wakeup() == 1000 + REVEAL_MS
    assert not client.tick(1000 + REVEAL_MS - 1)
    assert client.tick(1000 + REVEAL_MS)
    assert client.reveals == {} and client.next_wakeup() is None


def test_the_drawn_card_reveal_goes_when_the_card_is_resolved():
    client, _ = seated()
    draw = {"type": "reveal", "to": 1, "reason": "draw",
            "cards": [{"seat": 1, "pos": "held", "card": "6d"}]}
    held = {"seat": 1, "from": "deck", "card": "6d"}
    client.receive(view_msg(1, [{"type": "draw", "seat": 1, "from": "deck"}, draw],
                            phase="play", held=held), 0)
    assert client.reveals == {(1, "held"): "6d"}
    client.receive(view_msg(2, [{"type": "swap", "seat": 1, "pos": "left", "card": "2c"}],
                            phase="play"), 500)
    assert client.reveals == {}


def test_a_card_moved_away_is_no_longer_shown_but_a_fresh_reveal_is():
    client, _ = seated()
    queen = {"type": "reveal", "to": 1, "reason": "queen",
             "cards": [{"seat": 1, "pos": "right", "card": "7h"}]}
    client.receive(view_msg(1, [queen, {"type": "queen", "seat": 0, "card": "Qs", "pos": "left",
                                        "target": 1, "target_pos": "right"}], phase="play"), 0)
    assert client.reveals == {(1, "right"): "7h"}     # same message: kept, whatever the order
    client.receive(view_msg(2, [{"type": "queen", "seat": 0, "card": "Qd", "pos": "left",
                                 "target": 1, "target_pos": "right"}], phase="play"), 1000)
    assert client.reveals == {}                         # a later exchange took it away


def test_private_events_never_enter_the_log_and_a_new_round_starts_it_over():
    client, _ = seated()
    client.receive(view_msg(1, [{"type": "deal", "round": 1, "dealer": 0}, peek()]), 0)
    client.receive(view_msg(2, [{"type": "ready", "seat": 1, "auto": False}],
                            ready=[False, True]), 10)
    assert [e["type"] for e in client.log] == ["deal", "ready"]
    client.receive(view_msg(3, [{"type": "deal", "round": 2, "dealer": 1}, peek(1, "3c", "4d")],
                            round=2), 20)
    assert client.log == [{"type": "deal", "round": 2, "dealer": 1}]
    assert client.reveals == {(1, "left"): "3c", (1, "right"): "4d"}


def test_a_reveal_for_another_seat_is_ignored():
    client, _ = seated()
    client.receive(view_msg(1, [peek(seat=0)]), 0)
    assert client.reveals == {}


def test_a_spectator_crowns_the_seat_its_watching_names_and_ignores_a_bad_one():
    """A spectator learns the host's seat from `watching` (after a handover it is no longer
    seat 0: a tester saw the crown stay on the old host's away seat)."""
    client = Client(lambda t: None)
    assert client.host_seat == 0
    client.receive(msg("watching", room="r1-h1-" + "0" * 20, ask=None, host=1,
                       follow="cd" * 16), 0)
    assert client.spectator and client.host_seat == 1
    for bad in ("2", -1, 99, None, True, [1]):
        client.receive(msg("watching", room="r1", ask=None, host=bad, follow="cd" * 16), 0)
        assert client.host_seat == 1, bad


def test_error_kicked_pong_and_garbage():
    client, _ = seated()
    client.receive(msg("error", code="not_your_turn", text="not your turn"), 0)
    assert client.error == {"code": "not_your_turn", "text": "not your turn"}
    client.act({"do": "ready"})
    assert client.error is None
    assert not client.receive(msg("pong", t=100), 130)
    assert client.latency == 30
    for bad in ("{", "[]", '{"type": "view", "v": 2}', "null"):
        assert not client.receive(bad, 200)
    client.receive(msg("kicked", code="taken_over", text="elsewhere"), 300)
    assert client.screen == "gone" and client.kicked["code"] == "taken_over"
    client.receive(view_msg(1), 400)
    assert client.screen == "gone"


def test_allowed_and_remaining_help_the_screens():
    client, _ = seated()
    client.receive(view_msg(1, [], phase="play", draw_left=30000,
                            allowed=[{"do": "draw", "from": ["deck", "discard"]}]), 1000)
    assert client.allowed("draw") == {"do": "draw", "from": ["deck", "discard"]}
    assert client.allowed("swap") is None
    # the one countdown (left_ms) from the one elapsed time (Client.elapsed)
    assert left_ms(client.view["draw_left"], elapsed(client, 11000)) == 20000
    assert left_ms(client.view["draw_left"], elapsed(client, 99000)) == 0
    assert left_ms(client.view.get("peek_left"), elapsed(client, 1000)) is None


def test_clients_follow_a_whole_round_through_the_room():
    net = started(deck=DECK)
    play_round(net)
    for conn in ("a", "b", LOCAL):
        client = net.clients[conn]
        assert client.screen == "table" and client.view["phase"] == "round_over"
        assert client.n == len(net.received(conn, "view"))
        assert client.log[-1]["type"] == "round_over"


# ---- the same model on MicroPython ---------------------------------------------------------

DRIVER = r"""
import json
received = json.loads(INBOX)
client = Client(lambda text: None)
renders = 0
for now, text in received:
    if client.receive(text, now):
        renders += 1
    client.tick(now)
print("RESULT " + json.dumps(summary(client, renders)))
"""

SUMMARY = r"""
def summary(client, renders):
    return {"screen": client.screen, "seat": client.seat, "token": client.token,
            "n": client.n, "renders": renders, "log": client.log, "view": client.view,
            "reveals": sorted([str(k[0]) + "/" + k[1] + "=" + v
                               for k, v in client.reveals.items()]),
            "players": client.players, "error": client.error}
"""


def run_micropython(source):
    """Run `source` on MicroPython with the modules client.py imports (ui/shared/proof.py,
    handover.py, successor.py, limits.py, wire.py, reactions.py, crisp_core/checks.py and actions.py;
    ui/page/client/fairplay.py, client_page.py, client_reactions.py, client_reveals.py,
    client_send.py, client_view.py, client_handover.py, presence.py, watchers.py, taps.py;
    ui/shared/linkspeed.py)."""
    names = ("ui/shared/proof", "ui/shared/handover", "ui/shared/successor",
             "ui/shared/spectator_moves",
             "ui/shared/limits", "ui/shared/wire",
             "ui/shared/reactions", "crisp_core/checks", "crisp_core/actions",
             "ui/page/client/fairplay", "ui/page/client/client_page", "ui/page/client/client_reactions",
             "ui/page/client/client_reveals", "ui/page/client/client_send", "ui/page/client/client_view",
             "ui/page/client/client_handover",
             "ui/page/client/presence", "ui/page/client/watchers", "ui/page/client/taps", "ui/shared/linkspeed")
    writes = ""
    for name in names:
        with open(os.path.join(ROOT, name + ".py"), encoding="utf-8") as f:
            writes += "mp.FS.writeFile('/%s.py', %s);\n" % (name, json.dumps(f.read()))
    script = ("import { loadMicroPython } from %s;\n"
              "const mp = await loadMicroPython({stdout: (line) => console.log(line)});\n"
              "mp.FS.mkdir('/ui'); mp.FS.mkdir('/ui/shared'); mp.FS.mkdir('/ui/page');\n"
              "mp.FS.mkdir('/ui/page/client');\n"
              "mp.FS.mkdir('/crisp_core');\n"
              "%s"
              "mp.runPython('import sys\\nsys.path.insert(0, \"/\")');\n"
              "mp.runPython(%s);\n") % (json.dumps(MICROPYTHON), writes, json.dumps(source))
    # the script goes through a file: with every module written into it, it is longer than
    # one command-line argument may be
    with tempfile.NamedTemporaryFile("w", suffix=".mjs", encoding="utf-8", delete=False) as f:
        f.write(script)
    try:
        done = subprocess.run(["node", f.name], capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(f.name)
    assert done.returncode == 0, done.stderr[-2000:]
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise AssertionError(done.stdout[-2000:])


@pytest.mark.skipif(shutil.which("node") is None or not os.path.exists(MICROPYTHON),
                    reason="node and node_modules (npm ci) are needed for MicroPython")
def test_the_client_runs_on_micropython_with_the_same_result():
    net = Net(deck=DECK)
    # record what guest "a" receives, with the time it arrived
    timed = []
    original = net.deliver

    def deliver(out):
        for conn, text in out:
            if conn == "a":
                timed.append([net.clock, text])
        original(out)
    net.deliver = deliver
    net.host.join("Host")
    net.guest("a", "José 中文")
    net.guest("b", "Bea \U0001f600\u200d")  # an emoji (and a joiner the room drops)
    net.host.host({"type": "start"})
    play_round(net)
    net.host.host({"type": "next_round"})
    assert net.room.seats[2].name == "Bea \U0001f600"

    with open(os.path.join(ROOT, "ui", "page", "client", "client.py"), encoding="utf-8") as f:
        client_source = f.read()
    namespace = {}
    exec(SUMMARY, namespace)
    expected_client = Client(lambda text: None)
    renders = 0
    for now, text in timed:
        if expected_client.receive(text, now):
            renders += 1
        expected_client.tick(now)
    expected = json.loads(json.dumps(namespace["summary"](expected_client, renders)))
    # the texts as the page hands them over: characters as they are, not \\u escapes
    inbox = json.dumps(json.dumps(timed, ensure_ascii=False), ensure_ascii=False)
    source = (client_source + "\n" + SUMMARY + "\nINBOX = " + inbox
              + "\n" + DRIVER)
    assert run_micropython(source) == expected
    assert expected["screen"] == "table" and expected["view"]["round"] == 2


def test_any_message_from_the_room_means_it_is_there():
    client, _ = seated()
    client.status = "host_gone"              # the page's transport said so
    client.receive(msg("pong", t=1), 50)
    assert client.status == "ok" and client.last_heard == 50


def test_a_stale_tap_is_not_shown_as_an_error():
    client = Client(lambda text: None)
    assert client.receive(json.dumps({"type": "error", "v": 1, "code": "stale",
                                      "text": "the table changed"}), 0) is False
    assert client.error is None
    client.receive(json.dumps({"type": "error", "v": 1, "code": "not_your_turn",
                               "text": "not your turn"}), 0)
    assert client.error["code"] == "not_your_turn"


def test_a_sealed_box_and_standby_of_the_old_room_go_when_seated_at_a_new_id():
    """A chained handover: the box of the room before the first handover carries a higher
    number than the new host's first boxes (each room counts from 1). Kept, it would win over
    them and never open at the new id: the second handover's successor could not gather a
    matching share and dealt the round again. Seated in another room, the old ones go."""
    client, _ = seated()
    box = {"n": 7, "iv": "00", "ct": "11"}
    client.receive(msg("sealed", box=box, share="s7", host=0, keys={}), 10)
    client.receive(msg("standby", seat=1, tokens={"0": "cd" * 16}), 10)
    assert client.sealed["box"]["n"] == 7 and client.standby is not None
    client.receive(msg("welcome", seat=1, room="r1", host=0), 20)     # a rejoin: same room
    assert client.sealed["box"]["n"] == 7 and client.standby is not None
    client.receive(msg("welcome", seat=1, room="r1-h1", host=1), 30)  # the handover's new id
    assert client.sealed is None and client.standby is None
    client.receive(msg("sealed", box={"n": 1, "iv": "00", "ct": "22"}, share="s1", host=1,
                   keys={}), 40)
    assert client.sealed["box"]["n"] == 1 and client.sealed["share"] == "s1"


def test_a_room_of_another_version_says_whose_page_must_reload():
    """Issue 23, fault 1: a guest page of another build joins: the room refuses its join
    with `bad_version`, the host's protocol and name; the guest's screen says whether to
    reload (the host's game is newer) or to ask the host to (it is older), in es and en.
    Before, each side dropped the other's messages and the guest saw a table that never
    came."""
    import json as _json
    from ui.page.i18n import i18n
    from ui.page.screens import screens
    from ui.page.client.client import VERSION, Client
    from ui.page.screens.render import Ctx
    from ui.worker.room import LOCAL, Room
    room = Room("crisp-ABCDEFGHJK", "Hana")
    room.receive(LOCAL, _json.dumps({"type": "join", "v": VERSION, "name": "Hana"}), 0)
    out = room.receive("c1", _json.dumps({"type": "join", "v": VERSION + 1, "name": "Ana"}), 0)
    (conn, text), = out
    refusal = _json.loads(text)
    assert refusal["code"] == "bad_version" and refusal["protocol"] == VERSION
    assert refusal["host_name"] == "Hana" and room.seats[1:] == []
    for host_v, newer, key in ((VERSION + 1, "host", "version_newer"),
                               (VERSION - 1, "me", "version_older")):
        client = Client(lambda t: None)
        said = dict(refusal, v=host_v, protocol=host_v)
        assert client.receive(_json.dumps(said), 0) is True
        assert client.version_clash == {"host": host_v, "name": "Hana"}
        for lang in ("en", "es"):
            tree = _json.dumps(screens.build(client, {"lang": lang},
                                             Ctx(lang, 0, 0, False, "")), ensure_ascii=False)
            assert '"version-clash"' in tree and '"data-newer": "%s"' % newer in tree
            # (the name goes in its own isolated node: the words around it, as they are)
            for words in i18n.t(lang, key, name="\0").split("\0"):
                assert words.strip() in tree, words
            assert '"text": "Hana"' in tree
        # a refusal without the host's name: the texts that say "the host" in its place,
        # capitalised only where a sentence starts ("ask the host to reload", never "ask The
        # host")
        client = Client(lambda t: None)
        said = dict(refusal, v=host_v, protocol=host_v, host_name=None)
        assert client.receive(_json.dumps(said), 0) is True
        for lang in ("en", "es"):
            tree = _json.dumps(screens.build(client, {"lang": lang},
                                             Ctx(lang, 0, 0, False, "")), ensure_ascii=False)
            words = i18n.t(lang, key + "_unnamed")
            assert words in tree and "{" not in words
            assert ("host" in words and "The host" not in words[1:]) if lang == "en" \
                else "quien organiza" in words
    # any other message of another version is still dropped, and so is a bad_version
    # error of our own version (nothing to say)
    client = Client(lambda t: None)
    assert client.receive(_json.dumps({"type": "view", "v": VERSION + 1}), 0) is False
    assert client.receive(_json.dumps(dict(refusal, v=VERSION, protocol=VERSION)), 0) is True
    assert client.version_clash is None


# ---- the host's presence: one signal, one arrival time, one elapsed time (issue 19 item 5) ----

def elapsed(client, now):
    """The one elapsed time of the client's countdowns (ui/page/client/presence.py)."""
    return elapsed_ms(client.view_at, client.pause.since, now)


def silent(since, gone_at=None, status="host_gone"):
    return {"status": status, "paused_since": since, "gone_at": gone_at, "lost": False,
            "behind": False}


HERE = {"status": "ok", "paused_since": None, "gone_at": None, "lost": False, "behind": False}


def test_a_pause_stops_every_countdown_where_the_host_was_last_heard():
    client, _ = seated()
    client.receive(view_msg(1, [], phase="play", draw_left=30000), 1000)
    assert elapsed(client, 5000) == 4000
    client.set_link(silent(3000, 33000))
    assert client.status == "host_gone" and client.pause.gone_at == 33000
    assert elapsed(client, 5000) == elapsed(client, 60000) == 2000
    assert client.pause.seat == client.host_seat == 0
    client.set_link(silent(4500))               # a new connection's shorter silence
    assert client.pause.since == 3000          # the pause keeps its start
    client.set_link(HERE)
    assert client.pause.since is None and client.pause.seat is None
    assert elapsed(client, 5000) == 4000


def test_a_word_from_the_room_ends_the_pause_and_asks_for_fresh_countdowns():
    client, sent = seated()
    client.receive(view_msg(1, [], phase="play", draw_left=30000), 1000)
    client.set_link(silent(2000))
    client.receive(msg("pong", t=0, n=1), 9000)
    assert client.pause.since is None and json.loads(sent[-1])["type"] == "sync"


def test_a_handover_moves_the_crown_and_keeps_the_game_paused_with_the_old_host_away():
    client, _ = seated()
    client.receive(view_msg(1, [], phase="play", draw_left=30000), 1000)
    client.receive(msg("pong", t=0), 2500)
    client.set_link(dict(silent(2500), lost=True))
    assert client.host_lost
    client.hand_over_to(0 + 1, "A")             # seat 1 hosts next, by its name
    assert client.host_seat == 1 and client.pause.seat == 0
    assert client.handover == {"name": "A", "me": False} and not client.host_lost
    assert client.pause.since == 2500
    client.set_link(silent(40000))              # the room's new id, not open yet
    assert client.pause.since == 2500 and client.pause.seat == 0



def test_a_handover_that_went_through_names_the_new_host_for_a_while():
    """Issue 20.1: Bea's banner went from "the game moves to Ana's phone" to nothing; once the
    new room seats the page, `new_host` says for NEW_HOST_MS who hosts now."""
    from ui.page.client.client_page import NEW_HOST_MS
    client, _ = seated()
    client.receive(view_msg(1, [], phase="play", draw_left=30000), 1000)
    client.hand_over_to(1, "A")
    assert client.new_host is None              # not while the room moves
    client.set_handover(None, 9000)             # the new room's welcome
    assert client.new_host == {"seat": 1, "me": False, "until": 9000 + NEW_HOST_MS}
    client, _ = seated()
    client.hand_over_to(client.seat, me=True)
    client.set_handover(None, 500)
    assert client.new_host["me"] and client.new_host["until"] == 500 + NEW_HOST_MS
    client, _ = seated()
    client.set_handover({"me": True, "failed": True})
    client.set_handover(None, 500)              # a handover that failed names nobody
    assert client.new_host is None
    client.set_handover({"name": "A", "me": False})
    client.set_handover(None)                   # ended with no time (a reloaded page's look)
    assert client.new_host is None

def test_the_host_leaving_pauses_the_game_for_its_handover_too():
    client, _ = seated()
    client.receive(view_msg(1, [], phase="play", draw_left=30000), 1000)
    client.receive(msg("host_leaving"), 1200)
    assert client.host_leaving and client.pause.since is None
    client.hand_over_to(1, me=True)
    assert client.pause.since == 1200 and client.pause.seat == 0
    # told as a leave: the seat that left (its banner: "Hana left: you host the game now")
    assert client.handover == {"me": True, "left": 0} and client.host_seat == 1
    assert not client.host_leaving


# ---- a handover's screens agree at every moment (issue 20.1) ---------------------------------

def test_the_old_host_shows_away_from_the_handover_on_even_once_the_pause_ends():
    client, _ = seated()
    client.receive(view_msg(1, [], phase="play", draw_left=30000), 1000)
    client.set_link(dict(silent(2500), lost=True))
    client.hand_over_to(1, me=True)
    assert [p["connected"] for p in client.players] == [False, True]
    client.set_link(HERE)                       # the new room speaks: the pause is over
    assert client.pause.since is None
    assert [p["connected"] for p in client.players] == [False, True]   # Hana still away
    client.hand_over_to(1, me=True)             # again to the same seat: nobody else away
    assert [p["connected"] for p in client.players] == [False, True]


def test_a_pause_that_begins_again_during_a_handover_never_makes_the_new_host_silent():
    client, _ = seated()
    client.receive(view_msg(1, [], phase="play", draw_left=30000), 1000)
    client.set_link(dict(silent(2500), lost=True))
    client.hand_over_to(0 + 1, "A")             # seat 1 hosts next
    client.set_link(HERE)
    client.set_link(silent(9000))               # its new id, not seated there yet
    assert client.pause.since == 9000 and client.pause.seat is None
    assert client.host_seat == 1
    client.set_handover(None)                   # seated there; should it go quiet later,
    client.set_link(HERE)
    client.set_link(silent(20000))              # it is the silent one
    assert client.pause.seat == 1



def test_a_guest_offline_itself_pauses_without_showing_the_host_away():
    """This phone's own network down ("reconnecting"): the game paused (nothing reaches the
    host), but no seat shows silent: nothing is known of the host. Back online with the host
    still quiet, the host's seat is the silent one."""
    client, _ = seated()
    client.receive(view_msg(1, [], phase="play", draw_left=30000), 1000)
    client.set_link(silent(2500, 32500, status="reconnecting"))
    assert client.pause.since == 2500 and client.pause.seat is None
    client.set_link(silent(2500, 32500, status="host_paused"))
    assert client.pause.since == 2500 and client.pause.seat == client.host_seat

def test_a_welcome_is_drawn_with_the_view_that_follows_it():
    client, _ = seated()                        # (its welcome at 0)
    assert client.settling(0) and client.settling(SETTLE_MS - 1)
    assert not client.settling(SETTLE_MS)       # no view came: draw it anyway
    client.receive(view_msg(1, []), 10)
    assert not client.settling(20)
    client.receive(msg("welcome", seat=1, room="r1"), 100)
    client.receive(msg("fair", round=1), 101)   # (what comes between them changes nothing)
    assert client.settling(102)
    client.receive(msg("lobby", players=[], started=False), 103)
    assert not client.settling(104)
    client.receive(msg("welcome", seat=1, room="r1"), 200)
    client.receive(msg("kicked", code="removed", text="x"), 201)
    assert not client.settling(202)
