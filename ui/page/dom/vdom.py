"""A tiny virtual DOM: trees of plain dicts, and the patcher that brings the real DOM up to them.

A node is {"tag", "attrs", "kids"} (text is {"tag": "#text", "text": s}); a node may carry a
"key" (`keyed`), and the patcher notes its DOM element in "el". `h` and the finders are pure
(tests use them like page locators); `Patcher` needs a document (the browser's, or a fake one
in tests). Text always goes into text nodes, never innerHTML. Runs on MicroPython and Pyodide.

Names are shown isolated from the text around them (`<bdi>`), so a right-to-left name never
reorders a sentence: `isolate` wraps a name in FSI/PDI marks (U+2068/U+2069; the view-model's
`seat_name` does it for every name), which a text child turns into a `<bdi>` element and an
attribute (an aria-label: spoken, not laid out) drops.

SVG elements (icons, ui/page/screens/icons.py) are nodes made by `svg`: they carry "ns" (the SVG namespace)
and the patcher creates them with createElementNS, so the browser draws them; an `h` node of
the same tag name would be an unknown HTML element and draw nothing.
"""

FSI = "\u2068"      # first strong isolate ... (isolate wraps every name in these two)
PDI = "\u2069"      # ... pop directional isolate
BIDI_CONTROLS = ("\u200e", "\u200f", "\u061c", "\u202a", "\u202b", "\u202c", "\u202d",
                 "\u202e", "\u2066", "\u2067", "\u2068", "\u2069")


SVG_NS = "http://www.w3.org/2000/svg"


def isolate(name):
    """A name to show inside other text: no bidi controls of its own, wrapped in FSI/PDI
    (shown as a <bdi> element)."""
    name = str(name)
    for ch in BIDI_CONTROLS:
        if ch in name:
            name = name.replace(ch, "")
    return FSI + name + PDI


def h(tag, attrs=None, *children):
    """A node: children may be nodes, strings (text), None/False (nothing) or lists of them."""
    kids = []
    for c in children:
        _flatten(c, kids)
    if attrs:
        for k in attrs:
            v = attrs[k]
            if isinstance(v, str) and FSI in v:
                # an attribute is spoken (aria-label), not laid out: no isolate marks
                attrs[k] = v.replace(FSI, "").replace(PDI, "")
    return {"tag": tag, "attrs": attrs or {}, "kids": kids}


def svg(tag, attrs=None, *children):
    """An SVG element node ("svg", "path", "circle", ...): like `h`, in the SVG namespace.
    Every element of an SVG drawing is made with `svg`, the <svg> itself included."""
    node = h(tag, attrs, *children)
    node["ns"] = SVG_NS
    return node


def _flatten(c, out):
    if c is None or c is False:
        return
    if isinstance(c, (list, tuple)):
        for x in c:
            _flatten(x, out)
    elif isinstance(c, dict):
        out.append(c)
    else:
        text = str(c)
        if FSI in text:
            _isolates(text, out)
        else:
            out.append({"tag": "#text", "text": text})


def _isolates(text, out):
    """A text holding names (FSI name PDI): the names become <bdi> elements."""
    while text:
        start = text.find(FSI)
        end = text.find(PDI, start + 1) if start >= 0 else -1
        if start < 0 or end < 0:
            out.append({"tag": "#text", "text": text})
            return
        if start:
            out.append({"tag": "#text", "text": text[:start]})
        out.append({"tag": "bdi", "attrs": {},
                    "kids": [{"tag": "#text", "text": text[start + 1:end]}]})
        text = text[end + 1:]


def text_of(node):
    """All the text under a node, as a page would show it (for tests and aria labels)."""
    if node["tag"] == "#text":
        return node["text"]
    return "".join([text_of(k) for k in node["kids"]])


def find(node, testid):
    """The first node with this data-testid, or None (tests use it like a page locator)."""
    if node["tag"] == "#text":
        return None
    if node["attrs"].get("data-testid") == testid:
        return node
    for k in node["kids"]:
        r = find(k, testid)
        if r is not None:
            return r
    return None


def find_all(node, pred, out=None):
    """Every node under (and including) `node` for which pred(node) is true, in page order."""
    if out is None:
        out = []
    if node["tag"] != "#text":
        if pred(node):
            out.append(node)
        for k in node["kids"]:
            find_all(k, pred, out)
    return out


def keyed(node, key):
    """Mark a node with a key: the patcher matches keyed siblings by key, not by index."""
    if node is not None:
        node["key"] = key
    return node


class Patcher:
    """Creates and patches real DOM nodes from trees made by `h`, on `document`."""

    def __init__(self, document):
        self.document = document

    def create(self, v):
        """The real DOM node for tree node `v` (and its kids), noted in v["el"]."""
        doc = self.document
        if v["tag"] == "#text":
            el = doc.createTextNode(v["text"])
        else:
            ns = v.get("ns")
            el = doc.createElementNS(ns, v["tag"]) if ns else doc.createElement(v["tag"])
            attrs = v["attrs"]
            for k in attrs:
                if k not in ("value", "checked"):
                    self._set(el, k, attrs[k])
            kids = v["kids"]
            for j in range(len(kids)):
                kid = kids[j]
                if "kept" in kid:
                    kid = kids[j] = placed(kid, None)
                el.appendChild(self.create(kid))
            for k in ("value", "checked"):
                if k in attrs:
                    self._set(el, k, attrs[k])
        v["el"] = el
        return el

    def _set(self, el, k, val):
        if k == "value":
            el.value = "" if val is None else str(val)
        elif k == "checked":
            el.checked = bool(val)
        elif val is None or val is False:
            el.removeAttribute(k)
        elif val is True:
            el.setAttribute(k, "")
        elif k == "style":
            # through the CSSOM: the page's Content-Security-Policy allows no inline style
            # attributes (style-src has no 'unsafe-inline')
            el.style.cssText = str(val)
        else:
            el.setAttribute(k, str(val))

    def _patch_keyed(self, el, ok, nk):
        """Children that carry a "key" (the event log's lines): matched by key, so a line
        added at the top is one insertion (one announcement for a screen reader), not every
        line rewritten. Only what moved is moved; the order is known from the old tree."""
        wanted = {}
        for n in nk:
            wanted[n["key"]] = True
        by_key = {}
        cur = []                       # old children still in the DOM, in DOM order
        for o in ok:
            if o["key"] in wanted and o["key"] not in by_key:
                by_key[o["key"]] = o
                cur.append(o)
            else:
                el.removeChild(o["el"])
        for i in range(len(nk)):
            n = nk[i]
            o = by_key.pop(n["key"], None)
            if "kept" in n and n is not o:
                n = nk[i] = placed(n, o)
            if o is not None and o["tag"] == n["tag"] and o.get("ns") == n.get("ns"):
                self.patch(el, o, n)
                if i < len(cur) and cur[i] is o:
                    continue           # already in place
                j = _index_of(cur, o)
                cur.pop(j)
            else:
                if o is not None:
                    el.removeChild(o["el"])
                    cur.pop(_index_of(cur, o))
                self.create(n)
            if i < len(cur):
                el.insertBefore(n["el"], cur[i]["el"])
            else:
                el.appendChild(n["el"])
            cur.insert(i, n)

    def _sync(self, el, k, val):
        """A field shows the model's value, also after the player changed it and the room
        did not follow (a refused option): compared with the live DOM, not the last tree.
        Written only when it differs, so typing is never disturbed."""
        if k == "value":
            want = "" if val is None else str(val)
            if str(el.value) != want:
                el.value = want
        elif bool(el.checked) != bool(val):
            el.checked = bool(val)

    def patch(self, parent, old, new):
        """Bring `old`'s DOM node (a child of `parent`) to what `new` describes, writing only
        what differs; `new` takes over the nodes (new["el"]). Raises what the DOM raises when
        something else moved the nodes."""
        if old is new:
            return                  # a subtree kept from the last render (Memo): as it was
        el = old["el"]
        if old["tag"] != new["tag"] or old.get("ns") != new.get("ns"):
            made = self.create(new)
            parent.replaceChild(made, el)
            return
        new["el"] = el
        if new["tag"] == "#text":
            if old["text"] != new["text"]:
                el.data = new["text"]
            return
        ok = old["kids"]
        nk = new["kids"]
        if _keyed(ok) and _keyed(nk):
            self._patch_keyed(el, ok, nk)
        else:
            i = 0
            while i < len(nk):
                n = nk[i]
                if i < len(ok):
                    if n is not ok[i] and "kept" in n:
                        n = nk[i] = placed(n, ok[i])
                    self.patch(el, ok[i], n)
                else:
                    if "kept" in n:
                        n = nk[i] = placed(n, None)
                    el.appendChild(self.create(n))
                i += 1
            while i < len(ok):
                el.removeChild(ok[i]["el"])
                i += 1
        oa = old["attrs"]
        na = new["attrs"]
        for k in na:
            if k == "value" or k == "checked":
                self._sync(el, k, na[k])
            elif k not in oa or oa[k] != na[k]:
                self._set(el, k, na[k])
        for k in oa:
            if k not in na:
                if k == "value":
                    el.value = ""
                elif k == "checked":
                    el.checked = False
                else:
                    el.removeAttribute(k)


def fresh(node):
    """A copy of a tree with no DOM elements noted and nothing kept (the patcher makes it
    anew); a copy of a kept subtree notes which ("of"), inside it too."""
    if node["tag"] == "#text":
        return {"tag": "#text", "text": node["text"]}
    out = {"tag": node["tag"], "attrs": dict(node["attrs"]),
           "kids": [fresh(k) for k in node["kids"]]}
    for k in ("key", "ns"):
        if k in node:
            out[k] = node[k]
    if "kept" in node:
        out["of"] = node
    return out


def placed(node, old):
    """What the patcher draws for kept subtree `node` where the last tree had `old` (None:
    nothing, a place made anew): `node` itself when it is new in this render (no element
    noted yet) or `old` is the copy of it drawn there; else a copy (`fresh`). A subtree kept
    from the last render was drawn somewhere in the last tree, and keeps its elements there
    (where it is patched or removed); drawn at another place (it moved among its siblings,
    or the part around it was made anew and now stands where another was), it is a new
    subtree of the same content, so that one node never stands for two elements."""
    if "el" not in node or (old is not None and old.get("of") is node):
        return node
    return fresh(node)


def _keyed(kids):
    if not kids:
        return False
    for k in kids:
        if "key" not in k:
            return False
    return True


def _index_of(nodes, node):
    for i in range(len(nodes)):
        if nodes[i] is node:
            return i
    return -1
