"""A page that shows ui/page/screens/render.py's screens for hand-made models, on either interpreter, with
no room and no network: for measuring the screens (touch targets, overflow) and for stressing
the DOM patcher with many quick updates.

`install(dist)` writes `screens.html` into a built site. The page defines, once Python runs:
    crispShow(json_text)   the model (a JSON object of Client attributes) rendered by the one
                           Screen of the page (patched, as a real page does on every message)
    crispFresh(json_text)  the same model drawn from scratch in #fresh (a second Screen with the
                           first one's `ui` state): the patched page must look exactly like it
    crispIntents           [[name, payload], ...] the intents taps produced
and sets body[data-ready] to the interpreter's name. The clock is frozen (Screen._now) so a
patched and a fresh drawing of one model are comparable to the character.
"""

import gzip
import json
import os

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>Crisp screens</title>
<link rel="stylesheet" href="./%(pyscript)s/core.css">
<link rel="stylesheet" href="./ui/style.css">
<script type="module" src="./%(pyscript)s/core.js"></script>
</head>
<body>
<div id="app"></div>
<div id="fresh" hidden></div>
<script type="%(type)s" config="./%(config)s">
%(code)s
</script>
</body>
</html>
"""

CODE = r'''
import json
import sys
import js
from pyscript.ffi import create_proxy
from ui.page.screens import render

CLOCK = [1000000]


class Model:
    def __init__(self, d):
        for k in d:
            setattr(self, k, d[k])


def on_intent(name, payload):
    js.window.crispIntents.push(json.dumps([name, payload]))


def frozen(screen):
    screen._now = lambda: CLOCK[0]
    return screen


js.window.crispIntents = js.Array.new()
screen = frozen(render.Screen(js.document.getElementById("app"), on_intent))


def settle(s):
    # Run the work a render left for later (Screen._defer: a QR code, a step per task) to
    # its end now: a patched and a fresh drawing are compared once both are whole, not while
    # a loaded machine has run only some of those tasks (seen under stress-ng: a guest's
    # lobby compared with half its QR code drawn)
    for _ in range(10000):
        if not s._later:
            break
        s._run_later()
    return "ok"


def tuple_keys(d):
    # reveal_until's JSON keys "seat:pos" to the Client's (seat, pos)
    if isinstance(d.get("reveal_until"), dict):
        d["reveal_until"] = {(int(k.split(":")[0]), k.split(":")[1]): v
                             for k, v in d["reveal_until"].items()}


def show(text):
    d = json.loads(text)
    if "_clock" in d:
        CLOCK[0] = d["_clock"]
    tuple_keys(d)
    if "_ui" in d:
        for k in d["_ui"]:
            screen.ui[k] = d["_ui"][k]
    screen.update(Model(d))
    return "ok"


def fresh(text):
    d = json.loads(text)
    tuple_keys(d)
    root = js.document.getElementById("fresh")
    root.textContent = ""
    other = frozen(render.Screen(root, lambda name, payload: None))
    for k in screen.ui:
        other.ui[k] = screen.ui[k]
    other.update(Model(d))
    other._err_at = screen._err_at
    other._err_key = screen._err_key
    other.render()
    settle(other)
    return root.innerHTML


js.window.crispShow = create_proxy(show)
js.window.crispFresh = create_proxy(fresh)
js.window.crispSettle = create_proxy(lambda: settle(screen))
js.document.body.dataset.ready = ("micropython" if sys.implementation.name == "micropython"
                                  else "pyodide")
'''


def install(dist, interpreter="micropython", name=None):
    """Write the screens page into a built site; returns its path (relative URL). Pages
    render on MicroPython only (the host's Pyodide runs the engine in a worker)."""
    if interpreter != "micropython":
        raise ValueError("the screens run on MicroPython only")
    with open(os.path.join(dist, "build.json"), encoding="utf-8") as f:
        built = json.load(f)
    pyscript = built["vendor"]["pyscript"]
    # The page's own config (mpy-<build id>.toml) has no [files]: its boot.js writes the
    # page's archive (pagefiles.js). This page has no boot.js, so PyScript unpacks the same
    # files, from the archive as a plain zip of stored entries, through a config of its own.
    with gzip.open(os.path.join(dist, built["zips"]["page"])) as packed:
        with open(os.path.join(dist, "py", "screens-page.zip"), "wb") as f:
            f.write(packed.read())
    with open(os.path.join(dist, built.get("names", {}).get("mpy.toml", "mpy.toml")),
              encoding="utf-8") as f:
        toml = f.read()
    config = "screens.toml"
    with open(os.path.join(dist, config), "w", encoding="utf-8") as f:
        f.write(toml + '\n[files]\n"./py/screens-page.zip" = "./*"\n')
    name = name or "screens.html"
    html = PAGE % {"type": "mpy", "config": config, "code": CODE, "pyscript": pyscript}
    with open(os.path.join(dist, name), "w", encoding="utf-8") as f:
        f.write(html)
    return "/" + name


def show(page, model):
    # ensure_ascii=False, as the room sends it (ui/worker/room.py): MicroPython's json reads a
    # "\\ud83d\\ude00" escape pair as two lone surrogates, not as the emoji
    return page.evaluate("(t) => window.crispShow(t)", json.dumps(model, ensure_ascii=False))


def fresh_html(page, model):
    return page.evaluate("(t) => window.crispFresh(t)", json.dumps(model, ensure_ascii=False))


# A DOM subtree as text with its attributes sorted, plus the live value/checked of fields:
# what the player sees, whatever order a patch set the attributes in.
CANON = """(id) => {
  const walk = (n) => {
    if (n.nodeType === 3) return JSON.stringify(n.data);
    const attrs = [...n.attributes].map(a => a.name + '=' + JSON.stringify(a.value)).sort();
    if ('value' in n && (n.tagName === 'INPUT' || n.tagName === 'SELECT')) attrs.push('.value=' + n.value);
    if (n.type === 'checkbox') attrs.push('.checked=' + n.checked);
    return '<' + n.tagName + ' ' + attrs.join(' ') + '>' + [...n.childNodes].map(walk).join('') + '</>';
  };
  return [...document.getElementById(id).childNodes].map(walk).join('');
}"""


def canon(page, root_id="app"):
    if root_id == "app":
        page.evaluate("window.crispSettle()")
    return page.evaluate(CANON, root_id)


def fresh_canon(page, model):
    fresh_html(page, model)
    return canon(page, "fresh")
