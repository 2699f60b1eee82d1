"""What a receiver's type is, as real code writes it (issue 20): each case is a copy, cut
down, of code an agent asked about, and the uses the map used to miss."""

from __future__ import annotations

from tests.unit.query.check import callers, check, references, subtypes, supertypes


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
