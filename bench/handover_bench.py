"""The sealed room's size (issue 10, item 3: docs/protocol.md "Host handover"): the largest
`sealed` message the room sends while 8-seat games are played (people act at random from
what the room allows them; the rest are hard bots), against MAX_TEXT, and how long sealing
and opening take in CPython. Prints numbers; asserts nothing.

    .venv/bin/python -m bench.handover_bench
"""

import json
import os
import random
import sys
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from roomnet import Net  # noqa: E402
from ui.shared import seal  # noqa: E402
from ui.worker.room import LOCAL, MAX_TEXT, bot_maker  # noqa: E402

NAMES = ["Ana", "Bea", "Cid", "Dan", "Eva", "Fin", "Gus"]
WATCHERS = 8          # spectators watching all along (MAX_SPECTATORS): the sealed room keeps them


def play(people, seed, steps=400):
    rng = random.Random(seed)
    net = Net(make_bot=bot_maker(seed, 0.01), seed=seed)
    net.host.join("Host")
    conns = [LOCAL] + ["c%d" % i for i in range(people - 1)]
    for i in range(people - 1):
        net.guest(conns[i + 1], NAMES[i])
    for _ in range(8 - people):
        net.host.host({"type": "add_bot", "level": "hard"})
    net.host.host({"type": "start"})
    for i in range(WATCHERS):
        # the spectators the sealed room keeps (PeerJS ids as the cloud gives them: UUIDs)
        conn = "w%d" % i
        watcher = net._client(conn)
        net.deliver(net.room.open(conn, net.clock, peer=str(uuid.UUID(int=rng.getrandbits(128)))))
        watcher.connected()
        watcher.watch()
    largest, at, seal_ms, open_ms, whole = 0, None, [], [], 0
    for _ in range(steps):
        room = net.room
        if room.game is None:
            break
        for conn in conns:
            seat = room.conns.get(conn) if conn != LOCAL else room.host
            if seat is None or room.game.phase == "game_over":
                continue
            legal = [a for a in room.game.legal_actions(seat, room.now)
                     if a["do"] != "next_round" or conn == LOCAL]
            if legal:
                net.clients[conn].act(rng.choice(legal))
        net.later(rng.choice((200, 800, 1500)))
        room.sealed_at = None
        t = time.perf_counter()
        out = room.seal_out(net.clock)
        seal_ms.append((time.perf_counter() - t) * 1000)
        if out:
            size = max(len(text) for _, text in out)
            box, _ = seal.seal_room(room.to_dict(), room.room_id, 1, [1, 2])
            whole = max(whole, len(box["data"]))      # the whole to_dict, as sealed before
            if size > largest:
                largest = size
                at = (room.game.phase, room.game.round, len(room.game.journal))
            msgs = [json.loads(text) for _, text in out]
            t = time.perf_counter()
            seal.open_room(msgs[0]["box"], [m["share"] for m in msgs[:2]], room.room_id)
            open_ms.append((time.perf_counter() - t) * 1000)
    return largest, at, seal_ms, open_ms, whole


def main():
    for people in (3, 5, 8):
        sizes = []
        for seed in range(3):
            largest, at, seal_ms, open_ms, whole = play(people, seed)
            sizes.append(largest)
            print("8 seats, %d people, %d spectators (seed %d): largest sealed message %d bytes (MAX_TEXT %d;"
                  " the whole to_dict's box data alone: %d) at %s; seal %.1f ms, open %.1f ms"
                  " (medians)" % (people, WATCHERS, seed, largest, MAX_TEXT, whole, at,
                     sorted(seal_ms)[len(seal_ms) // 2],
                     sorted(open_ms)[len(open_ms) // 2] if open_ms else 0))
        print("  -> largest of 3 games: %d bytes" % max(sizes))


if __name__ == "__main__":
    main()
