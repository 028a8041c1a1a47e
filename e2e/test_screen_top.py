"""A new screen opens at its top, on a 360 x 640 phone, through the real pages (issue 20
item 3): the host scrolls the landing down, creates a room, adds a bot and starts; the lobby
and then the table show from their top (window.scrollY == 0), not where the landing was left.
"""

from crisp_e2e import engine_ready, wait_ready
from crisp_e2e import T, live, sel

SMALL = {"width": 360, "height": 640}
TOP = "(s) => document.querySelector(s).getBoundingClientRect().top"

# Does the Start bar (its box) overlap the element `s` on the screen, as the page shows now?
COVERS = """(s) => {
  const a = document.querySelector('.lobby .start').getBoundingClientRect();
  const b = document.querySelector(s).getBoundingClientRect();
  return a.top < b.bottom && b.top < a.bottom && a.left < b.right && b.left < a.right;
}"""


def bottom(page, testid):
    """The bottom edge of a control, in px from the top of the page as it shows now."""
    return page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().bottom",
                         sel(testid))


def test_each_new_screen_opens_at_its_top(new_phone):
    host = new_phone(reduced_motion="reduce", viewport=SMALL)
    hp = host.page
    hp.goto(host.site.url("/?seed=21&botpace=0.2"))
    assert wait_ready(hp) == "micropython"
    hp.fill(sel("player-name"), "Hana")
    create = bottom(hp, "create-room")
    print("landing: create-room bottom", create)
    assert create <= 640, "Create room is below the first screen"
    hp.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    assert hp.evaluate("() => window.scrollY") > 100       # the landing, left scrolled down
    live(hp, "create-room")
    hp.wait_for_selector(sel("room-link"), timeout=T)
    hp.wait_for_timeout(300)
    assert hp.evaluate("() => window.scrollY") == 0, "the lobby kept the landing's scroll"
    engine_ready(hp)
    for part in ('[data-testid="player-0"]', '.lobby .options'):      # alone: Start is idle
        assert not hp.evaluate(COVERS, part), "the idle Start bar covers " + part
    live(hp, "add-bot")
    hp.wait_for_selector(sel("player-1"), timeout=T)
    hp.evaluate("() => window.scrollTo(0, 0)")
    start = bottom(hp, "start-game")
    players = hp.evaluate("() => document.querySelector('[data-testid=\"player-list\"]')"
                          ".closest('.card-box').getBoundingClientRect().bottom")
    print("lobby: start-game bottom", start, "player-list bottom", players)
    assert start <= 640, "the host's Start is below the first screen"
    assert 0 <= hp.evaluate(TOP, sel("start-game")) - players <= 40, "Start is not under the list"
    hp.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    live(hp, "start-game")
    hp.wait_for_selector('[data-screen="table"]', timeout=T)
    hp.wait_for_timeout(300)
    assert hp.evaluate("() => window.scrollY") == 0, "the table kept the lobby's scroll"
