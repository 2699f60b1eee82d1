"""What a use the map could not link belongs to, when that is a type the map does not hold.

``self._name2plugin.get(name)`` on a field declared ``dict[str, _Plugin]``, ``opts.get(…)`` on
a ``TypedDict`` subclass, ``this._registryMap.has(key)`` on a ``new Map()``: the map cannot link
these uses (what they call is defined outside the root), but it can tell that they are not uses
of a definition of that name it holds — which is what an answer's ``unlisted`` line needs. A
use's key (the binder's grammar: ``N:<nid>::a.b``, ``P:<module>::A.b``; alternatives after
``|``, argument notes after ``^``) is followed step by step while the map holds each step; a
step whose type the map does not define ends it: the use is that type's.
"""

from __future__ import annotations

import re

from codenav.model import TYPE_KINDS
from codenav.store.read import MapReader, Node
from codenav.words import word_pattern

__all__ = ["Outside", "outside_type"]

# Kinds whose type is the one they are declared (or made) with.
_TYPED_KINDS = frozenset({"field", "variable", "constant", "property", "attribute"})
# What wraps a declared type without being it (`Final[dict[str, X]]` is a dict).
_WRAPPERS = frozenset({"Final", "ClassVar", "Optional", "Annotated", "Required", "NotRequired",
                       "ReadOnly", "readonly", "typing", "t", "te", "Union", "Type", "type",
                       "Self", "Readonly", "Partial", "typeof", "keyof", "None", "null",
                       "undefined"})
# A value whose type is plain from its text.
_LITERALS = (("{}", "dict"), ("[]", "list"), ('""', "str"), ("''", "str"), ("set()", "set"))
# Python's containers, made by calling them (`set()`, `defaultdict(list)`).
_MADE = frozenset({"dict", "list", "set", "tuple", "frozenset", "defaultdict", "OrderedDict",
                   "deque", "Counter", "collections.defaultdict", "collections.OrderedDict"})
# Declared types that say nothing of the value (`x: any` may hold anything).
_UNTYPED = frozenset({"any", "unknown", "Any", "object", "Object"})
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_MAX_STEPS = 4


class Outside:
    """Memoised ``outside_type`` over one answer (many uses share a key)."""

    def __init__(self, reader: MapReader) -> None:
        self.reader = reader
        self._known: dict[str, str | None] = {}
        self._modules: dict[str, bool] = {}  # module -> whether it may be the map's

    def __call__(self, key: str | None) -> str | None:
        if not key:
            return None
        if key not in self._known:
            self._known[key] = outside_type(self.reader, key, self._modules)
        return self._known[key]


def outside_type(reader: MapReader, key: str,
                 modules: dict[str, bool] | None = None) -> str | None:
    """The type outside the map (``dict``, ``Map``, ``TypedDict``) whose member the use keyed
    ``key`` is, None when the map cannot tell (the use stays unresolved)."""
    first = key.split("|", 1)[0].split("^", 1)[0]
    head, sep, rest = first.partition("::")
    if not sep or not rest:
        return None
    if head.startswith("O:"):  # a value of the language's own type (`[x].pop()`: Array's)
        return head[2:]
    if head.startswith("U:"):  # `super.model(…)`: a member of the class's bases
        cls = reader.node(head[2:])
        return _inherited_from_outside(reader, cls, rest, own=False) \
            if cls is not None and "." not in rest else None
    # an instance of a class (`Bot.().use`: TypeScript keys a typed variable's members so,
    # apart from the class's static ones) has the class's members
    written = rest.split(".")
    steps = [step for at, step in enumerate(written)
             if not (step == "()" and (written[at - 1][:1].isupper() if at
                                       else head.startswith("N:")))]
    rest = ".".join(steps)
    node: Node | None
    if head.startswith("N:"):  # a node of a file: the receiver itself
        node = reader.node(head[2:])
    elif head[:2] in ("P:", "I:"):  # a module's name, then its members
        node = reader.linked(f"{head}::{steps[0]}")
        if node is None and head.startswith("I:"):
            return _of_outside_module(reader, head[2:], steps, rest,
                                      {} if modules is None else modules)
        steps = steps[1:]
    else:
        return None
    if node is None or not steps or len(steps) > _MAX_STEPS or "()" in rest:
        return None
    *through, member = steps
    for step in through:
        container = _type_of(reader, node)
        if not isinstance(container, Node):
            return container
        node = _member(reader, container.id, step)
        if node is None:
            return None
    container = _type_of(reader, node)
    if not isinstance(container, Node):
        return container
    return _inherited_from_outside(reader, container, member)


def _of_outside_module(reader: MapReader, module: str, steps: list[str], rest: str,
                       modules: dict[str, bool]) -> str | None:
    """What a use keyed as a member of a module the map does not hold belongs to: that module's
    ``asyncio.StreamWriter`` for ``w.write()`` on ``w: asyncio.StreamWriter`` — None when a
    call's value may be in the chain (``copy.deepcopy(x).m`` is x's; a local made by
    ``copy.deepcopy(x)`` is keyed ``copy.deepcopy.m``: only a class, capitalised, makes its
    own), when the module may be the map's, or when a class of the map derives from the type
    (``t: BaseTransport`` may be one of ours)."""
    if "()" in rest or not steps or module.startswith(_ALIASES):
        return None  # (`~/store`, `#lib/x`, `@/app`: a bundler's or tsconfig's alias)
    *owner, _member_name = steps
    if owner and not owner[-1][:1].isupper():
        return None  # `copy.deepcopy.msg`: what calling `deepcopy` made (a local's value)
    if module not in modules:
        modules[module] = reader.module_known(module)
    if modules[module] or (owner and reader.derived_from(owner[-1])):
        return None
    return ".".join([module, *owner])


# How path aliases start (a module so written may be any of the map's).
_ALIASES = ("~", "#", "@/", ".")


def _inherited_from_outside(reader: MapReader, container: Node, member: str,
                            own: bool = True) -> str | None:
    """The base outside the map a type's ``member`` must come from: the type (unless not
    ``own``: a ``super.member``) and its bases in the map do not define it, and one of them
    names a base the map does not hold."""
    seen: set[int] = set()
    todo, outside = [container.id], None
    while todo and len(seen) < 16:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if (own or current != container.id) and _member(reader, current, member) is not None:
            return None  # the map defines it after all: the linker's miss, not a type's
        for name, base in reader.bases(current):
            if base is None and not any(other.kind in TYPE_KINDS
                                        for other in reader.nodes_named(name, limit=20)):
                outside = outside or name
            elif base is None:
                return None  # a base of the map the linker missed (`import *`): no telling
            else:
                todo.append(base)
    return outside if not todo else None  # (bases left unexplored: no telling)


def _type_of(reader: MapReader, node: Node) -> Node | str | None:
    """The type a receiver node has: a type node of the map, a type's name the map does not
    define, or None (unknown)."""
    if node.kind in TYPE_KINDS:
        return node
    if node.kind not in _TYPED_KINDS:
        return None
    if node.type_key:
        return reader.linked(node.type_key)
    declared = _declared(node.signature, node.name, node.lang == "py")
    if declared is None:
        return None
    name, words = declared
    for word in words:  # `Union[Handler, None]`, `Partial<Options>`: any type of the map
        if any(other.kind in TYPE_KINDS for other in reader.nodes_named(word, limit=20)):
            return None  # in it, and it may be that one's: no telling
    return name


def _declared(signature: str, name: str, python: bool) -> tuple[str, list[str]] | None:
    """The type a declaration's text gives its name (``x: Final[dict[str, int]] = {}`` ->
    ``dict``, ``x = new Map<K, V>()`` -> ``Map``) and every name the type's text holds (any of
    which, a type of the map, makes it no outside type), None when it gives none plainly."""
    found = word_pattern(name).search(signature)
    if found is None:
        return None
    tail = signature[found.end():].lstrip("?!")
    annotation, eq, value = tail.partition("=")
    annotation = annotation.strip()
    if annotation.startswith(":"):
        if not python and annotation.rstrip().endswith("[]"):
            return "Array", []  # `elements: E[]`
        words = _NAME.findall(annotation[1:])  # (each a name, no dots: `ns.X` is ns, X)
        for word in words:
            if word in _UNTYPED:
                return None
            if word not in _WRAPPERS:
                return word, words
        return None
    value = value.strip().rstrip(";") if eq else ""
    if python:
        for text, type_name in _LITERALS:
            if value == text:
                return type_name, []
        if value[:1] == "[" and (len(value) == 1 or _literal(value)):
            return "list", []  # (`[` alone: a literal's first line)
        if value[:1] == "{" and (len(value) == 1 or _literal(value)) and \
                (len(value) <= 2 or ":" in value):  # (`{1, 2}` is a set)
            return "dict", []
    made = re.match(r"(new\s+)?([A-Za-z_$][\w$.]*)\s*(?:<([^()]*)>)?\s*\(", value)
    if made and (made.group(1) or made.group(2) in _MADE):
        words = _NAME.findall(made.group(3) or "")
        made_name = str(made.group(2)).rsplit(".", 1)[-1]
        return made_name, [made_name, *words]  # (`new ns.X()`: X may be the map's)
    return None


def _literal(value: str) -> bool:
    """Whether ``value`` is one bracketed literal (``{"a": 1}``), not ``{} if x else y``."""
    depth = 0
    for i, char in enumerate(value):
        depth += char in "{[("
        depth -= char in "}])"
        if depth == 0 and i < len(value) - 1:
            return False
    return True


def _member(reader: MapReader, container: int, name: str) -> Node | None:
    """The member ``name`` a type of the map defines itself, None when it does not."""
    for child in reader.children(container):
        if child.name == name:
            return child
    return None
