"""The conformance runner's input: JSON read at any depth and with numbers of any length (the
deep reader against json.loads on random texts), and the command line on stdin that is not
JSON, not UTF-8, or JSON that is no scenario: a message and exit 2, or an answer, never a
traceback."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.conformance import _int as whole_number
from engine.conformance import _loads_deep as loads_deep
from engine.conformance import answer, load_json

HERE = Path(__file__).parent
FIXTURES = HERE / "conformance"
ROOT = HERE.parent.parent


def read(text: str) -> Any:
    """A JSON text as the runner reads it."""
    return load_json(text)


# --- reading JSON ----------------------------------------------------------------------------
ATOMS = ["0", "-0", "12", "1.5", "-2e3", "1E+2", "true", "false", "null", "NaN", "Infinity",
         "-Infinity", '"a"', '"\\u00e9\\n"', '""', '"\\"q"', "1" * 500]
BREAKS = ["01", "+1", "1.", ".5", "tru", "nul", '"\x01"', "'a'", "[1,]", '{"a":1,}', '{"a"}',
          "{1:2}", "[", "]", "{", "}", ",", ":", '"\\x"', "-", "1 2", "[1 2]", '{"a" 1}', '"ab']


def json_text(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 6 or roll < 0.3:
        return rng.choice(ATOMS)

    def space() -> str:
        return rng.choice(["", " ", "\n", "\t", " \r\n "])

    if roll < 0.65:
        items = [json_text(rng, depth + 1) for _ in range(rng.randint(0, 4))]
        return "[" + space() + ("," + space()).join(items) + space() + "]"
    pairs = [f'{space()}"{rng.choice("aab")}"{space()}:{space()}{json_text(rng, depth + 1)}'
             for _ in range(rng.randint(0, 4))]
    return "{" + space() + ",".join(pairs) + space() + "}"


def same(one: Any, other: Any) -> bool:
    if isinstance(one, float) and math.isnan(one):
        return isinstance(other, float) and math.isnan(other)
    if type(one) is not type(other):
        return False
    if isinstance(one, list):
        return len(one) == len(other) and all(map(same, one, other))
    if isinstance(one, dict):
        return list(one) == list(other) and all(same(one[k], other[k]) for k in one)
    return bool(one == other)


def outcome(read: Callable[[str], Any], text: str) -> tuple[str, Any]:
    try:
        return "read", read(text)
    except ValueError:
        return "refused", None


def test_the_deep_reader_reads_what_json_loads_reads() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        text = json_text(rng)
        if rng.random() < 0.4:
            cut = rng.randrange(len(text) + 1)
            text = text[:cut] + rng.choice([*BREAKS, ""]) + text[cut + rng.randint(0, 3):]
        want = outcome(lambda t: json.loads(t, parse_int=whole_number), text)
        got = outcome(loads_deep, text)
        assert want[0] == got[0] and same(want[1], got[1]), text


def test_json_nested_deeper_than_pythons_parser_is_read() -> None:
    deep = "[" * 20_000 + "]" * 20_000
    assert read('{"about": ' + deep + ', "players": 4}')["players"] == 4
    with pytest.raises(ValueError):
        load_json('{"about": ' + deep[:-1] + ', "players": 4}')


def test_a_whole_number_of_thousands_of_digits_is_read_as_one_far_out_of_range() -> None:
    big = read('{"players": ' + "9" * 5000 + ', "seat": -' + "1" * 5000 + "}")
    assert big["players"] == int("9" * 400) and big["seat"] == -int("1" * 400)


# --- the command line ---------------------------------------------------------------------
def run_cli(*args: str, stdin: bytes = b"", env: dict[str, str] | None = None,
            ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "engine.conformance", *args], input=stdin, capture_output=True,
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, timeout=60)


def cli_answers(result: subprocess.CompletedProcess[bytes]) -> list[Any]:
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


PAIR_OUT = (FIXTURES / "pair_out.json").read_bytes()


def test_cli_reads_deep_json_huge_numbers_and_a_byte_order_mark() -> None:
    deep = b"[" * 20_000 + b"]" * 20_000
    scenarios = [
        PAIR_OUT.replace(b'"about":', b'"deep": ' + deep + b', "about":', 1),
        b'{"variant": "pair", "players": ' + b"4" * 5000 + b"}",
        b"\xef\xbb\xbf" + PAIR_OUT,
    ]
    replies = [cli_answers(run_cli(stdin=text))[0] for text in scenarios]
    assert replies[0] == replies[2] == answer(read(PAIR_OUT.decode()))
    assert replies[1]["error"] == {"hand": None, "action": None, "code": "bad_input"}


@pytest.mark.parametrize("text", [b"", b"  \n", b"{", b"[1,]", b"\xff\xfe{}", b'{"a": "\xff"}',
                                  b"\x00", b"{}{}"])
def test_cli_refuses_input_that_is_not_json_with_a_message_not_a_traceback(text: bytes) -> None:
    result = run_cli(stdin=text, env={"LC_ALL": "C"})
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.startswith(b"engine.conformance: ") and b"Traceback" not in result.stderr


def test_cli_answers_json_that_is_no_scenario(tmp_path: Path) -> None:
    paths = []
    for number, text in enumerate(["null", "[]", '"pair"', "1e999", "{}", '{"hands": 3}']):
        paths.append(tmp_path / f"{number}.json")
        paths[-1].write_text(text)
    replies = cli_answers(run_cli(*map(str, paths)))
    assert [reply["error"]["code"] for reply in replies] == ["bad_input"] * 6


def test_cli_whose_reader_stops_reading_ends_without_a_traceback() -> None:
    # `python -m engine.conformance *.json | head -1`: the pipe closes before the answers are
    # all written; the runner stops quietly (exit 1: answers were not delivered).
    scenarios = [str(path) for path in sorted(FIXTURES.glob("*.json"))
                 if not path.name.endswith(".expected.json")] * 20  # more than a pipe holds
    process = subprocess.Popen(
        [sys.executable, "-m", "engine.conformance", *scenarios], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()  # the reader has what it wanted
    errors = process.stderr.read()
    assert process.wait(timeout=60) == 1
    assert json.loads(first)["hands"] is not None
    assert errors == b""
