"""``source`` semantics where a one-shot call meets a server it will not start: the map
answers at once and says why — that a call would have to start one, or that a warm server
is starting it for the next calls (codenav/warm.py)."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from codenav.index.pipeline import index_tree
from codenav.query.fresh import Freshness
from codenav.query.live import ask_at
from codenav.query.locate import locate
from codenav.tools.dispatch import call_tool
from codenav.workspace import Workspace


@pytest.mark.parametrize(("warm", "why"), [(False, "would_start"), (True, "warm_starting")])
def test_a_one_shot_call_answers_from_the_map_and_says_why(tmp_path: Path, warm: bool,
                                                           why: str) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    return 1\n")
    index_tree(root)
    ws = Workspace(root, lsp="auto", lsp_background=False)
    ws.warm_elsewhere = warm
    try:
        located = locate(ws, ws.reader(), Freshness(ws), symbol="f")

        def request(target: object) -> object:  # what would be asked (nothing is)
            return ("textDocument/hover", target)

        live = anyio.run(ask_at, ws, located, "auto", "hover", request)
        assert not live.answered and live.fallback is not None
        assert live.fallback.why == why
        envelope = anyio.run(call_tool, ws, "nav_hover", {"symbol": "f"})
        assert envelope["data"]["source"] == "map"
        said = " ".join(envelope.get("warnings", []))
        assert ("in the background" in said) == warm
        # a server still starting: the note says what asking again could change (runs 53's
        # agent repeated its first calls, unmarked rows and all)
        assert ("asking again once it is ready rarely changes more than rows marked" in said
                ) == warm
        assert ws.pool is not None and ws.pool.state("py") == "idle"  # none started
    finally:
        ws.close()


def test_a_server_hover_keeps_its_code_and_the_first_paragraph() -> None:
    from lsprotocol import types as T

    from codenav.query.definitions import hover_text

    doc = ("```python\n(method) def set_cookie(\n    self,\n    key: str\n) -> None\n```\n---\n"
           "Sets a cookie.\n\nA warning is raised&nbsp;if the size exceeds...\n\n"
           ":param key: the key\n")
    text = hover_text(T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown,
                                                       value=doc)))
    assert text == ("```python\n(method) def set_cookie(\n    self,\n    key: str\n) -> None\n```"
                    "\n\nSets a cookie.\n\n…")
    assert hover_text(T.Hover(contents="plain")) == "plain"


def test_a_hover_whose_first_paragraph_is_a_whole_docstring_is_cut() -> None:
    # transitions' Machine.__init__: an `Args:` block with no blank line in it made the
    # "first paragraph" 3.5 KB, though the signature was all a parameters question needed
    from lsprotocol import types as T

    from codenav.query.definitions import hover_text

    args = "".join(f"    arg{i} (str): what argument {i} is for, at some length.  \n"
                   for i in range(40))
    doc = f"```python\n(method) def __init__(self, arg0: str = 'a') -> None\n```\n\nArgs:  \n{args}"
    text = hover_text(T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown,
                                                       value=doc)))
    assert text.startswith("```python\n(method) def __init__(self, arg0: str = 'a') -> None\n```")
    assert len(text) < 450 and text.endswith("…")


def test_a_hover_leaves_the_docs_examples_out() -> None:
    # konva (run 16): Node.fire's hover carried its JSDoc example after the first paragraph
    from lsprotocol import types as T

    from codenav.query.definitions import hover_text

    doc = ("```typescript\n(method) Node.fire(eventType: string, evt?: any): this\n```\n\n"
           "fire event\n\n```js\n// fire click event\nnode.fire('click');\n```\n\n"
           "*@param* `eventType` event type")
    text = hover_text(T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown,
                                                       value=doc)))
    assert text == ("```typescript\n(method) Node.fire(eventType: string, evt?: any): this\n"
                    "```\n\nfire event\n\n…")
