"""``giftgenius bench http``: several users talking to several service processes at once.

It starts ``--workers`` (2) ``giftgenius serve`` processes (``bench/servers.py``), each on a
port of its own, on one set of scratch stores (a scratch database and Redis key prefix on
the configured servers — ``bench/scratch.py``; more than one process needs Redis and
Postgres, as ``serve --workers`` does), makes one API key per user as ``keys create``
does, and plays ``--users`` (8) conversations at once, ``--turns`` (6) messages each, with
the offline model: the long conversation of ``bench state`` (a profile, a dislike, the
choice, the yes). A user's consecutive requests go to the processes in turn, so every
conversation moves from one process to the other at each message.

Each message carries its user's and turn's marker (``(ref zqbvcx)``). When all are
played, it reads back each user's conversation (``GET /v1/conversation``) and state
(``GET /v1/state``) — what the service stored, not what it answered — and counts: *lost*
turns (a message sent, or a reply given, not in the conversation), *duplicated* turns (one
there twice), and *cross-user* reads (another user's marker or run in what a user was
answered or shown, or a document naming someone else). All three must be 0: the exit
code is 1 otherwise. It prints p50 / p99 request time and turns per second.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

import httpx2
from rich.console import Console

from giftgenius.arguments import command_parser, whole
from giftgenius.bench.players import Stores, configured_stores
from giftgenius.bench.scratch import interrupted, scratch_stores
from giftgenius.bench.servers import running_servers, server_environment
from giftgenius.bench.state import conversation
from giftgenius.bench.stats import Spread
from giftgenius.errors import ConfigError
from giftgenius.messages import speak
from giftgenius.settings import Settings

MARKER = re.compile(r"zq([a-j]+)v([a-j]+)x")
LETTERS = "abcdefghij"
RATE_LIMIT = "1000000/minute"  # the limiter still counts every request; it never refuses one
REQUEST_SECONDS = 120.0


def marker(user: int, turn: int) -> str:
    """A word that names a user and a turn, made of letters only, so the offline model
    reads no age, budget or date in it and the scrubber no number."""
    return "zq" + _letters(user) + "v" + _letters(turn) + "x"


def _letters(number: int) -> str:
    return "".join(LETTERS[int(digit)] for digit in str(number))


def _number(letters: str) -> int:
    return int("".join(str(LETTERS.index(c)) for c in letters))


def markers_in(text: str) -> list[tuple[int, int]]:
    """Every (user, turn) marker in ``text``."""
    return [(_number(m.group(1)), _number(m.group(2))) for m in MARKER.finditer(text)]


def lines(turns: int) -> list[str]:
    """The first ``turns`` lines of ``bench state``'s conversation (it needs five)."""
    return list(conversation(max(turns, 5)))[:turns]


@dataclass
class User:
    """One user: number, id, key, and what they sent and were answered."""

    number: int
    user_id: str
    key: str
    sent: list[int] = field(default_factory=list)  # turns whose message was sent
    replies: list[str] = field(default_factory=list)  # replies of the answered turns
    run_ids: set[str] = field(default_factory=set)
    seconds: list[float] = field(default_factory=list)
    served_by: list[int] = field(default_factory=list)  # the process of each answered turn
    failures: list[str] = field(default_factory=list)
    answered: list[str] = field(default_factory=list)  # every body the service sent back

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


@dataclass(frozen=True)
class HttpReport:
    stores: str
    workers: int
    users: int
    turns: int  # turns answered (200)
    failed: int  # requests that were not
    seconds: float
    turns_per_second: float
    turn_p50_ms: float
    turn_p99_ms: float
    sent: int
    lost: int
    duplicated: int
    cross_user: int
    per_worker: list[int]
    first_failure: str | None = None

    @property
    def clean(self) -> bool:
        return self.lost == self.duplicated == self.cross_user == self.failed == 0


def run_http(
    stores: Stores,
    *,
    workers: int,
    users: int,
    turns: int,
    keep: bool = False,
    err: Console | None = None,
) -> HttpReport:
    """Play the users over ``workers`` service processes on scratch stores of its own,
    then count what the service stored; the scratch stores go at the end (unless ``keep``)."""
    err = err or Console(stderr=True)

    def say(text: str) -> None:
        err.print(text, markup=False, highlight=False)

    if workers > 1 and not shared(stores):
        raise ConfigError(speak("bench", "http.shared_stores"))
    with scratch_stores(stores, keep=keep, say=say) as scratch:
        *players, warming = make_users(scratch, users + 1)
        env = server_environment(scratch.overrides, {"GIFTGENIUS_RATE_LIMIT": RATE_LIMIT})
        say(speak("bench", "http.starting", workers=workers))
        with (
            running_servers(workers, env) as urls,
            httpx2.Client(timeout=REQUEST_SECONDS, limits=_connections(users)) as client,
        ):
            warm_up(client, urls, warming)
            elapsed = play_all(client, urls, players, lines(turns))
            counts = [check(client, urls, player, players) for player in players]
    return report(scratch.label, workers, players, counts, elapsed)


def _connections(users: int) -> httpx2.Limits:
    """A connection for every user at once (the client's default pool holds 100), so a
    request never waits for a connection on the benchmark's side."""
    return httpx2.Limits(max_connections=users + 16, max_keepalive_connections=users + 16)


def shared(stores: Stores) -> bool:
    """Whether several processes can serve on these stores: Redis and Postgres."""
    url = str(stores.overrides.get("database_url") or "")
    return bool(stores.overrides.get("redis_url")) and url.startswith("postgres")


def make_users(stores: Stores, count: int) -> list[User]:
    """``count`` users with one API key each, made as ``keys create`` makes them; the
    shipped catalog is seeded here, once, before any server starts."""
    from giftgenius.app import build_reader

    reader = build_reader(stores.settings())
    prefix = f"http-{uuid.uuid4().hex[:8]}"
    made = []
    try:
        with reader.db.write() as repos:
            for number in range(1, count + 1):
                user_id = f"{prefix}-{number}"
                repos.users.ensure(user_id)
                _, key = repos.keys.create(user_id)
                made.append(User(number, user_id, key))
    finally:
        reader.close()
    return made


def play_all(client: httpx2.Client, urls: list[str], users: list[User], said: list[str]) -> float:
    """Every user's conversation at once, one thread each; the wall time of it all."""
    started = time.perf_counter()
    stop = threading.Event()
    pool = ThreadPoolExecutor(max_workers=len(users))
    try:
        for done in pool.map(lambda user: play(client, urls, user, said, stop), users):
            del done
    except BaseException:  # Ctrl-C, SIGTERM: no wait for the turns under way, whose
        stop.set()  # servers are stopped next (``running_servers``), and no new one
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return time.perf_counter() - started


def play(
    client: httpx2.Client, urls: list[str], user: User, said: list[str], stop: threading.Event
) -> None:
    """One user's messages in order, each to the next process in turn, until ``stop``."""
    for turn, line in enumerate(said, 1):
        if stop.is_set():
            return
        worker = (user.number + turn) % len(urls)
        text = f"(ref {marker(user.number, turn)}) {line}"
        user.sent.append(turn)
        start = time.perf_counter()
        try:
            answer = client.post(
                f"{urls[worker]}/v1/messages", json={"text": text}, headers=user.headers
            )
        except httpx2.HTTPError as exc:
            user.failures.append(f"{type(exc).__name__}: {exc}")
            continue
        took = time.perf_counter() - start
        user.answered.append(answer.text)
        if answer.status_code != 200:
            user.failures.append(f"HTTP {answer.status_code}: {answer.text[:200]}")
            continue
        body = answer.json()
        user.seconds.append(took)
        user.served_by.append(worker)
        user.replies.append(body["reply"])
        user.run_ids.add(body["run_id"])


class Counted(NamedTuple):
    """What one user's stored conversation shows (and why it could not be read)."""

    lost: int = 0
    duplicated: int = 0
    cross_user: int = 0
    failures: tuple[str, ...] = ()


def check(client: httpx2.Client, urls: list[str], user: User, everyone: list[User]) -> Counted:
    """Count one user's conversation as the service stored it: read it back from one
    process and the state from the other."""
    try:
        shown = _read(client, urls[user.number % len(urls)], "/v1/conversation", user)
        state = _read(client, urls[(user.number + 1) % len(urls)], "/v1/state", user)
    except (httpx2.HTTPError, ValueError) as exc:
        return Counted(failures=(f"{type(exc).__name__}: {exc}",))
    return count(user, everyone, shown, state)


def count(
    user: User, everyone: list[User], shown: dict[str, Any], state: dict[str, Any]
) -> Counted:
    """Lost, duplicated and cross-user, from one user's stored conversation and state."""
    said = Counter(t for m in shown["messages"] if m["role"] == "user" for t in _own(m, user))
    lost = sum(1 for turn in user.sent if said[turn] == 0)
    duplicated = sum(max(said[turn] - 1, 0) for turn in user.sent)
    stored = Counter(m["text"] for m in shown["messages"] if m["role"] == "assistant")
    for reply, times in Counter(user.replies).items():
        lost += max(times - stored[reply], 0)
        duplicated += max(stored[reply] - times, 0)
    return Counted(lost, duplicated, cross_reads(user, everyone, shown, state))


def warm_up(client: httpx2.Client, urls: list[str], user: User) -> None:
    """One turn on each process before the clock starts: a process's first turn loads the
    offline model's tables and the tokenizer (seconds), which is start-up, not a turn."""
    for url in urls:
        client.post(f"{url}/v1/messages", json={"text": "hello"}, headers=user.headers)


def _read(client: httpx2.Client, url: str, path: str, user: User) -> dict[str, Any]:
    answer = client.get(f"{url}{path}", headers=user.headers)
    answer.raise_for_status()
    found: dict[str, Any] = answer.json()
    return found


def _own(message: dict[str, Any], user: User) -> list[int]:
    return [turn for owner, turn in markers_in(message["text"]) if owner == user.number]


def cross_reads(
    user: User, everyone: list[User], shown: dict[str, Any], state: dict[str, Any]
) -> int:
    """Another user's marker in anything this user was answered or shown; a run of
    another user's, or a document naming another user."""
    texts = [*user.answered, json.dumps(shown), json.dumps(state)]
    foreign = sum(1 for text in texts for owner, _ in markers_in(text) if owner != user.number)
    others = {run for other in everyone if other is not user for run in other.run_ids}
    runs = {shown.get("run_id"), state.get("run_id")} | user.run_ids
    foreign += len(runs & others)
    foreign += int(state.get("user_id") != user.user_id)
    return foreign


def report(
    stores: str, workers: int, users: list[User], counts: list[Counted], elapsed: float
) -> HttpReport:
    seconds = [s for user in users for s in user.seconds]
    failures = [f for user in users for f in user.failures] + [
        f for c in counts for f in c.failures
    ]
    spread = Spread.of(seconds)
    served = Counter(w for user in users for w in user.served_by)
    return HttpReport(
        stores=stores,
        workers=workers,
        users=len(users),
        turns=len(seconds),
        failed=len(failures),
        seconds=round(elapsed, 2),
        turns_per_second=round(len(seconds) / elapsed, 1) if elapsed else 0.0,
        turn_p50_ms=round(spread.p50, 1),
        turn_p99_ms=round(spread.p99, 1),
        sent=sum(len(user.sent) for user in users),
        lost=sum(c.lost for c in counts),
        duplicated=sum(c.duplicated for c in counts),
        cross_user=sum(c.cross_user for c in counts),
        per_worker=[served[w] for w in range(workers)],
        first_failure=failures[0] if failures else None,
    )


def main(argv: Sequence[str], settings: Settings, *, out: Console, err: Console) -> int:
    p = command_parser("giftgenius bench http", speak("help", "bench.http.description"))
    p.add_argument(
        "--workers",
        type=whole(1, 16, what="processes"),
        default=2,
        help=speak("help", "bench.http.workers"),
    )
    p.add_argument(
        "--users",
        type=whole(1, 256, what="users"),
        default=8,
        help=speak("help", "bench.http.users"),
    )
    p.add_argument(
        "--turns",
        type=whole(1, 1000, what="turns"),
        default=6,
        help=speak("help", "bench.http.turns"),
    )
    p.add_argument("--keep", action="store_true", help=speak("help", "bench.keep"))
    p.add_argument("--json", action="store_true", help=speak("help", "bench.json"))
    args = p.parse_args(list(argv))
    try:
        result = run_http(
            configured_stores(settings),
            workers=args.workers,
            users=args.users,
            turns=args.turns,
            keep=args.keep,
            err=err,
        )
    except KeyboardInterrupt:
        err.print(interrupted(), markup=False, highlight=False)
        return 130
    if args.json:
        out.file.write(json.dumps(asdict(result), indent=2) + "\n")
    else:
        out.print(text(result), markup=False, highlight=False, soft_wrap=True)
    return 0 if result.clean else 1


def text(r: HttpReport) -> str:
    """The report: a title, one table of the figures, the first failure if any."""
    columns = [
        ("workers", f"{r.workers}"),
        ("users", f"{r.users}"),
        ("turns", f"{r.turns}/{r.sent}"),
        ("seconds", f"{r.seconds:.1f}"),
        ("turns_per_second", f"{r.turns_per_second:.1f}"),
        ("p50", f"{r.turn_p50_ms:.1f}"),
        ("p99", f"{r.turn_p99_ms:.1f}"),
        ("lost", f"{r.lost}"),
        ("duplicated", f"{r.duplicated}"),
        ("cross_user", f"{r.cross_user}"),
        ("failed", f"{r.failed}"),
    ]
    heads = [speak("bench", f"http.col.{name}") for name, _ in columns]
    widths = [max(len(head), len(value)) for head, (_, value) in zip(heads, columns, strict=True)]
    said = [
        speak("bench", "http.title", stores=r.stores),
        speak(
            "bench",
            "http.servers",
            workers=r.workers,
            per_worker=" / ".join(map(str, r.per_worker)),
        ),
        "",
        "  ".join(head.rjust(w) for head, w in zip(heads, widths, strict=True)),
        "  ".join(value.rjust(w) for (_, value), w in zip(columns, widths, strict=True)),
    ]
    if r.first_failure:
        said.append(speak("bench", "http.first_failure", failure=r.first_failure))
    return "\n".join(said)
