"""The running release's version, shown by /healthz and in the pages' footer.

One source: a release raises it here and in pyproject.toml and describes it at the top of
CHANGELOG.md (docs/deployment.md, "Upgrades"); tests/ops/test_version.py keeps the three equal. An
operator in the middle of a rolling upgrade reads it from each process's /healthz to see which
process runs what.
"""

from typing import Final

VERSION: Final = "1.2.0"
