"""``chimeraboost shadow``, ``plan`` and ``readout``: the library's numbers on a file's columns."""

import json

import numpy as np
import pytest

from chimeraboost.cli import main
from chimeraboost.promotion import (
    ABTestPlan,
    ab_metric,
    plan_ab_test,
    read_ab_test,
    shadow_report,
)


def _write(path, columns):
    names = list(columns)
    rows = zip(*(columns[n] for n in names))
    path.write_text(",".join(names) + "\n" + "\n".join(",".join(map(str, r)) for r in rows))
    return str(path)


@pytest.fixture
def live(tmp_path):
    rng = np.random.default_rng(0)
    n = 400
    y = rng.integers(0, 2, n)
    p0 = np.round(np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0, 1), 6)
    p1 = np.round(np.clip(p0 + rng.normal(0, 0.1, n), 0, 1), 6)
    label = ["" if i < 100 else str(v) for i, v in enumerate(y)]
    path = _write(tmp_path / "live.csv", {"p_old": p0, "p_new": p1, "label": label,
                                          "region": np.where(np.arange(n) % 2, "n", "s")})
    return path, y, p0, p1


def test_shadow_prints_the_librarys_numbers(live, capsys):
    path, y, p0, p1 = live
    code = main(["shadow", path, "--champion", "p_old", "--challenger", "p_new",
                 "--threshold", "0.5", "--label", "label", "--by", "region", "--n-boot", "1000",
                 "--json"])
    assert code == 0
    got = json.loads(capsys.readouterr().out)
    labels = y.astype(float)
    labels[:100] = np.nan
    region = np.where(np.arange(400) % 2, "n", "s")
    r = shadow_report(p0, p1, threshold=0.5, y=labels, by=region, n_boot=1000, random_state=0)
    assert got["values"]["kappa"] == pytest.approx(r.values["kappa"], abs=1e-12)
    assert got["intervals"]["flip_rate"] == pytest.approx(list(r.intervals["flip_rate"]))
    assert got["disagreement"]["labelled_rows"] == 300


def test_plan_then_readout(tmp_path, capsys):
    plan_path = str(tmp_path / "plan.json")
    assert main(["plan", "--metric", "conversion", "--kind", "proportion", "--champion", "0.10",
                 "--challenger", "0.13", "--looks", "5", "--rows-per-day", "500",
                 "--out", plan_path]) == 0
    text = capsys.readouterr().out
    plan = ABTestPlan.load(plan_path)
    expected = plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.13), looks=5,
                            rows_per_day=500)
    assert plan.to_dict() == expected.to_dict() and "saved to" in text
    rng = np.random.default_rng(1)
    m = plan.n_challenger + plan.n_champion
    arm = np.where(np.arange(m) % 2, "B", "A")
    conv = np.where(arm == "B", rng.random(m) < 0.16, rng.random(m) < 0.10).astype(int)
    day = np.arange(m) * 5 // m
    path = _write(tmp_path / "test.csv", {"variant": arm, "day": day, "converted": conv})
    assert main(["readout", path, "--plan", plan_path, "--arm", "variant", "--look", "day",
                 "--champion-label", "A", "--challenger-label", "B",
                 "--column", "conversion=converted", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    r = read_ab_test(plan, {"conversion": conv[arm == "A"]}, {"conversion": conv[arm == "B"]},
                     look_champion=day[arm == "A"], look_challenger=day[arm == "B"])
    assert got["decision"] == r.decision and got["looks"] == r.looks


def test_plan_from_offline_rows(live, capsys):
    path, y, p0, _ = live
    better = np.clip(p0 + 0.3 * (y - p0), 0, 1)
    offline = _write(__import__("pathlib").Path(path).with_name("off.csv"),
                     {"y": y, "p_old": p0, "p_new": np.round(better, 6)})
    assert main(["plan", offline, "--metric", "brier", "--kind", "brier", "--target", "y",
                 "--champion", "p_old", "--challenger", "p_new", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    expected = plan_ab_test(ab_metric("brier", "brier", p0, np.round(better, 6), y=y))
    assert got["n_challenger"] == expected.n_challenger


@pytest.mark.parametrize("argv, match", [
    (["plan", "--metric", "c", "--kind", "proportion", "--champion", "x", "--challenger", "0.1"],
     "--champion must be a number"),
    (["plan", "--metric", "c", "--kind", "proportion", "--champion", "0.1", "--challenger",
      "0.12", "--rows-per-day", "0"], "--rows-per-day must be > 0"),
    (["plan", "--metric", "c", "--kind", "proportion", "--champion", "0.1", "--challenger",
      "0.12", "--guardrail", "g", "proportion", "0.1", "0.1", "-0.01"], "pass 0.01"),
    (["plan", "--metric", "c", "--kind", "brier", "--champion", "a", "--challenger", "b"],
     "FILE"),
])
def test_bad_input_is_one_line_and_status_2(argv, match, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("chimeraboost: error:") and len(err.strip().splitlines()) == 1
    assert match in err


def test_readout_refuses_another_primary(tmp_path, capsys):
    plan_path = str(tmp_path / "plan.json")
    plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.13)).save(plan_path)
    path = _write(tmp_path / "t.csv", {"arm": ["champion", "challenger"] * 5,
                                       "conversion": [0, 1] * 5})
    assert main(["readout", path, "--plan", plan_path, "--arm", "arm",
                 "--primary", "revenue"]) == 2
    assert "not the plan's primary metric" in capsys.readouterr().err
    assert main(["readout", path, "--plan", plan_path, "--arm", "arm",
                 "--champion-label", "old"]) == 2
    assert "--champion-label" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["shadow", "plan", "readout"])
def test_help(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "Example:" in out and f"chimeraboost {command}" in out


def test_groups_time_and_design_effect_reach_the_library(tmp_path, capsys):
    rng = np.random.default_rng(2)
    user = np.repeat(np.arange(60), 5)
    u = np.repeat(rng.normal(size=60), 5)
    p0 = np.round(1 / (1 + np.exp(-(u + 0.3 * rng.normal(size=300)))), 6)
    p1 = np.round(np.clip(p0 + rng.normal(0, 0.1, 300), 0, 1), 6)
    minute = np.arange(300) // 10
    path = _write(tmp_path / "live.csv", {"p_old": p0, "p_new": p1, "user": user,
                                          "minute": minute})
    for flag, kw in (("--groups", {"groups": user.astype(str)}), ("--time", {"time": minute})):
        col = "user" if flag == "--groups" else "minute"
        assert main(["shadow", path, "--champion", "p_old", "--challenger", "p_new",
                     "--threshold", "0.5", "--n-boot", "1000", flag, col, "--json"]) == 0
        got = json.loads(capsys.readouterr().out)
        r = shadow_report(p0, p1, threshold=0.5, n_boot=1000, random_state=0, **kw)
        assert got["intervals"]["flip_rate"] == pytest.approx(list(r.intervals["flip_rate"]))
        assert got["resampled"] == r.resampled != "rows"

    plan_path = str(tmp_path / "plan.json")
    assert main(["plan", "--metric", "conversion", "--kind", "proportion", "--champion", "0.10",
                 "--challenger", "0.13", "--design-effect", "1.5", "--out", plan_path]) == 0
    capsys.readouterr()
    plan = ABTestPlan.load(plan_path)
    assert plan == plan_ab_test(ab_metric("conversion", "proportion", 0.10, 0.13),
                                design_effect=1.5)
    m = 600
    arm = np.where(np.arange(m) % 2, "B", "A")
    who = np.arange(m) // 6 * 2 + (np.arange(m) % 2)  # 3 rows per user, each user in one arm
    conv = (rng.random(m) < 0.12).astype(int)
    test = _write(tmp_path / "test.csv", {"variant": arm, "user": who, "converted": conv})
    assert main(["readout", test, "--plan", plan_path, "--arm", "variant", "--groups", "user",
                 "--champion-label", "A", "--challenger-label", "B",
                 "--column", "conversion=converted", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    a, b = arm == "A", arm == "B"
    r = read_ab_test(plan, {"conversion": conv[a]}, {"conversion": conv[b]},
                     groups_champion=who[a], groups_challenger=who[b])
    assert got["metrics"][0]["se"] == pytest.approx(r.primary["se"], rel=1e-12)
    assert got["groups"] == {"challenger": 100, "champion": 100}
