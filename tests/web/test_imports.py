"""The package's import structure, read from its source: no module takes
another's private (underscore) names, and a private module serves its own
package alone (what the services share is in services/_common.py); no web
blueprint imports another (what pages share lives in modules of its own,
such as web/presenters/); the services import nothing of the layers above
them (backup, demo, forms, web)."""

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def package_of(name: str) -> str:
    return name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]


def imports(name: str) -> list[tuple[str, str | None, int]]:
    """What module ``name`` imports from the package: (module, name taken
    from it or None, line), relative imports resolved; ``from . import x``
    of a submodule x names the submodule."""
    found = []
    for node in ast.walk(ast.parse(MODULES[name].read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, None, node.lineno) for alias in node.names
                      if alias.name in MODULES]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package_of(name).split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base not in MODULES:
                continue
            for alias in node.names:
                if f"{base}.{alias.name}" in MODULES:
                    found.append((f"{base}.{alias.name}", None, node.lineno))
                else:
                    found.append((base, alias.name, node.lineno))
    return found


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def attribute_uses(name: str) -> list[tuple[str, str, int]]:
    """``module._name`` uses in ``name`` of a module it imported: (module, attribute, line)."""
    tree = ast.parse(MODULES[name].read_text())
    modules = {module.rpartition(".")[2]: module
               for module, taken, _ in imports(name) if taken is None}
    bound = {alias.asname or alias.name: modules[alias.name.rpartition(".")[2]]
             for node in ast.walk(tree) if isinstance(node, ast.ImportFrom | ast.Import)
             for alias in node.names if alias.name.rpartition(".")[2] in modules}
    return [(bound[node.value.id], node.attr, node.lineno) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id in bound and private(node.attr)]


def test_the_package_is_read_whole():
    assert {"scorekeeper.services.protocol", "scorekeeper.services._common",
            "scorekeeper.web.rounds", "scorekeeper.web.presenters.changes"} <= set(MODULES)
    assert ("scorekeeper.services._common", "check_open", 0) in [
        (module, taken, 0) for module, taken, _ in imports("scorekeeper.services.rounds")]


def test_no_module_takes_another_modules_private_names():
    taken = [(name, module, what, line) for name in MODULES
             for module, what, line in imports(name) + attribute_uses(name)
             if what is not None and private(what) and module != name]
    assert taken == []


def test_a_private_module_serves_its_own_package_alone():
    outside = [(name, module, line) for name in MODULES for module, _, line in imports(name)
               if private(module.rpartition(".")[2]) and package_of(module) != package_of(name)]
    assert outside == []


def is_blueprint(name: str) -> bool:
    return name.startswith("scorekeeper.web.") and any(
        isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Blueprint"
        for node in ast.walk(ast.parse(MODULES[name].read_text())))


BLUEPRINTS = sorted(name for name in MODULES if is_blueprint(name))


def test_the_blueprints_are_found():
    assert {"scorekeeper.web.rounds", "scorekeeper.web.sessions", "scorekeeper.web.changes",
            "scorekeeper.web.history", "scorekeeper.web.share"} <= set(BLUEPRINTS)


def test_no_blueprint_imports_another():
    assert [(name, module, line) for name in BLUEPRINTS for module, _, line in imports(name)
            if module in BLUEPRINTS and module != name] == []


ABOVE_THE_SERVICES = ("scorekeeper.backup", "scorekeeper.demo", "scorekeeper.forms",
                      "scorekeeper.web", "scorekeeper.cli", "scorekeeper.app")


def test_the_services_import_nothing_above_them():
    services = [name for name in MODULES if name.startswith("scorekeeper.services")]
    assert [(name, module, line) for name in services for module, _, line in imports(name)
            if module.startswith(ABOVE_THE_SERVICES)] == []


def outside_imports(name: str) -> set[str]:
    """The top-level names of the packages outside ours that ``name`` imports."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.partition(".")[0])
    return found - {"scorekeeper"}


def test_the_rules_engine_imports_the_standard_library_alone():
    """No Flask, no Babel, no language: the engine reports codes with values.
    Its command for people (python -m scorekeeper.rules) is no part of it: it
    says what the engine refuses in the web layer's words."""
    engine = [name for name in MODULES if name.startswith("scorekeeper.rules")
              and name != "scorekeeper.rules.__main__"]
    assert len(engine) > 10
    assert {name: outside_imports(name) - sys.stdlib_module_names for name in engine} == {
        name: set() for name in engine}
    assert [(name, module) for name in engine for module, _, _ in imports(name)
            if not module.startswith("scorekeeper.rules")] == []


def test_the_charts_draw_with_no_flask_nor_database():
    """scorekeeper/charts is handed words, links and figures: it imports
    nothing of the app and no Flask, Babel or SQLAlchemy."""
    charts = [name for name in MODULES if name.startswith("scorekeeper.charts")]
    assert len(charts) >= 4
    assert [(name, module) for name in charts for module, _, _ in imports(name)
            if not module.startswith("scorekeeper.charts")] == []
    outside = set().union(*(outside_imports(name) for name in charts))
    assert outside & {"flask", "flask_babel", "sqlalchemy", "babel", "werkzeug"} == set()
    assert {"markupsafe", "PIL"} <= outside
