"""``python -m graphkiln <command>``.

Commands:
  tour    run one example of every technique of the spec and print a table
  run     run a MindSpore script (or ``-m module``) unchanged (``import mindspore`` gives graphkiln)
  dump    run a script (or load a .mindir file), then print what graphkiln compiled: stages,
          IR, generated code
  cache   list (or --clear) the entries of a compile cache directory
  msrun   start a data-parallel job of N workers (MindSpore's msrun flags)
"""
from __future__ import annotations

import argparse
import os
import sys

from . import compat, launcher
from .compile import call_cache, entry_store


def _cmd_tour(args: argparse.Namespace) -> int:
    from . import tour  # CLI start-up time: only `tour` loads the examples

    entries = tour.ENTRIES
    if args.only:
        entries = [(n, f) for n, f in entries if args.only.lower() in n.lower()]
        if not entries:
            print(f"no tour entry matches {args.only!r}", file=sys.stderr)
            return 2
    results = tour.run(entries)
    print(tour.format_table(results))
    return 0 if all(r.ok for r in results) else 1


def _cmd_run(args: argparse.Namespace) -> int:
    target = args.target
    if target[:1] == ["-m"] and len(target) > 1:
        compat.run_module(target[1], target[2:])
    elif target and not target[0].startswith("-"):
        compat.run(target[0], target[1:])
    else:
        print("graphkiln run: give a script (run script.py ...) or a module (run -m pytest ...)",
              file=sys.stderr)
        return 2
    return 0


def _cmd_dump(args: argparse.Namespace) -> int:
    call_cache.COMPILED = []
    if args.script.endswith(".mindir"):  # a model file: its graph, compiled as a GraphCell
        from .train.model_export import compile_file

        compile_file(args.script)
    else:
        compat.run(args.script, args.args)
    for info in call_cache.COMPILED:
        print(f"\n=== {info.name}" + (" (from the compile cache)" if info.from_cache else ""))
        if info.records:
            print(info.table())
        print(info.ir(detail=args.detail))
        if args.code:
            print(info.source)
    return 0


def _cmd_cache(args: argparse.Namespace) -> int:
    path = os.path.abspath(args.path)
    if args.clear:
        try:
            removed = entry_store.clear(path, dry_run=args.dry_run)
        except entry_store.NotACacheDirectory as e:
            print(f"graphkiln cache --clear: {e}", file=sys.stderr)
            return 2
        for name in removed:
            print(("would remove " if args.dry_run else "removed ") + name)
        verb = "would remove" if args.dry_run else "removed"
        print(f"{verb} {len(removed)} entries from {path}")
        return 0
    if not os.path.isdir(path):
        print(f"no compile cache at {path}")
        return 0
    if not entry_store.is_cache_directory(path):
        print(f"{path} is not a graphkiln compile cache", file=sys.stderr)
        return 2
    names = sorted(n for n in os.listdir(path) if entry_store.ENTRY_NAME.match(n))
    total = 0
    for name in names:
        size = os.path.getsize(os.path.join(path, name))
        total += size
        print(f"{name}  {size / 1024:.1f} KiB")
    print(f"{len(names)} entries, {total / 1024:.1f} KiB in {path}")
    return 0


def _cmd_msrun(args: argparse.Namespace) -> int:
    return launcher.main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m graphkiln",
        description="graphkiln: a static-graph compiler for MindSpore-style Python, on NumPy.")
    sub = parser.add_subparsers(dest="command", metavar="command")
    sub.required = True
    p = sub.add_parser("tour", help="run an example of every technique that works today")
    p.add_argument("--only", metavar="TEXT",
                   help="run only the entries whose name contains TEXT")
    p.set_defaults(func=_cmd_tour)
    r = sub.add_parser("run", help="run a MindSpore script with graphkiln in its place")
    r.add_argument("target", nargs=argparse.REMAINDER, metavar="script.py ... | -m module ...",
                   help="a script and its arguments, or -m and a module (e.g. -m pytest)")
    r.set_defaults(func=_cmd_run)
    d = sub.add_parser("dump", help="run a script and print what graphkiln compiled")
    d.add_argument("--detail", action="store_true", help="abstracts and source lines in IR")
    d.add_argument("--code", action="store_true", help="also print the generated Python")
    d.add_argument("script", help="a script, or a .mindir file to load and compile")
    d.add_argument("args", nargs=argparse.REMAINDER)
    d.set_defaults(func=_cmd_dump)
    c = sub.add_parser("cache", help="list or clear a compile cache directory")
    c.add_argument("--path", default="graphkiln_compile_cache")
    c.add_argument("--clear", action="store_true",
                   help="remove the cache's entries (only graphkiln's entry files)")
    c.add_argument("--dry-run", action="store_true",
                   help="with --clear: list what would be removed, remove nothing")
    c.set_defaults(func=_cmd_cache)
    m = sub.add_parser("msrun", help="start a data-parallel job (MindSpore's msrun flags)",
                       allow_abbrev=False)  # script options may share a prefix with ours
    launcher.add_arguments(m)
    m.set_defaults(func=_cmd_msrun)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["run"] and argv[1:2] == ["-m"]:
        # argparse would take the module's own options (-q, -k ...) for graphkiln's
        return _cmd_run(argparse.Namespace(target=argv[1:]))
    args = build_parser().parse_args(argv)
    return args.func(args)


def msrun_main() -> int:
    """The ``msrun`` command that installing graphkiln puts on PATH (MindSpore's launcher
    command and flags; workers run their script with graphkiln in MindSpore's place)."""
    parser = argparse.ArgumentParser(prog="msrun", allow_abbrev=False,
                                     description="start a data-parallel job of N workers")
    launcher.add_arguments(parser)
    return launcher.main(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
