"""The decoder-settings benchmark (:mod:`vision.bench_decoder`): a change of the contact
decoder's settings replayed on recorded climbs, against the shipped settings.

The recording is made from the sample climb's exact landmarks (as in
:mod:`tests.test_bench_ceiling`), so the route, decoder and judge are real and MediaPipe is not
needed."""

from __future__ import annotations

import pytest

from tests.test_vision_contact import exact_recording
from vision.bench_decoder import compare_settings, judge_with, main, parse_settings
from vision.contact import ContactParams


@pytest.fixture(scope="module")
def recording() -> dict:
    return exact_recording()


def test_settings_are_read_with_their_fields_types() -> None:
    got = parse_settings(["start_min_conf=0.6", "rescue_used_hold=on", "start_self = no"])
    assert got == {"start_min_conf": 0.6, "rescue_used_hold": True, "start_self": False}
    assert isinstance(got["start_min_conf"], float)
    assert parse_settings([]) == {}


@pytest.mark.parametrize(("item", "said"), [
    ("start_min_conf", "NAME=VALUE"), ("nothing=1", "not a contact decoder setting"),
    ("start_self=maybe", "a switch"), ("on_level=high", "takes a float")])
def test_a_bad_setting_says_what_is_wrong(item: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        parse_settings([item])


def test_the_shipped_settings_against_themselves_change_nothing(recording: dict) -> None:
    base, new, won, lost = compare_settings([recording], {})
    assert new == base and won == [] and lost == []
    assert base["truth"] > 0 and base["pred"] > 0
    assert [c[0] for c in base["clips"]] == [recording["name"]]


def test_a_change_is_measured_on_the_same_recordings(recording: dict) -> None:
    """A bar no evidence can reach (``on_level`` above 1): nothing is ever put down, so no event
    is found and the verdict changes; the climb is listed as lost when it was right."""
    assert ContactParams().on_level < 1.0
    base, new, won, lost = compare_settings([recording], {"on_level": 1.01})
    assert new["tp"] == 0 and new["f1"] == 0.0 and base["tp"] > 0
    assert new["clips"][0][4] != base["clips"][0][4]  # the verdict's text
    assert won == [] and len(lost) == int(base["clips"][0][3])
    assert judge_with([recording], {})["right"] == base["right"]


def test_the_command_refuses_a_bad_setting_and_a_folder_that_is_not_a_climb(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main([str(tmp_path), "--set", "nothing=1"])
    assert exc.value.code == 2 and "not a contact decoder setting" in capsys.readouterr().err
    assert main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "is not a rendered climb" in err and str(tmp_path) in err
