"""Progress per pair under --jobs: workers report each pair as it ends, ahead of the chunk."""

from __future__ import annotations

import time

import pytest

from transted.running.executors import LocalExecutor, MetricSpec

HELPERS = "scale_helpers"


@pytest.mark.slow
def test_workers_report_each_pair_before_its_chunk_comes_back(dev_pairs):
    spec = MetricSpec(f"{HELPERS}:SlowTED", {"delay": 0.4})
    pairs = dev_pairs[:8]
    reported: list[tuple[float, str]] = []
    yielded: list[tuple[float, str]] = []
    with LocalExecutor(2, chunk_size=4) as executor:
        executor.on_pair_done = lambda pair_id: reported.append((time.monotonic(), pair_id))
        for result in executor.scores(pairs, spec.build(), spec):
            yielded.append((time.monotonic(), result.id))
    assert sorted(i for _, i in reported) == sorted(p.id for p in pairs)  # each once
    assert [i for _, i in yielded] == [p.id for p in pairs]  # results still in input order
    # a chunk of 4 comes back after its 4th pair (>= 1.6 s of sleeping); its first pairs were
    # reported as they ended, so the count moved on before the chunk's results arrived
    first_result = yielded[0][0]
    early = [i for t, i in reported if t < first_result]
    assert pairs[0].id in early and len(early) >= 3
