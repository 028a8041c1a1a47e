"""JSON passes on the host for one guest's tap (issue 19): the host page wraps the guest's
text in an engine request (EngineLink), the engine worker reads it (ui/worker/engine.py),
the room parses the message, encodes each seat's view and the save, the reply goes back
and the host page reads it, sorts the outputs (hostlife.sort_out) and its own screen reads
its view (Client.receive). Counted by wrapping json.dumps and json.loads around one tap.

Measured: 19 before issue 19 (4 views, 4 `allowed` dumps, 4 `kind_of` re-reads of the
outputs, the request and reply each encoded and decoded, the save, the guest's message, the
host's own view); 15 after the room's split (no `allowed` dump); 11 with typed outputs (the
engine knows each output's kind: no re-read). What is left: the request and the reply (the
worker's message port carries text), the guest's message, each seat's view, the save and the
host's own view. 15 once every move is sealed in its own reply (a host asleep right after a
move hands over a box with it): the sealed state once, and each holder's `sealed` (its own
share and keys)."""

import json

from ui.shared import hostlife
from ui.page.client.client import Client
from ui.worker.engine import Engine

MAX_PASSES = 15


def msg(kind, **fields):
    return json.dumps(dict(fields, type=kind, v=1))


def tap_passes():
    """One guest's discard at a 4-seat table, through the host: {"dumps", "loads", "remote",
    "local"} (the JSON encodes and decodes on the host while it runs)."""
    engine = Engine()
    host = Client(lambda text: None, is_host=True)
    now = [1000]

    def ask(**request):
        # the host page: EngineLink.request wraps the request, _message parses the reply,
        # sort_out splits it, the host's own screen reads its messages (Client.receive)
        reply = json.loads(engine.handle(json.dumps(request)))
        sorted_out = hostlife.sort_out(reply.get("out", []), "local")
        for text in sorted_out["local"]:
            host.receive(text, now[0])
        return reply, sorted_out

    # a stacked deck (no committed shuffle: the same deal before and after)
    deck = [r + s for s in "cdhs" for r in "23456789TJQKA"]
    deck.remove("5c")
    deck.insert(12, "5c")          # the card seat 1 draws: a plain card, to discard
    ask(op="create", room_id="crisp-abcdefghij", name="Ana", seed=1, deck=deck, now=now[0])
    ask(op="receive", conn="local", text=msg("join", name="Ana"), now=now[0])
    names = ["Bea", "Cleo", "Dan"]
    for i, conn in enumerate(["a", "b", "c"]):
        ask(op="open", conn=conn, peer="peer-" + conn, now=now[0])
        ask(op="receive", conn=conn, text=msg("join", name=names[i]), now=now[0])
    reply, out = ask(op="receive", conn="local", text=msg("start"), now=now[0])
    for conn, text, _ in out["remote"]:
        m = json.loads(text)
        if m["type"] == "commit":
            ask(op="receive", conn=conn, text=msg("contribute", round=m["round"],
                                                    value="ab" * 16), now=now[0])
    views = {}

    def track(out):
        for conn, text, _ in out["remote"]:
            m = json.loads(text)
            if m["type"] == "view":
                views[conn] = m

    for conn in ["local", "a", "b", "c"]:
        now[0] += 10
        reply, out = ask(op="receive", conn=conn, text=msg("action", action={"do": "ready"}),
                         now=now[0])
        track(out)
    for _ in range(40):
        now[0] += 500
        reply, out = ask(op="tick", now=now[0])
        track(out)
        if views.get("a", {}).get("view", {}).get("turn") == 1 and any(
                a.get("do") == "draw" for a in views["a"]["view"]["allowed"]):
            break
    reply, out = ask(op="receive", conn="a", text=msg("action", action={"do": "draw"},
                                                        n=views["a"]["n"]), now=now[0])
    track(out)
    assert any(a.get("do") == "discard" for a in views["a"]["view"]["allowed"]), views["a"]
    tap = msg("action", action={"do": "discard"}, n=views["a"]["n"])   # made on the guest
    counts = {"dumps": 0, "loads": 0}
    real = (json.dumps, json.loads)

    def dumps(*a, **k):
        counts["dumps"] += 1
        return real[0](*a, **k)

    def loads(*a, **k):
        counts["loads"] += 1
        return real[1](*a, **k)

    json.dumps, json.loads = dumps, loads
    try:
        now[0] += 10
        reply, out = ask(op="receive", conn="a", text=tap, now=now[0])
    finally:
        json.dumps, json.loads = real
    kinds = sorted(json.loads(t)["type"] for _, t, _ in out["remote"])
    return {"dumps": counts["dumps"], "loads": counts["loads"], "remote": kinds,
            "local": len(out["local"])}



def test_a_guests_tap_costs_at_most_max_passes_of_json_on_the_host():
    got = tap_passes()
    print("JSON passes on the host for one tap at 4 seats:", got)
    assert got["remote"] == ["sealed"] * 3 + ["view"] * 3 and got["local"] == 1
    assert got["dumps"] + got["loads"] <= MAX_PASSES, got
