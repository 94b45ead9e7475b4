"""A sweep with ``engine = "chrono"``: the hinge actions under the loads come from Chrono (its static analysis
for an isostatic design, its assembly on bushing hinges for a hyperstatic one) and equal the reference
engine's; the rest of the row (counts, condition, closed-form statistics) is the reference engine's in both."""
import pytest

from chrono_origami.analysis import sweep as sweeps
from chrono_origami.inputs import sweep as sweepspec


def rows(engine):
    spec = sweepspec.make_spec({"sweep": {"engine": engine},
                                "pattern": [{"family": "kresling", "modules": 2}, {"family": "miura", "columns": 3}],
                                "design": {"designs": ["own"]}, "tolerance": {"tol": 1e-4}})
    return [sweeps.run_case(c) for c in spec.cases]


def test_chrono_sweep_rows_equal_the_reference_rows():
    ref, ch = rows("reference"), rows("chrono")
    assert [r["statics"] for r in ch] == ["rigid", "elastic"]        # the tower isostatic, the door sheet not
    for a, b in zip(ref, ch):
        assert a["error"] is None and b["error"] is None, b["error"]
        assert b["engine"] == "chrono" and a["case_id"] != b["case_id"]
        scale = max(a[f"max_{c}"] for c in sweeps.COMPONENTS)
        for c in sweeps.COMPONENTS:
            assert b[f"max_{c}"] == pytest.approx(a[f"max_{c}"], abs=1e-6 * scale), c
        for k in ("M", "S", "condition", "locked_p99_N", "locked_sd_MO"):
            assert b[k] == a[k], k
