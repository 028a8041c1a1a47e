"""Where a page's main thread spends its time, by Python function (test builds only: the page
parameter `?prof=1`, read through ui/page/browser.py's `test_param`; bench/page_bench.py --profile).

`install()` wraps the functions of TARGETS so that each call is noted as a span
[label, start ms, end ms] (performance.now(), the clock of the browser's long tasks) in the
JS array `window.__crispSpans`, three numbers a call. A function already running under the
same label (recursion: the vdom patcher) is not noted again: a span covers the whole call.
The spans cost a little time of their own; they tell where a long task goes, not how long
it is (the bench measures that without them). Runs on MicroPython.
"""

import js

# (module name, class name or None, function name): the page's entry points and the work
# they lead to, outermost first
TARGETS = (
    ("ui.page.base_page", "Page", "render"), ("ui.page.base_page", "Page", "ui_tick"),
    ("ui.page.guest.guest_page", "GuestPage", "net_text"),
    ("ui.page.guest.guest_page", "GuestPage", "net_open"),
    ("ui.page.guest.guest_page", "GuestPage", "step"), ("ui.page.host.host_replies", "HostReplies", "reply"),
    ("ui.page.host.host_page", "HostPage", "create"),
    ("ui.page.host.host_transport", "HostTransport", "start_net"),
    ("ui.page.host.host_page", "HostPage", "ui_tick"), ("ui.page.main", None, "main"),
    ("ui.page.client.client", "Client", "receive"), ("ui.page.client.client_view", "ViewSide", "_view"),
    ("ui.page.client.client", "Client", "_fair_message"),
    ("ui.page.screens.render", "Screen", "_render_once"), ("ui.page.screens.render", "Screen", "_draw"),
    ("ui.page.screens.away_page", "AwaySide", "_take_events"), ("ui.page.screens.render", "Screen", "_fly"),
    ("ui.page.screens.render", "Screen", "_run_later"), ("ui.page.screens.render", None, "build"),
    ("ui.page.screens.render", None, "do_later"),
    ("ui.page.dom.vdom", "Patcher", "create"), ("ui.page.dom.vdom", "Patcher", "patch"),
    ("ui.page.screens.screens", None, "lobby_tree"), ("ui.page.screens.screens", None, "table_tree"),
    ("ui.page.screens.screens", None, "landing_tree"), ("ui.page.screens.screens", None, "join_tree"),
    ("ui.page.screens.invite", None, "qr_style"),
    ("ui.page.screens.table", None, "table_info"), ("ui.page.screens.eventlog", None, "log_entries"),
    ("ui.page.screens.eventlog", None, "log_node"), ("ui.page.dom.memo", "Memo", "get"),
    ("ui.page.screens.statusbar", None, "last_move"), ("ui.page.screens.statusbar", None, "queen_notice"),
    ("ui.page.screens.table", None, "announce_node"), ("ui.page.screens.table", None, "end_tree"),
    ("ui.page.screens.table", None, "opponent_node"), ("ui.page.screens.table", None, "spectator_bar"),
    ("ui.page.screens.cues", None, "new_events"), ("ui.page.screens.cues", None, "flights"),
    ("ui.page.host.enginelink", "EngineLink", "_message"),
    ("ui.page.host.host_replies", "HostReplies", "room_out"),
    ("ui.page.host.host_transport", "HostTransport", "send_remote"),
    ("ui.page.client.client", "Client", "take"), ("ui.page.screens.flights", "Flights", "fly"),
)


def _wrap(fn, label, spans, active):
    def timed(*args, **kw):
        if label in active:
            return fn(*args, **kw)
        active[label] = True
        t0 = js.performance.now()
        try:
            return fn(*args, **kw)
        finally:
            del active[label]
            spans.push(label, t0, js.performance.now())
    return timed


def install(targets=TARGETS):
    """Wrap every function of `targets` that exists (others are skipped); returns how many
    were wrapped. Spans go to window.__crispSpans (made here)."""
    import sys
    js.window.__crispSpans = js.Array.new()
    spans = js.window.__crispSpans
    active = {}
    done = 0
    for mod_name, cls_name, name in targets:
        mod = sys.modules.get(mod_name)
        if mod is None:
            continue
        owner = getattr(mod, cls_name, None) if cls_name else mod
        fn = getattr(owner, name, None) if owner is not None else None
        if fn is None:
            continue
        label = (cls_name + "." if cls_name else mod_name[3:] + ".") + name
        setattr(owner, name, _wrap(fn, label, spans, active))
        done += 1
    return done
