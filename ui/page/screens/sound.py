"""Short sounds and vibrations for the table's cues (browser only).

Tones are made with the Web Audio API (an oscillator per note: no audio file to download) and
vibrations with `navigator.vibrate` where the phone has it; ui/page/screens/cues.py says which. Browsers
only let a page make sound after a tap, so the page calls `unlock()` from its click listener
on taps at the table, where cues play (the first one makes the AudioContext in a task right
after the tap's), and on the sound switch (its sample plays at once).
Every call is best effort: a browser without Web Audio or vibration simply stays quiet, and
nothing here ever raises. Runs on MicroPython and Pyodide.
"""

import json

from ui.page.screens import cues


class Sounds:
    """Plays the cues of ui/page/screens/cues.py through `js` (the browser's global scope). `proxy` makes a
    Python function callable from JS (pyscript.ffi.create_proxy; by default the function)."""

    def __init__(self, js, proxy=None):
        self.js = js
        self.audio = None     # the AudioContext, made after the first tap
        self._making = False  # the AudioContext is to be made in a task of its own
        self._make_proxy = (proxy or (lambda f: f))(self._make)

    def unlock(self, at_once=False):
        """Called from a tap, the only time browsers let sound start. The first one has the
        AudioContext made in a task of its own right after the tap's (setTimeout 0): making
        one can hold the main thread for tens of ms on a phone (and much more on a busy
        computer), and the tap's own task must stay short. Browsers still count it as
        the tap's (Chrome's user activation lasts seconds; WebKit carries a tap through a
        short timer). `at_once`: made now (a sample is about to play). A context the browser
        suspended is woken on every tap."""
        try:
            if self.audio is None and at_once:
                self._make()
            if self.audio is None:
                if not self._making:
                    self._making = True
                    self.js.setTimeout(self._make_proxy, 0)
                return
            if str(self.audio.state) == "suspended":
                self.audio.resume()
        except Exception:
            self.audio = None

    def _make(self, *args):
        self._making = False
        if self.audio is not None:
            return
        try:
            for name in ("AudioContext", "webkitAudioContext"):
                if self.js.Reflect.has(self.js.window, name):
                    self.audio = getattr(self.js.window, name).new()
                    break
        except Exception:
            self.audio = None

    def play(self, kind):
        """The tones of cue `kind` (cues.TONES) and its vibration (cues.VIBRATIONS)."""
        self._tones(cues.TONES.get(kind) or ())
        self._vibrate(cues.VIBRATIONS.get(kind))

    def _tones(self, notes):
        audio = self.audio
        if audio is None or not notes:
            return
        try:
            t0 = float(audio.currentTime) + 0.02
            for hz, start, length in notes:
                osc = audio.createOscillator()
                gain = audio.createGain()
                osc.type = "sine"
                osc.frequency.value = hz
                at = t0 + start / 1000.0
                end = at + length / 1000.0
                gain.gain.setValueAtTime(0.0001, at)
                gain.gain.exponentialRampToValueAtTime(0.2, at + 0.015)
                gain.gain.exponentialRampToValueAtTime(0.0001, end)
                osc.connect(gain)
                gain.connect(audio.destination)
                osc.start(at)
                osc.stop(end + 0.02)
        except Exception:
            pass

    def _vibrate(self, pattern):
        if not pattern:
            return
        try:
            nav = self.js.navigator
            if self.js.Reflect.has(nav, "vibrate"):
                nav.vibrate(self.js.JSON.parse(json.dumps(pattern)))
        except Exception:
            pass
