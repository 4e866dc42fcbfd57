"""A large catalog for tests that must show cost does not grow with it: the shipped products,
cloned under new ids with varied prices, stock and delivery (deterministic)."""

from __future__ import annotations

from giftgenius.catalog import Product, load_products


def synthetic_catalog(size: int) -> list[Product]:
    shipped = load_products()
    out: list[Product] = []
    for n in range(size):
        base = shipped[n % len(shipped)]
        out.append(
            base.model_copy(
                update={
                    "id": f"g-{100000 + n}",
                    "price": round(base.price * (0.6 + (n * 7919 % 90) / 100), 2),
                    "in_stock": n % 11 != 0,
                    "delivery_days": 1 + (base.delivery_days + n) % 14,
                }
            )
        )
    return out
