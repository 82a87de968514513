"""deploy/prometheus/alerts.yml: Prometheus accepts it, and each alert fires when it should.

`promtool check rules` (Debian's prometheus package, which `make system-deps` installs) checks
the file as Prometheus loads it; `promtool test rules` runs the cases of
tests/prometheus/alerts_test.yml, which feed each alert the series it reads and expect it to
fire, with its labels and annotations, only once its `for` has passed. The checks here add what
promtool does not demand: every alert has a severity, a summary and a description, a `for`, a
case where it fires, and reads only metrics this project exposes under its own prefix.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from prometheus_client import generate_latest

from game.ops.metrics import REGISTRY
from tests import servers

RULES = servers.ROOT / "deploy" / "prometheus" / "alerts.yml"
CASES = servers.ROOT / "tests" / "prometheus" / "alerts_test.yml"
SEVERITIES = ("critical", "warning")


def promtool() -> Path:
    found = shutil.which("promtool")
    if found is None:
        servers.missing("promtool (Debian's prometheus package)")
    return Path(found)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(promtool()), *args],
        cwd=CASES.parent,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def rules() -> dict[str, str]:
    """Each alert's name and the text of its rule, from the file's `- alert:` lines."""
    chunks = re.split(r"^\s*- alert: ", RULES.read_text(), flags=re.MULTILINE)[1:]
    names = [chunk.split("\n", 1)[0].strip() for chunk in chunks]
    assert len(set(names)) == len(names), f"alert names repeat: {names}"
    return dict(zip(names, chunks, strict=True))


def test_prometheus_accepts_the_rules() -> None:
    result = run("check", "rules", str(RULES))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"SUCCESS: {len(rules())} rules found" in result.stdout


def test_every_alert_fires_in_its_cases_as_expected() -> None:
    result = run("test", "rules", CASES.name)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout


@pytest.mark.parametrize("name", sorted(rules()))
def test_an_alert_says_how_bad_and_what_and_has_a_firing_case(name: str) -> None:
    rule = rules()[name]
    assert re.search(r"^\s+expr: \S", rule, re.MULTILINE), name
    assert re.search(r"^\s+for: \d+[smh]$", rule, re.MULTILINE), name
    assert re.search(rf"^\s+severity: ({'|'.join(SEVERITIES)})$", rule, re.MULTILINE), name
    for annotation in ("summary", "description"):
        assert re.search(rf'^\s+{annotation}: "[^"]+', rule, re.MULTILINE), (name, annotation)
    firing = rf"alertname: {name}\n\s+exp_alerts:\n\s+- exp_labels:"
    assert re.search(firing, CASES.read_text()), f"no case where {name} fires"


@pytest.mark.django_db
def test_the_rules_read_only_metrics_the_processes_expose() -> None:
    exposed = set(
        re.findall(r"^(messengers_\w+?)(?:\{| )", generate_latest(REGISTRY).decode(), re.MULTILINE)
    )
    read = set(re.findall(r"\b(messengers_\w+)", RULES.read_text()))
    assert read, "the rules read none of the project's metrics"
    assert read <= exposed, read - exposed


def test_the_documented_scrape_configuration_is_valid_and_scrapes_every_job(
    tmp_path: Path,
) -> None:
    """docs/deployment.md's example configuration, with the rules file where the test has it:
    `promtool check config` accepts it, and it names every job the rules read."""
    docs = (servers.ROOT / "docs" / "deployment.md").read_text()
    blocks = re.findall(r"```yaml\n(rule_files:.*?)```", docs, re.DOTALL)
    assert len(blocks) == 1, "docs/deployment.md has no example with rule_files"
    config = tmp_path / "prometheus.yml"
    config.write_text(blocks[0].replace("/etc/prometheus/messengers-alerts.yml", str(RULES)))
    result = run("check", "config", str(config))
    assert result.returncode == 0, result.stdout + result.stderr
    scraped = set(re.findall(r"job_name: (\S+)", blocks[0]))
    read = set(re.findall(r'job="([^"]+)"', RULES.read_text()))
    assert read <= scraped, read - scraped
