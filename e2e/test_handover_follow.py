"""Nobody who was at the table is stranded by a host handover (issue 10, item 3, follow-up).

A seated player away during the handover: Hana hosts, Ana (seat 1) and Bea (seat 2) play
with a bot, mid-round. Ana's phone loses its network (its signaling socket dies, its data
channels go quiet: e2e/test_network_change.py's SILENCE and SignalingCut); the host sees her
away. Then Hana's tab closes and Bea's page, the one person left, takes the room over at its
next id (the round dealt again: one person cannot open the sealed room). Ana's page, still
offline, must not take the room over itself from its old players list (it still shows her
connected: the lowest seat, so by that list she would host): once her network is back it
looks at the room's next id, finds Bea hosting there, and rejoins its own seat with the
token it derives, with nobody tapping anything. Checked: Ana's page at the new id in seat 1,
her hand and the scores as Bea's page shows them, and play goes on.

A spectator follows too: Cleo watches (and asks for the bot's seat) when Hana's tab closes;
Ana's page takes the room over and tells Cleo's page where it went (`moved`, proven with
Cleo's follow token); Cleo watches the new host's table with play going on, her seat request
made again there, and no message she received carries a card she may not see.

Printed: the time from Ana's network coming back to her page seated at the new host, and
from the takeover to Cleo watching again."""

import json
import re
import time

from crisp_e2e import engine_ready, wait_ready
from crisp_rooms import no_errors, phone, wait_away
from test_handover import GONE_MS, play_turn, scores, three_at_the_table, wait_crown
from test_late_friends import assert_public_only
from test_network_change import SILENCE, SignalingCut
from crisp_e2e import T, live, sel


def seat_cards(page, seat):
    """How many cards the page shows at `seat` (face up or down)."""
    return page.locator(sel("seat-%d" % seat) + " [data-testid^='card-%d-']" % seat).count()


def table_with_a_bot(new_phone, **ana):
    """test_handover's table of three and a bot in seat 3 (`ana`: Ana's join_room options),
    with `?hostgone=`: Ana's turn. -> (host, ana, bea, link, room id)."""
    host, ana, bea, link = three_at_the_table(new_phone, GONE_MS, bot=True, ana=ana)
    return host, ana, bea, link, re.search(r"room=([^&]+)", ana.page.url).group(1)


def back_in_seat(page, seat, room_id, *phones):
    """Wait until `page` is at its room's next id (-h1-), in its own `seat`, its ready
    button live; on failure print the consoles of `phones`. -> seconds it took."""
    t0 = time.monotonic()
    try:
        page.wait_for_function("location.search.includes('room=%s-h1-')" % room_id,
                               timeout=60_000)
        page.wait_for_selector(sel("seat-%d" % seat, ".me"), timeout=T)
        page.wait_for_selector(sel("ready", ":not([disabled])"), timeout=T)
    except Exception:
        for phone in phones:
            print(phone.page.url, "\n".join(t for k, t in phone.console)[-4000:])
        raise
    return time.monotonic() - t0


def same_table(a, b):
    """Pages `a` and `b` show the same scores and as many cards at each of the 4 seats."""
    assert scores(a, range(4)) == scores(b, range(4))
    assert [seat_cards(a, s) for s in range(4)] == [seat_cards(b, s) for s in range(4)]


def test_a_player_away_during_the_handover_finds_its_seat_at_the_new_host(new_phone, timings):
    cuts = []
    host, ana, bea, link, room_id = table_with_a_bot(
        new_phone, init=SILENCE, prepare=lambda p: cuts.append(SignalingCut(p.context)))
    hp, ap, bp = host.page, ana.page, bea.page
    signaling = cuts[0]

    # Ana's network goes: her signaling socket dies (new ones hang), her channels go quiet
    ap.evaluate("window.__crispSilence()")
    signaling.cut(10 ** 6)
    wait_away(bp, 1, timeout=20_000)                 # the host told Bea that Ana is away
    hp.close()                                       # ...and the host's tab closes
    # Bea's page, the one person left, hosts the room at its next id
    bp.wait_for_function("location.search.includes('host=%s-h1-')" % room_id, timeout=60_000)
    engine_ready(bp)                                  # the new host's engine runs the room
    live(bp, "ready", timeout=T)                     # the round dealt again
    assert "-h1-" not in ap.url                      # Ana's page, offline, took nothing over
    assert ap.evaluate("!location.search.includes('host=')")

    # Ana's network is back: her page finds the room at the new id and her seat there
    signaling.stall_until = 0
    back = back_in_seat(ap, 1, room_id, ana, bea)
    print("Ana's network back -> seated at the new host: %.1f s" % back)
    timings.setdefault("away during the handover: network back -> seated at the new host",
                       []).append(back * 1000)
    bp.wait_for_selector(sel("seat-1", ":not(.away)"), timeout=T)
    assert ap.locator(sel("handover")).count() == 0
    assert ap.locator(sel("next-round")).count() == 0           # a player, not the host
    # her hand and the scores as the others see them
    same_table(ap, bp)
    assert seat_cards(ap, 1) > 0
    # she peeks (her two cards shown to her alone) and play goes on under Bea
    assert ap.locator(sel("seat-1") + " [data-card]").count() >= 2
    live(ap, "ready")
    ap.wait_for_selector(sel("deck"), timeout=T)
    bp.wait_for_function(
        "!!document.querySelector('[data-testid^=\"seat-\"].turn')", timeout=T)
    no_errors(ana, bea)


# Records every PeerJS Peer the page makes (window.__peers), to learn its PeerJS id.
PEER_TAP = """
(() => {
  let Inner;
  window.__peers = [];
  Object.defineProperty(window, "Peer", {configurable: true, get() { return Inner; },
    set(P) { Inner = class extends P {
      constructor(...args) { super(...args); window.__peers.push(this); } }; }});
})();
"""

# From another page: a Peer of its own connects to PeerJS id `target` as Crisp's pages do,
# sends each text, and reports what came back and whether the connection closed.
ATTACK = """
async ([target, texts]) => {
  const peer = crisp.newPeer(null);
  await new Promise((ok, no) => { peer.on("open", ok); peer.on("error", no); });
  const got = [];
  let closed = false;
  const conn = peer.connect(target, {reliable: true, serialization: "raw"});
  conn.on("data", (d) => got.push(d));
  conn.on("close", () => { closed = true; });
  await new Promise((ok) => conn.on("open", ok));
  for (const t of texts) conn.send(t);
  const until = Date.now() + 8000;
  while (!closed && Date.now() < until) await new Promise((ok) => setTimeout(ok, 100));
  peer.destroy();
  return {got, closed};
}
"""


def sealed_count(page):
    return page.evaluate(
        "(window.__crispWire || []).filter(t => t.includes('\"sealed\"')).length")


def test_a_spectator_follows_the_room_to_its_new_host(new_phone, timings):
    host, ana, bea, link, room_id = table_with_a_bot(new_phone)
    hp, ap, bp = host.page, ana.page, bea.page
    # Cleo opens the link late: she watches, and asks for the bot's seat
    seals = sealed_count(ap)
    cleo = phone(new_phone, init=PEER_TAP)
    cp = cleo.page
    cp.goto(link)
    assert wait_ready(cp) == "micropython"
    cp.wait_for_selector(sel("spectator"), timeout=T)
    cp.fill(sel("player-name"), "Cleo")
    live(cp, "take-seat-3")
    cp.wait_for_selector(sel("seat-asked"), timeout=T)
    hp.wait_for_selector(sel("approve-3"), timeout=T)
    # the attack: Bea, seated (she knows the succession secret: she can name the next id),
    # learns Cleo's PeerJS id and tells her the room moved, to a room of Bea's own. Cleo's
    # page answers bad_message, closes the connection, and watches on where she was.
    cleo_peer = cp.evaluate("window.__peers.map(p => p.id).filter(Boolean)[0]")
    forged = json.dumps({"type": "moved", "v": 1, "room": room_id + "-h1-" + "0" * 20,
                         "mac": "0" * 64})
    attacks = ([forged], ["not json", forged], [json.dumps({"type": "view", "v": 1})])
    for texts in attacks:
        answer = bp.evaluate(ATTACK, [cleo_peer, texts])
        assert answer["closed"], answer
        assert [json.loads(t)["code"] for t in answer["got"]][:1] == ["bad_message"], answer
    assert room_id + "-h1" not in cp.url and cp.locator(sel("seat-asked")).count() == 1
    # the room seals itself again with Cleo among its spectators
    ap.wait_for_function(
        "n => (window.__crispWire || []).filter(t => t.includes('\"sealed\"')).length > n",
        arg=seals, timeout=T)
    time.sleep(1.5)
    # the attack: Ana, the designate, has the host's own `moved` proof for the room's real
    # next id in her `standby` (and she knows the secret: she could register that id now).
    # She hands it to Cleo while the host is alive: the proof is real, but Cleo's page does
    # not follow it while the old host still speaks to her.
    ap.wait_for_function(
        "p => (window.__crispWire || []).some(t => t.includes('\"standby\"') && t.includes(p))",
        arg=cleo_peer, timeout=T)
    standby = [json.loads(t) for t in ap.evaluate("window.__crispWire")
               if '"standby"' in t and cleo_peer in t][-1]
    real_id, mac = [w for w in standby["watchers"] if w["peer"] == cleo_peer][0]["moved"][0]
    assert real_id.startswith(room_id + "-h1-")
    answer = ap.evaluate(ATTACK, [cleo_peer, [json.dumps(
        {"type": "moved", "v": 1, "room": real_id, "mac": mac})]])
    assert answer["closed"] and answer["got"] == [], answer
    assert room_id + "-h1" not in cp.url and cp.locator(sel("seat-asked")).count() == 1

    # every seated page invites from the table's menu: the room's code, link and QR
    live(bp, "menu")
    bp.wait_for_selector(sel("menu-invite") + " " + sel("room-qr"), timeout=T)
    assert bp.inner_text(sel("menu-invite") + " " + sel("room-link")).endswith(room_id)
    assert bp.inner_text(sel("menu-invite") + " " + sel("lobby-code")).replace("-", "") \
        in room_id
    live(bp, "menu-close")

    hp.close()
    ap.wait_for_function("location.search.includes('host=%s-h1-')" % room_id, timeout=60_000)
    engine_ready(ap)                                  # the new host's engine runs the room
    took = time.monotonic()
    try:
        cp.wait_for_function("location.search.includes('room=%s-h1-')" % room_id,
                             timeout=T)
        cp.wait_for_selector(sel("spectator"), timeout=T)
        cp.wait_for_selector(sel("seat-1"), timeout=T)
    except Exception:
        print("CLEO:", "\n".join(t for k, t in cleo.console)[-4000:])
        print("ANA:", "\n".join(t for k, t in ana.console)[-4000:])
        raise
    again = time.monotonic() - took
    print("takeover -> the spectator watching the new host's table: %.1f s" % again)
    timings.setdefault("handover: takeover -> spectator watching again", []).append(again * 1000)
    # her seat request was made again at the new room: Ana, the host now, may approve it
    cp.wait_for_selector(sel("seat-asked"), timeout=T)
    ap.wait_for_selector(sel("approve-3"), timeout=T)
    # play goes on under Ana, and Cleo sees it
    for p in (ap, bp):
        p.wait_for_function("!document.querySelector('[data-testid=\"handover\"]')",
                            timeout=T)
    play_turn(ap, 1)
    cp.wait_for_selector(sel("seat-2", ".turn"), timeout=T)
    assert scores(cp, range(4)) == scores(bp, range(4))
    wait_crown(cp, 1)                 # the crown on Ana's seat, as the players see it (tester)
    # nothing she received carries a card she may not see (the wire tap has the attack's
    # texts too: left out)
    sent = {t for texts in attacks for t in texts}
    texts = [t for t in cp.evaluate("window.__crispWire") if t not in sent]
    moved = [json.loads(t) for t in texts if '"moved"' in t]
    assert moved and all(set(m) == {"type", "v", "room", "mac"} for m in moved)
    # (her page, dialing the old id again meanwhile, may hear the door's `elsewhere` first,
    # and the new host's `setup` while its engine starts: neither carries a card)
    assert assert_public_only([json.loads(t) for t in texts if t.startswith("{")
                               and '"moved"' not in t and '"elsewhere"' not in t
                               and not t.startswith('{"type":"setup"')]) >= 2
    live(ap, "approve-3")
    cp.wait_for_selector(sel("seat-3", ".me"), timeout=T)
    # Dani opens the room's first link from the group chat: nobody holds the first id but
    # the new host's door, which sends her page on to the room's id now; she watches there
    dani = phone(new_phone)
    dp = dani.page
    dp.goto(link)
    t0 = time.monotonic()
    try:
        dp.wait_for_function("location.search.includes('room=%s-h1-')" % room_id,
                             timeout=10_000)
        dp.wait_for_selector(sel("spectator"), timeout=T)
        dp.wait_for_selector(sel("seat-1"), timeout=T)
    except Exception:
        print("DANI:", "\n".join(t for k, t in dani.console)[-4000:])
        print("ANA:", "\n".join(t for k, t in ana.console)[-4000:])
        raise
    late = time.monotonic() - t0
    print("the first link after a handover -> watching the new host's table: %.1f s" % late)
    timings.setdefault("handover: first link -> watching", []).append(late * 1000)
    elsewhere = [json.loads(t) for t in dp.evaluate("window.__crispWire") if '"elsewhere"' in t]
    assert elsewhere and all(set(m) == {"type", "v", "room"} for m in elsewhere)
    assert scores(dp, range(4)) == scores(bp, range(4))
    # the new host invites from its menu too: the room's link where it is now
    live(ap, "menu")
    ap.wait_for_selector(sel("menu-invite"), timeout=T)
    assert "room=%s-h1-" % room_id in ap.inner_text(sel("menu-invite") + " " + sel("room-link"))
    no_errors(ana, bea, cleo, dani)


def test_a_reloaded_player_finds_its_seat_at_the_new_host(new_phone, timings):
    """A phone drops Bea's background tab (about:blank: nothing of the page runs); Hana's
    tab closes and Ana's page takes the room over at its next id. Bea opens her room link
    again: her page has only what it kept in storage (her token and the room's follow
    record), finds the old id empty, looks at the next ids, and lands in her own seat at
    Ana's room, with nobody tapping anything."""
    host, ana, bea, link, room_id = table_with_a_bot(new_phone)
    hp, ap, bp = host.page, ana.page, bea.page
    assert bp.evaluate("!!localStorage.getItem('crisp.follow.%s')" % room_id)
    bp.goto("about:blank")                            # the phone discards Bea's tab
    wait_away(hp, 2, timeout=20_000)
    wait_away(ap, 2, timeout=20_000)
    hp.close()                                        # ...and the host's tab closes
    ap.wait_for_function("location.search.includes('host=%s-h1-')" % room_id, timeout=60_000)
    engine_ready(ap)                                  # the new host's engine runs the room
    live(ap, "ready", timeout=T)                      # the round dealt again (Ana alone)

    t0 = time.monotonic()
    bp.goto(link)                                     # Bea comes back: the page reloads
    assert wait_ready(bp) == "micropython"
    back = time.monotonic() - t0 + back_in_seat(bp, 2, room_id, bea, ana)
    print("Bea's room link opened again -> seated at the new host: %.1f s" % back)
    timings.setdefault("reloaded after the handover: link opened -> seated at the new host",
                       []).append(back * 1000)
    new_id = re.search(r"room=([^&]+)", bp.url).group(1)
    assert bp.evaluate("!!localStorage.getItem('crisp.token.%s')" % new_id)
    assert bp.evaluate("!!localStorage.getItem('crisp.follow.%s')" % new_id)
    assert not bp.evaluate("localStorage.getItem('crisp.token.%s')" % room_id)
    ap.wait_for_selector(sel("seat-2", ":not(.away)"), timeout=T)
    assert "host=" not in bp.url                                 # it took nothing over
    assert bp.locator(sel("next-round")).count() == 0            # a player, not the host
    same_table(bp, ap)
    assert bp.locator(sel("seat-2") + " [data-card]").count() >= 2   # her peek, hers alone
    live(bp, "ready")
    # play goes on under Ana: someone's turn, on both pages
    for p in (ap, bp):
        p.wait_for_function(
            "!!document.querySelector('[data-testid^=\"seat-\"].turn')", timeout=T)
    no_errors(ana, bea)
