"""A clone of the repository alone is readable: every rule id the code and tests name (``B-07``,
``D-13``) is defined in ``docs/rules.md``, every file a document or docstring points at is in the
repository, and nothing points outside it (the project's shared folder, a sibling checkout)."""

from __future__ import annotations

import re
import subprocess

from tests.paths import ROOT

RULE_ID = re.compile(r"\b[BD]-\d{2}\b")
MADE_UP = {"B-99"}  # tests/engine/core/test_options.py: an option of a rule that does not exist, on purpose
# a path to a file of ours, as docs and docstrings write it: docs/rules.md, engine/deal/rules/payment.py
OUR_PATH = re.compile(r"(?<![\w/.-])((?:docs|engine|bot|render|words|tests|tools|data|scripts)/"
                      r"[\w/.-]*\w\.(?:md|py|json|sh))\b")


def _tracked(*patterns: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True)
    return [f for f in out.stdout.split() if (ROOT / f).exists()]


def _sources() -> list[str]:
    return [f for f in _tracked("*.py", "*.md", "*.js", "*.sh", "Makefile", "Dockerfile", "*.yaml", "*.toml")
            if not f.startswith("docs/seeds/") and f != "tests/test_docs.py"]  # (this file's examples)


def defined_rules() -> set[str]:
    return set(re.findall(r"^\| *([BD]-\d{2}) *\|", (ROOT / "docs" / "rules.md").read_text(encoding="utf-8"), re.M))


def test_every_rule_id_the_code_names_is_defined_in_the_rules_page():
    defined = defined_rules()
    assert len(defined) >= 37  # B-01 … B-19, D-01 … D-18
    cited = {(f, rid) for f in _sources() for rid in RULE_ID.findall((ROOT / f).read_text(encoding="utf-8"))}
    unknown = sorted((f, rid) for f, rid in cited if rid not in defined and rid not in MADE_UP)
    assert unknown == []


def test_nothing_points_outside_the_repository():
    outside = [(f, n + 1, line.strip()) for f in _sources()
               for n, line in enumerate((ROOT / f).read_text(encoding="utf-8").splitlines())
               if re.search(r"\.\./shared|shared/(DESIGN|RULES|STYLE|REFERENCE)|\]\(\.\./", line)]
    assert outside == []


def test_every_file_a_document_or_docstring_names_is_in_the_repository():
    named = {(f, path) for f in _sources() for path in OUR_PATH.findall((ROOT / f).read_text(encoding="utf-8"))}
    missing = sorted((f, path) for f, path in named if not (ROOT / path).exists() and "*" not in path)
    assert missing == []


def test_a_missing_file_or_an_unknown_rule_would_be_found():
    found = OUR_PATH.findall("see docs/nowhere.md and engine/deal/rules.py.")
    assert found == ["docs/nowhere.md", "engine/deal/rules.py"]
    assert RULE_ID.findall("B-07, D-13 and B-7") == ["B-07", "D-13"]
    assert "D-19" not in defined_rules()
