"""What a receiver's type is, as real code writes it (issue 20): each case is a copy, cut
down, of code an agent asked about, and the uses the map used to miss."""

from __future__ import annotations

from collections.abc import Iterable

from tests.unit.query.check import (
    Query,
    callees,
    callers,
    check,
    others,
    overrides,
    references,
    subtypes,
    supertypes,
    texts,
)


def test_django_query_add_q_every_call() -> None:
    # django/db/models/query.py: `self._query = query or sql.Query(self.model)`, a property
    # returning it, and `clone = self._chain()` (a method returning a clone of the class)
    check('''
    //- django/db/models/sql/query.py
    class Query:
        def add_q(self, q_object):
            return q_object

        def chain(self):
            return self
    //- django/db/models/sql/__init__.py
    from django.db.models.sql.query import Query
    //- django/db/models/query.py
    from django.db.models import sql


    class QuerySet:
        def __init__(self, model=None, query=None):
            self.model = model
            self._query = query or sql.Query(self.model)

        @property
        def query(self):
            if self._deferred_filter:
                self._deferred_filter = None
            return self._query

        def _filter_or_exclude_inplace(self, negate, args, kwargs):
            if negate:
                self._query.add_q(~Q(*args, **kwargs))
            else:
                self._query.add_q(Q(*args, **kwargs))

        def complex_filter(self, filter_obj):
            clone = self._chain()
            clone.query.add_q(filter_obj)
            return clone

        def _chain(self):
            obj = self._clone()
            return obj

        def _clone(self):
            c = self.__class__(model=self.model, query=self.query.chain())
            return c
    //- django/db/models/sql/subqueries.py
    from django.db.models.sql.query import Query


    class DeleteQuery(Query):
        def do(self, q):
            self.add_q(q)
    //- cursor.py
    from django.db.models.sql.query import Query
    Query().add$0_q(1)
    ''', references, '''
    django/db/models/query.py:17:25 call QuerySet._filter_or_exclude_inplace
    django/db/models/query.py:19:25 call QuerySet._filter_or_exclude_inplace
    django/db/models/query.py:23:21 call QuerySet.complex_filter
    cursor.py:2:9 call <module>
    django/db/models/sql/subqueries.py:6:14 call DeleteQuery.do
    ''')


def test_receivers_from_expressions_and_bindings() -> None:
    check('''
    //- lib.py
    class Conn:
        def se$0nd(self, data):
            return data

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        @classmethod
        def make(cls):
            return cls()

        def again(self) -> "Conn":
            return self
    //- use.py
    from lib import Conn


    def one(flag, given=None):
        a = given or Conn()
        a.send(1)
        b = Conn() if flag else None
        b.send(2)
        with Conn() as c:
            c.send(3)
        for d in [Conn(), Conn()]:
            d.send(4)
        e = Conn.make()
        e.send(5)
        Conn().again().send(6)
        return [x.send(7) for x in (Conn(),)]


    class Sub(Conn):
        def send(self, data):
            return super().send(data)
    ''', references, '''
    use.py:6:7 call one
    use.py:8:7 call one
    use.py:10:11 call one
    use.py:12:11 call one
    use.py:14:7 call one
    use.py:15:20 call one
    use.py:16:15 call one
    use.py:21:24 call Sub.send
    ''')


def test_click_param_types_every_subclass() -> None:
    # src/click/types.py: the subclasses of ParamType are written with subscripted bases, a
    # qualified one and one over two lines; supertypes of StringParamType were empty too
    check('''
    //- src/click/types.py
    import typing as t


    class Param$0Type:
        name: str


    class CompositeParamType(ParamType):
        is_composite = True


    class FuncParamType(ParamType[t.Any]):
        pass


    class StringParamType(ParamType[str]):
        pass


    class Choice(
        ParamType[t.Any],
    ):
        pass


    class _NumberParamTypeBase(ParamType[t.Any]):
        pass


    class IntParamType(_NumberParamTypeBase):
        pass
    //- src/click/__init__.py
    //- src/click/core.py
    from click import types


    class Path(types.ParamType[str]):
        pass
    ''', subtypes, '''
    1 py:src/click/types.py#CompositeParamType
    1 py:src/click/types.py#_NumberParamTypeBase
    1 py:src/click/core.py#Path
    1 py:src/click/types.py#Choice
    1 py:src/click/types.py#FuncParamType
    1 py:src/click/types.py#StringParamType
    2 py:src/click/types.py#IntParamType
    ''')
    check('''
    //- types.py
    import typing as t
    class ParamType: ...
    class StringParam$0Type(ParamType[str]): ...
    ''', supertypes, '''
    1 py:types.py#ParamType
    ''')


def test_django_get_normalized_value_callers_are_methods() -> None:
    # django/db/models/fields/related_lookups.py: the call sits in `self.rhs = [...]` inside
    # get_prep_lookup, and was said to be made by the field RelatedIn.rhs
    check('''
    //- related_lookups.py
    def get_normalized_$0value(value, lhs):
        return (value,)


    class In:
        pass


    class RelatedIn(In):
        def get_prep_lookup(self):
            if self.rhs_is_direct_value():
                self.rhs = [get_normalized_value(val, self.lhs)[0] for val in self.rhs]
            return self.rhs


    class RelatedLookupMixin:
        def get_prep_lookup(self):
            self.rhs = get_normalized_value(self.rhs, self.lhs)[0]
            return self.rhs
    ''', callers, '''
    py:related_lookups.py#RelatedIn.get_prep_lookup @ related_lookups.py:12
    py:related_lookups.py#RelatedLookupMixin.get_prep_lookup @ related_lookups.py:18
    ''')


def test_an_arrow_function_in_a_class_field_is_its_calls_caller() -> None:
    # oidc-client-ts (run 41): `protected _getClaimsFromJwt = async (text) => {…}` calls
    # JwtUtils.decode; the caller was said to be the class UserInfoService
    check('''
    //- jwt.ts
    export class JwtUtils {
        public static de$0code(token: string): string {
            return token;
        }
    }
    //- info.ts
    import { JwtUtils } from "./jwt";

    export class UserInfoService {
        private readonly _name = JwtUtils.decode("x");
        protected _getClaims = async (text: string): Promise<string> => {
            const payload = JwtUtils.decode(text);
            return payload;
        };
        private _check = (): string => JwtUtils.decode("y");
        protected _multi = async (
            text: string,
        ): Promise<string> => {
            return JwtUtils.decode(text);
        };
    }
    ''', callers, '''
    ts:info.ts#UserInfoService @ info.ts:4
    ts:info.ts#UserInfoService._getClaims @ info.ts:6
    ts:info.ts#UserInfoService._check @ info.ts:9
    ts:info.ts#UserInfoService._multi @ info.ts:13
    ''')


def test_an_untyped_receiver_named_like_a_class_family() -> None:
    # requests: `adapter = self.get_adapter(url=request.url)` then `adapter.send(request)`:
    # no type, but the variable's name ends the names of one class family
    check('''
    //- adapters.py
    class BaseAdapter:
        def se$0nd(self, request):
            raise NotImplementedError


    class HTTPAdapter(BaseAdapter):
        def send(self, request):
            return request
    //- sessions.py
    class Session:
        def get_adapter(self, url):
            for prefix, adapter in self.adapters.items():
                return adapter

        def send(self, request):
            adapter = self.get_adapter(url=request.url)
            return adapter.send(request)
    ''', references, '''
    sessions.py:8:24 call Session.send [name]
    ''')


_ADAPTERS = '''
//- adapters.py
class BaseAdapter:
    def {base}(self, request):
        raise NotImplementedError


class HTTPAdapter(BaseAdapter):
    def {http}(self, request):
        return request
//- sessions.py
class Session:
    def get_adapter(self, url):
        for prefix, adapter in self.adapters.items():
            return adapter

    def {session}(self, request):
        adapter = self.get_adapter(url=request.url)
        self.close()
        return adapter.send(request)

    def close(self):
        return None
'''


def _adapters(at: str) -> str:
    """The adapters fixture with the cursor on the ``send`` of ``at``."""
    names = {"base": "send", "http": "send", "session": "send"}
    return _ADAPTERS.format(**{**names, at: "se$0nd"})


def test_a_call_matched_by_name_is_marked_on_its_row() -> None:
    check(_adapters("base"), callers, '''
    py:sessions.py#Session.send @ sessions.py:9 [name]
    ''')
    # Session.send's callees: get_adapter() and close() are typed by self, send() by the
    # variable's name alone
    check(_adapters("session"), callees, '''
    py:sessions.py#Session.get_adapter @ sessions.py:7
    py:adapters.py#BaseAdapter.send @ sessions.py:9 [name]
    py:sessions.py#Session.close @ sessions.py:8
    ''')


def test_an_answer_says_what_it_leaves_out_of_the_uses_of_its_name() -> None:
    # the text check an agent runs after a references answer (grep the name, compare),
    # answered from the map's rows: a socket's send is unresolved, Session.send is another
    # definition, adapter.send is listed (matched by the variable's name)
    socket = '''
//- tests/low.py
def serve(sock):
    sock.send(b"x")
'''
    check(_adapters("base") + socket, others, '''
    unresolved 1, elsewhere 0
    tests/low.py:2 serve | sock.send(b"x")
    ''')
    # Session.send: adapter.send is BaseAdapter's by a guess from the name — which tells
    # nothing about Session.send's uses: unresolved as the socket's
    check(_adapters("session") + socket, others, '''
    unresolved 2, elsewhere 0
    sessions.py:9 Session.send | return adapter.send(request)
    tests/low.py:2 serve | sock.send(b"x")
    ''')
    # an import or a declaration of the name is no use of it
    check(_adapters("base") + socket + '''
//- tests/imp.py
from adapters import BaseAdapter
from other import send
''', others, '''
    unresolved 1, elsewhere 0
    tests/low.py:2 serve | sock.send(b"x")
    ''')


def test_an_override_names_the_members_whose_uses_may_run_it() -> None:
    # HTTPAdapter.send has no use of its own: the call goes through BaseAdapter.send
    check(_adapters("http"), overrides, '''
    py:adapters.py#BaseAdapter.send 1
    ''')
    check(_adapters("base"), overrides, "")


def test_types_that_lead_round_a_circle_end() -> None:
    # django: functions returning each other's results (the linker recursed without end)
    check('''
    //- a.py
    class Node:
        def first(self):
            return self.second()

        def second(self):
            return self.first()

        def walk(self):
            return self.fir$0st().second().first().name


    def one():
        return two()


    def two():
        return one()


    value = one().name
    //- b.py
    from a import Node, one
    x = Node().walk().first().missing
    y = one().anything
    ''', references, '''
    a.py:6:21 call Node.second
    a.py:9:21 call Node.walk
    b.py:2:19 call <module>
    ''')


def test_a_field_of_unknown_type_is_guessed_by_its_name() -> None:
    # marshmallow's Mapping: `self.key_field = resolve_field_instance(keys)` (an unannotated
    # function) then `self.key_field._serialize(...)`: the field's name ends the names of one
    # class family (Field, String …), so its root's member — marked, as a local's guess is
    check('''
    //- fields.py
    def resolve_field_instance(cls_or_instance):
        return cls_or_instance()


    class Field:
        def _seri$0alize(self, value):
            return value


    class String(Field):
        pass


    class Mapping(Field):
        def __init__(self, keys):
            self.key_field = resolve_field_instance(keys)
            self.inner = resolve_field_instance(keys)

        def _serialize(self, value):
            a = self.key_field._serialize(value)
            b = self.inner._serialize(value)
            return Field._serialize(self, a)
    ''', references, '''
    fields.py:20:28 call Mapping._serialize [name]
    fields.py:22:22 call Mapping._serialize
    ''')


def test_a_method_returning_the_bare_class_cell_is_mapped() -> None:
    # attrs tests/test_slots.py: `return __class__` (the zero-argument super() cell) crashed the
    # binder, and the whole file was mapped as crashed
    check('''
    //- slots.py
    class C:
        def my_class(self):
            return __class__

        def he$0lp(self):
            return 1


    C().my_class()
    C().help()
    ''', references, '''
    slots.py:10:5 call <module>
    ''')


def test_uses_on_a_type_outside_the_map_are_not_left_unresolved() -> None:
    # pluggy: `self._name2plugin.get(…)` on a dict field, `opts.get(…)` on a TypedDict; the
    # agent had to grep '.get(' to tell them from the tracer's get — they are dict's
    check('''
    //- tracing.py
    from typing import Final, TypedDict


    class Opts(TypedDict):
        firstresult: bool


    class Tracer:
        def g$0et(self, name):
            return name


    class Cache:
        def get(self, key):
            return key


    class Manager:
        def __init__(self, opts: Opts):
            self._plugins: Final[dict[str, int]] = {}
            self._seen = {}
            self.opts = opts

        def run(self, thing):
            self._plugins.get("a")
            self._seen.get("b")
            self.opts.get("firstresult")
            Tracer().get("c")
            return thing.get("d")
    ''', others, '''
    unresolved 1, elsewhere 3
    outside dict, TypedDict
    tracing.py:29 Manager.run | return thing.get("d")
    ''')
    check('''
    //- registry.ts
    export class Registry {
      protected _map = new Map<string, number>();
      h$0as(key: string): boolean {
        return this._map.has(key);
      }
    }
    export function probe(r: Registry, other: any) {
      return r.has("a") || other.has("b");
    }
    ''', others, '''
    unresolved 1, elsewhere 1
    outside Map
    registry.ts:8 probe | return r.has("a") || other.has("b");
    ''')


def test_a_value_made_by_a_function_outside_the_root_stays_unresolved() -> None:
    # structlog: `copied_logger = copy.deepcopy(BytesLogger())`, then `copied_logger.msg(…)`
    # is keyed as a member of `copy.deepcopy` — which says nothing of its type: it must stay
    # among the unresolved uses (it was counted as the `copy` module's)
    check('''
    //- out.py
    import copy


    class BytesLogger:
        def m$0sg(self, message):
            return message


    class PrintLogger:
        def msg(self, message):
            return message


    def test_deepcopy():
        copied_logger = copy.deepcopy(BytesLogger())
        copied_logger.msg(b"hello")
    ''', others, '''
    unresolved 1, elsewhere 0
    out.py:16 test_deepcopy | copied_logger.msg(b"hello")
    ''')


def test_the_text_search_after_an_answer_is_accounted_for_line_by_line() -> None:
    # run 8: the agent ran `map_search text:true` after 10 answers that said they were
    # complete, "to be sure"; the answer now says what that search finds and what each line is
    check('''
    //- log.py
    class Logger:
        def m$0sg(self, text):  # msg: the one to call
            return text


    class Other:
        def msg(self, text):
            return text


    def run(logger: Logger, other: Other, unknown):
        logger.msg("a")
        other.msg("b")
        unknown.msg("c")
        msg = "msg in a string"
        return msg
    ''', texts, '''
    6 lines, 1 listed
    unresolved 1: log.py:14
    other 1: log.py:13
    declared 1: log.py:7
    no use 2: log.py:15 log.py:16
    ''')


def test_a_stub_beside_its_module_does_not_make_a_second_class_family() -> None:
    # transitions ships core.pyi beside core.py: Machine.resolve_callable was defined twice,
    # so `event_data.machine.resolve_callable(…)` matched no family and stayed unresolved
    check('''
    //- core.py
    class Machine:
        def resolve_$0callable(self, func):
            return func


    class Condition:
        def check(self, event_data):
            return event_data.machine.resolve_callable(self)
    //- core.pyi
    class Machine:
        def resolve_callable(self, func: object) -> object: ...
    ''', callers, '''
    py:core.py#Condition.check @ core.py:8 [name]
    ''')


def test_an_awaited_call_with_type_arguments_is_a_call() -> None:
    # routing-controllers: `await getFromContainer<T>(x).use(…)` — tree-sitter-typescript
    # hangs the call on the awaited callee, and the use was not counted as a call
    check('''
    //- container.ts
    export function getFrom$0Container<T>(x: unknown): T {
      return x as T;
    }
    //- driver.ts
    import { getFromContainer } from "./container";

    export class Driver {
      async run(x: unknown) {
        return await getFromContainer<{ use(): number }>(x).use();
      }
    }
    ''', callers, '''
    ts:driver.ts#Driver.run @ driver.ts:5
    ''')


def test_the_text_check_counts_a_type_outside_the_map_as_another_definition() -> None:
    # inversify's Lookup.get: `this._map.get(…)` on a Map counted among "other 'get'" in
    # `unlisted` but as "on a receiver of unknown type" in `text` (6 said, 2 listed)
    check('''
    //- lookup.ts
    export class Lookup {
      private _map = new Map<string, number>();
      g$0et(key: string): number | undefined {
        return this._map.get(key);
      }
    }
    export function read(lookup: Lookup, other: any) {
      return lookup.get("a");
    }
    ''', texts, '''
    2 lines, 1 listed
    other 1: lookup.ts:4
    ''')


def test_a_call_that_initialises_a_constant_is_made_by_what_encloses_the_constant() -> None:
    # inversify's tests: `const dictionary = getBindingDictionary(container)` inside an
    # `it(() => …)` callback was answered with the caller "dictionary constant"
    check('''
    //- planner.ts
    export function getBinding$0Dictionary(c: number): number {
      return c;
    }
    //- planner.test.ts
    import { getBindingDictionary } from "./planner";

    it("works", () => {
      const dictionary: number = getBindingDictionary(1);
      expect(dictionary).equal(1);
    });

    export function helper(): number {
      const found = getBindingDictionary(2);
      return found;
    }
    ''', callers, '''
    ts:planner.test.ts @ planner.test.ts:4
    ts:planner.test.ts#helper @ planner.test.ts:9
    ''')


def test_a_field_initialised_with_its_own_name_reads_the_name_around_it() -> None:
    # ajv: `static MissingRefError = MissingRefError` re-exports the imported class through
    # the class; the right-hand side was resolved to the field itself, and the use was lost
    check('''
    //- ref_error.ts
    export default class Missing$0RefError extends Error {}
    //- core.ts
    import MissingRefError from "./ref_error";

    export class Ajv {
      static MissingRefError = MissingRefError;
    }
    ''', references, '''
    core.ts:1:8 import <module>
    core.ts:4:28 name Ajv
    ''')


def test_a_class_and_its_merged_interface_are_one_symbol() -> None:
    # yup declares each schema class twice (`interface ObjectSchema extends Schema` merged
    # with `class ObjectSchema extends Schema`): the symbol is one, its uses those of both
    check('''
    //- schema.ts
    export class Sch$0ema {}
    //- object.ts
    import { Schema } from "./schema";

    export interface ObjectSchema extends Schema {}
    export class ObjectSchema extends Schema {}

    export function make(): ObjectSchema {
      return new ObjectSchema();
    }
    ''', subtypes, '''
    1 ts:object.ts#ObjectSchema~2
    ''')
    check('''
    //- object.ts
    export interface ObjectSchema {}
    export class Object$0Schema {}

    export function make(): ObjectSchema {
      return new ObjectSchema();
    }
    ''', references, '''
    object.ts:4:25 name make
    object.ts:5:14 call make
    ''')  # (the interface's own line declares it: no use, as an overload's is none)


def test_a_field_whose_annotation_names_a_type_of_the_map_is_not_an_outside_type() -> None:
    # review: `self.h: Union[Handler, None] = None` made `self.h.run()` a use of "Union",
    # hidden from Handler.run's answer, which then said it was complete
    check('''
    //- handler.py
    from typing import Union


    class Handler:
        def r$0un(self):
            return 1


    class Other:
        def run(self):
            return 2


    class Holder:
        def __init__(self):
            self.h: Union[Handler, None] = None

        def go(self):
            self.h.run()
    ''', others, '''
    unresolved 1, elsewhere 0
    handler.py:19 Holder.go | self.h.run()
    ''')


def test_an_import_written_with_an_extension_is_counted_among_a_modules_imports() -> None:
    # review: `import { x } from "./missing/storage.js"` (ESM) was not seen by the importers'
    # completeness check, which then said every import of 'storage' was listed
    from codenav.query.references import other_imports
    from codenav.query.source import Lines

    def imports(q: Query) -> Iterable[str]:
        located = q.at()
        assert located.node is not None
        module = q.reader.node("ts:src/storage.ts")
        assert module is not None
        found = other_imports(q.reader, Lines(q.ws.root), module, set())
        yield f"unresolved {found.unresolved}, elsewhere {found.elsewhere}"

    check('''
    //- src/storage.ts
    export const defaultSt$0orage = 1;
    //- src/a.ts
    import { defaultStorage } from "./storage.js";
    //- src/b.ts
    import { other } from "./missing/storage.js";
    ''', imports, '''
    unresolved 1, elsewhere 0
    ''')


def test_a_name_in_all_is_listed_not_used() -> None:
    # every run's agents dropped `__all__` strings from codenav's uses by hand (a string is
    # no use in code); the text check accounts for them instead
    check('''
    //- pkg/pricing.py
    __all__ = ["Price"]


    class Pr$0ice:
        pass
    //- pkg/__init__.py
    from pkg.pricing import Price

    __all__ = ["Price"]
    ''', references, '''
    pkg/__init__.py:1:25 import <module>
    ''')


def test_a_member_of_a_class_outside_the_map_is_that_classs() -> None:
    # aiosmtplib: `writer.write(…)` on `writer: asyncio.StreamWriter` (and a transport) were
    # listed among the unknown receivers of SMTPProtocol.write; they are asyncio's
    check('''
    //- proto.py
    import asyncio
    from asyncio import BaseTransport


    class SMTPProtocol:
        def wr$0ite(self, data):
            return data


    def send(writer: asyncio.StreamWriter, transport: BaseTransport, p: SMTPProtocol):
        writer.write(b"x")
        transport.write(b"y")
        p.write(b"z")
        made = asyncio.StreamWriter(None, None, None, None)
        made.write(b"w")
    ''', others, '''
    unresolved 0, elsewhere 3
    outside asyncio.StreamWriter, asyncio.BaseTransport
    ''')


def test_a_super_call_to_a_base_outside_the_map_is_that_bases() -> None:
    # sequelize-typescript (run 66): `return super.model(…)` in Sequelize.model, whose base
    # is the sequelize package's: two unknown receivers to judge, one line above the other
    check('''
    //- seq.ts
    import { Sequelize as OriginSequelize } from 'sequelize';

    export class Sequelize extends OriginSequelize {
      mo$0del(name: string): any {
        return super.model(name);
      }
      other(): any {
        return this.model('x');
      }
    }
    ''', others, '''
    unresolved 0, elsewhere 1
    outside OriginSequelize
    ''')


def test_a_method_s_name_read_on_an_unknown_receiver_is_no_guess() -> None:
    # sequelize-typescript (run 66): `include.model && …` on `include: any` listed as [name]
    # uses of the one method named model, Sequelize.model: a member read, not called, is a
    # field's likelier (left unresolved); a call of it is still guessed
    fixture = '''
    //- seq.ts
    export class Sequelize {
      mo$0del(name: string): any { return name }
    }
    export function infer(include: any, s: any): any {
      s.model('x')
      return include.model
    }
    '''
    check(fixture, others, '''
    unresolved 1, elsewhere 0
    seq.ts:6 infer | return include.model
    ''')
    check(fixture, references, '''
    seq.ts:5:5 call infer [name]
    ''')


def test_a_class_of_the_map_deriving_from_the_outside_type_keeps_its_uses_unknown() -> None:
    # `t: asyncio.BaseTransport` may hold a transport of the map's that overrides write()
    check('''
    //- proto.py
    import asyncio


    class Mine(asyncio.BaseTransport):
        def wr$0ite(self, data):
            return data


    def send(t: asyncio.BaseTransport):
        t.write(b"y")
    ''', others, '''
    unresolved 1, elsewhere 0
    proto.py:10 send | t.write(b"y")
    ''')


def test_many_unknown_receivers_are_listed_by_receiver_and_line() -> None:
    # typescript-collections: 107 `set.add(…)`, `heap.add(…)` on `any` values beside
    # LinkedList.add were "too many to list"; by receiver they cost a few bytes a use
    body = "\n".join(f"    s.add({i})" if i % 2 else f"    h.add({i})" for i in range(14))
    check(f'''
    //- lst.py
    class LinkedList:
        def a$0dd(self, x):
            return x


    def fill(s, h):
{body}
        h.add(99); h.add(100)
    ''', others, '''
    unresolved 15, elsewhere 0
    lst.py h.add: 7,9,11,13,15,17,19,21
    lst.py s.add: 8,10,12,14,16,18,20
    ''')


def test_a_bare_name_is_no_call_of_a_method() -> None:
    # markdown (run 15): `set(…)` (the built-in) was listed among the unknown receivers of
    # State.set, and `el.set(…)` on an ElementTree element guessed to be State.set
    check('''
    //- state.py
    class State(list):
        def s$0et(self, state):
            self.append(state)


    class Parser:
        def __init__(self):
            self.state = State()
            self.tags = set()

        def run(self, el):
            self.state.set("list")
            el.set("alt", "x")
            return set(["a"])
    ''', others, '''
    unresolved 1, elsewhere 2
    state.py:13 Parser.run | el.set("alt", "x")
    ''')
    check('''
    //- state.py
    class State(list):
        def s$0et(self, state):
            self.append(state)


    def run(state: State, el):
        state.set("list")
        el.set("alt", "x")
    ''', references, '''
    state.py:7:11 call run
    ''')


def test_a_variable_named_like_a_class_does_not_guess_a_builtin_member() -> None:
    # ioredis (run 15): `this.offlineQueue.push(…)` was guessed to be DelayQueue.push (a
    # variable named like the class); `push` is an array's — unless the variable is named
    # the class itself
    check('''
    //- queue.ts
    export class DelayQueue {
      pu$0sh(item: number): void {}
      run(item: number): void {}
    }

    export function use(offlineQueue, delayQueue) {
      offlineQueue.push(1);
      delayQueue.run(2);
      delayQueue.push(3);
    }
    ''', references, '''
    queue.ts:9:14 call use [name]
    ''')


def test_the_files_importing_another_module_so_named_are_named() -> None:
    # markdown (run 15): "1 file(s) import another module named 'util'" sent the agent to
    # four text searches to find which; it was `import importlib.util`
    from codenav.query.references import other_imports
    from codenav.query.source import Lines

    def imports(q: Query) -> Iterable[str]:
        module = q.reader.node("py:pkg/util.py")
        assert module is not None
        found = other_imports(q.reader, Lines(q.ws.root), module, {"pkg/core.py"})
        yield f"unresolved {found.unresolved}, elsewhere {found.elsewhere}"
        yield from found.outside

    check('''
    //- pkg/__init__.py
    //- pkg/util.py
    def hel$0per():
        return 1
    //- pkg/core.py
    from pkg import util
    //- pkg/loader.py
    import importlib.util
    ''', imports, '''
    unresolved 0, elsewhere 1
    pkg/loader.py (importlib.util)
    ''')


def test_the_text_check_tells_comments_and_strings_from_local_names() -> None:
    # konva (run 16): "72 comments/strings/local names … +64 more" sent the agents to grep
    # for a real call among them; comments and strings are told apart by the line's text
    check('''
    //- log.py
    class Logger:
        def m$0sg(self, text):
            return text


    def run(logger: Logger):
        # msg: a comment
        logger.msg("a")  # msg again
        print("msg in a string", 'and msg')
        msg = 1
        return missing.msg
    ''', texts, '''
    5 lines, 1 listed
    unresolved 1: log.py:11
    comment 1: log.py:7
    string 1: log.py:9
    no use 1: log.py:10
    ''')


def test_a_comment_is_told_by_the_languages_own_markers() -> None:
    # review: `n = total // count` (Python), `#if defined(count)` (C), `--count;` and a
    # JavaScript private field `#count` were all "comments"
    from codenav.query.references import _no_use

    cases = [("n = total // count", "a.py", "no use"), ("*count, last = xs", "a.py", "no use"),
             ("#if defined(count)", "a.c", "no use"), ("#count = 0;", "a.ts", "no use"),
             ("--count;", "a.c", "no use"), ("*count = 1;", "a.c", "no use"),
             ("// count", "a.ts", "comment"), ("# count", "a.py", "comment"),
             ("* @param count", "a.ts", "comment"), ("x = 1  # count", "a.py", "comment"),
             ("x = 1; // count", "a.go", "comment"), ('print("count")', "a.py", "string"),
             ("x = 'a' # count", "a.rb", "comment")]
    assert [_no_use(code, "count", path) for code, path, _ in cases] == \
        [want for _, _, want in cases]


def test_a_factory_function_returning_new_makes_that_class() -> None:
    # cockatiel (run 28): `const b = bulkhead(2); b.execute(…)`, where `function bulkhead() {
    # return new BulkheadPolicy(…) }` has no return type: 12 calls stayed unresolved, and
    # tsserver's whole-family answer named every policy's execute (11 calls to sort out)
    check('''
    //- src/policies.ts
    export class BulkheadPolicy {
      public exe$0cute(fn: () => number): number { return fn(); }
    }
    export class RetryPolicy {
      public execute(fn: () => number): number { return fn(); }
    }
    export function bulkhead(limit: number) {
      return new BulkheadPolicy();
    }
    export function retry(times: number) {
      if (times < 0) { throw new Error('no'); }
      return new RetryPolicy();
    }
    //- src/use.ts
    import { bulkhead, retry } from './policies';
    const b = bulkhead(2);
    const r = retry(1);
    b.execute(() => 1);
    r.execute(() => 2);
    ''', references, '''
    src/use.ts:4:3 call <module>
    ''')


def test_a_local_holding_a_member_has_the_members_type() -> None:
    # zrender (run 30, M27): `let rect = this._paintRect` (a field declared `BoundingRect`),
    # `rect = this._paintRect || (this._paintRect = new BoundingRect())` after `let rect;`, and
    # `const s = rect.clone()` (a method ending `return new BoundingRect()`): each was a
    # `[name]` row or an unknown receiver the agent judged with three text searches
    check('''
    //- src/rect.ts
    export class BoundingRect {
      co$0py(other: BoundingRect): void {}
      clone() { return new BoundingRect(); }
    }
    export class Point {
      copy(other: Point): void {}
    }
    //- src/paint.ts
    import { BoundingRect, Point } from './rect';
    export class Paint {
      protected _paintRect: BoundingRect;
      private _stroke: BoundingRect;
      private _point: Point;
      a(el: BoundingRect) {
        const rect = this._paintRect;
        rect.copy(el);
      }
      b(el: BoundingRect) {
        let rect;
        rect = this._paintRect || (this._paintRect = new BoundingRect());
        rect.copy(el);
        const stroke = this._stroke ?? (this._stroke = el.clone());
        stroke.copy(el);
      }
      c(el: BoundingRect) {
        const s = el.clone();
        s.copy(el);
        const p = this._point;
        p.copy(p);
      }
      d(el: BoundingRect, fresh: boolean) {
        let rect;
        if (fresh) { rect = new BoundingRect(); } else { rect = this._paintRect; }
        rect.copy(el);
        let r2;
        r2 = this._paintRect;
        r2 = new BoundingRect();
        r2.copy(el);
      }
    }
    ''', references, '''
    src/paint.ts:8:10 call Paint.a
    src/paint.ts:13:10 call Paint.b
    src/paint.ts:15:12 call Paint.b
    src/paint.ts:19:7 call Paint.c
    src/paint.ts:26:10 call Paint.d
    src/paint.ts:30:8 call Paint.d
    ''')


def test_a_python_local_holding_an_attribute_has_its_type() -> None:
    # `rect = self._paint` then `rect.copy(…)`: the attribute's type, as `self._paint.copy(…)`
    # has; an attribute of unknown type leaves the local's uses unknown as its own are
    check('''
    //- shapes.py
    class Rect:
        def co$0py(self, other):
            pass


    class Painter:
        def __init__(self, made):
            self._paint = Rect()
            self._made = made

        def draw(self, el):
            rect = self._paint
            rect.copy(el)
            made = self._made
            made.copy(el)
    ''', references, '''
    shapes.py:13:14 call Painter.draw
    ''')


def test_a_function_returning_a_local_makes_what_the_local_is() -> None:
    # brain.js (run 33): `function xorNet() { const net = new RNN(…); …; return net; }` in a
    # test; `xorNet().backpropagate()`'s 4 calls were [name] rows the agent traced by hand
    check('''
    //- src/rnn.ts
    export class RNN {
      backpro$0pagate(): void {}
      self() { return this; }
      private inner: RNN;
      child() { return this.inner; }
    }
    //- src/rnn.test.ts
    import { RNN } from './rnn';
    class Other { backpropagate(): void {} }
    function xorNet() {
      const net = new RNN();
      return net;
    }
    function other() {
      const o = new Other();
      return o;
    }
    const net = xorNet();
    net.backpropagate();
    other().backpropagate();
    new RNN().self().backpropagate();
    new RNN().child().backpropagate();
    ''', references, '''
    src/rnn.test.ts:12:5 call <module>
    src/rnn.test.ts:14:18 call <module>
    src/rnn.test.ts:15:19 call <module>
    ''')


def test_a_member_of_a_literal_is_the_languages_not_an_unknown_receiver() -> None:
    # mistletoe (run 33): `''.strip()`, `'\n'.join(…)` were unknown receivers written
    # `=.strip`, and an expression's `*.strip`, which the agent could not read
    check('''
    //- tokens.py
    class Escape:
        def st$0rip(self):
            return self

    def clean(lines, i):
        a = ' x '.strip()
        b = lines[i].strip()
        c = [x.strip() for x in lines]
        return a, b, c
    ''', others, '''
    unresolved 2, elsewhere 1
    outside literal
    tokens.py:7 clean | b = lines[i].strip()
    tokens.py:8 clean | c = [x.strip() for x in lines]
    ''')


def test_a_member_called_by_its_name_in_a_string_is_called() -> None:
    # mqtt.js (run 35): the packet handlers call `client['_sendPacket'](…)` (a private
    # method); 7 calls were "in strings" and the answer said none was left out
    check('''
    //- src/client.ts
    export class MqttClient {
      private _sendPa$0cket(p: number): void {}
      go() { this['_sendPacket'](1); }
    }
    //- src/handle.ts
    import { MqttClient } from './client';
    const handleAck = (client: MqttClient, n: number) => {
      client['_sendPacket'](n);
      const x = { '_sendPacket': 1 };
    };
    export default handleAck;
    ''', callers, '''
    ts:src/handle.ts#handleAck @ src/handle.ts:3
    ts:src/client.ts#MqttClient.go @ src/client.ts:3
    ''')


def test_a_class_named_in_a_string_annotation_is_used_there() -> None:
    # rq (run 36): `Optional['Retry']`, `-> 'Dependency'` are forward references; they were
    # "in strings" beside the docstrings, and the agent read them apart by hand
    check('''
    //- rq/retry.py
    class Re$0try:
        pass
    //- rq/job.py
    from typing import TYPE_CHECKING, Optional
    if TYPE_CHECKING:
        from rq.retry import Retry


    def make(retry: Optional['Retry'] = None) -> 'Retry':
        """A 'Retry' is made here."""
        kept: 'Retry' = retry
        label = 'Retry'
        return kept
    ''', references, '''
    rq/job.py:3:26 import <module>
    rq/job.py:6:27 name make
    rq/job.py:8:12 name make
    ''')
