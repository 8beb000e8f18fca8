"""The icon language of Caper: Europe (spec sections 6 and 12.0) as data, and its text notation.

Every card's effect is written in the spec's notation (`PER set(yellow + any gear): PTS 2`) and
parsed once at import into `Icon` values, so the catalogue reads like the spec's tables and the
text `arena cards` shows is exactly what the engine plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum


class Colour(StrEnum):
    """R29: the engine's colour ids. `green` and `darkgreen` are different colours."""

    GREY = "grey"  # every Thief
    VIOLET = "violet"
    GREEN = "green"
    RED = "red"
    YELLOW = "yellow"
    BLUE = "blue"  # Paris
    ORANGE = "orange"  # Barcelona
    PINK = "pink"  # Rome
    DARKGREEN = "darkgreen"  # London


class Good(IntEnum):
    """A stolen-goods token type; the value indexes a `Goods` count triple."""

    DIAMOND = 0
    PAINTING = 1
    ANTIQUE = 2

    def __str__(self) -> str:
        return self.name.lower()


GOODS: tuple[Good, ...] = tuple(Good)


class Scope(StrEnum):
    """Where a condition counts (section 6.3), seen from the card's owner or a Location's winner."""

    CREW = "crew"  # your crew here
    OPP = "opp"  # the opponent's crew here
    BOTH = "both"  # both crews here
    DISCARD = "discard"  # your discard area, Thieves included
    DISCARD_GEAR = "discard gear"  # Gear in your discard area
    HQ_GOODS = "hq goods"  # tokens in your hideout
    HQ_COINS = "hq coins"  # coins in your hideout


@dataclass(frozen=True, slots=True)
class Condition:
    """The X of "for each X". Card scopes count disjoint sets of a pattern (R15): a single colour
    is a set of one. HQ scopes count tokens (of `good`, or all) or coins."""

    scope: Scope
    colours: tuple[tuple[Colour, int], ...] = ()  # (colour, cards of it per set)
    any_gear: int = 0  # "any gear" slots per set
    thieves: int = 0  # Thief slots per set
    good: Good | None = None  # HQ_GOODS: None counts every token
    is_set: bool = False  # written `set(...)`; counts the same, shown as written


class Op(StrEnum):
    MOVE = "MOVE"
    COIN = "COIN"
    BURN = "BURN"
    GRAB = "GRAB"
    LAUNDER = "LAUNDER"
    PTS = "PTS"
    WIN = "WIN"  # WIN: PTS n (R26)
    PROTECT = "PROTECT"


ONE_SHOT_OPS = (Op.MOVE, Op.COIN, Op.BURN, Op.GRAB, Op.LAUNDER)


@dataclass(frozen=True, slots=True)
class Icon:
    """One effect of a card. Its timing (section 6.2) follows from its shape: `MOVE`/`COIN`
    with `per` is a permanent combo, without it a one-shot like `BURN`, `GRAB` and `LAUNDER`;
    `PTS` and `WIN` count at the end; `PROTECT` is ongoing."""

    op: Op
    amount: int = 0
    good: Good | None = None  # GRAB: the type, None for `GRAB ?` (the grabber chooses)
    colour: Colour | None = None  # PROTECT: the protected colour
    per: Condition | None = None  # PER X: ...
    eye: Colour | None = None  # EYE c: ... (R25)

    @property
    def is_one_shot(self) -> bool:
        return self.per is None and self.op in ONE_SHOT_OPS

    @property
    def is_combo(self) -> bool:
        return self.per is not None and self.op in (Op.MOVE, Op.COIN)

    @property
    def is_end(self) -> bool:
        return self.op in (Op.PTS, Op.WIN)


class NotationError(ValueError):
    """A card text that is not in the spec's notation (a catalogue typo)."""


def parse_effects(text: str) -> tuple[Icon, ...]:
    """`MOVE 1; PER thief: PTS 1` as icons, in printed order (R9); "" or "—" is no effect."""
    if text in ("", "—"):
        return ()
    return tuple(_icon(part.strip()) for part in text.split(";"))


def _icon(text: str) -> Icon:
    head, _, rest = text.partition(": ")
    if head == "WIN":
        return Icon(Op.WIN, _amount(rest.removeprefix("PTS "), text))
    if head.startswith("EYE "):
        icon = _icon(rest)
        return Icon(icon.op, icon.amount, per=icon.per, eye=_colour(head[4:], text))
    if head.startswith("PER "):
        icon = _icon(rest)
        if icon.per is not None or icon.op not in (Op.MOVE, Op.COIN, Op.PTS):
            raise NotationError(f"PER takes MOVE, COIN or PTS, not {rest!r}")
        return Icon(icon.op, icon.amount, per=_condition(head[4:], text))
    word, _, arg = text.partition(" ")
    if word in (Op.MOVE, Op.COIN, Op.PTS):
        return Icon(Op(word), _amount(arg, text))
    if word in (Op.BURN, Op.LAUNDER) and not arg:
        return Icon(Op(word))
    if word == Op.GRAB:
        return Icon(Op.GRAB, good=None if arg == "?" else _good(arg, text))
    if word == Op.PROTECT:
        return Icon(Op.PROTECT, colour=_colour(arg, text))
    raise NotationError(f"unknown icon {text!r}")


def _condition(text: str, whole: str) -> Condition:
    if text.startswith("set(") and text.endswith(")"):
        return _set(text[4:-1], whole)
    subject, _, where = text.partition("@")
    if where == "HQ":
        if subject == "coin":
            return Condition(Scope.HQ_COINS)
        good = None if subject == "good" else _good(subject, whole)
        return Condition(Scope.HQ_GOODS, good=good)
    scopes = {"": Scope.CREW, "opp": Scope.OPP, "both": Scope.BOTH, "discard": Scope.DISCARD}
    if where not in scopes:
        raise NotationError(f"unknown scope @{where} in {whole!r}")
    scope = scopes[where]
    if scope is Scope.DISCARD and subject.endswith(" gear") and subject != "any gear":
        scope, subject = Scope.DISCARD_GEAR, subject.removesuffix(" gear")
    slot = _slot(subject, whole)
    return Condition(scope, *slot)


def _set(text: str, whole: str) -> Condition:
    colours: list[tuple[Colour, int]] = []
    any_gear = thieves = 0
    for item in text.split(" + "):
        number, _, name = item.partition(" ")
        count = int(number) if number.isdigit() else 1
        found = _slot(name if number.isdigit() else item, whole)
        colours += [(colour, count) for colour, _ in found[0]]
        any_gear += count * found[1]
        thieves += count * found[2]
    return Condition(Scope.CREW, tuple(colours), any_gear, thieves, is_set=True)


def _slot(name: str, whole: str) -> tuple[tuple[tuple[Colour, int], ...], int, int]:
    """(colour slots, any-gear slots, Thief slots) of one set item or single condition."""
    if name == "thief":
        return (), 0, 1
    if name == "any gear":
        return (), 1, 0
    return ((_colour(name, whole), 1),), 0, 0


def _amount(word: str, whole: str) -> int:
    if not word.isdigit():
        raise NotationError(f"expected a number, got {word!r} in {whole!r}")
    return int(word)


def _colour(word: str, whole: str) -> Colour:
    try:
        return Colour(word)
    except ValueError:
        raise NotationError(f"unknown colour {word!r} in {whole!r}") from None


def _good(word: str, whole: str) -> Good:
    try:
        return Good[word.upper()]
    except KeyError:
        raise NotationError(f"unknown stolen good {word!r} in {whole!r}") from None


def format_effects(icons: tuple[Icon, ...]) -> str:
    """The inverse of `parse_effects`."""
    return "; ".join(format_icon(icon) for icon in icons) or "—"


def format_icon(icon: Icon) -> str:
    if icon.op is Op.WIN:
        return f"WIN: PTS {icon.amount}"
    if icon.op is Op.GRAB:
        return f"GRAB {'?' if icon.good is None else icon.good}"
    if icon.op is Op.PROTECT:
        return f"PROTECT {icon.colour}"
    text = f"{icon.op.value} {icon.amount}" if icon.op in (Op.MOVE, Op.COIN, Op.PTS) else icon.op
    if icon.per is not None:
        text = f"PER {format_condition(icon.per)}: {text}"
    if icon.eye is not None:
        text = f"EYE {icon.eye}: {text}"
    return str(text)


def format_condition(cond: Condition) -> str:
    if cond.scope is Scope.HQ_COINS:
        return "coin@HQ"
    if cond.scope is Scope.HQ_GOODS:
        return f"{'good' if cond.good is None else cond.good}@HQ"
    items = [_item("thief", cond.thieves)] if cond.thieves else []  # the order the spec writes
    items += [_item(colour.value, n) for colour, n in cond.colours]
    items += [_item("any gear", cond.any_gear)] if cond.any_gear else []
    if cond.is_set:
        return f"set({' + '.join(items)})"
    suffix = {Scope.CREW: "", Scope.OPP: "@opp", Scope.BOTH: "@both", Scope.DISCARD: "@discard"}
    if cond.scope is Scope.DISCARD_GEAR:
        return f"{items[0]} gear@discard"
    return items[0] + suffix[cond.scope]


def _item(name: str, count: int) -> str:
    return name if count == 1 else f"{count} {name}"
