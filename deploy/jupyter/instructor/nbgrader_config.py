"""nbgrader for the instructor on the course hub: the course directory made by
`paddlecourse course create ~/paddle-grading --exchange /srv/nbgrader/exchange`, shown in Formgrader."""
import os

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "paddlecourse"
c.CourseDirectory.root = os.path.expanduser(os.environ.get("PADDLECOURSE_COURSE_DIR", "~/paddle-grading"))
c.Exchange.root = os.environ.get("PADDLECOURSE_EXCHANGE", "/srv/nbgrader/exchange")
c.Exchange.assignment_dir = os.path.expanduser("~")
