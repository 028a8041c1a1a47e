"""The page's signs outside itself (browser only): whether it is hidden, the tab's title, and the
system notification of a turn (the Notification API, only where the player allowed it).

What they say is decided in ui/page/screens/away.py (`tab_title`) and by the cues (ui/page/screens/cues.py);
this only talks to the browser, and never fails the page: a browser without a Notification,
or one that throws, simply shows none. Runs on MicroPython and Pyodide.
"""

import json

STORE_KEY = "crisp.notify"      # "asked": the offer was answered (either way), never again


class Notices:
    """`js`: the browser's globals (pyscript's `js`)."""

    def __init__(self, js):
        self.js = js
        self.title = None           # the title last set (None: the page's own)
        self.shown = None           # the notification on screen, if any

    def hidden(self):
        """Whether the page is hidden (another tab or app in front)."""
        try:
            return str(self.js.document.visibilityState) == "hidden"
        except Exception:
            return False

    def set_title(self, text, own):
        """The tab's title: `text`, or the page's own title `own` when `text` is None."""
        want = text if text is not None else own
        if want == self.title:
            return
        self.title = want
        try:
            self.js.document.title = want
        except Exception:
            pass

    def permission(self):
        """The browser's answer for notifications: "granted", "denied", "default", or None
        when it has no Notification."""
        try:
            if not self.js.Reflect.has(self.js.window, "Notification"):
                return None
            return str(self.js.window.Notification.permission)
        except Exception:
            return None

    def ask(self):
        """Ask the browser (in a tap's handler: browsers ask only then)."""
        try:
            if self.permission() == "default":
                self.js.window.Notification.requestPermission()
        except Exception:
            pass

    def notify(self, title, body):
        """A system notification (one at a time, replaced), only if allowed."""
        if self.permission() != "granted":
            return
        try:
            opts = self.js.JSON.parse(json.dumps({"tag": "crisp-turn", "renotify": True,
                                                  "body": body}))
            self.shown = self.js.window.Notification.new(title, opts)
        except Exception:
            self.shown = None

    def close(self):
        """The notification goes (the player is back)."""
        if self.shown is None:
            return
        try:
            self.shown.close()
        except Exception:
            pass
        self.shown = None
