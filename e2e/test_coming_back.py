"""A reloaded guest page takes its seat back with "Coming back to the table" and nothing else: no
invitation form to type into, no live "Join the room", no red "connection lost" (before: the
form and "Connection lost: reconnecting..." for about a second). Every screen element it ever
draws from the reload on is recorded by a MutationObserver (however briefly it shows)."""

from crisp_e2e import T, sel, wait_ready
from crisp_rooms import join_room, no_errors, open_room

SEEN = """
window.__seen = [];
new MutationObserver(() => {
  for (const id of ['join-room', 'player-name', 'connection', 'coming-back']) {
    const el = document.querySelector('#app [data-testid="' + id + '"]');
    if (el && !window.__seen.includes(id)) window.__seen.push(id);
  }
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""


def test_a_reloaded_guest_comes_back_to_its_seat_without_the_form_or_an_alarm(new_phone):
    host, link = open_room(new_phone, "Hana")
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, (hp,), init=SEEN)
    ap = ana.page
    ap.wait_for_selector(sel("lobby-waiting"), timeout=T)
    ap.reload()
    assert wait_ready(ap) == "micropython"
    ap.wait_for_selector(sel("lobby-waiting"), timeout=T)     # back in the room, seated
    seen = ap.evaluate("window.__seen")
    assert "join-room" not in seen and "player-name" not in seen, seen
    assert "connection" not in seen, seen
    assert "coming-back" in seen, seen
    no_errors(host, ana)
