"""The successor rule's cases (ui/handover.py), plain functions that run on CPython
(tests/test_handover.py imports them) and on MicroPython (the guests' interpreter)."""

from ui.handover import can_continue, epoch_after, next_token, room_id_after, successor



def players(spec):
    """spec: one letter a seat: H a person here, A a person away, B a bot."""
    return [{"seat": i, "name": "P%d" % i, "connected": c != "A", "bot": "easy" if c == "B"
             else None} for i, c in enumerate(spec)]


def test_the_new_host_is_the_lowest_connected_person_other_than_the_old_host():
    assert successor(players("HHH")) == 1
    assert successor(players("HBAH")) == 3
    assert successor(players("HBB")) is None
    assert successor(players("AHH"), host=2) == 1
    assert successor(players("HHH"), host=1) == 0


def test_every_page_names_the_same_seat_whatever_the_order_and_junk():
    base = players("HBHAHB")
    for k in range(len(base)):
        shuffled = base[k:] + base[:k]
        shuffled.reverse()
        assert successor(shuffled + [None, "x", {"seat": True, "connected": True}]) == 2


def test_the_round_goes_on_only_with_two_people_left():
    assert can_continue(players("HHH")) and not can_continue(players("HHB"))
    assert not can_continue(players("HHA"))


def test_the_room_moves_to_a_new_peerjs_id_on_each_handover():
    room_id = "crisp-" + "a" * 32
    assert room_id_after(room_id, 1) == room_id + "-h1"
    assert room_id_after(room_id + "-h1", 2) == room_id + "-h2"
    for bad in (0, -1, 100, True, "1"):
        try:
            room_id_after(room_id, bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_only_the_successor_can_prove_itself_to_a_holder():
    from ui.handover import successor_key, successor_mac
    room = "crisp-" + "b" * 32
    tokens = {1: "1" * 32, 2: "2" * 32, 3: "3" * 32}
    # the old host gave holder 2 the key of seat 1; seat 1's page derives it from its token
    given = successor_key(tokens[1], room, 2)
    assert given == successor_key(tokens[1], room, 2)
    nonces = ("a" * 32, "c" * 32)
    right = successor_mac(successor_key(tokens[1], room, 2), room, 1, "peer-2", *nonces)
    assert right == successor_mac(given, room, 1, "peer-2", *nonces)
    # another seat's token, another holder, another peer or nonce: another proof
    assert successor_mac(successor_key(tokens[3], room, 2), room, 1, "peer-2", *nonces) != right
    assert successor_mac(successor_key(tokens[1], room, 3), room, 1, "peer-2", *nonces) != right
    assert successor_mac(given, room, 1, "peer-x", *nonces) != right
    assert successor_mac(given, room, 1, "peer-2", "d" * 32, nonces[1]) != right
    assert successor_mac(given, "crisp-other", 1, "peer-2", *nonces) != right
    # the key given to holder 2 is not the one holder 3 checks with
    assert successor_key(tokens[1], room, 3) != given


def test_every_page_derives_the_same_next_token_bound_to_the_successor():
    room = "crisp-" + "c" * 32
    token = "4" * 32
    mine = next_token(token, room, 1)
    assert mine == next_token(token, room, 1) and len(mine) == 32
    assert int(mine, 16) >= 0                               # hex
    assert mine != next_token(token, room, 2) and mine != next_token(token, room + "-h1", 1)
    assert mine != next_token("5" * 32, room, 1) and mine != token


def test_the_next_epoch_follows_the_room_id():
    room = "crisp-" + "d" * 32
    assert epoch_after(room) == 1
    assert epoch_after(room + "-h1") == 2 and epoch_after(room + "-h12") == 13
    assert room_id_after(room + "-h1", epoch_after(room + "-h1")) == room + "-h2"
    assert epoch_after(None) == 1 and epoch_after("crisp-x-hx") == 1
