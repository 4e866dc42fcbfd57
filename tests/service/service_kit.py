"""Helpers of the service tests (a module of its own: ``conftest`` is a name every test
folder has, so importing from it picks whichever was loaded first)."""

from __future__ import annotations

from fastapi import FastAPI

SISTER = "a gift for my sister who loves tea, budget 30 EUR"


def key_for(app: FastAPI, user: str) -> str:
    """A new API key of ``user``, made as ``giftgenius keys create`` makes one."""
    with app.state.service.agent().db.write() as repos:
        repos.users.ensure(user)
        return repos.keys.create(user)[1]


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}
