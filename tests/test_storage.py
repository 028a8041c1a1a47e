"""ui/page/storage.py: the page's one door to localStorage never fails the page (a browser may
refuse storage), and a saved blob that is not a JSON object reads as nothing. Runs on
CPython and, below, again on MicroPython (guests' pages use it there)."""

from ui.page.storage import Storage


class FakeLocalStorage:
    def __init__(self):
        self.items = {}

    def getItem(self, key):
        return self.items.get(key)

    def setItem(self, key, value):
        self.items[key] = value

    def removeItem(self, key):
        self.items.pop(key, None)


class Refusing:
    """A browser that refuses storage: touching it raises (SecurityError, QuotaExceeded)."""

    def getItem(self, key):
        raise RuntimeError("SecurityError")

    def setItem(self, key, value):
        raise RuntimeError("QuotaExceededError")

    def removeItem(self, key):
        raise RuntimeError("SecurityError")


class Page:
    def __init__(self, local):
        self.localStorage = local


class NoStoragePage:
    @property
    def localStorage(self):
        raise RuntimeError("SecurityError: access denied")


class Door:
    """crisp.store (store.js): never throws; keeps what it is given; says its state."""

    def __init__(self, state="ok"):
        self.items = {}
        self.state = state

    def get(self, key):
        return self.items.get(key)

    def set(self, key, value):
        self.items[key] = value
        return True

    def remove(self, key):
        self.items.pop(key, None)


class Crisp:
    def __init__(self, door):
        self.store = door


class DoorPage:
    """A page with crisp.store: its localStorage is never touched (it would throw)."""

    def __init__(self, door):
        self.crisp = Crisp(door)

    @property
    def localStorage(self):
        raise RuntimeError("SecurityError: touched past the door")


def test_a_page_goes_through_its_guarded_door():
    door = Door()
    store = Storage(DoorPage(door))
    store.set("crisp.name", "Ana")
    assert door.items == {"crisp.name": "Ana"}
    assert store.get("crisp.name") == "Ana"
    store.remove("crisp.name")
    assert store.get("crisp.name") is None and store.state() == "ok"


def test_the_state_says_whether_the_browser_keeps_anything():
    for state in ("blocked", "full", "ok"):
        assert Storage(DoorPage(Door(state))).state() == state
    assert Storage(DoorPage(Door("junk"))).state() == "ok"
    assert Storage(Page(FakeLocalStorage())).state() == "ok"      # no door: tests, CPython


def test_get_set_remove():
    store = Storage(Page(FakeLocalStorage()))
    assert store.get("crisp.name") is None
    store.set("crisp.name", "Ana")
    assert store.get("crisp.name") == "Ana"
    store.remove("crisp.name")
    assert store.get("crisp.name") is None


def test_a_browser_that_refuses_storage_never_fails_the_page():
    for page in (Page(Refusing()), NoStoragePage()):
        store = Storage(page)
        store.set("crisp.name", "Ana")
        store.remove("crisp.name")
        assert store.get("crisp.name") is None
        assert store.get_json("crisp.room.x") is None


def test_get_json_only_gives_objects():
    local = FakeLocalStorage()
    store = Storage(Page(local))
    for text in ("not json", "[1, 2]", "42", "null", '"text"', "{bad"):
        local.items["crisp.room.x"] = text
        assert store.get_json("crisp.room.x") is None, text
    local.items["crisp.room.x"] = '{"room_id": "x"}'
    assert store.get_json("crisp.room.x") == {"room_id": "x"}


def test_values_that_are_not_text_read_as_nothing():
    local = FakeLocalStorage()
    local.items["k"] = 5          # what a JS null/undefined or a stray value may come back as
    assert Storage(Page(local)).get("k") is None


def test_the_storage_tests_pass_on_micropython(tmp_path):
    import os

    from test_render_micropython import ROOT, run_tests_on_micropython

    files = {"/tests/test_storage.py": os.path.join(ROOT, "tests", "test_storage.py"),
             "/ui/page/storage.py": os.path.join(ROOT, "ui", "page", "storage.py")}
    if os.path.exists(os.path.join(ROOT, "ui", "__init__.py")):
        files["/ui/__init__.py"] = os.path.join(ROOT, "ui", "__init__.py")
    me = "test_the_storage_tests_pass_on_micropython"
    ran, failed, out = run_tests_on_micropython(tmp_path, "test_storage", files, [me])
    assert failed == [], out
    assert ran == len([n for n in globals() if n.startswith("test_")]) - 1, out
