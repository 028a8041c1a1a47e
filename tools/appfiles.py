"""What makes the page installable and offline (tools/build.py writes them): the web app
manifest, its icons (PNG, standard library only) and the service worker's generated head."""

import json
import struct
import zlib

APP_NAME = "Crisp"
APP_COLOR = (0x0F, 0x51, 0x32)       # the table's green (index.html theme-color)
CARD_COLOR = (0xF4, 0xF1, 0xE8)
ICON_SIZES = (192, 512)


def icon_path(size):
    """The build-relative path of the `size`-pixel icon: "icons/icon-<size>.png"."""
    return f"icons/icon-{size}.png"


def png_icon(size):
    """The app's icon, `size` pixels square, as PNG bytes (stdlib only): a card, face down, on
    the table's green."""
    w, h = int(size * 0.46), int(size * 0.64)
    x0, y0 = (size - w) // 2, (size - h) // 2
    r = max(2, size // 24)
    rows = []
    for y in range(size):
        row = bytearray([0])                      # filter: none
        for x in range(size):
            inside = x0 <= x < x0 + w and y0 <= y < y0 + h
            if inside:                            # rounded corners
                cx = min(max(x, x0 + r), x0 + w - 1 - r)
                cy = min(max(y, y0 + r), y0 + h - 1 - r)
                inside = (x - cx) ** 2 + (y - cy) ** 2 <= r * r
            border = inside and not (x0 + r // 2 <= x < x0 + w - r // 2
                                     and y0 + r // 2 <= y < y0 + h - r // 2)
            row += bytes(APP_COLOR if (border or not inside) else CARD_COLOR)
        rows.append(bytes(row))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def manifest():
    """The web app manifest (JSON text): name, colours, the icons of ICON_SIZES, standalone."""
    colour = "#%02x%02x%02x" % APP_COLOR
    return json.dumps({
        "name": APP_NAME, "short_name": APP_NAME,
        "description": "The card game of memory and bluff, with friends, peer to peer.",
        "start_url": "./", "scope": "./", "display": "standalone",
        "background_color": colour, "theme_color": colour,
        "icons": [{"src": icon_path(n), "sizes": f"{n}x{n}", "type": "image/png",
                   "purpose": "any"} for n in ICON_SIZES],
    }, indent=2) + "\n"


def engine_files(names, pyodide_dir, pyodide_files, zips):
    """The engine's files (a host's, solo's), as the service worker's `engine`: what a new
    build's sw.js has before it takes over from a build whose engine the browser kept
    (sw.js keepEngine): the engine worker (`names`: its versioned name), Pyodide's files
    but its package.json, the host zip and the memory snapshot (`zips`)."""
    return ([names.get("engine-worker.js", "engine-worker.js")]
            + [pyodide_dir + "/" + f for f in pyodide_files if f != "package.json"]
            + [zips["host"]] + ([zips["snapshot"]] if zips.get("snapshot") else []))


def service_worker(source, build, shell, files, engine=()):
    """sw.js as served: `source` (the repository's sw.js) after a generated first line naming
    the build's files: `build` (an id of the files' content), `shell` (what it caches first,
    the page's paths), `files` (every file it may keep) and `engine` (the engine's: what it
    has before it takes over from a build whose engine this browser kept). -> (the text,
    the head dict)."""
    head = {"id": build, "shell": shell, "files": files, "engine": list(engine)}
    return ("self.CRISP_BUILD = " + json.dumps(head, separators=(",", ":")) + ";  // GENERATED\n"
            + source), head
