"""File-local name resolution: what each reference of one file means, as far as that file
alone can tell.

A reference resolves to a definition of the same file (a map node, answered directly), to
a *key* naming something in another file (``index/link.py`` resolves keys once every file is
known), or to a local name (a parameter, a loop variable) that is not in the map. Scopes and
local bindings come from the tags query (``@local.scope``, ``@local.definition`` …); the rules
are the language's lexical scoping, with ``hidden`` scopes (a Python class body) visible only
from inside themselves.

Key grammar (``<base>::<member>.<member>…``; the member ``()`` is an instance made by
calling the class before it; ``key|key`` tries each in turn):
  ``I:<dotted module>`` / ``P:<path>``  a module (see ``index/modules.py``)
  ``N:<node id>``   a node of this file whose members are looked up by the linker
  ``U:<node id>``   the bases of a class (``super().x``)
  ``F:<path>``      names a file sees without binding them (``free_names``: star imports,
                    its package, the whole tree)
  ``Q:<qualified>`` a namespace: its members are the nodes named ``<qualified>.<member>``
                    (``Q:<qualified>@<lang code>``: only nodes of that language)
  ``A:<lang>``      the one class member of that name in that language family (the
                    receiver's type is unknown)
  ``R:<lang>``      ``A:`` for a member read but not called (extract.py): no method
  ``V:<lang>:<var>`` the one type of that language family named like variable ``var``
                    (``subscriber`` → ``Subscriber``): a guess for untyped receivers
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field

from codenav.index.languages import Language
from codenav.index.modules import ModuleSystem
from codenav.model import Definition, node_id

__all__ = ["LOCAL", "TAG", "Binder", "extend_key", "is_static"]

LOCAL = -2  # "target" of a use of a parameter or local variable: not a map node
# Marks a name of the tag namespace (a language's `tags`: C's `struct P`), bound and looked
# up apart from ordinary names (`§P` is the struct, `P` a typedef of it).
TAG = "§"

_TYPE_WRAPPERS = re.compile(r"^(?:typing\.)?(?:Optional|Type|type|ClassVar|Final)\[(.*)\]$")
# (a member may be private: ``this.#root``)
_DOTTED = re.compile(r"§?[^\W\d]\w*(?:\.#?[^\W\d]\w*)*")
# dotted names and calls with their arguments dropped: ``c.Root().Find``
_CALL_CHAIN = re.compile(r"§?[^\W\d]\w*(?:\(\))?(?:\.#?[^\W\d]\w*(?:\(\))?)*")

# an argument list, dropped from a value: ``f(a, b)`` -> ``f()``
_ARGUMENTS = re.compile(r"\((?:[^()]|\([^()]*\))*\)", re.S)
_SPACED_DOT = re.compile(r"\s*\.\s*")  # a chain written over several lines
_CALLABLE = frozenset({"function", "method", "constructor", "property"})  # they return
_FUNCTIONS = frozenset({"function", "method"})
_STATIC = re.compile(r"(?:^|\s)static\s")


def is_static(signature: str | None) -> bool:
    """Whether a member's signature declares it static (in its head: not a default's
    string that holds the word)."""
    return bool(signature) and _STATIC.search(str(signature).split("(", 1)[0] + " ") is not None

# A binding: ("def", index into defs) | ("import", key) | ("local", type text or None)
Binding = tuple[str, "int | str | None"]


def extend_key(key: str, names: list[str]) -> str:
    """``key`` followed by member ``names``."""
    if not names:
        return key
    if "|" in key:  # alternatives: each one followed by the members
        return "|".join(extend_key(alternative, names) for alternative in key.split("|"))
    joiner = "." if "::" in key else "::"
    return key + joiner + ".".join(names)


def _type_name(text: str) -> str | None:
    """The class an annotation or constructor names, when it is a plain dotted name."""
    text = text.strip().strip("'\"").strip()
    if "(" in text:  # a chain of calls (`Query.from_(t).select(x)`): their arguments dropped
        text = _SPACED_DOT.sub(".", _ARGUMENTS.sub("()", text))
    for _ in range(3):
        inner = _TYPE_WRAPPERS.match(text)
        if not inner:
            break
        text = inner.group(1).strip()
    if " | " in text:
        parts = [p.strip() for p in text.split("|") if p.strip() != "None"]
        text = parts[0] if len(parts) == 1 else ""
    return text if _DOTTED.fullmatch(text) or (
        "()" in text and _CALL_CHAIN.fullmatch(text)) else None


def _chain(text: str) -> list[str]:
    """A dotted name with calls as its steps: ``c.Root().Find()`` -> ``c``, ``Root``, ``()``,
    ``Find``, ``()`` (``()``: what calling the name before it makes)."""
    out: list[str] = []
    for part in text.split("."):
        if part == "__class__":  # `self.__class__`: self's class, whose members self has
            continue
        if part.endswith("()"):
            out += [part[:-2], "()"]
        else:
            out.append(part)
    return out or [text]  # a bare `__class__` (the zero-argument super() cell) is a name


@dataclass(slots=True)
class _Scope:
    start: int
    end: int
    hidden: bool
    parent: int = -1
    names: dict[str, Binding] = field(default_factory=dict)
    outward: dict[str, bool] = field(default_factory=dict)  # name -> global (True) / nonlocal
    receiver: tuple[str, int] | None = None  # (parameter name, container def index)


class Binder:
    """Scopes, bindings and the resolution of one file's references."""

    def __init__(self, lang: Language, path: str, modules: ModuleSystem, size: int,
                 scopes: list[tuple[int, int, bool]], defs: list[Definition]) -> None:
        self.lang = lang
        self.path = path
        self.modules = modules
        self.defs = defs
        ordered = sorted(set(scopes), key=lambda s: (s[0], -s[1]))
        self.scopes = [_Scope(0, max(size, 1) + 1, False)]
        self.scopes += [_Scope(start, end, hidden) for start, end, hidden in ordered]
        stack = [0]
        for i in range(1, len(self.scopes)):
            scope = self.scopes[i]
            while self.scopes[stack[-1]].end <= scope.start:
                stack.pop()
            scope.parent = stack[-1]
            stack.append(i)
        self._starts = [s.start for s in self.scopes]
        self._by_span = {(s.start, s.end): i for i, s in enumerate(self.scopes)}
        self._members: dict[tuple[int, str], int] = {}
        self._statics: dict[tuple[int, str], int] = {}  # static members named like another
        for i, d in enumerate(defs):
            if not self._names_its_class(i) and (
                    d.parent < 0 or d.qname == f"{defs[d.parent].qname}.{d.name}"):
                if d.parent >= 0 and lang.static_namesakes and is_static(d.signature):
                    # `Cls.text(…)` on the class itself: its static `text`; on an instance,
                    # the other (grammY's InlineKeyboard, run 40)
                    self._statics.setdefault((d.parent, d.name), i)
                else:
                    self._members.setdefault((d.parent, d.name), i)  # not Foo::bar in ns
        for key, i in self._statics.items():
            self._members.setdefault(key, i)
        self.star = False
        self.tags: set[int] = set()  # defs named in the tag namespace (see TAG)
        self.compiled_out: set[int] = set()  # defs the preprocessor compiles out
        self._namespace_spans: list[tuple[int, int, int]] | None = None  # (start, end, def)
        self._first_local: dict[int, tuple[int, str]] = {}
        # (scope, local) -> the class its assignments make ("" when they make several)
        self._assigned: dict[tuple[int, str], str] = {}
        self._weak: set[tuple[int, str]] = set()  # assigned members only, no `new`
        self._owner_keys: dict[int, str] = {}  # method scope -> key of a container elsewhere
        self._owner_qnames: dict[int, str] = {}  # method scope -> that container's qname
        keyword = lang.receiver if lang.receiver not in ("", "first_parameter") else ""
        # Words naming the method's own instance (``this``; PHP's ``self::``, ``static::``).
        self._keywords = frozenset((keyword, *lang.receiver_aliases)) if keyword else frozenset()
        # def index -> its class: (def index in this file, or -1 with a key for the linker)
        self.types: dict[int, tuple[int, str | None]] = {}
        # locals holding a name's value as written (``add = self.add``), bound once
        self._values: set[tuple[int, str]] = set()
        self._bound_at: dict[tuple[int, str], int] = {}  # a local's first binding
        self._rebound: set[tuple[int, str]] = set()  # … and those bound again elsewhere
        self._memo: dict[tuple[int, str, str | None], tuple[int, str | None]] = {}
        self._callable_nids: set[str] | None = None  # functions whose results are unknown

    # --------------------------------------------------------------- building

    def scope_at(self, offset: int) -> int:
        """The innermost scope containing byte ``offset``."""
        i = bisect_right(self._starts, offset) - 1
        while i > 0 and self.scopes[i].end <= offset:
            i = self.scopes[i].parent
        return max(i, 0)

    def own_scope(self, start: int, end: int) -> int | None:
        """The scope whose node spans exactly these bytes (a function's own scope)."""
        return self._by_span.get((start, end))

    def bind_def(self, index: int, outer_start: int, inner: tuple[int, int]) -> None:
        """A node's name binds in the scope around it (not in its own scope)."""
        scope = self.scope_at(outer_start)
        if self.scopes[scope].start == inner[0] and self.scopes[scope].end == inner[1]:
            scope = self.scopes[scope].parent
        if not self._names_its_class(index) and index not in self.compiled_out:
            name = self.defs[index].name
            self.scopes[scope].names.setdefault(TAG + name if index in self.tags else name,
                                                ("def", index))

    def _names_its_class(self, index: int) -> bool:
        """A member named like its class (a Java, C# or C++ constructor): the name means the
        class, so the member binds nothing and is not found as a member."""
        d = self.defs[index]
        if d.parent < 0:
            return False
        parent = self.defs[d.parent]
        return parent.name == d.name and parent.kind in self.lang.containers

    def bind_alias(self, index: int, start: int) -> None:
        """A local that is also definition ``index`` (a TypeScript parameter property,
        ``constructor(private svc: Service)``): its uses in its scope mean the definition."""
        self.scopes[self.scope_at(start)].names[self.defs[index].name] = ("def", index)

    def bind_local(self, name: str, start: int, type_text: str | None = None,
                   value: bool = False) -> None:
        """A parameter or local variable, with the type it is declared or made with; a
        ``value`` type is what the local holds as written (``add = self.add``): a bare use
        of the local is a use of the function it names, if it names one."""
        scope = self.scope_at(start)
        names = self.scopes[scope].names
        if self._bound_at.setdefault((scope, name), start) != start:  # bound again
            self._rebound.add((scope, name))
        if name not in names or (names[name][0] == "local" and type_text and not names[name][1]):
            names[name] = ("local", type_text)
            if value:
                self._values.add((scope, name))
        first = self._first_local.get(scope)
        if first is None or start < first[0]:
            self._first_local[scope] = (start, name)

    def narrow(self, name: str, start: int, block: int, type_text: str) -> None:
        """``if (x instanceof C) {…}``: in the block (starting at byte ``block``), a local or
        parameter ``x`` is a C. A module's variable or an import keeps its one binding (a
        local in the block would take its uses from it)."""
        binding, _ = self._lookup(name, self.scope_at(start))
        if binding is not None and binding[0] == "local":
            self.bind_local(name, block, type_text)

    def assign(self, name: str, start: int, type_text: str, weak: bool = False) -> None:
        """``name = new C(…)`` where ``name`` is a variable or local bound without a type
        (``let queue;`` in a test's ``describe``, assigned in its ``beforeEach``): it is a C —
        unless its assignments make several classes (then it stays untyped). A ``weak``
        assignment (of a member, ``rect = this._paintRect || …``, whose text does not name
        its class) types the name only where no ``new`` does: ``rect = new R()`` elsewhere
        is what it is, not two kinds of value."""
        binding, scope = self._lookup(name, self.scope_at(start))
        if binding is None:
            return
        if binding[0] == "local":
            slot: tuple[int, str] = (scope, name)
            if binding[1] and slot not in self._assigned:  # declared or initialised so
                return
        elif binding[0] == "def" and isinstance(binding[1], int) and \
                self.defs[binding[1]].kind == "variable":
            slot = (-1, str(binding[1]))
            if binding[1] in self.types and slot not in self._assigned:
                return
        else:
            return
        before = self._assigned.get(slot)
        if before is not None and weak and slot not in self._weak:
            return  # a `new` decided it (or several did)
        if before is not None and not weak and slot in self._weak:
            before = None  # a `new` decides over members
        self._weak.discard(slot)
        if weak:
            self._weak.add(slot)
        seen = type_text if before is None else before
        self._assigned[slot] = seen if seen == type_text else ""  # several: never typed again
        typed = type_text if seen == type_text else None
        if binding[0] == "local":
            self.scopes[scope].names[name] = ("local", typed)
        elif typed is not None:
            self.set_type(int(slot[1]), typed, None, start)
        else:
            self.types.pop(int(slot[1]), None)

    def bind_import(self, name: str, start: int, key: str | None) -> None:
        if name == "*":
            self.star = True
            return
        names = self.scopes[self.scope_at(start)].names
        if names.get(name, ("local",))[0] == "local":
            names[name] = ("import", key)

    def declare_outward(self, name: str, start: int, is_global: bool) -> None:
        self.scopes[self.scope_at(start)].outward[name] = is_global

    def set_receiver(self, method: int, inner: tuple[int, int], body_start: int,
                     owner_key: str | None = None) -> None:
        """Record how ``method`` names an instance of its container: its first parameter
        (Python, Go) or a keyword (``this``). ``owner_key`` names a container declared in
        another file (a Go method of a type in a sibling file)."""
        scope = self.own_scope(*inner)
        if scope is None or not self.lang.receiver:
            return
        container = self.defs[method].parent
        if owner_key is not None:
            container = -1
            self._owner_keys[scope] = owner_key
            d = self.defs[method]
            if self.lang.namespaces and d.qname.endswith(f".{d.name}"):
                self._owner_qnames[scope] = d.qname[: -len(d.name) - 1]  # ns.Foo of ns::Foo::bar
        if self.lang.receiver != "first_parameter":
            self.scopes[scope].receiver = (self.lang.receiver, container)
            return
        first = self._first_local.get(scope)
        if first is not None and first[0] < body_start:
            self.scopes[scope].receiver = (first[1], container)

    def set_type(self, index: int, type_text: str | None, value: str | None,
                 start: int, value_start: int | None = None) -> None:
        """Record the class of variable or field ``index``: its annotation or constructor
        (``type_text``), else the type of the name it is assigned (``value``). For a
        function, ``value`` is what it returns (``self``, ``cls()``, ``self._query``, a
        local), read in the scope at ``value_start``."""
        scope = self.scope_at(start)
        if type_text is None and value is not None and value_start is not None and \
                self.defs[index].kind in _CALLABLE:
            returned = self._value_type(value, self.scope_at(value_start), 0)
            if returned is not None and (returned[0] >= 0 or returned[1] is not None) and \
                    returned[0] != index:
                self.types[index] = returned
            return
        if type_text is not None and value is not None:  # `given or Default()`
            binding, _ = self._lookup(value, scope)
            if binding is not None and binding[0] == "local" and isinstance(binding[1], str):
                type_text = binding[1]  # what the name is declared as
        if type_text is None and value is not None:
            binding, _ = self._lookup(value, scope)
            if binding is not None and binding[0] == "import" and \
                    isinstance(binding[1], str) and "::" not in binding[1]:
                self.types[index] = (-1, binding[1])  # `export var arrays = _arrays`: a module
                return
            if binding is None or binding[0] != "local" or not isinstance(binding[1], str):
                return
            type_text = binding[1]
        typed = _type_name(type_text) if type_text else None
        if not typed:
            return
        if typed in self._keywords and self.defs[index].kind in _CALLABLE and \
                self.defs[index].parent >= 0:  # `clone(): this`: an instance of its class
            self.types[index] = (self.defs[index].parent, None)
            return
        head, *rest = _chain(typed)
        binding, where = self._lookup(head, scope)
        if binding is not None and binding[0] == "def" and binding[1] == index:
            binding = None  # ``Customer Customer { get; }``: the type, not the member itself
        if binding is None:  # where free names are, as a type (not the member it types)
            found, key = self._free(scope, head, rest, types=True)
        else:
            found, key = self._base(binding, where, head, rest)
        if found >= 0 or key is not None:
            self.types[index] = (found, key)

    def returns_instance(self, index: int) -> None:
        """Method ``index`` returns an instance of the class it is defined in."""
        parent = self.defs[index].parent
        if parent >= 0 and self.defs[parent].kind in self.lang.containers:
            self.types[index] = (parent, None)

    def called_local(self, start: int, name: str) -> int | None:
        """A call of a local bound once to a function or class of this file as written
        (boltons' ``self_add = self.add`` … ``self_add(k, v)``: add's call; ``const add =
        this.add``): that definition, None for any other local (one holding what the file
        cannot tell — a field of another file's class — stays a local: no guess is made)."""
        binding, where = self._lookup(name, self.scope_at(start))
        if binding is None or binding[0] != "local" or (where, name) not in self._values or \
                (where, name) in self._rebound:
            return None
        value = str(binding[1])
        if not _DOTTED.fullmatch(value) or value.startswith(TAG):
            return None
        head, *rest = value.split(".")
        if head in self._keywords:
            method = self._method_scope(where)
            found = self._of_receiver(method, rest)[0] if method >= 0 and rest else -1
        else:
            held, at = self._lookup(head, where)
            if held is not None and held[0] == "local" and not rest:
                return None  # (another local: what it holds is not followed)
            found = self._base(held, at, head, rest)[0]
        if found < 0:
            return None
        kind = self.defs[found].kind
        return found if kind in _FUNCTIONS or kind in self.lang.containers else None

    def _value_type(self, value: str, scope: int, depth: int) -> tuple[int, str | None] | None:
        """What an expression a function returns is: the class (``self``, ``cls()``,
        ``self.__class__(…)``: the method's own), or the node whose type it has (a field,
        a method whose result it is, a local's constructor), or a key for the linker."""
        typed = _type_name(_ARGUMENTS.sub("()", value.strip()))
        if not typed or depth > 3:
            return None
        head, *rest = _chain(typed)
        method = self._method_scope(scope)
        receiver = self.scopes[method].receiver if method >= 0 else None
        if receiver is not None and (head == receiver[0] or head in self._keywords):
            if all(part == "()" for part in rest):  # the instance itself, or its class called
                return (receiver[1], None) if receiver[1] >= 0 else None
            return self._of_receiver(method, rest)
        binding, where = self._lookup(head, scope)
        if binding is not None and binding[0] == "local":
            if rest or not isinstance(binding[1], str):
                return None
            return self._value_type(binding[1], where, depth + 1)  # its constructor or type
        return self._base(binding, where, head, rest)

    def _returned_unknown(self, key: str) -> bool:
        """Whether ``key`` is a member of what a function of this file returns, which it
        cannot tell (``N:<function>::x``)."""
        if not key.startswith("N:") or "|" in key:
            return False
        nid = key[2:].split("::", 1)[0]
        if self._callable_nids is None:
            self._callable_nids = {self._nid(i) for i, d in enumerate(self.defs)
                                   if d.kind in _CALLABLE and i not in self.types}
        return nid in self._callable_nids

    def declared_type(self, name: str, scope: int) -> str | None:
        """The type a parameter or local variable ``name`` is declared with, as written (its
        last dotted part), None when it has none or is no local."""
        binding, _ = self._lookup(name, scope)
        if binding is None or binding[0] != "local" or not isinstance(binding[1], str):
            return None
        typed = _type_name(binding[1])
        if not typed or "()" in typed:
            return None
        return typed.rsplit(".", 1)[-1]

    def type_key(self, index: int) -> str | None:
        """The key of variable or field ``index``'s class, for other files."""
        found, key = self.types[index]
        return f"N:{self._nid(found)}" if found >= 0 else key

    # -------------------------------------------------------------- resolving

    def _lookup(self, name: str, scope: int) -> tuple[Binding | None, int]:
        """The binding ``name`` has at ``scope``, and the scope that binds it (unbound:
        ``scope`` itself, where a free name is looked up as a member of its method's class)."""
        current, first = scope, True
        while current >= 0:
            here = self.scopes[current]
            if name in here.outward:
                current = 0 if here.outward[name] else here.parent
                first = False
                continue
            if (first or not here.hidden) and name in here.names:
                return here.names[name], current
            first = False
            current = here.parent if current else -1
        return None, scope

    def _nid(self, index: int) -> str:
        return node_id(self.lang.code, self.path, self.defs[index].key)

    def _member_chain(self, index: int, chain: list[str],
                      instance: bool = False) -> tuple[int, str | None]:
        """Members of node ``index``: found in this file, or a key for the linker. With
        ``instance`` (``this.x``), or once the chain passes through a value's type, a call
        or a class called, the members are an instance's: where a class may have static
        namesakes, the key says so (``Cls.().m``), and only ``Cls.m`` — the class named —
        means the static one."""
        current = index
        sided = self.lang.static_namesakes

        def made(key: str) -> list[str]:  # an instance of the type ``key`` names
            return ["()"] if sided and not key.endswith("()") else []

        for depth, name in enumerate(chain):
            if name == "()":  # calling a class makes an instance: same members
                if self.defs[current].kind in self.lang.containers:
                    instance = True
                    continue
                if current not in self.types:  # a function with no return annotation
                    return -1, self._any(chain[-1]) if depth + 1 < len(chain) else None
                typed, key = self.types[current]  # what the annotated function returns
                if typed < 0:
                    rest = chain[depth + 1 :]
                    return -1, extend_key(key, [*made(key), *rest] if rest else rest) \
                        if key else None
                current, instance = typed, True
                continue
            found = self._members.get((current, name))
            hops = 0
            while found is None and current in self.types and hops < 4:
                # a variable or field (or a property, a function returning one): go on in
                # its class
                typed, key = self.types[current]
                if typed < 0:
                    return -1, extend_key(key, [*made(key), *chain[depth:]]) if key else None
                current, hops, instance = typed, hops + 1, True
                found = self._members.get((current, name))
            if found is None:
                of_class = sided and instance and \
                    self.defs[current].kind in self.lang.containers
                return -1, extend_key(f"N:{self._nid(current)}",
                                      ["()", *chain[depth:]] if of_class else chain[depth:])
            current, instance = found, False  # (a member: its own value, not the class's)
        return current, None

    def _base(self, binding: Binding | None, scope: int, name: str,
              chain: list[str], depth: int = 0) -> tuple[int, str | None]:
        """Resolve ``name.chain`` given ``name``'s binding."""
        if binding is None:
            return self._free(scope, name, chain)
        kind, value = binding
        if kind == "def":
            assert isinstance(value, int)
            static = self._statics.get((value, chain[0])) if chain else None  # on the class
            if static is not None and static != self._members.get((value, chain[0])):
                return self._member_chain(static, chain[1:]) if chain[1:] else (static, None)
            return self._member_chain(value, chain) if chain else (value, None)
        if kind == "import":
            return -1, extend_key(value, chain) if isinstance(value, str) else None
        receiver = self.scopes[scope].receiver
        if receiver is not None and receiver[0] == name:
            return self._of_receiver(scope, chain)
        if isinstance(value, str) and chain and depth < 3:
            typed = _type_name(value)
            if typed:
                head, *rest = _chain(typed)
                if head in self._keywords:  # `const { a } = this`: a is this.a
                    method = self._method_scope(scope)
                    member, key = (self._of_receiver(method, [*rest, *chain]) if method >= 0
                                   else (-1, None))
                    if member < 0 and len(chain) == 1 and self.lang.guess_members:
                        # the member's type may be unknown: then guess as for any local
                        named = f"V:{self.lang.code}:{name}::{chain[0]}"
                        guess = f"{named}|{self._any(chain[0])}"
                        if key and named in key.split("|"):  # guessed by the field already
                            guess = str(self._any(chain[0]))
                        key = f"{key}|{guess}" if key else guess
                    return member, key
                found, where = self._lookup(head, scope)
                # an instance of the type (`kb = new InlineKeyboard()`): its members, not the
                # class's static namesakes (`InlineKeyboard.text(…)`)
                made = ["()"] if self.lang.static_namesakes and "()" not in rest else []
                member, key = self._base(found, where, head, [*rest, *made, *chain], depth + 1)
                if member < 0 and len(chain) == 1 and self.lang.guess_members and \
                        key is not None and self._returned_unknown(key):
                    # made by a call whose result the file cannot tell: guess as for any
                    # local (after what the linker may still find)
                    guess = f"V:{self.lang.code}:{name}::{chain[0]}|{self._any(chain[0])}"
                    key = f"{key}|{guess}" if key else guess
                return member, key
        return (LOCAL, None) if not chain else (-1, None)

    def resolve(self, name: str, start: int, qualifier: str | None) -> tuple[int, str | None]:
        """(index of a definition of this file or -1, key for the linker or None)."""
        return self.resolve_in(self.scope_at(start), name, qualifier)

    def sweep(self) -> Callable[[int], int]:
        """``scope_at`` for offsets visited in increasing order, in amortised O(1)."""
        scopes, count = self.scopes, len(self.scopes)
        stack = [0]
        position = 1

        def scope(offset: int) -> int:
            nonlocal position
            while position < count and scopes[position].start <= offset:
                while scopes[stack[-1]].end <= scopes[position].start:
                    stack.pop()
                stack.append(position)
                position += 1
            while scopes[stack[-1]].end <= offset:
                stack.pop()
            return stack[-1]

        return scope

    def resolve_in(self, scope: int, name: str, qualifier: str | None,
                   types: bool = False) -> tuple[int, str | None]:
        """``resolve`` in a known scope, memoised (a file asks about ``self`` a lot).
        ``types``: the name is in a type position (a ``type`` reference), so it means a
        type, never a field or method of the same name (C# ``Customer Customer { get; }``)."""
        if types and qualifier is None:
            qualifier = "\0type"  # memoised apart
        memo_key = (scope, name, qualifier)
        found = self._memo.get(memo_key)
        if found is None:
            found = self._memo[memo_key] = (self._resolve_type(scope, name)
                                            if qualifier == "\0type"
                                            else self._resolve(scope, name, qualifier))
        return found

    def _is_type(self, index: int) -> bool:
        return self.defs[index].kind in self.lang.containers or self.defs[index].kind == "type"

    def _resolve_type(self, scope: int, name: str) -> tuple[int, str | None]:
        """A bare name meaning a type: a binding that is no type is passed over, and so is a
        member of the enclosing class that is no type (or is found only in its bases)."""
        binding, where = self._lookup(name, scope)
        if binding is not None and not (binding[0] == "def" and isinstance(binding[1], int)
                                        and not self._is_type(binding[1])):
            return self._base(binding, where, name, [])
        return self._free(scope, name, [], types=True)

    def _free(self, scope: int, name: str, chain: list[str],
              types: bool = False) -> tuple[int, str | None]:
        """A name bound nowhere in the file: a member of the enclosing class (languages with
        implicit members), else where ``free_names`` says to look, else unknown."""
        steps = self.lang.free_names
        free = None
        if steps and (self.star or steps != ("stars",)):
            free = extend_key(f"F:{self.path}", [name, *chain])
        method = self._method_scope(scope) if self.lang.implicit_members else -1
        if "lexical" in steps and (name[:1].isupper() or self.lang.namespaces):
            # a constant or class name (any name, with `namespaces`): in the namespaces
            # around, wherever they are (re)opened
            lexical = self._lexical_keys(method, name, chain, scope, types)
            free = "|".join([*lexical, free] if free else lexical) or None
        if method >= 0:
            found, key = self._of_receiver(method, [name, *chain])
            if found >= 0 and (not types or self._is_type(found)):
                return found, None
            outer = self._enclosing_member(method, name, chain)
            if outer is not None and (not types or (outer[0] >= 0 and self._is_type(outer[0]))):
                return outer
            if key is not None and not types:  # inherited, or not a member at all: try both
                return -1, f"{key}|{free}" if free else key
        return -1, free

    def path_key(self, name: str, chain: list[str]) -> str | None:
        """``a::b::f`` or ``a::b::T::f`` written in code (Rust ``crate::util::help()``,
        ``other_crate::Type::new()``): the path read as a module and an item in it, then as
        a module, a type and its member — keys of the module system, as a ``use`` gets."""
        keys = []
        for items in (1, 2):
            if len(chain) < items:
                break
            module = "::".join([name, *chain[: len(chain) - items]])
            key = self.modules.module_key(self.path, module)
            if key is not None:
                keys.append(extend_key(key, chain[len(chain) - items :]))
        return "|".join(keys) or None

    def _lexical_keys(self, method: int, name: str, chain: list[str],
                      scope: int = 0, types: bool = False) -> list[str]:
        """``Q:`` keys of ``name`` as a member of each container or namespace around the
        method or ``scope`` (the innermost first), then of ``name.chain`` as a qualified name
        from the top."""
        keys, code = [], self.lang.code
        receiver = self.scopes[method].receiver if method >= 0 else None
        current = receiver[1] if receiver is not None and receiver[1] >= 0 \
            else self._namespace_around(scope)
        around = self.lang.containers | self.lang.namespaces
        if current < 0 and method in self._owner_qnames:  # `ns::Foo::bar() {}`: Foo, then ns
            parts = self._owner_qnames[method].split(".")
            keys += [extend_key(f"Q:{'.'.join(parts[:end])}@{code}", [name, *chain])
                     for end in range(len(parts), 0, -1)
                     if not types or end < len(parts)]
        around = self.lang.containers | self.lang.namespaces
        while current >= 0 and self.defs[current].kind in around:
            if not types or self.defs[current].kind in self.lang.namespaces:  # types: no
                # member of a class (a property named like its type), only of a namespace
                keys.append(extend_key(f"Q:{self.defs[current].qname}@{code}", [name, *chain]))
            current = self.defs[current].parent
        if chain:
            keys.append(extend_key(f"Q:{name}@{code}", chain))
        return keys

    def _namespace_around(self, scope: int) -> int:
        """The innermost definition of one of the language's ``namespaces`` kinds whose span
        holds ``scope`` (C++ ``namespace ns { … }``), or -1."""
        if not self.lang.namespaces or scope <= 0:
            return -1
        if self._namespace_spans is None:
            self._namespace_spans = [(d.start_byte, d.end_byte, i) for i, d in
                                     enumerate(self.defs) if d.kind in self.lang.namespaces]
        start, found, found_start = self.scopes[scope].start, -1, -1
        for ns_start, ns_end, i in self._namespace_spans:
            if ns_start <= start < ns_end and ns_start >= found_start:
                found, found_start = i, ns_start
        return found

    def _enclosing_member(self, method: int, name: str,
                          chain: list[str]) -> tuple[int, str | None] | None:
        """``name`` declared in a container around the method's own class (a nested class
        sees its outer classes' members), or None."""
        receiver = self.scopes[method].receiver
        current = self.defs[receiver[1]].parent if receiver is not None and receiver[1] >= 0 \
            else -1
        while current >= 0 and self.defs[current].kind in self.lang.containers:
            if (current, name) in self._members:
                return self._member_chain(current, [name, *chain])
            current = self.defs[current].parent
        return None

    def _member_before(self, scope: int, where: int, name: str) -> tuple[int, str | None] | None:
        """With implicit members, a member of the method's class (or of a class around it)
        hides a name bound outside the method (C# ``Address = new Address()`` in a class
        with an ``Address`` property); None when ``name`` is bound inside the method."""
        method = self._method_scope(scope)
        if method < 0:
            return None
        current = scope
        while current != method:
            if current == where:
                return None  # a local of the method
            current = self.scopes[current].parent
        receiver = self.scopes[method].receiver
        if where == method or receiver is None or receiver[1] < 0:
            return None
        own = self._members.get((receiver[1], name))
        if own is not None:
            return own, None
        return self._enclosing_member(method, name, [])

    def _method_scope(self, scope: int) -> int:
        """The innermost enclosing scope of a method (one with a receiver), or -1."""
        current = scope
        while current > 0:
            if self.scopes[current].receiver is not None:
                return current
            current = self.scopes[current].parent
        return -1

    def _of_receiver(self, scope: int, chain: list[str]) -> tuple[int, str | None]:
        """``chain`` looked up on the instance method ``scope`` runs for."""
        receiver = self.scopes[scope].receiver
        assert receiver is not None
        if not chain:
            return LOCAL, None
        if receiver[1] >= 0:
            found, key = self._member_chain(receiver[1], chain, instance=True)
        else:
            owner = self._owner_keys.get(scope)
            found, key = -1, extend_key(owner, chain) if owner else None
        if found < 0 and len(chain) == 2 and "()" not in chain and self.lang.guess_members \
                and not self.lang.implicit_members:
            # `self.key_field.m()`: a field whose type the map may not know (assigned what an
            # unannotated function returns) is guessed from its name, after what the linker
            # finds through its type
            guess = f"V:{self.lang.code}:{chain[0]}::{chain[1]}"
            key = f"{key}|{guess}" if key else guess
        return found, key

    def _resolve(self, scope: int, name: str, qualifier: str | None) -> tuple[int, str | None]:
        if qualifier is None:
            if name in self.lang.receiver_aliases:  # PHP `new static`: the class itself
                container = self._container_of(scope)
                if container >= 0 and self.defs[container].kind in self.lang.implementor_kinds:
                    return -1, None  # `Self` in a trait: whatever type implements it
                return (container, None) if container >= 0 else (-1, None)
            binding, where = self._lookup(name, scope)
            if binding is not None and self.lang.implicit_members:
                member = self._member_before(scope, where, name)
                if member is not None:
                    return member
            return self._base(binding, where, name, [])
        if qualifier == "*":
            return -1, self._any(name)
        if qualifier == "=":  # a member of a literal: the language's own type, not the tree's
            return -1, f"O:literal::{name}"  # (`''.join(…)`: no unknown receiver)
        if qualifier == self.lang.super_call and self.lang.super_call:
            container = self._container_of(scope)
            return -1, f"U:{self._nid(container)}::{name}" if container >= 0 else None
        head, *rest = _chain(qualifier)  # `f()`: an instance of what the call names
        if head in self._keywords:  # this.x: the method's own instance
            method = self._method_scope(scope)
            if method >= 0:
                return self._of_receiver(method, [*rest, name])
            return -1, self._any(name)
        binding, where = self._lookup(head, scope)
        builtin = self._builtin(binding, head)
        if builtin is not None and (binding is None or not rest):
            return -1, f"O:{builtin}::{name}"  # `Array.prototype.pop`, `stack.pop()` of `[x]`
        found, key = self._base(binding, where, head, [*rest, name])
        if found < 0 and key is None and binding is not None and binding[0] == "local":
            if not rest and self.lang.guess_members:  # a receiver of unknown type: guessed
                # from its name first (`subscriber` is most likely a `Subscriber`)
                return -1, f"V:{self.lang.code}:{head}::{name}|A:{self.lang.code}::{name}"
            return -1, self._any(name)
        return max(found, -1), key

    def _builtin(self, binding: Binding | None, head: str) -> str | None:
        """The language's own global type ``head`` is a value of (unbound ``Array``, a local
        made by ``[x]`` or ``new Map()``), None when it is none of those."""
        if not self.lang.builtin_types:
            return None
        if binding is None:
            return head if head in self.lang.builtin_types else None
        if binding[0] != "local" or not isinstance(binding[1], str):
            return None
        typed = _type_name(binding[1])
        return typed if typed in self.lang.builtin_types else None

    def _any(self, name: str) -> str | None:
        """"Any class member called ``name``", for a receiver of unknown type — unless the
        language says such guesses mislead (``guess_members = false``)."""
        return f"A:{self.lang.code}::{name}" if self.lang.guess_members else None

    def _container_of(self, scope: int) -> int:
        method = self._method_scope(scope)
        receiver = self.scopes[method].receiver if method >= 0 else None
        return receiver[1] if receiver is not None else -1
