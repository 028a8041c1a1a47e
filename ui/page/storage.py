"""The page's one door to `localStorage`: reads and writes that never fail the page.

A browser may refuse storage (a SecurityError on access in some private modes and embedded
views, a full quota, storage blocked for the site): then reads give None and writes do
nothing, and the game goes on without what it would have kept. On a page the door is
`crisp.store` (store.js, guarded on the JavaScript side: MicroPython's FFI lets a JS
exception pass its attribute lookup and call, past an `except` here); it keeps in memory what
the browser refused and, when the quota is full, drops Crisp's own oldest records first
(store.js says which, docs/design.md "Persistence"). Without it (tests, a stand-in `js`) the
same calls go to `js.localStorage` under a try.
Keys in use (docs/design.md "Persistence"): `crisp.name`, `crisp.lang`, `crisp.sound`,
`crisp.reactions`,
`crisp.token.<room>`, `crisp.follow.<room>`, `crisp.room.<room>`, `crisp.live.<room>`,
`crisp.solo.<room>`, `crisp.peer.<room>`, `crisp.host.room`, `crisp.ages`.

Runs on MicroPython and Pyodide. `js` is passed in (the page's `js` module, or a stand-in in
tests), so importing this module needs no browser.
"""

import json

KEPT = "ok"            # state(): the browser keeps what the page writes
STATES = ("ok", "blocked", "full")


def _door(js):
    """`js.crisp.store` when the page has it (store.js), else None."""
    try:
        door = js.crisp.store
        return door if door and callable(getattr(door, "get", None)) else None
    except Exception:
        return None


class Storage:
    """`localStorage` of the page whose `js` module is given. Values are text (or JSON
    objects through `get_json`); every error of the browser is swallowed."""

    def __init__(self, js):
        self.js = js
        self.door = _door(js)

    def get(self, key):
        """The text stored under `key`, or None (missing, or storage refused)."""
        try:
            if self.door is not None:
                value = self.door.get(key)
            else:
                value = self.js.localStorage.getItem(key)
        except Exception:
            return None
        return value if isinstance(value, str) else None   # null/undefined come back as others

    def set(self, key, value):
        """Store the text `value` under `key` (nothing happens if storage is refused; on a
        page, store.js then keeps it in memory until a reload)."""
        try:
            if self.door is not None:
                self.door.set(key, value)
            else:
                self.js.localStorage.setItem(key, value)
        except Exception:
            pass

    def remove(self, key):
        """Forget `key` (nothing happens if storage is refused)."""
        try:
            if self.door is not None:
                self.door.remove(key)
            else:
                self.js.localStorage.removeItem(key)
        except Exception:
            pass

    def state(self):
        """"ok" (the browser keeps what is written), "blocked" (storage refused: this visit
        only) or "full" (a write did not fit even after old records went); "ok" without a
        page's door."""
        try:
            state = self.door.state if self.door is not None else KEPT
        except Exception:
            return KEPT
        return state if state in STATES else KEPT

    def get_json(self, key):
        """The JSON object stored under `key` as a dict, or None (missing, not JSON, or not
        an object: a saved blob may be hostile or from an older page)."""
        text = self.get(key)
        if text is None:
            return None
        try:
            value = json.loads(text)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None
