"""The `paddlecourse` command line: what an author or instructor runs from a shell."""
import argparse
import os
import sys


def _kernel(args):
    from .kernel import install_kernel, install_lab_defaults

    print(f"course kernel installed in {install_kernel(prefix=args.prefix, user=args.user)}")
    if not args.user:   # Lab reads defaults from an environment's prefix only
        print(f"JupyterLab's course defaults (no news toast, no update check) in {install_lab_defaults(args.prefix)}")


def _build(args):
    from pathlib import Path

    from .author.build import EDITIONS, build_editions, build_lessons, execute_solution
    from .author.sources import solution_paths

    if args.execute:
        for path in solution_paths(args.solutions, include_extras=True):
            print(f"executing {path}")
            execute_solution(path)
    for path, missing in build_editions(args.solutions).items():
        print(f"wrote {path}" + (f" ({len(missing)} markdown cells not translated yet)" if missing else ""))
    if args.execute:
        for lang in EDITIONS:
            for path in solution_paths(Path(args.solutions) / lang, include_extras=True):
                print(f"executing {path}")
                execute_solution(path)
    for path in build_lessons(args.solutions, args.lessons):
        print(f"wrote {path}")
    from .author.readme_links import update_readmes
    from .author.settings_page import update_pages

    for path in update_readmes():   # the launch badges, from the course's public address
        print(f"wrote {path}")
    for path in update_pages():     # the table of PADDLECOURSE_* variables, from paddlecourse/settings.py
        print(f"wrote {path}")


def _translations(args):
    from .author.catalogues import update

    print(update(args.lang, args.solutions))


def _verify(args):
    from . import verify

    if args.facts or args.lesson:
        return _facts(args)
    report = verify()
    print(report)
    return 0 if report.ok else 1


def _facts(args):
    import time
    from importlib import metadata

    from .facts import catalogue, format_report, run_facts

    facts = catalogue(args.lesson)
    if not facts:
        print(f"no facts for lesson(s) {', '.join(args.lesson)}", file=sys.stderr)
        return 2
    start = time.monotonic()
    results = run_facts(facts, jobs=args.jobs)
    try:   # not `import paddle`: the report must come even when Paddle does not import
        version = metadata.version("paddlepaddle")
    except metadata.PackageNotFoundError:
        version = "?"
    print(format_report(results, version, time.monotonic() - start))
    return 0 if all(r.verdict == "holds" for r in results) else 1


def _course(args):
    from .teach import grading
    from .teach.grading.preflight import CourseMistake, check

    try:
        check(args.action, args.dir, args.assignment)
    except CourseMistake as mistake:
        print(mistake, file=sys.stderr)
        return 2
    try:
        return _course_action(args)
    except (grading.IntegrityError, grading.SandboxMissing) as stop:
        print(f"paddlecourse course {args.action}: STOPPED. {stop}", file=sys.stderr)
        return 3


def _course_action(args):
    from .teach import grading as instructor

    action = args.action
    if action == "create":
        path = instructor.create_course(args.dir, exchange=args.exchange, overwrite_config=args.overwrite_config,
                                        generate=not args.no_generate, lang=args.lang)
        ids = ", ".join(instructor.lessons_by_assignment())
        step = "generate ASSIGNMENT, then release ASSIGNMENT" if args.no_generate else "release ASSIGNMENT"
        print(f"course directory ready: {path}\nassignments: {ids}\nnext: cd {path} && paddlecourse course {step}")
        return 0
    if action == "timing":
        text, _ = instructor.timing_report(args.notebooks or None)
        print(text)
        return 0
    if action == "notes":
        profiles = instructor.write_presenter_notes(args.out)
        print(f"notes for {len(profiles)} lessons in {args.out}/\n")
        print(instructor.schedule_markdown(profiles))
        return 0
    if action == "sync":
        print("copied to source/: " + ", ".join(instructor.sync_sources(args.dir)))
        return 0
    if action == "trust":
        path = instructor.record(args.dir)
        print(f"recorded nbgrader_config.py, source/ and the gradebook's manual scores as they are now ({path})")
        return 0
    if action == "export":
        print(f"grades written to {instructor.export_grades(args.dir, args.to)}")
        return 0
    if action == "generate":
        instructor.generate_assignment(args.dir, args.assignment)
        print(f"student version of {args.assignment} in {args.dir}/release/{args.assignment}/")
    elif action == "release":
        instructor.release_assignment(args.dir, args.assignment)
        print(f"{args.assignment} released; students run: nbgrader fetch_assignment {args.assignment} "
              f"--course {instructor.COURSE_ID} --Exchange.root={instructor.exchange_root(args.dir)}")
    elif action == "collect":
        instructor.collect(args.dir, args.assignment)
        students = instructor.submitted_students(args.dir, args.assignment)
        print(f"collected {args.assignment}: {', '.join(students)}" if students else
              f"nobody has submitted {args.assignment} yet: students hand in with `nbgrader submit {args.assignment}`")
    elif action == "grade":
        if args.no_sandbox:
            print("WARNING: grading WITHOUT the sandbox. " + instructor.sandbox.RISK, file=sys.stderr)
        report = instructor.grade_class(args.dir, args.assignment, echo=args.verbose, timeout=args.timeout,
                                        jobs=args.jobs, sandboxed=not args.no_sandbox)
        print(report)
    elif action == "feedback":
        pages = instructor.generate_feedback(args.dir, args.assignment, release=not args.no_release)
        print(f"{len(pages)} feedback pages in {args.dir}/feedback/" + ("" if args.no_release else " (released)"))
        if pages.failed:
            print(f"No feedback for {', '.join(pages.failed)}: their notebook did not convert (nbgrader's log above "
                  "says why); look at it by hand.", file=sys.stderr)
            return 1
    return 0


def _course_entry(args):
    # `paddlecourse course create DIR`: the positional names the new directory
    if args.action == "create":
        args.dir, args.assignment = args.assignment or (args.dir if args.dir != "." else None), None
        if not args.dir:
            print("paddlecourse course create needs the new course directory, e.g. ~/paddle-grading", file=sys.stderr)
            return 2
    elif args.action == "timing" and args.assignment:
        args.notebooks = [args.assignment, *args.notebooks]
    return _course(args)


def _progress(args):
    from .progress import print_notebook_progress

    return print_notebook_progress(*args.notebook)


def _lessons(args):
    from .lesson_copies import LessonCopyError, report, write_lessons

    try:
        written, unchanged, kept = write_lessons(args.folder, lang=args.lang)
    except LessonCopyError as error:
        print(error, file=sys.stderr)
        return 2
    print(report(args.folder, written, unchanged, kept))
    return 1 if kept else 0


def _live_coding(args):
    from .teach.live_coding import build_live_copies

    for path in build_live_copies(args.solutions, args.out, keep_tests=not args.no_tests):
        print(f"wrote {path}")


def _wheelhouse(args):
    from .teach.wheelhouse import TARGETS, build_wheelhouse

    platforms = list(args.platform or [])
    if args.target:
        platforms += TARGETS[args.target]
    extras = ["lab", *(e for e in args.extra or () if e != "lab")]
    wheels = build_wheelhouse(args.dest, platform=platforms or None, python_version=args.python_version,
                              extras=extras, pip_args=args.pip_arg or ())
    print(f"{len(wheels)} wheels in {args.dest}; install offline as {args.dest}/INSTALL.txt says:\n"
          f"  pip install --no-index --find-links {args.dest} \"paddlecourse[{','.join(extras)}]\"")


def _links(args):
    from .author.deploy_links import NO_ADDRESS, LinkError, binder_badge, lesson_links, public_repository

    try:
        repo = args.repo if args.repo is not None else public_repository()
        if repo is None:
            raise LinkError(f"paddlecourse links: {NO_ADDRESS}.")
        if args.binder:
            print(binder_badge(repo, args.branch, args.lang))
            return 0
        if args.hub is None:
            raise LinkError("paddlecourse links needs --hub URL (or --binder for the Binder badge).")
        links = lesson_links(args.hub, repo, args.branch, args.lessons, lang=args.lang)
    except LinkError as error:
        print(error, file=sys.stderr)
        return 2
    for name, link in links:
        print(f"{name}\t{link}" if args.names else link)
    return 0


def _site(args):
    from .author.deploy_links import LinkError
    from .author.site import SiteError, build_site

    try:
        report = build_site(args.out, hub_url=args.hub_url, repo=args.repo, branch=args.branch)
    except (SiteError, LinkError) as error:
        print(f"paddlecourse site: {error}", file=sys.stderr)
        return 2
    print(report)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="paddlecourse", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    kernel = commands.add_parser("kernel", help="install the course kernel (quiet Paddle logs) and JupyterLab's "
                                 "course defaults (no news toast) into this environment")
    kernel.add_argument("--prefix", help="install under this prefix instead of the running environment")
    kernel.add_argument("--user", action="store_true", help="install the kernel for the current user instead (no Lab defaults)")
    kernel.set_defaults(run=_kernel)

    build = commands.add_parser("build", help="regenerate lessons/ (student copies) from solutions/")
    build.add_argument("--execute", action="store_true", help="first re-run each solution to refresh its outputs")
    build.add_argument("--solutions", default="solutions", help="folder of instructor notebooks (default: solutions)")
    build.add_argument("--lessons", default="lessons", help="folder for student copies (default: lessons)")
    build.set_defaults(run=_build)

    translations = commands.add_parser(
        "translations", help="authors: refresh the translation catalogues from solutions/ and the library "
        "(changed English marks its translation fuzzy)")
    translations.add_argument("action", choices=["update"])
    translations.add_argument("--lang", default="zh", help="the catalogues' language (default: zh)")
    translations.add_argument("--solutions", default="solutions", help="folder of English instructor notebooks")
    translations.set_defaults(run=_translations)

    check = commands.add_parser("verify", help="run the five post-install checks")
    check.add_argument("--facts", action="store_true",
                       help="instead: re-check the lessons' statements about Paddle on the installed Paddle, per lesson")
    check.add_argument("--lesson", action="append", help="with --facts: only this lesson's statements (repeatable), e.g. 00")
    check.add_argument("--jobs", type=int, help="with --facts: probes run at a time (default: up to 4)")
    check.set_defaults(run=_verify)

    course = commands.add_parser(
        "course", help="instructors: an nbgrader course directory for this course (see instructors/README.md)")
    course.add_argument("action", choices=["create", "sync", "generate", "release", "collect", "grade",
                                           "export", "feedback", "timing", "notes", "trust"])
    course.add_argument("assignment", nargs="?", help="assignment id, e.g. l00 (create: the course directory)")
    course.add_argument("--dir", default=".", help="the course directory (default: the current one)")
    course.add_argument("--exchange", help="create: exchange folder (default: <course>/exchange)")
    course.add_argument("--overwrite-config", action="store_true", help="create: rewrite nbgrader_config.py")
    course.add_argument("--no-generate", action="store_true", help="create: do not generate student versions yet")
    course.add_argument("--lang", choices=["en", "zh"], default="en",
                        help="create: the edition the course is made from (zh: solutions/zh/, same grade ids)")
    course.add_argument("--no-release", action="store_true", help="feedback: generate only, do not release")
    course.add_argument("--to", default="grades.csv", help="export: CSV file (default: grades.csv)")
    course.add_argument("--out", default="instructors/notes", help="notes: folder for the presenter notes")
    course.add_argument("--timeout", type=int, help="grade: per-cell timeout in seconds for this run only")
    course.add_argument("--verbose", action="store_true", help="grade: show nbgrader's log as it runs")
    course.add_argument("--jobs", type=int, help="grade: submissions judged at a time (default: number of cores)")
    course.add_argument("--no-sandbox", action="store_true",
                        help="grade: run submissions WITHOUT bubblewrap (they can then reach your files)")
    course.add_argument("notebooks", nargs="*", help="timing: notebooks to time (default: every solution)")
    course.set_defaults(run=_course_entry)

    progress = commands.add_parser(
        "progress", help="learners: which exercises of a saved lesson notebook passed, failed or were not run")
    progress.add_argument("notebook", nargs="+", help="saved lesson notebooks, e.g. lessons/02_autograd_by_hand.ipynb "
                                                      "(several at once: lessons/0*.ipynb)")
    progress.set_defaults(run=_progress)

    lessons = commands.add_parser(
        "lessons", help="learners: write the lessons (student copies) into a folder of yours, never over your work")
    lessons.add_argument("folder", nargs="?", default="paddlecourse-lessons",
                         help="where to write them (default: ./paddlecourse-lessons; created if missing)")
    lessons.add_argument("--lang", default="en", help="the edition: en (default) or zh (中文)")
    lessons.set_defaults(run=_lessons)

    live = commands.add_parser("live-coding", help="presenters: copies of the lessons with the code cells emptied")
    live.add_argument("--out", default="live-coding", help="output folder (default: live-coding)")
    live.add_argument("--solutions", default="solutions", help="folder of instructor notebooks (default: solutions)")
    live.add_argument("--no-tests", action="store_true", help="empty the exercises' test cells too")
    live.set_defaults(run=_live_coding)

    wheels = commands.add_parser("wheelhouse", help="workshops: a folder of wheels to install the course offline")
    wheels.add_argument("dest", help="folder to fill with wheels")
    wheels.add_argument("--target", choices=["linux", "linux-aarch64", "mac-arm64", "mac-x86_64", "windows"],
                        help="a named platform (default: this machine)")
    wheels.add_argument("--platform", action="append", help="a pip platform tag (repeatable), e.g. win_amd64")
    wheels.add_argument("--python-version", help="e.g. 3.11 (default: this Python when a platform is named)")
    wheels.add_argument("--extra", action="append", help="also the wheels of an extra besides lab (JupyterLab), "
                                                         "e.g. teach")
    wheels.add_argument("--pip-arg", action="append", help="passed to pip as is, e.g. --pip-arg=--index-url=URL")
    wheels.set_defaults(run=_wheelhouse)

    links = commands.add_parser("links", help="instructors on a JupyterHub: one nbgitpuller link per lesson")
    links.add_argument("--repo", help="the course repository's clone URL (default: Repository under [project.urls] "
                                      "in pyproject.toml)")
    links.add_argument("--branch", default="main", help="the branch learners get (default: main)")
    links.add_argument("--hub", help="the hub's address, e.g. https://hub.example.org")
    links.add_argument("--binder", action="store_true", help="print the README's Binder badge for the repository instead")
    links.add_argument("--lessons", help="the lessons folder to list (default: this checkout's lessons/)")
    links.add_argument("--names", action="store_true", help="print each lesson's file name before its link")
    links.add_argument("--lang", choices=["en", "zh"], default="en", help="the edition the links open (zh: lessons/zh/)")
    links.set_defaults(run=_links)

    site = commands.add_parser(
        "site", help="authors: the course as a static website (English and Chinese), from the stored outputs")
    site.add_argument("--out", default="build/site", help="folder for the HTML (default: build/site; emptied first)")
    site.add_argument("--hub-url", help="a JupyterHub's address for each lesson's nbgitpuller button, e.g. "
                                        "https://hub.example.org (default: $PADDLECOURSE_HUB_URL; none: no hub button)")
    site.add_argument("--repo", help="the repository the launch links open (default: Repository under [project.urls] "
                                     "in pyproject.toml; without one, no launch links)")
    site.add_argument("--branch", help="its branch (default: origin's default branch, else main)")
    site.set_defaults(run=_site)

    args = parser.parse_args(argv)
    try:
        return args.run(args) or 0
    except BrokenPipeError:
        # the reader went away (`paddlecourse progress ... | head`): what it read was enough, not an error;
        # stdout goes to /dev/null so the interpreter's own flush at exit does not complain again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
