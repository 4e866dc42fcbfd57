"""A plain product for catalog tests: only the fields a test names differ from the default."""

from __future__ import annotations

from typing import Any

from giftgenius.catalog import Product


def make(pid: str, **fields: Any) -> Product:
    base: dict[str, Any] = {
        "id": pid,
        "title": f"Plain item {pid}",
        "description": "Something ordinary with nothing special about it.",
        "price": 20.0,
        "currency": "USD",
        "tags": ["toy"],
        "recipients": ["anyone"],
        "ships_to": ["*"],
        "delivery_days": 3,
    }
    base.update(fields)
    return Product(**base)
