"""Java and C# across files: the `jvmnet` sample repository's links as a golden, the links
that matter most asserted one by one, and the two module systems."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codenav.index.modules import module_system
from codenav.index.modules.csharp import CSharpModules
from codenav.index.modules.java import JavaModules
from tests.conftest import FIXTURES, check_golden, indexed_repo, render_links

MAIN = "java/src/main/java/com/acme"
TEST = "java/src/test/java/com/acme"


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> str:
    return render_links(indexed_repo("jvmnet", tmp_path_factory.mktemp("jvmnet")))


def resolved(links: str) -> dict[str, str]:
    """``path:line:col name`` -> the node it resolved to (unresolved ones left out)."""
    out = {}
    for line in links.splitlines():
        where, _, target = line.partition(" -> ")
        if not target.startswith("unresolved"):
            site, name = where.split(" ")[0], where.split(" ")[1]
            out[f"{site} {name}"] = target
    return out


def test_links_golden(links: str) -> None:
    check_golden(FIXTURES / "repos" / "jvmnet.links.golden", links)


@pytest.mark.parametrize(("site", "target"), [
    # imports: a class, a static member, a nested class; a wildcard import
    (f"{MAIN}/shop/Order.java:5:23 Customer", f"java:{MAIN}/model/Customer.java#Customer"),
    (f"{MAIN}/shop/Order.java:8:38 round", f"java:{MAIN}/util/MathUtil.java#MathUtil.round"),
    (f"{TEST}/shop/OrderTest.java:4:32 Address",
     f"java:{MAIN}/model/Customer.java#Customer.Address"),
    (f"{MAIN}/shop/Order.java:37:9 Formatter", f"java:{MAIN}/util/Formatter.java#Formatter"),
    # extends a class of the same package (no import), implements an imported interface
    (f"{MAIN}/shop/Order.java:11:28 BaseEntity", f"java:{MAIN}/shop/BaseEntity.java#BaseEntity"),
    (f"{MAIN}/shop/Item.java:5:30 Priced", f"java:{MAIN}/model/Priced.java#Priced"),
    # implicit members: an inherited method called bare; a typed field's method
    (f"{MAIN}/shop/Order.java:20:9 validate",
     f"java:{MAIN}/shop/BaseEntity.java#BaseEntity.validate"),
    (f"{MAIN}/shop/Order.java:35:18 greet", f"java:{MAIN}/model/Customer.java#Customer.greet"),
    # a call of a name that is a field and a method (`price()` beside `price`): the method
    (f"{MAIN}/shop/Order.java:36:33 city",
     f"java:{MAIN}/model/Customer.java#Customer.Address.city~2"),
    (f"{MAIN}/shop/Order.java:29:25 price", f"java:{MAIN}/shop/Item.java#Item.price~2"),
    # a test in the same package under src/test/java sees src/main/java's classes; `new
    # Order(…)` runs its constructor (overloads are told apart by their arguments)
    (f"{TEST}/shop/OrderTest.java:8:27 Order", f"java:{MAIN}/shop/Order.java#Order.Order"),
    (f"{TEST}/shop/OrderTest.java:9:34 add", f"java:{MAIN}/shop/Order.java#Order.add"),
    (f"{TEST}/shop/OrderTest.java:13:15 validate",
     f"java:{MAIN}/shop/BaseEntity.java#BaseEntity.validate"),
    # C#: `using` namespaces, the namespace's own types, an alias, `using static`
    ("csharp/Shop/Order.cs:9:34 IPriced", "cs:csharp/Models/IPriced.cs#Acme.Models.IPriced"),
    ("csharp/Shop/Order.cs:9:22 EntityBase",
     "cs:csharp/Shop/EntityBase.cs#Acme.Shop.EntityBase"),
    ("csharp/Shop/Order.cs:11:27 Item", "cs:csharp/Shop/Item.cs#Acme.Shop.Item"),
    ("csharp/Shop/Order.cs:35:26 Cust",  # `new Cust(…)`: the constructor
     "cs:csharp/Models/Customer.cs#Acme.Models.Customer.Customer"),
    ("csharp/Shop/Order.cs:28:16 Round", "cs:csharp/Util/MathUtil.cs#Acme.Util.MathUtil.Round"),
    # `Customer Customer { get; }`: the type is the class, the bare name the property
    ("csharp/Shop/Order.cs:13:12 Customer", "cs:csharp/Models/Customer.cs#Acme.Models.Customer"),
    ("csharp/Shop/Order.cs:33:9 Customer", "cs:csharp/Shop/Order.cs#Acme.Shop.Order.Customer"),
    ("csharp/Shop/Order.cs:33:18 Greet", "cs:csharp/Models/Customer.cs#Acme.Models.Customer.Greet"),
    ("csharp/Shop/Order.cs:34:31 City", "cs:csharp/Models/Customer.cs#Acme.Models.Address.City"),
    ("csharp/Models/Customer.cs:11:53 Address",
     "cs:csharp/Models/Customer.cs#Acme.Models.Customer.Address"),
    ("csharp/Models/Customer.cs:11:67 Address",
     "cs:csharp/Models/Customer.cs#Acme.Models.Address.Address"),
    # inherited members, `?.`, a fully qualified name
    ("csharp/Shop/Order.cs:19:9 Validate",
     "cs:csharp/Shop/EntityBase.cs#Acme.Shop.EntityBase.Validate"),
    ("csharp/Shop/Order.cs:37:32 Id", "cs:csharp/Shop/EntityBase.cs#Acme.Shop.EntityBase.Id"),
    ("csharp/Shop/Order.cs:36:16 Greet", "cs:csharp/Models/Customer.cs#Acme.Models.Customer.Greet"),
    ("csharp/App/Program.cs:9:51 Customer",
     "cs:csharp/Models/Customer.cs#Acme.Models.Customer.Customer"),
    ("csharp/App/Program.cs:10:39 Add", "cs:csharp/Shop/Order.cs#Acme.Shop.Order.Add"),
])
def test_important_links(links: str, site: str, target: str) -> None:
    assert resolved(links).get(site) == target


def test_nothing_links_across_languages_or_into_libraries(links: str) -> None:
    for line in links.splitlines():
        path, _, target = line.partition(" -> ")
        if not target.startswith("unresolved"):
            assert target.split(":")[0] == ("java" if path.startswith("java/") else "cs"), line
    found = resolved(links)
    assert not any(name.endswith((" List", " ArrayList", " String", " Override"))
                   for name in found)  # the JDK / BCL are not in the tree


# ---------------------------------------------------------------- module systems

def java(paths: list[str]) -> JavaModules:
    modules = JavaModules()
    modules.index(paths, "repo")
    return modules


def test_java_keys() -> None:
    modules = JavaModules()
    assert modules.module_key("A.java", "com.acme.shop") == "I:com.acme.shop@java"
    assert modules.module_key("A.java", "com.acme.Outer") == "I:com.acme@java::Outer"
    assert modules.module_key("A.java", "a.b.Outer.Inner") == "I:a.b@java::Outer.Inner"
    assert modules.module_key("A.java", "Top") is None  # the default package
    assert modules.prefix_keys("A.java", "com.acme.shop") == ["", "", ""]
    # `import static com.acme.Util.check;`: its class is used
    assert modules.prefix_keys("A.java", "com.acme.Util") == ["", "", "I:com.acme@java::Util"]
    assert modules.submodule("I:a.b@java", "c") == "I:a.b.c@java"
    assert isinstance(module_system("java"), JavaModules)


def test_java_packages_are_folders_under_any_source_root() -> None:
    modules = java(["app/src/main/java/com/acme/shop/Order.java",
                    "app/src/main/java/com/acme/shop/Item.java",
                    "app/src/test/java/com/acme/shop/OrderTest.java",
                    "lib/src/com/acme/util/Strings.java",
                    "app/src/main/java/com/acme/shop/sub/Deep.java",
                    "README.md"])
    assert modules.files_for("I:com.acme.shop@java") == [
        "app/src/main/java/com/acme/shop/Item.java", "app/src/main/java/com/acme/shop/Order.java",
        "app/src/test/java/com/acme/shop/OrderTest.java"]
    assert modules.files_for("I:com.acme.util@java") == ["lib/src/com/acme/util/Strings.java"]
    assert modules.files_for("I:acme.util@java") == ["lib/src/com/acme/util/Strings.java"]
    assert modules.files_for("I:cme.util@java") == []  # whole folder names only
    assert modules.files_for("I:com.acme.shop") == []  # another language's key
    assert modules.files_for("I:com.acme@java::Outer") == []
    assert modules.peers("app/src/test/java/com/acme/shop/OrderTest.java") == [
        "app/src/test/java/com/acme/shop/OrderTest.java",
        "app/src/main/java/com/acme/shop/Item.java", "app/src/main/java/com/acme/shop/Order.java"]
    assert modules.peers("lib/src/com/acme/util/Strings.java") == [
        "lib/src/com/acme/util/Strings.java"]


def test_csharp_keys_name_namespaces() -> None:
    modules = CSharpModules()
    assert modules.module_key("A.cs", "Acme.Models") == "Q:Acme.Models@cs"
    assert modules.module_key("A.cs", "global::System.IO") == "Q:System.IO@cs"
    assert modules.module_key("A.cs", "List<int>") is None
    assert modules.prefix_keys("A.cs", "Acme.Models") == []
    assert modules.files_for("Q:Acme.Models@cs") == []
    assert isinstance(module_system("csharp"), CSharpModules)



def test_incremental_link_matches_a_full_one(tmp_path: Path) -> None:
    """Edit bodies and add members in both languages: the same links as a full index."""
    from codenav.index.pipeline import index_tree

    root = indexed_repo("jvmnet", tmp_path / "a")
    order = root / "java/src/main/java/com/acme/shop/Order.java"
    order.write_text(order.read_text().replace(
        "        customer.greet();\n", "        customer.greet();\n        validate();\n"))
    cs = root / "csharp/Shop/Order.cs"
    cs.write_text(cs.read_text().replace(
        "        Customer.Greet();\n", "        Customer.Greet();\n        Validate();\n"))
    index_tree(root)
    base = root / "java/src/main/java/com/acme/shop/BaseEntity.java"
    base.write_text(base.read_text().replace("    public long getId()",
                                             "    void audit() { }\n\n    public long getId()"))
    index_tree(root)
    fresh = tmp_path / "fresh"
    shutil.copytree(root, fresh, ignore=shutil.ignore_patterns(".codenav"))
    index_tree(fresh, full=True)
    assert render_links(root) == render_links(fresh)
    assert f"{MAIN}/shop/Order.java:36:9 validate (call) -> " \
        f"java:{MAIN}/shop/BaseEntity.java#BaseEntity.validate" in render_links(root)
    assert "csharp/Shop/Order.cs:34:9 Validate (call) -> " \
        "cs:csharp/Shop/EntityBase.cs#Acme.Shop.EntityBase.Validate" in render_links(root)


def test_a_constructors_references_are_the_news_of_its_class(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    import anyio

    from codenav.tools.dispatch import call_tool
    from codenav.workspace import Workspace

    ws = Workspace(indexed_repo("jvmnet", tmp_path_factory.mktemp("ctor")))
    try:
        def uses(nid: str) -> set[tuple[str, int, int]]:
            found = anyio.run(call_tool, ws, "nav_references",
                              {"id": nid, "source": "map", "detail": "full"})
            return {(path, r["line"], r["col"])
                    for path, refs in found["data"]["references"].items() for r in refs}

        assert uses(f"java:{MAIN}/model/Customer.java#Customer.Customer") == {
            (f"{TEST}/shop/OrderTest.java", 8, 37)}  # new Customer("Ann"), not the imports
        assert uses("cs:csharp/Models/Customer.cs#Acme.Models.Customer.Customer") == {
            ("csharp/App/Program.cs", 9, 51), ("csharp/Shop/Order.cs", 35, 26)}
    finally:
        ws.close()


def test_a_csharp_attribute_names_its_class_without_the_suffix(tmp_path: Path) -> None:
    from codenav.index.pipeline import index_tree

    root = tmp_path / "repo"
    (root / "Lib").mkdir(parents=True)
    (root / "Lib" / "AuditAttribute.cs").write_text(
        "namespace Acme.Lib\n{\n    public class AuditAttribute : System.Attribute { }\n}\n")
    (root / "Service.cs").write_text(
        "using Acme.Lib;\n\nnamespace Acme\n{\n    [Audit]\n    public class Service { }\n\n"
        "    [AuditAttribute]\n    public class Other { }\n\n"
        "    public class LocalAttribute : System.Attribute { }\n\n"
        "    [Local]\n    public class Third { }\n}\n")
    index_tree(root)
    found = resolved(render_links(root))
    assert found["Service.cs:5:6 Audit"] == "cs:Lib/AuditAttribute.cs#Acme.Lib.AuditAttribute"
    assert found["Service.cs:8:6 AuditAttribute"] == \
        "cs:Lib/AuditAttribute.cs#Acme.Lib.AuditAttribute"
    assert found["Service.cs:13:6 Local"] == "cs:Service.cs#Acme.LocalAttribute"
