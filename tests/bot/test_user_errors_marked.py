"""Every refusal a user reads is in the catalogues: a ``UserError`` raised with a plain string
literal is never extracted (``N_`` marks it), so it stayed English in every language (review:
"You cannot lay that tile now.")."""

from __future__ import annotations

import ast
from pathlib import Path

import bot

BOT = Path(bot.__file__).parent


def test_no_user_error_is_raised_with_an_unmarked_literal() -> None:
    unmarked = []
    for path in sorted(BOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id.endswith("Error") and node.args
                    and isinstance(node.args[0], ast.Constant | ast.JoinedStr)
                    and _user_error(node.func.id)):
                unmarked.append(f"{path.relative_to(BOT)}:{node.lineno}")
    assert unmarked == []


def _user_error(name: str) -> bool:
    from bot import errors

    kind = getattr(errors, name, None)
    return isinstance(kind, type) and issubclass(kind, errors.UserError)
