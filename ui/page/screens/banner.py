"""The connection banner over every screen: what the page's phase and the host's presence
(the Client's `status`, `host_lost` and `pause`, from ui/page/net/link.py's one signal) say now.

`connection_banner(model, ctx, ui)` looks the banner up in a table from (phase, signal)
(`PAIRS`, `PHASES`, `SIGNALS`) and draws it (`BANNER_TREES`). Pure: runs on MicroPython,
Pyodide and CPython (tests).
"""

from ui.page.screens import netscreens
from ui.page.client.client import VERSION as PROTOCOL
from ui.page.dom.vdom import h, isolate
from ui.page.screens.viewmodel import SECOND, pause_of, player_list, read, seat_name, secs
from ui.page.screens.widgets import button, leave_button
from ui.page.screens.room_words import host_said, left_words, silent_words


def host_gone_panel(model, ctx, ui):
    """The host counts as gone (ui/page/net/link.py `host_lost`): the player chooses to keep waiting
    or to leave; after `keep-waiting` the banner stays, with `leave` still at hand."""
    if ui.get("keep_waiting"):
        return h("div", {"class": "banner host_gone", "data-testid": "connection",
                         "role": "status"}, host_said(model, ctx, "conn_host_gone"), " ",
                 button(ctx, "leave", ctx.t("leave_game"), ("intent", "leave", {}), "btn small"))
    return h("div", {"class": "banner host_gone host-gone", "data-testid": "host-gone",
                     "role": "alertdialog"},
             h("p", None, host_said(model, ctx, "host_gone_title")),
             h("div", {"class": "row"},
               button(ctx, "keep-waiting", ctx.t("keep_waiting"),
                      ("local", "keep_waiting"), "btn primary"),
               button(ctx, "leave", ctx.t("leave_game"), ("intent", "leave", {}), "btn")))


# The steps of the engine worker's start (engine-worker.js `progress` stages), each said in
# its own words by the engine-progress banner (i18n "engine_<stage>").
ENGINE_STAGES = ("download", "compile", "python", "engine")


def banner_phase(model):
    """The page's phase, as the connection banner sees it: "no_webrtc" (this browser cannot
    connect to anyone), "coming_back" (a page taking its seat back: a reload, a phone
    back), "engine" (the host waits for its engine), "version_clash" (the host's page runs another version), "restarting" (the host's
    engine restarts from the room's last save), "handing_over", "hosting", "table" (a seated
    player at a game), or "room" (a guest anywhere else: joining, the lobby, watching,
    looking for the room)."""
    if read(model, "status") == "no_webrtc":
        return "no_webrtc"
    if read(model, "engine_wait") is not None:
        return "engine"
    if isinstance(read(model, "version_clash"), dict):
        return "version_clash"
    if read(model, "restarting", False):
        return "restarting"
    if isinstance(read(model, "handover"), dict):
        return "handing_over"
    if read(model, "is_host", False):
        return "hosting"
    if read(model, "screen") == "table" and read(model, "seat") is not None:
        return "table"
    if read(model, "screen") == "join" and read(model, "token"):
        return "coming_back"
    return "room"


def banner_signal(model):
    """The host's presence as the banner sees it (the Client's `set_link`): "lost" (the host
    counts as gone), "silent" (the game paused, the host not answering), "setting_up" (not
    seated yet here, and the host's page says its engine still starts: ui/page/host/early.py), or
    the status."""
    status = read(model, "status", "ok")
    # (this phone's own network down, "reconnecting": whether the host is gone, it cannot know)
    if read(model, "host_lost", False) and status not in ("host_unverified", "unreachable",
                                                          "reconnecting"):
        return "lost"
    if status in ("connecting", "reconnecting", "host_paused") \
            and isinstance(read(model, "setup"), dict):
        # the host's page says its table is being set up (a seated guest whose own link is
        # up reads the lost channel as host_paused: the host answering `setup` is back)
        return "setting_up"
    if status in ("host_gone", "host_paused") and pause_of(model).since is not None:
        return "silent"
    return status


# The table from (phase, signal) to banner, looked up in this order: a pair of its own
# (PAIRS), else the phase's banner whatever the signal (PHASES), else the signal's in any
# phase (SIGNALS); none found: no banner.
PAIRS = {("hosting", "connecting"): "host_offline", ("hosting", "reconnecting"): "host_offline",
         ("table", "silent"): "host_silent"}
# A page taking its seat back (a reload: off the signaling server until its Peer opens) says
# so on its own screen, not as a lost connection; a gone host or no room is still said
COMING_BACK_QUIET = ("connecting", "reconnecting", "host_paused")
PHASES = {"no_webrtc": "no_webrtc", "engine": "engine", "version_clash": "version_clash",
          "restarting": "restarting", "handing_over": "handover",
          "hosting": "network"}        # (a friend whose connection never opens, or none)
SIGNALS = {"unreachable": "network",   # the network's fault, not the host's
           "lost": "host_gone", "no_room": "no_room", "host_unverified": "host_unverified",
           "bad_link": "no_room", "setting_up": "setting_up"}
for _said in ("silent", "connecting", "reconnecting", "host_gone", "host_paused", "looking"):
    SIGNALS[_said] = "status"          # said in words: conn_<status>


def banner_for(phase, signal):
    """The banner's name for (phase, signal) (PAIRS, PHASES, SIGNALS), or "none"."""
    if phase == "coming_back" and signal in COMING_BACK_QUIET:
        return "none"
    if (phase, signal) in PAIRS:
        return PAIRS[(phase, signal)]
    return PHASES.get(phase) or SIGNALS.get(signal) or "none"


def connection_banner(model, ctx, ui=None):
    """The banner over every screen: what the page and the host's presence say now; with
    nothing to say, for a few seconds after a handover, who the new host is (`new_host_note`),
    else that this page has no TURN relay (`no_relay_note`)."""
    name = banner_for(banner_phase(model), banner_signal(model))
    draw = BANNER_TREES.get(name)
    node = draw(model, ctx, ui if ui is not None else {}) if draw is not None else None
    if node is None:
        node = new_host_note(model, ctx)
    return node if node is not None else netscreens.no_relay_note(model, ctx)


def new_host_note(model, ctx):
    """"Ana is the new host" ("You are the new host now" on hers), es and en, on every screen
    of the table for NEW_HOST_MS after a handover went through (the Client's `new_host`),
    the name the crowned seat's; a note (`new-host`), not a banner: the game goes on. None
    otherwise."""
    note = read(model, "new_host")
    if not isinstance(note, dict) or not ctx.before(note.get("until", 0)) \
            or read(model, "screen") != "table":
        return None
    players = player_list(model)
    seat = note.get("seat")
    if not note.get("me") and seat not in players:
        return None
    name = None if note.get("me") else seat_name(players, seat, ctx)
    text = left_words(model, ctx, note, "new_host", name)     # "Fay left: Eva hosts now."
    if text is None:
        text = ctx.t("new_host_me") if note.get("me") else ctx.t("new_host_other", name=name)
    return h("div", {"class": "banner new-host", "data-testid": "new-host", "role": "status"},
             text)


def engine_banner(model, ctx, ui):
    """The host asked for something the engine does (Start, Play solo, a resumed room) while
    it still starts in its worker: how far it has come, that it takes long (still waiting,
    with Retry: `engine_slow`), or that it failed (Retry)."""
    wait = read(model, "engine_wait")
    stage = read(model, "engine_stage")
    if wait < 0:
        # ("update": a new version of the game replaced this page's while it was open)
        return h("div", {"class": "banner host_gone", "data-testid": "engine-progress",
                         "role": "alert", "data-stage": "update" if stage == "update"
                         else None},
                 ctx.t("engine_update" if stage == "update" else "engine_failed"), " ",
                 button(ctx, "engine-retry", ctx.t("retry"),
                        ("intent", "retry_engine", {}), "btn"))
    if read(model, "engine_slow", False):
        # no progress for a while (hostlife.engine_verdict): still waiting, Retry offered
        return h("div", {"class": "banner connecting", "data-testid": "engine-progress",
                         "role": "status", "data-stage": stage if stage in ENGINE_STAGES
                         else None, "data-slow": "true"},
                 ctx.t("engine_slow", pct=wait), " ",
                 button(ctx, "engine-retry", ctx.t("retry"),
                        ("intent", "retry_engine", {}), "btn"))
    key = "engine_" + stage if stage in ENGINE_STAGES else "engine_loading"
    return h("div", {"class": "banner connecting", "data-testid": "engine-progress",
                     "role": "status", "data-stage": stage if key != "engine_loading"
                     else None}, ctx.t(key, pct=wait))


def setup_banner(model, ctx, ui):
    """A guest's banner while the host's page says its table is being set up (its engine
    starts: ui/page/host/early.py): "Hana is setting up the table…", or after a host's reload
    "Hana is back, setting up…"."""
    setup = read(model, "setup")
    return h("div", {"class": "banner connecting", "data-testid": "setting-up",
                     "role": "status"},
             ctx.t("conn_back_setting_up" if setup.get("back") else "conn_setting_up",
                   host=isolate(setup.get("host")) if setup.get("host") else "?"))


def version_banner(model, ctx, ui):
    """The host's page runs another version of the game (docs/decisions.md "One page runs one build"): whose page must
    reload, with the way to it when it is this one."""
    clash = read(model, "version_clash")
    newer = isinstance(clash.get("host"), int) and clash["host"] > PROTOCOL
    key = "version_newer" if newer else "version_older"
    # without the host's name, texts of their own: "ask the host to reload", never a name
    # slot filled with a capitalised "The host" mid-sentence
    said = (ctx.t(key, name=isolate(clash["name"])) if clash.get("name")
            else ctx.t(key + "_unnamed"))
    return h("div", {"class": "banner host_gone", "data-testid": "version-clash",
                     "data-newer": "host" if newer else "me", "role": "alert"},
             said, " ",
             button(ctx, "reload", ctx.t("reload"), ("intent", "reload", {}), "btn")
             if newer else None)


def restarting_banner(model, ctx, ui):
    """The host's engine died and restarts from the room's last save
    (ui/page/host/enginewatch.py)."""
    host = read(model, "host_seat", 0)
    name = seat_name(player_list(model), host, ctx) if host in player_list(model) else "?"
    return h("div", {"class": "banner connecting", "data-testid": "restarting",
                     "role": "status"},
             ctx.t("conn_restarting_me" if read(model, "is_host", False)
                   else "conn_restarting", name=name))


def handover_banner(model, ctx, ui):
    """The room moves to its next host (docs/protocol.md "Host handover"): who hosts now
    (the crown is on that seat already); the table stays as it was meanwhile, paused, with
    `leave` at hand."""
    moving = read(model, "handover")
    left = None if moving.get("failed") else left_words(model, ctx, moving, "handover",
                                                         moving.get("name"))
    if moving.get("failed"):
        text = ctx.t("handover_failed")
    elif left is not None:
        text = left                     # the old host said it leaves: told as a leave
    elif moving.get("me"):
        text = ctx.t("handover_me")
    else:
        text = ctx.t("handover_other", name=moving.get("name") or "?")
    return h("div", {"class": "banner connecting", "data-testid": "handover",
                     "role": "status"}, text, " ", leave_button(ctx))


def host_silent_banner(model, ctx, ui):
    """The game paused at the table: the host's phone is not answering, named, with the
    seconds left before the room moves to its next host, named (room_words.silent_words;
    the host's seat shows away)."""
    pause = pause_of(model)
    seat = pause.seat if pause.seat is not None else read(model, "host_seat", 0)
    name = seat_name(player_list(model), seat, ctx)
    gone_at = pause.gone_at
    left = secs(ctx.until(gone_at, SECOND)) if gone_at is not None else 0
    return h("div", {"class": "banner host_paused", "data-testid": "connection",
                     "role": "status"}, silent_words(model, ctx, seat, name, left))


def host_offline_banner(model, ctx, ui):
    """The host is the room: play goes on over the open data channels while only its
    signaling server is out of reach. Said discreetly."""
    return h("div", {"class": "banner host-note", "data-testid": "connection",
                     "role": "status"}, ctx.t("conn_host_offline"))


def no_room_banner(model, ctx, ui):
    """A mistyped or ended link (no_room: nothing answers; the page keeps trying) or one
    that cannot name a room (bad_link): said, with what to do and the way back."""
    bad = read(model, "status") == "bad_link"
    return h("div", {"class": "banner host_gone", "data-testid": "connection",
                     "data-status": "bad_link" if bad else "no_room",
                     "role": "status"}, ctx.t("conn_bad_link" if bad else "conn_no_room"), " ",
             button(ctx, "leave", ctx.t("back_to_start"), ("intent", "leave", {}), "btn"))


def unverified_banner(model, ctx, ui):
    """The peer at the room id failed the seat proof: nothing it sent is shown; the screen
    keeps what the real host last showed, under this warning."""
    return h("div", {"class": "banner host_unverified", "data-testid": "host-unverified",
                     "role": "alert"}, ctx.t("conn_host_unverified"))


def status_banner(model, ctx, ui):
    """The connection's state in words (ui/page/i18n/i18n.py "conn_<status>"; in a lobby the host's
    silence is not a paused game: "conn_host_paused_lobby")."""
    st = read(model, "status", "ok")
    key = "conn_" + st
    if st == "host_paused" and read(model, "screen") == "lobby":
        key = "conn_host_paused_lobby"
    return h("div", {"class": "banner " + st, "data-testid": "connection", "role": "status"},
             host_said(model, ctx, key))


def network_banner(model, ctx, ui):
    """The network's fault, not the host's (ui/page/screens/netscreens.py): this guest cannot reach
    the host that answers, or (the host) a friend's connection never opens; or none."""
    return netscreens.network_banner(model, ctx, leave_button(ctx))


def no_webrtc_banner(model, ctx, ui):
    """This browser cannot connect to anyone (ui/page/screens/netscreens.py)."""
    return netscreens.no_webrtc_note(model, ctx)


BANNER_TREES = {"no_webrtc": no_webrtc_banner, "network": network_banner,
                "engine": engine_banner, "version_clash": version_banner,
                "restarting": restarting_banner, "handover": handover_banner,
                "host_silent": host_silent_banner, "host_offline": host_offline_banner,
                "host_gone": host_gone_panel, "no_room": no_room_banner,
                "host_unverified": unverified_banner, "status": status_banner,
                "setting_up": setup_banner}
