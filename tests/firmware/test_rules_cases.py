"""Every legality, capture and board case of tests/data/rules_cases.jsonl."""

from rules_cases import check_case, load_cases
from support import check, data_path


def test_rules_cases():
    failures = []
    cases = load_cases(data_path("rules_cases.jsonl"))
    for case in cases:
        failures.extend(check_case(case))
    check(failures)
    assert len(cases) >= 42
