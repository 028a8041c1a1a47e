"""A TCP proxy on loopback for e2e tests of a phone that changes networks.

The phone opens the page through the proxy's port; `abort(stall_s)` resets every client-side
socket the proxy holds (what a phone leaving a Wi-Fi sees: its sockets die) while the
server-side ones stay open and silent (the server hears nothing, as when a phone walks away).
For `stall_s` seconds after that, new connections are accepted and then hang for ever, never
answered nor closed (a socket opened while the phone is between networks); later ones go
through as before (the new network). Runs its own asyncio loop in a daemon
thread; `close()` stops it. Only 127.0.0.1, both ends.
"""

import asyncio
import socket
import threading
import time


class TcpProxy:
    def __init__(self, target_port, host="127.0.0.1"):
        self.target = (host, target_port)
        self.host = host
        self.pairs = []            # [client writer, server writer, aborted]
        self.held = []             # server writers of aborted pairs: open until close()
        self.hung = []             # client writers accepted while stalled: never answered
        self.stall_until = 0.0
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.ready.wait(10):
            raise RuntimeError("the proxy did not start")

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._client, self.host, 0))
        self.port = self.server.sockets[0].getsockname()[1]
        self.ready.set()
        self.loop.run_forever()

    async def _client(self, reader, writer):
        if time.monotonic() < self.stall_until:
            self.hung.append(writer)
            return
        try:
            up_reader, up_writer = await asyncio.wait_for(
                asyncio.open_connection(*self.target), 10)
        except (OSError, asyncio.TimeoutError):
            writer.transport.abort()
            return
        pair = [writer, up_writer, False]         # aborted: stop forwarding, keep upstream
        self.pairs.append(pair)

        async def pump(src, dst, upstream):
            try:
                while True:
                    data = await src.read(65536)
                    if not data or pair[2]:
                        break
                    dst.write(data)
                    await dst.drain()
            except (OSError, ConnectionError):
                pass
            if not pair[2] and not upstream:
                try:
                    dst.close()
                except Exception:
                    pass

        await asyncio.gather(pump(reader, up_writer, False), pump(up_reader, writer, True))

    def abort(self, stall_s=0.0):
        """Reset every client-side socket now; the server-side ones stay open, silent. New
        connections in the next `stall_s` seconds hang."""
        done = threading.Event()

        def run():
            self.stall_until = time.monotonic() + stall_s
            for pair in self.pairs:
                pair[2] = True
                sock = pair[0].get_extra_info("socket")
                try:
                    if sock is not None:
                        # linger 0: close sends a RST, as a socket that died with its network
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                        b"\x01\x00\x00\x00\x00\x00\x00\x00")
                except OSError:
                    pass
                pair[0].transport.abort()
                self.held.append(pair[1])
            self.pairs = []
            done.set()

        self.loop.call_soon_threadsafe(run)
        done.wait(5)

    def close(self):
        async def stop():
            self.server.close()
            for pair in self.pairs:
                pair[0].transport.abort()
                pair[1].transport.abort()
            for writer in self.held + self.hung:
                writer.transport.abort()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.loop.stop()

        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(stop()))
        self.thread.join(5)
