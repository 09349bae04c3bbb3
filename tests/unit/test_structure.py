"""The codebase's shape, checked: no import cycle, small modules, no private name used across
modules, and a typed public API for the composition layer (STYLE; issue "the composition
layer as a model codebase")."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

SRC = Path(__file__).resolve().parents[2] / "src" / "webresearch"
#: A module over this is an answer, not a question (STYLE).
MAX_MODULE_LINES = 500


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_import_cycle_anywhere() -> None:
    """Function-level (lazy) imports count: a lazy import must not hide a cycle."""
    graph = grimp.build_graph("webresearch", cache_dir=None)
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if imported != module and graph.chain_exists(importer=imported, imported=module):
                cycles.append(f"{module} -> {imported} -> … -> {module}")
    assert cycles == []


def test_no_module_is_over_500_lines() -> None:
    long = {
        str(path.relative_to(SRC)): n
        for path in _modules()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_private_name_is_imported_across_modules() -> None:
    found = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            ours = node.level > 0 or (node.module or "").startswith("webresearch")
            for alias in node.names if ours else ():
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(SRC)}: {node.module}.{alias.name}")
    assert found == []


def _public_attribute(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and not node.target.id.startswith("_")
    )


def _public_annotations(tree: ast.Module) -> list[tuple[str, ast.expr]]:
    """(where, annotation) of every public function, method and class attribute."""
    out: list[tuple[str, ast.expr]] = []

    def function(node: ast.FunctionDef | ast.AsyncFunctionDef, where: str) -> None:
        if node.name.startswith("_") and node.name not in ("__init__", "__call__"):
            return
        args = node.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if arg is not None and arg.annotation is not None:
                out.append((f"{where}{node.name}({arg.arg})", arg.annotation))
        if node.returns is not None:
            out.append((f"{where}{node.name} ->", node.returns))

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function(node, "")
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    function(item, f"{node.name}.")
                elif _public_attribute(item):
                    assert isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                    out.append((f"{node.name}.{item.target.id}", item.annotation))
        elif _public_attribute(node):
            assert isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
            out.append((node.target.id, node.annotation))
    return out


def test_no_any_in_the_public_signatures_of_tools() -> None:
    found = []
    for path in sorted((SRC / "tools").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for where, annotation in _public_annotations(tree):
            names = {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(annotation) if isinstance(n, ast.Attribute)}
            text = ast.unparse(annotation)
            if "Any" in names or "Any" in text.replace("'", " ").replace('"', " ").split():
                found.append(f"{path.name}: {where}: {text}")
    assert found == []
