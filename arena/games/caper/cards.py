"""The first-edition card catalogue as data: every Thief, Gear and Location of the box.

Abilities are small functions of a `Crew` summary (what a side has at one Location), so the
rules code never needs to know card names. Section numbers refer to `docs/rules/caper.md`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from arena.games.caper_common.counting import disjoint_sets
from arena.games.caper_common.draft import Kind as Kind


class City(StrEnum):
    BASE = "base"
    PARIS = "paris"
    ROME = "rome"
    LONDON = "london"


class Colour(StrEnum):
    CREAM = "cream"  # every Thief; no ability counts it
    GREEN = "green"
    PURPLE = "purple"
    RED = "red"
    YELLOW = "yellow"
    LIGHT_BLUE = "light blue"
    PINK = "pink"
    DARK_GREEN = "dark green"


class Good(StrEnum):
    JEWEL = "jewel"
    ANTIQUE = "antique"
    PAINTING = "painting"
    WILD = "wild"


class OnPlay(StrEnum):
    """One-shot effects resolved when a card is played (section 10)."""

    NONE = "none"
    FLIP_GEAR = "flip gear"  # Blazeblaster
    FLIP_THIEF = "flip thief"  # The Illusionist
    GAIN = "gain"  # Skeleton Key, Plasma Cutter: gain `amount` coins
    GAIN_PER_OPPONENT_THIEF = "gain per opponent thief"  # Super Magnet (R9)
    LAUNDER = "launder"  # Laundromatic (R11)


class Whose(StrEnum):
    """Whose plays a cost modifier, protection or coin tax applies to, seen from the card's owner."""

    OWNER = "owner"
    OPPONENT = "opponent"
    BOTH = "both"  # Location modifiers (R6)


@dataclass(frozen=True, slots=True)
class Crew:
    """What one side has at one Location; the input of every scoring ability.

    Colour counts include only face-up Gear (a flipped card has no colour); `gear` and
    `thieves` count flipped cards too (section 6).
    """

    thieves: int = 0
    gear: int = 0
    full_thieves: int = 0  # Thieves carrying exactly 3 Gear
    green: int = 0
    purple: int = 0
    red: int = 0
    yellow: int = 0
    light_blue: int = 0
    pink: int = 0
    dark_green: int = 0

    def colour(self, colour: Colour) -> int:
        return int(getattr(self, colour.name.lower(), 0))


@dataclass(frozen=True, slots=True)
class Owner:
    """Facts about the scoring player beyond one Location."""

    goods: int  # every Stolen Good the player will score, rewards and Wilds included
    laundered: int  # coins in the player's discard area


CaperAbility = Callable[[Crew, Crew], int]
PointAbility = Callable[[Crew, Crew, Owner], int]


def _no_capers(mine: Crew, theirs: Crew) -> int:
    return 0


def _no_points(mine: Crew, theirs: Crew, owner: Owner) -> int:
    return 0


@dataclass(frozen=True, slots=True)
class CostModifier:
    whose: Whose
    colour: Colour | None  # None: any Gear
    delta: int


@dataclass(frozen=True, slots=True)
class Card:
    """One card design. Copies of a Gear share one `Card`; where a copy lies is the state's business."""

    name: str
    kind: Kind
    city: City
    colour: Colour = Colour.CREAM
    cost: int = 0
    income: int = 0
    copies: int = 1
    text: str = ""
    capers: CaperAbility = _no_capers
    points: PointAbility = _no_points
    goods: tuple[Good, ...] = ()
    on_play: OnPlay = OnPlay.NONE
    amount: int = 0
    cost_modifier: CostModifier | None = None
    protects: tuple[Whose, Kind | Colour] | None = None  # (whose cards, Thieves or a Gear colour)
    gear_tax: Colour | Kind | None = (
        None  # Location: playing such Gear here costs the opponent a coin
    )
    taxes_own_thief_play: bool = False  # Signal Jammer (R10)
    replays_from_discard: bool = False  # The Driver, Velocé Wheels (R7)
    reward: PointAbility = _no_points  # Location reward points for the winner
    capers_for_each: CaperAbility = _no_capers  # Location capers granted to each player's crew

    def __str__(self) -> str:
        return self.name

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self  # a catalogue entry: immutable and shared by every game


def _thief(name: str, city: City, income: int, text: str, **ability: object) -> Card:
    return Card(name, Kind.THIEF, city, income=income, text=text, **ability)  # type: ignore[arg-type]


def _gear(
    name: str, colour: Colour, cost: int, copies: int, city: City, text: str, **ability: object
) -> Card:
    return Card(name, Kind.GEAR, city, colour, cost, copies=copies, text=text, **ability)  # type: ignore[arg-type]


def _location(name: str, city: City, text: str, **ability: object) -> Card:
    return Card(name, Kind.LOCATION, city, text=text, **ability)  # type: ignore[arg-type]


B, P, R, L = City.BASE, City.PARIS, City.ROME, City.LONDON
GREEN, PURPLE, RED, YELLOW = Colour.GREEN, Colour.PURPLE, Colour.RED, Colour.YELLOW
LIGHT_BLUE, PINK, DARK_GREEN = Colour.LIGHT_BLUE, Colour.PINK, Colour.DARK_GREEN

THIEVES: tuple[Card, ...] = (
    _thief("The Actress", B, 1, "+1 C per set (yellow + purple), yours",
           capers=lambda m, o: disjoint_sets(((m.yellow, 1), (m.purple, 1)), gear=m.gear)),
    _thief("The Auctioneer", B, 0, "+1 P per Stolen Good you own",
           points=lambda m, o, w: w.goods),
    _thief("The Banker", B, 2, "+1 P per yellow Gear, yours", points=lambda m, o, w: m.yellow),
    _thief("The Barber", B, 0, "+1 C per set (1 Thief + 2 Gear of any colour), yours",
           capers=lambda m, o: disjoint_sets((), 2, m.gear, 1, m.thieves)),
    _thief("The Bon Vivant", B, 3, "+1 P per green Gear, yours", points=lambda m, o, w: m.green),
    _thief("The Cleaner", B, 0, "+3 P per opponent red Gear here; your red Gear here costs 1 less",
           points=lambda m, o, w: 3 * o.red, cost_modifier=CostModifier(Whose.OWNER, RED, -1)),
    _thief("The Colonel", B, 2, "+1 P per purple Gear, yours", points=lambda m, o, w: m.purple),
    _thief("The Conductor", B, 1, "+1 C per set (purple + green), yours",
           capers=lambda m, o: disjoint_sets(((m.purple, 1), (m.green, 1)), gear=m.gear)),
    _thief("The Dame", B, 1, "+1 C per set (yellow + green), yours",
           capers=lambda m, o: disjoint_sets(((m.yellow, 1), (m.green, 1)), gear=m.gear)),
    _thief("The Gentleman", B, 1, "+3 P per set (green + purple + yellow), yours",
           points=lambda m, o, w: 3 * disjoint_sets(((m.green, 1), (m.purple, 1), (m.yellow, 1)), gear=m.gear)),
    _thief("The Illusionist", B, 1, "On play: flip one opponent Thief here that has no Gear",
           on_play=OnPlay.FLIP_THIEF),
    _thief("The Mime", B, 0, "+1 C; +1 P per opponent Thief here",
           capers=lambda m, o: 1, points=lambda m, o, w: o.thieves),
    _thief("The Saint", B, 3, "Your green Gear here cannot be flipped",
           protects=(Whose.OWNER, GREEN)),
    _thief("The Smuggler", B, 1, "+1 Wild Stolen Good", goods=(Good.WILD,)),
    _thief("The Tourist", B, 1, "+1 C per set (3 Gear of any colour), yours",
           capers=lambda m, o: disjoint_sets((), 3, m.gear)),
    _thief("The Artist", P, 0, "+1 C per green Gear, yours", capers=lambda m, o: m.green),
    _thief("The Chef", P, 0, "+1 C per set (1 light blue + 1 Gear of any colour), yours",
           capers=lambda m, o: disjoint_sets(((m.light_blue, 1),), 1, m.gear)),
    _thief("The Madame", P, 0,
           "Gear the opponent plays here costs them 1 more; +1 P per opponent light blue Gear here",
           points=lambda m, o, w: o.light_blue,
           cost_modifier=CostModifier(Whose.OPPONENT, None, +1)),
    _thief("The Don", R, 0, "+1 C; +1 P per opponent pink Gear here",
           capers=lambda m, o: 1, points=lambda m, o, w: o.pink),
    _thief("The Driver", R, 1,
           "End of last round: may play 1 Gear from your discard area onto your Thieves here, free",
           replays_from_discard=True),
    _thief("The Soprano", R, 0, "+2 P per pink Gear, yours", points=lambda m, o, w: 2 * m.pink),
    _thief("The Bookie", L, 3, "+1 P per dark green Gear, yours",
           points=lambda m, o, w: m.dark_green),
    _thief("The Boxer", L, 2, "+1 C per set (1 dark green + 2 Gear of any colour), yours",
           capers=lambda m, o: disjoint_sets(((m.dark_green, 1),), 2, m.gear)),
    _thief("The Royal", L, 0, "+1 P per set (1 dark green + 1 green), counting both crews here",
           points=lambda m, o, w: disjoint_sets(((m.dark_green + o.dark_green, 1), (m.green + o.green, 1)), gear=m.gear + o.gear)),
)  # fmt: skip

GEAR: tuple[Card, ...] = (
    _gear("Helping Hand", GREEN, 2, 2, B, "+1 Jewel", goods=(Good.JEWEL,)),
    _gear("Suction Scalers", GREEN, 2, 2, B, "+1 Painting", goods=(Good.PAINTING,)),
    _gear("Grappling Gun", GREEN, 2, 2, B, "+1 Antique", goods=(Good.ANTIQUE,)),
    _gear("Blaze Shield Suit", GREEN, 3, 1, B, "+1 Jewel; +2 P per opponent red Gear here",
          goods=(Good.JEWEL,), points=lambda m, o, w: 2 * o.red),
    _gear("Briefcase", GREEN, 3, 1, B, "+1 Painting; your green Gear here cannot be flipped",
          goods=(Good.PAINTING,), protects=(Whose.OWNER, GREEN)),
    _gear("Stealth Suit", GREEN, 3, 1, B, "+1 Antique; +1 P per red Gear here (both crews)",
          goods=(Good.ANTIQUE,), points=lambda m, o, w: m.red + o.red),
    _gear("Simple Disguise", PURPLE, 0, 4, B, "+1 C", capers=lambda m, o: 1),
    _gear("Smoke Screen", PURPLE, 1, 2, B, "+1 C; +1 P",
          capers=lambda m, o: 1, points=lambda m, o, w: 1),
    _gear("Incognito Tuxedo", PURPLE, 1, 1, B, "+1 C per green Gear, yours",
          capers=lambda m, o: m.green),
    _gear("False Documents", PURPLE, 1, 1, B, "+1 C per yellow Gear, yours",
          capers=lambda m, o: m.yellow),
    _gear("Eavesdropper", PURPLE, 2, 1, B, "+1 C per opponent Thief here",
          capers=lambda m, o: o.thieves),
    _gear("Blazeblaster", RED, 2, 3, B, "On play: flip the topmost Gear of one opponent Thief here; +1 P",
          on_play=OnPlay.FLIP_GEAR, points=lambda m, o, w: 1),
    _gear("Skeleton Key", YELLOW, 0, 5, B, "On play: gain 2 coins", on_play=OnPlay.GAIN, amount=2),
    _gear("Plasma Cutter", YELLOW, 0, 2, B, "On play: gain 1 coin; +1 P",
          on_play=OnPlay.GAIN, amount=1, points=lambda m, o, w: 1),
    _gear("Super Magnet", YELLOW, 0, 2, B, "On play: gain 1 coin + 1 per opponent Thief here",
          on_play=OnPlay.GAIN_PER_OPPONENT_THIEF, amount=1),
    _gear("Plans Cachés", LIGHT_BLUE, 0, 4, P, "+1 P per light blue Gear, yours (itself included)",
          points=lambda m, o, w: m.light_blue),
    _gear("Secret Shades", LIGHT_BLUE, 0, 1, P,
          "+1 C; light blue Gear the opponent plays here costs them 1 more",
          capers=lambda m, o: 1, cost_modifier=CostModifier(Whose.OPPONENT, LIGHT_BLUE, +1)),
    _gear("Aqua-Respirator", LIGHT_BLUE, 2, 1, P, "+1 Wild Stolen Good", goods=(Good.WILD,)),
    _gear("Utility Belt", PINK, 0, 4, R, "+1 C per set (3 Gear of any colour), yours",
          capers=lambda m, o: disjoint_sets((), 3, m.gear)),
    _gear("Posto Segreto", PINK, 1, 1, R, "+1 C per purple Gear, yours",
          capers=lambda m, o: m.purple),
    _gear("Velocé Wheels", PINK, 2, 1, R,
          "End of last round: may play 1 Gear from your discard area onto your Thieves here, free",
          replays_from_discard=True),
    _gear("Signal Jammer", DARK_GREEN, 0, 1, L,
          "+1 C per opponent dark green Gear here; when you play a Thief here the opponent returns 1 coin",
          capers=lambda m, o: o.dark_green, taxes_own_thief_play=True),
    _gear("Hollow Book", DARK_GREEN, 1, 1, L, "+1 C; your green Gear here cannot be flipped",
          capers=lambda m, o: 1, protects=(Whose.OWNER, GREEN)),
    _gear("Laundromatic", DARK_GREEN, 1, 4, L,
          "On play: move 1 coin from the supply to your discard area; +1 P per coin there",
          on_play=OnPlay.LAUNDER, points=lambda m, o, w: w.laundered),
)  # fmt: skip

LOCATIONS: tuple[Card, ...] = (
    _location("Antique Shop", B, "4 P; +2 P per set (yellow + green), yours",
              reward=lambda m, o, w: 4 + 2 * disjoint_sets(((m.yellow, 1), (m.green, 1)), gear=m.gear)),
    _location("Art Gallery", B, "4 P; +2 P per set (purple + green), yours",
              reward=lambda m, o, w: 4 + 2 * disjoint_sets(((m.purple, 1), (m.green, 1)), gear=m.gear)),
    _location("The Bank", B, "5 P; +1 P per yellow Gear, yours",
              reward=lambda m, o, w: 5 + m.yellow),
    _location("The Casino", B, "3 P; +2 P per Thief, yours",
              reward=lambda m, o, w: 3 + 2 * m.thieves),
    _location("The Chapel", B, "5 P; +1 P per Thief, yours. Thieves here cannot be flipped",
              reward=lambda m, o, w: 5 + m.thieves, protects=(Whose.BOTH, Kind.THIEF)),
    _location("The Gala", B, "5 P; +1 P per purple Gear, yours",
              reward=lambda m, o, w: 5 + m.purple),
    _location("The Museum", B, "5 P; +1 P per green Gear, yours",
              reward=lambda m, o, w: 5 + m.green),
    _location("The Yacht", B, "4 P; +2 P per set (yellow + purple), yours",
              reward=lambda m, o, w: 4 + 2 * disjoint_sets(((m.yellow, 1), (m.purple, 1)), gear=m.gear)),
    _location("Eiffel Tower", P, "3 P; +1 P per Stolen Good you own. Green Gear here costs 1 less",
              reward=lambda m, o, w: 3 + w.goods,
              cost_modifier=CostModifier(Whose.BOTH, GREEN, -1)),
    _location("The Louvre", P, "5 P; +1 Painting", reward=lambda m, o, w: 5,
              goods=(Good.PAINTING,)),
    _location("Moulin Rouge", P, "4 P; +1 Wild Stolen Good. Green Gear here cannot be flipped",
              reward=lambda m, o, w: 4, goods=(Good.WILD,), protects=(Whose.BOTH, GREEN)),
    _location("Notre Dame", P, "5 P; +1 Antique", reward=lambda m, o, w: 5,
              goods=(Good.ANTIQUE,)),
    _location("Versailles", P, "5 P; +1 Jewel", reward=lambda m, o, w: 5, goods=(Good.JEWEL,)),
    _location("Colosseum", R, "2 P; +1 P per opponent Gear here. Gear here costs 1 less",
              reward=lambda m, o, w: 2 + o.gear,
              cost_modifier=CostModifier(Whose.BOTH, None, -1)),
    _location("Pantheon", R, "6 P; +1 P per opponent yellow Gear here. +1 C per yellow Gear",
              reward=lambda m, o, w: 6 + o.yellow, capers_for_each=lambda m, o: m.yellow),
    _location("Trastevere", R, "6 P; +1 P per opponent purple Gear here. +1 C per purple Gear",
              reward=lambda m, o, w: 6 + o.purple, capers_for_each=lambda m, o: m.purple),
    _location("Trevi Fountain", R, "4 P; +3 P per set (2 pink), yours. Pink Gear here costs 1 more",
              reward=lambda m, o, w: 4 + 3 * disjoint_sets(((m.pink, 2),), gear=m.gear),
              cost_modifier=CostModifier(Whose.BOTH, PINK, +1)),
    _location("The Vatican", R, "6 P; +1 P per opponent green Gear here. +1 C per green Gear",
              reward=lambda m, o, w: 6 + o.green, capers_for_each=lambda m, o: m.green),
    _location("Big Ben", L, "3 P; +1 P per opponent Gear here. Gear played here: opponent returns 1 coin",
              reward=lambda m, o, w: 3 + o.gear, gear_tax=Kind.GEAR),
    _location("The British Museum", L,
              "3 P; +1 P per green Gear here (both). Green Gear played here: opponent returns 1 coin",
              reward=lambda m, o, w: 3 + m.green + o.green, gear_tax=GREEN),
    _location("Oxford Street", L, "4 P; +2 P per opponent Thief here. Gear here costs 1 less",
              reward=lambda m, o, w: 4 + 2 * o.thieves,
              cost_modifier=CostModifier(Whose.BOTH, None, -1)),
    _location("Piccadilly Circus", L,
              "3 P; +1 P per yellow Gear here (both). Yellow Gear played here: opponent returns 1 coin",
              reward=lambda m, o, w: 3 + m.yellow + o.yellow, gear_tax=YELLOW),
    _location("Tower of London", L,
              "3 P; +1 P per purple Gear here (both). Purple Gear played here: opponent returns 1 coin",
              reward=lambda m, o, w: 3 + m.purple + o.purple, gear_tax=PURPLE),
)  # fmt: skip

CATALOGUE: dict[str, Card] = {card.name: card for card in (*THIEVES, *GEAR, *LOCATIONS)}
CITIES: tuple[City, ...] = (City.PARIS, City.ROME, City.LONDON)


@cache  # the same few decks for every game: built once each
def deck(kind: Kind, city: City) -> tuple[Card, ...]:
    """Every physical card of one deck for a game in `city`, copies repeated, in catalogue order."""
    pool = {Kind.THIEF: THIEVES, Kind.GEAR: GEAR, Kind.LOCATION: LOCATIONS}[kind]
    return tuple(
        card for card in pool if card.city in (City.BASE, city) for _ in range(card.copies)
    )
