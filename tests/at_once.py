"""Races on purpose: calls started at the same instant, each in its own thread and database
connection, so the services' locks and unique rows are what keeps them apart."""

import threading

from django.db import connection

from biblios_site import errors


def at_once(*calls) -> list:
    """Each call's result, or the ServiceError it was refused with, in the calls' order."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except errors.ServiceError as refusal:
            outcomes[index] = refusal
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes
