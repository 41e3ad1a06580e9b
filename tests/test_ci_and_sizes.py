"""Repository rules that are cheap to check: .ci/run runs README's test command (ruff check,
then pytest), and no module under jaxlite/ is over 800 lines (DESIGN.md: a module past ~800
lines is asking to be split)."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
MAX_LINES = 800


def test_ci_runs_readmes_test_command_with_ruff():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"Run the test suite:\n\n```bash\n(.*?)\n```", readme, re.S).group(1)
    assert "ruff check ." in block and block.index("ruff check .") < block.index("pytest")
    assert block in (ROOT / ".ci" / "run").read_text()


def test_no_module_over_800_lines():
    too_long = {
        str(p.relative_to(ROOT)): n
        for p in sorted((ROOT / "jaxlite").rglob("*.py"))
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert not too_long, f"modules over {MAX_LINES} lines (split them by topic): {too_long}"
