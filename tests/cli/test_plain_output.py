"""Piped output is plain text: the Markdown a terminal renders (bold titles, code spans)
is not left as raw ``**`` markers for the program that reads stdout."""

from __future__ import annotations

import pytest


@pytest.mark.slow
def test_a_piped_demo_prints_no_markdown_markers(cli) -> None:
    ran = cli("demo", "coworker-fr")
    assert ran.code == 0, ran.err
    assert "Cloud Outage Survival Socks" in ran.out
    assert "**" not in ran.out


@pytest.mark.slow
def test_a_piped_chat_prints_no_markdown_markers(cli) -> None:
    ran = cli(
        "chat", "--user", "p1", stdin="A gift for my brother, 45 dollars, he loves board games\n"
    )
    assert ran.code == 0, ran.err
    assert "\n1. " in ran.out and "**" not in ran.out
