"""Tenhou round results: score texts, yaku strings and draws."""

from engine.replay.tenhou_result import format_result, parse_result


def test_ron_score_text_gives_fu_han_and_points() -> None:
    end = parse_result(["和了", [1800, -1800, 0, 0], [0, 1, 0, "30符1飜1500点", "断幺九(1飜)"]], 4)
    (win,) = end.wins
    assert (win.who, win.from_seat, win.pao, win.fu, win.han) == (0, 1, -1, 30, 1)
    assert (win.limit, win.points, win.yaku) == ("", (1500,), (("断幺九", 1),))
    assert end.deltas == (1800, -1800, 0, 0)


def test_limit_tsumo_sums_yaku_for_han_and_keeps_both_payments() -> None:
    info = [1, 1, 1, "跳満3000-6000点", "自風 南(1飜)", "混一色(2飜)", "ドラ(4飜)"]
    (win,) = parse_result(["和了", [-6000, 12000, -3000, -3000], info], 4).wins
    assert (win.han, win.fu, win.limit, win.points, win.tsumo) == (
        7,
        None,
        "haneman",
        (3000, 6000),
        True,
    )


def test_dealer_tsumo_mark_and_yakuman_read_and_written_back() -> None:
    raw = ["和了", [48000, -16000, -16000, -16000], [0, 0, 0, "役満16000点∀", "大三元(役満)"]]
    end = parse_result(raw, 4)
    assert end.wins[0].han == 13 and end.wins[0].limit == "yakuman"
    assert format_result(end, dealer=0) == raw


def test_double_ron_keeps_each_win_and_sums_deltas() -> None:
    raw = [
        "和了",
        [0, 2000, 0, -2000],
        [1, 3, 1, "30符2飜2000点", "断幺九(1飜)", "ドラ(1飜)"],
        [0, 0, 5200, -5200],
        [2, 3, 2, "30符3飜3900点", "立直(1飜)", "平和(1飜)", "ドラ(1飜)"],
    ]
    end = parse_result(raw, 4)
    assert [w.who for w in end.wins] == [1, 2]
    assert end.deltas == (0, 2000, 5200, -7200)
    assert format_result(end, dealer=0) == raw


def test_draws_without_payments_keep_their_tenpai_name() -> None:
    assert parse_result(["全員聴牌"], 4).all_tenpai
    assert format_result(parse_result(["全員聴牌"], 4), 0, 4, True) == ["全員聴牌"]
    assert format_result(parse_result(["全員不聴"], 4), 0) == ["全員不聴"]
    assert parse_result(["流局", [1500, -1500, 1500, -1500]], 4).tenpai == (0, 2)
    assert parse_result(["九種九牌"], 4).kind == "kyuushu"
