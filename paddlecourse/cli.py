"""The `paddlecourse` command line: what an author or instructor runs from a shell."""
import argparse
import sys


def _kernel(args):
    from .kernel import install_kernel

    print(f"course kernel installed in {install_kernel(prefix=args.prefix, user=args.user)}")


def _build(args):
    from .build import build_lessons, execute_solution, solution_paths

    if args.execute:
        for path in solution_paths(args.solutions):
            print(f"executing {path}")
            execute_solution(path)
    for path in build_lessons(args.solutions, args.lessons):
        print(f"wrote {path}")


def _verify(args):
    from . import verify

    report = verify()
    print(report)
    return 0 if report.ok else 1


def main(argv=None):
    parser = argparse.ArgumentParser(prog="paddlecourse", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    kernel = commands.add_parser("kernel", help="install the course kernel (quiet Paddle logs) into this environment")
    kernel.add_argument("--prefix", help="install under this prefix instead of the running environment")
    kernel.add_argument("--user", action="store_true", help="install for the current user instead")
    kernel.set_defaults(run=_kernel)

    build = commands.add_parser("build", help="regenerate lessons/ (student copies) from solutions/")
    build.add_argument("--execute", action="store_true", help="first re-run each solution to refresh its outputs")
    build.add_argument("--solutions", default="solutions", help="folder of instructor notebooks (default: solutions)")
    build.add_argument("--lessons", default="lessons", help="folder for student copies (default: lessons)")
    build.set_defaults(run=_build)

    check = commands.add_parser("verify", help="run the five post-install checks")
    check.set_defaults(run=_verify)

    args = parser.parse_args(argv)
    return args.run(args) or 0


if __name__ == "__main__":
    sys.exit(main())
