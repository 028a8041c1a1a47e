"""The page's glue modules (ui/page/main.py and the page modules it is made of, which import
`js` and run only in a browser) compiled by MicroPython itself: a syntax MicroPython does not
take fails here, not first in an e2e test. Run on MicroPython by tests/test_handover.py."""

GLUE = ("main", "browser", "base_page", "net/lookout", "own_room_page", "host/host_page",
        "host/host_saves", "host/host_transport", "host/host_replies", "host/host_moved",
        "guest/guest_page", "guest/guest_succession", "host/enginelink")


def test_the_page_modules_compile():
    for name in GLUE:
        with open("/ui/page/%s.py" % name) as f:
            compile(f.read(), name + ".py", "exec")
