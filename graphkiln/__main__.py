"""``python -m graphkiln <command>``.

Commands:
  tour    run one small example of every technique that works today and print a table
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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
