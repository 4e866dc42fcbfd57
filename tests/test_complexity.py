"""No function in the package is too branchy to read: cyclomatic complexity 20 at most.

A reader of free text grows by rules; past twenty paths a function is read by nobody and
changed by accident. radon measures it the way reviewers do; a function over the limit is
split into named steps (a table of readers tried in order, a guard per case), not allowed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from radon.complexity import cc_visit

PACKAGE = Path(__file__).resolve().parent.parent / "giftgenius"
LIMIT = 20


@pytest.mark.slow
def test_no_function_is_over_the_complexity_limit() -> None:
    over = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for block in cc_visit(path.read_text(encoding="utf-8")):
            if block.complexity > LIMIT:
                where = path.relative_to(PACKAGE.parent)
                over.append(f"{where}:{block.lineno} {block.fullname} ({block.complexity})")
    assert not over, "split these into named steps:\n" + "\n".join(over)


def test_the_measure_sees_branches() -> None:
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(LIMIT + 1))
    (block,) = cc_visit(f"def f(x):\n{branches}\n    return -1\n")
    assert block.complexity > LIMIT
