"""The ranking index's layout: what ``catalog.search.index_terms`` found, keyed in rank order.

``product_terms`` answers "does this product have that term" (dislikes, materials, tags to
suggest); ``product_postings`` answers "which products rank first for that term" without
reading the others. It holds one row per product and (kind, term):

- ``tag``: every tag the product carries or its title or description names; ``position``
  is the tag's rank among the product's own tags (``NOT_OWN`` when it is only named in the
  text) and ``text_miss`` is 0 when the text names it — so for one stated interest the
  primary key (kind, term, position, text_miss, product_id) *is* ``rank_key``'s order but
  for the audience fit, and the top 20 is a range scan that stops, not a sort of every match;
- ``word``: every significant lemma of title or description (``position`` 0 in the title,
  1 in the description only: how strongly an unknown word answers);
- ``all``: one row per product, for a search with no words at all (ranked by fit alone);

and on every row the product's columns the filters and the fit read (price in the base
currency, stock, delivery days, ages, the audience as bits, the shipping countries as
text), so no filter needs a join before the LIMIT. They are written with the product, from
the same analysis as ``product_terms``, and rebuilt with it (``CatalogRepo._write``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from giftgenius.catalog.search import (
    DESC_TAG,
    DESC_WORD,
    TAG,
    TITLE_TAG,
    TITLE_WORD,
    children_only,
    young_only,
)
from giftgenius.language.vocabulary import RECIPIENTS

if TYPE_CHECKING:
    from giftgenius.catalog import Product, Rates

KIND_TAG, KIND_WORD, KIND_ALL = "tag", "word", "all"
NOT_OWN = 1_000_000  # a tag the text names but the product does not carry: answers nothing
IN_DESCRIPTION = 1  # a word's position when only the description holds it (0: the title)

# One bit per audience kind, in a fixed order (the vocabulary's kinds, sorted): a change of
# the vocabulary changes ``catalog.search.index_version``, which rebuilds every row.
AUDIENCE_BITS: dict[str, int] = {kind: 1 << i for i, kind in enumerate(sorted(RECIPIENTS))}


def audience_bits(recipients: Iterable[str]) -> int:
    """The product's audience kinds as bits; kinds the vocabulary does not know fit no query."""
    return sum({AUDIENCE_BITS[r] for r in recipients if r in AUDIENCE_BITS})


def ships_text(countries: Iterable[str]) -> str:
    """The countries as " FR DE " (or " * "): a country filter is one LIKE on the row."""
    return " " + " ".join(sorted(set(countries))) + " "


def posting_rows(
    product: Product, terms: Iterable[tuple[str, str, int]], rates: Rates
) -> list[dict[str, Any]]:
    """The ``product_postings`` rows of a product, from its ``index_terms`` rows."""
    found: dict[tuple[str, str], list[int]] = {}  # (kind, term) -> [position, text_miss]
    for field, term, position in terms:
        if field == TAG:
            found.setdefault((KIND_TAG, term), [NOT_OWN, 1])[0] = position
        elif field in (TITLE_TAG, DESC_TAG):
            found.setdefault((KIND_TAG, term), [NOT_OWN, 1])[1] = 0
        elif field in (TITLE_WORD, DESC_WORD):
            entry = found.setdefault((KIND_WORD, term), [IN_DESCRIPTION, 0])
            entry[0] = min(entry[0], 0 if field == TITLE_WORD else IN_DESCRIPTION)
    found[(KIND_ALL, "")] = [0, 0]
    columns = {
        "product_id": product.id,
        "price_base": rates.in_base(product.price, product.currency),
        "in_stock": product.in_stock,
        "delivery_days": product.delivery_days,
        "min_age": product.min_age,
        "max_age": product.max_age,
        "young_only": young_only(product),
        "children_only": children_only(product),
        "audience": audience_bits(product.recipients),
        "ships": ships_text(product.ships_to),
    }
    return [
        {"kind": kind, "term": term, "position": position, "text_miss": miss, **columns}
        for (kind, term), (position, miss) in found.items()
    ]
