"""Every HTML repr of chimeraboost, laid out by a real browser and measured.

Headless Chromium (Debian's ``chromium`` package) renders one page holding every result in
four hosts and a script on the page measures the layout; ``--dump-dom`` hands the
measurements back. The hosts:

- ``plain``: a bare page at the browser's defaults (16 px text), 1,000 px wide;
- ``notebook``: a 1,000 px output area whose style sheet sets what notebook front ends set on
  every table -- fixed table layout, centred tables, right-aligned cells that may wrap, 12 px
  text, striped rows;
- ``dark``: a dark theme (light text on a dark background, 13 px), 800 px wide, as in VS Code;
- ``narrow``: 420 px, narrower than the widest tables;
- ``notebook without style sheet``: the notebook host, the output's style sheet out of reach
  (a front end that drops ``<style>``, as an untrusted notebook does).

Checked in each: no number (nor interval) is broken over two lines; numbers are right-aligned
in their cells; a cell of words that wraps is not squeezed to a sliver; nothing sticks out of
the host (a table wider than it scrolls inside its own block); in the notebook host every table
fits its 1,000 px; our tables keep automatic layout and sit on the left edge whatever the host
says; text and rules take the host's colour (nothing hard-codes black on white); labels are
escaped (a model called ``<b>x</b>`` makes no ``<b>`` element); and the style sheet stays
scoped -- the host's own table and paragraph beside ours keep the host's look. Without the
style sheet only what is written on the cells is asked for: numbers unbroken and
right-aligned, words left-aligned and not squeezed.

Without Chromium on the machine the browser test is skipped, saying so; the test that every
class with a ``_repr_html_`` has a sample here runs everywhere.
"""

import html
import importlib
import inspect
import json
import pkgutil
import re
import shutil
import subprocess
import warnings

import numpy as np
import pytest

import chimeraboost

# Every test here fits the models of its samples or drives a browser: slow (README).
pytestmark = pytest.mark.slow

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser",
                                               "google-chrome")) if p), None)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Chromium to lay out the HTML (Debian: apt-get install "
    "chromium); the HTML is checked in a real browser or not at all")

HOSTS = {
    "plain": "width:1000px",
    "notebook": "width:1000px",
    "dark": "width:800px;font-size:13px;color:rgb(212, 212, 212);background:rgb(30, 30, 30)",
    "narrow": "width:420px",
    # A front end that keeps the markup but drops the style sheet (an untrusted notebook):
    # the output's class is renamed so that no sheet on the page reaches it.
    "notebook without style sheet": "width:1000px",
}
STRIPPED = "notebook without style sheet"
# What a notebook front end sets on every table of an output (written for this test).
NOTEBOOK_CSS = """
.host-notebook { font-size: 13px; }
.host-notebook table { table-layout: fixed; margin-left: auto; margin-right: auto;
  border-collapse: collapse; border: none; font-size: 12px; }
.host-notebook th, .host-notebook td { text-align: right; vertical-align: middle;
  padding: 0.5em; white-space: normal; max-width: none; border: none; }
.host-notebook tbody tr:nth-child(odd) { background: rgb(245, 245, 245); }
"""


# --------------------------------------------------------------------------- the results


def _classifier_data(n=240, seed=0):
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=2 * n, n_features=5, random_state=seed)
    return X[:n], y[:n], X[n:], y[n:]


def _report():
    from sklearn.linear_model import LogisticRegression

    X, y, Xt, yt = _classifier_data()
    model = LogisticRegression().fit(X, y)
    weak = LogisticRegression(C=0.001).fit(X, y)
    return chimeraboost.report(model, Xt, yt, baseline=weak, ci=0.95, n_boot=1000,
                               random_state=0, name="<b>model</b>")


def _report_without_probabilities():
    from sklearn.svm import LinearSVC

    X, y, Xt, yt = _classifier_data()
    return chimeraboost.report(LinearSVC().fit(X, y), Xt, yt)


def _report_multiclass():
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression

    X, y = make_classification(n_samples=300, n_features=5, n_informative=3, n_classes=3,
                               random_state=0)
    labels = np.array(["ant", "bee", "cat"])[y]
    return chimeraboost.report(LogisticRegression().fit(X, labels), X, labels)


def _report_regression():
    from sklearn.linear_model import LinearRegression

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = 1e4 * (X @ [1.0, 2.0, 0.5]) + rng.normal(0, 3e3, 300)  # numbers of many digits
    return chimeraboost.report(LinearRegression().fit(X[:150], y[:150]), X[150:], y[150:],
                               baseline=y[:150], ci=0.95, n_boot=1000, random_state=0)


def _report_quantile():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 2))
    y = X[:, 0] + rng.normal(size=300)
    model = chimeraboost.ChimeraBoostQuantileRegressor(quantiles=[0.1, 0.5, 0.9], max_iter=20,
                                                       random_state=0).fit(X[:150], y[:150])
    return chimeraboost.report(model, X[150:], y[150:], ci=0.9, n_boot=1000, random_state=0)


def _holdout_table():
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression

    X, y, Xt, yt = _classifier_data()
    rule = (Xt[:, 0] > 0).astype(int)
    models = {"prior": DummyClassifier().fit(X, y), "<b>rule</b>": rule,
              "logistic regression": LogisticRegression().fit(X, y)}
    return chimeraboost.compare.holdout_table(models, Xt, yt, n_boot=1000, random_state=0)


def _comparison_result():
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression

    X, y, _, _ = _classifier_data()
    return chimeraboost.compare.compare_cv(
        {"<b>dummy</b>": DummyClassifier(), "logreg": LogisticRegression()}, X, y,
        scoring="roc_auc", cv=3, random_state=0)


def _holdout_comparison():
    from sklearn.linear_model import LogisticRegression

    X, y, Xt, yt = _classifier_data()
    return chimeraboost.compare.compare_holdout(
        LogisticRegression(C=0.001).fit(X, y), LogisticRegression().fit(X, y), Xt, yt,
        n_boot=1000, random_state=0)


def _dataset_comparison():
    rng = np.random.default_rng(2)
    scores = rng.normal(size=(10, 5)) + np.arange(5)
    return chimeraboost.compare.compare_datasets(
        scores, models=["<b>a</b>", "b", "c", "a longer model name", "e"])


def _skill_over_time():
    rng = np.random.default_rng(3)
    n = 600
    when = np.datetime64("2024-01-01") + rng.integers(0, 150, n).astype("timedelta64[D]")
    p = rng.uniform(0.05, 0.6, n)
    y = rng.random(n) < p
    return chimeraboost.monitor.skill_over_time(y, p, when, ci=0.95, n_boot=1000,
                                                random_state=0)


def _decision_report():
    rng = np.random.default_rng(4)
    p = rng.uniform(0.02, 0.9, 500)
    y = rng.random(500) < p
    rule = (p > 0.5).astype(int)
    return chimeraboost.decisions.decision_report(
        y, p, baseline_proba=rule, threshold=0.2, cost_fp=1.0, cost_fn=4.0,
        name="<b>model</b>", baseline_name="rule in production", n_boot=1000, random_state=0)


def _report_with_a_decision():
    from sklearn.linear_model import LogisticRegression

    X, y, Xt, yt = _classifier_data()
    return chimeraboost.report(LogisticRegression().fit(X, y), Xt, yt, threshold=0.3,
                               ci=0.95, n_boot=1000, random_state=0)


def _slice_report():
    rng = np.random.default_rng(5)
    n = 900
    region = rng.choice(["north", "<b>south</b>", "east", "west"], n)
    y = rng.integers(0, 2, n)
    p = np.clip(0.5 + 0.3 * (y - 0.5) + rng.normal(0, 0.1, n), 0.01, 0.99)
    p[region == "west"] = rng.uniform(0.05, 0.95, (region == "west").sum())
    return chimeraboost.slices.slice_report(y, p, region, baseline=np.clip(p + 0.05, 0, 1),
                                            n_boot=1000, random_state=0, name="<b>model</b>")


SAMPLES = {
    "report": _report,
    "report with a decision": _report_with_a_decision,
    "decision_report": _decision_report,
    "report without probabilities": _report_without_probabilities,
    "report multiclass": _report_multiclass,
    "report regression": _report_regression,
    "report quantile": _report_quantile,
    "holdout_table": _holdout_table,
    "compare_cv": _comparison_result,
    "compare_holdout": _holdout_comparison,
    "compare_datasets": _dataset_comparison,
    "skill_over_time": _skill_over_time,
    "slice_report": _slice_report,
}


def _classes_with_html():
    """Every class of the package that defines ``_repr_html_`` itself."""
    found = set()
    for info in pkgutil.walk_packages(chimeraboost.__path__, "chimeraboost."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__.startswith("chimeraboost") and "_repr_html_" in vars(cls):
                found.add(cls)
    return found


@pytest.fixture(scope="module")
def results():
    with warnings.catch_warnings():
        # The samples are small on purpose; what they warn about is not what is tested.
        warnings.simplefilter("ignore")
        return {name: make() for name, make in SAMPLES.items()}


def test_every_html_repr_has_a_sample(results):
    shown = {type(r) for r in results.values()}
    missing = sorted(c.__qualname__ for c in _classes_with_html() - shown)
    assert not missing, f"add a sample of {missing} to SAMPLES: every HTML repr is checked"


# --------------------------------------------------------------------------- the browser


MEASURE = r"""
(function () {
  const out = {};
  const near = (a, b, tol) => Math.abs(a - b) <= tol;
  function lines(node) {  // the distinct line tops of a text node
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top)));
  }
  function rightEdge(node) {
    const range = document.createRange();
    range.selectNodeContents(node);
    return Math.max(...[...range.getClientRects()].map(r => r.right));
  }
  for (const host of document.querySelectorAll('.host')) {
    const hostColor = getComputedStyle(host).color;
    for (const sample of host.querySelectorAll(':scope > .sample')) {
      const fails = [];
      let numbers = 0;
      const stripped = host.classList.contains('stripped');
      const root = sample.querySelector(stripped ? 'div.cb-stripped' : 'div.cb-html');
      const key = sample.dataset.name + ' @ ' + host.dataset.host;
      if (!root || (!stripped && !root.querySelector('style'))) {
        out[key] = {fails: ['no div.cb-html with its style sheet'], numbers: 0};
        continue;
      }
      for (const cell of root.querySelectorAll('td.cb-n, td.cb-ci, span.cb-ci')) {
        const style = getComputedStyle(cell.closest('td'));
        const contentRight = cell.closest('td').getBoundingClientRect().right
          - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
        for (const node of [...cell.childNodes, ...cell.querySelectorAll('span')]) {
          const text = node.nodeType === 3 ? node : node.firstChild;
          if (!text || text.nodeType !== 3 || !text.textContent.trim()) continue;
          numbers += 1;
          if (lines(text).size > 1) fails.push('number broken over lines: ' + text.textContent);
          if (cell.tagName === 'TD' && !near(rightEdge(text), contentRight, 1.5))
            fails.push('number not right-aligned: ' + text.textContent);
        }
      }
      for (const cell of root.querySelectorAll('td:not(.cb-n):not(.cb-ci)')) {
        const text = cell.firstChild;
        if (getComputedStyle(cell).textAlign !== 'left')
          fails.push('text cell not left-aligned: ' + cell.textContent);
        if (text && text.nodeType === 3 && lines(text).size > 1
            && cell.getBoundingClientRect().width
               < 10 * parseFloat(getComputedStyle(cell).fontSize))
          fails.push('words squeezed into a narrow column: ' + cell.textContent);
      }
      for (const table of stripped ? [] : root.querySelectorAll('table')) {
        const style = getComputedStyle(table);
        if (style.tableLayout !== 'auto') fails.push('table layout ' + style.tableLayout);
        if (!near(table.getBoundingClientRect().left, root.getBoundingClientRect().left, 1))
          fails.push('table not on the left edge');
        if (host.dataset.host === 'notebook' && table.offsetWidth > root.clientWidth + 1)
          fails.push('table ' + table.offsetWidth + ' px wide in a ' + root.clientWidth
                     + ' px output');
      }
      if (!stripped && sample.scrollWidth > sample.clientWidth + 1)
        fails.push('sticks out of the host by ' + (sample.scrollWidth - sample.clientWidth)
                   + ' px');
      for (const el of root.querySelectorAll('td, th, p, h4, caption'))
        if (getComputedStyle(el).color !== hostColor) {
          fails.push('colour ' + getComputedStyle(el).color + ' on ' + el.tagName);
          break;
        }
      const rule = root.querySelector('thead th');
      if (!stripped && rule && getComputedStyle(rule).borderBottomColor !== hostColor)
        fails.push('rule colour ' + getComputedStyle(rule).borderBottomColor);
      if (root.querySelector('b, i, script'))
        fails.push('markup from a label: ' + root.querySelector('b, i, script').outerHTML);
      out[key] = {fails: fails, numbers: numbers, scrolls: root.scrollWidth > root.clientWidth};
    }
    // The host's own table and paragraph, after ours, keep the host's look.
    const probe = host.querySelector(':scope > .probe');
    if (!probe) continue;
    const td = getComputedStyle(probe.querySelector('td'));
    const th = getComputedStyle(probe.querySelector('th'));
    out['probe @ ' + host.dataset.host] = {
      td_padding: td.paddingLeft, td_align: td.textAlign, td_wrap: td.whiteSpace,
      th_weight: th.fontWeight, th_border: th.borderBottomStyle,
      collapse: getComputedStyle(probe.querySelector('table')).borderCollapse,
      layout: getComputedStyle(probe.querySelector('table')).tableLayout,
      p_margin: getComputedStyle(probe.querySelector('p')).marginTop,
    };
  }
  const pre = document.createElement('pre');
  pre.id = 'cb-result';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
"""


def _stripped(text: str) -> str:
    """The output as a front end that drops ``<style>`` shows it."""
    text = re.sub(r"<style>.*?</style>", "", text, flags=re.S)
    return text.replace('class="cb-html"', 'class="cb-stripped"')


def _page(results) -> str:
    hosts = []
    for host, style in HOSTS.items():
        show = _stripped if host == STRIPPED else str
        samples = "".join(f'<div class="sample" data-name="{html.escape(name)}">'
                          f"{show(r._repr_html_())}</div>" for name, r in results.items())
        probe = ('<div class="probe"><table><thead><tr><th>host</th></tr></thead><tbody><tr>'
                 "<td>1.5</td></tr></tbody></table><p>a paragraph of the host</p></div>")
        look = "notebook stripped" if host == STRIPPED else host
        hosts.append(f'<div class="host host-{look}" data-host="{host}" style="{style}">'
                     f"{samples}{probe if host != STRIPPED else ''}</div>")
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><style>"
            f"body{{margin:8px;font-family:sans-serif}}{NOTEBOOK_CSS}</style></head><body>"
            f"{''.join(hosts)}<script>{MEASURE}</script></body></html>")


@pytest.fixture(scope="module")
def measured(results, tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser")
    page = folder / "page.html"
    page.write_text(_page(results), encoding="utf-8")
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync",
               f"--user-data-dir={folder / 'profile'}", "--window-size=1100,900",
               "--dump-dom", page.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    found = re.search(r'<pre id="cb-result">(.*?)</pre>', done.stdout, flags=re.S)
    assert found, f"Chromium gave no measurements (exit {done.returncode}): {done.stderr[-2000:]}"
    return json.loads(html.unescape(found.group(1)))


@needs_chromium
@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("host", HOSTS)
def test_layout_in_the_browser(measured, name, host):
    seen = measured[f"{name} @ {host}"]
    assert seen["fails"] == []
    assert seen["numbers"] >= 5  # the checks above looked at numbers


@needs_chromium
def test_wide_tables_scroll_inside_their_block_only_where_the_host_is_narrow(measured):
    scrolls = {key for key, seen in measured.items() if seen.get("scrolls")}
    assert not {key for key in scrolls if key.endswith(("@ notebook", "@ dark"))}
    assert "holdout_table @ narrow" in scrolls  # and there it scrolls, not spills


@needs_chromium
def test_the_style_sheet_is_scoped_to_chimeraboost_output(measured):
    # The host's rules still hold for its own table (12 px text: 0.5em is 6 px), and the
    # browser's defaults for a plain page's table and paragraph are untouched.
    assert measured["probe @ notebook"] == {
        "td_padding": "6px", "td_align": "right", "td_wrap": "normal", "th_weight": "700",
        "th_border": "none", "collapse": "collapse", "layout": "fixed", "p_margin": "13px"}
    assert measured["probe @ plain"] == {
        "td_padding": "1px", "td_align": "start", "td_wrap": "normal", "th_weight": "700",
        "th_border": "none", "collapse": "separate", "layout": "auto", "p_margin": "16px"}
