"""The kept copy of a user's vectors is trusted only as far as the tally says."""

from __future__ import annotations

import numpy as np

from giftgenius.storage.memory_matrix import (
    MatrixCache,
    Tally,
    appendable,
    matrix_of,
    stacked,
    whole_tally,
)

DIM = 4


def rows(*seqs: int) -> list[tuple[int, str | None, bytes]]:
    return [(s, None, np.eye(DIM, dtype="<f4")[s % DIM].tobytes()) for s in seqs]


def test_only_appends_may_be_stacked() -> None:
    cached = matrix_of(rows(1, 2), DIM, whole_tally(rows(1, 2), 0))
    assert cached.tally == Tally(2, 2, 0)
    assert appendable(cached, Tally(3, 5, 0))
    assert not appendable(cached, Tally(3, 5, 1))  # a delete since, even with an insert
    assert not appendable(cached, Tally(2, 2, 0))  # nothing new
    assert not appendable(cached, Tally(3, 2, 0))  # a row committed late, under seq <= 2


def test_counts_that_do_not_add_up_mean_read_it_whole() -> None:
    """Rows 3 and 5 are read after seq 2, but the tally counts 5 notes: a row committed late
    under a smaller seq is missing, so the copy must be read again."""
    cached = matrix_of(rows(1, 2), DIM, whole_tally(rows(1, 2), 0))
    fresh = matrix_of(rows(3, 5), DIM, whole_tally(rows(3, 5), 0))
    assert stacked(cached, fresh, Tally(5, 5, 0)) is None
    both = stacked(cached, fresh, Tally(4, 5, 0))
    assert both is not None and both.tally == Tally(4, 5, 0)
    assert list(both.seqs) == [1, 2, 3, 5]


def test_rows_of_another_dimension_are_counted_never_compared() -> None:
    mixed = [*rows(1), (2, "mum", b"\0" * 4 * (DIM + 1)), *rows(3)]
    matrix = matrix_of(mixed, DIM, whole_tally(mixed, 0))
    assert matrix.tally.count == 3 and list(matrix.seqs) == [1, 3]


def test_ties_go_to_the_newer_and_a_recipient_filters() -> None:
    same = np.eye(DIM, dtype="<f4")[0].tobytes()
    kept = [(1, "mum", same), (2, "dad", same), (3, "mum", same)]
    matrix = matrix_of(kept, DIM, whole_tally(kept, 0))
    query = np.eye(DIM, dtype="<f4")[0]
    assert matrix.ranked(query, None, 2)[0] == [3, 2]
    assert matrix.ranked(query, "mum", 5)[0] == [3, 1]


def test_the_cache_drops_the_least_recently_used_past_its_bytes() -> None:
    one = matrix_of(rows(1, 2), DIM, whole_tally(rows(1, 2), 0))
    cache = MatrixCache(max_bytes=int(one.nbytes * 1.5))
    cache.keep("alice", "m", one)
    cache.keep("bob", "m", one)
    assert cache.get("alice", "m", DIM) is None and cache.get("bob", "m", DIM) is one
    assert cache.get("bob", "m", DIM + 1) is None  # another dimension: not this copy
    cache.drop("bob")
    assert cache.get("bob", "m", DIM) is None
