"""The clock arithmetic (web/clocks.py), with an injected time: live time controls take the
time spent off and add the increment, turn-based ones give a whole move's time again, a clock
runs out at its deadline, the lag a move's page shows is credited within the seat's quota, and
the form's choice gives a time control by its rule."""

from __future__ import annotations

import pytest

import json

from plunder.web.clocks import (DAY, LAG_FIRST_MOVE, LAG_QUOTA_GAIN, LAG_QUOTA_MAX, LAG_QUOTA_START, LIVE, PRESETS,
                                 TURN, Clock, TimeControl, chosen, freshened, shown)


def test_presets_read_as_minutes_plus_seconds_or_days_per_move() -> None:
    assert TimeControl.parse("5+3") == TimeControl(LIVE, 300.0, 3.0)
    assert TimeControl.parse("3d") == TimeControl(TURN, 3 * DAY)
    assert [TimeControl.parse(p).text for p in PRESETS] == list(PRESETS)
    assert TimeControl.parse("10+5").words == "10 min + 5 s a move"
    assert TimeControl.parse("1d").words == "1 day a move"
    with pytest.raises(ValueError, match="not one this server offers: 3\\+2"):
        TimeControl.parse("0+1")


def test_a_live_move_takes_the_time_spent_and_adds_the_increment() -> None:
    clock = Clock.new(TimeControl.parse("3+2"), 2).started(0, 1000.0)
    assert clock.left_at(0, 1010.5) == 169.5
    assert clock.left_at(1, 1010.5) == 180.0  # the other clock stands still
    after = clock.moved(0, 1010.5, 1)
    assert after.left == (171.5, 180.0) and after.running == 1 and after.since == 1010.5
    assert after.left_at(1, 1020.0) == 170.5
    assert after.deadline == 1010.5 + 180.0


def test_a_clock_runs_out_at_its_deadline_and_never_shows_below_zero() -> None:
    clock = Clock.new(TimeControl.parse("3+2"), 2).started(1, 0.0)
    assert not clock.expired(179.999)
    assert clock.expired(180.0)
    assert clock.left_at(1, 500.0) == 0.0
    assert not Clock.new(TimeControl.parse("3+2"), 2).expired(10 ** 9)  # none running: none runs out


def test_a_turn_based_move_gives_the_whole_move_time_again() -> None:
    clock = Clock.new(TimeControl.parse("1d"), 3).started(0, 0.0)
    after = clock.moved(0, 0.75 * DAY, 2)
    assert after.left == (DAY, DAY, DAY) and after.running == 2
    later = after.moved(2, after.since + 0.5 * DAY, 0)
    assert later.left_at(0, later.since + 0.9 * DAY) == pytest.approx(0.1 * DAY)
    assert later.expired(later.since + DAY)


def test_stopping_keeps_what_was_left_and_a_stored_clock_reads_back() -> None:
    clock = Clock.new(TimeControl.parse("5+3"), 2).started(0, 100.0)
    stopped = clock.stopped(130.0)
    assert stopped.running is None and stopped.left == (270.0, 300.0)
    assert stopped.left_at(0, 10 ** 6) == 270.0
    assert Clock.from_json(clock.to_json()) == clock
    assert clock.data(110.0) == {"control": "5+3", "words": "5 min + 3 s a move", "kind": LIVE,
                                 "left": [290.0, 300.0], "running": 0, "at": 110.0, "started": 100.0}


def test_the_form_choice_gives_a_remote_game_a_clock_and_none_to_one_at_this_screen() -> None:
    assert chosen("auto", remote=True) == TimeControl.parse("10+5")
    assert chosen("auto", remote=False) is None
    assert chosen("none", remote=False) is None
    assert chosen("3d", remote=False) == TimeControl.parse("3d")
    with pytest.raises(ValueError, match="seat for a friend has a time control"):
        chosen("none", remote=True)


def test_time_left_is_shown_as_a_clock_shows_it() -> None:
    assert shown(83.2) == "1:24"
    assert shown(0.0) == "0:00"
    assert shown(3723) == "1:02:03"
    assert shown(2 * DAY + 3 * 3600) == "2d 3h"


def test_figures_queued_before_sending_are_brought_to_the_time_they_are_sent() -> None:
    data = Clock.new(TimeControl.parse("3+2"), 2).started(1, 0.0).data(10.0)
    freshened(data, 10.25)
    assert data["left"] == [180.0, 169.75] and data["at"] == 10.25
    stopped = Clock.new(TimeControl.parse("3+2"), 2).data(10.0)
    freshened(stopped, 99.0)
    assert stopped["left"] == [180.0, 180.0]


def test_the_lag_a_move_shows_is_credited_within_the_seat_s_quota() -> None:
    clock = Clock.new(TimeControl.parse("3+2"), 2).started(0, 1000.0)
    credit = clock.lag_credit(0, 1010.5, 10.3)  # the page thought 10.3 s of the 10.5 its clock ran
    assert credit == pytest.approx(0.2)
    after = clock.moved(0, 1010.5, 1, credit)
    assert after.left[0] == pytest.approx(180 - 10.3 + 2)  # charged what it thought, not the lag
    # the first move had its own allowance; the quota starts after it
    assert after.quota == (LAG_QUOTA_START, LAG_FIRST_MOVE)
    assert clock.lag_credit(0, 1010.5, None) == 0.0  # a page that says nothing: charged it all
    assert clock.lag_credit(0, 1010.5, 12.0) == 0.0  # thought longer than the clock ran: no lag
    assert clock.lag_credit(1, 1010.5, 0.0) == 0.0  # not the seat whose clock runs
    assert clock.lag_credit(0, 1010.5, 0.0) == LAG_FIRST_MOVE  # a lie: bounded by the allowance
    mid = after.moved(1, 1020.0, 0)
    second = mid.moved(0, 1030.0, 1, mid.lag_credit(0, 1030.0, 9.9))
    assert second.left[0] == pytest.approx(after.left[0] - 9.9 + 2)  # 0.1 s of lag, in the quota
    assert second.quota[0] == pytest.approx(LAG_QUOTA_START - 0.1 + LAG_QUOTA_GAIN)
    assert Clock.from_json(second.to_json()) == second


def test_a_client_that_always_claims_lag_gains_at_most_the_quota_over_a_game() -> None:
    clock = Clock.new(TimeControl.parse("10+5"), 2).started(0, 0.0)
    credited = 0.0
    for n in range(20):  # 15 s over each move, said to be none: all of it lag
        now = clock.since + 15.0
        credit = clock.lag_credit(0, now, 0.0)
        credited += credit
        clock = clock.moved(0, now, 0, credit)
    assert credited == pytest.approx(LAG_FIRST_MOVE + LAG_QUOTA_START + 18 * LAG_QUOTA_GAIN)
    assert clock.left[0] == pytest.approx(600 - 20 * 15.0 + credited + 20 * 5)
    honest = Clock.new(TimeControl.parse("10+5"), 2).started(0, 0.0)
    for n in range(20):  # lag of 50 ms a move, said honestly: all credited, the quota full
        now = honest.since + 2.05
        honest = honest.moved(0, now, 0, honest.lag_credit(0, now, 2.0))
    assert honest.left[0] == pytest.approx(600 - 20 * 2.0 + 20 * 5)
    assert honest.quota_of(0) == LAG_QUOTA_MAX  # never more


def test_a_clock_stored_before_lag_quotas_reads_with_a_moved_seat_s_quota() -> None:
    stored = json.loads(Clock.new(TimeControl.parse("5+3"), 2).started(0, 5.0).to_json())
    del stored["quota"]
    clock = Clock.from_json(json.dumps(stored))
    assert clock.quota == () and clock.quota_of(1) == LAG_QUOTA_START
    assert clock.moved(0, 6.0, 1, clock.lag_credit(0, 6.0, 0.5)).quota == pytest.approx(
        (LAG_QUOTA_START - 0.5 + LAG_QUOTA_GAIN, LAG_QUOTA_START))
