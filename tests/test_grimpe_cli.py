"""`arbitre grimpe ...` through ui.cli.main (and once as a subprocess)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "sample_videos" / "example_climb"
ROUTE = str(EXAMPLE / "route.json")
EVENTS = str(EXAMPLE / "events.jsonl")
FAULTY = str(EXAMPLE / "events_fault.jsonl")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_judge_json(capsys):
    code, out, _ = run(capsys, "grimpe", "judge", ROUTE, EVENTS, "--json")
    assert code == 0
    v = json.loads(out)
    assert v["result"] == "summit" and v["score"] == 5 and v["fault"] is None
    assert [m["points"] for m in v["moves"]] == [3, 1, 1]


def test_judge_text_and_french(capsys):
    code, out, _ = run(capsys, "grimpe", "judge", ROUTE, FAULTY)
    assert code == 0 and "FAULT" in out and "wrong_finger" in out and "frame=93" in out
    code, out, _ = run(capsys, "grimpe", "judge", ROUTE, FAULTY, "--lang", "fr")
    assert code == 0 and "FAUTE" in out and "wrong_finger" in out


def test_colour_map_option(capsys, tmp_path):
    cmap = tmp_path / "colours.json"
    cmap.write_text(json.dumps({"green": "index", "blue": "middle"}))
    code, out, _ = run(capsys, "grimpe", "judge", ROUTE, FAULTY, "--json", "--colour-map", str(cmap))
    assert code == 0 and json.loads(out)["fault"] is None  # the index may take green now
    cmap.write_text(json.dumps({"green": "toe"}))
    code, _, err = run(capsys, "grimpe", "judge", ROUTE, FAULTY, "--colour-map", str(cmap))
    assert code == 2 and "toe" in err and str(cmap) in err


def test_overrides_option(capsys, tmp_path):
    ov = tmp_path / "overrides.json"
    ov.write_text(json.dumps([{"kind": "cancel_fault", "code": "wrong_finger", "t": 3.1}]))
    code, out, _ = run(capsys, "grimpe", "judge", ROUTE, FAULTY, "--json", "--overrides", str(ov))
    assert code == 0
    rv = json.loads(out)
    assert rv["auto"]["result"] == "fault" and rv["final"]["fault"] is None
    assert rv["overrides"][0]["kind"] == "cancel_fault"
    code, out, _ = run(capsys, "grimpe", "judge", ROUTE, FAULTY, "--overrides", str(ov))
    assert code == 0 and "Automatic verdict" in out and "Final verdict" in out


@pytest.mark.parametrize(
    "line,needle",
    [
        ("{oops", "not valid JSON"),
        ('{"t": 9, "type": "down", "finger": "ring", "target": "99z"}', "unknown hold"),
        ('{"t": 0.0, "type": "up", "finger": "ring"}', "backwards"),
        ('{"t": 9, "type": "up", "finger": "toe"}', "unknown finger"),
        ('{"t": 9, "type": "teleport"}', "unknown event type"),
        ('{"t": 9, "type": "up"}', "missing key"),
    ],
)
def test_bad_events_exit_2_naming_file_and_line(capsys, tmp_path, line, needle):
    lines = (EXAMPLE / "events.jsonl").read_text().splitlines()[:3] + [line]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "grimpe", "judge", ROUTE, str(bad))
    assert code == 2 and out == ""
    assert f"{bad}, line 4" in err and needle in err and "Traceback" not in err


def test_bad_route_exits_2(capsys, tmp_path):
    bad = tmp_path / "route.json"
    bad.write_text('{"holds": [{"id": "a1"}]}')
    code, _, err = run(capsys, "grimpe", "judge", str(bad), EVENTS)
    assert code == 2 and "route" in err and "colour" in err
    bad.write_text('{"holds": [\n{"id": "a1", "colour": "red"},,]}')
    code, _, err = run(capsys, "grimpe", "judge", str(bad), EVENTS)
    assert code == 2 and "line 2" in err
    code, _, err = run(capsys, "grimpe", "judge", str(tmp_path / "none.json"), EVENTS)
    assert code == 2 and "no such file" in err


def test_holds_only_route_is_enough(capsys, tmp_path):
    route = tmp_path / "route.json"
    route.write_text(json.dumps({"holds": [{"id": "b1", "colour": "blue"}]}))
    events = tmp_path / "e.jsonl"
    events.write_text(
        '{"t": 0, "type": "down", "finger": "thumb", "target": "start"}\n'
        '{"t": 1, "type": "down", "finger": "index", "target": "b1"}\n'
        '{"t": 2, "type": "down", "finger": "middle", "target": "finish"}\n'
        '{"t": 3, "type": "up", "finger": "thumb"}\n'
        '{"t": 4, "type": "up", "finger": "index"}\n'
    )
    code, out, _ = run(capsys, "grimpe", "judge", str(route), str(events), "--json")
    assert code == 0 and json.loads(out)["score"] == 3


def test_route_show_build_and_cards(capsys, tmp_path):
    code, out, _ = run(capsys, "grimpe", "route", "show", ROUTE)
    assert code == 0 and "10 hold(s)" in out and "Placements: legal" in out
    code, out, _ = run(capsys, "grimpe", "route", "show", ROUTE, "--json")
    summary = json.loads(out)
    assert summary["hold_count"] == 10 and summary["legal"] is True
    assert summary["holds_by_colour"]["yellow"] == ["11b"]
    assert summary["code"] == "11@0,2r0 20@1,2r0 27@1,3r0 7@0,3r0"
    dest = tmp_path / "r.json"
    code, _, _ = run(capsys, "grimpe", "route", "build", "11@0,2r0", "20@1,2r0", "27@1,3r0", "7@0,3r0",
                     "-o", str(dest))
    assert code == 0 and json.loads(dest.read_text()) == json.loads(Path(ROUTE).read_text())
    code, _, err = run(capsys, "grimpe", "route", "build", "11@0,2r0", "20@5,5r0")
    assert code == 2 and "placement 2" in err and "illegal_slot" in err
    code, out, _ = run(capsys, "grimpe", "cards", "--json")
    assert code == 0 and len(json.loads(out)["cards"]) == 42
    assert run(capsys, "grimpe")[0] == 2  # the group alone prints its help


def test_judge_as_a_subprocess():
    proc = subprocess.run(
        [sys.executable, "-m", "ui", "grimpe", "judge", ROUTE, EVENTS, "--json"],
        capture_output=True, text=True, cwd=str(ROOT), timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["score"] == 5
    bad = subprocess.run(
        [sys.executable, "-m", "ui", "grimpe", "judge", ROUTE, ROUTE],
        capture_output=True, text=True, cwd=str(ROOT), timeout=60,
    )
    assert bad.returncode == 2 and "line 1" in bad.stderr and "Traceback" not in bad.stderr


def test_files_with_a_byte_order_mark_are_read(capsys, tmp_path):
    route = tmp_path / "route.json"
    route.write_bytes(b"\xef\xbb\xbf" + Path(ROUTE).read_bytes())
    events = tmp_path / "events.jsonl"
    events.write_bytes(b"\xef\xbb\xbf" + Path(EVENTS).read_bytes().replace(b"\n", b"\r\n"))
    code, out, _ = run(capsys, "grimpe", "judge", str(route), str(events), "--json")
    assert code == 0 and json.loads(out)["score"] == 5
