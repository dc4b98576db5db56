"""The command for humans: python -m scorekeeper.rules "AS 2S 3S JK 7H 7D 7C QH"."""

import subprocess
import sys

import pytest

from scorekeeper.rules.__main__ import main


def test_prints_the_best_arrangement_and_points(capsys):
    assert main(["AS 2S 3S JK 7H 7D 7C QH"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "meld      AS 2S 3S" in out
    assert "meld      7H 7D 7C JK" in out
    assert "deadwood  QH" in out
    assert out[-1] == "points    10"


def test_cards_may_come_as_separate_arguments(capsys):
    assert main(["8h", "8h", "8c"]) == 0
    out = capsys.readouterr().out
    assert "deadwood  -" in out
    assert out.rstrip().endswith("points    0")


def test_rummi_passport_rules_do_not_change_the_points(capsys):
    main(["--rules", "rummi", "JK", "JK", "JK"])
    assert capsys.readouterr().out.rstrip().endswith("points    60")


def test_joker_points_option(capsys):
    main(["--joker-points", "50", "JK", "5S"])
    assert capsys.readouterr().out.rstrip().endswith("points    55")


def test_unreadable_card_is_an_error_naming_it(capsys):
    assert main(["AS", "ZZ"]) == 2
    err = capsys.readouterr().err
    assert '"ZZ" (card 2) is not a card' in err


def test_runs_as_a_module():
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper.rules", "--rules", "rummi", "QS KS AS JK"],
        capture_output=True, text=True, check=True)
    assert result.stdout.splitlines()[-1] == "points    0"


def test_house_rules_it_refuses_are_said_in_words(capsys):
    with pytest.raises(SystemExit) as leaving:
        main(["--joker-points", "-5", "JK"])
    assert leaving.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith("error: joker_points can't be negative")
