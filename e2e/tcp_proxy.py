"""A TCP proxy on loopback for e2e tests of a phone that changes networks.

The phone opens the page through the proxy's port; `abort(stall_s)` resets every client-side
socket the proxy holds (what a phone leaving a Wi-Fi sees: its sockets die) while the
server-side ones stay open and silent (the server hears nothing, as when a phone walks away).
For `stall_s` seconds after that, new connections are accepted and then hang for ever, never
answered nor closed (a socket opened while the phone is between networks); later ones go
through as before (the new network). Only 127.0.0.1, both ends.

`TcpProxy(port)` runs the proxy in a child process (a Python thread next to Playwright's sync
API moved a 10 MB file at under 1 MB/s), speaks to it over its stdin/stdout, and `close()`
stops it by its PID. `python3 e2e/tcp_proxy.py <port>` is that child: it prints its port, then
takes one command a line ("abort <stall seconds>") and answers "ok".
"""

import asyncio
import os
import socket
import subprocess
import sys
import threading
import time


def stop_child(proc):
    """Stop a proxy's child process (a Popen with a stdin pipe): close its stdin, which ends
    it, and kill it by its PID if it has not ended within 5 s."""
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()          # by its PID (Popen), never by name
        proc.wait()


class TcpProxy:
    """The proxy in a child process (see the module doc): .port, abort(stall_s), close()."""

    def __init__(self, target_port):
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), str(target_port)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.strip().isdigit():
            self.close()
            raise RuntimeError("the proxy did not start: %r" % line)
        self.port = int(line)

    def abort(self, stall_s=0.0):
        self.proc.stdin.write("abort %s\n" % float(stall_s))
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "ok"

    def close(self):
        stop_child(self.proc)


class _Proxy:
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


def _main():
    proxy = _Proxy(int(sys.argv[1]))
    print(proxy.port, flush=True)
    for line in sys.stdin:
        words = line.split()
        if words and words[0] == "abort":
            proxy.abort(float(words[1]) if len(words) > 1 else 0.0)
            print("ok", flush=True)
    proxy.close()


if __name__ == "__main__":
    _main()
