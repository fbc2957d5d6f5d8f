"""``python -m graphkiln <command>``.

Commands:
  tour    run one example of every technique of the spec and print a table
  run     run a MindSpore script unchanged (``import mindspore`` gives graphkiln)
"""
from __future__ import annotations

import argparse
import sys


def _cmd_tour(args: argparse.Namespace) -> int:
    from . import tour

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
    from . import compat

    compat.run(args.script, args.args)
    return 0


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
    r.add_argument("script")
    r.add_argument("args", nargs=argparse.REMAINDER)
    r.set_defaults(func=_cmd_run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
