"""The analysis job, in the database's job queue (django-tasks, TASKS in the settings)."""

from django_tasks import task

from games.analysis import services

QUEUE = "analysis"


@task(queue_name=QUEUE)
def analyse(analysis_id: int) -> None:
    services.run_analysis(analysis_id)
