"""The host's saved rooms in this browser's localStorage, and the lease of the tab that runs
one (docs/design.md "Persistence"). The rules (which room to resume, whether a lease is free,
the clock) are ui/shared/hostlife.py's; this module reads and writes the records.

Records: "crisp.room.<id>" (the room's save: Room.to_dict()), "crisp.live.<id>" (the lease:
hostlife.lease_record), "crisp.solo.<id>" (a solo room: resumed without a network; "guided": a guided first
round with its tips on),
"crisp.peer.<id>" (the room's PeerJS token), "crisp.host.room" (the last room hosted here).

Runs on MicroPython and CPython: the storage is passed in (ui/page/storage.py Storage, or a
stand-in in tests), so importing this module needs no browser. A saved blob may be hostile:
nothing here raises on one.
"""
import json

from ui.shared import hostlife, savedroom

ROOM_KEYS = ("crisp.room.", "crisp.live.", "crisp.solo.", "crisp.peer.")
LAST = "crisp.host.room"
GUIDED = "guided"            # "crisp.solo.<id>" of a guided first round, its tips on
MOVED = "crisp.moved."        # + new id: the old host room a page left to rejoin it there


def host_of(saved):
    """(seat, name, token) of the host's seat in a saved room (a dict: Room.to_dict(), read
    through ui/shared/savedroom.py `summary`): seat 0, name "?" and token None when the save
    does not say. Never raises, whatever `saved` holds."""
    seen = savedroom.summary(saved)
    if seen is None:
        return 0, "?", None
    return seen["host"], seen["host_name"], seen["host_token"]


class SavedRooms:
    """This browser's saved host rooms, through `storage` (get/set/remove/get_json, never
    raising: ui/page/storage.py)."""

    def __init__(self, storage):
        self.storage = storage

    def last(self):
        """The id of the room hosted last in this browser, or None."""
        return self.storage.get(LAST)

    def mark_last(self, room_id):
        self.storage.set(LAST, room_id)

    def saved(self, room_id):
        """The saved room `room_id` as a dict; None when there is none, "bad" when it is there
        but not a JSON object (the caller drops it). Whether it is whole and consistent is
        the engine's to say (Room.from_dict, in the worker)."""
        text = self.storage.get("crisp.room." + room_id)
        if text is None:
            return None
        try:
            saved = json.loads(text)
        except ValueError:
            saved = None
        return saved if isinstance(saved, dict) else "bad"

    def saved_text(self, room_id):
        """The saved room `room_id` as the engine wrote it (JSON text), or None."""
        return self.storage.get("crisp.room." + room_id)

    def save(self, room_id, text):
        """Keep the room's save (the engine's JSON text) under its id."""
        self.storage.set("crisp.room." + room_id, text)

    def save_draft(self, room_id, name, seed=None, deck=None, lang=None):
        """A room just created, saved at once (hostlife.draft): a reload before the engine
        saves it makes the same room again, its bots named in `lang` (the host's)."""
        self.save(room_id, json.dumps(hostlife.draft(room_id, name, seed, deck, lang)))

    def saved_game(self, room_id):
        """The saved room as a dict when it holds a game (a Probe's source), else None."""
        saved = self.storage.get_json("crisp.room." + room_id)
        return saved if isinstance(saved, dict) and saved.get("game") else None

    def leave_for(self, new_id, old_id):
        """The host page of `old_id` goes to rejoin its own seat at `new_id` (a Probe found the
        room moved there): its save stays until that seat proof succeeds (`settle`)."""
        self.storage.set(MOVED + new_id, old_id)

    def settle(self, room_id, seated):
        """A page at room `room_id` that came from hosting (`leave_for`), once it knows:
        `seated` (its seat proof there succeeded): its old host room is forgotten, None;
        else the old id, whose room it hosts again (docs/decisions.md "A page that says it hosts the room proves it"). None for any other
        page."""
        old = self.storage.get(MOVED + room_id)
        if not isinstance(old, str) or not old:
            return None
        self.storage.remove(MOVED + room_id)
        if seated:
            self.forget(old)
            return None
        return old

    def forget(self, room_id):
        """Forget every record of room `room_id` (and that it was the last one hosted)."""
        if room_id:
            for key in ROOM_KEYS:
                self.storage.remove(key + room_id)
        if self.storage.get(LAST) == room_id:
            self.storage.remove(LAST)

    def lease(self, room_id):
        """The lease record of room `room_id` (a dict, or None)."""
        return self.storage.get_json("crisp.live." + room_id)

    def hold(self, room_id, tab, at, clock):
        """Write the lease of `room_id`: held by `tab` at wall ms `at` (0 lets it go), the
        room's clock reading `clock` (ms) with it (hostlife.lease_record)."""
        self.storage.set("crisp.live." + room_id,
                         json.dumps(hostlife.lease_record(tab, at, clock)))

    def is_solo(self, room_id):
        return bool(self.storage.get("crisp.solo." + room_id))

    def is_guided(self, room_id):
        """True when the solo room `room_id` is a guided first round whose tips are on
        (ui/page/guided.py): a reload shows them again."""
        return self.storage.get("crisp.solo." + room_id) == GUIDED

    def mark_solo(self, room_id, guided=False):
        """Room `room_id` is a solo game (resumed without a network); `guided`: a guided
        first round with its tips on (marked again without it once they are skipped)."""
        self.storage.set("crisp.solo." + room_id, GUIDED if guided else "1")

    def peer_token(self, room_id, fresh):
        """The room's PeerJS token, kept across reloads (the signaling server keeps the id
        reserved for it); `fresh()` makes one (32 hex digits) the first time."""
        token = self.storage.get("crisp.peer." + room_id)
        if not token:
            token = fresh()
            self.storage.set("crisp.peer." + room_id, token)
        return token

    def drop_peer_token(self, room_id):
        self.storage.remove("crisp.peer." + room_id)

    def own_status(self, room_id, now):
        """hostlife.own_room for a room link opened in this browser (`now`: wall ms)."""
        return hostlife.own_room(room_id, self.storage.get_json("crisp.room." + room_id),
                                 self.lease(room_id), now)
