"""Starts //serve:serve for the web tests and talks to it.

    server = WebServer(tables={"4x4k4g.mnk": "data/4x4k4g.mnk"})
    answer = server.get_json("/api/position?game=3x3k3&position=.........")
    server.stop()  # SIGTERM; checks it stopped cleanly (exit 0)

Runs from the test's runfiles folder (Bazel's working directory for tests).
"""

import json
import os
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

SERVE = "serve/serve"


class WebServer:
    def __init__(self, tables=None, flags=()):
        self.tables = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        for name, path in (tables or {}).items():
            os.symlink(os.path.abspath(path), os.path.join(self.tables, name))
        self.log = open(os.path.join(self.tables, "serve.log"), "w+")
        self.process = subprocess.Popen(
            [SERVE, "--port=0", "--tables=" + self.tables] + list(flags),
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("serving "):
            self.log.seek(0)
            raise RuntimeError("serve did not start: %r %s" %
                               (line, self.log.read()))
        self.url = line.split()[-1].rstrip("/")
        parsed = urllib.parse.urlparse(self.url)
        self.host, self.port = parsed.hostname, parsed.port

    def get(self, path):
        """(status, body as text) of GET path."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def get_json(self, path):
        status, body = self.get(path)
        assert status == 200, (path, status, body)
        return json.loads(body)

    def position(self, game, position):
        return self.get_json("/api/position?" + urllib.parse.urlencode(
            {"game": game, "position": position}))

    def alive(self):
        return self.process.poll() is None and self.get("/api/games")[0] == 200

    def stop(self):
        """Sends SIGTERM and returns the exit status (0 expected)."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()

    def log_lines(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read().splitlines()
