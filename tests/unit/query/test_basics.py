"""The query layer at its boundary: positions in, plain data out (``check.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from codenav.query.locate import locate
from tests.unit.query.check import (
    Query,
    callers,
    check,
    definition,
    outline,
    references,
    subtypes,
    supertypes,
    target,
)


def test_a_method_through_a_constructed_receiver() -> None:
    check('''
    //- pkg/core.py
    class Base:
        def save(self):
            return 1
    //- pkg/use.py
    from pkg.core import Base


    def run():
        Base().sa$0ve()
    ''', definition, '''
    py:pkg/core.py#Base.save
    ''')


def test_references_say_what_encloses_them() -> None:
    check('''
    //- pkg/core.py
    def hel$0per():
        return 1


    class Job:
        def run(self):
            return helper()


    value = helper()
    //- pkg/use.py
    from pkg.core import helper
    ''', references, '''
    pkg/core.py:7:16 call Job.run
    pkg/core.py:10:9 call <module>
    pkg/use.py:1:22 import <module>
    ''')


def test_a_local_name_is_not_a_definition() -> None:
    check('''
    //- a.py
    def f(x):
        return $0x + 1
    ''', target, '''
    local x
    ''')


def test_subtypes_by_level() -> None:
    check('''
    //- shapes.py
    class Sha$0pe: ...
    class Polygon(Shape): ...
    class Square(Polygon): ...
    ''', subtypes, '''
    1 py:shapes.py#Polygon
    2 py:shapes.py#Square
    ''')


def test_an_import_in_an_exception_handler_is_the_fallback() -> None:
    # tqdm (run 65): autonotebook's `except Exception: from .std import tqdm` and `else: from
    # .notebook import tqdm`; auto's `class tqdm(notebook_tqdm)` was a direct subclass of std's
    check('''
    //- pkg/__init__.py
    //- pkg/std.py
    class tq$0dm: ...
    //- pkg/notebook.py
    from .std import tqdm as std_tqdm
    class tqdm(std_tqdm): ...
    //- pkg/autonotebook.py
    try:
        import IPython
    except Exception:
        from .std import tqdm
    else:
        from .notebook import tqdm
    //- pkg/plain.py
    try:
        from .notebook import tqdm
    except ImportError:
        from .std import tqdm
    //- pkg/auto.py
    from .autonotebook import tqdm as notebook_tqdm
    from .plain import tqdm as plain_tqdm
    class tqdm(notebook_tqdm): ...
    class other(plain_tqdm): ...
    ''', subtypes, '''
    1 py:pkg/notebook.py#tqdm
    2 py:pkg/auto.py#other
    2 py:pkg/auto.py#tqdm
    ''')


def test_a_chain_of_calls_types_a_local_through_a_builder_s_methods() -> None:
    # pypika (run 66): `@builder def select(self, *terms) -> None` (the decorator returns a
    # copy of the query) and `query = (Query.from_(t)` / `.select(x))`: 22 of 22 uses of
    # QueryBuilder.replace_table in the tests had an unknown receiver
    check('''
    //- q.py
    def builder(func):
        return func
    class QueryBuilder:
        @builder
        def select(self, *terms) -> None:
            self.terms = terms
        @staticmethod
        def make() -> None:
            pass
        def repl$0ace_table(self, a, b) -> "QueryBuilder":
            return self
    class Query:
        @classmethod
        def from_(cls, table) -> QueryBuilder:
            return QueryBuilder()
    def one():
        query = Query.from_("a").select("x")
        query = query.replace_table("a", "b")
    def two():
        query = (
            Query.from_("a")
            .select("x")
        )
        query.replace_table("a", "b")
    ''', references, '''
    q.py:18:19 call one
    q.py:24:11 call two
    ''')


def test_a_builder_s_method_returns_its_own_class_not_one_nested_in_it() -> None:
    # review: `@builder def where(self) -> None` whose body ends in a nested class's method
    # had that class for its type
    check('''
    //- q.py
    def builder(func):
        return func
    class Query:
        @builder
        def where(self) -> None:
            class Helper:
                def run(self):
                    return 1
        def oth$0er(self):
            return 2
    def use(q: Query):
        r = q.where()
        r.other()
    ''', references, '''
    q.py:13:7 call use
    ''')


def test_supertypes_through_an_import() -> None:
    check('''
    //- base.py
    class Model: ...
    //- user.py
    from base import Model
    class Us$0er(Model): ...
    ''', supertypes, '''
    1 py:base.py#Model
    ''')


def test_callers_with_their_call_sites() -> None:
    check('''
    //- a.py
    def tar$0get(): ...
    def one():
        target()
        target()
    def two():
        target()
    ''', callers, '''
    py:a.py#one @ a.py:3, a.py:4
    py:a.py#two @ a.py:6
    ''')


def test_a_call_in_a_field_assignment_is_the_method_s() -> None:
    # werkzeug: `self._parsed_content_type = parse_options_header(...)` inside
    # `_parse_content_type` was listed as called by the field; a call in a class attribute's
    # value is the class's (the innermost function, method or class — never a field)
    check('''
    //- http.py
    def parse_$0header(value):
        return value
    //- request.py
    from http import parse_header


    class Request:
        limit = parse_header("class body")

        def _parse(self):
            self._parsed = parse_header("x")
    ''', callers, '''
    py:request.py#Request @ request.py:5
    py:request.py#Request._parse @ request.py:8
    ''')


def test_a_subscripted_base_is_a_supertype() -> None:
    # werkzeug: `class FileMultiDict(MultiDict[str, FileStorage])` was no subtype of MultiDict
    check('''
    //- structures.py
    import typing as t


    class Multi$0Dict(dict): ...


    class FileMultiDict(MultiDict[str, bytes]): ...


    class Headers(t.MutableMapping[str, str], MultiDict[str, str]): ...
    ''', subtypes, '''
    1 py:structures.py#FileMultiDict
    1 py:structures.py#Headers
    ''')


def test_a_line_without_a_column_means_what_it_defines() -> None:
    # hono: `export const getConnInfo: GetConnInfo = …` answered for the type GetConnInfo;
    # `export interface Router<T> {` answered SYMBOL_NOT_FOUND
    for line, expected in ((3, "ts:conninfo.ts#getConnInfo"), (5, "ts:conninfo.ts#Router")):
        check_line("""
        //- conninfo.ts
        export type GetConnInfo = (c: unknown) => string
        // the adapter's
        export const getConnInfo: GetConnInfo = (c) => 'x'

        export interface Router<T> {
          add(path: string, handler: T): void
        }
        """, line, expected)


def check_line(fixture: str, line: int, expected: str) -> None:
    """``file`` + ``line`` without ``col``: what it locates."""
    def located(q: Query) -> Iterable[str]:
        found = locate(q.ws, q.reader, q.fresh, file="conninfo.ts", line=line)
        yield found.node.nid if found.node is not None else f"local {found.name}"
    check(fixture, located, expected)


def test_private_members_and_computed_names() -> None:
    # hono: `this.#root.insert(...)` was unresolved; `get [GET_MATCH_RESULT]()` was missing;
    # `return class extends RegExpRouter {}` made its function a subtype
    check('''
    //- node.ts
    export class Node {
      ins$0ert(path: string): void {}
      get [Symbol.iterator]() { return 1 }
    }
    export function build() {
      return class extends Node {}
    }
    //- trie.ts
    import { Node } from './node'
    export class Trie {
      #root: Node = new Node()
      insert(path: string): void {
        this.#root.insert(path)
      }
    }
    ''', references, '''
    trie.ts:5:16 call Trie.insert
    ''')
    check('''
    //- node.ts
    export class No$0de {
      #size = 0
      get [Symbol.iterator]() { return 1 }
      #grow(): void {}
      get url(): string { return '' }
      set url(value: string) {}
    }
    export function build() {
      return class extends Node {}
    }
    ''', outline, '''
    class Node 1
      field #size 2
      property [Symbol.iterator] 3
      method #grow 4
      property url 5
      property url 6
    function build 8
    ''')
    check('''
    //- node.ts
    export class No$0de {}
    export function build() {
      return class extends Node {}
    }
    ''', subtypes, '')


def test_a_symbol_by_the_name_it_is_exported_under() -> None:
    # hono: {"symbol": "HonoBase"} was SYMBOL_NOT_FOUND though every importer uses that name
    def by_name(q: Query) -> Iterable[str]:
        found = locate(q.ws, q.reader, q.fresh, symbol="HonoBase")
        yield found.node.nid if found.node is not None else "none"
    check('''
    //- hono-base.ts
    class Hono {}
    export { Hono as HonoBase }
    //- hono.ts
    import { HonoBase } from './hono-base'
    export class Hono2 extends HonoBase {}
    ''', by_name, '''
    ts:hono-base.ts#Hono
    ''')


def test_members_by_kind_keep_properties_and_fold_overloads() -> None:
    from codenav.query.outline import asked_kinds, entries, one_per_overload

    def members(q: Query) -> Iterable[str]:
        located = q.at()
        assert located.node is not None
        found = entries(q.reader.children(located.node.id), located.node.id, ["method"])
        kept, counts = one_per_overload(found)
        for entry in kept:
            yield f"{entry.node.kind} {entry.node.name}"
        yield f"folded {sorted(counts.items())}"

    assert asked_kinds(["method"]) == ("method", "property")
    check('''
    //- req.py
    import typing as t


    class Requ$0est:
        size = 0

        @property
        def encoding(self):
            return self._encoding

        @encoding.setter
        def encoding(self, value):
            self._encoding = value

        @t.overload
        def get(self, key: str) -> str: ...

        @t.overload
        def get(self, key: int) -> int: ...

        def get(self, key):
            return key
    ''', members, '''
    property encoding
    method get
    folded [('encoding', 2), ('get', 3)]
    ''')


def test_outline_rows_keep_private_and_computed_names() -> None:
    # hono: map_node listed `#getDecodedParam` as `getDecodedParam`
    from codenav.tools.rows import outline_row

    def rows(q: Query) -> Iterable[str]:
        stat = q.reader.file("req.ts")
        assert stat is not None
        for node in q.reader.file_nodes(stat.id)[1:]:
            yield outline_row(node, 0, False)

    check('''
    //- req.ts
    export class Req {
      #cache = 1
      #decode(): void {}
      get [Symbol.iterator]() { return 1 }
      url(): string { return '' }
      url(x: number): string { return '' }
    }
    ''', rows, '''
    1-7 class Req
    2 field #cache
    3 method #decode
    4 property [Symbol.iterator]
    5 method url
    6 method url~2
    ''')


def test_a_symbol_with_a_file_means_its_definitions_there() -> None:
    import pytest

    from codenav.errors import SymbolNotFound

    def in_file(path: str) -> Callable[[Query], Iterable[str]]:
        def run(q: Query) -> Iterable[str]:
            found = locate(q.ws, q.reader, q.fresh, symbol="getConnInfo", file=path)
            yield f"{found.node.nid if found.node else None} others={len(found.others)}"
        return run

    fixture = """
    //- src/adapter/bun/conninfo.ts
    export const getConnInfo = (c: unknown) => 'bun'
    //- src/adapter/deno/conninfo.ts
    export const getConnInfo = (c: unknown) => 'deno'
    //- src/index.ts
    export const version = 1
    """
    check(fixture, in_file("src/adapter/deno/conninfo.ts"), """
    ts:src/adapter/deno/conninfo.ts#getConnInfo others=0
    """)
    with pytest.raises(SymbolNotFound, match=r"in src/index\.ts") as refused:
        check(fixture, in_file("src/index.ts"), "")
    assert refused.value.hint == ("It is defined in: src/adapter/bun/conninfo.ts, "
                                  "src/adapter/deno/conninfo.ts.")


def test_functions_in_parentheses_or_casts_are_named_by_their_variable() -> None:
    # got: `const paginateEach = (async function * (...) {...}) as GotPaginate['each']`
    # inside `create` — its calls were said to be create's
    check('''
    //- create.ts
    export function isSameOrigin(a: string): boolean { return true }
    export function create(): void {
      const paginateEach = (async function * (url: string) {
        yield isSameOrigin(url)
      }) as unknown as () => void
      const checked = ((url: string) => isSameOrigin(url)) satisfies (u: string) => boolean
      const plain = (function (url: string) { return isSameO$0rigin(url) })
    }
    ''', callers, '''
    ts:create.ts#create.checked @ create.ts:6
    ts:create.ts#create.paginateEach @ create.ts:4
    ts:create.ts#create.plain @ create.ts:7
    ''')


def test_a_use_s_function_is_the_innermost_named_one() -> None:
    # what `codenav tools` says: nested definitions are outer.inner, a JS/TS function assigned
    # to a const is named by it, a lambda's or callback's calls are the function around it
    # (run 52's agent searched three times for arrow functions around its callers)
    check('''
    //- a.ts
    export function tar$0get(x: number): number { return x }
    export function outer(): void {
      const inner = (y: number) => target(y)
      ;[1, 2].map((z) => target(z))
    }
    ''', callers, '''
    ts:a.ts#outer @ a.ts:4
    ts:a.ts#outer.inner @ a.ts:3
    ''')
    check('''
    //- b.py
    def tar$0get(x):
        return x
    def outer():
        def inner(y):
            return target(y)
        f = lambda z: target(z)
        return [target(i) for i in range(3)]
    ''', callers, '''
    py:b.py#outer @ b.py:6, b.py:7
    py:b.py#outer.inner @ b.py:5
    ''')


def test_a_variable_naming_a_function_is_that_function() -> None:
    # stevedore: `get_group_all = _c.get_group_all` (a module's bound method, `_c = Cache()`)
    # and `extension.py`'s `_cache.get_group_all(…)`: the call was "another's" (run 53)
    check('''
    //- pkg/__init__.py
    //- pkg/_cache.py
    class Cache:
        def get_group_all(self, group):
            return group

        def get_group_named(self, group):
            return self.get_gr$0oup_all(group)


    _c = Cache()
    get_group_all = _c.get_group_all
    named = Cache.get_group_named
    VERSION = "1"
    version = VERSION
    # assigned again, or declared twice: no one function
    default = _c.get_group_all
    default = Cache.get_group_named
    if VERSION:
        either = _c.get_group_all
    else:
        either = Cache.get_group_named
    //- pkg/ext.py
    from . import _cache
    from ._cache import get_group_all


    def list_entry_points(ns):
        return list(_cache.get_group_all(ns))


    def other(ns):
        return get_group_all(ns), _cache.version


    def neither(ns):
        return _cache.default(ns), _cache.either(ns)
    ''', callers, '''
    py:pkg/_cache.py#Cache.get_group_named @ pkg/_cache.py:6
    py:pkg/ext.py#list_entry_points @ pkg/ext.py:6
    py:pkg/ext.py#other @ pkg/ext.py:10
    ''')
    check('''
    //- lib.ts
    export function hel$0per(): number { return 1 }
    export const alias = helper
    export const table = { helper }
    export class Cache { get(): number { return helper() } }
    //- use.ts
    import { alias } from './lib'
    export function user(): number { return alias() }
    ''', callers, '''
    ts:lib.ts#Cache.get @ lib.ts:4
    ts:use.ts#user @ use.ts:2
    ''')
    check('''
    //- lib.ts
    export class Cache { g$0et(): number { return 1 } }
    const cache = new Cache()
    export let get = cache.get
    //- use.ts
    import { get } from './lib'
    export function other(): number { return get() }
    ''', callers, '''
    ts:use.ts#other @ use.ts:2
    ''')


def test_another_name_of_a_function_in_its_file_or_of_an_import() -> None:
    # the review of this change: `alias = helper` used in its own file, and an alias of an
    # imported function, keep their uses (the alias's own references too)
    check('''
    //- a.py
    def hel$0per():
        return 1
    alias = helper
    def g():
        return alias()
    //- b.py
    from a import helper
    again = helper
    def h():
        return again()
    ''', callers, '''
    py:a.py#g @ a.py:5
    py:b.py#h @ b.py:4
    ''')
    check('''
    //- a.py
    def helper():
        return 1
    ali$0as = helper
    def g():
        return alias()
    ''', references, '''
    a.py:5:12 call g
    ''')


def test_a_local_holding_a_method_calls_it() -> None:
    # boltons (run 57): `self_add = self.add` in OrderedMultiDict.update, then `self_add(k, v)`:
    # the calls were the local's (the agents searched the text for them); a local holding a
    # call's result, a field's value or another local is no function of its own
    check('''
    //- d.py
    def make():
        return 1


    class OMD:
        def a$0dd(self, k, v):
            return k

        def update(self, items):
            self_add = self.add
            made = make()
            other = self_add
            for k, v in items:
                self_add(k, v)
            made()
            other(1, 2)

        def twice(self, q):
            fn = self.add
            if q:
                fn = self.other
            fn(1, 2)
            either = self.add if q else self.other
            either(1, 2)

        def other(self, k, v):
            return v
    ''', callers, '''
    py:d.py#OMD.update @ d.py:14
    ''')
    check('''
    //- d.ts
    export class OMD {
      a$0dd(k: string): void {}
      update(items: string[]): void {
        const add = this.add
        for (const k of items) add(k)
      }
    }
    ''', callers, '''
    ts:d.ts#OMD.update @ d.ts:5
    ''')


def test_a_constant_awaiting_a_call_has_its_result_s_type() -> None:
    # pdf-lib (run 59): `const pdfDoc1 = await PDFDocument.create()` in an anonymous
    # `(async () => {…})()` (its consts are the module's): `pdfDoc1.addPage()` was unresolved
    check('''
    //- doc.ts
    export class Doc {
      static async create() {
        const made = 1
        return new Doc()
      }
      addP$0age(): void {}
    }
    //- use.ts
    import { Doc } from './doc'
    ;(async () => {
      const doc = await Doc.create()
      const page = doc.addPage()
    })()
    ''', references, '''
    use.ts:4:20 call <module>
    ''')


def test_an_overload_signature_or_an_interface_method_types_what_it_returns() -> None:
    # agenda (run 64): `create(name: string): Job<void>;` above its implementation, and
    # `const job = agenda.create('x')`: 60 of Job.priority's uses were on unknown receivers
    check('''
    //- job.ts
    export class Job {
      prio$0rity(p: number): this { return this }
    }
    export class Other {
      priority(): void {}
    }
    //- agenda.ts
    import { Job } from './job'
    export interface Repo {
      next(): Job
      find(id: string): Promise<Job | null>
    }
    export class Agenda {
      create(name: string): Job;
      create(name: string, data: number): Job;
      create(name: string, data?: number): Job { return new Job() }
    }
    //- use.ts
    import { Agenda, Repo } from './agenda'
    const agenda = new Agenda()
    const job = agenda.create('x')
    job.priority(1)
    export async function f(repo: Repo) {
      repo.next().priority(2)
      const found = await repo.find('y')
      found.priority(3)
    }
    ''', references, '''
    use.ts:4:5 call <module>
    use.ts:6:15 call f
    use.ts:8:9 call f
    ''')


def test_a_parameter_typed_by_an_intersection_has_its_first_type_s_members() -> None:
    # agenda's Job constructor: `args: Partial<JobParameters<DATA>> & { name: string }`
    check('''
    //- p.ts
    export interface Params {
      prio$0rity: number
    }
    export interface Extra { other: number }
    export function f(args: Partial<Params> & { name: string }, both: Params & Extra) {
      const one = args.priority
      return both.priority
    }
    ''', references, '''
    p.ts:6:20 attribute f
    p.ts:7:15 attribute f
    ''')


def test_a_field_typed_with_a_pick_of_a_class_has_its_members() -> None:
    # tstl (run 63): `private semahpore_: Pick<Semaphore, "release" | …>` and
    # `this.semahpore_.release()`: the map had it as another's (4 calls to settle)
    check('''
    //- s.ts
    export class Semaphore {
      rel$0ease(): void {}
    }
    export class Lockable {
      private direct_: Pick<Semaphore, "release">
      private other_: Omit<Semaphore, "acquire">
      constructor(s: Semaphore) { this.direct_ = s; this.other_ = s }
      a(): void { this.direct_.release() }
      b(): void { this.other_.release() }
    }
    ''', references, '''
    s.ts:8:28 call Lockable.a
    s.ts:9:27 call Lockable.b
    ''')


def test_this_in_an_arrow_function_field_is_the_instance() -> None:
    # hls.js (run 55): `private onMediaWaiting = () => { this.tick() }` in GapController,
    # whose own tick comes later, was a [name] use of the base TaskLoop.tick
    check('''
    //- loop.ts
    export default class TaskLoop {
      public tick(): void {}
    }
    //- gap.ts
    import TaskLoop from './loop'
    export default class GapController extends TaskLoop {
      private onWaiting = () => {
        this.tick()
      }
      private onEnded = function (this: GapController) { this.tick() }
      public t$0ick(): void {}
    }
    ''', references, '''
    gap.ts:4:10 call GapController.onWaiting
    gap.ts:6:59 call GapController.onEnded
    ''')


def test_a_static_method_s_first_parameter_is_no_instance() -> None:
    # tqdm (run 65): `@staticmethod def bar2callback(bar, …): … bar.set_postfix(…)` in a
    # keras Callback: `bar` was read as the class's own instance, the call as another's
    check('''
    //- t.py
    class Bar:
        def set_po$0stfix(self, logs):
            return logs


    class Callback:
        @staticmethod
        def bar2callback(bar: Bar, pop=None):
            bar.set_postfix(pop)

        def own(self):
            self.set_postfix(1)

        def set_postfix(self, x):
            return x
    ''', callers, '''
    py:t.py#Callback.bar2callback @ t.py:9
    ''')


def test_a_call_in_a_decorator_is_made_where_the_decorated_definition_is() -> None:
    # requests: `@pytest.mark.parametrize("hooks", [default_hooks(), ...])` above a test
    check('''
    //- hooks.py
    def default_$0hooks():
        return {}
    //- test_hooks.py
    import pytest
    from hooks import default_hooks


    @pytest.mark.parametrize("h", [default_hooks()])
    def test_copy(h):
        assert h == default_hooks()


    class TestIt:
        @pytest.mark.parametrize("h", [default_hooks()])
        def test_method(self, h):
            pass
    ''', callers, '''
    py:test_hooks.py#TestIt @ test_hooks.py:11
    py:test_hooks.py @ test_hooks.py:5
    py:test_hooks.py#test_copy @ test_hooks.py:7
    ''')


def _importers(q: Query, path: str | None = None) -> Iterable[str]:
    """The importers of the cursor's file (or of ``path``)."""
    from codenav.query.imports import importers

    path = path or q.path
    assert path is not None
    module = q.reader.node(f"{q.reader.file(path).lang}:{path}")  # type: ignore[union-attr]
    assert module is not None
    for site in importers(q.reader, module):
        yield f"{site.path}:{site.line}"


def _importers_of(path: str) -> Callable[[Query], Iterable[str]]:
    return lambda q: _importers(q, path)


def test_importers_are_the_files_whose_imports_name_the_module() -> None:
    # got: `export * from './core/index.js'` and `export type … from` are imports of the
    # module; a test importing a name of it through the package index is not
    check('''
    //- source/core/index.ts
    export class Request {}
    export const x = 1$0
    //- source/index.ts
    export * from './core/index.js'
    export {x as y} from './core/index.js'
    //- test/progress.ts
    import {Request} from '../source/index.js'
    //- test/direct.ts
    import {Request} from '../source/core/index.js'
    ''', _importers, '''
    source/index.ts:1
    test/direct.ts:1
    ''')
    # h3: an index that only re-exports is imported by whoever imports a name through it
    # (`import type { H3Event } from "./types"`, `from "."` inside the folder)
    check('''
    //- src/types/event.ts
    export interface H3Event {}$0
    //- src/types/index.ts
    export * from "./event";
    //- src/types/other.ts
    import type { H3Event } from ".";
    //- src/event.ts
    import type { H3Event } from "./types";
    //- src/index.ts
    export * from "./types";
    //- test/app.test.ts
    import { H3Event } from "../src";
    ''', _importers_of("src/types/index.ts"), '''
    src/event.ts:1
    src/index.ts:1
    src/types/other.ts:1
    ''')
    # requests: `from . import packages, utils` in the package's own __init__
    check('''
    //- src/requests/__init__.py
    from . import packages, utils
    //- src/requests/utils.py
    def quote(x):
        return x$0
    //- src/requests/packages.py
    x = 1
    //- src/requests/api.py
    from .utils import quote
    from . import utils as u
    //- src/requests/sessions.py
    from requests import quote
    ''', _importers, '''
    src/requests/__init__.py:1
    src/requests/api.py:1
    ''')


def test_a_rust_macro_body_names_what_it_names_once() -> None:
    # ripgrep's globset: `toregex!` names Options in its body; its 200 invocations are no
    # uses of Options (rust-analyzer counts the body's one) — a C macro's would be (pasted)
    check('''
    //- src/glob.rs
    struct Opt$0ions { case: bool }

    macro_rules! toregex {
        ($name:ident) => {
            let o = Options { case: true };
        };
    }

    fn a() {
        toregex!(one);
        toregex!(two);
    }
    ''', references, '''
    src/glob.rs:5:17 name toregex
    ''')


def _named(symbol: str) -> Callable[[Query], Iterable[str]]:
    """The definitions ``symbol`` names: the first, then the others, one per line."""
    def query(q: Query) -> Iterable[str]:
        located = locate(q.ws, q.reader, q.fresh, symbol=symbol)
        for each in located.each():
            assert each.node is not None
            yield each.node.nid
    return query


def test_overloads_are_one_definition_except_where_each_is_a_symbol() -> None:
    # starlette's is_async_callable: two @overload stubs and the implementation are one
    # function (its calls were answered three times over); Java's overloads are three
    check('''
    //- pkg/utils.py
    import typing
    @typing.overload
    def is_async(obj: int) -> bool: ...
    @typing.overload
    def is_async(obj: str) -> bool: ...
    def is_async(obj):
        return False
    //- web/a.ts
    export function pick(a: string): string;
    export function pick(a: number): number;
    export function pick(a: any): any { return a; }
    //- src/P.java
    class P {
        void put(int a) {}
        void put(String a) {}
    }
    //- src/show.rs
    use std::fmt;
    struct Foo;
    impl fmt::Display for Foo {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }
    }
    impl fmt::Debug for Foo {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }
    }
    ''', lambda q: [*_named("is_async")(q), *_named("pick")(q), *_named("put")(q),
                   *_named("Foo.fmt")(q)], '''
    py:pkg/utils.py#is_async
    ts:web/a.ts#pick
    java:src/P.java#P.put
    java:src/P.java#P.put~2
    rs:src/show.rs#Foo.fmt
    rs:src/show.rs#Foo.fmt~2
    ''')
