"""Caper: Europe card effects in plain English, from the card data, for the replay viewer.

The catalogue writes effects in the rules' notation (`PER green@opp: PTS 1`), which reads like
code on a card face. Here each `Icon` is put into words the way the rules explain the notation
(docs/rules/caper-europe.md sections 6.1-6.7, 10 and 12.0): "here" is the card's Location, a
condition without a scope counts your crew here, a Location's end effect is its winner's (R24)
and its ongoing effect applies to each player and fires only as cards or coins arrive (R13).
"""

from __future__ import annotations

from arena.games.caper_common.draft import Kind
from arena.games.caper_europe.cards import Card
from arena.games.caper_europe.effects import Colour, Condition, Icon, Op, Scope

COLOUR_WORDS = {Colour.GREY: "grey", Colour.DARKGREEN: "dark green"}
OWNER = ("your", "your opponent's")  # a card's effect speaks to its owner
WINNER = ("their", "the other player's")  # a Location's end effect counts for its winner


def card_words(card: Card) -> str:
    """The card's effect as sentences; "No effect." for a card without one."""
    if card.kind is Kind.LOCATION:
        return location_words(card)
    sentences = [_timed(icon) for icon in card.icons]
    return " ".join(sentences) or "No effect."


def location_words(card: Card) -> str:
    """The winner's end effect (R24), then the ongoing effect each player has here (R13)."""
    parts = [f"The winner scores {_points(icon, WINNER)}." for icon in card.icons]
    ongoing = [_ongoing(icon) for icon in card.ongoing]
    if ongoing:
        parts.append("Ongoing, for each player: " + "; ".join(ongoing) + ".")
    return " ".join(parts) or "No effect."


def _timed(icon: Icon) -> str:
    """One icon of a Thief or Gear card, with when it acts (section 6.2)."""
    if icon.is_end:
        return f"At the end: {_points(icon, OWNER)}."
    if icon.op is Op.PROTECT:
        return f"Your {_colour(icon.colour)} cards in this crew cannot be burned."
    if icon.per is not None:  # a permanent combo (R12): on play and on every later arrival
        return f"{_capital(_action(icon))} {_per(icon.per, OWNER)}, now and as more arrive."
    return f"On play: {_action(icon)}."


def _points(icon: Icon, whose: tuple[str, str]) -> str:
    """An end-of-game icon: `PTS`, `PER X: PTS`, `EYE c: ...` (R25) or `WIN: PTS` (R26)."""
    if icon.op is Op.WIN:
        return f"{_count(icon.amount, 'point')} if you decide this Location"
    text = _count(icon.amount, "point")
    if icon.per is not None:
        text += f" {_per(icon.per, whose)}"
    if icon.eye is not None:
        eye = _colour(icon.eye)
        text += f" if {_article(eye)} {eye} Gear lies on top of a stack in {whose[0]} crew here"
    return text


def _action(icon: Icon) -> str:
    """A one-shot icon's deed (section 6.1), or a combo's."""
    if icon.op is Op.MOVE:
        return f"move the marker {_count(icon.amount, 'space')} toward you"
    if icon.op is Op.COIN:
        return f"gain {_count(icon.amount, 'coin')}"
    if icon.op is Op.BURN:
        return "burn 1 Gear"
    if icon.op is Op.LAUNDER:
        return "move 1 coin into your HQ"
    if icon.op is Op.GRAB:
        good = (
            "any one stolen good"
            if icon.good is None
            else f"{_article(str(icon.good))} {icon.good}"
        )
        return f"take {good} from beside this Location into your HQ"
    return f"{icon.op.value.lower()} {icon.amount}"


def _ongoing(icon: Icon) -> str:
    """A Location's ongoing icon: protection of both crews' cards (R16), or a combo that fires
    for the player whose scope grew (R13), only while they have a Thief here for the discard
    area and HQ scopes."""
    if icon.op is Op.PROTECT:
        return f"{_colour(icon.colour)} cards here cannot be burned"
    if icon.per is None:
        return _action(icon)
    cond = icon.per
    if cond.scope is Scope.HQ_COINS:
        when = "for each coin that enters your HQ while you have a Thief here"
    elif cond.scope in (Scope.DISCARD, Scope.DISCARD_GEAR):
        when = (
            f"for each {_subject(cond)} that enters your discard area while you have a Thief here"
        )
    else:
        when = f"for each {_subject(cond)} that joins your crew here"
    return f"{when}, {_action(icon)}"


def _per(cond: Condition, whose: tuple[str, str]) -> str:
    """ "per X" for a condition and its scope (section 6.3), counted for `whose` side (R24)."""
    mine, theirs = whose
    if cond.scope is Scope.HQ_COINS:
        return f"per coin in {mine} HQ"
    if cond.scope is Scope.HQ_GOODS:
        good = "stolen good" if cond.good is None else str(cond.good)
        return f"per {good} in {mine} HQ"
    where = {
        Scope.CREW: f"in {mine} crew here",
        Scope.OPP: f"in {theirs} crew here",
        Scope.BOTH: "here (both crews)",
        Scope.DISCARD: f"in {mine} discard area",
        Scope.DISCARD_GEAR: f"in {mine} discard area",
    }[cond.scope]
    if cond.is_set:
        return f"per set of {_set_items(cond)} {where}"
    return f"per {_subject(cond)} {where}"


def _subject(cond: Condition) -> str:
    """What a single-item condition counts: "green card", "Thief", "Gear", "pink Gear"."""
    if cond.thieves:
        return "Thief"
    if cond.any_gear:
        return "Gear"
    colour = _colour(cond.colours[0][0])
    return f"{colour} Gear" if cond.scope is Scope.DISCARD_GEAR else f"{colour} card"


def _set_items(cond: Condition) -> str:
    """ "(yellow + green)", "(a Thief + 2 Gear)" in the order the spec writes sets."""
    items = [_many(cond.thieves, "Thief", "Thieves")] if cond.thieves else []
    items += [_many(n, _colour(colour), _colour(colour)) for colour, n in cond.colours]
    items += [_many(cond.any_gear, "any Gear", "Gear")] if cond.any_gear else []
    return f"({' + '.join(items)})"


def _many(count: int, one: str, several: str) -> str:
    return one if count == 1 else f"{count} {several}"


def _count(amount: int, noun: str) -> str:
    return f"{amount} {noun}{'' if amount == 1 else 's'}"


def _colour(colour: Colour | None) -> str:
    assert colour is not None, "a colour icon names its colour"
    return COLOUR_WORDS.get(colour, colour.value)


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
