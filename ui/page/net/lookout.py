"""The look-out (MicroPython, main thread): is a room at this PeerJS id, and whose page hosts
it? Looker looks once at one id; Probe is a resumed host room's look at its next id (was it
handed over while this page was away?). Both send nothing but `watch`."""

from ui.page.browser import log, now, random_hex
from ui.page.net.net_guest import GuestNet
from ui.page.saved_rooms import host_of
from ui.shared import comeback, handover, wire

LOOK_MS = 20000           # a look at a room id (Looker) that nothing answered this long is over


def offer_share(plan, seat, net):
    """A holder of the sealed room (`plan`: its handover.Handover) offers the successor its
    seat's share on `net`, the connection to the new id (it goes only once the successor
    proved itself: `give_share`)."""
    nonce = plan.challenge(random_hex(16))
    net.send(wire.encode(wire.message("share_offer", seat=seat, nonce=nonce,
                                      n=(plan.sealed.get("box") or {}).get("n"))))


def give_share(plan, msg, net):
    """`msg` (read once: wire.read) on the connection `net` to the new id: the successor's
    `share_proof` gets this seat's share when its mac proves it is the successor's seat
    (handover.Handover.answer); an impostor gets nothing. True when `msg` was one."""
    proven, reply = plan.answer(msg, net.peer_id())
    if proven and reply is None:
        log("the peer at the new room id did not prove it is the successor: no share")
    elif proven:
        log("this seat's share went to the successor")
        net.send(reply)
    return proven



class Looker:
    """A look at what holds PeerJS id `room_id`: a data connection of its own (a Peer of its
    own) that sends `watch`. A room there answers `watching` (or `lobby`) naming its host's
    seat: `on_host(seat)`. No peer holds the id (the signaling server says so), or nothing
    answers within `wait_ms` (LOOK_MS): `on_none()`. Either once; then the look is `done`. It sends
    nothing but `watch`: whoever holds the id learns nothing from it; with `offer` (a holder's
    handover.holder_plan) also a `share_offer`, and its share only to a proven successor."""

    def __init__(self, room_id, on_host, on_none, wait_ms=None, offer=None):
        self.room_id = room_id
        self.offer = offer              # a holder's handover.Handover: its share, on proof
        self.wait_ms = LOOK_MS if wait_ms is None else wait_ms
        self.on_host = on_host
        self.on_none = on_none
        self.done = False
        self.started = now()
        self.net = GuestNet(room_id, self.opened, self.text, self.lost, self.error)
        self.net.connect()

    def step(self, now):
        if not self.done and now - self.started > self.wait_ms:
            self.stop()                   # nothing answered
            self.on_none()

    def opened(self):
        if self.done:
            return
        if self.offer is not None:
            offer_share(self.offer, self.offer.seat, self.net)
        self.net.send(wire.encode(wire.message("watch")))

    def text(self, text):
        if self.done or text is None:
            return
        msg = wire.read(text)
        if self.offer is not None and give_share(self.offer, msg, self.net):
            return
        if not isinstance(msg, dict) or msg.get("type") not in ("lobby", "watching"):
            return
        host = msg.get("host")
        if not isinstance(host, int) or isinstance(host, bool):
            return
        self.stop()
        self.msg = msg                    # what it said (Probe checks its proof)
        self.on_host(host)

    def lost(self, missing):
        if missing and not self.done:
            self.stop()                   # no room at this id
            self.on_none()

    def error(self, kind):
        pass

    def stop(self):
        self.done = True
        self.net.shutdown()


class Probe:
    """A resumed host room's check that it was not handed over while its page was away
    ("if the old host comes back, it rejoins as a player in its own seat"): a
    Looker at the room's next id (handover.room_id_after, from the saved room's
    succession secret; ValueError without one). A room there whose `watching` names another
    seat as host and proves it opened one of this room's sealed boxes (comeback.moved_host,
    against the save's `seal_checks`, or its designate's `standby_check`) is this room moved: `on_moved(new_id, token, name)`
    with this seat's token there (handover.next_token). Nothing there, or a room that does
    not prove itself (a seated guest squatting the next id, docs/decisions.md "A page that says it hosts the room proves it"): the probe
    stops and the page goes on hosting."""

    def __init__(self, room_id, saved, on_moved):
        self.room_id = room_id
        self.new_id = handover.room_id_after(room_id, handover.epoch_after(room_id),
                                             saved.get("succession"))
        self.seat, self.name, self.token = host_of(saved)
        self.on_moved = on_moved
        self.saved = saved
        self.look = Looker(self.new_id, self.hosted, self.nothing)

    @property
    def done(self):
        return self.look.done

    def step(self, now):
        self.look.step(now)               # nothing answered: the room is here

    def hosted(self, host):
        if host == self.seat or not isinstance(self.token, str):
            return
        if comeback.moved_host(self.saved, self.new_id, getattr(self.look, "msg", None)) is None:
            log("the room at", self.new_id, "did not prove it opened this room: hosting on")
            return                        # a seated guest squatting the next id (attack 1)
        self.on_moved(self.new_id, handover.next_token(self.token, self.room_id, host),
                      self.name)

    def nothing(self):
        log("no room at", self.new_id, ": this room was not handed over")

    def stop(self):
        self.look.stop()
