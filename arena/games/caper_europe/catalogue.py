"""The complete Caper: Europe card list (spec section 12): 27 Thieves, 28 Gear types (54 cards)
and 28 Locations, with each card's provenance as the spec records it."""

# ruff: noqa: E501 - the catalogue is a table: one card a line (plus its basis note) reads best

from __future__ import annotations

from arena.games.caper_common.draft import Kind
from arena.games.caper_europe.cards import CITY_COLOURS, Basis, Card, City
from arena.games.caper_europe.effects import Colour, parse_effects

P, C, R = Basis.PRINTED, Basis.PARTLY, Basis.RECONSTRUCTED
B, PAR, BCN, ROM, LON = City.BASE, City.PARIS, City.BARCELONA, City.ROME, City.LONDON
VIOLET, GREEN, RED, YELLOW = Colour.VIOLET, Colour.GREEN, Colour.RED, Colour.YELLOW
BLUE, ORANGE, PINK, DARKGREEN = Colour.BLUE, Colour.ORANGE, Colour.PINK, Colour.DARKGREEN

# fmt: off


def _thief(id: str, name: str, german: str, city: City, income: int, effect: str, basis: Basis, source: str, name_printed: bool = True, captions: tuple[str, ...] = ()) -> Card:
    return Card(id, name, german, Kind.THIEF, city, Colour.GREY, 0, income, 0, 1, parse_effects(effect), (), basis, name_printed, captions, source)


def _gear(id: str, name: str, german: str, colour: Colour, cost: int, copies: int, effect: str, basis: Basis, source: str, name_printed: bool = True, captions: tuple[str, ...] = ()) -> Card:
    city = next((c for c, col in CITY_COLOURS.items() if col is colour), B)
    return Card(id, name, german, Kind.GEAR, city, colour, cost, 0, 0, copies, parse_effects(effect), (), basis, name_printed, captions, source)


def _location(id: str, name: str, german: str, city: City, points: int, end: str, ongoing: str, basis: Basis, source: str, name_printed: bool = True, captions: tuple[str, ...] = ()) -> Card:
    return Card(id, name, german, Kind.LOCATION, city, Colour.GREY, 0, 0, points, 1, parse_effects(end), parse_effects(ongoing), basis, name_printed, captions, source)


THIEVES: tuple[Card, ...] = (
    _thief("starlet", "The Starlet", "Das Starlet", B, 1, "PER set(yellow + any gear): PTS 2", P, "[P] effect (p.15, Yacht); income [R] (1st-ed Actress)"),
    _thief("auctioneer", "The Auctioneer", "Der Auktionator", B, 1, "PER antique@HQ: PTS 2", R, "name [P]; effect, income [R]. The 1st-ed card scored per stolen good; that icon is Barcelona's, so the base card uses the typed icon"),
    _thief("banker", "The Banker", "Der Bankier", B, 2, "PER yellow: MOVE 1", P, "[P] effect (p.13 turn example; player aid); income [R]"),
    _thief("barber", "The Barber", "Der Friseur", B, 0, "PER set(thief + 2 any gear): MOVE 1", R, "name [P]; effect [R] (1st ed.: +1 caper per such set)"),
    _thief("bon_vivant", "The Bon Vivant", "Der Lebemann", B, 1, "PER set(green + any gear): PTS 2", P, "[P] effect (p.10, p.16); income [R] (R30)"),
    _thief("cleaner", "The Cleaner", "Der Reiniger", B, 1, "PER red: PTS 3", R, "name [P]; effect [R] (1st ed.: 3 per opponent's red; base Europe icons count only your crew)"),
    _thief("colonel", "The Colonel", "Der Oberst", B, 2, "PER violet: MOVE 1", P, "[P] effect (p.13); income [R]"),
    _thief("conductor", "The Conductor", "Der Dirigent", B, 1, "PER green: MOVE 1", P, "[P] effect (p.10); income [R]"),
    _thief("dame", "The Dame", "Die Dame", B, 1, "PER set(violet + any gear): PTS 2", P, "[P] effect (p.15; player aid); income [R]"),
    _thief("gentleman", "The Gentleman", "Der Gentleman", B, 1, "PER set(violet + green + yellow): PTS 4", P, "[P] effect (p.15); income [R]"),
    _thief("illusionist", "The Illusionist", "Der Illusionist", B, 1, "BURN", R, "name [P]; effect [R] (1st ed. flipped a bare Thief; Europe burns Gear only)"),
    _thief("mime", "The Mime", "Der Pantomime", B, 0, "MOVE 1; PER thief: PTS 1", R, "name [P]; effect [R] (1st ed.: +1 caper, 1 point per opponent's Thief)"),
    _thief("nun", "The Nun", "Die Nonne", B, 3, "PROTECT green", R, "name [P]; effect [R] (1st-ed Saint)"),
    _thief("smuggler", "The Smuggler", "Der Schmuggler", B, 1, "GRAB ?", R, "name [P]; effect [R] (1st ed.: a wild good at scoring)"),
    _thief("tourist", "The Tourist", "Die Touristin", B, 1, "PER set(3 any gear): MOVE 1", R, "name [P]; effect [R] (1st ed.: +1 caper per 3 Gear)"),
    _thief("madame", "The Madame", "Die Madame", PAR, 1, "PER set(blue + any gear): PTS 2", R, "name [P]; effect [R]; income: the Paris caption shows a 1", captions=("income",)),
    _thief("chef", "The Chef", "Der Koch", PAR, 0, "PER blue: MOVE 1", C, "partly [P]: a combo that fires when a blue card joins his crew (p.8); the MOVE effect [R]"),
    _thief("artist", "The Artist", "Der Künstler", PAR, 0, "PER green: MOVE 1", R, "name [P]; effect [R] (1st ed.: +1 caper per green). No end effect, which fits the Louvre crew of E2"),
    _thief("surrealist", "The Surrealist", "Der Surrealist", BCN, 0, "EYE green: PER good@HQ: PTS 1", P, "[P] effect (p.17); income [R]"),
    _thief("anarchist", "The Anarchist", "Die Anarchistin", BCN, 1, "EYE violet: PER violet@both: PTS 1", C, "partly [P]: violet eye (p.17); the effect behind it and the income [R]"),
    _thief("pickpocket", "The Pickpocket", "Die Trickdiebin", BCN, 2, "GRAB ?", R, "name [P]; income [C]; effect [R]. No eye: the p.17 example would have mentioned one", captions=("income",)),
    _thief("don", "The Don", "", ROM, 0, "MOVE 1; PER pink@opp: PTS 1", R, "[R] (1st-ed card; German name unknown)", name_printed=False),
    _thief("driver", "The Driver", "", ROM, 1, "PER pink@discard: MOVE 1", R, "[R] (1st ed. replayed a card from the discard area)", name_printed=False),
    _thief("soprano", "The Soprano", "", ROM, 0, "PER pink: PTS 2", R, "[R] (1st-ed effect kept)", name_printed=False),
    _thief("bookie", "The Bookie", "", LON, 3, "PER coin@HQ: PTS 1", R, "[R]", name_printed=False),
    _thief("boxer", "The Boxer", "", LON, 1, "PER coin@HQ: MOVE 1", R, "[R]", name_printed=False),
    _thief("royal", "The Royal", "", LON, 0, "LAUNDER; PER darkgreen: COIN 1", R, "[R]", name_printed=False),
)

GEAR: tuple[Card, ...] = (
    _gear("disguise_kit", "Disguise Kit", "08/15 Verkleidungsset", VIOLET, 0, 4, "MOVE 1", P, "[P] colour, effect (p.13); cost [C] (no price shown); copies [R]", captions=("cost",)),
    _gear("smoke_screen", "Smoke Screen", "GMS-21 Rauchschleier", VIOLET, 1, 2, "MOVE 1; PTS 1", P, "[P] effect (p.9); cost [C]; colour, copies [R]", captions=("cost",)),
    _gear("incognito_tuxedo", "Incognito Tuxedo", "Schnieke & Inkognito Smoking", VIOLET, 1, 1, "MOVE 2", P, "[P] effect (p.9); cost [C]; colour, copies [R]", captions=("cost",)),
    _gear("false_documents", "False Documents", "falsche Papiere", VIOLET, 1, 1, "PER yellow: MOVE 1", R, "[R]. The name is attested for Europe by a press review, not the seed; effect from 1st ed. (+1 caper per yellow)", name_printed=False),
    _gear("wiretap", "Wiretap", "", VIOLET, 2, 1, "PER thief: MOVE 1", R, "[R]: takes the slot of the 1st-ed violet Eavesdropper, whose German brand \"Superlausch\" now sits on a yellow card; name invented", name_printed=False),
    _gear("telescopic_hand", "Telescopic Hand", "CT-66 Teleskophand", GREEN, 1, 2, "GRAB diamond", R, "name [P]; cost [C]; colour [R] (it is the green topmost card in the p.17 picture); effect, copies [R] (1st-ed Helping Hand)", captions=("cost",)),
    _gear("suction_scalers", "Suction Scalers", "", GREEN, 1, 2, "GRAB painting", R, "[R] (1st ed., cost 2 → 1 like the Telescopic Hand)", name_printed=False),
    _gear("grappling_gun", "Grappling Gun", "", GREEN, 1, 2, "GRAB antique", R, "[R] (as above)", name_printed=False),
    _gear("briefcase", "Secret-Compartment Briefcase", "Schmuggelwut Geheimfachkoffer", GREEN, 3, 1, "PER green: PTS 1", P, "[P] colour, effect (p.16; player aid); cost [C]; copies [R]. It has no PROTECT (p.11 tip); counts itself", captions=("cost",)),
    _gear("blaze_shield_suit", "Blaze Shield Suit", "", GREEN, 2, 1, "GRAB diamond; PROTECT green", R, "[R]", name_printed=False),
    _gear("stealth_suit", "Stealth Suit", "", GREEN, 2, 1, "GRAB ?", R, "[R]", name_printed=False),
    _gear("blazeblaster", "Blazeblaster", "Zündelmeister Flammenwerfer FLS-2012", RED, 2, 3, "BURN", P, "[P] burn, cost 2 (p.13), 3 copies (p.11); English name from the Keymaster FAQ. No PTS: derived from E2 (the red card at the Louvre scores nothing)"),
    _gear("skeleton_key", "Skeleton Key", "", YELLOW, 0, 4, "COIN 2", R, "[R] (1st ed. had ×5; one slot went to the Sound Dish)", name_printed=False),
    _gear("plasma_cutter", "Plasma Cutter", "SAFECRACKER Plasmaschneider", YELLOW, 1, 2, "COIN 4", P, "[P] yellow (p.15), one-shot 4 coins (p.13: undo = pay 4); cost [C]; copies [R]", captions=("cost",)),
    _gear("super_magnet", "Super Magnet", "Supermagnet", YELLOW, 0, 2, "PER thief: COIN 1", R, "[R]. The name is attested by a press review; 1st ed.: 1 coin + 1 per opponent's Thief", name_printed=False),
    _gear("sound_dish", "Sound Dish", "Superlausch Schallschüssel", YELLOW, 0, 1, "PTS 1", P, "[P] colour, effect (p.15); cost (R32), copies [R]"),
    _gear("plans_caches", "Plans Cachés", "Plans Cachés", BLUE, 0, 4, "PER blue: PTS 1", P, "[P] colour, effect (p.8, p.15); cost, copies [R] (1st ed.); counts itself"),
    _gear("secret_shades", "Secret Shades", "Stiehl mit Stil Sonnenbrillen", BLUE, 0, 1, "MOVE 1; PROTECT blue", R, "name, city [P] (p.4 picture); cost [C]; effect [R] (no end points, as E2 requires of the blue card at the Yacht)", captions=("cost",)),
    _gear("aqua_respirator", "Aqua-Respirator", "FH-70 Unterwasser-Atmungsgerät", BLUE, 1, 1, "GRAB ?", R, "name, city [P]; cost [C]; effect [R] (1st ed.: a wild good)", captions=("cost",)),
    _gear("hypno_organ", "Hypno-Organ", "Hypnoseorgel", ORANGE, 1, 4, "EYE orange: PTS 3", P, "[P] colour, effect (p.17); cost [C] (the caption's \"3\" is the printed points); copies [R]", captions=("cost",)),
    _gear("purse_fishing_rod", "Purse Fishing Rod", "Geldbeutel-Angel", ORANGE, 1, 1, "COIN 3", R, "name [P] (p.17 picture); cost [C]; colour, effect [R]", captions=("cost",)),
    _gear("mosaic_mask", "Mosaic Mask", "", ORANGE, 2, 1, "PER orange@both: PTS 1", R, "[R]; name invented", name_printed=False),
    _gear("utility_belt", "Utility Belt", "", PINK, 0, 4, "MOVE 1; WIN: PTS 2", R, "[R] (1st-ed name, cost, copies)", name_printed=False),
    _gear("posto_segreto", "Posto Segreto", "", PINK, 1, 1, "PER violet@discard: MOVE 1", R, "[R] (1st ed.: +1 caper per purple)", name_printed=False),
    _gear("veloce_wheels", "Velocé Wheels", "", PINK, 2, 1, "MOVE 2; PER pink gear@discard: PTS 1", R, "[R] (1st ed. replayed a card from the discard area)", name_printed=False),
    _gear("laundromatic", "Laundromatic", "", DARKGREEN, 1, 4, "LAUNDER; PER coin@HQ: PTS 1", R, "[R] (1st ed.: coin into the discard area, 1 point per such coin; each copy scores on its own)", name_printed=False),
    _gear("hollow_book", "Hollow Book", "", DARKGREEN, 1, 1, "MOVE 1; PROTECT darkgreen", R, "[R] (1st ed. protected green; Europe protects the city colour that laundering relies on)", name_printed=False),
    _gear("signal_jammer", "Signal Jammer", "", DARKGREEN, 0, 1, "PER darkgreen: MOVE 1", R, "[R]; counts itself", name_printed=False),
)

LOCATIONS: tuple[Card, ...] = (
    _location("antique_shop", "Antique Shop", "", B, 4, "PER set(yellow + green): PTS 2", "—", R, "[R] (1st ed.)", name_printed=False),
    _location("art_gallery", "Art Gallery", "", B, 4, "PER set(violet + green): PTS 2", "—", R, "[R] (1st ed.)", name_printed=False),
    _location("bank", "The Bank", "", B, 5, "PER yellow: PTS 1", "PROTECT yellow", R, "[R]", name_printed=False),
    _location("casino", "The Casino", "", B, 3, "PER thief: PTS 2", "—", R, "[R] (1st ed.)", name_printed=False),
    _location("chapel", "The Chapel", "Die Kapelle", B, 5, "PER thief: PTS 1", "PROTECT violet", R, "name [P]; rest [R]. The 1st-ed thief protection is void, because Europe cannot burn Thieves"),
    _location("gala", "The Gala", "", B, 5, "PER violet: PTS 1", "—", R, "[R] (1st ed.)", name_printed=False),
    _location("museum", "The Museum", "Das Museum", B, 5, "PER green: PTS 1", "—", R, "name [P]; points [C] (a 5 beside its title, p.3); effect [R]", captions=("points",)),
    _location("yacht", "The Yacht", "Die Yacht", B, 4, "PER set(yellow + violet): PTS 2", "—", R, "name [P]; points [C] (a 4 beside its title, p.3); effect [R]", captions=("points",)),
    _location("eiffel_tower", "Eiffel Tower", "", PAR, 4, "PER set(blue + any gear): PTS 2", "PER blue: MOVE 1", R, "[R]. It is the Paris Location whose effect a blue card triggers in the p.8 example", name_printed=False),
    _location("louvre", "The Louvre", "Der Louvre", PAR, 3, "PER painting@HQ: PTS 2", "—", P, "[P] (p.10-11, p.16)"),
    _location("moulin_rouge", "Moulin Rouge", "Moulin Rouge", PAR, 5, "PER thief: PTS 1", "PROTECT green", P, "[P] points, end effect (p.12, p.15); ongoing [R] (1st ed.)"),
    _location("notre_dame", "Notre-Dame", "", PAR, 3, "PER antique@HQ: PTS 2", "—", R, "[R] (1st ed.: 5 + an antique, rebuilt on the Louvre pattern)", name_printed=False),
    _location("versailles", "Versailles", "", PAR, 3, "PER diamond@HQ: PTS 2", "—", R, "[R] (as above)", name_printed=False),
    _location("sagrada_familia", "Sagrada Família", "", BCN, 4, "PER orange@both: PTS 1", "PROTECT orange", R, "[R], name invented", name_printed=False),
    _location("park_guell", "Park Güell", "", BCN, 3, "EYE green: PER good@HQ: PTS 1", "—", R, "[R], name invented", name_printed=False),
    _location("casa_batllo", "Casa Batlló", "", BCN, 5, "EYE violet: PTS 3", "—", R, "[R], name invented", name_printed=False),
    _location("la_rambla", "La Rambla", "", BCN, 3, "PER good@HQ: PTS 1", "—", R, "[R], name invented", name_printed=False),
    _location("la_boqueria", "La Boqueria", "", BCN, 4, "PER yellow@both: PTS 1", "—", R, "[R], name invented", name_printed=False),
    _location("colosseum", "Colosseum", "", ROM, 2, "PER any gear@opp: PTS 1", "—", R, "[R] (1st ed.; its cost modifier dropped, R7)", name_printed=False),
    _location("pantheon", "Pantheon", "", ROM, 6, "PER yellow@opp: PTS 1", "PER yellow: MOVE 1", R, "[R] (1st ed.: +1 caper per yellow)", name_printed=False),
    _location("trastevere", "Trastevere", "", ROM, 6, "PER violet@opp: PTS 1", "PER violet: MOVE 1", R, "[R] (as above)", name_printed=False),
    _location("vatican", "The Vatican", "", ROM, 6, "PER green@opp: PTS 1", "PER green: MOVE 1", R, "[R] (as above)", name_printed=False),
    _location("trevi_fountain", "Trevi Fountain", "", ROM, 4, "PER set(2 pink): PTS 3", "PER pink@discard: MOVE 1", R, "[R]; the ongoing effect needs a Thief here (R13)", name_printed=False),
    _location("big_ben", "Big Ben", "", LON, 3, "PER coin@HQ: PTS 1", "PER thief: COIN 1", R, "[R]", name_printed=False),
    _location("british_museum", "The British Museum", "", LON, 5, "PER green: PTS 1", "PER green: COIN 1", R, "[R]", name_printed=False),
    _location("oxford_street", "Oxford Street", "", LON, 4, "PER yellow: PTS 1", "PER yellow: COIN 1", R, "[R]", name_printed=False),
    _location("piccadilly_circus", "Piccadilly Circus", "", LON, 3, "PER set(darkgreen + any gear): PTS 2", "PER coin@HQ: MOVE 1", R, "[R]; the ongoing effect needs a Thief here (R13)", name_printed=False),
    _location("tower_of_london", "Tower of London", "", LON, 3, "PER diamond@HQ: PTS 2", "PROTECT darkgreen", R, "[R]", name_printed=False),
)
# fmt: on

CATALOGUE: dict[str, Card] = {card.id: card for card in (*THIEVES, *GEAR, *LOCATIONS)}
