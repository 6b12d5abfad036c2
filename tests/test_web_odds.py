"""The odds page: a dice expression, two compared, and a resolver with its inputs, drawn as
an SVG bar chart and listed in a table with the numbers `quartermaster odds` and
`quartermaster resolve --odds` print; each refusal in the command line's words, at 400,
with what was typed kept. One walk in a real browser, where choosing a rule shows its
inputs at once."""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

import pytest
from starlette.testclient import TestClient

from generator.app.resolving import find_resolvers
from generator.app.saved import open_store
from generator.web.odds import MAX_SHOWN, QUESTION, dice_chart
from generator.web.server import create_app
from tests.conftest import run
from tests.web import shot

BASE = "http://127.0.0.1:8765"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    store = open_store(tmp_path_factory.mktemp("odds"))
    return TestClient(create_app(store), base_url=BASE)


def page(client: TestClient, status: int = 200, **query: str) -> str:
    answer = client.get("/odds?" + urlencode(query))
    assert answer.status_code == status, answer.text
    return answer.text


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def table_rows(text: str, caption: str) -> dict[str, tuple[str, ...]]:
    """Return the rows of the table captioned `caption`: first cell -> the other cells."""
    start = text.index(f"<caption>{html.escape(caption)}</caption>")
    body = text[start : text.index("</table>", start)]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
        cells = [html.unescape(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
        rows[cells[0]] = tuple(cells[1:])
    return rows


def bars(text: str) -> list[tuple[str, str]]:
    """Return each bar of the page's chart: its series class and its label."""
    found = re.findall(r'<rect [^>]*class="bar (series-\d)"><title>(.*?)</title></rect>', text)
    return [(series, html.unescape(title)) for series, title in found]


def test_a_chart_and_table_of_2d6_hold_what_odds_prints(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    text = page(client, expression="2d6")
    printed = cli_json(capsys, "odds", "2d6")
    rows = table_rows(text, "2d6")
    assert {total: row[0] for total, row in rows.items() if total != "Total"} == printed["outcomes"]
    assert rows["7"] == ("1/6", "16.67%", "58.33%", "58.33%")
    assert rows["2"][2:] == ("100.00%", "2.78%")
    assert f"mean {printed['mean']}," in text
    drawn = bars(text)
    assert len(drawn) == len(printed["outcomes"]) == 11
    assert ("series-0", "2d6: 7, 1/6 (16.67%)") in drawn
    assert 'role="img"' in text
    assert "Bar chart of the chance of each total of 2d6, from 2 to 12" in text
    assert 'width="100%"' in text  # the chart takes the page's width, a phone's too


def test_two_expressions_compared_are_what_odds_vs_prints(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    text = page(client, expression="2d6+1", vs="2d6")
    printed = cli_json(capsys, "odds", "2d6+1", "--vs", "2d6")
    start = text.index('<table class="odds versus"')
    versus = text[start : text.index("</table>", start)]
    for word in ("beats", "ties", "loses"):
        chance = Fraction(printed[word])
        row = re.search(rf"<th scope=\"row\">{word.capitalize()}</th>(.*?)</tr>", versus)
        assert row is not None
        assert f">{printed[word]}<" in row.group(1)
        assert f">{float(chance) * 100:.2f}%<" in row.group(1)
    for side in printed["sides"]:
        rows = table_rows(text, side["expression"])
        assert {t: r[0] for t, r in rows.items() if t != "Total"} == side["outcomes"]
        assert f"<strong>{side['expression']}</strong>: mean {side['mean']}," in text
    drawn = bars(text)
    assert [s for s, _ in drawn].count("series-0") == 11
    assert [s for s, _ in drawn].count("series-1") == 11
    assert ("series-1", "2d6: 12, 1/36 (2.78%)") in drawn
    assert "(solid)" in text and "(hatched)" in text  # told apart by more than colour
    assert 'value="2d6+1"' in text and 'value="2d6"' in text


def test_a_resolver_shows_its_inputs_then_the_odds_resolve_prints(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    chosen = page(client, resolver="duel.attack")
    explained = cli_json(capsys, "resolvers", "duel.attack")
    weapon = next(i for i in explained["inputs"] if i["name"] == "weapon")
    for word in weapon["accepts"].split(" | "):
        assert f'<option value="{html.escape(word)}"' in chosen
    assert "(0 to 30, required)" in chosen  # expertise's range, in words
    assert 'id="result"' not in chosen  # nothing counted until its inputs are sent
    sent = {"expertise": "12", "weapon": "Rapier", "strength": "11", "location": "Head"}
    text = page(client, resolver="duel.attack", chosen="duel.attack", **sent)
    words = [f"{k}={v}" for k, v in sent.items()]
    printed = cli_json(capsys, "resolve", "duel.attack", *words, "--odds")
    rows = table_rows(text, "The chance of each outcome")
    listed = {outcome: row[0] for outcome, row in rows.items() if outcome != "Outcome"}
    assert listed == printed["outcomes"]
    assert list(listed) == list(printed["outcomes"])  # likeliest first, as printed
    assert text.count('class="outcome-label"') == len(printed["outcomes"])
    assert 'value="12"' in text  # the inputs stay as sent


def test_a_rule_without_inputs_is_counted_as_soon_as_it_is_chosen(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    text = page(client, resolver="flob.turn-order")
    printed = cli_json(capsys, "resolve", "flob.turn-order", "--odds")
    rows = table_rows(text, "The chance of each outcome")
    assert {k: r[0] for k, r in rows.items() if k != "Outcome"} == printed["outcomes"]


@pytest.mark.parametrize(
    ("query", "cli", "kept"),
    [
        ({"expression": "2d"}, ["odds", "2d"], 'value="2d" aria-invalid="true"'),
        (
            {"expression": "2d6", "vs": "2x"},
            ["odds", "2d6", "--vs", "2x"],
            'value="2x" aria-invalid',
        ),
        ({"resolver": "nope"}, ["resolve", "nope", "--odds"], "Choose a rule"),
        (
            {"resolver": "duel.attack", "chosen": "duel.attack", "expertise": "abc"},
            ["resolve", "duel.attack", "expertise=abc", "weapon=Rapier", "--odds"],
            'value="abc" inputmode="numeric" required aria-invalid="true"',
        ),
        (
            {"resolver": "duel.attack", "chosen": "duel.attack", "weapon": "Rapier"},
            ["resolve", "duel.attack", "weapon=Rapier", "--odds"],
            '<option value="Rapier" selected>',
        ),
    ],
    ids=["bad-expression", "bad-vs", "unknown-resolver", "bad-input", "missing-input"],
)
def test_a_refusal_is_the_page_again_with_the_command_line_s_words(
    client: TestClient,
    capsys: pytest.CaptureFixture[str],
    query: dict[str, str],
    cli: list[str],
    kept: str,
) -> None:
    text = page(client, 400, **query)
    code, _, err = run(capsys, *cli)
    assert code == 2
    message = err.strip().removeprefix("error: ")
    shown = re.search(r'<div class="problems" role="alert" id="problem"><p>(.*?)</p>', text)
    assert shown is not None
    assert html.unescape(shown.group(1)) == message
    assert kept in text
    assert 'id="result"' not in text


def test_the_api_counts_a_resolver_as_resolve_odds_prints(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = {"expertise": 12, "weapon": "Rapier", "strength": 11, "counterattack": True}
    answer = client.post("/api/resolve/odds", json={"resolver": "duel.attack", "inputs": inputs})
    assert answer.status_code == 200, answer.text
    words = ["expertise=12", "weapon=Rapier", "strength=11", "counterattack=yes"]
    assert answer.json() == cli_json(capsys, "resolve", "duel.attack", *words, "--odds")
    bad = client.post("/api/resolve/odds", json={"resolver": "duel.attack", "inputs": {"x": 1}})
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("duel.attack: unknown input 'x'")
    odd = client.post("/api/resolve/odds", json={"resolver": "duel.attack", "inputs": [1]})
    assert odd.status_code == 400
    assert odd.json() == {"error": 'inputs: an object of NAME: VALUE, e.g. {"attack": 5}'}


def test_more_totals_than_a_page_lists_are_left_to_the_command_line(
    client: TestClient,
) -> None:
    text = page(client, expression=f"1d{MAX_SHOWN + 1}")
    assert "Too many totals to draw or list on a page" in text
    assert "<svg role" not in text and "<table" not in text
    assert f"mean {(MAX_SHOWN + 2) / 2:g}" in text


def test_a_long_run_of_totals_is_labelled_fewer_on_a_phone() -> None:
    chart = dice_chart([("8d6", {total: Fraction(1, 41) for total in range(8, 49)})])
    assert chart is not None
    phone = [t.text for t in chart.ticks if not t.minor]
    assert phone == [str(total) for total in range(10, 49, 5)]  # on round totals
    assert len(chart.ticks) == 41  # a laptop has room for every one
    assert [g.text for g in chart.grid] == ["1%", "2%"]  # round chances below the peak


def test_no_resolver_input_is_named_like_the_page_s_own_words() -> None:
    # a rule's inputs share the page's query with its own words: none may clash
    found = find_resolvers(None)
    clashes = {(r.id, p.name) for r in found.resolvers for p in r.params if p.name in QUESTION}
    assert clashes == set()


# --- in a real browser ---------------------------------------------------------------------


def test_a_gm_compares_dice_and_counts_a_rule_in_the_browser(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    tab = context.new_page()
    tab.goto(server + "/odds")
    tab.fill("input[name=expression]", "2d6+1")
    tab.fill("input[name=vs]", "2d6")
    tab.click("form.odds-dice button")
    assert "55.63%" in tab.inner_text("table.versus")
    assert tab.locator("svg.chart rect.bar").count() == 22
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing wider than a phone
    shot(tab, "odds-vs-390")
    tab.fill("input[name=expression]", "2d")
    tab.click("form.odds-dice button")
    assert "expected the number of sides" in tab.inner_text(".problems")
    assert tab.input_value("input[name=expression]") == "2d"
    # choosing a rule shows its inputs at once (odds.js, deferred: it listens once the page
    # has loaded, which a busy machine may not have done yet), then its odds
    tab.wait_for_load_state()
    tab.select_option("select[name=resolver]", "flob.reloading")
    tab.wait_for_selector("form.odds-inputs")
    tab.click("form.odds-inputs button")
    assert tab.locator("svg.outcomes text.outcome-label").count() >= 2
    assert "The chance of each outcome" in tab.inner_text("#result")
    shot(tab, "odds-resolved-390")
    context.close()
