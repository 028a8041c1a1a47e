"""Parts of the screen kept from one render to the next: a part whose inputs are
equal to the last render's is the very same node, which the patcher (ui/page/dom/vdom.py) skips
whole (`old is new`), so a tap or a tick rebuilds and walks only what changed; and values a
render hands to the next (`carried`), so that it redoes only what changed since.

The page's Screen (ui/page/screens/render.py) owns one `Memo` and hands it to each render's Ctx
(`ctx.memo`). Pure: runs on MicroPython, Pyodide and CPython (tests).
"""


class Memo:
    """Subtrees kept from one render to the next: a part of the screen whose
    inputs are equal to the last render's is the very same node, which the patcher skips
    whole (`old is new`), so a tap or a tick rebuilds and walks only what changed.

    `begin()` starts a render: what it does not ask for again is forgotten after it. The
    page's Screen owns one and hands it to each render's Ctx (`ctx.memo`)."""

    def __init__(self):
        self.last = {}      # slot -> (key, node, {act name: spec}, [slots made inside it])
        self.now = {}
        self._making = []   # the slots being made, outermost first: [the slots inside each]

    def begin(self):
        """A new render: the last render's subtrees are the ones that may be kept."""
        self.last = self.now
        self.now = {}
        self._making = []

    def get(self, ctx, slot, key, make, args):
        """The node for `slot`: the last render's when its key equals `key` (its acts
        registered in ctx.acts again, and the slots made inside it kept with it: a render
        that keeps a part whole does not ask for its inner parts, which the next change of
        the part finds again), else make(*args) (its acts noted with it)."""
        old = self.last.get(slot)
        if old is not None and old[0] == key:
            acts = old[2]
            for name in acts:
                ctx.acts[name] = acts[name]
            node = old[1]
            inner = old[3]
            for name in inner:
                got = self.last.get(name)
                if got is not None:
                    self.now[name] = got
        else:
            outer = ctx.acts
            ctx.acts = {}
            self._making.append([])
            try:
                node = make(*args)
                if node is not None:
                    node["kept"] = True     # (the patcher: see `fresh`)
            finally:
                inner = self._making.pop()
                acts = ctx.acts
                ctx.acts = outer
                for name in acts:
                    outer[name] = acts[name]
        if self._making:
            self._making[-1].append(slot)
            self._making[-1].extend(inner)
        self.now[slot] = (key, node, acts, inner)
        return node

    def carry(self, slot, make, args):
        """make(last, *args): `last` is what it made for `slot` in the last render (None in
        the first, or when the last render did not ask for it), so that it may redo only what
        changed since. Its value is kept for the next render as a part is (also inside a part
        kept whole)."""
        old = self.last.get(slot)
        value = make(old[1] if old is not None else None, *args)
        if self._making:
            self._making[-1].append(slot)
        self.now[slot] = (None, value, {}, [])
        return value


def kept(ctx, slot, key, make, *args):
    """make(*args), or the same node as the last render's for `slot` when `key` is equal to
    its key then (ctx.memo, a `Memo`; without one, always make). `key` must hold everything
    `make` reads (the language included), and `make` must make no field (a text input, a
    select: the patcher syncs their live values), leave nothing in ctx.later and read no
    clock (ctx.now, ctx.left, ...: a part kept whole runs no code, so the time it would note
    in ctx.wake is lost; read the clock outside and put its value in `key`). The node
    may be shared between renders: nobody may change it once made, and a slot's node always
    has the same parent (the patcher copies one that moved among its siblings, never across
    parents)."""
    memo = getattr(ctx, "memo", None)
    if memo is None:
        return make(*args)
    return memo.get(ctx, slot, key, make, args)


def carried(ctx, slot, make, *args):
    """make(last, *args), `last` being its value for `slot` in the last render (ctx.memo's
    `carry`); without a memo, or the first time, make(None, *args). `make` must give what it
    would give from nothing: `last` only spares it work (what it made is never changed
    afterwards, by it or anyone)."""
    memo = getattr(ctx, "memo", None)
    if memo is None:
        return make(None, *args)
    return memo.carry(slot, make, args)
