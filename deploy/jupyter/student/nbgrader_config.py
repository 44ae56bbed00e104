"""nbgrader for a student on the course hub: one course, the shared exchange, no course directory."""
import os

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "paddlecourse"
c.Exchange.root = os.environ.get("PADDLECOURSE_EXCHANGE", "/srv/nbgrader/exchange")
# Fetched assignments and feedback land in the learner's home, where the server starts.
c.Exchange.assignment_dir = os.path.expanduser("~")
