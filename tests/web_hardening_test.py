"""//serve:serve against slow and odd clients (hardening round 3): pipelined
requests, a port in use, long paths under a small stack, 200 trickling
connections, SIGTERM while clients trickle, half-closed clients, a
non-loopback bind, and a table changed in place while served.
"""

import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from web_server import SERVE, WebServer

TICTACTOE = "data/3x3k3.mnk"
MISERE = "data/3x3k3m.mnk"


def request(position):
    return ("GET /api/position?game=3x3k3&position=%s HTTP/1.1\r\n"
            "Host: x\r\n\r\n" % position).encode()


def read_answers(sock, count, timeout=5):
    """The bodies of `count` responses read from one connection."""
    sock.settimeout(timeout)
    data = b""
    bodies = []
    while len(bodies) < count:
        head_end = data.find(b"\r\n\r\n")
        if head_end >= 0:
            head = data[:head_end].decode()
            length = int([l.split(":")[1] for l in head.split("\r\n")
                          if l.lower().startswith("content-length")][0])
            if len(data) >= head_end + 4 + length:
                bodies.append((head.split(" ")[1],
                               data[head_end + 4:head_end + 4 + length]))
                data = data[head_end + 4 + length:]
                continue
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return bodies


class HardeningTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = WebServer()

    @classmethod
    def tearDownClass(cls):
        assert cls.server.stop() == 0

    def connect(self):
        return socket.create_connection((self.server.host, self.server.port))

    def test_pipelined_requests_are_answered_in_order(self):
        for count in (3, 100):
            positions = [".../.../...", "X../.../...", "X../.O./...",
                         "XO./.../..."]
            sent = [positions[i % 4] for i in range(count)]
            with self.connect() as s:
                s.sendall(b"".join(request(p) for p in sent))
                answers = read_answers(s, count)
            self.assertEqual(len(answers), count)
            for p, (status, body) in zip(sent, answers):
                self.assertEqual(status, "200")
                self.assertIn(('"position":"%s"' % p).encode(), body)

    def test_half_closed_client_gets_its_answer(self):
        for _ in range(20):
            with self.connect() as s:
                s.sendall(request("X........"))
                s.shutdown(socket.SHUT_WR)
                answers = read_answers(s, 1)
            self.assertEqual(len(answers), 1)
            self.assertEqual(answers[0][0], "200")

    def test_trickling_clients_starve_nobody(self):
        tricklers = []
        try:
            for _ in range(200):
                s = self.connect()
                s.sendall(b"GET /api/gam")
                tricklers.append(s)
            slowest = 0
            for n in range(30):
                for s in tricklers[n::30]:
                    s.sendall(b"e")  # a byte now and then
                start = time.monotonic()
                status, _ = self.server.get("/api/position?game=3x3k3&"
                                            "position=.........")
                slowest = max(slowest, time.monotonic() - start)
                self.assertEqual(status, 200)
            print("200 trickling connections: the slowest of 30 other "
                  "answers took %.1f ms" % (slowest * 1000), file=sys.stderr)
            self.assertLess(slowest, 1.0)
        finally:
            for s in tricklers:
                s.close()

    def test_long_paths(self):
        for length in (3800, 100000):
            with self.connect() as s:
                s.sendall(b"GET /" + b"a" * length + b" HTTP/1.1\r\nHost: x"
                          b"\r\n\r\n")
                answers = read_answers(s, 1)
            self.assertIn(answers[0][0], ("404", "414", "431"))
        self.assertTrue(self.server.alive())

    def test_port_in_use_is_refused(self):
        result = subprocess.run(
            [SERVE, "--port=%d" % self.server.port], capture_output=True,
            text=True, timeout=30)
        self.assertEqual(result.returncode, 5, result.stderr)
        self.assertIn("cannot listen on 127.0.0.1 port %d" % self.server.port,
                      result.stderr)
        self.assertIn("in use", result.stderr)


class OwnServerTest(unittest.TestCase):
    """Tests that start (and stop) servers of their own."""

    def test_long_paths_under_a_small_stack(self):
        def small_stack():
            resource.setrlimit(resource.RLIMIT_STACK, (1024 * 1024,) * 2)

        process = subprocess.Popen([SERVE, "--port=0"], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True,
                                   preexec_fn=small_stack)
        try:
            port = int(process.stdout.readline().split(":")[-1].strip("/\n"))
            threads = []

            def long_get():
                with socket.create_connection(("127.0.0.1", port)) as s:
                    s.sendall(b"GET /" + b"%2e" * 10000 + b" HTTP/1.1\r\n"
                              b"Host: x\r\n\r\n")
                    read_answers(s, 1)

            for _ in range(64):
                threads.append(threading.Thread(target=long_get))
                threads[-1].start()
            for t in threads:
                t.join(30)
            self.assertIsNone(process.poll(), "serve ended")
            rss_kib = int([l.split()[1] for l in open(
                "/proc/%d/status" % process.pid) if l.startswith("VmRSS")][0])
            self.assertLess(rss_kib, 100 * 1024)
        finally:
            process.send_signal(signal.SIGTERM)
            self.assertEqual(process.wait(10), 0)

    def test_sigterm_ends_it_whatever_the_clients_do(self):
        server = WebServer()
        tricklers = []
        for _ in range(50):
            s = socket.create_connection((server.host, server.port))
            s.sendall(b"GET /api/po")
            tricklers.append(s)
        start = time.monotonic()
        status = server.stop()
        self.assertEqual(status, 0)
        self.assertLess(time.monotonic() - start, 2.0)
        for s in tricklers:
            s.close()

    def test_a_bind_beyond_loopback_warns(self):
        process = subprocess.Popen([SERVE, "--port=0", "--bind=0.0.0.0"],
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        line = process.stdout.readline()
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=10)
        self.assertTrue(line.startswith("serving "), (line, err))
        self.assertIn("warning: listening on 0.0.0.0", err)
        self.assertIn("trusted network", err)

    def test_a_table_changed_in_place_is_no_longer_used(self):
        folder = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        table = os.path.join(folder, "3x3k3.mnk")
        shutil.copy(TICTACTOE, table)
        os.chmod(table, 0o644)
        server = WebServer(tables={"3x3k3.mnk": table})
        try:
            before = server.position("3x3k3", "X.O/X.X/OO.")
            self.assertEqual(before["value"], "win")
            with open(MISERE, "rb") as src, open(table, "r+b") as dst:
                dst.write(src.read())  # same size, in place (cp, dd notrunc)
            for _ in range(3):
                status, body = server.get(
                    "/api/position?game=3x3k3&position=X.O/X.X/OO.")
                self.assertEqual(status, 500, body)
                self.assertIn("was changed while in use", body)
            self.assertTrue(server.alive())
            time.sleep(0.2)
            self.assertTrue(any(" 500 " in l and "changed while in use" in l
                                for l in server.log_lines()))
        finally:
            self.assertEqual(server.stop(), 0)


if __name__ == "__main__":
    unittest.main()
