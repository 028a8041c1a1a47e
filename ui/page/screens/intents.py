"""Taps to intents: what a tap or an edit changes in the screen's own state `ui`, and the
intents it sends (the Queen flow and the landing's pickers stay local until their last tap).

Pure: runs on MicroPython, Pyodide and CPython (tests).
"""

from ui.page import guided
from ui.page.i18n import i18n
from ui.page.screens import room_words
from ui.shared import roomcode
from ui.shared.limits import MAX_PLAYERS, NAME_MAX
from ui.page.screens.viewmodel import read


def parse_option(key, value):
    """A lobby option as the room wants it, from a control's string value."""
    if key == "target":
        return int(value)
    if key == "draw_seconds":
        return None if value in (None, "", "none") else int(value)
    if key == "draw_from_discard":
        return bool(value)
    return value


def handle(ui, spec, value, model, now=0):
    """Apply a tap/edit to `ui`; return the intents [(name, payload)] to emit."""
    kind = spec[0]
    if kind == "intent":
        return [(spec[1], spec[2])]
    if kind == "local" and spec[1] in room_words.REMOVE_OPS:
        return room_words.remove_tap(ui, spec[1], spec[2] if len(spec) > 2 else None, model)
    if kind == "local":
        return local_tap(ui, spec[1], spec[2] if len(spec) > 2 else None, now)
    if kind == "field":
        return field_edit(ui, spec, value, model)
    return []


def sends_first(intents):
    """True when the tap's intents are all moves at the table ("action"): the page sends
    them first (every screen waits on the room's answer) and only then draws the move taken
    (ui/page/client/taps.py; a guest's screen at once, the host's with its engine's answer); any
    other tap (a room to create, a name to keep) is drawn first, so that the button answers
    before the work it starts."""
    if not intents:
        return False
    for name, payload in intents:
        if name != "action":
            return False
    return True


def typed_name(ui):
    """The name typed (trimmed, at most NAME_MAX characters), or ""."""
    return (ui.get("name") or "").strip()[:NAME_MAX]


def submit(ui, arg):
    """The landing's or the join screen's button (`arg`: "play_solo" | "join" | else create
    a room), with the name typed. Without a name nothing is sent: the player is asked for it
    where they look (greyed buttons did nothing, the hint off screen):
    ui["name_ask"] makes the hint beside the field an alert (widgets.name_input), and the
    intent ("focus", "player-name") has the page bring that field into view and focus it
    (render.Screen)."""
    name = typed_name(ui)
    if not name:
        ui["name_ask"] = True
        return [("focus", "player-name")]
    if arg == "play_solo":
        ui["solo"] = True       # the button shows its progress from this very frame
        return [("play_solo", {"name": name, "bots": int(ui.get("bots", 3)),
                               "level": ui.get("level", "easy"),
                               "target": int(ui.get("target", 100))})]
    if arg == "join":
        ui["joined"] = True
        return [("join", {"name": name})]
    return [("create_room", {"name": name})]


def local_tap(ui, op, arg, now):
    """A tap that changes this screen's own state first (("local", op, arg) specs)."""
    if op == "submit":
        return submit(ui, arg)
    if op == "guided_play":
        # the landing's offer (ui/page/screens/guided_screens.py): solo against two easy bots, the
        # stacked deal, tips at the table; a name is not needed for it
        ui["guided"] = True
        ui["guided_offer"] = False
        payload = dict(guided.SOLO)
        payload["name"] = typed_name(ui) or i18n.t(ui.get("lang", "en"), "guided_name")
        return [("play_guided", payload)]
    if op == "guided_skip":
        # "No thanks" on the landing, or the tips skipped (or closed) at the table
        ui["guided"] = False
        ui["guided_offer"] = False
        return [("guided_skip", None)]
    if op == "keep_waiting":
        ui["keep_waiting"] = True
        return []
    if op == "away_ok":
        ui["away"] = None                      # "while you were away" read: it goes
        return []
    if op == "notify":
        ui["notify_offer"] = False             # asked once: the page asks the browser on yes
        return [("notify", bool(arg))]
    if op == "sit":
        # a spectator asks for seat `arg` (None: a seat in the next game), by its name
        name = typed_name(ui)
        if not name:
            return []
        return [("sit", {"name": name, "seat": arg})]
    if op == "queen_start":
        ui["queen"] = {"pos": None}
    elif op == "queen_pos":
        ui["queen"] = {"pos": arg}
    elif op == "queen_cancel":
        ui["queen"] = None
    elif op == "sheet":
        ui["sheet_open"] = bool(arg)
    elif op == "lang":
        ui["lang"] = arg
        return [("lang", arg)]
    elif op == "join_code":
        code = roomcode.parse(ui.get("code"))
        # the name typed on the landing goes with it: the room's join screen starts with it
        return [("join_code", {"room": roomcode.room_id(code), "name": typed_name(ui)})] \
            if code else []
    elif op == "menu":
        ui["menu_open"] = bool(arg)
        ui["leave_ask"] = False
    elif op == "leave_ask":
        ui["leave_ask"] = bool(arg)
    elif op == "sound":
        ui["sound"] = bool(arg)
        return [("sound", bool(arg))]
    elif op == "react_menu":
        ui["react_open"] = bool(arg)
    elif op == "react":
        ui["react_open"] = False                # a choice sends it and closes the picker
        return [("react", {"r": arg})]
    elif op == "reactions":
        ui["reactions"] = bool(arg)             # the menu's switch (remembered by the page)
        ui["react_open"] = False
        return [("reactions", bool(arg))]
    elif op == "copy":
        # "Copied!" only once the browser says it copied (ui/page/base_page.py pass_link)
        ui["copied_at"] = ui["copy_failed_at"] = None
        return [("copy_link", {})]
    elif op == "add_bot":
        return [("add_bot", {"level": ui.get("bot_level", "easy")})]
    return []


def field_edit(ui, spec, value, model):
    """An edit of a field (("field", op[, key]) specs): kept in `ui`; a lobby option is sent
    to the room whole (the current options with the edited one)."""
    op = spec[1]
    if op == "name":
        ui["name"] = str(value or "")[:NAME_MAX]
        if ui["name"].strip():
            ui["name_ask"] = False      # asked for and typed: the alert is over
    elif op == "code":
        ui["code"] = str(value or "")[:40]
    elif op == "bots":
        n = int(value)
        ui["bots"] = 1 if n < 1 else (MAX_PLAYERS - 1 if n > MAX_PLAYERS - 1 else n)
    elif op == "lang":
        lang = "es" if value == "es" else "en"
        ui["lang"] = lang
        return [("lang", lang)]
    elif op in ("level", "bot_level"):
        ui[op] = value if value in ("hard", "expert") else "easy"
    elif op == "target":
        n = int(value)
        ui["target"] = n if n in (50, 100, 150) else 100
    elif op == "opt":
        lobby = read(model, "lobby", {}) or {}
        cur = lobby.get("options") or {}
        opts = {"target": cur.get("target", 100), "draw_seconds": cur.get("draw_seconds"),
                "draw_from_discard": bool(cur.get("draw_from_discard", False))}
        opts[spec[2]] = parse_option(spec[2], value)
        return [("options", opts)]
    return []
