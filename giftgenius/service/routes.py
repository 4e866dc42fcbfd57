"""The ``/v1`` routes. Each acts for the user of the request's key (``auth.User``) and
reads or writes through the agent, as the matching command does: ``/v1/state`` is
``state --json``, ``/v1/checkpoints`` is ``checkpoints --json``, ``DELETE /v1/user`` is
``forget``. Another user's run is not found, exactly as a run that does not exist.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, status
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from giftgenius import messages as catalogue
from giftgenius.errors import NotFound
from giftgenius.service.auth import User
from giftgenius.service.conversation import conversation_document, run_document, send
from giftgenius.service.errors import language
from giftgenius.service.state import Service, service
from giftgenius.service.streaming import stream_turn

router = APIRouter(prefix="/v1")
Svc = Annotated[Service, Depends(service)]

ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "No API key, or an unknown or revoked one"},
    429: {"description": "Over the rate limit; see Retry-After"},
}


class MessageIn(BaseModel):
    text: str = Field(description="What the person says, as they would type it in the chat")


class TurnOut(BaseModel):
    run_id: str
    reply: str
    step: str
    shortlist: list[dict[str, Any]] = Field(
        description="The gifts this turn shortlisted (empty when it shortlisted none)"
    )
    selected_gift_id: str | None
    order_draft_id: str | None
    checkpoints: list[str] = Field(description="The key steps this turn reached")
    notices: list[str]
    locale: str
    version: int = Field(description="The run's session version after this turn")


@router.post(
    "/messages",
    response_model=TurnOut,
    responses={
        **ERRORS,
        200: {
            "content": {"text/event-stream": {}},
            "description": "JSON; or, with `Accept: text/event-stream`, `delta` events "
            "(`{text}`) then one `done` event with this document",
        },
        409: {"description": "The conversation is busy in another window; see Retry-After"},
        422: {"description": "An empty or too long message"},
    },
)
def post_message(body: MessageIn, request: Request, user: User, svc: Svc) -> Any:
    """One turn of the user's current run (one is started if there is none)."""
    agent = svc.agent()
    lang = language(request)
    if "text/event-stream" in request.headers.get("accept", ""):
        return stream_turn(
            lambda on_text: send(agent, user, body.text, lang, on_text), svc.busy_retry
        )
    return send(agent, user, body.text, lang)


@router.post("/runs", status_code=status.HTTP_201_CREATED, responses=ERRORS)
def start_run(request: Request, user: User, svc: Svc) -> dict[str, Any]:
    """Abandon the unfinished search, if any, and start a new one (the chat's /restart)."""
    opened = svc.agent().open(user, new=True)
    document = run_document(opened.run)
    document["reply"] = catalogue.text("chat", "restarted", language(request))
    return document


@router.get("/runs/{run_id}", responses={**ERRORS, 404: {"description": "No such run of yours"}})
def get_run(run_id: str, request: Request, user: User, svc: Svc) -> dict[str, Any]:
    """One of the user's runs."""
    with svc.agent().db.read() as repos:
        run = repos.runs.get(run_id, user_id=user)
    if run is None:
        raise NotFound(catalogue.say("service", "no_run", language(request), run=repr(run_id)))
    return run_document(run)


@router.get("/state", responses=ERRORS)
def get_state(user: User, svc: Svc) -> dict[str, Any]:
    """The current run's state and where it came from (``giftgenius state --json``)."""
    from giftgenius.agent.documents import read_state, state_document

    current, reached = read_state(svc.agent(), user)
    return state_document(user, current, reached)


class ShownMessage(BaseModel):
    role: str = Field(description="`user` or `assistant`")
    text: str
    seq: int = Field(description="The message's place in the run's transcript")


class ConversationOut(BaseModel):
    run_id: str | None = Field(description="None before the first message of a search")
    status: str | None = None
    step: str | None
    locale: str | None
    messages: list[ShownMessage] = Field(
        description="What the person said and the replies, oldest first"
    )
    shortlist: list[dict[str, Any]] = Field(description="The gifts shortlisted now")
    selected_gift_id: str | None = None
    selected: dict[str, Any] | None = Field(default=None, description="The gift chosen")
    order_draft_id: str | None = None
    version: int | None = None


@router.get("/conversation", response_model=ConversationOut, responses=ERRORS)
def get_conversation(user: User, svc: Svc) -> dict[str, Any]:
    """The current search as the person saw it: their messages and the replies (no tool
    calls, no internal state), the shortlist and the gift chosen — what the web page at
    `/` shows again on reload."""
    return conversation_document(svc.agent(), user)


@router.get("/checkpoints", responses={**ERRORS, 404: {"description": "No such run of yours"}})
def get_checkpoints(
    request: Request,
    user: User,
    svc: Svc,
    run_id: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    """The user's checkpoints, oldest first (``giftgenius checkpoints --json``)."""
    from giftgenius.agent.documents import checkpoints_document, read_checkpoints

    found = read_checkpoints(svc.agent(), user, run_id, locale=language(request))
    return checkpoints_document(user, found)


@router.get("/catalog/search", responses=ERRORS)
def search(
    user: User, svc: Svc, q: Annotated[str, Query(min_length=1, max_length=200)]
) -> dict[str, Any]:
    """The products that best match the words (``giftgenius catalog search --json``)."""
    from giftgenius.agent.documents import search_catalog, search_document

    return search_document(q, search_catalog(svc.agent(), q))


@router.get("/catalog/{product_id}", responses={**ERRORS, 404: {"description": "No such product"}})
def product(product_id: str, request: Request, user: User, svc: Svc) -> dict[str, Any]:
    """One product, with its price in every currency (``giftgenius catalog show --json``)."""
    from giftgenius.catalog import load_rates, product_json

    with svc.agent().db.read() as repos:
        found = repos.catalog.get(product_id)
    if found is None:
        lang = language(request)
        raise NotFound(catalogue.say("service", "no_gift", lang, quoted=repr(product_id)))
    return product_json(found, load_rates())


@router.delete("/user", responses=ERRORS)
def forget(user: User, svc: Svc) -> JSONResponse:
    """Erase the user everywhere, API keys included (``giftgenius forget``)."""
    erased = svc.agent().forget(user)
    return JSONResponse({"user_id": user, "erased": erased})
