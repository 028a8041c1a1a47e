"""The table's status bar: the announcement's place, what is expected now, the last move, the
turn's timer, the notices (the Queen's, a Jack's or Queen's reveal, the fair-deal alarm); and
the reveal's Hide button (in the actions' row when it has room).

Draws what `table_info` (ui/page/screens/table_model.py) decided. Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from crisp_core.actions import PLAY_PHASES
from ui.shared.graphemes import cut_whole, prefix_within, width_units
from ui.shared.lastline import CROWDED, NAME_CHARS, short_line
from ui.page.screens import cards
from ui.page.screens.cues import ANNOUNCE_MS
from ui.page.screens.eventlog import last_move, log_key, queen_notice
from ui.page.screens.icons import icon
from ui.page.dom.memo import carried, kept
from ui.page.dom.vdom import h
from ui.page.screens.viewmodel import card_text, clock, read
from ui.page.screens.widgets import button


def timer_node(info, ctx):
    """The turn's timer (paused while the host is silent), or None."""
    timer = info["timer"]
    if timer is None:
        return None
    total = info["timer_total"] or 1
    frac = timer * 100 // total if total else 0
    paused = info.get("paused")
    return h("div", {"class": "timer" + (" urgent" if timer < 10000 and not paused else "")
                     + (" mine" if info["timer_mine"] else "")
                     + (" paused" if paused else ""),
                     "data-testid": "turn-timer", "data-ms": str(timer),
                     "data-paused": "true" if paused else None,
                     "role": "timer", "aria-label": ctx.t("paused") if paused
                     else ctx.t("time_left", t=clock(timer)),
                     "style": "--p:" + str(frac) + "%"},
             # paused: two bars that fit the ring (the word overflowed it, es and en); the
             # word is the ring's label for a screen reader
             h("span", {"class": "pause-bars", "aria-hidden": "true"}) if paused
             else h("span", None, clock(timer)))


def status_lines(moved, notice, reveal):
    """(the last move's line, the Queen's notice in a box of its own, the Queen's notice said
    in the reveal's note) the status bar shows: while a note tells this seat's news (the
    Queen's notice, a reveal), the last move gives its line to it (the note tells that move,
    or the one before it; the log below has every move), and the Queen's notice and a reveal
    share one note: lines and a box less, so that the hand's buttons stay above a phone's
    fold (at a crowded table first; a tester's 4-seat solo game put crisp at
    622-670 px under a Queen's note and the same move told twice)."""
    if notice and reveal:
        return None, None, notice
    return (None if notice or reveal else moved), notice, None


def short_names(players):
    """`players` ({seat: {"name", ...}}) with each name cut to lastline.NAME_CHARS characters
    (cut_name), for a crowded table's last-move line."""
    out = {}
    for seat, p in players.items():
        name = p.get("name") if isinstance(p, dict) else None
        out[seat] = dict(p, name=cut_name(name, NAME_CHARS)) if isinstance(name, str) else p
    return out


def status_node(model, info, players, ctx, ann=None, reveal=None, note_button=True):
    """The status bar: the announcement's place `ann` (its first line while one shows), what
    is expected now, the second line and the last move (one column beside the timer, so that
    a last move that wraps takes the room the timer leaves), the timer, the notices: the
    Queen's, the reveal's (`reveal`: reveal_shown's lines; its button here when `note_button`,
    else in the actions' row) and the fair-deal alarm."""
    me = info["me"]
    key = log_key(model, players, ctx) + (info["n"], info["phase"] in PLAY_PHASES)
    moved, title, notice = carried(ctx, "status-log", log_words, model, players, ctx, info,
                                   key)[1]
    moved, notice, shared = status_lines(moved, notice, reveal)
    return h("div", {"class": "statusbar" + (" yours" if info["turn"] == me
                                             and info["phase"] in PLAY_PHASES else "")},
             ann,
             kept(ctx, "status-says", (ctx.lang, info["status"], info["status_sub"], moved,
                                       title), says_node, info, moved, title),
             timer_node(info, ctx),
             h("div", {"class": "notice queen-notice", "data-testid": "queen-notice",
                       "role": "status"}, notice) if notice else None,
             reveal_note(reveal, ctx, note_button, shared), fair_alarm_node(info, ctx))


def log_words(last, model, players, ctx, info, key):
    """What the status bar says of the log: (`key`, (the last move's line, its title, the
    Queen's notice)), the last render's (`last`) while `key` (eventlog.log_key, the seats'
    count, whether the round is being played) is the same (a tick words nothing again)."""
    if last is not None and last[0] == key:
        return last
    playing = info["phase"] in PLAY_PHASES
    whole = last_move(model, players, ctx) if playing else None
    moved = whole
    if whole and short_line(info["n"]):
        # a crowded table: the move in its short words, names cut (ui/shared/lastline.py);
        # the whole line is its title (a long press) and in the log below
        moved = last_move(model, short_names(players), ctx, True)
    title = ctx.t("last_move")
    if moved != whole:
        title += ": " + whole.replace("\u2068", "").replace("\u2069", "")
    notice = queen_notice(model, players, ctx, info["n"] >= CROWDED) if playing else None
    return (key, (moved, title, notice))


def says_node(info, moved, title):
    """What is expected now, the second line and the last move (`moved`, its `title`)."""
    return h("div", {"class": "says"},
             h("div", {"class": "status", "data-testid": "status", "role": "status",
                       "aria-live": "polite"}, info["status"]),
             h("div", {"class": "sub"}, info["status_sub"]) if info["status_sub"] else None,
             h("div", {"class": "last-move", "data-testid": "last-move",
                       "title": title}, icon("last-move"), moved)
             if moved else None)


# How many characters of a name the announcement shows (its <bdi> is 9em wide, 7em at a
# crowded table): a longer name is cut here, at a letter, so the line reads "Maximiliano\u2026
# called CRISP!" with one space; the page's own ellipsis cut after a space and left the box's
# spare width beside it. The whole name is in the announcement's title.
ANNOUNCE_NAME = 12
ANNOUNCE_NAME_CROWDED = 10


def cut_name(name, limit):
    """`name` (str, maybe wrapped in FSI/PDI as `isolate` does) as is when it is at most
    `limit` letters wide (ui/shared/graphemes.py `width_units`: a "W" 1.5, a wide or
    fullwidth character or an emoji 2, a mark 0), else its start that is at most limit - 1
    wide, cut between whole characters (`cut_whole`: no emoji sequence, flag or accented
    letter split) with the spaces (and joiners) at the cut dropped, then an ellipsis, inside
    the same isolate marks. A name with nothing whole before the cut stays as it is (the
    page's ellipsis)."""
    head = tail = ""
    if name.startswith("\u2068") and name.endswith("\u2069"):
        head, tail, name = "\u2068", "\u2069", name[1:-1]
    if width_units(name) <= limit:
        return head + name + tail
    cut = cut_whole(name, prefix_within(name, limit - 1))
    while cut and cut[-1] in " \t\u00a0\u200d":
        cut = cut[:-1]
    if not cut:
        return head + name + tail
    return head + cut + "\u2026" + tail


def announce_node(ui, info, ctx):
    """The splash for the latest cue (ui["announce"], set by the page when the events
    arrive): "Ana called CRISP!" with the last turns to come, "Your turn!", "Your last turn!",
    "Round over". Shown for ANNOUNCE_MS, in an assertive live region, so it is heard too."""
    ann = ui.get("announce")
    if not ann or not ctx.within(ann.get("at") or 0, ANNOUNCE_MS):
        return None
    kind = ann.get("kind")
    sub = whole_text = None
    if kind == "crisp":
        seat = ann.get("seat")
        if seat == info["me"]:
            text = ctx.t("ann_crisp_you")
        else:
            name = info["seats"][seat]["name"] if (isinstance(seat, int)
                                                    and 0 <= seat < info["n"]) else ""
            limit = ANNOUNCE_NAME_CROWDED if info["n"] >= CROWDED else ANNOUNCE_NAME
            whole_text = ctx.t("ann_crisp", name=name)
            text = ctx.t("ann_crisp", name=cut_name(name, limit))
        if ann.get("mine"):
            sub = ctx.t("ann_your_last_turn")
        elif ann.get("n"):
            sub = ctx.tn("ann_last_turns", ann["n"], n=ann["n"])
    elif kind in ("your_turn", "last_turn", "round_over", "game_over"):
        text = ctx.t("ann_" + ("your_last_turn" if kind == "last_turn" else kind))
    else:
        return None
    # (a long name is cut in the line: the whole words are its title)
    whole = (whole_text or text) + (" " + sub if sub else "")
    return h("div", {"class": "announce " + kind, "data-testid": "announce",
                     "data-kind": kind, "title": whole.replace("\u2068", "").replace("\u2069", "")},
             h("strong", None, text), h("small", None, sub) if sub else None)


def reveal_shown(model, info, ctx, tip=False):
    """My cards a Jack or a Queen shows until the next turn (Client.reveal_until "turn"):
    [the line saying which], empty when none; at a crowded table (5 seats or more), or while
    the guided round's tip tells what to do (`tip`), the line names the card only (a short
    phone kept crisp below the fold under the tip and the long note)."""
    me = info["me"]
    until = read(model, "reveal_until", {}) or {}
    shown = []
    for c in (info["seats"][me]["cards"] if me is not None and 0 <= me < info["n"] else []):
        if until.get((me, c["pos"])) == "turn" and cards.is_card(c["card"]):
            # said shorter there (the card shows face up in the hand)
            short = tip or info["n"] >= CROWDED
            shown.append(ctx.t("reveal_note_short", card=card_text(c["card"])) if short
                         else ctx.t("reveal_note", pos=ctx.t("pos_" + c["pos"]),
                                    card=card_text(c["card"])))
    return shown


def reveal_button(ctx, cls="btn"):
    """The button that turns a Jack's or Queen's reveal back now."""
    return button(ctx, "reveal-dismiss", ctx.t("reveal_dismiss"),
                  ("intent", "dismiss_reveal", {}), cls + " reveal-dismiss",
                  {"title": ctx.t("reveal_dismiss_label")})


def reveal_note(shown, ctx, with_button, notice=None):
    """The reveal's note (`shown`: reveal_shown's lines), None when nothing is shown: one line
    saying which card, beside the status, never over the actions, so the crisp button stays
    in reach; its Hide button `with_button` (else it is in the actions' row);
    `notice`: the Queen's notice, said first in the same note (a crowded table)."""
    if not shown:
        return None
    words = " ".join(shown)
    return h("div", {"class": "notice reveal-note", "data-testid": "reveal-note",
                     "role": "status"},
             h("span", None, h("span", {"class": "queen-notice", "data-testid": "queen-notice"},
                               notice), " ", words) if notice else h("span", None, words),
             reveal_button(ctx, "btn small") if with_button else None)


def fair_alarm_node(info, ctx):
    """Said at once during play (ui/page/client/fairplay.py): the host dealt this round again, or dealt
    it with no commitment (`fair-alarm`, loud)."""
    what = info.get("fair_now")
    if what is None:
        return None
    return h("div", {"class": "notice fair-alarm", "data-testid": "fair-alarm",
                     "data-what": what, "role": "alert"},
             icon("warning", "fair-mark"), " ", ctx.t("fair_what_" + what))
