"""Room codes: a short code friends read out and type, which is also the room's id.

A code is 10 characters of Crockford's base32 alphabet (digits and letters without I, L, O
and U, which look or sound like others): 50 random bits, shown in two groups of five
("7KQ2M-9XRTB"). The room id (the host's PeerJS id, docs/protocol.md) is "crisp-" + the code.
Typed codes are forgiving: any case, spaces or dashes, O for 0, I or L for 1, U for V, or a
pasted room link. Pure: runs on MicroPython, Pyodide and CPython.
"""

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 10                      # 10 x 5 bits = 50 bits
BITS = 5 * LENGTH
PREFIX = "crisp-"
LOOK_ALIKES = {"O": "0", "I": "1", "L": "1", "U": "V"}


def new_code(randbits):
    """A fresh code from `randbits(k)` (e.g. secrets.randbits): LENGTH characters."""
    n = randbits(BITS)
    out = []
    for _ in range(LENGTH):
        out.append(ALPHABET[n & 31])
        n >>= 5
    return "".join(out)


def room_id(code):
    """The room id (a valid PeerJS id) of a code."""
    return PREFIX + code


def code_of(room):
    """The code of a room id, or None when the id is not a code's (an older, longer id)."""
    if not isinstance(room, str) or not room.startswith(PREFIX):
        return None
    code = room[len(PREFIX):]
    if len(code) == LENGTH and all(c in ALPHABET for c in code):
        return code
    return None


def is_room_id(room):
    """Whether `room` (a link's ?room=) can name a room at all: "crisp-" + a code, or an
    older room's "crisp-" + 32 hex digits, either one perhaps after handovers
    ("-h<k>-<hex tag>", ui/shared/handover.py room_id_after). Anything else (`?room=hello`, a
    link cut short) is a mistyped link, said at once: no host can ever answer it."""
    if not isinstance(room, str) or not 0 < len(room) <= 64:
        return False
    parts = room.split("-")
    if len(parts) >= 4 and len(parts[-2]) >= 2 and parts[-2][0] == "h" \
            and parts[-2][1:].isdigit() and _hex(parts[-1]):
        room = "-".join(parts[:-2])
    if code_of(room) is not None:
        return True
    rest = room[len(PREFIX):] if room.startswith(PREFIX) else ""
    return len(rest) == 32 and _hex(rest)


def _hex(text):
    return len(text) > 0 and all(c in "0123456789abcdef" for c in text)


def show(code):
    """A code grouped for reading aloud: "7KQ2M-9XRTB"."""
    half = LENGTH // 2
    return code[:half] + "-" + code[half:]


def parse(typed):
    """The code in what a player typed or pasted (a code in any case, with spaces or dashes,
    or a room link), or None when it is not one."""
    text = str(typed or "").strip()
    at = text.find("room=")
    if at >= 0:
        text = text[at + 5:].split("&")[0].split("#")[0]
    text = text.upper()
    if text.startswith(PREFIX.upper()):
        text = text[len(PREFIX):]
    out = []
    for c in text:
        if c in " -_.\t":
            continue
        c = LOOK_ALIKES.get(c, c)
        if c not in ALPHABET:
            return None
        out.append(c)
    code = "".join(out)
    return code if len(code) == LENGTH else None


def is_local_link(link):
    """True when a link points at this computer only (localhost, 127.x.x.x, [::1]): phones
    on the LAN cannot open it."""
    text = str(link or "").lower()
    at = text.find("://")
    if at >= 0:
        text = text[at + 3:]
    host = text.split("/")[0].split("?")[0]
    if host.startswith("["):
        host = host.split("]")[0] + "]"
    else:
        host = host.split(":")[0]
    return host in ("localhost", "[::1]") or host.startswith("127.") or host.endswith(
        ".localhost")
