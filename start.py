# The page's entry script (boot.js: <script type="mpy" src="./start.py">). The page itself is
# ui/page/main.py, imported from the page's archive, where tools/build.py put it compiled to
# MicroPython bytecode (.mpy) with the rest of ui/: a script given as source would be compiled
# on the page's main thread first (ui/page/main.py alone is ~1,400 lines). boot.js writes the
# archive's files into the file system when asked (crisp.pageFiles, pagefiles.js), then calls
# back: the imports start there.
#
# The page's modules are imported a few per task, each after the modules it imports, in tasks
# after the one in which PyScript started MicroPython and ran its own Python: a task imports
# modules until it has taken IMPORT_BUDGET_MS, so no one task holds the page's main thread for
# all of them (~100-250 ms on a phone's CPU; a laptop imports them in one or two tasks).
# ui/page/main.py comes last; once imported it draws the page in a task of its own.
import js
from pyscript.ffi import create_proxy

# ui/page/main.py's imports, each after those it imports itself (tests/test_start.py checks the
# order against the sources)
MODULES = (
    "crisp_core.actions", "crisp_core.checks", "ui.shared.limits", "ui.shared.reactions",
    "ui.shared.wire",
    "ui.shared.handover", "ui.shared.spectator_moves", "ui.shared.follow",
    "ui.shared.comeback", "ui.shared.roomcode", "ui.shared.savedroom",
    "ui.shared.hostlife", "ui.shared.graphemes", "ui.shared.cleanname", "ui.shared.lastline",
    "ui.page.cues", "ui.page.i18n_lobby", "ui.page.i18n_table", "ui.page.i18n_events",
    "ui.page.i18n_connection", "ui.page.i18n_guided", "ui.page.i18n_rules",
    "ui.page.i18n_reactions", "ui.page.i18n",
    "crisp_core.cards", "ui.page.cards", "ui.page.guided", "crisp_core.guided",
    "ui.shared.proof", "ui.page.fairplay", "ui.page.watchers", "ui.page.client_page",
    "ui.page.presence", "ui.page.taps", "ui.shared.linkspeed", "ui.page.client_reactions",
    "ui.page.client_reveals",
    "ui.page.client_send", "ui.page.client_view", "ui.page.client_handover",
    "ui.page.client", "ui.page.vdom", "ui.page.memo", "ui.page.icons", "crisp_core.bot_faces",
    "ui.page.faces", "ui.page.viewmodel", "ui.page.status_line",
    "ui.page.results_model", "ui.page.table_model", "ui.page.intents", "ui.page.qr",
    "ui.page.eventlog", "ui.page.rules", "ui.page.widgets",
    "ui.page.watch_screens", "ui.page.netscreens",
    "ui.page.banner", "ui.page.results", "ui.page.solo_button", "ui.page.guided_screens",
    "ui.page.reaction_view", "ui.page.statusbar", "ui.page.table", "ui.page.exit_screens",
    "ui.page.invite", "ui.page.join_screen", "ui.page.landing_screen", "ui.page.lobby_screen",
    "ui.page.screens",
    "ui.page.sound", "ui.page.storage", "ui.page.flights", "ui.page.redraw", "ui.page.screen_input", "ui.page.render",
    "ui.page.netcheck", "ui.page.link_signal", "ui.page.link",
    "ui.shared.gate", "ui.page.browser", "ui.page.webrtc", "ui.page.net", "ui.page.net_host", "ui.page.textlimit",
    "ui.page.net_guest", "ui.shared.door", "ui.page.net_door", "ui.page.enginewatch",
    "ui.page.enginelink", "ui.page.early",
    "ui.page.guest_phase", "ui.page.room_commands", "ui.page.base_page",
    "ui.page.host_phase", "ui.page.saved_rooms", "ui.page.lookout", "ui.page.host_saves",
    "ui.page.host_transport", "ui.page.host_replies", "ui.page.host_moved", "ui.page.host_page",
    "ui.page.guest_succession",
    "ui.page.guest_page", "ui.page.own_room_page", "ui.page.main",
)
IMPORT_BUDGET_MS = 30
_next = [0]


def _import_some(*args):
    """Import the next modules of MODULES until this task has taken IMPORT_BUDGET_MS (one at
    least), then go on in a task of its own; ui.page.main, last, runs the page as it is imported."""
    start = js.performance.now()
    try:
        while _next[0] < len(MODULES):
            __import__(MODULES[_next[0]])
            _next[0] += 1
            if js.performance.now() - start >= IMPORT_BUDGET_MS:
                break
    except Exception as e:
        try:
            js.crisp.failed("%s: %s" % (type(e).__name__, e))
        except Exception:
            pass
        raise
    if _next[0] < len(MODULES):
        js.setTimeout(_IMPORT, 0)


_IMPORT = create_proxy(_import_some)
# the modules' files first (boot.js writes them into the file system, then calls back)
js.crisp.pageFiles(_IMPORT)
