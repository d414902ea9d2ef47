"""A safe arithmetic evaluator for numeric comparisons: parsed with ``ast``, never ``eval``.

Accepts numbers (``1,234``, ``93.4%``), + - * / // % (modulo) **, parentheses, unary signs,
comparisons (< <= > >= == !=) and the functions abs, min, max, round. Anything else
(names, attributes, calls to other functions, huge powers) is rejected.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable

from papermind.errors import InputError

_MAX_LEN = 300
_MAX_EXPONENT = 64
_MAX_MAGNITUDE = 1e100

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_COMPARE: dict[type[ast.cmpop], Callable[[float, float], bool]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
    ast.Eq: operator.eq, ast.NotEq: operator.ne,
}
_FUNCTIONS: dict[str, Callable[..., float]] = {"abs": abs, "min": min, "max": max, "round": round}
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%(?!\s*[\d.(])")


class CalculatorError(InputError):
    """The expression is not safe arithmetic or cannot be evaluated."""


def normalize(expression: str) -> str:
    """Thousands separators dropped, ``93.4%`` -> ``(93.4/100)`` unless an operand follows
    (then ``%`` is modulo), unicode signs -> ASCII."""
    text = expression.strip().replace("\u2212", "-").replace("\u00d7", "*").replace("\u00f7", "/")
    text = _THOUSANDS.sub("", text)
    return _PERCENT.sub(r"(\1/100)", text)


def evaluate(expression: str) -> float | bool:
    """Value of a safe arithmetic expression; raises CalculatorError otherwise."""
    text = normalize(expression)
    if not text or len(text) > _MAX_LEN:
        raise CalculatorError("expression is empty or too long")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as err:
        raise CalculatorError(f"not an arithmetic expression: {expression!r}") from err
    return _eval(tree.body)


def format_value(value: float | bool) -> str:
    """A compact human form: ``True``, ``0.02``, ``14100``."""
    if isinstance(value, bool):
        return str(value)
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}"


def _eval(node: ast.expr) -> float | bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
            and not isinstance(node.value, bool):
        return _checked(float(node.value))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        value = _number(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _binary(node)
    if isinstance(node, ast.Compare):
        return _compare(node)
    if isinstance(node, ast.Call):
        return _call(node)
    raise CalculatorError(f"not allowed in a calculation: {ast.dump(node)[:60]}")


def _number(node: ast.expr) -> float:
    value = _eval(node)
    if isinstance(value, bool):
        raise CalculatorError("a comparison cannot be used as a number")
    return value


def _binary(node: ast.BinOp) -> float:
    left, right = _number(node.left), _number(node.right)
    if isinstance(node.op, ast.Pow) and abs(right) > _MAX_EXPONENT:
        raise CalculatorError("exponent too large")
    try:
        return _checked(_BINARY[type(node.op)](left, right))
    except ZeroDivisionError as err:
        raise CalculatorError("division by zero") from err
    except OverflowError as err:
        raise CalculatorError("result too large") from err


def _compare(node: ast.Compare) -> bool:
    left = _number(node.left)
    for op, comparator in zip(node.ops, node.comparators, strict=True):
        if type(op) not in _COMPARE:
            raise CalculatorError("only < <= > >= == != comparisons are allowed")
        right = _number(comparator)
        if not _COMPARE[type(op)](left, right):
            return False
        left = right
    return True


def _call(node: ast.Call) -> float:
    if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS or node.keywords:
        raise CalculatorError("only abs, min, max and round may be called")
    args = [_number(arg) for arg in node.args]
    if not args or (node.func.id in ("abs",) and len(args) != 1) or len(args) > 20:
        raise CalculatorError(f"wrong number of arguments to {node.func.id}")
    if node.func.id == "round":
        if len(args) > 2:
            raise CalculatorError("round takes a number and optional digits")
        return _checked(float(round(args[0], int(args[1]) if len(args) == 2 else 0)))
    return _checked(float(_FUNCTIONS[node.func.id](*args)))


def _checked(value: float) -> float:
    if math.isnan(value) or math.isinf(value) or abs(value) > _MAX_MAGNITUDE:
        raise CalculatorError("result is not a finite number of sensible size")
    return value
