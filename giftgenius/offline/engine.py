"""The offline model: a validated chat-completions request in, one assistant message out.

Decisions are deterministic (``policy``, ``summarize``); only tool call ids are random,
like the API's, so nothing downstream may rely on them being stable.
"""

from __future__ import annotations

import json
import secrets
import string
from typing import Any

from giftgenius.chatwire import Completion, WireError
from giftgenius.offline.policy import decide
from giftgenius.offline.summarize import summarize
from giftgenius.offline.wire import bad_request, message_text, validate_request
from giftgenius.tokens import TokenCounter

MODEL_NAME = "offline"
_ALPHANUMERIC = string.ascii_letters + string.digits


def preload_tables() -> None:
    """Build the tables reading a message needs (each is built on first use otherwise)."""
    from giftgenius.language import amounts, places
    from giftgenius.offline import spelling

    places.resolve_country("Toronto")
    spelling.is_word("cadeau")
    amounts.parse_amount("30 euros")


def tool_call_id() -> str:
    """An id of the API's shape: "call_" and 24 random alphanumerics."""
    return "call_" + "".join(secrets.choice(_ALPHANUMERIC) for _ in range(24))


class OfflineEngine:
    """Answers like the API would, within a context window, counting tokens as OpenAI does."""

    def __init__(
        self,
        *,
        context_window: int,
        currency: str = "USD",
        counter: TokenCounter | None = None,
        model: str = MODEL_NAME,
    ) -> None:
        self.context_window = context_window
        self.currency = currency
        self.model = model
        self.counter = counter or TokenCounter.for_model(model)

    def complete(self, body: Any, *, purpose: str = "chat") -> Completion:
        """Validate ``body`` as the API does (raising ``WireError``), then answer it.

        ``purpose`` is what the client said the request is for (the purpose header):
        "summary" gets an extractive summary of the folded lines, anything else a turn.
        """
        validate_request(body)
        if body["model"] != self.model:
            raise WireError(
                404,
                f"The model `{body['model']}` does not exist or you do not have access to it.",
                param=None,
                code="model_not_found",
            )
        messages: list[dict[str, Any]] = body["messages"]
        tools: list[dict[str, Any]] = body.get("tools") or []
        prompt_tokens = self.counter.count_request(messages, tools)
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        self._check_window(prompt_tokens, tools, limit)
        if purpose == "summary":
            text = summarize(_last_user_text(messages), self.counter, limit)
            return self._text(text, prompt_tokens, limit)
        offered = {t["function"]["name"] for t in tools}
        choice = body.get("tool_choice")
        if choice == "none":
            offered = set()
        elif isinstance(choice, dict):
            offered = {choice["function"]["name"]}
        decision = decide(messages, tools=offered, dollar=self.currency)
        if decision.calls:
            calls: list[dict[str, Any]] = [
                {
                    "id": tool_call_id(),
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
                }
                for name, args in decision.calls
            ]
            used = sum(
                self.counter.count_text(c["function"]["name"] + c["function"]["arguments"])
                for c in calls
            )
            # Words sent with the calls (a budget read from "about 50", a goodbye) come
            # before the outcome the agent presents when the calls settle the turn.
            words = decision.content or None
            used += self.counter.count_text(words) if words else 0
            return Completion(words, calls, "tool_calls", prompt_tokens, used)
        if choice == "required" or isinstance(choice, dict):
            raise bad_request(
                "The offline model has no tool call to make here; send tool_choice 'auto'.",
                param="tool_choice",
            )
        return self._text(decision.content or "", prompt_tokens, limit)

    def _text(self, text: str, prompt_tokens: int, limit: int | None) -> Completion:
        used = self.counter.count_text(text)
        if limit is not None and used > limit:
            text, _ = self.counter.truncate_text(text, limit)
            return Completion(text, [], "length", prompt_tokens, self.counter.count_text(text))
        return Completion(text, [], "stop", prompt_tokens, used)

    def _check_window(
        self,
        prompt_tokens: int,
        tools: list[dict[str, Any]],
        completion: int | None,
    ) -> None:
        """Refuse an oversized request in the API's words (code context_length_exceeded)."""
        total = prompt_tokens + (completion or 0)
        if total <= self.context_window:
            return
        window = self.context_window
        if completion:
            detail = (
                f"However, you requested {total} tokens ({prompt_tokens} in the messages, "
                f"{completion} in the completion). Please reduce the length of the messages or "
                "completion."
            )
        elif tools:
            in_tools = self.counter.count_tools(tools)
            detail = (
                f"However, your messages resulted in {total} tokens ({total - in_tools} in the "
                f"messages, {in_tools} in the functions). Please reduce the length of the "
                "messages or functions."
            )
        else:
            detail = (
                f"However, your messages resulted in {total} tokens. Please reduce the length "
                "of the messages."
            )
        raise bad_request(
            f"This model's maximum context length is {window} tokens. {detail}",
            param="messages",
            code="context_length_exceeded",
        )


def _last_user_text(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user":
            return message_text(message)
    return ""
