"""What a seat keeps for a host handover (docs/protocol.md "Host handover"), never shown: the
room sealed for the players and this seat's share (`sealed`), the tokens of the seat that
would host next (`standby`), the host's player leaving the game (`host_leaving`). Client
(ui/page/client/client.py) is built on HandoverSide; the handover itself is ui/page/guest/guest_succession.py.

MicroPython-compatible (every page runs it), no I/O.
"""

from ui.shared import spectator_moves
from ui.shared.wire import is_hex, is_int


class HandoverSide:
    """The Client's `sealed`, `standby`, `host_leaving` and `players_at_leave`, from the room's
    messages of those types."""

    def _on_sealed(self, msg, now):
        """`sealed` from the room: True when the model changed."""
        # The room sealed for the players (docs/protocol.md "Host handover"): ciphertext
        # and this seat's one share; kept, never shown.
        box = msg.get("box")
        if (isinstance(box, dict) and isinstance(box.get("n"), int)
                and isinstance(msg.get("share"), str)
                and (self.sealed is None or box["n"] > self.sealed["box"]["n"])):
            keys = msg.get("keys")
            # `at`: when it came (this page's ms): the room's clock ran on after it
            # while the host still spoke (docs/protocol.md "Host handover")
            self.sealed = {"box": box, "share": msg.get("share"), "host": msg.get("host"),
                           "keys": keys if isinstance(keys, dict) else {}, "at": now}
        return False

    def _on_host_leaving(self, msg, now):
        """`host_leaving` from the room: True when the model changed."""
        # The host's player left the game: the room moves to its successor now
        # (docs/protocol.md "Host handover"); the page starts the handover at once.
        # The players list as it stands now is the one every page names the successor
        # from: the old host's page may still send lists with a page that already left.
        if not self.host_leaving:
            self.host_leaving = True
            self.players_at_leave = [p for p in self.players]
            self.left_host = self.host_seat     # the handover is told as a leave
            self.sealed = box_left(self.sealed, msg)
        return True

    def _on_standby(self, msg, now):
        """`standby` from the room: True when the model changed."""
        # This seat would host next (docs/protocol.md "Host handover"): every person's
        # token in a room it hosts, should the sealed room not open. Kept, never shown.
        tokens = msg.get("tokens")
        if is_int(msg.get("seat")) and msg.get("seat") == self.seat \
                and isinstance(tokens, dict) and len(tokens) <= 8 \
                and all(is_hex(t, 32) for t in tokens.values()):
            # and the room's spectators, for this seat to tell where the room went
            self.standby = {"seat": msg.get("seat"), "tokens": tokens,
                            "watchers": spectator_moves.watchers(msg.get("watchers")),
                            "check": msg.get("check") if is_hex(msg.get("check"), 64) else None}
        return False


def box_left(sealed, msg):
    """The box `sealed` (the Client's newest) with the leaving host's own share of it, when
    the room's `host_leaving` (`msg`, already proven the host's: the Client takes nothing
    from an unproven peer) carries one for that very box (`n`): only the designated
    successor's does, and with its own share it opens the box alone
    (ui/shared/handover.py). Anything else leaves the box as it was."""
    share, n = msg.get("share"), msg.get("n")
    if not isinstance(sealed, dict) or not isinstance(share, str) or len(share) > 200 \
            or not is_int(n) or n != (sealed.get("box") or {}).get("n"):
        return sealed
    out = dict(sealed)
    out["left"] = share
    return out
