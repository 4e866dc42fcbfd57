"""A long conversation played through the real agent, for figures and for the 300-turn test.

``giftgenius bench state`` prints, at each milestone, the size of the newest checkpoint and
of the live session, the last request's prompt tokens and how often the context manager
truncated and summarized — the numbers that must stay flat as a conversation grows. It
runs on embedded stores in a temporary folder, never on the configured ones.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from giftgenius.agent.runner import Agent
from giftgenius.app import build_agent
from giftgenius.arguments import command_parser
from giftgenius.messages import speak
from giftgenius.settings import load_settings

OPENING = [
    "I need a gift for my colleague, he loves board games and coffee, budget 50 dollars",
    "He's 35 and works as a developer",
    "He hates mugs, he has far too many",
]
CHATTER = [
    "Tell me more about the first one",
    "What about the second one, how long is delivery?",
    "Hmm, let me think about it for a moment",
    "Is the third one good for someone who plays with friends on weekends?",
    "Can you remind me what the fourth option was?",
    "He also drinks a lot of espresso at the office",
    "I'm still hesitating between a few of them",
    "Which of these would arrive the fastest?",
]
CLOSING = ["I'll take the first one", "Yes, please confirm it"]
# The figures table's columns: the catalogue key of each header ([bench] state.col.*), and
# the width its figures are printed in.
COLUMNS = (
    ("turn", 5),
    ("checkpoint_bytes", 7),
    ("checkpoints", 6),
    ("session_bytes", 10),
    ("messages", 5),
    ("summary", 8),
    ("last_prompt", 12),
    ("truncated", 10),
    ("summarized", 11),
)


def conversation(turns: int) -> Iterator[str]:
    """``turns`` user messages: the profile (a dislike at turn 3), chatter, then the choice."""
    assert turns >= len(OPENING) + len(CLOSING)
    yield from OPENING
    for i in range(turns - len(OPENING) - len(CLOSING)):
        yield CHATTER[i % len(CHATTER)]
    yield from CLOSING


def play(agent: Agent, user_id: str, turns: int, milestones: set[int]) -> Iterator[dict]:
    run = agent.open(user_id, new=True).run
    started = time.perf_counter()
    for number, text in enumerate(conversation(turns), 1):
        result = agent.turn(run.id, user_id, text)
        if number in milestones or number == turns:
            yield figures(agent, run.id, number, result.reply, time.perf_counter() - started)


def figures(agent: Agent, run_id: str, turn: int, reply: str, elapsed: float) -> dict:
    session = agent.sessions.load(run_id)
    assert session is not None
    with agent.db.read() as repos:
        checkpoint = repos.checkpoints.latest(run_id)
        count = len(repos.checkpoints.list(session.user_id, run_id))
    usage = session.usage
    return {
        "turn": turn,
        "step": str(session.state.step),
        "checkpoints": count,
        "checkpoint_bytes": len(json.dumps(checkpoint.payload())) if checkpoint else 0,
        "session_bytes": len(session.dump()),
        "session_messages": len(session.messages),
        "summary_chars": len(session.summary.text),
        "last_prompt_tokens": usage.last_prompt_tokens,
        "prompt_tokens_total": usage.prompt_tokens,
        "truncations": usage.truncations,
        "summarizations": usage.summarizations,
        "refusals": usage.refusals,
        "seconds": round(elapsed, 2),
        "reply": reply[:60],
    }


def header() -> str:
    """The figures table's header, in the environment's language, at the columns' widths."""
    heads = [speak("bench", f"state.col.{name}") for name, _ in COLUMNS]
    return " ".join(f"{head:>{width}}" for head, (_, width) in zip(heads, COLUMNS, strict=True))


def main(argv: list[str]) -> int:
    parser = command_parser("giftgenius bench state", speak("help", "bench.state.description"))
    parser.add_argument("--turns", default="10,50,100,300", help=speak("help", "bench.turns"))
    parser.add_argument("--window", type=int, default=4000, help=speak("help", "bench.budget"))
    args = parser.parse_args(argv)
    milestones = sorted(int(t) for t in args.turns.split(","))
    with tempfile.TemporaryDirectory() as home:
        # Embedded stores in a folder of its own, whatever is configured: a benchmark never
        # touches the configured database or session store.
        settings = load_settings(home=Path(home), context_window=args.window).model_copy(
            update={"database_url": None, "redis_url": None}
        )
        agent = build_agent(settings)
        try:
            print(speak("bench", "state.title", window=args.window))
            print(header())
            for row in play(agent, "bench", milestones[-1], set(milestones)):
                print(
                    f"{row['turn']:>5} {row['checkpoint_bytes']:>7} {row['checkpoints']:>6} "
                    f"{row['session_bytes']:>10} {row['session_messages']:>5} "
                    f"{row['summary_chars']:>8} {row['last_prompt_tokens']:>12} "
                    f"{row['truncations']:>10} {row['summarizations']:>11}"
                )
        finally:
            agent.close()
    return 0
