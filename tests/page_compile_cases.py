"""The page's glue modules (ui/page/main.py and the page modules it is made of, which import
`js` and run only in a browser) compiled by MicroPython itself: a syntax MicroPython does not
take fails here, not first in an e2e test. Run on MicroPython by tests/test_handover.py."""

GLUE = ("main", "browser", "base_page", "lookout", "own_room_page", "host_page",
        "host_saves", "host_transport", "host_replies", "host_moved", "guest_page",
        "guest_succession", "enginelink")


def test_the_page_modules_compile():
    for name in GLUE:
        with open("/ui/page/%s.py" % name) as f:
            compile(f.read(), name + ".py", "exec")
