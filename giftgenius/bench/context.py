"""``giftgenius bench context``: what budgeted context + summaries save over resending it all.

Runs a synthetic gift conversation (user message, a tool call, a catalog-sized tool result,
an assistant reply per turn) through ``maybe_summarize`` and ``build_context`` with a
deterministic extractive summarizer, and prints per conversation length: the prompt tokens
of the last request, the total sent versus resending the full history every request, and
the context-building time per turn — flat as history grows, since each message is counted
once. A command that prints figures, not a timed test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from giftgenius.agent.prompt_window import build_context
from giftgenius.agent.summary import maybe_summarize
from giftgenius.agent.tools import tool_specs
from giftgenius.arguments import command_parser
from giftgenius.domain import Message, Session, ToolCall
from giftgenius.llm.base import ChatRequest, ChatResponse, ChatUsage
from giftgenius.messages import speak
from giftgenius.protocol import MESSAGES_HEADER
from giftgenius.settings import load_settings
from giftgenius.tokens import MIN_PROMPT_TOKENS, REPLY_PRIMING_TOKENS, TokenCounter

DEFAULT_TURNS = (10, 50, 100, 300)
DEFAULT_BUDGET = 4000
SYSTEM_PROMPT = (
    "You are GiftGenius, an assistant that helps a person choose a gift. Learn who the gift "
    "is for, their budget and interests, propose candidates from the catalog through tools, "
    "filter them, and record the final choice once the user confirms. Reply in the user's "
    "language. Never invent products: read them through tools. "
) * 3
INTERESTS = ["tea", "hiking", "board games", "jazz", "pottery", "coffee", "gardening", "yoga"]
RECIPIENTS = ["sister", "colleague", "dad", "best friend", "grandmother", "neighbour"]
TITLES = ["Ceramic mug", "Travel notebook", "Scented candle", "Board game", "Tea sampler"]
# The figures table's columns: the catalogue key of each header ([bench] context.col.*), and
# the width its figures are printed in.
COLUMNS = (
    ("turns", 6),
    ("last_prompt", 12),
    ("sent", 12),
    ("full", 12),
    ("saved", 7),
    ("summaries", 9),
    ("us_per_turn", 9),
    ("us_last10", 15),
)


class ExtractiveSummarizer:
    """Deterministic stand-in for a model: keeps the user lines, newest last, bounded."""

    name = "bench-extractive"

    def __init__(self, counter: TokenCounter) -> None:
        self.counter = counter

    def complete(
        self, request: ChatRequest, on_text: Callable[[str], None] | None = None
    ) -> ChatResponse:
        text = request.messages[-1]["content"]
        previous, _, folded = text.partition(MESSAGES_HEADER)
        facts = [line[len("user: ") :] for line in folded.splitlines() if line.startswith("user: ")]
        kept = " ".join(previous.splitlines()[1:2] + facts)
        words = kept.split()[-200:]
        answer = " ".join(words) or "No facts yet."
        return ChatResponse(
            message=Message(role="assistant", content=answer),
            usage=ChatUsage(
                prompt_tokens=self.counter.count_request(request.messages),
                completion_tokens=self.counter.count_text(answer),
            ),
        )


def synthetic_turn(rng: random.Random, t: int) -> list[Message]:
    """One realistic turn: user text, a search call, its JSON shortlist, a reply."""
    recipient = rng.choice(RECIPIENTS)
    interest = rng.choice(INTERESTS)
    user = Message(
        role="user",
        content=f"I'm looking for a gift for my {recipient} who loves {interest}; "
        f"budget about {rng.randint(20, 90)} dollars, delivery to France before the "
        f"{rng.randint(1, 28)}th. Something not too bulky, please (turn {t}).",
    )
    call = ToolCall(
        id=f"call_{t}",
        name="search_candidates",
        arguments=json.dumps({"extra_keywords": [interest]}),
    )
    results = [
        {
            "id": f"g{rng.randint(100, 999)}",
            "title": f"{rng.choice(TITLES)} for {interest} lovers",
            "price": round(rng.uniform(8, 95), 2),
            "currency": "USD",
            "delivery_days": rng.randint(1, 12),
            "why": f"matches {interest}; ships to FR; well reviewed by {recipient}s",
        }
        for _ in range(6)  # a shortlist's size (SHORTLIST_SIZE)
    ]
    tool = Message(
        role="tool",
        tool_call_id=call.id,
        content=json.dumps(
            {
                "ok": True,
                "found": rng.randint(8, 40),
                "shortlist": results,
                "rejected": {"over budget": rng.randint(0, 6)},
                "unserved": [],
                "state": {"step": "finalizing"},
            }
        ),
    )
    reply = Message(
        role="assistant",
        content=f"Here are three ideas for your {recipient}: the {results[0]['title']} "
        f"({results[0]['price']} USD), the {results[1]['title']} and the "
        f"{results[2]['title']}, all within your budget and deadline. Which one would you "
        "like, or would you like something more personal?",
    )
    return [user, Message(role="assistant", tool_calls=[call]), tool, reply]


@dataclass
class BenchRow:
    turns: int
    last_prompt_tokens: int
    sent_tokens: int
    full_resend_tokens: int
    summaries: int
    build_us_per_turn: float
    build_us_last10: float

    @property
    def saved_pct(self) -> float:
        return 100.0 * (1 - self.sent_tokens / self.full_resend_tokens)


def run_conversation(turns: int, budget: int, counter: TokenCounter, seed: int = 7) -> BenchRow:
    settings = load_settings()
    tools = tool_specs()
    tools_cost = counter.count_tools(tools)
    model = ExtractiveSummarizer(counter)
    rng = random.Random(seed)
    session = Session(run_id="bench", user_id="bench")
    state = '[giftgenius-state] {"step":"filtering","missing":[],"locale":"en"}'
    fixed_full = (
        REPLY_PRIMING_TOKENS
        + tools_cost
        + counter.count_message({"role": "system", "content": SYSTEM_PROMPT})
        + counter.count_message({"role": "system", "content": state})
    )
    all_tokens = 0  # every message ever seen, for the resend-everything baseline
    sent = full = last = 0
    timings: list[float] = []
    for t in range(turns):
        messages = synthetic_turn(rng, t)
        for message in messages:
            message.seq = session.next_seq
            session.next_seq += 1
        maybe_summarize(session, model, counter, budget=budget, settings=settings)
        spent = 0.0
        # Two model requests per turn: after the user message, and after the tool result.
        for upto in (1, 3):
            turn = messages[:upto]
            start = time.perf_counter()
            built = build_context(
                counter=counter,
                budget=budget,
                system_prompt=SYSTEM_PROMPT,
                tools=tools,
                summary=session.summary,
                history=session.messages,
                state_block=state,
                turn=turn,
            )
            spent += time.perf_counter() - start
            last = built.prompt_tokens
            sent += last
            full += fixed_full + all_tokens + sum(m.tokens or 0 for m in turn)
        all_tokens += sum(m.tokens or 0 for m in messages)
        session.messages.extend(messages)
        timings.append(spent * 1e6)
    tail = timings[-10:]
    return BenchRow(
        turns=turns,
        last_prompt_tokens=last,
        sent_tokens=sent,
        full_resend_tokens=full,
        summaries=session.usage.summarizations,
        build_us_per_turn=statistics.median(timings),
        build_us_last10=statistics.median(tail),
    )


def format_table(rows: Sequence[BenchRow], budget: int) -> str:
    header = " ".join(
        f"{speak('bench', f'context.col.{name}'):>{width}}" for name, width in COLUMNS
    )
    lines = [speak("bench", "context.title", budget=budget), header]
    for r in rows:
        lines.append(
            f"{r.turns:>6} {r.last_prompt_tokens:>12} {r.sent_tokens:>12} "
            f"{r.full_resend_tokens:>12} {r.saved_pct:>6.1f}% {r.summaries:>9} "
            f"{r.build_us_per_turn:>9.0f} {r.build_us_last10:>15.0f}"
        )
    return "\n".join(lines)


def _turn_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(speak("bench", "context.turns", reason=exc)) from exc
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(speak("bench", "context.turns_positive"))
    return counts


def _prompt_budget(text: str) -> int:
    """A prompt budget as the agent would get one: never below the agent's minimum."""
    try:
        budget = int(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(speak("bench", "context.budget", reason=exc)) from exc
    if budget < MIN_PROMPT_TOKENS:
        raise argparse.ArgumentTypeError(
            speak("bench", "context.budget_low", budget=budget, minimum=MIN_PROMPT_TOKENS)
        )
    return budget


def main(argv: Sequence[str] | None = None) -> int:
    parser = command_parser("giftgenius bench context", speak("help", "bench.context.description"))
    parser.add_argument(
        "--turns",
        type=_turn_counts,
        default=list(DEFAULT_TURNS),
        help=speak("help", "bench.turns"),
    )
    parser.add_argument(
        "--budget", type=_prompt_budget, default=DEFAULT_BUDGET, help=speak("help", "bench.budget")
    )
    parser.add_argument("--model", default="offline", help=speak("help", "bench.encoding"))
    args = parser.parse_args(argv)
    counter = TokenCounter.for_model(args.model)
    run_conversation(3, args.budget, counter)  # warm caches so the first row is not skewed
    rows = [run_conversation(n, args.budget, counter) for n in args.turns]
    print(format_table(rows, args.budget))
    over = [r for r in rows if r.last_prompt_tokens > args.budget]
    return 1 if over else 0
