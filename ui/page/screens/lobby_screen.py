"""The lobby screen (ui/page/screens/screens.py `build` places it): the players, the options, the
invitation (ui/page/screens/invite.py), the tally, the host's Add a bot and Start. Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from ui.page.i18n import i18n
from ui.page.screens import watch_screens
from ui.page.screens.faces import mark
from ui.shared.limits import MAX_PLAYERS
from ui.page.screens.invite import invite_box
from ui.page.screens.results import tally
from ui.page.dom.vdom import h, isolate
from ui.page.screens.viewmodel import player_list, read, says_you, seat_name
from ui.page.screens.widgets import button, select
from ui.page.screens.room_words import asks_removal, dot_on

def lobby_tree(model, ui, ctx):
    """The lobby: the players, the options (the host sets them), the invitation, the tally of
    games won, and the host's Add a bot and Start (a guest waits for the host)."""
    lobby = read(model, "lobby", {}) or {}
    players = player_list(model)
    count = len(players)
    is_host = bool(read(model, "is_host", False))
    host = read(model, "host_seat", lobby.get("host", 0))
    rows = lobby_rows(model, players, host, ctx, ui) + arriving_rows(model, ctx)
    link_box = invite_box(model, ui, ctx)
    options_box = lobby_options(lobby.get("options") or {}, is_host, ctx,
                                seat_name(players, host, ctx))
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
    # the host: the players and Start right under them, on the first screen,
    # then the invitation, the options and the tally
    return h("main", {"class": "panel lobby"},
             watch_screens.make_room_box(model, ctx),    # friends waiting for a seat
             h("section", {"class": "card-box"}, players_head, players_list, bots),
             start, link_box, options_box, tally_box)


def lobby_rows(model, players, host, ctx, ui=None):
    """One line per player: a dot (there or away; the host's away while the banner says it
    does not answer: room_words.dot_on), the name (a bot's with the robot where its face
    would be, on a page that shows no faces: ui/page/screens/faces.py), the badges, and for the host
    a button to remove anyone but itself (a person only after a second tap: remove_button)."""
    ui = ui if ui is not None else {}
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
        on = dot_on(model, s, p)
        remove = None
        if is_host and s != host:         # a bot, or a person (its page hears `removed`)
            remove = remove_button(ctx, ui, s, p)
        rows.append(h("li", {"class": "player" + ("" if on else " away"),
                             "data-testid": "player-" + str(s)},
                      h("span", {"class": "dot " + ("on" if on else "off"),
                                 "title": ctx.t("tip_connected" if on else "tip_away")}),
                      h("span", {"class": "pname", "title": seat_name(players, s, ctx)},
                        mark(ctx, p.get("bot")), seat_name(players, s, ctx)),
                      badges, remove))
    return rows


def arriving_rows(model, ctx):
    """The host's lobby while its engine starts: one line for each friend whose join waits
    for it ("Gina is arriving…", ui/page/host/early.py); seated the moment the engine runs."""
    return [h("li", {"class": "player arriving", "data-testid": "arriving"},
              h("span", {"class": "dot off", "aria-hidden": "true"}),
              h("span", {"class": "pname"}, ctx.t("lobby_arriving", name=isolate(name))))
            for name in read(model, "arriving", ()) or ()]


def lobby_options(opts, is_host, ctx, host_name=""):
    """The game's options: set by the host, shown read-only to the guests, who are told who
    chooses them (`host_name`: the host's name as shown)."""
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
             None if is_host else h("p", {"class": "hint", "data-testid": "options-by"},
                                    ctx.t("options_readonly", name=host_name)))


def host_controls(ui, count, ctx):
    """The host's (Add a bot row, Start) for a lobby of `count` players."""
    can_start = 2 <= count <= MAX_PLAYERS
    bots = h("div", {"class": "row add-bot"},
             select(ctx, "bot-level", [("easy", ctx.t("level_easy")),
                                       ("hard", ctx.t("level_hard")),
                                       ("expert", ctx.t("level_expert"))],
                    ui.get("bot_level", "easy"), ("field", "bot_level"), ctx.t("level")),
             button(ctx, "add-bot", ctx.t("add_bot"),
                    ("local", "add_bot") if count < MAX_PLAYERS else None, "btn"))
    # (in the flow under the players, tappable or not: it covers nothing)
    start = h("div", {"class": "start" + ("" if can_start else " idle")},
              button(ctx, "start-game", ctx.t("start_game"),
                     ("intent", "start", {}) if can_start else None, "btn primary big"),
              None if can_start else h("p", {"class": "hint"}, ctx.t("need_two")))
    return bots, start


def remove_button(ctx, ui, seat, player):
    """The host's Remove on a row: a bot goes in one tap (added again as fast); a person
    only after the question on their row is answered (room_words.remove_tap), so that a
    thumb scrolling to Start removes nobody."""
    if player.get("bot"):
        return button(ctx, "remove-" + str(seat), ctx.t("remove_bot"),
                      ("intent", "remove", {"seat": seat}), "btn small remove")
    who = {"seat": seat, "name": player.get("name")}
    if not asks_removal(ui, seat, player.get("name")):
        return button(ctx, "remove-" + str(seat), ctx.t("remove_player"),
                      ("local", "remove_ask", who), "btn small remove")
    name = seat_name({seat: player}, seat, ctx)
    return h("span", {"class": "remove-ask", "role": "group",
                      "data-testid": "remove-ask-" + str(seat)},
             h("span", {"class": "remove-q"}, ctx.t("remove_ask", name=name)), " ",
             button(ctx, "remove-yes-" + str(seat), ctx.t("remove_yes"),
                    ("local", "remove_yes", who), "btn small danger"),
             button(ctx, "remove-keep-" + str(seat), ctx.t("remove_keep"),
                    ("local", "remove_cancel"), "btn small"))
