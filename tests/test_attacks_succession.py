"""Attacks on succession, seats and the room id by a seated guest (the designate above all),
a seat's previous person and a stranger at the room id, each driven through the product's
own code (Link, GuestPhase, handover, Room). Each failed on the code before its fix;
docs/protocol.md "Threat model" points here."""

import json

from roomnet import Net
from ui.page.guest.guest_phase import GuestPhase
from ui.page.net.link import ATTEMPT_MS, LATE_GAP_MS, Link
from ui.shared import handover as ho
from ui.worker.room import bot_maker

SECRET = "ab" * 16
ROOM = "crisp-ABCDEFGHJK"


def facts(link, now, **kw):
    """The facts ui/page/guest/guest_page.py gives GuestPhase.step, from a real Link."""
    f = {"gone_ms": link.gone_ms, "successor_ms": 5000, "missing": link.missing,
         "open": link.open, "failures": link.failures, "registered": True,
         "quiet": link.host_quiet(now), "lost": link.host_lost(now), "leaving": False,
         "behind": link.behind(now), "old_gone": link.old_room_gone(),
         "saved_follow": None, "can_hand_over": True, "next_is_me": False}
    f.update(kw)
    return f


def seated_link(now=0):
    link = Link(now)
    link.step(now)
    link.opened(now)
    link.joining(now)
    link.heard(now, seated=True)
    return link


def woken(asleep_ms=60000):
    """A seated page whose phone slept `asleep_ms` while its host was fine: its first step
    back drops the dead channel, and it counts its host as gone and itself as behind."""
    link = seated_link()
    link.step(1000)
    back = 1000 + LATE_GAP_MS + asleep_ms
    link.step(back)
    phase = GuestPhase()
    phase.welcomed()
    return link, phase, back


# ---- E. the designate alone must not get a woken holder's share --------------------------

def test_attack_e_a_woken_page_does_not_look_while_its_old_host_may_be_fine():
    """The designate registers the first next id while the host is fine; a holder's phone
    wakes after 30 s or more: `behind` and `lost` at once. Its look (with its share) must
    wait until its old room is known gone: signaling says the id is free, or its own
    attempts since it woke failed."""
    link, phase, back = woken()
    assert link.behind(back) and link.host_lost(back)
    assert phase.step(back, facts(link, back)) == []          # no look: the host may be fine
    t, looked = back, None
    while looked is None and t < back + 60000:                 # its attempts never open
        t += 250
        link.step(t)
        if phase.step(t, facts(link, t)) == ["look"]:
            looked = t
    assert looked is not None and looked - back >= ATTEMPT_MS   # not before one failed


def test_attack_e_a_woken_page_whose_host_answers_never_looks_nor_offers():
    """The host is fine: the woken page's attempt opens and the host proves itself. The page
    never looks (the designate at the next id waits for a share for nothing)."""
    link, phase, back = woken()
    t, todo = back, []
    while t < back + 60000:
        t += 250
        link.step(t)
        if link.attempt_at is not None and t - link.attempt_at >= 500:
            link.opened(t)
        elif link.open and t % 1000 == 0:
            link.heard(t)                                      # its pongs, proven
            phase.host_heard()
        todo += phase.step(t, facts(link, t))
    assert "look" not in todo and "hand_over" not in todo


def test_attack_e_the_signaling_server_saying_the_id_is_free_lets_it_look_at_once():
    link, phase, back = woken()
    link.lost(back + 200, missing=True)                       # peer-unavailable
    assert phase.step(back + 250, facts(link, back + 250)) == ["look"]


def test_attack_e_failures_and_a_free_id_from_before_the_sleep_do_not_count():
    link = seated_link()
    link.lost(500, missing=True)
    link.lost(700)
    link.lost(900)
    back = 1000 + LATE_GAP_MS + 60000
    link.step(back)
    assert link.behind(back) and not link.old_room_gone()
    link.online = False                                        # attempts made offline
    link.step(back + 250)
    link.connecting(back + 250)
    link.online = True
    link.step(back + 250 + ATTEMPT_MS)
    assert link.behind(back + 250 + ATTEMPT_MS) and not link.old_room_gone()


def test_attack_e_an_attempt_the_host_left_unanswered_while_this_page_froze_counts():
    """A page whose host froze first (its attempts unanswered) and which then froze itself:
    the attempt it had begun fails once it runs again, and it may look at once (the
    successor waits SHARE_WAIT_MS for its share)."""
    link = seated_link()
    link.lost(9000)                                            # the host went silent
    assert link.step(9500) == ["connect"]                     # unanswered
    back = 9500 + ATTEMPT_MS + 500                             # frozen since 9.5 s
    link.step(back)
    assert link.behind(back) and link.old_room_gone()


def test_attack_e_the_look_stops_the_moment_the_old_host_answers():
    link, phase, back = woken()
    link.lost(back + 200, missing=True)
    assert phase.step(back + 250, facts(link, back + 250)) == ["look"]

    class Look:
        done = False

        def stop(self):
            self.done = True
    look = Look()
    phase.to("look", {"reload": False, "looker": look})
    link.opened(back + 300)
    link.heard(back + 400)                     # the old host, proven, speaks
    phase.host_heard()
    assert look.done and phase.phase == "seated"
    assert not link.old_room_gone()


def test_attack_e_a_holder_in_a_chained_room_still_offers_its_share_at_the_next_id():
    """A room already handed over once (at <base>-h1-<tag>): a holder back from away looks
    at the next id, epoch 2; holder_plan built its Handover with epoch 1 and never offered."""
    players = [{"seat": s, "name": n, "connected": s != 0}     # Hana hosted before: away
               for s, n in ((0, "Hana"), (1, "Ana"), (2, "Bea"), (3, "Cleo"))]
    sealed = {"box": {"n": 3}, "share": "2:ff", "keys": {"2": "k" * 64}}
    room = ho.room_id_after(ROOM, 1, SECRET)                   # hosted by Ana now
    new_id = ho.room_id_after(room, 2, SECRET)
    plan = ho.holder_plan(room, 3, players, 1, sealed, new_id, SECRET)
    assert plan is not None and plan.successor == 2 and plan.new_id == new_id
    assert ho.holder_plan(room, 3, players, 1, sealed, ho.room_id_after(room, 1, SECRET),
                          SECRET) is None


# ---- F. a seat's previous person must not take it back ------------------------------------

PAGE = "cd" * 16


def first_join(name, page):
    return json.dumps({"type": "join", "v": 1, "name": name, "page": page})


def a_table_with_ana_on_her_page():
    """The host, Ana (her page's id PAGE) and a bot, the game started."""
    net = Net(host="Hana", make_bot=bot_maker(5, 0.01))
    net.host.join("Hana")
    ana = net._client("a")
    ana.page_id = PAGE
    net.deliver(net.room.open("a", net.clock, peer="peer-ana"))
    ana.connected()
    ana.join("Ana")
    net.host.host({"type": "add_bot", "level": "easy"})
    net.host.host({"type": "start"})
    assert net.room.game is not None and net.room.conns["a"] == 1
    return net, ana


def cleo_takes(net, seat):
    cleo = net._client("w")
    net.deliver(net.room.open("w", net.clock, peer="peer-cleo"))
    cleo.connected()
    cleo.watch()
    cleo.sit("Cleo", seat)
    net.host.host({"type": "approve", "seat": seat})
    assert cleo.seat == seat and net.room.conns["w"] == seat
    return cleo


def old_page_tries(net, seat, cleo):
    """Ana's old page id in a first join: it must not get the seat, nor Cleo's token, nor
    kick Cleo."""
    net.room.open("a2", net.clock, peer="peer-ana-2")
    out = [(c, json.loads(t)) for c, t in net.raw("a2", first_join("Ana", PAGE))]
    assert not any(m.get("token") == cleo.token for c, m in out), "Cleo's token leaked"
    assert not any(m.get("code") == "taken_over" for c, m in out if c == "w")
    assert net.room.conns.get("w") == seat and net.room.conns.get("a2") is None


def test_attack_f_after_approve_the_seats_previous_page_cannot_take_it_back():
    net, ana = a_table_with_ana_on_her_page()
    net.close("a")                                          # Ana's phone died: away
    net.clock += 30000
    net.deliver(net.room.tick(net.clock))
    cleo = cleo_takes(net, 1)
    old_page_tries(net, 1, cleo)


def test_attack_f_after_leave_the_seats_previous_page_cannot_take_it_back():
    net, ana = a_table_with_ana_on_her_page()
    ana.leave()                                             # a bot takes her seat
    assert net.room.seats[1].bot is not None
    cleo = cleo_takes(net, 1)
    old_page_tries(net, 1, cleo)


def test_attack_f_a_seat_that_lost_its_token_keeps_no_page_or_peer_id():
    net, ana = a_table_with_ana_on_her_page()
    assert net.room.seats[1].page == PAGE
    ana.leave()
    assert net.room.seats[1].page is None and net.room.seats[1].peer is None


def test_attack_f_a_page_welcomed_with_a_token_never_sends_that_page_id_again():
    """Only a page never welcomed may use its page id: once its welcome gave it a token,
    a later first join of that page (after it left, say) is a new person."""
    net, ana = a_table_with_ana_on_her_page()
    sent = []
    ana.send = sent.append
    ana.token = None                                        # (it left: its token is gone)
    ana.join("Ana")
    assert json.loads(sent[-1]).get("page") != PAGE


# ---- G. an impostor at the room id must not hold the handover off ---------------------------

def seated_client():
    import os
    from ui.page.client.client import Client
    client = Client(lambda text: None, nonce=lambda: os.urandom(16).hex())
    client.receive(json.dumps({"type": "welcome", "v": 1, "seat": 1, "token": "a" * 32,
                               "room": ROOM, "host": 0, "succession": SECRET}), 0)
    return client


def test_attack_g_setup_and_pongs_from_an_impostor_never_stop_the_gone_clock():
    """The host's tab closed (the PeerJS cloud frees its id); a stranger takes the id and
    answers every join with `setup` and every ping with `pong`. The seated page's gone
    clock runs on the host's last proven word: it counts the host gone after gone_ms, and
    no join wait is re-armed by the impostor."""
    from ui.page.host import early
    from ui.page.net.link import PING_MS
    client, link = seated_client(), seated_link()
    link.lost(1000)                                            # the host's tab closed
    setup = early.setup_of(early.answer(json.dumps({"type": "join", "v": 1, "name": "x"}),
                                        "Hana", back=True)[0])
    t, opened_at, gone_at = 1000, None, None
    while t < 60000 and gone_at is None:
        t += 250
        for todo in link.step(t):
            if todo == "connect":
                opened_at = t + 100
        if opened_at is not None and t >= opened_at:
            opened_at = None
            link.opened(t)
            client.connected()
            client.join("Ana", client.token, ROOM, "peer-ana")
            link.joining(t)
            early.wait_on(client, link, setup, t)             # the impostor's answer
            armed = link.join_at
        elif link.open and t % PING_MS == 0:
            client.receive(json.dumps({"type": "pong", "v": 1, "t": t}), t)
            early.wait_on(client, link, setup, t)
            assert link.join_at == armed                       # no wait re-armed
        if link.host_lost(t):
            gone_at = t
    assert gone_at is not None and gone_at - 1000 <= link.gone_ms + 1000, gone_at
    assert client.setup is not None                            # (the banner may still say it)


def test_a_first_joins_setup_still_waits_for_the_room_on_its_connection():
    """A page with no token trusts the peer at the room id (trust on first use): the host
    page's `setup` keeps its join waiting (ui/page/host/early.py), as before."""
    import os
    from ui.page.host import early
    from ui.page.client.client import Client
    client, link = Client(lambda text: None, nonce=lambda: os.urandom(16).hex()), Link(0)
    link.connecting(0)
    link.opened(10)
    client.connected()
    client.join("Gina")
    link.joining(20)
    setup = early.setup_of(early.answer(json.dumps({"type": "join", "v": 1, "name": "G"}),
                                        "Hana")[0])
    early.wait_on(client, link, setup, 5000)
    assert link.join_at == 5000 and link.host_heard == 5000


# ---- H. a fake version clash ---------------------------------------------------------------

def bad_version(v):
    return json.dumps({"type": "error", "v": v, "code": "bad_version", "protocol": v,
                       "text": "another version", "host_name": "Mallory"})


def test_attack_h_an_unproven_peer_cannot_say_the_hosts_game_is_another_version():
    from ui.page.client.client import VERSION
    client = seated_client()
    client.connected()                                         # a rejoin: not proven yet
    client.join("Ana", client.token, ROOM, "peer-ana")
    client.receive(bad_version(VERSION + 1), 0)
    assert client.version_clash is None


def test_attack_h_a_trusted_welcome_clears_a_version_clash():
    import os
    from ui.page.client.client import VERSION, Client
    client = Client(lambda text: None, nonce=lambda: os.urandom(16).hex())
    client.connected()                                         # a first join: trusted
    client.join("Gina")
    client.receive(bad_version(VERSION + 1), 0)
    assert client.version_clash is not None                    # (it may say so)
    client.receive(json.dumps({"type": "welcome", "v": VERSION, "seat": 1, "token": "b" * 32,
                               "room": ROOM, "host": 0, "succession": SECRET}), 1)
    assert client.version_clash is None


# ---- I. names: a lookalike, and what the host's lobby shows while the engine starts --------

def test_attack_i_a_lookalike_name_is_refused_beside_the_name_it_copies():
    """"Hаna" with a Cyrillic а (U+0430) beside "Hana": two names that read the same."""
    for copy in ("H\u0430na", "\u041d\u0430n\u0430", "HAN\u0410", "Han\u0251"):
        net = Net(host="Hana")
        net.host.join("Hana")
        net.room.open("g", net.clock, peer="peer-g")
        out = [json.loads(t) for c, t in net.raw("g", json.dumps(
            {"type": "join", "v": 1, "name": copy})) if c == "g"]
        assert out[0].get("code") == "name_taken", (copy, out)
        assert len(net.room.seats) == 1


def test_attack_i_names_that_only_look_alike_in_part_are_still_two():
    from ui.worker.names import name_key
    assert name_key("Ana") != name_key("Ane") and name_key("Ivo") != name_key("Iva")
    assert name_key("\u0410\u043d\u044f") != name_key("Ana")       # Аня (Anya) is not Ana


def test_attack_i_the_hosts_lobby_shows_arriving_names_cleaned_as_the_room_will():
    from ui.page.host import early
    from ui.worker.names import clean_name
    for raw in ("\u202eanaH", "Ana\u200b\u200b", "  Bea\u2066\u2069  ", "C\u0301\u0301\u0301\u0301leo",
                "\u3164\u3164Dan", "E" * 40):
        text = json.dumps({"type": "join", "v": 1, "name": raw})
        assert early.arriving(text) == clean_name(raw), raw
    assert early.arriving(json.dumps({"type": "join", "v": 1, "name": "\u200b\u202e"})) is None


# ---- J. a flood stops at the host page, before the engine worker ---------------------------

def test_attack_j_a_flood_on_one_connection_stops_at_the_page_and_the_flooder_is_closed():
    """A stranger's connection sends pings as fast as it can (10 000 in 2 s, and texts over
    MAX_TEXT): the page forwards to the worker no more than a token bucket lets through,
    closes it once it kept flooding, and a guest's connection beside it loses nothing."""
    from ui.page.host.textlimit import (CLOSE_AFTER, TEXT_BURST, TEXTS_PER_S, TextLimit)
    from ui.shared.wire import MAX_TEXT
    limit = TextLimit()
    ping = json.dumps({"type": "ping", "v": 1, "t": 1})
    forwarded, closed_at, guest_lost = 0, None, 0
    for i in range(20000):
        t = i // 5                                             # 5 texts a millisecond
        verdict = limit.take("flood", ping, t)
        forwarded += verdict == "pass"
        if verdict == "close" and closed_at is None:
            closed_at = i
        if i % 600 == 0:                                       # a guest's ping every 3 s ...
            guest_lost += limit.take("guest", ping, t) != "pass"
    assert forwarded <= TEXT_BURST + TEXTS_PER_S * 4 + 1
    assert closed_at is not None and closed_at <= TEXT_BURST + CLOSE_AFTER + 50
    assert guest_lost == 0
    assert limit.take("big", "x" * (MAX_TEXT + 1), 0) == "too_big"     # told, not forwarded
    assert limit.take("big", "\u00e9" * (MAX_TEXT // 2 + 1), 0) == "too_big"   # bytes
    assert limit.take("flood", "x" * (MAX_TEXT + 1), 2000) == "close"   # (no answer now)
    assert limit.take("big", None, 0) == "pass"                # (a non-text: the room says so)


def test_attack_j_a_person_playing_fast_is_never_limited():
    """What a person sends: a ping every 3 s, bursts of taps (10 at once), a reaction each
    second, and a rejoin's join and proof: all passes, for ten minutes of play."""
    from ui.page.host.textlimit import TextLimit
    limit = TextLimit()
    tap = json.dumps({"type": "action", "v": 1, "action": {"do": "draw", "from": "deck"},
                      "n": 12})
    for t in range(0, 600000, 1000):
        texts = [tap] * (10 if t % 5000 == 0 else 1)
        if t % 3000 == 0:
            texts.append(json.dumps({"type": "ping", "v": 1, "t": t}))
        for text in texts:
            assert limit.take("guest", text, t) == "pass", t
    limit.forget("guest")
    assert "guest" not in limit.conns
