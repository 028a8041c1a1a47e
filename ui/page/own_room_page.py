"""A room link opened in the browser that hosts that room (hostlife.own_room): never a second
seat. The page says that a tab runs the room, or offers to resume hosting it."""
from ui.page import browser
from ui.page.base_page import Page
from ui.page.browser import log
from ui.page.saved_rooms import SavedRooms



class OwnRoom:
    """The model of a room link opened in the browser that hosts the room (ui/page/net/link.py
    `own_room`): `own` "elsewhere" (a tab runs it now) or "resume" (none does)."""

    screen = "own_room"

    def __init__(self, room_id, own):
        self.room = room_id
        self.own = own
        self.status = "ok"


class OwnRoomPage(Page):
    """This browser hosts the room of the link it opened: never a second seat. Says that a
    tab runs the room, or offers to resume hosting it (the host page, ?host=<id>); checks
    again every tick (the other tab may close)."""

    def __init__(self, room_id, own):
        Page.__init__(self)
        self.own = OwnRoom(room_id, own)
        self.render()

    def model(self):
        return self.own

    def ui_tick(self):
        own = own_status(self.own.room, self.now())
        if own is not None:
            self.own.own = own
        self.render()

    def other(self, name, payload):
        if name == "resume_hosting":
            browser.go(self.screen.base + "?host=" + self.own.room)
        else:
            log("intent not handled here:", name)


def own_status(room_id, now):
    """hostlife.own_room for the room of this page's link, from this browser's storage."""
    return SavedRooms(browser.storage).own_status(room_id, now)
