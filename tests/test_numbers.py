"""The one parse of a finite number (``tools.errors.number``) and the one check of a positive number
(``tools.errors.positive``), as the pattern families, supports and loads, and the command line use them: a
non-number, NaN, infinity, zero or a negative length is one error naming the argument, never a traceback."""
import subprocess
import sys

import pytest

from chrono_origami.patterns import kresling, linkage, miura, yoshimura
from chrono_origami.structure import boundary
from chrono_origami.tools.errors import OrigamiError, PatternError, number, positive

BAD = ["x", None, [1.0], float("nan"), float("inf"), 0.0, -1.0]


def test_positive_and_number_say_what_and_return_a_float():
    assert positive("side", "2.5") == 2.5 and isinstance(positive("side", 3), float)
    assert number(" -4 ", "never") == -4.0
    with pytest.raises(OrigamiError, match=r"^side must be a positive length, got 0$"):
        positive("side", 0, noun="length")
    with pytest.raises(PatternError, match=r"^dt must be a positive number of seconds, got 'x'$"):
        positive("dt", "x", PatternError, "seconds")
    with pytest.raises(ValueError, match=r"^must be a positive number, got nan$"):
        positive(None, float("nan"), ValueError)
    for bad in ("nan", "-inf", "1,2", None, "", [2.0, 3.0]):
        with pytest.raises(OrigamiError, match="^not a finite number$"):
            number(bad, "not a finite number")


@pytest.mark.parametrize("bad", BAD, ids=repr)
@pytest.mark.parametrize("call, message", [
    (lambda x: kresling.kresling_pattern(height=x), "height must be a positive length, got "),
    (lambda x: kresling.kresling_module(diameter=x), "diameter must be a positive length, got "),
    (lambda x: yoshimura.wedge_pattern(long_side=x), "long_side must be a positive length, got "),
    (lambda x: miura.miura_cantilever(6, short_base=x), "the trapezoid short_base must be a positive length, got "),
    (lambda x: miura.miura_patch(3, 3, a=x), "the segment length a must be a positive length, got "),
    (lambda x: linkage.six_body_linkage(side=x), "side must be a positive length, got "),
], ids=["kresling height", "kresling diameter", "yoshimura long_side", "miura trapezoid", "miura segment",
        "linkage side"])
def test_each_pattern_family_refuses_a_length_that_is_not_positive_in_one_line(call, message, bad):
    with pytest.raises(PatternError) as e:
        call(bad)
    assert str(e.value) == message + repr(bad)


@pytest.mark.parametrize("text", ["5:a,0,0", "5:0,nan,0", "5:0,0,-inf"])
def test_a_load_force_that_is_not_a_finite_number_is_named(text):
    s = text.split(":")[1]
    bad = [x for x in s.split(",") if x not in ("0",)][0]
    with pytest.raises(boundary.BoundaryError) as e:
        boundary.parse_force(s, f"load {text!r}")
    assert str(e.value) == f"load {text!r}: the force must be three finite numbers, got {bad!r} in {s!r}"


def test_a_selector_bound_that_is_not_a_finite_number_is_named():
    pat = miura.miura_pattern(2, 2)
    with pytest.raises(boundary.BoundaryError, match=r"selector 'x=nan': 'nan' is not a finite number"):
        boundary.select(pat, "x=nan")


@pytest.mark.parametrize("value", ["-1", "0", "nan", "x"])
def test_the_command_line_says_a_positive_number_in_the_same_words(value, tmp_path):
    r = subprocess.run([sys.executable, "-m", "chrono_origami", "check", str(tmp_path / "any.fold"), "--max-move", value],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"error: argument --max-move: must be a positive number, got {value!r}")
    assert r.stderr.count("\n") == 1
