"""The page's one door to `localStorage`: reads and writes that never fail the page.

A browser may refuse storage (private mode, a full quota, storage blocked for the site): then
reads give None and writes do nothing, and the game goes on without what it would have kept.
Keys in use (docs/design.md "Persistence"): `crisp.name`, `crisp.lang`, `crisp.sound`, `crisp.token.<room>`,
`crisp.follow.<room>`,
`crisp.room.<room>`, `crisp.live.<room>`, `crisp.solo.<room>`, `crisp.host.room`.

Runs on MicroPython and Pyodide. `js` is passed in (the page's `js` module, or a stand-in in
tests), so importing this module needs no browser.
"""

import json


class Storage:
    """`localStorage` of the page whose `js` module is given. Values are text (or JSON
    objects through `get_json`); every error of the browser is swallowed."""

    def __init__(self, js):
        self.js = js

    def get(self, key):
        """The text stored under `key`, or None (missing, or storage refused)."""
        try:
            value = self.js.localStorage.getItem(key)
        except Exception:
            return None
        return value if isinstance(value, str) else None   # null/undefined come back as others

    def set(self, key, value):
        """Store the text `value` under `key` (nothing happens if storage is refused)."""
        try:
            self.js.localStorage.setItem(key, value)
        except Exception:
            pass

    def remove(self, key):
        """Forget `key` (nothing happens if storage is refused)."""
        try:
            self.js.localStorage.removeItem(key)
        except Exception:
            pass

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
