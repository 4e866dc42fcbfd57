"""Steps and legal transitions: pure logic, no I/O.

Entering a key step writes a checkpoint of that step; a step reached again (the user
changes the budget after filtering) writes a new one.
"""

from __future__ import annotations

from giftgenius.domain import CheckpointStep, Step
from giftgenius.errors import WorkflowError

LEGAL: dict[Step, frozenset[Step]] = {
    Step.collecting_profile: frozenset({Step.generating_candidates}),
    Step.generating_candidates: frozenset({Step.filtering, Step.collecting_profile}),
    Step.filtering: frozenset(
        {Step.finalizing, Step.generating_candidates, Step.collecting_profile}
    ),
    Step.finalizing: frozenset(
        {Step.done, Step.filtering, Step.generating_candidates, Step.collecting_profile}
    ),
    Step.done: frozenset(),
}

CHECKPOINT_ON_ENTRY: dict[Step, CheckpointStep] = {
    Step.generating_candidates: CheckpointStep.profile_collected,
    Step.filtering: CheckpointStep.candidates_generated,
    Step.finalizing: CheckpointStep.filtered,
    Step.done: CheckpointStep.final_choice_made,
}


def check_transition(current: Step, target: Step) -> None:
    if target not in LEGAL[current]:
        raise WorkflowError(
            "step.illegal",
            current=str(current),
            target=str(target),
            allowed=[str(step) for step in sorted(LEGAL[current])],
        )


def checkpoint_for(current: Step, target: Step) -> CheckpointStep | None:
    """The checkpoint written when the workflow goes from ``current`` into ``target``.

    Going back from finalizing to filtering (to re-run the filters) generated nothing new,
    so it writes no ``candidates_generated``; the ``filtered`` that follows is the record.
    """
    if current == Step.finalizing and target == Step.filtering:
        return None
    return CHECKPOINT_ON_ENTRY.get(target)
