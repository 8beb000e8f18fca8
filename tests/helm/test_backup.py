"""Scheduled backups in the chart: off by default; on, a CronJob whose script (run here for real
with /bin/sh against the suite's Redis) backs up with `arena backup` and keeps the newest
`keep` files; a restore Job whose script puts the newest one back with `arena restore`."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import redis

from arena.store.backup import read_manifest
from tests.helm.chart import FULLNAME, Doc, parse_manifests, render_case, render_values

BIN = Path(sys.executable).parent  # where `arena` is installed beside this Python


def backup_objects(values: dict[str, object]) -> tuple[Doc, ...]:
    docs = parse_manifests(render_values({"backup": values}))
    return tuple(d for d in docs if d["kind"] in ("CronJob", "Job", "PersistentVolumeClaim"))


def script(doc: Doc) -> str:
    spec = doc["spec"]
    pod = (spec["jobTemplate"]["spec"] if doc["kind"] == "CronJob" else spec)["template"]["spec"]
    (container,) = pod["containers"]
    assert container["command"] == ["/bin/sh", "-c"]
    (text,) = container["args"]
    assert isinstance(text, str)
    return text


def run(text: str, folder: Path, redis_url: str) -> subprocess.CompletedProcess[str]:
    variables = {"BACKUP_DIR": str(folder), "REDIS_URL": redis_url}
    environment = {**os.environ, **variables, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["/bin/sh", "-c", text], env=environment, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_backups_are_off_by_default() -> None:
    assert not render_case("default").all("CronJob")
    assert not render_case("default").all("PersistentVolumeClaim")
    assert not render_case("default").all("Job")


def test_on_it_is_a_cron_job_on_a_claim_that_outlives_the_release() -> None:
    rendered = render_case("production-values")
    cron = rendered.one("CronJob", f"{FULLNAME}-backup")
    assert cron["spec"]["schedule"] == "17 3 * * *"
    assert cron["spec"]["timeZone"] == "Europe/Paris"
    assert cron["spec"]["concurrencyPolicy"] == "Forbid"
    claim = rendered.one("PersistentVolumeClaim", f"{FULLNAME}-backups")
    assert claim["metadata"]["annotations"]["helm.sh/resource-policy"] == "keep"
    assert claim["spec"]["storageClassName"] == "fast-ssd"
    assert claim["spec"]["resources"]["requests"]["storage"] == "20Gi"
    pod = cron["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert volumes["backups"]["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"]
    text = script(cron)
    assert 'arena backup "$file" --force' in text and "tail -n +11" in text  # keep: 10
    assert not rendered.all("Job")  # no restore unless asked


def test_an_existing_claim_is_used_and_not_created() -> None:
    rendered = render_case("restore-values")
    assert not rendered.all("PersistentVolumeClaim")
    for doc in (
        rendered.one("CronJob", f"{FULLNAME}-backup"),
        rendered.one("Job", f"{FULLNAME}-restore"),
    ):
        spec = doc["spec"]
        pod = (spec["jobTemplate"]["spec"] if doc["kind"] == "CronJob" else spec)["template"][
            "spec"
        ]
        claims = [
            v["persistentVolumeClaim"]["claimName"]
            for v in pod["volumes"]
            if "persistentVolumeClaim" in v
        ]
        assert claims == ["arena-backups"]


def test_the_cron_job_keeps_the_newest_files_and_the_restore_job_restores_the_newest(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    (cron,) = (d for d in backup_objects({"enabled": True, "keep": 2}) if d["kind"] == "CronJob")
    stranger = tmp_path / "notes.txt"  # not a backup: never pruned
    stranger.write_text("keep me")
    first: list[Path] = []
    for round_number in range(3):
        redis_client.set("round", round_number)
        run(script(cron), tmp_path, redis_server_url)
        first = first or sorted(tmp_path.glob("arena-*.backup"))
        time.sleep(1.1)  # file names are stamped to the second
    kept = sorted(tmp_path.glob("arena-*.backup"))
    assert len(kept) == 2 and first[0] not in kept and stranger.exists()
    assert all(read_manifest(path).keys == 1 for path in kept)

    redis_client.flushdb()
    restore_values = {"enabled": True, "restoreFile": "latest"}
    (restore,) = (d for d in backup_objects(restore_values) if d["kind"] == "Job")
    out = run(script(restore), tmp_path, redis_server_url)
    assert f"from {kept[-1]}" in out.stdout.replace("\n", "")
    assert redis_client.get("round") == b"2"  # the newest backup's
