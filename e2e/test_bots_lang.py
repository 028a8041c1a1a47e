"""Bots keep the names of the room's language (issue 20, "bots with names, per language";
crisp_core/bot_names.py) when the room is made again: a Spanish host's room re-created from
its draft (the page reloaded before the engine saved the room) and from its save names its
bots in Spanish, and after a host handover the bots keep their Spanish names on every
screen while each page tells their moves in its own language.

A bot's name comes from the room's language (`room.lang`: the host page's, kept in the
draft, the save and through a handover: ui/worker/engine.py); English is the default, so a
language lost on the way shows as English names here.
"""

import json
import secrets
import time

from crisp_core.bot_names import NAMES, bot_name, first_name
from crisp_e2e import engine_ready, wait_ready
from crisp_rooms import join_room, no_errors, open_room, phone
from test_handover import play_turn
from crisp_e2e import T, live, sel
from ui.shared import hostlife, savedroom

ES = {"locale": "es-ES"}
EN = {"locale": "en-US"}


def es_bot(seat, taken):
    """The Spanish name of a new bot at `seat` among the names `taken` (the room's rule)."""
    return bot_name("es", seat, taken)


def players(page):
    return page.inner_text(sel("player-list"))


def no_english_bot(text):
    return not [n for n in NAMES["en"] if n in text]


def add_bots(page, seats):
    for seat in seats:
        live(page, "add-bot")
        page.wait_for_selector(sel("player-%d" % seat), timeout=T)


def test_a_spanish_rooms_bots_are_spanish_after_its_draft_and_its_save_are_restored(new_phone):
    host = phone(new_phone, tap=False, context=ES)
    page = host.page
    page.goto(host.site.url("/"))
    assert wait_ready(page) == "micropython"
    # the draft a Spanish host's page saves the moment it creates a room (before its
    # engine runs), as if the page had reloaded before the engine saved the room itself
    room_id = hostlife.new_room_id(secrets.token_hex(8))
    draft = savedroom.draft(room_id, "Hana", None, None, "es")
    page.evaluate("([id, text]) => { localStorage.setItem('crisp.room.' + id, text);"
                  " localStorage.setItem('crisp.host.room', id); }",
                  [room_id, json.dumps(draft)])
    page.goto(host.site.url("/?host=" + room_id))
    assert wait_ready(page) == "micropython"
    page.wait_for_selector(sel("room-link"), timeout=T)
    engine_ready(page)
    assert room_id in page.inner_text(sel("room-link")) or \
        room_id[len("crisp-"):] in page.inner_text(sel("room-link"))
    add_bots(page, (1, 2))
    first = es_bot(1, ["Hana"])
    second = es_bot(2, ["Hana", first])
    text = players(page)
    assert first_name(first) in text and first_name(second) in text, text
    assert no_english_bot(text), text
    assert "bot \u00b7 f\u00e1cil" in text.lower()          # the page speaks Spanish
    # the page reloads again: the room comes back from its save, the bots with their names,
    # and a bot added now is Spanish too
    page.reload()
    assert wait_ready(page) == "micropython"
    page.wait_for_selector(sel("player-2"), timeout=T)
    engine_ready(page)
    text = players(page)
    assert first_name(first) in text and first_name(second) in text, text
    add_bots(page, (3,))
    third = es_bot(3, ["Hana", first, second])
    page.wait_for_function("t => document.querySelector('[data-testid=\"player-3\"]')"
                           ".innerText.includes(t)", arg=first_name(third), timeout=T)
    assert no_english_bot(players(page))
    no_errors(host)


def log_lines(page):
    return page.evaluate("[...document.querySelectorAll('[data-testid=\"event-log\"] li')]"
                         ".map(li => li.innerText)")


def log_shows(page, words):
    """Whether a line of the page's event log holds every one of `words`."""
    return any(all(w in line for w in words) for line in log_lines(page))


def test_after_a_handover_the_bots_keep_their_spanish_names_and_each_page_its_words(
        new_phone):
    # Hana hosts in Spanish, Ana (her successor) reads Spanish, Bea English; two bots
    host, link = open_room(new_phone, "Hana", query="?botpace=0.2", context=ES)
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, (hp,), context=ES)
    bea = join_room(new_phone, link, "Bea", 2, (hp,), context=EN)
    ap, bp = ana.page, bea.page
    add_bots(hp, (3, 4))
    people = ["Hana", "Ana", "Bea"]
    sofia = es_bot(3, people)
    pablo = es_bot(4, people + [sofia])
    for p in (hp, ap, bp):
        p.wait_for_selector(sel("player-4"), timeout=T)
        text = players(p)
        assert first_name(sofia) in text and first_name(pablo) in text, text
        assert no_english_bot(text), text
    live(hp, "start-game")
    for p in (hp, ap, bp):
        live(p, "ready")
    ap.wait_for_selector(sel("deck", ":not([disabled])"), timeout=T)      # Ana's turn
    for p in (ap, bp):
        p.wait_for_function(
            "(window.__crispWire || []).some(t => t.includes('\"sealed\"'))", timeout=T)
    # Hana leaves through her menu: the room is handed over to Ana's page at once
    live(hp, "menu")
    live(hp, "menu-leave")
    live(hp, "menu-leave-confirm")
    ap.wait_for_function("location.search.includes('host=') && location.search.includes('-h1')",
                         timeout=T)
    for p in (ap, bp):
        p.wait_for_function(
            "!document.querySelector('[data-testid=\"handover\"]')"
            " && !!document.querySelector('[data-testid=\"seat-4\"]')", timeout=T)
    # the bots' seats still carry their Spanish names on both screens
    for p in (ap, bp):
        for seat, name in ((3, sofia), (4, pablo)):
            p.wait_for_function(
                "([s, n]) => (document.querySelector('[data-testid=\"seat-' + s + '\"]')"
                " || {innerText: ''}).innerText.includes(n)", arg=[seat, first_name(name)],
                timeout=T)
    # they play on under Ana: each page tells the bots' moves in its own words
    seen = {"es": (first_name(sofia), " ha "), "en": (first_name(sofia), " drew ")}
    deadline = time.monotonic() + 120
    while not (log_shows(ap, seen["es"]) and log_shows(bp, seen["en"])):
        assert time.monotonic() < deadline, (log_lines(ap), log_lines(bp))
        played = False
        for p, seat in ((ap, 1), (bp, 2)):
            if p.locator(sel("ready", ":not([disabled])")).count():
                live(p, "ready")                      # (a box sealed during the peek)
                played = True
            elif p.locator(sel("deck", ":not([disabled])")).count():
                play_turn(p, seat)
                played = True
        if not played:
            ap.wait_for_timeout(200)                  # (a poll: the bots play meanwhile)
    no_errors(ana, bea)
