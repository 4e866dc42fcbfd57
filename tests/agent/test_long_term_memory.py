"""Long-term memory from the agent's side: a confirmed search leaves one note built from
the run's facts (not its transcript), scrubbed, embedded, found again by text and by
recipient; a note never fails a turn; ``forget`` leaves no trace of one in any file or
table; ``prune`` applies retention to them."""

from __future__ import annotations

import datetime as dt
import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from giftgenius.agent.memory import note_text, recipient_key
from giftgenius.app import build_agent
from giftgenius.cli.main import main
from giftgenius.domain import Budget, ProfileDraft, SessionState, utcnow
from giftgenius.errors import ModelError
from giftgenius.protocol import CandidateView
from giftgenius.settings import load_settings

PII = json.loads((Path(__file__).parents[1] / "privacy" / "pii_corpus.json").read_text())


def _search(agent: Any, user: str, *lines: str) -> str:
    run = agent.open(user).run
    for line in lines:
        result = agent.turn(run.id, user, line)
    assert str(result.state.step) == "done", result.reply
    return run.id


@pytest.mark.slow
def test_a_confirmed_search_leaves_one_note_of_its_facts(tmp_path: Path, seeded_home) -> None:
    agent = build_agent(load_settings(home=tmp_path / "home"))
    try:
        run_id = _search(
            agent,
            "alice",
            "a gift for my sister Clara, she loves tea, no chocolate, 40 dollars",
            "by the way we once sailed to Okinawa together",  # said, but no fact of the run
            "the first one",
            "yes",
        )
        (found,) = agent.memory.recall("alice", "what tea does Clara like?")
        assert found.run_id == run_id
        assert found.date == utcnow().date()  # written now; the text says the run's day
        assert found.recipient == "sister Clara"
        for fact in ("Clara", "tea", "chocolate", "$40", "December 1, 2026"):
            assert fact in found.text
        assert "Okinawa" not in found.text  # the transcript is not the source
        by_name = agent.memory.recall("alice", "tea", recipient="sister", name="Clara")
        assert [r.run_id for r in by_name] == [run_id]
        assert agent.memory.recall("alice", "tea", recipient="brother") == []
        assert agent.memory.recall("bob", "tea") == []
    finally:
        agent.close()


@pytest.mark.slow
def test_a_search_not_confirmed_leaves_no_note(tmp_path: Path, seeded_home) -> None:
    agent = build_agent(load_settings(home=tmp_path / "home"))
    try:
        run = agent.open("alice").run
        agent.turn(run.id, "alice", "a gift for my sister Clara, she loves tea, 40 dollars")
        agent.turn(run.id, "alice", "the first one")
        assert agent.memory.recall("alice", "tea") == []
    finally:
        agent.close()


def test_the_note_is_in_the_runs_language() -> None:
    state = SessionState(
        locale="fr",
        profile=ProfileDraft(
            recipient="maman",
            age=61,
            interests=["jardinage"],
            budget=Budget(amount=50, currency="EUR"),
        ),
    )
    chosen = CandidateView(
        id="g1",
        title="Sécateur",
        price=24.5,
        currency="EUR",
        delivery_days=3,
        answers=["jardinage"],
    )
    text = note_text(state, chosen, dt.date(2026, 12, 1))
    assert text.startswith("Recherche de cadeau du 1er décembre 2026 pour : maman.")
    assert "61 ans" in text and "Aime : jardinage." in text and "1er décembre 2026" in text
    assert recipient_key("maman", None) == recipient_key("mum", None) == "mother"


@pytest.mark.slow
def test_a_summary_fold_keeps_the_runs_one_note_which_the_choice_rewrites(
    tmp_path: Path, seeded_home
) -> None:
    """A long search that is left unfinished still taught something: when its old history
    is folded into the summary, the run's note is written; the confirmed choice later
    rewrites that same note (one a run), now with the gift."""
    agent = build_agent(load_settings(home=tmp_path / "home", context_window=5400))
    try:
        run = agent.open("alice").run
        agent.turn(run.id, "alice", "a gift for my sister Clara, she loves tea, 40 dollars")
        folded = False
        for i in range(40):  # questions about the list, until old history is folded
            result = agent.turn(run.id, "alice", f"is number {i % 3 + 1} good for tea lovers?")
            folded = folded or result.summarized
            if folded:
                break
        assert folded, "the conversation never grew past the window"
        (note,) = agent.memory.recall("alice", None)
        assert note.run_id == run.id and "tea" in note.text and "Chose" not in note.text
        agent.turn(run.id, "alice", "the first one")
        agent.turn(run.id, "alice", "yes")
        (note,) = agent.memory.recall("alice", None)
        assert note.run_id == run.id and "Chose" in note.text
    finally:
        agent.close()


@pytest.mark.slow
def test_a_failing_embedder_never_fails_the_turn(
    tmp_path: Path, seeded_home, caplog: pytest.LogCaptureFixture
) -> None:
    class Down:
        name = "down"

        def embed(self, texts: Any) -> list[list[float]]:
            raise ModelError("the embeddings endpoint is down")

    agent = build_agent(load_settings(home=tmp_path / "home"))
    agent.memory.embedder = Down()
    try:
        _search(
            agent,
            "alice",
            "a gift for my uncle, he loves chess, 30 dollars",
            "the first one",
            "yes",
        )
        assert "memory_write_failed" in caplog.text or "long-term note not written" in caplog.text
    finally:
        agent.close()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["email", "phone", "address"])
def test_pii_typed_in_a_search_is_not_in_its_note(
    tmp_path: Path, seeded_home, script, kind: str
) -> None:
    """A careless model puts what the person typed — PII included — into the facts; the
    note holds placeholders, never the values."""
    samples = [item for item in PII["pii"] if item["kind"] == kind][:4]
    assert samples
    values = [item["value"] for item in samples]
    facts = {
        "recipient": "sister Clara",
        "interests": ["tea", values[0]],
        "dislikes": values[1:],
        "budget_max": 40,
        "currency": "USD",
    }
    script.profile("a gift for my sister", "Here are some ideas.", **facts)
    script.pick("the first").confirm("yes")
    agent = build_agent(load_settings(home=tmp_path / "home"))
    try:
        _search(agent, "pii", "a gift for my sister", "the first", "yes")
        notes = agent.memory.recall("pii", "tea Clara", k=10)
        assert notes and "Clara" in notes[0].text
        assert f"[{kind}]" in notes[0].text  # the fact was kept, as its placeholder
        for note in notes:
            for value in values:
                assert value not in note.text, (value, note.text)
                for run in (value.split("@")[0], value.replace(" ", "")):
                    assert len(run) < 6 or run not in note.text
    finally:
        agent.close()


@pytest.mark.slow
def test_forget_leaves_no_note_in_any_file(tmp_path: Path, seeded_home) -> None:
    home = tmp_path / "home"
    agent = build_agent(load_settings(home=home))
    try:
        _search(
            agent,
            "erased",
            "a gift for my friend Quixotelle, she loves tea, 40 dollars",
            "the first one",
            "yes",
        )
        stored = home / "memories.db"
        held = stored.read_bytes() + Path(f"{stored}-wal").read_bytes()
        assert b"Quixotelle" in held  # the note is there to be erased
        counts = agent.forget("erased")
        assert counts["memories"] == 1
        assert agent.memory.recall("erased", "tea Quixotelle") == []
    finally:
        agent.close()
    for path in (p for p in home.rglob("*") if p.is_file() and ".db" in p.name):
        assert b"Quixotelle" not in path.read_bytes(), path.name


@pytest.mark.slow
@pytest.mark.postgres
def test_forget_on_postgres_leaves_no_note_nor_dead_tuple(
    tmp_path: Path, seeded_postgres_url: str, seeded_home
) -> None:
    settings = load_settings(home=tmp_path / "home", database_url=seeded_postgres_url)
    engine = sa.create_engine(seeded_postgres_url)
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pageinspect")
        for table in ("memories", "memory_tallies"):
            conn.exec_driver_sql(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
    agent = build_agent(settings)
    try:
        _search(
            agent,
            "erased-pg",
            "a gift for my friend Quixotelle, she loves tea, 40 dollars",
            "the first one",
            "yes",
        )
        assert not (tmp_path / "home" / "memories.db").exists()  # the table holds them
        (note,) = agent.memory.recall("erased-pg", "tea Quixotelle")
        assert "Quixotelle" in note.text
        assert agent.forget("erased-pg")["memories"] == 1
    finally:
        agent.close()
    try:
        with engine.connect() as conn:
            left = conn.execute(sa.text("SELECT count(*) FROM memories")).scalar_one()
            tallies = conn.execute(sa.text("SELECT count(*) FROM memory_tallies")).scalar_one()
            found = [
                _dead(conn, "memories", "Quixotelle"),
                _dead(conn, "memory_tallies", "erased-pg"),  # the tally named the user
            ]
        assert (left, tallies, found) == (0, 0, [0, 0])
    finally:
        engine.dispose()


def _dead(conn: sa.Connection, table: str, text: str) -> int:
    """Tuples of ``table``'s pages, live or dead, holding ``text`` (pageinspect)."""
    pages = conn.execute(
        sa.text("SELECT pg_relation_size(:t) / current_setting('block_size')::int"),
        {"t": table},
    ).scalar_one()
    return int(
        conn.execute(
            sa.text(
                "SELECT count(*) FROM generate_series(0, :n - 1) AS page, "
                "LATERAL heap_page_items(get_raw_page(:t, page::int)) "
                "WHERE t_data IS NOT NULL AND position(convert_to(:m, 'UTF8') IN t_data) > 0"
            ),
            {"n": pages, "t": table, "m": text},
        ).scalar_one()
    )


def _prune(home: Path, age: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["prune", "--older-than", age, "--yes", "--home", str(home)],
        stdin=io.StringIO(""),
        stdout=out,
        stderr=err,
    )
    assert code == 0, err.getvalue()
    return out.getvalue()


@pytest.mark.slow
def test_prune_applies_retention_to_notes(tmp_path: Path, seeded_home) -> None:
    home = tmp_path / "home"
    agent = build_agent(load_settings(home=home))
    try:
        _search(
            agent,
            "alice",
            "a gift for my uncle, he loves chess, 30 dollars",
            "the first one",
            "yes",
        )
        assert agent.memory.recall("alice", "chess")
    finally:
        agent.close()
    assert "Deleted 0 memory notes" in _prune(home, "1d")
    time.sleep(1.1)
    assert "Deleted 1 memory note " in _prune(home, "1s")
    agent = build_agent(load_settings(home=home))
    try:
        assert agent.memory.recall("alice", "chess") == []
    finally:
        agent.close()
