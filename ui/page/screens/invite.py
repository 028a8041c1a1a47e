"""The lobby's invitation: the room's code, its link (copy, share) and its QR code, drawn a step
at a time after a render (`do_later`). Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from ui.page.screens import qr
from ui.page.screens import watch_screens
from ui.shared import roomcode
from ui.page.dom.vdom import h
from ui.page.screens.viewmodel import read
from ui.page.screens.widgets import button

COPIED_MS = 2000


def menu_invite(model, ui, ctx):
    """The invitation in the table's menu (`menu-invite`), for a seated page of a room with
    friends (not a solo game, not a spectator's): the same code, link and QR code as the
    lobby's, with words for a game under way (who opens it watches, and plays the next
    game or an away seat). None elsewhere."""
    if read(model, "screen") != "table" or read(model, "spectator") \
            or read(model, "seat") is None or read(model, "solo", False):
        return None
    box = invite_box(model, ui, ctx, "invite_table_hint")
    if box is None:
        return None
    return h("div", {"class": "menu-invite", "data-testid": "menu-invite"}, box)


def invite_box(model, ui, ctx, hint=None):
    """The invitation: the room's code, its link (copy, share) and its QR code; None without
    a link. `hint`: the key of its hint (else the lobby's, watch_screens.invite_hint)."""
    link = room_link(model, ctx.base)
    if not link:
        return None
    is_host = bool(read(model, "is_host", False))
    if is_host and read(model, "status") in ("connecting", "reconnecting"):
        # offline (the banner says nobody new can join): no link or code that cannot work
        # now; they come back with the connection
        return h("section", {"class": "card-box share", "data-testid": "invite-offline"},
                 h("h2", None, ctx.t("invite")),
                 h("p", {"class": "hint"}, ctx.t("conn_host_offline")))
    copied = ui.get("copied_at") is not None and ctx.within(ui["copied_at"], COPIED_MS)
    failed = ui.get("copy_failed_at") is not None and ctx.within(ui["copy_failed_at"], COPIED_MS)
    qr_css = qr_style(link, ctx)
    code = roomcode.code_of(read(model, "room"))
    local = is_host and roomcode.is_local_link(link)
    return h("section", {"class": "card-box share"},
             h("h2", None, ctx.t("invite")),
             h("p", {"class": "hint"}, ctx.t(hint or watch_screens.invite_hint(model))),
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
