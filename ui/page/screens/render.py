"""The DOM part of the screens (browser only): `Screen` draws the Client model into the page and
turns taps into intents.

It builds the page's tree (`screens.build`), patches the real DOM from it (ui/page/dom/vdom.py: only
what changed, so calling `update` on every message and every 250 ms tick is cheap), and listens
for click/input/change on the root (one listener each, delegated through `data-act`), handing
taps to `intents.handle`. Runs on MicroPython and Pyodide: plain classes and dicts only.
"""

from ui.page.screens import cues
from ui.page.screens import faces
from ui.page.screens.away_page import AwaySide
from ui.page import guided
from ui.page.i18n import i18n
from ui.page.dom import redraw
from ui.page.client import taps
from ui.page.client.presence import elapsed_ms
from ui.page.screens.screen_input import InputSide
from ui.page.screens.screens import build, do_later, opens_at_top, scroll_key
from ui.page.screens.sound import Sounds
from ui.page.storage import Storage
from ui.page.dom.memo import Memo
from ui.page.dom.vdom import Patcher
from ui.page.screens.flights import Flights
from ui.page.screens.viewmodel import Ctx, new_ui, pause_of, read

ERROR_MS = 5000


class Screen(InputSide, AwaySide):
    """Renders the Client model into `root` and turns taps into `on_intent(name, payload)`
    (InputSide, ui/page/screens/screen_input.py); what the table's events play, and the signs
    for a player elsewhere (AwaySide, ui/page/screens/away_page.py)."""

    def __init__(self, root, on_intent):
        import js
        from pyscript.ffi import create_proxy
        try:
            from pyscript.ffi import is_none
        except ImportError:
            def is_none(x):
                return x is None
        self._none = is_none
        self.js = js
        self.root = root
        self.patcher = Patcher(js.document)
        self.on_intent = on_intent
        self.model = None
        self.tree = None
        self.memo = Memo()          # parts of the screen kept from one render to the next
        self.acts = {}
        self._err_key = None
        self._err_at = 0
        self._rendering = False     # a render is building or patching right now
        self._screen = None         # the screen last drawn (a new one opens at its top)
        self._again = False         # another render was asked for meanwhile
        self._wake = None           # ms: when the last render's screen changes (Ctx.wake)
        self._drawn_at = None       # ms: the clock at the last render
        self._stamp = None          # the model and ui at the last render (redraw.stamp)
        self.can_share = self._truthy(lambda: js.Reflect.has(js.navigator, "share"))
        try:
            self.base = str(js.location.origin) + str(js.location.pathname)
        except Exception:
            self.base = ""
        # bots' faces shown or not: boot.js's test of a colour emoji (ui/page/screens/faces.py)
        self.faces = faces.mode(self._text(
            lambda: js.document.documentElement.getAttribute("data-faces")))
        self.store = Storage(js)
        lang = i18n.pick(self._stored("crisp.lang") or self._navigator_lang())
        self.ui = new_ui(lang, self._stored("crisp.name") or "")
        self.ui["guided_offer"] = guided.offer(self._stored(guided.STORE_KEY),
                                               self._stored("crisp.name"))
        self.ui["sound"] = self._stored("crisp.sound") != "off"
        self.ui["reactions"] = self._stored("crisp.reactions") != "off"
        self.sounds = Sounds(js, create_proxy)
        self._away_init()
        self.flights = Flights(js, root, self.patcher, is_none, self._warn)
        self._last_phase = None     # the table's phase at the last render (the deal: cues)
        self._set_doc_lang(lang)
        self._proxies = []
        self._later = []            # jobs the last render left for after it (ctx.later)
        self._later_proxy = create_proxy(self._run_later)
        for kind in ("click", "input", "change"):
            p = create_proxy(self._on_event)
            self._proxies.append(p)
            root.addEventListener(kind, p)
        self.root.textContent = ""  # the shell's loading text, if any, goes

    # -- small browser helpers (never fail the render)
    def _text(self, f):
        """What `f()` gives when it is text, else None (null, undefined, an error)."""
        try:
            value = f()
        except Exception:
            return None
        return value if isinstance(value, str) else None

    def _truthy(self, f):
        try:
            return bool(f())
        except Exception:
            return False

    def _navigator_lang(self):
        try:
            return str(self.js.navigator.language or "")
        except Exception:
            return ""

    def _stored(self, key):
        return self.store.get(key)

    def _store(self, key, value):
        self.store.set(key, value)

    def _set_doc_lang(self, lang):
        try:
            self.js.document.documentElement.setAttribute("lang", lang)
            self.js.document.title = i18n.t(lang, "page_title")
        except Exception:
            pass

    def _now(self):
        # boot.js's crisp.now() (never a whole number): MicroPython's FFI wraps a JS whole
        # number above 2**31, and the page's clock (the Client's view_at) is read the same way
        try:
            return int(self.js.crisp.now())
        except Exception:
            return int(self.js.Date.now())

    # -- rendering
    def update(self, model=None):
        if model is not None:
            self.model = model
        self.render()

    def due(self, model):
        """True when drawing `model` now would change the screen (ui/page/dom/redraw.py): what
        the last render showed changes with the clock by now (a countdown, a note's end),
        jobs are deferred, the storage note changed, or the model or ui differs from the last
        render's (False: the 250 ms tick, or a beat from the host, need not draw)."""
        busy = bool(self._later) or self.store.state() != self.ui.get("storage") \
            or self.away_due(self._now())
        return redraw.due(self._wake, self._now(), busy, self._stamp,
                          lambda: redraw.stamp(model, self.ui), self._drawn_at)

    def land(self):
        """The card flights whose time is up land (a tick that draws nothing)."""
        if self.flights.flying:
            self.flights.land(self._now())

    def render(self):
        """Bring the DOM up to the model. Never re-entered: a render asked for while one is
        patching (by an event the patch itself fired, e.g. the `change` Chromium sends when a
        focused, edited field is removed, or by a callback it caused) runs once this one is
        done, from the tree the DOM really has. Patching from a tree the DOM had already left
        behind is what made `replaceChild` fail ("not a child of this node")."""
        if self._rendering:
            self._again = True
            return
        self._rendering = True
        try:
            rounds = 0
            self._again = True
            while self._again and rounds < 3:
                self._again = False
                rounds += 1
                self._render_once()
        finally:
            self._rendering = False

    def _render_once(self):
        now = self._now()
        model = self.model
        # errors show for a few seconds
        err = read(model, "error")
        ek = id(err) if err is not None else None
        if ek != self._err_key:
            self._err_key = ek
            self._err_at = now
        # Remaining times in a view count from when it arrived (the Client's view_at; a model
        # without one: now), stopped while the game is paused (its `pause`)
        ctx = Ctx(self.ui.get("lang", "en"), now,
                  elapsed_ms(read(model, "view_at", now), pause_of(model).since, now),
                  self.can_share, self.base, self.faces)
        ctx.memo = self.memo
        ctx.lead = read(model, "view_lead", 0)          # (a guest's link: linkspeed.lead)
        ctx.tapped = taps.shown(read(model, "tapped"), ctx)    # the move sent, not answered
        self.memo.begin()
        shown = model
        # (the toast shows until ERROR_MS have passed, whole ms: ctx.within notes its end)
        if err is not None and read(model, "screen") != "gone" \
                and not ctx.within(self._err_at, ERROR_MS + 1):
            shown = _NoError(model)
        fresh = self._take_events(model, now, ctx)
        deal = self._take_deal(model)
        self.ui["storage"] = self.store.state()    # a note on every screen unless "ok"
        tree = build(shown, self.ui, ctx)
        self._wake, self._drawn_at = ctx.wake, now
        self.acts = ctx.acts
        self._draw(tree)
        self._show_title(model, ctx)
        shown_screen = scroll_key(read(model, "screen", "landing"), read(model, "view"))
        if opens_at_top(self._screen, shown_screen):
            self._to_top()
        self._screen = shown_screen
        self.flights.land(now)
        if fresh or deal:
            self._fly(deal + cues.flights(fresh), now)
        self._defer(ctx.later)
        # (a countdown on screen: the next tick draws anyway, no stamp to compare)
        self._stamp = None if redraw.counting(self._wake, now) else redraw.stamp(model, self.ui)

    # -- work a render leaves for after it (ctx.later: a QR code to draw)
    def _defer(self, jobs):
        """Run `jobs` (screens.do_later, a step per task) once this task is done, then render
        again: the screen shows first, and no task holds the page long."""
        if not jobs or self._later:
            return
        self._later = list(jobs)
        try:
            self.js.setTimeout(self._later_proxy, 0)
        except Exception as e:
            self._later = []
            self._warn("cannot defer: " + str(e))

    def _run_later(self, *args):
        """One step of the first deferred job; the next in a task of their own, and a render
        once all are done."""
        if not self._later:
            return
        try:
            done = do_later(self._later[0])
        except Exception as e:
            self._warn("deferred job failed: " + str(e))
            done = True
        if done:
            self._later.pop(0)
        if self._later:
            self.js.setTimeout(self._later_proxy, 0)
        else:
            self.render()

    def _to_top(self):
        try:
            self.js.window.scrollTo(0, 0)
        except Exception:
            pass

    def _draw(self, tree):
        if self.tree is not None:
            try:
                self.patcher.patch(self.root, self.tree, tree)
                self.tree = tree
                return
            except Exception as e:
                # Something else moved our nodes (a browser translating the page, an
                # extension): the last tree no longer describes the DOM. Draw afresh.
                self._warn("patch failed, drawing afresh: " + str(e))
        self.tree = None
        self.root.textContent = ""
        self.root.appendChild(self.patcher.create(tree))
        self.tree = tree

    # -- cues: what new events play (ui/page/screens/away_page.py AwaySide)
    def _take_deal(self, model):
        """The deal's flights (cues.deal_flights) when the table newly shows a round's peek
        (cues.fresh_deal), else []."""
        view = read(model, "view") if read(model, "screen") == "table" else None
        if not isinstance(view, dict):
            self._last_phase = None
            return []
        fresh = cues.fresh_deal(view, read(model, "seat"), self._last_phase)
        self._last_phase = view.get("phase")
        return cues.deal_flights(view.get("players"), view.get("dealer")) if fresh else []

    def _reduced_motion(self):
        return self._truthy(lambda: self.js.window.matchMedia(
            "(prefers-reduced-motion: reduce)").matches)

    def _fly(self, flights, now):
        if flights and not self._reduced_motion():
            self.flights.fly_next_frame(flights, now, self._now)

    def _warn(self, text):
        try:
            self.js.console.warn("crisp ui: " + text)
        except Exception:
            pass


class _NoError:
    """The model seen without its (old) error: the toast goes after a few seconds."""

    def __init__(self, model):
        self._m = model

    def __getattr__(self, name):
        if name == "error":
            return None
        return getattr(self._m, name)
