"""The imports between the modules of one of our packages, read from their
source (nothing is imported), for the tests that keep layers apart."""

from __future__ import annotations

import ast
from pathlib import Path


def imports(package: Path) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of it that it imports: at
    its top, inside a function or for type checking only (each of which only
    hides a cycle). ``from a import b`` names the module ``a.b`` where there
    is one, else ``a``; relative imports are read from where they stand."""
    modules = {_name(package, path): path for path in package.rglob("*.py")}
    found: dict[str, set[str]] = {}
    for name, path in modules.items():
        named: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = _absolute(name, path, node)
                named |= {f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                          for alias in node.names}
            elif isinstance(node, ast.Import):
                named |= {alias.name for alias in node.names}
        found[name] = {other for other in named if other in modules and other != name}
    return found


def in_cycles(graph: dict[str, set[str]]) -> list[str]:
    """The modules that import, directly or through others, one that imports them back."""

    def reaches(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for other in graph[todo.pop()] - seen:
                seen.add(other)
                todo.append(other)
        return seen

    return [name for name in sorted(graph) if name in reaches(name)]


def _name(package: Path, path: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The module an ``from ... import`` takes its names from, in full."""
    if not node.level:
        return node.module or ""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    base = package[:len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])
