"""Grimpe! cards and routes: the catalogue's geometry, placement legality, the 10-hold trigger,
Arrivée moving up, rotation geometry and ROUTE.json round trips."""

import json
import math
import subprocess
import sys

import pytest

from games.base import IllegalMove
from games.grimpe.cards import (
    CARD_SIZE_MM,
    COLOURS,
    NUMBER_CORNER_MM,
    SLOT_PITCH_MM,
    CardSpec,
    Catalog,
    CatalogError,
    ColourMap,
    HoldSpec,
    default_catalog,
    hole_radius_mm,
)
from games.grimpe.route import BUILD_HOLDS, Route, RouteFormatError


# --- catalogue -----------------------------------------------------------------------------


def test_default_catalog_has_42_cards_with_valid_geometry():
    cat = default_catalog()
    assert cat.numbers() == list(range(1, 43))
    for card in cat:
        assert 1 <= len(card.holds) <= 3
        assert card.geometry_problems() == []
        assert len({h.colour for h in card.holds}) == len(card.holds)
        for h in card.holds:
            assert h.radius_mm == hole_radius_mm(card.number)
            half = CARD_SIZE_MM / 2
            # rim at least 6 mm from every edge
            assert abs(h.u_mm) + h.radius_mm <= half - 6 + 1e-9
            assert abs(h.v_mm) + h.radius_mm <= half - 6 + 1e-9
            # the disc stays out of the number's top-left corner square
            corner_u, corner_v = -half + NUMBER_CORNER_MM, half - NUMBER_CORNER_MM
            du, dv = max(0.0, h.u_mm - corner_u), max(0.0, corner_v - h.v_mm)
            assert math.hypot(du, dv) >= h.radius_mm - 1e-9
        for i, a in enumerate(card.holds):
            for b in card.holds[i + 1 :]:
                assert math.hypot(a.u_mm - b.u_mm, a.v_mm - b.v_mm) >= a.radius_mm + b.radius_mm + 12 - 1e-9
    assert [hole_radius_mm(n) for n in (1, 14, 15, 28, 29, 42)] == [10, 10, 8, 8, 6.5, 6.5]


def test_default_catalog_is_stable_across_processes():
    code = (
        "import json; from games.grimpe.cards import default_catalog; "
        "print(json.dumps(default_catalog().to_json(), sort_keys=True))"
    )
    outs = set()
    for hashseed in ("1", "999"):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True,
            env={"PYTHONHASHSEED": hashseed, "PATH": "/usr/bin:/bin"},
            cwd=str(__import__("pathlib").Path(__file__).resolve().parents[1]),
        ).stdout
        outs.add(out)
    assert len(outs) == 1
    assert json.loads(outs.pop()) == json.loads(json.dumps(default_catalog().to_json(), sort_keys=True))
    assert default_catalog(7) != default_catalog()  # the seed matters


def test_catalog_json_round_trip_and_errors():
    cat = default_catalog()
    again = Catalog.from_json(json.dumps(cat.to_json()))
    assert again.cards == cat.cards
    bad = cat.to_json()
    bad["cards"][3]["holds"][0]["colour"] = "purple"
    with pytest.raises(CatalogError, match="purple"):
        Catalog.from_json(bad)
    dup = cat.to_json()
    dup["cards"][1]["number"] = 1
    with pytest.raises(CatalogError, match="more than once"):
        Catalog.from_json(dup)
    with pytest.raises(CatalogError, match="does not fit"):
        HoldSpec("a", "red", 30.0, 0.0, 10.0)
    with pytest.raises(CatalogError, match="a card has 1–3"):
        CardSpec(5, ())


def test_colour_map_default_partial_override_and_errors():
    default = ColourMap()
    assert [default.finger_for(c) for c in COLOURS] == ["thumb", "index", "middle", "ring", "little"]
    swapped = ColourMap.from_dict({"red": "ring", "yellow": "little"})
    assert swapped.finger_for("red") == "ring" and swapped.finger_for("black") == "thumb"
    assert ColourMap.from_dict(swapped.to_dict()) == swapped
    with pytest.raises(CatalogError, match="pinky"):
        ColourMap.from_dict({"red": "pinky"})
    with pytest.raises(CatalogError, match="unknown colour"):
        ColourMap.from_dict({"white": "thumb"})


# --- placement rules ---------------------------------------------------------------------------


def test_first_card_two_rows_above_depart_then_left_right_above():
    r = Route()
    assert r.legal_slots() == [(0, 2)]
    with pytest.raises(IllegalMove) as info:
        r.place(5, 0, 1)
    assert info.value.code == "illegal_slot"
    r.place(5, 0, 2)
    assert r.legal_slots() == [(-1, 2), (1, 2), (0, 3)]
    r.place(6, 1, 2)
    # left of card 6 is card 5: occupied
    assert r.legal_slots() == [(2, 2), (1, 3)]
    with pytest.raises(IllegalMove) as info:
        r.place(7, 0, 2)
    assert info.value.code == "illegal_slot"
    with pytest.raises(IllegalMove) as info:
        r.place(7, 1, 1)  # below the last card
    assert info.value.code == "illegal_slot"
    with pytest.raises(IllegalMove) as info:
        r.place(5, 1, 3)
    assert info.value.code == "card_used"
    with pytest.raises(IllegalMove) as info:
        r.place(43, 1, 3)
    assert info.value.code == "unknown_card"
    r.place(7, 1, 3, 270)
    assert r.legal_slots() == [(0, 3), (2, 3), (1, 4)]


def test_zones_and_arrivee_move_up_with_each_card():
    r = Route()
    assert r.finish_zone_mm() is None and r.arrivee_slot() is None
    start = r.start_zone_mm()
    assert (start.col, start.row, start.x_mm, start.y_mm) == (0, 1, 0.0, SLOT_PITCH_MM)
    for number, col, row in [(1, 0, 2), (2, 0, 3), (3, -1, 3), (4, -1, 4)]:
        r.place(number, col, row)
        assert r.arrivee_slot() == (col, row + 2)
        fz = r.finish_zone_mm()
        assert (fz.col, fz.row) == (col, row + 1)
        assert (fz.x_mm, fz.y_mm) == (col * SLOT_PITCH_MM, (row + 1) * SLOT_PITCH_MM)
        assert fz.contains(fz.x_mm + 34, fz.y_mm - 34) and not fz.contains(fz.x_mm + 36, fz.y_mm)


def test_building_ends_at_the_placement_reaching_ten_holds():
    r = Route()
    col, row = 0, 2
    counts = []
    for number in range(1, 43):
        r.place(number, col, row)
        counts.append(r.hold_count())
        if r.building_done:
            break
        row += 1
    assert counts[-1] >= BUILD_HOLDS
    assert all(c < BUILD_HOLDS for c in counts[:-1])
    assert counts == sorted(counts)


def test_rotation_geometry():
    cat = default_catalog()
    number = next(c.number for c in cat if len(c.holds) >= 2)
    hold = cat[number].holds[0]
    u, v = hold.u_mm, hold.v_mm
    cx, cy = 0.0, 2 * SLOT_PITCH_MM
    expected = {0: (u, v), 90: (-v, u), 180: (-u, -v), 270: (v, -u), 360: (u, v), -90: (v, -u)}
    for rot, (du, dv) in expected.items():
        r = Route()
        r.place(number, 0, 2, rot)
        h = r.holds()[0]
        assert h.id == f"{number}a" and h.colour == hold.colour and h.radius_mm == hold.radius_mm
        assert (h.x_mm, h.y_mm) == pytest.approx((cx + du, cy + dv), abs=1e-9)
    # a free angle: counter-clockwise, distance to the slot centre preserved
    r = Route()
    r.place(number, 0, 2, 30)
    h = r.holds()[0]
    th = math.radians(30)
    assert h.x_mm == pytest.approx(cx + u * math.cos(th) - v * math.sin(th), abs=1e-3)
    assert h.y_mm == pytest.approx(cy + u * math.sin(th) + v * math.cos(th), abs=1e-3)
    assert math.hypot(h.x_mm - cx, h.y_mm - cy) == pytest.approx(math.hypot(u, v), abs=1e-3)
    # a card on another slot is translated by the slot pitch
    r2 = Route()
    r2.place(1, 0, 2)
    r2.place(number, 1, 2, 90)
    h2 = [x for x in r2.holds() if x.card == number][0]
    assert (h2.x_mm, h2.y_mm) == pytest.approx((SLOT_PITCH_MM - v, cy + u), abs=1e-9)


def test_route_json_round_trip_and_rebuild(tmp_path):
    r = Route()
    for number, col, row, rot in [(12, 0, 2, 90), (30, 1, 2, 180), (41, 1, 3, 22.5), (8, 0, 3, 270)]:
        r.place(number, col, row, rot)
    data = r.to_json()
    assert data["format"] == "arbitre-grimpe-route" and data["version"] == 1
    assert data["card_size_mm"] == CARD_SIZE_MM and data["slot_pitch_mm"] == SLOT_PITCH_MM
    assert data["depart"] == {"col": 0, "row": 0} and data["arrivee"] == {"col": 0, "row": 5}
    assert [c["number"] for c in data["cards"]] == [12, 30, 41, 8]
    assert data["cards"][0]["rotation_deg"] == 90 and data["cards"][2]["rotation_deg"] == 22.5
    assert {h["id"] for h in data["holds"]} == {h.id for h in r.holds()}
    assert data["zones"]["start"]["row"] == 1 and data["zones"]["finish"]["row"] == 4
    again = Route.from_json(json.dumps(data))
    assert again == r and again.to_json() == data
    path = tmp_path / "route.json"
    r.save(path)
    assert Route.load(path) == r
    # a saved route that breaks the placement rules is refused when rebuilt strictly
    data["cards"][1]["row"] = 5
    with pytest.raises(IllegalMove):
        Route.from_json(data)
    assert len(Route.from_json(data, strict=False).placements) == 4
    with pytest.raises(RouteFormatError, match="format"):
        Route.from_json({"format": "something-else", "cards": []})
    with pytest.raises(RouteFormatError, match="cards"):
        Route.from_json({"holds": []})


def test_route_code_round_trip_and_catalog_named_in_the_file():
    r = Route.from_code("11@0,2r0 20@1,2 27@1,3r180 7@0,3r22.5")
    assert r.code() == "11@0,2r0 20@1,2r0 27@1,3r180 7@0,3r22.5"
    assert Route.from_code(r.code()) == r
    with pytest.raises(IllegalMove):
        Route.from_code("11@0,2 20@4,4")
    with pytest.raises(ValueError):
        Route.from_code("eleven@0,2")
    other = Route(default_catalog(7))
    other.place(3, 0, 2, 90)
    data = json.loads(json.dumps(other.to_json()))
    assert data["catalog"] == "default seed=7"
    assert Route.from_json(data) == other  # the file names its built-in catalogue
