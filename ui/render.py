"""The DOM part of the screens (browser only): `Screen` draws the Client model into the page and
turns taps into intents.

It builds the page's tree (`screens.build`), patches the real DOM from it (ui/vdom.py: only
what changed, so calling `update` on every message and every 250 ms tick is cheap), and listens
for click/input/change on the root (one listener each, delegated through `data-act`), handing
taps to `intents.handle`. Runs on MicroPython and Pyodide: plain classes and dicts only.
"""

from ui import i18n
from ui.intents import handle
from ui.screens import build
from ui.storage import Storage
from ui.vdom import Patcher
from ui.viewmodel import Ctx, new_ui, read

ERROR_MS = 5000


class Screen:
    """Renders the Client model into `root` and turns taps into `on_intent(name, payload)`."""

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
        self.acts = {}
        self._view_key = None
        self._view_at = 0
        self._err_key = None
        self._err_at = 0
        self._rendering = False     # a render is building or patching right now
        self._again = False         # another render was asked for meanwhile
        self.can_share = self._truthy(lambda: js.Reflect.has(js.navigator, "share"))
        try:
            self.base = str(js.location.origin) + str(js.location.pathname)
        except Exception:
            self.base = ""
        lang = i18n.pick(self._stored("crisp.lang") or self._navigator_lang())
        self.ui = new_ui(lang, self._stored("crisp.name") or "")
        self._set_doc_lang(lang)
        self._proxies = []
        for kind in ("click", "input", "change"):
            p = create_proxy(self._on_event)
            self._proxies.append(p)
            root.addEventListener(kind, p)
        self.root.textContent = ""  # the shell's loading text, if any, goes

    # -- small browser helpers (never fail the render)
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
        return Storage(self.js).get(key)

    def _store(self, key, value):
        Storage(self.js).set(key, value)

    def _set_doc_lang(self, lang):
        try:
            self.js.document.documentElement.setAttribute("lang", lang)
            self.js.document.title = i18n.t(lang, "page_title")
        except Exception:
            pass

    def _now(self):
        return int(self.js.Date.now())

    # -- rendering
    def update(self, model=None):
        if model is not None:
            self.model = model
        self.render()

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
        # Remaining times in a view count from when it arrived: noted here, on this page's
        # clock, the first time a view object is seen (update runs on every message).
        view = read(model, "view")
        key = id(view) if view is not None else None
        if key != self._view_key:
            self._view_key = key
            self._view_at = now
        view_at = self._view_at
        # errors show for a few seconds
        err = read(model, "error")
        ek = id(err) if err is not None else None
        if ek != self._err_key:
            self._err_key = ek
            self._err_at = now
        # While the host is silent (its page may not run: then no time counts against anyone)
        # the countdowns stop where the host was last heard.
        quiet = read(model, "quiet_since")
        until = quiet if isinstance(quiet, (int, float)) and quiet < now else now
        ctx = Ctx(self.ui.get("lang", "en"), now, max(0, until - view_at), self.can_share,
                  self.base)
        shown = model
        if err is not None and now - self._err_at > ERROR_MS and read(model, "screen") != "gone":
            shown = _NoError(model)
        tree = build(shown, self.ui, ctx)
        self.acts = ctx.acts
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

    def _warn(self, text):
        try:
            self.js.console.warn("crisp ui: " + text)
        except Exception:
            pass

    # -- input
    def _on_event(self, event):
        if self._rendering:
            return  # fired by our own DOM writes (a removed field's change/blur): not a tap
        try:
            self._handle_event(event)
        except Exception as e:  # a bad tap must never kill the page
            try:
                self.js.console.error("crisp ui: " + str(e))
            except Exception:
                pass

    def _handle_event(self, event):
        el = event.target
        if self._none(el) or not hasattr(el, "closest"):
            return  # e.g. a text node
        el = el.closest("[data-act]")
        if self._none(el):
            return
        name = el.getAttribute("data-act")
        spec = None if self._none(name) else self.acts.get(str(name))
        if spec is None:
            return
        kind = str(event.type)
        if spec[0] == "field":
            # text fields on every keystroke ("input"); selects and checkboxes once ("change")
            typed = str(el.type) == "text"
            if kind != ("input" if typed else "change"):
                return
            if str(el.type) == "checkbox":
                value = bool(el.checked)
            else:
                value = str(el.value)
        else:
            if kind != "click":
                return
            value = None
        intents = handle(self.ui, spec, value, self.model, self._now())
        for name, payload in intents:
            if name == "lang":
                self._store("crisp.lang", payload)
                self._set_doc_lang(payload)
            elif name in ("create_room", "join", "play_solo"):
                self._store("crisp.name", payload["name"])
        self.render()
        for name, payload in intents:
            self.on_intent(name, payload)


class _NoError:
    """The model seen without its (old) error: the toast goes after a few seconds."""

    def __init__(self, model):
        self._m = model

    def __getattr__(self, name):
        if name == "error":
            return None
        return getattr(self._m, name)
