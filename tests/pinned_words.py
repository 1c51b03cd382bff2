"""Count the asserts in tests/ that pin Russian wording (issue #19: measured before and after the
tests were moved to message ids and facts, tests/wording.py).

An ``assert`` statement (its test and its message) counts when it holds a string literal (an
f-string's literal parts too) with at least two Cyrillic words, one of them lower-case: names
(«Аня», «Борис and Вера») and serials («АК2444842») are facts, not wording. A case of a
``pytest.mark.parametrize`` list holding such a sentence (an expected Russian line handed to the
test) counts as one too.

Usage: ``python tests/pinned_words.py [folder]`` — the total, tests/voice's share, the worst files.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from pathlib import Path

WORD = re.compile(r"[А-Яа-яЁё]+")


def sentence(text: str) -> bool:
    """``text`` reads as Russian wording (two Cyrillic words or more, one lower-case)."""
    words = WORD.findall(text)
    return len(words) >= 2 and any(w.islower() for w in words)


def pins(node: ast.AST) -> bool:
    """The assert ``node`` holds a Russian sentence literal."""
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) and sentence(n.value) for n in ast.walk(node))


def cases(node: ast.AST) -> int:
    """The parametrize cases of a decorator ``node`` that hold a Russian sentence."""
    if not (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "parametrize" and len(node.args) > 1):
        return 0
    values = node.args[1]
    return sum(1 for case in values.elts if pins(case)) if isinstance(values, (ast.List, ast.Tuple)) else 0


def count(root: Path) -> Counter:
    """``{file: asserts (and parametrize cases) pinning Russian wording}`` under ``root``."""
    per: Counter = Counter()
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        per[str(path)] = sum(1 for n in ast.walk(tree) if isinstance(n, ast.Assert) and pins(n)) + sum(
            cases(d) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            for d in n.decorator_list)
    return per


if __name__ == "__main__":
    per = count(Path(sys.argv[1] if len(sys.argv) > 1 else "tests"))
    voice = sum(v for k, v in per.items() if "/voice/" in k)
    print(f"total {sum(per.values())}, of which tests/voice {voice}")
    for name, n in per.most_common(25):
        if n:
            print(n, name)
