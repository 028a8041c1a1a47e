"""The lobby's Copy link says "Copied!" only when the link is on the clipboard: a browser that
refuses (permission denied; a plain-http LAN address has no clipboard at all) is told to copy
the link by hand, and the page raises nothing (found by a first-time player's try: the button
said "Copied!" and nothing was copied)."""

from crisp_rooms import open_room
from crisp_e2e import T, sel


def test_copy_link_says_copied_only_when_the_clipboard_took_it(new_phone):
    host, link = open_room(new_phone, "Hana")
    page = host.page
    page.evaluate("""() => { navigator.clipboard.writeText = () =>
        Promise.reject(new DOMException('Write permission denied', 'NotAllowedError')); }""")
    page.click(sel("copy-link"))
    page.wait_for_selector(sel("copy-link") + ":has-text('press and hold')", timeout=T)
    assert "Copied" not in page.inner_text(sel("copy-link"))

    page.evaluate("""() => { window.__copied = null; navigator.clipboard.writeText = (t) => {
        window.__copied = t; return Promise.resolve(); }; }""")
    page.click(sel("copy-link"))
    page.wait_for_selector(sel("copy-link") + ":has-text('Copied!')", timeout=T)
    assert page.evaluate("window.__copied") == link

    # no clipboard at all (a LAN address over plain http is not a secure context)
    page.evaluate("() => Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page.click(sel("copy-link"))
    page.wait_for_selector(sel("copy-link") + ":has-text('press and hold')", timeout=T)
    assert host.errors == []
