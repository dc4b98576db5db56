"""The rules engine imports nothing but Python's standard library and itself:
no Flask, SQLAlchemy, WTForms or Babel (STYLE.md; its problems are codes and
values that the web layer words). Read from the source, as importing the
package would bring the app."""

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "scorekeeper" / "rules"


def outside_imports(path: Path) -> list[str]:
    """What the module imports from outside the standard library and the engine."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue  # relative: within the engine (a package of one level)
        found += [name for name in names
                  if name.split(".")[0] not in sys.stdlib_module_names
                  and not (name == "scorekeeper.rules" or name.startswith("scorekeeper.rules."))]
    return found


def test_the_engine_imports_only_the_standard_library_and_itself():
    modules = sorted(ENGINE.glob("*.py"))
    assert len(modules) > 5
    assert {path.name: outside_imports(path) for path in modules} == {
        path.name: [] for path in modules}


def test_the_check_sees_an_outside_import(tmp_path):
    module = tmp_path / "scoring.py"
    module.write_text("import json\nfrom flask import g\nimport sqlalchemy.orm\n"
                      "from scorekeeper.rules.cards import Card\nfrom . import house\n")
    assert outside_imports(module) == ["flask", "sqlalchemy.orm"]
