"""Fair play anyone can check, in real pages (docs/protocol.md "Verifiable shuffle"): the
host commits to a secret before the deal, each guest's page mixes in 16 random bytes from
crypto.getRandomValues, and at the end of the round every page replays the round with the
engine (MicroPython on guests) and shows `round-verified`; the saved record checks out with
`python3 -m crisp_core.verify`. A host made to cheat (the test build's `?cheat=`) is caught
by its guests: `round-mismatch`, naming what did not match."""

import os
import subprocess
import sys

from crisp_rooms import join_room, no_errors, open_room
from test_lobby_bot import play_round
from crisp_e2e import T, live, sel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def verify_download(page, tmp_path, name):
    """Save the round's record from the results sheet; run the command line on it."""
    if page.locator(sel("fair-details")).count() and not page.is_visible(sel("save-record")):
        page.click(sel("fair-details"))          # the one-line check opens to its details
    with page.expect_download(timeout=T) as info:
        page.click(sel("save-record"))
    path = tmp_path / name
    info.value.save_as(str(path))
    return subprocess.run([sys.executable, "-m", "crisp_core.verify", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_every_page_verifies_an_honest_round_and_the_record_checks_out(new_phone, tmp_path):
    host, link = open_room(new_phone, "Hana")
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, (hp,))
    bea = join_room(new_phone, link, "Bea", 2, (hp, ana.page))
    live(hp, "start-game")
    pages = [(hp, 0), (ana.page, 1), (bea.page, 2)]
    play_round(pages, {ana.page: 2})
    for page, _ in pages:
        page.wait_for_selector(sel("round-verified"), timeout=T)
        assert page.locator(sel("round-mismatch")).count() == 0
    proc = verify_download(bea.page, tmp_path, "bea.json")
    assert proc.returncode == 0 and proc.stdout.startswith("round-verified"), proc.stdout
    assert "contributions from seats 1, 2" in proc.stdout
    # the next round has its own commitment, and checks out again
    live(hp, "next-round")
    for page, _ in pages:             # round 1's results gone, or play_round takes them as
        page.wait_for_selector(sel("round-results"), state="detached", timeout=T)   # round 2's
    play_round(pages, {bea.page: 1})
    for page, _ in pages:
        page.wait_for_selector(sel("round-verified"), timeout=T)
    no_errors(host, ana, bea)


def test_a_host_that_cheats_after_committing_is_caught_by_its_guests(new_phone, tmp_path):
    host, link = open_room(new_phone, "Hana", "?cheat=hand")
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, (hp,))
    bea = join_room(new_phone, link, "Bea", 2, (hp, ana.page))
    live(hp, "start-game")
    play_round([(hp, 0), (ana.page, 1), (bea.page, 2)], {ana.page: 2})
    for guest in (ana.page, bea.page):
        guest.wait_for_selector(sel("round-mismatch"), timeout=T)
        assert guest.locator(sel("round-verified")).count() == 0
        what = guest.get_attribute(sel("round-mismatch"), "data-what")
        assert what in ("hands", "discard", "draw", "log"), what
        assert "NOT dealt fairly" in guest.inner_text(sel("round-mismatch"))
    proc = verify_download(ana.page, tmp_path, "ana.json")
    assert proc.returncode == 1 and proc.stdout.startswith("round-mismatch"), proc.stdout
    no_errors(ana, bea)
