"""Overloads: several callables of one name in one scope (Java, C#, C++, TypeScript's
overload signatures), told apart by what their signatures take.

A signature is read as written (``Builder get(String name, Object... args)``): its outermost
parameter list split at top-level commas. A parameter with ``...`` or ``params`` takes any
number of arguments, one with a default (``= 1``) or an optional mark (``x?: T``) may be left
out. ``fits`` says whether a call with some arguments (their count, and the literal kind of
each where it is one: ``"string"``, ``"number"``, ``"boolean"``, ``"null"``, else None) can
call it; ``parameter_types`` is what two declarations of one callable share (a C++
prototype and its definition), which two overloads do not.
"""

from __future__ import annotations

import re

__all__ = ["Call", "best", "fits", "parameter_types", "parameters"]

# argument count, and what is known of each argument: a literal's kind ("string",
# "number", "boolean", "null"), ``type:Name`` for a variable declared ``Name``, or None
Call = tuple[int, tuple[str | None, ...]]

_OPEN = "([{<"
_CLOSE = ")]}>"
_NAME_AT_END = re.compile(r"^(.*?(?:[>\]*&]|\s))\s*[A-Za-z_$][\w$]*\s*$", re.S)
_DEFAULT = re.compile(r"(?<![=!<>])=(?!=)")
# literal kind -> the parameter types it can be passed as (lower-cased, generics dropped)
_ACCEPTS = {
    "string": ("string", "charsequence", "object", "char*", "constchar*", "std::string",
               "std::string_view", "string_view", "any", "unknown"),
    "number": ("int", "long", "short", "byte", "float", "double", "integer", "number",
               "size_t", "unsigned", "uint", "ulong", "char", "object", "decimal", "any",
               "unknown", "int32_t", "int64_t", "uint32_t", "uint64_t", "bigint"),
    "boolean": ("boolean", "bool", "object", "any", "unknown"),
}


def parameters(signature: str) -> list[str] | None:
    """The parameters of a signature as written, None when it has no parameter list."""
    start = _list_start(signature)
    if start < 0:
        return None
    depth = 0
    current: list[str] = []
    out: list[str] = []
    for char in signature[start + 1 :]:
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            if depth == 0:
                break
            depth -= 1
        if char == "," and depth == 0:
            out.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    last = "".join(current).strip()
    if last:
        out.append(last)
    return [p for p in out if p and p != "void"]


def _list_start(signature: str) -> int:
    """Where the parameter list opens: the first '(' not inside <…> (generic parameters of
    a method come before it: ``<T> T get(Class<T> c)``)."""
    depth = 0
    for i, char in enumerate(signature):
        if char == "<":
            depth += 1
        elif char == ">":
            depth = max(depth - 1, 0)
        elif char == "(" and depth == 0:
            return i
    return -1


def _variadic(parameter: str) -> bool:
    return "..." in parameter or parameter.startswith("params ")


def _optional(parameter: str) -> bool:
    head = parameter.split(":", 1)[0]
    return bool(_DEFAULT.search(parameter)) or head.rstrip().endswith("?")


def fits(signature: str, call: Call) -> bool:
    """Whether ``call`` can call the callable declared by ``signature`` (a signature without
    a parameter list fits any call)."""
    params = parameters(signature)
    if params is None:
        return True
    count, literals = call
    required = sum(1 for p in params if not _variadic(p) and not _optional(p))
    variadic = any(_variadic(p) for p in params)
    if count < required or (count > len(params) and not variadic):
        return False
    for i, literal in enumerate(literals):
        if literal is None or literal.startswith("type:") or i >= len(params) or \
                _variadic(params[i]):
            continue
        if not _accepts(_type_of(params[i]), literal):
            return False
    return True


def best(signatures: list[str], call: Call) -> int | None:
    """The index of the signature ``call`` fits best, None if it fits none: of those it
    fits, the first whose parameter types are the types of the arguments it knows
    (``type:Name``: an argument that is a variable declared ``Name``), else the first."""
    fitting = [i for i, s in enumerate(signatures) if fits(s, call)]
    if len(fitting) < 2:
        return fitting[0] if fitting else None
    known = [(i, kind[5:]) for i, kind in enumerate(call[1]) if kind and kind.startswith("type:")]
    if known:
        for index in fitting:
            params = parameters(signatures[index]) or []
            if all(i < len(params) and _base(_type_of(params[i])) == _base(name)
                   for i, name in known):
                return index
    return fitting[0]


def _base(type_text: str) -> str:
    """A type's name without generics, arrays, pointers or package (``java.util.List<T>``
    -> ``List``)."""
    plain = re.sub(r"<.*>", "", type_text).strip().rstrip("[]*&?. ").strip()
    return plain.rsplit(".", 1)[-1].rsplit("::", 1)[-1]


def _type_of(parameter: str) -> str:
    """A parameter's type as written, its name and default dropped (``final String name``
    -> ``String``; TypeScript's ``name: string`` -> ``string``)."""
    parameter = _DEFAULT.split(parameter, 1)[0].strip()
    if ":" in parameter and "::" not in parameter:  # TypeScript, Python
        return parameter.split(":", 1)[1].strip()
    for modifier in ("final ", "const ", "params ", "ref ", "out ", "in ", "this "):
        parameter = parameter.removeprefix(modifier)
    named = _NAME_AT_END.match(parameter)
    return named.group(1).strip() if named else parameter.strip()


def _accepts(type_text: str, literal: str) -> bool:
    if literal == "null":
        plain = type_text.replace(" ", "").lower()
        return plain not in _ACCEPTS["number"] or plain in ("object", "any")
    plain = re.sub(r"<.*>", "", type_text).replace(" ", "").lower().rstrip("&").removeprefix(
        "java.lang.")
    if not plain or "|" in plain:
        return True
    return plain in _ACCEPTS.get(literal, ()) or (plain.endswith("?") and \
        plain[:-1] in _ACCEPTS.get(literal, ()))


def parameter_types(signature: str) -> tuple[str, ...] | None:
    """The types a signature's parameters are written with, names dropped (the same for a
    C++ prototype and its definition, different for two overloads)."""
    params = parameters(signature)
    if params is None:
        return None
    return tuple("".join(_type_of(p).split()) for p in params)
