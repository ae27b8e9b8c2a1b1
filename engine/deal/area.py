"""A player's property area: which groups are complete, what rent they bring, where a card fits.

Pure helpers over ``Player``/``Group`` used by the rules, the AI and the views (D-05 … D-08,
D-12, D-17). Nothing here checks whose turn it is.
"""

from __future__ import annotations

from engine.deal.cards import BUILDABLE, IS_MULTI, IS_SINGLE, PLACEABLE, RENT_TABLE, SET_SIZE, VALUE
from engine.deal.model import DealOptions, Group, Player

ANCHORS_WILD = tuple(not m for m in IS_MULTI)
HOUSE_RENT = 3
HOTEL_RENT = 4


def is_complete(group: Group, options: DealOptions) -> bool:
    """D-05/D-07: a full group of one colour with a card that may anchor it."""
    colour = group.colour
    if colour is None or len(group.cards) < SET_SIZE[colour]:
        return False
    anchors = ANCHORS_WILD if options.wild_sets else IS_SINGLE  # tournament: two-colour wilds anchor too
    for c in group.cards:
        if anchors[c]:
            return True
    return False


def complete_colours(player: Player, options: DealOptions) -> set[str]:
    out: set[str] = set()
    for g in player.groups:  # a loop: the AI asks at every play
        colour = g.colour  # most groups are short of a set: told apart before ``is_complete``
        if colour is not None and len(g.cards) >= SET_SIZE[colour] and is_complete(g, options):
            out.add(colour)
    return out


def complete_set_count(player: Player, options: DealOptions) -> int:
    """D-15: complete sets of different colours."""
    return len(complete_colours(player, options))


def group_rent(group: Group, options: DealOptions) -> int:
    """D-08: table value for the cards held (capped at the set size), plus buildings when complete."""
    colour = group.colour
    if colour is None or not group.cards:
        return 0
    table = RENT_TABLE[colour]
    rent = table[min(len(group.cards), len(table)) - 1]
    if (group.house is not None or group.hotel is not None) and is_complete(group, options):
        if group.house is not None:
            rent += HOUSE_RENT
        if group.hotel is not None:
            rent += HOTEL_RENT
    return rent


def colours_for(card: int) -> tuple[str, ...] | None:
    """The colours a property card may take; None for the multicolour wild (any colour)."""
    return PLACEABLE[card]


def fits(group: Group, card: int, colour: str | None) -> bool:
    """Can ``card``, showing ``colour``, join ``group``? (D-06 colour, D-17 capacity)."""
    allowed = PLACEABLE[card]
    if colour is None:
        # only a multicolour wild may be colourless, and only among colourless cards
        return allowed is None and group.colour is None and len(group.cards) < 4
    if allowed is None:
        if group.colour is None:
            return False  # D-06: multicolour wilds take a colour only from a coloured card
    elif colour not in allowed:
        return False
    if group.colour is not None and group.colour != colour:
        return False
    return len(group.cards) < SET_SIZE[colour]


def may_start_group(card: int, colour: str | None) -> bool:
    allowed = PLACEABLE[card]
    if allowed is None:
        return colour is None  # D-06: laid alone, the multicolour wild has no colour
    return colour in allowed


def place(player: Player, card: int, colour: str | None, group: int | None) -> int:
    """Put a card into a group (or a new one); returns the group index. No checks."""
    if group is None:
        player.groups.append(Group(colour=colour, cards=[card]))
        return len(player.groups) - 1
    g = player.groups[group]
    g.cards.append(card)
    if g.colour is None and colour is not None:
        g.colour = colour
    return group


def find_group(player: Player, card: int) -> int:
    for i, g in enumerate(player.groups):
        if card in g.cards:
            return i
    return -1


def remove_card(player: Player, card: int) -> None:
    """Take a property card out of its group; drop groups left empty (unless they hold buildings)."""
    i = find_group(player, card)
    g = player.groups[i]
    g.cards.remove(card)
    _tidy(player, i)


def _tidy(player: Player, i: int) -> None:
    g = player.groups[i]
    built = g.house is not None or g.hotel is not None
    if not g.cards and not built:
        del player.groups[i]
    elif not built and all(IS_MULTI[c] for c in g.cards):
        g.colour = None  # D-06: multicolour wilds alone have no colour


def remove_building(player: Player, card: int) -> None:
    for i, g in enumerate(player.groups):
        if g.house == card:
            g.house = None
        elif g.hotel == card:
            g.hotel = None
        else:
            continue
        _tidy(player, i)
        return
    raise ValueError(f"building {card} not on the table")


def best_spot(player: Player, card: int, options: DealOptions) -> tuple[str | None, int | None]:
    """Where a received or taken card goes: the owner's best choice (D-11 "its new owner chooses").

    Prefers completing a set, then the fullest group it fits, then a colour the owner already
    collects; the owner can still re-arrange freely on their own turn.
    """
    allowed = PLACEABLE[card]
    colours = allowed if allowed is not None else tuple(SET_SIZE)
    best: tuple[int, int, int] | None = None
    choice: tuple[str | None, int | None] = (None, None)
    for i, g in enumerate(player.groups):
        for colour in colours:
            if not fits(g, card, colour):
                continue
            size = SET_SIZE[colour]
            completes = len(g.cards) + 1 == size
            score = (1 if completes else 0, len(g.cards) + 1 - size, VALUE[card])
            if best is None or score > best:
                best, choice = score, (colour, i)
        if allowed is None and g.colour is None and fits(g, card, None):
            score = (0, -9, 0)
            if best is None or score > best:
                best, choice = score, (None, i)
    if choice[1] is not None:
        return choice
    if allowed is None:
        return None, None
    if len(allowed) == 1:
        return allowed[0], None
    # a two-colour wild alone: the colour of the smaller set (closer to completion)
    return min(allowed, key=lambda c: (SET_SIZE[c], c)), None


def building_targets(player: Player, building_action: str, options: DealOptions) -> list[int]:
    """D-12: groups that may take a House (complete, buildable, none yet) or a Hotel (has a House)."""
    out = []
    for i, g in enumerate(player.groups):
        if g.colour is None or not BUILDABLE[g.colour] or not is_complete(g, options):
            continue
        wants_house = building_action == "house" and g.house is None
        if wants_house or (building_action == "hotel" and g.house is not None and g.hotel is None):
            out.append(i)
    return out


def table_value(player: Player) -> int:
    """D-16: bank + properties + buildings on the table (the multicolour wild is worth nothing)."""
    total = sum(VALUE[c] for c in player.bank)
    for g in player.groups:
        total += sum(VALUE[c] for c in g.cards)
        if g.house is not None:
            total += VALUE[g.house]
        if g.hotel is not None:
            total += VALUE[g.hotel]
    return total
