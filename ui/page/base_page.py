"""What every page shares (MicroPython, main thread): the renderer, the model, the periodic
UI tick, the wake lock, a tap's intent turned into the room's message (room_commands), the
round's record to save, and leaving the room.

Fair play (docs/protocol.md "Verifiable shuffle"): a guest's page answers each commitment with
16 random bytes (the Client's nonce: boot.js crisp.randomHex, crypto.getRandomValues); every
page checks each round at its end and offers its record as a JSON download (save_record)."""
import json

import js
from pyscript.ffi import create_proxy

from ui.page import browser, room_commands
from ui.page.screens import render, screens
from ui.page.browser import Timer, download, log
from ui.page.screens.intents import sends_first
from ui.page.screens.viewmodel import awake_wanted

UI_TICK_MS = 250          # countdowns, one-time reveals, the guest's link (ui/page/net/link.py)
LEAVE_MS = 600            # a leaving guest waits this long at most for the room to hear it


class Page:
    """What both pages share: the renderer, the model, the periodic UI tick. `screen`: the
    renderer of a page this one takes over from (a guest page that becomes the host in a
    handover: the table stays on screen), else a new one."""

    def __init__(self, screen=None):
        self.client = None
        if screen is None:
            screen = render.Screen(js.document.getElementById("app"), self.intent)
        else:
            screen.on_intent = self.intent
        self.screen = screen
        self.awake = False            # the Screen Wake Lock is wanted (awake.js holds it)
        self.leaving = Timer(self.go_home)
        self.retired = False          # another page object runs this page now
        self._tick_proxy = create_proxy(lambda *a: self.ui_tick())
        self._tick_handle = js.setInterval(self._tick_proxy, UI_TICK_MS)
        self._soon = Timer(self.render)   # render_soon's

    def retire(self):
        """Another page object takes over this page (a host handover): stop ticking; every
        callback of this one does nothing from now on."""
        self.retired = True
        js.clearInterval(self._tick_handle)
        self.leaving.cancel()
        self._soon.cancel()

    def now(self):
        """The wall clock, ms (browser.now)."""
        return browser.now()

    def model(self):
        return self.client

    def render(self, model=None):
        """Draw `model` (the page's `model()` just read, else read now: on the host page it
        sets the engine's and the room's fields on the Client, not free to read twice)."""
        # Screen recovers from a failed patch by itself (it draws afresh); what can still
        # raise here is building the page from the model, and a retry would raise again.
        # Log it, so the timer or network callback that called us goes on.
        try:
            model = model if model is not None else self.model()
            self.screen.update(model)
        except Exception as e:
            js.console.error("crisp: render failed: " + str(e))
        self.keep_awake(model)

    def render_soon(self):
        """Render in a task of its own after this one, once for everything that arrives
        meanwhile: handling a message (the engine's reply, the host's view) and drawing the
        screen it leads to never make one long task, and a burst of messages (the engine's
        replies once it runs) draws the screen once."""
        if self._soon.handle is None:
            self._soon.next_task()

    def render_now(self):
        """Render in this task (a render_soon asked for meanwhile is done by it)."""
        self._soon.cancel()
        self.render()

    def keep_awake(self, model=None):
        """Hold the Screen Wake Lock while a round is played on this page (`model`: the page's
        model just drawn, else read now), let it go otherwise (awake.js asks again when the
        page is shown; absent where unsupported)."""
        want = awake_wanted(model if model is not None else self.model())
        if want != self.awake:
            self.awake = want
            try:
                js.crisp.keepAwake(want)
            except Exception as e:
                log("wake lock:", e)

    def ui_tick(self):
        """Every UI_TICK_MS: the reveals whose time is up turned back, and the screen drawn
        again when that, the page's own work this tick or the clock changes what it shows
        (Screen.due; a table where nothing counts down is not rebuilt 4 times a second)."""
        changed = self.client is not None and self.client.tick(self.now())
        model = self.model()
        if changed or self.screen.due(model):
            self.render(model)
        else:
            self.screen.land()          # the card flights whose time is up, without a render

    def intent(self, name, payload):
        """A tap's intent (ui/page/screens/render.py has drawn the tap itself already): handled now, the
        screen it leads to drawn in a task of its own (render_soon), so that a tap that opens
        another screen (Create room: the lobby) is not one long task. A move
        (intents.sends_first) is drawn when the room's answer comes (on the host's page a
        render now would hold up the engine's reply, and with it every guest's view)."""
        try:
            self.handle(name, payload)
        except Exception as e:
            log("intent", name, "failed:", e)
        if not sends_first([(name, payload)]):
            self.render_soon()

    def handle(self, name, payload):
        client = self.client
        msg = room_commands.host_message(name, payload)
        if name == "action":
            client.act(payload, self.now())
        elif name == "new_game":
            self.new_game()
        elif msg is not None:
            client.host(msg)
        elif name == "join_code":
            # a friend's room by its code: its guest page (boot.js: ?room= is a guest page)
            browser.go(self.screen.base + "?room=" + str(payload.get("room")))
        elif name == "dismiss_reveal":
            client.dismiss_reveals()
        elif name == "react":
            client.react(payload.get("r"))        # a quick reaction (client_reactions.py)
        elif name == "leave":
            self.leave()
        elif name == "sit":
            self.name = payload.get("name")       # its name when the seat is given
            client.sit(payload.get("name"), payload.get("seat"))
        elif name in ("copy_link", "share_link"):
            self.pass_link(name)
        elif name == "save_record":
            self.save_record()
        else:
            self.other(name, payload)

    def pass_link(self, name):
        """The room's link to the clipboard (`copy_link`) or to the phone's share sheet."""
        link = screens.room_link(self.client, self.screen.base)
        if not link:
            return
        if name == "copy_link":
            self.copy_text(link)
        else:
            js.navigator.share(js.JSON.parse(json.dumps({"url": link})))

    def copy_text(self, text):
        """Put `text` on the clipboard; the Copy button says "Copied!" only once the browser
        has done it, else "copy it by hand" (no clipboard on a plain-http LAN address, or
        permission refused)."""
        ui = self.screen.ui

        def done(ok):
            ui["copied_at" if ok else "copy_failed_at"] = self.now()
            self.render()

        try:
            clipboard = js.navigator.clipboard
            promise = clipboard.writeText(text)
            promise.then(create_proxy(lambda *a: done(True)),
                         create_proxy(lambda *a: done(False)))
        except Exception as e:          # no clipboard here (not a secure context)
            log("cannot copy:", str(e))
            done(False)

    def other(self, name, payload):
        log("intent not handled here:", name)

    def save_record(self):
        """The last round's record (commitment, contributions, secret, inputs, what this page
        saw) as a JSON file: `python3 -m crisp_core.verify <file>` checks it again."""
        record = getattr(self.client, "record", None)
        if record is None:
            return
        room = str(self.client.room or "room")[-8:]
        download("crisp-%s-round-%s.json" % (room, record.get("round")), json.dumps(record))

    def new_game(self):
        self.client.host({"type": "new_game"})

    def leave(self):
        """`leave`: the room hears it first (a guest's seat frees up in the lobby, a bot takes
        it at the table), then this page forgets the room and opens the landing (no ?room)."""
        if self.tell_leave():
            self.leaving.at(LEAVE_MS)     # or at once when the room's `kicked` `left` comes
        else:
            self.go_home()

    def tell_leave(self):
        """Send `leave` to the room when there is one to tell; True when it was sent."""
        return False

    def go_home(self):
        self.leaving.cancel()
        self.forget_room()
        browser.go(self.screen.base or "./")

    def forget_room(self):
        pass
