"""The repository carries its rule book, docs/RULES.md: every citation of it
in the code, the tests and the documents names it by that path, and every
section cited is one the book has."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "docs/RULES.md"
CITED = ("scorekeeper", "tests", "templates", "static", "bench", "docs", "README.md")


def _citing_files():
    for top in CITED:
        path = ROOT / top
        for file in [path] if path.is_file() else path.rglob("*"):
            if file.suffix in {".py", ".md", ".html", ".js"} and file != BOOK:
                yield file


def test_every_citation_of_the_rule_book_names_its_path_and_a_section_it_has():
    sections = set(re.findall(r"^## (\d+)\.", BOOK.read_text(encoding="utf-8"), re.M))
    assert sections == {str(n) for n in range(1, 13)}
    cited = 0
    for file in _citing_files():
        text = file.read_text(encoding="utf-8")
        for match in re.finditer(r"([\w./-]*)RULES\.md((?:[ ,]*(?:section |§)\d+(?:[–-]§?\d+)?)*)",
                                 text):
            where = f"{file.relative_to(ROOT)}: {match.group(0)}"
            assert match.group(1) == "docs/", where
            for number in re.findall(r"\d+", match.group(2)):
                assert number in sections, where
            cited += 1
    assert cited > 30  # the engine, its tests and the README cite it
