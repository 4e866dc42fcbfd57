from __future__ import annotations

import itertools

import pytest

from giftgenius.domain import CheckpointStep, ProfileDraft, Step
from giftgenius.errors import WorkflowError
from giftgenius.workflow import LEGAL, check_transition, checkpoint_for

FORWARD = [
    Step.collecting_profile,
    Step.generating_candidates,
    Step.filtering,
    Step.finalizing,
    Step.done,
]


def test_forward_path_is_legal_and_checkpoints_in_order() -> None:
    reached = []
    for current, target in itertools.pairwise(FORWARD):
        check_transition(current, target)
        reached.append(checkpoint_for(current, target))
    assert reached == [
        CheckpointStep.profile_collected,
        CheckpointStep.candidates_generated,
        CheckpointStep.filtered,
        CheckpointStep.final_choice_made,
    ]


@pytest.mark.parametrize(
    ("current", "target"),
    [
        (Step.collecting_profile, Step.filtering),
        (Step.collecting_profile, Step.done),
        (Step.generating_candidates, Step.finalizing),
        (Step.filtering, Step.done),
        (Step.done, Step.collecting_profile),
        (Step.done, Step.finalizing),
    ],
)
def test_skipping_or_leaving_done_is_refused(current: Step, target: Step) -> None:
    with pytest.raises(WorkflowError) as refused:
        check_transition(current, target)
    assert refused.value.code == "step.illegal"
    assert refused.value.params["allowed"] == [str(step) for step in sorted(LEGAL[current])]


def test_going_back_to_refilter_writes_no_candidates_checkpoint() -> None:
    assert checkpoint_for(Step.finalizing, Step.filtering) is None
    assert checkpoint_for(Step.generating_candidates, Step.filtering) == (
        CheckpointStep.candidates_generated
    )


def test_done_is_terminal_and_every_step_can_fall_back_to_collecting() -> None:
    assert LEGAL[Step.done] == frozenset()
    for step in (Step.generating_candidates, Step.filtering, Step.finalizing):
        check_transition(step, Step.collecting_profile)


def test_required_and_optional_facts() -> None:
    profile = ProfileDraft()
    assert profile.missing() == ["recipient", "budget", "interests"]
    profile = ProfileDraft.model_validate(
        {"recipient": "colleague", "budget": {"amount": 50}, "interests": ["coffee"]}
    )
    assert profile.complete  # age, dislikes, country, deadline are optional
    assert profile.budget is not None and profile.budget.currency == "USD"


def test_fact_lists_are_capped_and_deduplicated() -> None:
    profile = ProfileDraft(interests=[f"tag{i}" for i in range(30)] + ["Tag29", " tag29 "])
    assert len(profile.interests) == 12
    assert profile.interests[-1] == "tag29"
