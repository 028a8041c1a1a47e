"""Cards in flight (browser only): a copy of a card, fixed over the page, animated from the
place it left to the place it went (the CSS `crisp-fly` in ui/style.css), its destination
hidden until it lands. What flies is decided in ui/page/screens/cues.py (pure); the Screen
(ui/page/screens/render.py) asks for it after each render. Runs on MicroPython and Pyodide.
"""

from ui.page.screens import cues
from ui.page.screens.widgets import card_node


class Flights:
    """The flights under way on one page: `js` (the browser), `root` (the screens' element),
    `patcher` (vdom.Patcher, to make a card's element), `is_none` (a JS null/undefined test),
    `warn(text)` (the page's console note: a flight that fails never fails the render)."""

    def __init__(self, js, root, patcher, is_none, warn):
        self.js = js
        self.warn = warn
        self.root = root
        self.patcher = patcher
        self._none = is_none
        self.flying = []            # [(flight element, its destination, ms it is done)]
        self.queued = []            # [(flights, ms asked)] waiting for the next frame
        self._frame = None          # the requestAnimationFrame proxy, made on first use

    def fly_next_frame(self, flights, now, clock):
        """`fly(flights, now)`, in the next animation frame, before it is painted: a flight
        measures where its places are on screen (a layout), and in the frame the patch that
        moved them is laid out once anyway, so the render (and the message that led to it)
        never waits for a forced layout. A flight whose time is over by then (a page in the
        background has no frames) is dropped; the others start as asked, a frame later.
        `clock()`: the page's clock in ms. Where there are no animation frames, at once."""
        if not flights:
            return
        self.queued.append((flights, now))
        if len(self.queued) > 1:
            return                  # a frame is asked for already
        try:
            if self._frame is None:
                from pyscript.ffi import create_proxy
                self._frame = create_proxy(lambda *a: self._take_queued(clock()))
            self.js.requestAnimationFrame(self._frame)
        except Exception:
            self._take_queued(now)

    def _take_queued(self, now):
        queued, self.queued = self.queued, []
        for flights, asked in queued:
            late = now - asked
            self.fly([f for f in flights
                      if f["delay"] + f.get("ms", cues.FLIGHT_MS) > late], now)

    def fly(self, flights, now):
        """Each flight: a copy of the card, fixed over the page, animated (CSS `crisp-fly`)
        from the place the card left to the place it went; its destination is hidden until
        it lands. `flights`: cues.flights / cues.deal_flights ({"from", "to": data-testids,
        "card": code | None, "delay": ms, "ms": length (default cues.FLIGHT_MS), "deal"}),
        `now`: the page's clock in ms. The caller skips it under reduced motion."""
        if not flights:
            return
        doc = self.js.document
        for f in flights:
            try:
                src = self.root.querySelector('[data-testid="' + f["from"] + '"]')
                dst = self.root.querySelector('[data-testid="' + f["to"] + '"]')
                if self._none(src) or self._none(dst):
                    continue
                # the places' own entrance animations (a card flipping over, the drawn card
                # sliding in) end now: the flight is the movement, and a place measured
                # mid-turn would be narrow or off
                _settle(src)
                _settle(dst)
                a = src.getBoundingClientRect()
                b = dst.getBoundingClientRect()
                if float(a.width) <= 0 or float(b.width) <= 0:
                    continue  # not on screen (e.g. under the results sheet)
                if f.get("deal"):
                    a = _centred(a, b)     # a card of the dealer's deck, over the seat
                ms = f.get("ms", cues.FLIGHT_MS)
                node = card_node(f["card"], {"data-testid": "flight", "data-from": f["from"],
                                             "data-to": f["to"], "aria-hidden": "true"},
                                 "md", "flight")
                el = self.patcher.create(node)
                # through the CSSOM, as vdom does: the page's CSP allows no style attribute
                el.style.cssText = _flight_style(a, b, f["delay"], ms)
                doc.body.appendChild(el)
                hide = f["to"] not in ("deck", "discard")
                if hide:
                    dst.style.visibility = "hidden"
                self.flying.append((el, dst if hide else None,
                                     now + f["delay"] + ms + 60))
            except Exception as e:
                self.warn("flight failed: " + str(e))

    def land(self, now):
        """Take away the flights that are over (checked on every render, and on every tick
        that draws nothing, Screen.land: at least every 250 ms) and show their destinations
        again."""
        keep = []
        for el, dst, done in self.flying:
            if done > now:
                keep.append((el, dst, done))
                continue
            try:
                el.remove()
                if dst is not None:
                    dst.style.visibility = ""
            except Exception:
                pass
        self.flying = keep

def _settle(el):
    """Finish the animations running on `el` (best effort: not every browser has them)."""
    try:
        anims = el.getAnimations()
        for i in range(int(anims.length)):
            anims[i].finish()
    except Exception:
        pass


class _Rect:
    """A rectangle in px, read like a DOMRect (left, top, width, height)."""

    def __init__(self, left, top, width, height):
        self.left, self.top, self.width, self.height = left, top, width, height


def _centred(outer, card):
    """A rect of `card`'s size centred over `outer` (DOMRects): where a dealt card starts."""
    w, h = float(card.width), float(card.height)
    return _Rect(float(outer.left) + (float(outer.width) - w) / 2,
                 float(outer.top) + (float(outer.height) - h) / 2, w, h)


def _flight_style(a, b, delay, ms):
    """The inline style of a flight from rect `a` to rect `b` (DOMRects, px) starting after
    `delay` ms and lasting `ms`: placed over `a`, moved and scaled to `b` by the CSS
    animation through --dx, --dy, --sx, --sy."""
    ax, ay, aw, ah = float(a.left), float(a.top), float(a.width), float(a.height)
    bx, by, bw, bh = float(b.left), float(b.top), float(b.width), float(b.height)
    return ("left:%.1fpx;top:%.1fpx;width:%.1fpx;height:%.1fpx;--dx:%.1fpx;--dy:%.1fpx;"
            "--sx:%.3f;--sy:%.3f;animation-delay:%dms;animation-duration:%dms"
            % (ax, ay, aw, ah, bx - ax, by - ay, bw / aw, bh / ah, delay, ms))
