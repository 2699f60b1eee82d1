"""C#: namespaces are not tied to paths. ``using A.B;`` makes every type of namespace
``A.B`` visible, wherever it is declared; so does ``using static A.B.C;`` for the members
of type ``A.B.C``. Types are named by namespace (``namespace A.B { class C }`` is the node
``A.B.C``), so a ``Q:A.B@cs`` key finds member ``C`` by its qualified name in any C# file
(``index/link.py``). No import names a file: ``files_for`` is always empty. The namespaces
around a name are searched by the ``"lexical"`` free-name step (``binder.py``).
"""

from __future__ import annotations

from codenav.index.modules import ModuleSystem

__all__ = ["SYSTEM", "CSharpModules"]


class CSharpModules(ModuleSystem):
    def module_key(self, path: str, module: str) -> str | None:
        parts = module.removeprefix("global::").split(".")
        if not all(part.isidentifier() for part in parts):
            return None  # generic or aliased forms the map cannot follow
        return f"Q:{'.'.join(parts)}@cs"  # C# namespaces only (not C++ ones)

    def prefix_keys(self, path: str, module: str) -> list[str]:
        return []  # a namespace's leading parts name no single node

    def submodule(self, key: str, name: str) -> str:
        return f"{key}.{name}"


SYSTEM = CSharpModules
