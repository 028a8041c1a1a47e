"""The taps on the page's screen (browser only): the one click/input/change listener of the
Screen's root (ui/page/screens/render.py) finds the control tapped (its `data-act`), turns it into
intents (ui/page/screens/intents.py `handle`), keeps what the page itself stores (sound, language,
name), draws the screen the tap leads to and hands the intents on. Runs on MicroPython and
Pyodide.
"""

from ui.page import guided
from ui.page.screens.intents import handle, sends_first
from ui.page.screens.viewmodel import read


class InputSide:
    """The Screen's input (a mixin: the Screen's `js`, `root`, `acts`, `ui`, `model`,
    `sounds`, `on_intent`, `_rendering`, `_none`, `_store`, `_now`, `_warn`,
    `_reduced_motion`, `_set_doc_lang`, `notify_answer` and `render`)."""

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
        screen = read(self.model, "screen")
        intents = handle(self.ui, spec, value, self.model, self._now())
        if kind == "click":
            # Sound is wanted where cues play, at the table (a tap there lets it start), or
            # for the sample the sound switch plays at once: the AudioContext is not made on
            # the way to the table (making one can hold the main thread tens of ms).
            sample = False
            for name, payload in intents:
                sample = sample or (name == "sound" and bool(payload))
            if screen == "table" or sample:
                self.sounds.unlock(at_once=sample)
        focus = None
        for name, payload in intents:
            if name == "focus":
                focus = payload                 # drawn first: the hint beside it shows too
            elif name == "sound":
                self._store("crisp.sound", "on" if payload else "off")
                if payload:
                    self.sounds.play("your_turn")     # a sample of what it sounds like
            elif name == "reactions":
                self._store("crisp.reactions", "on" if payload else "off")
            elif name == "notify":
                self.notify_answer(payload)     # (in the tap: the browser asks only then)
            elif name == "lang":
                self._store("crisp.lang", payload)
                self._set_doc_lang(payload)
            elif name in ("create_room", "join", "play_solo", "sit"):
                self._store("crisp.name", payload["name"])
            elif name == "join_code" and payload.get("name"):
                self._store("crisp.name", payload["name"])    # the room's join screen has it
            elif name in ("play_guided", "guided_skip"):     # never offered again
                self._store(guided.STORE_KEY, "seen" if name == "play_guided" else "skipped")
        if sends_first(intents):
            # a move: sent first, then on a guest's screen drawn taken at once (the control
            # pressed, the card lifted: ui/page/client/taps.py) whatever the link; the answer is
            # drawn when it comes. The host's own screen draws nothing before its engine's
            # answer, which comes in a frame or two: a render now would hold up that answer
            # and with it every guest's view (its Client shows the tap taken all the same)
            self._emit(intents)
            if not read(self.model, "is_host", False):
                self.render()
            return
        self.render()
        if focus is not None:
            self._focus(focus)
        self._emit(intents)

    def _focus(self, testid):
        """Bring the element `testid` (a data-testid) to the middle of the screen and focus it
        (a tap that needs it filled first: Play solo without a name, intents.submit); at
        once when the player asked for reduced motion, else scrolled smoothly."""
        try:
            el = self.root.querySelector('[data-testid="%s"]' % testid)
            if self._none(el):
                return
            how = "auto" if self._reduced_motion() else "smooth"
            el.scrollIntoView(self.js.JSON.parse('{"block": "center", "behavior": "%s"}' % how))
            el.focus(self.js.JSON.parse('{"preventScroll": true}'))
        except Exception as e:
            self._warn("cannot focus %s: %s" % (testid, e))

    def _emit(self, intents):
        for name, payload in intents:
            if name not in ("sound", "reactions", "focus", "notify"):   # (this page's own)
                self.on_intent(name, payload)
