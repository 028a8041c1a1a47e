"""The DOM part of the screens (ui/page/screens/render.py's `Screen`, ui/page/dom/vdom.py's `Patcher`), on a small
fake DOM.

The fake DOM is strict where browsers are: `replaceChild`/`removeChild` of a node that is not a
child throws, like Chromium's "The node to be replaced is not a child of this node". And it
fires events synchronously where Chromium does: removing a focused text field whose value
changed since it got focus dispatches `change` (then `blur`) from inside the removal, so the
page's listeners run in the middle of a patch. That is how a Crisp guest page broke: the
connection banner went away as the player typed their name, the patch replaced the panel
holding the focused field, the field's `change` re-entered the render, and the inner render
patched from a tree the DOM had already left.

Pure Python, no browser: fast enough to check thousands of random updates.
"""

import json
import random
import sys
import types

import pytest

from ui.page.screens import eventlog
from ui.page.screens.render import Screen

import test_render_model as M


# ---------------------------------------------------------------------------------------------
# A fake DOM, just enough for Screen

class DOMError(Exception):
    pass


class Node:
    def __init__(self, doc):
        self.doc = doc
        self.parentNode = None
        self.childNodes = []
        self.listeners = {}

    # tree
    def appendChild(self, child):
        if child.parentNode is not None:
            child.parentNode._detach(child)
        child.parentNode = self
        self.childNodes.append(child)
        return child

    def replaceChild(self, new, old):
        if old.parentNode is not self:
            raise DOMError("Failed to execute 'replaceChild' on 'Node': "
                           "The node to be replaced is not a child of this node.")
        self.doc.before_removal(old)
        if old.parentNode is not self:
            raise DOMError("Failed to execute 'replaceChild' on 'Node': "
                           "The node to be replaced is not a child of this node.")
        if new.parentNode is not None:
            new.parentNode._detach(new)
        i = self.childNodes.index(old)
        self.childNodes[i] = new
        new.parentNode = self
        old.parentNode = None
        return old

    def insertBefore(self, new, ref):
        if ref is None:
            return self.appendChild(new)
        if ref.parentNode is not self:
            raise DOMError("Failed to execute 'insertBefore' on 'Node': "
                           "The node before which the new node is to be inserted is not a "
                           "child of this node.")
        if new.parentNode is not None:
            new.parentNode._detach(new)
        self.childNodes.insert(self.childNodes.index(ref), new)
        new.parentNode = self
        self.doc.inserted += 1
        return new

    def removeChild(self, child):
        if child.parentNode is not self:
            raise DOMError("Failed to execute 'removeChild' on 'Node': "
                           "The node to be removed is not a child of this node.")
        self.doc.before_removal(child)
        if child.parentNode is not self:
            raise DOMError("Failed to execute 'removeChild' on 'Node': "
                           "The node to be removed is not a child of this node.")
        self._detach(child)
        return child

    def _detach(self, child):
        self.childNodes.remove(child)
        child.parentNode = None

    def contains(self, other):
        while other is not None:
            if other is self:
                return True
            other = other.parentNode
        return False

    # events
    def addEventListener(self, kind, fn):
        self.listeners.setdefault(kind, []).append(fn)

    def dispatch(self, kind):
        ev = types.SimpleNamespace(type=kind, target=self)
        node = self
        while node is not None:
            for fn in list(node.listeners.get(kind, [])):
                fn(ev)
            node = node.parentNode


class Text(Node):
    def __init__(self, doc, data):
        Node.__init__(self, doc)
        self.data = data


class Style:
    """element.style: its cssText is the element's style attribute, as in a browser (the
    screens set styles through it: the page's CSP allows no style attribute)."""

    def __init__(self, el):
        self._el = el

    @property
    def cssText(self):
        return self._el.attributes.get("style", "")

    @cssText.setter
    def cssText(self, value):
        if value:
            self._el.attributes["style"] = str(value)
        else:
            self._el.attributes.pop("style", None)


XHTML = "http://www.w3.org/1999/xhtml"


class Element(Node):
    @property
    def style(self):
        return Style(self)

    def __init__(self, doc, tag, ns=XHTML):
        Node.__init__(self, doc)
        # as in a browser: an HTML element's tagName is upper case, another namespace's as made
        self.namespaceURI = ns
        self.tagName = tag.upper() if ns == XHTML else tag
        self.attributes = {}
        self.value = ""
        self.checked = False

    @property
    def type(self):
        return self.attributes.get("type", "text" if self.tagName == "INPUT" else "")

    def setAttribute(self, k, v):
        self.attributes[k] = str(v)

    def removeAttribute(self, k):
        self.attributes.pop(k, None)

    def getAttribute(self, k):
        return self.attributes.get(k)

    def closest(self, selector):
        assert selector == "[data-act]"
        node = self
        while node is not None and isinstance(node, Element):
            if "data-act" in node.attributes:
                return node
            node = node.parentNode
        return None

    @property
    def textContent(self):
        return "".join(c.data if isinstance(c, Text) else c.textContent for c in self.childNodes)

    @textContent.setter
    def textContent(self, value):
        for c in list(self.childNodes):
            self.removeChild(c)
        if value:
            self.appendChild(Text(self.doc, value))

    def querySelector(self, selector):
        """Only '[data-testid="x"]' (what render.Screen asks for)."""
        assert selector.startswith('[data-testid="') and selector.endswith('"]'), selector
        return by_testid(self, selector[len('[data-testid="'):-2])

    def scrollIntoView(self, options=None):
        self.doc.scrolled.append((self.attributes.get("data-testid"), options))

    # the player
    def focus(self, options=None):
        self.doc.activeElement = self
        self.doc.dirty = False

    def type_text(self, text):
        self.focus()
        self.value = text
        self.doc.dirty = True
        self.dispatch("input")

    def click(self):
        if self.type == "checkbox":
            self.checked = not self.checked
        self.dispatch("click")
        if self.type == "checkbox":
            self.dispatch("change")

    def canon(self):
        """What the player sees: tags, sorted attributes, live field values, text."""
        attrs = sorted(self.attributes.items())
        live = ""
        if self.tagName in ("INPUT", "SELECT"):
            live = " .value=" + self.value + (" .checked=" + str(self.checked)
                                                if self.type == "checkbox" else "")
        kids = "".join(json.dumps(c.data) if isinstance(c, Text) else c.canon()
                       for c in self.childNodes)
        ns = "" if self.namespaceURI == XHTML else " ns=" + self.namespaceURI
        return "<%s%s %s%s>%s</>" % (self.tagName, ns, attrs, live, kids)


class Document:
    def __init__(self):
        self.activeElement = None
        self.dirty = False
        self.title = ""
        self.documentElement = Element(self, "html")
        self.synthetic = []       # extra events to fire when a node with data-act is removed
        self.scrolled = []        # (testid, options) of every scrollIntoView
        self.inserted = 0

    def createElement(self, tag):
        return Element(self, tag)

    def createElementNS(self, ns, tag):
        return Element(self, tag, ns)

    def createTextNode(self, data):
        return Text(self, data)

    def before_removal(self, node):
        """Chromium: a focused field leaving the document fires `change` (if edited since it
        got focus) and `blur` from inside the removal."""
        focused = self.activeElement
        if focused is not None and node.contains(focused):
            if self.dirty:
                self.dirty = False
                focused.dispatch("change")
            focused.dispatch("blur")
            self.activeElement = None
        for kind in self.synthetic:
            for el in _walk(node):
                if isinstance(el, Element) and "data-act" in el.attributes:
                    el.dispatch(kind)


def _walk(node):
    yield node
    for c in list(node.childNodes):
        for x in _walk(c):
            yield x


class FakeJs:
    def __init__(self):
        self.document = Document()
        self.clock = 1000000
        self.Date = types.SimpleNamespace(now=lambda: self.clock)
        self.Reflect = types.SimpleNamespace(has=lambda obj, key: False)
        self.JSON = types.SimpleNamespace(parse=json.loads)
        self.navigator = types.SimpleNamespace(language="en-US")
        store = {}
        self.localStorage = types.SimpleNamespace(getItem=lambda k: store.get(k),
                                                  setItem=lambda k, v: store.__setitem__(k, v))
        self.location = types.SimpleNamespace(origin="http://x", pathname="/")
        # reduced motion: no card flights (they need layout, which this DOM has not)
        self.window = types.SimpleNamespace(
            matchMedia=lambda query: types.SimpleNamespace(matches=True))
        self.errors = []
        self.console = types.SimpleNamespace(error=self.errors.append, warn=self.errors.append,
                                             log=lambda *a: None)
        self.timers = []            # setTimeout's callbacks, run by the test (run_timers)
        self.setTimeout = lambda fn, ms=0: self.timers.append(fn)

    def run_timers(self):
        while self.timers:
            self.timers.pop(0)()


@pytest.fixture
def fakejs(monkeypatch):
    fake = FakeJs()
    ffi = types.ModuleType("pyscript.ffi")
    ffi.create_proxy = lambda f: f
    pyscript = types.ModuleType("pyscript")
    pyscript.ffi = ffi
    monkeypatch.setitem(sys.modules, "js", fake)
    monkeypatch.setitem(sys.modules, "pyscript", pyscript)
    monkeypatch.setitem(sys.modules, "pyscript.ffi", ffi)
    return fake


def new_screen(fake, intents=None):
    root = fake.document.createElement("div")
    out = intents if intents is not None else []
    screen = Screen(root, lambda name, payload: out.append((name, payload)))
    return screen


def fresh(fake, screen, model):
    """The same model drawn from nothing, with the same screen state and clock."""
    other = new_screen(fake)
    other.ui = dict(screen.ui)
    other._err_key, other._err_at = screen._err_key, screen._err_at
    other.model = model
    other.render()
    return other.root.canon()


def by_testid(node, testid):
    for el in _walk(node):
        if isinstance(el, Element) and el.attributes.get("data-testid") == testid:
            return el
    return None


def join_model(status):
    # a page the room answered (a spectator's lobby): the form shows (ui/page/screens/screens.py
    # room_answered)
    return M.FakeClient(screen="join", status=status, room="r00m", spectator=True,
                        lobby=M.lobby_model(2).lobby)


# ---------------------------------------------------------------------------------------------

def test_a_field_that_fires_change_as_the_patch_removes_it_does_not_re_enter_the_patch(fakejs):
    # The player is typing their name when the page moves on to another screen that has a
    # name field too: the focused, edited field is removed and fires `change` from inside the
    # patch, with an act the new screen also has. It used to re-enter the render, whose inner
    # patch started from the tree the DOM had already left ("replaceChild: not a child").
    screen = new_screen(fakejs)
    screen.update(join_model("ok"))
    by_testid(screen.root, "player-name").type_text("Ana")
    landing = M.FakeClient(screen="landing")
    screen.update(landing)                    # `change` fires from inside this patch
    assert fakejs.errors == []
    assert screen.root.canon() == fresh(fakejs, screen, landing)
    assert by_testid(screen.root, "player-name").value == "Ana"


def test_the_name_field_keeps_its_focus_when_the_connection_banner_goes(fakejs):
    # The guest's join page says "Connecting..." above the name field; the player types; the
    # connection opens. The banner goes, the panel stays: same field, still focused (on a
    # phone, a redrawn field closes the keyboard in the middle of a word).
    screen = new_screen(fakejs)
    model = join_model("connecting")
    screen.update(model)
    field = by_testid(screen.root, "player-name")
    field.type_text("Ana")
    model.status = "ok"
    screen.update(model)
    assert fakejs.errors == [] and screen.root.canon() == fresh(fakejs, screen, model)
    assert by_testid(screen.root, "connection") is None
    assert by_testid(screen.root, "player-name") is field and fakejs.document.activeElement is field
    assert by_testid(screen.root, "join-room").attributes.get("data-act")
    model.status = "reconnecting"
    screen.update(model)
    assert by_testid(screen.root, "player-name") is field


def test_the_landing_keeps_the_name_field_when_the_resume_offer_goes(fakejs):
    screen = new_screen(fakejs)
    m = M.FakeClient(screen="landing", resume={"room": "r", "names": ["Ana", "Bob"]})
    screen.update(m)
    field = by_testid(screen.root, "player-name")
    field.type_text("Zoe")
    m.resume = None
    screen.update(m)
    assert by_testid(screen.root, "resume") is None
    assert by_testid(screen.root, "player-name") is field and fakejs.document.activeElement is field
    assert fakejs.errors == [] and screen.root.canon() == fresh(fakejs, screen, m)


def test_a_tap_that_needs_the_name_brings_its_field_to_the_middle_and_focuses_it(fakejs):
    # issue 20: Play solo and Create a room without a name: nothing is sent, the name field
    # scrolls to the middle of the screen (at once: this fake asks for reduced motion) and
    # takes the focus, its hint an alert
    intents = []
    screen = new_screen(fakejs, intents)
    screen.update(M.FakeClient(screen="landing"))
    for testid in ("play-solo", "create-room"):
        fakejs.document.activeElement = None
        by_testid(screen.root, testid).click()
        field = by_testid(screen.root, "player-name")
        assert fakejs.document.activeElement is field, testid
        assert fakejs.document.scrolled[-1] == ("player-name",
                                                {"block": "center", "behavior": "auto"})
        assert by_testid(screen.root, "name-hint").attributes.get("role") == "alert"
    assert intents == [] and fakejs.errors == []
    field.type_text("Ana")
    by_testid(screen.root, "create-room").click()
    assert intents == [("create_room", {"name": "Ana"})] and len(fakejs.document.scrolled) == 2


def test_events_fired_by_our_own_dom_writes_are_not_taps(fakejs):
    # Whatever a browser fires while we patch (here: a click and a change on every live
    # control that leaves the page) is not the player's: no intent, no render inside a render.
    intents = []
    screen = new_screen(fakejs, intents)
    fakejs.document.synthetic = ["click", "change"]
    screen.update(M.lobby_model(3, seat=0))
    table = M.table_model(3, seat=1, allowed=[{"do": "draw", "from": ["deck", "discard"]}],
                          discard=["7h"])
    screen.update(table)
    # the table is drawn anew (as a screen change does): its live deck and discard leave the
    # page, and the new table has the same acts
    [body] = [k for k in screen.tree["kids"] if str(k.get("key")).startswith("body:")]
    body["key"] = "body:before"
    screen.update(table)
    screen.update(M.lobby_model(3, seat=0))
    assert intents == [] and fakejs.errors == []
    assert screen.root.canon() == fresh(fakejs, screen, M.lobby_model(3, seat=0))


def test_a_render_asked_for_during_a_render_runs_after_it(fakejs):
    screen = new_screen(fakejs)
    model = join_model("connecting")
    screen.update(model)
    calls = []
    once = screen._render_once

    def render_and_ask_again():
        calls.append(screen._rendering)
        if len(calls) == 1:
            model.status = "ok"
            screen.render()                   # as a callback caused by the patch would
        once()

    screen._render_once = render_and_ask_again
    screen.render()
    assert len(calls) == 2                    # one after the other, never one inside the other
    assert by_testid(screen.root, "connection") is None
    assert screen.root.canon() == fresh(fakejs, screen, model)


def test_a_dom_moved_under_our_feet_is_drawn_afresh(fakejs):
    # Browser translation and extensions wrap our nodes in their own (<font>): the last tree
    # no longer says where they are, and a patch that replaces one of them throws.
    screen = new_screen(fakejs)
    m = M.table_model(4, seat=1)
    screen.update(m)
    actions = [e for e in _walk(screen.root) if isinstance(e, Element)
               and e.attributes.get("class") == "actions"][0]
    main = actions.parentNode
    font = fakejs.document.createElement("font")
    main.replaceChild(font, actions)
    font.appendChild(actions)
    m.view.update(phase="round_over", turn=None, hands=[["Ah", "2c", "3d"]] * 4,
                  round_points=[6] * 4, scores=[6] * 4)
    screen.update(m)                          # the buttons give way to the results sheet
    assert screen.root.canon() == fresh(fakejs, screen, m)
    assert any("drawing afresh" in e for e in fakejs.errors)
    fakejs.errors.clear()
    screen.update(M.lobby_model(3, seat=1))  # and it goes on patching from there
    assert fakejs.errors == []


def test_a_field_shows_the_model_again_when_the_room_did_not_follow(fakejs):
    # The host ticks an option; until the room answers (or if it refuses), the box shows the
    # room's value, not what the last tree said.
    intents = []
    screen = new_screen(fakejs, intents)
    m = M.lobby_model(3, seat=0)
    screen.update(m)
    box = by_testid(screen.root, "opt-draw-from-discard")
    box.click()
    assert intents[-1][0] == "options" and intents[-1][1]["draw_from_discard"] is True
    assert box.checked is False               # the room has not said so yet
    m.lobby = dict(m.lobby, options=dict(m.lobby["options"], draw_from_discard=True))
    screen.update(m)
    assert box.checked is True
    select = by_testid(screen.root, "opt-target")
    select.value = "150"
    select.dispatch("change")
    assert intents[-1] == ("options", {"target": 150, "draw_seconds": None,
                                       "draw_from_discard": True})
    assert select.value == "100"


def test_typing_is_never_disturbed(fakejs):
    screen = new_screen(fakejs)
    screen.update(M.FakeClient(screen="landing"))
    field = by_testid(screen.root, "player-name")
    writes = []

    class Spy(Element):
        pass

    field.__class__ = Spy
    Spy.value = property(lambda self: self.__dict__["value"],
                         lambda self, v: (writes.append(v), self.__dict__.__setitem__("value", v)))
    field.type_text("Zoë")
    writes.clear()
    for _ in range(3):
        screen.update(M.FakeClient(screen="landing"))
    assert writes == [] and field.value == "Zoë"


EVENTS = [{"type": "deal", "round": 1, "dealer": 0}, {"type": "play", "turn": 1}]
for _i in range(60):
    EVENTS += [{"type": "draw", "seat": _i % 3, "from": "deck"},
               {"type": "discard", "seat": _i % 3, "card": "7h"},
               {"type": "reveal", "to": 1, "reason": "draw", "cards": []},
               {"type": "turn", "seat": (_i + 1) % 3}]


def test_a_new_event_is_one_new_line_in_the_log(fakejs):
    screen = new_screen(fakejs)
    m = M.table_model(3, seat=1, log=EVENTS[:30])
    screen.update(m)
    log = by_testid(screen.root, "event-log")
    region = log.parentNode
    assert region.attributes["role"] == "log" and region.attributes["aria-live"] == "polite"
    before = list(log.childNodes)
    texts = [c.textContent for c in before]
    assert texts[0] == "Your turn." and len(before) == 23    # newest first, public only
    m.log = EVENTS[:31]
    screen.update(m)
    after = list(log.childNodes)
    assert after[1:] == before                 # the same nodes, untouched
    assert after[0].textContent == "You drew from the deck."   # seat 1 is this page's
    assert "fresh" in after[0].attributes["class"] and "fresh" not in after[1].attributes["class"]
    assert [c.textContent for c in after[1:]] == texts
    m.log = EVENTS[:200]                       # past the 40 lines shown: the oldest go
    screen.update(m)
    assert len(log.childNodes) == eventlog.LOG_LINES
    assert screen.root.canon() == fresh(fakejs, screen, m)
    m.log = EVENTS[:3]                         # a new round (or a rejoin): the log starts over
    screen.update(m)
    assert [c.textContent for c in log.childNodes] == ["Ana drew from the deck.",
                                                       "Play starts with you.",
                                                       "Round 1: Ana deals."]
    assert screen.root.canon() == fresh(fakejs, screen, m)


def _models(rnd):
    n = rnd.randint(2, 8)
    seat = rnd.randrange(n)
    pick = rnd.randrange(9)
    if pick == 0:
        return M.FakeClient(screen="landing")
    if pick == 1:
        return join_model(rnd.choice(["connecting", "ok", "reconnecting"]))
    if pick == 2:
        return M.lobby_model(n, seat=rnd.choice([0, 1 if n > 1 else 0]))
    if pick == 3:
        return M.FakeClient(screen="gone", error={"code": "taken_over", "text": "x"})
    hands = [[rnd.choice("A23456789TJQK") + rnd.choice("cdhs") for _ in range(3)]
             for _ in range(n)]
    kw = {}
    if pick == 4:
        kw = {"phase": "peek", "turn": None, "allowed": [{"do": "ready"}],
              "ready": [rnd.random() < .5 for _ in range(n)]}
    elif pick == 5:
        kw = {"held": {"seat": seat, "from": "deck", "card": "Qc"},
              "allowed": [{"do": "queen", "pos": list(M.POS), "targets":
                           [s for s in range(n) if s != seat], "target_pos": list(M.POS)},
                          {"do": "discard"}]}
    elif pick == 6:
        kw = {"turn": (seat + 1) % n, "crisp_window": {"seat": seat, "left": 2000},
              "allowed": [{"do": "crisp"}], "discard": ["7h"]}
    elif pick == 7:
        kw = {"phase": rnd.choice(["round_over", "game_over"]), "turn": None, "hands": hands,
              "round_points": [3] * n, "scores": [rnd.randrange(120) for _ in range(n)],
              "winners": [0], "caller": rnd.choice([None, seat])}
    else:
        kw = {"allowed": [{"do": "draw", "from": ["deck", "discard"]}], "discard": ["2c"],
              "draw_left": 20000, "options": {"players": n, "target": 50, "draw_seconds": 30,
                                              "draw_from_discard": True}}
    m = M.table_model(n, seat=seat, log=EVENTS[:rnd.choice([0, 5, 30, 31, 32, 120, 121])],
                      **kw)
    m.status = rnd.choice(["ok", "ok", "ok", "reconnecting"])
    if rnd.random() < .2:
        m.error = {"code": "illegal", "text": "no"}
    return m


@pytest.mark.parametrize("seed", range(6))
def test_many_quick_updates_and_taps_leave_the_page_as_a_fresh_drawing(fakejs, seed):
    rnd = random.Random(seed)
    intents = []
    screen = new_screen(fakejs, intents)
    model = _models(rnd)
    screen.update(model)
    for step in range(250):
        r = rnd.random()
        if r < .25:
            live = [el for el in _walk(screen.root) if isinstance(el, Element)
                    and "data-act" in el.attributes and "disabled" not in el.attributes
                    and el.tagName != "SELECT"]
            if live:
                rnd.choice(live).click()
        elif r < .35:
            field = by_testid(screen.root, "player-name")
            if field is not None:
                field.type_text(rnd.choice(["A", "Bo", "Zoë"]))
        else:
            fakejs.clock += rnd.choice([0, 250, 2500])
            model = _models(rnd)
            screen.update(model)
        assert fakejs.errors == [], (seed, step)
        assert screen.root.canon() == fresh(fakejs, screen, model), (seed, step)


def test_the_lobby_shows_at_once_and_its_qr_code_in_a_task_of_its_own(fakejs):
    # Drawing the QR code is the dearest part of the lobby's first render (tens of ms of
    # MicroPython on a phone): the lobby is drawn without it, the code comes in the next task.
    screen = new_screen(fakejs)
    link = "http://x/?room=crisp-5c97a374b24fdd9b081a27d1c9fb54af"
    screen.update(M.lobby_model(3, seat=0, link=link))
    assert by_testid(screen.root, "room-link") is not None
    assert by_testid(screen.root, "room-qr") is None and len(fakejs.timers) == 1
    screen.update(M.lobby_model(3, seat=0, link=link))     # a tick meanwhile: asked once
    assert len(fakejs.timers) == 1
    fakejs.timers.pop(0)()               # one step per task: the encoding, then each mask
    assert len(fakejs.timers) == 1 and by_testid(screen.root, "room-qr") is None
    fakejs.run_timers()
    qr = by_testid(screen.root, "room-qr")
    assert qr is not None and "svg" in qr.style.cssText
    assert fakejs.timers == [] and fakejs.errors == []


def test_a_qr_code_that_cannot_be_drawn_is_not_asked_for_again(fakejs, monkeypatch):
    from ui.page.screens import qr

    def broken(text, ecl="M", mask=None):
        yield None
        raise RuntimeError("no")

    monkeypatch.setattr(qr, "steps", broken)
    screen = new_screen(fakejs)
    link = "http://x/?room=crisp-0000000000000000000000000000dead"
    screen.update(M.lobby_model(3, seat=0, link=link))
    fakejs.run_timers()
    screen.update(M.lobby_model(3, seat=0, link=link))
    assert fakejs.timers == [] and by_testid(screen.root, "room-qr") is None
    assert by_testid(screen.root, "room-link") is not None


def test_the_first_tap_makes_the_audio_context_in_a_task_of_its_own():
    from ui.page.screens.sound import Sounds
    made = []

    class Audio:
        def __init__(self):
            self.state = "suspended"
            self.resumed = 0
            made.append(self)

        def resume(self):
            self.resumed += 1
            self.state = "running"

    timers = []
    js = types.SimpleNamespace(
        window=types.SimpleNamespace(AudioContext=types.SimpleNamespace(new=Audio)),
        Reflect=types.SimpleNamespace(has=lambda obj, name: hasattr(obj, name)),
        setTimeout=lambda fn, ms=0: timers.append(fn))
    sounds = Sounds(js)
    sounds.unlock()                  # the tap's task: nothing made yet, one task asked for
    sounds.unlock()
    assert made == [] and len(timers) == 1
    timers.pop()()
    assert len(made) == 1 and sounds.audio is made[0]
    sounds.unlock()                  # a later tap wakes a context the browser suspended
    assert made[0].resumed == 1 and timers == []
    sample = Sounds(js)
    sample.unlock(at_once=True)      # the sound switch: its sample plays in this task
    assert len(made) == 2 and sample.audio is made[1] and timers == []


def test_sound_is_made_ready_at_the_table_not_on_the_way_there(fakejs):
    # Taps on the landing and in the lobby make no AudioContext (making one can hold the main
    # thread); the first tap at the table asks for one, in a task after the tap's.
    asked = []
    screen = new_screen(fakejs)
    screen.sounds.unlock = lambda at_once=False: asked.append(at_once)
    screen.update(M.lobby_model(3, seat=0))
    by_testid(screen.root, "add-bot").click()
    assert asked == []
    screen.update(M.table_model(4, seat=1))
    live = [el for el in _walk(screen.root)
            if isinstance(el, Element) and "data-act" in el.attributes
            and el.attributes.get("data-testid") == "menu"]
    live[0].click()
    assert asked == [False]


def test_icons_are_created_in_the_svg_namespace_and_patched_in_place(fakejs):
    """An <svg> made with createElement is an unknown HTML element: it draws nothing. The
    patcher makes icons with createElementNS, and a toggled icon (sound on, then off) is
    patched to the same drawing as a fresh page's."""
    from ui.page.dom.vdom import SVG_NS
    screen = new_screen(fakejs)
    model = M.table_model(3, seat=1)
    screen.ui["menu_open"] = True
    screen.update(model)
    svgs = [el for el in _walk(screen.root) if isinstance(el, Element) and el.tagName == "svg"]
    assert len(svgs) >= 3                               # the logo, the menu, the sound toggle
    for el in svgs:
        for part in _walk(el):
            assert isinstance(part, Text) or part.namespaceURI == SVG_NS, part.tagName
    by_testid(screen.root, "sound-toggle").click()
    assert screen.ui["sound"] is False
    assert "icon-sound-off" in by_testid(screen.root, "sound-toggle").canon()
    assert fakejs.errors == [] and screen.root.canon() == fresh(fakejs, screen, model)


@pytest.mark.parametrize("lang,words", [("en", "3 s left"), ("es", "quedan 3 s")])
def test_the_crisp_windows_seconds_say_they_are_what_is_left(fakejs, lang, words):
    # a bare "3 s" beside "Your turn in 2 s..." (which means wait) read as a delay too
    screen = new_screen(fakejs)
    screen.ui["lang"] = lang
    screen.update(M.table_model(4, seat=1, turn=2, crisp_window={"seat": 1, "left": 2400},
                                allowed=[{"do": "crisp"}]))
    chip = [el for el in _walk(screen.root) if isinstance(el, Element)
            and "crisp-left" in el.attributes.get("class", "")]
    assert [c.textContent for c in chip] == [words]
