"""The C preprocessor's conditionals, as far as a map can decide them: which lines of a file
``#if``/``#ifdef``/``#ifndef``/``#elif``/``#else`` compile out.

``regions`` reads one file's directives (nothing else of it) and gives, for every branch
that is not plainly compiled, its line span and the condition under which it is (the
branch's own and those of the branches around it, joined with ``&&``), simplified with
what the file itself and the predefined macros say: ``"0"`` when that decides it is
compiled out, else the rest as a C expression over the macros none of them know
(``defined(SDS_TEST_MAIN)``). ``evaluate`` decides such a condition later, once more is
known (the compile database's ``-D``/``-U`` flags, the macros the project defines).

Values are three-valued: an ``int``, or None for "cannot tell".
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Mapping

__all__ = ["Region", "evaluate", "regions"]

Region = tuple[int, int, str]  # first line, last line (1-based, inclusive), condition
# A macro's value: an int, True (defined, value unknown), False (known undefined).
Macros = Mapping[str, "int | bool"]

_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define|undef)\b(.*)$")
_NAME = re.compile(r"[A-Za-z_]\w*")
_DEFINE = re.compile(r"\s*([A-Za-z_]\w*)(\()?\s*(.*)$")
_INT = re.compile(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*$")
_COMMENT = re.compile(r"/\*.*?\*/|//.*$")
_MAX_DEPTH = 64


def regions(data: bytes, predefined: Macros) -> list[Region]:
    """The conditionally compiled branches of a file (see the module docstring). A branch
    plainly compiled (its condition true) is not listed; one whose directives are broken
    (an ``#endif`` too many, none at the end) ends where the file does. Never raises: a
    file it cannot read through has the branches found before."""
    out: list[Region] = []
    with contextlib.suppress(ValueError, IndexError, RecursionError):
        _regions(data, predefined, out)
    out.sort()
    return out


def _regions(data: bytes, predefined: Macros, out: list[Region]) -> None:
    lines = data.split(b"\n")
    local: dict[str, int | bool] = {}
    # per open #if: (condition of the branch so far, conditions of the earlier branches, start)
    stack: list[tuple[str, list[str], int]] = []

    def known(name: str) -> int | bool | None:
        if name in local:
            return local[name]
        return predefined.get(name)

    number = 0
    count = len(lines)
    while number < count:
        raw = lines[number]
        number += 1
        first = number
        while raw.endswith(b"\\") and number < count:  # continued lines
            raw = raw[:-1] + b" " + lines[number]
            number += 1
        match = _DIRECTIVE.match(raw.rstrip(b"\r"))
        if match is None:
            continue
        word = match.group(1).decode()
        rest = _COMMENT.sub(" ", match.group(2).decode("utf-8", "replace")).strip()
        if word in ("define", "undef"):
            found = _DEFINE.match(rest)
            if word == "define" and found and stack and \
                    stack[-1][0] == f"!defined({found.group(1)})":
                # `#ifndef X` then `#define X`: an include guard, compiled the first time
                stack[-1] = ("1", stack[-1][1], stack[-1][2])
            if not all(_compiled(cond, known) for cond, _, _ in stack):
                continue  # a #define in a branch that may not be compiled decides nothing
            if found:
                name = found.group(1)
                if word == "undef":
                    local[name] = False
                elif found.group(2) is None:
                    value = _INT.match(found.group(3).strip())
                    number_value = _number(value.group(1)) if value else None
                    local[name] = True if number_value is None else number_value
                else:
                    local[name] = True
            continue
        if word in ("if", "ifdef", "ifndef"):
            if len(stack) >= _MAX_DEPTH:
                return
            cond = (f"defined({rest.split()[0]})" if word == "ifdef" and rest.split() else
                    f"!defined({rest.split()[0]})" if word == "ifndef" and rest.split() else
                    rest or "0")
            stack.append((_simplified(cond, known), [], number + 1))
            continue
        if not stack:
            continue  # a stray #elif/#else/#endif
        cond, before, start = stack.pop()
        _close(out, stack, cond, start, first - 1, known)
        if word == "endif":
            continue
        earlier = [*before, cond]
        if word == "else":
            stack.append((_conjunction([f"!({c})" for c in earlier], known), earlier,
                          number + 1))
        else:  # elif
            own = rest or "0"
            stack.append((_conjunction([*(f"!({c})" for c in earlier), own], known), earlier,
                          number + 1))
    while stack:
        cond, _, start = stack.pop()
        _close(out, stack, cond, start, count - data.endswith(b"\n"), known)


def _close(out: list[Region], stack: list[tuple[str, list[str], int]], cond: str, start: int,
           end: int, known: Callable[[str], int | bool | None]) -> None:
    """Record a branch's lines unless it is plainly compiled, under the conditions of the
    branches around it too."""
    if end < start:
        return
    whole = _conjunction([c for c, _, _ in stack] + [cond], known)
    if whole != "1":
        out.append((start, end, whole))


def _compiled(cond: str, known: Callable[[str], int | bool | None]) -> bool:
    return _evaluate(cond, known) is not None and bool(_evaluate(cond, known))


def _conjunction(parts: list[str], known: Callable[[str], int | bool | None]) -> str:
    """``parts`` joined with ``&&``, simplified: "0" if one is false, "1" if all are true,
    else the undecided ones."""
    kept = []
    for part in parts:
        value = _evaluate(part, known)
        if value is None:
            kept.append(part)
        elif not value:
            return "0"
    if not kept:
        return "1"
    return " && ".join(f"({p})" if len(kept) > 1 else p for p in kept)


def _simplified(cond: str, known: Callable[[str], int | bool | None]) -> str:
    value = _evaluate(cond, known)
    if value is None:
        return _substituted(cond, known)
    return "1" if value else "0"


_DEFINED = re.compile(r"\bdefined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))")


def _substituted(cond: str, known: Callable[[str], int | bool | None]) -> str:
    """``cond`` with what is known written in: ``defined(X)`` as 1 or 0, a macro with a
    known value as that value (the rest is decided where more is known)."""
    def defined(match: re.Match[str]) -> str:
        found = known(match.group(1) or match.group(2))
        return match.group(0) if found is None else str(int(found is not False))

    out = []
    for part in re.split(r"(\bdefined\s*(?:\([^)]*\)|[A-Za-z_]\w*))", cond):
        if part.startswith("defined"):
            out.append(_DEFINED.sub(defined, part))
            continue
        out.append(_NAME.sub(lambda m: str(value) if isinstance(
            value := known(m.group(0)), int) and not isinstance(value, bool) else (
            "0" if value is False else m.group(0)), part))
    return " ".join("".join(out).split())


def evaluate(cond: str, macros: Callable[[str], int | bool | None]) -> bool | None:
    """Whether ``cond`` (a C preprocessor expression) holds, given what ``macros`` tells of
    each macro (an int, True: defined with an unknown value, False: undefined, None: cannot
    tell); None when that does not decide it."""
    value = _evaluate(cond, macros)
    return None if value is None else bool(value)


def _evaluate(cond: str, known: Callable[[str], int | bool | None]) -> int | None:
    try:
        parser = _Parser(cond, known)
        value = parser.expression()
        return value if parser.done() else None
    except (_Unknown, IndexError, ValueError, ZeroDivisionError, RecursionError):
        return None


class _Unknown(Exception):
    pass


_TOKEN = re.compile(r"\s*(0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|'[^']*'|[A-Za-z_]\w*|"
                    r"&&|\|\||==|!=|<=|>=|<<|>>|[-+*/%<>!~&|^?:(),])")
_BINARY = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="),
           ("<<", ">>"), ("+", "-"), ("*", "/", "%")]


class _Parser:
    """A precedence-climbing evaluator; None stands for a value it cannot tell, and ``&&``,
    ``||`` and ``?:`` decide what they can without it (``0 && x`` is 0)."""

    def __init__(self, text: str, known: Callable[[str], int | bool | None]) -> None:
        self.tokens: list[str] = []
        position = 0
        text = text.strip()
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None:
                raise ValueError(text[position:])
            self.tokens.append(match.group(1))
            position = match.end()
        self.at = 0
        self.known = known

    def done(self) -> bool:
        return self.at == len(self.tokens)

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def expression(self) -> int | None:
        cond = self.binary(0)
        if self.peek() == "?":
            self.take()
            yes = self.expression()
            if self.take() != ":":
                raise ValueError("?:")
            no = self.expression()
            if cond is None:
                return yes if yes == no else None
            return yes if cond else no
        return cond

    def binary(self, level: int) -> int | None:
        if level == len(_BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in _BINARY[level]:
            op = self.take()
            right = self.binary(level + 1)
            left = _apply(op, left, right)
        return left

    def unary(self) -> int | None:
        token = self.take()
        if token in ("!", "-", "+", "~"):
            value = self.unary()
            if value is None:
                return None
            return {"!": int(not value), "-": -value, "+": value, "~": ~value}[token]
        if token == "(":
            value = self.expression()
            if self.take() != ")":
                raise ValueError(")")
            return value
        if token == "defined":
            paren = self.peek() == "("
            if paren:
                self.take()
            name = self.take()
            if paren and self.take() != ")":
                raise ValueError("defined(")
            found = self.known(name)
            return None if found is None else int(found is not False)
        if token[0].isdigit():
            return _number(token)
        if token.startswith("'"):
            return None
        if _NAME.fullmatch(token):
            if self.peek() == "(":  # a function-like macro (__has_include(…)): unknown
                depth = 0
                while True:
                    part = self.take()
                    depth += part == "("
                    depth -= part == ")"
                    if depth == 0:
                        return None
            found = self.known(token)
            if found is None or found is True:
                return None
            return 0 if found is False else found
        raise ValueError(token)


def _number(text: str) -> int | None:
    """A C integer literal's value (suffixes dropped), None if it is not one."""
    digits = text.rstrip("uUlL")
    try:
        if digits[:2].lower() == "0x":
            return int(digits, 16)
        return int(digits, 8) if len(digits) > 1 and digits[0] == "0" else int(digits)
    except ValueError:
        return None


def _apply(op: str, left: int | None, right: int | None) -> int | None:
    if op == "&&":
        if left == 0 or right == 0:
            return 0
        return None if left is None or right is None else 1
    if op == "||":
        if (left is not None and left != 0) or (right is not None and right != 0):
            return 1
        return None if left is None or right is None else 0
    if left is None or right is None:
        return None
    if op in ("/", "%") and right == 0:
        return None
    return {
        "|": lambda: left | right, "^": lambda: left ^ right, "&": lambda: left & right,
        "==": lambda: int(left == right), "!=": lambda: int(left != right),
        "<": lambda: int(left < right), ">": lambda: int(left > right),
        "<=": lambda: int(left <= right), ">=": lambda: int(left >= right),
        "<<": lambda: left << min(right, 64), ">>": lambda: left >> min(right, 64),
        "+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
        "/": lambda: int(left / right), "%": lambda: left % right,
    }[op]()
