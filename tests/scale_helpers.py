"""Metrics for the executor tests; importable by spawned workers (tests/ is on sys.path)."""

from __future__ import annotations

import os
import signal
import time

from transted.metrics.base import Metric, PairScore
from transted.metrics.ted import TEDSimilarity
from transted.reading.pairs import Pair


class CrashingTED(TEDSimilarity):
    """``ted``, except that scoring pair ``crash_id`` kills the scoring process (SIGKILL)
    when it is not the process named by ``driver_pid`` (so only workers die)."""

    name = "crashing-ted"

    def __init__(self, *, crash_id: str, driver_pid: int, **options):
        super().__init__(**options)
        self.crash_id, self.driver_pid = crash_id, driver_pid

    def _score(self, pair: Pair):
        if pair.id == self.crash_id and os.getpid() != self.driver_pid:
            os.kill(os.getpid(), signal.SIGKILL)
        return super()._score(pair)


class SlowTED(TEDSimilarity):
    """``ted`` that takes at least ``delay`` seconds per pair (a kill lands mid-run)."""

    name = "slow-ted"

    def __init__(self, *, delay: float = 0.02, **options):
        super().__init__(**options)
        self.delay = delay

    def _score(self, pair: Pair):
        time.sleep(self.delay)
        return super()._score(pair)


class DiesOnStart(TEDSimilarity):
    """A metric whose construction kills any process but the driver."""

    name = "dies-on-start"

    def __init__(self, *, driver_pid: int):
        if os.getpid() != driver_pid:
            os.kill(os.getpid(), signal.SIGKILL)
        super().__init__()


class StuckTED(TEDSimilarity):
    """``ted``, except that in a worker (not ``driver_pid``) pair ``stuck_id`` ignores SIGTERM
    and blocks in C (``os.read`` on a pipe nobody writes): no clock check can end it."""

    name = "stuck-ted"

    def __init__(self, *, stuck_id: str, driver_pid: int, delay: float = 0.0, **options):
        super().__init__(**options)
        self.stuck_id, self.driver_pid, self.delay = stuck_id, driver_pid, delay

    def _score(self, pair: Pair):
        if pair.id == self.stuck_id and os.getpid() != self.driver_pid:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            read_end, _write_end = os.pipe()
            os.read(read_end, 1)
        time.sleep(self.delay)  # other workers' chunks are in flight when the stuck one is killed
        return super()._score(pair)


class LeanLikeTED(SlowTED):
    """``SlowTED`` that says it talks to Lean (its batch pool must start at once)."""

    name = "lean-like-ted"
    runs_lean = True


class ReplCommand(Metric):
    """A Lean metric for the executor tests: sends the candidate statement to its REPL backend
    as one raw command (1.0 when it elaborates without error). With a replay backend every
    answer is a recorded one; an unrecorded command is ``unavailable``."""

    name = "repl-command"
    binary = True
    runs_lean = True  # type: ignore[assignment]

    def __init__(self, *, backend=None):
        self.backend = backend

    def options(self):
        return dict(self.backend.signature_fields()) if self.backend is not None else {}

    def _score(self, pair: Pair):
        result = self.backend.send({"cmd": pair.candidate.statement})
        return PairScore(result.ok, {"env": result.env,
                                     "goals": [s.goal for s in result.sorries],
                                     "pid": os.getpid()})


class ColdStartTED(TEDSimilarity):
    """``ted`` whose first pair in a process takes ``cold`` seconds (the one-time loads of a
    fresh process: name table, notation, caches), every later one ``delay``."""

    name = "cold-start-ted"
    _warm = False

    def __init__(self, *, cold: float = 1.0, delay: float = 0.005, **options):
        super().__init__(**options)
        self.cold, self.delay = cold, delay

    def _score(self, pair: Pair):
        time.sleep(self.delay if ColdStartTED._warm else self.cold)
        ColdStartTED._warm = True
        return super()._score(pair)
