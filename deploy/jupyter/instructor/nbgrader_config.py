"""nbgrader for the instructor on the course hub: the course directory made by
`paddlecourse course create ~/paddle-grading --exchange /srv/nbgrader/exchange`, shown in Formgrader."""
import os

from paddlecourse.settings import setting   # the server's environment has the course installed

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "paddlecourse"
c.CourseDirectory.root = os.path.expanduser(setting("PADDLECOURSE_COURSE_DIR"))
c.Exchange.root = setting("PADDLECOURSE_EXCHANGE")
c.Exchange.assignment_dir = os.path.expanduser("~")
