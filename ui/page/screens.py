"""The screens: landing, join, lobby, the way out, and `build`, which picks one for the model.

`build(model, ui, ctx)` turns the Client model (docs/protocol.md) plus this screen's own small
state `ui` into a tree (ui/page/vdom.py), collecting in `ctx` what each live element does; the table
itself is ui/page/table.py. Names and every other text go into text nodes, so a name such as
`<img src=x onerror=alert(1)>` shows exactly as typed. Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from ui.page import guided_screens
from ui.page import i18n
from ui.page import netscreens
from ui.page import qr
from ui.page import watch_screens
from ui.shared import roomcode
from ui.shared.limits import MAX_PLAYERS
from ui.page.banner import ENGINE_STAGES, connection_banner  # noqa: F401 (main.py's)
from ui.page.results import tally
from ui.page.solo_button import solo_button
from ui.page.table import table_tree
from ui.page.vdom import h, isolate, keyed
from ui.page.viewmodel import player_list, read, room_role, says_you, seat_name
from ui.page.widgets import button, decor, has_name, name_input, rules_text, select, topbar

COPIED_MS = 2000


def error_toast(model, ctx):
    err = read(model, "error")
    if not err or (read(model, "screen") == "join" and read(model, "name_error")):
        return None             # (a refused name is said on the join screen itself)
    code = err.get("code") if isinstance(err, dict) else None
    msg = ctx.t("err_" + code) if (code and i18n.has(ctx.lang, "err_" + code)) else None
    if msg is None:
        msg = (err.get("text") if isinstance(err, dict) else str(err)) or ctx.t("err_generic")
    return h("div", {"class": "toast", "data-testid": "error", "role": "alert"}, msg)


def build(model, ui, ctx):
    """The whole page for the model: a tree (one root node). Acts are collected in ctx."""
    screen = read(model, "screen", "landing")
    title = sub = None
    if screen == "join":
        body = join_tree(model, ui, ctx)
    elif screen == "lobby":
        body = lobby_tree(model, ui, ctx)
    elif screen == "table":
        body = table_tree(model, ui, ctx)
        view = read(model, "view", {}) or {}
        title = ctx.t("round_n", n=view.get("round", 1))
        target = (view.get("options") or {}).get("target")
        if target:
            sub = ctx.t("to_target", n=target)
    elif screen == "gone":
        body = gone_tree(model, ui, ctx)
    elif screen == "own_room":
        body = own_room_tree(model, ui, ctx)
    else:
        screen = "landing"
        body = landing_tree(model, ui, ctx)
    in_room = None
    if screen in ("lobby", "table"):
        in_room = room_role(model)
    # Keyed parts: the connection banner coming or going must not shift the screen's body
    # to another index (that redrew the join panel, and its name field lost focus and the
    # phone's keyboard as the player typed). A new screen is a new body.
    return h("div", {"class": "screen screen-" + screen, "data-screen": screen},
             keyed(topbar(ui, ctx, title, in_room, sub), "top"),
             keyed(connection_banner(model, ctx, ui), "conn"),
             keyed(storage_note(ui, ctx), "store"),
             keyed(redealt_note(model, ctx) if screen == "table" else None, "redealt"),
             keyed(watch_screens.took_note(model, ctx) if screen == "table" else None, "took"),
             keyed(watch_screens.watchers_line(model, ctx) if screen in ("lobby", "table")
                   else None, "watchers"),
             keyed(body, "body:" + screen),
             keyed(None if screen == "gone" else error_toast(model, ctx), "toast"))


def storage_note(ui, ctx):
    """One line on every screen while the browser keeps nothing (storage refused or full,
    ui/page/storage.py `state`): the game goes on, but a reload would lose the seat."""
    if ui.get("storage", "ok") == "ok":
        return None
    return h("p", {"class": "hint note-warn storage-note", "data-testid": "storage-note",
                   "role": "note"}, ctx.t("storage_note"))


def redealt_note(model, ctx):
    """Why the round starts over (a host handover that could not open the sealed room deals
    the interrupted round again, docs/protocol.md "Host handover"): while that round lasts."""
    n = read(model, "redealt")
    view = read(model, "view", {}) or {}
    if not isinstance(n, int) or view.get("round") != n or view.get("phase") not in (
            "peek", "play", "last_turns"):
        return None
    return h("p", {"class": "hint note-warn", "data-testid": "redealt", "role": "note"},
             ctx.t("redealt", n=n))


def resume_box(model, ctx):
    """The host's saved game, offered on the landing: resume it, or abandon it."""
    saved = read(model, "resume")
    if not isinstance(saved, dict):
        return None
    names = ", ".join([isolate(n) for n in saved.get("names") or [] if n])
    return h("section", {"class": "card-box resume", "data-testid": "resume"},
             h("h2", None, ctx.t("resume_title")),
             h("p", {"class": "hint"}, ctx.t("resume_hint", names=names)),
             h("div", {"class": "row"},
               button(ctx, "resume-room", ctx.t("resume_room"),
                      ("intent", "resume_room", {}), "btn primary big"),
               button(ctx, "abandon-room", ctx.t("abandon_room"),
                      ("intent", "abandon_room", {}), "btn")))


def landing_tree(model, ui, ctx):
    ok = has_name(ui)
    bots = [(i, str(i)) for i in range(1, MAX_PLAYERS)]
    levels = [("easy", ctx.t("level_easy")), ("hard", ctx.t("level_hard"))]
    # keyed: the resume offer coming or going never redraws the name field being typed in
    return h("main", {"class": "panel landing"},
             keyed(h("div", {"class": "hero"},
                     h("div", {"class": "fan"},
                       decor("Qh", "f1"), decor(None, "f2"), decor("7s", "f3")),
                     h("p", {"class": "tagline"}, ctx.t("tagline"))), "hero"),
             keyed(guided_screens.offer_box(model, ui, ctx), "guided"),
             keyed(resume_box(model, ctx), "resume"),
             keyed(save_refused(model, ctx), "refused"),
             keyed(name_input(ui, ctx), "name"),
             keyed(netscreens.friends_box(model, ctx, ok), "friends"),
             keyed(code_box(ui, ctx) if read(model, "webrtc", True) is not False else None,
                   "code"),
             keyed(h("section", {"class": "card-box"},
               h("h2", None, ctx.t("solo")),
               h("div", {"class": "row pickers"},
                 h("label", {"class": "field inline"}, h("span", None, ctx.t("bots")),
                   select(ctx, "solo-bots", bots, ui.get("bots", 3), ("field", "bots"))),
                 h("label", {"class": "field inline"}, h("span", None, ctx.t("level")),
                   select(ctx, "solo-level", levels, ui.get("level", "easy"), ("field", "level"))),
                 h("label", {"class": "field inline"}, h("span", None, ctx.t("opt_target")),
                   select(ctx, "solo-target", [(v, str(v)) for v in (50, 100, 150)],
                          ui.get("target", 100), ("field", "target")))),
               solo_button(ctx, ok, ui.get("solo"), read(model, "engine_wait"),
                           read(model, "error"))), "solo"),
             keyed(h("details", {"class": "rules"},
                     h("summary", None, ctx.t("how_to_play")), rules_text(ctx)),
                   "rules"))


def code_box(ui, ctx):
    """Join a friend's room by its code (read out, typed in any case, with spaces or dashes:
    ui/shared/roomcode.py). The button opens that room's guest page."""
    code = roomcode.parse(ui.get("code"))
    typed = bool((ui.get("code") or "").strip())
    return h("section", {"class": "card-box join-code"},
             h("h2", None, ctx.t("have_code")),
             h("label", {"class": "field"}, h("span", None, ctx.t("room_code")),
               h("input", {"type": "text", "data-testid": "room-code", "maxlength": "400",
                           "autocomplete": "off", "autocapitalize": "characters",
                           "spellcheck": "false", "enterkeyhint": "go",
                           "placeholder": ctx.t("code_placeholder"),
                           "value": ui.get("code", ""),
                           "aria-describedby": "code-hint",
                           "data-act": ctx.act("room-code", ("field", "code"))})),
             h("small", {"class": "hint", "id": "code-hint"},
               ctx.t("code_bad") if (typed and code is None) else ctx.t("code_hint")),
             button(ctx, "join-code", ctx.t("join_code"),
                    ("local", "join_code") if code else None, "btn big"))


def join_tree(model, ui, ctx):
    ok = has_name(ui)
    status = read(model, "status", "")
    # after the tap, or when a reloaded page takes its seat back by itself (it has a token)
    busy = status in ("connecting", "looking") and bool(ui.get("joined") or read(model, "token"))
    if status in ("no_room", "no_webrtc", "bad_link"):
        # the banner above says why (no game here; this browser cannot play with friends)
        # and offers the way back, or solo: no form that could never work
        return h("main", {"class": "panel join"},
                 h("div", {"class": "hero"},
                   h("div", {"class": "fan"},
                     decor(None, "f1"), decor(None, "f2"), decor(None, "f3")),
                   h("h2", None, ctx.t(status + "_title"))))
    if watch_screens.room_full(model):
        return watch_screens.room_full_tree(model, ui, ctx)   # watch, and play when there is room
    if not room_answered(model):
        # no form until the room answers (issue 20.7): a name typed into a link that leads
        # nowhere was a join into nothing; the room's first answer brings the form
        return h("main", {"class": "panel join"},
                 h("div", {"class": "hero"},
                   h("div", {"class": "fan"},
                     decor(None, "f1"), decor("Ks", "f2"), decor(None, "f3")),
                   h("h2", {"data-testid": "looking-room"}, ctx.t("looking_room")),
                   h("p", {"class": "tagline"}, ctx.t("looking_hint"))))
    return h("main", {"class": "panel join"},
             h("div", {"class": "hero"},
               h("div", {"class": "fan"},
                 decor(None, "f1"), decor("Ks", "f2"), decor(None, "f3")),
               h("h2", None, ctx.t("invited")),
               h("p", {"class": "tagline"}, ctx.t("tagline"))),
             name_input(ui, ctx),
             name_refusal(model, ctx),
             button(ctx, "join-room", ctx.t("busy_joining") if busy else ctx.t("join_room"),
                    ("local", "submit", "join") if ok else None, "btn primary big"))


def room_answered(model):
    """Whether the room has answered this page (its lobby, `watching`, a seat, a refused
    name, its `bad_version`, or the host's page saying its table is being set up:
    ui/page/early.py): until
    then a guest's join screen has nothing to join. A page rejoining with its seat token
    joins by itself and shows the form busy."""
    return (read(model, "lobby") is not None or bool(read(model, "spectator", False))
            or read(model, "seat") is not None or bool(read(model, "token"))
            or read(model, "name_error") is not None
            or isinstance(read(model, "setup"), dict)    # the host's page: setting up
            or isinstance(read(model, "version_clash"), dict))   # another version's room


def name_refusal(model, ctx):
    """Why the room refused the name (taken, or nothing visible), until the next join."""
    code = read(model, "name_error")
    if code not in ("bad_name", "name_taken"):
        return None
    return h("p", {"class": "hint note-warn", "data-testid": "name-error", "role": "alert"},
             ctx.t("err_" + code))


def save_refused(model, ctx):
    """The landing's note that the saved room was refused (damaged or changed) and dropped."""
    if not read(model, "refused"):
        return None
    return h("p", {"class": "hint note-warn", "data-testid": "save-refused", "role": "alert"},
             ctx.t("save_refused"))


def lobby_tree(model, ui, ctx):
    """The lobby: the players, the options (the host sets them), the invitation, the tally of
    games won, and the host's Add a bot and Start (a guest waits for the host)."""
    lobby = read(model, "lobby", {}) or {}
    players = player_list(model)
    count = len(players)
    is_host = bool(read(model, "is_host", False))
    host = read(model, "host_seat", lobby.get("host", 0))
    rows = lobby_rows(model, players, host, ctx) + arriving_rows(model, ctx)
    link_box = invite_box(model, ui, ctx)
    options_box = lobby_options(lobby.get("options") or {}, is_host, ctx)
    players_head = h("h2", None, ctx.t("players_n", n=count, max=MAX_PLAYERS))
    players_list = h("ul", {"class": "players", "data-testid": "player-list"}, rows)
    tally_box = tally(model, ctx) if read(model, "games", 0) else None
    if not is_host:
        start = h("p", {"class": "waiting", "data-testid": "lobby-waiting"},
                  ctx.t("wait_host", name=seat_name(players, host, ctx)))
        # a guest: first who they wait for, then the players; the invitation comes last
        return h("main", {"class": "panel lobby"},
                 start, h("section", {"class": "card-box"}, players_head, players_list),
                 options_box, tally_box, link_box)
    bots, start = host_controls(ui, count, ctx)
    return h("main", {"class": "panel lobby"},
             watch_screens.make_room_box(model, ctx),    # friends waiting for a seat
             link_box,
             h("section", {"class": "card-box"}, players_head, players_list, bots),
             options_box, tally_box, start)


def lobby_rows(model, players, host, ctx):
    """One line per player: a dot (there or away), the name, the badges, and for the host a
    button to remove anyone but itself."""
    is_host = bool(read(model, "is_host", False))
    me = read(model, "seat")
    rows = []
    for s in sorted(players.keys()):
        p = players[s]
        badges = []
        if s == host:
            badges.append(h("span", {"class": "badge host"}, ctx.t("badge_host")))
        if p.get("bot"):
            badges.append(h("span", {"class": "badge bot"},
                            ctx.t("badge_bot_" + str(p.get("bot")))
                            if i18n.has(ctx.lang, "badge_bot_" + str(p.get("bot")))
                            else ctx.t("badge_bot")))
        if s == me and not says_you(p.get("name")):       # ("You": no "You YOU")
            badges.append(h("span", {"class": "badge you"}, ctx.t("badge_you")))
        on = p.get("connected", True) is not False
        remove = None
        if is_host and s != host:         # a bot, or a person (its page hears `removed`)
            remove = button(ctx, "remove-" + str(s),
                            ctx.t("remove_bot") if p.get("bot") else ctx.t("remove_player"),
                            ("intent", "remove", {"seat": s}), "btn small remove")
        rows.append(h("li", {"class": "player" + ("" if on else " away"),
                             "data-testid": "player-" + str(s)},
                      h("span", {"class": "dot " + ("on" if on else "off"),
                                 "title": ctx.t("tip_connected" if on else "tip_away")}),
                      h("span", {"class": "pname", "title": seat_name(players, s, ctx)},
                        seat_name(players, s, ctx)),
                      badges, remove))
    return rows


def arriving_rows(model, ctx):
    """The host's lobby while its engine starts: one line for each friend whose join waits
    for it ("Gina is arriving…", ui/page/early.py); seated the moment the engine runs."""
    return [h("li", {"class": "player arriving", "data-testid": "arriving"},
              h("span", {"class": "dot off", "aria-hidden": "true"}),
              h("span", {"class": "pname"}, ctx.t("lobby_arriving", name=isolate(name))))
            for name in read(model, "arriving", ()) or ()]


def invite_box(model, ui, ctx):
    """The invitation: the room's code, its link (copy, share) and its QR code; None without
    a link."""
    link = room_link(model, ctx.base)
    if not link:
        return None
    is_host = bool(read(model, "is_host", False))
    if is_host and read(model, "status") in ("connecting", "reconnecting"):
        # offline (the banner says nobody new can join): no link or code that cannot work
        # now (issue 20.11); they come back with the connection
        return h("section", {"class": "card-box share", "data-testid": "invite-offline"},
                 h("h2", None, ctx.t("invite")),
                 h("p", {"class": "hint"}, ctx.t("conn_host_offline")))
    copied = ui.get("copied_at") is not None and ctx.now - ui["copied_at"] < COPIED_MS
    failed = ui.get("copy_failed_at") is not None and ctx.now - ui["copy_failed_at"] < COPIED_MS
    qr_css = qr_style(link, ctx)
    code = roomcode.code_of(read(model, "room"))
    local = is_host and roomcode.is_local_link(link)
    return h("section", {"class": "card-box share"},
             h("h2", None, ctx.t("invite")),
             h("p", {"class": "hint"}, ctx.t(watch_screens.invite_hint(model))),
             h("p", {"class": "room-code"}, h("span", None, ctx.t("room_code")), " ",
               h("strong", {"data-testid": "lobby-code", "translate": "no"},
                 roomcode.show(code))) if code else None,
             h("p", {"class": "banner warn", "data-testid": "link-warning",
                     "role": "note"}, ctx.t("link_local")) if local else None,
             h("div", {"class": "share-body" + (" with-qr" if qr_css is not False else "")},
               h("div", {"class": "share-text"},
                 h("div", {"class": "link", "data-testid": "room-link"}, link),
                 h("div", {"class": "row"},
                   button(ctx, "copy-link",
                          ctx.t("copied") if copied else
                          ctx.t("copy_by_hand") if failed else ctx.t("copy_link"),
                          ("local", "copy"), "btn"),
                   button(ctx, "share-link", ctx.t("share_link"),
                          ("intent", "share_link", {}), "btn")
                   if ctx.can_share else None)),
               h("div", {"class": "qr", "data-testid": "room-qr", "role": "img",
                         "aria-label": ctx.t("qr_label"), "style": qr_css})
               if qr_css else
               # (its place, kept while the code is drawn: nothing moves)
               h("div", {"class": "qr", "aria-hidden": "true"}) if qr_css is None
               else None))


def lobby_options(opts, is_host, ctx):
    """The game's options: set by the host, shown read-only to the guests."""
    def opt(key, spec_ok):
        return ("field", "opt", key) if spec_ok else None

    targets = [(v, str(v)) for v in (50, 100, 150)]
    draw_secs = [("none", ctx.t("no_timer"))] + [(v, ctx.t("n_seconds", n=v)) for v in (30, 45, 60)]
    ds = opts.get("draw_seconds")
    chk = {"type": "checkbox", "data-testid": "opt-draw-from-discard",
           "checked": bool(opts.get("draw_from_discard"))}
    if is_host:
        chk["data-act"] = ctx.act("opt-draw-from-discard", ("field", "opt", "draw_from_discard"))
    else:
        chk["disabled"] = True
    return h("section", {"class": "card-box options" + ("" if is_host else " readonly")},
             h("h2", None, ctx.t("options")),
             h("label", {"class": "field inline"}, h("span", None, ctx.t("opt_target")),
               select(ctx, "opt-target", targets, opts.get("target", 100),
                      opt("target", is_host))),
             h("label", {"class": "field inline"}, h("span", None, ctx.t("opt_draw_seconds")),
               select(ctx, "opt-draw-seconds", draw_secs, "none" if ds is None else ds,
                      opt("draw_seconds", is_host))),
             h("label", {"class": "field check"}, h("input", chk),
               h("span", None, ctx.t("opt_draw_from_discard"))),
             None if is_host else h("p", {"class": "hint"}, ctx.t("options_readonly")))


def host_controls(ui, count, ctx):
    """The host's (Add a bot row, Start) for a lobby of `count` players."""
    can_start = 2 <= count <= MAX_PLAYERS
    bots = h("div", {"class": "row add-bot"},
             select(ctx, "bot-level", [("easy", ctx.t("level_easy")),
                                       ("hard", ctx.t("level_hard"))],
                    ui.get("bot_level", "easy"), ("field", "bot_level"), ctx.t("level")),
             button(ctx, "add-bot", ctx.t("add_bot"),
                    ("local", "add_bot") if count < MAX_PLAYERS else None, "btn"))
    # (disabled, the bar sits at the end of the page: it covers nothing, issue 20.11)
    start = h("div", {"class": "start" + ("" if can_start else " idle")},
              button(ctx, "start-game", ctx.t("start_game"),
                     ("intent", "start", {}) if can_start else None, "btn primary big"),
              None if can_start else h("p", {"class": "hint"}, ctx.t("need_two")))
    return bots, start


_QR_CACHE = {}
_QR_DRAWING = {}        # link -> its QR code's steps (qr.steps), while do_later draws it


def qr_style(link, ctx=None):
    """A CSS background drawing the QR code of `link` (an inline SVG: no download), cached:
    the link of a room never changes. False when the link is too long for a QR code here.
    Given a `ctx`, a code not drawn yet is not drawn now: None, and `ctx.later` asks the
    page to draw it after this render (do_later), a step per task: the lobby shows at once,
    and its code a moment later (drawing it takes ~20-70 ms of MicroPython on a phone)."""
    if link in _QR_CACHE:
        return _QR_CACHE[link]
    if ctx is not None:
        if ("qr", link) not in ctx.later:
            ctx.later.append(("qr", link))
        return None
    while not do_later(("qr", link)):
        pass
    return _QR_CACHE[link]


def _qr_css(rows):
    if not rows:
        return False
    n = len(rows)
    w = str(n + 8)
    svg = ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='-4 -4 " + w + " " + w
           + "' shape-rendering='crispEdges'><rect x='-4' y='-4' width='" + w
           + "' height='" + w + "' fill='#fff'/><path fill='#000' d='"
           + qr.svg_path(rows) + "'/></svg>")
    svg = svg.replace("#", "%23").replace("<", "%3C").replace(">", "%3E")
    return 'background-image: url("data:image/svg+xml,' + svg + '")'


def do_later(job):
    """Do one step of a job a render left in `ctx.later` (the page calls it in a task of its
    own, again while it returns False, then renders again): ("qr", link) draws the QR code
    of `link` a mask at a time (qr.steps), then its CSS, and shows it in a step of its own.
    True once the job is done. A code that cannot be drawn is cached as none (False): never
    asked for again."""
    if job[0] != "qr":
        return True
    link = job[1]
    if link in _QR_CACHE:
        return True
    drawing = _QR_DRAWING.get(link)
    if isinstance(drawing, str):
        # drawn in the step before: shown from now on, by the render that follows this step
        # (the last mask, the drawing and that render would be one long task on a phone)
        _QR_DRAWING.pop(link, None)
        _QR_CACHE[link] = drawing
        return True
    try:
        if drawing is None:
            _QR_DRAWING[link] = qr.steps(link, "M")
        rows = next(_QR_DRAWING[link])
    except ValueError:                      # too long for a QR code here
        rows = False
    except Exception:
        _QR_DRAWING.pop(link, None)
        _QR_CACHE[link] = False
        raise
    if rows is None:
        return False
    if rows is False:
        _QR_DRAWING.pop(link, None)
        _QR_CACHE[link] = False
        return True
    _QR_DRAWING[link] = _qr_css(rows)
    return False


def room_link(model, base=""):
    """The link guests open: the model's own if it has one, else this page + ?room=<id>
    (boot.js makes any page with ?room= a guest page)."""
    for attr in ("link", "room_link"):
        v = read(model, attr)
        if v and isinstance(v, str):
            return v
    room = read(model, "room")
    if room and base:
        return base + "?room=" + str(room)
    return None


def own_room_tree(model, ui, ctx):
    """The room link opened in the browser that hosts the room: never a second seat. A tab
    runs the room ("elsewhere"): say so; none does ("resume"): offer to resume hosting."""
    own = read(model, "own")
    if own == "resume":
        return h("main", {"class": "panel own-room"},
                 h("h2", {"data-testid": "own-room"}, ctx.t("own_room_resume")),
                 h("p", None, button(ctx, "resume-hosting", ctx.t("resume_hosting"),
                                     ("intent", "resume_hosting", {}), "btn primary big")),
                 h("p", None, h("a", {"class": "btn", "href": "./", "data-testid": "back-home"},
                                ctx.t("back_home"))))
    return h("main", {"class": "panel own-room"},
             h("h2", {"data-testid": "own-room"}, ctx.t("own_room_elsewhere")))


def gone_tree(model, ui, ctx):
    err = read(model, "error")
    code = err.get("code") if isinstance(err, dict) else None
    status = read(model, "status", "")
    key = "gone_" + code if code and i18n.has(ctx.lang, "gone_" + code) else (
        "gone_host" if status == "host_gone" else "gone_generic")
    return h("main", {"class": "panel gone"},
             h("h2", {"data-testid": "gone"}, ctx.t(key)),
             h("p", None, h("a", {"class": "btn primary big", "href": "./",
                                  "data-testid": "back-home"}, ctx.t("back_home"))))
