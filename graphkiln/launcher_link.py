"""The link between the ``graphkiln msrun`` launchers of a job that spans machines.

Node 0's launcher listens on ``--master_port + 1``; every other node's launcher connects
to it before starting its workers. Over the link each launcher sends a heartbeat every
second, ``fail <message>`` when one of its workers failed (node 0 passes it on to the other
nodes) and ``done`` when all its workers finished. A launcher that stops its workers on a
failure elsewhere, or when a peer launcher's connection closes without ``done`` or stays
silent for ``HEARTBEAT_TIMEOUT`` seconds (a dead machine), so no node waits forever for a
peer that is gone.
"""
from __future__ import annotations

import os
import selectors
import socket
import time

HEARTBEAT_SECONDS = 1.0
HEARTBEAT_TIMEOUT = float(os.environ.get("GRAPHKILN_HEARTBEAT_TIMEOUT", "30"))


class Peer:
    """One connection to another launcher: its socket, unread bytes, last sign of life."""

    def __init__(self, sock: socket.socket, name: str):
        self.sock, self.name = sock, name
        self.buffer = b""
        self.seen = time.monotonic()
        self.done = False

    def send(self, line: str) -> None:
        try:
            self.sock.sendall(line.encode(errors="replace") + b"\n")
        except OSError:
            pass  # a closed peer shows up as lost when it is read


class NodeLink:
    """This launcher's link to the others (see the module docstring)."""

    def __init__(self, node_rank: int, n_nodes: int, host: str, port: int):
        self.node_rank, self.n_nodes, self.host, self.port = node_rank, n_nodes, host, port
        self.peers: list[Peer] = []
        self.server: socket.socket | None = None
        self.selector = selectors.DefaultSelector()
        self.last_beat = 0.0

    def connect(self, timeout: float) -> None:
        """Node 0 starts listening; the others connect to it (retrying until ``timeout``)."""
        if self.node_rank == 0:
            self.server = socket.create_server((self.host, self.port))
            self.server.setblocking(False)
            self.selector.register(self.server, selectors.EVENT_READ)
            return
        deadline = time.monotonic() + timeout
        while True:
            try:
                sock = socket.create_connection((self.host, self.port), timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"cannot reach the launcher of node 0 at {self.host}:{self.port} "
                        f"(--master_addr, --master_port + 1) within --cluster_time_out "
                        f"({timeout:g} s).") from None
                time.sleep(0.2)
        self._add(sock, "node 0")
        self.peers[0].send(f"hello {self.node_rank}")

    def _add(self, sock: socket.socket, name: str) -> None:
        sock.setblocking(False)
        peer = Peer(sock, name)
        self.peers.append(peer)
        self.selector.register(sock, selectors.EVENT_READ, peer)

    def poll(self) -> str | None:
        """Exchange heartbeats and messages; a failure reported by (or the loss of) another
        node, as a message, else None."""
        now = time.monotonic()
        if now - self.last_beat >= HEARTBEAT_SECONDS:
            self.last_beat = now
            for p in self.peers:
                if not p.done:
                    p.send("beat")
        for key, _ in self.selector.select(timeout=0):
            if key.fileobj is self.server:
                sock, addr = self.server.accept()
                self._add(sock, f"the launcher at {addr[0]}")
                continue
            problem = self._read(key.data)
            if problem:
                return problem
        for p in self.peers:
            if not p.done and now - p.seen > HEARTBEAT_TIMEOUT:
                return (f"{p.name} sent no heartbeat for {HEARTBEAT_TIMEOUT:g} s (its machine "
                        f"or launcher is gone).")
        return None

    def _read(self, peer: Peer) -> str | None:
        try:
            data = peer.sock.recv(65536)
        except BlockingIOError:
            return None
        except OSError:
            data = b""
        if not data:
            self.selector.unregister(peer.sock)
            peer.sock.close()
            if not peer.done:
                peer.done = True
                return f"the connection to {peer.name} closed (its launcher is gone)."
            return None
        peer.seen = time.monotonic()
        peer.buffer += data
        while b"\n" in peer.buffer:
            line, peer.buffer = peer.buffer.split(b"\n", 1)
            text = line.decode(errors="replace")
            if text.startswith("hello "):
                peer.name = f"node {text.split()[1]}"
            elif text == "done":
                peer.done = True
            elif text.startswith("fail "):
                peer.done = True
                message = text[5:]
                self.broadcast_failure(message, skip=peer)
                return message
        return None

    def broadcast_failure(self, message: str, skip: Peer | None = None) -> None:
        for p in self.peers:
            if p is not skip:
                p.send("fail " + message.replace("\n", " "))

    def finished(self) -> bool:
        """True once every other node finished (node 0 waits for all of them)."""
        if self.node_rank != 0:
            return True
        return len(self.peers) == self.n_nodes - 1 and all(p.done for p in self.peers)

    def report_done(self) -> None:
        for p in self.peers:
            p.send("done")

    def close(self) -> None:
        for p in self.peers:
            p.sock.close()
        if self.server is not None:
            self.server.close()
        self.selector.close()
