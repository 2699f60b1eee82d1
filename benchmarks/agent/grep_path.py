"""The grep path: the shell commands an efficient engineer runs, for real, in the corpus.

One ``grep -rn`` of the name for uses (``--include`` of the language's files); nothing is
read whole. What each kind of question runs:

- **refs**: ``grep -rnw NAME``.
- **callers**: ``grep -rnE "\\bNAME\\s*\\("`` (the calls), then one ``awk`` over the
  files with calls that prints, for each call, only its enclosing definition: the nearest
  definition line above it indented less than it (a statement at a lower indentation
  closes the definitions above it). Not a listing of every definition of those files.
- **subclasses**: ``grep -rnE "class \\w+\\(.*\\bName\\b"`` (``extends``/``implements``
  in TypeScript), level by level until a level finds none.
- **members**: the class's line (``grep -rnE "^class Name\\b"``), then the definition lines
  one level inside it, from that line to the class's end (``awk``).
- **params**: for ``Class.method``, the class's line, then the method's signature lines
  inside the class (``awk``, up to the line that ends the signature); for a function, one
  ``awk`` printing its signature in the files that define it.
- **importers**: ``grep -rlE`` of the import lines naming the module (the files only).
- **outline**: ``grep -nE`` of the file's definition lines.

Bytes are stdout + stderr. The answer is read the way an agent reads those lines: file and
line, comment lines left out, a call is the name followed by ``(``, the nesting of an
outline by indentation. Where grep cannot answer exactly in principle (a name defined more
than once: every same-named use comes back), the answer says so in ``limit``.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from benchmarks.agent.questions import Question
from benchmarks.agent.scoring import Answer, Fact
from benchmarks.agent.signature import parameters

__all__ = ["Dialect", "ask", "enclosing_program", "grep_lines", "read_enclosing"]

_COMMENT = re.compile(r"^\s*(#|//|\*|/\*)")
_TS_MODIFIERS = "public|protected|private|static|async|get|set|abstract|override|readonly"


@dataclass(frozen=True)
class Dialect:
    """What the commands say about one language: its files, its definition lines (as POSIX
    EREs for ``grep -E`` and ``awk``) and its comments."""

    include: str  # grep --include pattern
    definition: str  # a line defining a function, method or class
    container: str  # a line defining a class (or interface): members are one level in
    member: str  # a member's declaration after its indentation ("": definition covers it)
    signature_end: str  # the line a signature ends on
    comment: str  # a comment line
    indent: str  # one level of indentation


PYTHON = Dialect(
    include="*.py",
    definition=r"^[ \t]*(async[ \t]+)?def[ \t]|^[ \t]*class[ \t]",
    container=r"^[ \t]*class[ \t]",
    member="",
    signature_end=r":[ \t]*(#.*)?$",
    comment=r"^[ \t]*#",
    indent="    ")
TYPESCRIPT = Dialect(
    include="*.ts",
    definition=(r"^[ \t]*(export[ \t]+)?(default[ \t]+)?(declare[ \t]+)?(async[ \t]+)?"
                r"function|^[ \t]*(export[ \t]+)?(default[ \t]+)?(declare[ \t]+)?"
                r"(abstract[ \t]+)?(class|interface)[ \t]"),
    container=(r"^[ \t]*(export[ \t]+)?(default[ \t]+)?(declare[ \t]+)?(abstract[ \t]+)?"
               r"(class|interface)[ \t]"),
    member=(rf"(({_TS_MODIFIERS})[ \t]+)*(\[[^]]+\]|[A-Za-z_$][A-Za-z0-9_$]*)[?]?"
            r"(<.*>)?[ \t]*\("),
    signature_end=r"[{;][ \t]*$",
    comment=r"^[ \t]*(\/\/|\*|\/\*)",  # an awk regex literal: / escaped
    indent="  ")
DIALECTS = {"python": PYTHON, "typescript": TYPESCRIPT}

# the name a definition line defines (in grep's or awk's output, after file:line:)
_DEFINED = re.compile(
    r"(?:\bdef|\bclass|\binterface|\bfunction\*?|\benum|\bnamespace)\s+([A-Za-z_$][\w$]*)")
_MEMBER = re.compile(
    rf"^\s+(?:(?:{_TS_MODIFIERS})\s+)*(\[[^]]+\]|[A-Za-z_$][\w$]*)\??(?:<.*>)?\s*\(")


def _q(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


class Shell:
    """Runs commands in the corpus's folder, recording each and the bytes it printed."""

    def __init__(self, root: Path, answer: Answer) -> None:
        self.root = root
        self.answer = answer

    def run(self, command: str) -> str:
        done = subprocess.run(["bash", "-c", command], cwd=self.root, capture_output=True,
                              text=True, errors="replace", check=False)
        out = done.stdout + done.stderr
        self.answer.record(command, len(out.encode()))
        return out


def numbered_lines(out: str) -> list[tuple[int, str]]:
    """``(line, text)`` of ``line:text`` lines (``grep -n`` of one file)."""
    return [(int(m.group(1)), m.group(2)) for raw in out.splitlines()
            for m in [re.match(r"^(\d+):(.*)$", raw)] if m]


def grep_lines(out: str) -> list[tuple[str, int, str]]:
    """``(file, line, text)`` of ``file:line:text`` lines (``grep -rn``, and the awk
    programs here, which print the same)."""
    rows = []
    for raw in out.splitlines():
        found = re.match(r"^(.+?):(\d+):(.*)$", raw)
        if found:
            rows.append((found.group(1).removeprefix("./"), int(found.group(2)),
                         found.group(3)))
    return rows


def _word(name: str) -> str:
    """``name`` as a whole word in an ERE (no ``\\b`` or ``\\<``: mawk has neither)."""
    return rf"(^|[^A-Za-z0-9_$]){re.escape(name)}([^A-Za-z0-9_$]|$)"


def _call(name: str) -> str:
    return rf"(^|[^A-Za-z0-9_$]){re.escape(name)}[ \t]*(<[^()]*>)?\("


def ask(root: Path, question: Question, language: str) -> Answer:
    answer = Answer()
    sh = Shell(root, answer)
    dialect = DIALECTS[language]
    kind = question.kind
    if kind == "refs":
        _refs(sh, question, dialect, language)
    elif kind == "callers":
        _callers(sh, question, dialect)
    elif kind == "subclasses":
        _subclasses(sh, question, dialect, language)
    elif kind == "members":
        _members(sh, question, dialect)
    elif kind == "params":
        _params(sh, question, dialect)
    elif kind == "importers":
        _importers(sh, question, language, root)
    elif kind == "outline":
        _outline(sh, question, dialect, language)
    else:
        raise ValueError(kind)
    if not question.unique and kind in ("refs", "callers"):
        answer.limit = (f"name only: grep cannot tell {question.target}'s "
                        f"{'uses' if kind == 'refs' else 'calls'} from those of the other "
                        f"definitions named {question.name}")
    return answer


def _search(dialect: Dialect, flags: str, pattern: str) -> str:
    return f"grep {flags} --include={_q(dialect.include)} {_q(pattern)}"


def _refs(sh: Shell, question: Question, dialect: Dialect, language: str) -> None:
    name = question.name
    out = sh.run(f"grep -rnw --include={_q(dialect.include)} {name}")
    sign = "#" if language == "python" else "//"
    sh.answer.facts = {(f, n) for f, n, text in grep_lines(out) if not _COMMENT.match(text)
                       and re.search(rf"\b{re.escape(name)}\b", text.split(sign, 1)[0])}


def enclosing_program(dialect: Dialect, name: str) -> str:
    """The awk program printing, once per file and definition, the definition around each
    call of ``name``: ``file:line:<its definition line>``, or ``file:line:<module>`` for a
    call outside any. A definition stays open until a line indented as much or less
    (blank and comment lines aside) starts; a member line counts as a definition only
    directly inside a container (a class: not a call statement in a function)."""
    member = (f"($0 ~ /^[ \\t]+{dialect.member}/ && n && box[n])" if dialect.member else "0")
    return (
        "FNR == 1 { n = 0 } "
        "/^[ \\t]*$/ { next } "
        f"/{dialect.comment}/ {{ next }} "
        "{ i = match($0, /[^ \\t]/); c = substr($0, i, 1) } "
        # a closing bracket starts no statement (`): T {` ends a signature)
        "c != \")\" && c != \"]\" && c != \"}\" { while (n && at[n] >= i) n-- } "
        f"/{dialect.definition}/ || {member} {{ "
        f"n++; at[n] = i; box[n] = ($0 ~ /{dialect.container}/); def[n] = FNR \":\" $0; "
        "next } "
        f"/{_call(name)}/ {{ k = FILENAME \":\" (n ? def[n] : FNR \":<module>\"); "
        "if (!(k in seen)) { seen[k] = 1; print k } }")


def read_enclosing(out: str) -> set[Fact]:
    """``(file, name)`` of each line ``enclosing_program`` printed."""
    facts: set[Fact] = set()
    for file, _, text in grep_lines(out):
        if text == "<module>":
            facts.add((file, "<module>"))
            continue
        found = _DEFINED.search(text) or _MEMBER.match(text)
        if found:
            facts.add((file, found.group(1)))
    return facts


def _callers(sh: Shell, question: Question, dialect: Dialect) -> None:
    name = question.name
    out = sh.run(_search(dialect, "-rnE", rf"\b{name}\s*\("))
    files = sorted({f for f, _, text in grep_lines(out)
                    if not _COMMENT.match(text) and re.search(_call(name), text)})
    if files:
        listing = sh.run(f"awk {_q(enclosing_program(dialect, name))} {' '.join(files)}")
        sh.answer.facts = read_enclosing(listing)


def _subclasses(sh: Shell, question: Question, dialect: Dialect, language: str) -> None:
    found: set[Fact] = set()
    level = {question.name}
    while level:
        names = "|".join(sorted(level))
        pattern = (rf"^\s*class \w+\(.*\b({names})\b" if language == "python" else
                   rf"(class|interface) \w+.*\b(extends|implements) .*\b({names})\b")
        out = sh.run(_search(dialect, "-rnE", pattern))
        defined = {m.group(1) for _, _, text in grep_lines(out) if not _COMMENT.match(text)
                   for m in [re.search(r"(?:class|interface) (\w+)", text)] if m}
        level = defined - found - {question.name}
        found |= defined
    sh.answer.facts = found


def _class_line(sh: Shell, dialect: Dialect, name: str, python: bool) -> tuple[str, int, int]:
    """The file, line and indentation of the class ``name`` (its first definition), from
    one grep; ("", 0, 0) when there is none."""
    pattern = (rf"^\s*class {name}\b" if python else
               rf"^\s*(export )?(default )?(abstract )?class {name}\b")
    for file, line, text in grep_lines(sh.run(_search(dialect, "-rnE", pattern))):
        return file, line, len(text) - len(text.lstrip())
    return "", 0, 0


def _inside(line: int, indent: int, python: bool) -> str:
    """awk: the lines after ``line`` up to the end of a class indented ``indent``."""
    end = (f"/^{' ' * indent}[^ \\t#)]/" if python else f"/^{' ' * indent}}}/")
    return f"NR > {line} && {end} {{ exit }} NR > {line} && "


def _members(sh: Shell, question: Question, dialect: Dialect) -> None:
    python = dialect is PYTHON
    file, line, indent = _class_line(sh, dialect, question.name, python)
    if not file:
        return
    inner = " " * indent + dialect.indent
    definition = (rf"^{inner}(async[ \t]+)?def[ \t]" if python else
                  f"^{inner}{dialect.member}")
    out = sh.run(f"awk {_q(_inside(line, indent, python) + '/' + definition + '/')} {file}")
    names = set()
    for text in out.splitlines():
        found = _DEFINED.search(text) if python else _MEMBER.match(text)
        if found:
            names.add(found.group(1))
    sh.answer.facts = names


def _params(sh: Shell, question: Question, dialect: Dialect) -> None:
    python = dialect is PYTHON
    name = re.escape(question.name)

    def printing(start: str) -> str:
        return f"/{start}/ {{ p = 1 }} p {{ print }} p && /{dialect.signature_end}/ {{ exit }}"

    if question.owner:  # Class.method: the signature one level inside the class
        file, line, indent = _class_line(sh, dialect, question.owner, python)
        if not file:
            return
        inner = " " * indent + dialect.indent
        start = (rf"^{inner}(async[ \t]+)?def[ \t]+{name}[ \t]*\(" if python else
                 rf"^{inner}(({_TS_MODIFIERS})[ \t]+)*{name}[ \t]*[(<]")
        out = sh.run(f"awk {_q(_inside(line, indent, python) + printing(start))} {file}")
    else:  # a function: its signature where it is defined
        start = (rf"^[ \t]*(async[ \t]+)?def[ \t]+{name}[ \t]*\(" if python else
                 rf"^[ \t]*(export[ \t]+)?(async[ \t]+)?function[ \t]*[*]?[ \t]*{name}"
                 r"[ \t]*[(<]")
        defined = _search(dialect, "-rlE", rf"(def|function)\s+{question.name}\b")
        out = sh.run(f"awk {_q(printing(start))} $({defined})")
    sh.answer.ordered = parameters(out, question.name)
    sh.answer.facts = set(sh.answer.ordered)


def _importers(sh: Shell, question: Question, language: str, root: Path) -> None:
    target = Path(question.target)
    if language == "python":
        module, package = target.stem, root.name
        pattern = (rf"^\s*(from ({package})?\.{module} import|import {package}\.{module}\b|"
                   rf"from ({package}|\.) import .*\b{module}\b)")
    else:
        pattern = rf"from ['\"]([^'\"]*/)?{target.stem}['\"]"
    out = sh.run(_search(DIALECTS[language], "-rlE", pattern))
    sh.answer.facts = {line.removeprefix("./") for line in out.splitlines() if line}


def _outline(sh: Shell, question: Question, dialect: Dialect, language: str) -> None:
    python = language == "python"
    pattern = dialect.definition if python else (
        rf"{dialect.definition}|^(export[ \t]+)?(declare[ \t]+)?(enum|namespace)[ \t]|"
        f"^{dialect.indent}{dialect.member}|^}}")
    out = sh.run(f"grep -nE {_q(pattern)} {question.target}")
    sh.answer.facts = _nesting([text for _, text in numbered_lines(out)], python)


def _nesting(lines: list[str], python: bool) -> set[Fact]:
    """Qualified names of definition lines, nested by indentation (TypeScript: members
    of the top-level class or interface above them; an indented call in a function is
    not a member)."""
    names: set[Fact] = set()
    stack: list[tuple[int, str]] = []
    container = False  # TypeScript: the top-level definition above is a class/interface
    for text in lines:
        indent = len(text) - len(text.lstrip())
        if python:
            found = _DEFINED.search(text)
        else:
            if text == "}":
                stack.clear()
                continue
            found = _DEFINED.search(text) if not text.startswith(" ") else None
            if found:
                container = re.search(r"\b(class|interface)\s", text) is not None
            member = _MEMBER.match(text) if text.startswith(" ") else None
            if member:
                if container and stack:
                    names.add(f"{stack[0][1]}.{member.group(1)}")
                continue
        if not found:
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, found.group(1)))
        names.add(".".join(s for _, s in stack))
    return names
