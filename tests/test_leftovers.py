"""The leftover-process check the hosted tests stand on: it sees a child the test started,
not the ones that were there before it."""

from __future__ import annotations

import subprocess

from tests.leftovers import children, left_running


def test_a_child_started_during_the_test_is_found_and_one_from_before_is_not() -> None:
    earlier = subprocess.Popen(["sleep", "30"])
    try:
        before = children()
        during = subprocess.Popen(["sleep", "30"])
        try:
            assert [p.pid for p in left_running(before, wait_s=0.2)] == [during.pid]
        finally:
            during.kill()
            during.wait()
        assert left_running(before) == []
    finally:
        earlier.kill()
        earlier.wait()
