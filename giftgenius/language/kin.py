"""Whether two mentions of a recipient are the same person: "my mum" and "Mum", "ma mère"
and "my mother", "my sister Clara" and "Clara".

A recipient is kept as the person named them: the relation as said ("mum", "little
sister", or only a name) and a name when one was given (``ProfileDraft.recipient`` and
``recipient_name``). Two mentions are one person when

- they read the same once folded: the same relation (a word for a person one has once —
  mother, father, wife, husband — in any of its words and either language, from
  ``lexicons/<lang>/kin.toml``) and the same name, or both without one;
- both give the same name and one of them is the name alone ("Clara" and "my sister Clara");
- one gives no name and the relation is one of those people one has once ("my mum" and
  "my mum Anne"). "my friend" and "my friend Tom" are not: one has many friends.

This is the gift history's notion of a recipient (``agent/tools/given.py``); words only,
no store.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from giftgenius.language import lexicon
from giftgenius.language.folding import key


@lru_cache(maxsize=1)
def _kin() -> dict[str, str]:
    """Folded word → the one person it names ("mum", "maman" → "mother"), both languages."""
    found: dict[str, str] = {}
    for lang in lexicon.LANGUAGES:
        for person, words in lexicon.table("kin", lang).items():
            found.update((key(word), person) for word in words)
    return found


@dataclass(frozen=True)
class Recipient:
    """A recipient in comparable form: the relation (a kin kind, or the folded words), the
    folded name ("" when none), and whether the relation is a person one has once."""

    relation: str
    name: str
    once: bool

    @property
    def name_only(self) -> bool:
        return bool(self.name) and self.relation == self.name


def recipient(said: str | None, name: str | None = None) -> Recipient:
    """The comparable form of a recipient as a profile holds them (``recipient``, a name)."""
    words = key(said or "")
    kin = _kin().get(words)
    return Recipient(relation=kin or words, name=key(name or ""), once=kin is not None)


def same_person(a: Recipient, b: Recipient) -> bool:
    """Whether ``a`` and ``b`` name the same person (see the module's rules)."""
    if not a.relation or not b.relation:
        return False
    if a.name and b.name:
        return a.name == b.name and (a.relation == b.relation or a.name_only or b.name_only)
    if a.relation != b.relation:
        return False
    return a.name == b.name or a.once
